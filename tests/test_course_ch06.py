"""course.preflight (the report table, flights, the dropout switch), course.fresh_process, course.zoo, and the
chapter's reference checks run on every zoo case: each bug caught by its check, no healthy case flagged."""
import copy
import os
import pickle
import re
import subprocess
import sys
import time
import warnings
from pathlib import Path

import nbformat
import psutil
import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.checkpoint import checkpoint

from course import fresh_process, zoo
from course.models import seeded
from course.preflight import (CheckResult, Flight, Report, SmallConvNet, adam, classification_loss, copy_model,
                              decoder_flight, expect_each_step_on_a_zeroed_gradient, expect_verdict,
                              expect_model_untouched, healthy_flights, repeat_batch, without_dropout)
from tools import notebook_run

SOURCE = Path(__file__).resolve().parents[1] / "source" / "ch06_preflight" / "ch06_preflight.ipynb"


@pytest.fixture(scope="module", autouse=True)
def no_fresh_interpreter_left():
    """Ends the fresh interpreter these tests start: the modules run after this one in the same Python process
    count their children (tests/test_course_ch05.py: every DDP worker must be gone)."""
    yield
    fresh_process.end()


def test_report_table_rows_summary_and_lookup():
    report = Report([CheckResult("gradients", True, "fine", 0.25), CheckResult("graph", False, "w not reached")])
    lines = str(report).splitlines()
    assert lines[0].split() == ["check", "result", "seconds", "reason"]
    assert lines[1].split()[:3] == ["gradients", "pass", "0.25"] and lines[2].split()[:2] == ["graph", "FAIL"]
    assert lines[-1] == "2 checks: 1 passed, 1 failed (graph)"
    assert not report.passed and report.failed() == ["graph"] and report["graph"].reason == "w not reached"
    assert [r.name for r in report] == ["gradients", "graph"] and len(report) == 2 and repr(report) == str(report)
    with pytest.raises(KeyError, match="gradients, graph"):
        report["memory"]


def test_report_without_seconds_and_all_passed():
    report = Report([CheckResult("a", True, "ok")])
    assert report.passed and str(report).splitlines()[-1] == "1 checks: 1 passed"


def test_report_rejects_rows_that_are_not_results():
    with pytest.raises(TypeError, match="CheckResult"):
        Report([("gradients", True, "ok")])


def test_flight_replace_changes_one_field_and_keeps_the_rest():
    flight = healthy_flights()["mlp"]
    other = flight.replace(batch_size=3)
    assert other.batch_size == 3 and flight.batch_size == 8 and other.model is flight.model
    assert (other.steps, other.seed, other.functions, other.frozen, other.max_ratio) == (2000, 0, (), (), 1e3)


def test_copy_model_keeps_each_parameters_gradient_hooks_and_leaves_the_original_alone():
    model = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2))
    model[0].weight.register_hook(lambda g: g * 0)
    model[1].bias.register_hook(lambda g: g + 1)
    twin = copy_model(model)
    assert all(a is not b for a, b in zip(model.parameters(), twin.parameters()))
    twin(torch.randn(5, 3)).sum().backward()
    assert not twin[0].weight.grad.any() and twin[0].bias.grad.any()
    assert torch.equal(twin[1].bias.grad, torch.full((2,), 6.0))     # 5 rows, each 1, then the hook's + 1
    assert all(p.grad is None for p in model.parameters())
    plain = copy.deepcopy(model)
    plain(torch.randn(5, 3)).sum().backward()
    assert plain[0].weight.grad.any()                                   # what deepcopy alone gives: no hook


class _KeepsWhatItComputed(nn.Module):
    # what models keep from their last forward pass: an attention map, a hook's outputs, a posterior distribution
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
        self.attention, self.taps, self.posterior = None, {"kept": []}, None

    def forward(self, x):
        h = self.body[:2](x)
        self.attention = h.softmax(-1)
        self.taps["kept"].append(h)
        self.posterior = torch.distributions.Normal(h, h.exp())            # a VAE's last posterior, for its KL term
        return self.body[2](h)


