"""Every chapter's source notebook runs top to bottom in the grade profile: no error, nothing on stderr."""
import re

import pytest

from tools import notebook_run

CHAPTERS = notebook_run.chapters()


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_source_notebook_runs_clean_in_grade_profile(chapter, grade_run):
    """The run (tests/conftest.py) starts DDP workers from a fork server, as on a machine with CUDA."""
    nb, seconds = grade_run(chapter)
    assert notebook_run.problems(nb) == [], f"{chapter} ({seconds:.1f} s)"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_source_notebook_is_stored_without_outputs(chapter):
    import nbformat

    nb = nbformat.read(notebook_run.source_notebook(chapter), as_version=4)
    with_outputs = [c.metadata.get("nbgrader", {}).get("grade_id") for c in nb.cells
                    if c.cell_type == "code" and (c.outputs or c.execution_count)]
    assert with_outputs == []


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_markdown_types_no_measured_numbers(chapter):
    """Measured numbers belong in cell output. Prose may name sizes and settings, never a decimal result.

    Decimals (0.25, 1.5e-3) and scientific notation (1e-16, 2E+5) count; formulas in $...$ and code in backticks
    (an `eps=1e-5` argument, a width) are left out.
    """
    import nbformat

    nb = nbformat.read(notebook_run.source_notebook(chapter), as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        text = re.sub(r"\$[^$]*\$", "", cell.source)          # formulas
        text = re.sub(r"`[^`]*`", "", text)                    # code
        decimals = re.findall(r"(?<![\w.])\d+(?:\.\d+(?:[eE][-+]?\d+)?|[eE][-+]?\d+)", text)
        assert decimals == [], f"{cell.metadata.get('nbgrader', {}).get('grade_id')}: typed numbers {decimals}"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_first_cell_says_run_all_stops_at_an_unwritten_exercise(chapter):
    """A newcomer's Run All on a fresh copy ends at the first stub; the chapter says so before they press it."""
    import nbformat

    intro = nbformat.read(notebook_run.source_notebook(chapter), as_version=4).cells[0].source
    assert "Run All stops at the first exercise" in intro and "Run Selected Cell and All Below" in intro
