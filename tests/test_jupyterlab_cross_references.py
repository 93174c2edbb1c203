"""Each chapter in JupyterLab finds its references, and a link to another chapter opens it.

jupyterlab-myst renders a notebook's Markdown cells as MyST and resolves ``{ref}`` among the
labels of that one notebook; a label it cannot find is logged in the browser console as
"Cross reference target was not found: <label>" and the reader's link goes nowhere. So the
chapters link to another chapter with ``[text](other.ipynb#label)`` (see
tests/test_cross_references.py, which checks the sources and the built book).

One JupyterLab serves copies of the chapters (their Markdown cells only: references live
there, and without code editors and outputs a chapter renders several times faster) plus one
planted notebook that refers to a label of another chapter with ``{ref}``. In one browser
page, for every chapter of ``_toc.yml``, the test opens the notebook, waits until
jupyterlab-myst has rendered every Markdown cell and the console has gone quiet, fails on any
such message, and closes it (shutting its kernel down); the planted notebook must produce one
(so the listening works).
It also checks that every cross-chapter link was rendered as a link to that notebook with its
``#label``, and clicks one: the other chapter must open in JupyterLab.

What a learner gets from the click: the other chapter opens in a tab of its own, at its top.
JupyterLab 4.6 scrolls to ``#label`` only if a rendered cell holds an element whose
``data-jupyter-id`` (its sanitizer's name for ``id``) is the label; jupyterlab-myst 2.7 gives
the labelled heading or paragraph a plain ``id``, so the chapter is not scrolled.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlsplit

import nbformat
import pytest
from browser import assert_stayed_local, code_notebook, jupyterlab, toc_pages, wait_for
from test_cross_references import FILE_LINK, read_prose

pytestmark = pytest.mark.browser

NOT_FOUND = "Cross reference target was not found"
CHAPTERS = [page for page in toc_pages() if page.is_notebook]
PLANTED = "zz_planted_cross_chapter_ref.ipynb"
PLANTED_LABEL = "ch4-one-child"  # a label of 04_uct.ipynb
QUIET_MS, LONGEST_SETTLE_MS = 1_000, 15_000

CURRENT = "window.jupyterapp.shell.currentWidget"
OPEN_JS = "path => window.jupyterapp.commands.execute('docmanager:open', {path}).then(() => null)"
# Every link jupyterlab-myst rendered in the Markdown cells, as the href it resolved to.
RENDERED_LINKS_JS = f"""() => Array.from(
  {CURRENT}.node.querySelectorAll('.jp-MarkdownCell .myst a[href]')).map(a => a.href)"""
CLOSE_JS = f"""async () => {{
  const panel = {CURRENT};
  if (panel.sessionContext) await panel.sessionContext.shutdown();
  panel.dispose();
}}"""


def planted_notebook() -> nbformat.NotebookNode:
    notebook = code_notebook("")  # for the default kernel, so JupyterLab asks nothing
    notebook.cells = [
        nbformat.v4.new_markdown_cell(
            f"# Planted\n\nA reference JupyterLab cannot follow: {{ref}}`{PLANTED_LABEL}`."
        )
    ]
    return notebook


def markdown_only(path: Path) -> dict:
    """The notebook at ``path`` with its Markdown cells only: references live there, and
    without code editors and outputs the chapters render several times faster."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    notebook["cells"] = [cell for cell in notebook["cells"] if cell["cell_type"] == "markdown"]
    notebook["metadata"].pop("widgets", None)
    return notebook


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """One JupyterLab for every chapter (their Markdown cells) and the planted notebook."""
    folder = tmp_path_factory.mktemp("xref-notebooks")
    for chapter in CHAPTERS:
        text = json.dumps(markdown_only(chapter.source), indent=1, ensure_ascii=False)
        (folder / chapter.source.name).write_text(text, encoding="utf-8")
    nbformat.write(planted_notebook(), folder / PLANTED)
    with jupyterlab(folder, tmp_path_factory.mktemp("jupyterlab-xref")) as server:
        yield server


@pytest.fixture(scope="module")
def lab_page(lab, lab_browser):
    """One page of JupyterLab, and everything its console said, for all the chapters."""
    context, network = lab_browser
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.goto(f"{lab.url}/lab/workspaces/xref?token={lab.token}")
    wait_for(page, "() => window.jupyterapp !== undefined", 90_000, "JupyterLab did not start")
    page.evaluate("() => window.jupyterapp.restored.then(() => null)")  # plugins up, shell laid out
    yield page, console
    page.close()
    assert_stayed_local(network)


