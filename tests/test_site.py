"""The course website (tools/site, `make site`), built once here in the grade profile from the notebook runs the
suite already does (tests/conftest.py's grade_run): one page per chapter with its figures, the student's view
and nothing more (no line of a reference solution or a hidden test in any built file), stills for widgets, the
Colab and download links, a cache that runs a chapter once per change; then every page in Chromium (no console
error, no broken local link or image, nothing fetched from elsewhere, math typeset, search, a phone's width)."""
import functools
import http.server
import json
import re
import threading
import time
from contextlib import contextmanager
from html import unescape
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
import pytest

from autograder import setup_cell
from lab_browser import chromium_page, needs_chromium
from tools import notebook_run
from tools.site import build, config, execution, leaks, pages, widgets

REPO_ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = notebook_run.chapters()
CACHE = REPO_ROOT / "build" / "site-cache"  # MathJax, shared with `make site`
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def site(grade_run, tmp_path_factory):
    base = tmp_path_factory.mktemp("site")
    return build.build_site(base / "site", base / "work", CACHE, "grade", lambda chapter: grade_run(chapter)[0],
                            log=lambda *_: None)


def _page_notebook(site, chapter):
    return nbformat.read(site.project / f"{chapter}.ipynb", as_version=4)


def _html(site, name):
    return (site.out / name).read_text(encoding="utf-8")


def _public_code_cells(chapter, executed):
    """(release cell, executed source cell) for every code cell a page shows with its outputs."""
    ran = {cell.get("id"): cell for cell in executed.cells}
    release = nbformat.read(notebook_run.release_notebook(chapter), as_version=4)
    for cell in release.cells:
        if cell.cell_type != "code" or setup_cell.is_setup_cell(cell):
            continue
        source = ran[cell.get("id")]
        if not cell.metadata.get("nbgrader", {}).get("solution") and not leaks.has_protected_block(source.source):
            yield cell, source


def _text(html: str) -> str:
    """What a page reads (docutils turns ' into ’)."""
    return unescape(re.sub(r"<[^>]+>", "", html)).replace("\u2019", "'")


def _images_in(outputs):
    return sum(1 for output in outputs for mime in pages.IMAGES if mime in output.get("data", {}))


def test_the_site_has_a_landing_page_and_a_page_per_chapter_holding_its_figures(site, grade_run, measured):
    measured(f"site built from the grade runs in {site.seconds:.1f} s (their executions included unless "
             "tests/test_notebooks.py ran them first)")
    index = _html(site, "index.html")
    for chapter in CHAPTERS:
        html = _html(site, f"{chapter}.html")
        executed, _ = grade_run(chapter)
        expected = sum(_images_in(source.outputs) for _, source in _public_code_cells(chapter, executed))
        shown = re.findall(r'<img [^>]*src="(_images/[^"]+)"', html)
        assert expected > 0 and len(shown) >= expected, (chapter, expected, shown)
        assert all((site.out / unquote(src)).is_file() for src in shown), chapter
        # the landing page: the chapter's title, its line and its key figure, linking to the chapter's page
        summary = next(s for s in site.chapters if s["name"] == chapter)
        figure = re.escape(f'_images/{summary["figure"]}')
        assert re.search(rf'<a [^>]*href="{chapter}.html"[^>]*>(<span[^>]*>)?<img [^>]*src="{figure}"', index), chapter
        assert summary["title"] in _text(index) and " ".join(summary["line"].split()[:4]) in _text(index)


def test_site_toml_gives_every_chapter_its_line_and_an_existing_key_figure(site):
    settings = config.load()
    assert sorted(settings.chapters) == CHAPTERS, "tools/site/site.toml: one entry per chapter under source/"
    assert site.warnings == []
    for summary in site.chapters:
        assert summary["figure_cell"] == settings.chapter(summary["name"]).figure


def test_no_line_of_a_reference_solution_or_hidden_test_reaches_any_built_file(site, grade_run, tmp_path):
    protected = leaks.protected_lines(CHAPTERS)
    assert len(protected) > 500  # the check has lines to look for: every chapter's solutions and hidden tests
    skip = leaks.vendored(*CACHE.glob("mathjax-*/**/*.js"))
    assert leaks.find_leaks(site.out, protected, skip) == []
    assert leaks.find_leaks(site.project, protected, skip) == []
    # Only the tools' own scripts and stylesheets are skipped, never a page, an index or a notebook.
    skipped = [p.relative_to(site.out).as_posix() for p in site.out.rglob("*") if p.is_file()
               and p.suffix in leaks.TEXT_SUFFIXES and leaks.digest(p.read_bytes()) in skip]
    assert skipped and all(path.startswith("_static/") for path in skipped), skipped
    # The same search finds every one of them in the notebooks the pages were made from.
    for chapter in CHAPTERS:
        nbformat.write(grade_run(chapter)[0], tmp_path / f"{chapter}.ipynb")
    assert {line for _, line in leaks.find_leaks(tmp_path, protected)} == protected


