"""What `make lab` gives a student, written on every start of the lab, never kept by hand.

- FOLDER/nbgrader_config.py: the course config's Execute settings (cell timeout, grade profile), so the student's
  Validate button and `nbgrader validate` there run a notebook as grading does; the rest of the course config
  (course id, folders) is for instructors and stays out of the students' folder.
- SETTINGS/: the student's Lab. nbgrader installs its instructor tools into every JupyterLab of the environment
  (the Nbgrader menu with Formgrader and Create Assignment, the Create Assignment sidebar, the assignment and course
  lists, whose exchange directory prints "Unwritable directory, please contact your instructor"). The student's Lab
  turns them off, server and browser side, and keeps only Validate: `server.json` (passed to `jupyter lab
  --config`) and a Lab settings folder (`--LabApp.app_settings_dir`) with `page_config.json` and `overrides.json`
  (no news or update checks: the course works offline). An instructor's own `jupyter lab` is left as it is.

Usage: python -m autograder.lab_config COURSE_DIR SETTINGS [FOLDER]
"""
import json
import sys
from pathlib import Path

from .course_root import CONFIG_FILE, load_config

# The instructor's nbgrader tools: server extensions and Lab plugins a student's Lab leaves out.
INSTRUCTOR_SERVER_EXTENSIONS = ("nbgrader.server_extensions.formgrader", "nbgrader.server_extensions.assignment_list",
                                "nbgrader.server_extensions.course_list")
INSTRUCTOR_LAB_PLUGINS = ("@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:create-assignment",
                          "@jupyter/nbgrader:assignment-list", "@jupyter/nbgrader:course-list",
                          "@jupyter/nbgrader:menu")
OVERRIDES = {"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False}}

HEADER = ('"""Written by `make lab` from the course\'s nbgrader_config.py on every start: edits here are lost."""\n'
          "c = get_config()  # noqa: F821 - injected by traitlets\n")


def text(course_dir: Path) -> str:
    """The config file's text: every Execute setting of the course, as Python literals."""
    execute = load_config(course_dir).Execute
    return HEADER + "".join(f"c.Execute.{name} = {value!r}\n" for name, value in sorted(execute.items()))


def write_student_lab(settings: Path) -> None:
    """The student's Lab settings in `settings`: server.json for `--config`, lab/ for `--LabApp.app_settings_dir`."""
    lab = settings / "lab"
    lab.mkdir(parents=True, exist_ok=True)
    server = {"ServerApp": {"jpserver_extensions": {name: False for name in INSTRUCTOR_SERVER_EXTENSIONS}}}
    (settings / "server.json").write_text(json.dumps(server, indent=2) + "\n")
    page_config = {"disabledExtensions": {name: True for name in INSTRUCTOR_LAB_PLUGINS}}
    (lab / "page_config.json").write_text(json.dumps(page_config, indent=2) + "\n")
    (lab / "overrides.json").write_text(json.dumps(OVERRIDES, indent=2) + "\n")


def main(argv: list[str]) -> int:
    course_dir, settings, *folder = (Path(arg) for arg in argv)
    write_student_lab(settings)
    for served in folder:
        (served / CONFIG_FILE).write_text(text(course_dir))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
