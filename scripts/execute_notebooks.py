"""Run chapter notebooks top to bottom on a clean kernel and store their outputs.

    python scripts/execute_notebooks.py                 # every chapter
    python scripts/execute_notebooks.py notebooks/02_bandits.ipynb

The stored outputs are what the published book shows and what nbval compares a
fresh run against, so run this after changing a chapter or the library. Widget
state is stored too, so the static book can draw the widgets. Progress bars are
turned off (MCTSLIB_PROGRESS=0): their timings would differ on every run.

Every cell leaves with an id of its own (nbformat 4.5): a cell pasted in by hand with a
missing or repeated id (chapter 7 once had four cells called 'ffffffff') gets a new one, said
so on the terminal, instead of nbformat's "Non-unique cell id" warning at every later read.
tests/test_notebook_format.py fails on a stored notebook that still has one.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbformat.v4.nbbase import random_cell_id

ROOT = Path(__file__).resolve().parent.parent


def give_cells_unique_ids(notebook: nbformat.NotebookNode) -> list[str]:
    """Give each cell whose id is missing or already taken by an earlier cell a new random id.

    Returns one line per change ("cell 51: '00000000' -> '3f9a0c2e'"); the first cell with
    a given id keeps it, so links to a cell id stay valid.
    """
    taken = {cell.get("id") for cell in notebook.cells}
    seen: set[str] = set()
    changes = []
    for index, cell in enumerate(notebook.cells):
        old = cell.get("id")
        if old is None or old in seen:
            new = random_cell_id()
            while new in taken:
                new = random_cell_id()
            taken.add(new)
            cell["id"] = new
            changes.append(f"cell {index}: {old!r} -> {new!r}")
        seen.add(cell["id"])
    return changes


def read_notebook(path: Path) -> nbformat.NotebookNode:
    """The notebook at ``path``, every cell with an id of its own, checked against its schema."""
    with open(path, encoding="utf-8") as file:
        notebook = nbformat.reader.read(file)  # not yet validated: nbformat would warn on ids
    if notebook.nbformat != 4:
        raise ValueError(f"{path}: nbformat {notebook.nbformat}; the chapters are nbformat 4")
    notebook.nbformat_minor = max(notebook.nbformat_minor, 5)  # 4.5 only added cell ids
    for change in give_cells_unique_ids(notebook):
        print(f"{path}: new cell id, {change}")
    nbformat.validate(notebook)
    return notebook


def execute(path: Path, timeout: int) -> float:
    notebook = read_notebook(path)
    os.environ["MCTSLIB_PROGRESS"] = "0"
    client = NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        store_widget_state=True,
        record_timing=False,
    )
    start = time.perf_counter()
    client.execute()
    elapsed = time.perf_counter() - start
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
    nbformat.write(notebook, path)
    return elapsed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "notebooks", nargs="*", type=Path, help="notebooks to run (default: all chapters)"
    )
    parser.add_argument("--timeout", type=int, default=900, help="seconds allowed per cell")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "notebooks").glob("*.ipynb"))
    for path in paths:
        seconds = execute(path.resolve(), args.timeout)
        print(f"{path}: executed in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
