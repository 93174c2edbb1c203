"""Flat Monte Carlo: judge each move by finishing the game at random, many times.

A *playout* (or rollout) plays uniformly random legal moves for both sides
until the game ends. *Flat Monte Carlo* gives every legal move the same number
of playouts and plays the move whose playouts scored best on average. It needs
no knowledge of the game beyond its rules, which is why it is the first
algorithm of the book, and it has two weaknesses that the rest of the book
fixes: it spends as much on hopeless moves as on good ones (the bandits
chapter) and it judges a move against *random* replies rather than the best
one (the UCT chapter). Chapter 1 ("Judge a position by playing it out").

Besides the algorithm, this module holds what chapter 1 needs to study it:
the exact chance that flat Monte Carlo picks each move
(:func:`choice_probabilities`) and a search for positions where it walks
into a trap (:func:`find_traps`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._checks import check_int, check_real
from ..fixed_order import convolve, dot, sample_variance
from ..fixed_order import mean as fixed_order_mean
from ..games.base import GameState, check_game_state
from ..rng import make_rng, move_source
from .minimax import (
    check_budget,
    minimax_value,
    move_values,
    random_playout_move_values,
    reachable_states,
)

__all__ = [
    "FlatMCResult",
    "Trap",
    "choice_probabilities",
    "find_traps",
    "flat_monte_carlo",
    "move_table",
    "random_playout",
]


#: The largest budget :func:`flat_monte_carlo` accepts: its results table holds
#: one float per playout (72 MB for nine moves), and the playouts take minutes.
MAX_PLAYOUTS_PER_MOVE = 1_000_000
#: The largest budget :func:`choice_probabilities` accepts: its convolutions
#: grow with the square of the budget (the chapter goes up to 10,000).
MAX_CHOICE_PLAYOUTS = 100_000


def _check_game_on(state: GameState, what: str) -> None:
    check_game_state(state)
    if state.is_terminal():
        raise ValueError(f"{what} needs a position where the game is still on; this one is over.")


def random_playout(state: GameState, rng) -> GameState:
    """Play uniformly random legal moves for both sides until the game ends.

    Parameters
    ----------
    state : GameState
        Where to start (a finished game is returned unchanged).
    rng : numpy.random.Generator, XorShift64 or GeneratorSource
        The source of every random choice (see :func:`mctslib.rng.make_rng`);
        UCT passes the xorshift64 stream of the published harness.

    Returns
    -------
    GameState
        The final position. It returns the position rather than a score so
        that the caller decides whose result to read:
        ``random_playout(state, rng).result(player)``.

    Notes
    -----
    One draw ``below(len(moves))`` per move (``rng.integers(len(moves))`` for
    a numpy Generator), so the same generator state gives the same playout on
    every machine. Chapter 1; UCT uses it for its simulation phase.
    """
    return _playout(check_game_state(state), move_source(rng))


def _playout(state: GameState, source) -> GameState:
    """:func:`random_playout` without the checks: UCT's simulation phase, once per iteration."""
    moves = state.legal_moves()
    while moves:  # the protocol promises no legal moves exactly when the game is over
        state = state.play(moves[source.below(len(moves))])
        moves = state.legal_moves()
    return state


