"""The catalogue of canonical mistakes is fit to be shown to a student: every entry, in the course's catalogue and
the fixture course's, says what the mistake is and where in the statement to look; and the diagnosis compares
behaviours the way it says (numbers within a tolerance, addresses and cell numbers ignored, the failing line
counted). Cheap: no notebook runs here; tests/test_grading_chapters.py checks the diagnoses of every mutant."""

import dataclasses
import os

import pytest
import torch
from conftest import FIXTURE_COURSE, REPO_ROOT

from autograder.catalogue import behaviour, diagnosis, entries

CATALOGUES = sorted((REPO_ROOT / "autograder" / "mutants").iterdir()) + sorted((FIXTURE_COURSE / "mutants").iterdir())


@pytest.mark.parametrize("folder", CATALOGUES, ids=lambda folder: folder.name)
def test_every_entry_has_a_description_and_a_hint(folder):
    found = entries.load(folder)
    assert found, f"{folder} holds no entry"
    assert entries.problems(found) == []
    for entry in found:
        assert entry.hint != entry.description and entry.hint.startswith("Reread"), entry.path


def test_the_header_reads_continuation_lines_and_every_field(tmp_path):
    path = tmp_path / "ch09" / "step" / "late.py"
    path.parent.mkdir(parents=True)
    path.write_text("# fails: test_step_hidden\n# Canonical mistake: clips after the step, so the first update\n"
                    "# is never clipped.\n# Hint: Reread the third bullet of the statement.\n"
                    "# Equivalent: early\n# a comment of the code\ndef step():\n    pass\n")
    entry = entries.read_entry(path)
    assert (entry.assignment, entry.exercise, entry.name) == ("ch09", "step", "late")
    assert entry.description == "clips after the step, so the first update is never clipped."
    assert entry.hint == "Reread the third bullet of the statement."
    assert (entry.fails, entry.equivalent) == (frozenset({"test_step_hidden"}), frozenset({"early"}))
    assert entries.problems([entry]) == ["ch09/step/late.py: declares early equivalent, but step has no such entry"]


def test_an_entry_without_a_hint_or_with_a_long_one_is_a_problem(tmp_path):
    (tmp_path / "a" / "x").mkdir(parents=True)
    (tmp_path / "a" / "x" / "m.py").write_text("# Canonical mistake: wrong.\ndef x():\n    pass\n")
    (tmp_path / "a" / "x" / "n.py").write_text(f"# Canonical mistake: wrong.\n# Hint: Reread {'it ' * 90}.\n")
    assert entries.problems(entries.load(tmp_path / "a")) == [
        "a/x/m.py: no '# Hint: ...' line",
        f"a/x/n.py: the hint must be one sentence of at most {entries.MAX_HINT} characters, ending with a full stop"]


def test_equivalence_holds_both_ways_and_follows_from_two(tmp_path):
    folder = tmp_path / "a" / "x"
    folder.mkdir(parents=True)
    for name, equivalent in (("m", "n"), ("n", ""), ("o", "n"), ("p", "")):
        (folder / f"{name}.py").write_text(f"# Canonical mistake: {name}.\n# Hint: Reread.\n"
                                           + (f"# Equivalent: {equivalent}\n" if equivalent else ""))
    found = entries.equivalents(entries.load(tmp_path / "a"))
    assert found[("x", "m")] == {"n", "o"} and found[("x", "o")] == {"m", "n"} and found[("x", "p")] == set()


def _raised(message: str, line: int = 3, ename: str = "AssertionError", cell: str = "<course 7>") -> dict:
    return {"error": {"ename": ename, "evalue": message,
                      "traceback": f'Traceback:\n  File "{cell}", line {line}, in <module>\n  File "x.py", line 9\n'}}


