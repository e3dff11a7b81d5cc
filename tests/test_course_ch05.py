"""Unit tests for the course modules chapter 5 stands on: standard-library text, the DDP launcher, the trainer."""
import math
import multiprocessing
import os
import subprocess
import sysconfig
import threading
import time
from pathlib import Path

import psutil
import pytest

pytestmark = pytest.mark.filterwarnings("error")
import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

import course
from course import ddp, text_data, trainer
from course.decoder import seeded_decoder

REPO = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------- text_data
def test_stdlib_text_is_found_through_sysconfig_and_read_in_sorted_order():
    files = text_data.stdlib_files()
    assert files == sorted(files) and all(f.parent == Path(sysconfig.get_paths()["stdlib"]) for f in files)
    data = text_data.stdlib_bytes(5000)
    assert len(data) == 5000 and data == files[0].read_bytes().replace(b"\r\n", b"\n")[:5000]
    longer = text_data.stdlib_bytes(50_000)
    assert longer.startswith(data) and len(longer) == 50_000
    assert b"\0" not in longer, "PAD_ID = 0 must never be a real token"


def test_no_standard_library_text_is_copied_into_the_repository():
    sample = text_data.stdlib_bytes(4000)[1000:1200]
    tracked = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=REPO, capture_output=True,
                             text=True, check=True).stdout.split("\n")
    for name in filter(None, tracked):
        path = REPO / name
        if path.is_file() and path.stat().st_size < 5e6:
            assert sample not in path.read_bytes(), path


def test_byte_tokens_windows_and_documents():
    tokens = text_data.byte_tokens(b"hello world")
    assert tokens.dtype == torch.int64 and tokens.tolist() == list(b"hello world")
    assert text_data.decode(tokens) == "hello world"
    windows = text_data.TokenWindows(torch.arange(23), seq_len=5)
    assert len(windows) == 4
    assert windows[0].tolist() == [0, 1, 2, 3, 4, 5] and windows[3].tolist() == [15, 16, 17, 18, 19, 20]
    assert windows[-1].tolist() == windows[3].tolist()
    with pytest.raises(IndexError):
        windows[4]
    docs = text_data.stdlib_documents(40_000, min_len=16, max_len=200)
    lengths = {len(d) for d in docs}
    assert len(docs) > 20 and min(lengths) >= 16 and max(lengths) <= 200 and len(lengths) > 10
    dataset = text_data.TextDocuments(docs)
    assert dataset[0].dtype == torch.int64 and len(dataset[0]) == len(docs[0])


def test_unigram_loss_is_the_cross_entropy_of_byte_frequencies():
    train = torch.tensor([1, 1, 1, 2])
    held = torch.tensor([1, 2])
    counts = torch.ones(4, dtype=torch.float64)
    counts[1] += 3
    counts[2] += 1
    p = counts / counts.sum()
    expected = -(p[1].log() + p[2].log()).item() / 2
    assert text_data.unigram_loss(train, held, vocab_size=4) == pytest.approx(expected, rel=1e-12)
    tokens = text_data.byte_tokens(text_data.stdlib_bytes(50_000))
    tr, ho = text_data.split_tokens(tokens, 0.9)
    assert len(tr) == 45_000 and len(ho) == 5000
    assert 2.0 < text_data.unigram_loss(tr, ho) < text_data.uniform_loss() == math.log(256)


# ---------------------------------------------------------------- ddp
def _children():
    """This process's live descendants, but for multiprocessing's fork server and resource tracker, which stay for
    the life of the process once a fork-server launch has started them (the workers forked from the server are
    descendants too, and counted), and the warm DDP workers while they are stopped, as they wait between launches."""
    def helper(process):
        return any(word in " ".join(process.cmdline()) for word in ("forkserver", "resource_tracker"))

    warm = set(ddp.warm_worker_pids())
    return [c for c in psutil.Process().children(recursive=True)
            if c.status() != psutil.STATUS_ZOMBIE and not helper(c)
            and not (c.pid in warm and c.status() == psutil.STATUS_STOPPED)]


