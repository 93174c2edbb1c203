"""Pictures of Ultimate Tic-Tac-Toe positions, drawn with matplotlib.

The chapter "Ultimate Tic-Tac-Toe: tuning a real bot" draws its rules, its
example positions and the bot's search with :func:`draw_uttt`: nine small
boards in a 3x3 grid, thick lines between the boards, X and O marks, won
boards shaded in the winner's colour under a big faded mark, full boards
without a winner greyed, and the board(s) the next player may play in
outlined and tinted. Optional extras: dots on the legal cells, a ring around
the last move, and a heat map of where the bot's root visits went.

Colours come from the Okabe-Ito palette (safe for the common colour-vision
deficiencies), and every colour is doubled by a shape or a pattern (a faded
X or O on a won board, hatching on a drawn one, a dashed outline on the
playable boards) so that the picture still reads when printed in grey. The
figure background is white in light and dark themes alike.

Every artist that carries meaning has a ``gid`` (``uttt-won-<board>``,
``uttt-drawn-<board>``, ``uttt-playable-<board>``, ``uttt-mark-<move>``,
``uttt-legal-<move>``, ``uttt-visits-<move>``, ``uttt-last-move``), so tests
and readers can find it with ``[a for a in ax.get_children() if a.get_gid() == ...]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from matplotlib import colormaps
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Rectangle

from ..games.uttt import UltimateTicTacToe
from .plotting import check_figsize

__all__ = [
    "DRAWN_COLOUR",
    "HIGHLIGHT_COLOUR",
    "MARK_COLOURS",
    "SCORING_NAMES",
    "VISITS_CMAP",
    "WON_COLOURS",
    "draw_uttt",
    "position_title",
    "uttt_figure",
    "visit_counts",
]

#: Okabe-Ito blue for X and vermillion for O: told apart with every common colour deficiency.
MARK_COLOURS = {"X": "#0072B2", "O": "#D55E00"}
#: Pale versions of the mark colours for the background of a won small board.
WON_COLOURS = {"X": "#BFDCEF", "O": "#F6D2BC"}
#: Full boards without a winner: a neutral grey (with hatching, for print).
DRAWN_COLOUR = "#D0D0D0"
#: Okabe-Ito yellow: the board(s) the player to move may play in.
HIGHLIGHT_COLOUR = "#F0E442"
#: A dark golden outline around the playable boards (yellow alone vanishes on white).
HIGHLIGHT_EDGE = "#8C7A00"
#: Sequential colour map for the bot's visit shares (light to dark green, one hue).
VISITS_CMAP = "Greens"
#: How the text names the two scorings of a game that ends with every board closed.
SCORING_NAMES = {"codingame": "CodinGame", "openspiel": "OpenSpiel"}
GRID_COLOUR = "#333333"
LEGAL_DOT_COLOUR = "#555555"
LAST_MOVE_COLOUR = "#000000"


def _board_origin(board: int) -> tuple[int, int]:
    """Top-left (col, row) of a small board on the 9x9 grid."""
    return 3 * (board % 3), 3 * (board // 3)


def visit_counts(visits) -> dict[int, int]:
    """Visits per move from a mapping ``{move: visits}`` or root statistics.

    Root statistics are objects with ``move`` and ``visits`` (such as
    :class:`mctslib.search.uct.ChildStats`) or tuples ``(move, visits, ...)`` (as
    :meth:`mctslib.bots.uttt.UTTTBot.root_stats` gives). Raises ValueError for a
    move outside 0..80 or a negative count.
    """
    if isinstance(visits, Mapping):
        pairs = list(visits.items())
    elif isinstance(visits, (str, bytes)) or not hasattr(visits, "__iter__"):
        raise ValueError(f"visits must be a dict {{move: visits}} or a sequence of root "
                         f"statistics, got {type(visits).__name__}.")
    else:
        pairs = [_move_and_visits(child) for child in visits]
    counts = {}
    for move, count in pairs:
        whole_move, whole_count = _whole(move), _whole(count)
        if whole_move is None or whole_count is None or not 0 <= whole_move <= 80 \
                or whole_count < 0:
            raise ValueError(f"visits needs moves 0..80 with counts >= 0, got move {move!r} "
                             f"with {count!r} visits.")
        counts[whole_move] = whole_count
    return counts


def _move_and_visits(child) -> tuple:
    if hasattr(child, "move") and hasattr(child, "visits"):
        return child.move, child.visits
    if isinstance(child, (str, bytes)) or not hasattr(child, "__getitem__") or len(child) < 2:
        raise ValueError(f"each of visits must be root statistics with move and visits, or a "
                         f"tuple (move, visits, ...), got {child!r:.80}.")
    return child[0], child[1]


def _whole(value) -> int | None:
    """``value`` as an int if it is a whole number (3, numpy 3 or 3.0), else None."""
    if isinstance(value, bool):
        return None
    if hasattr(value, "__index__"):
        return int(value.__index__())
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def draw_uttt(ax, state: UltimateTicTacToe, highlight_moves: Iterable[int] | None = None,
              last_move: int | None = None, visits=None, *, legal_dots: bool = False,
              highlight_playable: bool = True, visit_labels: bool = True,
              colorbar: bool = True, title: str | None = None) -> None:
    """Draw an Ultimate Tic-Tac-Toe position on ``ax`` (chapter "Ultimate Tic-Tac-Toe").

    Parameters
    ----------
    ax : matplotlib Axes
        Where to draw; it is cleared first and its aspect set to equal.
    state : UltimateTicTacToe
        The position.
    highlight_moves : iterable of int, optional
        Cells (``9 * row + col``) to mark with a dot, e.g. the legal moves.
    last_move : int, optional
        The move that led to ``state``; a black ring goes round its cell.
    visits : mapping or sequence of root statistics, optional
        The bot's root visits per move (see :func:`visit_counts`); each cell
        is tinted by its share of all visits and, with ``visit_labels``, the
        share is written in cells that got at least 1% of them.
    legal_dots : bool
        Put a dot on every legal move (added to ``highlight_moves``).
    highlight_playable : bool
        Tint and outline the board(s) the player to move may play in: the
        forced board, or every open board on a free choice.
    visit_labels, colorbar : bool
        Write the visit shares in the cells; add a colour bar for them.
    title : str, optional
        The axes title.
    """
    if not isinstance(state, UltimateTicTacToe):
        raise ValueError(f"state must be an UltimateTicTacToe position, got "
                         f"{type(state).__name__}.")
    if not callable(getattr(ax, "add_patch", None)):
        raise ValueError(f"ax must be a matplotlib Axes, got {type(ax).__name__}.")
    dots = set(_checked_moves("highlight_moves",
                              () if highlight_moves is None else highlight_moves))
    if legal_dots:
        dots.update(state.legal_moves())
    if last_move is not None:
        last_move = _checked_moves("last_move", [last_move])[0]
    ax.clear()
    _draw_board_backgrounds(ax, state, highlight_playable)
    if visits is not None:
        _draw_visits(ax, visit_counts(visits), visit_labels, colorbar)
    _draw_grid(ax)
    _draw_marks(ax, state)
    _draw_dots(ax, dots)
    if last_move is not None:
        row, col = divmod(last_move, 9)
        ax.add_patch(Rectangle((col + 0.06, row + 0.06), 0.88, 0.88, fill=False, lw=2.2,
                               edgecolor=LAST_MOVE_COLOUR, zorder=6, gid="uttt-last-move"))
    _set_axes(ax, title)


def _checked_moves(name: str, moves: Iterable[int]) -> list[int]:
    if isinstance(moves, (str, bytes)) or not hasattr(moves, "__iter__"):
        raise ValueError(f"{name} must be a sequence of moves 9 * row + col in 0..80, got "
                         f"{moves!r:.80}.")
    moves = list(moves)
    bad = [move for move in moves if isinstance(move, bool)
           or not (isinstance(move, int) or hasattr(move, "__index__"))
           or not 0 <= int(move) <= 80]
    if bad:
        raise ValueError(f"{name} must be moves 9 * row + col in 0..80, got {bad[0]!r}.")
    return [int(move) for move in moves]


def _draw_board_backgrounds(ax, state: UltimateTicTacToe, highlight_playable: bool) -> None:
    playable = set(state.playable_boards()) if highlight_playable else set()
    for board, status in enumerate(state.board_statuses()):
        x, y = _board_origin(board)
        if status in WON_COLOURS:
            ax.add_patch(Rectangle((x, y), 3, 3, facecolor=WON_COLOURS[status], edgecolor="none",
                                   zorder=0, gid=f"uttt-won-{board}"))
            # The big faded mark says who won the board without relying on colour.
            _draw_mark(ax, status, x + 1.5, y + 1.5, radius=1.15, alpha=0.3, lw=10,
                       gid=f"uttt-won-mark-{board}", zorder=0.5)
        elif status == "drawn":
            ax.add_patch(Rectangle((x, y), 3, 3, facecolor=DRAWN_COLOUR, edgecolor="#9A9A9A",
                                   hatch="//", lw=0, zorder=0, gid=f"uttt-drawn-{board}"))
        elif board in playable:
            ax.add_patch(Rectangle((x, y), 3, 3, facecolor=HIGHLIGHT_COLOUR, alpha=0.45,
                                   edgecolor="none", zorder=0, gid=f"uttt-playable-{board}"))
            ax.add_patch(Rectangle((x + 0.08, y + 0.08), 2.84, 2.84, fill=False, lw=2.5,
                                   linestyle=(0, (4, 2)), edgecolor=HIGHLIGHT_EDGE, zorder=5,
                                   gid=f"uttt-playable-edge-{board}"))


def _draw_visits(ax, counts: dict[int, int], labels: bool, colorbar: bool) -> None:
    total = sum(counts.values())
    if total == 0:
        return
    cmap = colormaps[VISITS_CMAP]
    top = max(counts.values()) / total
    norm = Normalize(0.0, max(top, 1e-9) * 100)
    for move, count in counts.items():
        if count == 0:
            continue  # an unvisited cell keeps its board's colour
        share = 100 * count / total
        row, col = divmod(move, 9)
        ax.add_patch(Rectangle((col, row), 1, 1, facecolor=cmap(norm(share)), edgecolor="none",
                               zorder=1, gid=f"uttt-visits-{move}"))
        if labels and share >= 1:
            # Dark text on light cells, white on dark ones: readable at any share.
            colour = "white" if norm(share) > 0.6 else "black"
            ax.text(col + 0.5, row + 0.5, f"{share:.0f}%", ha="center", va="center",
                    fontsize=8, color=colour, zorder=7)
    if colorbar:
        mappable = ax.figure.colorbar(
            _scalar_mappable(cmap, norm), ax=ax, fraction=0.04, pad=0.03, shrink=0.8)
        mappable.set_label("share of the bot's root visits (%)")


def _scalar_mappable(cmap, norm):
    from matplotlib.cm import ScalarMappable

    return ScalarMappable(norm=norm, cmap=cmap)


def _draw_grid(ax) -> None:
    for k in range(10):
        # Board borders (every third line) thick, cell borders thin.
        width, colour = (3.0, GRID_COLOUR) if k % 3 == 0 else (0.6, "#888888")
        ax.add_line(Line2D([k, k], [0, 9], lw=width, color=colour, zorder=3,
                           solid_capstyle="butt"))
        ax.add_line(Line2D([0, 9], [k, k], lw=width, color=colour, zorder=3,
                           solid_capstyle="butt"))


def _draw_mark(ax, symbol: str, cx: float, cy: float, radius: float, alpha: float, lw: float,
               gid: str, zorder: float = 4) -> None:
    colour = MARK_COLOURS[symbol]
    if symbol == "X":
        for dx in (radius, -radius):
            ax.add_line(Line2D([cx - dx, cx + dx], [cy - radius, cy + radius], lw=lw,
                               color=colour, alpha=alpha, solid_capstyle="round",
                               zorder=zorder, gid=gid))
    else:
        ax.add_patch(Circle((cx, cy), radius, fill=False, lw=lw, edgecolor=colour, alpha=alpha,
                            zorder=zorder, gid=gid))


def _draw_marks(ax, state: UltimateTicTacToe) -> None:
    for move in range(81):
        row, col = divmod(move, 9)
        symbol = state.cell(row, col)
        if symbol != ".":
            _draw_mark(ax, symbol, col + 0.5, row + 0.5, radius=0.3, alpha=1.0, lw=2.2,
                       gid=f"uttt-mark-{move}")


def _draw_dots(ax, moves: Iterable[int]) -> None:
    for move in sorted(moves):
        row, col = divmod(move, 9)
        ax.add_patch(Circle((col + 0.5, row + 0.5), 0.09, color=LEGAL_DOT_COLOUR, zorder=5,
                            gid=f"uttt-legal-{move}"))


def _set_axes(ax, title: str | None) -> None:
    ax.set_xlim(0, 9)
    ax.set_ylim(9, 0)  # row 0 at the top, as the game's grid is printed
    ax.set_aspect("equal")
    centres = [k + 0.5 for k in range(9)]
    ax.set_xticks(centres, [str(k) for k in range(9)])
    ax.set_yticks(centres, [str(k) for k in range(9)])
    ax.tick_params(length=0, labelsize=9, top=True, labeltop=True, bottom=False,
                   labelbottom=False)
    ax.xaxis.set_label_position("top")
    ax.set_xlabel("col")
    ax.set_ylabel("row")
    for spine in ax.spines.values():
        spine.set_visible(False)
    if title:
        ax.set_title(title, pad=10)


def position_title(state: UltimateTicTacToe) -> str:
    """A short title: who moves and where, or how the game ended, and the boards won.

    For example ``"O to move in board 8 (boards won: X 2, O 0)"``; the board
    numbers go 0..8 row by row over the big board.
    """
    if not isinstance(state, UltimateTicTacToe):
        raise ValueError(f"state must be an UltimateTicTacToe position, got "
                         f"{type(state).__name__}.")
    counts = f"boards won: X {state.won_boards(0)}, O {state.won_boards(1)}"
    if state.is_terminal():
        winner = state.winner()
        verdict = "draw" if winner is None else f"{'XO'[winner]} wins"
        return f"Game over: {verdict} ({counts}; {SCORING_NAMES[state.scoring]} scoring)"
    mover = "XO"[state.player_to_move]
    where = "anywhere open" if state.free_choice else f"in board {state.forced_board}"
    return f"{mover} to move {where} ({counts})"


def uttt_figure(state: UltimateTicTacToe, highlight_moves=None, last_move=None, visits=None,
                *, title: str | None = "", figsize=(5.6, 5.6), pyplot: bool = True,
                **options) -> Figure:
    """A figure of one position (chapter "Ultimate Tic-Tac-Toe"); options as :func:`draw_uttt`.

    ``title=""`` (the default) writes :func:`position_title`; None writes
    no title. With ``pyplot=True`` the figure is made through pyplot, so a
    notebook cell shows it with ``plt.show()``; ``pyplot=False`` makes it
    off-screen (for saving to a file or a widget's PNG). The background is
    white, in light and dark themes alike.
    """
    if not isinstance(state, UltimateTicTacToe):  # before a figure is made and left open
        raise ValueError(f"state must be an UltimateTicTacToe position, got "
                         f"{type(state).__name__}.")
    figsize = check_figsize(figsize)
    if pyplot:
        import matplotlib.pyplot as plt  # pyplot only on request: widgets draw off-screen

        fig = plt.figure(figsize=figsize, layout="constrained", facecolor="white")
    else:
        fig = Figure(figsize=figsize, layout="constrained", facecolor="white")
    ax = fig.add_subplot()
    if title == "":
        title = position_title(state) if isinstance(state, UltimateTicTacToe) else None
    draw_uttt(ax, state, highlight_moves, last_move, visits, title=title, **options)
    return fig
