"""Matches between players, with the first move alternating (UCT chapter onward).

A *player* is anything with ``choose(state) -> move``: a :class:`~mctslib.uct.UCTSearch`,
a :class:`RandomPlayer`, a human behind a widget.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ._checks import check_int
from .games.base import GameState
from .progress import progress_bar
from .rng import GeneratorSource, spawn_rngs
from .stats import score_interval


class RandomPlayer:
    """Plays a uniformly random legal move (the opponent of the harness, chapter 1 playouts)."""

    def __init__(self, seed=None):
        self.source = GeneratorSource(seed)

    def choose(self, state: GameState):
        moves = state.legal_moves()
        return moves[self.source.below(len(moves))]


@dataclass(frozen=True)
class MatchResult:
    """Games from the first player's (A's) point of view, with a 95% Wilson interval."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return score_interval(self.wins, self.draws, self.losses)[0]

    @property
    def interval(self) -> tuple[float, float]:
        return score_interval(self.wins, self.draws, self.losses)[1:]

    def __str__(self) -> str:
        low, high = self.interval
        return (f"{self.games} games: {self.wins} wins, {self.draws} draws, {self.losses} losses; "
                f"score {self.score:.3f}, 95% interval [{low:.3f}, {high:.3f}]")


def play_game(players, state: GameState) -> GameState:
    """Play one game; ``players[p]`` moves when player ``p`` is to move. Returns the final state."""
    while not state.is_terminal():
        state = state.play(players[state.player_to_move].choose(state))
    return state


def play_match(make_a: Callable, make_b: Callable, start: GameState, games: int,
               seed=None) -> MatchResult:
    """Play ``games`` games between A and B, A moving first in the even-numbered games.

    Parameters
    ----------
    make_a, make_b : callable(seed) -> player
        Build a player from a random generator; each game gets fresh players
        with their own streams (spawned from ``seed``), so a game's result
        does not depend on the games before it.
    start : GameState
        The position every game starts from.
    games : int
        Number of games (>= 1); use an even number so both sides move first
        equally often.
    seed : int, Generator or None
        Where every player's random numbers come from.
    """
    games = check_int("games", games, 1)
    tally = [0, 0, 0]
    streams = spawn_rngs(seed, 2 * games)
    with progress_bar(games, "games") as bar:
        for game in range(games):
            a, b = make_a(streams[2 * game]), make_b(streams[2 * game + 1])
            a_side = game % 2
            players = (a, b) if a_side == 0 else (b, a)
            result = play_game(players, start).result(a_side)
            tally[{1.0: 0, 0.5: 1, 0.0: 2}[result]] += 1
            bar.update(1)
    return MatchResult(*tally)
