"""OUT_DIR belongs to one run. Results of an earlier run are never mixed with new ones (an old student's feedback
page could be handed out with the new batch), so a folder holding them is refused unless the instructor asks for
them to be replaced. Nothing else in the folder is touched."""
import shutil
from pathlib import Path

# What a run writes, but for grading.log: a lone log (a run that stopped before grading anything) is overwritten.
RESULTS = ("grades.csv", "cells.csv", "feedback", "messages.csv", "report.html", "shard.json")


class OutDirError(RuntimeError):
    """OUT_DIR cannot be used as asked."""


def claim(out: Path, replace: bool) -> None:
    """Makes `out` ready for a run: created if needed; an earlier run's results removed when `replace`, else
    refused with a sentence saying what to do."""
    if out.exists() and not out.is_dir():
        raise OutDirError(f"{out} is not a folder")
    found = [name for name in RESULTS if (out / name).exists() or (out / name).is_symlink()]
    if found and not replace:
        raise OutDirError(f"{out} already holds an earlier run's results ({', '.join(found)}); grade into a new "
                          "folder, or pass --force to delete and replace them")
    for name in found:
        path = out / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    out.mkdir(parents=True, exist_ok=True)
