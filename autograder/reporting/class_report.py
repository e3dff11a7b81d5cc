"""OUT/report.html: what the class got wrong, on one page for the instructor.

Every student's scores (one row per student, one column per assignment), and per assignment the score
distribution, the pass rate of every test cell (visible and hidden side by side, and how many students passed a
visible test yet failed the hidden one after it: where the visible tests mislead), the most common failure
messages per test cell (numbers normalised, so `expected 0.25, got 0.5` and `expected 0.25, got 0.7` count as one
mistake), the misconceptions (the catalogue's known mistakes the failing answers behave like, and how many
students show each), the students with flags, and every notebook that was not graded normally.

The distribution and the pass rates count the same notebooks: those that ran (graded, timeout, kernel_died). A
notebook that was missing, unreadable or not gradable has no test results to count; it is 0 in grades.csv and
is counted beside the figures, never as a score of 0 in them. An assignment of which no notebook ran gets a line
saying so, not empty figures.

The page is self-contained: figures are PNGs in data: URLs, the style is inline, there is no script, and every
text (names, details, messages: a student's process wrote some of them) is escaped. It holds other students'
names and hidden tests' messages: it is for the instructor, never to be handed out.
"""
import base64
import html
import io
from collections import Counter, defaultdict
from pathlib import Path

from .messages import normalise

RAN = ("graded", "timeout", "kernel_died")  # statuses whose test cells ran (or were reached) in the sandbox
TOP_MESSAGES = 5
MAX_BARS = 60  # a whole-number total up to this gets one bar per score
FOLD_AT = 200  # characters of a failure message shown before it is folded
STYLE = """
body { font-family: sans-serif; margin: 2em; max-width: 70em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
code { white-space: pre-wrap; }
img { max-width: 100%; }
.hidden { color: #8a3b00; }
"""


def _e(text) -> str:
    return html.escape(str(text))


def _png(figure) -> str:
    """The figure as an <img> whose source is a data: URL: nothing to fetch."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    buffer = io.BytesIO()
    FigureCanvasAgg(figure).print_png(buffer)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="figure" src="data:image/png;base64,{data}">'


def _figure(width: float, height: float):
    # A Figure without pyplot: no global state, no GUI backend, nothing left open.
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _table(header: list[str], rows: list[list], numeric: set[int] = frozenset()) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f'<td class="n">{cell}</td>' if i in numeric else f"<td>{cell}</td>"
                                    for i, cell in enumerate(row)) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _ran(results) -> list:
    return [r for r in results if r.status in RAN]


def _totals(results) -> dict[str, tuple[float, float]]:
    """student -> (score, max_score) over the notebooks of `results` (one assignment)."""
    totals = defaultdict(lambda: (0.0, 0.0))
    for r in results:
        score, top = totals[r.student]
        totals[r.student] = (score + r.score, top + r.max_score)
    return dict(totals)


def distribution(values: list[float], top: float, title: str = ""):
    """The figure of students' totals: one bar per score, centred on it, when scores are whole numbers of a
    small total; else 20 equal bins. Counts of students are whole numbers, and so are the ticks."""
    from matplotlib.ticker import MaxNLocator

    figure = _figure(6.5, 2.6)
    axes = figure.subplots()
    if all(float(v).is_integer() for v in values) and float(top).is_integer() and top <= MAX_BARS:
        counts = Counter(values)
        axes.bar(sorted(counts), [counts[v] for v in sorted(counts)], width=0.8, align="center", color="#4c72b0")
        axes.set_xlim(-0.6, top + 0.6)
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    else:
        axes.hist(values, bins=20, range=(0, top or 1), color="#4c72b0", edgecolor="white")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel(f"score (of {top:g})")
    axes.set_ylabel("students")
    axes.set_title(title)
    return figure


def _scores(assignment: str, results) -> str:
    """Histogram of each student's total over the assignment's notebooks that ran: the notebooks the pass rates
    count too. Students none of whose notebooks ran are counted beside it, by status."""
    ran_students = {r.student for r in _ran(results)}
    totals = {s: t for s, t in _totals(results).items() if s in ran_students}
    top = max((t for _, t in totals.values()), default=0.0)
    values = [score for score, _ in totals.values()]
    left_out = Counter(r.status for r in results if r.student not in ran_students)
    mean = sum(values) / len(values) if values else 0.0
    outside = (f" Not counted here, as in the pass rates below (no test ran; 0 points in grades.csv): "
               f"{', '.join(f'{n} {status}' for status, n in sorted(left_out.items()))} notebook(s)."
               if left_out else "")
    return (f"<p>{len(values)} students whose notebook ran; mean {mean:.3g} of {top:g}; full marks: "
            f"{sum(1 for v in values if v == top and top)}; zero: {sum(1 for v in values if v == 0)}.{outside}</p>"
            f"{_png(distribution(values, top, assignment))}")


def _score_table(results, assignments: list[str]) -> str:
    """Every student's score in every assignment (the status, when the notebook was not graded), and the total."""
    by_key = defaultdict(list)
    for r in results:
        by_key[(r.student, r.assignment)].append(r)
    rows = []
    for student in sorted({r.student for r in results}):
        row, total, top = [_e(student)], 0.0, 0.0
        for assignment in assignments:
            notebooks = by_key.get((student, assignment), [])
            score, most = sum(r.score for r in notebooks), sum(r.max_score for r in notebooks)
            unusual = sorted({r.status for r in notebooks} - {"graded"})
            row.append(f"{score:g} / {most:g}" + (f" ({_e(', '.join(unusual))})" if unusual else ""))
            total, top = total + score, top + most
        rows.append(row + [f"{total:g} / {top:g}"])
    return _table(["student", *assignments, "total"], rows, set(range(1, len(assignments) + 2)))