def test_copy_model_copies_the_tensors_a_forward_pass_left_detached_where_deepcopy_refuses():
    model = _KeepsWhatItComputed()
    model(torch.randn(5, 3))
    spectral = nn.utils.spectral_norm(nn.Linear(3, 2))                  # its weight: computed in every forward pass
    spectral(torch.randn(5, 3))
    for original in (model, spectral):
        with pytest.raises(RuntimeError, match="graph leaves"):
            copy.deepcopy(original)
    twin = copy_model(model)
    assert twin.attention.grad_fn is None and torch.equal(twin.attention, model.attention)
    assert twin.attention is not model.attention and model.attention.grad_fn is not None
    assert twin.taps["kept"][0].grad_fn is None and twin.taps is not model.taps
    assert twin.posterior.loc.grad_fn is None and torch.equal(twin.posterior.scale, model.posterior.scale)
    twin(torch.randn(5, 3)).sum().backward()
    assert all(p.grad is not None for p in twin.parameters()) and all(p.grad is None for p in model.parameters())
    spectral_twin = copy_model(spectral)
    x = torch.randn(5, 3)
    assert torch.equal(spectral_twin.eval()(x), spectral.eval()(x))


def test_fresh_process_sends_a_parameters_gradient_hooks_without_a_warning():
    model = nn.Linear(3, 2)
    mask = torch.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]])
    model.weight.register_hook(lambda g: g * mask)

    def gradients(model):
        model(torch.ones(4, 3)).sum().backward()
        return model.weight.grad, model.bias.grad

    with warnings.catch_warnings():
        warnings.simplefilter("error")                                  # torch's pickling warns, and drops the hook
        weight, bias = fresh_process.run_in_fresh_process(gradients, model)
    assert torch.equal(weight, 4 * mask) and torch.equal(bias, torch.full((2,), 4.0))


def test_a_flight_takes_a_dataloaders_list_batch_as_a_tuple():
    flight = Flight(nn.Linear(10, 4), zoo.loader_points, classification_loss, adam(0.1))
    x, y = batch = flight.make_batch(5)
    assert isinstance(batch, tuple) and x.shape == (5, 10) and y.shape == (5,)
    assert flight.replace(batch_size=3).make_batch is flight.make_batch
    single = Flight(nn.Linear(10, 4), lambda n: torch.zeros(n, 10), classification_loss, adam(0.1))
    assert torch.equal(single.make_batch(2), torch.zeros(2, 10))


@pytest.mark.parametrize("name", ["mlp", "decoder", "convnet"])
def test_healthy_flights_give_a_scalar_loss_with_gradients(name):
    torch.manual_seed(0)
    flight = healthy_flights()[name]
    loss = flight.loss_fn(flight.model, flight.make_batch(flight.batch_size))
    assert loss.dim() == 0 and loss.requires_grad
    loss.backward()
    assert all(p.grad is not None for p in flight.model.parameters())
    assert isinstance(flight.make_optimizer(flight.model.parameters()), torch.optim.Adam)


def test_flights_are_seeded_and_leave_the_global_generator_alone():
    torch.manual_seed(5)
    before = torch.rand(1)
    torch.manual_seed(5)
    a, b = decoder_flight(seed=1), decoder_flight(seed=1)
    assert torch.equal(torch.rand(1), before)
    assert all(torch.equal(p, q) for p, q in zip(a.model.parameters(), b.model.parameters()))


def test_convnet_shapes():
    assert SmallConvNet(channels=3, width=4, classes=5)(torch.zeros(2, 3, 6, 6)).shape == (2, 5)


def test_expect_verdict_messages():
    ok = CheckResult("graph", True, "all reached")
    expect_verdict("x", ok, True, name="graph", mentions=["reached"])
    for args, message in [((ok, False), "expected passed=False"), ((ok, True, "memory"), "expected the name"),
                          ((ok, True, None, ["w.bias"]), "should name 'w.bias'"),
                          ((CheckResult("g", True, "two\nlines"), True), "one non-empty line"),
                          (("not a result", True), "expected a course.preflight.CheckResult")]:
        with pytest.raises(AssertionError, match=message):
            expect_verdict("x", *args)


# ---------------------------------------------------------------- without_dropout
def test_repeat_batch_repeats_every_tensor_of_a_batch_along_its_first_dimension():
    x, lengths = torch.arange(6.0).reshape(3, 2), torch.tensor([2, 1, 2])
    twice = repeat_batch((x, lengths), 2)
    assert isinstance(twice, tuple) and twice[0].tolist() == x.tolist() * 2 and twice[1].tolist() == [2, 1, 2] * 2
    assert repeat_batch(x, 3).tolist() == x.tolist() * 3 and repeat_batch(x, 1).tolist() == x.tolist()


