"""Zero-sum matrix games: one simultaneous move each, solved exactly.

The simultaneous-moves chapter ("When both players move at once") starts from
the smallest game where both players choose at the same time: a table of
payoffs for the row player, the column player receiving the negative. This
module holds everything about such a table that needs no learning:

- :class:`MatrixGame`: a validated payoff table with move names, and the two
  rock-paper-scissors constructors :func:`rock_paper_scissors` and
  :func:`weighted_rock_paper_scissors`;
- :func:`solve_zero_sum`: the exact equilibrium (both mixes) and the value,
  by linear programming;
- :func:`exploitability`: the distance of a pair of mixes from equilibrium,
  zero exactly at an equilibrium, and :func:`exploration_floor`, the distance
  that mixing uniform exploration into the equilibrium costs;
- :func:`sequential_tree_view` and :func:`exploit_sequential_tree`: what a
  sequential game tree (the column player replying *after* seeing the row
  move) concludes, and how a column bot that always plays the counter beats
  the move it then always plays.

Part of the search layer's foundations: it imports nothing from the search
code, and the simultaneous learners (:mod:`mctslib.simultaneous`) and SM-MCTS
build on it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ._checks import check_int, check_real
from .fixed_order import matrix_times_vector, vector_matrix_vector, vector_times_matrix

#: How far from 1 the entries of a mix may sum (learners' averages carry rounding error).
MIX_TOLERANCE = 1e-6

ROCK_PAPER_SCISSORS_MOVES = ("rock", "paper", "scissors")


# --------------------------------------------------------------------------- the game


class MatrixGame:
    """A two-player zero-sum game in normal form: one table of payoffs for the row player.

    The row player picks a row, the column player a column, at the same time;
    the row player receives ``payoffs[row, column]`` and the column player
    pays it (receives its negative). Simultaneous-moves chapter.

    Parameters
    ----------
    payoffs : sequence of sequences of numbers
        The table, one inner sequence per row move, all of the same length;
        at least one row and one column; every entry a finite number.
    row_moves, column_moves : sequence of str, optional
        Names of the moves (default ``"0"``, ``"1"``, ...), one per row and
        one per column.
    name : str, optional
        A label for printing.

    Raises
    ------
    ValueError
        With a sentence naming what is wrong (empty, ragged, not a number,
        NaN or infinite, wrong number of move names).

    Notes
    -----
    ``payoffs`` is stored as a read-only float array, so a game can be shared
    safely between learners and experiments.
    """

    __slots__ = ("column_moves", "name", "payoffs", "row_moves")

    def __init__(self, payoffs, row_moves: Sequence[str] | None = None,
                 column_moves: Sequence[str] | None = None, name: str = "matrix game"):
        table = _payoff_table(payoffs)
        table.flags.writeable = False
        self.payoffs = table
        self.row_moves = _move_names("row_moves", row_moves, table.shape[0])
        self.column_moves = _move_names("column_moves", column_moves, table.shape[1])
        self.name = str(name)

    @property
    def shape(self) -> tuple[int, int]:
        """(number of row moves, number of column moves)."""
        return self.payoffs.shape

    @property
    def payoff_range(self) -> tuple[float, float]:
        """The smallest and the largest payoff in the table."""
        return float(self.payoffs.min()), float(self.payoffs.max())

    def expected_payoff(self, row_strategy, column_strategy) -> float:
        """The row player's average payoff when both play these mixes: ``x^T A y``.

        Summed in an order of our own, not by BLAS (:mod:`mctslib.fixed_order`), so
        the result is the same on every machine.
        """
        x = check_strategy("row_strategy", row_strategy, self.shape[0])
        y = check_strategy("column_strategy", column_strategy, self.shape[1])
        return vector_matrix_vector(x, self.payoffs, y)

    def format(self, width: int = 9) -> str:
        """The table as text, row moves down the side, column moves across the top."""
        header = " " * width + "".join(f"{name:>{width}}" for name in self.column_moves)
        lines = [f"{self.name} (payoffs to the row player)", header]
        for name, row in zip(self.row_moves, self.payoffs):
            lines.append(f"{name:<{width}}" + "".join(f"{value:>{width}g}" for value in row))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"MatrixGame({self.payoffs.tolist()!r}, name={self.name!r})"


def rock_paper_scissors() -> MatrixGame:
    """Classic rock-paper-scissors: a win pays 1, a loss costs 1, a tie pays 0.

    Moves in the order rock, paper, scissors. Its equilibrium is the uniform
    mix for both players and its value is 0. Simultaneous-moves chapter.
    """
    return _rock_paper_scissors((1.0, 1.0, 1.0), "rock-paper-scissors")


def weighted_rock_paper_scissors() -> MatrixGame:
    """Rock-paper-scissors where a win pays 1 with rock, 2 with paper, 3 with scissors.

    The loser pays the winner, so the game stays zero-sum; a tie pays 0.
    Payoffs to the row player (rows and columns in the order rock, paper,
    scissors)::

                  rock  paper  scissors
        rock        0     -2       1
        paper       2      0      -3
        scissors   -1      3       0

    Its equilibrium is (1/2, 1/6, 1/3) for both players and its value is 0
    (derived by hand in ``tests/test_matrix_games.py``). The simultaneous-moves
    chapter's running example.
    """
    return _rock_paper_scissors((1.0, 2.0, 3.0), "weighted rock-paper-scissors")


def _rock_paper_scissors(win_pays: tuple[float, float, float], name: str) -> MatrixGame:
    # Move k beats move k - 1 (paper beats rock, scissors beat paper, rock beats scissors).
    table = np.zeros((3, 3))
    for winner in range(3):
        loser = (winner - 1) % 3
        table[winner, loser] = win_pays[winner]
        table[loser, winner] = -win_pays[winner]
    return MatrixGame(table, ROCK_PAPER_SCISSORS_MOVES, ROCK_PAPER_SCISSORS_MOVES, name)


def _payoff_table(payoffs) -> np.ndarray:
    if isinstance(payoffs, np.ndarray):
        rows = list(payoffs) if payoffs.ndim >= 1 else None
    elif isinstance(payoffs, Sequence) and not isinstance(payoffs, (str, bytes)):
        rows = list(payoffs)
    else:
        rows = None
    if rows is None:
        raise ValueError(
            f"payoffs must be a table: a sequence of rows, each a sequence of numbers, "
            f"got {type(payoffs).__name__}."
        )
    if len(rows) == 0:
        raise ValueError("payoffs must have at least one row, got an empty table.")
    width = None
    for index, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not isinstance(row, (Sequence, np.ndarray)):
            raise ValueError(
                f"payoffs row {index} must be a sequence of numbers, got {row!r}."
            )
        if len(row) == 0:
            raise ValueError(f"payoffs row {index} is empty; every row needs at least one entry.")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise ValueError(
                f"payoffs must be rectangular: row 0 has {width} entries but row {index} "
                f"has {len(row)}."
            )
    table = np.empty((len(rows), width))
    for i, row in enumerate(rows):
        for j, value in enumerate(row):
            table[i, j] = _finite_entry(i, j, value)
    return table


def _finite_entry(row: int, column: int, value) -> float:
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"payoffs[{row}][{column}] must be a number, got {value!r}.")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"payoffs[{row}][{column}] must be a number, got {value!r}.") from None
    if not math.isfinite(number):
        raise ValueError(f"payoffs[{row}][{column}] must be a finite number, got {value!r}.")
    return number


def _move_names(parameter: str, names, count: int) -> tuple[str, ...]:
    if names is None:
        return tuple(str(index) for index in range(count))
    if isinstance(names, str) or len(names) != count:
        raise ValueError(
            f"{parameter} must name each of the {count} moves, got {names!r}."
        )
    return tuple(str(name) for name in names)


# --------------------------------------------------------------------------- mixes


def check_strategy(name: str, strategy, size: int) -> np.ndarray:
    """Return ``strategy`` as a float array, or raise ValueError unless it is a mix of ``size`` moves.

    A mix (mixed strategy) has one probability per move: each finite and
    non-negative, summing to 1 within :data:`MIX_TOLERANCE`.
    """
    try:
        mix = np.asarray(strategy, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            f"{name} must be a sequence of {size} probabilities, got {strategy!r}."
        ) from None
    if mix.shape != (size,):
        raise ValueError(
            f"{name} must have one probability per move ({size}), got shape {mix.shape}."
        )
    if not np.all(np.isfinite(mix)) or np.any(mix < 0):
        raise ValueError(f"{name} must hold finite probabilities >= 0, got {mix.tolist()}.")
    total = float(mix.sum())
    if abs(total - 1.0) > MIX_TOLERANCE:
        raise ValueError(f"{name} must sum to 1 (within {MIX_TOLERANCE:g}), got {total!r}.")
    return mix


def uniform_strategy(size: int) -> np.ndarray:
    """The mix that plays each of ``size`` moves with probability ``1 / size``."""
    size = check_int("size", size, 1)
    return np.full(size, 1.0 / size)


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
    _check_game(game)
    row_strategy, value = _best_guarantee(game.payoffs)
    column_strategy, _ = _best_guarantee(-game.payoffs.T)
    return Equilibrium(row_strategy, column_strategy, value)


def _best_guarantee(table: np.ndarray) -> tuple[np.ndarray, float]:
    """The maximin mix of the player choosing rows of ``table`` and its guaranteed payoff."""
    from scipy.optimize import linprog  # scipy is needed only here; import it when used

    rows, columns = table.shape
    # Variables: the mix x (rows entries) and the guarantee v. linprog minimises, so use -v.
    objective = np.zeros(rows + 1)
    objective[-1] = -1.0
    # For each column j: v - sum_i x_i table[i, j] <= 0.
    upper = np.hstack([-table.T, np.ones((columns, 1))])
    equality = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    bounds = [(0.0, None)] * rows + [(None, None)]
    result = linprog(objective, A_ub=upper, b_ub=np.zeros(columns), A_eq=equality,
                     b_eq=[1.0], bounds=bounds, method="highs")
    if not result.success:  # pragma: no cover - a finite table always has a solution
        raise RuntimeError(f"linear program failed: {result.message}")
    mix = np.clip(result.x[:rows], 0.0, None)
    return mix / math.fsum(mix), float(result.x[-1]) + 0.0  # + 0.0 turns a solver's -0.0 into 0.0


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
    _check_game(game)
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
    _check_game(game)
    exploration = check_real("exploration", exploration, 0.0, 1.0)
    if equilibrium is None:
        equilibrium = solve_zero_sum(game)
    rows, columns = game.shape
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
    _check_game(game)
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
    receives the same payoff, the tree's worst case. Simultaneous-moves chapter.
    """
    rounds = check_int("rounds", rounds, 1)
    view = sequential_tree_view(game)
    payoffs = np.array([game.payoffs[view.row_move, view.counter_move] for _ in range(rounds)])
    return ExploitMatch(view.row_move, view.counter_move, payoffs)


def _check_game(game) -> None:
    if not isinstance(game, MatrixGame):
        raise ValueError(f"game must be a MatrixGame, got {type(game).__name__}.")
