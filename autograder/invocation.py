"""How the grader was started, so that a message names an option as its reader types it: `--force` on the command
line, `ARGS=--force` for whom `make autograde` started it (the Makefile's recipe says so in MAKE_TARGET_VARIABLE).
"""
import os
import shlex

MAKE_TARGET_VARIABLE = "AUTOGRADER_MAKE_TARGET"


def option(text: str) -> str:
    """`text` (`--force`, `--jobs 2`) as the user adds it: itself, or `ARGS=...` when make started the grader."""
    target = os.environ.get(MAKE_TARGET_VARIABLE)
    return f"ARGS={shlex.quote(text)} (make {target} ARGS=...)" if target else text
