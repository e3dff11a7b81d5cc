"""The trusted runner: executes one repaired notebook cell by cell and reports every cell to the grader.

Started by the grader as `python runner.py JOB_FD MSG_FD`, inside the sandbox (sandbox.py), where this file and
channel.py are the only parts of the grader it can see. It reads the job (HMAC key, limits, seed, the modules
course cells import, the cells), runs the cells in one namespace and sends one signed result per cell.

No Jupyter kernel: a kernel's shell, transformers, hooks and outputs are all reachable from student code. Here
each cell is compiled and exec'd by this file; stdout and stderr are captured per cell with size caps; every
exception (BaseException, the cell timeout included) is caught, so an error never stops the notebook.
The runner reports facts (exception, stderr, what student code changed); the grader decides the scores.

What keeps a test cell's facts honest, against student code that runs before it in the same process:
  * Trusted state lives only in closures and frame locals made before student code runs. Signing and sending
    (channel.py), the guard and the audit hook use only functions captured then, mostly C ones, so patching a
    module later cannot change them, and reaching them needs a frame or an object walk (next point).
  * An audit hook, which cannot be removed: it refuses new audit hooks, trace and profile functions, ctypes,
    gc object walks and /proc/<pid>/mem to student code, and reports frame access from student code at once,
    before the frame is handed over. The grader scores no test cell after such a "taint".
  * A guard: the identities of every function, class and module attribute of the modules tests and this
    runner rely on (builtins, math, numpy, torch, course, ...), their classes' attributes (Tensor dunders, ...),
    the code and defaults of the assertion helpers, sys hooks and sys.modules entries. After every cell, and
    before each test cell, anything changed is put back and reported; a change made during a test cell fails it.
  * Test cells run in a copy of the namespace with a private copy of builtins, without student names that
    shadow builtins, and with the names course cells imported or defined put back, and with no other thread
    running; gc runs only while cells run, so no student finalizer runs inside the runner's own steps.
Known limit: a patch that student code makes *and undoes* while one test cell runs is not seen; the static scan
(scan.py) flags such code for review.

After the last result, and only then, the runner may diagnose the failing exercises (catalogue/behaviour.py): it
replays their test cells from what it kept before each one ran (the namespace, the random generators), with each
catalogued mistake in place of the student's code, and sends the names of those that behave like the student's
answer. Nothing it does then can change a score: every result is already sent, and findings outside the cells
are not the grader's business.
"""
import ast
import builtins
import gc
import io
import itertools
import json
import linecache
import operator
import os
import random
import resource
import select
import shutil
import signal
import sys
import time
import traceback
import types
from _thread import _local as _thread_local

import behaviour
import channel

# Values whose identity may change without harm; only functions, classes, modules and other objects are guarded.
DATA_TYPES = frozenset({int, float, complex, str, bytes, bytearray, bool, type(None), tuple, list, dict, set,
                        frozenset})
REAP_ROUNDS = 20  # passes over /proc before the reaper kills every process
# Modules whose attributes the tests, the assertion helpers and this runner use.
GUARDED_ROOTS = frozenset({"builtins", "math", "cmath", "operator", "functools", "itertools", "copy", "random",
                           "statistics", "numbers", "collections", "heapq", "bisect", "re", "time", "warnings",
                           "numpy", "torch", "course", "os", "posix", "signal", "io", "json", "_json", "hmac",
                           "hashlib", "ast", "traceback", "linecache", "threading", "channel", "gc", "types"})
SYS_HOOKS = ("excepthook", "displayhook", "breakpointhook", "unraisablehook", "audit")
# Modules whose functions must keep their own code and defaults: the assertion helpers tests call.
CHECKED_FUNCTIONS = frozenset({"course.testing", "torch.testing._comparison", "numpy.testing._private.utils",
                               "numpy.core.numeric"})
FRAME_ATTRS = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
REFUSED_EVENTS = frozenset({"gc.get_objects", "gc.get_referrers", "gc.get_referents", "sys._current_frames"})
WATCHED_EVENTS = REFUSED_EVENTS | {"sys.addaudithook", "sys.settrace", "sys.setprofile", "open", "compile",
                                   "object.__getattr__", "object.__setattr__", "sys._getframe"}
