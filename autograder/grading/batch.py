"""Grading: every student × expected notebook, each found, repaired, scanned, run in the sandbox and scored.

nbgrader does what it is trusted for, once per batch: it generates the assignment in a temporary course root,
so its gradebook holds every course cell (hidden tests included) with its points. Student code never runs in
this process or in a Jupyter kernel: the runner runs it in the sandbox and sends signed facts, and scores are
decided here, after the runner is gone. Every failure is caught per notebook, so the batch always finishes with
one row per student × expected notebook; `--jobs N` grades N notebooks at once with the same results.
"""
import itertools
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from traitlets.config import Config

from ..catalogue import diagnosis, entries
from ..catalogue.diagnosis import Diagnosis
from ..catalogue.entries import Entry
from ..course_root import Blueprint, CourseRoot, assignments_in, generated_course_root
from ..reporting import feedback
from ..scaling import roster
from ..scaling.shard import Shard
from . import plan, precheck, repair, scan, scoring, session
from .sandbox import Limits, Sandbox
from .scoring import CellScore

# Every experiment reads COURSE_PROFILE; the grade profile is tiny, CPU-only and seeded. One thread per library
# and a fixed hash seed make runs repeat exactly; the runner seeds random, numpy and torch and turns on torch's
# deterministic algorithms.
GRADING_ENV = {"COURSE_PROFILE": "grade", "CUDA_VISIBLE_DEVICES": "", "OMP_NUM_THREADS": "1",
               "MKL_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "PYTHONHASHSEED": "0", "MPLBACKEND": "Agg",
               "PYTHONDONTWRITEBYTECODE": "1",
               # the runner ends every process a cell leaves running: course.fresh_process.start_early then waits
               "COURSE_ENDS_CELL_PROCESSES": "1"}
SEED = 0
STREAM_LIMIT = 100_000  # characters of stdout, and of stderr, kept per cell
MAX_EXTRA_BYTES = 50 * 2**20  # files a student put beside the notebook, in all
DEFAULT_NOTEBOOK_TIMEOUT = 600.0


@dataclass(frozen=True)
class NotebookResult:
    student: str
    assignment: str
    notebook: str
    status: str
    detail: str
    cells: tuple[CellScore, ...]
    flags: tuple[str, ...] = ()
    diagnoses: tuple[Diagnosis, ...] = ()  # the known mistakes its failing exercises behave like

    @property
    def score(self) -> float:
        return sum(cell.score for cell in self.cells)

    @property
    def max_score(self) -> float:
        return sum(cell.max_score for cell in self.cells)


@dataclass(frozen=True)
class Options:
    cell_timeout: float | None = None  # None: Execute.timeout from nbgrader_config.py
    notebook_timeout: float = DEFAULT_NOTEBOOK_TIMEOUT
    jobs: int = 1
    isolate: bool = True  # False: --no-sandbox
    shard: Shard | None = None  # --shard K/N: grade only the students this shard owns
    diagnosis_seconds: float = Limits.diagnosis_seconds  # --diagnosis-budget


def _stage_files(folder: Path, blueprint: Blueprint, data: Path) -> list[str]:
    """Copies the student's other files (regular files only, up to a total size), then the course's own data
    files over them: a notebook reads the course's data, whatever the student handed in. Returns flags."""
    flags, total = [], 0
    data.mkdir(parents=True)
    if folder.is_dir() and not folder.is_symlink():
        for path in sorted(folder.rglob("*")):
            relative = path.relative_to(folder)
            if path.suffix == ".ipynb" or any(part.startswith(".") for part in relative.parts) or path.is_dir():
                continue
            if path.is_symlink() or not path.is_file():
                flags.append(f"skipped {relative}: not a regular file")
                continue
            total += path.stat().st_size
            if total > MAX_EXTRA_BYTES:
                flags.append(f"skipped {relative} and the rest: more than {MAX_EXTRA_BYTES // 2**20} MB of files")
                break
            (data / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, data / relative, follow_symlinks=False)
    for path in sorted(blueprint.release_dir.rglob("*")):
        if path.is_file() and path.suffix != ".ipynb":
            relative = path.relative_to(blueprint.release_dir)
            (data / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, data / relative)
    return flags


