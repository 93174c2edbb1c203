"""Chapter 8's driven figure in the built book: the mixes of three learners, frame by frame.

The page ``notebooks/08_simultaneous_moves.html`` shows a frame player
(:func:`mctslib.views.frames.frame_player`) built from precomputed figures of weighted
rock-paper-scissors; the published book has no kernel, so the frames come from the stored
widget state. Moving the slider must show another frame, with no console error and no request
leaving 127.0.0.1.
"""

from __future__ import annotations

import pytest
from browser import assert_stayed_local
from frames_browser import built_page, frame_players, step_frame_player

pytestmark = pytest.mark.browser

PAGE = "notebooks/08_simultaneous_moves.html"


def test_the_rps_mixes_step_through_their_rounds_without_a_kernel(
        built_book, playwright, tmp_path, screenshot_dir):
    with built_page(built_book, playwright, tmp_path, PAGE) as (page, errors, network):
        [first] = frame_players(page)
        assert first["showing"] == 1 and first["readout"] == "100", first
        assert first["shown"].startswith("after 100 rounds, distance from equilibrium:")
        _, after = step_frame_player(page, steps=6)  # 100 rounds -> 1,000 rounds
        assert after["readout"] == "1,000", after
        assert after["shown"].startswith("after 1,000 rounds, distance from equilibrium: "
                                         "decoupled UCB1 0.401, regret matching 1.359, Exp3 0.588")
        page.locator(".mctsbook-frame-player").first.screenshot(
            path=str(screenshot_dir / "ch8_frame_player.png"))
        assert_stayed_local(network)
    assert errors == []
