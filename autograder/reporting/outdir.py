"""OUT_DIR belongs to one run. Results of an earlier run are never mixed with new ones (an old student's feedback
page could be handed out with the new batch), so a folder holding them is refused unless the instructor asks for
them to be replaced. Nothing else in the folder is touched."""
import shutil
from pathlib import Path

from ..invocation import option

# What a run writes, but for grading.log: a lone log (a run that stopped before grading anything) is overwritten.
RESULTS = ("grades.csv", "cells.csv", "feedback", "messages.csv", "diagnoses.csv", "report.html", "shard.json")


class OutDirError(RuntimeError):
    """OUT_DIR cannot be used as asked."""


def check(out: Path, replace: bool) -> None:
    """Raises OutDirError, with a sentence saying what to do, when `out` cannot take a run's results: not a
    folder, or holding an earlier run's results and `replace` not asked for. Changes nothing."""
    if out.exists() and not out.is_dir():
        raise OutDirError(f"{out} is not a folder")
    found = _earlier_results(out)
    if found and not replace:
        raise OutDirError(f"{out} already holds an earlier run's results ({', '.join(found)}); grade into a new "
                          f"folder, or add {option('--force')} to delete and replace them")


def _earlier_results(out: Path) -> list[str]:
    return [name for name in RESULTS if (out / name).exists() or (out / name).is_symlink()]


def claim(out: Path, replace: bool) -> None:
    """Makes `out` ready for a run: created if needed; an earlier run's results removed when `replace`, else
    refused (see check)."""
    check(out, replace)
    for name in _earlier_results(out):
        path = out / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    out.mkdir(parents=True, exist_ok=True)
