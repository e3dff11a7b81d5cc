"""`make progress`: where a self-study learner stands, without an instructor.

Runs every chapter notebook in the student's folder (`notebooks/` by default, as `make lab` serves it) the way
the Validate button does — the grade profile, the course's cell timeout — and prints one row per exercise:
`visible tests pass`, `failed` (with the first line of what went wrong, expected and actual values included),
`not attempted` (the solution cell is still the stub it was released with) or `no notebook`. Each chapter's rows
are printed as soon as it has run; a chapter with every exercise still a stub is not run at all. Hidden tests
exist only at grading, so a row never says more than that the visible tests pass. A failed exercise whose visible
tests show a known mistake of the catalogue gets it under its row, with a hint (autograder.catalogue.visible: the
chapter runs a second time for that, in the grader's runner).

Usage: python -m tools.progress [FOLDER] [--course-dir DIR]
"""
import argparse
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import nbformat

from autograder.course_root import assignments_in, load_config
from autograder.catalogue import visible
from autograder.catalogue.mutation import own_tests, solution_cells
from tools import notebook_run

NOT_ATTEMPTED, PASSED, FAILED, MISSING = "not attempted", "visible tests pass", "failed", "no notebook"


@dataclass(frozen=True)
class Row:
    chapter: str
    exercise: str
    status: str
    detail: str = ""
    mistakes: tuple = ()  # the catalogue's Diagnoses its visible tests show


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


DETAIL_CHARACTERS = 400  # a course.testing message names the value, expected, actual and tolerance: keep it all


def _untouched(release_nb, mine_nb) -> bool:
    """Every solution cell is still the stub it was released with."""
    stubs, cells = _by_grade_id(release_nb), _by_grade_id(mine_nb)
    return all(exercise not in cells or cells[exercise].source.strip() == stubs[exercise].source.strip()
               for exercise in solution_cells(release_nb))


def chapter_progress(chapter: str, folder: Path, course_dir: Path, timeout: float) -> list[Row]:
    """The rows of one chapter; its notebook runs only if at least one exercise was attempted."""
    release_nb = nbformat.read(course_dir / "release" / chapter / f"{chapter}.ipynb", as_version=4)
    mine = folder / chapter / f"{chapter}.ipynb"
    if not mine.is_file():
        return [Row(chapter, exercise, MISSING) for exercise in solution_cells(release_nb)]
    if _untouched(release_nb, nbformat.read(mine, as_version=4)):
        return [Row(chapter, exercise, NOT_ATTEMPTED) for exercise in solution_cells(release_nb)]
    executed, _ = notebook_run.execute(mine, "grade", timeout=timeout)
    rows = chapter_rows(chapter, release_nb, executed)
    if any(row.status == FAILED for row in rows):
        found = visible.diagnose(mine, course_dir, chapter, timeout)
        rows = [replace(row, mistakes=tuple(d for d in found if d.exercise == row.exercise)) for row in rows]
    return rows


def progress(folder: Path, course_dir: Path):
    """(chapter, its rows) for every chapter of the course, one at a time, as each is judged."""
    timeout = load_config(course_dir).Execute.get("timeout", 60)
    for chapter in assignments_in(course_dir):
        yield chapter, chapter_progress(chapter, folder, course_dir, timeout)


def _detail(text: str) -> str:
    if len(text) <= DETAIL_CHARACTERS:
        return text
    half = DETAIL_CHARACTERS // 2
    return f"{text[:half]} … {text[-half:]}"


def chapter_table(rows: list[Row], width: int) -> str:
    """A chapter's rows: exercise, status and detail, the exercise column `width` wide."""
    status_width = max(len(s) for s in (PASSED, FAILED, NOT_ATTEMPTED, MISSING))
    indent = " " * (width + status_width + 6)
    return "\n".join(f"  {r.exercise.ljust(width)}  {r.status.ljust(status_width)}  {_detail(r.detail)}".rstrip()
                     + "".join(f"\n{indent}behaves like a known mistake: {d.description}\n{indent}hint: {d.hint}"
                               for d in r.mistakes) for r in rows)


def summary(rows: list[Row]) -> str:
    counts = {s: sum(r.status == s for r in rows) for s in (PASSED, FAILED, NOT_ATTEMPTED, MISSING)}
    done = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    return (f"{len(rows)} exercises: {done}.\n"
            "Hidden tests run only at grading: passing the visible ones is a good sign, not a grade.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.progress", description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=notebook_run.ROOT / "notebooks",
                        help="the folder holding your chapter folders (default: notebooks/)")
    parser.add_argument("--course-dir", type=Path, default=notebook_run.ROOT, metavar="DIR")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"progress: no folder {args.folder}; `make lab` creates notebooks/ with your copies", file=sys.stderr)
        return 1
    width = max(len(exercise) for chapter in assignments_in(args.course_dir) for exercise in solution_cells(
        nbformat.read(args.course_dir / "release" / chapter / f"{chapter}.ipynb", as_version=4)))
    rows = []
    for chapter, found in progress(args.folder, args.course_dir):
        print(f"{chapter}\n{chapter_table(found, width)}", flush=True)
        rows += found
    print(f"\n{summary(rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
