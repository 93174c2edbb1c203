"""Every page of the built book, opened in headless Chromium as a reader would.

The book is served from 127.0.0.1 and nothing may be fetched from anywhere else. On each
page listed in ``_toc.yml`` the math must be typeset by MathJax, every figure must load,
stored widgets must be drawn by the widget manager, and the only JavaScript errors allowed
are the known, harmless ones listed below. A screenshot of each page is saved to a
temporary folder (printed with ``pytest -s`` and in the run's summary).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from browser import chromium, count_image_outputs, is_local, serve_folder, toc_docnames
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser

# Known JavaScript errors of the toolchain, each harmless to a reader (why, in the value).
KNOWN_PAGE_ERRORS = {
    "Identifier 'THEBE_JS_URL' has already been declared": (
        "Jupyter Book 1 writes sphinx-thebe's configuration script twice on every page; "
        "Thebe is off, nothing uses it"
    ),
}
# Only on pages with widgets: the widget manager (embed-amd.js) calls MathJax 2's
# MathJax.Hub.Queue to typeset widget labels, but the book loads MathJax 3. Widgets still
# render; only math inside widget labels would stay raw (the raw-TeX check catches that).
KNOWN_WIDGET_PAGE_ERRORS = {"Cannot read properties of undefined (reading 'Queue')"}
KNOWN_CONSOLE_ERRORS = {
    # pydata-sphinx-theme on a first visit (no stored light/dark choice) falls back to "auto".
    "Got invalid theme mode",
    # A missing file: reported with its URL by test_no_missing_files instead.
    "Failed to load resource",
}
# TeX that MathJax should have replaced: \( \) \[ \] $$ \begin{ or $...$ on one line.
RAW_TEX = re.compile(r"\\[()\[\]]|\$\$|\\begin\{|\$[^\s$][^$\n]*\$")
WIDGET_FAILURE_TEXT = ("Loading widget", "Error displaying widget", "model not found")

PAGE_FACTS_JS = """() => {
  const article = document.querySelector('article') || document.body;
  const prose = article.cloneNode(true);
  prose.querySelectorAll('pre, code, script, style, textarea, .highlight, mjx-container')
    .forEach(e => e.remove());
  const maths = Array.from(document.querySelectorAll('.math'));
  const views = Array.from(document.querySelectorAll(
    'script[type="application/vnd.jupyter.widget-view+json"]'));
  return {
    prose: prose.textContent,
    mathCount: maths.length,
    untypeset: maths.filter(m => !m.querySelector('mjx-container'))
      .map(m => m.textContent.slice(0, 80)),
    mathErrors: Array.from(document.querySelectorAll('mjx-merror')).map(e => e.textContent),
    images: Array.from(document.images).map(img => ({
      src: img.getAttribute('src'),
      loaded: img.complete && img.naturalWidth > 0,
      inOutput: img.closest('.cell_output') !== null && img.closest('.jupyter-widgets, .widget-image') === null,
    })),
    widgetViews: views.length,
    widgetsDrawn: views.filter(v => {
      const drawn = v.parentElement.querySelector('.jupyter-widgets');
      return drawn !== null && drawn.getBoundingClientRect().height > 0;
    }).length,
    widgetText: Array.from(document.querySelectorAll('.cell_output'))
      .filter(o => o.querySelector('script[type="application/vnd.jupyter.widget-view+json"]'))
      .map(o => o.innerText).join('\\n'),
  };
}"""

WIDGETS_DRAWN_JS = """() => Array.from(document.querySelectorAll(
    'script[type="application/vnd.jupyter.widget-view+json"]'))
  .every(v => v.parentElement.querySelector('.jupyter-widgets') !== null)"""


@dataclass
class PageVisit:
    """What a reader's browser did and showed on one page."""

    url: str
    screenshot: Path
    requests: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    facts: dict = field(default_factory=dict)


@pytest.fixture(scope="module")
def book_url(built_book):
    with serve_folder(built_book) as url:
        yield url


@pytest.fixture(scope="module")
def book_browser(playwright, tmp_path_factory):
    with chromium(playwright, tmp_path_factory.mktemp("chromium-book")) as (context, network):
        yield context, network


@pytest.fixture(scope="module")
def visit(book_url, book_browser, screenshot_dir):
    """visit(docname) -> PageVisit; each page is opened once and shared by the tests."""
    context, network = book_browser
    visits: dict[str, PageVisit] = {}

    def visit_once(docname: str) -> PageVisit:
        if docname not in visits:
            shot = screenshot_dir / f"book-{docname.replace('/', '-')}.png"
            visits[docname] = open_page(context, network, book_url + docname + ".html", shot)
            print(f"\nscreenshot of {docname}: {shot}")
        return visits[docname]

    return visit_once


