"""The stored state of one widget tree, as a static page replays it (shared by the frame tests).

``ipywidgets.embed.dependency_state`` walks the tree with ``_get_recursive_state`` and then adds
every link whose two ends it stored, reading each link's ends: a link left alive by another test
in the same worker, with an end that test closed, has no comm there and fails to serialise (the
frame tests failed by test order). This is the same walk with that one guard.
"""

from __future__ import annotations

from ipywidgets.embed import _get_recursive_state
from ipywidgets.widgets.widget import Widget, _instances
from ipywidgets.widgets.widget_link import Link


def tree_state(root: Widget) -> dict:
    """Model id to embed state for ``root`` and every widget it refers to, and every live link
    whose two ends are among them."""
    state: dict = {}
    _get_recursive_state(root, state, True)
    for widget in list(_instances.values()):
        if isinstance(widget, Link) and widget.comm is not None and widget.model_id not in state:
            ends = (widget.source[0], widget.target[0])
            if all(end.comm is not None and end.model_id in state for end in ends):
                state[widget.model_id] = widget._get_embed_state(drop_defaults=True)
    return state
