"""Command line: `python -m autograder grade SUBMITTED_DIR --out OUT_DIR [--assignment A ...]`."""
import argparse
import sys
import time
from pathlib import Path

from .course_root import CourseRootError, assignments_in
from .grading import grade_batch
from .report import write_reports


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m autograder", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    grade = commands.add_parser(
        "grade", help="grade every SUBMITTED_DIR/<student>/<assignment>/<notebook>.ipynb",
        description="Grades every student folder of SUBMITTED_DIR with nbgrader in a temporary course root "
                    "and writes OUT_DIR/grades.csv, OUT_DIR/cells.csv and OUT_DIR/grading.log.")
    grade.add_argument("submitted", type=Path, metavar="SUBMITTED_DIR")
    grade.add_argument("--out", type=Path, required=True, metavar="OUT_DIR")
    grade.add_argument("--assignment", action="append", dest="assignments", metavar="A",
                       help="grade only this assignment (repeatable; default: every folder under source/)")
    grade.add_argument("--cell-timeout", type=int, metavar="SECONDS",
                       help="stop a cell after this long (default: Execute.timeout in nbgrader_config.py)")
    grade.add_argument("--course-dir", type=Path, default=Path("."), metavar="DIR",
                       help="course root with nbgrader_config.py and source/ (default: the current folder)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not args.submitted.is_dir():
        parser.error(f"{args.submitted} is not a folder")
    if args.cell_timeout is not None and args.cell_timeout <= 0:
        parser.error("--cell-timeout must be positive")
    try:
        known = assignments_in(args.course_dir)
    except CourseRootError as error:
        parser.error(str(error))
    unknown = sorted(set(args.assignments or []) - set(known))
    if unknown:
        parser.error(f"no such assignment under source/: {', '.join(unknown)}")
    args.out.mkdir(parents=True, exist_ok=True)

    results = []
    started = last = time.monotonic()
    try:
        with open(args.out / "grading.log", "w", buffering=1, encoding="utf-8") as log:
            for result in grade_batch(args.course_dir, args.submitted, log, args.assignments, args.cell_timeout):
                now = time.monotonic()
                print(f"{result.student}/{result.assignment}/{result.notebook}: {result.status} "
                      f"{result.score:g}/{result.max_score:g} ({now - last:.1f} s)", flush=True)
                results.append(result)
                last = now
    except CourseRootError as error:
        print(f"autograder: {error}", file=sys.stderr)
        return 1
    write_reports(results, args.out)
    print(f"Graded {len(results)} notebooks in {time.monotonic() - started:.1f} s; wrote {args.out / 'grades.csv'} "
          f"and {args.out / 'cells.csv'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
