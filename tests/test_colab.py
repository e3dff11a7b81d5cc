"""Colab, simulated: a fresh venv holding only what Colab preinstalls for this course (torch, ipykernel,
matplotlib, ipywidgets, numpy, tqdm; no nbgrader, no `course`) and a stand-in `google.colab` module. Every committed
release notebook, with the reference solutions put in, is copied alone into an empty folder and runs top to bottom
there, with no repository to install from: its setup cell unpacks the `course` package the notebook carries, leaves
torch alone, and every visible test passes with nothing on stderr.

What only a real Colab shows: its GPU (`gpu` profile sizes), Graphviz through apt (here `dot` is already
installed), and Colab's own widget manager.
"""
import subprocess
import sys

import nbformat
import pytest
from conftest import REPO_ROOT

from autograder import setup_cell
from tools import notebook_run

# What Colab has preinstalled that the course relies on, at the versions the course is tested with.
COLAB_PACKAGES = ["torch", "ipykernel", "matplotlib", "ipywidgets", "numpy", "tqdm"]
KERNEL = "colab-sim"


def _run(*args, **kwargs):
    """Runs a command away from the repository (from /), so `course` is never importable by accident."""
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, cwd="/", **kwargs)
    assert done.returncode == 0, f"{args}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def colab(tmp_path_factory):
    """(python of the simulated Colab, kernel environment, its home folder)."""
    base = tmp_path_factory.mktemp("colab")
    venv = base / "venv"
    _run(sys.executable, "-m", "venv", venv)
    python = venv / "bin" / "python"
    _run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-c",
         REPO_ROOT / "constraints.txt", *COLAB_PACKAGES)
    stand_in = base / "colab-modules" / "google" / "colab"
    stand_in.mkdir(parents=True)
    (stand_in / "__init__.py").write_text('"""Stand-in for Colab\'s google.colab: its presence says "on Colab"."""\n')
    _run(python, "-m", "ipykernel", "install", "--prefix", base / "kernels", "--name", KERNEL)
    home = base / "home"
    home.mkdir()
    env = notebook_run.kernel_env("grade", base / "scratch")
    env.update(JUPYTER_PATH=str(base / "kernels" / "share" / "jupyter"), PYTHONPATH=str(base / "colab-modules"),
               PIP_DISABLE_PIP_VERSION_CHECK="1", HOME=str(home))
    env.pop("VIRTUAL_ENV", None)
    return python, env, home


def _torch_location(python) -> str:
    return _run(python, "-c", "import torch; print(torch.__version__, torch.__file__)")


def test_release_notebooks_carry_the_course_and_pass_their_visible_tests_alone_on_colab(colab, tmp_path,
                                                                                        monkeypatch):
    python, env, home = colab
    monkeypatch.setenv("JUPYTER_PATH", env["JUPYTER_PATH"])  # where nbclient finds the simulated Colab's kernel
    assert _run(python, "-c", "import importlib.util as u; print(u.find_spec('course'))").strip() == "None"
    torch_before = _torch_location(python)
    settings = setup_cell.course_settings(REPO_ROOT)
    setup_source = setup_cell.setup_source(settings)
    assert settings.repository not in setup_source and "git+" not in setup_source, "no repository is needed"

    # Without torch (site-packages off), the setup cell says what to install instead of failing obscurely.
    done = subprocess.run([str(python), "-S", "-c", setup_source], capture_output=True, text=True, env=env, cwd="/")
    assert done.returncode != 0 and "needs PyTorch" in done.stderr, done.stderr[-2000:]

    greetings = {}
    for chapter in notebook_run.chapters():
        folder = tmp_path / chapter  # as Colab opens it: the notebook alone, no repository around it
        folder.mkdir()
        path = folder / f"{chapter}.ipynb"
        nbformat.write(notebook_run.solved_release(chapter), path)
        nb, seconds = notebook_run.execute(path, "grade", timeout=300, kernel_name=KERNEL, env=env)
        assert notebook_run.problems(nb) == [], f"{chapter} on the simulated Colab ({seconds:.0f} s)"
        setup = next(c for c in nb.cells if setup_cell.is_setup_cell(c) and c.cell_type == "code")
        greetings[chapter] = "".join(o.get("text", "") for o in setup.outputs)
    assert all("profile=grade" in text for text in greetings.values()), greetings
    unpacked = sorted((home / ".cache" / "frame-by-frame").iterdir())
    assert len(unpacked) == 1 and f"unpacked into {unpacked[0]}" in greetings[notebook_run.chapters()[0]], greetings
    assert sorted(p.name for p in (unpacked[0] / "course").glob("*.py")) == \
        sorted(p.name for p in (REPO_ROOT / "course").glob("*.py")), "the notebook carries the whole package"
    assert _torch_location(python) == torch_before, "the setup cell changed Colab's torch"


def test_readme_carries_every_chapters_colab_badge():
    settings = setup_cell.course_settings(REPO_ROOT)
    readme = (REPO_ROOT / "README.md").read_text()
    missing = [c for c in notebook_run.chapters() if setup_cell.badge_markdown(settings, c) not in readme]
    assert not missing, f"README.md lacks the Open in Colab badge of {missing}"


def test_stamp_puts_badge_and_setup_first_with_stable_ids():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# ch")])
    github = setup_cell.Settings("https://github.com/owner/course", REPO_ROOT)
    stamped = setup_cell.stamp(nb, "ch01_x", github)
    assert [c.cell_type for c in stamped.cells] == ["markdown", "code", "markdown"] and len(nb.cells) == 1
    assert "colab.research.google.com/github/owner/course/blob/main/release/ch01_x/ch01_x.ipynb" in stamped.cells[0].source
    assert "def _setup_course(" in stamped.cells[1].source
    assert all(setup_cell.is_setup_cell(c) for c in stamped.cells[:2]) and not setup_cell.is_setup_cell(stamped.cells[2])
    assert setup_cell.stamp(nb, "ch01_x", github) == stamped
    local = setup_cell.stamp(nb, "ch01_x", setup_cell.Settings("file:///tmp/clone", REPO_ROOT, "abc123"))
    assert [c.cell_type for c in local.cells] == ["code", "markdown"], "Colab opens no file:// address: no badge"
    assert setup_cell.stamp(nb, "ch01_x", None) == nb


def test_the_carried_package_is_course_byte_for_byte_and_the_same_every_time():
    import io
    import zipfile

    package = setup_cell.carried_package(REPO_ROOT)
    assert setup_cell.carried_package(REPO_ROOT) == package, "a regenerated release must be byte-identical"
    with zipfile.ZipFile(io.BytesIO(package)) as carried:
        files = {name: carried.read(name) for name in carried.namelist()}
    assert files == {f"course/{p.name}": p.read_bytes() for p in (REPO_ROOT / "course").glob("*.py")}
