"""Alpha-beta search for Ultimate Tic-Tac-Toe in numba: the engine of the alpha-beta baseline.

The chapter "Enhancements and failure modes" sets the MCTS bot against a
classical opponent: negamax alpha-beta (Knuth & Moore 1975) with iterative
deepening and a hand-written evaluation. This module is the compiled twin of
the readable :func:`mctslib.search.alphabeta.alphabeta` with the evaluation of
:func:`mctslib.search.uttt_evaluation.evaluate`: same move order, same
scores, same best move and, with the same order, the same node counts (the
tests check it on random positions).

The search
----------
* **Negamax, fail-soft**: a node returns the best value it found even when
  that falls outside the window ``(alpha, beta)``; the root is searched with
  the full window, so the root value is exact for the depth searched.
* **Scores** are integers for the side to move: a won game is
  ``WIN_SCORE - ply`` (a quicker win scores higher, a slower loss less
  badly), a lost one its negative, a draw 0; a position at the depth limit
  gets :func:`evaluate`. Any ``|value| >= PROVEN`` is a proven result.
* **Iterative deepening** 1, 2, ... up to ``max_depth``: each iteration tries
  the previous one's best move first. It stops early on a proven result, or
  once an iteration met no depth limit (every line reached the end of the
  game: the value is exact).
* **Move ordering** (``ordering=True``): the previous iteration's best move at
  the root, then two killer moves per ply (the last moves that caused a beta
  cut-off at that ply), then the history heuristic (a move's sum of
  ``depth * depth`` over its cut-offs), ties in ascending move order (a stable
  sort). Killers and history are kept across the iterations of one search.
  ``ordering=False`` searches the moves in ascending order: the measured
  difference is in ``benchmarks/alphabeta_speed.py``.
* **Time**: every :data:`CLOCK_EVERY` nodes the search reads the clock
  that ``time.perf_counter_ns()`` reads (Linux's ``CLOCK_MONOTONIC``,
  through :func:`monotonic_ns`, a direct call of the C library's
  ``clock_gettime``) and gives up the iteration once ``deadline_ns`` has
  passed. A timer thread setting a stop flag instead was measured waking
  8-19 ms late on the loaded 2-core machine. (``numba.objmode`` around
  ``time.perf_counter()`` was tried first and dropped after a crash on
  loading from numba's cache, a crash later traced to the compiled caller
  of the recursion, see :func:`search`; objmode itself was not shown at
  fault.) A node budget ``max_nodes`` stops the same way without a
  clock (reproducible). The answer is the best move of the last complete
  iteration; depth 1 is never interrupted, so there is always a legal move.

Work arrays (see :func:`new_workspace`): ``stack[ply]`` holds the position
at each ply, ``moves[ply]`` / ``keys[ply]`` its moves and their order keys,
``killers[ply]`` two moves, ``history[move]`` the history score, ``info``
the counters (:data:`NODES`, :data:`ABORTED`, ...).
"""

from __future__ import annotations

import time

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from .bits import popcount
from .uttt import (
    CLOSED,
    COMPLETES,
    FORCED,
    FREE,
    FULL,
    ONGOING,
    OUTCOME,
    PLAYER,
    STATE_SIZE,
    WON,
    legal_moves,
    play,
    winner,
)

# --- scores and weights (the readable evaluation documents what they mean) -------------
#: A won game is worth WIN_SCORE minus the plies to reach it.
WIN_SCORE = 1_000_000
#: Values at least this large (in size) are proven wins or losses.
PROVEN = WIN_SCORE - 1000
#: Larger than every score: the window of a root search.
INFINITY = 10_000_000
#: Weight of each small board by its place in the big board: centre 4, corners 3, edges 2.
BOARD_WEIGHT = np.array([3, 2, 3, 2, 4, 2, 3, 2, 3], dtype=np.int64)
#: The evaluation's weights, in the order of ``weights`` arrays (see
#: :mod:`mctslib.search.uttt_evaluation`): a won small board (times the board's
#: weight), an open board that would complete a line of one's won boards, a free
#: cell that would win an open small board (times the board's weight), one's mark
#: on the centre cell of an open board, a free choice for the side to move.
WON_BOARD, BIG_THREAT, SMALL_THREAT, CENTRE_CELL, FREE_CHOICE = 0, 1, 2, 3, 4
DEFAULT_WEIGHTS = (25, 60, 4, 3, 20)
#: WEIGHT_SUM[mask]: the summed board weights of the boards in a 9-bit mask.
WEIGHT_SUM = np.array([sum(int(BOARD_WEIGHT[b]) for b in range(9) if mask >> b & 1)
                       for mask in range(512)], dtype=np.int64)


