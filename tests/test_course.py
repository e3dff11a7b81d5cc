"""Unit tests for the course package: profiles, device, seeding, models, data, widgets, plots, assertions."""
import math

import matplotlib
import numpy as np
import pytest
import torch

import course
from course import data, models, plots, testing, widgets
from course.profile import PROFILES

matplotlib.use("Agg")


@pytest.mark.parametrize("name", ["grade", "cpu", "gpu", " GPU "])
def test_profile_reads_environment(monkeypatch, name):
    monkeypatch.setenv("COURSE_PROFILE", name)
    assert course.profile() == name.strip().lower()


def test_profile_default_follows_cuda(monkeypatch):
    monkeypatch.delenv("COURSE_PROFILE", raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert course.profile() == "gpu"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert course.profile() == "cpu"


def test_unknown_profile_is_refused(monkeypatch):
    monkeypatch.setenv("COURSE_PROFILE", "fast")
    with pytest.raises(ValueError, match="grade, cpu, gpu"):
        course.profile()


def test_grade_profile_never_uses_cuda(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setenv("COURSE_PROFILE", "grade")
    assert course.device().type == "cpu"
    monkeypatch.setenv("COURSE_PROFILE", "gpu")
    assert course.device().type == "cuda"


def test_sizes_grow_from_grade_to_gpu(monkeypatch):
    by_profile = {}
    for name in PROFILES:
        monkeypatch.setenv("COURSE_PROFILE", name)
        by_profile[name] = vars(course.sizes("ch01"))
    for knob, grade in by_profile["grade"].items():
        assert grade <= by_profile["cpu"][knob] <= by_profile["gpu"][knob], knob
    with pytest.raises(KeyError, match="ch99"):
        course.sizes("ch99")


def test_seed_everything_repeats_draws():
    course.seed_everything(3)
    a = torch.rand(4).tolist()
    course.seed_everything(3)
    assert torch.rand(4).tolist() == a


def test_mlp_layout_and_seeding():
    m = models.MLP([100, 512, 256, 10])
    assert [n for n, _ in m.named_parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias", "4.weight", "4.bias"]
    assert [n for n, _ in m.linear_layers()] == ["0", "2", "4"]
    assert m(torch.zeros(3, 100)).shape == (3, 10)
    state = torch.random.get_rng_state()
    a, b = models.seeded_mlp([4, 3, 2], seed=7), models.seeded_mlp([4, 3, 2], seed=7)
    assert torch.equal(torch.random.get_rng_state(), state), "seeded_mlp must not consume the global RNG"
    assert all(torch.equal(p, q) for p, q in zip(a.parameters(), b.parameters()))
    with pytest.raises(ValueError):
        models.MLP([5])


def test_teacher_classification_is_reproducible_and_learnable():
    x, y = data.teacher_classification(200, 10, 4, seed=1)
    x2, y2 = data.teacher_classification(200, 10, 4, seed=1)
    assert torch.equal(x, x2) and torch.equal(y, y2)
    assert x.shape == (200, 10) and y.dtype == torch.int64
    assert len(set(y.tolist())) == 4
    _, noisy = data.teacher_classification(200, 10, 4, seed=1, noise=0.5)
    assert 0 < (noisy != y).float().mean().item() < 0.5


def test_symmetric_matrix_has_the_requested_spectrum():
    eig = [0.5, 2.0, 9.0, 4.0]
    h = data.symmetric_matrix(eig, seed=3)
    assert torch.equal(h, h.T)
    got = torch.linalg.eigvalsh(h).tolist()
    assert got == pytest.approx(sorted(eig), rel=1e-10)
    assert h.diagonal().max().item() < max(eig), "the diagonal must not give the spectrum away"


def test_descend_bowl_flips_at_two_over_lambda_max():
    limit = 2 / max(widgets.BOWL_EIGENVALUES)
    below = widgets.descend_bowl(0.98 * limit, 400)["losses"]
    above = widgets.descend_bowl(1.02 * limit, 400)["losses"]
    assert below[-1] < 1e-3 * below[0]
    assert above[-1] > above[0]
    assert len(widgets.descend_bowl(5.0, 1000)["path"]) < 1000, "a divergent run stops early"


def test_lr_explorer_draws_both_panels():
    fig = widgets.draw_lr_explorer(0.15, 10)
    left, right = fig.axes[:2]
    assert len(left.lines[0].get_ydata()) == 11
    assert "2/λmax" in left.get_title()
    assert right.collections, "contours drawn"


def test_lr_slider_wires_the_pure_callback(monkeypatch):
    calls = []
    monkeypatch.setattr(widgets, "draw_lr_explorer", lambda lr, steps: calls.append((lr, steps)))
    box = widgets.lr_slider(steps=7, initial_lr=0.02)
    slider = box.children[0]
    assert slider.description == "lr" and slider.value == pytest.approx(0.02)
    slider.value = 0.1
    assert calls[-1] == (pytest.approx(0.1), 7)


def test_plots_skip_non_finite_points():
    ax = plots.loss_curves({"a": [1.0, 0.5, float("nan")], "b": [1.0, float("inf")]})
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["a (1 non-finite)", "b (1 non-finite)"]
    assert plots.bars({"x": 1.0, "y": 2.0}).patches


def test_expect_close_messages_name_value_expected_actual_and_tolerance():
    assert testing.expect_close("v", [1.0, 2.0], torch.tensor([1.0, 2.0]), rtol=1e-5, atol=0.0) is None
    assert testing.expect_close("v", 1.0 + 1e-9, 1.0, rtol=1e-5, atol=0.0) is None
    with pytest.raises(AssertionError, match=r"grad\['std'\]: expected 2 at index 1, got 2.5 .*allowed"):
        testing.expect_close("grad['std']", [1.0, 2.5], [1.0, 2.0], rtol=1e-5, atol=0.0)
    with pytest.raises(AssertionError, match="expected 3 values, got 2"):
        testing.expect_close("v", [1.0, 2.0], [1.0, 2.0, 3.0], rtol=1e-5, atol=0.0)
    testing.expect_close("nan", float("nan"), float("nan"), rtol=1e-5, atol=0.0)
    with pytest.raises(AssertionError):
        testing.expect_close("nan vs number", float("nan"), 1.0, rtol=1e-5, atol=0.0)
    with pytest.raises(AssertionError, match=r"expected 'a' \(str\), got 'b' \(str\)"):
        testing.expect_equal("label", "b", "a")


def test_expect_close_demands_stated_tolerances():
    """A default atol of 1e-8 once hid a float32 computation of a value near 1e-8: no tolerance goes unsaid."""
    with pytest.raises(TypeError):
        testing.expect_close("v", 1.0, 1.0)
    with pytest.raises(AssertionError, match="allowed 0e\\+00"):
        testing.expect_close("tiny", 2e-8, 1e-8, rtol=1e-6, atol=0.0)


def test_expect_type_and_shape_name_what_the_statement_asked_for():
    testing.expect_type("grad_stats(g)['std']", np.float64(0.5), float)
    testing.expect_type("order", (1, 2), list, tuple)
    with pytest.raises(AssertionError, match=r"lr_sweep\(...\)\[0\]: expected a float, got torch.Tensor"):
        testing.expect_type("lr_sweep(...)[0]", torch.tensor(0.5), float)
    testing.expect_shape("relu_backward(dy, x)", torch.zeros(2, 3), (2, 3))
    with pytest.raises(AssertionError, match=r"expected shape \(2, 3\), got \(6,\)"):
        testing.expect_shape("relu_backward(dy, x)", torch.zeros(6), torch.Size([2, 3]))
    with pytest.raises(AssertionError, match="expected a torch.Tensor, got builtins.list"):
        testing.expect_shape("relu_backward(dy, x)", [0.0] * 6, (6,))


def test_expect_equal_is_not_fooled_by_an_object_equal_to_everything():
    class Anything(str):
        def __eq__(self, other):
            return True

        __hash__ = str.__hash__

    with pytest.raises(AssertionError, match=r"\(Anything\)"):
        testing.expect_equal("classify_run(...)", Anything("converging"), "stalled")
    with pytest.raises(AssertionError):
        testing.expect_equal("names", [Anything("x")], ["y"])
    with pytest.raises(AssertionError):
        testing.expect_equal("count", True, 1)
    testing.expect_equal("shape", (2, 3), (2, 3))
    testing.expect_equal("keys", {"a": [1, 2.5]}, {"a": [1, 2.5]})
    testing.expect_equal("dtype", torch.float64, torch.float64)


def test_expect_close_copies_values_out_of_graphs():
    w = torch.ones(3, requires_grad=True)
    testing.expect_close("w*2", w * 2, [2.0, 2.0, 2.0], rtol=0.0, atol=0.0)
    assert math.isclose(w.sum().item(), 3.0)


def test_float32_matmul_precision_is_restored_after_the_block():
    from course.precision import float32_matmul

    before = torch.get_float32_matmul_precision()
    with float32_matmul("high"):
        assert torch.get_float32_matmul_precision() == "high"
    assert torch.get_float32_matmul_precision() == before
    with pytest.raises(ValueError, match="expected one of"):
        with float32_matmul("tf32"):
            pass


def test_progress_bar_writes_to_stdout_and_leaves_no_thread(capfd):
    import threading

    from course.progress import progress

    threads = threading.active_count()
    assert list(progress(range(3), desc="sweep")) == [0, 1, 2]
    with progress(total=2, desc="stages") as bar:
        bar.update(2)
    assert threading.active_count() == threads, "tqdm's monitor thread must not be left running"
    out, err = capfd.readouterr()
    assert err == "" and "sweep" in out and "stages" in out


def test_progress_bar_in_the_grade_profile_prints_the_same_every_run(capfd, monkeypatch):
    import time

    from course.progress import progress

    monkeypatch.setenv("COURSE_PROFILE", "grade")
    runs = []
    for pause in (0.0, 0.02):
        for _ in progress(range(3), desc="sweep"):
            time.sleep(pause)
        runs.append(capfd.readouterr().out)
    assert runs[0] == runs[1] and "3/3" in runs[0] and "it/s" not in runs[0], runs