def test_expect_model_untouched_sees_a_check_that_trains_sets_a_gradient_or_changes_the_mode():
    def on_a_copy(flight):
        model = copy.deepcopy(flight.model).train()
        flight.loss_fn(model, flight.make_batch(4)).backward()
        return CheckResult("copy", True, "ok")

    def trains(flight):
        torch.optim.SGD(flight.model.parameters(), lr=0.1).step()
        return CheckResult("trains", True, "ok")

    def backward_only(flight):
        flight.loss_fn(flight.model, flight.make_batch(4)).backward()
        return CheckResult("backward", True, "ok")

    def train_mode(flight):
        flight.model.train()
        return CheckResult("mode", True, "ok")

    flight = healthy_flights()["mlp"]
    flight.model.eval()
    assert expect_model_untouched("a copy", on_a_copy, flight).name == "copy"
    for p in flight.model.parameters():
        p.grad = torch.ones_like(p)
    for check, words in ((trains, "0.weight"), (backward_only, ".grad"), (train_mode, "training mode")):
        with pytest.raises(AssertionError, match=f"{check.__name__}: .*{re.escape(words)}"):
            expect_model_untouched(check.__name__, check, flight)
        flight.model.eval()


def test_expect_each_step_on_a_zeroed_gradient_counts_the_steps_and_sees_a_missing_zero_grad():
    def steps(k, zeroed=True):
        def check(flight):
            model = copy.deepcopy(flight.model)
            optimizer = flight.make_optimizer(model.parameters())
            for _ in range(k):
                if zeroed:
                    optimizer.zero_grad()
                flight.loss_fn(model, flight.make_batch(4)).backward()
                optimizer.step()
            return CheckResult("steps", True, "ok")
        return check

    fixed = torch.randn(4, 10)
    flight = Flight(nn.Linear(10, 3), lambda n: fixed[:n], lambda m, x: m(x).sum(), adam(0.1))
    assert expect_each_step_on_a_zeroed_gradient("two", steps(2), flight).passed
    assert expect_each_step_on_a_zeroed_gradient("three", steps(3), flight, steps=3).passed
    for check, count, expected, got in ((steps(3, zeroed=False), None, "1 at each step", "[1.0, 2.0, 3.0]"),
                                        (steps(0), None, "1 at each step", "[]"),
                                        (steps(2), 3, "[1, 1, 1]", "[1.0, 1.0]")):
        with pytest.raises(AssertionError, match=rf"expected {re.escape(expected)} .* got {re.escape(got)}$"):
            expect_each_step_on_a_zeroed_gradient("wrong", check, flight, steps=count)


def test_without_dropout_turns_every_dropout_into_the_identity_in_training_mode():
    x = torch.ones(4, 8)
    q = torch.randn(1, 2, 4, 8, generator=torch.Generator().manual_seed(0))
    modules = [nn.Dropout(0.5), nn.Dropout1d(0.5), nn.AlphaDropout(0.5)]
    with without_dropout():
        assert all(torch.equal(m(x), x) for m in modules)
        assert torch.equal(F.dropout(x, 0.5, training=True), x) and torch.equal(F.dropout2d(q, 0.5), q)
        assert torch.equal(F.scaled_dot_product_attention(q, q, q, dropout_p=0.5), F.scaled_dot_product_attention(q, q, q))
        assert torch.equal(F.relu(x - 2), torch.zeros_like(x))            # everything else as before
    assert not torch.equal(nn.Dropout(0.5)(x), x)                          # and dropout is back afterwards


