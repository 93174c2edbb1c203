"""A small policy/value network for Ultimate Tic-Tac-Toe, evaluated in numba (chapter 7).

The chapter "PUCT and Gumbel: search with a learned prior" (chapter 7) trains this
network from the fast UCT bot's self-play (:mod:`mctslib.experiments.puct.network`,
expert iteration after Anthony, Tian and Barber 2017) and calls it from inside
a numba search, as the top CodinGame bots do: no Python call per leaf.

**Features** (:data:`FEATURES_VERSION` 1, :data:`N_FEATURES` = 270 zeros and
ones, from the point of view of the player to move; cells indexed by the
global move ``9 * row + col``, boards ``0..8``):

==============  ==========================================================
``0..80``       the mover's marks
``81..161``     the opponent's marks
``162..170``    small boards the mover has won
``171..179``    small boards the opponent has won
``180..188``    drawn small boards (full, no line)
``189..269``    legal moves (the forced board, or every open board)
==============  ==========================================================

Drawn boards are given because "closed" is not visible from the marks
alone; the legal-move plane tells the network where it may play (so it
encodes the forced board) and is also the mask of the policy head.

**Network**: an MLP, ``x -> h1 = relu(x W1 + b1) [-> h2 = relu(h1 W2 + b2)]``,
then policy logits ``h Wp + bp`` (81, illegal moves set to ``-inf``) and value
``tanh(h wv + bv)`` (the mover's expected result, in [-1, 1]). The second hidden
layer is present when ``W2`` has rows. :func:`forward` computes in float64 in
one fixed order, without BLAS and without fastmath: every output ``y[k]``
starts from its bias and adds ``x[i] * W[i, k]`` for ``i`` ascending, skipping
the inputs that are zero (most features, and the hidden units ReLU cut off).
The loop over ``k`` is the inner one, so the compiler can vectorise it
without reordering any sum. :func:`forward_reference` is the same in plain
Python (the tests compare bit for bit); the float32 JAX forward pass used in
training (:func:`mctslib.experiments.puct.network.jax_forward`) agrees within
1e-5 (the tests).

Cost, measured on the book's 2-core machine (``data/network/README.md``):
features and forward pass of the stored 270-128-(81+1) network about 4 us,
one random playout from the same positions about 0.5 us: a network call
costs about 8 playouts.

Public API: Python ``features_reference(state)``, ``forward_reference(x, weights)``,
``as_weights(arrays)``, ``load_weights(path)``, :class:`Weights`, ``empty_work(weights)``;
compiled ``features(s, out)``, ``features_rows(states, out)``,
``forward(x, w1, b1, w2, b2, wp, bp, wv, bv, h1, h2, logits) -> value``,
``evaluate(s, ..., x, h1, h2, logits) -> value``, ``softmax_legal(logits, moves, n, out)``,
and the timing loops ``evaluate_many`` and ``playout_many``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit

from ..games.uttt import UltimateTicTacToe
from .uttt import (
    BOARD_OF,
    CELL_OF,
    CLOSED,
    FORCED,
    FREE,
    ONGOING,
    OUTCOME,
    PLAYER,
    WON,
    random_playout,
)

FEATURES_VERSION = 1
N_FEATURES = 270
OWN, OPPONENT, OWN_WON, OPPONENT_WON, DRAWN, LEGAL = 0, 81, 162, 171, 180, 189
N_MOVES = 81


class Weights(NamedTuple):
    """The network's arrays (float64, C order): shapes ``w1 (270, H1)``, ``b1 (H1,)``,
    ``w2 (H1, H2)`` and ``b2 (H2,)`` (``(0, 0)`` and ``(0,)`` without a second layer),
    ``wp (H, 81)``, ``bp (81,)``, ``wv (H,)``, ``bv (1,)`` with ``H`` the last hidden size."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    wp: np.ndarray
    bp: np.ndarray
    wv: np.ndarray
    bv: np.ndarray