def open_page(context, network, url: str, screenshot: Path) -> PageVisit:
    result = PageVisit(url, screenshot)
    first_request = len(network.requests)
    page = context.new_page()
    page.on("pageerror", lambda error: result.page_errors.append(error.message))
    page.on(
        "console",
        lambda message: message.type == "error" and result.console_errors.append(message.text),
    )
    page.on(
        "response",
        lambda response: (
            response.status >= 400 and result.missing.append(f"{response.status} {response.url}")
        ),
    )
    try:
        page.goto(url, wait_until="load")
        wait_until_drawn(page)
        result.facts = page.evaluate(PAGE_FACTS_JS)
        page.screenshot(path=str(screenshot), full_page=True)
    finally:
        page.close()
    result.requests = network.requests[first_request:]
    return result


def wait_until_drawn(page) -> None:
    """Wait for MathJax, the widget manager and every image; a timeout is left to the checks."""
    page.evaluate("""async () => {
      if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
        await MathJax.startup.promise;
      }
      document.querySelectorAll('img[loading="lazy"]').forEach(img => img.loading = 'eager');
    }""")
    for condition in (WIDGETS_DRAWN_JS, "() => Array.from(document.images).every(i => i.complete)"):
        try:
            page.wait_for_function(condition, timeout=15_000)
        except PlaywrightTimeout:
            pass  # the tests below say what is missing
    page.evaluate("document.fonts.ready.then(() => true)")


def page_source(toc, docname):
    return next(page for page in toc if page.docname == docname)


DOCNAMES = toc_docnames()


# ------------------------------------------------------------------------------------ tests


@pytest.mark.parametrize("docname", DOCNAMES)
def test_nothing_is_fetched_from_other_hosts(visit, docname):
    page = visit(docname)
    outside = [url for url in page.requests if not is_local(url)]
    assert not outside, f"{docname} fetched from outside 127.0.0.1:\n" + "\n".join(outside)


@pytest.mark.parametrize("docname", DOCNAMES)
def test_no_missing_files(visit, docname):
    page = visit(docname)
    assert not page.missing, f"{docname}: requests that failed:\n" + "\n".join(page.missing)


@pytest.mark.parametrize("docname", DOCNAMES)
def test_math_is_typeset(visit, docname):
    facts = visit(docname).facts
    assert not facts["untypeset"], f"{docname}: math MathJax did not typeset: {facts['untypeset']}"
    assert not facts["mathErrors"], f"{docname}: TeX errors: {facts['mathErrors']}"
    raw = [match.group() for match in RAW_TEX.finditer(facts["prose"])]
    assert not raw, f"{docname}: raw TeX left in the text: {raw[:10]}"


@pytest.mark.parametrize("docname", DOCNAMES)
def test_every_figure_loads(visit, toc, docname):
    images = visit(docname).facts["images"]
    broken = [image["src"] for image in images if not image["loaded"]]
    assert not broken, f"{docname}: images that did not load: {broken}"
    source = page_source(toc, docname).source
    if source is not None and source.suffix == ".ipynb":
        expected = count_image_outputs(source)
        shown = sum(image["inOutput"] for image in images)
        assert shown == expected, (
            f"{docname}: {source.name} has {expected} figure outputs, the page shows {shown}"
        )


@pytest.mark.parametrize("docname", DOCNAMES)
def test_stored_widgets_are_drawn(visit, docname):
    facts = visit(docname).facts
    assert facts["widgetsDrawn"] == facts["widgetViews"], (
        f"{docname}: the widget manager drew {facts['widgetsDrawn']} of "
        f"{facts['widgetViews']} stored widgets (is the widget state stored in the notebook?)"
    )
    failures = [text for text in WIDGET_FAILURE_TEXT if text in facts["widgetText"]]
    assert not failures, f"{docname}: widget output says {failures}"


@pytest.mark.parametrize("docname", DOCNAMES)
def test_no_unexpected_javascript_errors(visit, docname):
    page = visit(docname)
    known = set(KNOWN_PAGE_ERRORS)
    if page.facts.get("widgetViews"):
        known |= KNOWN_WIDGET_PAGE_ERRORS
    errors = [error for error in page.page_errors if not any(k in error for k in known)]
    errors += [
        error
        for error in page.console_errors
        if not any(known_error in error for known_error in KNOWN_CONSOLE_ERRORS)
    ]
    assert not errors, f"{docname}: JavaScript errors:\n" + "\n".join(errors)


def test_the_book_has_math_figures_and_widgets(visit):
    """The checks above must have had something to check."""
    visits = [visit(docname) for docname in DOCNAMES]
    assert sum(v.facts["mathCount"] for v in visits) > 0, "no page of the book has math"
    assert sum(i["inOutput"] for v in visits for i in v.facts["images"]) > 0, "no figures"
    assert sum(v.facts["widgetViews"] for v in visits) > 0, "no page shows a stored widget"
