"""The autograder and the release tool on the fixture course: every status, its sentence for the student, flags,
per-cell scores, feedback without hidden tests or the repository's path, reports that are byte-identical serial,
with --jobs 2 and with --no-sandbox, warnings about the submitted folder's layout, an OUT_DIR that holds one run's
results only, and a course folder and repository left untouched."""
import copy
import html
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from conftest import FIXTURE_COURSE, REPO_ROOT, autograder_command

from autograder.catalogue import mutation
from autograder.course_root import assignments_in, load_config
from autograder.reporting.grades import read_rows

ASSIGNMENT = "fx01_basics"
SOURCE = FIXTURE_COURSE / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
RELEASE = FIXTURE_COURSE / "release" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb"
CELL_TIMEOUT = "2"
# Files nbgrader leaves in a course root it runs in; none may appear in the repository.
NBGRADER_LEFTOVERS = ("gradebook.db", "nbgrader.log", "submitted", "autograded", "feedback")
HIDDEN_LINES = ("assert square(-2) == 4", "assert square(0.5) == 0.25", "assert mean_of(NUMBERS) == 2.5",
                "assert mean_of([5]) == 5")

ALL_FAILED = "4 test cells failed: test_square, test_square_hidden, test_mean_of, test_mean_of_hidden"
SQUARE_FAILED = "2 test cells failed: test_square, test_square_hidden"
FULL = "Graded: 6 of 6 points; every test cell passed."
TYPO_FOLDER = "missing_folder/fx01_basic/ is not an assignment of this course; it was not graded"
TOO_DEEP = f"student folder {ASSIGNMENT}/ is named like an assignment: is SUBMITTED_DIR one level too deep?"
# student -> (status, score, detail, a flag that must be there or None); max_score is 6 for all.
EXPECTED = {
    # First in order: stock nbgrader aborts the whole run on a duplicated grade_id; here the copy is dropped.
    "a_duplicate_test_cell": ("graded", 6, FULL, "duplicate cell 'test_square' removed"),
    "blank": ("graded", 0, f"Graded: 0 of 6 points; {ALL_FAILED}.", None),
    "empty": ("invalid", 0, "The file is empty.", None),
    "environment": ("graded", 6, FULL, None),
    # An error raised in a library of the venv: its traceback is shown, with paths relative to the repository.
    "venv_error": ("graded", 6, FULL, None),
    # SUBMITTED_DIR given one level too deep looks like this: a student named like the assignment.
    ASSIGNMENT: ("missing", 0, f"No {ASSIGNMENT}/ folder was submitted.", TOO_DEEP),
    "invalid_json": ("invalid", 0, "Not valid notebook JSON: Expecting value: line 1 column 1 (char 0).", None),
    "kernel_died": ("kernel_died", 0, "The notebook's process exited with status 1 in cell 'square'; the cells after "
                                      f"it did not run. Graded: 0 of 6 points; {ALL_FAILED}.", None),
    "matplotlib_notice": ("graded", 6, FULL, None),
    "missing_folder": ("missing", 0, f"No {ASSIGNMENT}/ folder was submitted.", TYPO_FOLDER),
    "missing_notebook": ("missing", 0, f"No {ASSIGNMENT}.ipynb was submitted in {ASSIGNMENT}/.", None),
    "not_a_notebook": ("invalid", 0, "Not a valid Jupyter notebook: the file holds JSON, but no notebook (it has "
                                     "no nbformat version).", None),
    "reference": ("graded", 6, FULL, None),
    "renamed": ("graded", 6, FULL, "notebook renamed: graded my_work.ipynb as fx01_basics.ipynb"),
    "stderr_warning": ("graded", 3, f"Graded: 3 of 6 points; {SQUARE_FAILED}.", None),
    # Its last cell walks the stack into the runner and prints the hidden tests: flagged, and cut from feedback.
    "steals_hidden_tests": ("graded", 6, FULL, "reached into the grader: sys._getframe"),
    "timeout": ("timeout", 3, f"A cell ran longer than {CELL_TIMEOUT} s and was stopped (in cell 'square'). "
                              f"Graded: 3 of 6 points; {SQUARE_FAILED}.", None),
    "wrong": ("graded", 4, "Graded: 4 of 6 points; 1 test cell failed: test_mean_of_hidden.", None),
    # Its solution cell stops at an import the course lacks: the tests fail with a NameError, the cause is named.
    "no_module": ("graded", 3, "Graded: 3 of 6 points; 2 test cells failed: test_mean_of, test_mean_of_hidden. The "
                               "first error was in cell 'mean_of': ModuleNotFoundError: No module named "
                               "'mean_helpers'.",
                  "first error in cell 'mean_of': ModuleNotFoundError: No module named 'mean_helpers'"),
}

