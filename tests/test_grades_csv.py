"""grades.csv for a real chapter, row by row: a folder with a reference, a blank and two wrong submissions."""
import nbformat
from conftest import REPO_ROOT, run_autograder

from autograder import mutation
from autograder.report import read_rows

CHAPTER = "ch01_gradient_descent"
NAME = f"{CHAPTER}.ipynb"
WRONG = {"wrong-std": ("grad_stats", "population_std"), "wrong-sweep": ("lr_sweep", "one_model_for_all")}


def _wrong_notebook(source, cell, mutant_name):
    path = REPO_ROOT / "autograder" / "mutants" / CHAPTER / cell / f"{mutant_name}.py"
    mutant = mutation.Mutant(cell, mutant_name, path.read_text(), frozenset())
    return mutation.mutant_notebook(source, mutant)


def test_grades_csv_for_reference_blank_and_two_wrong_submissions(tmp_path):
    source = nbformat.read(REPO_ROOT / "source" / CHAPTER / NAME, as_version=4)
    blank = nbformat.read(REPO_ROOT / "release" / CHAPTER / NAME, as_version=4)
    submitted = tmp_path / "submitted"
    mutation.write_submission(source, submitted, "reference", CHAPTER, CHAPTER)
    mutation.write_submission(blank, submitted, "blank", CHAPTER, CHAPTER)
    for student, (cell, name) in WRONG.items():
        mutation.write_submission(_wrong_notebook(source, cell, name), submitted, student, CHAPTER, CHAPTER)

    run_autograder(submitted, tmp_path / "out", "--assignment", CHAPTER)
    rows = read_rows(tmp_path / "out" / "grades.csv")

    assert [r["student"] for r in rows] == ["blank", "reference", "wrong-std", "wrong-sweep"]
    by_student = {r["student"]: r for r in rows}
    total = float(by_student["reference"]["max_score"])
    assert total == 18
    assert all(r["assignment"] == CHAPTER and r["notebook"] == CHAPTER and r["status"] == "graded" for r in rows)
    assert all(float(r["max_score"]) == total for r in rows)
    assert float(by_student["reference"]["score"]) == total
    assert float(by_student["blank"]["score"]) == 0
    for student, (cell, _) in WRONG.items():
        row = by_student[student]
        assert float(row["score"]) == total - 3, row
        assert f"test_{cell}" in row["detail"] and f"test_{cell}_hidden" in row["detail"], row["detail"]
