"""Which catalogued mistakes a failing exercise behaves like: the runner's side of the diagnosis. A standalone
module (the runner imports it in the sandbox, beside channel.py; the grader imports it as
autograder.catalogue.behaviour), so it imports nothing of the grader.

The probes are the exercise's own test cells, visible and hidden: inputs chosen to catch mistakes. Each ran once
in the notebook, with the student's code. After the last cell, each runs again from the state it first ran in
(the namespace as it was then, the random generators as they were): once with the student's code, then with a
catalogued mistake's code in place of the solution cell, for every mistake of the exercise. What a run shows:
  * its outcome, what decides a test cell: it passed; or it raised, and then the exception's type, the line of
    the test cell it came from and its message count, the message's numbers (the values a course.testing helper
    prints) compared within a relative RTOL; or it wrote to stderr, and then its first line counts;
  * what the exercise's functions did when the cell called them: each call's result and its arguments afterwards
    (an in-place update), summarised (a tensor by its dtype, shape and values, or a few statistics of them), with
    the same tolerance. A bare `assert f(3) == 9` says only that it failed; the values say how.
A mistake is named when its runs show what the student's run shows on every test cell of the exercise: a
different way of writing it behaves the same and is named the same; a mistake that passes a cell the student
failed, fails it differently or computes other values is not. Nothing is named for an exercise whose student run
does not end as it first did (a test cell that leans on what later cells changed), or whose cell timed out. A
mistake's runs stop at the first test cell that differs from the student's, and within a cell at the first call
whose summary differs from the student's call at the same place (`Diverged`): a test cell that calls a check thirty
times costs a mistake that differs on the first call one call, not thirty.
"""
import dataclasses
import functools
import math
import os
import re
import sys

# Numbers in any spelling a message uses (-3, 0.25, 1e-08, 2.50e+00, nan, inf, 0x7f3a...), not digits inside a
# name (`test_1`, `x2`, `float32`).
NUMBER = re.compile(r"(?<![\w.])(?:0x[0-9a-fA-F]+|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf))"
                    r"(?![\w])")
# A string literal quoted in a message (a repr), not an apostrophe (DDP's): prose when it holds white space.
QUOTED = re.compile(r"(?<!\w)'(?:[^'\\\n]|\\.)*'(?!\w)" r'|(?<!\w)"(?:[^"\\\n]|\\.)*"(?!\w)')
TRACEBACK = "Traceback (most recent call last):"
# Where in a student's cell a warning or traceback points: the cell's number and line differ between the
# student's code and a catalogued mistake, whatever their behaviour.
CELL_PLACE = re.compile(r'<cell [^>]*>(?:", line \d+|:\d+)?')
# Loose enough for the same mistake computed in another order or precision (a message prints 6 digits), tight
# enough for two different mistakes.
RTOL, ATOL = 1e-4, 1e-9
TIMEOUT_ENAME = "CellTimeout"
MAX_CALLS = 200  # calls of the exercise's functions recorded per test cell
MAX_ITEMS = 32  # entries of a container summarised
MAX_VALUES = 64  # elements of a tensor kept as they are; a larger one by statistics


class Diverged(BaseException):
    """Raised in a mistake's replay at its first call that differs from the student's: the rest of the cell could
    only confirm that the runs differ. A BaseException, so that a test's `except Exception` does not swallow it."""


def _is_prose(text: str) -> bool:
    """Whether a string is words the student chose (a CheckResult's reason: white space inside), whose wording is
    no behaviour, rather than a name or a value (`'ddp'`, `'0.weight'`). What a test reads from prose, the words
    it demands, shows in the test's own message."""
    return any(c.isspace() for c in text)


