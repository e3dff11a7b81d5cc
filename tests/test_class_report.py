"""OUT/report.html, OUT/messages.csv and OUT/diagnoses.csv after a grading run of a small class on the fixture
course: statuses, every student's scores, the score distribution over the same notebooks as the pass rates, pass
rates of visible and hidden tests, failure messages grouped with their numbers normalised (hidden tests' messages
included, and a worker's traceback whole: the page is the instructor's), the misconceptions the catalogue names,
flags, and every text escaped. The course has an assignment nobody was given: it gets no row and no section."""
import html
import re
from html.parser import HTMLParser

import pytest
from conftest import FIXTURE_COURSE, run_autograder
from fixture_class import (ASSIGNMENT, HTML_MESSAGE, MISSPELT_FLAG, SCORES, UNASSIGNED, WORKER_CAUSE, make_class,
                           make_course)

from autograder.catalogue import entries
from autograder.reporting import class_report
from autograder.reporting.messages import normalise
from autograder.reporting.grades import read_rows
from course.testing import expect_close


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    base = tmp_path_factory.mktemp("class")
    make_class(base / "submitted")
    run_autograder(base / "submitted", base / "out", "--course-dir", str(make_course(base / "course")))
    return base / "out"


class _Tags(HTMLParser):
    """Every start tag of a page, with its attributes (text that merely looks like a tag is not one)."""

    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, attrs))


