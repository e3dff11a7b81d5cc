"""From executed chapters to a static site: write the Sphinx project, run Sphinx, prove nothing secret got out.

The project (in `work/src`) is rewritten on every build, but a file is only touched when its content changes,
and Sphinx keeps its environment in `work/doctrees`: it reads again only what changed. When nothing in the
project changed since Sphinx last built it into the same folder, with the same tools, Sphinx is not started.
"""
import hashlib
import importlib.metadata
import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import jinja2
import nbformat

from autograder import setup_cell
from tools import notebook_run

from . import config, leaks, mathjax, pages
from .config import SiteError

HERE = Path(__file__).resolve().parent
SPHINX_PROJECT = HERE / "sphinx"
TEMPLATES = HERE / "templates"
SHOWN_LEAKS = 10


@dataclass
class Built:
    out: Path
    project: Path   # the Sphinx project the site was rendered from
    chapters: list  # [{"name", "title", "line", "figure", ...}]
    warnings: list  # what site.toml should say and does not
    seconds: float


def _write_if_changed(path: Path, content: bytes):
    if path.exists() and path.read_bytes() == content:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)


def _sync(folder: Path, files: dict):
    """Makes `folder` hold exactly `files` ({relative path: bytes}), touching only what differs."""
    for relative, content in files.items():
        _write_if_changed(folder / relative, content)
    for path in sorted(folder.rglob("*"), reverse=True):
        relative = path.relative_to(folder).as_posix()
        if path.is_file() and relative not in files:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def _subtitle(title: str) -> str:
    return title.split(": ", 1)[1] if ": " in title else title


def _chapter_files(chapter, executed, settings, protected, profile, course, files, warnings):
    release_path = notebook_run.release_notebook(chapter)
    release = nbformat.read(release_path, as_version=4)
    colab = setup_cell.colab_url(course, chapter) if course else None
    page = pages.chapter_page(chapter, executed, release, protected, profile, colab)
    title = pages.title(page)
    chosen = settings.chapter(chapter)
    figure = pages.first_image(page, chosen.figure)
    if figure is None:
        where = f"cell {chosen.figure!r}" if chosen.figure else "any cell"
        raise SiteError(f"{chapter}: no image in {where} of its page to show on the landing page "
                        f"(tools/site/site.toml names the key figure's cell id)")
    if chosen.figure is None:
        warnings.append(f"{chapter}: no key figure in tools/site/site.toml; showing cell {figure[0]}'s")
    if chosen.line is None:
        warnings.append(f"{chapter}: no line in tools/site/site.toml; showing its title's subtitle")
    files[f"{chapter}.ipynb"] = nbformat.writes(page).encode()
    files[f"notebooks/{chapter}.ipynb"] = release_path.read_bytes()
    figure_name = f"{chapter}{figure[1]}"
    files[f"figures/{figure_name}"] = figure[2]
    return {"name": chapter, "title": title, "line": chosen.line or _subtitle(title), "figure": figure_name,
            "figure_cell": figure[0], "alt": f"Key figure of {title}"}


def _project_digest(files: dict, out: Path) -> str:
    digest = hashlib.sha256(str(Path(out).resolve()).encode())
    for tool in leaks.TOOLS:
        digest.update(f"{tool} {importlib.metadata.version(tool)}".encode())
    for relative in sorted(files):
        digest.update(f"{relative}\0{hashlib.sha256(files[relative]).hexdigest()}\0".encode())
    return digest.hexdigest()


def _sphinx(src: Path, doctrees: Path, out: Path):
    done = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", "--keep-going",
                           "-d", str(doctrees), str(src), str(out)], capture_output=True, text=True)
    if done.returncode != 0:
        raise SiteError(f"Sphinx failed (exit {done.returncode}):\n{done.stdout[-4000:]}{done.stderr[-4000:]}")


def build_site(out: Path, work: Path, cache: Path, profile: str, notebooks, chapters=None, log=print) -> Built:
    """Builds the site of `chapters` (default: all) into `out`; `notebooks(chapter)` gives a chapter's source
    notebook executed in `profile`. `work` holds the Sphinx project and its environment, `cache` MathJax."""
    start = time.perf_counter()
    settings = config.load()
    chapters = list(chapters or notebook_run.chapters())
    protected = leaks.protected_lines(chapters)
    course = setup_cell.course_settings(notebook_run.ROOT)
    files = {path.relative_to(SPHINX_PROJECT).as_posix(): path.read_bytes()
             for path in SPHINX_PROJECT.rglob("*") if path.is_file() and "__pycache__" not in path.parts}
    bundle = mathjax.vendored(settings.mathjax, cache)
    files[f"_static/mathjax/{bundle.name}"] = bundle.read_bytes()
    src, doctrees = Path(work) / "src", Path(work) / "doctrees"
    files["site.json"] = json.dumps({"repository": course.repository if course else None, "profile": profile,
                                     "mathjax": f"mathjax/{bundle.name}"}).encode()
    warnings, summaries = [], []
    for chapter in chapters:
        summaries.append(_chapter_files(chapter, notebooks(chapter), settings, protected, profile, course, files,
                                        warnings))
    template = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), keep_trailing_newline=True)
    files["index.md"] = template.get_template("index.md").render(
        chapters=summaries, profile=profile, repository=course.repository if course else None).encode()
    src.mkdir(parents=True, exist_ok=True)
    _sync(src, files)
    stamp, digest = Path(work) / "rendered", _project_digest(files, out)
    if (Path(out) / "index.html").exists() and stamp.exists() and stamp.read_text() == digest:
        log("nothing changed since the last rendering: Sphinx not started")
    else:
        log(f"rendering {len(chapters)} chapters with Sphinx ...")
        stamp.unlink(missing_ok=True)
        _sphinx(src, doctrees, Path(out))
        stamp.write_text(digest)
    skip = leaks.vendored(bundle)
    found = leaks.find_leaks(Path(out), protected, skip) + leaks.find_leaks(src, protected, skip)
    if found:
        shown = "\n".join(f"  {path}: {line}" for path, line in found[:SHOWN_LEAKS])
        raise SiteError(f"{len(found)} line(s) of reference solutions or hidden tests reached the site; do not "
                        f"publish {out}:\n{shown}")
    for warning in warnings:
        log(f"warning: {warning}")
    return Built(Path(out), src, summaries, warnings, time.perf_counter() - start)
