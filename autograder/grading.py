"""Grading: each student's notebook graded by nbgrader, one at a time, inside one temporary course root.

nbgrader runs in this process, so its start-up and the generation of the assignment are paid once per batch
rather than once per student; every notebook still gets its own kernel, and every nbgrader failure is caught
per notebook, so one bad submission never stops the others.
"""
import copy
import os
import re
import shutil
import sys
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import nbformat
from nbgrader.converters import Autograde
from nbgrader.preprocessors import Execute
from traitlets.config import Config

from .course_root import CourseRoot, assignments_in, generated_course_root
from .precheck import why_invalid

# Every experiment reads COURSE_PROFILE; the grade profile is tiny, CPU-only and seeded, so grades repeat.
GRADING_ENV = {"COURSE_PROFILE": "grade", "CUDA_VISIBLE_DEVICES": "", "MPLBACKEND": "Agg", "PYTHONHASHSEED": "0"}
# The error nbgrader's Execute.error_on_timeout records in a cell it interrupted at the timeout.
TIMEOUT_ENAME = "CellTimeoutError"


@dataclass(frozen=True)
class CellScore:
    grade_id: str
    score: float
    max_score: float


@dataclass(frozen=True)
class NotebookResult:
    student: str
    assignment: str
    notebook: str
    status: str
    detail: str
    cells: tuple[CellScore, ...]

    @property
    def score(self) -> float:
        return sum(cell.score for cell in self.cells)

    @property
    def max_score(self) -> float:
        return sum(cell.max_score for cell in self.cells)


@dataclass(frozen=True)
class Submission:
    """What a student should have handed in: `folder` / `notebook`.ipynb, with any data files beside it."""
    student: str
    assignment: str
    notebook: str
    folder: Path

    @property
    def path(self) -> Path:
        return self.folder / f"{self.notebook}.ipynb"


def _cell_label(cell, index: int) -> str:
    grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
    return f"cell '{grade_id}'" if grade_id else f"cell {index + 1}"


def _code_cell_tracker():
    """An nbclient on_cell_start hook and the list it keeps the running code cell's label in, for when the
    kernel dies in that cell. A closure, not an object: traitlets deep-copies configured values, and a
    function survives deepcopy as itself, so the list seen here is the one the hook fills."""
    running: list[str] = []

    def on_cell_start(cell, cell_index):
        if cell.cell_type == "code":
            running[:] = [_cell_label(cell, cell_index)]

    return on_cell_start, running


def _why_missing(sub: Submission) -> str | None:
    if not sub.folder.is_dir():
        return f"No {sub.assignment}/ folder was submitted."
    if sub.path.is_file():
        return None
    others = sorted(p.name for p in sub.folder.glob("*.ipynb"))
    found = f" (found {', '.join(others)}; keep the original file name)" if others else ""
    return f"No {sub.notebook}.ipynb was submitted in {sub.assignment}/{found}."


def _summary(cells: tuple[CellScore, ...]) -> str:
    score = f"Graded: {sum(c.score for c in cells):g} of {sum(c.max_score for c in cells):g} points"
    failed = [c.grade_id for c in cells if c.score < c.max_score]
    if not failed:
        return f"{score}; every test cell passed."
    noun = "test cell" if len(failed) == 1 else "test cells"
    return f"{score}; {len(failed)} {noun} failed: {', '.join(failed)}."


def _stopped_cell(autograded: Path) -> str | None:
    """The cell nbclient interrupted at the timeout, if any (the notebook then ran on to the end)."""
    nb = nbformat.read(autograded, as_version=4)
    for index, cell in enumerate(nb.cells):
        if any(out.get("ename") == TIMEOUT_ENAME for out in cell.get("outputs", [])):
            return _cell_label(cell, index)
    return None


_EXCEPTION_LINE = re.compile(r"^\s*(?:\w+\.)*(\w*(?:Error|Exception)\b.*)$")
_GENERIC_ERRORS = ("There was an error processing", "Please see the")


def _failure_reason(log: str, root: Path) -> str:
    """The first exception named in an nbgrader log (module path dropped), else its first specific error."""
    lines = log.replace(f"{root}{os.sep}", "").splitlines()
    for line in lines:
        match = _EXCEPTION_LINE.match(line)
        if match:
            return match.group(1).strip()
    for line in lines:
        if line.startswith("[ERROR] ") and not line[8:].startswith(_GENERIC_ERRORS):
            return line[8:].strip()
    return "nbgrader gave no reason"


def _unscored(course: CourseRoot, sub: Submission) -> tuple[CellScore, ...]:
    """Every graded cell of the expected notebook at 0 points: what a notebook that did not run earns."""
    return tuple(CellScore(grade_id, 0.0, points) for grade_id, points in course.grade_cells(sub.assignment, sub.notebook))


