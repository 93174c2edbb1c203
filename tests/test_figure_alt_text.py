"""Every figure of the book has alt text, and no code line is too long to read in the book.

Checked in the notebooks themselves (no build, no browser), so a failure names the cells to
fix. A figure is an image output the book shows (tests/browser.py: ``count_image_outputs``);
its alt text comes from the cell's metadata, as myst-nb reads it::

    "metadata": {"mystnb": {"image": {"alt": "Line chart: error of the average ..."}}}

(one alt text for every image the cell shows). Adding it changes no output: no re-execution.

Code lines: the book wraps long lines (book/css/mctsbook.css) rather than scrolling, but a
wrapped line is still hard to read; lines longer than ``MAX_CODE_LINE`` (the project's ruff
line length) are listed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser import MYST_NB_HTML_PRIORITY, REMOVE_OUTPUT_TAGS, toc_pages

MAX_CODE_LINE = 100
NOTEBOOKS = [page.source for page in toc_pages() if page.source and page.source.suffix == ".ipynb"]


def shown_images(cell: dict) -> int:
    """How many of a code cell's outputs the book shows as an image."""
    if REMOVE_OUTPUT_TAGS & set(cell.get("metadata", {}).get("tags", [])):
        return 0
    count = 0
    for output in cell.get("outputs", []):
        shown = next((m for m in MYST_NB_HTML_PRIORITY if m in output.get("data", {})), "")
        count += shown.startswith("image/")
    return count


def alt_text(cell: dict) -> str:
    image = cell.get("metadata", {}).get("mystnb", {}).get("image", {})
    return str(image.get("alt", "")).strip() if isinstance(image, dict) else ""


def describe(index: int, cell: dict) -> str:
    first = next((line for line in "".join(cell["source"]).splitlines() if line.strip()), "")
    return f"cell {index} (id {cell.get('id', '?')}): {first.strip()[:70]}"


def figures_without_alt_text(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return [
        describe(index, cell)
        for index, cell in enumerate(cells)
        if cell["cell_type"] == "code" and shown_images(cell) and not alt_text(cell)
    ]


def long_code_lines(notebook: Path, limit: int = MAX_CODE_LINE) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    found = []
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        for number, line in enumerate("".join(cell["source"]).splitlines(), start=1):
            if len(line) > limit:
                found.append(f"cell {index} line {number} ({len(line)} chars): {line.strip()[:60]}")
    return found


def test_the_checks_see_the_notebooks():
    assert NOTEBOOKS, "_toc.yml lists no notebook"
    assert sum(
        shown_images(cell)
        for notebook in NOTEBOOKS
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        if cell["cell_type"] == "code"
    ), "no notebook shows a figure: the alt-text check would check nothing"


def test_a_cell_with_alt_text_passes_and_one_without_fails(tmp_path):
    figure = {
        "data": {"image/png": "iVBOR", "text/plain": "<Figure>"},
        "output_type": "display_data",
    }
    cells = [
        {"cell_type": "code", "id": "a", "metadata": {}, "source": "plot()", "outputs": [figure]},
        {"cell_type": "code", "id": "b", "metadata": {"mystnb": {"image": {"alt": "A line."}}},
         "source": "plot()", "outputs": [figure]},
        {"cell_type": "code", "id": "c", "metadata": {"tags": ["remove-output"]},
         "source": "plot()", "outputs": [figure]},
    ]  # fmt: skip
    notebook = tmp_path / "n.ipynb"
    notebook.write_text(json.dumps({"cells": cells}), encoding="utf-8")
    assert figures_without_alt_text(notebook) == ["cell 0 (id a): plot()"]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda path: path.stem)
def test_every_figure_has_alt_text(notebook):
    missing = figures_without_alt_text(notebook)
    assert not missing, (
        f"{notebook.name}: figures without alt text (cell metadata mystnb.image.alt):\n"
        + "\n".join(missing)
    )


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda path: path.stem)
def test_code_lines_fit(notebook):
    found = long_code_lines(notebook)
    assert not found, (
        f"{notebook.name}: code lines longer than {MAX_CODE_LINE} characters:\n" + "\n".join(found)
    )
