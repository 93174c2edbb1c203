"""A hand-written evaluation of Ultimate Tic-Tac-Toe positions, for the alpha-beta baseline.

Alpha-beta (:mod:`mctslib.search.alphabeta`) needs a number for a position
where it stops looking ahead; MCTS gets its number from random playouts
instead. This is the evaluation of the chapter "Enhancements and failure
modes", written to be read; :func:`mctslib.fast.uttt_alphabeta.evaluate` is the
compiled twin (same integer for every position: the tests compare them).

For each player, in points:

=====================  =========================================================  ======
term                   what counts                                                weight
=====================  =========================================================  ======
won board              each small board the player has won, times the board's     25
                       weight (centre 4, corners 3, edges 2): 100, 75 or 50
big-board threat       each open board whose win would complete a line of the     60
                       player's won boards (two in a row on the big board)
small-board threat     each free cell that would win an open small board for the  4
                       player (two in a row inside it), times the board's weight
centre cell            the player's mark on the centre cell of an open board      3
=====================  =========================================================  ======

The evaluation is the side to move's points minus the opponent's, plus 20
(``FREE_CHOICE``) when the side to move may play in any open board (being
sent to a free choice is an advantage: the opponent did not get to pick).
All integers, so the readable and the compiled evaluation agree exactly.
The five weights can be given (``weights``, in the order of
:data:`DEFAULT_WEIGHTS`: won board, big-board threat, small-board threat,
centre cell, free choice); the bot's SPEC key ``eval`` sets them.

The weights were set by hand, by the order of what a won board, an open
line and a threat are worth to a human player; a won board is worth more
than a threat, a big-board threat more than a small-board one.
"""

from __future__ import annotations

from .._checks import check_int
from ..games.tictactoe import FULL, LINES
from ..games.uttt import UltimateTicTacToe

__all__ = ["BIG_THREAT", "BOARD_WEIGHT", "CENTRE_CELL", "DEFAULT_WEIGHTS", "FREE_CHOICE",
           "SMALL_THREAT", "WON_BOARD", "check_weights", "evaluate", "winning_cells"]

#: Weight of each small board by its place in the big board: centre 4, corners 3, edges 2.
BOARD_WEIGHT = (3, 2, 3, 2, 4, 2, 3, 2, 3)
WON_BOARD = 25
BIG_THREAT = 60
SMALL_THREAT = 4
CENTRE_CELL = 3
FREE_CHOICE = 20
#: The five weights in the order the ``weights`` arguments take them.
DEFAULT_WEIGHTS = (WON_BOARD, BIG_THREAT, SMALL_THREAT, CENTRE_CELL, FREE_CHOICE)
#: The largest weight allowed: scores stay far below a proven win's 999,000.
MAX_WEIGHT = 1000


def check_weights(weights) -> tuple:
    """Return ``weights`` as a tuple of five ints, or raise ValueError naming what is wrong."""
    try:
        values = tuple(weights)
    except TypeError:
        values = None
    if values is None or len(values) != 5:
        raise ValueError(f"weights must be five whole numbers (won board, big-board threat, "
                         f"small-board threat, centre cell, free choice), got {weights!r:.80}.")
    names = ("won board", "big-board threat", "small-board threat", "centre cell", "free choice")
    return tuple(check_int(f"weight of the {name}", value, -MAX_WEIGHT, MAX_WEIGHT)
                 for name, value in zip(names, values))


def winning_cells(marks: int, empty: int) -> int:
    """Mask of the cells of ``empty`` that would complete a line with ``marks`` (9-bit masks).

    Works for a small board (cells) and for the big board (boards): a line
    with two of its three bits in ``marks`` and the third in ``empty``.
    """
    cells = 0
    for line in LINES:
        missing = line & ~marks
        if missing.bit_count() == 1 and missing & empty:
            cells |= missing
    return cells


def _points(state: UltimateTicTacToe, player: int, weights) -> int:
    """The evaluation's terms for ``player`` (see the module docstring)."""
    won_board, big_threat, small_threat, centre_cell, _ = weights
    won = state.won_mask(player)
    open_boards = FULL & ~state.closed_mask
    marks_of = state.x if player == 0 else state.o
    points = sum(won_board * BOARD_WEIGHT[board] for board in range(9) if won >> board & 1)
    points += big_threat * winning_cells(won, open_boards).bit_count()
    for board in range(9):
        if not open_boards >> board & 1:
            continue
        marks = marks_of[board]
        empty = FULL & ~(state.x[board] | state.o[board])
        points += small_threat * BOARD_WEIGHT[board] * winning_cells(marks, empty).bit_count()
        if marks >> 4 & 1:
            points += centre_cell
    return points


def evaluate(state: UltimateTicTacToe, weights=DEFAULT_WEIGHTS) -> int:
    """Score of a position still on for its side to move (an int; larger is better).

    The side to move's points minus the opponent's, plus ``FREE_CHOICE`` on a
    free choice; see the module docstring for the terms and ``weights``
    (default :data:`DEFAULT_WEIGHTS`). Raises ValueError
    for a finished game (the search scores those as wins, losses and draws).
    Chapter "Enhancements and failure modes".
    """
    if not isinstance(state, UltimateTicTacToe):
        raise ValueError(f"state must be an UltimateTicTacToe position, got "
                         f"{type(state).__name__}.")
    if state.is_terminal():
        raise ValueError("evaluate scores positions still on; this game is over.")
    if weights is not DEFAULT_WEIGHTS:
        weights = check_weights(weights)
    me = state.player_to_move
    value = _points(state, me, weights) - _points(state, 1 - me, weights)
    if state.forced_board is None:
        value += weights[4]
    return value
