"""Chapters 7 and 7b in the built book: each frame player moves with its slider, no kernel.

Chapter 7's player steps the prior's weight on the best moves of the fork position (one
figure of the winning move's share of visits per weight); chapter 7b's steps the number of
simulated workers (the trees of two searches per K). Each is drawn from the stored widget
state; moving the slider must show another frame, with no console error and no request
leaving 127.0.0.1.
"""

from __future__ import annotations

import pytest
from browser import assert_stayed_local, chromium, serve_folder
from frames_browser import frame_players, step_frame_player

pytestmark = pytest.mark.browser

PAGES = {  # page: (first value, value after two steps, screenshot name)
    "notebooks/07_puct_and_gumbel.html": ("0.02", "0.1", "ch7-prior-weight.png"),
    "notebooks/07b_parallel_search.html": ("1", "4", "ch7b-workers.png"),
}


@pytest.mark.parametrize("page_path", sorted(PAGES))
def test_the_slider_steps_through_the_chapters_frames(page_path, built_book, playwright,
                                                      tmp_path, screenshot_dir):
    first, third, shot = PAGES[page_path]
    errors: list[str] = []
    with serve_folder(built_book) as base, chromium(playwright, tmp_path / "profile") as (
            context, network):
        page = context.new_page()
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("response", lambda r: r.status >= 400 and errors.append(f"{r.status} {r.url}"))
        page.goto(base + page_path)
        players = frame_players(page)
        assert len(players) == 1, f"{page_path} should have one frame player, found {len(players)}"
        assert players[0]["readout"] == first
        _, after = step_frame_player(page, steps=2)
        assert after["readout"] == third
        page.locator(".mctsbook-frame-player").screenshot(path=str(screenshot_dir / shot))
        assert_stayed_local(network)
    assert errors == [], "the page logged errors:\n" + "\n".join(errors)
