"""The stored state of one widget tree, as a static page replays it (shared by the frame tests).

``ipywidgets.embed`` offers the whole kernel's state or ``dependency_state``; both visit widgets
that other tests in the same worker left behind (a closed one has no comm and fails to
serialise, which made these tests fail by test order). This walks only ``root``'s own tree
and the links between its members.
"""

from __future__ import annotations

from ipywidgets.widgets.widget import Widget, _instances
from ipywidgets.widgets.widget_link import Link


def _tree(root: Widget):
    yield root
    for child in getattr(root, "children", ()):
        yield from _tree(child)


def tree_state(root: Widget) -> dict:
    """Model id to embed state for ``root``, its descendants, their layouts and styles, and
    every live link whose two ends are in the tree."""
    members = {widget.model_id: widget for widget in _tree(root)}
    for widget in list(members.values()):
        for trait in ("layout", "style"):
            part = getattr(widget, trait, None)
            if isinstance(part, Widget):
                members[part.model_id] = part
    for widget in list(_instances.values()):
        if isinstance(widget, Link) and widget.comm is not None:
            ends = (widget.source[0], widget.target[0])
            if all(end.comm is not None and end.model_id in members for end in ends):
                members[widget.model_id] = widget
    return {key: widget._get_embed_state(drop_defaults=True) for key, widget in members.items()}
