"""Chapter 6 in the built book: the RAVE blend figure steps through its budgets without a kernel.

The published page has no kernel. The chapter's frame player (one RAVE search on the blocking
tic-tac-toe position, read at eight budgets) is drawn from the stored widget state; moving the
slider must show the next budget's frame, captioned with that budget and the move whose blend
is highest, with no console error and no request leaving 127.0.0.1.
"""

from __future__ import annotations

import pytest
from browser import assert_stayed_local
from frames_browser import built_page, frame_players, step_frame_player

pytestmark = pytest.mark.browser

PAGE = "notebooks/06_enhancements.html"


def test_the_slider_steps_through_the_rave_budgets(built_book, playwright, tmp_path,
                                                   screenshot_dir):
    with built_page(built_book, playwright, tmp_path, PAGE) as (page, errors, network):
        players = frame_players(page)
        assert len(players) == 1, f"chapter 6 should have one frame player, found {len(players)}"
        assert players[0]["readout"] == "10"
        assert players[0]["shown"].startswith("after 10 iterations: the highest blend is move 8")
        _, after = step_frame_player(page, steps=3)
        assert after["readout"] == "100"
        assert after["shown"].startswith("after 100 iterations: the highest blend is move 7")
        _, last = step_frame_player(page, steps=4)
        assert last["readout"] == "3000" and last["shown"].startswith("after 3,000 iterations")
        page.locator(".mctsbook-frame-player").screenshot(
            path=str(screenshot_dir / "ch6-rave-blend.png"))
        assert_stayed_local(network)
    assert errors == [], "the page logged errors:\n" + "\n".join(errors)