def _cells_text(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def test_numbers_are_normalised_so_near_identical_helper_messages_group():
    found = []
    for got in (0.5, 0.75, float("nan"), -3e-9):
        with pytest.raises(AssertionError) as error:
            expect_close("loss", [0.25, got], [0.25, 0.25], rtol=1e-5, atol=1e-8)
        found.append(str(error.value))
    assert len(set(found)) == 4
    assert {normalise(m) for m in found} == {
        "loss: expected # at index #, got # (difference #; allowed # + #·|expected|; # of # values outside)"}
    assert normalise("test_1 of x2: expected 3 values, got 0x7f") == "test_1 of x2: expected # values, got #"


def test_messages_csv_keeps_every_test_cells_failure_hidden_ones_included(out):
    rows = read_rows(out / "messages.csv")
    assert [r["grade_id"] for r in rows] == [r["grade_id"] for r in read_rows(out / "cells.csv")]
    by_key = {(r["student"], r["grade_id"]): r for r in rows}
    assert by_key[("raises_a", "test_mean_of")]["message"] == "ValueError: cannot average 3 numbers"
    hidden = by_key[("raises_b", "test_mean_of_hidden")]
    assert (hidden["hidden"], hidden["message"]) == ("yes", "ValueError: cannot average 14 numbers")
    assert by_key[("wrong", "test_mean_of_hidden")]["message"] == "AssertionError"
    assert by_key[("reference", "test_mean_of_hidden")]["message"] == ""
    assert by_key[("missing", "test_square")]["message"] == ""
    # The student's own page still hides the hidden test's message.
    page = (out / "feedback" / "raises_b" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text()
    assert "cannot average 14" not in page and "cannot average 13" in page


def test_only_the_assignment_handed_in_is_graded(out):
    rows = read_rows(out / "grades.csv")
    assert {r["assignment"] for r in rows} == {ASSIGNMENT} and len(rows) == len(SCORES)
    assert UNASSIGNED not in (out / "report.html").read_text()
    assert not list((out / "feedback").glob(f"*/{UNASSIGNED}"))


def test_report_shows_statuses_scores_pass_rates_messages_and_flags(out):
    page = (out / "report.html").read_text()
    text = _cells_text(page)
    assert "Statuses" in page and "missing" in text and "No fx01_basics/ folder was submitted." in text
    # One score histogram and one pass-rate chart for the one assignment, embedded.
    assert len(re.findall(r'<img alt="figure" src="data:image/png;base64,[A-Za-z0-9+/=]+">', page)) == 2
    # 7 notebooks ran: blank, html and worker_error fail test_square; reference, html and worker_error pass
    # test_mean_of_hidden.
    rows = {m[0]: m[1:] for m in re.findall(r"<tr><td>(test_\w+)</td><td>(?:<span[^>]*>)?(\w+)(?:</span>)?</td>"
                                            r'<td class="n">([0-9/]+)</td><td class="n">(\d+) %</td>'
                                            r'<td class="n">(\d*)</td></tr>', page)}
    assert rows == {"test_square": ("visible", "4/7", "57", ""), "test_square_hidden": ("hidden", "4/7", "57", "0"),
                    "test_mean_of": ("visible", "4/7", "57", ""),
                    "test_mean_of_hidden": ("hidden", "3/7", "43", "1")}  # wrong passes the visible one only
    grouped = re.findall(r'<tr><td>(test_\w+)</td><td class="n">(\d+)</td><td><code>([^<]*)</code>', page)
    assert ("test_mean_of", "2", "ValueError: cannot average # numbers") in grouped
    assert ("test_mean_of_hidden", "2", "ValueError: cannot average # numbers") in grouped
    assert ("test_mean_of_hidden", "1", "AssertionError") in grouped
    assert MISSPELT_FLAG in text


def test_report_lists_every_students_score(out):
    page = (out / "report.html").read_text()
    table = page[page.index("<h2>Scores</h2>"):]
    table = table[:table.index("</table>")]
    found = dict(re.findall(r'<tr><td>(\w+)</td><td class="n">([0-9.]+) / 6[^<]*</td>', table))
    assert found == {student: f"{score:g}" for student, score in SCORES.items()}
    assert re.search(r'<tr><td>missing</td><td class="n">0 / 6 \(missing\)</td>', table)


def test_score_distribution_counts_the_notebooks_the_pass_rates_count(out):
    page = _cells_text((out / "report.html").read_text())
    ran = len(SCORES) - 1  # the missing student's notebook did not run: left out of both, and said so
    mean = sum(score for student, score in SCORES.items() if student != "missing") / ran
    assert f"{ran} students whose notebook ran; mean {mean:.3g} of 6; full marks: 1; zero: 1." in page
    assert "Not counted here, as in the pass rates below (no test ran; 0 points in grades.csv): 1 missing" in page


def test_histogram_has_whole_number_ticks_and_a_bar_centred_on_each_score():
    figure = class_report.distribution([0, 3, 3, 3, 4, 6], 6)
    axes = figure.axes[0]
    ticks = [t for t in axes.get_yticks() if axes.get_ylim()[0] <= t <= axes.get_ylim()[1]]
    assert ticks and all(float(t).is_integer() for t in ticks), ticks
    bars = {patch.get_x() + patch.get_width() / 2: patch.get_height() for patch in axes.patches}
    assert bars == {0: 1, 3: 3, 4: 1, 6: 1}


def test_a_workers_traceback_is_kept_whole_to_its_cause(out):
    by_key = {(r["student"], r["grade_id"]): r["message"] for r in read_rows(out / "messages.csv")}
    message = by_key[("worker_error", "test_square")]
    assert message.startswith("RuntimeError: rank 1 raised:") and message.endswith(WORKER_CAUSE)
    assert html.escape(WORKER_CAUSE) in (out / "report.html").read_text()


def test_report_is_self_contained_and_escapes_what_students_wrote(out):
    page = (out / "report.html").read_text()
    assert HTML_MESSAGE not in page and html.escape(HTML_MESSAGE) in page
    assert "<script" not in page.lower() and "<link" not in page.lower()
    tags = _Tags()
    tags.feed(page)
    assert {tag for tag, _ in tags.found} <= {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3",
                                               "p", "table", "tr", "th", "td", "span", "code", "img", "br",
                                               "details", "summary"}
    links = [value for _, attrs in tags.found for name, value in attrs if name in ("src", "href", "srcset")]
    assert links and all(link.startswith("data:image/png;base64,") for link in links)


def test_a_known_mistake_is_named_in_diagnoses_csv_the_report_and_the_feedback(out):
    """`wrong` divides with //: the catalogue's mean_of/floor_division. Nobody else's answer behaves like an
    entry (raising, or a blank exercise, is no catalogued mistake)."""
    entry = entries.read_entry(FIXTURE_COURSE / "mutants" / ASSIGNMENT / "mean_of" / "floor_division.py")
    assert read_rows(out / "diagnoses.csv") == [{"student": "wrong", "assignment": ASSIGNMENT, "exercise": "mean_of",
                                                 "mistake": "floor_division", "description": entry.description}]
    page = (out / "report.html").read_text()
    table = page[page.index(f"<h3>Misconceptions ({ASSIGNMENT})</h3>"):]
    assert table[:table.index("</table>")].count("<tr>") == 2  # a header and one mistake
    assert re.search(r"<tr><td>mean_of</td><td><code>floor_division</code></td><td>" + re.escape(
        html.escape(entry.description)) + r'</td><td class="n">1</td></tr>', table)
    feedback = _cells_text((out / "feedback" / "wrong" / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text())
    described = entry.description[:1].upper() + entry.description[1:]
    said = f"Your answer behaves like a known mistake: {described} Hint: {entry.hint}"
    assert said in " ".join(feedback.split())
    assert "known mistake" not in _cells_text((out / "feedback" / "raises_a" / ASSIGNMENT / f"{ASSIGNMENT}.html")
                                              .read_text())
