"""Zero-sum matrix games solved: the equilibrium, the distance from it, and the sequential tree's mistake.

Everything the simultaneous-moves chapter computes exactly about one table of
payoffs (:class:`mctslib.games.matrix_games.MatrixGame`):

- :func:`solve_zero_sum`: both equilibrium mixes and the value, by linear
  programming;
- :func:`exploitability`: the distance of a pair of mixes from equilibrium
  (NashConv), zero exactly at an equilibrium, and :func:`exploration_floor`,
  the distance that mixing uniform exploration into the equilibrium costs;
- :func:`sequential_tree_view` and :func:`exploit_sequential_tree`: what a
  sequential game tree (the column player replying *after* seeing the row
  move) concludes, and how a column bot that always plays the counter beats
  the move it then always plays.

Every expected payoff is summed by :mod:`mctslib.fixed_order`, never by BLAS,
so the stored distances are the same on every machine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._checks import check_real
from ..fixed_order import matrix_times_vector, vector_times_matrix
from ..games.matrix_games import MatrixGame, check_game, check_strategy, uniform_strategy
from .minimax import check_budget

#: The most rounds :func:`exploit_sequential_tree` plays (one stored payoff per round).
MAX_ROUNDS = 1_000_000

# --------------------------------------------------------------------------- exact solution


@dataclass(frozen=True)
class Equilibrium:
    """An equilibrium of a zero-sum matrix game: both mixes and the value to the row player.

    Neither player gains by changing only its own mix; playing ``row_strategy``
    guarantees the row player at least ``value`` on average whatever the column
    player does, and ``column_strategy`` guarantees the column player that the
    row player gets at most ``value``.
    """

    row_strategy: np.ndarray
    column_strategy: np.ndarray
    value: float


def solve_zero_sum(game: MatrixGame) -> Equilibrium:
    """The exact equilibrium and value of a zero-sum matrix game, by linear programming.

    Parameters
    ----------
    game : MatrixGame

    Returns
    -------
    Equilibrium
        Mixes as float arrays (tiny negative rounding from the solver is
        clipped and the mix renormalised); ``value`` from the row player's
        program.

    Notes
    -----
    The row player looks for the mix ``x`` with the best guarantee ``v``:
    maximise ``v`` subject to ``sum_i x_i A[i, j] >= v`` for every column
    ``j``, ``sum_i x_i = 1``, ``x >= 0``. The column player solves the mirror
    program (minimise ``w`` subject to ``sum_j A[i, j] y_j <= w``). By the
    minimax theorem both optima equal the value. Solved with
    ``scipy.optimize.linprog(method="highs")``. When a game has several
    equilibria the solver returns one of them. Simultaneous-moves chapter.

    The stored results rely on HiGHS being deterministic: it runs on one
    thread, calls no BLAS and picks no code path by processor, so the same
    table gives the same bits on every machine with the same SciPy.
    """
    check_game(game)
    row_strategy, value = _best_guarantee(game.payoffs)
    column_strategy, _ = _best_guarantee(-game.payoffs.T)
    return Equilibrium(row_strategy, column_strategy, value)


def _best_guarantee(table: np.ndarray) -> tuple[np.ndarray, float]:
    """The maximin mix of the player choosing rows of ``table`` and its guaranteed payoff.

    HiGHS solves the table as given (so every stored result is unchanged). On
    the rare table it fails on (entries of very different sizes, found by
    fuzzing: about 2% of random tables spanning 1e-3 to 1e12) the same
    programme is solved again on the table divided by its largest entry: the
    equilibrium mixes do not change when every payoff is scaled by the same
    positive number, and the value scales back.
    """
    result = _maximin_programme(table)
    scale = 1.0
    if not result.success:
        scale = float(np.max(np.abs(table))) or 1.0
        result = _maximin_programme(table / scale)
    if not result.success:  # pragma: no cover - not seen in 3,000 fuzzed tables
        raise ValueError(f"the linear program of this table could not be solved: "
                         f"{result.message}")
    rows = table.shape[0]
    mix = np.clip(result.x[:rows], 0.0, None)
    # + 0.0 turns a solver's -0.0 into 0.0
    return mix / math.fsum(mix), float(result.x[-1]) * scale + 0.0


def _maximin_programme(table: np.ndarray):
    """HiGHS's answer to: maximise v subject to sum_i x_i table[i, j] >= v, x a mix."""
    from scipy.optimize import linprog  # scipy is needed only here; import it when used

    rows, columns = table.shape
    # Variables: the mix x (rows entries) and the guarantee v. linprog minimises, so use -v.
    objective = np.zeros(rows + 1)
    objective[-1] = -1.0
    # For each column j: v - sum_i x_i table[i, j] <= 0.
    upper = np.hstack([-table.T, np.ones((columns, 1))])
    equality = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * rows + [(None, None)]
    return linprog(objective, A_ub=upper, b_ub=np.zeros(columns), A_eq=equality,
                   b_eq=[1.0], bounds=bounds, method="highs")


# --------------------------------------------------------------------------- distance