def test_outcomes_agree_on_the_same_behaviour_written_differently():
    same, outcome = behaviour.same, lambda result: behaviour.outcome(result, "<course 7>")
    message = "loss: expected 0.25, got 0.5 (difference 2.50e-01; 1 of 3 values outside)"
    assert same(outcome(_raised(message)), outcome(_raised(message.replace("0.5 ", "0.5000000000000001 "))))
    assert not same(outcome(_raised(message)), outcome(_raised(message.replace("0.5 ", "0.5001 "))))
    assert not same(outcome(_raised(message)), outcome(_raised(message, line=4)))  # another assertion failed
    assert not same(outcome(_raised(message)), outcome(_raised(message, ename="ValueError")))
    assert same(outcome(_raised("got <Value object at 0x7f3a10>")), outcome(_raised("got <Value object at 0x55e1>")))
    warning = "<cell 12>:4: UserWarning: Converting a tensor that requires grad to a scalar"
    assert same(outcome({"stderr": warning + "\nmore"}), outcome({"stderr": warning.replace("<cell 12>:4", "<cell "
                                                                                         "catalogue>:9")}))
    assert same(outcome({"stderr": ""}), ("passed",)) and not same(outcome({"stderr": "x"}), ("passed",))
    assert outcome(_raised("the cell ran past its time limit", ename="CellTimeout")) is None
    assert outcome(None) is None and not same(None, None)


def test_a_mistake_is_named_only_when_it_reproduces_every_test_cell():
    """behaviour.diagnose on made-up results: replays answer from a table, as the runner would, with the values
    the exercise's function returned (a bare `assert` fails alike for different values)."""
    wrong = _raised("", cell="<course 5>")
    results = {5: wrong, 6: {"stderr": ""}}
    table = {"student": ((wrong, 27), ({"stderr": ""}, 1)), "same": ((wrong, 27), ({"stderr": ""}, 1)),
             "passes_more": (({"stderr": ""}, 9), ({"stderr": ""}, 1)),
             "fails_more": ((wrong, 27), (_raised("y", cell="<course 6>"), 1)),
             "other_value": ((wrong, 6), ({"stderr": ""}, 1))}

    def replay(index, definitions, carried, names, calls, expected):
        result, value = table[definitions.get("name", "student")][index - 5]
        calls.append(behaviour.summary(value))
        return result, {}

    exercises = [{"name": "x", "names": ["x"], "tests": [5, 6], "mistakes": [
        {"name": n, "source": n} for n in ("same", "passes_more", "fails_more", "other_value")]}]
    prepared = []
    found = behaviour.diagnose(exercises, results, _inline, replay, lambda source, index: {"name": source},
                               lambda: prepared.append(1), iter(range(100)).__next__, 1000)
    assert found["found"] == {"x": ["same"]} and prepared == [1] and not found["cut"]
    # A stub reached (NotImplementedError), or a cell that timed out, names nothing and replays nothing.
    for result in (_raised("", ename="NotImplementedError", cell="<course 5>"), _raised("", ename="CellTimeout")):
        assert behaviour.diagnose(exercises, {5: result, 6: {"stderr": ""}}, None, None, None, None,
                                  iter(range(100)).__next__, 1000)["found"] == {}
    # A student whose replay does not end as the notebook did (it leaned on later cells) gets nothing.
    table["student"] = (({"stderr": ""}, 9), ({"stderr": ""}, 1))
    assert behaviour.diagnose(exercises, results, _inline, replay, lambda source, index: {"name": source},
                              lambda: None, iter(range(100)).__next__, 1000)["found"] == {}
    # Out of time: nothing more is replayed, and the answer says it was cut.
    found = behaviour.diagnose(exercises, results, _inline, replay, lambda source, index: {"name": source},
                               lambda: None, iter(range(0, 1000, 10)).__next__, 5)
    assert found["found"] == {} and found["cut"]


