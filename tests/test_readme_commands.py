"""Every command the README shows has a test that runs it as written, and every `make` command a recipe (a target
with none prints "Nothing to be done" and exits 0: `make gpu-check` once did exactly that); the quick ones run
here."""
import importlib
import os
import re
import shutil
import subprocess

import pytest
from conftest import REPO_ROOT

from tools import claims, notebook_run

# README target -> the test that runs it (as written, or as close as a test can: what differs is said).
RUN_BY = {
    "setup": ".ci/run runs it on a fresh clone",
    "test": ".ci/run runs it on a fresh clone",
    "lab": "tests/test_lab.py::test_make_lab_serves_release_notebooks (and LAB_PORT=...)",
    "progress": "tests/test_readme_commands.py::test_make_progress_streams_a_blank_folder",
    "release": "tests/test_grading_chapters.py (release/ equals a fresh `make release`, cell for cell)",
    "autograde": "tests/test_makefile.py::test_autograde_passes_args_to_the_grader (the recipe) and every grading "
                 "test (the command it runs)",
    "bench": "tests/test_bench_class.py (its grading part on the fixture course; the full run takes about 30 min)",
    "claims": "tests/test_readme_commands.py::test_make_claims_runs_and_summarises (CLAIMS_PROFILE=grade: the cpu "
              "profile's claims take minutes and are checked by running `make claims` itself)",
    "gpu-check": "tests/test_readme_commands.py::test_make_gpu_check_without_cuda",
    "clean": "tests/test_makefile.py::test_default_out_is_gitignored_and_clean_keeps_it (a dry run)",
    "constraints": "tests/test_setup_files.py::test_constraints_pin_exactly_what_the_venv_holds (what it would "
                   "write is the committed file)",
    "site": "tests/test_site.py::test_the_site_has_a_landing_page_and_a_page_per_chapter_holding_its_figures "
            "(the same build, in the grade profile from the suite's notebook runs; the cpu profile takes minutes)",
}


SLURM_TEST = "tests/test_slurm.py::test_readme_slurm_array_job_merges_to_the_files_of_one_run"
# The README's shell commands (lines of its ```bash blocks, by how they start) -> the test that runs them.
SHELL_RUN_BY = {
    "make ": "the `make` targets above",
    "torchrun ": "tests/test_torchrun.py::test_readme_torchrun_command_trains_on_two_processes",
    "python -m autograder to-gradebook ": "tests/test_gradebook.py::test_nbgrader_export_gives_the_totals_of_grades_csv",
    "nbgrader export ": "tests/test_gradebook.py::test_nbgrader_export_gives_the_totals_of_grades_csv",
    "nbgrader generate_assignment ": "tests/test_plain_nbgrader.py::test_plain_autograde_runs_in_the_grade_profile_"
                                     "unless_one_is_set",
    "nbgrader autograde ": "tests/test_plain_nbgrader.py::test_plain_autograde_runs_in_the_grade_profile_unless_"
                           "one_is_set",
    "python -m autograder grade ": SLURM_TEST,
    "job=$(sbatch ": SLURM_TEST,
    "sbatch ": SLURM_TEST,
    # Set-up lines of a block, not commands of their own.
    "source .venv/bin/activate": None,
    "cd /srv/frame-by-frame && source .venv/bin/activate": None,
}


def _readme_shell_lines():
    text = (REPO_ROOT / "README.md").read_text()
    lines = []
    for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S):
        commands = re.sub(r"\\\n\s*", " ", block)   # continuation lines join their command
        lines += [line.strip() for line in commands.splitlines() if line.strip() and not line.startswith("#")]
    return lines


def _tests_named(where):
    """The test functions `where` names as path::function (only those; prose is allowed beside them)."""
    return re.findall(r"(tests/test_\w+)\.py::(\w+)", where)


def _readme_targets():
    text = (REPO_ROOT / "README.md").read_text()
    return set(re.findall(r"(?:^|`)make ([a-z][a-z-]*)", text, flags=re.MULTILINE))


def test_every_readme_shell_command_has_a_test_that_runs_it():
    unknown = [line for line in _readme_shell_lines() if not any(line.startswith(start) for start in SHELL_RUN_BY)]
    assert unknown == [], "README commands with no test that runs them: add one, and name it in SHELL_RUN_BY"
    for where in [*SHELL_RUN_BY.values(), *RUN_BY.values()]:
        for module, function in _tests_named(where or ""):
            name = module.replace("/", ".")
            assert hasattr(importlib.import_module(name.removeprefix("tests.")), function), f"{module}::{function}"


def _make(*args, env=None, timeout=600):
    return subprocess.run(["make", "--no-print-directory", *args], cwd=REPO_ROOT, capture_output=True, text=True,
                          env=env, timeout=timeout)


def test_every_readme_make_command_has_a_recipe_and_a_test():
    targets = _readme_targets()
    assert {"lab", "test", "progress", "gpu-check"} <= targets
    assert sorted(targets - set(RUN_BY)) == [], "a README command with no test that runs it"
    for target in sorted(targets):
        dry = _make("-n", target)
        commands = [line for line in dry.stdout.splitlines() if line.strip()]
        assert dry.returncode == 0 and commands and "Nothing to be done" not in dry.stdout, \
            f"make {target} has no recipe: {dry.stdout}{dry.stderr}"


def test_make_gpu_check_without_cuda(tmp_path):
    done = _make("gpu-check", env={**os.environ, "CUDA_VISIBLE_DEVICES": ""})
    assert done.returncode != 0, "without CUDA it must not look like a pass"
    assert "No CUDA device: only the CPU checks ran" in done.stdout, done.stdout + done.stderr
    assert "PASS  DDP workers after a backward" in done.stdout


def test_make_progress_streams_a_blank_folder(tmp_path):
    folder = tmp_path / "notebooks"
    for chapter in notebook_run.chapters():
        shutil.copytree(REPO_ROOT / "release" / chapter, folder / chapter)
    done = _make("progress", f"FOLDER={folder}", env=notebook_run.kernel_env("grade", tmp_path), timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    for chapter in notebook_run.chapters():
        assert f"{chapter}\n" in done.stdout
    assert "not attempted" in done.stdout and "visible tests pass" not in done.stdout


@pytest.mark.parametrize("chapter", ["ch01_gradient_descent"])
def test_make_claims_runs_and_summarises(chapter, tmp_path):
    kept = claims.KEPT / "grade" / f"{chapter}.ipynb"
    kept.unlink(missing_ok=True)
    done = _make("claims", f"CHAPTERS={chapter}", "CLAIMS_PROFILE=grade",
                 env=notebook_run.kernel_env("grade", tmp_path), timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert re.search(rf"^{chapter}: 0 claims, 0 held$", done.stdout, flags=re.MULTILINE), done.stdout[-2000:]
    not_checked = re.findall(r"^  not checked ", done.stdout, flags=re.MULTILINE)
    assert kept.exists(), "make claims keeps the executed chapter for reading"
    assert len(not_checked) >= 3, f"the grade profile lists each claim it reaches as not checked: {done.stdout[-2000:]}"
