"""The install lists agree: requirements.txt (lower bounds), constraints.txt (tested pins), environment.yml."""
from pathlib import Path

import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
# conda-forge names of the same Python packages; non-Python conda entries are not compared
CONDA_TO_PIP = {"pytorch": "torch", "python-graphviz": "graphviz"}
CONDA_ONLY = {"python", "pip", "graphviz"}


def _requirements(lines):
    reqs = {}
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if line:
            req = Requirement(line)
            reqs[canonicalize_name(req.name)] = req
    return reqs


def _conda_requirements():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    reqs = {}
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            reqs.update({k: v for k, v in _requirements(dep["pip"]).items()})
            continue
        name = Requirement(dep.replace("=", "==") if "=" in dep and not any(op in dep for op in "<>!=") else dep).name
        if name in CONDA_ONLY:
            continue
        req = Requirement(CONDA_TO_PIP.get(name, name) + dep[len(name):])
        reqs[canonicalize_name(req.name)] = req
    return reqs


def test_environment_yml_lists_the_same_packages_and_bounds_as_requirements():
    pip_reqs = _requirements((ROOT / "requirements.txt").read_text().splitlines())
    conda_reqs = _conda_requirements()
    assert sorted(conda_reqs) == sorted(pip_reqs)
    for name, req in pip_reqs.items():
        assert conda_reqs[name].specifier == req.specifier, name


def test_constraints_pin_every_requirement_within_its_bounds():
    pins = _requirements((ROOT / "constraints.txt").read_text().splitlines())
    for name, req in _requirements((ROOT / "requirements.txt").read_text().splitlines()).items():
        assert name in pins, f"{name} has no pin in constraints.txt"
        (pin,) = pins[name].specifier
        assert pin.operator == "==", f"{name}: {pin}"
        assert req.specifier.contains(pin.version, prereleases=True), f"{name}: pin {pin.version} outside {req.specifier}"


def test_torch_is_pinned_to_the_cpu_build_release():
    pins = _requirements((ROOT / "constraints.txt").read_text().splitlines())
    assert str(pins["torch"].specifier) == "==2.13.0"


def test_constraints_pin_exactly_what_the_venv_holds():
    """`make constraints` (tools/constraints.py) writes the venv's packages; on a venv `make setup` built from
    constraints.txt that is the file itself: every installed package pinned, at the version installed."""
    from tools import constraints

    expected = constraints.HEADER + "".join(f"{pin}\n" for pin in constraints.pins())
    assert (ROOT / "constraints.txt").read_text() == expected, "run `make constraints`"