def weights_array(weights=DEFAULT_WEIGHTS) -> np.ndarray:
    """The five weights as the int64 array the compiled functions take."""
    return np.array(weights, dtype=np.int64)

# --- work arrays -------------------------------------------------------------------------
#: Plies of the deepest line: a game has at most 81 moves.
MAX_PLY = 82
#: How often (in nodes) a timed search reads the clock (about 0.2 ms of search).
CLOCK_EVERY = 1024
#: Entries of ``info``.
NODES, ABORTED, CAN_ABORT, MAX_NODES, LEAVES_CUT, INFO_SIZE = 0, 1, 2, 3, 4, 5
#: A node budget that never runs out, and a deadline that never comes.
NO_NODE_LIMIT = NO_DEADLINE = 2**62
_CLOCK_MONOTONIC = 1  # Linux's clock id, the clock of time.perf_counter_ns()


@intrinsic
def monotonic_ns(typingctx):
    """Nanoseconds of ``CLOCK_MONOTONIC`` (``time.perf_counter_ns()``), callable in compiled code.

    Emits a call of the C library's ``clock_gettime``, found by name when the
    code is loaded, so functions calling it can be cached on disk (Linux).
    """
    def codegen(context, builder, signature, args):
        i64, i32 = ir.IntType(64), ir.IntType(32)
        timespec = ir.LiteralStructType([i64, i64])
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i32, [i32, timespec.as_pointer()]), "clock_gettime")
        spec = cgutils.alloca_once(builder, timespec)
        builder.call(function, [ir.Constant(i32, _CLOCK_MONOTONIC), spec])
        zero = ir.Constant(i32, 0)
        seconds = builder.load(builder.gep(spec, [zero, zero]))
        nanoseconds = builder.load(builder.gep(spec, [zero, ir.Constant(i32, 1)]))
        return builder.add(builder.mul(seconds, ir.Constant(i64, 1_000_000_000)), nanoseconds)
    return types.int64(), codegen


@njit(cache=True)
def clock_ns():
    """:func:`monotonic_ns` from Python (the tests compare it with ``time.perf_counter_ns()``)."""
    return monotonic_ns()
#: Order key of the previous best move and of the two killers (above any history score).
_PV_KEY, _KILLER_KEY = 1 << 62, 1 << 61


def new_workspace():
    """Fresh work arrays ``(stack, moves, keys, killers, history, info)`` for :func:`search`."""
    return (np.zeros((MAX_PLY + 1, STATE_SIZE), dtype=np.int64),
            np.zeros((MAX_PLY + 1, 81), dtype=np.int64),
            np.zeros((MAX_PLY + 1, 81), dtype=np.int64),
            np.full((MAX_PLY + 1, 2), -1, dtype=np.int64),
            np.zeros(81, dtype=np.int64),
            np.zeros(INFO_SIZE, dtype=np.int64))


@njit(cache=True)
def _side_value(s, player, weights):
    """The evaluation's terms for ``player`` (see :func:`evaluate`)."""
    won = s[WON + player]
    open_boards = FULL & ~s[CLOSED]
    value = (weights[WON_BOARD] * WEIGHT_SUM[won & FULL]
             + weights[BIG_THREAT] * popcount(np.int64(COMPLETES[won & FULL]) & open_boards))
    for board in range(9):
        free = s[FREE + board]
        if free != 0:  # an open board
            marks = s[9 * player + board]
            value += (weights[SMALL_THREAT] * BOARD_WEIGHT[board]
                      * popcount(np.int64(COMPLETES[marks & FULL]) & free))
            value += weights[CENTRE_CELL] * ((marks >> 4) & 1)
    return value


@njit(cache=True)
def evaluate(s, weights):
    """The hand-written evaluation of a position still on, for the side to move (an int).

    Same terms and weights as :func:`mctslib.search.uttt_evaluation.evaluate`
    (documented there); the tests check equality on random positions.
    """
    me = s[PLAYER]
    value = _side_value(s, me, weights) - _side_value(s, 1 - me, weights)
    if s[FORCED] < 0:
        value += weights[FREE_CHOICE]
    return value


@njit(cache=True)
def terminal_value(s, scoring, ply):
    """Score of a finished game for the side that would move next, ``ply`` plies from the root."""
    won_by = winner(s, scoring)
    if won_by < 0:
        return 0
    return WIN_SCORE - ply if won_by == s[PLAYER] else -(WIN_SCORE - ply)


