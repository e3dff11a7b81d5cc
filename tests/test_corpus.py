"""The corpus (autograder/corpus/<case>/case.json): broken and hostile submissions derived from ch01, graded in
one sandboxed run with --jobs 2. Each case gets its expected status, at most its `max_points` (a cheat gets no
more than the blank notebook: 0) and at least its `min_points` (an honest but noisy notebook is not
over-penalised). Escapes must leave no trace: nothing found or written outside the sandbox, no process left,
no file outside OUT_DIR and the temp folder, and the grader itself alive to write every row.

case.json: about, base ("reference" = the source notebook, "release" = the blank one), edits (applied in
order: replace / insert_after / delete / duplicate a cell by grade_id, or set nbgrader metadata), submission
(name, raw text, truncate, pad_bytes, symlink_to_source), expect_status (a status, or a list of the statuses a case
may end with when how far it gets within the cell timeout depends on the machine's load), max_points, and optionally
min_points, expect_flags, expect_detail, contained (the feedback says CONTAINED, never ESCAPED), canary (a
host path the case tries to write, given as @CANARY@), process_marker (no process with it may survive).
"""
import copy
import html
import json
import os
import re
import subprocess
from pathlib import Path

import nbformat
import pytest
from conftest import REPO_ROOT, autograder_command

from autograder.reporting.grades import read_rows

CORPUS = REPO_ROOT / "autograder" / "corpus"
CHAPTER = "ch01_gradient_descent"
SOURCE = REPO_ROOT / "source" / CHAPTER / f"{CHAPTER}.ipynb"
RELEASE = REPO_ROOT / "release" / CHAPTER / f"{CHAPTER}.ipynb"
CELL_TIMEOUT = "10"
CASES = sorted(p.name for p in CORPUS.iterdir() if (p / "case.json").is_file())
CATEGORIES = {  # what the corpus must cover: a case name prefix or name for each
    "resource exhaustion": ["memory_hog", "fork_bomb", "disk_fill", "cpu_spin", "output_flood"],
    "hangs": ["hang_in_graded_function", "hang_top_level", "hang_swallows_interrupt", "hang_ignores_sigint"],
    "kernel death": ["os_exit", "segfault", "sigkill_self"],
    "escapes": ["read_course_secrets", "write_outside_scratch", "network", "background_process", "signal_everyone"],
    "tampering": ["edit_test_cells", "delete_test_cells", "duplicate_test_cell", "change_grade_id", "change_points",
                  "change_schema_version", "renamed_notebook", "malformed_json", "empty_file", "huge_notebook"],
    "in-kernel cheats": ["ipython_input_transformer", "ipython_shell_hooks", "excepthook", "settrace_skip_asserts",
                         "patch_comparisons"],
    "honest but noisy": ["warnings_on_stderr", "huge_prints", "input_call"],
}


def _case(name: str) -> dict:
    return json.loads((CORPUS / name / "case.json").read_text())


def _source(case_dir: Path, edit: dict, canary: Path) -> str:
    text = (case_dir / edit["file"]).read_text() if "file" in edit else edit["source"]
    return text.replace("@CANARY@", str(canary))


def _grade_id(cell) -> str | None:
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def _index(nb, grade_id: str) -> int:
    return next(i for i, cell in enumerate(nb.cells) if _grade_id(cell) == grade_id)


def build(name: str, submitted: Path, canary: Path) -> None:
    """Writes case `name` as student `name`'s submission of ch01."""
    case, case_dir = _case(name), CORPUS / name
    nb = nbformat.read(SOURCE if case["base"] == "reference" else RELEASE, as_version=4)
    for edit in case.get("edits", []):
        if "replace" in edit:
            nb.cells[_index(nb, edit["replace"])].source = _source(case_dir, edit, canary)
        elif "insert_after" in edit:
            nb.cells.insert(_index(nb, edit["insert_after"]) + 1,
                            nbformat.v4.new_code_cell(_source(case_dir, edit, canary)))
        elif "delete" in edit:
            del nb.cells[_index(nb, edit["delete"])]
        elif "duplicate" in edit:
            at = _index(nb, edit["duplicate"])
            twin = copy.deepcopy(nb.cells[at])
            twin.id = f"{twin.id}-copy"
            nb.cells.insert(at + 1, twin)
        elif "metadata" in edit:
            cells = nb.cells if edit["metadata"] == "*" else [nb.cells[_index(nb, edit["metadata"])]]
            for cell in cells:
                if "nbgrader" in cell.metadata:
                    cell.metadata.nbgrader.update(edit["set"])
        else:
            raise ValueError(f"{name}: unknown edit {edit}")
    how = case.get("submission", {})
    folder = submitted / name / CHAPTER
    folder.mkdir(parents=True)
    path = folder / how.get("name", f"{CHAPTER}.ipynb")
    if "raw" in how:
        path.write_text(how["raw"])
    elif how.get("symlink_to_source"):
        path.symlink_to(SOURCE)
    else:
        if "pad_bytes" in how:
            nb.cells[-1].outputs = [nbformat.v4.new_output("stream", name="stdout", text="x" * how["pad_bytes"])]
        text = nbformat.writes(nb)
        path.write_text(text[:how["truncate"]] if "truncate" in how else text)


