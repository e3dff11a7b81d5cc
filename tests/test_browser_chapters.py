"""Every chapter in a real browser, as a student who finished it has it: JupyterLab (served as `make lab` serves
it) in headless Chromium runs all cells of the student copy with the reference solutions put in, in the grade
profile; the saved notebook holds no error and nothing on stderr, and the page logs no console error. Then
nbgrader's Validate button: the finished copy is reported as passing, the blank release copy as failing.

Screenshots go to build/screenshots/ (printed at the end of the test run); README shows one per chapter from
docs/screenshots/.
"""
import shutil

import nbformat
import pytest
from conftest import SCREENSHOTS
from lab_browser import ROOT, chromium_page, needs_chromium, open_notebook, run_all_cells, served_lab
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tools import notebook_run

pytestmark = needs_chromium

CHAPTERS = notebook_run.chapters()
VALIDATED = "ch02_backpropagation"  # quick to run, no torch.compile
# Done: every code cell numbered, or an error stopped Run All (tracebacks render as stderr) and nothing runs.
# A cell whose input is folded (the setup cell) shows no prompt at all.
RUN_ALL_DONE = """() => {
  const prompts = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')]
    .map(p => p.textContent.trim()).filter(t => t !== '');
  const stopped = document.querySelector(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']");
  return prompts.length > 0 && (prompts.every(t => /\\[\\d+\\]/.test(t)) || (stopped && !prompts.some(t => t.includes('*'))));
}"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """The served folder, like notebooks/ after `make lab`: each chapter finished, plus a blank copy of one."""
    folder = tmp_path_factory.mktemp("notebooks")
    for chapter in CHAPTERS:
        (folder / chapter).mkdir()
        for extra in notebook_run.release_notebook(chapter).parent.iterdir():
            if extra.suffix != ".ipynb":
                shutil.copy(extra, folder / chapter)
        nbformat.write(notebook_run.solved_release(chapter), folder / chapter / f"{chapter}.ipynb")
    blank = folder / "blank"
    blank.mkdir()
    shutil.copy(notebook_run.release_notebook(VALIDATED), blank / f"{VALIDATED}.ipynb")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with served_lab(folder, tmp_path_factory.mktemp("scratch")) as base:
        yield folder, base


@pytest.fixture
def page(lab):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p, chromium_page(p) as page:
        yield page


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_finished_chapter_runs_clean_in_jupyterlab(lab, page, chapter):
    folder, base = lab
    open_notebook(page, base, f"{chapter}/{chapter}.ipynb")
    run_all_cells(page)
    try:
        page.wait_for_function(RUN_ALL_DONE, timeout=300_000, polling=1000)
    except PlaywrightTimeoutError:
        page.screenshot(path=str(SCREENSHOTS / f"{chapter}-unfinished.png"))   # what it showed, for the CI log
        raise
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']", timeout=60_000)
    page.keyboard.press("Control+s")
    page.wait_for_function("() => !document.querySelector('.jp-mod-dirty')", timeout=30_000)
    page.screenshot(path=str(SCREENSHOTS / f"{chapter}.png"))
    saved = nbformat.read(folder / chapter / f"{chapter}.ipynb", as_version=4)
    assert notebook_run.problems(saved) == [], chapter
    assert page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0
    assert page.console_errors == [], page.console_errors


def _validate(page, base, path):
    open_notebook(page, base, path)
    page.locator(".validate-button button, button.validate-button").first.click()
    page.wait_for_selector(".validation-success, .validation-failed", timeout=480_000)
    return page.locator(".jp-Dialog").first


def test_validate_passes_the_finished_copy(lab, page):
    folder, base = lab
    dialog = _validate(page, base, f"{VALIDATED}/{VALIDATED}.ipynb")
    page.screenshot(path=str(SCREENSHOTS / "validate-finished.png"))
    assert dialog.locator(".validation-success").count() == 1, dialog.inner_text()
    assert "passes all the tests" in dialog.inner_text()


def test_validate_reports_failures_in_the_blank_copy(lab, page):
    folder, base = lab
    dialog = _validate(page, base, f"blank/{VALIDATED}.ipynb")
    page.screenshot(path=str(SCREENSHOTS / "validate-blank.png"))
    assert dialog.locator(".validation-failed").count() == 1, dialog.inner_text()
    assert "NotImplementedError" in dialog.inner_text()
