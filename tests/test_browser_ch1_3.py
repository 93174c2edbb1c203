"""Chapters 1-3 in the built book: each frame player steps forward without a kernel.

The published pages have no kernel. Chapter 1's player shows how often flat Monte Carlo plays
each move of the trap at a budget, chapter 2's the regret curve of one exploration constant,
chapter 3's the UCB1 scores of the fifty-step walk; each is drawn from the stored widget state.
Moving a slider must show another frame, whose caption names the new budget, constant or step,
with no console error and no request leaving 127.0.0.1.
"""

from __future__ import annotations

import pytest
from browser import assert_stayed_local
from frames_browser import built_page, frame_players, step_frame_player

pytestmark = pytest.mark.browser

# page, first slider value, the caption's start then, steps to move, the value and caption after
CASES = [
    ("notebooks/01_flat_monte_carlo.html", "1", "1 playout per move: the trap 0.059", 4,
     "70", "70 playouts per move: the trap 0.473"),
    ("notebooks/02_bandits.html", "0.177", "c = 0.177: after 100,000 pulls", 3,
     "0.5", "c = 0.5: after 100,000 pulls mean regret 69.6"),
    ("notebooks/03_ucb1_by_hand.html", "1", "step 1: N = 10, chosen C (score 2.146)", 2,
     "3", "step 3: N = 12, chosen A (score 1.577)"),
]


@pytest.mark.parametrize(("page_path", "first_value", "first_caption", "steps", "value",
                          "caption"), CASES, ids=["ch1", "ch2", "ch3"])
def test_the_slider_steps_the_chapter_figure(built_book, playwright, tmp_path, screenshot_dir,
                                            page_path, first_value, first_caption, steps,
                                            value, caption):
    with built_page(built_book, playwright, tmp_path, page_path) as (page, errors, network):
        players = frame_players(page)
        assert len(players) == 1, f"{page_path}: one frame player expected, found {len(players)}"
        assert players[0]["readout"] == first_value
        assert players[0]["shown"].startswith(first_caption), players[0]["shown"][:120]
        _, after = step_frame_player(page, steps=steps)
        assert after["readout"] == value
        assert after["shown"].startswith(caption), after["shown"][:120]
        page.locator(".mctsbook-frame-player").screenshot(
            path=str(screenshot_dir / f"{page_path.split('/')[-1][:-5]}-player.png"))
        assert_stayed_local(network)
    assert errors == [], "the page logged errors:\n" + "\n".join(errors)
