"""Every page of the built book, opened in headless Chromium as a reader would.

The book is served from 127.0.0.1 and nothing may be fetched from anywhere else. On each
page listed in ``_toc.yml`` the math must be typeset by MathJax, every figure must load and
carry alt text, stored widgets must be drawn by the widget manager (math in their labels
typeset by the book's MathJax 3), no code scrolls sideways at the default width, and there
is no JavaScript error at all: no uncaught exception and nothing logged as an error. Each
chapter is also opened in the theme's dark mode, where every figure must sit on a light
background. The offline search box must find terms of the book. Screenshots (light and dark)
are saved to a temporary folder (printed with ``pytest -s`` and in the run's summary).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from browser import (
    BUILD_HTML,
    VIEWPORT,
    chromium,
    count_image_outputs,
    is_local,
    serve_folder,
    toc_docnames,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser

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
      alt: (img.getAttribute('alt') || '').trim(),
    })),
    // Code or printed text wider than its box: the reader would have to scroll sideways.
    overflowing: Array.from(article.querySelectorAll('pre'))
      .filter(pre => pre.scrollWidth > pre.clientWidth + 1)
      .map(pre => {
        const longest = pre.textContent.split('\\n').reduce((a, b) => (b.length > a.length ? b : a), '');
        const where = pre.closest('.cell_output') ? 'output' : (pre.closest('.cell_input') ? 'code cell' : 'code block');
        return `${where} (${pre.scrollWidth} px in ${pre.clientWidth} px): ${longest.trim().slice(0, 90)}`;
      }),
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
def test_no_javascript_errors(visit, docname):
    """No exception and no console error at all (a missing file is one too, with its URL)."""
    page = visit(docname)
    errors = [f"uncaught: {error}" for error in page.page_errors]
    errors += [f"console: {error}" for error in page.console_errors]
    assert not errors, f"{docname}: JavaScript errors:\n" + "\n".join(errors)


@pytest.mark.parametrize("docname", DOCNAMES)
def test_every_figure_has_alt_text(visit, docname):
    images = [image for image in visit(docname).facts["images"] if image["inOutput"]]
    missing = [image["src"] for image in images if not image["alt"]]
    assert not missing, (
        f"{docname}: figures without alt text (cell metadata mystnb.image.alt; "
        f"tests/test_figure_alt_text.py names the cells): {missing}"
    )


@pytest.mark.parametrize("docname", DOCNAMES)
def test_nothing_scrolls_sideways(visit, docname):
    overflowing = visit(docname).facts["overflowing"]
    assert not overflowing, (
        f"{docname}: text wider than the page at {VIEWPORT['width']} px (shorten the line, "
        "or the printed output):\n" + "\n".join(overflowing)
    )


WIDGET_MATH_JS = """async () => {
  const htmlManager = await new Promise(resolve =>
    window.require(['@jupyter-widgets/html-manager'], resolve));
  const manager = new htmlManager.HTMLManager();
  const host = document.createElement('div');
  document.querySelector('article').prepend(host);
  const model = await manager.new_model({
    model_name: 'LabelModel', model_module: '@jupyter-widgets/controls',
    model_module_version: '2.0.0', model_id: 'test-label-with-math'},
    {value: 'bonus $c\\\\sqrt{\\\\ln N / n}$'});
  await manager.display_view(await manager.create_view(model), host);
  for (let i = 0; i < 50 && !host.querySelector('mjx-container'); i++) {
    await new Promise(resolve => setTimeout(resolve, 100));
  }
  const typeset = host.querySelector('mjx-container') !== null;
  host.remove();
  return typeset;
}"""


def test_math_in_widget_labels_is_typeset(book_url, book_browser):
    """A Label widget holding $...$, drawn by the page's own widget manager, shows MathJax."""
    widget_pages = [name for name in DOCNAMES if "widgets-mathjax3.js" in page_html(name)]
    assert widget_pages, "no page loads the widget manager with widgets-mathjax3.js"
    context, _ = book_browser
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(error.message))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    try:
        page.goto(book_url + widget_pages[0] + ".html", wait_until="load")
        wait_until_drawn(page)
        typeset = page.evaluate(WIDGET_MATH_JS)
    finally:
        page.close()
    assert not errors, f"{widget_pages[0]}: JavaScript errors while drawing the label: {errors}"
    assert typeset, f"{widget_pages[0]}: the widget label's math was not typeset by MathJax"


