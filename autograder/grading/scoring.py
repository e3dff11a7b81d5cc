"""Scores decided in the grader, from the runner's signed facts and the gradebook's points, after the run.

A test cell earns its points only if its result arrived, it raised nothing, it wrote nothing to stderr (beyond
the course's IgnorePattern, as nbgrader rules), nothing the tests rely on changed while it ran, no thread of the
notebook's was running, and no student code had reached into the grader before or during it. Everything that
bent the rules, even when it cost nothing, becomes a flag for an instructor.
"""
import re
from dataclasses import dataclass, replace

from ..course_root import Blueprint
from .session import Outcome

TIMEOUT_ENAME = "CellTimeout"
# The error a stub raises: an exercise left blank, reached from a test or course cell, is no cause to point out.
STUB_ENAME = "NotImplementedError"
MAX_NAMES = 3
NOTE_LIMIT = 300  # characters of a visible test's failure message in the student's note (the output shows it all)


@dataclass(frozen=True)
class CellScore:
    grade_id: str
    score: float
    max_score: float
    hidden: bool = False
    # Why the cell failed, for the instructor only (OUT/messages.csv, the class report): unlike the student's
    # feedback it keeps a hidden test's error message, as the instructor wrote the test, and all of it (a DDP
    # worker's traceback ends with its cause). Empty when it passed.
    message: str = ""


@dataclass(frozen=True)
class Verdict:
    status: str
    detail: str
    cells: tuple[CellScore, ...]
    flags: tuple[str, ...]
    notes: dict  # cell index -> (passed, what the student sees about it) for test cells


def _names(names: list[str]) -> str:
    shown = ", ".join(names[:MAX_NAMES])
    return shown + (f" and {len(names) - MAX_NAMES} more" if len(names) > MAX_NAMES else "")


def summary(cells: tuple[CellScore, ...]) -> str:
    score = f"Graded: {sum(c.score for c in cells):g} of {sum(c.max_score for c in cells):g} points"
    failed = [c.grade_id for c in cells if c.score < c.max_score]
    if not failed:
        return f"{score}; every test cell passed."
    noun = "test cell" if len(failed) == 1 else "test cells"
    return f"{score}; {len(failed)} {noun} failed: {', '.join(failed)}."


def _first_line(text: str, limit: int) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[:limit - 1] + "…"


def first_error(planned: list[dict], outcome: Outcome, label) -> str | None:
    """'<cell>: <error>' of the first cell outside the test cells that raised, in run order: the cause of
    failures further down (a solution cell's ModuleNotFoundError leaves its function undefined, and its tests
    fail with a NameError). None when there is none, or when it is a stub's NotImplementedError (an exercise left
    blank: what fails after it follows from that) or a timeout (the detail says so already)."""
    for cell in planned:
        error = outcome.results.get(cell["index"], {}).get("error")
        if cell["kind"] != "test" and error:
            if error.get("ename") in (STUB_ENAME, TIMEOUT_ENAME):
                return None
            message = f"{error['ename']}: {error.get('evalue', '')}".rstrip(": ")
            return f"{label(cell['index'])}: {_first_line(message, NOTE_LIMIT)}"
    return None


def unscored(blueprint: Blueprint) -> tuple[CellScore, ...]:
    return tuple(CellScore(cell.grade_id, 0.0, cell.points, cell.hidden) for cell in blueprint.tests)


