"""`make autograde` passes ARGS through to the grader, its default OUT is gitignored, and `make clean` never
deletes grades (dry runs: `make -n` prints the commands without running them)."""
import subprocess

from conftest import REPO_ROOT


def _dry_run(*args: str) -> str:
    done = subprocess.run(["make", "-n", "--no-print-directory", *args], cwd=REPO_ROOT, capture_output=True,
                          text=True, check=True)
    return done.stdout


def test_autograde_passes_args_to_the_grader():
    commands = _dry_run("autograde", "SUBMITTED=in", "OUT=out", "ARGS=--jobs 2 --force").splitlines()
    assert ".venv/bin/python -m autograder grade in --out out --jobs 2 --force" in commands


def test_default_out_is_gitignored_and_clean_keeps_it():
    ignored = subprocess.run(["git", "check-ignore", "--quiet", "grading-out/grades.csv"], cwd=REPO_ROOT)
    assert ignored.returncode == 0
    assert "grading-out" not in _dry_run("clean", "OUT=grading-out")
