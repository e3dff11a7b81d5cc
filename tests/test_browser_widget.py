"""The sliders, wired for real: JupyterLab in headless Chromium, move a slider, see a new plot.

Headless executors keep only the widget model, not the plot a callback draws (FIELD-NOTES), so the pure
callbacks are unit-tested (test_course.py, test_course_ch03.py) and the wiring is tested here.
"""
import nbformat
from playwright.sync_api import sync_playwright
from lab_browser import IDLE, chromium_page, needs_chromium, open_notebook, run_all_cells, served_lab

pytestmark = needs_chromium
NEW_PLOT = ("([old]) => { const img = document.querySelector('.jp-OutputArea-output img');"
            " return img && img.getAttribute('src') !== old; }")


def _move_first_slider(tmp_path, code: str, presses: int) -> tuple[str, str]:
    """Runs a one-cell notebook showing a slider, presses ArrowRight on the first slider's handle `presses` times
    and waits for the plot to be redrawn; returns the slider's readout before and after."""
    served = tmp_path / "served"
    served.mkdir()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, served / "slider.ipynb")

    with served_lab(served, tmp_path) as base, sync_playwright() as p, chromium_page(p) as page:
        open_notebook(page, base, "slider.ipynb")
        run_all_cells(page)
        page.wait_for_selector(".jp-OutputArea-output img", timeout=60_000)
        readout = page.locator(".widget-readout").first
        before_value = readout.inner_text()
        before_plot = page.locator(".jp-OutputArea-output img").first.get_attribute("src")
        handle = page.locator(".noUi-handle").first
        handle.focus()
        for _ in range(presses):
            handle.press("ArrowRight")
        page.wait_for_function(NEW_PLOT, arg=[before_plot], timeout=30_000)
        page.wait_for_selector(IDLE, timeout=30_000)
        page.screenshot(path=str(tmp_path / "slider.png"))
        return before_value, readout.inner_text()


def test_dragging_the_lr_slider_redraws_the_plot(tmp_path):
    before, after = _move_first_slider(tmp_path, "from course import widgets\n"
                                                 "widgets.lr_slider(steps=10, initial_lr=0.01)", presses=10)
    assert float(after) > float(before), (before, after)


def test_moving_the_batch_size_slider_redraws_the_plot(tmp_path):
    """Chapter 3's slider: the batch-size slider comes first; a larger batch, a new loss curve and memory bar."""
    before, after = _move_first_slider(
        tmp_path, "from course import widgets\n"
                  "widgets.batch_slider(lambda b: {'fixed': 2**20, 'activations': 2**16 * b}, budget_bytes=2**22, "
                  "steps=20)", presses=3)
    assert int(after) > int(before), (before, after)
