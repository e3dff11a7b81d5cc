"""A chapter as a page: the student's notebook, with what the reference run printed and drew.

The page is the release notebook (statements, stubs, visible tests), less its Colab badge and setup cell, and
each of its code cells gets the outputs of the same cell (by cell id) in the executed source notebook, except
where an output could give a solution away:
- a solution cell shows its stub and no output (the reference's own output would be the answer);
- a test cell that holds hidden tests shows its release text and no output (hidden tests may print);
- every other output loses any line that repeats a protected line (a traceback or a print quoting solution code),
  and a rich representation (HTML, Markdown, LaTeX, SVG) that holds one is dropped for its plain text;
- error outputs are dropped; widget views become stills (widgets.still_outputs); representations a static page
  cannot show offline (scripts, other widget data) are dropped.
"""
import base64
import copy
import html

import nbformat

from autograder import setup_cell
from tools import notebook_run

from . import leaks, widgets
from .config import SiteError

# Representations kept on a page; the rest (application/javascript, widget state, vendor types) need a kernel,
# a script or the network.
SHOWN = ("text/html", "text/markdown", "text/latex", "image/svg+xml", "image/png", "image/jpeg", "image/gif",
         "text/plain")
IMAGES = ("image/png", "image/jpeg", "image/gif", "image/svg+xml")
REPOSITORY_PREFIX = f"{notebook_run.ROOT}/"


def _clean_text(text: str, protected) -> str:
    return leaks.redact(text.replace(REPOSITORY_PREFIX, ""), protected)


def _joined(value):
    return "".join(value) if isinstance(value, list) else value


def _safe_bundle(data: dict, protected) -> dict:
    kept = {}
    for mime in SHOWN:
        if mime not in data:
            continue
        value = data[mime]
        if mime == "text/plain":
            kept[mime] = _clean_text(_joined(value), protected)
        elif mime.startswith("text/") or mime == "image/svg+xml":
            text = _joined(value).replace(REPOSITORY_PREFIX, "")
            if not leaks.contains_protected(html.unescape(text), protected):
                kept[mime] = text
        else:
            kept[mime] = value
    return kept


def safe_outputs(outputs, models: dict, protected) -> list:
    """The outputs of a cell as a page may show them (see the module's docstring)."""
    shown = []
    for output in outputs:
        kind = output.get("output_type")
        if kind == "stream":
            shown.append(nbformat.v4.new_output("stream", name=output.name,
                                                text=_clean_text(_joined(output.text), protected)))
        elif kind in ("display_data", "execute_result"):
            if widgets.is_widget_view(output):
                shown += safe_outputs(widgets.still_outputs(output, models), {}, protected)
                continue
            data = _safe_bundle(output.get("data", {}), protected)
            if data:
                metadata = {k: v for k, v in output.get("metadata", {}).items() if k in SHOWN}
                shown.append(nbformat.v4.new_output("display_data", data=data, metadata=metadata))
    return shown


def _links(chapter: str, colab: str | None) -> str:
    links = [f"[Open in Colab]({colab})"] if colab else []
    links.append(f"{{download}}`Download this notebook <notebooks/{chapter}.ipynb>`")
    return ":::{container} fbf-chapter-links\n" + "\n".join(links) + "\n:::"


def _about(profile: str) -> str:
    return (":::{note}\nThis page is the notebook a student gets, with every output of a run of the reference "
            f"solutions in the `{profile}` profile. Exercises show the stub to fill in and the visible tests; "
            "the reference solutions and the hidden tests that grading adds are not on this site.\n:::")


def _with_header(cell, header: str):
    """A markdown cell with `header` right after its `# title` line (or before its text if it has none)."""
    lines = cell.source.split("\n")
    if lines and lines[0].startswith("# "):
        cell.source = "\n".join([lines[0], "", header, "", *lines[1:]])
    else:
        cell.source = f"{header}\n\n{cell.source}"
    return cell


def chapter_page(chapter: str, executed, release, protected: set, profile: str, colab: str | None):
    """The page notebook of `chapter` from its executed source notebook and its release notebook."""
    ran = {cell.get("id"): cell for cell in executed.cells}
    models = widgets.widget_models(executed)
    cells = []
    for cell in release.cells:
        if setup_cell.is_setup_cell(cell):
            continue
        grading = cell.metadata.get("nbgrader", {})
        page_cell = copy.deepcopy(cell)
        page_cell.metadata = {}
        if cell.cell_type == "code":
            source = ran.get(cell.get("id"))
            if source is None:
                raise SiteError(f"{chapter}: release cell {cell.get('id')} is not in the source notebook: "
                                "run `make release`")
            hides = grading.get("solution") or leaks.has_protected_block(source.source)
            if not hides and source.source != cell.source:
                raise SiteError(f"{chapter}: cell {cell.get('id')} differs between source/ and release/: "
                                "run `make release`")
            page_cell.outputs = [] if hides else safe_outputs(source.outputs, models, protected)
            page_cell.execution_count = source.get("execution_count")
        cells.append(page_cell)
    first_markdown = next((c for c in cells if c.cell_type == "markdown"), None)
    header = _links(chapter, colab) + "\n\n" + _about(profile)
    if first_markdown is None:
        cells.insert(0, nbformat.v4.new_markdown_cell(header))
    else:
        _with_header(first_markdown, header)
    page = nbformat.v4.new_notebook(cells=cells)
    page.metadata = {k: copy.deepcopy(v) for k, v in executed.metadata.items() if k in ("kernelspec", "language_info")}
    return page


def title(page) -> str:
    """The text of the page's first `# ` heading."""
    for cell in page.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    raise SiteError("a chapter notebook without a `# ` title")


def first_image(page, cell_id: str | None):
    """(cell id, file suffix, bytes or text) of the first image the page shows in cell `cell_id` (in any cell
    when None); None when there is none."""
    for cell in page.cells:
        if cell.cell_type != "code" or (cell_id is not None and cell.get("id") != cell_id):
            continue
        for output in cell.outputs:
            for mime in IMAGES:
                if mime in output.get("data", {}):
                    value = _joined(output["data"][mime])
                    content = value.encode() if mime == "image/svg+xml" else base64.b64decode(value)
                    return cell.get("id"), "." + mime.split("/")[1].split("+")[0], content
    return None
