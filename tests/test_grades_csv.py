"""grades.csv for a real chapter, row by row: a folder with a reference, a blank and two wrong submissions."""
from conftest import SMALL_CLASS_CHAPTER, SMALL_CLASS_WRONG

from autograder.reporting.grades import read_rows


def test_grades_csv_for_reference_blank_and_two_wrong_submissions(small_class):
    _, out = small_class
    rows = read_rows(out / "grades.csv")

    assert [r["student"] for r in rows] == ["blank", "reference", "wrong-std", "wrong-sweep"]
    by_student = {r["student"]: r for r in rows}
    total = float(by_student["reference"]["max_score"])
    assert total == 18
    assert all(r["assignment"] == SMALL_CLASS_CHAPTER and r["notebook"] == SMALL_CLASS_CHAPTER
               and r["status"] == "graded" for r in rows)
    assert all(float(r["max_score"]) == total for r in rows)
    assert float(by_student["reference"]["score"]) == total
    assert float(by_student["blank"]["score"]) == 0
    for student, (cell, _) in SMALL_CLASS_WRONG.items():
        row = by_student[student]
        assert float(row["score"]) == total - 3, row
        assert f"test_{cell}" in row["detail"] and f"test_{cell}_hidden" in row["detail"], row["detail"]
