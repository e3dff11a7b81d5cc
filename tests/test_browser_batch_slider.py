"""The batch-size slider (chapter 3), wired for real: JupyterLab in headless Chromium, move the batch-size slider,
see a new plot and a larger batch in the readout.

The pure functions behind it (`widgets.batch_runs`, `widgets.draw_batch_explorer`) are unit-tested in
test_course_ch03.py; this tests the wiring. Chromium comes from Debian (`/usr/bin/chromium`); Playwright never
downloads a browser.
"""
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

from tools import notebook_run

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium is not installed")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_server(url, proc, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            urllib.request.urlopen(url, timeout=3).close()
            return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"JupyterLab did not answer (exit code {proc.poll()})")


def test_moving_the_batch_size_slider_redraws_the_plot(tmp_path):
    from playwright.sync_api import sync_playwright

    served = tmp_path / "served"
    served.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_code_cell(
        "from course import widgets\n"
        "widgets.batch_slider(lambda b: {'fixed': 2**20, 'activations': 2**16 * b}, budget_bytes=2**22, steps=20)"))
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, served / "batch_slider.ipynb")

    port, token = _free_port(), "fbf-browser-test"
    # A student's kernel environment: it draws inline (the test session's Agg backend would draw nothing).
    env = dict(notebook_run.kernel_env("grade", tmp_path), JUPYTER_TOKEN=token)
    lab = subprocess.Popen(["bash", str(ROOT / "tools" / "lab.sh"), str(port), str(served)], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        _wait_for_server(f"http://127.0.0.1:{port}/api/status?token={token}", lab)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"http://127.0.0.1:{port}/lab/tree/batch_slider.ipynb?token={token}")
            page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=60_000)
            page.locator(".jp-NotebookPanel .jp-Cell").first.click()   # make the notebook the active panel
            page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
            page.locator(".lm-Menu-item:not(.lm-mod-disabled) .lm-Menu-itemLabel", has_text="Run All Cells").first.click()
            page.wait_for_selector(".jp-OutputArea-output img", timeout=60_000)
            readout = page.locator(".widget-readout").first              # the batch-size slider comes first
            before_value = readout.inner_text()
            before_plot = page.locator(".jp-OutputArea-output img").first.get_attribute("src")

            handle = page.locator(".noUi-handle").first
            handle.focus()
            for _ in range(3):
                handle.press("ArrowRight")
            page.wait_for_function(
                "([old]) => { const img = document.querySelector('.jp-OutputArea-output img');"
                " return img && img.getAttribute('src') !== old; }", arg=[before_plot], timeout=30_000)
            page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=30_000)
            page.screenshot(path=str(tmp_path / "batch_slider.png"))
            after_value = readout.inner_text()
            browser.close()
        assert int(after_value) > int(before_value), (before_value, after_value)
    finally:
        os.killpg(lab.pid, signal.SIGTERM)
        lab.wait(timeout=30)
