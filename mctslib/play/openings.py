"""Random openings for matches: the same recipe for every game of the book.

A match between two bots from one starting position tests them on one game
tree; the chapters play each of many random openings twice, sides swapped
(:func:`mctslib.play.arena.play_match`). Chapter 5 draws them for Ultimate
Tic-Tac-Toe (:func:`mctslib.bots.uttt.random_openings`), chapter 6 for Hex and
Connect Four as well; all three call :func:`distinct_random_positions`, so the
same seed gives the same openings whichever game asks.
"""

from __future__ import annotations

from collections.abc import Callable

from ..games.base import GameState
from ..rng import make_rng


def distinct_random_positions(new_game: Callable[[], GameState], count: int, plies: int,
                              seed=None) -> list[GameState]:
    """``count`` distinct unfinished positions, each ``plies`` uniformly random moves from the start.

    Parameters
    ----------
    new_game : callable
        Returns the starting position (e.g. ``lambda: Hex(7)``).
    count, plies : int
        How many positions, and random moves to each (checked by the callers,
        which know their game's limits).
    seed
        Anything :func:`mctslib.rng.make_rng` takes. Each move is
        ``legal_moves()[rng.integers(len(moves))]``; a game that ends early
        stops there (and the position is not kept: it is finished).

    Raises
    ------
    ValueError
        If ``100 * count`` tries find fewer distinct unfinished positions.
    """
    rng, found, seen = make_rng(seed), [], set()
    for _ in range(100 * count):
        state = new_game()
        for _ in range(plies):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            state = state.play(moves[int(rng.integers(len(moves)))])
        if not state.is_terminal() and state not in seen:
            seen.add(state)
            found.append(state)
            if len(found) == count:
                return found
    raise ValueError(f"found only {len(found)} distinct openings of {plies} plies in "
                     f"{100 * count} tries; ask for fewer (count) or use more plies.")


def positions_at_plies(new_game: Callable[[], GameState], plies, per_ply: int,
                       seed=None) -> list[tuple[int, GameState]]:
    """``per_ply`` unfinished positions ``(depth, state)`` at each number of ``plies``.

    Each position is ``depth`` uniformly random moves from ``new_game()``,
    one :func:`mctslib.rng.make_rng` stream for all; a game that ends early is
    drawn again. Positions may repeat (at depth 0 they all do), unlike
    :func:`distinct_random_positions`'s: the memory experiment of
    chapter 6 (:func:`mctslib.experiments.enhancements.transpositions.memory_experiment`) and
    the parallel model of chapter 7 (:func:`mctslib.experiments.parallel.model.agreement`)
    want positions at given depths, not distinct openings.
    """
    rng, found = make_rng(seed), []
    for depth in plies:
        made = 0
        while made < per_ply:
            state = new_game()
            for _ in range(depth):
                if state.is_terminal():
                    break
                moves = state.legal_moves()
                state = state.play(moves[int(rng.integers(len(moves)))])
            if not state.is_terminal():
                found.append((depth, state))
                made += 1
    return found
