"""Heuristic playout policies for Ultimate Tic-Tac-Toe, written to be read (chapter "Enhancements and failure modes").

The readable twin of :mod:`mctslib.fast.uttt_playouts`: the same policies
(``random``, ``wins``, ``safe``, ``capture``, ``greedy``), the same moves for
the same :class:`~mctslib.xorshift.XorShift64` stream (the tests compare them
playout by playout), on :class:`~mctslib.games.uttt.UltimateTicTacToe`
positions. A policy decides one move at a time:

1. ``random`` draws ``legal_moves()[below(count)]``.
2. Every other policy first takes the lowest move that wins the game at once
   (a *decisive* move, Teytaud and Teytaud 2010); ``wins`` stops there and
   plays a random move otherwise.
3. ``safe``, ``capture`` and ``greedy`` then drop the moves after which the
   opponent could win the game at once (the *anti-decisive* rule), unless
   that drops every move. The check runs only when such a reply is possible
   at all (:func:`danger`), which early in a game it never is.
4. ``capture`` prefers, among the moves left, one that wins a small board
   (drawn at random); ``greedy`` always takes the lowest such move.
5. Otherwise a random move among those left.
"""

from __future__ import annotations

from ..games.tictactoe import has_line
from ..games.uttt import UltimateTicTacToe, to_board_cell

POLICIES = ("random", "wins", "safe", "capture", "greedy")
FULL = 0x1FF


def danger(state: UltimateTicTacToe) -> bool:
    """Whether some move of the player to move might let the opponent win the game at once.

    The opponent has two won boards in a line with the third still open, or
    two boards or fewer are open (closing the last may end the game on the
    board count). Generous on purpose: the moves are then checked one by one.
    """
    open_boards = FULL & ~state.closed_mask
    theirs = state.won_mask(1 - state.player_to_move)
    completes = any(open_boards >> board & 1 and has_line(theirs | 1 << board)
                    for board in range(9))
    return completes or open_boards.bit_count() <= 2


def wins_small_board(state: UltimateTicTacToe, move: int) -> bool:
    """Whether ``move`` completes a line of the mover's marks in its small board."""
    board, cell = to_board_cell(move)
    marks = (state.x, state.o)[state.player_to_move][board]
    return has_line(marks | 1 << cell)


def policy_move(state: UltimateTicTacToe, rng, policy: str = "random") -> int:
    """The move ``policy`` plays in ``state`` (a game still on), drawing from ``rng`` (XorShift64)."""
    if policy not in POLICIES:
        raise ValueError(f"playout must be one of {', '.join(POLICIES)}, got {policy!r}.")
    moves = state.legal_moves()
    if policy == "random":
        return moves[rng.below(len(moves))]
    decisive = state.winning_moves()
    if decisive:
        return decisive[0]
    if policy == "wins":
        return moves[rng.below(len(moves))]
    threatened = danger(state)
    if policy == "safe" and not threatened:
        return moves[rng.below(len(moves))]
    if threatened:
        safe = [move for move in moves if not state.play(move).winning_moves()]
        if safe:
            moves = safe
    if policy in ("capture", "greedy"):
        captures = [move for move in moves if wins_small_board(state, move)]
        if captures:
            return captures[0] if policy == "greedy" else captures[rng.below(len(captures))]
    return moves[rng.below(len(moves))]


def policy_playout(state: UltimateTicTacToe, rng, policy: str = "random") -> UltimateTicTacToe:
    """Play ``policy``'s moves until the game ends; return the final position."""
    while not state.is_terminal():
        state = state.play(policy_move(state, rng, policy))
    return state
