"""Why UCT goes where it goes: the four phases drawn once, and a search recorded frame by frame.

The UCT chapter teaches selection with two pictures that this module draws:

- :func:`four_phases_figure`: the four phases of an iteration (selection, expansion,
  simulation, backpropagation) on one small tree, drawn once; :func:`four_phases_data_uri`
  is the same picture with one phase lit, small, for the captions of the tree explorer
  (:mod:`mctslib.views.tree_explorer`);
- :func:`record_search`: a short UCT search recorded iteration by iteration. Each
  :class:`RecordedIteration` holds the tree after the iteration (the path lit, the new
  node marked, what each node gained), the table of every step of the selection (each
  sibling's visits, mean, bonus and score, the pick highlighted, see
  :func:`~mctslib.views.tree_layout.selection_steps`) and the same in plain text.
  :func:`recorded_frames` turns them into HTML frames for
  :func:`~mctslib.views.frames.frame_player`, which a reader of the published book steps
  through without a kernel.

The pictures read only what :mod:`mctslib.views.tree_layout` records; the tree is the one
:class:`~mctslib.search.uct.UCTSearch` grows for the same seed.
"""

from __future__ import annotations

import base64
import html
import io
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, Rectangle

from .._checks import check_choice, check_int, check_real
from ..games.base import GameState, check_game_state
from ..games.subtraction import SubtractionGame
from ..search.uct import MAX_ITERATIONS
from .tree_layout import (
    PHASES,
    TREE_SEED,
    IterationRecord,
    RecordingUCTSearch,
    SelectionStep,
    legend_html,
    move_labeller,
    outcome_text,
    phase_highlight,
    player_name,
    render_svg,
    tree_to_dot,
)

#: The most iterations :func:`record_search` records (each one is a frame of the book).
MAX_RECORDED = 60

# The explorer's colours (tree_layout): the path teal, the new node purple.
_LIT, _NEW, _GREY, _PICK = "#16a085", "#8e44ad", "#7f8c8d", "#d1f2eb"

# ---------------------------------------------------------------------- the four phases

_PHASE_LINES = {
    "selection": "from the root, UCB1 picks\na child, level by level,\ndown to a leaf",
    "expansion": "a leaf seen before gets\nits children; the search\nsteps into the first",
    "simulation": "random moves to the end\nof the game; none of them\nenters the tree",
    "backpropagation": "each node on the path: +1 visit\nand the result for the player\nwho moved into it",
}
# One small tree for all four panels: (x, y) of the root, its three children, and the two
# children of the middle one (the leaf of the path is the left one).
_ROOT, _KIDS, _LEAF, _SIB = (0.5, 0.88), ((0.2, 0.66), (0.5, 0.66), (0.8, 0.66)), \
    (0.36, 0.44), (0.64, 0.44)
_NEW_KIDS = ((0.24, 0.22), (0.48, 0.22))
_R = 0.055


def _node(ax, xy, colour="white", edge="#555555", width=1.2, dashed=False):
    ax.add_patch(Circle(xy, _R, facecolor=colour, edgecolor=edge, linewidth=width,
                        linestyle="--" if dashed else "-", zorder=3))


def _edge(ax, a, b, colour="#aaaaaa", width=1.2, arrow=False, up=False):
    start, end = (b, a) if up else (a, b)
    ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>" if arrow else "-",
                                 mutation_scale=10, color=colour, linewidth=width,
                                 shrinkA=7, shrinkB=7, zorder=2))


