"""Exact answers for small games: minimax values, exact random-playout values, all positions.

Flat Monte Carlo (chapter 1) *estimates* how good a move is from random
playouts. For a game as small as tic-tac-toe we can also compute, exactly,

- the **minimax value** of a position: the result with perfect play by both
  sides, and
- the **random-playout value**: the expected result of a playout in which
  both sides move uniformly at random. This is the number flat Monte Carlo's
  average converges to as the number of playouts grows.

Comparing the two shows where random playouts mislead (chapter 1's trap
position); the UCT chapter uses :func:`winning_moves` and
:func:`reachable_states` to check a search on every position of tic-tac-toe.

Values are on the book's scale (1 win, 0.5 draw, 0 loss) and are always
given *for a named player*, so they are defined for finished games too.
Both recursions are memoised on the (hashable) state, so each position is
solved once per process; tic-tac-toe has 5,478 positions, which takes well
under a second. Call :func:`clear_caches` to free the memory.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from ..games.base import DRAW, LOSS, WIN, GameState

__all__ = [
    "clear_caches",
    "minimax_value",
    "move_values",
    "random_playout_move_values",
    "random_playout_outcomes",
    "random_playout_value",
    "reachable_states",
    "winning_moves",
]


def _check_player(player) -> int:
    if isinstance(player, bool) or player not in (0, 1):
        raise ValueError(f"player must be 0 (moves first) or 1, got {player!r}.")
    return int(player)


def _check_not_over(state: GameState, what: str) -> None:
    if state.is_terminal():
        raise ValueError(f"{what} needs a position where the game is still on; this one is over.")


# --------------------------------------------------------------------------- minimax


@cache
def _minimax_for_first_player(state: GameState) -> float:
    # Solving for one fixed player (player 0) lets one cache serve both
    # players: in a zero-sum game scored 1/0.5/0, player 1 gets 1 minus this.
    if state.is_terminal():
        return state.result(0)
    children = [_minimax_for_first_player(state.play(move)) for move in state.legal_moves()]
    return max(children) if state.player_to_move == 0 else min(children)


def minimax_value(state: GameState, player: int) -> float:
    """Result for ``player`` when both sides play perfectly from ``state``.

    Parameters
    ----------
    state : GameState
        Any position, finished or not.
    player : int
        0 or 1: whose result to report.

    Returns
    -------
    float
        1 (``player`` wins by force), 0.5 (a draw with best play) or 0 (loses by force).

    Notes
    -----
    Plain minimax over the whole game tree below ``state``, memoised on the
    state, so it is only practical for small games. Chapter 1 (flat Monte
    Carlo) and the UCT chapter.
    """
    value = _minimax_for_first_player(state)
    return value if _check_player(player) == 0 else 1.0 - value


def move_values(state: GameState) -> dict:
    """Minimax value of every legal move, for the player who makes it.

    Returns a dict ``{move: value}`` in the order of ``state.legal_moves()``.
    Raises ValueError if the game is over. Chapter 1.
    """
    _check_not_over(state, "move_values")
    mover = state.player_to_move
    return {move: minimax_value(state.play(move), mover) for move in state.legal_moves()}


def winning_moves(state: GameState) -> tuple:
    """The legal moves that win by force for the player to move (possibly none).

    In the order of ``state.legal_moves()``. Raises ValueError if the game is
    over. Chapter 1 (the refutation of a trap move) and the UCT chapter.
    """
    return tuple(move for move, value in move_values(state).items() if value == WIN)


# ------------------------------------------------------------------ random playouts


@cache
def _outcomes_for_first_player(state: GameState) -> tuple[Fraction, Fraction, Fraction]:
    # A uniformly random playout picks each legal move with equal probability,
    # so the chance of each outcome is the plain average over the children.
    # Exact fractions, because floats summed in different orders would make
    # mirror-image moves differ in the last bit, and then "the first of equal
    # values" (flat Monte Carlo's tie rule) would depend on rounding noise.
    if state.is_terminal():
        result = state.result(0)
        return (Fraction(result == WIN), Fraction(result == DRAW), Fraction(result == LOSS))
    children = [_outcomes_for_first_player(state.play(move)) for move in state.legal_moves()]
    count = len(children)
    return tuple(sum(child[k] for child in children) / count for k in range(3))


def _exact_outcomes(state: GameState, player: int) -> tuple[Fraction, Fraction, Fraction]:
    win, draw, loss = _outcomes_for_first_player(state)
    return (win, draw, loss) if _check_player(player) == 0 else (loss, draw, win)


def random_playout_outcomes(state: GameState, player: int) -> tuple[float, float, float]:
    """Exact chances (win, draw, loss) for ``player`` of a uniformly random playout.

    Both sides pick each legal move with equal probability until the game
    ends (what :func:`mctslib.search.flat.random_playout` does). Computed with exact
    fractions and rounded to floats at the end; the three chances sum to 1.
    Chapter 1 uses them for the spread of one playout's result and for the
    chance that flat Monte Carlo picks each move.
    """
    return tuple(float(chance) for chance in _exact_outcomes(state, player))


def random_playout_value(state: GameState, player: int) -> float:
    """Exact expected result for ``player`` of a uniformly random playout from ``state``.

    ``win + 0.5 * draw`` from :func:`random_playout_outcomes` (computed
    exactly, then rounded). This is the value flat Monte Carlo's average for
    a move converges to as its number of playouts grows. Chapter 1.
    """
    win, draw, _ = _exact_outcomes(state, player)
    return float(win + draw / 2)


def random_playout_move_values(state: GameState) -> dict:
    """Exact random-playout value of every legal move, for the player who makes it.

    Returns a dict ``{move: value}`` in the order of ``state.legal_moves()``:
    what flat Monte Carlo would report with infinitely many playouts per
    move. Raises ValueError if the game is over. Chapter 1.
    """
    _check_not_over(state, "random_playout_move_values")
    mover = state.player_to_move
    return {move: random_playout_value(state.play(move), mover) for move in state.legal_moves()}


# ------------------------------------------------------------------- enumeration


def reachable_states(start: GameState) -> list:
    """Every position reachable from ``start`` (``start`` included), finished ones too.

    Depth-first search trying moves in the order of ``legal_moves()`` (for
    tic-tac-toe: free cells in ascending order); a position is listed when
    it is first reached and its moves are explored only then, so every
    position appears once (states are compared by value: two move orders
    reaching the same position give one entry). From the empty tic-tac-toe
    board this gives 5,478 positions, 4,520 of them with the game still on.
    Chapter 1 (the trap search) and the UCT chapter (its harness walks the
    positions in this order).
    """
    seen: dict = {}  # a dict keeps insertion order: the order of discovery

    def visit(state: GameState) -> None:
        if state in seen:
            return
        seen[state] = None
        for move in state.legal_moves():
            visit(state.play(move))

    visit(start)
    return list(seen)


def clear_caches() -> None:
    """Forget every memoised value (frees memory; results do not change)."""
    _minimax_for_first_player.cache_clear()
    _outcomes_for_first_player.cache_clear()
