"""Hex in numba: the twin of :class:`mctslib.games.hex.Hex` for the RAVE measurements.

The engine of the chapter "Enhancements that matter", where RAVE and GRAVE
are measured on Hex. Same rules, same move numbering (``size * row + col``),
same move order (ascending empty cells) and the same xorshift64 draws
(``moves[below(n)]``) as the readable reference, so a random playout from the
same position and seed ends in the same final position; the tests check it
game by game.

A position is one int64 array (layout below) that the functions read and
change in place; a search copies it into a preallocated scratch array. The
win check is incremental: a union-find over the cells plus four virtual edge
nodes (top, bottom, left, right). A stone is joined to its own neighbours
and, on a border, to the edge nodes of its player; player 0 (X) has won when
top and bottom share a root, player 1 (O) when left and right do. Each move
costs a few finds instead of the readable version's flood fill.

Layout of a state array ``s`` (int64) for a board of ``n = size * size`` cells:

=========================  ===================================================
``s[SIZE]``                cells per side
``s[PLAYER]``              the player to move, 0 or 1 (flips after every move,
                           the last one too)
``s[OUTCOME]``             ONGOING (-1), or the winner 0 / 1
``s[EMPTY]``               number of empty cells
``s[CELLS + i]``           0 empty, 1 X, 2 O, for cell ``i``
``s[CELLS + n + j]``       union-find parent of node ``j`` (cells ``0 .. n - 1``,
                           then the edges TOP, BOTTOM, LEFT, RIGHT)
``s[CELLS + 2n + 4 + k]``  the ``k``-th empty cell, ascending (``k < s[EMPTY]``),
                           so a random move is one look-up
=========================  ===================================================

Public API (jit-compiled unless marked Python): ``to_array(state)`` (Python),
``from_array(s)`` (Python), ``new_state(size)`` (Python), ``legal_moves(s, out)
-> count``, ``play(s, move)`` (in place, unchecked), ``random_move(s, rng)``,
``random_playout(s, rng)``, ``result(s, player)`` (1.0 / 0.0). Sizes 2 to
:data:`MAX_FAST_SIZE`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._checks import check_int
from ..games.hex import MIN_SIZE, Hex
from .xorshift import below

SIZE, PLAYER, OUTCOME, EMPTY = 0, 1, 2, 3
CELLS = 4
ONGOING = -1
#: Largest board the fast engine takes (121 cells; the chapter plays 7 x 7).
MAX_FAST_SIZE = 11
#: Most moves of a game on the largest board (work arrays are this long).
MAX_MOVES = MAX_FAST_SIZE * MAX_FAST_SIZE
_DR = np.array([0, 0, -1, 1, -1, 1], dtype=np.int64)
_DC = np.array([-1, 1, 0, 0, 1, -1], dtype=np.int64)


def state_size(size: int) -> int:
    """Length of the state array of a ``size`` x ``size`` board."""
    return CELLS + 3 * size * size + 4


def new_state(size: int = 7) -> np.ndarray:
    """The empty board as a state array (sizes 2 to :data:`MAX_FAST_SIZE`)."""
    size = check_int("size", size, MIN_SIZE, MAX_FAST_SIZE)
    n = size * size
    s = np.zeros(state_size(size), dtype=np.int64)
    s[SIZE], s[PLAYER], s[OUTCOME], s[EMPTY] = size, 0, ONGOING, n
    s[CELLS + n:CELLS + 2 * n + 4] = np.arange(n + 4)
    s[CELLS + 2 * n + 4:] = np.arange(n)
    return s


def to_array(state: Hex) -> np.ndarray:
    """The state array of a readable :class:`~mctslib.games.hex.Hex` position."""
    if not isinstance(state, Hex):
        raise ValueError(f"state must be a Hex position, got {type(state).__name__}.")
    size = check_int("size", state.size, MIN_SIZE, MAX_FAST_SIZE)
    s = new_state(size)
    for move in range(size * size):
        mark = state.cell(move // size, move % size)
        if mark != ".":
            _put(s, move, 0 if mark == "X" else 1)
    s[PLAYER] = state.player_to_move
    s[OUTCOME] = ONGOING if state.winner() is None else state.winner()
    return s


def from_array(s: np.ndarray) -> Hex:
    """The readable position of a state array."""
    size = int(s[SIZE])
    grid = "".join(".XO"[int(v)] for v in s[CELLS:CELLS + size * size])
    return Hex.from_string(grid)


@njit(cache=True)
def _find(s, base, j):
    """Root of node ``j`` (path halving)."""
    while s[base + j] != j:
        s[base + j] = s[base + s[base + j]]
        j = s[base + j]
    return j


@njit(cache=True)
def _union(s, base, a, b):
    ra, rb = _find(s, base, a), _find(s, base, b)
    if ra != rb:
        if ra < rb:
            s[base + rb] = ra
        else:
            s[base + ra] = rb


@njit(cache=True)
def _put(s, move, player):
    """Place ``player``'s stone on ``move`` and join it to its groups and edges."""
    size = s[SIZE]
    n = size * size
    base = CELLS + n
    s[CELLS + move] = player + 1
    # Remove the cell from the ascending list of empty cells: binary search, then shift.
    first = CELLS + 2 * n + 4
    low, high = first, first + s[EMPTY] - 1
    while low < high:
        middle = (low + high) >> 1
        if s[middle] < move:
            low = middle + 1
        else:
            high = middle
    last = first + s[EMPTY] - 1
    for i in range(low, last):
        s[i] = s[i + 1]
    s[EMPTY] -= 1
    row, col = move // size, move % size
    if player == 0:
        if row == 0:
            _union(s, base, move, n)
        if row == size - 1:
            _union(s, base, move, n + 1)
    else:
        if col == 0:
            _union(s, base, move, n + 2)
        if col == size - 1:
            _union(s, base, move, n + 3)
    for k in range(6):
        r, c = row + _DR[k], col + _DC[k]
        if 0 <= r < size and 0 <= c < size and s[CELLS + r * size + c] == player + 1:
            _union(s, base, move, r * size + c)
    if player == 0:
        return _find(s, base, n) == _find(s, base, n + 1)
    return _find(s, base, n + 2) == _find(s, base, n + 3)


@njit(cache=True)
def play(s, move):
    """Play ``move`` (an empty cell) for the player to move, in place; legality is not checked."""
    player = s[PLAYER]
    if _put(s, move, player):
        s[OUTCOME] = player
    s[PLAYER] = 1 - player


@njit(cache=True)
def legal_moves(s, out):
    """Write the empty cells in ascending order into ``out``; return their count (0 once won)."""
    if s[OUTCOME] != ONGOING:
        return 0
    first = CELLS + 2 * s[SIZE] * s[SIZE] + 4
    count = s[EMPTY]
    for k in range(count):
        out[k] = s[first + k]
    return count


@njit(cache=True)
def random_move(s, rng):
    """``legal moves[below(count)]`` without building the list (the game must be on)."""
    return s[CELLS + 2 * s[SIZE] * s[SIZE] + 4 + below(rng, s[EMPTY])]


@njit(cache=True)
def random_playout(s, rng):
    """Random moves in place until someone wins; returns the winner."""
    while s[OUTCOME] == ONGOING:
        play(s, random_move(s, rng))
    return s[OUTCOME]


@njit(cache=True)
def result(s, player):
    """1.0 if ``player`` has won the finished game ``s``, else 0.0 (Hex has no draws)."""
    return 1.0 if s[OUTCOME] == player else 0.0