SQUARE = "def square(x):\n    return x * x\n"
STEAL = """import sys
frame = sys._getframe()
while frame is not None and "job" not in frame.f_locals:
    frame = frame.f_back
for cell in frame.f_locals["job"]["cells"] if frame is not None else []:
    print(cell["source"])
"""
SOLUTIONS = {  # student -> (solution cell, its new source)
    "venv_error": ("square", SQUARE + "from packaging.version import Version\n\nVersion('one')\n"),
    "environment": ("square", "import os\n\nassert {k: os.environ.get(k) for k in ('COURSE_PROFILE', "
                              "'CUDA_VISIBLE_DEVICES', 'MPLBACKEND', 'PYTHONHASHSEED')} == {'COURSE_PROFILE': "
                              "'grade', 'CUDA_VISIBLE_DEVICES': '', 'MPLBACKEND': 'Agg', 'PYTHONHASHSEED': '0'}\n"
                              + SQUARE),
    "kernel_died": ("square", "import os\nos._exit(1)"),
    # Matplotlib prints its notice once per process; the course config ignores exactly that stderr text.
    "matplotlib_notice": ("square", "import sys\n_noticed = []\n\ndef square(x):\n    if not _noticed:\n"
                                    "        _noticed.append(sys.stderr.write('Matplotlib is building the font "
                                    "cache; this may take a moment.\\n'))\n    return x * x\n"),
    # Right values, but any other stderr output fails the test cell that produced it.
    "stderr_warning": ("square", "import sys\n\ndef square(x):\n    sys.stderr.write('UserWarning: careful\\n')\n"
                                 "    return x * x\n"),
    "timeout": ("square", "import time\ntime.sleep(30)\n" + SQUARE),
    "wrong": ("mean_of", "def mean_of(xs):\n    return sum(xs) // len(xs)\n"),
    "no_module": ("mean_of", "from mean_helpers import fmean\n\ndef mean_of(xs):\n    return fmean(xs)\n"),
}


def _with_solution(nb, cell: str, source: str):
    return mutation.mutant_notebook(nb, mutation.Mutant(cell, "test", source, frozenset()))


def _write(folder: Path, name: str, content) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        (folder / name).write_text(content)
    else:
        nbformat.write(content, folder / name)


def _make_submissions(submitted: Path) -> None:
    source = nbformat.read(SOURCE, as_version=4)
    for student, (cell, text) in SOLUTIONS.items():
        _write(submitted / student / ASSIGNMENT, f"{ASSIGNMENT}.ipynb", _with_solution(source, cell, text))
    duplicated = copy.deepcopy(source)
    duplicated.cells.insert(5, copy.deepcopy(duplicated.cells[4]))
    duplicated.cells[5].id = "pasted-twice"
    stealing = copy.deepcopy(source)
    stealing.cells.append(nbformat.v4.new_code_cell(STEAL))
    files = {
        "a_duplicate_test_cell": duplicated,
        "blank": nbformat.read(RELEASE, as_version=4),
        "empty": "",
        "invalid_json": "not json",
        "not_a_notebook": '{"cells": []}',
        "reference": source,
        "steals_hidden_tests": stealing,
    }
    for student, content in files.items():
        _write(submitted / student / ASSIGNMENT, f"{ASSIGNMENT}.ipynb", content)
    _write(submitted / "missing_folder" / "fx01_basic", f"{ASSIGNMENT}.ipynb", source)
    _write(submitted / ASSIGNMENT, f"{ASSIGNMENT}.ipynb", source)
    _write(submitted / "missing_notebook" / ASSIGNMENT, "notes.txt", "I ran out of time.\n")
    _write(submitted / "renamed" / ASSIGNMENT, "my_work.ipynb", source)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _leftovers() -> set[str]:
    return {name for name in NBGRADER_LEFTOVERS if (REPO_ROOT / name).exists()}


