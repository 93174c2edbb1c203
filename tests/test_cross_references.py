"""Cross-references between chapters work in JupyterLab and in the book (issue 34, item 5).

jupyterlab-myst renders one notebook at a time: a ``{ref}`` to a label of another chapter is
logged as "Cross reference target was not found" and leads nowhere, and a ``{doc}`` becomes a
link to a file without its suffix. So a chapter links to another chapter with a Markdown link
to the notebook and, after ``#``, a label defined in it: ``[text](04_uct.ipynb#ch4-one-child)``.
JupyterLab opens that notebook; in the book, book/_ext/label_links.py resolves the label.
Inside a chapter ``{ref}`` stays (both renderers resolve it).

Checked here without a browser:

- the sources: no notebook uses ``{ref}``/``{numref}`` to a label it does not define, or
  ``{doc}`` at all; every link to a notebook or page points to a file that exists, and its
  ``#part`` to a label defined in that file; a link in a notebook has text (an empty one shows
  the file name in JupyterLab);
- the built book: every link of a page to another page's ``#id`` (or its own) lands on an
  element with that id.

tests/test_jupyterlab_cross_references.py opens the chapters in JupyterLab.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from test_book_offline import read_html, resolve

REPO = Path(__file__).resolve().parent.parent
SOURCES = sorted((REPO / "notebooks").glob("*.ipynb")) + sorted((REPO / "book").glob("*.md"))

# A label: `(name)=` on its own line, or a directive's `:label:` / `:name:` option.
LABEL = re.compile(r"^\(([^()\s]+)\)=\s*$|^:(?:label|name):\s*(\S+)\s*$", re.MULTILINE)
# `{ref}`label``, `{ref}`text <label>``, also {numref}; group 1 is the role, 2 the label.
REF_ROLE = re.compile(r"\{(ref|numref)\}`(?:[^`<]*<([^`>]+)>|([^`<>]+))`")
DOC_ROLE = re.compile(r"\{doc\}`([^`]*)`")
# A Markdown link (not an image) to a local .ipynb or .md file, with an optional #part.
FILE_LINK = re.compile(r"(?<!!)\[([^\]]*)\]\(<?([^)\s>#]+\.(?:ipynb|md))(?:#([^)\s>]*))?>?\)")
# Fenced code that is not a MyST directive (```python, ``` or ~~~): its text is code, not prose.
CODE_FENCE = re.compile(r"^(```+|~~~+)(?!\s*\{)[^\n]*\n.*?^\1\s*$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Prose:
    """The Markdown of one source file: a chapter's Markdown cells, or a page of the book."""

    path: Path
    cells: tuple[tuple[str, str], ...]  # (where, text): "cell 12 (id ...)" or the file name

    @property
    def is_notebook(self) -> bool:
        return self.path.suffix == ".ipynb"

    @property
    def labels(self) -> set[str]:
        return {a or b for _, text in self.cells for a, b in LABEL.findall(text)}


def read_prose(path: Path) -> Prose:
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        parts = tuple(
            (f"cell {index} (id {cell.get('id', '?')})", "".join(cell["source"]))
            for index, cell in enumerate(cells)
            if cell["cell_type"] == "markdown"
        )
    else:
        parts = ((path.name, path.read_text(encoding="utf-8")),)
    return Prose(path, tuple((where, CODE_FENCE.sub("", text)) for where, text in parts))


def reference_problems(sources: list[Prose]) -> list[str]:
    """Every reference that would break in JupyterLab or in the book, as one line each."""
    home = {label: source.path for source in sources for label in source.labels}
    labels_of = {source.path.resolve(): source.labels for source in sources}
    problems = []
    for source in sources:
        for where, text in source.cells:
            at = f"{source.path.name}, {where}"
            if source.is_notebook:
                problems += _role_problems(at, text, source, home)
            for link_text, target, anchor in FILE_LINK.findall(text):
                path = (source.path.parent / target).resolve()
                if source.is_notebook and not link_text.strip():
                    problems.append(
                        f"{at}: [{link_text}]({target}) has no text: JupyterLab "
                        "would show the file name"
                    )
                if not path.is_file():
                    problems.append(f"{at}: link to {target}: no such file")
                elif anchor and anchor not in labels_of.get(path, set()):
                    problems.append(
                        f"{at}: link to {target}#{anchor}: {target} defines no "
                        f"label {anchor!r} (write its `({anchor})=` there)"
                    )
    return problems


def _role_problems(at: str, text: str, source: Prose, home: dict[str, Path]) -> list[str]:
    problems = []
    for role, label_with_text, bare_label in REF_ROLE.findall(text):
        label = (label_with_text or bare_label).strip()
        if label in source.labels:
            continue
        if label in home:
            other = home[label].name
            problems.append(
                f"{at}: {{{role}}}`{label}` is a label of {other}: JupyterLab "
                f"cannot follow it; write [text]({other}#{label})"
            )
        else:
            problems.append(f"{at}: {{{role}}}`{label}`: no such label in any chapter")
    for target in DOC_ROLE.findall(text):
        problems.append(
            f"{at}: {{doc}}`{target}`: JupyterLab links it to a file without its "
            "suffix; write [text](other.ipynb)"
        )
    return problems


# ------------------------------------------------------------------------------ the sources


