"""Data parallelism for real: N processes on this machine joined by `torch.distributed`.

    results = launch(worker, arg1, arg2, world_size=2)   # worker(rank, world_size, arg1, arg2) in each process

`launch` starts `world_size` processes, joins them in one process group (gloo by default: the workers compute on the
CPU; `backend="nccl"` for workers that put their tensors on `torch.device("cuda", rank)`), runs `worker` in each
and returns the workers' return values, rank 0 first. Rendezvous goes through a file, and gloo talks over the
loopback interface, so it runs without a network: in the grading sandbox too.

How the workers start (`start_method()`): forked where the platform allows it and no CUDA device is visible
(fast, and everything the notebook defined is simply there). With CUDA visible, the first `backward()` in this
process, even on CPU tensors, starts autograd's device threads, and a child forked after that cannot run a backward
at all ("Unable to handle autograd's threading in combination with fork-based multiprocessing"); nor can a forked
child use CUDA once this process has started it. There the workers come from a fork server (a clean process that
imported torch once and has never run a backward), or are spawned where there is none. Those workers receive the
worker function and its arguments by value (cloudpickle, through `course.fresh_process.dumps`), so a worker
defined in a notebook cell, and the classes and helpers it uses, work under every start method.

Warm workers: forking a process as large as a notebook kernel, joining a process group and ending costs about as
much as a small DDP step itself, and a notebook that checks many models launches many times. So a gloo launch that
forks keeps its workers, joined in their group and stopped (SIGSTOP) between launches, and sends each later launch
its worker and arguments by value, with this process's state that a fork would have carried: working folder,
`sys.path`, environment, torch settings, grad mode and the random states of torch and NumPy (`random` reseeds
itself in a forked child, and in a warm worker too). What cannot travel exactly (a tensor of an autograd graph, a
file open for writing, anything cloudpickle refuses, a module the workers cannot import) is forked as before, and
so is a launch with `warm=False`. What a worker changes in its own process and a launch does not send again (a
global module hook, a patched function) stays for the next launch in the same workers: `warm=False` gives workers
that end with their launch. Warm workers run in a session of their own and die with this process; a launch that
fails ends them, and the next starts fresh ones.

Nothing is left running: when a worker raises, exits or hangs past `timeout`, every other worker is killed at once
(one blocked in an all-reduce waiting for the dead one would otherwise wait forever) and `launch` raises
`WorkerError` with the failing rank's traceback. A worker's own stdout and stderr — its prints, and gloo's C++
log lines — are captured to a file; `launch` prints the stdout part, prefixed with the rank, only if `echo`.

`DistributedDataParallel` here is torch's, except that on the CPU it first turns each `nn.SyncBatchNorm` (which
torch's accepts only on GPUs) into a `SharedBatchNorm` that shares the batch statistics over the process group the
same way. The measurements the chapter shows (DDP vs one process, `no_sync` accumulation, the communication share)
use the helpers at the bottom.
"""
import atexit
import importlib
import multiprocessing
import multiprocessing.connection
import os
import pickle
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
import traceback
from datetime import timedelta

import torch
import torch.distributed as dist

from .fresh_process import apply_torch_settings, die_with_parent, dumps, slot_names_not_cached, torch_settings


class WorkerError(RuntimeError):
    """A worker raised or died; the message holds its traceback and what it printed."""


START_METHODS = ("fork", "forkserver", "spawn")


def start_method() -> str:
    """How `launch` starts its workers on this machine: `COURSE_DDP_START` if set; else "fork" where the platform
    has it and no CUDA device is visible, else "forkserver" where the platform has it, else "spawn" (the module
    docstring says why)."""
    methods = multiprocessing.get_all_start_methods()
    chosen = os.environ.get("COURSE_DDP_START", "").strip()
    if chosen:
        if chosen not in methods:
            raise ValueError(f"COURSE_DDP_START={chosen!r}: this platform offers {', '.join(methods)}")
        return chosen
    if "fork" in methods and not torch.cuda.is_available():
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def _context(method):
    ctx = multiprocessing.get_context(method)
    if method == "forkserver":
        # The server imports these once; every worker forked from it has them already. Takes effect when the
        # server starts (the first launch), and the server stays for the rest of this process.
        ctx.set_forkserver_preload(["course.ddp", "torch._dynamo"])
    return ctx


