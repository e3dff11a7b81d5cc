"""The batch's results as CSV: grades.csv (one row per student × notebook; `flags` lists, separated by "; ",
what an instructor should look at), cells.csv (one row per graded cell) and diagnoses.csv (one row per known
mistake a student's failing exercise behaves like: `mistake` is the catalogue file's stem). Rows are sorted and
numbers printed with %g, so the same inputs give byte-identical files."""
import csv
from pathlib import Path

GRADES_COLUMNS = ("student", "assignment", "notebook", "score", "max_score", "status", "detail", "flags")
CELLS_COLUMNS = ("student", "assignment", "notebook", "grade_id", "score", "max_score")
DIAGNOSES_COLUMNS = ("student", "assignment", "exercise", "mistake", "description")


def _number(value: float) -> str:
    return f"{value:g}"


def _write(path: Path, columns: tuple[str, ...], rows) -> None:
    # Names can hold lone surrogates (undecodable bytes in a file name): escaped, never an error.
    with open(path, "w", newline="", encoding="utf-8", errors="backslashreplace") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows(rows)


def read_rows(path: Path) -> list[dict[str, str]]:
    """The rows of a CSV file written here, as dicts keyed by column."""
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def write_reports(results, out_dir: Path) -> None:
    """Writes grades.csv, cells.csv and diagnoses.csv for `results` (NotebookResults) into `out_dir`; cells and
    diagnoses keep notebook order."""
    ordered = sorted(results, key=lambda r: (r.student, r.assignment, r.notebook))
    _write(out_dir / "grades.csv", GRADES_COLUMNS,
           ([r.student, r.assignment, r.notebook, _number(r.score), _number(r.max_score), r.status, r.detail,
             "; ".join(r.flags)]
            for r in ordered))
    _write(out_dir / "cells.csv", CELLS_COLUMNS,
           ([r.student, r.assignment, r.notebook, c.grade_id, _number(c.score), _number(c.max_score)]
            for r in ordered for c in r.cells))
    _write(out_dir / "diagnoses.csv", DIAGNOSES_COLUMNS,
           ([r.student, r.assignment, d.exercise, d.mistake, d.description] for r in ordered for d in r.diagnoses))