def test_every_cross_reference_works_in_jupyterlab_and_in_the_book():
    sources = [read_prose(path) for path in SOURCES]
    assert sum(source.is_notebook for source in sources) >= 9
    problems = reference_problems(sources)
    assert not problems, "\n".join(problems)


def test_the_chapters_do_link_to_labels_of_other_chapters():
    """The check above has something to check: cross-chapter links with a label exist."""
    links = [
        (source.path.name, target, anchor)
        for source in map(read_prose, SOURCES)
        if source.is_notebook
        for _, text in source.cells
        for _, target, anchor in FILE_LINK.findall(text)
        if anchor and target != source.path.name
    ]
    assert links, "no chapter links to a label of another chapter: is FILE_LINK still right?"


PLANTED = {
    "a.ipynb": [
        "(a-intro)=\n## Intro\n\nSee {ref}`a-intro` and [B's part](b.ipynb#b-part).",
        "```{exercise}\n:label: a-ex\nDo it.\n```\nAs in {ref}`a-ex`.",
        "```python\n{ref}`b-part` in code is not a reference\n```",
    ],
    "b.ipynb": ["(b-part)=\n## A part\n\nBack to [the intro](a.ipynb#a-intro)."],
}
PLANTED_BAD = {
    "{ref}`b-part`": "is a label of b.ipynb",
    "{ref}`see there <b-part>`": "is a label of b.ipynb",
    "{numref}`b-part`": "is a label of b.ipynb",
    "{ref}`nowhere`": "no such label in any chapter",
    "{doc}`b`": "{doc}`b`",
    "[B](b.ipynb#a-intro)": "b.ipynb defines no label 'a-intro'",
    "[B](c.ipynb)": "no such file",
    "[](b.ipynb#b-part)": "has no text",
}


def planted_sources(folder: Path, extra: str = "") -> list[Prose]:
    for name, cells in PLANTED.items():
        markdown = [*cells, extra] if name == "a.ipynb" and extra else cells
        notebook = {"cells": [{"cell_type": "markdown", "source": text} for text in markdown]}
        (folder / name).write_text(json.dumps(notebook), encoding="utf-8")
    return [read_prose(folder / name) for name in PLANTED]


def test_the_check_passes_good_references(tmp_path):
    assert reference_problems(planted_sources(tmp_path)) == []


@pytest.mark.parametrize("bad", PLANTED_BAD)
def test_the_check_finds_a_planted_bad_reference(tmp_path, bad):
    problems = reference_problems(planted_sources(tmp_path, f"Planted: {bad}."))
    assert len(problems) == 1 and PLANTED_BAD[bad] in problems[0], problems


# --------------------------------------------------------------------------- the built book


@dataclass(frozen=True)
class PageAnchors:
    """What one built page offers (its element ids) and where its article links to at an id."""

    ids: frozenset[str]
    fragment_links: tuple[str, ...]


def page_anchors(page: Path) -> PageAnchors:
    if not page.is_file():
        return PageAnchors(frozenset(), ())
    soup = read_html(page)
    article = soup.select_one("article") or soup
    links = []
    for link in article.select("a[href]"):
        parts = urlsplit(link["href"])
        if parts.fragment and not parts.scheme and not parts.netloc:
            links.append(link["href"])
    return PageAnchors(frozenset(e["id"] for e in soup.select("[id]")), tuple(links))


def links_to_missing_ids(pages: list[Path]) -> tuple[list[str], int]:
    """Links of ``pages`` to an id that their target page lacks; and how many links go into
    a section of another chapter."""
    anchors: dict[Path, PageAnchors] = {}

    def of(path: Path) -> PageAnchors:
        if path not in anchors:
            anchors[path] = page_anchors(path)
        return anchors[path]

    problems, cross_chapter = [], 0
    for html in (page.resolve() for page in pages):
        for href in of(html).fragment_links:
            target, fragment = resolve(html, href)
            if fragment not in of(target).ids:
                problems.append(f"{html.name}: {href} lands on no element with that id")
            cross_chapter += target != html and target.parent.name == "notebooks"
    return problems, cross_chapter


def test_every_link_to_a_section_lands_on_its_id(built_book, toc):
    problems, cross_chapter = links_to_missing_ids([built_book / page.html for page in toc])
    assert not problems, "\n".join(problems)
    assert cross_chapter, "the book has no link into a section of another chapter"


def test_the_book_check_finds_links_to_missing_ids(tmp_path):
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "b.html").write_text(
        '<html><body><article><section id="b-part"><span id="b-label"></span></section>'
        "</article></body></html>", encoding="utf-8")  # fmt: skip
    page = tmp_path / "notebooks" / "a.html"
    page.write_text(
        '<html><body><nav><a href="b.html#nav-only">menu</a></nav><article id="top">'
        '<a href="b.html#b-label">good</a> <a href="#top">good</a> <a href="b.html">good</a>'
        '<a href="https://example.org/#x">outside</a> <a href="b.html#gone">bad</a>'
        ' <a href="c.html#b-part">bad</a> <a href="#nowhere">bad</a></article></body></html>',
        encoding="utf-8",
    )
    problems, cross_chapter = links_to_missing_ids([page])
    assert problems == [f"a.html: {href} lands on no element with that id"
                        for href in ("b.html#gone", "c.html#b-part", "#nowhere")]  # fmt: skip
    assert cross_chapter == 3
