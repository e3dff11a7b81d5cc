"""Each chapter's source notebook executed once per change: the run behind every output on the site.

A run is cached under a key made of what changes its outputs: the source notebook, every file of the `course`
package, the profile, the `COURSE_*` environment, and the versions of Python and of the libraries that compute or
draw (torch, numpy, matplotlib). A second `make site` with nothing changed executes nothing.
"""
import hashlib
import importlib.metadata
import os
import platform
import tempfile
import time
from pathlib import Path

import nbformat

from tools import notebook_run

from .config import SiteError

COURSE = notebook_run.ROOT / "course"
LIBRARIES = ("torch", "numpy", "matplotlib", "ipykernel")
# Bump when the way a chapter is run changes (the kernel environment, the timeout), to invalidate old runs.
RUN_RECIPE = "2"


def cache_key(source: Path, profile: str, course: Path = COURSE, environ=os.environ) -> str:
    digest = hashlib.sha256()

    def add(label, data: bytes):
        digest.update(f"{label}\0{len(data)}\0".encode())
        digest.update(data)

    add("recipe", RUN_RECIPE.encode())
    add("profile", profile.encode())
    add("notebook", source.read_bytes())
    for path in sorted(p for p in course.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        add(f"course/{path.relative_to(course).as_posix()}", path.read_bytes())
    for name in sorted(v for v in environ if v.startswith("COURSE_") and v != "COURSE_PROFILE"):
        add(f"env {name}", environ[name].encode())
    add("python", platform.python_version().encode())
    for library in LIBRARIES:
        add(library, importlib.metadata.version(library).encode())
    return digest.hexdigest()[:20]


def run_chapter(chapter: str, profile: str):
    """The source notebook of `chapter` executed in `profile` (reference solutions in place); SiteError unless
    every cell ran without an error and without writing to stderr."""
    with tempfile.TemporaryDirectory(prefix="fbf-site-") as scratch:
        nb, seconds = notebook_run.execute(notebook_run.source_notebook(chapter), profile,
                                           env=notebook_run.kernel_env(profile, scratch))
    trouble = notebook_run.problems(nb)
    if trouble:
        cell, kind, text = trouble[0]
        raise SiteError(f"{chapter} did not run clean in the {profile} profile ({len(trouble)} problem(s)); "
                        f"first, cell {cell}: {kind}: {text.strip().splitlines()[-1][:300]}")
    return nb, seconds


class ExecutionCache:
    """Executed notebooks in `folder`, one file per chapter and profile, named after its key."""

    def __init__(self, folder: Path, profile: str, run=run_chapter, log=print):
        self.folder, self.profile, self.run, self.log = Path(folder), profile, run, log

    def _path(self, chapter: str, key: str) -> Path:
        return self.folder / f"{chapter}.{self.profile}.{key}.ipynb"

    def __call__(self, chapter: str):
        key = cache_key(notebook_run.source_notebook(chapter), self.profile)
        path = self._path(chapter, key)
        if path.exists():
            self.log(f"{chapter}: outputs from the cache ({self.profile} profile)")
            return nbformat.read(path, as_version=4)
        self.log(f"{chapter}: executing in the {self.profile} profile ...")
        start = time.perf_counter()
        nb, _ = self.run(chapter, self.profile)
        self.folder.mkdir(parents=True, exist_ok=True)
        for old in self.folder.glob(f"{chapter}.{self.profile}.*.ipynb"):
            old.unlink()
        partial = path.with_suffix(".partial")
        nbformat.write(nb, partial)
        partial.replace(path)
        self.log(f"{chapter}: executed in {time.perf_counter() - start:.0f} s")
        return nb
