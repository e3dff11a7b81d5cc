"""Command line: `python -m autograder grade SUBMITTED_DIR --out OUT_DIR [--assignment A ...] [--jobs N] ...`.

Exit status: 0 when every student × notebook got its row (whatever the notebooks did); 1 when grading itself
could not run (no sandbox, a course that cannot be generated); 2 for a usage error (an OUT_DIR holding an earlier
run's results without --force included); 130 when interrupted.
"""
import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from .course_root import CourseRootError, assignments_in
from .grading import DEFAULT_NOTEBOOK_TIMEOUT, Options, grade_batch
from .outdir import OutDirError, claim
from .report import write_reports
from .sandbox import SandboxError


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m autograder", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    grade = commands.add_parser(
        "grade", help="grade every SUBMITTED_DIR/<student>/<assignment>/<notebook>.ipynb",
        description="Grades every student folder of SUBMITTED_DIR, running each notebook in a sandbox, and writes "
                    "OUT_DIR/grades.csv, OUT_DIR/cells.csv, OUT_DIR/feedback/ and OUT_DIR/grading.log.")
    grade.add_argument("submitted", type=Path, metavar="SUBMITTED_DIR")
    grade.add_argument("--out", type=Path, required=True, metavar="OUT_DIR")
    grade.add_argument("--force", action="store_true",
                       help="delete the results of an earlier run in OUT_DIR (grades, cells, feedback) first; "
                            "without it such an OUT_DIR is refused")
    grade.add_argument("--assignment", action="append", dest="assignments", metavar="A",
                       help="grade only this assignment (repeatable; default: every folder under source/)")
    grade.add_argument("--cell-timeout", type=float, metavar="SECONDS",
                       help="stop a cell after this long (default: Execute.timeout in nbgrader_config.py)")
    grade.add_argument("--notebook-timeout", type=float, default=DEFAULT_NOTEBOOK_TIMEOUT, metavar="SECONDS",
                       help="stop a notebook after this long in all, wall clock and CPU time "
                            f"(default: {DEFAULT_NOTEBOOK_TIMEOUT:g})")
    grade.add_argument("--jobs", type=int, default=1, metavar="N", help="grade N notebooks at once (default: 1)")
    grade.add_argument("--no-sandbox", action="store_true",
                       help="run student code without bubblewrap: only for trusted notebooks on a machine without it")
    grade.add_argument("--course-dir", type=Path, default=Path("."), metavar="DIR",
                       help="course root with nbgrader_config.py and source/ (default: the current folder)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not args.submitted.is_dir():
        parser.error(f"{args.submitted} is not a folder")
    for name in ("cell_timeout", "notebook_timeout"):
        if getattr(args, name) is not None and getattr(args, name) <= 0:
            parser.error(f"--{name.replace('_', '-')} must be positive")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    try:
        known = assignments_in(args.course_dir)
    except CourseRootError as error:
        parser.error(str(error))
    unknown = sorted(set(args.assignments or []) - set(known))
    if unknown:
        parser.error(f"no such assignment under source/: {', '.join(unknown)}")
    if args.out.resolve().is_relative_to(args.submitted.resolve()):
        parser.error(f"{args.out} is inside SUBMITTED_DIR {args.submitted}: its folder would be graded as a student")
    try:
        claim(args.out, args.force)
    except OutDirError as error:
        parser.error(str(error))
    sys.stdout.reconfigure(errors="backslashreplace")  # a student folder's name may not be valid UTF-8
    options = Options(args.cell_timeout, args.notebook_timeout, args.jobs, not args.no_sandbox)

    started = time.monotonic()

    def progress(result) -> None:
        print(f"{result.student}/{result.assignment}/{result.notebook}: {result.status} "
              f"{result.score:g}/{result.max_score:g}", flush=True)

    def warn(text: str) -> None:
        print(f"warning: {text}", flush=True)

    try:
        with open(args.out / "grading.log", "w", buffering=1, encoding="utf-8", errors="backslashreplace") as log:
            results = grade_batch(args.course_dir, args.submitted, args.out, log, args.assignments, options, progress,
                                  warn)
    except (CourseRootError, SandboxError) as error:
        print(f"autograder: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("autograder: interrupted; no reports written", file=sys.stderr)
        return 130
    write_reports(results, args.out)
    counts = ", ".join(f"{n} {status}" for status, n in sorted(Counter(r.status for r in results).items()))
    print(f"{len(results)} notebook{'' if len(results) == 1 else 's'} ({counts or 'no student folders'}) in "
          f"{time.monotonic() - started:.1f} s"
          f"{'' if options.isolate else ' WITHOUT a sandbox'}; wrote {args.out / 'grades.csv'}, "
          f"{args.out / 'cells.csv'} and {args.out / 'feedback'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