def _rank_and_sum(rank, world_size, offset):
    t = torch.tensor([float(rank + offset)])
    dist.all_reduce(t)
    print(f"rank {rank} says hi")
    return rank, world_size, t.item()


@pytest.mark.parametrize("cuda, methods, expected", [
    (False, ["fork", "spawn", "forkserver"], "fork"),
    (True, ["fork", "spawn", "forkserver"], "forkserver"),   # autograd's device threads break forked backward
    (True, ["spawn"], "spawn"),
    (False, ["spawn"], "spawn"),
])
def test_start_method_forks_only_without_cuda(cuda, methods, expected, monkeypatch):
    """With CUDA visible, a child forked after the kernel's first backward cannot run one (it fails with "Unable to
    handle autograd's threading in combination with fork-based multiprocessing", CUDA initialised or not)."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: cuda)
    monkeypatch.setattr(ddp.multiprocessing, "get_all_start_methods", lambda: methods)
    assert ddp.start_method() == expected


def test_nccl_needs_a_gpu_per_rank_and_a_worker_that_can_start_cuda(monkeypatch):
    with pytest.raises(ValueError, match="one GPU per rank"):
        ddp.launch(_rank_and_sum, 10, backend="nccl")
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    with pytest.raises(ValueError, match="cannot start CUDA"):
        ddp.launch(_rank_and_sum, 10, backend="nccl", method="fork")
    assert _children() == []


_NOTEBOOK_WORKER = """
import torch
import torch.distributed as dist

class Scale(torch.nn.Module):          # a class of the notebook's own, used inside the worker
    def __init__(self, k):
        super().__init__()
        self.k = torch.nn.Parameter(torch.tensor(float(k)))

OFFSET = 100.0                         # a global of the notebook's own

def notebook_worker(rank, world_size, model, x):
    loss = (Scale(rank + 1).k * model(x).sum()) + OFFSET
    loss.backward()                    # a backward in every worker: what a forked child of a CUDA machine cannot do
    grad = model.weight.grad.clone()
    dist.all_reduce(grad)
    return loss.item(), grad.tolist()
"""


@pytest.mark.parametrize("method", multiprocessing.get_all_start_methods())
def test_every_start_method_runs_a_worker_defined_in_main(method):
    """A worker defined in a notebook cell lives in `__main__`, which a spawned or fork-server child cannot import:
    it reaches the child by value. Run after a backward in this process, as in a chapter."""
    namespace = {"__name__": "__main__"}
    exec(compile(_NOTEBOOK_WORKER, "<notebook cell>", "exec"), namespace)
    torch.nn.Linear(2, 1)(torch.ones(1, 2)).sum().backward()
    model = torch.nn.Linear(3, 1, bias=False)
    with torch.no_grad():
        model.weight.copy_(torch.tensor([[1.0, 2.0, 3.0]]))
    x = torch.ones(2, 3)
    results = ddp.launch(namespace["notebook_worker"], model, x, world_size=2, method=method, echo=False)
    assert [loss for loss, _ in results] == [112.0, 124.0]
    assert results[0][1] == results[1][1] == [[6.0, 6.0, 6.0]]
    assert _children() == []


_DRAWING_WORKER = """
import torch


def drawing_worker(rank, world_size):
    return torch.rand(3).tolist()
"""


@pytest.mark.parametrize("method", multiprocessing.get_all_start_methods())
def test_every_start_method_starts_workers_with_this_process_random_state(method):
    """A forked worker inherits the launcher's random state; a spawned or fork-server one would start from torch's
    default seed, and a check that compares its draws with this process's would depend on the start method."""
    namespace = {"__name__": "__main__"}
    exec(compile(_DRAWING_WORKER, "<notebook cell>", "exec"), namespace)
    torch.manual_seed(5)
    torch.rand(2)
    with torch.random.fork_rng(devices=[]):
        expected = torch.rand(3).tolist()
    results = ddp.launch(namespace["drawing_worker"], world_size=2, method=method, echo=False)
    assert results == [expected, expected]
    assert _children() == []