def as_weights(arrays) -> Weights:
    """A :class:`Weights` of float64 C arrays from a mapping or sequence of the eight arrays.

    Raises ValueError naming the array whose shape does not fit.
    """
    if isinstance(arrays, dict) or hasattr(arrays, "files"):
        arrays = [arrays[name] for name in Weights._fields]
    w = Weights(*(np.ascontiguousarray(a, dtype=np.float64) for a in arrays))
    hidden1 = w.w1.shape[1] if w.w1.ndim == 2 else -1
    top = w.w2.shape[1] if w.w2.ndim == 2 and w.w2.shape[0] else hidden1
    expected = {"w1": (N_FEATURES, hidden1), "b1": (hidden1,),
                "w2": (hidden1, top) if w.w2.size else (0, 0), "b2": (top,) if w.w2.size else (0,),
                "wp": (top, N_MOVES), "bp": (N_MOVES,), "wv": (top,), "bv": (1,)}
    for name, shape in expected.items():
        if getattr(w, name).shape != shape or hidden1 < 1:
            raise ValueError(f"weights {name} must have shape {shape} (270 features, 81 moves, "
                             f"hidden sizes from w1 and w2), got {getattr(w, name).shape}.")
    return w


def load_weights(path) -> Weights:
    """The weights stored by the training command (an .npz with the eight arrays)."""
    path = Path(path)
    try:
        with np.load(path) as f:
            return as_weights({name: f[name] for name in Weights._fields})
    except (OSError, KeyError) as error:
        raise ValueError(f"path {str(path)!r} does not hold network weights ({error}).") from None


def empty_work(weights: Weights) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Work arrays for :func:`evaluate`: features, the two hidden layers, the 81 logits."""
    return (np.zeros(N_FEATURES), np.zeros(weights.b1.shape[0]), np.zeros(weights.b2.shape[0]),
            np.zeros(N_MOVES))


# --- features ----------------------------------------------------------------------


@njit(cache=True)
def features(s, out):
    """Write the 270 features of state array ``s`` into ``out`` (float64, >= 270 long)."""
    for i in range(N_FEATURES):
        out[i] = 0.0
    me = s[PLAYER]
    for move in range(N_MOVES):
        board, cell = np.int64(BOARD_OF[move]), np.int64(CELL_OF[move])
        if (s[9 * me + board] >> cell) & 1:
            out[OWN + move] = 1.0
        elif (s[9 * (1 - me) + board] >> cell) & 1:
            out[OPPONENT + move] = 1.0
        if s[OUTCOME] == ONGOING and (s[FORCED] < 0 or s[FORCED] == board) \
                and (s[FREE + board] >> cell) & 1:
            out[LEGAL + move] = 1.0
    for board in range(9):
        if (s[WON + me] >> board) & 1:
            out[OWN_WON + board] = 1.0
        elif (s[WON + 1 - me] >> board) & 1:
            out[OPPONENT_WON + board] = 1.0
        elif (s[CLOSED] >> board) & 1:
            out[DRAWN + board] = 1.0


@njit(cache=True)
def features_rows(states, out):
    """:func:`features` of every row of ``states`` into the rows of ``out`` (any numeric dtype)."""
    x = np.zeros(N_FEATURES)
    for r in range(states.shape[0]):
        features(states[r], x)
        for i in range(N_FEATURES):
            out[r, i] = x[i]


def features_reference(state: UltimateTicTacToe) -> np.ndarray:
    """The features of a readable position, computed from its own queries (for the tests)."""
    out = np.zeros(N_FEATURES)
    me = state.player_to_move
    marks = (state.x, state.o)
    legal = set(state.legal_moves())
    for row in range(9):
        for col in range(9):
            move, board, cell = 9 * row + col, 3 * (row // 3) + col // 3, 3 * (row % 3) + col % 3
            if marks[me][board] >> cell & 1:
                out[OWN + move] = 1.0
            if marks[1 - me][board] >> cell & 1:
                out[OPPONENT + move] = 1.0
            if move in legal:
                out[LEGAL + move] = 1.0
    for board, status in enumerate(state.board_statuses()):
        if status == "drawn":
            out[DRAWN + board] = 1.0
        elif status != "open":
            out[(OWN_WON if status == "XO"[me] else OPPONENT_WON) + board] = 1.0
    return out


# --- the forward pass -----------------------------------------------------------------


@njit(cache=True)
def _dense_relu(x, w, b, out):
    """``out = relu(b + sum_i x[i] w[i, :])``, inputs ascending, zero inputs skipped."""
    n = out.shape[0]
    for k in range(n):
        out[k] = b[k]
    for i in range(w.shape[0]):
        xi = x[i]
        if xi != 0.0:
            for k in range(n):
                out[k] += xi * w[i, k]
    for k in range(n):
        if not out[k] > 0.0:
            out[k] = 0.0


@njit(cache=True)
def forward(x, w1, b1, w2, b2, wp, bp, wv, bv, h1, h2, logits):
    """The network on features ``x``: fill ``logits`` (81; -inf where illegal), return the value.

    ``h1`` and ``h2`` are work arrays of the hidden sizes (``h2`` empty without a
    second layer). Allocation-free; the order of every sum is fixed (see the module).
    """
    _dense_relu(x, w1, b1, h1)
    top = h1
    if w2.shape[0] > 0:
        _dense_relu(h1, w2, b2, h2)
        top = h2
    for k in range(N_MOVES):
        logits[k] = bp[k]
    value = bv[0]
    for i in range(top.shape[0]):
        hi = top[i]
        if hi != 0.0:
            for k in range(N_MOVES):
                logits[k] += hi * wp[i, k]
            value += hi * wv[i]
    for k in range(N_MOVES):
        if x[LEGAL + k] == 0.0:
            logits[k] = -np.inf
    return math.tanh(value)


@njit(cache=True)
def evaluate(s, w1, b1, w2, b2, wp, bp, wv, bv, x, h1, h2, logits):
    """Features of state ``s`` into ``x``, then :func:`forward`; returns the mover's value."""
    features(s, x)
    return forward(x, w1, b1, w2, b2, wp, bp, wv, bv, h1, h2, logits)


