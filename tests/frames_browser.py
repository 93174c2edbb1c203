"""Driving a frame player (:func:`mctslib.views.frames.frame_player`) in a page, for browser tests.

A chapter's browser test opens its built page and calls :func:`step_frame_player`: it checks
that the player was drawn from the stored widget state (no kernel) and that moving the slider
shows another frame. Shared by every chapter that has a player; the player's own test is
``tests/test_frames_browser.py``.
"""

from __future__ import annotations

from contextlib import contextmanager

from browser import chromium, serve_folder

PLAYER = ".mctsbook-frame-player"

#: For each player on the page: the frames it draws now (a Stack draws only the selected one),
#: a fingerprint of what they show (text, and each image's source), and what its slider reads.
PLAYER_STATE_JS = """() => Array.from(document.querySelectorAll('.mctsbook-frame-player')).map(p => {
  const stack = p.firstElementChild;
  const drawn = Array.from(stack ? stack.children : []).filter(f => f.offsetParent !== null);
  const fingerprint = drawn.map(f => f.textContent.trim() + ' ' + Array.from(
    f.querySelectorAll('img')).map(i => i.naturalWidth > 0 ? i.src : 'broken').join(' '));
  const readout = p.querySelector('.widget-readout');
  return {showing: drawn.length, shown: fingerprint.join(' | '),
          readout: readout ? readout.textContent.trim() : null};
})"""


def frame_players(page, timeout_ms: int = 20_000) -> list[dict]:
    """The state of every player on ``page`` once the widget manager has drawn them."""
    page.wait_for_selector(f"{PLAYER} .widget-readout", timeout=timeout_ms)
    return page.evaluate(PLAYER_STATE_JS)


def step_frame_player(page, which: int = 0, steps: int = 1) -> tuple[dict, dict]:
    """Press the right arrow ``steps`` times on player ``which``'s slider: its state before and after.

    Fails with a sentence if the player shows no frame, more than one, a broken image, or the
    same frame after the slider moved.
    """
    before = frame_players(page)[which]
    assert before["showing"] == 1 and "broken" not in before["shown"], f"player {which}: {before}"
    handle = page.locator(f"{PLAYER} .noUi-handle").nth(which)
    handle.scroll_into_view_if_needed()
    handle.focus()
    for _ in range(steps):
        handle.press("ArrowRight")
    page.wait_for_timeout(300)
    after = page.evaluate(PLAYER_STATE_JS)[which]
    assert after["showing"] == 1 and "broken" not in after["shown"], (
        f"player {which} after moving: {after}")
    assert after["shown"] != before["shown"], (
        f"player {which}: the slider moved ({before['readout']} -> {after['readout']}) "
        f"but the frame did not ({before['shown']})")
    assert after["readout"] != before["readout"], f"player {which}: the slider did not move"
    return before, after


@contextmanager
def built_page(built_book, playwright, tmp_path, page_name: str):
    """Open ``page_name`` of the built book in Chromium; yields ``(page, errors, network)``.

    ``errors`` collects, while the page is open, every console error, uncaught exception and
    response of status 400 or more, so a chapter's test can end with ``assert errors == []``
    (and ``assert_stayed_local(network)``).
    """
    errors: list[str] = []
    with serve_folder(built_book) as base, chromium(playwright, tmp_path / "profile") as (
            context, network):
        page = context.new_page()
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("response", lambda r: r.status >= 400 and errors.append(f"{r.status} {r.url}"))
        page.goto(base + page_name)
        yield page, errors, network