def page_html(docname: str) -> str:
    path = BUILD_HTML / f"{docname}.html"
    return path.read_text(encoding="utf-8") if path.is_file() else ""


# Luminance (0 black .. 1 white) of a figure's frame in dark mode must be at least LIGHT (the
# theme's light box is about 0.83, white 1); the page behind it at most DARK.
LIGHT = 0.75
DARK = 0.35


def luminance(pixels) -> float:
    """Median luminance of RGB(A) pixels (floats in 0..1; sRGB values, Rec. 709 weights)."""
    import numpy as np

    rgb = pixels[..., :3].reshape(-1, 3)
    return float(np.median(rgb[:, 0] * 0.2126 + rgb[:, 1] * 0.7152 + rgb[:, 2] * 0.0722))


@pytest.mark.parametrize("docname", [name for name in DOCNAMES if name.startswith("notebooks/")])
def test_figures_are_readable_in_dark_mode(book_url, book_browser, screenshot_dir, docname):
    """One dark-mode screenshot per chapter; the page is dark and every figure's frame light."""
    import io

    import matplotlib.image

    context, _ = book_browser
    page = context.new_page()
    page.emulate_media(color_scheme="dark")  # the theme follows the system (default_mode auto)
    try:
        page.goto(book_url + docname + ".html", wait_until="load")
        wait_until_drawn(page)
        theme = page.evaluate("document.documentElement.dataset.theme")
        shot = screenshot_dir / f"book-dark-{docname.replace('/', '-')}.png"
        page.screenshot(path=str(shot), full_page=True)
        print(f"\ndark-mode screenshot of {docname}: {shot}")
        corner = page.screenshot(clip={"x": 0, "y": 0, "width": 40, "height": 40})
        body = matplotlib.image.imread(io.BytesIO(corner))
        # Folded figures (hidden outputs, dropdowns) are opened as a reader would open them,
        # so that they are checked too (a closed fold's image cannot be screenshot).
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
        figures = page.locator("div.cell_output img")
        frames = []
        for index in range(figures.count()):
            figure = figures.nth(index)
            if figure.locator("xpath=ancestor::*[contains(@class, 'jupyter-widgets')]").count():
                continue  # images drawn inside widgets are the widget's business
            figure.scroll_into_view_if_needed()
            pixels = matplotlib.image.imread(io.BytesIO(figure.screenshot()))
            # Strips just inside each edge of the image box (its padding: the frame).
            frame = [pixels[2:5], pixels[-5:-2], pixels[:, 2:5], pixels[:, -5:-2]]
            frames.append((figure.get_attribute("src"), min(luminance(edge) for edge in frame)))
    finally:
        page.close()
    assert theme == "dark", f"{docname}: the theme did not switch to dark mode (got {theme!r})"
    assert luminance(body) < DARK, f"{docname}: the page background is not dark in dark mode"
    dark = [f"{src} (edge luminance {value:.2f})" for src, value in frames if value < LIGHT]
    assert not dark, f"{docname}: figures without a light background in dark mode: {dark}"


@pytest.mark.parametrize("term", ["UCB1", "regret"])
def test_search_box_finds(book_url, book_browser, term):
    """The theme's search (Sphinx's offline index) lists chapters for a term of the book.

    "virtual loss" joins this list when the parallel-search chapter exists.
    """
    context, _ = book_browser
    page = context.new_page()
    try:
        page.goto(f"{book_url}search.html?q={term}", wait_until="load")
        try:
            page.wait_for_function(
                "() => document.querySelectorAll('#search-results li, ul.search li').length > 0",
                timeout=15_000,
            )
        except PlaywrightTimeout:
            pass  # the assertion says what was found
        hits = page.evaluate(
            "() => Array.from(document.querySelectorAll('#search-results li a, ul.search li a'))"
            ".map(a => a.getAttribute('href'))"
        )
    finally:
        page.close()
    chapters = [href for href in hits if href and "notebooks/" in href]
    assert chapters, f"searching {term!r} found no chapter (hits: {hits})"


def test_the_book_has_math_figures_and_widgets(visit):
    """The checks above must have had something to check."""
    visits = [visit(docname) for docname in DOCNAMES]
    assert sum(v.facts["mathCount"] for v in visits) > 0, "no page of the book has math"
    assert sum(i["inOutput"] for v in visits for i in v.facts["images"]) > 0, "no figures"
    assert sum(v.facts["widgetViews"] for v in visits) > 0, "no page shows a stored widget"
