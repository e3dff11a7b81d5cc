"""Why each test cell failed, for the instructor: OUT/messages.csv, one row per row of cells.csv, with whether
the cell holds hidden tests and its failure message (empty when it passed).

The message is the cell's error as the runner sent it (`AssertionError: loss: expected 0.25, got 0.5 (...)` from
the `course.testing` helpers), or why it earned nothing without an error (stderr, the notebook stopped before
it). Hidden tests' messages are kept: the instructor wrote those tests, and the class report groups what the
class got wrong. Students never see this file; their feedback pages say only that a hidden test failed.
Messages are a student's process's words, so the file is not promised byte-identical between runs (an object's
repr can hold a memory address); grades.csv and cells.csv are.
"""
import re
from pathlib import Path

from .grades import _write  # the same writer as grades.csv: a merge rewrites all three files alike

COLUMNS = ("student", "assignment", "notebook", "grade_id", "hidden", "message")

# Numbers in any spelling a message uses (-3, 0.25, 1e-08, 2.50e+00, nan, inf, 0x7f3a...), not digits inside a
# name (`test_1`, `x2`): messages that differ only in their numbers are one mistake.
_NUMBER = re.compile(r"(?<![\w.])(?:0x[0-9a-fA-F]+|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf))"
                     r"(?![\w])")


def normalise(message: str) -> str:
    """`message` with every number replaced by `#` and runs of white space by one space."""
    return " ".join(_NUMBER.sub("#", message).split())


def write(results, out_dir: Path) -> None:
    ordered = sorted(results, key=lambda r: (r.student, r.assignment, r.notebook))
    _write(out_dir / "messages.csv", COLUMNS,
           ([r.student, r.assignment, r.notebook, c.grade_id, "yes" if c.hidden else "no", c.message]
            for r in ordered for c in r.cells))
