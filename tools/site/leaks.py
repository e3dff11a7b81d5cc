"""What must never reach the site (every line of a reference solution or of a hidden test) and the check that
none does.

A protected line is a line of a `### BEGIN SOLUTION` or `### BEGIN HIDDEN TESTS` block, stripped, at least
MIN_LINE characters long, that no release notebook already shows (not even inside a longer line): a line the
student copy prints (a visible test's loop, a stub's signature) is no secret.

`find_leaks` reads every file of a built site the way a reader or a crawler could: the text of each HTML page
(so a line split into highlighted spans is found), its markup with entities decoded, and every string of a JSON
or JavaScript file (the search index, notebooks) with escapes decoded. Files identical to a file that the site's
tools ship (`vendored`: Sphinx's and the theme's scripts, the MathJax bundle) are not course content and are
skipped.
"""
import hashlib
import html
import importlib.metadata
import json
import re
from pathlib import Path

import nbformat

from autograder.reporting.feedback import HIDDEN_BLOCK
from tools import notebook_run

SOLUTION_BLOCK = re.compile(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", re.DOTALL)
MARKUP = re.compile(r"[`*]")
TAG = re.compile(r"<[^>]*>")
WORD = re.compile(r"\w+")
MIN_LINE = 8  # shorter lines (`)`, `pass`, `x = 0`) say nothing about a solution
REMOVED = "[a line of reference-solution or hidden-test code was removed here]"
# The site's tools: files they ship and Sphinx copies verbatim (scripts, stylesheets, source maps) cannot hold
# course content, and some hold generic lines (`return result`) that a solution may share.
TOOLS = ("sphinx", "pydata-sphinx-theme", "sphinx-book-theme", "myst-nb", "myst-parser")
TEXT_SUFFIXES = {".html", ".htm", ".js", ".json", ".ipynb", ".txt", ".css", ".svg", ".xml", ".md", ".map"}


def _cell_lines(nb):
    """The stripped lines of every cell; a markdown line also as it reads rendered (no backticks, no emphasis)."""
    lines = []
    for cell in nb.cells:
        for line in cell.source.splitlines():
            lines.append(line.strip())
            if cell.cell_type == "markdown":
                lines.append(MARKUP.sub("", line).strip())
    return lines


def protected_lines(chapters) -> set[str]:
    """Every protected line of the source notebooks of `chapters` (public lines are those of all chapters)."""
    public = "\n".join(line for chapter in notebook_run.chapters()
                       for line in _cell_lines(nbformat.read(notebook_run.release_notebook(chapter), as_version=4)))
    secret = set()
    for chapter in chapters:
        for cell in nbformat.read(notebook_run.source_notebook(chapter), as_version=4).cells:
            for block in [*SOLUTION_BLOCK.findall(cell.source), *HIDDEN_BLOCK.findall(cell.source)]:
                secret.update(line.strip() for line in block.splitlines())
    return {line for line in secret if len(line) >= MIN_LINE and line not in public}


def has_protected_block(source: str) -> bool:
    return bool(SOLUTION_BLOCK.search(source) or HIDDEN_BLOCK.search(source))


def redact(text: str, protected: set[str]) -> str:
    """`text` with every line that holds a protected line replaced by REMOVED."""
    return "\n".join(REMOVED if contains_protected(line, protected) else line for line in text.split("\n"))


def contains_protected(text: str, protected: set[str]) -> bool:
    return any(secret in text for secret in protected)


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _readings(path: Path, raw: str):
    """The texts in which a reader could find a line of `path`."""
    yield raw
    yield html.unescape(raw)
    if path.suffix in (".html", ".htm", ".svg", ".xml"):
        yield html.unescape(TAG.sub("", raw))
    # JSON, or a script wrapping one object (Sphinx's searchindex.js: `Search.setIndex({...})`)
    start, end = raw.find("{"), raw.rfind("}")
    if path.suffix in (".json", ".ipynb", ".js", ".map") and 0 <= start < end:
        try:
            yield "\n".join(_strings(json.loads(raw[start:end + 1])))
        except ValueError:
            pass


def digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def vendored(*extra: Path) -> frozenset:
    """Digests of the text files the site's tools ship, and of the files `extra` (the MathJax bundle)."""
    digests = {digest(path.read_bytes()) for path in extra}
    for tool in TOOLS:
        for file in importlib.metadata.files(tool) or []:
            if file.suffix.lower() in TEXT_SUFFIXES and file.suffix != ".html":
                digests.add(digest(Path(file.locate()).read_bytes()))
    return frozenset(digests)


def _anchor(line: str) -> str | None:
    """The longest word of `line` that is whole wherever the line occurs (not its first or last word when the
    line starts or ends inside a word); None if it has none."""
    words = WORD.findall(line)
    if words and WORD.match(line[0]):
        words = words[1:]
    if words and WORD.match(line[-1]):
        words = words[:-1]
    return max(words, key=len, default=None)


def find_leaks(folder: Path, protected: set[str], skip: frozenset = frozenset()) -> list[tuple[str, str]]:
    """[(file relative to `folder`, protected line)] for every protected line found in a text file of `folder`
    whose digest is not in `skip` (see `vendored`). A line is only searched for in a text holding its anchor word:
    the same answer, many times faster."""
    anchored = [(line, _anchor(line)) for line in protected]
    found = []
    for path in sorted(p for p in Path(folder).rglob("*") if p.is_file() and p.suffix.lower() in TEXT_SUFFIXES):
        content = path.read_bytes()
        if digest(content) in skip:
            continue
        hits = set()
        for text in _readings(path, content.decode("utf-8", errors="replace")):
            words = set(WORD.findall(text))
            hits.update(line for line, anchor in anchored if (anchor is None or anchor in words) and line in text)
        found.extend((path.relative_to(folder).as_posix(), line) for line in sorted(hits))
    return found