RANDOM_AT_SEED_11 = 0.4523795535098186   # random.seed(11); random.random()


def _what_a_worker_sees(rank, world_size, marker):
    import numpy
    import random
    return {"cwd": os.getcwd(), "env": os.environ.get("COURSE_TEST_MARKER"), "marker": marker,
            "dtype": str(torch.get_default_dtype()), "grad": torch.is_grad_enabled(),
            "draws": (torch.rand(2).tolist(), numpy.random.rand()), "reseeded": random.random() != RANDOM_AT_SEED_11}


def test_warm_workers_serve_later_launches_and_see_what_forked_workers_see(tmp_path, monkeypatch):
    """A second launch runs in the workers the first one left, stopped in between; they see this process's working
    folder, environment, default dtype, grad mode and random states, as workers forked for the launch do (and
    Python's `random` reseeded, as at every fork); no class of this process is changed on the way."""
    import numpy
    import random
    ddp.launch(_rank_and_sum, 0, echo=False)
    first = ddp.warm_worker_pids()
    assert len(first) == 2
    assert {psutil.Process(pid).status() for pid in first} == {psutil.STATUS_STOPPED}
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COURSE_TEST_MARKER", "set after the workers started")
    monkeypatch.delattr(torch.Tensor, "__slotnames__", raising=False)   # pickling a tensor caches it on the class
    seen = {}
    for warm in (True, False):
        torch.manual_seed(11)
        random.seed(11)
        numpy.random.seed(11)
        with torch.no_grad():
            torch.set_default_dtype(torch.float64)
            try:
                seen[warm] = ddp.launch(_what_a_worker_sees, [1, 2], echo=False, warm=warm)
            finally:
                torch.set_default_dtype(torch.float32)
    assert ddp.warm_worker_pids() == first, "the second launch should have run in the same workers"
    assert "__slotnames__" not in torch.Tensor.__dict__, "a launch changed torch.Tensor (the grader flags that)"
    assert seen[True] == seen[False]
    assert seen[True][0] == {"cwd": str(tmp_path), "env": "set after the workers started", "marker": [1, 2],
                             "dtype": "torch.float64", "grad": False, "draws": seen[True][0]["draws"],
                             "reseeded": True}
    assert _children() == []