SAFE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-/<> ")
MAGICS_IGNORED = frozenset({"matplotlib", "config", "load_ext", "reload_ext", "autoreload", "precision"})
STUDENT_FILE = "<cell {}>"  # solution cells and cells the student added
COURSE_FILE = "<course {}>"  # locked and test cells: their source comes from the course


class CellTimeout(BaseException):
    """Raised in the running cell at the cell timeout (a BaseException, like KeyboardInterrupt)."""


class Capture(io.TextIOBase):
    """sys.stdout / sys.stderr during a cell: keeps the first `limit` characters in `parts` and counts the rest."""

    def __init__(self, parts: list, limit: int):
        super().__init__()
        self.parts, self.limit, self.kept, self.dropped = parts, limit, 0, 0

    def writable(self):
        return True

    @property
    def encoding(self):
        return "utf-8"

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        room = max(self.limit - self.kept, 0)
        if room:
            self.parts.append(text[:room])
            self.kept += min(len(text), room)
        self.dropped += max(len(text) - room, 0)
        return len(text)


class Shell:
    """`get_ipython()`: the grader turned `%magic` into get_ipython().run_line_magic(...). Display-only magics do
    nothing; any other magic, and shell escapes, raise in that cell."""

    def run_line_magic(self, name, line, *args, **kwargs):
        if name not in MAGICS_IGNORED:
            raise RuntimeError(f"%{name} is not available when grading")

    def run_cell_magic(self, name, line, cell, *args, **kwargs):
        raise RuntimeError(f"%%{name} is not available when grading")

    def system(self, command, *args, **kwargs):
        raise RuntimeError("shell commands (!...) are not available when grading")

    getoutput = system