def test_failed_test_cells_are_replayed_first_only_when_no_cell_reads_what_another_binds():
    """A mistake that does not fail a cell as the student did is out before it replays the cells everyone
    passes; the names found are the same in either order."""
    wrong = _raised("", cell="<course 6>")
    results = {5: {"stderr": ""}, 6: wrong}
    table = {"student": (({"stderr": ""}, 1), (wrong, 27)), "same": (({"stderr": ""}, 1), (wrong, 27)),
             "fails_other": (({"stderr": ""}, 1), (wrong, 6))}
    replayed = []

    def replay(index, definitions, carried, names, calls, expected):
        replayed.append((definitions.get("name", "student"), index))
        result, value = table[definitions.get("name", "student")][index - 5]
        calls.append(behaviour.summary(value))
        return result, {}

    for any_order, first in ((True, 6), (False, 5)):
        replayed.clear()
        exercises = [{"name": "x", "names": ["x"], "tests": [5, 6], "any_order": any_order,
                      "mistakes": [{"name": n, "source": n} for n in ("same", "fails_other")]}]
        found = behaviour.diagnose(exercises, results, _inline, replay, lambda source, index: {"name": source},
                                   lambda: None, iter(range(100)).__next__, 1000)
        assert found["found"] == {"x": ["same"]}
        assert replayed[0] == ("student", first)
        assert (("fails_other", 5) in replayed) is not any_order  # out at the failed cell, before the passed one


def test_test_cells_are_independent_unless_one_reads_a_name_another_binds():
    independent = diagnosis.independent
    assert independent(["_base = make()\nfor _n, _f in cases():\n    check(_f, _n)",
                        "_base = make(seed=2)\nassert all(check(f) for f in [_base])\n"
                        "def _helper(x, k=3):\n    y = x + k\n    return y\n_helper(_base)"])
    assert not independent(["class _Loud:\n    pass", "check(_Loud())"])  # the second reads the first's class
    assert not independent(["_base = make()", "def _f():\n    return _base\n_base = make()\n_f()"])
    assert not independent(["import numpy as np", "np.random.seed(1)"])
    assert not independent(["_total += 1", "_total = 0"])  # an augmented assignment reads first
    assert not independent(["x = 1", "%time y = x"])  # a magic (get_ipython()) may read any name
    assert not independent(["x = 1", "exec('y = x')"])
    assert independent(["[k for k in range(3)]", "k = 2"]) and independent(["lambda v: v", "v = 1"])
    assert not independent(["if ok():\n    _x = 1\nprint(_x)", "_x = 2"])  # the branch may leave _x unbound


def test_numbers_a_cell_does_not_reproduce_by_itself_are_noise():
    first = behaviour.outcome(_raised("losses differ at step 2: 1.4222 vs 1.4226"), "<course 7>")
    again = behaviour.outcome(_raised("losses differ at step 2: 1.4205 vs 1.4210"), "<course 7>")
    noisy = behaviour.noise(again, first)
    assert noisy == {1, 2}
    assert behaviour.same(behaviour.outcome(_raised("losses differ at step 2: 3.1 vs 3.3"), "<course 7>"), again,
                          noisy)
    assert not behaviour.same(behaviour.outcome(_raised("losses differ at step 0: 1.4 vs 1.5"), "<course 7>"),
                              again, noisy)  # the step is no noise
    assert behaviour.noise(behaviour.outcome(_raised("other words 1.4"), "<course 7>"), first) is None
    assert behaviour.noise(("passed",), ("passed",)) == set()


def _inline(work):
    return work()


def test_summaries_agree_on_values_within_the_tolerance():
    a = behaviour.summary({"w": torch.arange(100.0), "n": 3, "ok": True})
    assert behaviour.agree(a, behaviour.summary({"w": torch.arange(100.0) * (1 + 1e-7), "n": 3, "ok": True}))
    assert not behaviour.agree(a, behaviour.summary({"w": torch.arange(100.0) * 1.01, "n": 3, "ok": True}))
    assert not behaviour.agree(a, behaviour.summary({"w": torch.arange(100.0).double(), "n": 3, "ok": True}))
    assert not behaviour.agree(behaviour.summary(8), behaviour.summary(8.0))  # an int is not a float
    assert behaviour.agree(behaviour.summary([float("nan")]), behaviour.summary([float("nan")]))
    assert behaviour.agree(behaviour.summary({"a": 1, "b": 2}), behaviour.summary({"b": 2, "a": 1}))


