"""A second Python interpreter, started fresh: what a second launch of the same script would see.

    result = run_in_fresh_process(fn, *args)   # fn(*args), computed in another interpreter

Two runs inside one process share more than their seed. Python's hash seed, drawn once when an interpreter starts,
orders every set of strings (and every dict built from one); object addresses, and state that a library sets up
once, are shared too. A run that depends on any of them is the same twice in one process and different in the
next launch. `run_in_fresh_process` sends `fn` and `args` by value (cloudpickle: functions and classes defined in
a notebook travel too) to an interpreter started with a hash seed of its own (`PYTHONHASHSEED` set to a value
this process does not have), with this process's torch settings (threads, default dtype, float32 matmul
precision), and returns what `fn` returned (by pickle).

The interpreter imports torch when it starts (two or three seconds), and is then kept, stopped (SIGSTOP), for
later calls; `start()` starts it ahead of time, in the background (`start_early()` too, except where a grader would
end it half-started). It runs in a session of its own and, on Linux, dies with the process that started it. Its own
stdout and stderr are discarded (a notebook shows nothing of it); an exception in `fn` comes back as `FreshProcessError` with the child's
traceback. Tensors that are part of an autograd graph cannot cross a process boundary: any that `args` holds (a
list of losses a buggy loss function kept, say) travel detached. `dumps` is that pickling on its own (course.ddp sends its workers the same way).
"""
import atexit
import contextlib
import copyreg
import ctypes
import importlib
import io
import os
import pickle
import select
import signal
import subprocess
import sys
import threading
import traceback
import types
from pathlib import Path

import cloudpickle
import torch
from torch.nn.utils import parametrize


# The folder holding the `course` package: the fresh interpreter must import it whatever its sys.path says.
_ROOT = str(Path(__file__).resolve().parents[1])


class FreshProcessError(RuntimeError):
    """`fn` raised in the fresh interpreter (or it died); the message holds its traceback."""


class _Pickler(cloudpickle.Pickler):
    """cloudpickle, but a tensor with a grad_fn travels detached (autograd graphs do not cross processes), a leaf's
    gradient hooks (`p.register_hook`), which torch's pickling drops with a warning, travel with it, and a
    parametrized module (weight_norm, spectral_norm, ...), which refuses to be pickled, travels as its class and
    attributes, the way copy.deepcopy copies it, a module of a class of its own (torch.classes) is imported there, and
    a file open for writing only (a log the loss writes to), which cloudpickle refuses, arrives as the null device:
    what the other process writes goes nowhere. `exact`: refuse the two that arrive changed (the graph tensor, the
    file) instead."""

    def __init__(self, file, exact=False):
        super().__init__(file)
        self.exact = exact

    def reducer_override(self, obj):
        if isinstance(obj, io.IOBase) and hasattr(obj, "mode") and not obj.closed and obj.writable() \
                and not obj.readable() and obj not in (sys.stdout, sys.stderr):
            if self.exact:
                raise pickle.PicklingError(f"{obj!r} would arrive as the null device")
            return open, (os.devnull, "wb" if "b" in obj.mode else "w")
        if isinstance(obj, torch.Tensor) and obj.grad_fn is not None:
            if self.exact:
                raise pickle.PicklingError("a tensor of an autograd graph would arrive detached")
            return _same, (obj.detach(),)
        if isinstance(obj, torch.Tensor) and obj._backward_hooks:
            bare = obj.detach().requires_grad_(obj.requires_grad)
            if isinstance(obj, torch.nn.Parameter):
                bare = torch.nn.Parameter(bare, obj.requires_grad)
            # the hooks as state, set once the tensor exists: a hook that refers to its own tensor finds it
            return _same, (bare,), list(obj._backward_hooks.values()), None, None, _register_hooks
        if isinstance(obj, torch.nn.Module) and parametrize.is_parametrized(obj):
            return _bare_instance, (type(obj),), obj.__dict__
        if isinstance(obj, types.ModuleType) and type(obj) is not types.ModuleType \
                and sys.modules.get(obj.__name__) is obj:
            # a module of a class of its own (torch.classes, torch.ops), which cloudpickle takes along whenever a
            # function reads an attribute of that name (self.classes) and cannot pickle: import it there instead
            return importlib.import_module, (obj.__name__,)
        return super().reducer_override(obj)


def _same(value):
    return value