def _tensors_off_the_cpu(args):
    """The tensors in `args` (a module's parameters and buffers, and tensors in lists, tuples and dicts, included)
    that do not live on the CPU."""
    found = []
    for arg in args:
        if isinstance(arg, torch.nn.Module):
            found += [t for t in (*arg.parameters(), *arg.buffers()) if t.device.type != "cpu"]
        elif isinstance(arg, torch.Tensor):
            found += [arg] if arg.device.type != "cpu" else []
        elif isinstance(arg, (list, tuple)):
            found += _tensors_off_the_cpu(arg)
        elif isinstance(arg, dict):
            found += _tensors_off_the_cpu(arg.values())
    return found


def _worker_main(payload, rank, world_size, backend, folder, threads, timeout, random_state):
    """The body of every worker process: redirect output, join the group, run, save the result, exit. `payload` is
    (worker, args), or those pickled by value (bytes) for a worker that was not forked; `random_state` is the
    launcher's CPU random state, which a forked worker has already."""
    log = os.open(os.path.join(folder, f"log{rank}"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)   # gloo's and torch's C++ log lines go to fd 2: keep them out of the notebook's stderr
    sys.stdout = sys.stderr = open(log, "w", buffering=1, closefd=False)
    code = 1
    try:
        worker, args = pickle.loads(payload) if isinstance(payload, bytes) else payload
        torch.set_num_threads(threads)
        torch.set_rng_state(random_state)
        if backend == "gloo" and os.path.isdir("/sys/class/net/lo"):
            os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")   # loopback: no hostname lookup, no network
        if backend == "nccl":
            torch.cuda.set_device(rank)
        dist.init_process_group(backend, init_method="file://" + os.path.join(folder, "store"), rank=rank,
                                world_size=world_size, timeout=timedelta(seconds=timeout))
        result = worker(rank, world_size, *args)
        with open(os.path.join(folder, f"result{rank}.tmp"), "wb") as f:
            pickle.dump(result, f)
        os.replace(os.path.join(folder, f"result{rank}.tmp"), os.path.join(folder, f"result{rank}"))
        # After the barrier no rank talks to another; the process ends next, and its end closes the group's
        # connections. No destroy_process_group(): it takes about 20 ms, a third of a small launch.
        dist.barrier()
        code = 0
    except BaseException:
        with open(os.path.join(folder, f"error{rank}"), "w") as f:
            f.write(traceback.format_exc())
    finally:
        sys.stdout.flush()
        os._exit(code)   # never run the parent's exit handlers (a notebook kernel's) in a forked child


def _read(path, mode="r"):
    try:
        with open(path, mode) as f:
            return f.read()
    except FileNotFoundError:
        return None


_SECONDARY = ("DistBackendError", "Connection closed by peer", "Connection reset by peer", "Broken pipe")


def _failure_report(folder, exit_codes):
    """Every failed rank's traceback and output; a rank that failed only because a peer vanished comes last.
    `exit_codes`: each rank's, None for one still running."""
    failed = []
    for rank, code in enumerate(exit_codes):
        if code in (None, 0):
            continue
        error = _read(os.path.join(folder, f"error{rank}"))
        output = _read(os.path.join(folder, f"log{rank}")) or ""
        why = error or f"exit code {code} (the process died)\n"
        secondary = error is not None and any(word in error for word in _SECONDARY)
        # The cause (a traceback's last line) leads, so that a report that keeps one line still says what failed.
        failed.append((secondary, rank, f"rank {rank} of {len(exit_codes)} failed: {why.strip().splitlines()[-1]}\n"
                       f"{why}" + (f"--- rank {rank} output ---\n{output}" if output.strip() else "")))
    return "\n".join(text for _, _, text in sorted(failed))


def _join_those_that_end_soon(processes, running, grace):
    """After one worker failed, the others fail soon (their all-reduce lost a peer), and the one that failed for a
    reason of its own may be among them: join every worker that ends within `grace` seconds, so the report holds
    them all. Joined, not polled: a child whose sentinel is ready may not be reaped yet, and would look alive."""
    deadline = time.monotonic() + grace
    while running and time.monotonic() < deadline:
        left = max(0.0, deadline - time.monotonic())
        for sentinel in multiprocessing.connection.wait(list(running), timeout=left):
            processes[running.pop(sentinel)].join()


def launch(worker, *args, world_size=2, backend="gloo", timeout=60.0, threads=1, echo=True, method=None, warm=True):
    """Runs `worker(rank, world_size, *args)` in `world_size` processes joined by torch.distributed.

    Returns the list of return values, rank 0 first (they travel by pickle: tensors, numbers, lists, dicts).
    Raises WorkerError if a worker raises or dies, TimeoutError if they have not all finished in `timeout` seconds;
    either way every worker process is gone when `launch` raises. `threads`: torch threads per worker. `method`:
    the start method, `start_method()` by default. `warm`: run in the workers an earlier launch left, stopped,
    where the run can travel to them exactly (the module docstring says when). Every worker starts with this
    process's CPU random state, as a forked one would, whatever the method: what a worker draws does not depend on
    how it was started.
    """
    method = method or start_method()
    if method not in START_METHODS:
        raise ValueError(f"method={method!r}: expected one of {', '.join(START_METHODS)}")
    if backend == "nccl" and torch.cuda.device_count() < world_size:
        raise ValueError(f"nccl needs one GPU per rank: {torch.cuda.device_count()} GPU(s) for {world_size} ranks")
    if backend == "nccl" and method == "fork":
        raise ValueError("nccl needs CUDA in the workers, and a forked worker cannot start CUDA once this process "
                         "has: use the forkserver or spawn start method, or torchrun from a fresh process")
    off_cpu = _tensors_off_the_cpu(args) if method == "fork" else []
    if off_cpu:
        raise ValueError(f"launch forks its workers, and a forked worker cannot use this process's "
                         f"{off_cpu[0].device.type} tensors ({len(off_cpu)} passed): pass the models and tensors "
                         "on the CPU (.cpu())")
    # DDP imports torch._dynamo: once here, not once per forked worker (about a second each). By importlib: an
    # `import torch._dynamo` here would make `torch` a local name of this whole function.
    importlib.import_module("torch._dynamo")
    folder = tempfile.mkdtemp(prefix="course-ddp-")
    try:
        results = None
        if warm and method == "fork" and backend == "gloo":
            results = _run_warm(worker, args, world_size, threads, timeout, folder)
        if results is None:
            results = _run_started(worker, args, world_size, backend, timeout, threads, method, folder)
        if echo:
            for rank in range(world_size):
                for line in (_read(os.path.join(folder, f"log{rank}")) or "").splitlines():
                    print(f"[rank {rank}] {line}")
        return results
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _results(folder, world_size):
    results = []
    for rank in range(world_size):
        with open(os.path.join(folder, f"result{rank}"), "rb") as f:
            results.append(pickle.load(f))
    return results


def _run_started(worker, args, world_size, backend, timeout, threads, method, folder):
    """One run in workers started for it, which end with it."""
    ctx = _context(method)
    payload = (worker, args) if method == "fork" else dumps((worker, args))
    processes = []
    try:
        for rank in range(world_size):
            process = ctx.Process(target=_worker_main, daemon=True, name=f"course-ddp-rank{rank}",
                                  args=(payload, rank, world_size, backend, folder, threads, timeout,
                                        torch.get_rng_state()))
            process.start()
            processes.append(process)
        deadline = time.monotonic() + timeout
        running = {p.sentinel: rank for rank, p in enumerate(processes)}
        while running:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the {world_size} workers did not finish within {timeout:g} s")
            for sentinel in multiprocessing.connection.wait(list(running), timeout=min(left, 1.0)):
                rank = running.pop(sentinel)
                processes[rank].join()
                if processes[rank].exitcode != 0:
                    _join_those_that_end_soon(processes, running, grace=2.0)
                    raise WorkerError(_failure_report(folder, [None if p.is_alive() else p.exitcode
                                                               for p in processes]))
        return _results(folder, world_size)
    finally:
        for process in processes:
            if process.is_alive():
                process.kill()
        for process in processes:
            process.join()
            process.close()


# ---------------------------------------------------------------- warm workers
_WARM = None
_WARM_LOCK = threading.Lock()


def _launcher_state():
    """What a worker forked now would share with this process, beyond the worker and its arguments."""
    numpy = sys.modules.get("numpy")
    return {"cwd": os.getcwd(), "path": list(sys.path), "environ": dict(os.environ), "settings": torch_settings(),
            "grad": torch.is_grad_enabled(),
            "deterministic": (torch.are_deterministic_algorithms_enabled(),
                              torch.is_deterministic_algorithms_warn_only_enabled()),
            "torch_random": torch.get_rng_state(),
            "numpy_random": numpy.random.get_state() if numpy is not None else None}


def _take_launcher_state(state, threads):
    os.chdir(state["cwd"])
    sys.path[:] = state["path"]
    os.environ.clear()
    os.environ.update(state["environ"])
    apply_torch_settings(state["settings"])
    torch.set_num_threads(threads)
    torch.set_grad_enabled(state["grad"])
    deterministic, warn_only = state["deterministic"]
    torch.use_deterministic_algorithms(deterministic, warn_only=warn_only)
    torch.set_rng_state(state["torch_random"])
    random.seed()                                 # as in any forked child: `random` reseeds itself at a fork
    if state["numpy_random"] is not None:
        importlib.import_module("numpy").random.set_state(state["numpy_random"])


def _serve_launches(requests, answers, rank, world_size, store, threads, timeout):
    """The body of a warm worker: joins the group at its first launch, then runs launches until the launcher
    closes its end of `requests` (a Connection, as `answers` is). A launch that raises ends the worker (its peers
    may be stuck in a collective: the launcher ends them all)."""
    os.setsid()                                   # out of the kernel's group, whose SIGTERM a stopped one ignores
    die_with_parent()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    folder, code = None, 1
    try:
        while True:
            try:
                folder, payload, state = pickle.loads(requests.recv_bytes())
            except EOFError:
                code = 0
                return
            log = os.open(os.path.join(folder, f"log{rank}"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(log, 1)
            os.dup2(log, 2)
            os.close(log)
            sys.stdout = sys.stderr = open(1, "w", buffering=1, closefd=False)
            try:
                _take_launcher_state(state, threads)
                worker, args = pickle.loads(payload)
            except Exception:                     # a module this process cannot import, say: the launcher forks
                answers.send_bytes(b"unloadable")
                requests.recv_bytes()
                continue
            answers.send_bytes(b"loaded")
            if requests.recv_bytes() != b"go":    # a peer could not load it
                continue
            if not dist.is_initialized():
                if os.path.isdir("/sys/class/net/lo"):
                    os.environ.setdefault("GLOO_SOCKET_IFNAME", "lo")
                dist.init_process_group("gloo", init_method="file://" + store, rank=rank, world_size=world_size,
                                        timeout=timedelta(seconds=timeout))
            result = worker(rank, world_size, *args)
            with open(os.path.join(folder, f"result{rank}.tmp"), "wb") as f:
                pickle.dump(result, f)
            os.replace(os.path.join(folder, f"result{rank}.tmp"), os.path.join(folder, f"result{rank}"))
            del worker, args, result
            dist.barrier()
            sys.stdout.flush()
            answers.send_bytes(b"done")
    except BaseException:
        if folder is not None:
            with open(os.path.join(folder, f"error{rank}"), "w") as f:
                f.write(traceback.format_exc())
    finally:
        sys.stdout.flush()
        os._exit(code)


class _WarmWorkers:
    """`world_size` forked workers that run one launch after another in one process group, stopped in between."""

    def __init__(self, world_size, threads, timeout):
        self.key = (world_size, threads, timeout)
        self.store = tempfile.mkdtemp(prefix="course-ddp-warm-")
        self.pids, self.requests, self.answers, self.exit_codes = [], [], [], [None] * world_size
        for rank in range(world_size):
            request_read, request_write = multiprocessing.Pipe(duplex=False)
            answer_read, answer_write = multiprocessing.Pipe(duplex=False)
            pid = os.fork()
            if pid == 0:
                for end in (request_write, answer_read, *self.requests, *self.answers):
                    end.close()
                _serve_launches(request_read, answer_write, rank, world_size,
                                os.path.join(self.store, "store"), threads, timeout)
            request_read.close()
            answer_write.close()
            self.pids.append(pid)
            self.requests.append(request_write)
            self.answers.append(answer_read)

    def usable(self, key):
        """Of `key` (world size, threads, timeout), and every worker still there."""
        return key == self.key and all(self._exit_code(rank, block=False) is None for rank in range(len(self.pids)))

    def _exit_code(self, rank, block):
        if self.exit_codes[rank] is None:
            try:
                pid, status = os.waitpid(self.pids[rank], 0 if block else os.WNOHANG)
            except ChildProcessError:
                return -1
            if pid and (os.WIFEXITED(status) or os.WIFSIGNALED(status)):
                self.exit_codes[rank] = os.waitstatus_to_exitcode(status)
        return self.exit_codes[rank]

    def run(self, payload, folder, timeout):
        """The workers' results, or None if one could not load `payload`. Raises as `launch` does."""
        deadline = time.monotonic() + timeout
        for pid in self.pids:
            os.kill(pid, signal.SIGCONT)
        with slot_names_not_cached():             # torch.Tensor (the random state) must come out as it went in
            request = pickle.dumps((folder, payload, _launcher_state()))
        self._send_to_all(request)
        answers = self._answers(folder, deadline)
        if any(answer != b"loaded" for answer in answers):
            self._send_to_all(b"skip")
            self._stop()
            return None
        self._send_to_all(b"go")
        self._answers(folder, deadline)
        self._stop()
        return _results(folder, len(self.pids))

    def _send_to_all(self, message):
        for connection in self.requests:
            connection.send_bytes(message)

    def _answers(self, folder, deadline):
        """Every worker's next answer, in rank order; a worker that ends instead is a failure of the launch."""
        answers, waiting = {}, {connection: rank for rank, connection in enumerate(self.answers)}
        while waiting:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the {len(self.pids)} workers did not finish within {self.key[2]:g} s")
            ready = multiprocessing.connection.wait(list(waiting), timeout=left)
            for connection in ready:
                rank = waiting.pop(connection)
                try:
                    answer = connection.recv_bytes()
                except EOFError:
                    self._exit_code(rank, block=True)
                    self._wait_for_ends(waiting.values(), grace=2.0)
                    raise WorkerError(_failure_report(folder, self.exit_codes)) from None
                answers[rank] = answer
        return [answers[rank] for rank in range(len(self.pids))]

    def _wait_for_ends(self, ranks, grace):
        """After one worker failed, the others fail soon (their collective lost a peer): wait up to `grace` seconds
        for them to end, so that the report holds them all."""
        deadline = time.monotonic() + grace
        for rank in ranks:
            while self._exit_code(rank, block=False) is None and time.monotonic() < deadline:
                time.sleep(0.005)

    def _stop(self):
        """SIGSTOP, and waits until each worker has stopped: a grader that ends every process a cell leaves
        running spares a stopped one, and a stopped one runs nothing until the next launch."""
        for pid in self.pids:
            os.kill(pid, signal.SIGSTOP)
        for rank, pid in enumerate(self.pids):
            _, status = os.waitpid(pid, os.WUNTRACED)
            if not os.WIFSTOPPED(status):
                self.exit_codes[rank] = os.waitstatus_to_exitcode(status)

    def end(self):
        for rank, pid in enumerate(self.pids):
            if self.exit_codes[rank] is None:
                os.kill(pid, signal.SIGKILL)
                self._exit_code(rank, block=True)
        for connection in (*self.requests, *self.answers):
            connection.close()
        shutil.rmtree(self.store, ignore_errors=True)


def _run_warm(worker, args, world_size, threads, timeout, folder):
    """The run in warm workers (started now if there are none of this shape), or None if it cannot travel to them
    exactly. A run that fails ends them."""
    global _WARM
    try:
        payload = dumps((worker, args), exact=True)
    except Exception:                             # whatever cannot travel exactly: forked workers inherit it
        return None
    with _WARM_LOCK:
        if _WARM is not None and not _WARM.usable((world_size, threads, timeout)):
            end_warm_workers()
        if _WARM is None:
            _WARM = _WarmWorkers(world_size, threads, timeout)
        try:
            return _WARM.run(payload, folder, timeout)
        except BaseException:
            end_warm_workers()
            raise


def _forget_warm_workers():
    """In a forked child (a worker, a grader's replay): the warm workers are the parent's, to neither use nor end.
    Closing the copies of their pipes leaves the parent's ends the only ones."""
    global _WARM
    if _WARM is not None:
        for connection in (*_WARM.requests, *_WARM.answers):
            connection.close()
        _WARM = None


os.register_at_fork(after_in_child=_forget_warm_workers)


def warm_worker_pids():
    """The process ids of the warm workers, rank 0 first (empty when there are none)."""
    return list(_WARM.pids) if _WARM is not None else []


@atexit.register
def end_warm_workers():
    """Ends the warm workers, if there are any (at exit, and when a launch fails)."""
    global _WARM
    if _WARM is not None:
        _WARM.end()
        _WARM = None


# ---------------------------------------------------------------- helpers the chapter's experiments use
def shard_rows(n_rows, rank, world_size):
    """The rows of a global batch that `rank` takes: a contiguous block, sizes differing by at most one."""
    base, extra = divmod(n_rows, world_size)
    start = rank * base + min(rank, extra)
    return slice(start, start + base + (rank < extra))


def flat_grads(model):
    """All parameter gradients of `model` as one detached 1-D tensor (zeros where .grad is None; a sparse gradient,
    as `nn.Embedding(sparse=True)` gives, in its dense form)."""
    return torch.cat([(p.grad.to_dense() if p.grad is not None else torch.zeros_like(p)).detach().flatten()
                      for p in model.parameters()])


class _SummedOverProcesses(torch.autograd.Function):
    """The sum of a tensor over a process group (None: every process). Its gradient is the sum of the processes'
    gradients, since each process's input reaches every process's output (what the now deprecated
    torch.distributed.nn.functional.all_reduce did)."""

    @staticmethod
    def forward(ctx, tensor, group):
        ctx.group = group
        total = tensor.clone()
        dist.all_reduce(total, group=group)
        return total

    @staticmethod
    def backward(ctx, grad):
        total = grad.clone()
        dist.all_reduce(total, group=ctx.group)
        return total, None


class SharedBatchNorm(torch.nn.modules.batchnorm._BatchNorm):
    """What `nn.SyncBatchNorm` computes, on any device: in training mode inside a process group of several
    processes, the batch statistics of every process's rows together (sums all-reduced by `_SummedOverProcesses`,
    which carries the gradient back to each process); otherwise plain batch normalisation. PyTorch's SyncBatchNorm
    runs only on GPUs."""

    def _check_input_dim(self, x):
        if x.dim() < 2:
            raise ValueError(f"expected an input of at least 2 dimensions, got {x.dim()}")

    def forward(self, x):
        if not (self.training and dist.is_available() and dist.is_initialized() and dist.get_world_size() > 1):
            return super().forward(x)
        self._check_input_dim(x)
        channels, dims = x.shape[1], [0, *range(2, x.dim())]
        local = torch.cat([x.sum(dims), (x * x).sum(dims), x.new_tensor([x.numel() / channels])])
        total = _SummedOverProcesses.apply(local, getattr(self, "process_group", None))   # SyncBatchNorm's group
        count = total[-1]
        mean = total[:channels] / count
        var = total[channels:2 * channels] / count - mean * mean
        if self.track_running_stats:
            with torch.no_grad():
                self.num_batches_tracked += 1
                momentum = 1 / self.num_batches_tracked.item() if self.momentum is None else self.momentum
                self.running_mean.lerp_(mean.detach(), momentum)
                self.running_var.lerp_(var.detach() * count / (count - 1), momentum)
        shape = (1, channels) + (1,) * (x.dim() - 2)
        y = (x - mean.view(shape)) * torch.rsqrt(var.view(shape) + self.eps)
        return y * self.weight.view(shape) + self.bias.view(shape) if self.affine else y


class DistributedDataParallel(torch.nn.parallel.DistributedDataParallel):
    """torch's DistributedDataParallel, which accepts `nn.SyncBatchNorm` only on GPUs: a model on the CPU first has
    each SyncBatchNorm turned into a `SharedBatchNorm` (the same parameters, buffers and statistics over the
    process group), so a model made for DDP with `nn.SyncBatchNorm.convert_sync_batchnorm` runs here too."""

    def __init__(self, module, *args, **kwargs):
        if not any(t.is_cuda for t in module.parameters()):
            for layer in module.modules():
                if isinstance(layer, torch.nn.SyncBatchNorm):
                    layer.__class__ = SharedBatchNorm
        super().__init__(module, *args, **kwargs)


class CommCounter:
    """Counts the gradient buckets a DDP model all-reduces: `counter = CommCounter.attach(ddp_model)`, then
    `counter.calls`. Its communication hook averages exactly as DDP's default one does."""

    def __init__(self):
        self.calls = 0

    @classmethod
    def attach(cls, ddp_model):
        counter = cls()
        ddp_model.register_comm_hook(counter, _counting_allreduce_hook)
        return counter


def _counting_allreduce_hook(state, bucket):
    state.calls += 1
    tensor = bucket.buffer().div_(dist.get_world_size())
    return dist.all_reduce(tensor, async_op=True).get_future().then(lambda fut: fut.value()[0])


def time_comm_share(model, make_batch, loss_fn, micro_batches, repeats=7):
    """Inside a worker: for each micro-batch size, `repeats` timings of a DDP forward+backward with gradient
    synchronisation, of the same under `no_sync()`, and of an all-reduce of a buffer as large as all gradients.
    The sizes and the three kinds are interleaved (one of each per size in every round, after a warm-up round), so
    load that comes and goes on a shared machine hits all of them alike. Returns rows (size, t_sync, t_no_sync,
    t_allreduce), each t a tuple of `repeats` seconds in round order. `model` must be a DDP module."""
    numel = sum(p.numel() for p in model.parameters())
    buffer = torch.zeros(numel, device=next(model.parameters()).device)
    batches = {size: make_batch(size) for size in micro_batches}

    def timed(work):
        dist.barrier()
        start = time.perf_counter()
        work()
        if buffer.is_cuda:
            torch.cuda.synchronize()
        return time.perf_counter() - start

    def step(batch, sync):
        model.zero_grad(set_to_none=True)
        if sync:
            return timed(lambda: loss_fn(model, batch).backward())
        with model.no_sync():
            return timed(lambda: loss_fn(model, batch).backward())

    timings = {size: ([], [], []) for size in micro_batches}
    for round_ in range(repeats + 1):
        for size, batch in batches.items():
            sample = (step(batch, True), step(batch, False), timed(lambda: dist.all_reduce(buffer)))
            if round_ > 0:                                 # round 0 warms up
                for kept, seconds in zip(timings[size], sample):
                    kept.append(seconds)
    model.zero_grad(set_to_none=True)
    return [(size, *(tuple(t) for t in timings[size])) for size in micro_batches]
