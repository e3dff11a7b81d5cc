"""to-gradebook and grade --gradebook: a run's scores go into a copy of the fixture course's gradebook.db through
nbgrader's API, quietly (no SQLAlchemy warnings), and `nbgrader export` then gives each student's total from
grades.csv, and nothing for the course's assignment nobody was given; a gradebook whose test cells disagree with
the run is refused, unchanged; the repository's files never change."""
import csv
import shutil
import subprocess

import pytest
from conftest import FIXTURE_COURSE, REPO_ROOT, autograder_command, run_nbgrader
from fixture_class import ASSIGNMENT, SCORES, make_class, make_course

from autograder.__main__ import main
from autograder.reporting.grades import read_rows


def _snapshot(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _to_gradebook(out, course, capsys) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `to-gradebook`, in this process (nbgrader's API is loaded already)."""
    status = main(["to-gradebook", str(out), "--course-dir", str(course)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _export(course, name="export.csv") -> dict[str, float]:
    """student -> score in the one assignment the class was given, from `nbgrader export` (which must list no
    other assignment)."""
    done = run_nbgrader(course, "export", "--to", name)
    assert done.returncode == 0, done.stdout + done.stderr
    with open(course / name, newline="") as f:
        rows = list(csv.DictReader(f))
    assert {row["assignment"] for row in rows} == {ASSIGNMENT}
    return {row["student_id"]: float(row["score"]) for row in rows}


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A copy of the fixture course, graded with --gradebook."""
    base = tmp_path_factory.mktemp("gradebook")
    course = make_course(base / "course")
    make_class(base / "submitted")
    before, leftovers = _snapshot(FIXTURE_COURSE), (REPO_ROOT / "gradebook.db").exists()
    done = subprocess.run(autograder_command(base / "submitted", base / "out", "--course-dir", str(course),
                                             "--gradebook"), cwd=REPO_ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"into the gradebook of {course.resolve()}\n" in done.stdout
    assert "Warning" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert _snapshot(FIXTURE_COURSE) == before and (REPO_ROOT / "gradebook.db").exists() == leftovers
    return {"course": course, "out": base / "out"}


def _totals(out) -> dict[str, float]:
    totals = {}
    for row in read_rows(out / "grades.csv"):
        totals[row["student"]] = totals.get(row["student"], 0.0) + float(row["score"])
    return totals


def test_nbgrader_export_gives_the_totals_of_grades_csv(course):
    assert (course["course"] / "gradebook.db").is_file()
    exported = _export(course["course"])
    assert exported == _totals(course["out"]) == {student: float(score) for student, score in SCORES.items()}


def test_writing_again_changes_nothing_and_names_the_course_folder(course, capsys, monkeypatch):
    monkeypatch.chdir(course["course"])  # the default course folder, `.`, is named by its real path
    status = main(["to-gradebook", str(course["out"])])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert out == f"wrote {len(SCORES) - 1} submissions into the gradebook of {course['course'].resolve()}\n"
    assert _export(course["course"], "again.csv") == _totals(course["out"])


def test_a_gradebook_that_disagrees_on_points_is_refused_unchanged(course, tmp_path, capsys):
    out = tmp_path / "out"
    shutil.copytree(course["out"], out)
    text = (out / "cells.csv").read_text()
    (out / "cells.csv").write_text(text.replace(",test_square,0,1\n", ",test_square,0,5\n")
                                   .replace(",test_square,1,1\n", ",test_square,5,5\n"))
    db = (course["course"] / "gradebook.db").read_bytes()
    status, _, err = _to_gradebook(out, course["course"], capsys)
    assert status == 1
    assert f"{ASSIGNMENT}/{ASSIGNMENT}/test_square: 1 points in the gradebook, 5 in the run" in err
    assert (course["course"] / "gradebook.db").read_bytes() == db


def test_a_gradebook_nbgrader_generated_takes_the_scores_too(course, tmp_path, capsys):
    """The usual course root: `nbgrader generate_assignment` (make release) already filled its gradebook."""
    copy = tmp_path / "course"
    for name in ("source", "nbgrader_config.py"):
        (shutil.copytree if name == "source" else shutil.copy)(course["course"] / name, copy / name)
    done = run_nbgrader(copy, "generate_assignment", ASSIGNMENT)
    assert done.returncode == 0, done.stdout + done.stderr
    status, _, err = _to_gradebook(course["out"], copy, capsys)
    assert status == 0, err
    assert _export(copy) == _totals(course["out"])