def make_guard(extra: dict):
    """Snapshots what tests rely on; returns changes(restore=True) -> names of what differed (and was put back)."""
    modules, classes, functions, seen = [], [], [], set()
    # builtins first: restoring it first means the rest of a restore never calls a patched builtin.
    names = sorted((name for name, module in sys.modules.items()
                    if type(module) is types.ModuleType and name.split(".")[0] in GUARDED_ROOTS),
                   key=lambda name: (name != "builtins", name))
    entries = [(name, sys.modules[name], False) for name in names] + [(name, m, True) for name, m in extra.items()]
    for name, module, strict in entries:
        mapping = module.__dict__
        items = [(key, value) for key, value in mapping.items() if type(value) not in DATA_TYPES]
        modules.append((name, mapping, tuple(key for key, _ in items), tuple(value for _, value in items),
                        frozenset(mapping) if strict else None))
        for _, value in items:
            if issubclass(type(value), type) and id(value) not in seen:  # not isinstance: no __class__ lookup
                seen.add(id(value))
                proxy = value.__dict__
                guarded = [(key, item) for key, item in proxy.items() if type(item) not in DATA_TYPES]
                classes.append((f"{value.__module__}.{value.__qualname__}", value, proxy,
                                frozenset(proxy), tuple(key for key, _ in guarded), tuple(item for _, item in guarded)))
            if name in CHECKED_FUNCTIONS and type(value) is types.FunctionType:
                functions.append((f"{name}.{value.__name__}", value, value.__code__, value.__defaults__,
                                  dict(value.__kwdefaults__ or {})))
    sys_hooks = [(name, getattr(sys, name)) for name in SYS_HOOKS]
    sys_modules = [(name, module) for name, module, strict in entries if not strict]
    # The usual case, nothing changed, in C calls only: restore() runs two or three times a cell, and a Python
    # loop over a thousand modules and their classes made grading slow. Per mapping, one itemgetter fetches every
    # guarded value (a lone key twice, so that it returns a tuple); a deleted key raises KeyError.
    guarded = [(mapping, keys, values) for _, mapping, keys, values, _ in modules] + \
        [(proxy, keys, values) for _, _, proxy, _, keys, values in classes]
    guarded = [(mapping, keys * 2, values * 2) if len(keys) == 1 else (mapping, keys, values)
               for mapping, keys, values in guarded if keys]
    fetched_from = tuple(mapping for mapping, _, _ in guarded)
    fetchers = tuple(operator.itemgetter(*keys) for _, keys, _ in guarded)
    expected = tuple(itertools.chain.from_iterable(values for _, _, values in guarded))
    sized = tuple(mapping for _, mapping, _, _, exact in modules if exact is not None) + \
        tuple(proxy for _, _, proxy, _, _, _ in classes)
    sizes = tuple(len(mapping) for mapping in sized)
    module_names, module_objects = tuple(name for name, _ in sys_modules), tuple(m for _, m in sys_modules)
    # Everything below runs after student code: only these captured callables, never a global lookup.
    _map, _is, _all, _len, _zip, _list, _dict = map, operator.is_, all, len, zip, list, dict
    _set, _del, _getattr, _setattr, _modules = type.__setattr__, type.__delattr__, getattr, setattr, sys.modules
    _call, _tuple, _chain, _key_error = operator.call, tuple, itertools.chain.from_iterable, KeyError

    def unchanged() -> bool:
        try:
            return (_all(_map(_is, expected, _chain(_map(_call, fetchers, fetched_from))))
                    and _tuple(_map(_len, sized)) == sizes)
        except _key_error:
            return False

    def changes(restore: bool = True) -> list:
        found = []
        if not unchanged():
            for name, mapping, keys, values, exact in modules:
                if not _all(_map(_is, values, _map(mapping.get, keys))):
                    for key, value in _zip(keys, values):
                        if mapping.get(key) is not value:
                            found.append(f"{name}.{key}")
                            if restore:
                                mapping[key] = value
                if exact is not None and _len(mapping) != _len(exact):
                    for key in [k for k in _list(mapping) if k not in exact]:
                        found.append(f"{name}.{key} (added)")
                        if restore:
                            del mapping[key]
            for name, cls, proxy, names, keys, values in classes:
                if _len(proxy) != _len(names) or not _all(_map(_is, values, _map(proxy.get, keys))):
                    for key, value in _zip(keys, values):
                        if proxy.get(key) is not value:
                            found.append(f"{name}.{key}")
                            if restore:
                                _set(cls, key, value)
                    for key in [k for k in _list(proxy) if k not in names]:
                        found.append(f"{name}.{key} (added)")
                        if restore:
                            _del(cls, key)
        for name, func, code, defaults, kwdefaults in functions:
            if func.__code__ is not code or func.__defaults__ is not defaults or \
                    _dict(func.__kwdefaults__ or {}) != kwdefaults:
                found.append(f"{name} (code or defaults)")
                if restore:
                    func.__code__, func.__defaults__ = code, defaults
                    func.__kwdefaults__ = _dict(kwdefaults) or None
        for name, hook in sys_hooks:
            if _getattr(sys, name) is not hook:
                found.append(f"sys.{name}")
                if restore:
                    _setattr(sys, name, hook)
        if not _all(_map(_is, module_objects, _map(_modules.get, module_names))):
            for name, module in sys_modules:
                if _modules.get(name) is not module:
                    found.append(f"sys.modules[{name!r}]")
                    if restore:
                        _modules[name] = module
        return found

    return changes