@dataclass(frozen=True, eq=False)
class FlatMCResult:
    """What :func:`flat_monte_carlo` learned about each legal move.

    Attributes
    ----------
    moves : tuple
        The legal moves, in the order of ``state.legal_moves()``.
    playouts_per_move : int
        How many playouts each move received (the same for all).
    results : numpy.ndarray
        Shape ``(len(moves), playouts_per_move)``: the result of every
        playout for the player who made the move (1 win, 0.5 draw, 0 loss),
        in the order they were played. Read-only.
    means : tuple of float
        The average result of each move: flat Monte Carlo's estimate.
    best_move
        The move with the highest mean (the first in move order on ties).
    """

    moves: tuple
    playouts_per_move: int
    results: np.ndarray
    means: tuple
    best_move: object

    def __post_init__(self):
        # Made by flat_monte_carlo, but also by hand (tests, the chapter's exercises): a table
        # that does not fit its moves would otherwise fail later with an IndexError.
        if not isinstance(self.moves, tuple) or not self.moves:
            raise ValueError(f"moves must be a non-empty tuple of moves, got {self.moves!r}.")
        count = check_int("playouts_per_move", self.playouts_per_move, 1)
        shape = np.shape(self.results)
        if shape != (len(self.moves), count):
            raise ValueError(f"results must have one row per move and one column per playout, "
                             f"shape ({len(self.moves)}, {count}), got shape {shape}.")
        if not isinstance(self.means, tuple) or len(self.means) != len(self.moves):
            raise ValueError(f"means must be a tuple of one mean per move ({len(self.moves)}), "
                             f"got {self.means!r}.")
        for mean in self.means:
            check_real("each mean", mean, 0.0, 1.0)
        if self.best_move not in self.moves:
            raise ValueError(f"best_move must be one of the moves {self.moves}, "
                             f"got {self.best_move!r}.")

    def mean_of(self, move) -> float:
        """The estimated value of one move."""
        if move not in self.moves:
            raise ValueError(f"move must be one of the moves of this run {self.moves}, "
                             f"got {move!r}.")
        return self.means[self.moves.index(move)]

    def prefix(self, playouts_per_move: int) -> FlatMCResult:
        """What the run knew after its first ``playouts_per_move`` rounds.

        Equal to a fresh run with that budget and the same seed (playouts are
        played in rounds), so one long run shows every shorter budget.
        """
        count = check_int("playouts_per_move", playouts_per_move, 1)
        if count > self.playouts_per_move:
            raise ValueError(
                f"playouts_per_move must be between 1 and {self.playouts_per_move} "
                f"(the playouts this run made), got {count}."
            )
        return _summarise(self.moves, self.results[:, :count])

    def standard_errors(self) -> np.ndarray:
        """Standard error of each mean: sample standard deviation / sqrt(playouts).

        Needs at least 2 playouts per move (``nan`` otherwise).
        """
        if self.playouts_per_move < 2:
            return np.full(len(self.moves), np.nan)
        spreads = [math.sqrt(sample_variance(row)) for row in self.results]
        return np.array(spreads) / math.sqrt(self.playouts_per_move)

    def intervals(self, z: float = 1.96) -> tuple[np.ndarray, np.ndarray]:
        """Approximate confidence intervals ``mean -/+ z * standard error`` (95% for 1.96).

        Needs at least 2 playouts per move (one playout has no spread to
        measure); raises ValueError otherwise rather than return NaN.
        """
        z = check_real("z (the number of standard errors)", z, 0.0, 1e6)
        if self.playouts_per_move < 2:
            raise ValueError("intervals need at least 2 playouts per move (one playout has no "
                             "spread to measure), this run has 1.")
        means = np.asarray(self.means)
        half_width = z * self.standard_errors()
        return means - half_width, means + half_width

    def clearly_worse(self, z: float = 1.96) -> tuple:
        """Moves whose whole interval lies below the leader's interval (the best mean so far).

        "Clearly worse" in chapter 1's sense: with intervals of ``z``
        standard errors (95% for 1.96), the data already rule out that the
        move is as good as the best one, so more playouts on it are wasted.
        Needs at least 2 playouts per move, as :meth:`intervals`.
        """
        low, high = self.intervals(z)
        best = self.moves.index(self.best_move)
        return tuple(move for i, move in enumerate(self.moves) if high[i] < low[best])


def flat_monte_carlo(state: GameState, playouts_per_move: int, seed) -> FlatMCResult:
    """Give every legal move the same number of random playouts; report the averages.

    Parameters
    ----------
    state : GameState
        A position where the game is still on.
    playouts_per_move : int
        Playouts for each legal move, from 1 to :data:`MAX_PLAYOUTS_PER_MOVE`.
    seed : int, numpy.random.SeedSequence, numpy.random.Generator or None
        Passed to :func:`mctslib.rng.make_rng`; the same seed gives the same result.

    Returns
    -------
    FlatMCResult

    Notes
    -----
    Playouts are played in rounds, one per move per round, so the first
    ``k`` columns of ``results`` are exactly what a run with ``k`` playouts
    per move and the same seed returns: a longer run extends a shorter one.
    Each playout is scored for the player to move in ``state``, the one who
    chooses among the moves. Chapter 1.
    """
    playouts_per_move = check_budget("playouts_per_move", playouts_per_move, 1,
                                     MAX_PLAYOUTS_PER_MOVE)
    _check_game_on(state, "flat_monte_carlo")
    source = move_source(make_rng(seed))  # wrapped once, not on every playout
    player = state.player_to_move
    moves = tuple(state.legal_moves())
    children = [state.play(move) for move in moves]
    results = np.empty((len(moves), playouts_per_move))
    for round_ in range(playouts_per_move):
        for i, child in enumerate(children):
            results[i, round_] = _playout(child, source).result(player)
    return _summarise(moves, results)