def decide(blueprint: Blueprint, nb, planned: list[dict], outcome: Outcome, ignore: str | None,
           cell_timeout: float, notebook_timeout: float) -> Verdict:
    position = {cell["index"]: n for n, cell in enumerate(planned)}
    ids = {index: cell.metadata.get("nbgrader", {}).get("grade_id") for index, cell in enumerate(nb.cells)}

    def label(index) -> str:
        return f"cell {ids[index]!r}" if ids.get(index) else f"cell {index + 1}"

    flags = []
    taint = None  # (position, what, where) of the first time student code reached into the grader
    for finding in outcome.findings:
        index, what = finding.get("index"), str(finding.get("what"))
        if index not in position:
            continue
        if finding.get("kind") == "taint":
            flags.append(f"{label(index)} reached into the grader: {what}")
            if taint is None:
                taint = (position[index], what, label(index))
        else:
            flags.append(f"{label(index)} tried {what} (refused)")
    for index, result in outcome.results.items():
        kind = planned[position[index]]["kind"]
        if result.get("restored"):
            flags.append(f"{_names(result['restored'])} changed between cells, before {label(index)} (undone)")
        if kind != "test" and result.get("changed"):
            flags.append(f"{label(index)} changed {_names(result['changed'])} (undone)")
        if result.get("shadowed"):
            flags.append(f"{label(index)} ran without the notebook's {_names(result['shadowed'])}, which "
                         "redefine builtins")
        if result.get("put_back"):
            flags.append(f"{label(index)} ran with the course's {_names(result['put_back'])}, which the notebook "
                         "had rebound")

    scores, notes, integrity = [], {}, None
    for course_cell in blueprint.tests:
        index = next((i for i, grade_id in ids.items() if grade_id == course_cell.grade_id), None)
        result = outcome.results.get(index)
        why = message = None
        if result is None:
            why = "it did not run: the notebook stopped before it"
        elif taint is not None and taint[0] <= position[index]:
            why = f"the notebook reached into the grader ({taint[1]} in {taint[2]})"
            integrity = integrity or f"Test cells from {taint[2]} on earned nothing: {why}."
        elif result.get("changed"):
            why = f"the notebook changed {_names(result['changed'])} while it ran"
            flags.append(f"{label(index)} failed: {why}")
            integrity = integrity or f"Test cell {course_cell.grade_id} failed because {why}."
        elif result.get("threads"):
            why = "a thread the notebook started was running"
            flags.append(f"{label(index)} failed: {why}")
        elif not result.get("ok"):
            error = result.get("error", {})
            message = f"{error.get('ename', 'Error')}: {error.get('evalue', '')}".rstrip(": ")
            # A hidden test's error would show its code: the student only learns that it failed.
            why = "" if course_cell.hidden else _first_line(message, NOTE_LIMIT)
        elif result.get("stderr") and not (ignore and re.search(ignore, result["stderr"])):
            why = "it wrote to stderr (a warning or an error message counts)"
            first = next((line.strip() for line in result["stderr"].splitlines() if line.strip()), "")
            message = f"wrote to stderr: {first}"
        passed = why is None
        scores.append(CellScore(course_cell.grade_id, course_cell.points if passed else 0.0, course_cell.points,
                                course_cell.hidden, "" if passed else message or why))
        if index is not None:
            notes[index] = (passed, "passed" if passed else why)
    cells = tuple(scores)
    text = summary(cells)
    if integrity:
        text += f" {integrity}"
    cause = first_error(planned, outcome, label) if any(c.score < c.max_score for c in cells) else None
    if cause:
        text += f" The first error was in {cause.rstrip('.')}."
        flags.append(f"first error in {cause}")

    running = label(outcome.running) if outcome.running is not None else "the last cell"
    stopped = next((index for index in position if outcome.results.get(index, {}).get("error", {}).get("ename")
                    == TIMEOUT_ENAME), None)
    if outcome.end == "no_start":
        return Verdict("error", "The grader could not start your notebook; an instructor will look at the grading "
                                "log.", tuple(replace(c, score=0.0, message="") for c in cells),
                       tuple(flags), notes)
    if outcome.end == "finished":
        if stopped is not None:
            return Verdict("timeout", f"A cell ran longer than {cell_timeout:g} s and was stopped (in "
                                      f"{label(stopped)}). {text}", cells, tuple(flags), notes)
        return Verdict("graded", text, cells, tuple(flags), notes)
    if outcome.end == "cell_timeout":
        detail = f"{running[0].upper()}{running[1:]} ran longer than {cell_timeout:g} s and could not be stopped"
        return Verdict("timeout", f"{detail}; the cells after it did not run. {text}", cells, tuple(flags), notes)
    if outcome.end == "notebook_timeout":
        return Verdict("timeout", f"The notebook ran longer than {notebook_timeout:g} s in all (stopped in "
                                  f"{running}); the cells after it did not run. {text}", cells, tuple(flags), notes)
    if outcome.end == "channel":
        flags.append(f"{running} wrote to the grader's channel ({outcome.problem})")
        return Verdict("kernel_died", f"The notebook wrote to the grader's private channel (in {running}); the run "
                                      f"was stopped there. {text}", cells, tuple(flags), notes)
    return Verdict("kernel_died", f"The notebook's process {outcome.exit} in {running}; the cells after it did "
                                  f"not run. {text}", cells, tuple(flags), notes)