def test_find_leaks_reads_highlighted_pages_escaped_json_and_the_search_index(tmp_path):
    secret = 'return {"mean": t.mean().item()}'
    spans = ('<pre><span class="k">return</span> <span class="p">{</span><span class="s2">&quot;mean&quot;</span>'
             '<span class="p">:</span> <span class="n">t</span><span class="o">.</span><span class="n">mean</span>'
             '<span class="p">()</span><span class="o">.</span><span class="n">item</span><span class="p">()}</span>'
             '</pre>')
    (tmp_path / "page.html").write_text(f"<html><body>{spans}</body></html>")
    (tmp_path / "searchindex.js").write_text("Search.setIndex(" + json.dumps({"titles": [secret]}) + ")")
    (tmp_path / "nb.ipynb").write_text(json.dumps({"cells": [{"source": ["x = 1\n", f"    {secret}\n"]}]}))
    (tmp_path / "vendored.js").write_text(f"// {secret}")
    found = leaks.find_leaks(tmp_path, {secret}, leaks.vendored(tmp_path / "vendored.js"))
    assert sorted(path for path, _ in found) == ["nb.ipynb", "page.html", "searchindex.js"]


def test_pages_show_statements_stubs_and_visible_tests_and_no_solution_cell_output(site):
    for chapter in CHAPTERS:
        page = {cell.get("id"): cell for cell in _page_notebook(site, chapter).cells}
        release = nbformat.read(notebook_run.release_notebook(chapter), as_version=4)
        text = _text(_html(site, f"{chapter}.html"))
        for cell in release.cells:
            if setup_cell.is_setup_cell(cell):
                assert cell.get("id") not in page  # no badge image fetched from Colab, no setup cell
                continue
            shown = page[cell.get("id")]
            if cell.cell_type == "code":
                assert shown.source == cell.source, (chapter, cell.get("id"))
            else:
                assert all(line in shown.source for line in cell.source.splitlines()), (chapter, cell.get("id"))
            if cell.metadata.get("nbgrader", {}).get("solution"):
                assert shown.outputs == [], (chapter, cell.get("id"))
                assert all(line.strip() in text for line in cell.source.splitlines()), (chapter, cell.get("id"))


def _widget_cells(executed):
    for cell in executed.cells:
        if cell.cell_type == "code" and any(widgets.is_widget_view(o) for o in cell.outputs):
            yield cell


def test_widget_views_become_stills_and_no_widget_script_is_loaded(site, grade_run):
    seen = 0
    for chapter in CHAPTERS:
        executed, _ = grade_run(chapter)
        page = {cell.get("id"): cell for cell in _page_notebook(site, chapter).cells}
        models = widgets.widget_models(executed)
        for cell in _widget_cells(executed):
            seen += 1
            shown = page[cell.get("id")].outputs
            said = "".join(o.get("data", {}).get("text/plain", "") for o in shown)
            assert not any(widgets.is_widget_view(o) for o in shown), (chapter, cell.get("id"))
            assert _images_in(shown) >= _images_in(cell.outputs), (chapter, cell.get("id"))
            for view in filter(widgets.is_widget_view, cell.outputs):
                for control in widgets.controls(view, models):
                    assert f"{control['description']} = " in said, (chapter, cell.get("id"), said)
        html = _html(site, f"{chapter}.html")
        assert "widget-view+json" not in html and "jupyter-widgets" not in html and "require.js" not in html
    assert seen >= 2  # ch01's learning-rate slider, ch03's batch-size slider, ch05's progress bar


def test_each_chapter_links_colab_and_serves_its_release_notebook(site):
    settings = setup_cell.course_settings(REPO_ROOT)
    for chapter in CHAPTERS:
        html = _html(site, f"{chapter}.html")
        colab = setup_cell.colab_url(settings, chapter)
        assert colab and f'href="{colab}"' in html
        (link,) = re.findall(r"<a [^>]*\bdownload\b[^>]*>", html)
        href = re.search(r'href="([^"]+)"', link).group(1)
        assert (site.out / unquote(href)).read_bytes() == notebook_run.release_notebook(chapter).read_bytes()


def test_execution_cache_key_follows_the_notebook_the_course_package_and_the_profile(tmp_path):
    source = tmp_path / "ch.ipynb"
    source.write_text("{}")
    course = tmp_path / "course"
    course.mkdir()
    (course / "a.py").write_text("x = 1\n")
    key = execution.cache_key(source, "cpu", course, environ={})
    assert execution.cache_key(source, "cpu", course, environ={}) == key
    assert execution.cache_key(source, "grade", course, environ={}) != key
    assert execution.cache_key(source, "cpu", course, environ={"COURSE_THREADS": "2"}) != key
    (course / "a.py").write_text("x = 2\n")
    changed_course = execution.cache_key(source, "cpu", course, environ={})
    assert changed_course != key
    (course / "b.py").write_text("")
    assert execution.cache_key(source, "cpu", course, environ={}) != changed_course
    source.write_text('{"cells": []}')
    assert execution.cache_key(source, "cpu", course, environ={}) not in (key, changed_course)


