"""Figures for the book, including plots that grow while a run progresses.

:class:`LivePlot` shows one matplotlib figure and redraws it in place while a
long loop runs: in JupyterLab the reader watches curves grow; when the cell
finishes, exactly one final static figure is left in the notebook, which is
what the published book shows and what nbval sees. It relies on IPython's
``display(..., display_id=True)`` and ``handle.update(...)``; outside IPython
it only draws at the end. Used by chapter 2 (regret curves) and later chapters.
"""

from __future__ import annotations

import io
import math
import time
from collections.abc import Callable

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from .._checks import check_real

#: The largest figure side accepted, in inches (a poster's width).
MAX_INCHES = 100.0


def check_figsize(figsize) -> tuple[float, float]:
    """Return ``figsize`` as (width, height) in inches, or raise ValueError with a sentence.

    Both sides must be numbers above 0 and at most :data:`MAX_INCHES`;
    matplotlib itself would answer a bad size with a TypeError from deep inside.
    """
    if isinstance(figsize, (str, bytes)) or not hasattr(figsize, "__len__") or len(figsize) != 2:
        raise ValueError(f"figsize must be a pair (width, height) in inches, got {figsize!r:.80}.")
    sides = tuple(check_real("each side of figsize (inches)", side, 0.0, MAX_INCHES)
                  for side in figsize)
    if min(sides) <= 0:
        raise ValueError(f"each side of figsize (inches) must be > 0, got {figsize!r}.")
    return sides


def check_function(name: str, value, signature: str):
    """Return ``value``, or raise ValueError unless it can be called (``signature`` says how)."""
    if not callable(value):
        raise ValueError(f"{name} must be a function {signature}, got {type(value).__name__}.")
    return value


def _ipython_display():
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:  # pragma: no cover - IPython comes with Jupyter
        return None
    return display if get_ipython() is not None else None


class LivePlot:
    """A figure that redraws in place at most every ``min_interval`` seconds.

    Parameters
    ----------
    draw : callable(fig, data) -> None
        Clears and redraws the figure from the latest data. The same function
        draws the live frames and the final figure, so they cannot disagree.
    figsize : tuple of float
        Figure size in inches.
    min_interval : float
        Minimum seconds between redraws while running (redrawing costs time).

    Examples
    --------
    >>> live = LivePlot(draw_regret)            # doctest: +SKIP
    >>> for chunk in run_in_chunks():           # doctest: +SKIP
    ...     live.update(chunk)
    >>> live.finish(final_data)                 # doctest: +SKIP
    """

    def __init__(self, draw: Callable, figsize=(7.0, 4.0), min_interval: float = 0.5):
        self._draw = check_function("draw", draw, "draw(fig, data)")
        figsize = check_figsize(figsize)
        self._min_interval = check_real("min_interval (seconds)", min_interval, 0.0)
        self._last = None  # the first update always draws
        self._handle = None
        self.fig = plt.figure(figsize=figsize)
        # The figure is shown through our display handle only, never by the
        # inline backend at the end of the cell (that would be a second copy).
        plt.close(self.fig)
        self._display = _ipython_display()

    def update(self, data) -> None:
        """Redraw with ``data`` if ``min_interval`` seconds passed since the last redraw ended."""
        if self._last is not None and time.monotonic() - self._last < self._min_interval:
            return
        self._render(data)
        # Counted from the end of the redraw: a redraw slower than the interval would
        # otherwise be followed at once by the next, and the loop would do little but draw.
        self._last = time.monotonic()

    def finish(self, data) -> None:
        """Draw the final state: this is the one figure the notebook keeps."""
        self._render(data)

    def _render(self, data) -> None:
        self.fig.clear()
        self._draw(self.fig, data)
        if self._display is None:
            return
        if self._handle is None:
            self._handle = self._display(self.fig, display_id=True)
        else:
            self._handle.update(self.fig)


# Colours read on white and on a dark page alike: the move the search picks stands out,
# the other candidates stay quiet.
_CHOSEN_COLOUR = "#d35400"
_OTHER_COLOUR = "#7f8c8d"


