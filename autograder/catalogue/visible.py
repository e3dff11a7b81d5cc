"""The diagnosis for self-study (`make progress`): a learner's own notebook against the visible tests only.

Hidden tests exist only at grading, so what a learner is told at home rests on the visible test cells of the
release they work in: the release notebook is the blueprint (its course cells, its visible tests), and the
notebook runs in the grader's runner, in the grade profile, as grading runs it but without the sandbox (it is the
learner's own code, on their own machine, as Validate runs it). The catalogue then names a mistake only when the
visible tests show it: a mistake the hidden tests alone catch looks, here, like a passing exercise.
"""
import tempfile
from pathlib import Path

import nbformat

from ..course_root import Blueprint, CourseCell, cell_role, load_config
from ..grading import plan, precheck, repair
from ..grading.batch import DEFAULT_NOTEBOOK_TIMEOUT, GRADING_ENV, build_home_seed, run_notebook
from ..grading.sandbox import Limits, Sandbox
from . import entries
from .diagnosis import Diagnosis


def release_blueprint(course_dir: Path, chapter: str) -> Blueprint:
    """What a learner's notebook is checked against: the release's cells, visible tests only."""
    release_dir = course_dir / "release" / chapter
    cells = []
    for cell in nbformat.read(release_dir / f"{chapter}.ipynb", as_version=4).cells:
        meta = dict(cell.metadata.get("nbgrader", {}))
        if "grade_id" in meta:
            cells.append(CourseCell(meta["grade_id"], cell.cell_type, cell_role(meta), cell.source, cell.source,
                                    float(meta.get("points", 0.0)), meta))
    return Blueprint(chapter, chapter, tuple(cells), release_dir)


def diagnose(notebook: Path, course_dir: Path, chapter: str, cell_timeout: float) -> tuple[Diagnosis, ...]:
    """The known mistakes the failing exercises of `notebook` show in the visible tests (none when it cannot be
    read, or nothing fails)."""
    blueprint = release_blueprint(course_dir, chapter)
    catalogue = entries.load(entries.catalogue_folder(course_dir) / chapter)
    nb, problem = precheck.load(notebook)
    if problem or not catalogue:
        return ()
    repaired = repair.repair(nb, blueprint).nb
    config = load_config(course_dir)
    ignore = config.IgnorePattern.pattern if config.IgnorePattern.get("enabled", False) else None
    with tempfile.TemporaryDirectory(prefix="progress-") as temp_name:
        temp = Path(temp_name)
        sandbox = Sandbox(False, Limits(cell_timeout, DEFAULT_NOTEBOOK_TIMEOUT), temp, GRADING_ENV)
        try:
            sandbox.preflight(temp / "preflight")
            build_home_seed(sandbox.home_seed, set(plan.cells(repaired, blueprint)[1]))
            run = run_notebook(sandbox, blueprint, repaired, notebook.parent, temp / "run", catalogue, ignore, [])
        finally:
            sandbox.close()
    return run.diagnoses
