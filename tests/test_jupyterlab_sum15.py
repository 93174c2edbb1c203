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

import pytest
from browser import code_notebook, finish_page, jupyterlab_on, open_and_run_all, wait_for
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser

NOTEBOOK = "sum15_widget.ipynb"
ITERATIONS, SEED = 2000, 2026
PICKS = 3
RUN_TIMEOUT_MS = 60_000
REPLY_TIMEOUT_MS = 15_000
# The reader's preference when there is no threat to block: the centre, then corners.
PREFERENCE = (5, 2, 4, 6, 8, 1, 3, 7, 9)


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
    notebook = code_notebook("from mctslib.views.sum15 import Sum15Widget\n\n"
                             f"Sum15Widget(iterations={ITERATIONS}, seed={SEED})")
    with jupyterlab_on({NOTEBOOK: notebook}, tmp_path_factory, "sum15") as server:
        yield server


def read_board(page) -> tuple[list[int], list[int], list[int], str | None]:
    """What the page shows: free numbers, the reader's, the bot's, and the bars' src."""
    free = [n for n in range(1, 10) if page.locator(f"button.sum15-n-{n}").is_enabled()]
    human = numbers_in(page.locator(".sum15-human").inner_text())
    bot = numbers_in(page.locator(".sum15-bot").inner_text())
    return free, human, bot, page.locator("img.sum15-bars").get_attribute("src")


def test_run_all_then_play_three_numbers(lab, lab_browser, screenshot_dir):
    context, network = lab_browser
    page = open_and_run_all(context, lab, NOTEBOOK, RUN_TIMEOUT_MS)
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

    finish_page(page, network, screenshot_dir / "jupyterlab-sum15-widget.png", ".sum15-widget")
