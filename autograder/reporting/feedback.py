"""Feedback for the student: OUT_DIR/feedback/<student>/<assignment>/<notebook>.html, for a notebook handed in.

A heading with the score, the detail sentence and a link to each failed test cell; then the repaired notebook
with what each cell printed, its errors, and a verdict per test cell saying whether it passed (green or red).
A hidden test cell shows the text students were given (its release source), and only "hidden tests passed" or
"failed": never its source, output or traceback. Any line of any output that repeats a line of hidden test code
(a notebook could print it) is removed, and the repository's absolute path (in tracebacks through the `course`
package or the venv) is cut to a repository-relative one: the instructor's folders are not the student's business.

The page runs no script and loads nothing from elsewhere (templates/feedback: JupyterLab's page without its
require.js, MathJax, Mermaid and widget scripts): code and outputs are escaped by nbconvert's highlighting and
ANSI filters, the course's own markdown is rendered, and markdown a student wrote is shown as text in a fenced
block. nbconvert's HTML sanitizer (bleach) is therefore switched off, and so is its BeautifulSoup pass over the
finished page (alt texts for images, which feedback pages do not have, and tab stops): each cost more than
rendering the page.
"""
import html
import re
import threading
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter
from nbconvert.exporters.templateexporter import TemplateExporter
from nbconvert.filters.highlight import Highlight2HTML
from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter

from ..catalogue.diagnosis import test_owners
from ..course_root import Blueprint

HIDDEN_BLOCK = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.DOTALL)
MIN_SECRET_LINE = 12  # shorter lines (`assert x`, `)`) say nothing about a test
REMOVED = "[a line of hidden test code was removed here]"
_exporters = threading.local()
# The repository holding this package, the `course` package and the venv, as their files' paths spell it.
REPOSITORY_PREFIX = f"{Path(__file__).resolve().parents[2]}/"
TEMPLATES = Path(__file__).resolve().parent / "templates"


def _secret_lines(blueprint: Blueprint) -> set[str]:
    public = {line.strip() for cell in blueprint.cells for line in cell.release_source.splitlines()}
    return {line.strip() for cell in blueprint.tests for block in HIDDEN_BLOCK.findall(cell.source)
            for line in block.splitlines() if len(line.strip()) >= MIN_SECRET_LINE and line.strip() not in public}


def _redact(text: str, secrets: set[str]) -> str:
    """Output text fit for the student: repository paths shortened, lines of hidden test code removed."""
    text = text.replace(REPOSITORY_PREFIX, "")
    if not secrets:
        return text
    return "\n".join(REMOVED if any(secret in line for secret in secrets) else line for line in text.split("\n"))


def _outputs(result: dict, secrets: set[str]) -> list:
    outputs = []
    for name in ("stdout", "stderr"):
        if result.get(name):
            outputs.append(nbformat.v4.new_output("stream", name=name, text=_redact(result[name], secrets)))
    if "display" in result:
        shown = _redact(result["display"], secrets)
        outputs.append(nbformat.v4.new_output("execute_result", data={"text/plain": shown}, execution_count=None))
    if "error" in result:
        error = result["error"]
        outputs.append(nbformat.v4.new_output("error", ename=error["ename"], evalue=_redact(error["evalue"], secrets),
                                              traceback=_redact(error["traceback"], secrets).split("\n")))
    return outputs


def _note(passed: bool, why: str, points: float, hidden: bool) -> str:
    what = "Hidden tests" if hidden else "Test"
    earned = f"{points:g} of {points:g}" if passed else f"0 of {points:g}"
    noun = "point" if points == 1 else "points"
    return f"{what} {'passed' if passed else 'failed'} ({earned} {noun})" + (f": {why}" if why and not passed
                                                                             else "") + "."


def _verdict(passed: bool, text: str):
    """A test cell's verdict as an output the page colours (green passed, red failed); plain text beside it."""
    kind = "passed" if passed else "failed"
    return nbformat.v4.new_output("display_data", data={
        "text/html": f'<pre class="verdict verdict-{kind}">{html.escape(text)}</pre>', "text/plain": text})


def _failures_summary(failed: list[tuple[str, str]], mistakes: list[tuple[str, str]]) -> str:
    """Markdown for the heading: a link to each failed test cell and to each known mistake found (anchors on
    the page), in page order."""
    text = ""
    if failed:
        links = "\n".join(f"- [{html.escape(name)}](#cell-id={anchor})" for name, anchor in failed)
        text += f"\n\n**Failed test cells** (each link jumps to the cell):\n\n{links}"
    if mistakes:
        links = "\n".join(f"- [{html.escape(exercise)}](#cell-id={anchor})" for exercise, anchor in mistakes)
        text += f"\n\n**Exercises whose answer behaves like a known mistake:**\n\n{links}"
    return text


