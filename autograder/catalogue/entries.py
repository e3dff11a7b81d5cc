"""The catalogue's entries: one file per canonical mistake, <catalogue>/<assignment>/<exercise>/<name>.py, the single
source of what the mistake is, how to point a student at it, and its code.

A file starts with comment lines, then the code that replaces the exercise's solution cell:

    # fails: test_x_hidden            optional: the test cells it must fail (default: its exercise's own)
    # Canonical mistake: <what the mistake is, one sentence; it may go on over the next comment lines>
    # Hint: <the part of the statement to reread, one sentence, never the solution>
    # Equivalent: other_name, ...     optional: entries of the same exercise that no test cell tells apart

An equivalence holds both ways, declared in either file. The course's catalogue is autograder/mutants/ in the
repository; a course root of its own (the fixture course the tests grade) keeps it in mutants/.
"""
import re
from dataclasses import dataclass
from pathlib import Path

KEYS = {"fails": "fails", "canonical mistake": "description", "hint": "hint", "equivalent": "equivalent"}
KEY_LINE = re.compile(r"^#\s*(fails|canonical mistake|hint|equivalent):\s*(.*)$", re.IGNORECASE)
MAX_HINT = 240  # characters: one sentence


@dataclass(frozen=True)
class Entry:
    assignment: str
    exercise: str  # the solution cell's grade_id
    name: str  # the file's stem
    description: str
    hint: str
    fails: frozenset[str] | None  # None: the exercise's own test cells
    equivalent: frozenset[str]  # as declared in this file
    source: str  # the whole file
    path: Path


def parse_header(text: str) -> dict[str, str]:
    """The header's fields by name (description, hint, fails, equivalent), each one line of text."""
    fields, key = {}, None
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        match = KEY_LINE.match(line)
        if match:
            key = KEYS[match.group(1).lower()]
            fields[key] = match.group(2).strip()
        elif key is not None and key in ("description", "hint"):
            fields[key] = f"{fields[key]} {line.lstrip('#').strip()}".strip()
    return fields


def _names(text: str | None) -> frozenset[str] | None:
    return None if text is None else frozenset(name.strip() for name in text.split(",") if name.strip())


def read_entry(path: Path) -> Entry:
    """The entry in <catalogue>/<assignment>/<exercise>/<name>.py."""
    text = path.read_text(encoding="utf-8")
    fields = parse_header(text)
    return Entry(path.parent.parent.name, path.parent.name, path.stem, fields.get("description", ""),
                 fields.get("hint", ""), _names(fields.get("fails")), _names(fields.get("equivalent", "")), text,
                 path)


def catalogue_folder(course_dir: Path) -> Path:
    """Where a course keeps its catalogue: autograder/mutants/ in this repository, else mutants/."""
    inside = course_dir / "autograder" / "mutants"
    return inside if inside.is_dir() else course_dir / "mutants"


def load(folder: Path) -> list[Entry]:
    """Every entry of an assignment's folder, <catalogue>/<assignment>, by exercise, then name."""
    if not folder.is_dir():
        return []
    return [read_entry(path) for exercise in sorted(p for p in folder.iterdir() if p.is_dir())
            for path in sorted(exercise.glob("*.py"))]


def equivalents(entries: list[Entry]) -> dict[tuple[str, str], frozenset[str]]:
    """(exercise, name) -> the other names of its class: an equivalence declared in either file, and what follows
    from two of them (a ~ b and b ~ c make a ~ c)."""
    classes = {(e.exercise, e.name): {e.name} for e in entries}
    for entry in entries:
        for other in entry.equivalent:
            joined = classes[(entry.exercise, entry.name)] | classes.setdefault((entry.exercise, other), {other})
            for name in joined:
                classes[(entry.exercise, name)] = joined
    return {(exercise, name): frozenset(names - {name}) for (exercise, name), names in classes.items()}


def problems(entries: list[Entry]) -> list[str]:
    """What makes an entry unfit to be shown to a student: no description or hint, a hint that is not one short
    sentence, an equivalence to an entry that does not exist."""
    names = {(e.exercise, e.name) for e in entries}
    found = []
    for e in entries:
        where = f"{e.assignment}/{e.exercise}/{e.name}.py"
        if not e.description:
            found.append(f"{where}: no '# Canonical mistake: ...' line")
        if not e.hint:
            found.append(f"{where}: no '# Hint: ...' line")
        elif len(e.hint) > MAX_HINT or not e.hint.endswith((".", "?")):
            found.append(f"{where}: the hint must be one sentence of at most {MAX_HINT} characters, ending with "
                         "a full stop")
        found += [f"{where}: declares {other} equivalent, but {e.exercise} has no such entry"
                  for other in sorted(e.equivalent) if (e.exercise, other) not in names]
    return found
