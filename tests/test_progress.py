"""`make progress` tells a self-study learner where they stand: each exercise of each chapter in their folder is
`visible tests pass`, `failed` (errors and stderr alike, as grading counts them), `not attempted` or
`no notebook`; and it never claims more than the visible tests show."""
import shutil

import nbformat
from conftest import FIXTURE_COURSE

from tools import progress

ASSIGNMENT = "fx01_basics"
RELEASE = FIXTURE_COURSE / "release" / ASSIGNMENT


def _student_folder(tmp_path, **solutions):
    """A copy of the fixture release with the given solution cells written in."""
    folder = tmp_path / "notebooks" / ASSIGNMENT
    shutil.copytree(RELEASE, folder)
    path = folder / f"{ASSIGNMENT}.ipynb"
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in solutions:
            cell.source = solutions[grade_id]
    nbformat.write(nb, path)
    return tmp_path / "notebooks"


def _statuses(rows):
    return {(r.exercise, r.status) for r in rows}


def test_one_solved_one_blank(tmp_path):
    folder = _student_folder(tmp_path, square="def square(x):\n    return x * x")
    rows = progress.progress(folder, FIXTURE_COURSE)
    assert _statuses(rows) == {("square", progress.PASSED), ("mean_of", progress.NOT_ATTEMPTED)}


def test_wrong_answers_and_stderr_are_failures_with_a_reason(tmp_path):
    folder = _student_folder(
        tmp_path, square="def square(x):\n    return x + x",
        mean_of="import warnings\ndef mean_of(xs):\n    warnings.warn('careful')\n    return sum(xs) / len(xs)")
    rows = {r.exercise: r for r in progress.progress(folder, FIXTURE_COURSE)}
    assert rows["square"].status == progress.FAILED and rows["square"].detail.startswith("test_square: AssertionError")
    assert rows["mean_of"].status == progress.FAILED and "stderr" in rows["mean_of"].detail


def test_missing_chapter_and_the_table(tmp_path):
    (tmp_path / "empty").mkdir()
    rows = progress.progress(tmp_path / "empty", FIXTURE_COURSE)
    assert _statuses(rows) == {("square", progress.MISSING), ("mean_of", progress.MISSING)}
    text = progress.table(rows)
    assert "2 exercises: 2 no notebook." in text and "Hidden tests run only at grading" in text
    assert "all tests passed" not in text.lower()
