"""A small class on the fixture course for the class report, gradebook and shard tests: right, blank and wrong
answers, two students whose errors differ only in a number, an error message holding HTML, and a student who
submitted nothing (in a misspelt folder: a flag). The course it is graded in has a second assignment nobody was
given (UNASSIGNED): no row, page, report section or gradebook entry may be made for it. Graded in a few seconds."""
import shutil
from pathlib import Path

import nbformat
from conftest import FIXTURE_COURSE

from autograder.catalogue import mutation

ASSIGNMENT = "fx01_basics"
UNASSIGNED = "fx02_unassigned"
SOURCE = FIXTURE_COURSE / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
RELEASE = FIXTURE_COURSE / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
HTML_MESSAGE = "<img src=http://example.invalid/x.png>"
SOLUTIONS = {  # student -> (solution cell, its new source)
    "wrong": ("mean_of", "def mean_of(xs):\n    return sum(xs) // len(xs)\n"),
    "raises_a": ("mean_of", "def mean_of(xs):\n    raise ValueError(f'cannot average {len(xs)} numbers')\n"),
    "raises_b": ("mean_of", "def mean_of(xs):\n    raise ValueError(f'cannot average {len(xs) + 10} numbers')\n"),
    "html": ("square", f"def square(x):\n    raise ValueError({HTML_MESSAGE!r})\n"),
    # As course.ddp reports a worker that raised: its traceback, whose cause comes last.
    "worker_error": ("square", "def square(x):\n    raise RuntimeError('rank 1 raised:\\nTraceback (most recent "
                               "call last):\\n' + '  File \"worker.py\", line 7, in step\\n' * 40 + "
                               "'ZeroDivisionError: the worker divided by zero')\n"),
}
WORKER_CAUSE = "ZeroDivisionError: the worker divided by zero"
MISSPELT_FLAG = "missing/fx01_basic/ is not an assignment of this course"
# student -> score of 6
SCORES = {"blank": 0, "html": 3, "missing": 0, "raises_a": 3, "raises_b": 3, "reference": 6, "worker_error": 3,
          "wrong": 4}


def make_course(folder: Path) -> Path:
    """A copy of the fixture course (config, source, release, the catalogue of mistakes) with a second assignment,
    UNASSIGNED, beside it."""
    for name in ("source", "release", "mutants"):
        shutil.copytree(FIXTURE_COURSE / name, folder / name)
    shutil.copy(FIXTURE_COURSE / "nbgrader_config.py", folder)
    for name in ("source", "release"):
        shutil.copytree(folder / name / ASSIGNMENT, folder / name / UNASSIGNED)
        copy = folder / name / UNASSIGNED
        (copy / f"{ASSIGNMENT}.ipynb").rename(copy / f"{UNASSIGNED}.ipynb")
    return folder


def make_class(submitted: Path) -> None:
    source = nbformat.read(SOURCE, as_version=4)
    mutation.write_submission(source, submitted, "reference", ASSIGNMENT, ASSIGNMENT)
    mutation.write_submission(nbformat.read(RELEASE, as_version=4), submitted, "blank", ASSIGNMENT, ASSIGNMENT)
    for student, (cell, text) in SOLUTIONS.items():
        nb = mutation.mutant_notebook(source, mutation.Mutant(cell, student, text, frozenset()))
        mutation.write_submission(nb, submitted, student, ASSIGNMENT, ASSIGNMENT)
    (submitted / "missing" / "fx01_basic").mkdir(parents=True)  # a misspelt assignment: flagged, not graded
