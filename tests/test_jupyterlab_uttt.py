"""The Ultimate Tic-Tac-Toe widget in JupyterLab, as a reader plays it.

Throw-away notebooks (written to a temporary folder, never the repository) show
``UTTTWidget`` with a small, seeded iteration budget. Each test opens its notebook in
JupyterLab in headless Chromium, runs every cell and clicks cells of the board:

- three moves: after each click the clicked cell shows the reader's mark, the bot
  replied (one more mark besides the reader's) and the picture of its search changed;
- a full game (the reader plays O, so the bot opens in the notebook's Run All): clicks
  until the status line announces the end, which must leave no cell enabled.

Which cells may be clicked is read from the page each time (the enabled cell buttons),
the reader's choice among them comes from a seeded generator. The widget's contract
(mctslib.views.uttt_widget.UTTTWidget): buttons ``uttt-cell-<move>`` (move = 9 * row + col,
enabled only where the reader may play, text X / O / blank), HTML ``uttt-status`` and the
Image ``uttt-bars``. No request may leave 127.0.0.1.
"""

from __future__ import annotations

import re
import time

import pytest
from browser import code_notebook, finish_page, jupyterlab_on, open_and_run_all, wait_for
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from mctslib.rng import make_rng

pytestmark = pytest.mark.browser

THREE_MOVES = "uttt_three_moves.ipynb"
FULL_GAME = "uttt_full_game.ipynb"
ITERATIONS, SEED = 200, 2026
FULL_GAME_ITERATIONS = 50  # a weak, quick bot: the full game is about clicking, not strength
RUN_TIMEOUT_MS = 90_000
REPLY_TIMEOUT_MS = 20_000
#: What the status line says when a game is over (UTTTMatch.result_sentence).
GAME_OVER = re.compile(r"You win|The bot wins|Draw")

# The page as the test reads it: one entry per cell button, in move order, with its text
# and whether it is enabled; plus the status text and the bars' image source.
READ_WIDGET_JS = """() => {
  const cells = [];
  for (let move = 0; move < 81; move++) {
    const button = document.querySelector(`button.uttt-cell-${move}`);
    cells.push(button ? [button.innerText.trim(), !button.disabled] : null);
  }
  const status = document.querySelector('.uttt-status');
  const bars = document.querySelector('img.uttt-bars');
  return {cells, status: status ? status.innerText : null, bars: bars ? bars.src : null};
}"""


def widget_notebook(arguments: str):
    """A notebook whose one cell shows ``UTTTWidget(arguments)``."""
    return code_notebook(
        f"from mctslib.views.uttt_widget import UTTTWidget\n\nUTTTWidget({arguments})")


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on a folder holding only the two widget notebooks; always stopped."""
    notebooks = {
        THREE_MOVES: widget_notebook(f"iterations={ITERATIONS}, seed={SEED}"),
        FULL_GAME: widget_notebook(f"side='O', iterations={FULL_GAME_ITERATIONS}, seed={SEED}"),
    }
    with jupyterlab_on(notebooks, tmp_path_factory, "uttt") as server:
        yield server


def open_widget(context, lab, notebook: str):
    """A page showing ``notebook`` after Run All, scrolled to the widget; fails on errors."""
    page = open_and_run_all(context, lab, notebook, RUN_TIMEOUT_MS)
    wait_for(page, "() => document.querySelectorAll('button[class*=\"uttt-cell-\"]').length "
             "=== 81 && document.querySelector('img.uttt-bars') !== null", 20_000,
             "no UTTT widget on the page (81 cell buttons and an <img> with class uttt-bars)")
    page.locator(".uttt-widget").scroll_into_view_if_needed()
    return page


def read_widget(page) -> tuple[dict[int, str], list[int], str, str]:
    """Marks by move, the enabled cells, the status text and the bars' image source."""
    seen = page.evaluate(READ_WIDGET_JS)
    assert None not in seen["cells"], "a cell button is missing from the page"
    marks = {move: text for move, (text, _) in enumerate(seen["cells"]) if text in ("X", "O")}
    enabled = [move for move, (_, on) in enumerate(seen["cells"]) if on]
    return marks, enabled, seen["status"], seen["bars"]


