"""Command line: `python -m autograder grade SUBMITTED_DIR --out OUT_DIR [--assignment A ...] [--jobs N] ...`;
`python -m autograder merge OUT1 OUT2 ... --out OUT_DIR`; `python -m autograder to-gradebook OUT_DIR`.

Exit status: 0 when every student × notebook got its row (whatever the notebooks did); 1 when grading itself
could not run (no sandbox, a course that cannot be generated), when shards do not make one whole grading, or when
the gradebook disagrees with the run; 2 for a usage error (an OUT_DIR holding an earlier run's results without
--force, and a SUBMITTED_DIR none of whose student folders holds an assignment, included: nothing is written);
130 when interrupted.
"""
import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from .course_root import CourseRootError, assignments_in
from .grading.batch import DEFAULT_NOTEBOOK_TIMEOUT, Options, grade_batch
from .grading.sandbox import Limits, SandboxError
from .reporting import class_report, messages
from .reporting.grades import write_reports
from .reporting.outdir import OutDirError, check, claim
from .scaling import roster
from .scaling.gradebook import GradebookError, write_gradebook
from .scaling.merge import merge
from .scaling.roster import LayoutError
from .scaling.shard import MARKER, ShardError, parse, write_marker


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m autograder", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    grade = commands.add_parser(
        "grade", help="grade every SUBMITTED_DIR/<student>/<assignment>/<notebook>.ipynb",
        description="Grades every student folder of SUBMITTED_DIR, running each notebook in a sandbox, and writes "
                    "OUT_DIR/grades.csv, OUT_DIR/cells.csv, OUT_DIR/messages.csv, OUT_DIR/feedback/, "
                    "OUT_DIR/report.html and OUT_DIR/grading.log.")
    grade.add_argument("submitted", type=Path, metavar="SUBMITTED_DIR")
    grade.add_argument("--out", type=Path, required=True, metavar="OUT_DIR")
    grade.add_argument("--force", action="store_true",
                       help="delete the results of an earlier run in OUT_DIR (grades, cells, feedback) first; "
                            "without it such an OUT_DIR is refused")
    grade.add_argument("--assignment", action="append", dest="assignments", metavar="A",
                       help="grade this assignment (repeatable; default: every assignment of the course that at "
                            "least one student folder holds)")
    grade.add_argument("--cell-timeout", type=float, metavar="SECONDS",
                       help="stop a cell after this long (default: Execute.timeout in nbgrader_config.py)")
    grade.add_argument("--notebook-timeout", type=float, default=DEFAULT_NOTEBOOK_TIMEOUT, metavar="SECONDS",
                       help="stop a notebook after this long in all, wall clock and CPU time "
                            f"(default: {DEFAULT_NOTEBOOK_TIMEOUT:g})")
    grade.add_argument("--diagnosis-budget", type=float, default=Limits.diagnosis_seconds, metavar="SECONDS",
                       help="seconds each notebook's diagnosis of its mistakes may take, at most its cell timeout; "
                            f"0 turns diagnosis off (default: {Limits.diagnosis_seconds:g})")
    grade.add_argument("--jobs", type=int, default=1, metavar="N", help="grade N notebooks at once (default: 1)")
    grade.add_argument("--no-sandbox", action="store_true",
                       help="run student code without bubblewrap: only for trusted notebooks on a machine without it")
    grade.add_argument("--shard", metavar="K/N",
                       help="grade only shard K of N (the students whose name hashes to it); combine the N "
                            "outputs with `merge`")
    grade.add_argument("--gradebook", action="store_true",
                       help="also write the scores into the course's gradebook.db (as `to-gradebook` does)")
    course_dir = {"type": Path, "default": Path("."), "metavar": "DIR",
                  "help": "course root with nbgrader_config.py and source/ (default: the current folder)"}
    grade.add_argument("--course-dir", **course_dir)
    merging = commands.add_parser(
        "merge", help="combine the outputs of `grade --shard K/N` into the files one run would have written",
        description="Merges the OUT_DIRs of shards 1..N of one grading into OUT_DIR: grades.csv, cells.csv and "
                    "messages.csv as one run writes them, every feedback page, the logs, and a new report.html.")
    merging.add_argument("shards", type=Path, nargs="+", metavar="SHARD_OUT")
    merging.add_argument("--out", type=Path, required=True, metavar="OUT_DIR")
    merging.add_argument("--force", action="store_true", help="replace an earlier run's results in OUT_DIR")
    to_gradebook = commands.add_parser(
        "to-gradebook", help="write a run's scores into the course's nbgrader gradebook (for `nbgrader export`)",
        description="Writes OUT_DIR's scores into the course root's gradebook.db through nbgrader's API: students, "
                    "submissions and each test cell's auto_score; `nbgrader export` then writes the LMS CSV.")
    to_gradebook.add_argument("out", type=Path, metavar="OUT_DIR")
    to_gradebook.add_argument("--course-dir", **course_dir)
    return parser