def test_a_run_that_cannot_travel_exactly_is_forked_and_the_warm_workers_stay(tmp_path, monkeypatch):
    """A tensor of an autograd graph, a generator, and a module the warm workers can no longer import (its file is
    gone) reach only workers forked for the launch, which share them with this process."""
    ddp.launch(_rank_and_sum, 0, echo=False)
    warm = ddp.warm_worker_pids()
    (tmp_path / "vanishing_module.py").write_text("def worker(rank, world_size):\n    return 'from a gone file'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import vanishing_module
    (tmp_path / "vanishing_module.py").unlink()
    x = torch.ones(2, requires_grad=True)
    graph = x * 3
    assert ddp.launch(vanishing_module.worker, echo=False) == ["from a gone file"] * 2
    assert ddp.launch(lambda rank, world_size, t: t.grad_fn is not None, graph, echo=False) == [True, True]
    assert ddp.launch(lambda rank, world_size, g: next(g), iter(range(5)), echo=False) == [0, 0]
    assert ddp.warm_worker_pids() == warm
    assert _children() == []


def test_a_forked_child_neither_uses_nor_ends_the_parents_warm_workers():
    """A grader replays cells in a forked child: the child's launches get warm workers of its own, which end with
    it, and the parent's serve the parent's next launch."""
    ddp.launch(_rank_and_sum, 0, echo=False)
    parents = ddp.warm_worker_pids()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            inherited = ddp.warm_worker_pids()
            results = ddp.launch(_rank_and_sum, 1, echo=False)
            own = ddp.warm_worker_pids()
            os.write(write_fd, repr((inherited, results, bool(own) and not set(own) & set(parents))).encode())
        finally:
            os._exit(0)
    os.close(write_fd)
    os.waitpid(pid, 0)
    with os.fdopen(read_fd) as answer:
        assert answer.read() == repr(([], [(0, 2, 3.0), (1, 2, 3.0)], True))
    assert ddp.launch(_rank_and_sum, 0, echo=False) == [(0, 2, 1.0), (1, 2, 1.0)]
    assert ddp.warm_worker_pids() == parents
    assert _children() == []


def _patches_its_process(rank, world_size):
    torch.nn.functional.gelu = torch.nn.functional.relu      # a patch the launch never undoes
    return "patched"


def _sees_the_patch(rank, world_size):
    return torch.nn.functional.gelu is torch.nn.functional.relu


def test_what_a_worker_patches_stays_for_the_next_launch_in_the_same_workers():
    """The module docstring's warning, measured: a warm worker's own changes outlive its launch; workers started
    for a launch (warm=False) end with it."""
    ddp.launch(_patches_its_process, echo=False)
    assert ddp.launch(_sees_the_patch, echo=False) == [True, True]
    assert ddp.launch(_sees_the_patch, echo=False, warm=False) == [False, False]
    ddp.end_warm_workers()
    assert ddp.launch(_sees_the_patch, echo=False) == [False, False]
    assert _children() == []


def test_warm_workers_die_with_their_launcher():
    """A launcher killed outright (a kernel restarted) leaves no worker behind, stopped or not."""
    script = ("import os, sys, time; sys.path.insert(0, sys.argv[1]); from course import ddp\n"
              "ddp.launch(lambda rank, world_size: rank, echo=False)\n"
              "print(*ddp.warm_worker_pids(), flush=True); time.sleep(60)\n")
    launcher = subprocess.Popen([os.sys.executable, "-c", script, str(REPO)], stdout=subprocess.PIPE, text=True)
    pids = [int(pid) for pid in launcher.stdout.readline().split()]
    assert len(pids) == 2
    launcher.kill()
    launcher.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(psutil.pid_exists(pid) and psutil.Process(pid).status()
                                                != psutil.STATUS_ZOMBIE for pid in pids):
        time.sleep(0.05)
    assert not [pid for pid in pids if psutil.pid_exists(pid) and psutil.Process(pid).status()
                != psutil.STATUS_ZOMBIE], "a warm worker outlived its launcher"
    launcher.stdout.close()


@pytest.mark.parametrize("args", [(torch.nn.Linear(2, 2).to("meta"),), (torch.ones(3),
                                                                         {"batch": [torch.ones(2, device="meta")]})])
def test_launch_refuses_tensors_a_forked_worker_cannot_use(args):
    """A CUDA model handed to a forked worker fails there; the launcher names the problem first (a meta tensor
    stands in for a CUDA one on a machine without a GPU)."""
    with pytest.raises(ValueError, match="forked worker cannot use this process's meta tensors"):
        ddp.launch(lambda rank, world_size, *a: None, *args)
    assert _children() == []


def test_launch_runs_every_rank_and_returns_results_in_rank_order(capfd):
    results = ddp.launch(_rank_and_sum, 10, world_size=2)
    assert results == [(0, 2, 21.0), (1, 2, 21.0)]
    out, err = capfd.readouterr()
    assert "[rank 0] rank 0 says hi" in out and "[rank 1] rank 1 says hi" in out
    assert err == "", "nothing may reach the parent's stderr (a test cell would score 0)"
    assert _children() == []


def _raises_on_rank_one(rank, world_size):
    if rank == 1:
        raise ValueError("rank one is broken")
    t = torch.ones(1)
    dist.all_reduce(t)       # would wait forever for rank 1 without the launcher's clean-up
    time.sleep(30)
    return "unreachable"


def _dies_on_rank_zero(rank, world_size):
    if rank == 0:
        os._exit(3)
    time.sleep(30)


def _hangs(rank, world_size):
    time.sleep(60)


@pytest.mark.parametrize("worker, error, words", [
    (_raises_on_rank_one, ddp.WorkerError, "rank one is broken"),
    (_dies_on_rank_zero, ddp.WorkerError, "exit code 3"),
    (_hangs, TimeoutError, "did not finish"),
])
def test_no_process_is_left_behind_when_a_worker_fails(worker, error, words, capfd):
    start = time.monotonic()
    with pytest.raises(error) as failure:
        ddp.launch(worker, world_size=2, timeout=4.0)
    assert words in str(failure.value).splitlines()[0], f"the first line should say why: {failure.value}"
    assert time.monotonic() - start < 15, "a failing worker must end the run at once, not after the others"
    assert _children() == [], "every worker process must be gone"
    assert capfd.readouterr().err == ""


def _ddp_grads(rank, world_size, model, x, y, accum):
    model = DDP(model)
    counter = ddp.CommCounter.attach(model)
    rows = ddp.shard_rows(len(x), rank, world_size)
    xs, ys = x[rows], y[rows]
    chunks = list(zip(xs.tensor_split(accum), ys.tensor_split(accum)))
    for i, (xc, yc) in enumerate(chunks):
        context = model.no_sync() if i < len(chunks) - 1 else torch.enable_grad()
        with context:
            ((model(xc) - yc) ** 2).sum().div(len(x) / world_size).backward()
    return ddp.flat_grads(model.module), counter.calls


def test_ddp_gradients_equal_one_process_and_no_sync_communicates_once():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 7), nn.Tanh(), nn.Linear(7, 1)).double()
    x, y = torch.randn(12, 5, dtype=torch.float64), torch.randn(12, 1, dtype=torch.float64)
    results = ddp.launch(_ddp_grads, model, x, y, 3, world_size=2)
    ((model(x) - y) ** 2).mean().backward()
    for grads, calls in results:
        torch.testing.assert_close(grads, ddp.flat_grads(model), rtol=1e-12, atol=1e-14)
        assert calls == 1, "no_sync() on all but the last micro-batch: one all-reduce per bucket"



