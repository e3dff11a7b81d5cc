"""Mutants and alternatives: the reference notebook with one solution cell replaced by a wrong implementation, or
by a correct one written differently.

For every solution cell X there is the stub (the release's version of X, which raises NotImplementedError) and
every file MUTANTS_ROOT/<assignment>/<X>/<name>.py, whose full text replaces X's source. A mutant must fail
exactly the test cells it declares and pass all others: by default X's own test cells (grade_id `test_X` or
`test_X_...`), or those listed on a line `# fails: test_a, test_b` in its file. Graded together as pseudo-
students in one autograder run, they show that every test cell catches wrong solutions and that a broken
exercise costs only its own points.

Tests are tested both ways: every file ALTERNATIVES_ROOT/<assignment>/<X>/<name>.py is a correct solution of X in
another style (a loop for a vectorised reference, a tuple where the statement allows any sequence, a NumPy detour)
and must earn full marks, so a test can demand only what the statement says, never one way of writing it. They
are graded in packs (the k-th alternative of every exercise in one notebook): a pack must earn full marks, which
it does only if each of its alternatives does, and it costs one kernel instead of one per alternative.
"""
import copy
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import nbformat

from .report import read_rows

FAILS_LINE = re.compile(r"^#\s*fails:(.*)$", re.MULTILINE)
MIN_MUTANT_FILES = 2
MIN_ALTERNATIVE_FILES = 2


@dataclass(frozen=True)
class Mutant:
    cell: str  # grade_id of the solution cell it replaces
    name: str  # "stub", or the mutant file's stem
    source: str
    fails: frozenset[str]  # empty for an alternative: it must pass every test cell
    kind: str = "mutant"  # or "alternative"

    @property
    def student(self) -> str:
        return f"{self.kind}-{self.cell}-{self.name}"

    @property
    def label(self) -> str:
        return f"{self.cell}/{self.name}"


def _ids(nb, kind: str) -> list[str]:
    meta = [cell.metadata.get("nbgrader", {}) for cell in nb.cells]
    return [m["grade_id"] for m in meta if m.get(kind)]


def graded_cells(nb) -> list[str]:
    return _ids(nb, "grade")


def solution_cells(nb) -> list[str]:
    return _ids(nb, "solution")


def own_tests(cell: str, nb) -> frozenset[str]:
    """The test cells of exercise `cell`. When one exercise name starts another's (`sgd` and `sgd_step`),
    a test cell belongs to the longest name it matches."""
    solutions = solution_cells(nb)

    def owner(test_id: str) -> str | None:
        names = [x for x in solutions if test_id == f"test_{x}" or test_id.startswith(f"test_{x}_")]
        return max(names, key=len) if names else None

    return frozenset(t for t in graded_cells(nb) if owner(t) == cell)


def _solution_files(source_nb, folder: Path):
    """(solution cell, file) for every `folder/<solution cell>/<name>.py`."""
    solutions = solution_cells(source_nb)
    for sub in sorted(p for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []:
        if sub.name not in solutions:
            raise ValueError(f"{sub}: the notebook has no solution cell {sub.name!r}")
        for path in sorted(sub.glob("*.py")):
            yield sub.name, path


def load_mutants(source_nb, release_nb, mutants_dir: Path) -> list[Mutant]:
    """The stub of every solution cell, then every mutant file under `mutants_dir` (= MUTANTS_ROOT/<assignment>)."""
    solutions, tests = solution_cells(source_nb), set(graded_cells(source_nb))
    released = {c.metadata["nbgrader"]["grade_id"]: c.source for c in release_nb.cells
                if c.metadata.get("nbgrader", {}).get("solution")}
    mutants = [Mutant(x, "stub", released[x], own_tests(x, source_nb)) for x in solutions]
    for cell, path in _solution_files(source_nb, mutants_dir):
        text = path.read_text(encoding="utf-8")
        declared = FAILS_LINE.search(text)
        fails = (frozenset(t.strip() for t in declared.group(1).split(",") if t.strip()) if declared
                 else own_tests(cell, source_nb))
        if path.stem == "stub" or not fails or fails - tests:
            raise ValueError(f"{path}: needs a name other than 'stub' and a '# fails:' line naming test cells "
                             f"of the notebook (unknown: {', '.join(sorted(fails - tests)) or 'none'})")
        mutants.append(Mutant(cell, path.stem, text, fails))
    return mutants


def load_alternatives(source_nb, alternatives_dir: Path) -> list[Mutant]:
    """Every correct alternative under `alternatives_dir` (= ALTERNATIVES_ROOT/<assignment>): it fails nothing."""
    alternatives = []
    for cell, path in _solution_files(source_nb, alternatives_dir):
        text = path.read_text(encoding="utf-8")
        if FAILS_LINE.search(text):
            raise ValueError(f"{path}: an alternative is a correct solution; it cannot declare '# fails:'")
        alternatives.append(Mutant(cell, path.stem, text, frozenset(), kind="alternative"))
    return alternatives


@dataclass(frozen=True)
class Pack:
    """Correct alternatives of different exercises, graded together as one pseudo-student."""
    number: int
    members: tuple[Mutant, ...]

    @property
    def student(self) -> str:
        return f"alternatives-{self.number}"

    @property
    def labels(self) -> str:
        return ", ".join(m.label for m in self.members)


def pack_alternatives(alternatives: list[Mutant]) -> list[Pack]:
    """Pack k holds the k-th alternative of every exercise that has k of them."""
    by_cell = defaultdict(list)
    for alternative in alternatives:
        by_cell[alternative.cell].append(alternative)
    depth = max(map(len, by_cell.values()), default=0)
    return [Pack(k + 1, tuple(group[k] for group in by_cell.values() if k < len(group))) for k in range(depth)]


def mutant_notebook(source_nb, *mutants: Mutant):
    """A copy of the reference notebook with each mutant's cell replaced (at most one mutant per cell)."""
    by_cell = {m.cell: m.source for m in mutants}
    if len(by_cell) != len(mutants):
        raise ValueError(f"two replacements for one cell: {', '.join(m.label for m in mutants)}")
    nb = copy.deepcopy(source_nb)
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in by_cell:
            cell.source = by_cell[grade_id]
    return nb


def write_submission(nb, submitted_dir: Path, student: str, assignment: str, notebook: str) -> None:
    folder = submitted_dir / student / assignment
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / f"{notebook}.ipynb")


