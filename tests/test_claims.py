"""Claims as code (`course.claims`) and `make claims` (`tools/claims.py`)."""
import json
import re
import time

import nbformat
import pytest

from course import claims
from tools import notebook_run

# The chapters whose prose measures most (issue 21) carry at least five claims; every other chapter three.
FEWEST_CLAIMS = {"ch03_minibatches": 5, "ch05_training_step": 5, "ch06_preflight": 5}


@pytest.mark.parametrize("profile, raises", [("cpu", True), ("gpu", True), ("grade", False)])
def test_a_claim_that_fails_stops_the_run_only_in_the_profile_it_is_made_for(profile, raises, monkeypatch, capsys):
    monkeypatch.setenv("COURSE_PROFILE", profile)
    if raises:
        with pytest.raises(claims.ClaimFailed, match="grows linearly"):
            claims.claim("memory grows linearly", 0.71, between=(0.99, None), fmt="R² = {:.2f}")
    else:
        claims.claim("memory grows linearly", 0.71, between=(0.99, None), fmt="R² = {:.2f}")
    out = capsys.readouterr().out
    verdict = "FAILED" if raises else "not checked in the grade profile"
    assert out == f"claim {verdict}: memory grows linearly (measured R² = 0.71; expected at least R² = 0.99)\n"


def test_claims_are_logged_for_make_claims(monkeypatch, tmp_path, capsys):
    log = tmp_path / "claims.jsonl"
    monkeypatch.setenv("COURSE_PROFILE", "cpu")
    monkeypatch.setenv(claims.LOG_VARIABLE, str(log))
    claims.claim("slope near −½", -0.52, between=(-0.6, -0.4))
    claims.claim("no unit clipped", "0 of 9", holds=True, expected="0 clipped", profiles=("gpu",))
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert records == [
        {"statement": "slope near −½", "measured": "-0.52", "expected": "between -0.6 and -0.4", "held": True,
         "checked": True, "profile": "cpu"},
        {"statement": "no unit clipped", "measured": "0 of 9", "expected": "0 clipped", "held": True,
         "checked": False, "profile": "cpu"},
    ]
    assert capsys.readouterr().out.splitlines()[0].startswith("claim held: slope near −½")


def test_a_claim_needs_one_way_to_be_checked():
    with pytest.raises(TypeError):
        claims.claim("x", 1.0)
    with pytest.raises(TypeError):
        claims.claim("x", 1.0, between=(0, 2), holds=True)
    with pytest.raises(TypeError, match="expected="):
        claims.claim("x", 1.0, holds=True)


def test_interleaved_seconds_alternate_and_pair():
    order = []
    spreads = claims.interleaved_seconds({"slow": lambda: (order.append("s"), time.sleep(0.004)),
                                          "fast": lambda: (order.append("f"), time.sleep(0.001))}, repeats=7)
    assert "".join(order) == "sf" * 8, "one warm-up round, then seven, each running every candidate once"
    assert len(spreads["slow"].samples) == 7
    assert spreads["slow"].low <= spreads["slow"].median <= spreads["slow"].high
    ratio = claims.paired_ratio(spreads["slow"], spreads["fast"])
    assert len(ratio.samples) == 7 and ratio.median > 1.5
    with pytest.raises(ValueError):
        claims.paired_ratio(spreads["slow"], claims.Spread((1.0,)))


@pytest.mark.parametrize("chapter", notebook_run.chapters())
def test_every_chapter_states_its_claims_in_code(chapter):
    nb = nbformat.read(notebook_run.source_notebook(chapter), as_version=4)
    calls = sum(len(re.findall(r"(?<![\w.])claim\(", cell.source)) for cell in nb.cells if cell.cell_type == "code")
    fewest = FEWEST_CLAIMS.get(chapter, 3)
    assert calls >= fewest, f"{chapter} states {calls} claims in code; it should carry at least {fewest}"