def grade_notebook(course: CourseRoot, sub: Submission, log) -> NotebookResult:
    """Grades one submitted notebook in `course` (its assignment already generated there); writes nbgrader's
    log to `log`. The unit a sandbox or a worker pool would wrap."""
    cells = _unscored(course, sub)

    def result(status: str, detail: str, scored: tuple[CellScore, ...] = cells) -> NotebookResult:
        return NotebookResult(sub.student, sub.assignment, sub.notebook, status, detail, scored)

    missing = _why_missing(sub)
    if missing:
        return result("missing", missing)
    invalid = why_invalid(sub.path)
    if invalid:
        return result("invalid", invalid)

    dest = course.folder("submitted", sub.assignment, sub.student)
    # Data files travel with the notebook, as with `nbgrader collect`; other notebooks are not graded here.
    shutil.copytree(sub.folder, dest, dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("*.ipynb", *course.coursedir.ignore))
    shutil.copy(sub.path, dest / sub.path.name)

    on_cell_start, running = _code_cell_tracker()
    config = copy.deepcopy(course.config)
    config.Execute.on_cell_start = on_cell_start
    outcome = course.run(Autograde, config, assignment_id=sub.assignment, student_id=sub.student,
                         notebook_id=sub.notebook)
    nbgrader_log = outcome.get("log", "")
    log.write(f"==== {sub.student} / {sub.assignment} / {sub.notebook}.ipynb\n{nbgrader_log}\n")

    timeout = course.config.Execute.get("timeout", Execute.timeout.default_value)
    where = f" (in {running[0]})" if running else ""
    if not outcome["success"]:
        if "DeadKernelError" in nbgrader_log:
            return result("kernel_died", f"The kernel died while running your notebook{where}, e.g. from "
                                         "os._exit(), a crash or running out of memory; nothing could be graded.")
        if TIMEOUT_ENAME in nbgrader_log:
            return result("timeout", f"A cell ran longer than {timeout:g} s and did not stop when interrupted"
                                     f"{where}; nothing could be graded.")
        return result("error", f"The grader could not run your notebook ({_failure_reason(nbgrader_log, course.path)});"
                               " nothing could be graded.")

    scores = course.scores(sub.student, sub.assignment, sub.notebook)
    scored = tuple(replace(cell, score=scores.get(cell.grade_id, 0.0)) for cell in cells)
    stopped = _stopped_cell(course.folder("autograded", sub.assignment, sub.student) / sub.path.name)
    if stopped:
        return result("timeout", f"A cell ran longer than {timeout:g} s and was stopped (in {stopped}). "
                                 f"{_summary(scored)}", scored)
    return result("graded", _summary(scored), scored)


@contextmanager
def _grading_environment():
    """GRADING_ENV for every kernel started inside (kernels inherit this process's environment)."""
    saved = {name: os.environ.get(name) for name in GRADING_ENV}
    os.environ.update(GRADING_ENV)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextmanager
def _stderr_into(log):
    """Sends file descriptor 2 into `log`: kernels write their own start-up warnings there, and nbgrader's
    SQLAlchemy warnings land there too; none of it is the grader's output."""
    sys.stderr.flush()
    saved = os.dup(2)
    os.dup2(log.fileno(), 2)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


def grade_batch(course_dir: Path, submitted_dir: Path, log, assignments: list[str] | None = None,
                cell_timeout: int | None = None):
    """Yields a NotebookResult for every student (folder of `submitted_dir`) × assignment × expected
    notebook, in that sorted order: status graded, missing, invalid, timeout, kernel_died or error.
    `log` (a text file) receives nbgrader's and the kernels' logs."""
    # nbgrader changes the working folder while it runs; absolute paths stay valid.
    course_dir, submitted_dir = course_dir.resolve(), submitted_dir.resolve()
    assignments = sorted(assignments or assignments_in(course_dir))
    # Dot-folders are editor and OS artefacts (.ipynb_checkpoints, .git), not students.
    students = sorted(p.name for p in submitted_dir.iterdir() if p.is_dir() and not p.name.startswith("."))
    overrides = Config({"Execute": {"timeout": cell_timeout}}) if cell_timeout else None
    with _stderr_into(log), _grading_environment(), generated_course_root(course_dir, assignments, overrides) as course:
        for student in students:
            for assignment in assignments:
                for notebook in course.notebooks(assignment):
                    sub = Submission(student, assignment, notebook, submitted_dir / student / assignment)
                    try:
                        result = grade_notebook(course, sub, log)
                    except Exception:  # a grader bug must cost one notebook, not the batch
                        log.write(f"==== {student} / {assignment} / {notebook}.ipynb: grader failure\n"
                                  f"{traceback.format_exc()}\n")
                        result = NotebookResult(student, assignment, notebook, "error", "The grader failed on this "
                                                "notebook; an instructor will look at the grading log.",
                                                _unscored(course, sub))
                    yield result
