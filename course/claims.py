"""Claims as code: a sentence of the prose that a measurement supports, stated beside that measurement.

    claim("backward costs about twice the forward", ratio, between=(1.5, 3.0))
    claim("every unit is left alone", f"{clipped} of {units} clipped", holds=clipped == 0, expected="0 clipped")

prints one line, `claim held: ...` or `claim FAILED: ...`, with the measured value and what would hold. In the
profiles the claim is made for (by default `cpu` and `gpu`, the two a reader runs the prose in) a claim that does not
hold raises `ClaimFailed`, so the run stops where the text and the measurement part ways. In other profiles (the
tiny `grade` sizes, where most effects do not show) it is printed as not checked and never raises.

`make claims` runs the chapters in the `cpu` profile with `COURSE_CLAIMS_LOG` naming a file, to which every claim
appends one JSON line; `tools/claims.py` reads them back and prints the verdicts.

A timing claim rests on `interleaved_seconds`: the candidates run in alternation, so load that comes and goes on
a shared machine hits all of them alike, and each gets a median and a range over at least seven runs.
"""
import json
import os
import statistics
import time
from dataclasses import dataclass

from .profile import profile

LOG_VARIABLE = "COURSE_CLAIMS_LOG"


class ClaimFailed(AssertionError):
    """A claim of the prose that the measurement beside it does not support, in a profile the claim is made for."""


def _shown(value, fmt):
    if isinstance(value, str):
        return value
    if fmt is not None:
        return fmt.format(value)
    return f"{value:.3g}" if isinstance(value, float) else str(value)


def claim(statement, measured, *, between=None, holds=None, expected=None, fmt=None, profiles=("cpu", "gpu")):
    """States `statement` beside its measurement and checks it.

    Either `between=(low, high)` (inclusive; None for an open end), with `measured` a number, or `holds` (a bool
    computed from the measurement) with `expected`, a few words saying what would make it hold. `measured` is shown
    with `fmt` (a format string such as "{:.1%}") or as it is. Returns whether the claim held.
    """
    if (between is None) == (holds is None):
        raise TypeError("claim() takes exactly one of between=(low, high) or holds=bool")
    if between is not None:
        low, high = between
        holds = (low is None or measured >= low) and (high is None or measured <= high)
        ends = [_shown(end, fmt) if end is not None else None for end in between]
        expected = (f"between {ends[0]} and {ends[1]}" if None not in ends
                    else f"at least {ends[0]}" if ends[1] is None else f"at most {ends[1]}")
    elif expected is None:
        raise TypeError("claim(..., holds=...) needs expected=: the words that say what would hold")
    holds = bool(holds)
    checked = profile() in profiles
    verdict = ("held" if holds else "FAILED") if checked else f"not checked in the {profile()} profile"
    line = f"claim {verdict}: {statement} (measured {_shown(measured, fmt)}; expected {expected})"
    print(line)
    _log({"statement": statement, "measured": _shown(measured, fmt), "expected": expected, "held": holds,
          "checked": checked, "profile": profile()})
    if checked and not holds:
        raise ClaimFailed(line)


def _log(record):
    path = os.environ.get(LOG_VARIABLE)
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(record) + "\n")


@dataclass(frozen=True)
class Spread:
    """Repeated measurements of one quantity (seconds, or a ratio of paired runs): median and range."""
    samples: tuple

    @property
    def median(self):
        return statistics.median(self.samples)

    @property
    def low(self):
        return min(self.samples)

    @property
    def high(self):
        return max(self.samples)

    def __str__(self):
        return f"{self.median:.3g} (range {self.low:.3g}–{self.high:.3g}, {len(self.samples)} runs)"


def interleaved_seconds(candidates, repeats=7, warmup=1, sync=None):
    """Times every function of `candidates` ({name: fn}) `repeats` times, in alternation (a, b, a, b, ...), after
    `warmup` untimed rounds; returns {name: Spread of seconds}. `sync`, if given, is called after each run inside
    the timing (e.g. torch.cuda.synchronize, so queued device work is counted)."""
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    runs = {name: [] for name in candidates}
    for round_ in range(warmup + repeats):
        for name, fn in candidates.items():
            start = time.perf_counter()
            fn()
            if sync is not None:
                sync()
            if round_ >= warmup:
                runs[name].append(time.perf_counter() - start)
    return {name: Spread(tuple(t)) for name, t in runs.items()}


def paired_ratio(numerator, denominator):
    """The ratio of two interleaved Spreads round by round (run i of one over run i of the other, which shared
    the machine's load at that moment): a Spread of ratios."""
    if len(numerator.samples) != len(denominator.samples):
        raise ValueError("paired_ratio needs two Spreads from the same interleaved run")
    return Spread(tuple(a / b for a, b in zip(numerator.samples, denominator.samples)))
