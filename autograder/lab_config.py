"""nbgrader_config.py for the folder `make lab` serves: the course config's Execute settings (cell timeout, grade
profile), so the student's Validate button and `nbgrader validate` there run a notebook as grading does. Written
from the course's own file on every start of the lab, never kept by hand; the rest of the course config (course
id, folders) is for instructors and stays out of the students' folder.

Usage: python -m autograder.lab_config COURSE_DIR FOLDER
"""
import sys
from pathlib import Path

from .course_root import CONFIG_FILE, load_config

HEADER = ('"""Written by `make lab` from the course\'s nbgrader_config.py on every start: edits here are lost."""\n'
          "c = get_config()  # noqa: F821 - injected by traitlets\n")


def text(course_dir: Path) -> str:
    """The config file's text: every Execute setting of the course, as Python literals."""
    execute = load_config(course_dir).Execute
    return HEADER + "".join(f"c.Execute.{name} = {value!r}\n" for name, value in sorted(execute.items()))


def main(argv: list[str]) -> int:
    course_dir, folder = (Path(arg) for arg in argv)
    (folder / CONFIG_FILE).write_text(text(course_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
