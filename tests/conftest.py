"""Shared test set-up: where the repository and the fixture course are, how to run the autograder and plain
nbgrader, and an environment in which Jupyter, IPython and Matplotlib never write to $HOME."""
import os
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from autograder.catalogue import mutation
from tools import notebook_run

REPO_ROOT = Path(__file__).resolve().parents[1]
FIXTURE_COURSE = REPO_ROOT / "tests" / "fixtures" / "course"
SCREENSHOTS = REPO_ROOT / "build" / "screenshots"
_STARTED = time.time()
_MEASURED: list[str] = []


def pytest_terminal_summary(terminalreporter):
    """The numbers tests measured (shown even by `pytest -q`, which hides their output), and where the browser
    tests of this run left their screenshots."""
    if _MEASURED:
        terminalreporter.section("measured")
        for line in _MEASURED:
            terminalreporter.write_line(line)
    shots = sorted(p.name for p in SCREENSHOTS.glob("*.png") if p.stat().st_mtime >= _STARTED)
    if shots:
        terminalreporter.write_line(f"browser screenshots: {SCREENSHOTS} ({', '.join(shots)})")


@pytest.fixture
def measured(request):
    """`measured("...")` reports a number a test checked in the run's summary, named after the test."""
    return lambda line: _MEASURED.append(f"{request.node.name}: {line}")


@pytest.fixture(scope="session", autouse=True)
def isolated_home(tmp_path_factory):
    """Config, runtime and cache folders in a temporary folder, inherited by every kernel the tests start.
    JUPYTER_DATA_DIR is left alone: kernelspecs are looked up through it."""
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as env:
        for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR", "MPLCONFIGDIR"):
            env.setenv(name, str(home / name.lower()))
        env.setenv("MPLBACKEND", "Agg")
        yield home


@pytest.fixture(scope="session")
def grade_run(tmp_path_factory):
    """`grade_run(chapter)` -> (its source notebook executed in the grade profile, seconds), run once per session:
    tests/test_notebooks.py checks each run and tests/test_site.py renders them. The DDP cells start their
    workers from a fork server, as on a machine with CUDA (where a child forked after the kernel's first backward
    cannot run one); grading runs them forked."""
    runs = {}

    def run(chapter):
        if chapter not in runs:
            env = notebook_run.kernel_env("grade", tmp_path_factory.mktemp(f"kernel-{chapter}"))
            env["COURSE_DDP_START"] = "forkserver"
            runs[chapter] = notebook_run.execute(notebook_run.source_notebook(chapter), "grade", timeout=120, env=env)
        return runs[chapter]
    return run


def autograder_command(submitted: Path, out: Path, *options: str) -> list[str]:
    """`python -m autograder grade` with this interpreter, to run as a subprocess from the repository root."""
    return [sys.executable, "-m", "autograder", "grade", str(submitted), "--out", str(out), *options]


def run_autograder(submitted: Path, out: Path, *options: str) -> subprocess.CompletedProcess:
    """Runs the autograder and fails the test, showing its output, unless it exits 0."""
    done = subprocess.run(autograder_command(submitted, out, *options), cwd=REPO_ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        pytest.fail(f"autograder exited {done.returncode}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}")
    return done


SMALL_CLASS_CHAPTER = "ch01_gradient_descent"
# A small class of the first chapter: student -> the exercise and mutant file that make it wrong.
SMALL_CLASS_WRONG = {"wrong-std": ("grad_stats", "population_std"), "wrong-sweep": ("lr_sweep", "one_model_for_all")}


@pytest.fixture(scope="session")
def small_class(tmp_path_factory) -> tuple[Path, Path]:
    """(submitted, out): a reference, a blank and two wrong submissions of ch01, graded once, serially. Shared by
    the tests of grades.csv and of reproducible reports."""
    name = f"{SMALL_CLASS_CHAPTER}.ipynb"
    source = nbformat.read(REPO_ROOT / "source" / SMALL_CLASS_CHAPTER / name, as_version=4)
    base = tmp_path_factory.mktemp("small-class")
    submitted = base / "submitted"
    mutation.write_submission(source, submitted, "reference", SMALL_CLASS_CHAPTER, SMALL_CLASS_CHAPTER)
    mutation.write_submission(nbformat.read(REPO_ROOT / "release" / SMALL_CLASS_CHAPTER / name, as_version=4),
                              submitted, "blank", SMALL_CLASS_CHAPTER, SMALL_CLASS_CHAPTER)
    for student, (cell, mutant_name) in SMALL_CLASS_WRONG.items():
        path = REPO_ROOT / "autograder" / "mutants" / SMALL_CLASS_CHAPTER / cell / f"{mutant_name}.py"
        wrong = mutation.mutant_notebook(source, mutation.Mutant(cell, mutant_name, path.read_text(), frozenset()))
        mutation.write_submission(wrong, submitted, student, SMALL_CLASS_CHAPTER, SMALL_CLASS_CHAPTER)
    run_autograder(submitted, base / "out", "--assignment", SMALL_CLASS_CHAPTER)
    return submitted, base / "out"


def run_nbgrader(folder: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    """Plain `nbgrader ARGS` in `folder`, as an instructor or the Validate button runs it: COURSE_PROFILE unset
    unless given in `env`, and the venv's scripts on PATH (a new gradebook asks `alembic` for its schema)."""
    base = {name: value for name, value in os.environ.items() if name != "COURSE_PROFILE"}
    base["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), base.get("PATH", "")])
    return subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=folder, env={**base, **env},
                          capture_output=True, text=True)
