"""The frame player in headless Chromium, drawn from stored widget state alone (no kernel).

The page is what the published book does for a stored widget: the widget state and view as
``<script>`` tags, and the book's own vendored widget manager (``_build/html/_static``) draws
them. Moving the slider must show another frame, with no console error and no request leaving
127.0.0.1. Chapters' own tests drive their players with ``tests/frames_browser.py``.
"""

from __future__ import annotations

import json

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from browser import assert_stayed_local, chromium, serve_folder
from frames_browser import frame_players, step_frame_player
from widget_state import tree_state

from mctslib.views.frames import frame_player

pytestmark = pytest.mark.browser


def standalone_page(box) -> str:
    """An HTML page that shows ``box`` as the built book shows a stored widget."""
    from ipywidgets.embed import embed_data

    data = embed_data(views=[box], state=tree_state(box))
    state = json.dumps(data["manager_state"]).replace("</", "<\\/")
    view = json.dumps(data["view_specs"][0])
    return f"""<!DOCTYPE html>
<html data-content_root="../"><head><meta charset="utf-8"><title>frame player</title>
<script type="application/vnd.jupyter.widget-state+json">{state}</script>
<script src="../_static/widgets-config.js"></script>
<script src="../_static/require.js"></script>
<script src="../_static/html-manager/embed-amd.js"></script>
</head><body><main>
<script type="application/vnd.jupyter.widget-view+json">{view}</script>
</main></body></html>"""


def test_the_slider_steps_through_stored_frames_without_a_kernel(
        built_book, playwright, tmp_path, screenshot_dir):
    figures = []
    for budget in (10, 100, 1000):
        fig, ax = plt.subplots(figsize=(3, 2))
        ax.bar(["a", "b"], [budget, 1000 - budget])
        ax.set_title(f"{budget} playouts")
        figures.append(fig)
    box = frame_player(figures, values=[10, 100, 1000], label="playouts",
                       captions=[f"after {b} playouts" for b in (10, 100, 1000)])
    site = tmp_path / "site"
    site.mkdir()
    # laid out as a chapter page: under notebooks/, beside the widgets' icon fonts
    (site / "_static").symlink_to(built_book / "_static", target_is_directory=True)
    (site / "notebooks").mkdir()
    (site / "notebooks" / "@jupyter-widgets").symlink_to(
        built_book / "notebooks" / "@jupyter-widgets", target_is_directory=True)
    (site / "notebooks" / "player.html").write_text(standalone_page(box), encoding="utf-8")
    errors = []
    with serve_folder(site) as base, chromium(playwright, tmp_path / "profile") as (context,
                                                                                   network):
        page = context.new_page()
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("response", lambda r: r.status >= 400 and errors.append(f"{r.status} {r.url}"))
        page.goto(base + "notebooks/player.html")
        [first] = frame_players(page)
        assert first["showing"] == 1 and first["readout"] == "10"
        assert first["shown"].startswith("after 10 playouts blob:")
        _, after = step_frame_player(page, steps=2)
        assert after["readout"] == "1000" and after["shown"].startswith("after 1000 playouts")
        page.screenshot(path=str(screenshot_dir / "frame_player.png"))
        assert_stayed_local(network)
    assert errors == []
