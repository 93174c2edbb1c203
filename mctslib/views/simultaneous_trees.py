"""Two pictures of simultaneous moves as trees, for the simultaneous-moves chapter (chapter 8).

- :func:`draw_sequential_and_simultaneous`: a matrix game drawn twice. On the left the
  sequential tree of the earlier chapters, where the row player moves first and each
  column node *knows* the row move; on the right one simultaneous node: one state, a
  bandit per player, and a child for every *pair* of moves. Chapter 8 shows it for
  weighted rock-paper-scissors and again where decoupled UCT (DUCT) and SM-MCTS are
  introduced.
- :func:`draw_backups`: one SM-MCTS iteration down the tree to a node it adds, and what
  the learners of each node on the path receive under the two backups (the sample, or
  the running mean of the child their pair of picks led to).

Both draw on a figure the caller owns (``plt.figure``), so the notebook decides its size
and whether to show or close it. Part of the plotting layer: matplotlib only, no search.
"""

from __future__ import annotations

from ..games.matrix_games import MatrixGame

__all__ = ["draw_backups", "draw_sequential_and_simultaneous"]

ROW_COLOUR = "#1f77b4"
COLUMN_COLOUR = "#d35400"
_NODE = {"boxstyle": "round,pad=0.3", "facecolor": "white", "linewidth": 1.2}
# Sizes for a figure about 8.5 inches wide, shown shrunk to a page column of the book.
_LEAF_FONT = 12
_NODE_FONT = 12
_TITLE_FONT = 13
_NOTE_FONT = 11


def _short(name: str) -> str:
    # "rock" -> "R": a leaf has room for two initials and a payoff.
    return name[:1].upper()


def _payoff_text(value: float) -> str:
    return f"{value:+g}" if value else "0"


def draw_sequential_and_simultaneous(fig, game: MatrixGame) -> None:
    """Draw ``game`` as a sequential tree (left) and as one simultaneous node (right).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        An empty figure; two axes are added to it (about 8.5 x 4.4 inches reads well).
    game : MatrixGame
        At most 4 moves a player; the leaves show the row player's payoff.

    Chapter 8 ("When both players move at once").
    """
    if not isinstance(game, MatrixGame):
        raise ValueError(f"game must be a MatrixGame, got {type(game).__name__}.")
    rows, columns = game.shape
    if rows > 4 or columns > 4:
        raise ValueError(f"game must have at most 4 moves a player to be drawn, got "
                         f"{rows} x {columns}.")
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.05]})
    fig.subplots_adjust(left=0.14, right=0.99, top=0.86, bottom=0.15, wspace=0.38)  # names
    leaves = rows * columns
    leaf_x = [(k + 0.5) / leaves for k in range(leaves)]

    # Left: the row player at the root, one column node per row move, the payoffs below.
    ax = left
    ax.set_title("sequential tree:\nthe column sees the row move", fontsize=_TITLE_FONT)
    root = (0.5, 0.9)
    ax.annotate("row\nplayer", root, ha="center", va="center", fontsize=_NODE_FONT,
                bbox={**_NODE, "edgecolor": ROW_COLOUR})
    for i, row_move in enumerate(game.row_moves):
        children = leaf_x[i * columns:(i + 1) * columns]
        node = (sum(children) / columns, 0.55)
        ax.plot([root[0], node[0]], [root[1] - 0.06, node[1] + 0.07], color=ROW_COLOUR, lw=1.2)
        # Each move's name on its branch, over a white patch: the middle branch's high,
        # the others' low, so that no two names meet.
        along = 0.35 if abs(node[0] - root[0]) < 0.05 else 0.75
        top, bottom = root[1] - 0.06, node[1] + 0.07
        ax.text(root[0] + along * (node[0] - root[0]), top + along * (bottom - top), row_move,
                ha="center", va="center", fontsize=_NOTE_FONT, color=ROW_COLOUR,
                bbox={"boxstyle": "square,pad=0.1", "facecolor": "white", "edgecolor": "none"})
        ax.annotate(f"column\n(saw {_short(row_move)})", node, ha="center", va="center",
                    fontsize=_NODE_FONT, bbox={**_NODE, "edgecolor": COLUMN_COLOUR})
        for j, x in enumerate(children):
            ax.plot([node[0], x], [node[1] - 0.07, 0.2], color=COLUMN_COLOUR, lw=1.0)
            ax.text(x, 0.17, _short(game.column_moves[j]), ha="center", va="top",
                    fontsize=_LEAF_FONT, color=COLUMN_COLOUR)
            ax.text(x, 0.06, _payoff_text(game.payoffs[i, j]), ha="center", va="top",
                    fontsize=_LEAF_FONT)

    # Right: one state, a bandit per player that picks alone, a child per pair of moves.
    ax = right
    ax.set_title("simultaneous node:\na child for every pair", fontsize=_TITLE_FONT)
    state = (0.5, 0.74)
    ax.annotate("one state", state, ha="center", va="center", fontsize=_NODE_FONT,
                bbox={**_NODE, "edgecolor": "0.3"})
    for x, who, colour, moves in ((0.18, "row bandit", ROW_COLOUR, game.row_moves),
                                  (0.82, "column bandit", COLUMN_COLOUR, game.column_moves)):
        ax.annotate(f"{who}\n" + " ".join(_short(m) for m in moves), (x, 0.94), ha="center",
                    va="center", fontsize=_NOTE_FONT, color=colour,
                    bbox={**_NODE, "edgecolor": colour})
        ax.plot([x, state[0] + (-0.1 if x < 0.5 else 0.1)], [0.87, state[1]], color=colour,
                lw=1.0, linestyle=":")
    ax.text(0.5, -0.09, "each bandit picks alone;\nthe pair picks the child", ha="center",
            va="center", fontsize=_NOTE_FONT, style="italic", color="0.3")
    for k, x in enumerate(leaf_x):
        i, j = divmod(k, columns)
        ax.plot([state[0], x], [state[1] - 0.05, 0.3], color="0.5", lw=0.8)
        ax.text(x, 0.27, _short(game.row_moves[i]), ha="center", va="top",
                fontsize=_LEAF_FONT, color=ROW_COLOUR)
        ax.text(x, 0.17, _short(game.column_moves[j]), ha="center", va="top",
                fontsize=_LEAF_FONT, color=COLUMN_COLOUR)
        ax.text(x, 0.06, _payoff_text(game.payoffs[i, j]), ha="center", va="top",
                fontsize=_LEAF_FONT)
    for ax in (left, right):
        for y, what in ((0.27, "row move"), (0.17, "column move"), (0.06, "payoff to row")):
            if ax is right or y < 0.25:
                ax.text(-0.01, y, what, ha="right", va="top", fontsize=_NOTE_FONT, color="0.4")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.axis("off")