def _summarise(moves: tuple, results: np.ndarray) -> FlatMCResult:
    results = results.copy()
    results.flags.writeable = False
    means = tuple(fixed_order_mean(row) for row in results)  # the same bits on every machine
    # max() returns the first of equal maxima: ties go to the first move in order.
    best = max(range(len(moves)), key=lambda i: means[i])
    return FlatMCResult(moves, results.shape[1], results, means, moves[best])


# ------------------------------------------------------- exact choice probabilities


def _score_distribution(outcome: tuple[float, float, float], playouts: int) -> np.ndarray:
    """Chance of each total score, in half points 0..2*playouts, over ``playouts`` playouts."""
    win, draw, loss = outcome
    # One playout scores 0, 1 or 2 half points; the total of independent
    # playouts is the n-th convolution power (square-and-multiply).
    single = np.array([loss, draw, win], dtype=float)
    total, power = np.array([1.0]), single
    while playouts:
        if playouts & 1:
            total = convolve(total, power)  # fixed_order: not numpy's, which sums through BLAS
        playouts >>= 1
        if playouts:
            power = convolve(power, power)
    return total


def choice_probabilities(outcomes, playouts_per_move: int) -> np.ndarray:
    """Exact chance that flat Monte Carlo picks each move.

    Parameters
    ----------
    outcomes : sequence of (win, draw, loss)
        For each move, in move order, the chances of one playout's outcome
        for the player who made it (e.g. from
        :func:`mctslib.search.minimax.random_playout_outcomes`).
    playouts_per_move : int
        The budget per move, from 1 to :data:`MAX_CHOICE_PLAYOUTS`.

    Returns
    -------
    numpy.ndarray
        One probability per move; they sum to 1 (up to rounding).

    Notes
    -----
    Flat Monte Carlo plays the move with the highest total score, the first
    in move order on ties (as :func:`flat_monte_carlo`). So move ``i`` is
    picked with total ``s`` when every earlier move scored less than ``s``
    and every later move at most ``s``. Chapter 1 uses this to show that
    more playouts make flat Monte Carlo *more* sure to play a trap move.
    """
    playouts_per_move = check_budget("playouts_per_move", playouts_per_move, 1, MAX_CHOICE_PLAYOUTS)
    outcomes = [_outcome_triple(o) for o in _sequence("outcomes", outcomes)]
    if not outcomes or any(len(o) != 3 or abs(sum(o) - 1.0) > 1e-9 for o in outcomes):
        raise ValueError("outcomes must hold one (win, draw, loss) triple summing to 1 per move.")
    pmfs = [_score_distribution(o, playouts_per_move) for o in outcomes]
    at_most = [np.cumsum(pmf) for pmf in pmfs]  # P(total <= s); a running sum, left to right
    below = [np.concatenate(([0.0], cdf[:-1])) for cdf in at_most]  # P(total < s)
    chances = np.empty(len(outcomes))
    for i, pmf in enumerate(pmfs):
        others = np.ones_like(pmf)
        for j in range(len(outcomes)):
            if j < i:
                others *= below[j]
            elif j > i:
                others *= at_most[j]
        chances[i] = dot(pmf, others)
    return chances


def _sequence(name: str, values) -> list:
    """``values`` as a list, or a sentence if it cannot be one (None, a number, a string)."""
    if isinstance(values, (str, bytes)):
        raise ValueError(f"{name} must be a sequence, got the text {values!r}.")
    try:
        return list(values)
    except TypeError:
        raise ValueError(f"{name} must be a sequence, got {type(values).__name__}.") from None


def _outcome_triple(outcome) -> tuple:
    chances = _sequence("each outcome (win, draw, loss)", outcome)
    return tuple(check_real("an outcome chance", p, 0.0, 1.0) for p in chances)


# ---------------------------------------------------------------------- traps


@dataclass(frozen=True)
class Trap:
    """A position where flat Monte Carlo, given enough playouts, plays a losing move.

    Attributes
    ----------
    state : GameState
        The position (the game is on).
    trap_move
        The move with the highest exact random-playout value: what flat
        Monte Carlo converges to. It loses by force.
    refutation
        The opponent's only reply that wins against ``trap_move``.
    best_value : float
        Minimax value of the best move for the player to move (1 win, 0.5 draw).
    best_moves : tuple
        The moves that achieve ``best_value``.
    margin : float
        How much higher flat Monte Carlo rates the trap move than the best
        of ``best_moves`` (exact random-playout values): the bigger, the
        fewer playouts it takes to be fooled.
    """

    state: GameState
    trap_move: object
    refutation: object
    best_value: float
    best_moves: tuple
    margin: float


