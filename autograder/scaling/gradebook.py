"""`python -m autograder to-gradebook OUT --course-dir DIR`: a run's scores into the course's nbgrader gradebook,
through nbgrader's own API, so that `nbgrader export` writes the LMS CSV and formgrader lists the scores.

Every student of grades.csv becomes a gradebook student; every student × assignment with at least one notebook
that was not `missing` becomes a submission, and each test cell's score its grade's `auto_score`. A manual
score an instructor gave in formgrader stays: nbgrader counts a manual score over the automatic one. An
assignment the gradebook does not know yet (nobody ran `nbgrader generate_assignment` in this course root) is
created from cells.csv: its notebooks and test cells with their points. One the gradebook knows must agree with
the run on every test cell's points, or nothing is written. A student who submitted nothing for an assignment
gets no submission (nbgrader exports 0); an existing one, from an earlier run, is left as it is, with a warning.
"""
from collections import defaultdict
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.coursedir import CourseDirectory

from ..course_root import _venv_scripts_on_path, load_config
from ..reporting.grades import read_rows


class GradebookError(RuntimeError):
    """The gradebook and the run disagree; nothing was written."""


def db_url(course_dir: Path) -> tuple[str, str]:
    """(database URL, course id) of the course root, as nbgrader run in that folder would use them."""
    config = load_config(course_dir)
    config.CourseDirectory.root = str(course_dir.resolve())
    coursedir = CourseDirectory(config=config)
    return coursedir.db_url, coursedir.course_id


def _structure(cells: list[dict]) -> dict[str, dict[str, dict[str, float]]]:
    """assignment -> notebook -> grade_id -> points, in cells.csv order."""
    found = defaultdict(lambda: defaultdict(dict))
    for row in cells:
        found[row["assignment"]][row["notebook"]][row["grade_id"]] = float(row["max_score"])
    return found


def _check(gb: Gradebook, structure) -> list[str]:
    """Disagreements between the gradebook's assignments and the run's test cells."""
    problems = []
    for assignment, notebooks in structure.items():
        try:
            gb.find_assignment(assignment)
        except MissingEntry:
            continue  # created below
        for notebook, points in notebooks.items():
            for grade_id, max_score in points.items():
                try:
                    known = gb.find_grade_cell(grade_id, notebook, assignment).max_score
                except MissingEntry:
                    problems.append(f"{assignment}/{notebook}: the gradebook has no test cell {grade_id}")
                    continue
                if float(known) != max_score:
                    problems.append(f"{assignment}/{notebook}/{grade_id}: {known:g} points in the gradebook, "
                                    f"{max_score:g} in the run")
    return problems


def write_gradebook(out_dir: Path, course_dir: Path, warn=print) -> int:
    """Writes grades.csv and cells.csv of `out_dir` into the course's gradebook; returns the submissions written.
    Raises GradebookError, writing nothing, when the gradebook's test cells disagree with the run's."""
    grades, cells = read_rows(out_dir / "grades.csv"), read_rows(out_dir / "cells.csv")
    structure = _structure(cells)
    submitted = {(r["student"], r["assignment"]) for r in grades if r["status"] != "missing"}
    url, course_id = db_url(course_dir)
    # A new gradebook asks the `alembic` script, found on PATH, for its schema version.
    with _venv_scripts_on_path(), Gradebook(url, course_id) as gb:
        problems = _check(gb, structure)
        if problems:
            raise GradebookError("the gradebook does not match the graded assignments (run `nbgrader "
                                 "generate_assignment A --force` in the course root if the source changed):\n  "
                                 + "\n  ".join(problems))
        for assignment, notebooks in structure.items():
            gb.update_or_create_assignment(assignment)
            for notebook, points in notebooks.items():
                gb.update_or_create_notebook(notebook, assignment)
                for grade_id, max_score in points.items():
                    try:
                        gb.find_grade_cell(grade_id, notebook, assignment)
                    except MissingEntry:
                        gb.add_grade_cell(grade_id, notebook, assignment, max_score=max_score, cell_type="code")
        for student in sorted({r["student"] for r in grades}):
            gb.update_or_create_student(student)
        for student, assignment in sorted({(r["student"], r["assignment"]) for r in grades} - submitted):
            try:
                gb.find_submission(assignment, student)
                warn(f"{student} submitted nothing for {assignment} in this run; the gradebook's earlier "
                     "submission is kept")
            except MissingEntry:
                pass
        for student, assignment in sorted(submitted):
            try:
                gb.find_submission(assignment, student)
            except MissingEntry:
                # nbgrader builds the submission's notebooks and grades before adding it to the session; an
                # autoflush half-way warns (SAWarning) about objects not in the session yet.
                with gb.db.no_autoflush:
                    gb.add_submission(assignment, student)
        for row in cells:
            if (row["student"], row["assignment"]) in submitted:
                grade = gb.find_grade(row["grade_id"], row["notebook"], row["assignment"], row["student"])
                grade.auto_score = float(row["score"])
        gb.db.commit()
    return len(submitted)
