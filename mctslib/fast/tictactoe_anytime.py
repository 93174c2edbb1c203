"""Anytime tic-tac-toe searches in numba: one run per seed, the answer at every checkpoint.

Chapter 4's closing figure asks how often a search picks a minimax-correct
move *as a function of the budget*, and the convergence atlas asks from which
budget UCT's answer stops changing. Running a fresh search for every budget
would cost the sum of the budgets; here one run to the largest budget records
its answer each time the iteration (or round) count reaches a checkpoint.
Recording reads the statistics and draws no random number, so the answer
at checkpoint ``B`` is exactly the answer of a fresh search with budget ``B``
and the same seed.

Three searches, each the twin of a readable one on the same xorshift64 stream
(same draws, same order of operations):

- :func:`uct_anytime_seeds` with ``max_depth`` = :data:`NO_DEPTH_LIMIT` is
  :class:`mctslib.search.uct.UCTSearch` (and the harness kernel
  :func:`mctslib.fast.tictactoe_uct.search`); with ``max_depth=1`` it is
  ``UCTSearch(..., max_depth=1)``, *flat UCB*.
- :func:`flat_mc_anytime_seeds` is flat Monte Carlo
  (:func:`mctslib.search.flat.flat_monte_carlo`: rounds of one playout per
  move in move order, best mean, first move on ties) drawing from xorshift64
  instead of numpy's generator; its readable twin on that stream is
  :func:`mctslib.experiments.uct.running_example.flat_monte_carlo_choice`.

The kernels release the GIL (``nogil=True``), so the experiments spread
positions over threads without copying anything.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from numba import njit

from .._checks import check_int, check_real, shown
from ..games.tictactoe import TicTacToe
from ..xorshift import XorShift64
from .tictactoe_uct import DRAW, GAME_TREE_NODES, ONGOING, play, popcount, random_cell, status
from .xorshift import shuffle_prefix

#: ``max_depth`` meaning "no limit": a tic-tac-toe tree is at most 9 moves deep.
NO_DEPTH_LIMIT = 99
#: The largest checkpoint: two hundred million iterations take minutes per seed.
MAX_BUDGET = 200_000_000
#: The most checkpoints one run records.
MAX_CHECKPOINTS = 10_000
#: The most seeds one call runs (the answers table has one row per seed).
MAX_SEEDS = 1_000_000


@njit(cache=True, nogil=True)
def _uct_anytime(x, o, c, max_depth, checkpoints, rng, move, first_child, child_count, visits,
                 wins, answers):
    """UCT from (x, o); ``answers[k]`` = the robust child's move after ``checkpoints[k]`` iterations.

    The iteration is line for line the harness kernel's (selection by UCB1,
    first unvisited child first; expansion of a node visited before, or the
    root, with a Fisher-Yates shuffle; random playout; backpropagation with
    the reward flipped at every level), plus the readable search's depth
    limit: a node at depth ``max_depth`` or deeper is never expanded.
    """
    count = 1  # node 0 is the root
    first_child[0] = 0
    child_count[0] = 0
    visits[0] = 0
    wins[0] = 0.0
    path = np.empty(11, dtype=np.int64)
    cells = np.empty(9, dtype=np.int64)
    k = 0
    last = checkpoints[checkpoints.size - 1]
    for iteration in range(1, last + 1):
        node, bx, bo, depth = 0, x, o, 1
        path[0] = 0
        while child_count[node] > 0:  # selection
            log_parent = math.log(visits[node])
            best, best_score = -1, -math.inf
            for child in range(first_child[node], first_child[node] + child_count[node]):
                if visits[child] == 0:
                    best = child
                    break
                score = wins[child] / visits[child] + c * math.sqrt(log_parent / visits[child])
                if score > best_score:
                    best, best_score = child, score
            node = best
            bx, bo = play(bx, bo, move[node])
            path[depth] = node
            depth += 1
        # expansion; depth - 1 is the node's depth in the tree (root 0), as Node.depth
        if status(bx, bo) == ONGOING and (visits[node] > 0 or node == 0) and depth - 1 < max_depth:
            free = 0x1FF & ~(bx | bo)
            n = 0
            for cell in range(9):
                if (free >> cell) & 1:
                    cells[n] = cell
                    n += 1
            shuffle_prefix(cells, n, rng)
            first_child[node] = count
            child_count[node] = n
            for m in range(n):
                move[count + m] = cells[m]
                child_count[count + m] = 0
                visits[count + m] = 0
                wins[count + m] = 0.0
            node = count
            count += n
            bx, bo = play(bx, bo, move[node])
            path[depth] = node
            depth += 1
        mover = (popcount(bx | bo) + 1) % 2  # who made the last move on the path
        result = status(bx, bo)
        while result == ONGOING:  # simulation
            bx, bo = play(bx, bo, random_cell(bx, bo, rng))
            result = status(bx, bo)
        reward = 0.5 if result == DRAW else (1.0 if result == mover else 0.0)
        for d in range(depth - 1, -1, -1):  # backpropagation
            visits[path[d]] += 1
            wins[path[d]] += reward
            reward = 1.0 - reward
        while k < checkpoints.size and checkpoints[k] == iteration:  # record, draw nothing
            best = first_child[0]
            for child in range(first_child[0] + 1, first_child[0] + child_count[0]):
                if visits[child] > visits[best]:
                    best = child
            answers[k] = move[best]
            k += 1


@njit(cache=True, nogil=True)
def uct_anytime_seeds(x, o, c, max_depth, checkpoints, seed_states, capacity, answers):
    """One UCT run per seed; ``answers[s, k]`` = its move after ``checkpoints[k]`` iterations.

    ``seed_states[s]`` is the xorshift64 state ``XorShift64(seed).state``; the
    node arrays (``capacity`` nodes) are allocated once and reused by every seed.
    """
    move = np.empty(capacity, dtype=np.int64)
    first_child = np.empty(capacity, dtype=np.int64)
    child_count = np.empty(capacity, dtype=np.int64)
    visits = np.empty(capacity, dtype=np.int64)
    wins = np.empty(capacity, dtype=np.float64)
    rng = np.empty(1, dtype=np.uint64)
    for s in range(seed_states.size):
        rng[0] = seed_states[s]
        _uct_anytime(x, o, c, max_depth, checkpoints, rng, move, first_child, child_count,
                     visits, wins, answers[s])


@njit(cache=True, nogil=True)
def flat_mc_anytime_seeds(x, o, checkpoints, seed_states, answers):
    """Flat Monte Carlo per seed; ``answers[s, k]`` = its move after ``checkpoints[k]`` rounds.

    A round gives each legal move (free cells ascending, the order of
    ``TicTacToe.legal_moves``) one random playout, scored for the player to
    move in (x, o) in half points (win 2, draw 1, loss 0). With equal counts
    the highest total is the highest mean, and the first strictly greater
    total keeps ties with the first move, as ``flat_monte_carlo`` does.
    """
    player = popcount(x | o) % 2
    free = 0x1FF & ~(x | o)
    cells = np.empty(9, dtype=np.int64)
    n = 0
    for cell in range(9):
        if (free >> cell) & 1:
            cells[n] = cell
            n += 1
    totals = np.empty(9, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    last = checkpoints[checkpoints.size - 1]
    for s in range(seed_states.size):
        rng[0] = seed_states[s]
        totals[:] = 0
        k = 0
        for round_ in range(1, last + 1):
            for i in range(n):
                bx, bo = play(x, o, cells[i])
                result = status(bx, bo)
                while result == ONGOING:
                    bx, bo = play(bx, bo, random_cell(bx, bo, rng))
                    result = status(bx, bo)
                if result == DRAW:
                    totals[i] += 1
                elif result == player:
                    totals[i] += 2
            while k < checkpoints.size and checkpoints[k] == round_:
                best = 0
                for i in range(1, n):
                    if totals[i] > totals[best]:
                        best = i
                answers[s, k] = cells[best]
                k += 1


# ------------------------------------------------------------------ checked wrappers


def seed_states(seeds) -> np.ndarray:
    """The xorshift64 start state of each seed (``XorShift64(seed).state``), as uint64.

    Each seed is a whole number from 0 to 2**64 - 1. Note that ``XorShift64``
    sets the lowest bit, so seeds ``2k`` and ``2k + 1`` give the same stream:
    the experiments derive their seeds so that no two states coincide.
    """
    if isinstance(seeds, (str, bytes)) or not hasattr(seeds, "__len__"):
        raise ValueError(f"seeds must be a sequence of whole numbers, got {shown(seeds)}.")
    count = len(seeds)
    if not 1 <= count <= MAX_SEEDS:
        raise ValueError(f"seeds must hold from 1 to {MAX_SEEDS:,} seeds, got {count:,}.")
    return np.array([XorShift64(seed).state for seed in seeds], dtype=np.uint64)


def check_checkpoints(checkpoints, name: str = "checkpoints") -> np.ndarray:
    """``checkpoints`` as an int64 array, or a sentence unless strictly increasing whole numbers >= 1."""
    if isinstance(checkpoints, (str, bytes)) or not hasattr(checkpoints, "__len__"):
        raise ValueError(f"{name} must be a sequence of whole numbers, got {shown(checkpoints)}.")
    values = [check_int(f"each of {name}", value, 1, MAX_BUDGET) for value in checkpoints]
    if not 1 <= len(values) <= MAX_CHECKPOINTS:
        raise ValueError(f"{name} must hold from 1 to {MAX_CHECKPOINTS:,} budgets, "
                         f"got {len(values):,}.")
    for before, after in itertools.pairwise(values):
        if after <= before:
            raise ValueError(f"{name} must be strictly increasing, got {before} then {after}.")
    return np.array(values, dtype=np.int64)


def _check_position(x, o) -> tuple[int, int]:
    state = TicTacToe(x, o)
    if state.is_terminal():
        raise ValueError(f"the position x={state.x}, o={state.o} is finished: a search needs "
                         f"a position where the game is still on.")
    return state.x, state.o


def uct_answers(x: int, o: int, exploration: float, checkpoints, seeds,
                max_depth: int | None = None) -> np.ndarray:
    """UCT's (or flat UCB's) answer for each seed at each checkpoint (UCT chapter).

    Parameters
    ----------
    x, o : int
        The position as cell masks (``TicTacToe.x``, ``TicTacToe.o``), game still on.
    exploration : float
        UCB1's constant ``c``, >= 0 (the book uses 1.0).
    checkpoints : sequence of int
        Strictly increasing iteration counts, 1 to :data:`MAX_BUDGET`.
    seeds : sequence of int
        One run per seed, each on ``XorShift64(seed)``.
    max_depth : int or None
        As in ``UCTSearch``: None grows the tree freely, 1 is flat UCB.

    Returns
    -------
    numpy.ndarray
        int64, shape ``(len(seeds), len(checkpoints))``: the most visited root
        move (first in tree order on ties), equal to
        ``UCTSearch(exploration, budget, XorShift64(seed), max_depth=max_depth).choose(state)``.
    """
    x, o = _check_position(x, o)
    exploration = check_real("exploration (the constant c)", exploration, 0.0)
    points = check_checkpoints(checkpoints)
    depth = NO_DEPTH_LIMIT if max_depth is None else check_int("max_depth", max_depth, 1,
                                                                 NO_DEPTH_LIMIT)
    states = seed_states(seeds)
    # Each iteration adds at most one node per free cell; no tree exceeds the whole game tree.
    capacity = 1 + 9 if depth == 1 else min(1 + 9 * int(points[-1]), GAME_TREE_NODES)
    answers = np.empty((states.size, points.size), dtype=np.int64)
    uct_anytime_seeds(x, o, exploration, depth, points, states, capacity, answers)
    return answers


def flat_mc_answers(x: int, o: int, checkpoints, seeds) -> np.ndarray:
    """Flat Monte Carlo's answer for each seed after each number of playouts *per move*.

    ``checkpoints`` counts rounds (playouts per move), strictly increasing;
    the total budget at a checkpoint is that times the number of legal moves.
    Returns an int64 array of shape ``(len(seeds), len(checkpoints))``
    (chapter 1's algorithm on the xorshift64 stream).
    """
    x, o = _check_position(x, o)
    points = check_checkpoints(checkpoints, "checkpoints (playouts per move)")
    states = seed_states(seeds)
    answers = np.empty((states.size, points.size), dtype=np.int64)
    flat_mc_anytime_seeds(x, o, points, states, answers)
    return answers
