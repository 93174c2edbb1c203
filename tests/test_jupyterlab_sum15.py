"""The sum-to-15 widget in JupyterLab, as a reader plays it: Run All, then three picks.

A throw-away notebook (written to a temporary folder, never the repository) imports and
shows ``Sum15Widget``. The test opens it in JupyterLab in headless Chromium, runs every
cell, and picks three numbers by clicking their buttons. After each pick it checks what a
reader would see: the reader's numbers include the pick, the bot holds one number more
(it replied) and the picture of the bot's search changed (the <img>'s source is replaced
when the widget's PNG changes). The picks block the bot's threats when it has one, so
the game lasts long enough; which numbers are free is read from the page each time.

The widget's contract (mctslib.views.sum15.Sum15Widget): buttons ``sum15-n-<number>`` (disabled
when taken), HTML ``sum15-human`` / ``sum15-bot`` listing the numbers held, ``sum15-status``
and the Image ``sum15-bars``.
"""

from __future__ import annotations

import re

import nbformat
import pytest
from browser import (
    KERNEL_IDLE_JS,
    NOTEBOOK_JSON_JS,
    RUN_ALL_OVER_JS,
    chromium,
    click_menu,
    is_local,
    jupyterlab,
    wait_for,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser

NOTEBOOK = "sum15_widget.ipynb"
ITERATIONS, SEED = 2000, 2026
PICKS = 3
REPLY_TIMEOUT_MS = 15_000
# The reader's preference when there is no threat to block: the centre, then corners.
PREFERENCE = (5, 2, 4, 6, 8, 1, 3, 7, 9)


def widget_notebook() -> nbformat.NotebookNode:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(
        "from mctslib.views.ucb1_table import Sum15Widget\n\n"
        f"Sum15Widget(iterations={ITERATIONS}, seed={SEED})"
    )]
    notebook.metadata["kernelspec"] = {
        "name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    return notebook


def numbers_in(text: str) -> list[int]:
    """The numbers listed after the colon of 'You hold: 2, 5' ('nothing yet' gives [])."""
    return [int(n) for n in re.findall(r"\d", text.split(":", 1)[1])]


def next_pick(free: list[int], bot: list[int]) -> int:
    """Block the bot's third number if it has two of a line; else the first preferred one."""
    for i, a in enumerate(bot):
        for b in bot[i + 1:]:
            if 15 - a - b in free:
                return 15 - a - b
    return next(n for n in PREFERENCE if n in free)


def test_next_pick_blocks_a_threat():
    assert next_pick([1, 3, 4, 7], bot=[2, 9]) == 4  # 2 + 9 + 4 = 15
    assert next_pick([1, 3, 7], bot=[2, 6]) == 7  # 2 + 6 + 7 = 15
    assert next_pick([1, 3, 8], bot=[2]) == 8


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on a folder holding only the widget notebook; always stopped."""
    folder = tmp_path_factory.mktemp("sum15-notebook")
    nbformat.write(widget_notebook(), folder / NOTEBOOK)
    with jupyterlab(folder, tmp_path_factory.mktemp("jupyterlab-sum15")) as server:
        yield server


@pytest.fixture(scope="module")
def lab_browser(playwright, tmp_path_factory):
    with chromium(playwright, tmp_path_factory.mktemp("chromium-sum15")) as (context, network):
        yield context, network


def read_board(page) -> tuple[list[int], list[int], list[int], str | None]:
    """What the page shows: free numbers, the reader's, the bot's, and the bars' src."""
    free = [n for n in range(1, 10) if page.locator(f"button.sum15-n-{n}").is_enabled()]
    human = numbers_in(page.locator(".sum15-human").inner_text())
    bot = numbers_in(page.locator(".sum15-bot").inner_text())
    return free, human, bot, page.locator("img.sum15-bars").get_attribute("src")


def test_run_all_then_play_three_numbers(lab, lab_browser, screenshot_dir):
    context, network = lab_browser
    page = context.new_page()
    page.goto(f"{lab.url}/lab/tree/{NOTEBOOK}?token={lab.token}")
    wait_for(page, KERNEL_IDLE_JS, 60_000, f"{NOTEBOOK} did not open with an idle kernel")
    click_menu(page, "Run", "runmenu:run-all")
    wait_for(page, RUN_ALL_OVER_JS, 60_000, "Run All on the widget notebook did not finish")
    errors = [f"{output['ename']}: {output['evalue']}"
              for cell in page.evaluate(NOTEBOOK_JSON_JS)["cells"]
              for output in cell.get("outputs", []) if output["output_type"] == "error"]
    assert not errors, "the widget cell raised:\n" + "\n".join(errors)
    wait_for(page, "() => document.querySelector('img.sum15-bars') !== null", 15_000,
             "no sum15 widget on the page (an <img> with class sum15-bars)")
    page.locator(".sum15-status").scroll_into_view_if_needed()

    free, human, bot, src = read_board(page)
    assert (free, human, bot) == (list(range(1, 10)), [], []), "the game did not start empty"
    for turn in range(1, PICKS + 1):
        pick = next_pick(free, bot)
        page.locator(f"button.sum15-n-{pick}").click()
        # The bot's reply is in when it holds one number more and the picture is new.
        replied = (f"() => document.querySelector('.sum15-bot').innerText"
                   f".split(':')[1].match(/\\d/g)?.length === {len(bot) + 1} && "
                   f"document.querySelector('img.sum15-bars').src !== {src!r}")
        try:
            page.wait_for_function(replied, timeout=REPLY_TIMEOUT_MS, polling=100)
        except PlaywrightTimeout:
            pass  # the assertions below say what the page shows
        previous_src = src
        free, human, bot, src = read_board(page)
        status = page.locator(".sum15-status").inner_text()
        assert pick in human, f"pick {turn} ({pick}) not among the reader's numbers {human}"
        assert len(bot) == turn, f"after pick {turn} the bot holds {bot}; status: {status!r}"
        assert src != previous_src, f"the bars did not change after pick {turn}"
        assert not set(human) & set(bot) and pick not in free
        print(f"\npick {turn}: reader {human}, bot {bot}; status: {status}")

    shot = screenshot_dir / "jupyterlab-sum15-widget.png"
    page.locator(".sum15-widget").screenshot(path=str(shot))
    print(f"screenshot of the widget: {shot}")
    outside = [url for url in network.requests if not is_local(url)]
    assert not outside, "JupyterLab's page fetched from outside 127.0.0.1:\n" + "\n".join(outside)
    page.close()