def _parts(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the text between numbers, white space collapsed, prose quoted in it as `<prose>`; the numbers) of a
    message, up to a traceback it carries (a DDP worker's): where code ran, shown as it was compiled, is no
    behaviour, and which other ranks' failures it lists depends on timing."""
    text = CELL_PLACE.sub("<cell>", text.split(TRACEBACK)[0])
    text = " ".join(QUOTED.sub(lambda m: "<prose>" if _is_prose(m.group()[1:-1]) else m.group(), text).split())
    return tuple(NUMBER.split(text)), tuple(NUMBER.findall(text))


def _line(traceback: str, filename: str) -> int | None:
    """The line of the test cell (`filename`) that the error came through last."""
    found = re.findall(rf'File "{re.escape(filename)}", line (\d+)', traceback)
    return int(found[-1]) if found else None


def outcome(result: dict, filename: str):
    """A test cell's outcome, from the runner's result for it: ("passed",), ("raised", type, line, text,
    numbers), ("stderr", text, numbers); None when the cell did not run to an end (no result, a timeout)."""
    if not result:
        return None
    error = result.get("error")
    if error:
        if error.get("ename") == TIMEOUT_ENAME:
            return None
        return ("raised", error.get("ename"), _line(error.get("traceback", ""), filename),
                *_parts(str(error.get("evalue", ""))))
    stderr = result.get("stderr", "").strip()
    if stderr:
        return ("stderr", *_parts(stderr.splitlines()[0]))
    return ("passed",)


def _number(text: str) -> float:
    return float(int(text, 16)) if text.lower().startswith(("0x", "-0x", "+0x")) else float(text)


def _numbers_agree(a: tuple[str, ...], b: tuple[str, ...], noisy: frozenset = frozenset()) -> bool:
    if len(a) != len(b):
        return False
    for n, (x, y) in enumerate(zip(a, b)):
        if x == y or n in noisy:
            continue
        if x.lower().lstrip("+-").startswith("0x") or y.lower().lstrip("+-").startswith("0x"):
            continue  # an address in a repr: it says nothing about behaviour
        p, q = _number(x), _number(y)
        if not abs(p - q) <= ATOL + RTOL * max(abs(p), abs(q)):
            return False
    return True


def same(a, b, noisy: frozenset = frozenset()) -> bool:
    """Whether two outcomes are the same behaviour (numbers within RTOL, addresses and the numbers at the
    positions `noisy` ignored)."""
    if a is None or b is None or a[0] != b[0]:
        return False
    if a[0] == "passed":
        return True
    *head_a, text_a, numbers_a = a
    *head_b, text_b, numbers_b = b
    return head_a == head_b and text_a == text_b and _numbers_agree(numbers_a, numbers_b, noisy)


def noise(replayed, first) -> frozenset | None:
    """The positions of the numbers in which a replay of the student's own code differs from the cell's first
    run, the rest being the same: numbers the cell does not reproduce by itself (drawn from an unseeded
    generator, say), which say nothing about a mistake. None when the replay differs otherwise."""
    if replayed is None or first is None or replayed[0] != first[0] or replayed[0] == "passed":
        return frozenset() if same(replayed, first) else None
    if replayed[:-1] != first[:-1] or len(replayed[-1]) != len(first[-1]):
        return None
    return frozenset(n for n in range(len(first[-1])) if not _numbers_agree((replayed[-1][n],), (first[-1][n],)))


def summary(value, depth: int = 0) -> list:
    """A value as a flat list of labels (str) and numbers (float), for `agree`."""
    torch, numpy = sys.modules.get("torch"), sys.modules.get("numpy")
    if isinstance(value, str) and _is_prose(value):
        return ["str:<prose>"]
    if value is None or isinstance(value, (bool, str, bytes)):
        return [f"{type(value).__name__}:{value!r}"]
    if isinstance(value, (int, float)):
        return [type(value).__name__, float(value)]
    if torch is not None and isinstance(value, torch.Tensor):
        return [f"tensor:{value.dtype}:{tuple(value.shape)}", *_elements(value.detach())]
    if numpy is not None and isinstance(value, (numpy.ndarray, numpy.generic)):
        values = numpy.asarray(value)
        numeric = torch is not None and values.dtype.kind in "biuf"
        return [f"numpy:{values.dtype}:{values.shape}", *(_elements(torch.as_tensor(values)) if numeric else [])]
    if depth >= 3:
        return [type(value).__name__]
    if isinstance(value, (list, tuple)):
        return [f"{type(value).__name__}:{len(value)}"] + [x for item in value[:MAX_ITEMS]
                                                           for x in summary(item, depth + 1)]
    if isinstance(value, dict):  # in key order: the order of insertion is no behaviour
        items = sorted(value.items(), key=lambda item: repr(item[0]))[:MAX_ITEMS]
        return [f"dict:{len(value)}"] + [x for key, item in items
                                          for x in [*summary(key, depth + 1), *summary(item, depth + 1)]]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):  # a result object: its fields
        return [f"dataclass:{type(value).__name__}"] + [x for field in dataclasses.fields(value)
                                                        for x in [field.name, *summary(getattr(value, field.name),
                                                                                       depth + 1)]]
    if torch is not None and isinstance(value, torch.nn.Module):
        return [f"module:{type(value).__name__}"] + [x for name, tensor in value.state_dict().items()
                                                     for x in [name, *_elements(tensor)]]
    return [type(value).__name__]


