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
under a second. Call :func:`clear_caches` to free the memory. They walk the
game on an explicit stack rather than by recursion, so a long game (a pile of
3,000 stones in the subtraction game) is as welcome as a short one; a game
with more than :data:`MAX_POSITIONS` positions below the starting one is
refused with a sentence rather than left to run for hours.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

from .._checks import check_int
from ..games.base import DRAW, LOSS, WIN, GameState, check_game_state

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

#: The most positions one call solves or lists. Tic-tac-toe has 5,478 and a
#: 3,000-stone subtraction game 6,000; reaching this many takes seconds, so a
#: game far too large for exact answers (Ultimate Tic-Tac-Toe from the empty
#: board, which would never finish) is refused in seconds rather than hours.
MAX_POSITIONS = 200_000


def check_budget(name: str, value, minimum: int, maximum: int) -> int:
    """Return ``value`` as an int, or raise ValueError unless it is a whole number in range.

    :func:`mctslib._checks.check_int` for ``>= minimum`` (the same sentences
    as before), then a sentence of its own above ``maximum``: a budget the
    machine cannot serve (it would run for days or fill the memory) is
    refused at once rather than left to hang.
    """
    value = check_int(name, value, minimum)
    if value > maximum:
        raise ValueError(f"{name} must be at most {maximum:,}, got {_count_text(value)}.")
    return value


def _count_text(value: int) -> str:
    """A whole number for a sentence: with thousands separators, or about 1.00e+400 if huge."""
    digits = str(value)
    if len(digits) <= 24:
        return f"{value:,}"
    return f"about {digits[0]}.{digits[1:3]}e+{len(digits) - 1}"


def _too_large(what: str) -> ValueError:
    return ValueError(
        f"{what} handles games of at most {MAX_POSITIONS:,} positions, and the game from this "
        f"position has more; exact answers are for small games such as tic-tac-toe (5,478 "
        f"positions). Use a search (flat Monte Carlo, UCT) for larger games."
    )


def _check_player(player) -> int:
    # Whole numbers only: 0.0 or an array is a mistake to name, not a player to guess.
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or player not in (0, 1):
        raise ValueError(f"player must be 0 (moves first) or 1, got {player!r}.")
    return int(player)


def _check_not_over(state: GameState, what: str) -> None:
    check_game_state(state)
    if state.is_terminal():
        raise ValueError(f"{what} needs a position where the game is still on; this one is over.")


# --------------------------------------------------------------------------- minimax


def _solve(root: GameState, memo: dict, leaf: Callable, combine: Callable, what: str):
    """The value of ``root`` from its children's values, children first, memoised in ``memo``.

    Recursion written out on an explicit stack, so that a long game does not
    reach Python's recursion limit. A frame ``(state, None)`` is a position to
    look at; ``(state, children)`` one whose children are pushed above it and
    are therefore all solved when it comes back to the top. ``leaf(state)`` is
    a finished game's value, ``combine(state, child_values)`` any other
    position's (children in the order of ``legal_moves()``), exactly what the
    recursive version computed.
    """
    if root in memo:
        return memo[root]
    stack: list = [(root, None)]
    on_path: set = set()  # positions whose children are being solved: a child among them is a cycle
    solved = 0
    while stack:
        state, children = stack.pop()
        if children is not None:
            on_path.discard(state)
            memo[state] = combine(state, [memo[child] for child in children])
            continue
        if state in memo:
            continue  # reached again by another move order
        solved += 1
        if solved > MAX_POSITIONS:
            raise _too_large(what)
        if state.is_terminal():
            memo[state] = leaf(state)
            continue
        children = [state.play(move) for move in state.legal_moves()]
        if not children:
            raise ValueError(f"{what} needs a game that follows the protocol: the position "
                             f"{state} is not over but has no legal moves.")
        if any(child in on_path or child == state for child in children):
            raise ValueError(f"{what} needs a game that always ends: a move from {state} "
                             f"leads back to a position already on the way to it.")
        on_path.add(state)
        stack.append((state, children))
        # Reversed, so that the first move's position is solved first, as the recursion did.
        stack.extend((child, None) for child in reversed(children) if child not in memo)
    return memo[root]


# Solving for one fixed player (player 0) lets one cache serve both players:
# in a zero-sum game scored 1/0.5/0, player 1 gets 1 minus this.
_MINIMAX_FOR_FIRST_PLAYER: dict = {}


def _minimax_combine(state: GameState, children: list) -> float:
    return max(children) if state.player_to_move == 0 else min(children)


def _minimax_for_first_player(state: GameState, what: str = "minimax_value") -> float:
    return _solve(state, _MINIMAX_FOR_FIRST_PLAYER, lambda final: final.result(0),
                  _minimax_combine, what)


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
    state, so it is only practical for small games: more than
    :data:`MAX_POSITIONS` positions below ``state`` raise ValueError. Chapter 1
    (flat Monte Carlo) and the UCT chapter.
    """
    check_game_state(state)
    player = _check_player(player)
    value = _minimax_for_first_player(state)
    return value if player == 0 else 1.0 - value


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


_OUTCOMES_FOR_FIRST_PLAYER: dict = {}


def _final_outcomes(state: GameState) -> tuple[Fraction, Fraction, Fraction]:
    result = state.result(0)
    return (Fraction(result == WIN), Fraction(result == DRAW), Fraction(result == LOSS))


def _average_outcomes(state: GameState, children: list) -> tuple[Fraction, Fraction, Fraction]:
    # A uniformly random playout picks each legal move with equal probability,
    # so the chance of each outcome is the plain average over the children.
    # Exact fractions, because floats summed in different orders would make
    # mirror-image moves differ in the last bit, and then "the first of equal
    # values" (flat Monte Carlo's tie rule) would depend on rounding noise.
    count = len(children)
    return tuple(sum(child[k] for child in children) / count for k in range(3))


def _outcomes_for_first_player(state: GameState,
                               what: str = "random_playout_outcomes"
                               ) -> tuple[Fraction, Fraction, Fraction]:
    return _solve(state, _OUTCOMES_FOR_FIRST_PLAYER, _final_outcomes, _average_outcomes, what)


def _exact_outcomes(state: GameState, player: int) -> tuple[Fraction, Fraction, Fraction]:
    check_game_state(state)
    player = _check_player(player)
    win, draw, loss = _outcomes_for_first_player(state)
    return (win, draw, loss) if player == 0 else (loss, draw, win)


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

    Walked on an explicit stack (no recursion limit); more than
    :data:`MAX_POSITIONS` positions raise ValueError.
    """
    check_game_state(start, "start")
    seen: dict = {start: None}  # a dict keeps insertion order: the order of discovery
    # One frame per position on the way down: the position and the moves not yet tried,
    # exactly the loop the recursive version kept in each call.
    stack = [(start, iter(start.legal_moves()))]
    while stack:
        state, moves = stack[-1]
        for move in moves:
            child = state.play(move)
            if child not in seen:
                if len(seen) >= MAX_POSITIONS:
                    raise _too_large("reachable_states")
                seen[child] = None
                stack.append((child, iter(child.legal_moves())))
                break  # explore the new position before this one's next move
        else:
            stack.pop()
    return list(seen)


def clear_caches() -> None:
    """Forget every memoised value (frees memory; results do not change)."""
    _MINIMAX_FOR_FIRST_PLAYER.clear()
    _OUTCOMES_FOR_FIRST_PLAYER.clear()
