"""Connect Four in numba: the twin of :class:`mctslib.games.connect_four.ConnectFour`.

The engine under the transposition experiments of the chapter "Enhancements
that matter" (:mod:`mctslib.fast.dag_uct`). A position is one int64 array of
:data:`STATE_SIZE` entries that the functions change in place:

==============  =============================================================
``s[X]``        X's discs, the readable game's bit layout (column ``c`` uses
                bits ``7c`` to ``7c + 5``; bit ``7c + 6`` stays empty)
``s[O]``        O's discs
``s[PLAYER]``   the player to move, 0 (X) or 1 (O)
``s[OUTCOME]``  ONGOING, X_WON, O_WON or DRAW
==============  =============================================================

Same rules, same move order (columns ascending) and the same xorshift64 draws
(``moves[below(n)]``) as the readable reference, so a random playout from the
same position and seed ends in the same final position (the tests check it).
:func:`key` is the readable :attr:`~mctslib.games.connect_four.ConnectFour.key`:
one integer below ``2**49`` that identifies the position exactly, so a
transposition table keyed by it never confuses two positions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games.connect_four import BOTTOM, COLUMNS, FULL, HEIGHT, ROWS, ConnectFour
from .xorshift import below

X, O, PLAYER, OUTCOME = 0, 1, 2, 3
STATE_SIZE = 4
ONGOING, X_WON, O_WON, DRAW = -1, 0, 1, 2
_BOTTOM = np.int64(BOTTOM)
_FULL = np.int64(FULL)
_COLUMN_MASK = np.int64((1 << ROWS) - 1)
_TOP = np.array([1 << HEIGHT * col + ROWS - 1 for col in range(COLUMNS)], dtype=np.int64)
_COLUMN_CELLS = np.array([((1 << ROWS) - 1) << HEIGHT * col for col in range(COLUMNS)],
                         dtype=np.int64)
_COLUMN_BOTTOM = np.array([1 << HEIGHT * col for col in range(COLUMNS)], dtype=np.int64)


def to_array(state: ConnectFour) -> np.ndarray:
    """The state array of a readable position."""
    if not isinstance(state, ConnectFour):
        raise ValueError(f"state must be a ConnectFour position, got {type(state).__name__}.")
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[X], s[O] = state.discs
    s[PLAYER] = state.player_to_move
    winner = state.winner()
    s[OUTCOME] = (ONGOING if not state.is_terminal() else DRAW if winner is None
                  else X_WON if winner == 0 else O_WON)
    return s


def from_array(s: np.ndarray) -> ConnectFour:
    """The readable position of a state array (parsed, so an impossible one raises)."""
    x, o = int(s[X]), int(s[O])
    cells = []
    for row in reversed(range(ROWS)):
        for col in range(COLUMNS):
            bit = 1 << HEIGHT * col + row
            cells.append("X" if x & bit else "O" if o & bit else ".")
    return ConnectFour.from_string("".join(cells))


@njit(cache=True)
def has_four(discs):
    """True when the bit mask ``discs`` holds four in a line (the readable test)."""
    for step in (1, 7, 6, 8):
        pairs = discs & (discs >> step)
        if pairs & (pairs >> (2 * step)):
            return True
    return False


@njit(cache=True)
def legal_moves(s, out):
    """Write the playable columns, ascending, to ``out``; return how many (0 when over)."""
    if s[OUTCOME] != ONGOING:
        return 0
    taken = s[X] | s[O]
    n = 0
    for col in range(7):
        if not taken & _TOP[col]:
            out[n] = col
            n += 1
    return n


@njit(cache=True)
def play(s, col):
    """Drop a disc of the player to move in column ``col`` (in place, unchecked)."""
    taken = s[X] | s[O]
    disc = (taken + _COLUMN_BOTTOM[col]) & _COLUMN_CELLS[col]
    player = s[PLAYER]
    own = s[player] | disc
    s[player] = own
    s[PLAYER] = 1 - player
    if has_four(own):
        s[OUTCOME] = player
    elif (taken | disc) == _FULL:
        s[OUTCOME] = DRAW


@njit(cache=True)
def random_playout(s, rng, buf):
    """Uniformly random moves in place until the game ends; return ``s[OUTCOME]``.

    Each move is ``legal_moves[below(count)]``, the draws of the readable
    playout (:func:`mctslib.search.flat.random_playout`) on an ``XorShift64``.
    """
    n = legal_moves(s, buf)
    while n > 0:
        play(s, buf[below(rng, n)])
        n = legal_moves(s, buf)
    return s[OUTCOME]


@njit(cache=True)
def result(s, player):
    """1 for a win of ``player``, 0.5 for a draw, 0 for a loss (the game must be over)."""
    outcome = s[OUTCOME]
    if outcome == DRAW:
        return 0.5
    return 1.0 if outcome == player else 0.0


@njit(cache=True)
def key(s):
    """The readable ``ConnectFour.key``: ``x + (x | o) + BOTTOM``, exact for every position."""
    return s[X] + (s[X] | s[O]) + _BOTTOM


__all__ = ["DRAW", "ONGOING", "OUTCOME", "O_WON", "PLAYER", "STATE_SIZE", "X_WON",
           "from_array", "has_four", "key", "legal_moves", "play", "random_playout", "result",
           "to_array"]