def _draw_panel(ax, phase: str, lit: bool) -> None:
    """One phase on the common small tree; ``lit`` marks the phase being explained."""
    ax.set_xlim(0, 1)
    ax.set_ylim(-0.2, 1.0)
    ax.set_aspect("equal")
    ax.axis("off")
    if lit:
        ax.add_patch(Rectangle((-0.02, -0.22), 1.04, 1.24, facecolor="#fdf6e3", edgecolor=_LIT,
                               linewidth=2, zorder=0, clip_on=False))
    path = (_ROOT, _KIDS[1], _LEAF)
    down = phase == "selection"
    for kid in _KIDS:
        on_path = kid == _KIDS[1] and phase != "simulation"
        _edge(ax, _ROOT, kid, _LIT if on_path else "#aaaaaa", 2.2 if on_path else 1.2,
              arrow=on_path and phase in ("selection", "backpropagation"),
              up=phase == "backpropagation")
    for node in (_LEAF, _SIB):
        on_path = node == _LEAF and phase != "simulation"
        _edge(ax, _KIDS[1], node, _LIT if on_path else "#aaaaaa", 2.2 if on_path else 1.2,
              arrow=on_path and phase in ("selection", "backpropagation"),
              up=phase == "backpropagation")
    for xy in (_ROOT,) + _KIDS + (_LEAF, _SIB):
        _node(ax, xy, edge=_LIT if xy in path and phase != "simulation" else "#555555",
              width=2.2 if xy in path and down else 1.2)
    if phase == "selection":
        return
    # Expansion onwards: the leaf's new children, the first one marked.
    for k, xy in enumerate(_NEW_KIDS):
        _edge(ax, _LEAF, xy, _NEW if k == 0 else "#bbbbbb", 2.0 if k == 0 else 1.0,
              arrow=phase == "backpropagation" and k == 0, up=phase == "backpropagation")
        _node(ax, xy, edge=_NEW if k == 0 else "#999999", width=2.2 if k == 0 else 1.0,
              dashed=phase == "expansion")
    if phase == "expansion":
        ax.text(_NEW_KIDS[0][0] - 0.09, _NEW_KIDS[0][1], "new", color=_NEW, ha="right",
                va="center", fontsize=8)
        return
    if phase == "simulation":
        x0, y0 = _NEW_KIDS[0]
        ys = [y0 - _R - 0.01 * k for k in range(26)]
        xs = [x0 + 0.04 * math.sin(k / 2.0) for k in range(26)]
        ax.plot(xs, ys, color=_NEW, linewidth=1.4, linestyle="--")
        ax.text(xs[-1], ys[-1] - 0.035, "game over", ha="center", va="top", fontsize=8,
                color="#222222", bbox={"boxstyle": "round,pad=0.2", "facecolor": "white",
                                       "edgecolor": "#555555"})
        return
    for xy, note in zip((_NEW_KIDS[0], _LEAF, _KIDS[1], _ROOT), ("+1", "+0", "+1", "")):
        if note:
            ax.text(xy[0] + 0.075, xy[1], note, color=_LIT, fontsize=9, fontweight="bold",
                    va="center")


def four_phases_figure(active: str | None = None, figsize=(10.0, 3.6)) -> Figure:
    """The four phases of one UCT iteration on one small tree (UCT chapter).

    Parameters
    ----------
    active : str or None
        A phase to light (one of :data:`~mctslib.views.tree_layout.PHASES`); None lights none.
    figsize : (float, float)
        The figure's size in inches.

    The colours are the tree explorer's: the path teal, the new node purple.
    """
    if active is not None:
        active = check_choice("active", active, PHASES)
    fig, axes = plt.subplots(1, 4, figsize=figsize, facecolor="white")
    for k, (ax, phase) in enumerate(zip(axes, PHASES)):
        _draw_panel(ax, phase, phase == active)
        ax.set_title(f"{k + 1}. {phase.capitalize()}", fontsize=11, fontweight="bold",
                     color="#222222")
        ax.text(0.5, -0.27, _PHASE_LINES[phase], ha="center", va="top", fontsize=8.5,
                color="#222222", transform=ax.transData)
    fig.subplots_adjust(left=0.01, right=0.99, top=0.9, bottom=0.2, wspace=0.08)
    return fig


@lru_cache(maxsize=len(PHASES) + 1)
def four_phases_data_uri(active: str | None = None) -> str:
    """:func:`four_phases_figure` small, as a PNG ``data:`` URI (drawn once per phase)."""
    fig = four_phases_figure(active, figsize=(7.0, 2.3))
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=55, facecolor="white")
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


# ---------------------------------------------------------------------- selection tables


def _number(x: float) -> str:
    return "\u2013" if math.isnan(x) else ("\u221e" if math.isinf(x) else f"{x:.3f}")


def _path_name(label: Callable, step: SelectionStep) -> str:
    names, node = [], step.parent
    while node.parent is not None:
        names.append(label(node))
        node = node.parent
    return "root" if not names else " \u2192 ".join(reversed(names))


def _why(step: SelectionStep) -> str:
    return ("never visited: taken at once" if step.untried
            else "the highest score")


