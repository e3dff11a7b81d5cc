"""`make bench`'s grading part on the fixture course: a synthetic class of every kind of submission, graded
serially and with --jobs 2 and run plainly in the sandbox, gives throughput and overhead figures."""
import nbformat
from conftest import FIXTURE_COURSE

from autograder.catalogue import mutation
from tools import bench

ASSIGNMENT = "fx01_basics"


def _read(path):
    return nbformat.read(path, as_version=4) if path.stat().st_size else None


def test_the_synthetic_class_mixes_every_kind(tmp_path):
    counts = bench.make_class(FIXTURE_COURSE, [ASSIGNMENT], 20, tmp_path, FIXTURE_COURSE / "mutants")
    assert counts == {"correct": 10, "wrong": 4, "blank": 2, "partial": 2, "broken": 2}
    source = (FIXTURE_COURSE / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text()
    texts = {p.parent.parent.name: p.read_text() for p in tmp_path.glob(f"*/{ASSIGNMENT}/*.ipynb")}
    assert len(texts) == 20
    assert nbformat.reads(texts["student000"], as_version=4) == nbformat.reads(source, as_version=4)
    assert texts["student001"] != texts["student000"] and texts["student005"] != texts["student001"]  # two mutants
    assert "os._exit(1)" in texts["student009"]  # broken: the process dies, then a corpus case
    assert texts["student019"] == ""  # the corpus's empty file
    assert bench.ready_chapters(FIXTURE_COURSE) == [ASSIGNMENT]


def test_the_wrong_answers_are_spread_over_every_exercise(tmp_path):
    source, release = (nbformat.read(FIXTURE_COURSE / folder / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
                       for folder in ("source", "release"))
    catalogue = mutation.load_mutants(source, release, FIXTURE_COURSE / "mutants" / ASSIGNMENT)
    exercise_of = {nbformat.writes(mutation.mutant_notebook(source, m)): m.cell for m in catalogue
                   if m.name != "stub"}
    bench.make_class(FIXTURE_COURSE, [ASSIGNMENT], 10, tmp_path, FIXTURE_COURSE / "mutants")  # two wrong
    wrong = [bench.KINDS[i % len(bench.KINDS)] == "wrong" for i in range(10)]
    shown = [exercise_of.get(nbformat.writes(nbformat.read(tmp_path / f"student{i:03d}" / ASSIGNMENT
                                                           / f"{ASSIGNMENT}.ipynb", as_version=4)))
             for i in range(10) if wrong[i]]
    assert None not in shown, "every wrong student hands in one catalogued mistake"
    assert set(shown) == set(exercise_of.values()), f"the wrong answers fall on {shown}, not on every exercise"


def test_bench_grades_the_class_and_measures_throughput_and_overhead(tmp_path, capsys):
    results, failures = {}, []
    bench.grading(FIXTURE_COURSE, [ASSIGNMENT], 20, tmp_path, results, failures, FIXTURE_COURSE / "mutants")
    printed = capsys.readouterr().out
    assert results["class_notebooks"] == 20 and results["plain_sample_students"] == 10
    assert results["class_statuses"] == {"graded": 18, "kernel_died": 1, "invalid": 1}
    for key in ("grading_notebooks_per_min_serial", "grading_notebooks_per_min_jobs2", "plain_in_sandbox_s",
                "grading_beyond_sandbox_runs", "grading_diagnosis_s"):
        assert results[key] > 0, key
    assert results["grading_diagnosis_share"] < 1
    assert "notebooks/min" in printed and "grading overhead over plain execution" in printed
    assert "diagnosis (the catalogue, inside the runs)" in printed
    # Failures are reported as goals missed, never raised: the fixture's notebooks are too quick for the goal.
    assert all("overhead" in failure or "diagnosis" in failure for failure in failures)
