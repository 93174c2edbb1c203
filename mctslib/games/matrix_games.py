"""Zero-sum matrix games: one simultaneous move each, the rules only.

The simultaneous-moves chapter ("When both players move at once") starts from
the smallest game where both players choose at the same time: a table of
payoffs for the row player, the column player receiving the negative.

- :class:`MatrixGame`: a validated payoff table with move names, and the two
  rock-paper-scissors constructors :func:`rock_paper_scissors` and
  :func:`weighted_rock_paper_scissors`;
- :func:`check_strategy` and :func:`uniform_strategy`: mixes (one probability
  per move) and the checks every function that takes one applies.

Solving such a game, and measuring how far a pair of mixes is from solving
it, is search: :mod:`mctslib.search.zero_sum`. The one-node learners
(:mod:`mctslib.learners.simultaneous`) and SM-MCTS play these tables.
"""


from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .._checks import check_int, is_sequence, shown
from ..fixed_order import vector_matrix_vector

#: How far from 1 the entries of a mix may sum (learners' averages carry rounding error).
MIX_TOLERANCE = 1e-6

#: The largest payoff size a table may hold. The equilibrium solver (HiGHS) refuses
#: coefficients from 1e15 on and treats 1e20 as infinite, and the learners divide by the
#: spread (largest minus smallest payoff), which must stay finite; 1e12 leaves margin.
MAX_PAYOFF = 1e12

#: Payoffs that are not all equal must differ by at least this share of the largest
#: payoff size: the solver works to about 1e-9 of the numbers it is given, so finer
#: differences on large payoffs are lost in rounding and the linear programme fails.
MIN_RELATIVE_SPREAD = 1e-6

#: Payoffs within this distance of each other are a constant table to the solver (its
#: tolerances are larger), which it solves; such tables are accepted whatever their size.
SOLVER_RESOLUTION = 1e-9

#: The most moves a mix may have (uniform_strategy allocates one entry per move).
MAX_MOVES = 10_000_000

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
        at least one row and one column; every entry a finite number of size
        at most :data:`MAX_PAYOFF` (1e12). Unless all payoffs lie within
        :data:`SOLVER_RESOLUTION` (1e-9) of each other, they must spread over
        at least :data:`MIN_RELATIVE_SPREAD` (a millionth) of the largest
        payoff size. Both bounds keep every table solvable by
        :func:`~mctslib.search.zero_sum.solve_zero_sum` and its rewards
        rescalable by the learners; adding a constant to every payoff, or
        multiplying every payoff by a positive number, changes no equilibrium
        and brings any other table within them.
    row_moves, column_moves : sequence of str, optional
        Names of the moves (default ``"0"``, ``"1"``, ...), one per row and
        one per column.
    name : str, optional
        A label for printing.

    Raises
    ------
    ValueError
        With a sentence naming what is wrong (empty, ragged, not a number,
        NaN or infinite, too large, too finely spread, wrong number of move
        names).

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
        self.name = _label(name)

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
        """The table as text, row moves down the side, column moves across the top.

        ``width`` is the characters per column, a whole number from 1 to 100.
        """
        width = check_int("width", width, 1, 100)
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
        if not is_sequence(row):
            raise ValueError(
                f"payoffs row {index} must be a sequence of numbers, got {shown(row)}."
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
    _check_spread(table)
    return table


def _finite_entry(row: int, column: int, value) -> float:
    name = f"payoffs[{row}][{column}]"
    # Text and truth values are not payoffs, even when float() would read them.
    if isinstance(value, (bool, np.bool_, str, bytes)) or (
            isinstance(value, np.ndarray) and value.ndim > 0):
        raise ValueError(f"{name} must be a number, got {shown(value)}.")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {shown(value)}.") from None
    except OverflowError:  # an int beyond the float range
        number = math.inf if value > 0 else -math.inf
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {shown(value)}.")
    if abs(number) > MAX_PAYOFF:
        raise ValueError(
            f"{name} must be a number from -1e12 to 1e12, got {shown(value)}: the equilibrium solver "
            "(HiGHS) loses precision on larger coefficients and refuses them from 1e15 on, and "
            "the learners divide by the payoffs' spread, which must stay finite; divide every "
            "payoff by the same positive number (no equilibrium changes)."
        )
    return number


def _check_spread(table: np.ndarray) -> None:
    low, high = float(table.min()), float(table.max())
    spread, size = high - low, max(abs(low), abs(high))
    if SOLVER_RESOLUTION < spread < MIN_RELATIVE_SPREAD * size:
        raise ValueError(
            f"payoffs must differ by at least a millionth of their largest size "
            f"({MIN_RELATIVE_SPREAD * size:.3g} here) unless all lie within 1e-9 of each other, "
            f"got payoffs from {shown(low)} to {shown(high)}: the equilibrium solver cannot separate "
            "finer differences on numbers that large; subtract the same constant from every "
            "payoff (no equilibrium changes)."
        )


def _label(name) -> str:
    """``str(name)``, or a description if Python refuses to print it (an int of 4,300+ digits)."""
    try:
        return str(name)
    except ValueError:
        return shown(name)


def _move_names(parameter: str, names, count: int) -> tuple[str, ...]:
    if names is None:
        return tuple(str(index) for index in range(count))
    if not is_sequence(names) or len(names) != count:
        raise ValueError(
            f"{parameter} must name each of the {count} moves, got {shown(names)}."
        )
    return tuple(_label(name) for name in names)


# --------------------------------------------------------------------------- mixes


def check_strategy(name: str, strategy, size: int) -> np.ndarray:
    """Return ``strategy`` as a float array, or raise ValueError unless it is a mix of ``size`` moves.

    A mix (mixed strategy) has one probability per move: each finite and
    non-negative, summing to 1 within :data:`MIX_TOLERANCE`. Booleans, text
    and complex numbers are refused even where numpy would convert them.
    ``size`` is the number of moves, a whole number from 1 to :data:`MAX_MOVES`.
    """
    size = check_int("size", size, 1, MAX_MOVES)
    name = shown(name, str)
    try:
        raw = np.asarray(strategy)
        if raw.dtype.kind not in "fiuO" or raw.dtype.kind == "O" and any(
                isinstance(p, (bool, np.bool_, str, bytes, complex)) for p in raw.ravel()):
            raise TypeError  # the same sentence as for anything else that is not numbers
        mix = np.asarray(raw, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(
            f"{name} must be a sequence of {size} probabilities, got {shown(strategy)}."
        ) from None
    if mix.shape != (size,):
        raise ValueError(
            f"{name} must have one probability per move ({size}), got shape {mix.shape}."
        )
    if not np.all(np.isfinite(mix)) or np.any(mix < 0):
        raise ValueError(f"{name} must hold finite probabilities >= 0, got {shown(mix.tolist())}.")
    total = float(mix.sum())
    if abs(total - 1.0) > MIX_TOLERANCE:
        raise ValueError(f"{name} must sum to 1 (within {MIX_TOLERANCE:g}), got {shown(total)}.")
    return mix


def uniform_strategy(size: int) -> np.ndarray:
    """The mix that plays each of ``size`` moves with probability ``1 / size``."""
    size = check_int("size", size, 1, MAX_MOVES)
    return np.full(size, 1.0 / size)


def check_game(game) -> None:
    if not isinstance(game, MatrixGame):
        raise ValueError(f"game must be a MatrixGame, got {type(game).__name__}.")
