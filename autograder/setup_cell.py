"""The first two cells of every release notebook, written by `make release` (never typed into a source notebook):
an "Open in Colab" badge and a setup cell.

The setup cell does nothing where `course` already imports (`make lab`, grading) but report the profile and
device. On Colab it installs what is missing: the `course` package from the course's repository, torchviz and the
`graphviz` package it drives, Graphviz's `dot` through apt, and `setuptools` on Python >= 3.12 (torchviz imports
distutils). Everything is installed with --no-deps, so Colab's own torch, NumPy and Matplotlib stay as they are.

The repository is configured once, as `Repository` under `[project.urls]` in the course's pyproject.toml; a course
without one (the fixture course) gets no badge and no setup cell. Grading drops the setup cell (by its tag): the
course is installed there, and the cell's imports would only raise scan flags.
"""
import copy
from dataclasses import dataclass
from pathlib import Path

import nbformat

TAG = "course-setup"
BADGE_IMAGE = "https://colab.research.google.com/assets/colab-badge.svg"
GITHUB = "https://github.com/"

SETUP = '''\
#@title Setup: run this cell first
# Written by `make release`: keep it first. Where `course` imports (make lab, grading) it only reports the
# profile and device. On Colab it installs the course package, torchviz and Graphviz, leaving Colab's torch alone.
def _setup_course(repository={repository!r}, ref={ref!r}):
    import importlib.util
    import shutil
    import subprocess
    import sys

    if importlib.util.find_spec("course") is None:
        try:
            import google.colab  # noqa: F401 -- only Colab has it
        except ImportError:
            raise RuntimeError("The `course` package is missing: run `make lab` in the course's repository, "
                               "or open this notebook on Colab.") from None
        packages = [f"git+{{repository}}@{{ref}}", "torchviz", "graphviz", "cloudpickle"]
        if sys.version_info >= (3, 12):
            packages.append("setuptools")  # torchviz imports distutils
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-input",
                               "--disable-pip-version-check", *packages], capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"installing the course failed:\\n{{done.stdout[-3000:]}}{{done.stderr[-3000:]}}")
        if shutil.which("dot") is None:
            subprocess.run(["apt-get", "install", "-y", "-qq", "graphviz"], capture_output=True, check=True)
    import course
    print(course.describe())


_setup_course()
del _setup_course
'''


@dataclass(frozen=True)
class Settings:
    repository: str  # a git URL pip can install from: https://github.com/owner/name, or file:///path for tests
    ref: str = "main"


def course_settings(course_dir: Path) -> Settings | None:
    """The course's repository, from `[project.urls] Repository` in its pyproject.toml; None when it has none."""
    path = Path(course_dir) / "pyproject.toml"
    if not path.is_file():
        return None
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        raise RuntimeError("stamping the Colab setup cell reads pyproject.toml with tomllib: use Python >= 3.11")
    urls = tomllib.loads(path.read_text(encoding="utf-8")).get("project", {}).get("urls", {})
    return Settings(urls["Repository"].rstrip("/")) if "Repository" in urls else None


def colab_url(settings: Settings, assignment: str) -> str | None:
    """Colab's address for the release notebook of `assignment`; None for a repository Colab cannot open."""
    if not settings.repository.startswith(GITHUB):
        return None
    owner_name = settings.repository[len(GITHUB):].removesuffix(".git")
    return (f"https://colab.research.google.com/github/{owner_name}/blob/{settings.ref}/release/{assignment}/"
            f"{assignment}.ipynb")


def badge_markdown(settings: Settings, assignment: str) -> str | None:
    url = colab_url(settings, assignment)
    return f"[![Open In Colab]({BADGE_IMAGE})]({url})" if url else None


def setup_source(settings: Settings) -> str:
    return SETUP.format(repository=settings.repository, ref=settings.ref)


def _tagged(cell):
    cell.metadata["tags"] = [TAG]
    return cell


def stamp(nb, assignment: str, settings: Settings | None):
    """A copy of the release notebook `nb` with the badge and the setup cell first (unchanged without settings)."""
    nb = copy.deepcopy(nb)
    if settings is None:
        return nb
    setup = _tagged(nbformat.v4.new_code_cell(setup_source(settings)))
    # Folded away: Colab shows the #@title line of a form cell, JupyterLab a collapsed input.
    setup.metadata.update(cellView="form", jupyter={"source_hidden": True})
    first = [setup]
    badge = badge_markdown(settings, assignment)
    if badge:
        first.insert(0, _tagged(nbformat.v4.new_markdown_cell(badge)))
    for cell in first:
        cell.id = f"{TAG}-{cell.cell_type}"  # stable ids: a regenerated release is byte-identical
    nb.cells[:0] = first
    return nb


def is_setup_cell(cell) -> bool:
    return TAG in (cell.get("metadata", {}).get("tags") or []) and not cell.get("metadata", {}).get("nbgrader")
