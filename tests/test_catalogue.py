"""The catalogue of canonical mistakes is fit to be shown to a student: every entry, in the course's catalogue and
the fixture course's, says what the mistake is and where in the statement to look; and the diagnosis compares
behaviours the way it says (numbers within a tolerance, addresses and cell numbers ignored, the failing line
counted). Cheap: no notebook runs here; tests/test_grading_chapters.py checks the diagnoses of every mutant."""

import pytest
import torch
from conftest import FIXTURE_COURSE, REPO_ROOT

from autograder.catalogue import behaviour, entries

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

    def replay(index, definitions, carried, names, calls):
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