@njit(cache=True)
def _order(ply, count, pv_move, moves, keys, killers, history):
    """Sort ``moves[ply, :count]`` by key, highest first, ties kept in ascending order."""
    for i in range(count):
        move = moves[ply, i]
        if move == pv_move:
            key = _PV_KEY
        elif move == killers[ply, 0]:
            key = _KILLER_KEY + 1
        elif move == killers[ply, 1]:
            key = _KILLER_KEY
        else:
            key = history[move]
        # insertion sort (stable): move the new entry left past smaller keys only
        j = i
        while j > 0 and keys[ply, j - 1] < key:
            moves[ply, j] = moves[ply, j - 1]
            keys[ply, j] = keys[ply, j - 1]
            j -= 1
        moves[ply, j] = move
        keys[ply, j] = key


@njit(cache=True, nogil=True)
def _negamax(ply, depth, alpha, beta, pv_move, ordering, scoring, deadline_ns, weights,
             stack, moves, keys, killers, history, info):
    """Fail-soft negamax value of ``stack[ply]`` searched ``depth`` plies deep.

    Returns 0 with ``info[ABORTED]`` set when the budget ran out (the caller
    then discards the iteration). At the root (``ply == 0``) the best move is
    left in ``moves[MAX_PLY, 0]``.
    """
    info[NODES] += 1
    if info[CAN_ABORT] != 0:
        if info[NODES] >= info[MAX_NODES] or (info[NODES] % CLOCK_EVERY == 0
                                                and monotonic_ns() >= deadline_ns):
            info[ABORTED] = 1
        if info[ABORTED] != 0:
            return 0
    s = stack[ply]
    if s[OUTCOME] != ONGOING:
        return terminal_value(s, scoring, ply)
    if depth == 0:
        info[LEAVES_CUT] += 1
        return evaluate(s, weights)
    count = legal_moves(s, moves[ply])
    if ordering:
        _order(ply, count, pv_move if ply == 0 else -1, moves, keys, killers, history)
    best = -INFINITY
    child = stack[ply + 1]
    for i in range(count):
        move = moves[ply, i]
        child[:] = s
        play(child, move)
        value = -_negamax(ply + 1, depth - 1, -beta, -alpha, pv_move, ordering, scoring,
                          deadline_ns, weights, stack, moves, keys, killers, history, info)
        if info[ABORTED] != 0:
            return 0
        if value > best:
            best = value
            if ply == 0:
                moves[MAX_PLY, 0] = move
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    if ordering:
                        if killers[ply, 0] != move:
                            killers[ply, 1] = killers[ply, 0]
                            killers[ply, 0] = move
                        history[move] += depth * depth
                    break
    return best


def search(s, max_depth, max_nodes, deadline_ns, scoring, ordering, weights,
           stack, moves, keys, killers, history, info, out):
    """Iterative deepening from position ``s`` (a game still on); results in ``out``.

    ``out`` (int64, 4 entries) receives the best move, its value for the side
    to move, the last depth completed and the nodes searched (all
    iterations, the interrupted one included); the best move is returned.
    ``max_depth`` >= 1; ``max_nodes`` a node budget (:data:`NO_NODE_LIMIT`
    for none); ``deadline_ns`` a ``time.perf_counter_ns()`` reading
    (:data:`NO_DEADLINE` for none); ``weights`` the evaluation's weights
    (:func:`weights_array`). Killers and history start empty.

    The loop over depths is Python (a few calls per move): a compiled caller
    of the recursive :func:`_negamax` crashed when loaded from numba's
    on-disk cache (numba 0.68), while :func:`_negamax` itself loads fine.
    """
    killers[:, :] = -1
    history[:] = 0
    info[:] = 0
    info[MAX_NODES] = max_nodes
    stack[0, :] = s
    best_move, best_value, done = -1, 0, 0
    for depth in range(1, max_depth + 1):
        if depth > 1 and time.perf_counter_ns() >= deadline_ns:
            break  # no time for another iteration
        info[CAN_ABORT] = 1 if depth > 1 else 0
        info[LEAVES_CUT] = 0
        value = int(_negamax(0, depth, -INFINITY, INFINITY, best_move, ordering, scoring,
                             deadline_ns, weights, stack, moves, keys, killers, history, info))
        if info[ABORTED] != 0:
            break
        best_move, best_value, done = int(moves[MAX_PLY, 0]), value, depth
        if abs(value) >= PROVEN or info[LEAVES_CUT] == 0:
            break  # a proven result, or every line reached the end of the game: exact
    out[0], out[1], out[2], out[3] = best_move, best_value, done, info[NODES]
    return best_move



def timed_search(s, max_depth, max_nodes, seconds, scoring, ordering, weights, workspace, out):
    """:func:`search` for at most ``seconds`` from now (None: no clock); returns the best move."""
    deadline = NO_DEADLINE if seconds is None else time.perf_counter_ns() + int(seconds * 1e9)
    return search(s, max_depth, max_nodes, deadline, scoring, ordering, weights, *workspace, out)
