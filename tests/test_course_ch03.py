"""Unit tests for the course modules chapter 3 stands on (noise, memory, the batch-size slider's pure functions),
and the chapter's two promised numbers checked in every profile with reference implementations written here:
the noise slope lies in [-0.6, -0.4], and an analytic activation formula matches the measured bytes within 2 %."""
import math

import matplotlib
import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.func import functional_call, grad, vmap

import course
from course import memory, noise, throughput, widgets
from course.data import teacher_classification
from course.decoder import lm_loss, seeded_decoder, token_batch
from course.models import seeded_mlp

matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def one_thread():
    """As the chapter does: these experiments are many small operations, which one thread runs fastest."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


# ---------------------------------------------------------------- reference implementations (tests only)
def _per_sample(model, x, y):
    params = {k: v.detach() for k, v in model.named_parameters()}

    def one(p, xi, yi):
        return F.cross_entropy(functional_call(model, p, (xi[None],)), yi[None])

    grads = vmap(grad(one), in_dims=(None, 0, 0))(params, x, y)
    return torch.cat([g.flatten(1) for g in grads.values()], dim=1).double()


def _grad_noise(rows, sizes, draws, seed):
    g = torch.Generator().manual_seed(seed)
    full = rows.mean(0)
    out = []
    for b in sizes:
        sq = [((rows[torch.randperm(len(rows), generator=g)[:b]].mean(0) - full) ** 2).sum().item()
              for _ in range(draws)]
        out.append(math.sqrt(sum(sq) / draws))
    return out


def _slope(xs, ys):
    return float(np.polyfit(np.log(xs), np.log(ys), 1)[0])


def _saved_bytes(fn, params):
    skip = {p.untyped_storage() for p in params}
    sizes = {}

    def pack(t):
        s = t.untyped_storage()
        if s not in skip:
            sizes[s] = s.nbytes()
        return t.detach()

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        fn()
    return sum(sizes.values())


def _activation_formula(c, b, s):
    d, h, f, v, n = c["dim"], c["n_heads"], c["hidden"], c["vocab_size"], b * s
    norm = n + 2 * n * d
    block = 4 * (2 * norm + 2 * n * d + n * d + 2 * s * (d // h) + b * h * s * s + n * d + 4 * n * f + 2 * n * d) + s * s
    return c["n_layers"] * block + 8 * n + 4 * n * d + 4 * norm + 4 * b * (s - 1) * v + 8 * b * (s - 1) + 4


# ---------------------------------------------------------------- the chapter's promises, in every profile
@pytest.mark.parametrize("profile", ["grade", "cpu"])
def test_noise_slope_is_minus_one_half_for_small_batches(profile, monkeypatch, measured):
    monkeypatch.setenv("COURSE_PROFILE", profile)
    S = course.sizes("ch03")
    x, y = teacher_classification(S.noise_n, S.noise_dim, 4, seed=0)
    rows = _per_sample(seeded_mlp([S.noise_dim, S.noise_width, 4], seed=0), x, y)
    small = [b for b in S.noise_batches if b <= S.noise_n // 16]
    slope = _slope(small, _grad_noise(rows, small, S.noise_draws, seed=0))
    measured(f"noise slope over B = {small[0]}..{small[-1]} (N = {S.noise_n}): {slope:.3f} (goal: in [-0.6, -0.4])")
    assert -0.6 <= slope <= -0.4


@pytest.mark.parametrize("profile", ["grade", "cpu"])
def test_activation_formula_matches_measurement_within_2_percent(profile, monkeypatch, measured):
    monkeypatch.setenv("COURSE_PROFILE", profile)
    S = course.sizes("ch03")
    worst = 0.0
    shapes = [dict(vocab_size=S.mem_vocab, dim=S.mem_dim, n_layers=S.mem_layers, n_heads=S.mem_heads),
              dict(vocab_size=S.mem_vocab, dim=S.mem_dim // 2, n_layers=S.mem_layers + 1, n_heads=2)]
    for shape in shapes:
        model = seeded_decoder(**shape, seed=0)
        for b in S.mem_batches[:4]:
            toks = token_batch(b, S.mem_seq, S.mem_vocab, seed=b)
            got = _saved_bytes(lambda: lm_loss(model(toks), toks), model.parameters())
            worst = max(worst, abs(_activation_formula(model.config, b, S.mem_seq) - got) / got)
    measured(f"memory model: worst relative error {worst:.2e} (goal: below 2e-02)")
    assert worst < 0.02


def test_finite_population_noise_matches_sampling_without_replacement():
    rows = torch.randn(12, 3, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
    trace = ((rows - rows.mean(0)) ** 2).mean(0).sum().item()
    for b in (1, 4, 9):
        measured = _grad_noise(rows, [b], 4000, seed=b)[0]
        assert measured == pytest.approx(noise.finite_population_noise(trace, 12, b), rel=0.06)
    assert noise.finite_population_noise(trace, 12, 12) == 0.0


# ---------------------------------------------------------------- course/noise.py
def test_regression_loss_matches_data_and_optimum():
    problem = noise.Regression(200, 5, noise=0.5, seed=1)
    w = torch.randn(5, generator=torch.Generator().manual_seed(2), dtype=torch.float64)
    direct = 0.5 * ((problem.x @ w - problem.y) ** 2).mean().item()
    assert problem.loss(w).item() == pytest.approx(direct, rel=1e-10)
    assert problem.loss(problem.w_star).item() == pytest.approx(problem.loss_min, rel=1e-12)
    batched = problem.loss(torch.stack([w, problem.w_star]))
    assert batched.shape == (2,)
    at = problem.weights_at_excess(0.05)
    assert problem.loss(at).item() - problem.loss_min == pytest.approx(0.05, rel=1e-8)


def test_regression_sgd_shapes_determinism_and_full_batch_descent():
    problem = noise.Regression(64, 4, seed=0)
    a = problem.sgd(8, [0.01, 0.1], steps=5, seeds=3, seed=7)
    assert a.shape == (3, 2, 6)
    assert torch.equal(a, problem.sgd(8, [0.01, 0.1], steps=5, seeds=3, seed=7))
    full = problem.sgd(64, [0.1], steps=20, seeds=2)            # every example: no noise, loss falls every step
    assert torch.allclose(full[0], full[1], rtol=1e-12, atol=0)   # same examples, in another order
    assert bool((full[0, 0, 1:] < full[0, 0, :-1]).all())
    stopped = problem.sgd(64, [0.5], steps=500, stop_below=problem.loss_min + 0.1)
    assert stopped.shape[-1] < 501 and stopped[0, 0, -1] <= problem.loss_min + 0.1


def test_steps_to_target_falls_with_batch_size_and_is_inf_when_unreachable():
    problem = noise.Regression(512, 4, seed=0)
    lrs = torch.logspace(-2, 0, 5)
    target = problem.loss_min + 0.05
    small, small_lr = problem.steps_to_target(1, lrs, target, 2000)
    large, large_lr = problem.steps_to_target(128, lrs, target, 2000)
    assert large < small and large_lr > small_lr and small_lr in lrs.tolist()
    assert small != int(small)                                     # fractional: interpolated between two steps
    assert problem.steps_to_target(4, [1e-6], target, 20) == (math.inf, None)


def test_expected_losses_match_the_mean_of_simulated_runs():
    problem = noise.Regression(48, 3, noise=0.5, seed=2)
    for batch in (1, 8, 48):
        exact = problem.expected_losses(batch, [0.05, 0.3], 10) - problem.loss_min
        simulated = problem.sgd(batch, [0.05, 0.3], 10, seeds=2000, seed=1).mean(0) - problem.loss_min
        assert exact.shape == (2, 11)
        assert torch.allclose(simulated, exact, rtol=0.1, atol=0)
    stopped = problem.expected_losses(8, [0.3], 500, stop_below=problem.loss_min + 0.01)
    assert stopped.shape[-1] < 501 and stopped[0, -1] <= problem.loss_min + 0.01
    with pytest.raises(ValueError):
        problem.expected_losses(97, [0.1], 3)


def test_regression_with_eigenvalues_has_exactly_that_hessian():
    eig = [2.0, 1.0, 0.1, 0.01]
    problem = noise.Regression(64, 4, seed=3, eigenvalues=eig)
    assert torch.allclose(torch.linalg.eigvalsh(problem.hessian), torch.tensor(sorted(eig), dtype=torch.float64),
                          rtol=1e-10, atol=1e-12)
    identity = noise.Regression(64, 4, seed=3, eigenvalues=[1.0] * 4).hessian
    assert torch.allclose(identity, torch.eye(4, dtype=torch.float64), atol=1e-12)
    for bad in ([1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 0.0]):
        with pytest.raises(ValueError):
            noise.Regression(64, 4, eigenvalues=bad)


def test_hessian_noise_scale_is_b_simple_where_h_is_proportional_to_identity():
    rows = torch.randn(30, 4, generator=torch.Generator().manual_seed(0), dtype=torch.float64) + 0.5
    mean, cov = rows.mean(0), torch.cov(rows.T)
    b_simple = (torch.trace(cov) / (mean @ mean)).item()
    assert noise.hessian_noise_scale(rows, 3.0 * torch.eye(4, dtype=torch.float64)) == pytest.approx(b_simple, rel=1e-12)
    h = torch.diag(torch.tensor([4.0, 1.0, 0.5, 0.1], dtype=torch.float64))
    want = (torch.trace(h @ cov) / (mean @ h @ mean)).item()
    assert noise.hessian_noise_scale(rows.float(), h) == pytest.approx(want, rel=1e-6)


def test_two_batch_estimates_invert_the_expected_squared_norms():
    g2, trace = 0.3, 12.0
    sq = lambda b: g2 + trace / b
    assert noise.two_batch_estimates(sq(8), 8, sq(256), 256) == pytest.approx((g2, trace), rel=1e-12)
    with pytest.raises(ValueError):
        noise.two_batch_estimates(sq(8), 8, sq(8), 8)


def test_data_parallel_sq_norms_have_the_expected_means_and_leave_grad_alone():
    x = torch.randn(40, 3, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    y = torch.randn(40, generator=torch.Generator().manual_seed(2), dtype=torch.float64)
    model = nn.Linear(3, 1, bias=False).double()
    loss_fn = lambda out, t: 0.5 * ((out.squeeze(-1) - t) ** 2).mean()
    with torch.no_grad():
        rows = x * (model(x).squeeze(-1) - y)[:, None]                        # per-example gradients
    g2, trace = (rows.mean(0) ** 2).sum().item(), rows.var(0, correction=0).sum().item()
    small, big = noise.data_parallel_sq_norms(model, loss_fn, x, y, 2, 4, 800, torch.Generator().manual_seed(3))
    assert small == pytest.approx(g2 + trace / 2, rel=0.1)
    assert big == pytest.approx(g2 + trace / 8, rel=0.1)
    assert model.weight.grad is None


def test_fit_steps_model_recovers_its_parameters():
    sizes = [1, 2, 4, 8, 16, 64]
    steps = [10 * (1 + 30 / b) for b in sizes] + [math.inf]
    s_min, b_noise = noise.fit_steps_model(sizes + [128], steps)
    assert s_min == pytest.approx(10, rel=1e-9) and b_noise == pytest.approx(30, rel=1e-9)


def test_train_classifier_records_steps_samples_and_loss():
    x, y = teacher_classification(64, 5, 3, seed=0)
    model = seeded_mlp([5, 8, 3], seed=0)
    run = noise.train_classifier(model, x, y, batch_size=4, lr=0.1, steps=10, eval_at=[5])
    assert run["steps"] == [0, 5, 10] and run["samples"] == [0, 20, 40]
    assert len(run["loss"]) == 3 and run["loss"][-1] < run["loss"][0]
    again = noise.train_classifier(seeded_mlp([5, 8, 3], seed=0), x, y, 4, 0.1, 10, eval_at=[5])
    assert again == run


# ---------------------------------------------------------------- course/memory.py
def test_llama_7b_on_meta_has_the_published_parameter_count_and_no_memory():
    model = memory.decoder_on_meta(torch.bfloat16, **memory.LLAMA_7B)
    assert sum(p.numel() for p in model.parameters()) == 6_738_415_616
    assert {p.device.type for p in model.parameters()} == {"meta"}
    assert {p.dtype for p in model.parameters()} == {torch.bfloat16}
    assert torch.get_default_dtype() == torch.float32          # the context manager restored it


def test_default_dtype_restores_after_an_error():
    with pytest.raises(RuntimeError):
        with memory.default_dtype(torch.float64):
            assert torch.get_default_dtype() == torch.float64
            raise RuntimeError("boom")
    assert torch.get_default_dtype() == torch.float32


def test_saved_tensor_listing_lists_every_save():
    x = torch.randn(3, requires_grad=True)
    listing = memory.saved_tensor_listing(lambda: (x * x).exp().sum())
    assert listing == [("leaf/input", (3,), torch.float32), ("leaf/input", (3,), torch.float32),
                       ("ExpBackward0", (3,), torch.float32)]


def test_a_pack_hook_that_returns_a_saved_output_as_it_came_keeps_it_alive_and_detach_does_not():
    def forward():
        x = torch.randn(4, 3, requires_grad=True)
        return torch.relu(x @ torch.randn(3, 5)).exp().softmax(-1).sum()   # relu, exp, softmax save their outputs

    assert memory.saved_alive_after(forward, lambda t: t) == (3, 3)
    assert memory.saved_alive_after(forward, lambda t: t.detach()) == (0, 3)
    kept = memory.saved_alive_after(lambda: forward().backward(), lambda t: t)
    assert kept == (0, 3)                          # backward frees what it has used: the cycle is broken
    lin = torch.nn.Linear(3, 5)
    through_linear = lambda: torch.relu(lin(torch.randn(4, 3, requires_grad=True))).sum()   # saves weight.t()
    assert memory.saved_alive_after(through_linear, lambda t: t.detach()) == (1, 2)   # the weight's view lives on
    assert memory.saved_alive_after(through_linear, lambda t: t.detach(), lin.parameters()) == (0, 1)


def test_median_seconds_and_cuda_peak_on_cpu():
    calls = []
    assert memory.median_seconds(lambda: calls.append(1), repeats=3, warmup=2) >= 0
    assert len(calls) == 5
    assert memory.cuda_peak_step(lambda: calls.append(1), "cpu") is None
    assert len(calls) == 5                                     # on the CPU the step is not run


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_cuda_peak_step_counts_a_new_allocation():
    def step():
        torch.empty(2**20, dtype=torch.uint8, device="cuda")
    assert memory.cuda_peak_step(step, "cuda") >= 2**20


def test_stacked_memory_bars_draws_every_part_and_card_in_gib():
    import matplotlib.pyplot as plt

    ax = memory.stacked_memory_bars({"a": {"x": 2**30, "y": 2 * 2**30}, "b": {"x": 3 * 2**30}}, ["x", "y"])
    assert len(ax.patches) == 4 and len(ax.lines) == len(memory.CARDS)
    assert sorted(p.get_height() for p in ax.patches) == [0.0, 1.0, 2.0, 3.0]
    assert sorted(line.get_ydata()[0] for line in ax.lines) == sorted(v / 2**30 for v in memory.CARDS.values())
    assert "GiB" in ax.get_ylabel()
    plt.close("all")


def test_cards_are_sized_in_binary_units():
    assert all(size % 2**30 == 0 for size in memory.CARDS.values())
    assert memory.CARDS["80 GiB card"] == 80 * 2**30


# ---------------------------------------------------------------- course/throughput.py
@pytest.fixture
def step_clock(monkeypatch):
    """A clock for course.claims' timings that only steps move: `advance(seconds)` is a step's duration."""
    from types import SimpleNamespace

    import course.claims

    now = [0.0]
    monkeypatch.setattr(course.claims, "time", SimpleNamespace(perf_counter=lambda: now[0]))

    def advance(seconds):
        now[0] += seconds
    return advance


def test_saturation_sweep_stops_two_doublings_after_the_knee(step_clock):
    def step_at(batch):                       # flat up to batch 4, then in proportion: the knee is at 4
        return lambda: step_clock(0.01 * max(1, batch / 4))

    rows = throughput.saturation_sweep(step_at, [1, 2, 4, 8, 16, 32, 64], repeats=3)
    assert [r["batch"] for r in rows] == [1, 2, 4, 8, 16]
    assert rows[0]["gain"] is None
    assert [r["gain"].median for r in rows[1:]] == pytest.approx([2, 2, 1, 1], rel=1e-9)
    assert [r["samples_per_s"] for r in rows] == pytest.approx([100, 200, 400, 400, 400], rel=1e-9)
    assert rows[-1]["seconds"].median == pytest.approx(0.04, rel=1e-9)


def test_saturation_sweep_stops_at_a_slow_step_or_the_last_batch(step_clock):
    slow = throughput.saturation_sweep(lambda b: (lambda: step_clock(0.01 * b)), [1, 2, 4, 8], repeats=1,
                                       saturated=0.5, max_step_seconds=0.015)
    assert [r["batch"] for r in slow] == [1, 2]
    rising = throughput.saturation_sweep(lambda b: (lambda: step_clock(0.01)), [1, 2, 4], repeats=2)
    assert [r["batch"] for r in rising] == [1, 2, 4]


# ---------------------------------------------------------------- course/widgets.py (batch-size slider)
def test_batch_runs_band_holds_the_mean_and_noise_shrinks_with_batch():
    small = widgets.batch_runs(1, 0.05, steps=40)
    large = widgets.batch_runs(256, 0.05, steps=40)
    for run in (small, large):
        assert len(run["mean"]) == len(run["low"]) == len(run["high"]) == 41
        assert all(lo <= hi for lo, hi in zip(run["low"], run["high"]))
    width = lambda run: sum(h - lo for h, lo in zip(run["high"][20:], run["low"][20:]))
    assert width(large) < width(small) / 4
    assert widgets.batch_runs(4, 0.05, 10) == widgets.batch_runs(4, 0.05, 10)   # deterministic redraws


def test_batch_runs_survives_divergence():
    run = widgets.batch_runs(8, 5.0, steps=30)
    assert all(math.isfinite(v) for v in run["mean"]) and max(run["mean"]) <= 1e6


def test_draw_batch_explorer_draws_band_and_memory_parts():
    import matplotlib.pyplot as plt

    fig = widgets.draw_batch_explorer(64, 0.1, 60, lambda b: {"fixed": 1e6, "activations": 1e4 * b,
                                                              "total": 1e6 + 1e4 * b}, budget_bytes=4e6)
    loss_ax, memory_ax = fig.axes
    assert len(loss_ax.collections) == 1                       # the noise band
    assert len(memory_ax.patches) == 2                         # fixed + activations, "total" left out
    fig2 = widgets.draw_batch_explorer(2, 0.1, 10, lambda b: 123456, budget_bytes=1e6)
    assert len(fig2.axes[1].patches) == 1
    plt.close("all")


def test_batch_slider_wires_both_controls():
    box = widgets.batch_slider(lambda b: 1000 * b, budget_bytes=1e6, steps=5)
    batch, lr = box.children[0], box.children[1]
    assert list(batch.options) == list(widgets.BATCH_SIZES) and batch.value == 4
    assert lr.value == pytest.approx(0.05)


def test_ch03_sizes_exist_in_every_profile(monkeypatch):
    for profile in ("grade", "cpu", "gpu"):
        monkeypatch.setenv("COURSE_PROFILE", profile)
        S = course.sizes("ch03")
        assert S.noise_n // 16 >= max(b for b in S.noise_batches if b <= S.noise_n // 16)
        assert S.race_steps % 4 == 0 and S.mem_dim % S.mem_heads == 0 and S.tp_dim % S.tp_heads == 0
        assert all(b == 2 * a for a, b in zip(S.knee_batches, S.knee_batches[1:]))     # the table's "twice"
        assert all(b == 2 * a for a, b in zip(S.tp_batches, S.tp_batches[1:])) and S.run_checkpoints[0] == 0


def test_the_slider_has_a_static_figure_drawn_by_its_callback():
    """A saved notebook reopened shows "Error displaying widget" for a slider; the cell after it draws the same
    explorer at fixed settings with the pure callback, so the figures stay in the notebook."""
    import nbformat

    from tools import notebook_run

    cells = nbformat.read(notebook_run.source_notebook("ch03_minibatches"), as_version=4).cells
    at = next(i for i, c in enumerate(cells) if "widgets.batch_slider(" in c.source)
    after = cells[at + 1]
    assert after.cell_type == "code" and "widgets.draw_batch_explorer(" in after.source
