"""A chapter opened in JupyterLab shows its MyST roles rendered, not as raw text.

The chapters cite with MyST's ``{cite}`key``` role. Plain JupyterLab would show that text
as typed; with ``jupyterlab-myst`` (requirements.txt) the Markdown cells are rendered as MyST,
so a learner sees a citation. jupyterlab-myst reads no BibTeX file: it shows the citation key
(marked as a citation it could not look up), and the book's references page has the entry.
The test opens a copy of a chapter that cites (no kernel needed) and reads the rendered cells.
"""

from __future__ import annotations

import json
import re

import pytest
from browser import REPO, assert_stayed_local, jupyterlab, wait_for

pytestmark = pytest.mark.browser

NOTEBOOK = "02_bandits.ipynb"
CITE_ROLE = re.compile(r"\{cite(?::\w+)?\}`([^`]+)`")

RENDERED_JS = """() => Array.from(document.querySelectorAll('.jp-MarkdownCell'))
  .map(cell => {
    const editor = cell.querySelector('.jp-InputArea-editor');
    const rendered = editor && editor.nextElementSibling;
    return rendered && !editor.classList.contains('lm-mod-hidden') ? null : rendered;
  })
  .filter(rendered => rendered !== null)
  .map(rendered => ({myst: rendered.classList.contains('myst'), text: rendered.innerText}))"""


SHOW_CITATION_JS = """key => {
  const cell = Array.from(document.querySelectorAll('.jp-MarkdownCell .myst'))
    .find(rendered => rendered.innerText.includes(key));
  if (cell) cell.scrollIntoView();
}"""


def cited_keys(notebook) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return [key.strip() for match in CITE_ROLE.findall(text) for key in match.split(",")]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    folder = tmp_path_factory.mktemp("myst-notebooks")
    (folder / NOTEBOOK).write_bytes((REPO / "notebooks" / NOTEBOOK).read_bytes())
    with jupyterlab(folder, tmp_path_factory.mktemp("jupyterlab-myst")) as server:
        yield server


def test_citations_render_in_jupyterlab(lab, lab_browser, screenshot_dir):
    keys = cited_keys(REPO / "notebooks" / NOTEBOOK)
    assert keys, f"{NOTEBOOK} cites nothing: pick a chapter with {{cite}} roles"
    context, network = lab_browser
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(error.message))
    page.goto(f"{lab.url}/lab/workspaces/myst/tree/{NOTEBOOK}?token={lab.token}")
    markdown_cells = sum(
        cell["cell_type"] == "markdown"
        for cell in json.loads((REPO / "notebooks" / NOTEBOOK).read_text(encoding="utf-8"))["cells"]
    )
    wait_for(
        page,
        f"() => document.querySelectorAll('.jp-MarkdownCell .myst').length >= {markdown_cells}",
        60_000,
        f"jupyterlab-myst did not render the {markdown_cells} Markdown cells of {NOTEBOOK} "
        "(is it installed and enabled?)",
    )
    cells = page.evaluate(RENDERED_JS)
    page.evaluate(SHOW_CITATION_JS, keys[0])
    shot = screenshot_dir / "jupyterlab-myst-citations.png"
    page.screenshot(path=str(shot))
    print(f"\nscreenshot: {shot}")
    text = "\n".join(cell["text"] for cell in cells)
    assert cells and all(cell["myst"] for cell in cells), "some Markdown cells are not MyST"
    raw = CITE_ROLE.findall(text) + re.findall(r"\{cite[^}]*\}", text)
    assert not raw, f"{NOTEBOOK}: citation roles shown as raw text in JupyterLab: {raw[:5]}"
    missing = sorted({key for key in keys if key not in text})
    assert not missing, f"{NOTEBOOK}: cited keys not shown in JupyterLab: {missing}"
    assert not errors, f"JupyterLab page errors: {errors}"
    assert_stayed_local(network)
    page.close()
