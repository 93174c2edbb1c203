"""Every chapter notebook is valid nbformat 4.5 with a unique id on every cell.

nbformat repairs a missing or repeated cell id when it reads a notebook, with a warning
("Non-unique cell id 'ffffffff' detected") that nbval, Jupyter Book and JupyterLab print on
every run, and with a new random id each time, so a link to that cell cannot hold. A cell
pasted in by hand is the usual cause (chapter 7 once had seven cells with two ids).
The stored notebooks are read as plain JSON (nbformat's reader would repair them first) and
checked twice: by name (which cells share an id) and by nbformat's own validator, with its
repair warnings turned into errors. scripts/execute_notebooks.py gives new ids when it runs a
chapter; its helper is tested here too.
"""

from __future__ import annotations

import copy
import json
import sys
import warnings
from collections import Counter
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
sys.path.insert(0, str(REPO / "scripts"))
from execute_notebooks import give_cells_unique_ids


def cell_id_problems(notebook: dict) -> list[str]:
    """Missing and repeated cell ids, each named with the cells that carry it."""
    problems = []
    if (notebook.get("nbformat"), notebook.get("nbformat_minor", 0)) < (4, 5):
        problems.append(
            f"nbformat {notebook.get('nbformat')}.{notebook.get('nbformat_minor')}: "
            "cell ids need 4.5"
        )
    cells = notebook["cells"]
    problems += [f"cell {index} has no id" for index, cell in enumerate(cells) if "id" not in cell]
    counts = Counter(cell["id"] for cell in cells if "id" in cell)
    for cell_id, count in counts.items():
        if count > 1:
            where = [index for index, cell in enumerate(cells) if cell.get("id") == cell_id]
            problems.append(f"id {cell_id!r} on {count} cells: {where}")
    return problems


def nbformat_complaint(notebook: dict) -> str | None:
    """nbformat's validator on a copy, repairs counted as failures; None when it is valid."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # DuplicateCellId, MissingIDFieldWarning: errors here
        try:
            nbformat.validate(copy.deepcopy(notebook))
        except (nbformat.ValidationError, Warning) as complaint:
            return f"{type(complaint).__name__}: {str(complaint).splitlines()[0]}"
    return None


def planted_notebook() -> dict:
    """Three markdown cells: two share an id, one has none."""
    notebook = json.loads(nbformat.writes(nbformat.v4.new_notebook()))
    notebook["cells"] = [
        {"cell_type": "markdown", "id": "ffffffff", "metadata": {}, "source": "a"},
        {"cell_type": "markdown", "id": "ffffffff", "metadata": {}, "source": "b"},
        {"cell_type": "markdown", "metadata": {}, "source": "c"},
    ]
    return notebook


def test_there_are_chapters():
    assert len(NOTEBOOKS) >= 9, [path.name for path in NOTEBOOKS]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_every_cell_has_an_id_of_its_own(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    problems = cell_id_problems(notebook)
    assert not problems, (
        f"{path.name}: " + "; ".join(problems) + " (give each such cell a new id, e.g. "
        "nbformat.v4.nbbase.random_cell_id(); scripts/execute_notebooks.py does it when it runs "
        "the chapter)"
    )
    complaint = nbformat_complaint(notebook)
    assert complaint is None, f"{path.name}: nbformat says {complaint}"


def test_the_checks_find_a_repeated_and_a_missing_id():
    notebook = planted_notebook()
    assert cell_id_problems(notebook) == ["cell 2 has no id", "id 'ffffffff' on 2 cells: [0, 1]"]
    assert nbformat_complaint(notebook) is not None
    notebook["cells"][2]["id"] = "c"
    assert "Non-unique cell id 'ffffffff'" in nbformat_complaint(notebook)


def test_execute_notebooks_gives_new_ids_and_keeps_the_first():
    notebook = nbformat.from_dict(planted_notebook())
    changes = give_cells_unique_ids(notebook)
    assert [change.split(":")[0] for change in changes] == ["cell 1", "cell 2"]
    ids = [cell["id"] for cell in notebook.cells]
    assert ids[0] == "ffffffff" and len(set(ids)) == 3
    assert cell_id_problems(notebook) == [] and nbformat_complaint(notebook) is None
    assert give_cells_unique_ids(notebook) == []  # nothing left to change