def _processes(marker: str) -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            line = (Path("/proc") / pid / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in line and str(os.getpid()) != pid:
            found.append(f"{pid}: {line}")
    return found


def _tree(folder: Path) -> dict[str, float]:
    """Every file and folder of the repository (its own venv and git data aside) with its modification time."""
    skipped = {"__pycache__", ".pytest_cache", ".venv", ".git"}
    return {str(p): p.lstat().st_mtime for p in folder.rglob("*") if not skipped & set(p.relative_to(folder).parts)}


def _top(folder: Path) -> set[str]:
    return set(os.listdir(folder)) if folder.is_dir() else set()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    base = tmp_path_factory.mktemp("corpus")
    submitted, out, temp = base / "submitted", base / "out", base / "temp"
    temp.mkdir()
    canary = base / "canary" / "planted.txt"
    for name in CASES:
        build(name, submitted, canary)
    # Where a library that ignored TMPDIR, or a sandbox escape, would leave files. (/tmp itself is shared with
    # whatever else runs on the machine: the grader's TMPDIR, the canary and the sandbox's own /tmp cover it.)
    home = Path.home()
    watched = [Path("/var/tmp"), Path("/dev/shm"), home, home / ".cache", home / ".config", home / ".local"]
    before = {"repo": _tree(REPO_ROOT), "top": {str(f): _top(f) for f in watched}}
    command = autograder_command(submitted, out, "--assignment", CHAPTER, "--jobs", "2", "--cell-timeout",
                                 CELL_TIMEOUT)
    done = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True,
                          env=dict(os.environ, TMPDIR=str(temp)))
    # This run's processes only: every sandbox it starts names a scratch folder under its TMPDIR on its command
    # line, and a runner cannot outlive its sandbox's pid namespace. Other sessions' graders may run meanwhile.
    after = {"repo": _tree(REPO_ROOT), "top": {str(f): _top(f) for f in watched}, "processes": _processes(str(temp))}
    rows = {row["student"]: row for row in read_rows(out / "grades.csv")} if (out / "grades.csv").exists() else {}
    table = "\n".join(f"{name:28s} {rows[name]['status']:12s} {rows[name]['score']:>3s}" for name in CASES
                      if name in rows)
    print(f"\ncorpus: case → status → points\n{table}")
    return {"done": done, "rows": rows, "out": out, "temp": temp, "canary": canary, "before": before,
            "after": after}


def _statuses(case) -> set:
    expected = case["expect_status"]
    return set(expected) if isinstance(expected, list) else {expected}


def test_corpus_covers_every_kind_of_trouble():
    assert len(CASES) >= 30, CASES
    missing = {kind: [c for c in names if c not in CASES] for kind, names in CATEGORIES.items()}
    assert not any(missing.values()), missing
    for name in CASES:
        case = _case(name)
        assert case["about"] and _statuses(case) <= {"graded", "timeout", "kernel_died", "invalid", "missing"}


def test_grader_survives_and_writes_every_row(corpus):
    done = corpus["done"]
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert sorted(corpus["rows"]) == CASES


@pytest.mark.parametrize("name", CASES)
def test_case(corpus, name):
    case, row = _case(name), corpus["rows"][name]
    points = float(row["score"])
    assert row["status"] in _statuses(case), row
    assert points <= case["max_points"], row
    assert points >= case.get("min_points", 0), row
    assert float(row["max_score"]) == 18, row
    for flag in case.get("expect_flags", []):
        assert flag in row["flags"], row
    if "expect_detail" in case:
        assert case["expect_detail"] in row["detail"], row
    if case.get("contained"):  # what the case's cell printed, as a line of its output in the feedback
        page = (corpus["out"] / "feedback" / name / CHAPTER / f"{CHAPTER}.html").read_text()
        lines = html.unescape(re.sub(r"<[^>]+>", "", page)).splitlines()
        assert any(line.startswith("CONTAINED") for line in lines), name
        assert not [line for line in lines if line.startswith("ESCAPED")], name
    if case.get("canary"):
        assert not corpus["canary"].exists()
    if "process_marker" in case:
        assert not _processes(f"sleep {case['process_marker']}")


def test_cheats_score_no_more_than_the_blank_notebook(corpus):
    blank_based = [name for name in CASES if _case(name)["base"] == "release"]
    assert blank_based
    assert {name: corpus["rows"][name]["score"] for name in blank_based} == {name: "0" for name in blank_based}


def test_grading_leaves_no_file_and_no_process_behind(corpus):
    before, after = corpus["before"], corpus["after"]
    assert after["repo"] == before["repo"], set(after["repo"]) ^ set(before["repo"])
    for folder, names in after["top"].items():
        new = names - before["top"][folder]
        assert not new, f"grading left {sorted(new)} in {folder}"
    assert os.listdir(corpus["temp"]) == []
    assert after["processes"] == [], "processes of this grading run outlived it"
    assert not _processes("sleep 6137")
