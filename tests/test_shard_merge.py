"""--shard K/N and merge: the shards of a small class on the fixture course, merged, give the files one run
writes (byte-identical grades.csv, cells.csv, messages.csv and diagnoses.csv, the same feedback pages), with every log and a
report for the whole class; every shard expects the assignments the whole class handed in, whichever students it
grades; shards that do not make one whole grading are refused."""
import os
import shutil
import subprocess
import sys

import pytest
from conftest import FIXTURE_COURSE, REPO_ROOT, autograder_command
from fixture_class import ASSIGNMENT, SCORES, UNASSIGNED, make_class, make_course

from autograder.__main__ import main
from autograder.reporting.grades import read_rows
from autograder.scaling.shard import Shard, read_marker

# Undecodable bytes in a folder name: CSV files spell it \udcff, which sorts before letters; the real name
# (a lone surrogate) sorts after them. Merged rows must follow the real names, as a run sorts them.
ODD = os.fsdecode(b"\xffodd")
OPTIONS = ("--course-dir", str(FIXTURE_COURSE))
# One student of the class hands in a second assignment of the course: the shard that does not grade that student
# must expect it all the same.
EXTRA = UNASSIGNED


def _merge(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "autograder", "merge", *map(str, args)], cwd=REPO_ROOT,
                          capture_output=True, text=True)


def _refused(capsys, *args) -> tuple[int, str]:
    """(exit status, stderr) of the command line run in this process: refusals need no new interpreter."""
    try:
        status = main([str(arg) for arg in args])
    except SystemExit as stop:  # argparse's usage errors
        status = stop.code
    return status, capsys.readouterr().err


def _files(folder) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("shards")
    make_class(base / "submitted")
    (base / "submitted" / "reference").rename(base / "submitted" / ODD)
    (base / "submitted" / ODD / EXTRA).mkdir()  # handed in an empty folder: `missing`, but expected of everyone
    options = ("--course-dir", str(make_course(base / "course")))
    names = {"whole": (), "shard1": ("--shard", "1/2"), "shard2": ("--shard", "2/2")}
    started = {name: subprocess.Popen(autograder_command(base / "submitted", base / name, *options, *extra),
                                      cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for name, extra in names.items()}
    for name, run in started.items():
        stdout, stderr = run.communicate()
        assert run.returncode == 0, f"{name}: {stdout}\n{stderr}"
    merged = _merge(base / "shard2", base / "shard1", "--out", base / "merged")  # any order
    assert merged.returncode == 0, merged.stderr
    return base


def test_every_student_is_in_exactly_one_shard():
    students = [f"student{i}" for i in range(200)] + [ODD]
    for count in range(1, 6):
        owners = [[k for k in range(1, count + 1) if Shard(k, count).owns(s)] for s in students]
        assert all(len(found) == 1 for found in owners), count
    shares = [sum(Shard(k, 4).owns(s) for s in students) for k in range(1, 5)]
    assert min(shares) > 30, shares  # a fair share each, roughly


def test_every_shard_expects_what_the_whole_class_handed_in(runs):
    expected = [ASSIGNMENT, EXTRA]
    for name in ("whole", "shard1", "shard2"):
        rows = read_rows(runs / name / "grades.csv")
        assert sorted({r["assignment"] for r in rows}) == expected, name
        assert len(rows) == len({r["student"] for r in rows}) * len(expected), name
    assert read_marker(runs / "shard1")["assignments"] == read_marker(runs / "shard2")["assignments"] == expected


def test_shards_split_the_class(runs):
    shard1 = {r["student"] for r in read_rows(runs / "shard1" / "grades.csv")}
    shard2 = {r["student"] for r in read_rows(runs / "shard2" / "grades.csv")}
    whole = {r["student"] for r in read_rows(runs / "whole" / "grades.csv")}
    assert shard1 and shard2 and not shard1 & shard2 and shard1 | shard2 == whole
    assert len(whole) == len(SCORES)


def test_merged_files_are_those_of_one_run(runs):
    for name in ("grades.csv", "cells.csv", "messages.csv", "diagnoses.csv"):
        assert (runs / "merged" / name).read_bytes() == (runs / "whole" / name).read_bytes(), name
    assert b"floor_division" in (runs / "merged" / "diagnoses.csv").read_bytes()
    assert read_rows(runs / "merged" / "grades.csv")[-1]["student"] == "\\udcffodd"
    assert _files(runs / "merged" / "feedback") == _files(runs / "whole" / "feedback")
    assert not (runs / "merged" / "shard.json").exists()


def test_merged_log_and_report_cover_the_whole_class(runs):
    log = (runs / "merged" / "grading.log").read_text(errors="replace")
    assert log.index("#### shard 1/2") < log.index("#### shard 2/2")
    for row in read_rows(runs / "whole" / "grades.csv"):
        assert f"==== {row['student']} / {row['assignment']} / {row['notebook']}.ipynb: {row['status']}" in log
    assert "warning: missing/fx01_basic/ is not an assignment" in log
    report = (runs / "merged" / "report.html").read_text()
    assert f"{len(SCORES)} students, {2 * len(SCORES)} notebooks" in report


def test_shards_that_do_not_make_one_grading_are_refused(runs, tmp_path, capsys):
    status, err = _refused(capsys, "merge", runs / "shard1", "--out", tmp_path / "a")
    assert status == 1 and "missing [2]" in err
    status, err = _refused(capsys, "merge", runs / "shard1", runs / "shard1", runs / "shard2", "--out", tmp_path / "b")
    assert status == 1 and "given twice" in err
    shutil.copytree(runs / "shard1", tmp_path / "copy")
    status, err = _refused(capsys, "merge", runs / "shard1", tmp_path / "copy", runs / "shard2", "--out", tmp_path / "b")
    assert status == 1 and "given twice [1]" in err
    status, err = _refused(capsys, "merge", runs / "whole", runs / "shard2", "--out", tmp_path / "c")
    assert status == 1 and "not the output of `grade --shard K/N`" in err
    status, err = _refused(capsys, "merge", runs / "shard1", runs / "shard2", "--out", runs / "merged")
    assert status == 2 and "--force" in err
    status, err = _refused(capsys, "to-gradebook", runs / "shard1", "--course-dir", FIXTURE_COURSE)
    assert status == 2 and "merge the shards" in err


def test_a_bad_shard_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "submitted").mkdir()
    for bad in ("3/2", "0/2", "1-2"):
        status, err = _refused(capsys, "grade", tmp_path / "submitted", "--out", tmp_path / "out", *OPTIONS,
                               "--shard", bad)
        assert status == 2 and "--shard" in err, bad
