"""The learning-rate slider, wired for real: JupyterLab in headless Chromium, drag the slider, see a new plot.

Headless executors keep only the widget model, not the plot a callback draws (FIELD-NOTES), so the pure
callback is unit-tested in test_course.py and the wiring is tested here.
"""
import nbformat
from lab_browser import chromium_page, needs_chromium, open_notebook, run_all_cells, served_lab

pytestmark = needs_chromium


def test_dragging_the_lr_slider_redraws_the_plot(tmp_path):
    from playwright.sync_api import sync_playwright

    served = tmp_path / "served"
    served.mkdir()
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_code_cell("from course import widgets\nwidgets.lr_slider(steps=10, initial_lr=0.01)"))
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
        for _ in range(10):
            handle.press("ArrowRight")
        page.wait_for_function(
            "([old]) => { const img = document.querySelector('.jp-OutputArea-output img');"
            " return img && img.getAttribute('src') !== old; }", arg=[before_plot], timeout=30_000)
        page.screenshot(path=str(tmp_path / "slider.png"))
        after_value = readout.inner_text()
    assert float(after_value) > float(before_value), (before_value, after_value)