def click_and_wait(page, move: int, marks_before: int, bars_before: str) -> float:
    """Click a cell; wait until the bot replied (two marks more, new bars) or the game ended.

    The widget writes the status line last, so once it no longer says "thinking" the
    cells show the position after the reply.
    """
    replied = ("() => {"
               " const marks = [...document.querySelectorAll('button[class*=\"uttt-cell-\"]')]"
               "   .filter(b => ['X', 'O'].includes(b.innerText.trim())).length;"
               " const status = document.querySelector('.uttt-status').innerText;"
               f" return (marks === {marks_before + 2} && !status.includes('thinking') &&"
               f"   document.querySelector('img.uttt-bars').src !== {bars_before!r})"
               f"   || /{GAME_OVER.pattern}/.test(status); }}")
    start = time.perf_counter()
    page.locator(f"button.uttt-cell-{move}").click()
    try:
        page.wait_for_function(replied, timeout=REPLY_TIMEOUT_MS, polling=50)
    except PlaywrightTimeout:
        pass  # the caller's assertions say what the page shows
    return time.perf_counter() - start


def test_run_all_then_play_three_moves(lab, lab_browser, screenshot_dir):
    context, network = lab_browser
    page = open_widget(context, lab, THREE_MOVES)
    rng = make_rng(SEED)

    marks, enabled, status, bars = read_widget(page)
    assert marks == {} and enabled == list(range(81)), \
        f"the game did not start on an empty board with every cell playable; status: {status!r}"
    for turn in range(1, 4):
        move = enabled[int(rng.integers(len(enabled)))]
        seconds = click_and_wait(page, move, len(marks), bars)
        before, previous_bars = marks, bars
        marks, enabled, status, bars = read_widget(page)
        assert marks.get(move) == "X", f"move {turn}: cell {move} does not show X; {status!r}"
        new = set(marks) - set(before)
        assert len(new) == 2 and all(marks[m] == "O" for m in new - {move}), \
            f"move {turn}: the bot did not reply with one O (new marks {new}); {status!r}"
        assert bars != previous_bars, f"the bars did not change after move {turn}"
        assert enabled and not set(enabled) & set(marks), "enabled cells must be empty ones"
        print(f"\nmove {turn}: reader {move}, bot {sorted(new - {move})}, {seconds:.2f} s; "
              f"status: {status}")

    finish_page(page, network, screenshot_dir / "jupyterlab-uttt-three-moves.png", ".uttt-widget")


def test_a_full_game_in_the_browser(lab, lab_browser, screenshot_dir):
    context, network = lab_browser
    page = open_widget(context, lab, FULL_GAME)
    rng = make_rng(SEED + 1)

    marks, enabled, status, bars = read_widget(page)
    assert list(marks.values()) == ["X"], f"the bot (X) did not open; status: {status!r}"
    clicks, start = 0, time.perf_counter()
    while not GAME_OVER.search(status):
        assert enabled, f"no cell is enabled but the game is not over; status: {status!r}"
        assert clicks < 41, "more clicks than O can make in one game"
        move = enabled[int(rng.integers(len(enabled)))]
        click_and_wait(page, move, len(marks), bars)
        clicks += 1
        before = marks
        marks, enabled, status, bars = read_widget(page)
        assert marks.get(move) == "O", f"click {clicks}: cell {move} does not show O; {status!r}"
        assert len(marks) - len(before) in (1, 2), f"click {clicks}: marks went {before} -> {marks}"
    seconds = time.perf_counter() - start
    assert enabled == [], "cells are still enabled after the end"
    print(f"\nfull game: {clicks} clicks, {len(marks)} marks, {seconds:.1f} s; status: {status}")

    finish_page(page, network, screenshot_dir / "jupyterlab-uttt-full-game.png", ".uttt-widget")