def exploitability(game: MatrixGame, row_strategy, column_strategy) -> float:
    """Distance of a pair of mixes from equilibrium (NashConv), in payoff units.

    Parameters
    ----------
    game : MatrixGame
    row_strategy, column_strategy : sequence of float
        Mixes over the row moves and the column moves (see :func:`check_strategy`).

    Returns
    -------
    float
        ``max_i (A y)_i - min_j (x^T A)_j``: what a row player who knew ``y``
        gains by its best reply over the game value, plus what a column player
        who knew ``x`` gains by its best reply over the value. It is zero
        exactly when ``(x, y)`` is an equilibrium and positive otherwise.

    Notes
    -----
    Each player's gain can be measured against the game value ``v`` or
    against the current payoff ``x^T A y``; the sum is the same either way
    (``v`` or ``x^T A y`` is added once and subtracted once), so no linear
    program is needed. Simultaneous-moves chapter.

    The products ``A y`` and ``x^T A`` are summed by :mod:`mctslib.fixed_order`,
    not by BLAS, so a stored distance is the same to the last bit on every
    machine.
    """
    check_game(game)
    x = check_strategy("row_strategy", row_strategy, game.shape[0])
    y = check_strategy("column_strategy", column_strategy, game.shape[1])
    best_row_reply = float(np.max(matrix_times_vector(game.payoffs, y)))
    best_column_reply = float(np.min(vector_times_matrix(x, game.payoffs)))
    return best_row_reply - best_column_reply


def exploration_floor(game: MatrixGame, exploration: float = 0.1,
                      equilibrium: Equilibrium | None = None) -> float:
    """Distance of the equilibrium mixed with uniform exploration, for both players.

    Both players play ``(1 - exploration) * equilibrium + exploration * uniform``;
    the result is :func:`exploitability` of that pair. A learner that simply
    adds this much uniform exploration on top of a perfect mix sits at this
    distance. Simultaneous-moves chapter.

    Parameters
    ----------
    game : MatrixGame
    exploration : float
        Share of uniform play, in ``[0, 1]`` (default 0.1, i.e. 10%).
    equilibrium : Equilibrium, optional
        The equilibrium to start from (default: :func:`solve_zero_sum`).
    """
    check_game(game)
    exploration = check_real("exploration", exploration, 0.0, 1.0)
    if equilibrium is None:
        equilibrium = solve_zero_sum(game)
    elif not isinstance(equilibrium, Equilibrium):
        raise ValueError(f"equilibrium must be an Equilibrium (from solve_zero_sum) or None, got "
                         f"{type(equilibrium).__name__}.")
    rows, columns = game.shape
    shapes = np.shape(equilibrium.row_strategy), np.shape(equilibrium.column_strategy)
    if shapes != ((rows,), (columns,)):
        raise ValueError(f"equilibrium must be one of this {rows}x{columns} game, got mixes of "
                         f"shapes {shapes[0]} and {shapes[1]}.")
    row_mix = (1.0 - exploration) * equilibrium.row_strategy + exploration * uniform_strategy(rows)
    column_mix = ((1.0 - exploration) * equilibrium.column_strategy
                  + exploration * uniform_strategy(columns))
    return exploitability(game, row_mix, column_mix)


# --------------------------------------------------------------------------- sequential view


@dataclass(frozen=True)
class SequentialView:
    """What a sequential tree concludes about a simultaneous game.

    The tree lets the row player move first and the column player reply having
    seen the move, so each row move is worth its worst case.

    Attributes
    ----------
    move_values : numpy.ndarray
        Worst-case payoff of each row move (the column player's best reply to it).
    row_move : int
        The move the tree always plays: the highest worst case (the first one on ties).
    counter_move : int
        The column move that answers ``row_move`` best (the first one on ties):
        a column bot that always plays it exploits the tree.
    value : float
        ``move_values[row_move]``: what the tree believes it is guaranteed.
    """

    move_values: np.ndarray
    row_move: int
    counter_move: int
    value: float


def sequential_tree_view(game: MatrixGame) -> SequentialView:
    """The row moves valued as a sequential tree values them, and the move it then plays.

    In a game tree where the row player moves first and the column player
    replies having seen that move, the column player answers each row move
    with its best reply, so the row move is worth ``min_j A[i, j]`` and the tree
    plays the move with the largest such value, every time: a pure strategy.
    In the real game the column player does not see the move, but a column bot
    that always plays the counter to it wins every round. Ties go to the first
    move (``numpy.argmax``/``argmin``). Simultaneous-moves chapter.
    """
    check_game(game)
    move_values = game.payoffs.min(axis=1)
    row_move = int(np.argmax(move_values))
    counter_move = int(np.argmin(game.payoffs[row_move]))
    return SequentialView(move_values, row_move, counter_move, float(move_values[row_move]))


@dataclass(frozen=True)
class ExploitMatch:
    """Rounds of the sequential tree's move against the column bot that always counters it."""

    row_move: int
    counter_move: int
    row_payoffs: np.ndarray

    @property
    def rounds_won_by_counter(self) -> int:
        """Rounds in which the row player lost (payoff below 0)."""
        return int(np.sum(self.row_payoffs < 0))


def exploit_sequential_tree(game: MatrixGame, rounds: int = 10) -> ExploitMatch:
    """Play ``rounds`` rounds: the tree's fixed move against the column bot's counter.

    Both sides are deterministic (the tree always plays
    :attr:`SequentialView.row_move`, the exploiter always plays
    :attr:`SequentialView.counter_move`), so each round the row player
    receives the same payoff, the tree's worst case. ``rounds`` is a whole
    number from 1 to :data:`MAX_ROUNDS`. Simultaneous-moves chapter.
    """
    rounds = check_budget("rounds", rounds, 1, MAX_ROUNDS)
    view = sequential_tree_view(game)
    payoffs = np.array([game.payoffs[view.row_move, view.counter_move] for _ in range(rounds)])
    return ExploitMatch(view.row_move, view.counter_move, payoffs)


# --------------------------------------------------------------------------- the chapter's names

#: :func:`exploitability` under the name the chapter uses: NashConv, the *sum* of both players'
#: best-response gains (OpenSpiel's ``nash_conv``; its ``exploitability`` is half of it).
nash_conv = exploitability

#: :func:`exploration_floor` under the chapter's name: the distance of "the equilibrium plus
#: noise", a reference line rather than a floor (a learner can end below it).
noisy_equilibrium_distance = exploration_floor