def selection_html(choices: Sequence[SelectionStep], labeller: Callable | None = None) -> str:
    """The selection of one iteration as HTML tables: one per step down, the pick highlighted.

    Each row is a child with its visits n, mean Q (for the player choosing here), bonus
    c * sqrt(ln N / n) and score Q + bonus, as they stood when the choice was made.
    """
    label = labeller or (lambda node: str(node.move))
    if not choices:
        return ""
    cell = "padding:1px 7px;text-align:right"
    parts = []
    for step in choices:
        head = (f"<div style='margin-top:4px'>At <b>{html.escape(_path_name(label, step))}</b>"
                f" (N = {step.parent_visits}): picks <b>{html.escape(label(step.chosen))}</b>"
                f", {_why(step)}</div>")
        rows = ["<tr>" + "".join(f"<th style='{cell}'>{h}</th>" for h in
                                 ("move", "n", "mean Q", "bonus", "score")) + "</tr>"]
        for row in step.rows:
            picked = row.node is step.chosen
            style = f" style='background:{_PICK};font-weight:bold'" if picked else ""
            values = ((label(row.node), str(row.visits)) +
                      tuple(_number(x) for x in (row.mean, row.bonus, row.score)))
            rows.append(f"<tr{style}>" + "".join(f"<td style='{cell}'>{html.escape(v)}</td>"
                                                for v in values) + "</tr>")
        parts.append("<div style='flex:0 1 auto'>" + head +
                     "<table style='border-collapse:collapse;font-size:12px;"
                     "font-family:monospace'>" + "".join(rows) + "</table></div>")
    return ("<div class='tree-selection' style='display:flex;flex-wrap:wrap;gap:4px 18px'>"
            + "".join(parts) + "</div>")


def selection_text(choices: Sequence[SelectionStep], labeller: Callable | None = None) -> str:
    """The same tables as plain text, one line per step down (what nbval compares)."""
    label = labeller or (lambda node: str(node.move))
    lines = []
    for step in choices:
        scored = ", ".join(
            f"{label(row.node)} untried" if not row.visits else
            f"{label(row.node)} {row.mean:.3f}+{row.bonus:.3f}={row.score:.3f}"
            for row in step.rows)
        lines.append(f"  at {_path_name(label, step)} (N = {step.parent_visits}): {scored}"
                     f" -> {label(step.chosen)} ({_why(step)})")
    return "\n".join(lines)


# ---------------------------------------------------------------------- a recorded search


@dataclass(frozen=True)
class RecordedIteration:
    """One iteration of :func:`record_search`: its tree picture, selection and summary.

    ``svg`` is the tree after the iteration (path lit, new node marked, each node's gain
    written under its visit count); ``selection`` is :func:`selection_html` of the
    descent; ``text`` says what the four phases did, in plain text, with the selection's
    scores (:func:`selection_text`); ``caption`` is its first line.
    """

    number: int
    svg: str
    selection: str
    text: str

    @property
    def caption(self) -> str:
        return self.text.split("\n", 1)[0]


def _summary(record: IterationRecord, label: Callable) -> str:
    """What the four phases of ``record`` did, one line, then the selection's scores."""
    def short(node):  # the moves from the root, or "the root"
        moves = []
        while node.parent is not None:
            moves.append(label(node))
            node = node.parent
        return " \u2192 ".join(reversed(moves)) or "the root"

    leaf = record.path[-1]
    if record.added:
        count = len(record.added)
        grown = (f"{short(leaf)} gets {count} {'child' if count == 1 else 'children'}; "
                 f"the playout starts from {short(record.start)}")
    elif record.first_visit:
        grown = "none, the leaf has never been visited"
    else:
        grown = "none, the game is over there"
    moves = ", ".join(map(str, record.playout)) if record.playout else "none"
    gains = ", ".join(f"{short(node)} +{reward:g}" for node, reward in record.backups
                      if node.parent is not None)
    path = " \u2192 ".join(["root"] + [label(node) for node in record.path[1:]])
    first = (f"Iteration {record.number}. Selection: {path}. Expansion: {grown}. "
             f"Simulation: random moves {moves}; {outcome_text(record.final)}. "
             f"Backpropagation: {gains}, and a visit to the root.")
    return first + ("\n" + selection_text(record.choices, label) if record.choices else "")