def _lost_cells(out_dir: Path) -> dict[str, dict[str, tuple[float, float]]]:
    """student -> grade_id -> (score, max_score), from the autograder's cells.csv."""
    scores = defaultdict(dict)
    for row in read_rows(out_dir / "cells.csv"):
        scores[row["student"]][row["grade_id"]] = (float(row["score"]), float(row["max_score"]))
    return scores


def mutant_problems(mutants: list[Mutant], out_dir: Path) -> list[str]:
    """Each mutant (or alternative), as graded into `out_dir`, must score 0 on the cells it declares and full marks
    on the rest."""
    grades = {row["student"]: row for row in read_rows(out_dir / "grades.csv")}
    scores = _lost_cells(out_dir)
    problems = []
    for mutant in mutants:
        row = grades.get(mutant.student)
        if row is None or row["status"] != "graded":
            problems.append(f"{mutant.kind} {mutant.label} was not graded: {row and row['status']}: {row and row['detail']}")
            continue
        for grade_id, (score, max_score) in scores[mutant.student].items():
            if grade_id in mutant.fails and score != 0:
                problems.append(f"{mutant.kind} {mutant.label} should fail {grade_id}, but it scored {score:g} of {max_score:g}")
            if grade_id not in mutant.fails and score != max_score:
                problems.append(f"{mutant.kind} {mutant.label} should pass {grade_id}, but it scored {score:g} of {max_score:g}")
    return problems


def pack_problems(packs: list[Pack], source_nb, out_dir: Path) -> list[str]:
    """Each pack, as graded into `out_dir`, must earn full marks. A lost test cell is charged to the alternative of
    the exercise that owns the cell, and to the whole pack when no alternative of that exercise is in it."""
    grades = {row["student"]: row for row in read_rows(out_dir / "grades.csv")}
    scores = _lost_cells(out_dir)
    owner = {test: x for x in solution_cells(source_nb) for test in own_tests(x, source_nb)}
    problems = []
    for pack in packs:
        row = grades.get(pack.student)
        if row is None or row["status"] != "graded":
            problems.append(f"{pack.student} ({pack.labels}) was not graded: {row and row['status']}: "
                            f"{row and row['detail']}")
            continue
        members = {m.cell: m for m in pack.members}
        for grade_id, (score, max_score) in scores[pack.student].items():
            if score != max_score:
                member = members.get(owner.get(grade_id))
                who = f"alternative {member.label}" if member else f"the alternatives {pack.labels} together"
                problems.append(f"{who} should pass {grade_id}, but it scored {score:g} of {max_score:g} "
                                f"(graded as {pack.student}: {pack.labels})")
    return problems


def coverage_problems(mutants: list[Mutant], tests: list[str], out_dir: Path) -> list[str]:
    """Every test cell must lose points on its exercise's stub and on at least MIN_MUTANT_FILES mutant files."""
    scores = _lost_cells(out_dir)
    caught_by = defaultdict(list)
    for mutant in mutants:
        for grade_id, (score, max_score) in scores[mutant.student].items():
            if score < max_score:
                caught_by[grade_id].append(mutant)
    problems = []
    for grade_id in tests:
        files = [m.label for m in caught_by[grade_id] if m.name != "stub"]
        if not any(m.name == "stub" for m in caught_by[grade_id]):
            problems.append(f"test cell {grade_id} passes on every stub: a blank exercise would earn its points")
        if len(files) < MIN_MUTANT_FILES:
            problems.append(f"test cell {grade_id} is failed by {len(files)} mutant file(s) ({', '.join(files) or 'none'});"
                            f" it needs at least {MIN_MUTANT_FILES}")
    return problems


def alternative_coverage_problems(alternatives: list[Mutant], source_nb) -> list[str]:
    """Every exercise needs at least MIN_ALTERNATIVE_FILES correct alternatives."""
    count = defaultdict(int)
    for alternative in alternatives:
        count[alternative.cell] += 1
    return [f"exercise {x} has {count[x]} alternative correct solution(s); it needs at least {MIN_ALTERNATIVE_FILES}"
            for x in solution_cells(source_nb) if count[x] < MIN_ALTERNATIVE_FILES]
