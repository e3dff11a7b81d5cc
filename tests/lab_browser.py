"""JupyterLab in headless Chromium, for the browser tests: serve a folder as `make lab` serves it, open a
notebook, run all its cells, collect what the page logged.

Chromium comes from Debian (`/usr/bin/chromium`, installed by .ci/run); Playwright never downloads a browser.
Selectors are those FIELD-NOTES found to work in JupyterLab 4.6.
"""
import os
import signal
import socket
import subprocess
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tools import notebook_run

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
TOKEN = "fbf-browser-test"
IDLE = ".jp-Notebook-ExecutionIndicator[data-status='idle']"
BADGE_HOST = "https://colab.research.google.com/"
# Some code cell queued ([*]) or run ([n]); a cell never run shows [ ].
CELLS_STARTED = """() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
  .some(p => /\\[(\\*|\\d+)\\]/.test(p.textContent))"""

needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium is not installed")


def free_port() -> int:
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


@contextmanager
def served_lab(folder: Path, scratch: Path):
    """JupyterLab serving `folder` through tools/lab.sh, with a student's kernel environment (grade profile,
    inline plots); yields the base URL. Stopped, with every process it started, on exit."""
    port = free_port()
    env = dict(notebook_run.kernel_env("grade", scratch), JUPYTER_TOKEN=TOKEN)
    lab = subprocess.Popen(["bash", str(ROOT / "tools" / "lab.sh"), str(port), str(folder)], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_for_server(f"{base}/api/status?token={TOKEN}", lab)
        yield base
    finally:
        os.killpg(lab.pid, signal.SIGTERM)
        lab.wait(timeout=30)


def _record_console_error(page, message):
    url = (message.location or {}).get("url", "")
    # The Open-in-Colab badge's image is the one thing a release notebook loads from elsewhere; offline it fails.
    if message.type == "error" and not url.startswith(BADGE_HOST):
        page.console_errors.append(f"{message.text} ({url})")


@contextmanager
def chromium_page(playwright, width=1400, height=1000):
    """A page in Debian's Chromium; `page.console_errors` collects console errors and uncaught exceptions."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    try:
        page = browser.new_page(viewport={"width": width, "height": height})
        page.console_errors = []
        page.on("console", lambda m: _record_console_error(page, m))
        page.on("pageerror", lambda e: page.console_errors.append(f"uncaught: {e}"))
        yield page
    finally:
        browser.close()


def open_notebook(page, base: str, name: str, timeout_ms=60_000):
    """Opens `name` alone: `reset` clears the workspace the server kept from the previous page, which would
    otherwise reopen the last notebook beside it (a hidden panel whose cells and indicator match first)."""
    page.goto(f"{base}/lab/tree/{name}?token={TOKEN}&reset")
    page.wait_for_selector(IDLE, timeout=timeout_ms)
    page.locator(".jp-NotebookPanel .jp-Cell").first.click()  # make the notebook the active panel


def run_all_cells(page, tries=3):
    """Run > Run All Cells, clicked again when no cell has started 20 s later: in one CI run the first notebook
    opened after JupyterLab started waited its 300 s and never finished (a lost click is the guess: no screenshot
    showed it). Clicked again only while no cell shows `[*]` or a number, so nothing runs twice."""
    for attempt in range(tries):
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-item:not(.lm-mod-disabled) .lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        try:
            page.wait_for_function(CELLS_STARTED, timeout=20_000, polling=250)
            return
        except PlaywrightTimeoutError:
            if attempt == tries - 1:
                raise