class Grader:
    """Grades notebooks of one batch: one course root, one sandbox, one output folder. `student_flags` are
    added to every row of that student."""

    def __init__(self, course: CourseRoot, sandbox: Sandbox, submitted: Path, out: Path, temp: Path,
                 student_flags: dict[str, tuple[str, ...]], catalogue: dict[str, list[Entry]]):
        self.course, self.sandbox = course, sandbox
        self.submitted, self.out, self.temp = submitted, out, temp
        self.student_flags = student_flags
        self.catalogue = catalogue  # assignment -> its entries, which diagnoses name
        config = course.config
        self.ignore = config.IgnorePattern.pattern if config.IgnorePattern.get("enabled", False) else None
        self.blueprints: dict[tuple[str, str], Blueprint] = {}
        self._runs = itertools.count()  # next() on it is atomic: jobs run in threads

    def blueprint(self, assignment: str, notebook: str) -> Blueprint:
        key = (assignment, notebook)
        if key not in self.blueprints:
            self.blueprints[key] = self.course.blueprint(assignment, notebook)
        return self.blueprints[key]

    def grade(self, student: str, assignment: str, notebook: str) -> tuple[NotebookResult, str]:
        """The row for one student's notebook, with its feedback written; and its grading log."""
        blueprint = self.blueprint(assignment, notebook)
        expected = set(self.course.notebooks(assignment))
        started = time.monotonic()
        log = []
        try:
            result, nb = self._grade(student, blueprint, expected, log)
        except Exception:  # a grader bug costs one notebook, not the batch
            log.append(f"grader failure:\n{traceback.format_exc()}")
            result = NotebookResult(student, assignment, notebook, "error", "The grader failed on this notebook; an "
                                    "instructor will look at the grading log.", scoring.unscored(blueprint))
            nb = feedback.notebook(blueprint, None, {}, {}, self._heading(result))
        result = replace(result, flags=self.student_flags.get(student, ()) + result.flags)
        if result.status != "missing":  # nothing handed in, nothing to give back: grades.csv says it
            page = self.out / "feedback" / student / assignment / f"{notebook}.html"
            try:
                feedback.write_html(nb, page)
            except Exception:  # the row counts more than its page
                log.append(f"feedback failure:\n{traceback.format_exc()}")
                feedback.write_html(feedback.notebook(blueprint, None, {}, {}, self._heading(result)), page)
        head = (f"==== {student} / {assignment} / {notebook}.ipynb: {result.status} {result.score:g}/"
                f"{result.max_score:g} ({time.monotonic() - started:.1f} s)\n")
        flags = "".join(f"flag: {flag}\n" for flag in result.flags)
        return result, head + flags + "".join(log)

    @staticmethod
    def _heading(result: NotebookResult) -> str:
        return feedback.heading(result.notebook, result.score, result.max_score, result.detail)

    def _grade(self, student: str, blueprint: Blueprint, expected: set[str], log: list):
        folder = self.submitted / student / blueprint.assignment

        def done(status: str, detail: str, flags, cells=None, repaired=None, results=None, notes=None,
                 diagnoses=()):
            result = NotebookResult(student, blueprint.assignment, blueprint.notebook, status, detail,
                                    cells or scoring.unscored(blueprint), tuple(flags), diagnoses)
            return result, feedback.notebook(blueprint, repaired, results or {}, notes or {}, self._heading(result),
                                             diagnoses)

        if (self.submitted / student).is_symlink():
            return done("missing", f"No {blueprint.assignment}/ folder was submitted.", [])
        located = precheck.locate(folder, blueprint, expected)
        flags = list(located.flags)
        if located.problem:
            return done("missing", located.problem, flags)
        nb, problem = precheck.load(located.path)
        if problem:
            return done("invalid", problem, flags)
        repaired = repair.repair(nb, blueprint)
        flags += [*repaired.flags, *scan.scan(repaired.nb)]
        run = run_notebook(self.sandbox, blueprint, repaired.nb, folder, self.temp / f"run-{next(self._runs)}",
                           self.catalogue.get(blueprint.assignment, []), self.ignore, log)
        return done(run.verdict.status, run.verdict.detail, flags + list(run.staged) + list(run.verdict.flags),
                    run.verdict.cells, repaired.nb, run.outcome.results, run.verdict.notes, run.diagnoses)


@dataclass(frozen=True)
class Run:
    outcome: session.Outcome
    verdict: scoring.Verdict
    diagnoses: tuple[Diagnosis, ...]
    staged: tuple[str, ...]  # flags about the student's other files


def run_notebook(sandbox: Sandbox, blueprint: Blueprint, nb, folder: Path, scratch: Path, catalogue: list[Entry],
                 ignore: str | None, log: list) -> Run:
    """Runs a repaired notebook (its files from `folder` beside it) in `sandbox`, scores it and keeps the
    diagnoses of its failing exercises; what happened goes into `log`."""
    cells, preload = plan.cells(nb, blueprint)
    limits = sandbox.limits
    job = {"limits": limits.rlimits(), "imports": preload, "seed": SEED, "stream_limit": STREAM_LIMIT,
           "cell_timeout": limits.cell_timeout, "cells": cells, "reap": sandbox.isolate}
    asked = diagnosis.request(blueprint, nb, catalogue, min(limits.diagnosis_seconds, limits.cell_timeout))
    if asked:
        job["diagnosis"] = asked
    try:
        staged = _stage_files(folder, blueprint, scratch / "data")
        outcome = session.run(sandbox, scratch, job)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    log.append(f"run: {outcome.end}{' (' + outcome.exit + ')' if outcome.exit else ''}"
               f"{', ' + outcome.problem if outcome.problem else ''}, {outcome.seconds:.1f} s\n")
    if outcome.output.strip():
        log.append(f"process output:\n{outcome.output.rstrip()}\n")
    if outcome.diagnoses.get("seconds") or outcome.diagnoses.get("found") or outcome.diagnosis_problem:
        log.append(_diagnosis_line(outcome))
    verdict = scoring.decide(blueprint, nb, cells, outcome, ignore, limits.cell_timeout, limits.notebook_timeout)
    named = diagnosis.kept(outcome.diagnoses.get("found"), blueprint, verdict.cells, catalogue)
    return Run(outcome, verdict, named, tuple(staged))