def install_audit(send, current: list) -> None:
    """The audit hook. `current[0]` is the running cell's index, for reports. A report is sent before the
    operation it reports completes; a refusal raises RuntimeError in the student's code. Like the guard, it only
    uses what it captured here."""
    getframe, runner_file, local = sys._getframe, __file__, _thread_local()
    _getattr, _setattr, _len, _type, _str, _bytes = getattr, setattr, len, type, str, bytes
    fsdecode, function_type, join, refusal = os.fsdecode, types.FunctionType, "".join, RuntimeError
    safe, watched, refused, frame_attrs = SAFE_CHARS, WATCHED_EVENTS, REFUSED_EVENTS, FRAME_ATTRS
    reported = set()

    def report(kind: str, what: str) -> None:
        key = (current[0], kind, what)
        # Taints are never capped: flooding the cap with harmless reports must not hide one.
        if key not in reported and (kind == "taint" or _len(reported) < 200):
            reported.add(key)
            text = join(c if c in safe else "?" for c in what[:200])
            send(b'{"index":%d,"kind":"%s","type":"finding","what":"%s"}' % (current[0], kind.encode(), text.encode()))

    def from_student(frame) -> bool:
        # The frame that raised the event and its two callers: catches sys._getframe called in a cell, and a
        # cell calling inspect.currentframe(), inspect.stack() or a ctypes helper. Student code is any code
        # not compiled from a file, except course cells and Python's frozen modules.
        for _ in (1, 2, 3):
            if frame is None:
                return False
            name = frame.f_code.co_filename
            if name.startswith("<") and not name.startswith(("<course", "<frozen")):
                return True
            frame = frame.f_back
        return False

    def check(event: str, args: tuple) -> bool:
        origin = getframe(2)  # 0 check, 1 hook, 2 the Python code that raised the event
        if event == "sys.addaudithook":
            report("refused", event)
            return True
        if event in ("sys.settrace", "sys.setprofile"):
            if origin.f_code.co_filename == runner_file:
                return False
            report("refused", event)
            return True
        if event == "open":
            path = args[0]
            if _type(path) in (_str, _bytes):
                parts = fsdecode(path).split("/")
                if _len(parts) >= 4 and parts[1] == "proc" and parts[-1] in ("mem", "pagemap"):
                    report("taint", "open " + fsdecode(path))
                    return True
            return False
        if event == "compile":
            filename = args[1]
            if _type(filename) in (_str, _bytes) and fsdecode(filename).startswith("<course") and \
                    origin.f_code.co_filename != runner_file:
                report("taint", "compile under a course cell's name")
                return True
            return False
        if not from_student(origin):
            return False
        if event in refused or event.startswith("ctypes."):
            report("taint", event)
            return True
        if event == "object.__getattr__":
            if args[1] in frame_attrs:
                report("taint", _type(args[0]).__name__ + "." + args[1])
            return False
        if event == "object.__setattr__":
            target, attr = args[0], args[1]
            if _type(target) is function_type and attr in ("__code__", "__defaults__", "__kwdefaults__") and \
                    not target.__code__.co_filename.startswith("<cell"):
                report("taint", "set " + target.__qualname__ + "." + attr)
                return True
            return False
        if event == "sys._getframe":
            report("taint", event)
        return False

    def hook(event: str, args: tuple) -> None:
        if event not in watched and not event.startswith("ctypes."):
            return
        if _getattr(local, "busy", False):  # the hook's own frame and attribute reads raise events too
            return
        _setattr(local, "busy", True)
        try:
            refuse = check(event, args)
        finally:
            _setattr(local, "busy", False)
        if refuse:
            raise refusal(f"{event} is not allowed while grading")

    sys.addaudithook(hook)


def make_timer():
    """call(function, seconds) -> (value, exception): function() with CellTimeout raised in it after `seconds`
    (and every second after that, so a loop that swallows one gets the next; the grader ends what still runs)."""
    armed, setitimer, real, handle, alarm = [False], signal.setitimer, signal.ITIMER_REAL, signal.signal, \
        signal.SIGALRM
    timeout, anything = CellTimeout, BaseException

    def on_alarm(signum, frame):
        if armed[0]:
            setitimer(real, 1.0)
            raise timeout("the cell ran past its time limit")

    def call(function, seconds: float):
        handle(alarm, on_alarm)  # a cell may have installed its own handler
        try:
            try:
                armed[0] = True
                setitimer(real, seconds)
                return function(), None
            finally:
                setitimer(real, 0)
                armed[0] = False
        except anything as error:
            return None, error

    return call


def _random_states() -> tuple:
    """The states of the random generators a cell may draw from (Python's, NumPy's, torch's CPU one)."""
    numpy, torch = sys.modules.get("numpy"), sys.modules.get("torch")
    return (random.getstate(), numpy.random.get_state() if numpy else None,
            torch.get_rng_state() if torch else None)


def _set_random_states(states: tuple) -> None:
    python, numpy_state, torch_state = states
    random.setstate(python)
    if numpy_state is not None:
        sys.modules["numpy"].random.set_state(numpy_state)
    if torch_state is not None:
        sys.modules["torch"].set_rng_state(torch_state)


