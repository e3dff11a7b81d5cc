"""Checks made before any kernel starts: a file that is not a notebook is reported, not run."""
import json
from pathlib import Path

import nbformat


def _first_line(text: str, limit: int = 200) -> str:
    line = str(text).strip().splitlines()[0] if str(text).strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"


def why_invalid(path: Path) -> str | None:
    """A sentence saying why `path` is not a valid notebook, or None when it is one."""
    raw = path.read_bytes()
    if not raw.strip():
        return "The file is empty."
    try:
        data = json.loads(raw)
    except ValueError as error:  # JSONDecodeError and UnicodeDecodeError are both ValueErrors
        return f"Not valid notebook JSON: {_first_line(error)}."
    if not isinstance(data, dict) or "nbformat" not in data:
        return "Not a valid Jupyter notebook: the file holds JSON, but no notebook (it has no nbformat version)."
    try:
        nbformat.validate(nbformat.reads(raw.decode("utf-8"), as_version=nbformat.NO_CONVERT))
    except nbformat.ValidationError as error:
        return f"Not a valid Jupyter notebook: {_first_line(error.message)}."
    except Exception as error:  # nbformat reports other malformed files with many exception types
        return f"Not a valid Jupyter notebook: {_first_line(error) or type(error).__name__}."
    return None
