"""Chapter 5 in the built book: the trap figure steps through its budgets without a kernel.

The published page has no kernel. The chapter's frame player (plain UCT and MCTS-Solver on the
trap position, read at seven budgets from 1,000 to 64,000 iterations) is drawn from the stored
widget state; moving the slider must show the next budget's figure and caption, with no console
error and no request leaving 127.0.0.1.
"""

from __future__ import annotations

import pytest
from browser import assert_stayed_local, chromium, serve_folder
from frames_browser import frame_players, step_frame_player

pytestmark = pytest.mark.browser

PAGE = "notebooks/05_uttt_tuning.html"


def record_errors(page) -> list[str]:
    """Console errors, page errors and failed requests of ``page``, as they happen."""
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("response", lambda r: r.status >= 400 and errors.append(f"{r.status} {r.url}"))
    return errors


def test_the_slider_follows_both_searches_as_the_budget_grows(built_book, playwright, tmp_path,
                                                               screenshot_dir):
    with serve_folder(built_book) as base, chromium(playwright, tmp_path / "profile") as (
            context, network):
        page = context.new_page()
        errors = record_errors(page)
        page.goto(base + PAGE)
        [player] = frame_players(page)
        assert player["readout"] == "1,000"
        assert player["shown"].startswith("1,000 iterations: plain UCT plays 74 (loss)")
        _, after = step_frame_player(page, steps=4)
        assert after["readout"] == "16,000"
        assert "MCTS-Solver plays 1 (not settled)" in after["shown"]
        _, last = step_frame_player(page, steps=2)
        assert last["readout"] == "64,000" and "MCTS-Solver plays 54 (win)" in last["shown"]
        page.locator(".mctsbook-frame-player").screenshot(
            path=str(screenshot_dir / "ch5-trap-budgets.png"))
        assert_stayed_local(network)
    assert errors == [], "the page logged errors:\n" + "\n".join(errors)