def test_prose_a_student_wrote_is_no_behaviour_but_a_name_is():
    """A check's reason is the student's own wording: a mistake written with other words is the same mistake. A
    quoted name, or a string without white space, still counts."""
    same, outcome = behaviour.same, lambda message: behaviour.outcome(_raised(message), "<course 7>")
    verdict = "check_ddp when DDP's gradients are off: expected passed=True, got passed=False (reason: {!r})"
    assert same(outcome(verdict.format("DDP differs by 2.1e-03 (tolerance 1.0e-04)")),
                outcome(verdict.format("2 processes disagree with one: gap 0.0021, training mode")))
    assert not same(outcome(verdict.format("a gap")), outcome(verdict.format("a gap").replace("True", "False")))
    assert not same(outcome(verdict.format("one process's gap")),
                    outcome(verdict.format("one process's gap").replace("off", "all off")))  # words outside
    assert not same(outcome("expected the name 'ddp', got 'grad'"), outcome("expected the name 'ddp', got 'graph'"))
    assert same(outcome("the reason should name '0.weight'; it reads \"zero: 0.bias\""),
                outcome("the reason should name '0.weight'; it reads 'the bias is zero'"))

    @dataclasses.dataclass(frozen=True)
    class Result:
        name: str
        passed: bool
        reason: str

    agree, summary = behaviour.agree, behaviour.summary
    assert agree(summary(Result("ddp", True, "within 1e-4")), summary(Result("ddp", True, "all good, gap 3e-8")))
    assert not agree(summary(Result("ddp", True, "ok then")), summary(Result("ddp", False, "ok then")))
    assert not agree(summary(Result("ddp", True, "x y")), summary(Result("graph", True, "x y")))


def test_a_mistakes_replay_stops_at_its_first_call_that_differs_from_the_students():
    """behaviour.recording with the student's calls: the first call that disagrees raises Diverged (a
    BaseException, which a test's `except Exception` does not catch); agreeing calls run on."""
    student, ran = [], []

    def square(x):
        ran.append(x)
        return x * x

    recorded = behaviour.recording(square, student)
    assert [recorded(x) for x in (1, 2, 3)] == [1, 4, 9]
    mistake = behaviour.recording(lambda x: x * x if x < 2 else x + 1, [], student)
    assert mistake(1) == 1
    with pytest.raises(behaviour.Diverged):
        try:
            mistake(2)
        except Exception:  # a test cell's guard
            pytest.fail("Diverged is caught by `except Exception`")
    agreeing = behaviour.recording(square, [], student)
    assert [agreeing(x) for x in (1, 2, 3)] == [1, 4, 9]
    with pytest.raises(behaviour.Diverged):  # one call more than the student's
        agreeing(4)
    raising = behaviour.recording(lambda x: 1 / 0, [], student)
    with pytest.raises(behaviour.Diverged):
        raising(1)
    in_a_worker = behaviour.recording(square, [], [])  # the student's replay saw no call: it ran in a worker
    pid = os.fork()
    if pid == 0:
        try:
            in_a_worker(5)
        except BaseException:  # noqa: B036 - any way out is the answer
            os._exit(1)
        os._exit(0)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0, "a worker's call was compared with the student's"


def test_a_traceback_inside_a_message_is_where_code_ran_not_what_it_did():
    """A DDP worker's failure carries its traceback, whose source lines show or not depending on how the code was
    compiled, and the ranks that failed after it depending on timing: the message counts up to it."""
    outcome = lambda message: behaviour.outcome(_raised(message, ename="WorkerError"), "<course 7>")
    cause = "rank 0 of 2 failed: Parameter at index 0 with name .log_vars has been marked as ready twice.\n"
    student = cause + 'Traceback (most recent call last):\n  File "<cell 9>", line 4, in rank_grads\n    return g()\n'
    mistake = cause + 'Traceback (most recent call last):\n  File "<catalogue>", line 6, in rank_grads\n' \
                      "rank 1 of 2 failed: RuntimeError: Connection closed by peer\n"
    assert behaviour.same(outcome(student), outcome(mistake))
    assert not behaviour.same(outcome(student), outcome(student.replace("index 0", "index 1")))