# The run without the sandbox replaces an earlier run's results (--force): a student who is gone must leave none.
RUNS = {"serial": (), "jobs2": ("--jobs", "2"), "no_sandbox": ("--no-sandbox", "--jobs", "2", "--force")}
GONE = "gone_student"


def _earlier_results(out: Path) -> None:
    _write(out, "grades.csv", f"student\n{GONE}\n")
    _write(out / "feedback" / GONE / ASSIGNMENT, f"{ASSIGNMENT}.html", "<p>old</p>")
    _write(out, "notes.txt", "the instructor's own file\n")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Every kind of submission graded three times, at once: serially, with --jobs 2, and without the sandbox
    into a folder holding an earlier run's results."""
    base = tmp_path_factory.mktemp("grading")
    _make_submissions(base / "submitted")
    _earlier_results(base / "no_sandbox")
    course_before, leftovers_before = _snapshot(FIXTURE_COURSE), _leftovers()
    options = ("--course-dir", str(FIXTURE_COURSE), "--cell-timeout", CELL_TIMEOUT)
    runs = {name: subprocess.Popen(autograder_command(base / "submitted", base / name, *options, *extra),
                                   cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for name, extra in RUNS.items()}
    outputs = {}
    for name, run in runs.items():
        stdout, stderr = run.communicate()
        assert run.returncode == 0, f"{name}: autograder exited {run.returncode}\n{stdout}\n{stderr}"
        assert stderr == "", f"{name}: the autograder wrote to stderr:\n{stderr}"
        outputs[name] = stdout
    return {"out": base / "serial", "runs": {name: base / name for name in RUNS}, "course_before": course_before,
            "leftovers_before": leftovers_before, "stdout": outputs["serial"]}


def test_grades_csv_has_one_row_per_student_with_status_detail_and_flags(graded):
    rows = read_rows(graded["out"] / "grades.csv")
    assert list(rows[0]) == ["student", "assignment", "notebook", "score", "max_score", "status", "detail", "flags"]
    assert [r["student"] for r in rows] == sorted(EXPECTED)
    for row in rows:
        status, score, detail, flag = EXPECTED[row["student"]]
        got = (row["status"], row["score"], row["max_score"], row["assignment"], row["notebook"])
        assert got == (status, str(score), "6", ASSIGNMENT, ASSIGNMENT), row
        assert row["detail"] == detail, row
        assert (flag or "") in row["flags"], row
    unflagged = {"blank", "empty", "invalid_json", "missing_notebook", "not_a_notebook",
                 "reference", "timeout", "venv_error", "wrong"}
    assert {r["student"]: r["flags"] for r in rows if r["student"] in unflagged} == dict.fromkeys(unflagged, "")


def test_cells_csv_has_every_graded_cell_in_notebook_order(graded):
    rows = read_rows(graded["out"] / "cells.csv")
    assert list(rows[0]) == ["student", "assignment", "notebook", "grade_id", "score", "max_score"]
    wrong = [(r["grade_id"], r["score"], r["max_score"]) for r in rows if r["student"] == "wrong"]
    assert wrong == [("test_square", "1", "1"), ("test_square_hidden", "2", "2"),
                     ("test_mean_of", "1", "1"), ("test_mean_of_hidden", "0", "2")]
    assert len(rows) == 4 * len(EXPECTED)


def test_reports_are_byte_identical_serial_in_parallel_and_without_sandbox(graded):
    for name in ("grades.csv", "cells.csv", "diagnoses.csv"):
        files = {run: (out / name).read_bytes() for run, out in graded["runs"].items()}
        assert len(set(files.values())) == 1, name


def _text(path: Path) -> str:
    """An HTML page's text, as a reader sees it (highlighted code is split into many tags)."""
    return html.unescape(re.sub(r"<[^>]+>", "", path.read_text()))


def _page(out: Path, student: str) -> Path:
    return out / "feedback" / student / ASSIGNMENT / f"{ASSIGNMENT}.html"


def test_feedback_for_every_notebook_handed_in_without_hidden_tests_or_the_repository_path(graded):
    handed_in = {student for student, expected in EXPECTED.items() if expected[0] != "missing"}
    assert {p.parent.parent.name for p in (graded["out"] / "feedback").glob("*/*/*.html")} == handed_in
    texts = {student: _text(_page(graded["out"], student)) for student in handed_in}
    for student, text in texts.items():
        assert EXPECTED[student][2] in text, student
        assert not [line for line in HIDDEN_LINES if line in text], student
        assert str(REPO_ROOT) not in text, student
    assert 'File ".venv/lib/python' in texts["venv_error"] and 'packaging/version.py"' in texts["venv_error"]
    assert "Hidden tests failed (0 of 2 points)." in texts["wrong"]
    assert "ZeroDivisionError" not in texts["wrong"] and "AssertionError" not in texts["wrong"]
    assert "NotImplementedError" in texts["blank"]  # visible tests show their errors
    assert "a line of hidden test code was removed here" in texts["steals_hidden_tests"]
    assert "Test passed (1 of 1 point)." in texts["reference"]


def test_feedback_page_opens_with_links_to_each_failed_test_cell_and_colours_verdicts(graded):
    page = _page(graded["out"], "blank").read_text()
    cells = {m.group(1): m.start() for m in re.finditer(r'<div id="(cell-id=cell-\d+)"', page)}
    heading = page[cells["cell-id=cell-0"]:cells["cell-id=cell-1"]]  # the first thing on the page
    assert "Graded: 0 of 6 points" in heading and "Failed test cells" in heading
    links = re.findall(r'<a href="#(cell-id=cell-\d+)">([^<]+)</a>', heading)
    assert [name for _, name in links] == ["test_square", "test_square_hidden (hidden tests)", "test_mean_of",
                                           "test_mean_of_hidden (hidden tests)"]
    starts = sorted(cells.values()) + [len(page)]
    for anchor, name in links:  # each link leads to its test cell, whose verdict is coloured as failed
        cell = page[cells[anchor]:next(start for start in starts if start > cells[anchor])]
        assert "celltag_failed-test" in cell[:300] and 'class="verdict verdict-failed"' in cell, name
    reference = _page(graded["out"], "reference").read_text()
    assert "Failed test cells" not in reference and reference.count('class="verdict verdict-passed"') == 4
    assert "pre.verdict-failed {" in page  # the style is on the page itself


def test_feedback_pages_run_no_script_and_load_nothing_from_elsewhere(graded):
    for student in {s for s, expected in EXPECTED.items() if expected[0] != "missing"}:
        page = _page(graded["out"], student).read_text()
        assert "<script" not in page, student
        assert not re.findall(r"""(?:src|href)=["']?(?:https?:)?//""", page), student


def test_summary_counts_each_status_and_warnings_name_the_layout_problems(graded):
    lines = graded["stdout"].splitlines()
    assert re.fullmatch(r"19 notebooks \(11 graded, 3 invalid, 1 kernel_died, 3 missing, 1 timeout\) in [0-9.]+ s; "
                        r"wrote .*", lines[-1]), lines[-1]
    assert f"warning: {TYPO_FOLDER}" in lines and any(line.startswith(f"warning: {TOO_DEEP}") for line in lines)
    log = (graded["out"] / "grading.log").read_text()
    assert f"warning: {TYPO_FOLDER}" in log and f"flag: {TYPO_FOLDER}" in log


def test_force_replaces_an_earlier_runs_results_and_keeps_other_files(graded):
    out = graded["runs"]["no_sandbox"]
    assert not (out / "feedback" / GONE).exists()
    assert GONE not in (out / "grades.csv").read_text()
    assert (out / "notes.txt").read_text() == "the instructor's own file\n"


def test_an_earlier_runs_results_are_refused_without_force(tmp_path):
    (tmp_path / "submitted").mkdir()
    _earlier_results(tmp_path / "out")
    before = _snapshot(tmp_path / "out")
    done = subprocess.run(autograder_command(tmp_path / "submitted", tmp_path / "out", "--course-dir",
                                             str(FIXTURE_COURSE)), cwd=REPO_ROOT, capture_output=True, text=True)
    assert done.returncode == 2
    assert "already holds an earlier run's results (grades.csv, feedback)" in done.stderr and "--force" in done.stderr
    assert "ARGS" not in done.stderr
    assert _snapshot(tmp_path / "out") == before


def test_make_autograde_names_its_own_way_to_force(tmp_path):
    """`make autograde` users add options through ARGS: the message says so (the Makefile tells the grader)."""
    (tmp_path / "submitted" / "alice" / ASSIGNMENT).mkdir(parents=True)
    _earlier_results(tmp_path / "out")
    done = subprocess.run(["make", "--no-print-directory", "autograde", f"SUBMITTED={tmp_path / 'submitted'}",
                           f"OUT={tmp_path / 'out'}"], cwd=REPO_ROOT, capture_output=True, text=True)
    assert done.returncode != 0 and "add ARGS=--force" in done.stderr, done.stdout + done.stderr


@pytest.mark.parametrize("layout", ["one level too deep", "no student folders", "no assignment folders"])
def test_a_submitted_folder_holding_no_assignment_stops_and_writes_nothing(tmp_path, layout):
    submitted = tmp_path / "submitted"
    if layout == "one level too deep":  # SUBMITTED_DIR/<assignment>/<notebook>.ipynb: one student's folder
        _write(submitted / ASSIGNMENT, f"{ASSIGNMENT}.ipynb", nbformat.read(SOURCE, as_version=4))
        said = f"{submitted} is one level too deep: its folders {ASSIGNMENT} are named like assignments"
    elif layout == "no student folders":
        submitted.mkdir()
        said = f"{submitted} holds no student folders"
    else:
        _write(submitted / "alice" / "homework", "notes.txt", "hello\n")
        said = f"no student folder of {submitted} holds an assignment of the course (fx01_basics)"
    done = subprocess.run(autograder_command(submitted, tmp_path / "out", "--course-dir", str(FIXTURE_COURSE)),
                          cwd=REPO_ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and said in done.stderr, done.stderr
    assert f"expected {submitted}/<student>/<assignment>/<notebook>.ipynb" in done.stderr
    assert not (tmp_path / "out").exists()


def test_an_out_dir_inside_submitted_is_refused(tmp_path):
    (tmp_path / "submitted").mkdir()
    done = subprocess.run(autograder_command(tmp_path / "submitted", tmp_path / "submitted" / "out", "--course-dir",
                                             str(FIXTURE_COURSE)), cwd=REPO_ROOT, capture_output=True, text=True)
    assert done.returncode == 2
    assert "is inside SUBMITTED_DIR" in done.stderr
    assert os.listdir(tmp_path / "submitted") == []


def test_grading_leaves_course_and_repository_untouched(graded):
    assert _snapshot(FIXTURE_COURSE) == graded["course_before"]
    assert _leftovers() == graded["leftovers_before"]


def test_grading_log_says_how_each_run_ended(graded):
    log = (graded["out"] / "grading.log").read_text()
    assert "==== kernel_died / fx01_basics / fx01_basics.ipynb: kernel_died 0/6" in log
    assert "run: died (exited with status 1)" in log


def test_a_diagnosis_budget_of_zero_grades_the_same_and_diagnoses_nothing(graded, tmp_path):
    submitted = tmp_path / "submitted"
    shutil.copytree(graded["out"].parent / "submitted" / "wrong", submitted / "wrong")
    done = subprocess.run(autograder_command(submitted, tmp_path / "out", "--course-dir", str(FIXTURE_COURSE),
                                             "--cell-timeout", CELL_TIMEOUT, "--diagnosis-budget", "0"),
                          cwd=REPO_ROOT, capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == "", done.stdout + done.stderr
    with_diagnosis = [r for r in read_rows(graded["out"] / "cells.csv") if r["student"] == "wrong"]
    assert read_rows(tmp_path / "out" / "cells.csv") == with_diagnosis
    assert [r["student"] for r in read_rows(graded["out"] / "diagnoses.csv")].count("wrong") == 1, \
        "precondition: with the default budget the fixture's wrong answer is diagnosed"
    assert read_rows(tmp_path / "out" / "diagnoses.csv") == []
    assert "diagnosis:" not in (tmp_path / "out" / "grading.log").read_text()


def test_fixture_config_grades_like_the_course():
    course, fixture = load_config(REPO_ROOT), load_config(FIXTURE_COURSE)
    for section in ("OverwriteCells", "Execute", "IgnorePattern"):
        assert fixture[section] == course[section], section


def test_exit_code_and_message_when_the_course_cannot_be_generated(tmp_path):
    course = tmp_path / "course"
    (course / "source" / ASSIGNMENT).mkdir(parents=True)
    (course / "nbgrader_config.py").write_bytes((FIXTURE_COURSE / "nbgrader_config.py").read_bytes())
    (course / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").write_text("not json")
    (tmp_path / "submitted" / "alice" / ASSIGNMENT).mkdir(parents=True)
    done = subprocess.run(autograder_command(tmp_path / "submitted", tmp_path / "out", "--course-dir", str(course)),
                          cwd=REPO_ROOT, capture_output=True, text=True)
    assert done.returncode == 1
    assert "generate_assignment fx01_basics failed" in done.stderr


@pytest.mark.parametrize("option, value, message", [
    ("--assignment", "nope", "no such assignment under source/: nope"),
    ("--diagnosis-budget", "-1", "--diagnosis-budget must not be negative")])
def test_usage_errors_name_the_option(option, value, message, tmp_path):
    (tmp_path / "submitted").mkdir()
    command = autograder_command(tmp_path / "submitted", tmp_path / "out", "--course-dir", str(FIXTURE_COURSE),
                                 option, value)
    done = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True)
    assert done.returncode == 2 and message in done.stderr


def test_release_tool_regenerates_the_committed_release_and_nothing_else(tmp_path):
    course = tmp_path / "course"
    shutil.copytree(FIXTURE_COURSE / "source", course / "source")
    shutil.copy(FIXTURE_COURSE / "nbgrader_config.py", course)
    done = subprocess.run([sys.executable, "-m", "tools.release", ASSIGNMENT, "--course-dir", str(course)],
                          cwd=REPO_ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert _snapshot(course / "release") == _snapshot(FIXTURE_COURSE / "release")
    assert sorted(p.name for p in course.iterdir()) == ["nbgrader_config.py", "release", "source"]


def _graded_rows(student: str, scores: dict[str, float]) -> tuple[list[str], list[str]]:
    grades = [f"{student},a,a,{sum(scores.values()):g},6,graded,x,"]
    cells = [f"{student},a,a,{grade_id},{score:g},{2 if grade_id.endswith('hidden') else 1}"
             for grade_id, score in scores.items()]
    return grades, cells


def _write_results(folder: Path, grades: list[str], cells: list[str], messages: list[str] = ()) -> None:
    """grades.csv, cells.csv and messages.csv in `folder`, as the grader writes them, from their rows."""
    for name, header, rows in [("grades", "student,assignment,notebook,score,max_score,status,detail,flags", grades),
                               ("cells", "student,assignment,notebook,grade_id,score,max_score", cells),
                               ("messages", "student,assignment,notebook,grade_id,hidden,message", messages)]:
        (folder / f"{name}.csv").write_text("\n".join([header, *rows]) + "\n")


def test_mutation_check_names_the_mutant_and_the_cells_it_got_wrong(tmp_path):
    source = nbformat.read(SOURCE, as_version=4)
    mutants = mutation.load_mutants(source, nbformat.read(RELEASE, as_version=4),
                                    FIXTURE_COURSE / "mutants" / ASSIGNMENT)
    assert [m.label for m in mutants] == ["square/stub", "mean_of/stub", "mean_of/floor_division",
                                          "mean_of/largest", "mean_of/sample_divisor", "square/cube",
                                          "square/positive_only", "square/times_two"]
    # Stubs alone; the k-th mutant of every exercise in pack k.
    packs = mutation.pack(mutants, source)
    assert [(p.student, p.labels) for p in packs] == [
        ("mutant-square-stub", "square/stub"), ("mutant-mean_of-stub", "mean_of/stub"),
        ("mutants-1", "mean_of/floor_division, square/cube"), ("mutants-2", "mean_of/largest, square/positive_only"),
        ("mutants-3", "mean_of/sample_divisor, square/times_two")]
    # A mutant that calls another exercise's solution is graded alone: a wrong mean_of beside it would change it.
    calls = mutation.Mutant("square", "calls_mean_of", "def square(x):\n    return mean_of([x * x])\n",
                            mutants[-1].fails)
    assert [(p.student, p.labels) for p in mutation.pack(mutants[2:4] + [calls], source)] == [
        ("mutant-square-calls_mean_of", "square/calls_mean_of"), ("mutants-1", "mean_of/floor_division"),
        ("mutants-2", "mean_of/largest")]
    cube = next(m for m in mutants if m.label == "square/cube")
    alone = mutation.Pack(cube.student, (cube,))
    # As if the cube mutant had failed only its visible test and broken mean_of's test too.
    grades, cells = _graded_rows(cube.student, {"test_square": 0, "test_square_hidden": 2,
                                                "test_mean_of": 0, "test_mean_of_hidden": 2})
    # As if pack 1 had lost only the cell floor_division declares: square/cube caught nothing.
    more_grades, more_cells = _graded_rows("mutants-1", {"test_square": 1, "test_square_hidden": 2,
                                                         "test_mean_of": 1, "test_mean_of_hidden": 0})
    # What the grader told the lone cube about the cell it should have passed is quoted: a point lost once in a
    # while must say why in the log that shows it.
    _write_results(tmp_path, grades + more_grades, cells + more_cells,
                   [f"{cube.student},a,a,test_mean_of,no,\"AssertionError: mean_of, 4.0\""])
    assert mutation.pack_problems([alone, packs[2]], source, tmp_path) == [
        "mutant square/cube should fail test_square_hidden, but it scored 2 of 2",
        "mutant square/cube should pass test_mean_of, but it scored 0 of 1: AssertionError: mean_of, 4.0",
        "mutant square/cube should fail test_square, but it scored 1 of 1 (graded as mutants-1: "
        "mean_of/floor_division, square/cube)",
        "mutant square/cube should fail test_square_hidden, but it scored 2 of 2 (graded as mutants-1: "
        "mean_of/floor_division, square/cube)",
    ]
    # Pack 1's loss counts for mean_of/floor_division, which declares it; the lone cube's test_mean_of loss counts
    # for cube, as when every mutant was graded alone.
    assert mutation.coverage_problems([alone, packs[2]], source, tmp_path) == [
        "test cell test_square passes on every stub: a blank exercise would earn its points",
        "test cell test_square is failed by 1 mutant file(s) (square/cube); it needs at least 2",
        "test cell test_square_hidden passes on every stub: a blank exercise would earn its points",
        "test cell test_square_hidden is failed by 0 mutant file(s) (none); it needs at least 2",
        "test cell test_mean_of passes on every stub: a blank exercise would earn its points",
        "test cell test_mean_of is failed by 1 mutant file(s) (square/cube); it needs at least 2",
        "test cell test_mean_of_hidden passes on every stub: a blank exercise would earn its points",
        "test cell test_mean_of_hidden is failed by 1 mutant file(s) (mean_of/floor_division); it needs at least 2",
    ]


def test_alternatives_must_pass_everything_and_number_two_per_exercise(tmp_path):
    source = nbformat.read(SOURCE, as_version=4)
    alternatives = mutation.load_alternatives(source, FIXTURE_COURSE / "alternatives" / ASSIGNMENT)
    assert [(a.label, a.fails, a.student) for a in alternatives][:1] == [
        ("mean_of/loop", frozenset(), "alternative-mean_of-loop")]
    assert mutation.alternative_coverage_problems(alternatives, source) == []
    assert mutation.alternative_coverage_problems(alternatives[:1], source) == [
        "exercise square has 0 alternative correct solution(s); it needs at least 2",
        "exercise mean_of has 1 alternative correct solution(s); it needs at least 2",
    ]
    # The k-th alternative of every exercise shares pack k; a pack is one notebook with all of them put in.
    packs = mutation.pack(alternatives, source)
    assert [(p.student, p.labels) for p in packs] == [("alternatives-1", "mean_of/loop, square/builtin_pow"),
                                                      ("alternatives-2", "mean_of/statistics_fmean, square/power")]
    packed = mutation.mutant_notebook(source, *packs[0].members)
    assert {c.metadata["nbgrader"]["grade_id"]: c.source for c in packed.cells
            if c.metadata.get("nbgrader", {}).get("solution")} == {m.cell: m.source for m in packs[0].members}
    with pytest.raises(ValueError, match="two replacements for one cell"):
        mutation.mutant_notebook(source, alternatives[0], alternatives[0])
    # As if a pack had lost mean_of's hidden test: the test demanded more than the statement says, and the pack's
    # mean_of alternative is named.
    grades, cells = _graded_rows(packs[0].student, {"test_square": 1, "test_square_hidden": 2,
                                                    "test_mean_of": 1, "test_mean_of_hidden": 0})
    _write_results(tmp_path, grades, cells)
    assert mutation.pack_problems(packs[:1], source, tmp_path) == [
        "alternative mean_of/loop should pass test_mean_of_hidden, but it scored 0 of 2 "
        "(graded as alternatives-1: mean_of/loop, square/builtin_pow)"]


def test_a_stub_is_graded_beside_alternatives_of_the_other_exercises(tmp_path):
    """A stub's notebook carries one alternative of every other exercise: the alternatives must earn full marks
    there, which also shows the stub costs only its own exercise's points; those left over share k-th packs."""
    source = nbformat.read(SOURCE, as_version=4)
    mutants = mutation.load_mutants(source, nbformat.read(RELEASE, as_version=4),
                                    FIXTURE_COURSE / "mutants" / ASSIGNMENT)
    alternatives = mutation.load_alternatives(source, FIXTURE_COURSE / "alternatives" / ASSIGNMENT)
    packs = mutation.pack(mutants + alternatives, source)
    assert [(p.student, p.labels) for p in packs] == [
        ("mutant-square-stub", "square/stub, mean_of/loop"),
        ("mutant-mean_of-stub", "mean_of/stub, square/builtin_pow"),
        ("mutants-1", "mean_of/floor_division, square/cube"), ("mutants-2", "mean_of/largest, square/positive_only"),
        ("mutants-3", "mean_of/sample_divisor, square/times_two"),
        ("alternatives-1", "mean_of/statistics_fmean, square/power")]
    # As if square's stub had also cost mean_of's visible test: the alternative beside it is charged, as an
    # alternative (the mutation check leaves it to the alternatives' check), and never counts as a mutant file.
    grades, cells = _graded_rows(packs[0].student, {"test_square": 0, "test_square_hidden": 0,
                                                    "test_mean_of": 0, "test_mean_of_hidden": 2})
    _write_results(tmp_path, grades, cells)
    assert mutation.pack_problems(packs[:1], source, tmp_path, "mutant") == []
    assert mutation.pack_problems(packs[:1], source, tmp_path, "alternative") == [
        "alternative mean_of/loop should pass test_mean_of, but it scored 0 of 1 "
        "(graded as mutant-square-stub: square/stub, mean_of/loop)"]
    assert "test cell test_mean_of is failed by 0 mutant file(s) (none); it needs at least 2" in \
        mutation.coverage_problems(packs[:1], source, tmp_path)


def test_the_chapters_packs_need_about_a_quarter_of_the_notebooks_one_per_member_would():
    """What the README says packs save, counted on the chapters' mutants and alternatives."""
    members = notebooks = 0
    for assignment in (a for a in assignments_in(REPO_ROOT) if a.startswith("ch")):
        source = nbformat.read(REPO_ROOT / "source" / assignment / f"{assignment}.ipynb", as_version=4)
        release = nbformat.read(REPO_ROOT / "release" / assignment / f"{assignment}.ipynb", as_version=4)
        graded = mutation.load_mutants(source, release, REPO_ROOT / "autograder" / "mutants" / assignment) + \
            mutation.load_alternatives(source, REPO_ROOT / "autograder" / "alternatives" / assignment)
        members, notebooks = members + len(graded), notebooks + len(mutation.pack(graded, source))
    assert 0.2 <= notebooks / members <= 0.3, (notebooks, members)


def test_alternatives_cannot_declare_failures(tmp_path):
    (tmp_path / "square").mkdir()
    (tmp_path / "square" / "odd.py").write_text("# fails: test_square\ndef square(x):\n    return x * x\n")
    with pytest.raises(ValueError, match="an alternative is a correct solution"):
        mutation.load_alternatives(nbformat.read(SOURCE, as_version=4), tmp_path)


def test_mutant_files_must_name_real_test_cells(tmp_path):
    (tmp_path / "square").mkdir()
    (tmp_path / "square" / "typo.py").write_text("# fails: test_sqaure\ndef square(x):\n    return x\n")
    source = nbformat.read(SOURCE, as_version=4)
    with pytest.raises(ValueError, match="unknown: test_sqaure"):
        mutation.load_mutants(source, nbformat.read(RELEASE, as_version=4), tmp_path)