def _sync_batchnorm_step(rank, world_size, model, x):
    model = ddp.DistributedDataParallel(model.train(), static_graph=True)
    rows = ddp.shard_rows(len(x), rank, world_size)
    model(x[rows]).pow(2).mean().backward()
    norm = model.module[1]
    return ddp.flat_grads(model.module), norm.running_mean, norm.running_var, type(norm).__name__


@pytest.mark.parametrize("norm, shared", [(nn.SyncBatchNorm, True), (nn.BatchNorm1d, False)])
def test_course_ddp_runs_sync_batchnorm_on_the_cpu_with_the_whole_batchs_statistics(norm, shared):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(5, 6), norm(6), nn.Tanh(), nn.Linear(6, 3)).double()
    x = torch.randn(8, 5, dtype=torch.float64) * 3 + 1
    results = ddp.launch(_sync_batchnorm_step, model, x, world_size=2, echo=False)
    model.train()(x).pow(2).mean().backward()
    for grads, mean, var, kind in results:
        assert kind == ("SharedBatchNorm" if shared else "BatchNorm1d")
        same = torch.allclose(grads, ddp.flat_grads(model), rtol=1e-9, atol=1e-12) and torch.allclose(
            mean, model[1].running_mean, rtol=1e-9, atol=1e-12) and torch.allclose(var, model[1].running_var)
        assert same is shared, f"{norm.__name__}: two processes agree with one: {same}"

def test_shard_rows_cover_every_row_once():
    for n in (7, 8, 9, 1):
        rows = [r for rank in range(3) for r in range(n)[ddp.shard_rows(n, rank, 3)]]
        assert rows == list(range(n))


def _measure(rank, world_size, model):
    model = DDP(model)
    def make_batch(size):
        return torch.randn(size, 16)
    return ddp.time_comm_share(model, make_batch, lambda m, b: m(b).pow(2).mean(), (2, 64), repeats=2)


