"""Chapters 7 and 7b in the built book: each frame player moves with its slider, no kernel.

Chapter 7's player steps the prior's weight on the best moves of the fork position (one
figure of the winning move's share of visits per weight); chapter 7b's steps the number of
simulated workers (the trees of two searches per K). Each is drawn from the stored widget
state; moving the slider must show another frame, with no console error and no request
leaving 127.0.0.1.
"""

from __future__ import annotations

import pytest
from browser import assert_stayed_local
from frames_browser import built_page, frame_players, step_frame_player

pytestmark = pytest.mark.browser

PAGES = {  # page: (first value, value after two steps, caption of a value, screenshot)
    "notebooks/07_puct_and_gumbel.html": ("0.02", "0.1", "w = {}:", "ch7-prior-weight.png"),
    "notebooks/07b_parallel_search.html": ("1", "4", "{} worker", "ch7b-workers.png"),
}


@pytest.mark.parametrize("page_path", sorted(PAGES))
def test_the_slider_steps_through_the_chapters_frames(page_path, built_book, playwright,
                                                      tmp_path, screenshot_dir):
    first, third, caption, shot = PAGES[page_path]
    with built_page(built_book, playwright, tmp_path, page_path) as (page, errors, network):
        players = frame_players(page)
        assert len(players) == 1, f"{page_path} should have one frame player, found {len(players)}"
        assert players[0]["readout"] == first
        assert players[0]["shown"].startswith(caption.format(first)), players[0]["shown"]
        _, after = step_frame_player(page, steps=2)
        assert after["readout"] == third
        assert after["shown"].startswith(caption.format(third)), after["shown"]  # named
        page.locator(".mctsbook-frame-player").screenshot(path=str(screenshot_dir / shot))
        assert_stayed_local(network)
    assert errors == [], "the page logged errors:\n" + "\n".join(errors)