def _register_hooks(tensor, hooks):
    for hook in hooks:
        tensor.register_hook(hook)


def _bare_instance(cls):
    return object.__new__(cls)


def dumps(obj, exact=False) -> bytes:
    """`obj` pickled by value (cloudpickle), tensors that are part of a graph detached; no class is changed.
    `exact`: raise PicklingError where something would arrive changed (a graph tensor, a file open for writing)."""
    buffer = io.BytesIO()
    try:
        with slot_names_not_cached():
            _Pickler(buffer, exact).dump(obj)
    except (TypeError, NotImplementedError, pickle.PicklingError) as error:   # NotImplementedError: DataLoader's
        raise pickle.PicklingError(f"cannot send to another process: {error}. Everything the function and its "
                                   "arguments reach travels by value; a generator or an iterator kept between calls "
                                   "(next(batches) in make_batch) cannot: make it inside the call") from error
    return buffer.getvalue()


@contextlib.contextmanager
def slot_names_not_cached():
    """The first time an object of a class is pickled or deep-copied, copyreg caches the class's slot names on the
    class (`__slotnames__`): pickling or copying would change torch's and the course's classes (Tensor, Flight,
    spectral_norm's hook), which the grader watches. Inside the block the names are computed as usual and the cache
    is taken away again."""
    original = copyreg._slotnames

    def uncached(cls):
        cached = "__slotnames__" in cls.__dict__
        names = original(cls)
        if not cached and "__slotnames__" in cls.__dict__:
            type.__delattr__(cls, "__slotnames__")
        return names

    copyreg._slotnames = uncached
    try:
        yield
    finally:
        copyreg._slotnames = original


def torch_settings():
    """The torch settings another process needs to compute as this one does: threads, default dtype, matmul
    precision."""
    return {"threads": torch.get_num_threads(), "dtype": torch.get_default_dtype(),
            "matmul": torch.get_float32_matmul_precision()}


def apply_torch_settings(settings):
    """Makes `torch_settings()` of another process this process's own."""
    torch.set_num_threads(settings["threads"])
    torch.set_default_dtype(settings["dtype"])
    torch.set_float32_matmul_precision(settings["matmul"])


def _read_message(stream):
    header = stream.read(8)
    if len(header) < 8:
        raise EOFError("the other side closed the pipe")
    return stream.read(int.from_bytes(header, "little"))


def _write_message(stream, data):
    stream.write(len(data).to_bytes(8, "little") + data)
    stream.flush()