def test_execution_cache_runs_a_chapter_once_until_its_key_changes(tmp_path, monkeypatch):
    runs = []

    def run(chapter, profile):
        runs.append(chapter)
        return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")]), 0.0

    cache = execution.ExecutionCache(tmp_path, "grade", run=run, log=lambda *_: None)
    chapter = CHAPTERS[0]
    cache(chapter)
    cache(chapter)
    assert runs == [chapter]
    monkeypatch.setattr(execution, "RUN_RECIPE", "changed")
    cache(chapter)
    assert runs == [chapter, chapter]
    assert len(list(tmp_path.glob(f"{chapter}.grade.*.ipynb"))) == 1  # the outdated run is gone


# ---------------------------------------------------------------- in Chromium


@contextmanager
def _served(folder: Path):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def _ids(path: Path) -> set:
    return set(re.findall(r'\sid="([^"]+)"', path.read_text(encoding="utf-8")))


def _broken_local_links(site_dir: Path, base: str, hrefs: list) -> list:
    broken = []
    for href in hrefs:
        if not href.startswith(base):
            continue
        parts = urlsplit(href)
        target = site_dir / unquote(parts.path[len(urlsplit(base).path):])
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            broken.append(href)
        elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in _ids(target):
            broken.append(href)
    return broken


def _load(page, url):
    page.goto(url, wait_until="load")
    # MathJax typesets after load; wait for it where the page loads it
    page.wait_for_function("() => !window.MathJax || (MathJax.startup && MathJax.startup.promise)", timeout=30_000)
    page.evaluate("() => window.MathJax ? MathJax.startup.promise.then(() => true) : true")


@needs_chromium
def test_every_page_loads_clean_in_chromium_searches_and_fits_a_phone(site, measured):
    from playwright.sync_api import sync_playwright

    start = time.perf_counter()
    html_pages = sorted(p.relative_to(site.out).as_posix() for p in site.out.glob("*.html"))
    assert {f"{c}.html" for c in CHAPTERS} | {"index.html", "search.html"} <= set(html_pages)
    refused, problems, typeset = [], {}, {}
    with _served(site.out) as base, sync_playwright() as playwright, chromium_page(playwright) as page:
        def route(request_route):
            url = request_route.request.url
            if url.startswith(base) or url.startswith("data:"):
                request_route.continue_()
            else:
                refused.append((page.url, url))
                request_route.abort()

        page.context.route("**/*", route)
        failed = []
        page.on("requestfailed", lambda request: failed.append(request.url))
        page.on("response", lambda response: failed.append(f"{response.status} {response.url}")
                if response.status >= 400 else None)
        for name in html_pages:
            _load(page, base + name)
            images = page.evaluate("() => [...document.images].filter(i => !i.complete || i.naturalWidth === 0)"
                                   ".map(i => i.src)")
            hrefs = page.evaluate("() => [...document.querySelectorAll('a[href]')].map(a => a.href)")
            broken = _broken_local_links(site.out, base, hrefs)
            if images or broken or page.console_errors:
                problems[name] = {"images": images, "links": broken, "console": list(page.console_errors)}
            page.console_errors.clear()
            typeset[name] = page.evaluate("() => [document.querySelectorAll('mjx-container').length, "
                                          "document.querySelectorAll('mjx-merror, [data-mjx-error]').length, "
                                          "document.querySelectorAll('.math').length]")
        # Search: each chapter's first exercise name finds that chapter's page.
        for chapter in CHAPTERS:
            release = nbformat.read(notebook_run.release_notebook(chapter), as_version=4)
            term = next(c.metadata["nbgrader"]["grade_id"] for c in release.cells
                        if c.metadata.get("nbgrader", {}).get("solution"))
            _load(page, f"{base}search.html?q={term}")
            page.wait_for_selector("#search-results .search-summary, #search-results p", timeout=30_000)
            found = page.evaluate("() => [...document.querySelectorAll('#search-results a')].map(a => a.href)")
            assert any(href.split("#")[0].endswith(f"/{chapter}.html") for href in found), (term, found)
        # A phone: no page is wider than the screen (wide code, outputs, tables and formulas scroll in place).
        page.set_viewport_size(PHONE)
        too_wide = {}
        for name in ["index.html", *(f"{c}.html" for c in CHAPTERS)]:
            _load(page, base + name)
            width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
            if width[0] > width[1]:
                too_wide[name] = width
        assert page.console_errors == []
    measured(f"{len(html_pages)} pages, {len(CHAPTERS)} searches and {len(CHAPTERS) + 1} phone views in "
             f"{time.perf_counter() - start:.1f} s")
    assert refused == [], refused
    assert problems == {} and failed == [], (problems, failed)
    assert too_wide == {}, too_wide
    with_math = {name: counts for name, counts in typeset.items() if counts[2]}
    assert with_math and all(shown > 0 and errors == 0 for shown, errors, _ in with_math.values()), typeset