def _trap_at(state: GameState) -> Trap | None:
    random_values = random_playout_move_values(state)
    # max() keeps the first of equal values, as flat Monte Carlo breaks ties.
    trap_move = max(random_values, key=random_values.get)
    exact_values = move_values(state)
    best_value = max(exact_values.values())
    if exact_values[trap_move] != 0.0 or best_value < 0.5:
        return None
    after = state.play(trap_move)
    replies = after.legal_moves()
    opponent = after.player_to_move
    refutations = [r for r in replies if minimax_value(after.play(r), opponent) == 1.0]
    if len(refutations) != 1:
        return None
    best_moves = tuple(m for m, v in exact_values.items() if v == best_value)
    margin = random_values[trap_move] - max(random_values[m] for m in best_moves)
    return Trap(state, trap_move, refutations[0], best_value, best_moves, margin)


def find_traps(start: GameState) -> list[Trap]:
    """Every trap for flat Monte Carlo among the positions reachable from ``start``.

    A position is a trap when all of these hold:

    1. the move flat Monte Carlo converges to (the highest exact
       random-playout value, first in move order on ties) loses by force;
    2. it loses to exactly one reply of the opponent (the refutation), so
       random replies rarely find it but a real opponent always does;
    3. another move at least draws with best play.

    Returns
    -------
    list of Trap
        Most instructive first: positions where another move *wins* before
        those where it only draws, then by decreasing ``margin``, then in
        the order of :func:`mctslib.search.minimax.reachable_states`.
        Chapter 1 (problem 2 of flat Monte Carlo).
    """
    check_game_state(start, "start")
    traps = []
    for state in reachable_states(start):
        if state.is_terminal():
            continue
        trap = _trap_at(state)
        if trap is not None:
            traps.append(trap)
    # sorted() is stable, so equal keys keep the order of discovery.
    return sorted(traps, key=lambda trap: (-trap.best_value, -trap.margin))


# ---------------------------------------------------------------------- tables


def move_table(result: FlatMCResult, random_values=None, minimax_values=None,
               digits: int = 3) -> str:
    """A plain-text table: one row per move with flat Monte Carlo's estimate.

    Optional columns: the exact random-playout value and the minimax verdict
    (dicts ``{move: value}`` as returned by :mod:`mctslib.search.minimax`). The
    best move is marked with ``<-``. ``digits`` (0 to 15) is the number of
    decimals. Chapter 1 prints these tables.
    """
    if not isinstance(result, FlatMCResult):
        raise ValueError(f"result must be a FlatMCResult (from flat_monte_carlo), got "
                         f"{type(result).__name__}.")
    digits = check_int("digits", digits, 0, 15)
    verdicts = {1.0: "win", 0.5: "draw", 0.0: "loss"}
    for name, values in (("random_values", random_values), ("minimax_values", minimax_values)):
        if values is None:
            continue
        if not hasattr(values, "get"):
            raise ValueError(f"{name} must be a dict {{move: value}}, got {type(values).__name__}.")
        missing = [move for move in result.moves if move not in values]
        if missing:
            raise ValueError(f"{name} must give a value for every move of the run; "
                             f"{missing[0]!r} has none.")
        for move in result.moves:
            value = check_real(f"the value of move {move!r} in {name}", values[move], 0.0, 1.0)
            if name == "minimax_values" and value not in verdicts:
                raise ValueError(f"minimax_values must be 1 (win), 0.5 (draw) or 0 (loss), got "
                                 f"{value!r} for move {move!r}.")
    header = f"{'move':>4}  {'estimate':>8}"
    if random_values is not None:
        header += f"  {'exact':>{max(digits + 2, 5)}}"
    if minimax_values is not None:
        header += "  minimax"
    lines = [header]
    for move, mean in zip(result.moves, result.means):
        line = f"{move!s:>4}  {mean:>8.{digits}f}"
        if random_values is not None:
            line += f"  {random_values[move]:>{max(digits + 2, 5)}.{digits}f}"
        if minimax_values is not None:
            line += f"  {verdicts[minimax_values[move]]:>7}"
        if move == result.best_move:
            line += "  <- flat MC's choice"
        lines.append(line)
    return "\n".join(lines)