def _elements(tensor) -> list:
    """A tensor's values, or, for a large one, its sum, sum of magnitudes, extremes and first elements."""
    if tensor.is_meta or tensor.dtype.is_complex or tensor.numel() == 0:
        return []
    flat = tensor.flatten().to("cpu").double()
    if flat.numel() <= MAX_VALUES:
        return flat.tolist()
    return [flat.sum().item(), flat.abs().sum().item(), flat.min().item(), flat.max().item(),
            *flat[:8].tolist()]


def agree(a: list, b: list) -> bool:
    """Whether two summaries are the same: labels equal, numbers within RTOL (nan equals nan)."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, str) or isinstance(y, str):
            if x != y:
                return False
        elif not (x == y or (math.isnan(x) and math.isnan(y))
                  or abs(x - y) <= ATOL + RTOL * max(abs(x), abs(y))):
            return False
    return True


def recording(function, calls: list, expected: list | None = None):
    """`function`, wrapped to append to `calls` a summary of each call's result (or exception) and of its
    arguments after it (an in-place update shows there). With `expected` (the calls the student's replay of the
    same cell recorded), a call that does not agree with the student's call at its place raises Diverged. Only
    calls in this process count: a worker that a test starts (a DDP rank) calls it where nothing comes back."""
    owner = os.getpid()

    def record(entry: list) -> None:
        calls.append(entry)
        if expected is not None and (len(calls) > len(expected) or not agree(entry, expected[len(calls) - 1])):
            raise Diverged(f"call {len(calls)} of {function.__name__} differs from the student's")

    @functools.wraps(function)
    def recorded(*args, **kwargs):
        if os.getpid() != owner:
            return function(*args, **kwargs)
        try:
            result = function(*args, **kwargs)
        except Exception as error:
            if len(calls) < MAX_CALLS:
                record([f"raised:{type(error).__name__}"])
            raise
        if len(calls) < MAX_CALLS:
            try:
                entry = summary(result) + summary([*args, *kwargs.items()], 1)
            except Exception as error:  # an object that cannot be read is summarised by that fact, never raised
                entry = [f"unreadable:{type(error).__name__}"]
            record(entry)
        return result

    return recorded


def _same_run(a, b, noisy: frozenset = frozenset()) -> bool:
    """Whether two replays of a test cell show the same: (outcome, the calls' summaries) each."""
    (outcome_a, calls_a), (outcome_b, calls_b) = a, b
    return same(outcome_a, outcome_b, noisy) and len(calls_a) == len(calls_b) and all(
        agree(x, y) for x, y in zip(calls_a, calls_b))


def _failing(exercise: dict, results: dict) -> bool:
    """Whether an exercise lost a test cell to a run that ended (not to a timeout), and not only by reaching a
    stub (NotImplementedError)."""
    tests = [results.get(index) for index in exercise["tests"]]
    failed = [result for result in tests if result and (result.get("error") or result.get("stderr", "").strip())]
    return bool(failed) and all(outcome(result, f"<course {index}>") is not None
                                for index, result in zip(exercise["tests"], tests)) and not all(
        result.get("error", {}).get("ename") == "NotImplementedError" for result in failed)


def _screening_order(exercise: dict, results: dict) -> list:
    """The test cells in the order their replays are compared: the cells the student failed first when they may
    run in any order ("any_order"; a mistake that does not fail them as the student did is out before it replays
    the cells everyone passes), else as in the notebook. Which mistakes are named does not depend on it."""
    tests = exercise["tests"]
    if not exercise.get("any_order"):
        return list(tests)
    return sorted(tests, key=lambda index: outcome(results.get(index), f"<course {index}>") == ("passed",))


def mistakes_shown(exercise: dict, results: dict, replay, define, clock, deadline: float) -> dict:
    """{"names": the mistakes of `exercise` whose replays show what the student's replay shows in every test
    cell} or {"cut": True} when `deadline` passed first. The test cells are taken one at a time (failed ones first
    when they may run in any order: see _screening_order): the student's replay of a cell, then the replays of the
    mistakes that showed the same in every cell before it; a cell is replayed only while some mistake is still in.
    A student's replay that does not end as the cell first did (a test leaning on what later cells changed) ends it
    with no name, unless it differs only in numbers: those are noise (see `noise`), left out of the comparison. See
    diagnose for `replay` and `define`."""
    tests, names = exercise["tests"], exercise["names"]
    candidates = [(m["name"], d, {}) for m in exercise["mistakes"] if (d := define(m["source"], tests[0])) is not None]
    student_carried = {}
    for index in _screening_order(exercise, results):
        if not candidates:
            return {"names": []}
        if clock() > deadline:
            return {"cut": True}
        calls = []
        result, defined = replay(index, {}, student_carried, names, calls, None)
        student = (outcome(result, f"<course {index}>"), calls)
        noisy = noise(student[0], outcome(results[index], f"<course {index}>"))
        if noisy is None:
            return {"names": []}
        student_carried.update(defined)
        still = []
        for name, definitions, carried in candidates:
            calls = []
            result, defined = replay(index, definitions, carried, names, calls, student[1])
            if _same_run((outcome(result, f"<course {index}>"), calls), student, noisy):
                carried.update(defined)
                still.append((name, definitions, carried))
        candidates = still
    return {"names": [name for name, _, _ in candidates]}


def diagnose(exercises: list[dict], results: dict, isolated, replay, define, prepare, clock, budget: float) -> dict:
    """{"found": {exercise: [mistake names]}, "seconds": ..., "cut": ...}: for every exercise of `exercises` that
    failed (see _failing), the mistakes whose replays show what the student's replay shows on all its test cells.
    `exercises`: [{"name", "names": what its solution defines, "tests": [test cell indices, in order],
    "mistakes": [{"name", "source"}], "any_order": whether the test cells may be replayed in any order}].
    `define(source, index)` -> the names a mistake's code defines, run in the state test cell `index` first ran in,
    or None if it cannot run; `replay(index, definitions, carried, names,
    calls, expected)` -> (the runner's result for test cell `index` run again from that state with `carried` (what
    earlier test cells of the replay defined) and `definitions` in place, the functions among `names` recorded
    into `calls` and checked against `expected` (see `recording`); the names this run defined). `isolated(work)`
    returns work(), run where what it changes cannot reach the next exercise's replays (the runner forks), or None
    if that failed. `prepare()` is called once before the first replay. Stops when `budget` seconds have gone
    (`cut`)."""
    started, found, cut, prepared = clock(), {}, False, False
    for exercise in exercises:
        if not _failing(exercise, results):
            continue
        if not prepared:
            prepare()
            prepared = True
        shown = isolated(lambda: mistakes_shown(exercise, results, replay, define, clock, started + budget)) or {}
        if shown.get("cut"):
            cut = True
            break
        if shown.get("names"):
            found[exercise["name"]] = shown["names"]
    return {"found": found, "seconds": round(clock() - started, 3), "cut": cut}
