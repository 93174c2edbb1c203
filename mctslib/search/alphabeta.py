"""Alpha-beta search with iterative deepening, readable, for any game of the protocol.

The chapter "Enhancements and failure modes" compares the MCTS bot with the
classical way to play a game like Ultimate Tic-Tac-Toe: look a fixed number
of moves ahead, score the positions there with a hand-written evaluation, and
back the scores up by minimax, skipping the moves that cannot change the
answer (alpha-beta pruning, Knuth & Moore 1975). This module is that search,
written to be read; :mod:`mctslib.fast.uttt_alphabeta` is its compiled twin
for Ultimate Tic-Tac-Toe (same move order, same values, same best move, same
node counts: the tests compare them), which the bot of
:mod:`mctslib.bots.uttt_alphabeta` uses.

* **Negamax**: every value is for the side to move, so a child's value is
  negated on the way up and one function serves both players.
* **Fail-soft**: a node returns the best value it found, even outside the
  window ``(alpha, beta)``. The root is searched with a full window, so its
  value is exact for the depth searched.
* **Scores** are integers: ``WIN_SCORE - ply`` for a game won ``ply`` plies
  below the root (a quicker win is better, a slower loss less bad), its
  negative for a loss, 0 for a draw, and ``evaluate(state)`` at the depth
  limit. ``|value| >= PROVEN`` is a proven result (:func:`is_proven`).
* **Iterative deepening**: depths 1, 2, ... up to ``depth``, each trying the
  previous iteration's best move first; it stops early on a proven result or
  when an iteration met no depth limit (every line reached the end of the
  game, so the value is exact), and on a node budget or a deadline it
  answers with the last complete iteration (depth 1 always completes).
* **Move order** (``ordering=True``): the previous best move at the root,
  then two *killer moves* per ply (the last moves that caused a cut-off at
  that ply), then the *history heuristic* (each move's sum of
  ``depth * depth`` over the cut-offs it caused), ties in the order of
  ``legal_moves()``. Both are kept across the iterations of one search.

Chapter "Enhancements and failure modes".
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .._checks import check_bool, check_callable, check_int, check_real
from ..games.base import DRAW, WIN, GameState, check_game_state

__all__ = ["INFINITY", "MAX_DEPTH", "PROVEN", "WIN_SCORE", "AlphaBetaResult", "alphabeta",
           "is_proven"]

#: A won game is worth WIN_SCORE minus the plies to reach it (the compiled twin's constants).
WIN_SCORE = 1_000_000
#: Values at least this large (in size) are proven wins or losses.
PROVEN = WIN_SCORE - 1000
#: Larger than every score: the window of a root search.
INFINITY = 10_000_000
#: The deepest search asked for (a whole game of Ultimate Tic-Tac-Toe is 81 moves).
MAX_DEPTH = 81
#: Key of the previous best move and of the killers in the move order (above any history score).
_PV_KEY, _KILLER_KEY = 1 << 62, 1 << 61


def is_proven(value: int) -> bool:
    """Whether a search value is a proven win (positive) or loss (negative)."""
    return abs(value) >= PROVEN


@dataclass(frozen=True)
class AlphaBetaResult:
    """What :func:`alphabeta` found.

    Attributes
    ----------
    move : hashable
        The best move of the last complete iteration.
    value : int
        Its value for the side to move (see the module docstring for the scale).
    depth : int
        The last depth completed.
    nodes : int
        Positions visited, over every iteration (the interrupted one included).
    """

    move: object
    value: int
    depth: int
    nodes: int

    @property
    def verdict(self) -> str | None:
        """``"win"`` or ``"loss"`` for the side to move when proven, else None."""
        if not is_proven(self.value):
            return None
        return "win" if self.value > 0 else "loss"


class _OutOfBudget(Exception):
    """Raised inside the search when the node budget or the deadline is spent."""


class _Search:
    """One search: the killers, the history and the counters live here."""

    def __init__(self, evaluate, ordering, max_nodes, deadline):
        self.evaluate, self.ordering = evaluate, ordering
        self.max_nodes, self.deadline = max_nodes, deadline
        self.killers: dict[int, list] = {}  # ply -> [newest killer, older killer]
        self.history: dict = {}  # move -> sum of depth * depth over its cut-offs
        self.nodes = 0
        self.can_stop = False  # depth 1 always completes
        self.leaves_cut = 0  # positions scored by the evaluation in this iteration
        self.best_at_root = None

    def order(self, moves, ply, pv_move):
        """The moves, best candidates first (stable: ties keep the order of ``legal_moves()``)."""
        killers = self.killers.get(ply, [None, None])

        def key(move):
            if move == pv_move:
                return _PV_KEY
            if move == killers[0]:
                return _KILLER_KEY + 1
            if move == killers[1]:
                return _KILLER_KEY
            return self.history.get(move, 0)

        return sorted(moves, key=lambda move: -key(move))

    def remember_cutoff(self, move, ply, depth):
        killers = self.killers.setdefault(ply, [None, None])
        if killers[0] != move:
            killers[1], killers[0] = killers[0], move
        self.history[move] = self.history.get(move, 0) + depth * depth

    def count_node(self):
        self.nodes += 1
        if self.can_stop:
            if self.nodes >= self.max_nodes:
                raise _OutOfBudget
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                raise _OutOfBudget

    def negamax(self, state, player, ply, depth, alpha, beta, pv_move):
        """Fail-soft value of ``state`` for ``player`` (the side to move there)."""
        self.count_node()
        if state.is_terminal():
            result = state.result(player)
            if result == DRAW:
                return 0
            return WIN_SCORE - ply if result == WIN else -(WIN_SCORE - ply)
        if depth == 0:
            self.leaves_cut += 1
            value = self.evaluate(state)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
                    or abs(value) >= PROVEN:
                raise ValueError(f"evaluate must return a whole number of size below {PROVEN:,} "
                                 f"(larger is better for the side to move), got {value!r:.60}.")
            return int(value)
        moves = state.legal_moves()
        if self.ordering:
            moves = self.order(moves, ply, pv_move if ply == 0 else None)
        best = -INFINITY
        for move in moves:
            value = -self.negamax(state.play(move), 1 - player, ply + 1, depth - 1,
                                  -beta, -alpha, pv_move)
            if value > best:
                best = value
                if ply == 0:
                    self.best_at_root = move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:  # the opponent will not allow this line: cut off
                        if self.ordering:
                            self.remember_cutoff(move, ply, depth)
                        break
        return best


def alphabeta(state: GameState, evaluate: Callable[[GameState], int], depth: int = 4, *,
              max_nodes: int | None = None, seconds: float | None = None,
              ordering: bool = True) -> AlphaBetaResult:
    """Iterative-deepening negamax alpha-beta from ``state`` (the game must be on).

    Parameters
    ----------
    state : GameState
        A two-player alternating game position with a move to play.
    evaluate : callable(state) -> int
        Score of a position still on, for its side to move, of size well
        below :data:`PROVEN` (e.g. :func:`mctslib.search.uttt_evaluation.evaluate`).
    depth : int
        Deepest iteration, 1 to :data:`MAX_DEPTH` (81).
    max_nodes : int or None
        Node budget (>= 1): the iteration that would exceed it is abandoned.
    seconds : float or None
        Time budget (> 0), read from the clock at every node.
    ordering : bool
        Killer and history move ordering, previous best first (True), or the
        order of ``legal_moves()`` (False).

    Returns
    -------
    AlphaBetaResult
        Best move, value, depth completed, nodes. Chapter "Enhancements and failure modes".
    """
    check_game_state(state)
    if state.is_terminal():
        raise ValueError("alphabeta needs a position where the game is still on; this one is over.")
    check_callable("evaluate", evaluate)
    depth = check_int("depth (plies of the deepest iteration)", depth, 1, MAX_DEPTH)
    if max_nodes is not None:
        max_nodes = check_int("max_nodes (node budget)", max_nodes, 1)
    deadline = None
    if seconds is not None:
        deadline = time.perf_counter() + check_real("seconds (time budget)", seconds, 1e-6)
    ordering = check_bool("ordering", ordering)
    search = _Search(evaluate, ordering, max_nodes if max_nodes is not None else float("inf"),
                     deadline)
    best_move, best_value, done = None, 0, 0
    for iteration in range(1, depth + 1):
        search.can_stop = iteration > 1
        search.leaves_cut = 0
        try:
            value = search.negamax(state, state.player_to_move, 0, iteration, -INFINITY,
                                   INFINITY, best_move)
        except _OutOfBudget:
            break
        best_move, best_value, done = search.best_at_root, value, iteration
        if is_proven(value) or search.leaves_cut == 0:
            break  # proven, or every line reached the end of the game: the value is exact
    return AlphaBetaResult(best_move, best_value, done, search.nodes)
