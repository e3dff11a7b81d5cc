"""Regenerates release/<assignment>/ from source/ with `nbgrader generate_assignment`.

Usage (from the course root): python -m tools.release ch01_gradient_descent [...] [--course-dir DIR]

nbgrader runs in a temporary course root (autograder.course_root), and only release/<assignment>/ is copied
back, so no gradebook.db or other nbgrader state is left in the repository. Each notebook then gets the "Open in
Colab" badge and the setup cell first (autograder.setup_cell), from the repository address in pyproject.toml.
"""
import argparse
import shutil
import sys
from pathlib import Path

import nbformat

from autograder import setup_cell
from autograder.course_root import CourseRootError, assignments_in, generated_course_root


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.release", description=__doc__.splitlines()[0])
    parser.add_argument("assignments", nargs="+", metavar="ASSIGNMENT")
    parser.add_argument("--course-dir", type=Path, default=Path("."), metavar="DIR",
                        help="course root with nbgrader_config.py and source/ (default: the current folder)")
    args = parser.parse_args(argv)
    try:
        unknown = sorted(set(args.assignments) - set(assignments_in(args.course_dir)))
        if unknown:
            parser.error(f"no such assignment under source/: {', '.join(unknown)}")
        settings = setup_cell.course_settings(args.course_dir)
        with generated_course_root(args.course_dir, args.assignments) as course:
            for assignment in args.assignments:
                target = args.course_dir / course.coursedir.release_directory / assignment
                shutil.rmtree(target, ignore_errors=True)
                shutil.copytree(course.folder("release", assignment), target)
                for path in target.glob("*.ipynb"):
                    nb = nbformat.read(path, as_version=4)
                    nbformat.write(setup_cell.stamp(nb, assignment, settings), path)
                print(f"wrote {target}")
    except CourseRootError as error:
        print(f"release: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
