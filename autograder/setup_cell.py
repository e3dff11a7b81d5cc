"""The first two cells of every release notebook, written by `make release` (never typed into a source notebook):
an "Open in Colab" badge and a setup cell.

The setup cell carries the `course` package the notebook was released with (a deterministic zip of course/*.py,
base64 in the cell, about 50 kB), so the notebook works alone: uploaded to Colab, or opened in any Jupyter with
torch, it needs nothing from the course's repository. Where `course` already imports (`make lab`, grading) the cell
only reports the profile and device. Elsewhere it unpacks the carried package into a cache folder
(~/.cache/frame-by-frame/<version>, or the temporary folder), puts it on sys.path, and pip-installs from PyPI only
the small packages that are missing (torchviz, graphviz, cloudpickle, tqdm, ipywidgets; setuptools on Python >= 3.12,
for torchviz's distutils), with --no-deps, so the machine's own torch, NumPy and Matplotlib stay as they are. On
Colab it also installs Graphviz's `dot` through apt (elsewhere, without `dot`, graphs are drawn as text).

The repository address is only a setting for the badge: `Repository` under `[project.urls]` in the course's
pyproject.toml; a course without one (the fixture course) gets no badge and no setup cell. Grading drops the setup
cell (by its tag): the course is installed there, and the cell's imports would only raise scan flags.
"""
import base64
import copy
import hashlib
import io
import zipfile
from dataclasses import dataclass
from pathlib import Path

import nbformat

TAG = "course-setup"
BADGE_IMAGE = "https://colab.research.google.com/assets/colab-badge.svg"
GITHUB = "https://github.com/"
# What the course imports beyond torch, NumPy and Matplotlib (which it never installs); import and PyPI names agree.
EXTRAS = ("torchviz", "graphviz", "cloudpickle", "tqdm", "ipywidgets")

SETUP = '''\
#@title Setup: run this cell first
# Written by `make release`: keep it first. It carries the course package this notebook was released with.
# Where `course` imports already (make lab, grading) it only reports the profile and device; anywhere else
# (Colab, or any Jupyter with torch) it unpacks the carried copy and installs the small packages that are
# missing, leaving torch alone.
def _setup_course(
    version={version!r},
    extras={extras!r},
    carried=(
{carried}
    ),
):
    import base64
    import importlib.util
    import io
    import os
    import shutil
    import subprocess
    import sys
    import tempfile
    import zipfile

    def unpacked(home):
        if not os.path.isdir(os.path.join(home, "course")):
            os.makedirs(os.path.dirname(home), exist_ok=True)
            unpacking = tempfile.mkdtemp(dir=os.path.dirname(home))
            with zipfile.ZipFile(io.BytesIO(base64.b64decode("".join(carried)))) as package:
                package.extractall(unpacking)
            try:
                os.replace(unpacking, home)
            except OSError:  # another kernel unpacked the same version first
                shutil.rmtree(unpacking, ignore_errors=True)
        return os.path.isdir(os.path.join(home, "course"))

    def on_colab():
        try:
            import google.colab  # noqa: F401 -- only Colab has it
        except ImportError:
            return False
        return True

    if importlib.util.find_spec("torch") is None:
        raise RuntimeError("This notebook needs PyTorch: install it (pip install torch), then rerun this cell.")
    if importlib.util.find_spec("course") is None:
        for base in (os.path.join(os.path.expanduser("~"), ".cache"), tempfile.gettempdir()):
            home = os.path.join(base, "frame-by-frame", version)
            try:
                if unpacked(home):
                    break
            except OSError:  # a read-only home folder: the temporary folder next
                continue
        else:
            raise RuntimeError("found no writable folder to unpack the course package into")
        sys.path.insert(0, home)
        importlib.invalidate_caches()
        missing = [name for name in extras if importlib.util.find_spec(name) is None]
        if sys.version_info >= (3, 12) and importlib.util.find_spec("setuptools") is None:
            missing.append("setuptools")  # torchviz imports distutils
        if missing:
            done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-input",
                                   "--disable-pip-version-check", *missing], capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"installing {{missing}} failed:\\n{{done.stdout[-3000:]}}{{done.stderr[-3000:]}}")
        if shutil.which("dot") is None and on_colab():
            subprocess.run(["apt-get", "install", "-y", "-qq", "graphviz"], capture_output=True)
        print(f"course {{version}}, carried by this notebook, unpacked into {{home}}")
    import course
    print(course.describe())


_setup_course()
del _setup_course
'''


def carried_package(course_dir: Path) -> bytes:
    """The course package of `course_dir` as a zip of its .py files: sorted, fixed dates, so the same files always
    give the same bytes (a regenerated release is byte-identical)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as package:
        for path in sorted((Path(course_dir) / "course").glob("*.py")):
            info = zipfile.ZipInfo(f"course/{path.name}", date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            package.writestr(info, path.read_bytes())
    return buffer.getvalue()


@dataclass(frozen=True)
class Settings:
    repository: str  # the course's address: https://github.com/owner/name (a badge), or any other (no badge)
    course_dir: Path  # where the course package to carry lives
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
    return Settings(urls["Repository"].rstrip("/"), Path(course_dir)) if "Repository" in urls else None


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


def carried_version(settings: Settings, package: bytes) -> str:
    """The pyproject version and the carried zip's digest: two releases carry the same code iff they agree."""
    import tomllib

    path = settings.course_dir / "pyproject.toml"
    version = tomllib.loads(path.read_text(encoding="utf-8"))["project"]["version"] if path.is_file() else "0"
    return f"{version}+{hashlib.sha256(package).hexdigest()[:12]}"


def setup_source(settings: Settings) -> str:
    package = carried_package(settings.course_dir)
    text = base64.b64encode(package).decode("ascii")
    lines = "\n".join(f"        {text[i:i + 100]!r}," for i in range(0, len(text), 100))
    return SETUP.format(version=carried_version(settings, package), extras=EXTRAS, carried=lines)


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
