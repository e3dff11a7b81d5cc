"""Progress for any cell that can run longer than about ten seconds (on a busy laptop, or in the `gpu` profile on
a CPU): a `tqdm.auto` bar, a widget in Jupyter and text elsewhere.

The bar writes to stdout, not tqdm's default stderr: a grading run counts anything on stderr as a failure, and
Validate reports it. No monitor thread is started, so none is left running after the bar closes.
"""
import sys

from tqdm.auto import tqdm


def progress(iterable=None, *, total=None, desc=None, leave=True):
    """A progress bar over `iterable` (or one updated by hand up to `total`), as `tqdm.auto.tqdm` makes it."""
    class Bar(tqdm):          # one class per bar: tqdm sets attributes on its class (a lock, the live bars), and
        monitor_interval = 0  # the grader checks that no cell changes what the course's modules hold
    return Bar(iterable, total=total, desc=desc, leave=leave, file=sys.stdout, mininterval=0.5, dynamic_ncols=True)
