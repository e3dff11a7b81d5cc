"""Before anything runs: find the student's notebook and read it, without trusting the file.

A notebook file that is a link, a device or a pipe, too large, not JSON or not nbformat is reported, not run.
A single notebook saved under another name is found by its cells' grade_ids, graded, and flagged.
"""
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path

import nbformat

from ..course_root import Blueprint

MAX_NOTEBOOK_BYTES = 20 * 1024 * 1024  # a chapter with every output is a few MB
# A notebook under another name counts as this one when it holds at least this share of its graded cells' ids.
RENAME_MATCH = 0.5
MAX_CANDIDATES = 10


@dataclass(frozen=True)
class Located:
    path: Path | None
    problem: str | None  # why nothing could be graded (status missing)
    flags: tuple[str, ...] = ()


def _first_line(text: str, limit: int = 200) -> str:
    line = str(text).strip().splitlines()[0] if str(text).strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _read_bytes(path: Path) -> bytes:
    """The file's bytes; refuses links and anything but a regular file, and stops reading past the cap."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read(MAX_NOTEBOOK_BYTES + 1)
    finally:
        os.close(fd)


def load(path: Path):
    """(notebook, None) for a readable nbformat-4 notebook, else (None, a sentence saying why not)."""
    try:
        raw = _read_bytes(path)
    except (OSError, ValueError):
        return None, "The notebook is not a regular file (a link, folder or device); it could not be read."
    if len(raw) > MAX_NOTEBOOK_BYTES:
        return None, (f"The notebook is larger than {MAX_NOTEBOOK_BYTES // 2**20} MB; clear its outputs "
                      "(Edit > Clear Outputs of All Cells) and submit it again.")
    if not raw.strip():
        return None, "The file is empty."
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as error:  # JSONDecodeError and UnicodeDecodeError are both ValueErrors
        return None, f"Not valid notebook JSON: {_first_line(error)}."
    if not isinstance(data, dict) or "nbformat" not in data:
        return None, "Not a valid Jupyter notebook: the file holds JSON, but no notebook (it has no nbformat version)."
    try:
        nb = nbformat.reads(raw.decode("utf-8"), as_version=nbformat.NO_CONVERT)
        nbformat.validate(nb)
        nb = nbformat.convert(nb, 4)
    except nbformat.ValidationError as error:
        return None, f"Not a valid Jupyter notebook: {_first_line(error.message)}."
    except Exception as error:  # nbformat reports other malformed files with many exception types
        return None, f"Not a valid Jupyter notebook: {_first_line(error) or type(error).__name__}."
    return nb, None


def grade_ids(nb) -> set[str]:
    ids = set()
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader")
        if isinstance(meta, dict) and isinstance(meta.get("grade_id"), str):
            ids.add(meta["grade_id"])
    return ids


def locate(folder: Path, blueprint: Blueprint, expected: set[str]) -> Located:
    """Where `blueprint`'s notebook is in a student's assignment folder. `expected` holds every notebook name of
    the assignment, so another expected notebook is never taken for a renamed one."""
    name = f"{blueprint.notebook}.ipynb"
    if not folder.is_dir() or folder.is_symlink():
        return Located(None, f"No {blueprint.assignment}/ folder was submitted.")
    path = folder / name
    if path.exists() or path.is_symlink():
        return Located(path, None)
    others = sorted(p for p in folder.glob("*.ipynb") if p.stem not in expected)
    wanted = {cell.grade_id for cell in blueprint.cells if cell.role in ("test", "solution")}
    matches = []
    for other in others[:MAX_CANDIDATES]:
        nb, _ = load(other)
        if nb is not None and wanted and len(grade_ids(nb) & wanted) >= RENAME_MATCH * len(wanted):
            matches.append(other)
    if len(matches) == 1:
        return Located(matches[0], None, (f"notebook renamed: graded {matches[0].name} as {name}",))
    found = f" (found {', '.join(p.name for p in others)}; keep the original file name)" if others else ""
    return Located(None, f"No {name} was submitted in {blueprint.assignment}/{found}.")
