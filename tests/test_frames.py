"""The frame player (mctslib.views.frames): what it stores, how it is linked, what it refuses."""

from __future__ import annotations

import ipywidgets as widgets
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pytest
from widget_state import tree_state

from mctslib.views.frames import MAX_FRAMES, frame_player


def figures(count: int) -> list:
    made = []
    for index in range(count):
        fig, ax = plt.subplots(figsize=(2, 1.5))
        ax.plot([0, 1], [0, index])
        made.append(fig)
    return made


def links_of(box) -> set[tuple]:
    """The jslinks stored with ``box``'s widget state (what the static page replays): pairs of
    (model name, trait) for source and target."""
    state = tree_state(box)
    names = {key: value["model_name"] for key, value in state.items()}
    found = set()
    for value in state.values():
        if value["model_name"] == "LinkModel":
            (source, s_trait), (target, t_trait) = (value["state"]["source"],
                                                    value["state"]["target"])
            found.add((names[source.removeprefix("IPY_MODEL_")], s_trait,
                       names[target.removeprefix("IPY_MODEL_")], t_trait))
    return found


def test_figures_become_png_frames_in_a_stack_driven_by_play_and_slider():
    figs = figures(3)
    box = frame_player(figs, values=[10, 100, 1000], label="playouts",
                       captions=["ten", "a hundred", "a <b>thousand</b>"])
    stack, controls = box.children
    play, slider = controls.children
    assert isinstance(stack, widgets.Stack) and len(stack.children) == 3
    assert stack.selected_index == 0 and "mctsbook-frame-player" in box._dom_classes
    image, caption = stack.children[2].children
    assert bytes(image.value[:8]) == b"\x89PNG\r\n\x1a\n" and "&lt;b&gt;thousand&lt;/b&gt;" in caption.value
    assert slider.options == ("10", "100", "1000") and slider.description == "playouts"
    assert (play.min, play.max, play.value) == (0, 2, 0)
    assert all(not plt.fignum_exists(fig.number) for fig in figs)  # closed: no stray output
    assert links_of(box) == {("PlayModel", "value", "SelectionSliderModel", "index"),
                             ("SelectionSliderModel", "index", "StackModel", "selected_index")}


def test_a_closed_widget_left_by_another_test_does_not_break_the_stored_state():
    # What failed in CI by test order: a box whose child was closed elsewhere in the worker.
    orphan = widgets.Label("B")
    keeper = widgets.HBox([orphan])
    orphan.close()
    box = frame_player(figures(2), values=[1, 2])
    try:
        assert links_of(box) == {("PlayModel", "value", "SelectionSliderModel", "index"),
                                 ("SelectionSliderModel", "index", "StackModel", "selected_index")}
    finally:
        keeper.close()


def test_html_frames_and_default_values():
    box = frame_player(["<p>one</p>", "<p>two</p>"])
    stack, controls = box.children
    assert [child.value for child in stack.children] == ["<p>one</p>", "<p>two</p>"]
    assert controls.children[1].options == ("1", "2")


@pytest.mark.parametrize("kwargs, message", [
    ({"frames": "<p>x</p>"}, "frames must be a list"),
    ({"frames": ["<p>x</p>"]}, "2 to"),
    ({"frames": ["<p>x</p>"] * (MAX_FRAMES + 1)}, "2 to"),
    ({"frames": ["<p>x</p>", 3]}, "each frame must be"),
    ({"frames": ["<p>x</p>", b"\x89PNG\r\n\x1a\nrest"]}, "one kind"),
    ({"frames": ["a", "b"], "values": [1]}, "one entry per frame"),
    ({"frames": ["a", "b"], "values": [1, "1"]}, "all be different"),
    ({"frames": ["a", "b"], "label": 5}, "label must be a string"),
    ({"frames": ["a", "b"], "captions": "ab"}, "captions must be"),
    ({"frames": ["a", "b"], "captions": ["a", 2]}, "captions must be"),
    ({"frames": ["a", "b"], "interval_ms": 5}, "interval_ms"),
])
def test_bad_arguments_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        frame_player(**kwargs)
