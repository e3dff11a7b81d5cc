"""Every `make` command the README shows has a recipe (a target with none prints "Nothing to be done" and exits 0:
`make gpu-check` once did exactly that) and a test that runs it as written; the quick ones run here."""
import os
import re
import shutil
import subprocess

import pytest
from conftest import REPO_ROOT

from tools import notebook_run

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
    "constraints": "run by hand after changing requirements.txt; tests/test_setup_files.py checks the pins",
}


def _readme_targets():
    text = (REPO_ROOT / "README.md").read_text()
    return set(re.findall(r"(?:^|`)make ([a-z][a-z-]*)", text, flags=re.MULTILINE))


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
    done = _make("claims", f"CHAPTERS={chapter}", "CLAIMS_PROFILE=grade",
                 env=notebook_run.kernel_env("grade", tmp_path), timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert re.search(rf"^{chapter}: 0 claims, 0 held$", done.stdout, flags=re.MULTILINE), done.stdout[-2000:]
