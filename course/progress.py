"""Progress for any cell that can run longer than about ten seconds (on a busy laptop, or in the `gpu` profile on
a CPU): a `tqdm.auto` bar, a widget in Jupyter and text elsewhere. In the `grade` profile, where no cell runs that
long, the bar shows no rate or time and is drawn only when it starts and ends: a graded notebook's outputs (and so
its feedback page) come out the same on every run.

The bar writes to stdout, not tqdm's default stderr: a grading run counts anything on stderr as a failure, and
Validate reports it. No monitor thread is started, so none is left running after the bar closes.
"""
import math
import sys

from tqdm.auto import tqdm

from .profile import profile


GRADE_FORMAT = "{l_bar}{bar}| {n_fmt}/{total_fmt}"


def progress(iterable=None, *, total=None, desc=None, leave=True):
    """A progress bar over `iterable` (or one updated by hand up to `total`), as `tqdm.auto.tqdm` makes it."""
    class Bar(tqdm):          # one class per bar: tqdm sets attributes on its class (a lock, the live bars), and
        monitor_interval = 0  # the grader checks that no cell changes what the course's modules hold
    grading = profile() == "grade"
    return Bar(iterable, total=total, desc=desc, leave=leave, file=sys.stdout, dynamic_ncols=True,
               mininterval=math.inf if grading else 0.5, bar_format=GRADE_FORMAT if grading else None)
