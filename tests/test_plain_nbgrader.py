"""Plain `nbgrader autograde` in a course root (the fixture course, whose config a test keeps equal to the
repository's) runs notebooks in the grade profile, as `python -m autograder` does, unless COURSE_PROFILE is set;
and what makes it so leaves the notebook's namespace as a fresh kernel's."""
import shutil

import nbformat
import pytest
from conftest import FIXTURE_COURSE, run_nbgrader

ASSIGNMENT = "fx01_basics"
# The submission's first cell: whether anything was bound before it ran (`os`, a displayed value in `_` or `Out`),
# then the profile.
PROBE = "print('os' in dir(), repr(_), Out)\nimport os\nprint(os.environ.get('COURSE_PROFILE'))"


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A course root with the fixture's config and source, the assignment generated and one submission."""
    root = tmp_path_factory.mktemp("course")
    shutil.copytree(FIXTURE_COURSE / "source", root / "source")
    shutil.copy(FIXTURE_COURSE / "nbgrader_config.py", root)
    generated = run_nbgrader(root, "generate_assignment", ASSIGNMENT)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    nb = nbformat.read(FIXTURE_COURSE / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(PROBE))
    folder = root / "submitted" / "student" / ASSIGNMENT
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / f"{ASSIGNMENT}.ipynb")
    return root


@pytest.mark.parametrize(("env", "profile"), [({}, "grade"), ({"COURSE_PROFILE": "cpu"}, "cpu")])
def test_plain_autograde_runs_in_the_grade_profile_unless_one_is_set(course, env, profile):
    done = run_nbgrader(course, "autograde", ASSIGNMENT, "--force", **env)
    assert done.returncode == 0, done.stdout + done.stderr
    nb = nbformat.read(course / "autograded" / "student" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    assert [output.get("text") for output in nb.cells[0].outputs] == [f"False '' {{}}\n{profile}\n"]
