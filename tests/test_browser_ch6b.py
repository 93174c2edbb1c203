"""Chapter 6b in the built book: the speed ladder's player climbs one rung a step, no kernel.

The chapter's frame player shows the ladder of iterations per second with the rungs up to the
slider's value in colour (one figure a rung, drawn from the stored benchmark run); moving the
slider must show the next rung's frame, named in its caption, with no console error and no
request leaving 127.0.0.1.
"""

from __future__ import annotations

import pytest
from browser import assert_stayed_local
from frames_browser import built_page, frame_players, step_frame_player

pytestmark = pytest.mark.browser

PAGE = "notebooks/06b_legend_bot.html"


def test_the_slider_climbs_the_speed_ladder(built_book, playwright, tmp_path, screenshot_dir):
    with built_page(built_book, playwright, tmp_path, PAGE) as (page, errors, network):
        players = frame_players(page)
        assert len(players) == 1, f"chapter 6b should have one frame player, found {len(players)}"
        assert players[0]["readout"] == "0"
        assert players[0]["shown"].startswith("readable:"), players[0]["shown"]
        _, after = step_frame_player(page, steps=2)
        assert after["readout"] == "2"
        assert after["shown"].startswith("bitboards:"), after["shown"]
        assert "from the empty board" in after["shown"]
        page.locator(".mctsbook-frame-player").screenshot(
            path=str(screenshot_dir / "ch6b-speed-ladder.png"))
        assert_stayed_local(network)
    assert errors == [], "the page logged errors:\n" + "\n".join(errors)
