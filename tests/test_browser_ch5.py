"""Chapter 5 in the built book: the trap figure steps through its budgets without a kernel.

The published page has no kernel. The chapter's frame player (plain UCT and MCTS-Solver on the
trap position, one frame at each of seven budgets from 1,000 to 64,000 iterations) is drawn from
the stored widget state; moving the slider must show the next budget's figure and caption, with
no console error and no request leaving 127.0.0.1. The captions checked here are the ones the
notebook prints (and nbval pins) in the cell before the player.
"""

from __future__ import annotations

import pytest
from browser import assert_stayed_local
from frames_browser import built_page, frame_players, step_frame_player

pytestmark = pytest.mark.browser

PAGE = "notebooks/05_uttt_tuning.html"


def test_the_slider_follows_both_searches_as_the_budget_grows(built_book, playwright, tmp_path,
                                                               screenshot_dir):
    with built_page(built_book, playwright, tmp_path, PAGE) as (page, errors, network):
        [player] = frame_players(page)
        assert player["readout"] == "1,000"
        assert player["shown"].startswith("1,000 iterations: plain UCT plays 74 (loss)")
        _, after = step_frame_player(page, steps=4)
        assert after["readout"] == "16,000"
        assert "MCTS-Solver plays 1 (not settled)" in after["shown"]
        _, last = step_frame_player(page, steps=2)
        assert last["readout"] == "64,000"
        assert "plain UCT plays 80 (win)" in last["shown"]
        assert "MCTS-Solver plays 54 (win)" in last["shown"]
        page.locator(".mctsbook-frame-player").screenshot(
            path=str(screenshot_dir / "ch5-trap-budgets.png"))
        assert_stayed_local(network)
    assert errors == [], "the page logged errors:\n" + "\n".join(errors)