def _known_mistakes(found: list) -> str:
    """An exercise's diagnoses as the page shows them, under its last test cell: what the mistake is, and where
    in the statement to look (the catalogue's words, escaped)."""
    items = "".join(f"<p><strong>Your answer behaves like a known mistake:</strong> "
                    f"{html.escape(d.description[:1].upper() + d.description[1:])}"
                    + (f"<br><strong>Hint:</strong> {html.escape(d.hint)}" if d.hint else "") + "</p>"
                    for d in found)
    return f'<div class="known-mistake">{items}</div>'


def notebook(blueprint: Blueprint, repaired, results: dict, notes: dict, heading: str, diagnoses=()):
    """The feedback notebook: a heading cell (the score, the detail and a link to every failed test cell and
    known mistake), then the repaired notebook's cells with outputs and a coloured verdict under each test cell,
    and under the last test cell of an exercise that behaves like a known mistake (`diagnoses`), what it is."""
    secrets = _secret_lines(blueprint)
    cells = [nbformat.v4.new_markdown_cell(heading)]
    failed = []  # (what the link says, anchor) of each failed test cell
    owner = test_owners(blueprint)
    last_test = {owner[c.metadata["nbgrader"]["grade_id"]]: index for index, c in enumerate(repaired.cells)
                 if c.metadata.get("nbgrader", {}).get("grade_id") in owner} if repaired is not None else {}
    mistakes = []  # (exercise, anchor) of each exercise with a diagnosis
    for index, cell in enumerate(repaired.cells if repaired is not None else []):
        meta = cell.metadata.get("nbgrader", {})
        known = blueprint.cell(meta.get("grade_id")) if meta else None
        if cell.cell_type != "code":
            trusted = known is not None and known.role == "locked"
            cells.append(nbformat.v4.new_markdown_cell(cell.source if trusted else _as_text(cell.source)))
            continue
        hidden = bool(known and known.hidden)
        source = (known.release_source or "# Hidden tests") if hidden else cell.source
        shown = nbformat.v4.new_code_cell(source)
        result = results.get(index)
        if result is not None and not hidden:
            shown.outputs = _outputs(result, secrets)
        if index in notes:
            passed, why = notes[index]
            shown.outputs.append(_verdict(passed, _note(passed, why, known.points, hidden)))
            if not passed:
                shown.metadata["tags"] = ["failed-test"]
                failed.append((f"{known.grade_id}{' (hidden tests)' if hidden else ''}", f"cell-{len(cells)}"))
        cells.append(shown)
        found = [d for d in diagnoses if last_test.get(d.exercise) == index]
        if found:
            mistakes.append((found[0].exercise, f"cell-{len(cells)}"))
            cells.append(nbformat.v4.new_markdown_cell(_known_mistakes(found)))
    cells[0].source += _failures_summary(failed, mistakes)
    nb = nbformat.v4.new_notebook(cells=cells, metadata={"language_info": {"name": "python"}})
    for index, cell in enumerate(nb.cells):
        cell.id = f"cell-{index}"
    return nb


def _as_text(text: str) -> str:
    """Markdown that shows `text` verbatim: a fence longer than any run of backticks in it, so nothing in the
    text can close the fence and be rendered as HTML."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}text\n{text}\n{fence}"


def heading(notebook: str, score: float, max_score: float, detail: str) -> str:
    """The first cell: the score and the detail sentence (which can quote file names: escaped)."""
    return f"# Feedback: {notebook}\n\n**{score:g} of {max_score:g} points.** {html.escape(detail)}"


def _unchanged(text: str) -> str:
    return text


class FeedbackExporter(HTMLExporter):
    """HTMLExporter rendering templates/feedback, without the BeautifulSoup pass of its from_notebook_node: the same
    filters registered, then the template rendered as it is."""

    def from_notebook_node(self, nb, resources=None, **kw):
        resources = self._init_resources(resources)
        self.register_filter("highlight_code", Highlight2HTML(pygments_lexer="python", parent=self))
        self.register_filter("filter_data_type", WidgetsDataTypeFilter(notebook_metadata=self._nb_metadata,
                                                                       parent=self, resources=resources))
        return TemplateExporter.from_notebook_node(self, nb, resources, **kw)


def write_html(nb, path: Path) -> None:
    exporter = getattr(_exporters, "html", None)
    if exporter is None:  # one per thread: an exporter keeps render state
        exporter = _exporters.html = FeedbackExporter(template_name="feedback", extra_template_basedirs=[str(TEMPLATES)],
                                                      filters={"clean_html": _unchanged})
    body, _ = exporter.from_notebook_node(nb)
    path.parent.mkdir(parents=True, exist_ok=True)
    # A notebook's text can hold lone surrogates (from a file name, say): written escaped, never an error.
    path.write_bytes(body.encode("utf-8", "backslashreplace"))
