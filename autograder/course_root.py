"""A throwaway nbgrader course root built from a course's `source/` and `nbgrader_config.py`.

Grading and releasing both run nbgrader there, so the repository (and any gradebook.db in it) is never
touched, and both see exactly the course's configuration: only that one file is loaded, never a user's
~/.jupyter config, so every machine grades alike.
"""
import os
import shutil
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

import nbformat
from nbgrader.api import Gradebook
from nbgrader.converters import GenerateAssignment
from nbgrader.coursedir import CourseDirectory
from nbgrader.utils import capture_log, temp_attrs
from traitlets.config import Config
from traitlets.config.loader import PyFileConfigLoader

CONFIG_FILE = "nbgrader_config.py"


class CourseRootError(RuntimeError):
    """The course itself cannot be built or generated: an instructor's problem, not a student's."""


def load_config(course_dir: Path) -> Config:
    if not (course_dir / CONFIG_FILE).is_file():
        raise CourseRootError(f"no {CONFIG_FILE} in {course_dir}: is it a course root?")
    return PyFileConfigLoader(CONFIG_FILE, path=str(course_dir)).load_config()


def source_dir(course_dir: Path) -> Path:
    return course_dir / CourseDirectory(config=load_config(course_dir)).source_directory


def assignments_in(course_dir: Path) -> list[str]:
    """Every assignment of the course: the folders under its source directory."""
    folder = source_dir(course_dir)
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))


class CourseRoot:
    """An nbgrader course root on disk, with the configuration every nbgrader run in it uses."""

    def __init__(self, path: Path, config: Config):
        self.path = path
        self.config = config
        self.coursedir = CourseDirectory(config=config)

    def run(self, converter, config: Config | None = None, **ids: str) -> dict:
        """Runs an nbgrader converter in-process, like its command would; ids are CourseDirectory traits
        (assignment_id, student_id, notebook_id). Returns nbgrader's {"success", "log", "error"} and never raises
        for a failed notebook, so one bad submission cannot stop the batch."""
        with temp_attrs(self.coursedir, **ids):
            return capture_log(converter(coursedir=self.coursedir, config=self.config if config is None else config))

    def folder(self, step: str, assignment: str, student: str = ".") -> Path:
        """nbgrader's folder for a step ("source", "release", "submitted", "autograded")."""
        directory = getattr(self.coursedir, f"{step}_directory")
        return Path(self.coursedir.format_path(directory, student, assignment))

    def notebooks(self, assignment: str) -> list[str]:
        """The notebook ids (file stems) a submission of `assignment` must contain."""
        return sorted(p.stem for p in self.folder("source", assignment).glob("*.ipynb"))

    def grade_cells(self, assignment: str, notebook: str) -> list[tuple[str, float]]:
        """(grade_id, points) of every graded cell of a source notebook, in notebook order."""
        nb = nbformat.read(self.folder("source", assignment) / f"{notebook}.ipynb", as_version=4)
        meta = [cell.metadata.get("nbgrader", {}) for cell in nb.cells]
        return [(m["grade_id"], float(m.get("points", 0))) for m in meta if m.get("grade")]

    def scores(self, student: str, assignment: str, notebook: str) -> dict[str, float]:
        """grade_id -> score that autograding stored in this root's gradebook."""
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gb:
            submitted = gb.find_submission_notebook(notebook, assignment, student)
            return {grade.name: grade.score for grade in submitted.grades}


@contextmanager
def _venv_scripts_on_path():
    # A new gradebook asks the `alembic` script (found on PATH) for its schema version; a venv's python run
    # without activating the venv would not find it.
    old = os.environ.get("PATH", "")
    os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), old])
    try:
        yield
    finally:
        os.environ["PATH"] = old


@contextmanager
def generated_course_root(course_dir: Path, assignments: list[str], overrides: Config | None = None):
    """Yields a CourseRoot in a temporary folder holding the course's config and the given assignments'
    source folders, each already run through `nbgrader generate_assignment`: release/ is written and the
    gradebook holds every source cell, hidden tests included. `overrides` is merged over the course config."""
    config = load_config(course_dir)
    src = source_dir(course_dir)
    for assignment in assignments:
        if not (src / assignment).is_dir():
            raise CourseRootError(f"no assignment {assignment!r} in {src}")
    with tempfile.TemporaryDirectory(prefix="course-root-") as tmp:
        root = Path(tmp)
        shutil.copy(course_dir / CONFIG_FILE, root / CONFIG_FILE)
        config.merge(overrides or Config())
        config.CourseDirectory.root = str(root)
        course = CourseRoot(root, config)
        for assignment in assignments:
            shutil.copytree(src / assignment, course.folder("source", assignment),
                            ignore=shutil.ignore_patterns(*course.coursedir.ignore))
        with _venv_scripts_on_path():
            for assignment in assignments:
                result = course.run(GenerateAssignment, assignment_id=assignment)
                if not result["success"]:
                    raise CourseRootError(f"nbgrader generate_assignment {assignment} failed:\n"
                                          f"{result.get('log', '')}{result.get('error', '')}")
        yield course
