"""The students of SUBMITTED_DIR (its folders, laid out SUBMITTED_DIR/<student>/<assignment>/) and what looks
wrong about the layout: an instructor should hear of it rather than get rows of `missing`."""
from pathlib import Path


def students(submitted_dir: Path) -> list[str]:
    # Dot-folders are editor and OS artefacts (.ipynb_checkpoints, .git), not students.
    return sorted(p.name for p in submitted_dir.iterdir() if p.is_dir() and not p.name.startswith("."))


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