def draw_root_bars(ax, stats, chosen=None, title: str | None = None,
                   move_label: str = "candidate move", mover: str = "the mover") -> None:
    """Draw one bar per candidate move: its visits, with its mean result written on top.

    This is what a search's budget looks like after one decision: the bars
    show where the iterations went, the labels how well each move did for
    the player choosing (win 1, draw 0.5, loss 0). Used by the UCT chapter
    (the sum-to-15 game) for its static figure and inside its widget.

    Parameters
    ----------
    ax : matplotlib Axes
        Where to draw (it is not cleared first).
    stats : sequence of objects with ``move``, ``visits`` and ``mean``
        The root children, e.g. :meth:`mctslib.search.uct.UCTSearch.root_stats`;
        drawn sorted by move.
    chosen : move, optional
        The move the search plays; its bar is highlighted.
    title : str, optional
        The axes title.
    move_label : str
        What a move is called on the x axis (e.g. ``"number the bot could pick"``).
    mover : str
        Whose result the labels give, for the x axis label (e.g. ``"the bot"``).
    """
    stats = _root_stats(stats)
    ordered = sorted(stats, key=lambda child: child.move)
    positions = range(len(ordered))
    visits = [child.visits for child in ordered]
    colours = [_CHOSEN_COLOUR if child.move == chosen else _OTHER_COLOUR for child in ordered]
    bars = ax.bar(positions, visits, color=colours, width=0.7)
    # An unvisited move has no mean: say so instead of printing "nan".
    labels = ["-" if child.visits == 0 else f"{child.mean:.2f}" for child in ordered]
    ax.bar_label(bars, labels=labels, padding=2, fontsize=9)
    ax.set_xticks(list(positions), [str(child.move) for child in ordered])
    ax.set_xlabel(f"{move_label}\n(on each bar: mean result for {mover}; win 1, draw 0.5, loss 0)")
    ax.set_ylabel("visits (iterations)")
    ax.set_ylim(0, max(max(visits), 1) * 1.15)  # room for the labels above the tallest bar
    ax.spines[["top", "right"]].set_visible(False)
    if title:
        ax.set_title(title)


def _root_stats(stats) -> list:
    """``stats`` as a list of children with ``move``, ``visits`` and ``mean``, or a sentence."""
    if isinstance(stats, (str, bytes)) or not hasattr(stats, "__iter__"):
        raise ValueError(f"stats must be a sequence of root children (move, visits, mean), got "
                         f"{type(stats).__name__}.")
    stats = list(stats)
    if not stats:
        raise ValueError("stats must hold at least one candidate move, got none.")
    for child in stats:
        if not all(hasattr(child, name) for name in ("move", "visits", "mean")):
            raise ValueError(f"each of stats must have move, visits and mean (as ChildStats), "
                             f"got {child!r:.80}.")
        visits, mean = child.visits, child.mean
        if isinstance(visits, bool) or not isinstance(visits, int) and not hasattr(
                visits, "__index__") or visits < 0:
            raise ValueError(f"the visits of move {child.move!r} must be a whole number >= 0, "
                             f"got {visits!r}.")
        if visits and not (isinstance(mean, (int, float)) and math.isfinite(mean)):
            raise ValueError(f"the mean of move {child.move!r} must be a finite number once it "
                             f"was visited, got {mean!r}.")
    try:
        sorted(stats, key=lambda child: child.move)
    except TypeError:
        raise ValueError("the moves of stats must be comparable, to draw them in order "
                         "(numbers, or strings).") from None
    return stats


#: Size of the bar charts the game widgets show (7 x 3.4 inches at 90 dpi).
WIDGET_BARS_DPI = 90
WIDGET_BARS_PIXELS = (630, 306)


def widget_bars_png(draw: Callable | None, note: str) -> bytes:
    """A widget's bar chart as PNG bytes, drawn off-screen (no pyplot, nothing displayed).

    ``draw(ax)`` draws the chart; with ``draw`` None the ``note`` stands in its
    place (before the bot's first reply). An ``ipywidgets.Image`` holding these
    bytes updates at once in JupyterLab and is kept in the stored widget state,
    so the static book shows it too. Used by the sum-to-15 and UTTT widgets.
    """
    if draw is not None:
        check_function("draw", draw, "draw(ax) or None")
    if not isinstance(note, str):
        raise ValueError(f"note must be a string, got {type(note).__name__}.")
    fig = Figure(figsize=(WIDGET_BARS_PIXELS[0] / WIDGET_BARS_DPI,
                          WIDGET_BARS_PIXELS[1] / WIDGET_BARS_DPI),
                 dpi=WIDGET_BARS_DPI, layout="constrained", facecolor="white")
    ax = fig.add_subplot()
    if draw is None:
        ax.set_axis_off()
        ax.text(0.5, 0.5, note, ha="center", va="center", transform=ax.transAxes, fontsize=11)
    else:
        draw(ax)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", facecolor="white")
    return buffer.getvalue()