def make_cell_runner(job: dict, ns: dict, restore, call, current: list):
    """(run(cell) -> result dict, define, replay, isolated): the last three run a catalogued mistake's code and a
    test cell again after the notebook, in a child process, for behaviour.diagnose. The lines between a cell's
    end and restore() use captured callables only."""
    _compile, _exec, _eval, _isinstance, _dict, _len = compile, exec, eval, isinstance, dict, len
    only_ast, expr, expression = ast.PyCF_ONLY_AST, ast.Expr, ast.Expression
    gc_enable, gc_disable, monotonic, threads = gc.enable, gc.disable, time.monotonic, sys._current_frames
    getpid, leave = os.getpid, os._exit
    # The process that runs cells: the runner, or a diagnosis child (see isolated); a process a cell forked
    # that comes back into this loop leaves at once. Only the runner reaps: a child's kill(-1) would reach it.
    owner, reaping = [os.getpid()], [bool(job.get("reap"))]
    reap_all = _reaper() if job.get("reap") else (lambda: None)

    def reap() -> None:
        if reaping[0]:
            reap_all()
    builtins_copy = dict(builtins.__dict__)
    limit, timeout = job["stream_limit"], job["cell_timeout"]
    course_bindings = {}  # name -> value a course cell imported or defined
    # The test cells a diagnosis may replay: each one's namespace before it ran, the random generators' states
    # then, its source and the time a replay may take (cheap: a dict copy and a few kilobytes of generator state
    # per test cell).
    probed = frozenset(index for exercise in job.get("diagnosis", {}).get("exercises", ())
                       for index in exercise["tests"])
    snapshots = {}

    def execute(source: str, filename: str, namespace: dict):
        tree = _compile(source, filename, "exec", only_ast)
        last = tree.body.pop() if tree.body and _isinstance(tree.body[-1], expr) else None
        _exec(_compile(tree, filename, "exec"), namespace)
        if last is not None:
            value = _eval(_compile(expression(last.value), filename, "eval"), namespace)
            return None if source.rstrip().endswith(";") else value
        return None

    def in_cell(source: str, filename: str, namespace: dict, seconds: float, guarded: bool = True) -> tuple:
        """Runs `source` as a cell: stdout and stderr captured, gc on, under the timer; then restore() (unless
        not `guarded`) and reap(). Returns (value, error, what restore() found, whether sys.stdout or sys.stderr
        was swapped, seconds, the two captures)."""
        out, err = Capture([], limit), Capture([], limit)
        streams = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = out, err
        started = monotonic()
        gc_enable()
        value, error = call(lambda: execute(source, filename, namespace), seconds)
        if getpid() != owner[0]:
            leave(0)  # a child the cell forked, back in the runner's loop: only the runner runs the notebook
        gc_disable()
        changed = restore() if guarded else []
        elapsed = monotonic() - started
        reap()
        swapped = sys.stdout is not out or sys.stderr is not err
        sys.stdout, sys.stderr = streams
        return value, error, changed, swapped, elapsed, (out, err)

    def run(cell: dict) -> dict:
        before_changes = restore()
        index, kind, source = cell["index"], cell["kind"], cell["source"]
        current[0] = index
        filename = (STUDENT_FILE if kind == "student" else COURSE_FILE).format(index)
        if not cell.get("hidden"):
            linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        result = {"type": "result", "index": index, "restored": before_changes}
        if kind == "test":
            namespace, hidden = _test_namespace(result)
            result["threads"] = _len(threads()) - 1
            if index in probed:
                snapshots[index] = [_dict(namespace), _random_states(), source, timeout]
        else:
            namespace, hidden = ns, {}
        before = _dict(ns) if kind == "course" else None
        value, error, changed, swapped, seconds, (out, err) = in_cell(source, filename, namespace, timeout)
        if kind == "test":
            result["threads"] = max(result["threads"], _len(threads()) - 1)
            if index in probed:  # a replay may take a little longer than the cell did, not a cell timeout
                snapshots[index][3] = min(timeout, 2 * seconds + 1.0)
        # Describing the outcome may run student code (an exception's __str__, a value's __repr__): under the
        # timer, followed by another restore. Without either, no student code ran since the last restore.
        if error is not None:
            result["error"] = _describe(error)
            changed += restore()
        elif value is not None:
            text, problem = call(lambda: repr(value), 2.0)
            result["display"] = _cap(text if problem is None else f"<repr() failed: {type(problem).__name__}>",
                                     20000)
            changed += restore()
        changed += ["sys.stdout or sys.stderr"] if swapped else []
        result.update(ok=error is None, seconds=round(seconds, 3), stdout=_joined(out.parts, out.dropped),
                      stderr=_joined(err.parts, err.dropped), changed=changed)
        if kind == "test":  # what the test cell defined stays defined, as in a notebook
            for name, bound in namespace.items():
                if name != "__builtins__" and name not in hidden and ns.get(name) is not bound:
                    ns[name] = bound
        if kind == "course":
            _record_bindings(cell, filename, before)
        return result

    def _from_snapshot(index: int) -> tuple[dict, dict]:
        """(a copy of test cell `index`'s namespace before it ran, with builtins of its own; that namespace)."""
        before = snapshots[index][0]
        namespace = _dict(before)
        namespace["__builtins__"] = _dict(builtins_copy)
        return namespace, before

    def _new_names(namespace: dict, before: dict) -> dict:
        return {name: value for name, value in namespace.items()
                if name != "__builtins__" and before.get(name) is not value}

    # Replays run after every result was sent, so nothing they do changes a score: the guard, which costs tens
    # of milliseconds a call, is not run around each (the diagnosis runs it once before them all). What student
    # code changes then can only blur its own diagnosis.
    def define(source: str, index: int) -> dict | None:
        """What a catalogued mistake's code defines, run in the state test cell `index` first ran in; None when
        it raised."""
        namespace, before = _from_snapshot(index)
        _, error, _, _, _, _ = in_cell(source, STUDENT_FILE.format("catalogue"), namespace, timeout, False)
        return None if error is not None else _new_names(namespace, before)

    def replay(index: int, definitions: dict, carried: dict, names: list, calls: list,
               expected: list | None) -> tuple[dict, dict]:
        """Test cell `index` again, from its state before it first ran, with `carried` and `definitions` in
        place and the functions among `names` recording their calls into `calls`, checked against `expected`
        (behaviour.recording): (its result, as far as behaviour reads it; the other names it defined)."""
        namespace, before = _from_snapshot(index)
        namespace.update(carried)
        namespace.update(definitions)
        for name in names:
            if type(namespace.get(name)) is types.FunctionType:
                namespace[name] = behaviour.recording(namespace[name], calls, expected)
        _set_random_states(snapshots[index][1])
        _, error, _, _, _, (_, err) = in_cell(snapshots[index][2], COURSE_FILE.format(index), namespace,
                                              snapshots[index][3], False)
        result = {"stderr": _joined(err.parts, err.dropped)}
        if error is not None:
            result["error"] = _describe(error)
        defined = _new_names(namespace, before)
        return result, {name: value for name, value in defined.items() if name not in names}

    def _test_namespace(result: dict) -> tuple:
        """A copy of the namespace for a test cell, and the student names hidden from it."""
        namespace = _dict(ns)
        hidden = {name: namespace.pop(name) for name in list(namespace)
                  if name in builtins_copy and name not in course_bindings and not name.startswith("__")}
        namespace["__builtins__"] = _dict(builtins_copy)
        put_back = [name for name, value in course_bindings.items() if namespace.get(name) is not value]
        namespace.update((name, course_bindings[name]) for name in put_back)
        result["shadowed"] = sorted(name for name, value in hidden.items() if callable(value))
        result["put_back"] = put_back
        return namespace, hidden

    def _record_bindings(cell: dict, filename: str, before: dict) -> None:
        """Its imports, resolved from the guarded modules rather than the namespace, which student code can
        change; and the functions and classes it defined."""
        for name, module, attr in cell.get("imports", []):
            target = sys.modules.get(module)
            if target is not None and attr is not None:
                target = getattr(target, attr, None)
            if target is not None:
                course_bindings[name] = target
        for name in cell.get("defines", []):
            value = ns.get(name)
            code = getattr(value, "__code__", None)
            if value is not before.get(name) and (isinstance(value, type) or
                                                  (code is not None and code.co_filename == filename)):
                course_bindings[name] = value

    def _describe(error: BaseException) -> dict:
        def formatted():
            entries = traceback.format_exception(type(error), error, error.__traceback__)
            # Without this file's frames a traceback starts in the cell, as in Jupyter.
            return "".join(entry for entry in entries if __file__ not in entry)

        evalue, problem = call(lambda: str(error), 2.0)
        trace, problem2 = call(formatted, 5.0)
        return {"ename": type(error).__name__,
                "evalue": _cap_middle(evalue if problem is None else "<str() failed>", 8000),
                "traceback": _cap(trace if problem2 is None else "<traceback unavailable>", 16000)}

    def isolated(work):
        """work() in a forked child, whose changes to the notebook's objects die with it: one exercise's
        replays never change what another's see. Its JSON-able value, or None if the child failed."""
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            owner[0], reaping[0] = getpid(), False
            try:
                data = json.dumps(work()).encode()
            except BaseException:  # noqa: B036 - the child's answer is lost, not the runner
                data = b"null"
            while data:
                data = data[os.write(write_fd, data):]
            leave(0)
        os.close(write_fd)
        # Read until the child has exited and the pipe is empty: not until end of file, which a process the
        # child started could hold off for ever by keeping the pipe open.
        chunks, exited = [], False
        while True:
            if select.select([read_fd], [], [], 0.05)[0]:
                chunk = os.read(read_fd, 65536)
                if not chunk:
                    break
                chunks.append(chunk)
            elif exited:
                break
            else:
                exited = os.waitpid(pid, os.WNOHANG)[0] != 0
        os.close(read_fd)
        if not exited:
            os.waitpid(pid, 0)
        reap()
        try:
            return json.loads(b"".join(chunks) or b"null")
        except ValueError:  # the child died half-way through its answer
            return None

    return run, define, replay, isolated