def _diagnosis_line(outcome) -> str:
    """The grading log's line about a run's diagnosis: its own time (what `make bench` adds up), whether it was
    cut short, and the mistakes it named before the grader kept those of exercises that lost points."""
    found = outcome.diagnoses.get("found") or {}
    named = "".join(f"; {exercise}: {', '.join(names)}" for exercise, names in found.items())
    cut = ", stopped at its time budget" if outcome.diagnoses.get("cut") else ""
    problem = f", cut short: {outcome.diagnosis_problem}" if outcome.diagnosis_problem else ""
    return f"diagnosis: {outcome.diagnoses.get('seconds', 0):.2f} s{cut}{problem}{named}\n"


def build_home_seed(home: Path, preload: set[str]) -> None:
    """Matplotlib's font cache, built once here: in every run it would cost seconds, and print a notice."""
    if not any(module.split(".")[0] == "matplotlib" for module in preload):
        return
    env = dict(os.environ, MPLCONFIGDIR=str(home / ".matplotlib"), MPLBACKEND="Agg")
    subprocess.run([sys.executable, "-c", "import matplotlib.font_manager"], env=env, capture_output=True,
                   timeout=300, check=False)


def grade_batch(course_dir: Path, submitted_dir: Path, out_dir: Path, log, assignments: list[str],
                options: Options = Options(), progress=None, warn=None) -> list[NotebookResult]:
    """One NotebookResult per student (folder of `submitted_dir`) × expected assignment (`assignments`, see
    roster.expected_assignments) × notebook, sorted. `log` receives each notebook's grading log;
    `progress(result)` is called as each one finishes, `warn(text)` for each problem with the folder's layout
    (also written to the log and flagged on the student's rows). Raises SandboxError before grading anything
    when the sandbox cannot start, CourseRootError when the course cannot be generated."""
    course_dir, submitted_dir = course_dir.resolve(), submitted_dir.resolve()
    known = assignments_in(course_dir)
    assignments = sorted(assignments)
    students = [s for s in roster.students(submitted_dir) if options.shard is None or options.shard.owns(s)]
    student_flags = {student: tuple(roster.warnings(submitted_dir, student, known)) for student in students}
    for text in itertools.chain.from_iterable(student_flags.values()):
        log.write(f"warning: {text}\n")
        if warn:
            warn(text)
    with tempfile.TemporaryDirectory(prefix="autograder-") as temp_name:
        temp = Path(temp_name)
        overrides = Config({"Execute": {"timeout": options.cell_timeout}}) if options.cell_timeout else None
        with generated_course_root(course_dir, assignments, overrides) as course:
            cell_timeout = float(course.config.Execute.get("timeout", 30))
            limits = Limits(cell_timeout=cell_timeout, notebook_timeout=options.notebook_timeout,
                            diagnosis_seconds=options.diagnosis_seconds)
            sandbox = Sandbox(options.isolate, limits, temp, GRADING_ENV)
            try:
                sandbox.preflight(temp / "preflight")
                catalogue = {a: entries.load(entries.catalogue_folder(course_dir) / a) for a in assignments}
                grader = Grader(course, sandbox, submitted_dir, out_dir, temp, student_flags, catalogue)
                tasks = [(s, a, n) for s in students for a in assignments for n in course.notebooks(a)]
                preload = {module for assignment in assignments for notebook in course.notebooks(assignment)
                           for cell in grader.blueprint(assignment, notebook).cells
                           if cell.role in ("test", "locked") and cell.cell_type == "code"
                           for module in plan.bindings(cell.source)[2]}
                build_home_seed(sandbox.home_seed, preload)
                results = []
                with ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
                    try:
                        for result, text in pool.map(lambda task: grader.grade(*task), tasks):
                            log.write(text)
                            log.flush()
                            if progress:
                                progress(result)
                            results.append(result)
                    except BaseException:  # Ctrl-C: stop the runs in progress now, start no other
                        sandbox.cancelled.set()
                        pool.shutdown(cancel_futures=True)
                        raise
            finally:
                sandbox.close()
    return sorted(results, key=lambda r: (r.student, r.assignment, r.notebook))
