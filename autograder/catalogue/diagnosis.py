"""The grader's side of a diagnosis: what the runner is asked to compare (catalogue.behaviour does it, in the
sandbox, from the student's own run, after the notebook's last cell), and what is kept of its answer.

Asked for: every exercise the student attempted (its solution cell is no longer the release's stub) that has
entries in the catalogue, with its own test cells (by position in the repaired notebook) and every entry's code.
Kept: the mistakes named for exercises that lost points as the grader scored them (a passing exercise is never
diagnosed), each with the catalogue's description and hint; several only when the catalogue declares them
equivalent. No entry is written for one exercise: a new entry of
any exercise is diagnosed like the others.
"""
from dataclasses import dataclass

from ..course_root import Blueprint
from ..grading.plan import bindings, python_source
from .entries import Entry, equivalents
from .mutation import owners

@dataclass(frozen=True)
class Diagnosis:
    exercise: str
    mistake: str  # the catalogue file's stem
    description: str
    hint: str = ""  # not in diagnoses.csv: a merge reads it back without


def test_owners(blueprint: Blueprint) -> dict[str, str]:
    """test cell grade_id -> the exercise it tests."""
    return owners([c.grade_id for c in blueprint.cells if c.role == "solution"], [c.grade_id for c in blueprint.tests])


def request(blueprint: Blueprint, nb, catalogue: list[Entry], budget: float) -> dict | None:
    """The job's "diagnosis" part for the repaired notebook `nb`, or None when there is nothing to compare or no
    time (`budget`, seconds) to compare it in."""
    if budget <= 0:
        return None
    position = {cell.metadata.get("nbgrader", {}).get("grade_id"): index for index, cell in enumerate(nb.cells)}
    owner = test_owners(blueprint)
    exercises = []
    for course_cell in blueprint.cells:
        exercise = course_cell.grade_id
        mistakes = [{"name": e.name, "source": python_source(e.source)} for e in catalogue if e.exercise == exercise]
        if course_cell.role != "solution" or not mistakes or exercise not in position:
            continue
        if nb.cells[position[exercise]].source.strip() == course_cell.release_source.strip():
            continue  # not attempted: a stub behaves like no mistake
        tests = sorted(position[t] for t, x in owner.items() if x == exercise and t in position)
        if tests:
            names = bindings(python_source(course_cell.source))[1]  # what the reference solution defines
            exercises.append({"name": exercise, "names": list(names), "tests": tests, "mistakes": mistakes})
    return {"exercises": exercises, "budget": budget} if exercises else None


def kept(found: dict, blueprint: Blueprint, cells, catalogue: list[Entry]) -> tuple[Diagnosis, ...]:
    """The runner's `found` ({exercise: [names]}) for the exercises whose test cells lost points. Several names
    for one exercise are kept only when the catalogue declares them equivalent: mistakes the probes cannot tell
    apart, though they are different, are a guess, and a guess is not said."""
    owner = test_owners(blueprint)
    lost = {owner[c.grade_id] for c in cells if c.score < c.max_score and c.grade_id in owner}
    described = {(e.exercise, e.name): e for e in catalogue}
    equivalent = equivalents(catalogue)
    kept_names = {exercise: names for exercise, names in (found or {}).items()
                  if exercise in lost and names and all((exercise, name) in described for name in names)
                  and set(names) <= {names[0]} | equivalent[(exercise, names[0])]}
    return tuple(Diagnosis(exercise, name, described[(exercise, name)].description,
                           described[(exercise, name)].hint) for exercise, names in kept_names.items()
                 for name in names)