@njit(cache=True)
def softmax_legal(logits, moves, n, out):
    """Prior probabilities of the ``n`` moves ``moves[:n]`` into ``out[:n]`` (softmax, fixed order)."""
    top = -np.inf
    for j in range(n):
        top = max(top, logits[moves[j]])
    total = 0.0
    for j in range(n):
        out[j] = math.exp(logits[moves[j]] - top)
        total += out[j]
    for j in range(n):
        out[j] /= total


def forward_reference(x, weights: Weights) -> tuple[float, list[float]]:
    """:func:`forward` in plain Python floats, the same operations in the same order."""
    def dense_relu(inputs, w, b):
        out = [float(v) for v in b]
        for i, xi in enumerate(inputs):
            if xi != 0.0:
                for k in range(len(out)):
                    out[k] += xi * float(w[i, k])
        return [max(0.0, v) for v in out]

    top = dense_relu([float(v) for v in x], weights.w1, weights.b1)
    if weights.w2.shape[0] > 0:
        top = dense_relu(top, weights.w2, weights.b2)
    logits = [float(v) for v in weights.bp]
    value = float(weights.bv[0])
    for i, hi in enumerate(top):
        if hi != 0.0:
            for k in range(N_MOVES):
                logits[k] += hi * float(weights.wp[i, k])
            value += hi * float(weights.wv[i])
    logits = [v if x[LEGAL + k] != 0.0 else -math.inf for k, v in enumerate(logits)]
    return math.tanh(value), logits


# --- timing loops (the cost of a network call in playouts) ------------------------------


@njit(cache=True)
def evaluate_many(states, repeats, w1, b1, w2, b2, wp, bp, wv, bv, x, h1, h2, logits):
    """Evaluate every row of ``states`` ``repeats`` times; return the sum of the values."""
    total = 0.0
    for _ in range(repeats):
        for r in range(states.shape[0]):
            total += evaluate(states[r], w1, b1, w2, b2, wp, bp, wv, bv, x, h1, h2, logits)
    return total


@njit(cache=True)
def playout_many(states, repeats, rng, scratch):
    """One random playout from every row of ``states``, ``repeats`` times; return the outcomes' sum."""
    total = 0
    for _ in range(repeats):
        for r in range(states.shape[0]):
            scratch[:] = states[r]
            total += random_playout(scratch, rng)
    return total