def test_without_dropout_reaches_the_dropout_inside_attention_and_recurrent_layers():
    x = torch.randn(5, 2, 8, generator=torch.Generator().manual_seed(1))
    packed = nn.utils.rnn.pack_padded_sequence(x, [5, 3])
    layers = [nn.MultiheadAttention(8, 2, dropout=0.5), nn.TransformerEncoderLayer(8, 2, 16, dropout=0.5),
              nn.LSTM(8, 8, num_layers=2, dropout=0.5), nn.GRU(8, 8, num_layers=2, dropout=0.5),
              nn.RNN(8, 8, num_layers=2, dropout=0.5)]

    def twice(layer, *inputs):
        with without_dropout():
            first, second = layer(*inputs), layer(*inputs)
        outputs = [out[0] if isinstance(out, tuple) else out for out in (first, second)]
        return [out.data if isinstance(out, nn.utils.rnn.PackedSequence) else out for out in outputs]

    for layer in layers:
        inputs = (x, x, x) if isinstance(layer, nn.MultiheadAttention) else (x,)
        first, second = twice(layer, *inputs)
        assert torch.equal(first, second), f"{type(layer).__name__}: two forward passes differ under without_dropout"
    assert torch.equal(*twice(layers[2], packed)), "nn.LSTM on a packed sequence differs under without_dropout"
    torch.manual_seed(0)
    plain = layers[1](x)
    assert not torch.equal(plain, layers[1](x))                            # dropout is on outside the mode


def test_without_dropout_reaches_the_recomputation_of_a_checkpointed_block_in_backward():
    # the backward pass runs without the function mode: checkpoint's recomputation must still see no dropout
    layers = [nn.TransformerEncoderLayer(8, 2, 16, dropout=0.5), nn.LSTM(8, 8, num_layers=2, dropout=0.5)]
    x = torch.randn(5, 2, 8, generator=torch.Generator().manual_seed(2))
    originals = (F.dropout, F.scaled_dot_product_attention, F.multi_head_attention_forward, torch._VF.lstm)

    def grads(layer, checkpointed):
        layer.zero_grad()
        with without_dropout():
            out = checkpoint(layer, x, use_reentrant=False) if checkpointed else layer(x)
            (out[0] if isinstance(out, tuple) else out).pow(2).sum().backward()
        return [p.grad.clone() for p in layer.parameters()]

    for layer in layers:
        for plain, recomputed in zip(grads(layer, False), grads(layer, True)):
            assert torch.allclose(plain, recomputed, rtol=1e-5, atol=1e-6), type(layer).__name__
    after = (F.dropout, F.scaled_dot_product_attention, F.multi_head_attention_forward, torch._VF.lstm)
    assert all(a is b for a, b in zip(after, originals)), "without_dropout left a function replaced"


def test_without_dropout_leaves_batch_statistics_on():
    bn = nn.BatchNorm1d(3)
    x = torch.randn(8, 3)
    with without_dropout():
        y = bn(x)
    assert torch.allclose(y.mean(0), torch.zeros(3), atol=1e-6) and bn.num_batches_tracked.item() == 1


# ---------------------------------------------------------------- fresh_process
def _hash_of(text):
    return hash(text)


def _settings_there():
    return torch.get_num_threads(), torch.get_default_dtype()


def _prints_and_returns(value):
    print("printed in the fresh process")
    os.write(2, b"written to fd 2 in the fresh process\n")
    return value


def _raises():
    raise ValueError("broken on purpose")


def test_fresh_process_has_a_hash_seed_of_its_own_and_this_process_settings(capfd):
    assert fresh_process.run_in_fresh_process(_hash_of, "label") != hash("label")
    before = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        assert fresh_process.run_in_fresh_process(_settings_there) == (torch.get_num_threads(), torch.float64)
    finally:
        torch.set_default_dtype(before)
    assert fresh_process.run_in_fresh_process(_prints_and_returns, [1, 2]) == [1, 2]
    assert capfd.readouterr() == ("", "")


def test_other_hash_seed_differs_from_this_process(monkeypatch):
    monkeypatch.setenv("PYTHONHASHSEED", "41")
    assert fresh_process.other_hash_seed() == "42"
    monkeypatch.delenv("PYTHONHASHSEED")
    assert fresh_process.other_hash_seed() == "0"


def test_fresh_process_sends_closures_graphs_detached_and_parametrized_modules():
    scale = torch.tensor(3.0)
    kept = [torch.ones(2, requires_grad=True) * 2]                        # a tensor with a grad_fn
    model = nn.utils.parametrizations.weight_norm(nn.Linear(3, 2))
    x = torch.randn(4, 3)

    def job(model, kept):
        return model(x).detach() * scale, kept[0].requires_grad

    out, requires_grad = fresh_process.run_in_fresh_process(job, model, kept)
    assert torch.allclose(out, model(x).detach() * scale) and requires_grad is False