def _cell_order(results) -> list[tuple[str, str, bool]]:
    """(notebook, grade_id, hidden) of every test cell, in notebook order."""
    order = {}
    for r in results:
        for c in r.cells:
            order.setdefault((r.notebook, c.grade_id), c.hidden)
    return [(notebook, grade_id, hidden) for (notebook, grade_id), hidden in order.items()]


def _cells(assignment: str, results) -> str:
    """Pass rates (figure and table) and the commonest failure messages per test cell."""
    ran = _ran(results)
    cells = _cell_order(sorted(results, key=lambda r: r.notebook))
    if not cells:
        return "<p>No test cells.</p>"
    passed, failures = Counter(), defaultdict(Counter)
    examples, misled = {}, Counter()
    for r in ran:
        visible_ok = None  # did the nearest visible test cell before this one pass?
        for c in r.cells:
            ok = c.score >= c.max_score
            key = (r.notebook, c.grade_id)
            passed[key] += ok
            if not c.hidden:
                visible_ok = ok
            elif visible_ok and not ok:
                misled[key] += 1
            if not ok and c.message:
                pattern = normalise(c.message)
                failures[key][pattern] += 1
                examples.setdefault((key, pattern), c.message)
    labels = [grade_id if len({n for n, _, _ in cells}) == 1 else f"{notebook}: {grade_id}"
              for notebook, grade_id, _ in cells]
    rates = [100 * passed[(n, g)] / len(ran) if ran else 0.0 for n, g, _ in cells]
    figure = _figure(7, 0.8 + 0.32 * len(cells))
    axes = figure.subplots()
    colours = ["#8a3b00" if hidden else "#4c72b0" for _, _, hidden in cells]
    positions = range(len(cells))[::-1]  # first cell on top, each hidden cell just below its visible one
    axes.barh(list(positions), rates, color=colours)
    axes.set_yticks(list(positions), labels)
    axes.set_xlim(0, 100)
    axes.set_xlabel(f"% of {len(ran)} notebooks that ran (blue: visible tests, brown: hidden tests)")
    axes.set_title(f"{assignment}: test cells passed")
    rows, message_rows = [], []
    for (notebook, grade_id, hidden), label, rate in zip(cells, labels, rates):
        key = (notebook, grade_id)
        kind = '<span class="hidden">hidden</span>' if hidden else "visible"
        rows.append([_e(label), kind, f"{passed[key]}/{len(ran)}", f"{rate:.0f} %",
                     str(misled[key]) if hidden else ""])
        for pattern, count in failures[key].most_common(TOP_MESSAGES):
            message_rows.append([_e(label), str(count), _example(pattern), _example(examples[(key, pattern)])])
    table = _table(["test cell", "tests", "passed", "rate", "passed the visible test before it, failed this"],
                   rows, {2, 3, 4})
    messages = (_table(["test cell", "notebooks", "message (numbers as #)", "one of them"], message_rows, {1})
                if message_rows else "<p>No failure messages.</p>")
    return (f"{_png(figure)}{table}<h3>Most common failure messages ({assignment})</h3>{messages}")