def test_time_comm_share_returns_every_interleaved_timing_per_micro_batch_size():
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 16))
    rows = ddp.launch(_measure, model)[0]
    assert [r[0] for r in rows] == [2, 64]
    assert all(len(times) == 2 and all(t > 0 for t in times) for r in rows for times in r[1:])


# ---------------------------------------------------------------- trainer
def _step(model, batch, optimizer):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(batch[:, :-1]).flatten(0, 1), batch[:, 1:].flatten())
    loss.backward()
    optimizer.step()
    return {"loss": loss.item(), "grad_norm": 1.0, "lr": 0.1, "tokens": batch[:, 1:].numel()}


def test_train_runs_the_step_function_with_a_bar_on_stdout_and_leaves_no_thread(capfd):
    model = seeded_decoder(256, 16, 1, 2, seed=0)
    windows = text_data.TokenWindows(text_data.byte_tokens(text_data.stdlib_bytes(3000)), 16)
    loader = torch.utils.data.DataLoader(windows, batch_size=4, shuffle=False)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    threads = threading.active_count()
    with trainer.LayerGradNorms(model) as norms:
        history = trainer.train(model, loader, optimizer, steps=5, step_fn=_step, grad_norms=norms,
                                eval_fn=lambda: 1.5, eval_every=2)
    assert [h["step"] for h in history] == [1, 2, 3, 4, 5]
    assert [h.get("eval_loss") for h in history] == [None, 1.5, None, 1.5, 1.5]
    assert len(norms.history) == 5 and set(norms.history[0]) == {"embed", "block 0", "final norm", "lm_head"}
    assert all(not p._post_accumulate_grad_hooks for p in model.parameters()), "hooks removed on exit"
    assert threading.active_count() == threads, "tqdm's monitor thread must not be left running"
    out, err = capfd.readouterr()
    assert err == "" and "training" in out


def test_layer_grad_norms_match_the_gradients():
    model = seeded_decoder(32, 16, 2, 2, seed=1)
    tokens = torch.randint(0, 32, (3, 9), generator=torch.Generator().manual_seed(0))
    with trainer.LayerGradNorms(model) as norms:
        F.cross_entropy(model(tokens).flatten(0, 1), tokens.flatten()).backward()
        norms.snapshot()
    block1 = math.sqrt(sum(p.grad.double().pow(2).sum().item() for n, p in model.named_parameters()
                           if n.startswith("layers.1.")))
    assert norms.history[0]["block 1"] == pytest.approx(block1, rel=1e-9)


def test_cycle_refuses_an_empty_loader():
    with pytest.raises(ValueError, match="no batch"):
        next(trainer.cycle([]))


def test_mean_loss_and_fp16_scaled_step_run_on_cpu():
    model = seeded_decoder(256, 16, 1, 2, seed=0)
    windows = text_data.TokenWindows(text_data.byte_tokens(text_data.stdlib_bytes(2000)), 16)
    assert 5.0 < trainer.mean_loss(model, windows) < 6.0          # near log(256) at initialisation
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler("cpu", enabled=False)
    batch = windows[0][None]
    loss, norm, scale = trainer.fp16_scaled_step(model, batch[:, :-1], batch[:, 1:], optimizer, scaler)
    assert math.isfinite(loss) and norm > 0 and scale == 1.0


def test_command_line_trainer_on_one_process(capsys):
    assert trainer.main(["--steps", "3", "--max-bytes", "20000", "--dim", "16", "--layers", "1", "--heads", "2",
                         "--batch-size", "4", "--seq-len", "16"]) == 0
    out = capsys.readouterr().out
    assert "world_size=1" in out and "held-out loss" in out and "unigram baseline" in out


def test_ch05_sizes_exist_in_every_profile(monkeypatch):
    for name in ("grade", "cpu", "gpu"):
        monkeypatch.setenv("COURSE_PROFILE", name)
        s = course.sizes("ch05")
        assert s.train_steps > 0 and s.dim % s.heads == 0
