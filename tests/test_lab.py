"""`make lab` serves the student notebooks on localhost (start it, ask /api/status and /api/contents, stop it),
and gives their folder an nbgrader config with the course's Execute settings, so the Validate button runs a
notebook as grading does: same cell timeout, grade profile."""
import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import nbformat
import pytest
from conftest import run_nbgrader

from autograder import lab_config
from autograder.course_root import CONFIG_FILE, load_config
from tools import notebook_run

ROOT = Path(__file__).resolve().parent.parent


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url):
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.loads(r.read())


def test_make_lab_serves_release_notebooks(tmp_path):
    port, token = _free_port(), "fbf-test-token"
    env = dict(notebook_run.kernel_env("grade", tmp_path), JUPYTER_TOKEN=token)
    proc = subprocess.Popen(["make", "--no-print-directory", "lab", f"LAB_PORT={port}"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        status = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                status = _get(f"http://127.0.0.1:{port}/api/status?token={token}")
                break
            except OSError:
                time.sleep(0.5)
        assert status is not None, f"no answer from make lab; exit code {proc.poll()}"
        assert "started" in status
        names = {item["name"] for item in _get(f"http://127.0.0.1:{port}/api/contents?token={token}")["content"]}
        released = {p.name for p in (ROOT / "release").iterdir() if p.is_dir()}
        assert released and released <= names
        # The student's Lab: nbgrader's instructor tools are off on the server and in the page; Validate stays.
        with pytest.raises(urllib.error.HTTPError, match="404"):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/formgrader?token={token}", timeout=5)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/lab?token={token}", timeout=5) as r:
            page = r.read().decode()
        disabled = json.loads(re.search(r'"disabledExtensions": (\[[^\]]*\])', page).group(1))
        assert set(disabled) == set(lab_config.INSTRUCTOR_LAB_PLUGINS)
        assert "@jupyter/nbgrader:validate-assignment" not in disabled
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        output = proc.communicate(timeout=30)[0]
    assert f"http://127.0.0.1:{port}/lab?token={token}" in output
    assert "No nbgrader_config.py file found" not in output
    assert "Unwritable directory" not in output and "exchange" not in output.lower(), output
    assert (ROOT / "notebooks" / CONFIG_FILE).read_text() == lab_config.text(ROOT)


def test_make_lab_on_a_busy_port_says_to_pick_another_before_printing_a_url(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        done = subprocess.run(["make", "--no-print-directory", "lab", f"LAB_PORT={port}"], cwd=ROOT, text=True,
                              capture_output=True, env=notebook_run.kernel_env("grade", tmp_path), timeout=120)
    assert done.returncode != 0
    assert f"port {port} is already in use" in done.stderr and "LAB_PORT=" in done.stderr, done.stderr
    assert "http://" not in done.stdout


def test_lab_config_holds_the_course_execute_settings_only(tmp_path):
    assert lab_config.main([str(ROOT), str(tmp_path / "settings"), str(tmp_path)]) == 0
    config = load_config(tmp_path)
    assert list(config) == ["Execute"]
    assert config.Execute == load_config(ROOT).Execute


def test_validate_in_a_lab_folder_runs_in_the_grade_profile(tmp_path):
    lab_config.main([str(ROOT), str(tmp_path / "settings"), str(tmp_path)])
    probe = nbformat.v4.new_code_cell("import os\nassert os.environ.get('COURSE_PROFILE') == 'grade'")
    probe.metadata.nbgrader = {"grade": True, "grade_id": "probe", "points": 1, "solution": False, "locked": False,
                               "schema_version": 3}
    nbformat.write(nbformat.v4.new_notebook(cells=[probe]), tmp_path / "probe.ipynb")
    done = run_nbgrader(tmp_path, "validate", "probe.ipynb")
    assert "Success! Your notebook passes all the tests." in done.stdout, done.stdout + done.stderr