def record_search(state: GameState | None = None, iterations: int = 30, seed=TREE_SEED,
                  exploration: float = 1.0, depth: int | None = None,
                  min_visits: int = 0) -> list[RecordedIteration]:
    """Run ``iterations`` of UCT and keep a picture, a table and a summary of each (UCT chapter).

    Parameters
    ----------
    state : GameState or None
        The root position; 7 stones of the subtraction game by default.
    iterations : int
        1 to :data:`MAX_RECORDED` (each becomes a frame of the book).
    seed : int or None
        The search's random source, as :class:`~mctslib.search.uct.UCTSearch`.
    exploration : float
        UCB1's constant c (>= 0).
    depth, min_visits :
        What the pictures draw, as :func:`~mctslib.views.tree_layout.tree_to_dot`; by default
        every node, unvisited children too (drawn dashed, with a 0).

    The search is :class:`~mctslib.views.tree_layout.RecordingUCTSearch`: it grows the same
    tree as ``UCTSearch(exploration, iterations, seed=seed)``.
    """
    state = SubtractionGame(7) if state is None else check_game_state(state)
    iterations = check_int("iterations", iterations, 1, MAX_RECORDED)
    exploration = check_real("exploration", exploration, 0.0)
    search = RecordingUCTSearch(exploration, iterations=MAX_ITERATIONS, seed=seed)
    root = search.begin(state)
    label = move_labeller(state)
    recorded = []
    for _ in range(iterations):
        for record in search.step():
            pass
        mark = phase_highlight(record, state, label)
        drawn = tree_to_dot(root, depth=depth, min_visits=min_visits, highlight=mark,
                            labeller=label, legend=False, caption="")
        recorded.append(RecordedIteration(record.number, _scalable(render_svg(drawn)),
                                          selection_html(record.choices, label),
                                          _summary(record, label)))
    return recorded


def _scalable(svg: str) -> str:
    """The SVG shrunk to its box's width when wider (dot gives a size in points), and lighter.

    Every frame is stored in the notebook and the page, so what the picture does not need
    goes: dot's titles, the ids of edges and link groups, the font repeated on every text
    (set once on the ``<svg>``), digits of coordinates beyond the first decimal. Node
    groups keep their ids and classes, links their tooltips.
    """
    svg = re.sub(r"<title>[^<]*</title>\n?", "", svg)
    svg = svg.replace(' font-family="Helvetica,sans-Serif" font-size="9.00"', "")
    svg = re.sub(r'<g id="a_[^"]*"><a ', "<a ", svg).replace("</a>\n</g>", "</a>")
    svg = re.sub(r'<g id="edge\d+" ', "<g ", svg)
    svg = re.sub(r"(\d\.\d)\d+", r"\1", svg)
    return svg.replace("<svg ", "<svg style='max-width:100%;max-height:100%;width:auto;"
                                "height:auto;font-family:Helvetica,sans-serif;font-size:9px' ", 1)


def recorded_frames(recorded: Sequence[RecordedIteration], state: GameState | None = None
                    ) -> list[str]:
    """One HTML frame per recorded iteration: the tree on the left, the selection on the right.

    White boxes with dark text, so that the frames read on a dark page too; ``state``
    (the root position) names the player to move at the root in the header.
    """
    if isinstance(recorded, (str, bytes)) or not recorded or not all(
            isinstance(r, RecordedIteration) for r in recorded):
        raise ValueError("recorded must be a non-empty list from record_search.")
    who = "" if state is None else (
        f" ({player_name(check_game_state(state), state.player_to_move)} to move at the root)")
    frames = []
    for item in recorded:
        summary = html.escape(item.caption)
        frames.append(
            "<div class='tree-frame' style='background:white;color:#222;padding:6px;"
            "border:1px solid #ccc;border-radius:4px'>"
            f"<div style='font-size:13px;margin-bottom:4px'>{summary}</div>"
            # One height for every frame, so that the page does not jump as the tree grows.
            "<div style='height:420px;display:flex;justify-content:center;"
            f"align-items:center'>{item.svg}</div>"
            f"<div style='font-size:12px'><b>Why this path{who}</b>"
            f"{item.selection or '<div>no choice to make: the root had no children yet</div>'}"
            "</div></div>")
    return frames


def frames_legend_html() -> str:
    """The legend printed once above a player of :func:`recorded_frames`."""
    return legend_html()


__all__ = ["MAX_RECORDED", "RecordedIteration", "four_phases_data_uri", "four_phases_figure",
           "frames_legend_html", "record_search", "recorded_frames", "selection_html",
           "selection_text"]
