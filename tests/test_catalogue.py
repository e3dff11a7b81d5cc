"""The catalogue of canonical mistakes is fit to be shown to a student: every entry, in the course's catalogue and
the fixture course's, says what the mistake is and where in the statement to look. Cheap: no notebook runs here."""

import pytest
from conftest import FIXTURE_COURSE, REPO_ROOT

from autograder.catalogue import entries

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
