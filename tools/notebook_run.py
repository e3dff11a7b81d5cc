"""Run a chapter notebook headless the way a student's kernel would, and report what went wrong in it.

Shared by the tests (the grade-profile run must be clean) and by `make bench` (timings).
"""
import os
import subprocess
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent


def chapters():
    """Assignment names under source/, e.g. ["ch01_gradient_descent", ...]."""
    return sorted(p.name for p in (ROOT / "source").glob("ch*") if (p / f"{p.name}.ipynb").exists())


def source_notebook(chapter):
    return ROOT / "source" / chapter / f"{chapter}.ipynb"


def release_notebook(chapter):
    return ROOT / "release" / chapter / f"{chapter}.ipynb"


def solved_release(chapter):
    """The student copy of `chapter` as a student who finished it has it: the release notebook with the source's
    reference solutions written into its solution cells."""
    nb = nbformat.read(release_notebook(chapter), as_version=4)
    source = nbformat.read(source_notebook(chapter), as_version=4)
    solutions = {c.metadata["nbgrader"]["grade_id"]: c.source for c in source.cells
                 if c.metadata.get("nbgrader", {}).get("solution")}
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in solutions:
            cell.source = solutions.pop(grade_id)
    if solutions:
        raise ValueError(f"{chapter}: the release has no solution cell {sorted(solutions)}: run `make release`")
    return nb


def kernel_env(profile, scratch):
    """The environment of a notebook kernel: a profile, and Jupyter/IPython/matplotlib state kept in `scratch`."""
    env = dict(os.environ)
    for var, sub in [("JUPYTER_CONFIG_DIR", "jupyter-config"), ("JUPYTER_RUNTIME_DIR", "jupyter-runtime"),
                     ("IPYTHONDIR", "ipython"), ("MPLCONFIGDIR", "matplotlib")]:
        env[var] = str(Path(scratch) / sub)
    env["COURSE_PROFILE"] = profile
    # As in JupyterLab: IPython's own warning filters, which show every FutureWarning and the
    # DeprecationWarnings that the notebook's code triggers (not those inside libraries).
    env.pop("PYTHONWARNINGS", None)
    env.pop("MPLBACKEND", None)  # the kernel's inline backend, as in JupyterLab
    return env


def execute(path, profile, timeout=600, kernel_name="python3", env=None):
    """Executes the notebook at `path` in `profile` (or in the kernel environment `env`, which then sets the
    profile); returns (executed notebook, seconds).

    The client does not act as the front end of `Output` widgets: what a callback draws into one (an
    `interactive_output` slider's first figure) lands in the cell's own outputs, and the client never writes to
    the kernel's shell socket while a cell runs. Acting as that front end, it does, and now and then the cell's
    reply is then only seen once the cell's whole `timeout` has passed, with no error (ch01's slider cell here: 4
    runs of 16 waited out their timeout, 60 or 600 s; none of 18 without)."""
    nb = nbformat.read(path, as_version=4)
    with tempfile.TemporaryDirectory(prefix="fbf-kernel-") as scratch:
        client = NotebookClient(nb, timeout=timeout, kernel_name=kernel_name, allow_errors=True,
                                resources={"metadata": {"path": str(Path(path).parent)}})
        client.widget_registry = {}
        start = time.perf_counter()
        # The kernel process's own stderr (ipykernel's start-up notices) is not cell output; cells report
        # through IOPub, which `problems` reads.
        client.execute(env=env or kernel_env(profile, scratch), stderr=subprocess.DEVNULL)
        return nb, time.perf_counter() - start


def problems(nb):
    """[(cell id, "error" | "stderr", text)] for every error output and every write to stderr."""
    found = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell_id = cell.metadata.get("nbgrader", {}).get("grade_id", cell.get("id"))
        for out in cell.outputs:
            if out.output_type == "error":
                found.append((cell_id, "error", f"{out.ename}: {out.evalue}"))
            elif out.output_type == "stream" and out.name == "stderr":
                found.append((cell_id, "stderr", out.text))
    return found