def test_fresh_process_sends_a_log_open_for_writing_as_the_null_device(tmp_path):
    # a loss that logs each value to a file: the other process's writes go nowhere, the log here is left alone
    with open(tmp_path / "losses.log", "a") as text, open(tmp_path / "losses.bin", "ab") as binary:
        text.write("here\n")

        def logged(text, binary):
            text.write("there\n")
            binary.write(b"there")
            return text.name, binary.mode

        assert fresh_process.run_in_fresh_process(logged, text, binary) == (os.devnull, "wb")
    assert (tmp_path / "losses.log").read_text() == "here\n" and (tmp_path / "losses.bin").read_bytes() == b""


def test_fresh_process_imports_a_module_of_a_class_of_its_own_that_a_function_names():
    class Prototypes(nn.Module):
        # defined in a function, so it travels by value, forward's code with it; that code reads attributes named
        # like torch's own module objects torch.classes and torch.ops, which cloudpickle then takes along
        def __init__(self):
            super().__init__()
            self.classes, self.ops = nn.Parameter(torch.ones(4, 3)), nn.Linear(3, 3)

        def forward(self, x):
            return self.ops(x) @ self.classes.T

    model, x = Prototypes(), torch.ones(2, 3)
    assert torch.equal(fresh_process.run_in_fresh_process(model, x), model(x).detach())


def test_fresh_process_says_what_cannot_travel_and_what_to_do():
    batches = (torch.randn(2, 3) for _ in range(3))                       # an iterator kept between calls
    with pytest.raises(pickle.PicklingError, match="cannot pickle 'generator' object.*make it inside the call"):
        fresh_process.run_in_fresh_process(next, batches)
    loader = iter(torch.utils.data.DataLoader(torch.randn(8, 3), batch_size=2))   # refuses with NotImplementedError
    with pytest.raises(pickle.PicklingError, match="_SingleProcessDataLoaderIter.*make it inside the call"):
        fresh_process.run_in_fresh_process(next, loader)


def test_pickling_for_another_process_leaves_every_class_as_it_was():
    classes = (Flight, torch.Tensor, nn.Parameter)
    for cls in classes:                            # as in a fresh interpreter: no slot names cached yet
        if "__slotnames__" in cls.__dict__:
            type.__delattr__(cls, "__slotnames__")
    before = [dict(cls.__dict__) for cls in classes]
    fresh_process.dumps((healthy_flights()["mlp"], torch.ones(2), nn.Parameter(torch.ones(2))))
    assert [dict(cls.__dict__) for cls in classes] == before


def test_fresh_process_errors_come_back_with_the_traceback_and_it_keeps_serving():
    with pytest.raises(fresh_process.FreshProcessError, match="ValueError: broken on purpose"):
        fresh_process.run_in_fresh_process(_raises)
    assert fresh_process.run_in_fresh_process(_hash_of, 7) == 7


def test_fresh_process_started_again_when_something_ended_it():
    child = fresh_process.start()
    child.process.kill()                            # as the grader ends every process after a cell
    assert fresh_process.run_in_fresh_process(_hash_of, 8) == 8


def test_fresh_process_starts_early_except_where_a_grader_would_end_it_half_started(monkeypatch):
    fresh_process._discard(fresh_process.start())
    monkeypatch.setenv("COURSE_ENDS_CELL_PROCESSES", "1")
    fresh_process.start_early()
    assert fresh_process._CHILD is None, "the grader's runner would end it when the cell ends"
    monkeypatch.delenv("COURSE_ENDS_CELL_PROCESSES")
    fresh_process.start_early()
    assert fresh_process._CHILD is not None and fresh_process._CHILD.alive()
    assert fresh_process.run_in_fresh_process(_hash_of, 9) == 9


def test_fresh_process_times_out_and_starts_over():
    with pytest.raises(TimeoutError):
        fresh_process.run_in_fresh_process(time.sleep, 30, timeout=0.5)
    assert fresh_process.run_in_fresh_process(_hash_of, 7) == 7


def test_fresh_process_end_leaves_no_interpreter_and_the_next_call_starts_another():
    pid = fresh_process.start().process.pid
    fresh_process.end()
    assert _gone(pid) and fresh_process._CHILD is None
    fresh_process.end()                             # nothing to end: no error
    assert fresh_process.run_in_fresh_process(_hash_of, 10) == 10


