"""`python -m autograder merge OUT1 OUT2 ... --out OUT`: the shards of one grading, as one run would have written
them.

The rows of every shard are read back into NotebookResults and written by the same writers as a run, so
grades.csv, cells.csv, messages.csv and diagnoses.csv are byte-identical to one run's; feedback folders are moved
under one feedback/ (a student is in one shard only); grading.log is the shards' logs one after the other, each
under a line naming its shard (a log holds the notebook's own output, so it is never parsed for its structure).
The command then draws report.html again for the whole class, as after a run.
"""
import shutil
from collections import defaultdict
from pathlib import Path

from ..catalogue.diagnosis import Diagnosis
from ..catalogue.mutation import owners
from ..grading.batch import NotebookResult
from ..grading.scoring import CellScore
from ..reporting import messages
from ..reporting.grades import read_rows, write_reports
from .shard import ShardError, check_complete, read_marker


def _escaped(name: str) -> str:
    """A name as the CSV writers spell it: lone surrogates (undecodable bytes) as \\udcXX."""
    return name.encode("utf-8", "backslashreplace").decode("utf-8")


def load(out_dir: Path, students: list[str]) -> list[NotebookResult]:
    """The NotebookResults of one shard's output. `students` are its real names (from shard.json): rows are
    sorted by those, as a run sorts them, not by their escaped spelling in the CSV files."""
    real = {_escaped(student): student for student in students}
    cells, details = {}, iter(read_rows(out_dir / "messages.csv"))
    for row in read_rows(out_dir / "cells.csv"):
        detail = next(details, None)
        key = (row["student"], row["assignment"], row["notebook"], row["grade_id"])
        if detail is None or key != tuple(detail[k] for k in ("student", "assignment", "notebook", "grade_id")):
            raise ShardError(f"{out_dir}: messages.csv does not match cells.csv at {'/'.join(key)}")
        cells.setdefault(key[:3], []).append(CellScore(row["grade_id"], float(row["score"]), float(row["max_score"]),
                                                       detail["hidden"] == "yes", detail["message"]))
    diagnoses = defaultdict(list)  # (student, assignment, notebook) -> its Diagnoses, in the file's order
    for row in read_rows(out_dir / "diagnoses.csv"):
        notebooks = [key for key in cells if key[:2] == (row["student"], row["assignment"])]
        # The notebook whose test cells the exercise owns (an assignment may have several notebooks).
        owning = [key for key in notebooks if owners([row["exercise"]], [c.grade_id for c in cells[key]])]
        if not (owning or notebooks):
            raise ShardError(f"{out_dir}: diagnoses.csv names {row['student']}/{row['assignment']}, which has no "
                             "test cells in cells.csv")
        diagnoses[(owning or notebooks)[0]].append(Diagnosis(row["exercise"], row["mistake"], row["description"]))
    results = []
    for row in read_rows(out_dir / "grades.csv"):
        key = (row["student"], row["assignment"], row["notebook"])
        if row["student"] not in real:
            raise ShardError(f"{out_dir}: student {row['student']} is not in its {out_dir / 'shard.json'}")
        results.append(NotebookResult(real[row["student"]], row["assignment"], row["notebook"], row["status"],
                                      row["detail"], tuple(cells.get(key, ())),
                                      tuple(row["flags"].split("; ")) if row["flags"] else (),
                                      tuple(diagnoses.get(key, ()))))
    return results


def merge(shard_dirs: list[Path], out_dir: Path) -> list[NotebookResult]:
    """Writes the merged CSV files, feedback and log into `out_dir` (already claimed, empty of results); returns
    the merged results. Raises ShardError when the shards do not make one whole grading."""
    if len({path.resolve() for path in shard_dirs}) < len(shard_dirs):
        raise ShardError("a shard folder is given twice")
    markers = {path: read_marker(path) for path in shard_dirs}
    check_complete(markers)
    results, owner = [], {}
    for path, marker in markers.items():
        for student in marker["students"]:
            if student in owner:
                raise ShardError(f"student {_escaped(student)} was graded in {owner[student]} and in {path}")
            owner[student] = path
        results += load(path, marker["students"])
    write_reports(results, out_dir)
    messages.write(results, out_dir)
    feedback = out_dir / "feedback"
    feedback.mkdir()
    for path in sorted(markers, key=lambda p: markers[p]["shard"]):
        if (path / "feedback").is_dir():
            for folder in sorted((path / "feedback").iterdir()):
                shutil.copytree(folder, feedback / folder.name, symlinks=True)
    with open(out_dir / "grading.log", "wb") as log:
        for path in sorted(markers, key=lambda p: markers[p]["shard"]):
            marker = markers[path]
            log.write(f"#### shard {marker['shard']}/{marker['shards']}, from {path}\n".encode("utf-8",
                                                                                           "backslashreplace"))
            if (path / "grading.log").is_file():
                with open(path / "grading.log", "rb") as part:
                    shutil.copyfileobj(part, log)
    return results
