"""Repair a submitted notebook against the course's own cells (the blueprint, from the gradebook).

The student owns their solution cells and any cells they add; the course owns everything else. So:
  * test and locked cells take the course's source, metadata and type whatever the file says; test cells get
    their hidden tests here, in the copy that runs, never in anything the student sees;
  * a course cell the student deleted is put back, after the nearest course cell before it that is present;
  * a second cell with a grade_id already seen is dropped (nbgrader itself aborts the whole run on it);
  * nbgrader metadata the student changed (points, schema_version, grade or locked flags) is restored;
  * a cell with a grade_id the course does not know is kept as an ordinary student cell, without metadata;
  * the badge and setup cell `make release` puts first (tagged, see setup_cell) are dropped: the course is
    installed where grading runs, and the setup cell's imports would only raise scan flags.
Every repair becomes a flag, for an instructor to look at; none of them costs or earns points by itself.
"""
import copy
from dataclasses import dataclass

import nbformat

from ..course_root import Blueprint
from ..setup_cell import is_setup_cell

COMPARED_KEYS = ("grade", "solution", "locked", "task", "points", "schema_version")


@dataclass(frozen=True)
class Repaired:
    nb: nbformat.NotebookNode  # what runs: course cells restored, hidden tests included
    flags: tuple[str, ...]


def _meta(cell) -> dict | None:
    meta = cell.get("metadata", {}).get("nbgrader")
    return meta if isinstance(meta, dict) else None


def _grade_id(cell) -> str | None:
    meta = _meta(cell)
    return meta.get("grade_id") if meta else None


def _new_cell(cell_type: str, source: str, metadata: dict):
    make = {"code": nbformat.v4.new_code_cell, "markdown": nbformat.v4.new_markdown_cell}.get(
        cell_type, nbformat.v4.new_raw_cell)
    return make(source=source, metadata=metadata)


def _ordinary(cell):
    """A student's cell as it will run: its type and source, no outputs, no nbgrader metadata."""
    metadata = {k: v for k, v in cell.get("metadata", {}).items() if k != "nbgrader"}
    new = _new_cell(cell.cell_type, cell.source, copy.deepcopy(metadata))
    if cell.get("attachments"):
        new["attachments"] = copy.deepcopy(cell["attachments"])
    return new


def repair(nb, blueprint: Blueprint) -> Repaired:
    course = {cell.grade_id: cell for cell in blueprint.cells}
    cells, seen, flags = [], {}, []
    for cell in nb.cells:
        if is_setup_cell(cell):
            continue
        meta = _meta(cell)
        grade_id = meta.get("grade_id") if meta else None
        known = course.get(grade_id) if isinstance(grade_id, str) else None
        if known is None:
            if meta:
                flags.append(f"cell with unknown grade_id {str(grade_id)[:60]!r} kept as an ordinary cell")
            cells.append(_ordinary(cell))
            continue
        if grade_id in seen:
            flags.append(f"duplicate cell {grade_id!r} removed")
            continue
        seen[grade_id] = len(cells)
        if any(meta.get(key) != known.nbgrader.get(key) for key in COMPARED_KEYS):
            flags.append(f"nbgrader metadata of {grade_id!r} changed (restored)")
        if known.role in ("test", "locked"):
            if cell.cell_type != known.cell_type or cell.source not in (known.release_source, known.source):
                flags.append(f"{'test' if known.role == 'test' else 'read-only'} cell {grade_id!r} edited (restored)")
            cells.append(_new_cell(known.cell_type, known.source, {"nbgrader": dict(known.nbgrader)}))
        else:
            new = _ordinary(cell)
            new.metadata["nbgrader"] = dict(known.nbgrader)
            cells.append(new)

    # Missing course cells go back after the nearest earlier course cell still present (in source order).
    anchor = None
    for known in blueprint.cells:
        if known.grade_id not in seen and known.role in ("test", "locked"):
            at = 0 if anchor is None else next(i for i, c in enumerate(cells) if _grade_id(c) == anchor) + 1
            cells.insert(at, _new_cell(known.cell_type, known.source, {"nbgrader": dict(known.nbgrader)}))
            if known.role == "test" or known.cell_type == "code":
                flags.append(f"{'test' if known.role == 'test' else 'read-only'} cell {known.grade_id!r} missing "
                             "(put back)")
        elif known.grade_id not in seen and known.role == "solution":
            flags.append(f"solution cell {known.grade_id!r} missing")
            continue
        elif known.grade_id not in seen:
            continue
        anchor = known.grade_id

    repaired = nbformat.v4.new_notebook(cells=cells, metadata=copy.deepcopy(nb.get("metadata", {})))
    for index, cell in enumerate(repaired.cells):
        cell.id = f"cell-{index}"  # deterministic ids: feedback for the same submission is the same file
    return Repaired(repaired, tuple(flags))
