"""`make progress` tells a self-study learner where they stand: each exercise of each chapter in their folder is
`visible tests pass`, `failed` (errors and stderr alike, as grading counts them), `not attempted` or
`no notebook`; and it never claims more than the visible tests show, a known mistake they show included."""
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


def _rows(folder):
    return [row for _, rows in progress.progress(folder, FIXTURE_COURSE) for row in rows]


def test_one_solved_one_blank(tmp_path):
    folder = _student_folder(tmp_path, square="def square(x):\n    return x * x")
    rows = _rows(folder)
    assert _statuses(rows) == {("square", progress.PASSED), ("mean_of", progress.NOT_ATTEMPTED)}


def test_wrong_answers_and_stderr_are_failures_with_a_reason(tmp_path):
    folder = _student_folder(
        tmp_path, square="def square(x):\n    return x + x",
        mean_of="import warnings\ndef mean_of(xs):\n    warnings.warn('careful')\n    return sum(xs) / len(xs)")
    rows = {r.exercise: r for r in _rows(folder)}
    assert rows["square"].status == progress.FAILED and rows["square"].detail.startswith("test_square: AssertionError")
    assert rows["mean_of"].status == progress.FAILED and "stderr" in rows["mean_of"].detail
    # x + x behaves, on the visible test, like the catalogue's square/times_two; the warning is no known mistake.
    assert [d.mistake for d in rows["square"].mistakes] == ["times_two"] and rows["mean_of"].mistakes == ()
    table = progress.chapter_table(list(rows.values()), 8)
    assert f"behaves like a known mistake: {rows['square'].mistakes[0].description}" in table
    assert f"hint: {rows['square'].mistakes[0].hint}" in table


def test_missing_chapter_and_the_table(tmp_path):
    (tmp_path / "empty").mkdir()
    rows = _rows(tmp_path / "empty")
    assert _statuses(rows) == {("square", progress.MISSING), ("mean_of", progress.MISSING)}
    text = progress.summary(rows)
    assert "2 exercises: 2 no notebook." in text and "Hidden tests run only at grading" in text
    assert "all tests passed" not in text.lower()


def test_an_untouched_chapter_is_not_run(tmp_path, monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("a chapter with every exercise still a stub was executed")

    monkeypatch.setattr(progress.notebook_run, "execute", never)
    rows = _rows(_student_folder(tmp_path))
    assert _statuses(rows) == {("square", progress.NOT_ATTEMPTED), ("mean_of", progress.NOT_ATTEMPTED)}


def test_each_chapter_is_printed_as_soon_as_it_is_judged(tmp_path, monkeypatch, capsys):
    printed_before_judging = []

    def judged(chapter, *args):
        printed_before_judging.append(capsys.readouterr().out)
        return [progress.Row(chapter, "square", progress.FAILED, "x" * 600 + " expected 4, got 5")]

    monkeypatch.setattr(progress, "chapter_progress", judged)
    monkeypatch.setattr(progress, "assignments_in", lambda course_dir: [ASSIGNMENT, ASSIGNMENT])
    (tmp_path / "notebooks").mkdir()
    assert progress.main([str(tmp_path / "notebooks"), "--course-dir", str(FIXTURE_COURSE)]) == 0
    assert printed_before_judging[0] == "" and f"{ASSIGNMENT}\n  square" in printed_before_judging[1]
    assert "expected 4, got 5" in capsys.readouterr().out, "the expected/got end of a long message is kept"
