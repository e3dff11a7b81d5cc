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
and must earn full marks, so a test can demand only what the statement says, never one way of writing it.

Grading one notebook per mutant would cost a kernel each, so they are graded in packs: pack k holds the k-th
mutant (or alternative) of every exercise, and must lose exactly the cells its members declare. That tells the
same as grading them one by one where exercises are independent: each stub is graded without any other mistake,
beside a correct solution of every other exercise (the reference, or an alternative, which must then earn full
marks), and must cost only its own exercise's points (no cell needs another exercise's solution); and a member
goes alone when its source or its exercise's test cells name what another exercise's solution defines (a test
that probes another exercise first, a mutant that calls it), or when it declares cells of other exercises. What a
pack cannot show is a member breaking, by a side effect, cells that another member fails anyway.
"""
import ast
import copy
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import nbformat

from ..grading.plan import python_source
from ..reporting.grades import read_rows
from . import entries

MIN_MUTANT_FILES = 2
MIN_ALTERNATIVE_FILES = 2
MESSAGE_SHOWN = 2000  # characters of the grader's message a problem quotes


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


def owners(solutions: list[str], tests: list[str]) -> dict[str, str]:
    """test cell -> the exercise it tests (grade_id `test_X` or `test_X_...`). When one exercise name starts
    another's (`sgd` and `sgd_step`), a test cell belongs to the longest name it matches."""
    found = {}
    for test_id in tests:
        names = [x for x in solutions if test_id == f"test_{x}" or test_id.startswith(f"test_{x}_")]
        if names:
            found[test_id] = max(names, key=len)
    return found


def owning_exercises(nb) -> dict[str, str]:
    """test cell -> the exercise it tests, in a notebook (see owners)."""
    return owners(solution_cells(nb), graded_cells(nb))


def own_tests(cell: str, nb) -> frozenset[str]:
    """The test cells of exercise `cell`."""
    return frozenset(t for t, x in owning_exercises(nb).items() if x == cell)


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
        entry = entries.read_entry(path)
        fails = own_tests(cell, source_nb) if entry.fails is None else entry.fails
        if path.stem == "stub" or not fails or fails - tests:
            raise ValueError(f"{path}: needs a name other than 'stub' and a '# fails:' line naming test cells "
                             f"of the notebook (unknown: {', '.join(sorted(fails - tests)) or 'none'})")
        mutants.append(Mutant(cell, path.stem, entry.source, fails))
    return mutants


def load_alternatives(source_nb, alternatives_dir: Path) -> list[Mutant]:
    """Every correct alternative under `alternatives_dir` (= ALTERNATIVES_ROOT/<assignment>): it fails nothing."""
    alternatives = []
    for cell, path in _solution_files(source_nb, alternatives_dir):
        text = path.read_text(encoding="utf-8")
        if "fails" in entries.parse_header(text):
            raise ValueError(f"{path}: an alternative is a correct solution; it cannot declare '# fails:'")
        alternatives.append(Mutant(cell, path.stem, text, frozenset(), kind="alternative"))
    return alternatives


@dataclass(frozen=True)
class Pack:
    """Mutants (or alternatives) of different exercises, graded together as one pseudo-student."""
    student: str
    members: tuple[Mutant, ...]

    @property
    def labels(self) -> str:
        return ", ".join(m.label for m in self.members)

    @property
    def fails(self) -> frozenset[str]:
        return frozenset().union(*(m.fails for m in self.members))


def _tree(source: str) -> ast.Module | None:
    """A cell's syntax tree (IPython syntax turned into Python); None when it is not Python."""
    try:
        return ast.parse(python_source(source))
    except SyntaxError:
        return None


