"""Flat UCB: flat Monte Carlo whose playouts are handed out by UCB1.

Each legal move is an arm and each random playout after it a pull. The first
pulls go to every move once, in move order; after that each pull goes to the
move with the highest UCB1 score ``mean + c * sqrt(ln N / n)``, ``N`` being the
playouts made so far and ``n`` the move's own (the first move in order wins a
tie). The answer is the most pulled move. It is a one-level bandit: the
replies are still random, so it fixes flat Monte Carlo's waste (chapter 1's
problem 1) but not its trap (problem 2). Chapter 2 ("Spend playouts where
they pay") runs it on chapter 1's trap position.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..games.base import GameState
from ..learners.ucb1 import SQRT2, ucb1_score
from ..rng import make_rng, move_source
from .flat import _check_game_on, _playout
from .minimax import check_budget

__all__ = ["FlatUCBResult", "flat_ucb"]

#: The largest budget :func:`flat_ucb` accepts (the same order as flat Monte Carlo's).
MAX_PLAYOUTS = 10_000_000


@dataclass(frozen=True)
class FlatUCBResult:
    """What :func:`flat_ucb` learned: per move, in the order of ``state.legal_moves()``.

    Attributes
    ----------
    moves : tuple
    playouts : tuple of int
        Playouts each move received (they add up to the budget).
    means : tuple of float
        Average result of each move's playouts for the player to move.
    best_move
        The most pulled move (the first in move order among equals).
    """

    moves: tuple
    playouts: tuple
    means: tuple
    best_move: object


def flat_ucb(state: GameState, playouts: int, seed, c: float = SQRT2) -> FlatUCBResult:
    """Share ``playouts`` random playouts between the legal moves with UCB1.

    Parameters
    ----------
    state : GameState
        A position where the game is still on.
    playouts : int
        The whole budget, from 1 to :data:`MAX_PLAYOUTS`.
    seed : int, numpy.random.SeedSequence, numpy.random.Generator or None
        Passed to :func:`mctslib.rng.make_rng`; the same seed gives the same result.
    c : float
        UCB1's exploration constant, ``>= 0`` (results scored 1 / 0.5 / 0).

    Returns
    -------
    FlatUCBResult

    Notes
    -----
    Playouts are played and scored exactly as by
    :func:`mctslib.search.flat.flat_monte_carlo` (one ``below(len(moves))``
    draw per move of the playout, result for the player to move). Chapter 2.
    """
    playouts = check_budget("playouts", playouts, 1, MAX_PLAYOUTS)
    _check_game_on(state, "flat_ucb")
    ucb1_score(0.0, 0, 1, c)  # checks c with the same sentence as every UCB1 in the book
    source = move_source(make_rng(seed))
    player = state.player_to_move
    moves = tuple(state.legal_moves())
    children = [state.play(move) for move in moves]
    wins = [0.0] * len(moves)
    pulls = [0] * len(moves)
    for done in range(playouts):
        if done < len(moves):
            arm = done  # every move once, in move order, before any comparison
        else:
            scores = [ucb1_score(w, n, done, c) for w, n in zip(wins, pulls)]
            arm = scores.index(max(scores))  # the first of equal scores
        wins[arm] += _playout(children[arm], source).result(player)
        pulls[arm] += 1
    means = tuple(w / n if n else float("nan") for w, n in zip(wins, pulls))
    best = pulls.index(max(pulls))
    return FlatUCBResult(moves, tuple(pulls), means, moves[best])