def _thread_states(pid):
    """The status of every thread of process `pid` (on Linux, a thread's id names it as a process does)."""
    return {psutil.Process(thread.id).status() for thread in psutil.Process(pid).threads()}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="threads as processes: Linux only")
def test_fresh_interpreter_is_stopped_whenever_a_call_returns():
    # The grader ends every process that is not stopped when a cell ends. A SIGSTOP takes effect only when the
    # interpreter is next scheduled: about one call in ten used to return before it had.
    pid = fresh_process.start().process.pid
    running = [i for i in range(500) if fresh_process.run_in_fresh_process(_hash_of, i) == i
               and _thread_states(pid) != {psutil.STATUS_STOPPED}]
    assert not running, f"the fresh interpreter was still running after {len(running)} of 500 calls"


def _gone(pid, within=10.0):
    """Whether process `pid` has ended (or is a zombie left to its reaper) within `within` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.05)
    return False


def test_fresh_interpreter_ends_with_a_kernel_that_shuts_down(tmp_path):
    # A Jupyter kernel's shutdown signals the children in its process group with SIGTERM, which a stopped
    # interpreter cannot act on; the kernel was then killed outright and the interpreter left behind, stopped.
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_code_cell("import os\nfrom course.fresh_process import run_in_fresh_process\n"
                                              "print(run_in_fresh_process(os.getpid))"))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = tmp_path / "uses_a_fresh_interpreter.ipynb"
    nbformat.write(nb, path)
    ran, _ = notebook_run.execute(path, "grade")
    pid = int(ran.cells[0].outputs[0]["text"])
    assert _gone(pid), f"the fresh interpreter {pid} outlived its kernel ({psutil.Process(pid).status()})"


def test_fresh_interpreter_ends_with_a_parent_killed_outright():
    parent = subprocess.Popen([sys.executable, "-c", "import os, time\n"
                               "from course.fresh_process import run_in_fresh_process\n"
                               "print(run_in_fresh_process(os.getpid), flush=True)\ntime.sleep(60)"],
                              stdout=subprocess.PIPE, text=True, cwd=Path(fresh_process.__file__).parents[1])
    try:
        pid = int(parent.stdout.readline())
        assert psutil.Process(pid).status() == psutil.STATUS_STOPPED   # as it waits between calls
    finally:
        parent.kill()
        parent.wait()
        parent.stdout.close()
    assert _gone(pid), f"the fresh interpreter {pid} outlived its parent ({psutil.Process(pid).status()})"


# ---------------------------------------------------------------- the zoo
def test_the_zoo_has_enough_realistic_cases_each_with_one_intended_check():
    healthy, bugs, blind = zoo.cases("healthy"), zoo.cases("bug"), zoo.cases("blind spot")
    false_alarms = zoo.cases("false alarm")
    assert len(healthy) >= 15 and len(bugs) >= 30 and blind and false_alarms
    assert len({c.name for c in zoo.cases()}) == len(zoo.cases())
    assert {c.kind for c in zoo.cases()} == {"healthy", "bug", "blind spot", "false alarm"}
    assert all(c.catcher is None and not c.also for c in healthy + blind)
    for c in bugs + false_alarms:
        assert c.catcher in zoo.CHECKS and set(c.also) <= set(zoo.CHECKS) - {c.catcher}, c.name
    for check in zoo.CHECKS:
        assert sum(c.catcher == check for c in bugs) >= 4, f"too few bugs for the {check} check"
    assert zoo.case("lora").flagged_by() == set() and zoo.case("sqrt-where").flagged_by() >= {"gradients", "ddp"}


def test_the_readme_counts_the_zoo_as_it_is():
    readme = (SOURCE.parents[2] / "README.md").read_text()
    counts = {kind: len(zoo.cases(kind)) for kind in ("bug", "healthy", "blind spot", "false alarm")}
    said = (f"{counts['bug']} realistic bugs, {counts['healthy']} healthy modern setups, {counts['blind spot']} blind "
            f"spots, and {counts['false alarm']} false alarms it accepts")
    assert said in readme, f"README.md should describe course.zoo as: {said}"


def test_a_zoo_case_builds_a_fresh_flight_every_time():
    case = zoo.case("kept-losses")
    a, b = case.build(), case.build()
    assert isinstance(a, Flight) and a.loss_fn is not b.loss_fn and a.model is not b.model
    assert all(torch.equal(p, q) for p, q in zip(a.model.parameters(), b.model.parameters()))


def test_expect_verdicts_names_the_case():
    def always_passes(flight):
        return CheckResult("graph", True, "fine")

    zoo.expect_verdicts(always_passes, "graph", [zoo.case("mlp"), zoo.case("sum-loss")])
    with pytest.raises(AssertionError, match="zoo case 'detached-branch'.*expected passed=False"):
        zoo.expect_verdicts(always_passes, "graph", [zoo.case("detached-branch")])

    def passes_as_a_tensor(flight):
        return CheckResult("graph", torch.tensor(True), "fine")

    with pytest.raises(AssertionError, match=r"zoo case 'mlp'.*expected passed=True, got passed=tensor\(True\)"):
        zoo.expect_verdicts(passes_as_a_tensor, "graph", [zoo.case("mlp")])


@pytest.fixture(scope="module")
def reference():
    """The chapter's reference checks, as the notebook defines them: its setup cell and its solution cells, run in
    one namespace (the reference lives only in the notebook, where students cannot import it)."""
    namespace = {"__name__": "ch06_reference"}
    for cell in nbformat.read(SOURCE, as_version=4).cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("grade_id") == "setup" or meta.get("solution"):
            exec(compile(cell.source, f"<ch06 cell {meta['grade_id']}>", "exec"), namespace)
    return namespace


class _TinyDetector(nn.Module):
    """torchvision's convention: a dict of losses in training mode, predictions in eval mode. Each image's loss
    reads 8 of its 64 anchors, up to 4 of them positive, picked in the order of `keys` (random priorities)."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1))

    def forward(self, images, targets=None, keys=None):
        logits = self.body(images).flatten(1)
        if not self.training:
            return [{"scores": s} for s in logits.sigmoid()]
        keys = torch.rand(targets.shape) if keys is None else keys     # the sampler draws, unless handed its draws
        rows, cols = [], []
        for i, (labels, key) in enumerate(zip(targets, keys)):
            pos, neg = [torch.nonzero(labels == c)[:, 0] for c in (1, 0)]
            pos = pos[key[pos].argsort()[:4]]
            cols.append(torch.cat([pos, neg[key[neg].argsort()[:8 - len(pos)]]]))
            rows.append(torch.full_like(cols[-1], i))
        rows, cols = torch.cat(rows), torch.cat(cols)
        return {"objectness": F.binary_cross_entropy_with_logits(logits[rows, cols], targets[rows, cols].float())}