def _defined(tree: ast.Module | None) -> set[str]:
    """The module-level names a solution cell defines (functions, classes, assignments)."""
    body = tree.body if tree else []
    names = {n.name for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    targets = [t for n in body if isinstance(n, (ast.Assign, ast.AnnAssign))
               for t in (n.targets if isinstance(n, ast.Assign) else [n.target])]
    return names | {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _mentions_any(tree: ast.Module | None, names: set[str]) -> bool:
    """Whether a cell names one of `names` (a solution's module-level names are reached by name); a cell that is
    not Python may name anything."""
    return tree is None or any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(tree))


def _graded_alone(source_nb):
    """mutant -> whether `pack` grades it without other mistakes: a stub (it proves its exercise independent of
    the others), a mutant that declares other exercises' cells, or one that, or whose exercise's test cells, name
    what another exercise's solution defines."""
    cells = {c.metadata["nbgrader"]["grade_id"]: c.source for c in source_nb.cells
             if "grade_id" in c.metadata.get("nbgrader", {})}
    defined = {x: _defined(_tree(cells[x])) for x in solution_cells(source_nb)}
    owners = owning_exercises(source_nb)
    tests = {x: [_tree(cells[t]) for t, owner in owners.items() if owner == x] for x in defined}

    def alone(mutant: Mutant) -> bool:
        others = set().union(*(names for x, names in defined.items() if x != mutant.cell))
        return (mutant.name == "stub" or any(owners.get(t) != mutant.cell for t in mutant.fails)
                or any(_mentions_any(tree, others) for tree in [_tree(mutant.source), *tests[mutant.cell]]))

    return alone


def _kth_packs(members: list[Mutant], kind: str) -> list[Pack]:
    """The k-th member of every exercise in pack k (`mutants-k`, or `alternatives-k`)."""
    by_cell = defaultdict(list)
    for member in members:
        by_cell[member.cell].append(member)
    depth = max(map(len, by_cell.values()), default=0)
    packs = [tuple(group[k] for group in by_cell.values() if k < len(group)) for k in range(depth)]
    return [Pack(f"{kind}s-{k}", group) for k, group in enumerate(packs, 1)]


def pack(members: list[Mutant], source_nb) -> list[Pack]:
    """Mutants and alternatives, into the notebooks that grade them. Those `_graded_alone` says, alone (under
    their own student names), but a stub carries alternatives: its notebook holds, for every other exercise, one
    of its alternatives not graded alone, in order. They must earn full marks beside the stub, so one notebook
    shows both that the stub costs only its own exercise's points (no cell needs another exercise's solution) and
    that the alternatives are correct. The other mutants, and the alternatives left over, in k-th packs."""
    alone = _graded_alone(source_nb)
    by_itself, mutants, riders = [], [], defaultdict(list)
    for member in members:
        if alone(member):
            by_itself.append(member)
        elif member.kind == "alternative":
            riders[member.cell].append(member)
        else:
            mutants.append(member)
    packs = []
    for member in by_itself:
        carried = tuple(group.pop(0) for cell, group in riders.items() if cell != member.cell and group) \
            if member.name == "stub" else ()
        packs.append(Pack(member.student, (member, *carried)))
    return packs + _kth_packs(mutants, "mutant") + _kth_packs([m for g in riders.values() for m in g], "alternative")


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


def _messages(out_dir: Path) -> dict[tuple[str, str], str]:
    """(student, grade_id) -> what the grader told the student about that cell, from messages.csv."""
    return {(row["student"], row["grade_id"]): row["message"] for row in read_rows(out_dir / "messages.csv")}


def _charged(pack: Pack, grade_id: str, owner: dict[str, str]) -> Mutant | None:
    """The member a test cell's result is charged to: the one that declares it, else the one whose exercise owns
    it; in a pack of one, its member."""
    declared = [m for m in pack.members if grade_id in m.fails]
    owning = [m for m in pack.members if m.cell == owner.get(grade_id)]
    return next(iter(declared + owning), pack.members[0] if len(pack.members) == 1 else None)


def pack_problems(packs: list[Pack], source_nb, out_dir: Path, kind: str | None = None) -> list[str]:
    """Each pack, as graded into `out_dir`, must score 0 on the cells its members declare and full marks on the
    rest; a wrong result is charged to the member that declares the cell or whose exercise owns it. With `kind`
    ("mutant" or "alternative"), only the results charged to members of that kind (or to no one member)."""
    grades = {row["student"]: row for row in read_rows(out_dir / "grades.csv")}
    scores, messages = _lost_cells(out_dir), _messages(out_dir)
    owner = owning_exercises(source_nb)
    problems = []
    for pack in packs:
        row = grades.get(pack.student)
        if row is None or row["status"] != "graded":
            problems.append(f"{pack.student} ({pack.labels}) was not graded: {row and row['status']}: "
                            f"{row and row['detail']}")
            continue
        where = f" (graded as {pack.student}: {pack.labels})" if len(pack.members) > 1 else ""
        for grade_id, (score, max_score) in scores[pack.student].items():
            member = _charged(pack, grade_id, owner)
            if kind and member and member.kind != kind:
                continue
            who = f"{member.kind} {member.label}" if member else f"{pack.labels} together"
            if grade_id in pack.fails and score != 0:
                problems.append(f"{who} should fail {grade_id}, but it scored {score:g} of {max_score:g}{where}")
            if grade_id not in pack.fails and score != max_score:
                # the grader's message: a point lost once in a while must say why in the one CI log that shows it
                told = messages.get((pack.student, grade_id), "")[:MESSAGE_SHOWN]
                problems.append(f"{who} should pass {grade_id}, but it scored {score:g} of {max_score:g}{where}"
                                f"{': ' + told if told else ''}")
    return problems


def coverage_problems(packs: list[Pack], source_nb, out_dir: Path) -> list[str]:
    """Every test cell must lose points on its exercise's stub and on at least MIN_MUTANT_FILES mutant files."""
    scores = _lost_cells(out_dir)
    owner = owning_exercises(source_nb)
    caught_by = defaultdict(list)
    for pack in packs:
        for grade_id, (score, max_score) in scores[pack.student].items():
            member = _charged(pack, grade_id, owner)
            if score < max_score and member:
                caught_by[grade_id].append(member)
    problems = []
    for grade_id in graded_cells(source_nb):
        files = [m.label for m in caught_by[grade_id] if m.kind == "mutant" and m.name != "stub"]
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