def _reaper():
    """reap(): kills every other process of the sandbox that is not stopped, and collects the runner's dead
    children. Called after each cell, so no process a cell started (a fork bomb's children, a daemon) runs on past
    it. A process stopped by SIGSTOP, every thread of it, is spared: it runs nothing until code in a later cell
    resumes it, and is reaped at that cell's end unless stopped again (course.fresh_process keeps its interpreter
    so between calls). Only in the sandbox, whose pid namespace holds nothing else: pid 1 is bwrap."""
    if os.path.basename(_read("/proc/1/cmdline").split(b"\0")[0]) != b"bwrap":
        raise RuntimeError("asked to reap processes outside a sandbox")
    kill, waitpid, no_wait, child_error = os.kill, os.waitpid, os.WNOHANG, ChildProcessError
    listdir, os_open, os_read, os_close, read_only = os.listdir, os.open, os.read, os.close, os.O_RDONLY
    me, kill_signal, _int, _range, gone = os.getpid(), signal.SIGKILL, int, range, ProcessLookupError

    def state(path: str) -> bytes:
        try:
            fd = os_open(path, read_only)
            try:
                text = os_read(fd, 4096)
            finally:
                os_close(fd)
        except OSError:  # gone meanwhile
            return b""
        return text[text.rfind(b")") + 2:][:1]  # after "pid (name) ", whatever the name holds

    def spared(pid: str) -> bool:
        """Stopped (every thread), or dead (a zombie its parent has not collected yet)."""
        try:
            threads = listdir(f"/proc/{pid}/task")
        except OSError:  # gone meanwhile
            return True
        states = {state(f"/proc/{pid}/task/{tid}/stat") for tid in threads}
        return states == {b"T"} or states <= {b"Z", b"X", b""}

    def reap() -> None:
        killed = {1, me}
        for _ in _range(REAP_ROUNDS):  # one killed may have forked first: look again, until no new one shows
            running = [_int(pid) for pid in listdir("/proc") if pid.isdigit() and _int(pid) not in killed
                       and not spared(pid)]
            if not running:
                break
            for pid in running:
                killed.add(pid)
                try:
                    kill(pid, kill_signal)
                except gone:
                    pass
        else:  # forking faster than it is killed: every process goes, stopped or not
            try:
                kill(-1, kill_signal)
            except gone:
                pass
        try:
            while waitpid(-1, no_wait)[0]:
                pass
        except child_error:
            pass

    return reap