def _class_report(results, out: Path) -> None:
    # The grades are written by now: a page that cannot be drawn must not cost them, or the exit status.
    try:
        class_report.write(results, out)
    except Exception as error:
        print(f"autograder: could not write {out / 'report.html'}: {type(error).__name__}: {error}", file=sys.stderr)


def _to_gradebook(out: Path, course_dir: Path) -> int:
    try:
        count = write_gradebook(out, course_dir, lambda text: print(f"warning: {text}", flush=True))
    except (GradebookError, CourseRootError) as error:
        print(f"autograder: {error}", file=sys.stderr)
        return 1
    print(f"wrote {count} submission{'' if count == 1 else 's'} into the gradebook of {course_dir.resolve()}")
    return 0


def _merge(parser, args) -> int:
    if not args.shards or any(not path.is_dir() for path in args.shards):
        parser.error("every SHARD_OUT must be a folder")
    if any(args.out.resolve() == path.resolve() for path in args.shards):
        parser.error(f"{args.out} is one of the shards; merge into a new folder")
    try:
        claim(args.out, args.force)
    except OutDirError as error:
        parser.error(str(error))
    try:
        results = merge(args.shards, args.out)
    except ShardError as error:
        print(f"autograder: {error}", file=sys.stderr)
        return 1
    _class_report(results, args.out)
    print(f"merged {len(args.shards)} shards: {len(results)} notebooks into {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "merge":
        return _merge(parser, args)
    if args.command == "to-gradebook":
        if not (args.out / "grades.csv").is_file():
            parser.error(f"{args.out} holds no grades.csv")
        if (args.out / MARKER).exists():
            parser.error(f"{args.out} is one shard of a grading: merge the shards, then write the merged folder")
        return _to_gradebook(args.out, args.course_dir)
    if not args.submitted.is_dir():
        parser.error(f"{args.submitted} is not a folder")
    for name in ("cell_timeout", "notebook_timeout"):
        if getattr(args, name) is not None and getattr(args, name) <= 0:
            parser.error(f"--{name.replace('_', '-')} must be positive")
    if args.diagnosis_budget < 0:
        parser.error("--diagnosis-budget must not be negative")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    try:
        shard = parse(args.shard) if args.shard else None
    except ShardError as error:
        parser.error(str(error))
    if shard and args.gradebook:
        parser.error("--gradebook needs the whole class: merge the shards, then run `to-gradebook` on the result")
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
        check(args.out, args.force)
        expected = roster.expected_assignments(args.submitted, known, args.assignments)
        claim(args.out, args.force)
    except (OutDirError, LayoutError) as error:
        parser.error(str(error))
    sys.stdout.reconfigure(errors="backslashreplace")  # a student folder's name may not be valid UTF-8
    options = Options(args.cell_timeout, args.notebook_timeout, args.jobs, not args.no_sandbox, shard,
                      args.diagnosis_budget)

    started = time.monotonic()

    def progress(result) -> None:
        print(f"{result.student}/{result.assignment}/{result.notebook}: {result.status} "
              f"{result.score:g}/{result.max_score:g}", flush=True)

    def warn(text: str) -> None:
        print(f"warning: {text}", flush=True)

    try:
        with open(args.out / "grading.log", "w", buffering=1, encoding="utf-8", errors="backslashreplace") as log:
            results = grade_batch(args.course_dir, args.submitted, args.out, log, expected, options, progress, warn)
    except (CourseRootError, SandboxError) as error:
        print(f"autograder: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("autograder: interrupted; no reports written", file=sys.stderr)
        return 130
    write_reports(results, args.out)
    messages.write(results, args.out)
    if shard:
        # Every student of the folder, as this machine sees it: merge checks that all shards saw the same class.
        everyone = roster.students(args.submitted)
        write_marker(args.out, shard, expected, everyone, [s for s in everyone if shard.owns(s)])
    _class_report(results, args.out)
    counts = ", ".join(f"{n} {status}" for status, n in sorted(Counter(r.status for r in results).items()))
    print(f"{len(results)} notebook{'' if len(results) == 1 else 's'} ({counts or 'no student in this shard'}) in "
          f"{time.monotonic() - started:.1f} s"
          f"{'' if options.isolate else ' WITHOUT a sandbox'}{f' (shard {shard})' if shard else ''}; wrote "
          f"{args.out / 'grades.csv'}, {args.out / 'cells.csv'}, {args.out / 'feedback'} and "
          f"{args.out / 'report.html'}")
    if args.gradebook:
        return _to_gradebook(args.out, args.course_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
