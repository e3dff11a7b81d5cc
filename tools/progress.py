"""`make progress`: where a self-study learner stands, without an instructor.

Runs every chapter notebook in the student's folder (`notebooks/` by default, as `make lab` serves it) the way
the Validate button does — the grade profile, the course's cell timeout — and prints one row per exercise:
`visible tests pass`, `failed` (with the first line of what went wrong), `not attempted` (the solution cell
is still the stub it was released with) or `no notebook`. Hidden tests exist only at grading, so a row never says
more than that the visible tests pass.

Usage: python -m tools.progress [FOLDER] [--course-dir DIR]
"""
import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

from autograder.course_root import assignments_in, load_config
from autograder.mutation import own_tests, solution_cells
from tools import notebook_run

NOT_ATTEMPTED, PASSED, FAILED, MISSING = "not attempted", "visible tests pass", "failed", "no notebook"


@dataclass(frozen=True)
class Row:
    chapter: str
    exercise: str
    status: str
    detail: str = ""


def _by_grade_id(nb) -> dict:
    return {c.metadata["nbgrader"]["grade_id"]: c for c in nb.cells if "grade_id" in c.metadata.get("nbgrader", {})}


def _trouble(cell) -> str:
    """The first line of the cell's error or stderr output ('' when it ran clean): nbgrader scores either as 0."""
    for out in cell.get("outputs", []):
        if out.output_type == "error":
            return f"{out.ename}: {out.evalue}".splitlines()[0]
        if out.output_type == "stream" and out.name == "stderr":
            return f"wrote to stderr: {out.text.strip().splitlines()[0] if out.text.strip() else '(blank)'}"
    return ""


def _has_code(source: str) -> bool:
    """A test cell with only comments left is a hidden-test cell as students see it."""
    return any(line.strip() and not line.strip().startswith("#") for line in source.splitlines())


def chapter_rows(chapter: str, release_nb, executed_nb) -> list[Row]:
    """One row per exercise of `release_nb`, judged from the student's executed notebook."""
    cells, stubs = _by_grade_id(executed_nb), _by_grade_id(release_nb)
    rows = []
    for exercise in solution_cells(release_nb):
        solution = cells.get(exercise)
        if solution is None or solution.source.strip() == stubs[exercise].source.strip():
            rows.append(Row(chapter, exercise, NOT_ATTEMPTED))
            continue
        visible = [t for t in sorted(own_tests(exercise, release_nb)) if t in cells and _has_code(cells[t].source)]
        failing = [(t, _trouble(cells[t])) for t in visible if _trouble(cells[t])]
        if _trouble(solution):
            failing.insert(0, (exercise, _trouble(solution)))
        rows.append(Row(chapter, exercise, FAILED, f"{failing[0][0]}: {failing[0][1]}") if failing
                    else Row(chapter, exercise, PASSED))
    return rows


def progress(folder: Path, course_dir: Path) -> list[Row]:
    timeout = load_config(course_dir).Execute.get("timeout", 60)
    rows = []
    for chapter in assignments_in(course_dir):
        release_nb = nbformat.read(course_dir / "release" / chapter / f"{chapter}.ipynb", as_version=4)
        mine = folder / chapter / f"{chapter}.ipynb"
        if not mine.is_file():
            rows += [Row(chapter, exercise, MISSING) for exercise in solution_cells(release_nb)]
            continue
        executed, _ = notebook_run.execute(mine, "grade", timeout=timeout)
        rows += chapter_rows(chapter, release_nb, executed)
    return rows


def table(rows: list[Row]) -> str:
    header = ("chapter", "exercise", "status", "detail")
    lines = [header] + [(r.chapter, r.exercise, r.status, r.detail[:90]) for r in rows]
    widths = [max(len(line[i]) for line in lines) for i in range(3)]
    text = ["  ".join(cell.ljust(w) for cell, w in zip(line[:3], widths)) + "  " + line[3] for line in lines]
    counts = {s: sum(r.status == s for r in rows) for s in (PASSED, FAILED, NOT_ATTEMPTED, MISSING)}
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    return "\n".join([*(t.rstrip() for t in text), "", f"{len(rows)} exercises: {summary}.",
                      "Hidden tests run only at grading: passing the visible ones is a good sign, not a grade."])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.progress", description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=notebook_run.ROOT / "notebooks",
                        help="the folder holding your chapter folders (default: notebooks/)")
    parser.add_argument("--course-dir", type=Path, default=notebook_run.ROOT, metavar="DIR")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"progress: no folder {args.folder}; `make lab` creates notebooks/ with your copies", file=sys.stderr)
        return 1
    print(table(progress(args.folder, args.course_dir)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