def _read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _joined(parts: list, dropped: int) -> str:
    text = "".join(parts)
    return text + f"\n[... {dropped} more characters not kept]\n" if dropped else text


def _cap(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"\n[... {len(text) - limit} more characters]"


def _cap_middle(text: str, limit: int) -> str:
    """`text` cut in the middle: an error message that quotes a traceback (a DDP worker's) ends with its cause."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n[... {len(text) - 2 * half} characters ...]\n{text[-half:]}"


def _read_job(fd: int) -> dict:
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(fd)
    return json.loads(b"".join(chunks))


def _set_up(job: dict) -> list:
    """Limits, $HOME, imports and seeds, before any student code and before the student's files are in reach
    (cwd is not their folder, which is not on sys.path: none of their files is read at import). Returns the
    modules loaded."""
    for name, value in job["limits"].items():
        # The CPU limit's hard value comes later: SIGXCPU first, SIGKILL 5 s after.
        resource.setrlimit(getattr(resource, name), (value, value + 5 if name == "RLIMIT_CPU" else value))
    shutil.copytree(job["home_seed"], os.environ["HOME"], dirs_exist_ok=True)
    os.chdir(os.environ["HOME"])
    loaded = []
    for module in job["imports"]:
        try:
            __import__(module)
            loaded.append(module)
        except BaseException:  # noqa: B036 - the course cell that imports it fails the same way, and says why
            pass
    optim = sys.modules.get("torch.optim")
    if optim is not None:
        # torch wraps an optimizer class's step() the first time one is built; wrapping them all now puts the
        # wrapped ones in the guard's snapshot, so building an optimizer later changes nothing.
        classes = [optim.Optimizer]
        while classes:
            cls = classes.pop()
            classes.extend(cls.__subclasses__())
            try:
                cls.__new__(cls)._patch_step_function()
            except Exception:  # noqa: S110 - an abstract or unusual optimizer class: it keeps its step()
                pass
    random.seed(job["seed"])
    if "numpy" in sys.modules:
        sys.modules["numpy"].random.seed(job["seed"])
    if "torch" in sys.modules:
        torch = sys.modules["torch"]
        torch.manual_seed(job["seed"])
        torch.use_deterministic_algorithms(True)
    return loaded


def _enter_workdir(job: dict) -> None:
    """The notebook's folder: the student's files and the course's data files beside it, as the working folder,
    and last on sys.path (a helper module of theirs imports; it never shadows an installed one)."""
    shutil.copytree(job["data"], job["workdir"], dirs_exist_ok=True)
    os.chdir(job["workdir"])
    sys.path.append(job["workdir"])


def main(argv: list) -> None:
    job = _read_job(int(argv[1]))
    send, encode = channel.sender(int(argv[2]), bytes.fromhex(job.pop("key"))), channel.encoder()
    loaded = _set_up(job)
    gc.disable()  # enabled only while a cell runs
    # Classes and functions students define live in a fresh `__main__`, as in Jupyter (pickle finds them there);
    # this file's module leaves sys.modules, and stays under the guard with nothing added to it.
    user = types.ModuleType("__main__")
    user.__dict__.update(__builtins__=builtins, get_ipython=Shell)
    runner_module, sys.modules["__main__"] = sys.modules["__main__"], user
    restore = make_guard({"<runner>": runner_module})
    current, leave = [-1], os._exit
    install_audit(send, current)
    _enter_workdir(job)
    run, define, replay, isolated = make_cell_runner(job, user.__dict__, restore, make_timer(), current)
    send(encode({"type": "ready", "imports": loaded}))
    results = {}
    for cell in job["cells"]:
        results[cell["index"]] = run(cell)
        send(encode(results[cell["index"]]))
    diagnosis = job.get("diagnosis")
    if diagnosis and diagnosis["exercises"]:
        # Every result is sent: nothing from here on changes a score. What student code reports now is no
        # cell's (the grader ignores findings outside the cells).
        current[0] = -1
        found = behaviour.diagnose(diagnosis["exercises"], results, isolated, replay, define, restore,
                                   time.monotonic, diagnosis["budget"])
        send(encode({"type": "diagnoses", **found}))
    send(encode({"type": "finished"}))
    # No interpreter shutdown: it would run the atexit handlers and finalizers student code registered.
    leave(0)


if __name__ == "__main__":
    main(sys.argv)