def open_rendered(lab, page, console: list[str], notebook: str) -> list[str]:
    """Open ``notebook`` (Markdown cells only) and wait until jupyterlab-myst has rendered every
    cell and the console has been quiet for a moment; returns what the console said meanwhile."""
    start = len(console)
    page.evaluate(OPEN_JS, notebook)
    cells = len(json.loads((lab.root_dir / notebook).read_text(encoding="utf-8"))["cells"])
    wait_for(
        page,
        f"() => {CURRENT} && {CURRENT}.title.label === {json.dumps(notebook)} && "
        f"{CURRENT}.node.querySelectorAll('.jp-MarkdownCell .myst').length >= {cells}",
        60_000,
        f"jupyterlab-myst did not render the {cells} Markdown cells of {notebook}",
    )
    # References are resolved as the cells render: wait until the console stops talking.
    waited, heard = 0, -1
    while heard != len(console) and waited < LONGEST_SETTLE_MS:
        heard = len(console)
        page.wait_for_timeout(QUIET_MS)
        waited += QUIET_MS
    return console[start:]


def not_found(console: list[str]) -> list[str]:
    return [line for message in console for line in message.splitlines() if NOT_FOUND in line]


def cross_chapter_links(notebook: Path) -> set[tuple[str, str]]:
    """(notebook, label) of every link of ``notebook`` to another notebook, as written."""
    return {
        (target, anchor)
        for _, text in read_prose(notebook).cells
        for _, target, anchor in FILE_LINK.findall(text)
        if target.endswith(".ipynb") and target != notebook.name
    }


def rendered_targets(hrefs: list[str]) -> set[tuple[str, str]]:
    """(notebook, label) of every rendered link to a notebook (JupyterLab serves it as /files/)."""
    targets = set()
    for href in hrefs:
        parts = urlsplit(href)
        if parts.path.endswith(".ipynb"):
            targets.add((unquote(parts.path).rsplit("/", 1)[-1], unquote(parts.fragment)))
    return targets


def test_there_are_chapters():
    assert len(CHAPTERS) >= 9, [page.docname for page in CHAPTERS]


def test_the_planted_cross_chapter_ref_is_reported(lab, lab_page):
    """The listening works: a {ref} to another chapter's label is logged, as in issue 34."""
    page, console = lab_page
    said = open_rendered(lab, page, console, PLANTED)
    page.evaluate(CLOSE_JS)
    assert any(PLANTED_LABEL in line for line in not_found(said)), said


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda page: page.source.stem)
def test_every_reference_of_the_chapter_is_found_in_jupyterlab(lab, lab_page, chapter):
    page, console = lab_page
    name = chapter.source.name
    said = open_rendered(lab, page, console, name)
    hrefs = page.evaluate(RENDERED_LINKS_JS)
    page.evaluate(CLOSE_JS)
    missing = sorted(set(not_found(said)))
    assert not missing, f"{name} in JupyterLab:\n" + "\n".join(missing)
    unlinked = cross_chapter_links(lab.root_dir / name) - rendered_targets(hrefs)
    assert not unlinked, f"{name}: not rendered as links to the notebook: {sorted(unlinked)}"


def test_a_link_to_another_chapter_opens_it(lab, lab_page):
    linking = [page.source.name for page in CHAPTERS if cross_chapter_links(page.source)]
    assert linking, "no chapter links to another one"
    chapter = min(linking, key=lambda name: (lab.root_dir / name).stat().st_size)  # quickest
    # A link with a #label if there is one (the label is what the book resolves).
    target, anchor = min(cross_chapter_links(lab.root_dir / chapter), key=lambda t: (not t[1], t))
    page, console = lab_page
    open_rendered(lab, page, console, chapter)
    ends = f"[href$='#{anchor}']" if anchor else ":not([href*='#'])"
    link = page.locator(f".jp-MarkdownCell .myst a[href*='/{target}']{ends}").first
    link.scroll_into_view_if_needed()
    link.click()
    wait_for(
        page,
        f"() => {CURRENT}.title.label === {json.dumps(target)}",
        30_000,
        f"clicking {target}#{anchor} in {chapter} did not open {target}",
    )
    page.evaluate(CLOSE_JS)  # the chapter the link opened
    page.evaluate(OPEN_JS, chapter)
    page.evaluate(CLOSE_JS)