def _anchors(n, with_keys):
    images, targets = torch.randn(n, 1, 8, 8), (torch.rand(n, 64) < 0.1).long()
    return (images, targets, torch.rand(n, 64)) if with_keys else (images, targets)


def _detector_loss(model, batch):
    return sum(model(*batch).values())


def test_check_ddp_compares_a_sampling_detector_in_eval_mode_where_it_returns_no_loss_unless_handed_its_draws(
        reference):
    """Section 7: a model that draws in training mode is compared in eval mode, where a torchvision-style detector
    returns predictions, so the loss fails; with the sampler's draws in the batch, training mode repeats."""
    drawing = Flight(seeded(_TinyDetector, 86), lambda n: _anchors(n, False), _detector_loss, adam(1e-2))
    with pytest.raises(AttributeError, match="values"):
        reference["check_ddp"](drawing)
    handed = reference["check_ddp"](drawing.replace(make_batch=lambda n: _anchors(n, True)))
    assert handed.passed is True and "training mode" in handed.reason, handed.reason


@pytest.mark.parametrize("case", zoo.cases(), ids=lambda c: c.name)
def test_reference_checks_flag_exactly_what_each_zoo_case_should(reference, case):
    wrong = []
    for check in zoo.CHECKS:
        result = reference[f"check_{check}"](case.build())
        if result.passed is (check in case.flagged_by()):
            wrong.append(f"{check}: passed={result.passed} ({result.reason})")
    assert not wrong, f"{case.kind} {case.name!r} ({case.what}):\n" + "\n".join(wrong)
