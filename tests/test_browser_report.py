"""report.html in headless Chromium, opened from disk: every figure decodes and shows, and the page asks for
nothing beyond itself (every request is routed here; any that is not the page's own file or a data: URL fails
the test). Chromium comes from Debian (`/usr/bin/chromium`); Playwright never downloads a browser."""
from pathlib import Path

import pytest

from autograder.reporting import class_report
from autograder.grading.batch import NotebookResult
from autograder.grading.scoring import CellScore

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium is not installed")


def _class() -> list[NotebookResult]:
    """Two assignments; wrong answers whose messages differ in a number; a student's message holding HTML."""
    results = []
    for n in range(12):
        message = f"AssertionError: loss: expected 0.25, got {n / 10} (difference {abs(n / 10 - 0.25):.2e})"
        ok = n % 3 == 0
        cells = (CellScore("test_loss", 1.0 if ok or n % 2 else 0.0, 1.0, False, "" if ok or n % 2 else message),
                 CellScore("test_loss_hidden", 2.0 if ok else 0.0, 2.0, True, "" if ok else message))
        results.append(NotebookResult(f"student{n:02d}", "a1", "a1", "graded", "…", cells,
                                      ("cell 'x' tried os.system (refused)",) if n == 5 else ()))
        results.append(NotebookResult(f"student{n:02d}", "a2", "a2", "missing" if n == 7 else "graded", "…",
                                      (CellScore("test_b", 0.0, 1.0, False, '<img src="http://example.invalid/">'),)))
    return results


def test_report_renders_every_figure_and_requests_nothing_from_elsewhere(tmp_path):
    from playwright.sync_api import sync_playwright

    class_report.write(_class(), tmp_path)
    page_url = (tmp_path / "report.html").resolve().as_uri()
    requested, refused = [], []

    def route(request_route):
        url = request_route.request.url
        requested.append(url)
        if url == page_url or url.startswith("data:"):
            request_route.continue_()
        else:
            refused.append(url)
            request_route.abort()

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.route("**/*", route)
            failed = []
            page.on("requestfailed", lambda request: failed.append(request.url))
            page.goto(page_url, wait_until="load")
            images = page.evaluate("() => [...document.images].map(i => [i.complete, i.naturalWidth, "
                                   "i.getBoundingClientRect().width, i.src.slice(0, 22)])")
            scripts = page.evaluate("() => document.scripts.length")
            page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        finally:
            browser.close()
    # Two assignments: a score histogram and a pass-rate chart each.
    assert len(images) == 4
    assert all(done and natural > 0 and shown > 0 and src == "data:image/png;base64," for done, natural, shown, src
               in images), images
    assert scripts == 0
    assert refused == [] and failed == [], (refused, failed)
    assert page_url in requested  # the route saw the page itself: it is in force
