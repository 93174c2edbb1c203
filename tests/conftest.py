"""Fixtures for the tests of the built book and of the notebooks in a browser.

A browser test that lacks what it needs (the built book, Chromium) fails with the command
that fixes it: it never skips, so CI cannot pass without having looked at the book.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from browser import BUILD_HTML, CHROMIUM, TocPage, chromium, toc_pages

# Screenshots go to a temporary folder (never into the repository); the run's summary says where.
_screenshot_dirs: list[Path] = []


@pytest.fixture(scope="session")
def toc() -> list[TocPage]:
    """Every page of the book in reading order; fails if a listed source file is missing."""
    pages = toc_pages()
    missing = [page.docname for page in pages if page.source is None]
    if missing:
        pytest.fail(f"_toc.yml lists pages that have no .ipynb/.md source file: {missing}")
    return pages


@pytest.fixture(scope="session")
def built_book() -> Path:
    """The built book (``_build/html``)."""
    if not (BUILD_HTML / "index.html").is_file():
        pytest.fail(
            f"No built book at {BUILD_HTML}: run `bash scripts/build_book.sh` first "
            "(`bash scripts/test.sh` builds it before running the tests)."
        )
    return BUILD_HTML


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    """The system Chromium that Playwright drives."""
    if not CHROMIUM.is_file():
        pytest.fail(
            f"Chromium not found at {CHROMIUM}: install Debian's package with "
            "`apt-get install chromium` (`bash scripts/setup.sh` does it when run as root)."
        )
    return CHROMIUM


@pytest.fixture(scope="module")
def playwright(chromium_path):
    """One Playwright driver per test module (its sync API allows one at a time).

    Module scope stops the driver before pytest moves on, e.g. to nbval's notebooks.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def lab_browser(playwright, tmp_path_factory):
    """Headless Chromium for one JupyterLab test module: ``(context, NetworkLog)``."""
    with chromium(playwright, tmp_path_factory.mktemp("chromium-lab")) as (context, network):
        yield context, network


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    """A temporary folder for screenshots, kept after the run so people can look at them."""
    folder = Path(tempfile.mkdtemp(prefix="mctsbook-screenshots-"))
    _screenshot_dirs.append(folder)
    return folder


def pytest_terminal_summary(terminalreporter):
    for folder in _screenshot_dirs:
        shots = sorted(folder.glob("*.png"))
        if shots:
            terminalreporter.write_sep("-", f"{len(shots)} screenshots in {folder}")
