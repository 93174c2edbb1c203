"""Mixes of three moves drawn on a triangle, and a live view of two learners converging.

A mix over three moves (a probability for each, summing to 1) is a point of a
triangle, the *probability simplex*: each corner is one move played always,
the centre is the uniform mix, and a point's distance from the side opposite
a corner is the probability of that corner's move. The simultaneous-moves
chapter ("When both players move at once") draws the two players' average
mixes of rock-paper-scissors moving on this triangle while a run progresses,
next to their distance from equilibrium, through :class:`~mctslib.views.plotting.LivePlot`:

- :func:`simplex_xy` turns mixes into points of the plane;
- :func:`draw_simplex` draws the triangle with its corners named;
- :class:`MixTrace` records a run at its checkpoints;
- :func:`draw_trace` is the ``draw(fig, trace)`` function for ``LivePlot``:
  the triangle with both players' paths on the left, distance over rounds on
  the right.

Part of the plotting layer: it imports matplotlib and nothing from the search.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from matplotlib.ticker import FuncFormatter, NullLocator

from .._checks import check_int, check_real

#: Corners of the triangle for moves 0, 1 and 2: bottom left, bottom right, top.
CORNERS = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, math.sqrt(3.0) / 2.0]])

#: The most grid lines per side of the triangle (beyond that they fill it grey).
MAX_GRID = 100
#: The longest run a trace accepts, in rounds (a log axis of 10^15 is beyond any run).
MAX_ROUNDS = 10**15

# Colours that read on white and on a dark page; one per player.
ROW_COLOUR = "#1f77b4"
COLUMN_COLOUR = "#d35400"
_EQUILIBRIUM_COLOUR = "#2c3e50"
_FLOOR_COLOUR = "#7f8c8d"


def simplex_xy(mixes) -> np.ndarray:
    """Points of the plane for mixes of three moves (barycentric coordinates on :data:`CORNERS`).

    Parameters
    ----------
    mixes : array-like, shape (3,) or (n, 3)
        One mix, or one per row: finite, non-negative, each summing to 1
        (within 1e-6).

    Returns
    -------
    numpy.ndarray
        Shape (2,) for one mix, (n, 2) for several: the corners weighted by the mix, added
        in one written-out order (no BLAS product, so every machine draws the same points).

    Raises
    ------
    ValueError
        If a mix does not have three entries or is not a probability mix.
    """
    try:
        array = np.asarray(mixes, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"mixes must be numbers: one mix of 3 probabilities or an (n, 3) array "
                         f"of them, got {mixes!r:.80}.") from None
    if array.ndim not in (1, 2) or array.shape[-1] != 3:
        raise ValueError(
            f"mixes must be one mix of 3 moves or an (n, 3) array of them, got shape {array.shape}."
        )
    if not np.all(np.isfinite(array)) or np.any(array < 0):
        raise ValueError("mixes must hold finite probabilities >= 0.")
    if np.any(np.abs(array.sum(axis=-1) - 1.0) > 1e-6):
        raise ValueError("each mix must sum to 1 (within 1e-6).")
    weights = array[..., :, None]
    return weights[..., 0, :] * CORNERS[0] + weights[..., 1, :] * CORNERS[1] + weights[..., 2, :] * CORNERS[2]


def draw_simplex(ax, move_names=("0", "1", "2"), grid: int = 6) -> None:
    """Draw the triangle of mixes on ``ax``: outline, faint grid, a name at each corner.

    Parameters
    ----------
    ax : matplotlib Axes
        Where to draw (not cleared first); its aspect is set equal and its
        frame hidden, since the triangle's own sides are the axes.
    move_names : sequence of 3 str
        The moves at corners 0, 1, 2 (bottom left, bottom right, top).
    grid : int
        Grid lines per side: lines of equal probability at steps of ``1 / grid``
        (0 for none).
    """
    if isinstance(move_names, (str, bytes)) or not hasattr(move_names, "__len__") \
            or len(move_names) != 3:
        raise ValueError(f"move_names must name the 3 corners, got {move_names!r:.80}.")
    grid = check_int("grid (lines per side)", grid, 0, MAX_GRID)
    outline = np.vstack([CORNERS, CORNERS[:1]])
    ax.plot(outline[:, 0], outline[:, 1], color="0.4", linewidth=1.0)
    for step in range(1, grid):
        share = step / grid
        for corner in range(3):
            # The points where `corner`'s move has probability `share`: a line parallel
            # to the opposite side.
            a, b = (corner + 1) % 3, (corner + 2) % 3
            ends = [share * CORNERS[corner] + (1 - share) * CORNERS[other] for other in (a, b)]
            ax.plot([ends[0][0], ends[1][0]], [ends[0][1], ends[1][1]],
                    color="0.85", linewidth=0.6, zorder=0)
    offsets = [(0.0, -0.06, "top"), (0.0, -0.06, "top"), (0.0, 0.04, "bottom")]
    for (x, y), (dx, dy, align), name in zip(CORNERS, offsets, move_names):
        ax.text(x + dx, y + dy, f"always\n{name}" if align == "top" else f"always {name}",
                ha="center", va=align, fontsize=9)
    ax.set_aspect("equal")
    ax.set_xlim(-0.12, 1.12)
    ax.set_ylim(-0.42, 0.98)
    ax.axis("off")


@dataclass
class MixTrace:
    """Both players' mixes and their distance from equilibrium, at each checkpoint of a run.

    Attributes
    ----------
    move_names : tuple of 3 str
    equilibrium : numpy.ndarray
        The equilibrium mix to mark on the triangle (a symmetric game's, the
        same for both players).
    total_rounds : int
        Length of the whole run: the distance axis is drawn to it from the
        start, so the curve grows into a fixed frame.
    floor : float, optional
        A distance to draw as a horizontal line (e.g. the equilibrium plus 10% noise).
    title : str
    distance_limits : tuple of 2 float
        The distance axis's range, fixed so the curve grows into a still frame
        (default 0.001 to 6, which holds every distance of a table with
        entries in ``[-3, 3]``, such as weighted rock-paper-scissors).
    rounds, row_mixes, column_mixes, distances : list
        Filled by :meth:`record`.
    """

    move_names: tuple
    equilibrium: np.ndarray
    total_rounds: int
    floor: float | None = None
    title: str = ""
    distance_limits: tuple = (1e-3, 6.0)
    rounds: list = field(default_factory=list)
    row_mixes: list = field(default_factory=list)
    column_mixes: list = field(default_factory=list)
    distances: list = field(default_factory=list)

    def __post_init__(self):
        # Checked when the trace is made, so that a mistake is named here and not by
        # matplotlib from inside the first frame of a live plot.
        if isinstance(self.move_names, (str, bytes)) or not hasattr(self.move_names, "__len__") \
                or len(self.move_names) != 3:
            raise ValueError(f"move_names must name the 3 moves, got {self.move_names!r:.80}.")
        simplex_xy(self.equilibrium)  # a mix of 3 moves, or a sentence saying why not
        check_int("total_rounds", self.total_rounds, 1, MAX_ROUNDS)
        if self.floor is not None:
            check_real("floor (a distance)", self.floor, 0.0)
        limits = self.distance_limits
        if isinstance(limits, (str, bytes)) or not hasattr(limits, "__len__") or len(limits) != 2:
            raise ValueError(f"distance_limits must be a pair (low, high), got {limits!r:.80}.")
        low, high = (check_real("each of distance_limits", limit, 0.0) for limit in limits)
        if not 0 < low < high:
            raise ValueError(f"distance_limits must be 0 < low < high (a log axis), got "
                             f"{tuple(limits)}.")
        if not isinstance(self.title, str):
            raise ValueError(f"title must be a string, got {type(self.title).__name__}.")
        for name in ("rounds", "row_mixes", "column_mixes", "distances"):
            if not isinstance(getattr(self, name), list):
                raise ValueError(f"{name} must be a list (filled by record), got "
                                 f"{type(getattr(self, name)).__name__}.")

    def record(self, rounds: int, row_mix, column_mix, distance: float) -> None:
        """Add one checkpoint: rounds played, both mixes, their distance from equilibrium.

        ``rounds`` is a whole number from 1 to :data:`MAX_ROUNDS`, the mixes are
        mixes of 3 moves (see :func:`simplex_xy`) and ``distance`` a finite
        number >= 0; anything else raises ValueError before the trace changes.
        """
        rounds = check_int("rounds", rounds, 1, MAX_ROUNDS)
        simplex_xy(row_mix)
        simplex_xy(column_mix)
        check_real("distance", distance, 0.0)
        self.rounds.append(int(rounds))
        self.row_mixes.append(np.array(row_mix, dtype=float))
        self.column_mixes.append(np.array(column_mix, dtype=float))
        self.distances.append(float(distance))


def draw_trace(fig, trace: MixTrace) -> None:
    """Draw a :class:`MixTrace`: paths on the triangle (left), distance over rounds (right).

    The ``draw(fig, data)`` function for :class:`~mctslib.views.plotting.LivePlot`
    in the simultaneous-moves chapter. Each player's path runs from its first
    checkpoint (open circle) to its latest (dot); the star is the
    equilibrium. The distance panel is log-log with the x axis fixed to the
    whole run.
    """
    if not callable(getattr(fig, "subplots", None)):
        raise ValueError(f"fig must be a matplotlib Figure, got {type(fig).__name__}.")
    if not isinstance(trace, MixTrace):
        raise ValueError(f"trace must be a MixTrace, got {type(trace).__name__}.")
    simplex_ax, distance_ax = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.0, 1.0]})
    draw_simplex(simplex_ax, trace.move_names)
    for mixes, colour, name in ((trace.row_mixes, ROW_COLOUR, "row player"),
                                (trace.column_mixes, COLUMN_COLOUR, "column player")):
        if not mixes:
            continue
        path = simplex_xy(np.array(mixes))
        simplex_ax.plot(path[:, 0], path[:, 1], color=colour, linewidth=1.0, alpha=0.8)
        simplex_ax.plot(*path[0], marker="o", markersize=6, markerfacecolor="none",
                        color=colour, linestyle="none")
        simplex_ax.plot(*path[-1], marker="o", markersize=6, color=colour, linestyle="none",
                        label=f"{name}'s average mix", zorder=5)
    # The star goes on top: the point of the picture is how close the dots come to it.
    # An open star, so the dots stay visible when they reach it.
    simplex_ax.plot(*simplex_xy(trace.equilibrium), marker="*", markersize=18,
                    markerfacecolor="none", markeredgecolor=_EQUILIBRIUM_COLOUR,
                    markeredgewidth=1.5, linestyle="none", label="equilibrium", zorder=6)
    simplex_ax.legend(loc="lower center", fontsize=8, frameon=False)
    if trace.rounds:
        simplex_ax.set_title(f"average mixes after {trace.rounds[-1]:,} rounds", fontsize=10)
    _draw_distance(distance_ax, trace)
    if trace.title:
        fig.suptitle(trace.title)
    # Fixed margins rather than tight_layout(), which would draw every frame one extra time.
    fig.subplots_adjust(left=0.02, right=0.98, bottom=0.12, top=0.86, wspace=0.25)


def draw_mix_paths(fig, paths, upto: int, equilibrium, move_names=("0", "1", "2"),
                   titles=None) -> None:
    """Several runs side by side, each on its own triangle, as they stood at checkpoint ``upto``.

    One frame of the chapter's picture of learners converging (or not): for every run in
    ``paths`` (anything with ``checkpoints``, ``row_mixes``, ``column_mixes`` and
    ``distances``, such as
    :class:`~mctslib.experiments.simultaneous.one_node.MixPath`) both players' average mixes
    from the first checkpoint to checkpoint number ``upto`` (0-based), the equilibrium as a
    star, and the distance at ``upto`` under the triangle. All runs must share their
    checkpoints, so the frames of a slider line up.

    Parameters
    ----------
    fig : matplotlib Figure
        Drawn into (one panel per run).
    paths : sequence
        One to six runs with the same checkpoints.
    upto : int
        Index of the checkpoint to draw up to.
    equilibrium : array-like of 3
        The mix marked by the star.
    move_names : sequence of 3 str
    titles : sequence of str, optional
        One panel title per run (default: the runs' ``learner`` attribute).
    """
    if not callable(getattr(fig, "subplots", None)):
        raise ValueError(f"fig must be a matplotlib Figure, got {type(fig).__name__}.")
    paths = list(paths) if hasattr(paths, "__iter__") else None
    if not paths or len(paths) > 6:
        raise ValueError("paths must hold one to six runs (each with checkpoints, row_mixes, "
                         "column_mixes and distances).")
    try:
        checkpoints = [tuple(path.checkpoints) for path in paths]
        for path in paths:
            if not len(path.row_mixes) == len(path.column_mixes) == len(path.distances) \
                    == len(path.checkpoints):
                raise ValueError("each run needs one row mix, one column mix and one distance "
                                 "per checkpoint.")
    except AttributeError:
        raise ValueError("each run must have checkpoints, row_mixes, column_mixes and "
                         "distances (a MixPath).") from None
    if any(points != checkpoints[0] for points in checkpoints):
        raise ValueError("the runs must share their checkpoints (one frame per checkpoint).")
    upto = check_int("upto (a checkpoint index)", upto, 0, len(checkpoints[0]) - 1)
    if titles is None:
        titles = [str(getattr(path, "learner", "")) for path in paths]
    elif isinstance(titles, str) or len(titles) != len(paths):
        raise ValueError(f"titles must give one title per run ({len(paths)}), got {titles!r:.80}.")
    star = simplex_xy(equilibrium)
    axes = np.atleast_1d(fig.subplots(1, len(paths)))
    for ax, path, title in zip(axes, paths, titles):
        draw_simplex(ax, move_names, grid=4)
        for mixes, colour, name in ((path.row_mixes, ROW_COLOUR, "row player"),
                                    (path.column_mixes, COLUMN_COLOUR, "column player")):
            points = simplex_xy(np.array(mixes[:upto + 1]))
            ax.plot(points[:, 0], points[:, 1], color=colour, linewidth=1.0, alpha=0.7)
            ax.plot(*points[0], marker="o", markersize=5, markerfacecolor="none",
                    color=colour, linestyle="none")
            ax.plot(*points[-1], marker="o", markersize=6, color=colour, linestyle="none",
                    label=name, zorder=5)
        ax.plot(*star, marker="*", markersize=16, markerfacecolor="none",
                markeredgecolor=_EQUILIBRIUM_COLOUR, markeredgewidth=1.4, linestyle="none",
                label="equilibrium", zorder=6)
        ax.set_title(f"{title}\ndistance {path.distances[upto]:.3f}", fontsize=10)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, [f"{label}'s average mix" if "player" in label else label
                         for label in labels],
               loc="lower center", ncol=3, fontsize=9, frameon=False)
    fig.suptitle(f"average mixes after {checkpoints[0][upto]:,} rounds", fontsize=11)
    fig.subplots_adjust(left=0.01, right=0.99, bottom=0.1, top=0.8, wspace=0.05)


def _draw_distance(ax, trace: MixTrace) -> None:
    if trace.rounds:
        ax.plot(trace.rounds, trace.distances, color="black", linewidth=1.5,
                label="distance of the average mixes")
    if trace.floor is not None:
        ax.axhline(trace.floor, color=_FLOOR_COLOUR, linestyle="--", linewidth=1.2,
                   label=f"equilibrium + 10% noise ({trace.floor:.4f})")
    first = trace.rounds[0] if trace.rounds else 1
    ax.set_xscale("log")
    ax.set_yscale("log")
    # Plain-text labels at powers of ten and no minor ticks: the default 10^k labels
    # (typeset with mathtext) and the eight minor ticks per decade made up most of the
    # time of every live frame.
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(FuncFormatter(_plain_number))
        axis.set_minor_locator(NullLocator())
    ax.set_xlim(first, max(trace.total_rounds, first + 1))
    ax.set_ylim(*trace.distance_limits)
    ax.set_xlabel("rounds played")
    ax.set_ylabel("distance from equilibrium (payoff per round)")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="lower left", fontsize=8)
    ax.spines[["top", "right"]].set_visible(False)


def _plain_number(value: float, _position=None) -> str:
    """A tick label such as ``0.01``, ``1``, ``1,000`` or ``1,000,000`` (no mathtext)."""
    if value >= 1:
        return f"{value:,.0f}"
    return f"{value:.10f}".rstrip("0")
