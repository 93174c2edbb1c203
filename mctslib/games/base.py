"""The game protocol every search in the book works with.

A game state is an immutable, hashable value: playing a move returns a new
state and never changes the old one. That costs a little speed but makes the
readable algorithms easy to trust: a search can keep any state it has seen
(as a dictionary key, in a tree node, in a list of positions) without copying.
The fast engines (numba) use their own bitboards and are tested against the
states defined with this protocol.

Chapter 1 introduces the protocol with tic-tac-toe; later chapters add games.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Sequence
from numbers import Integral

from .._checks import shown

#: Scores of a finished game for one player: win, draw, loss (the book's
#: default reward scale; see the bandits chapter for the 1/0/-1 scale).
WIN, DRAW, LOSS = 1.0, 0.5, 0.0


def check_player(player) -> int:
    """Return ``player`` as an int, or raise ValueError unless it is 0 or 1.

    Python and numpy integers are accepted; booleans and floats are refused
    (``True`` and ``1.0`` are not player numbers, even though they equal 1).
    """
    if type(player) is int and (player == 0 or player == 1):  # the common case, kept cheap
        return player
    if isinstance(player, Integral) and not isinstance(player, bool) and player in (0, 1):
        return int(player)
    raise ValueError(f"player must be 0 or 1, got {shown(player)}.")


def whole_number(value) -> int | None:
    """``value`` as an int if it is a Python or numpy integer (not a bool), else None.

    The games' test for a move or an index: ``2.0`` and ``True`` equal whole
    numbers but are refused, so a mistake in a call is named, not guessed at.
    """
    if type(value) is int:
        return value
    if isinstance(value, Integral) and not isinstance(value, bool):
        return int(value)
    return None


def play_moves(start: GameState, moves, what: str) -> GameState:
    """Play ``moves`` one after the other from ``start``; an illegal one raises ValueError.

    The games' ``from_moves`` constructors share it. ``what`` names a move in
    the error for input that is not a sequence (a string, a number, a 0-d
    numpy array: it claims to be iterable but is one value).
    """
    if isinstance(moves, (str, bytes)) or not isinstance(moves, Iterable) \
            or getattr(moves, "ndim", 1) == 0:
        raise ValueError(f"moves must be a sequence of {what}, got {shown(moves)}.")
    state = start
    for move in moves:
        state = state.play(move)
    return state


class GameState(ABC):
    """A position of a two-player, alternating-move, zero-sum game.

    Subclasses implement the five abstract members; everything else in the
    library (playouts, flat Monte Carlo, minimax, UCT) uses only these.
    Players are numbered 0 (moves first) and 1.
    """

    __slots__ = ()

    @property
    @abstractmethod
    def player_to_move(self) -> int:
        """0 or 1: the player whose turn it is (undefined once the game is over)."""

    @abstractmethod
    def legal_moves(self) -> Sequence[Hashable]:
        """The moves the player to move may make, in a fixed order (empty when over)."""

    @abstractmethod
    def play(self, move) -> GameState:
        """The state after ``move``; raises ValueError naming the legal moves if illegal."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over."""

    @abstractmethod
    def winner(self) -> int | None:
        """0 or 1 for a won game, None for a draw or a game still on."""

    def result(self, player: int) -> float:
        """Score of the finished game for ``player`` (0 or 1): 1 win, 0.5 draw, 0 loss."""
        player = check_player(player)
        if not self.is_terminal():
            raise ValueError("result() is defined only for a finished game; this one is still on.")
        winner = self.winner()
        if winner is None:
            return DRAW
        return WIN if winner == player else LOSS

    def illegal_move_error(self, move) -> ValueError:
        """The ValueError every game raises for an illegal move (one wording for all)."""
        if self.is_terminal():
            return ValueError(f"move {shown(move)} is illegal: the game is over.")
        legal = ", ".join(repr(m) for m in self.legal_moves())
        return ValueError(f"move {shown(move)} is illegal here; legal moves are: {legal}.")


def check_game_state(state, name: str = "state") -> GameState:
    """Return ``state``, or raise ValueError unless it is a game position (a :class:`GameState`).

    The exact solvers, flat Monte Carlo, UCT, the arena and the bots accept any
    game written with the protocol of this module; anything else (a simultaneous-move
    state, a number, a board as text) is named in one sentence here instead
    of failing deep inside with an AttributeError.
    """
    if not isinstance(state, GameState):
        raise ValueError(f"{name} must be a game position (a GameState such as TicTacToe() or "
                         f"SubtractionGame(10)), got {_describe(state)}.")
    return state


def _describe(value) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text[:60] + '...' if len(text) > 60 else text}"