def draw_backups(fig) -> None:
    """Draw one SM-MCTS iteration and what each node's learners receive under each backup.

    The example path: the root, a node A reached by the pair of picks (i, j), a node B
    reached from A by (k, l), and from B a pair (m, n) whose child C is not in the tree
    yet: C is added, and a random playout from it ends in a win for player 0 (result 1).
    Before the iteration A has 9 visits and a total of 3, B 4 visits and a total of 2;
    after it A has 10 and 4, B 5 and 3, and the new C 1 and 1. The path is drawn in the
    middle, the **sample** backup on its left and the **mean** backup on its right. With
    sample backups every learner on the path is updated with the result itself (player
    0's learner with 1, player 1's with 0); with mean backups a node's learners get the
    running mean of the child their pair led to, this iteration included: the root's
    4/10 = 0.4 and 0.6, A's 3/5 = 0.6 and 0.4, B's 1/1 = 1 and 0 (at the new node the
    mean is the sample). Under both, every node adds the sample to its own total and
    hands the sample up (Lisý et al.'s SM-MCTS-A; ``backup="mean"`` of
    :class:`mctslib.search.smmcts.SMMCTS`).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        An empty figure; one axes is added to it (about 8.5 x 4.6 inches reads well).

    Chapter 8 ("Simultaneous moves in a whole game").
    """
    ax = fig.subplots()
    fig.subplots_adjust(left=0.01, right=0.99, top=0.98, bottom=0.02)
    middle, columns = 0.5, {"sample": 0.16, "mean": 0.84}
    heights = {"root": 0.78, "A": 0.58, "B": 0.38, "C": 0.18}
    counts = {"root": "root", "A": "A: 10 visits, total 4", "B": "B: 5 visits, total 3",
              "C": "C, new: 1 visit, total 1"}
    received = {"sample": {"root": ("1", "0"), "A": ("1", "0"), "B": ("1", "0")},
                "mean": {"root": ("4/10 = 0.4", "0.6"), "A": ("3/5 = 0.6", "0.4"),
                         "B": ("1/1 = 1", "0")}}
    headings = {"sample": "sample backup:\nthe result itself",
                "mean": "mean backup:\nthe child's running mean"}
    ax.text(middle, 0.95, "the path, after the iteration", ha="center", va="center",
            fontsize=_TITLE_FONT)
    for name, y in heights.items():
        ax.annotate(counts[name], (middle, y), ha="center", va="center", fontsize=_NODE_FONT,
                    bbox={**_NODE, "edgecolor": "0.3",
                          "linestyle": "--" if name == "C" else "-"})
    for upper, lower, pair in (("root", "A", "(i, j)"), ("A", "B", "(k, l)"),
                               ("B", "C", "(m, n)")):
        top, bottom = heights[upper], heights[lower]
        ax.annotate("", (middle, bottom + 0.045), (middle, top - 0.045),
                    arrowprops={"arrowstyle": "->", "color": "0.5"})
        ax.text(middle + 0.02, (top + bottom) / 2, pair, ha="left", va="center",
                fontsize=_NOTE_FONT, color="0.3")
    ax.plot([middle, middle], [0.08, 0.14], color="0.5", lw=1.0, linestyle=":")
    ax.text(middle, 0.04, "playout from C: player 0 wins, result 1", ha="center",
            va="center", fontsize=_NODE_FONT, style="italic")
    for backup, x in columns.items():
        ax.text(x, 0.93, headings[backup], ha="center", va="center", fontsize=_TITLE_FONT,
                weight="bold")
        for name in ("root", "A", "B"):
            row, column = received[backup][name]
            y = heights[name]
            ax.text(x, y + 0.03, f"player 0 gets {row}", ha="center", va="center",
                    fontsize=_NODE_FONT, color=ROW_COLOUR)
            ax.text(x, y - 0.03, f"player 1 gets {column}", ha="center", va="center",
                    fontsize=_NODE_FONT, color=COLUMN_COLOUR)
    ax.text(0.5, -0.03, "under both backups every node adds the result 1 to its own "
            "total and passes 1 up", ha="center", va="center", fontsize=_NOTE_FONT,
            style="italic", color="0.3")
    ax.set_xlim(0, 1)
    ax.set_ylim(-0.06, 1)
    ax.axis("off")
