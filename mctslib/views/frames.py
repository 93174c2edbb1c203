"""Precomputed frames a reader steps through, with or without a running kernel.

The published book has no kernel: a widget whose callback runs Python is a frozen picture
there. :func:`frame_player` avoids callbacks altogether. Every frame (a figure at one budget,
one step of a search, one constant) is computed while the notebook runs and stored in an
ipywidgets ``Stack``; a ``Play`` button and a slider are tied to the stack's visible child
with ``jslink``, links that the browser keeps by itself. So the same cell plays in JupyterLab
and in the static book, where the widget manager rebuilds the stack from the notebook's stored
widget state. Chapters 1-8 use it for the figure a reader should be able to drive.

The price is size: every frame is stored in the notebook and in the page, so a player holds
a few dozen small frames, not hundreds (:data:`MAX_FRAMES`).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from .._checks import check_int

#: The most frames one player stores (each is in the notebook and in the published page).
MAX_FRAMES = 60
#: Resolution of figures turned into frames: small pages, still sharp at the book's width.
FRAME_DPI = 90


def _figure_png(figure) -> bytes:
    """PNG bytes of a matplotlib figure, on white (readable in the theme's dark mode), closed."""
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=FRAME_DPI, facecolor="white", bbox_inches="tight")
    plt.close(figure)
    return buffer.getvalue()


def _frame_kind(frame) -> str:
    from matplotlib.figure import Figure

    if isinstance(frame, Figure):
        return "figure"
    if isinstance(frame, (bytes, bytearray)) and bytes(frame[:8]) == b"\x89PNG\r\n\x1a\n":
        return "png"
    if isinstance(frame, str):
        return "html"
    return ""


def frame_player(frames: Sequence, values: Sequence | None = None, label: str = "step",
                 captions: Sequence[str] | None = None, interval_ms: int = 700):
    """A Play button and a slider that step through precomputed frames, kernel or not.

    Parameters
    ----------
    frames : sequence
        Two to :data:`MAX_FRAMES` frames, all of one kind: matplotlib Figures (drawn to PNG at
        :data:`FRAME_DPI` dpi and closed), PNG bytes, or HTML strings.
    values : sequence, optional
        What the slider shows for each frame (a budget, a step, a constant), one per frame,
        shown with ``str``; all different. Default ``1, 2, ..., len(frames)``.
    label : str
        The slider's name, e.g. ``"playouts"`` (at most 40 characters).
    captions : sequence of str, optional
        A line of text under each frame (HTML is escaped).
    interval_ms : int
        Milliseconds between frames while playing, 100 to 10,000.

    Returns
    -------
    ipywidgets.VBox
        The stack of frames above a row with the Play button and the slider. The frame shown
        follows the slider through ``jslink``, so it needs no kernel: the cell's stored widget
        state is enough for the published book. Display it as the cell's last expression and
        tag the cell ``nbval-ignore-output`` (a widget's text form holds model ids).

    Raises
    ------
    ValueError
        With a sentence naming the parameter, for anything the list above does not allow.
    """
    import html

    import ipywidgets as widgets

    if isinstance(frames, (str, bytes)) or not isinstance(frames, Sequence):
        raise ValueError(f"frames must be a list of figures, PNG bytes or HTML strings, "
                         f"got {type(frames).__name__}.")
    count = len(frames)
    if not 2 <= count <= MAX_FRAMES:
        raise ValueError(f"frames must hold 2 to {MAX_FRAMES} frames, got {count}.")
    kinds = {_frame_kind(frame) for frame in frames}
    if "" in kinds:
        odd = next(frame for frame in frames if not _frame_kind(frame))
        raise ValueError("each frame must be a matplotlib Figure, PNG bytes or an HTML string, "
                         f"got {type(odd).__name__}.")
    if len(kinds) > 1:
        raise ValueError(f"frames must all be of one kind, got {sorted(kinds)}.")
    values = list(range(1, count + 1)) if values is None else values
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or len(values) != count:
        raise ValueError(f"values must hold one entry per frame ({count}), got {values!r:.80}.")
    options = [str(value) for value in values]
    if len(set(options)) != count:
        raise ValueError(f"values must all be different when shown, got {options!r:.120}.")
    if not isinstance(label, str) or len(label) > 40:
        raise ValueError(f"label must be a string of at most 40 characters, got {label!r:.60}.")
    if captions is not None and (isinstance(captions, (str, bytes))
                                 or not isinstance(captions, Sequence) or len(captions) != count
                                 or not all(isinstance(c, str) for c in captions)):
        raise ValueError(f"captions must be one string per frame ({count}), got {captions!r:.80}.")
    interval_ms = check_int("interval_ms", interval_ms, 100, 10_000)

    kind = kinds.pop()
    children = []
    for index, frame in enumerate(frames):
        if kind == "html":
            view = widgets.HTML(frame)
        else:
            png = _figure_png(frame) if kind == "figure" else bytes(frame)
            view = widgets.Image(value=png, format="png",
                                 layout=widgets.Layout(max_width="100%", height="auto"))
        if captions is not None:
            view = widgets.VBox([view, widgets.HTML(f"<p>{html.escape(captions[index])}</p>")])
        children.append(view)
    stack = widgets.Stack(children, selected_index=0)
    slider = widgets.SelectionSlider(options=options, index=0, description=label,
                                     continuous_update=True,
                                     style={"description_width": "initial"},
                                     layout=widgets.Layout(width="60%"))
    play = widgets.Play(value=0, min=0, max=count - 1, step=1, interval=interval_ms,
                        description="Play", tooltip=f"step through the {count} frames")
    widgets.jslink((play, "value"), (slider, "index"))
    widgets.jslink((slider, "index"), (stack, "selected_index"))
    box = widgets.VBox([stack, widgets.HBox([play, slider])])
    box.add_class("mctsbook-frame-player")
    return box