def die_with_parent():
    """On Linux, asks the kernel to SIGKILL this process when the thread that started it ends: stopped between
    calls, it could act on no other signal, and would outlive a parent that was killed outright."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)   # 1: PR_SET_PDEATHSIG


def serve():
    """The fresh interpreter's loop (`python -c "...; serve()"`): reads (fn, args, settings) from stdin, answers
    ("ok", result) or ("error", traceback) on what was stdout; its own prints go nowhere."""
    die_with_parent()   # before the first call, after which the parent stops it; an orphan reads EOF and returns
    answers = os.fdopen(os.dup(1), "wb")
    requests = os.fdopen(os.dup(0), "rb")
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    sys.path[:] = pickle.loads(_read_message(requests))
    # Constructing a first torch.optim optimizer imports torch._dynamo (about a second): done here, while the
    # parent is still busy with other work, not in the first call it waits for.
    importlib.import_module("torch._dynamo")
    while True:
        try:
            payload = _read_message(requests)
        except EOFError:
            return
        try:
            fn, args, settings = pickle.loads(payload)
            apply_torch_settings(settings)
            answer = ("ok", fn(*args))
        except BaseException:
            answer = ("error", traceback.format_exc())
        try:
            data = dumps(answer)
        except Exception:
            data = dumps(("error", traceback.format_exc()))
        _write_message(answers, data)


def other_hash_seed() -> str:
    """A PYTHONHASHSEED value that differs from this interpreter's: one more than its own if it was started with
    one, else 0 (this interpreter's seed was then drawn at random)."""
    mine = os.environ.get("PYTHONHASHSEED", "")
    return str((int(mine) + 1) % 2**32) if mine.isdigit() else "0"


class _Child:
    def __init__(self):
        # PYTHONPATH: the course may be importable only through this kernel's sys.path (Colab's carried copy);
        # the child needs it to import serve() before it reads that path.
        env = dict(os.environ, PYTHONHASHSEED=other_hash_seed(),
                   PYTHONPATH=os.pathsep.join(filter(None, [_ROOT, os.environ.get("PYTHONPATH")])))
        # A session of its own: a Jupyter kernel that shuts down sends SIGTERM to the children in its process
        # group and waits (up to a second and a half) for them to end, which a stopped process cannot do.
        self.process = subprocess.Popen([sys.executable, "-c", "from course.fresh_process import serve; serve()"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, env=env, cwd=os.getcwd(),
                                        start_new_session=True)
        _write_message(self.process.stdin, pickle.dumps([_ROOT] + sys.path))

    def alive(self):
        return self.process.poll() is None

    def call(self, payload, timeout):
        os.kill(self.process.pid, signal.SIGCONT)
        _write_message(self.process.stdin, payload)
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        if not ready:
            raise TimeoutError(f"the fresh interpreter did not answer within {timeout:g} s")
        answer = _read_message(self.process.stdout)
        # Stopped between calls: an idle interpreter then cannot run anything, and the grader, which ends every
        # process a cell leaves running, spares a stopped one, so one interpreter serves a whole notebook.
        self._stop()
        status, value = pickle.loads(answer)
        if status == "error":
            raise FreshProcessError(f"in the fresh interpreter:\n{value}")
        return value

    def _stop(self):
        """SIGSTOP, and waits until every thread has stopped: a signal only takes effect when the interpreter is
        next scheduled (about one call in ten on a busy machine returned before), and a cell that ended
        meanwhile would leave a running interpreter for the grader to end."""
        os.kill(self.process.pid, signal.SIGSTOP)
        try:
            _, status = os.waitpid(self.process.pid, os.WUNTRACED)
        except ChildProcessError:      # another process's child (a fork of the one that started it): cannot wait
            return
        if not os.WIFSTOPPED(status):  # it ended instead: keep its exit code for poll()
            self.process.returncode = os.waitstatus_to_exitcode(status)

    def close(self):
        """Ends the interpreter and closes both pipes (an unclosed pipe warns when it is collected)."""
        self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            try:
                pipe.close()
            except OSError:            # the other side is gone: nothing left to flush
                pass


_LOCK = threading.Lock()
_CHILD = None


@atexit.register
def end():
    """Ends the fresh interpreter if one runs (the next call starts another): for code that must leave no process
    behind, such as a test module that shares its Python process with others."""
    global _CHILD
    with _LOCK:
        if _CHILD is not None:
            _CHILD.close()
            _CHILD = None


def start():
    """Starts the fresh interpreter now (in the background: this returns at once) if it is not running."""
    global _CHILD
    with _LOCK:
        if _CHILD is not None and not _CHILD.alive():
            _CHILD.close()
        if _CHILD is None or not _CHILD.alive():
            _CHILD = _Child()
        return _CHILD


def start_early():
    """Starts the interpreter now, in the background, so that its imports overlap what the notebook does next;
    except under a grader that ends every process a cell leaves running (`COURSE_ENDS_CELL_PROCESSES` set, as the
    autograder's sandbox sets it), which would end it half-started: there the first call starts it."""
    if not os.environ.get("COURSE_ENDS_CELL_PROCESSES"):
        start()


def run_in_fresh_process(fn, *args, timeout=300.0):
    """fn(*args), computed in a fresh interpreter with a hash seed of its own; returns its result.

    Something may end the interpreter between two calls (the grader ends every process a notebook cell started);
    a call that finds it dead starts another one and tries once more."""
    payload = dumps((fn, args, torch_settings()))
    for attempt in (1, 2):
        child = start()
        try:
            return child.call(payload, timeout)
        except TimeoutError:
            _discard(child)
            raise
        except (EOFError, OSError, ValueError) as error:
            code = _discard(child)
            if attempt == 2:
                raise FreshProcessError(f"the fresh interpreter died ({type(error).__name__}: {error}; exit code "
                                        f"{code})") from None


def _discard(child):
    """Ends `child` (a late answer must never be read as the next call's) and returns its exit code."""
    global _CHILD
    try:
        code = child.process.wait(timeout=1)
    except subprocess.TimeoutExpired:
        code = None
    with _LOCK:
        child.close()
        if _CHILD is child:
            _CHILD = None
    return code