def _example(message: str) -> str:
    """A failure message as the table shows it: whole, a long or multi-line one (a worker's traceback) folded
    under its first line."""
    first, _, rest = message.partition("\n")
    if not rest and len(message) <= FOLD_AT:
        return f"<code>{_e(message)}</code>"
    return f"<details><summary><code>{_e(first[:FOLD_AT])}</code></summary><code>{_e(message)}</code></details>"


def _misconceptions(results) -> str:
    """The known mistakes the class's failing answers behave like (the catalogue's entries, as the diagnosis
    named them), most common first, each with how many students show it."""
    students, described = defaultdict(set), {}
    for r in results:
        for d in r.diagnoses:
            students[(d.exercise, d.mistake)].add(r.student)
            described[(d.exercise, d.mistake)] = d.description
    if not students:
        return "<p>No failing answer behaved like a known mistake of the catalogue.</p>"
    ordered = sorted(students, key=lambda key: (-len(students[key]), key))
    rows = [[_e(exercise), f"<code>{_e(mistake)}</code>", _e(described[(exercise, mistake)]),
             str(len(students[(exercise, mistake)]))] for exercise, mistake in ordered]
    return _table(["exercise", "mistake", "description", "students"], rows, {3})


def _assignment(assignment: str, results) -> str:
    if not _ran(results):
        counts = Counter(r.status for r in results)
        return (f"<h2>{_e(assignment)}</h2><p>No notebook of {_e(assignment)} ran "
                f"({', '.join(f'{n} {status}' for status, n in sorted(counts.items()))}): no scores or test "
                "results to show.</p>")
    return (f"<h2>{_e(assignment)}</h2><h3>Score distribution</h3>{_scores(assignment, results)}"
            f"<h3>Test cells</h3>{_cells(assignment, results)}"
            f"<h3>Misconceptions ({_e(assignment)})</h3>{_misconceptions(results)}")


def render(results) -> str:
    """The page for `results` (NotebookResults of one run, or of merged shards)."""
    results = sorted(results, key=lambda r: (r.student, r.assignment, r.notebook))
    by_assignment = defaultdict(list)
    for r in results:
        by_assignment[r.assignment].append(r)
    assignments = sorted(by_assignment)
    students = sorted({r.student for r in results})
    statuses = sorted({r.status for r in results})
    parts = [f"<h1>Class report</h1><p>{len(students)} students, {len(results)} notebooks, "
             f"{len(by_assignment)} assignment(s). For the instructor only: it shows hidden tests' failure "
             "messages and every student's results.</p>"]
    counts = [[_e(a)] + [str(sum(r.status == s for r in by_assignment[a])) for s in statuses] for a in assignments]
    parts.append("<h2>Statuses</h2>" + _table(["assignment", *statuses], counts, set(range(1, len(statuses) + 1))))
    parts.append("<h2>Scores</h2>" + _score_table(results, assignments))
    unusual = [[_e(r.student), _e(r.assignment), _e(r.notebook), _e(r.status), _e(r.detail)]
               for r in results if r.status != "graded"]
    if unusual:
        parts.append("<h3>Notebooks not graded normally</h3>"
                     + _table(["student", "assignment", "notebook", "status", "detail"], unusual))
    parts += [_assignment(assignment, by_assignment[assignment]) for assignment in assignments]
    flagged = [[_e(r.student), _e(r.assignment), _e(r.notebook), "<br>".join(_e(f) for f in r.flags)]
               for r in results if r.flags]
    parts.append("<h2>Students with flags</h2>"
                 + (_table(["student", "assignment", "notebook", "flags"], flagged) if flagged else "<p>None.</p>"))
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Class report</title>"
            f"<style>{STYLE}</style></head><body>{''.join(parts)}</body></html>\n")


def write(results, out_dir: Path) -> None:
    # Names can hold lone surrogates (undecodable bytes in a folder name): escaped, never an error.
    (out_dir / "report.html").write_bytes(render(results).encode("utf-8", "backslashreplace"))
