"""The students of a submitted folder (laid out SUBMITTED_DIR/<student>/<assignment>/), the assignments the
batch expects of them, and what looks wrong about the layout: an instructor should hear of it rather than get
rows of `missing`.

The expected assignments are those the instructor names (--assignment), or else every assignment of the course
that at least one student folder holds: a course of six chapters whose class was given two is graded on those
two, and no row, gradebook entry or exported score is made up for the others. The rule reads the whole folder,
never one shard's share of it, so every machine of a sharded grading expects the same assignments.
"""
from pathlib import Path


class LayoutError(ValueError):
    """No student folder of SUBMITTED_DIR holds an assignment of the course: nothing to grade."""


def students(submitted_dir: Path) -> list[str]:
    # Dot-folders are editor and OS artefacts (.ipynb_checkpoints, .git), not students.
    return sorted(p.name for p in submitted_dir.iterdir() if p.is_dir() and not p.name.startswith("."))


def _held(submitted_dir: Path, student: str, known: list[str]) -> set[str]:
    """The assignments of the course for which `student`'s folder holds a folder (as grading reads it: a link
    is never followed)."""
    folder = submitted_dir / student
    if folder.is_symlink():
        return set()
    return {name for name in known if (folder / name).is_dir() and not (folder / name).is_symlink()}


def expected_assignments(submitted_dir: Path, known: list[str], named: list[str] | None = None) -> list[str]:
    """The assignments every student of the batch is graded on: `named`, else those some student folder holds.
    Raises LayoutError, saying what the folder looks like, when no student folder holds any assignment of the
    course (SUBMITTED_DIR one level too deep, or a folder of something else)."""
    held = set().union(*(_held(submitted_dir, student, known) for student in students(submitted_dir)))
    if not held:
        raise LayoutError(_layout_problem(submitted_dir, known))
    return sorted(named) if named else sorted(held)


def _layout_problem(submitted_dir: Path, known: list[str]) -> str:
    found = students(submitted_dir)
    expected = f"expected {submitted_dir}/<student>/<assignment>/<notebook>.ipynb"
    if not found:
        return f"{submitted_dir} holds no student folders ({expected})"
    like_assignments = [name for name in found if name in known]
    if like_assignments:
        return (f"{submitted_dir} is one level too deep: its folders {', '.join(like_assignments[:3])} are named "
                f"like assignments; give the folder that holds the student folders ({expected})")
    return (f"no student folder of {submitted_dir} holds an assignment of the course ({', '.join(known)}); "
            f"{expected}")


def warnings(submitted_dir: Path, student: str, known: list[str]) -> list[str]:
    """Sentences about `student`'s folder: named like an assignment (SUBMITTED_DIR given one level too deep),
    or holding folders that are not assignments of the course (never graded)."""
    found = []
    if student in known:
        found.append(f"student folder {student}/ is named like an assignment: is SUBMITTED_DIR one level too "
                     "deep? (expected SUBMITTED_DIR/<student>/<assignment>/)")
    folder = submitted_dir / student
    if folder.is_symlink():  # graded as missing; its target is not looked at
        return found
    for path in sorted(folder.iterdir()):
        if path.is_dir() and not path.name.startswith(".") and path.name not in known:
            found.append(f"{student}/{path.name}/ is not an assignment of this course; it was not graded")
    return found
