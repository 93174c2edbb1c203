"""Chapter 4 in the built book: the recorded search steps forward when the slider moves.

The published page has no kernel. The chapter's frame player (UCT from 7 stones, one frame
per iteration, each with the tree and the table of the selection) is drawn from the stored
widget state; moving the slider must show the next iteration's frame, whose selection table
highlights one row per step down, with no console error and no request leaving 127.0.0.1.
"""

from __future__ import annotations

import re

import pytest
from browser import assert_stayed_local
from frames_browser import built_page, frame_players, step_frame_player

pytestmark = pytest.mark.browser

PAGE = "notebooks/04_uct.html"
SHOWN_FRAME_JS = """() => {
  const player = document.querySelector('.mctsbook-frame-player');
  const frame = Array.from(player.firstElementChild.children).find(f => f.offsetParent !== null);
  return {text: frame.innerText, svgNodes: frame.querySelectorAll('svg g.tree-node').length,
          picked: frame.querySelectorAll('.tree-selection tr[style*="font-weight:bold"]').length,
          tables: frame.querySelectorAll('.tree-selection table').length};
}"""


def test_the_slider_moves_the_recorded_search(built_book, playwright, tmp_path, screenshot_dir):
    with built_page(built_book, playwright, tmp_path, PAGE) as (page, errors, network):
        players = frame_players(page)
        assert len(players) == 1, f"chapter 4 should have one frame player, found {len(players)}"
        assert players[0]["readout"] == "1"
        first = page.evaluate(SHOWN_FRAME_JS)
        assert first["text"].startswith("Iteration 1. Selection: root."), first["text"][:120]
        assert first["tables"] == 0, "the first iteration has nothing to choose"

        _, after = step_frame_player(page, steps=3)
        assert after["readout"] == "4"
        fourth = page.evaluate(SHOWN_FRAME_JS)
        assert fourth["text"].startswith("Iteration 4."), fourth["text"][:120]
        assert "picks -2, the highest score" in fourth["text"]
        assert fourth["tables"] == fourth["picked"] == 1, "one table, its pick highlighted"
        assert fourth["svgNodes"] > first["svgNodes"], "the tree grew between the frames"

        step_frame_player(page, steps=8)
        twelfth = page.evaluate(SHOWN_FRAME_JS)
        assert re.match(r"Iteration 12\.", twelfth["text"])
        assert twelfth["tables"] == twelfth["picked"] == 2, "two steps down, two picks"
        page.locator(".mctsbook-frame-player").screenshot(
            path=str(screenshot_dir / "ch4-recorded-search.png"))
        assert_stayed_local(network)
    assert errors == [], "the page logged errors:\n" + "\n".join(errors)
