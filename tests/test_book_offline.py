"""The built book reads offline and is complete, checked in its HTML files (no browser).

A reader may open the book on a train: no page, stylesheet or font may come from another
host. Every chapter offers its notebook for download, every citation links to an entry of
the references page, and no page shows a path from the machine that built it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from bs4 import BeautifulSoup

# Link types that make a browser fetch the URL (as opposed to next/prev/canonical links).
FETCHING_LINK_RELS = {
    "stylesheet", "preload", "modulepreload", "prefetch", "preconnect", "dns-prefetch",
    "icon", "apple-touch-icon", "manifest",
}  # fmt: skip
FETCHING_ATTRIBUTES = ("src", "srcset", "poster", "data")
EXTERNAL_URL = re.compile(r"^\s*(https?:)?//", re.IGNORECASE)
CSS_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
CSS_URL = re.compile(
    r"""@import\s+(?:url\(\s*)?["']?([^"')\s;]+)|url\(\s*["']?([^"')]+?)["']?\s*\)""",
    re.IGNORECASE,
)
# Absolute paths of the machine that built the book (a reader's machine has none of them).
LOCAL_PATH = re.compile(r"(?<![\w.:/-])/(?:work|tmp|root|home|Users)/|file:/|[A-Z]:\\Users\\")


def read_html(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def html_files(build: Path) -> list[Path]:
    return sorted(build.rglob("*.html"))


def visible_text(soup: BeautifulSoup) -> str:
    """The article's text without code, scripts and styles (where '??' or '{cite}' mean a bug)."""
    article = soup.select_one("article") or soup.body or soup
    article = BeautifulSoup(str(article), "html.parser")
    for element in article.select("pre, code, script, style, .highlight"):
        element.decompose()
    return article.get_text(" ")


def external_css_urls(css: str) -> list[str]:
    css = CSS_COMMENT.sub("", css)
    urls = [first or second for first, second in CSS_URL.findall(css)]
    return [url for url in urls if EXTERNAL_URL.match(url)]


def resolve(page: Path, href: str) -> tuple[Path, str]:
    """The file and fragment a relative link on ``page`` points to."""
    parts = urlsplit(href)
    target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
    return target, parts.fragment


# ------------------------------------------------------------------------------------ tests


def test_every_toc_page_was_built(built_book, toc):
    missing = [page.html for page in toc if not (built_book / page.html).is_file()]
    assert not missing, f"pages listed in _toc.yml but not in {built_book}: {missing}"


def test_html_loads_nothing_from_other_hosts(built_book):
    offending = []
    for path in html_files(built_book):
        soup = read_html(path)
        for tag in soup.find_all(True):
            urls = [tag.get(attr) for attr in FETCHING_ATTRIBUTES if tag.get(attr)]
            if tag.name == "link" and FETCHING_LINK_RELS & set(tag.get("rel") or []):
                urls.append(tag.get("href") or "")
            if tag.get("style"):
                urls += external_css_urls(tag["style"])
            urls = [url for url in urls if EXTERNAL_URL.match(url)]
            offending += [f"{path.relative_to(built_book)}: <{tag.name}> {url}" for url in urls]
        for style in soup.find_all("style"):
            for url in external_css_urls(style.get_text()):
                offending.append(f"{path.relative_to(built_book)}: <style> {url}")
    assert not offending, "pages load resources from other hosts:\n" + "\n".join(offending)


def test_stylesheets_load_nothing_from_other_hosts(built_book):
    stylesheets = sorted(built_book.rglob("*.css"))
    assert stylesheets, f"no stylesheets in {built_book}"
    offending = [
        f"{path.relative_to(built_book)}: {url}"
        for path in stylesheets
        for url in external_css_urls(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert not offending, "stylesheets import from other hosts:\n" + "\n".join(offending)


def test_chapters_offer_their_notebook_for_download(built_book, toc):
    chapters = [page for page in toc if page.is_notebook]
    assert chapters, "_toc.yml lists no notebook chapter"
    for page in chapters:
        html = built_book / page.html
        buttons = read_html(html).select("a.btn-download-source-button[href]")
        hrefs = [button["href"] for button in buttons if button["href"].endswith(".ipynb")]
        assert hrefs, f"{page.html} has no download button for its .ipynb"
        target, _ = resolve(html, hrefs[0])
        assert target.is_file(), f"{page.html}: download link {hrefs[0]} points to no file"
        offered, source = (json.loads(p.read_text(encoding="utf-8")) for p in (target, page.source))
        assert offered == source, (
            f"{page.html} offers an old copy of {page.source.name}: rebuild the book "
            "(`bash scripts/build_book.sh`)"
        )


def test_every_citation_links_to_a_reference(built_book, toc):
    cited_targets = set()
    problems = []
    for page in toc:
        html = built_book / page.html
        soup = read_html(html)
        for citation in soup.select("span.bibtex-citation"):
            links = citation.select("a[href]")
            if not links:
                problems.append(f"{page.html}: unresolved citation {citation.get_text()!r}")
            for link in links:
                target, fragment = resolve(html, link["href"])
                found = target.is_file() and read_html(target).find(id=fragment) is not None
                if not found:
                    problems.append(f"{page.html}: citation link {link['href']} leads nowhere")
                cited_targets.add((target, fragment))
        text = visible_text(soup)
        for marker in ("??", "{cite}", "{cite:"):
            if marker in text:
                problems.append(f"{page.html}: {marker!r} in the text (an unresolved reference)")
        for xref in soup.select(".xref"):
            if xref.find_parent("a") is None:
                problems.append(f"{page.html}: unresolved cross-reference {xref.get_text()!r}")
    assert not problems, "\n".join(problems)
    assert cited_targets, "no page cites a source ({cite} roles with keys from references.bib)"
    for target in {target for target, _ in cited_targets}:
        entries = read_html(target).select(".citation[id]")
        assert len(entries) >= len({f for t, f in cited_targets if t == target}), (
            f"{target.relative_to(built_book)} lists fewer entries than are cited"
        )
        empty = [entry["id"] for entry in entries if not entry.get_text(strip=True)]
        assert not empty, f"{target.relative_to(built_book)} has empty entries: {empty}"


@pytest.mark.parametrize("kind", ["pages", "downloadable notebooks"])
def test_no_paths_of_the_build_machine(built_book, kind):
    if kind == "pages":
        files = [p for p in html_files(built_book) if "_static" not in p.parts]
    else:
        files = sorted((built_book / "_sources").rglob("*.ipynb"))
    assert files, f"no {kind} in {built_book}"
    leaks = []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in LOCAL_PATH.finditer(text):
            context = text[max(0, match.start() - 60) : match.end() + 60].replace("\n", " ")
            leaks.append(f"{path.relative_to(built_book)}: ...{context}...")
    assert not leaks, "absolute paths of the build machine in the book:\n" + "\n".join(leaks[:20])


def test_bibliography_labels_match_the_citations(built_book, toc):
    """A citation "[Auer et al., 2002]" leads to the entry labelled "Auer et al., 2002"."""
    label_of: dict[tuple[Path, str], str] = {}
    mismatches, checked = [], 0
    for page in toc:
        html = built_book / page.html
        for citation in read_html(html).select("span.bibtex-citation"):
            for link in citation.select("a[href]"):
                target, fragment = resolve(html, link["href"])
                if (target, fragment) not in label_of:
                    entry = read_html(target).find(id=fragment) if target.is_file() else None
                    label = entry.select_one(".label") if entry is not None else None
                    label_of[(target, fragment)] = words(label.get_text()) if label else ""
                label, cited = label_of[(target, fragment)].strip("[]"), words(link.get_text())
                checked += 1
                if label != cited:
                    mismatches.append(
                        f"{page.html}: cites {cited!r}, the references page labels it {label!r}"
                    )
    assert checked, "no citation links to check"
    assert not mismatches, "\n".join(mismatches)


def words(text: str) -> str:
    return " ".join(text.split())


def test_no_inline_script_is_written_twice(built_book):
    """A configuration script written twice re-declares its constants: a JavaScript error.

    (Sphinx 7 writes an extension's inline script twice when the extension adds it after the
    builder starts; sphinx-thebe's did, on every page, until sphinx_thebe was dropped.)
    """
    doubled = []
    for path in html_files(built_book):
        seen = set()
        for script in read_html(path).find_all("script", src=False):
            body = script.get_text().strip()
            if re.match(r"(const|let)\s", body):  # `var` may be declared twice; these may not
                if body in seen:
                    doubled.append(f"{path.relative_to(built_book)}: {body[:80]}")
                seen.add(body)
    assert not doubled, "inline scripts declared twice on a page:\n" + "\n".join(doubled)
