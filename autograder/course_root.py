"""A throwaway nbgrader course root built from a course's `source/` and `nbgrader_config.py`.

Releasing and grading both generate the assignment there with nbgrader, so the repository (and any gradebook.db
in it) is never touched, and both see exactly the course's configuration: only that one file is loaded, never a
user's ~/.jupyter config, so every machine grades alike. For grading, the generated gradebook is the authority on
each notebook's course cells, hidden tests and points (a Blueprint).
"""
import os
import shutil
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
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


@dataclass(frozen=True)
class CourseCell:
    """One cell of a source notebook, as the gradebook knows it: the authority a submission is repaired against."""
    grade_id: str
    cell_type: str
    role: str  # "test" (autograded), "solution", "task", "locked" (read-only text or code), or "other"
    source: str  # from the gradebook: for a test cell, hidden tests included
    release_source: str  # what students were given
    points: float
    nbgrader: dict  # the cell's nbgrader metadata in the source notebook

    @property
    def hidden(self) -> bool:
        """A test cell with hidden tests: its source never reaches feedback."""
        return self.role == "test" and self.source != self.release_source


@dataclass(frozen=True)
class Blueprint:
    """What a notebook of an assignment must be: its cells in source order, and the release folder, whose
    other files (data the notebook reads) are shipped beside it."""
    assignment: str
    notebook: str
    cells: tuple[CourseCell, ...]
    release_dir: Path

    @property
    def tests(self) -> tuple[CourseCell, ...]:
        return tuple(cell for cell in self.cells if cell.role == "test")

    def cell(self, grade_id: str) -> CourseCell | None:
        return next((cell for cell in self.cells if cell.grade_id == grade_id), None)


def cell_role(meta: dict) -> str:
    """A cell's part in an assignment, from its nbgrader metadata (see CourseCell.role)."""
    if meta.get("grade") and not meta.get("solution"):
        return "test"
    for role in ("solution", "task", "locked"):
        if meta.get(role):
            return role
    return "other"


class CourseRoot:
    """An nbgrader course root on disk, with the configuration every nbgrader run in it uses."""

    def __init__(self, path: Path, config: Config):
        self.path = path
        self.config = config
        self.coursedir = CourseDirectory(config=config)

    def run(self, converter, **ids: str) -> dict:
        """Runs an nbgrader converter in-process, like its command would; ids are CourseDirectory traits
        (assignment_id, ...). Returns nbgrader's {"success", "log", "error"}."""
        with temp_attrs(self.coursedir, **ids):
            return capture_log(converter(coursedir=self.coursedir, config=self.config))

    def folder(self, step: str, assignment: str) -> Path:
        """nbgrader's folder for a step ("source", "release")."""
        directory = getattr(self.coursedir, f"{step}_directory")
        return Path(self.coursedir.format_path(directory, ".", assignment))

    def notebooks(self, assignment: str) -> list[str]:
        """The notebook ids (file stems) a submission of `assignment` must contain."""
        return sorted(p.stem for p in self.folder("source", assignment).glob("*.ipynb"))

    def blueprint(self, assignment: str, notebook: str) -> Blueprint:
        """The authority for grading `notebook`: sources and points from the gradebook, order and metadata from
        the source notebook, student-facing text from the release."""
        name = f"{notebook}.ipynb"
        source = nbformat.read(self.folder("source", assignment) / name, as_version=4)
        release_dir = self.folder("release", assignment)
        released = {c.metadata.get("nbgrader", {}).get("grade_id"): c.source
                    for c in nbformat.read(release_dir / name, as_version=4).cells}
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gb:
            stored = gb.find_notebook(notebook, assignment)
            sources = {cell.name: cell.source for cell in stored.source_cells}
            points = {cell.name: float(cell.max_score) for cell in stored.grade_cells}
        cells = []
        for cell in source.cells:
            meta = dict(cell.metadata.get("nbgrader", {}))
            if "grade_id" not in meta:
                continue
            grade_id = meta["grade_id"]
            cells.append(CourseCell(grade_id, cell.cell_type, cell_role(meta), sources.get(grade_id, cell.source),
                                    released.get(grade_id, ""), points.get(grade_id, 0.0), meta))
        return Blueprint(assignment, notebook, tuple(cells), release_dir)


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
