"""The subtraction game: take 1, 2 or 3 stones; whoever takes the last stone wins (UCT chapter).

A pile that is a multiple of 4 is lost for the player to move: whatever they
take (1, 2 or 3), the opponent takes the rest of 4. From any other pile the
winning move leaves a multiple of 4. UCT finds these moves with no knowledge
of the rule, which makes the game a clean test of a search.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._checks import check_int
from .base import GameState


@dataclass(frozen=True, slots=True)
class SubtractionGame(GameState):
    """A pile of ``stones`` with ``mover`` (0 or 1) to play; moves are how many to take.

    ``max_take`` is the most stones one move may take (3 in the book).
    """

    stones: int
    mover: int = 0
    max_take: int = 3

    def __post_init__(self):
        check_int("stones", self.stones, 0)
        check_int("max_take", self.max_take, 1)
        if self.mover not in (0, 1):
            raise ValueError(f"mover must be 0 or 1, got {self.mover!r}.")

    @property
    def player_to_move(self) -> int:
        return self.mover

    def legal_moves(self) -> tuple[int, ...]:
        return tuple(range(1, min(self.max_take, self.stones) + 1))

    def play(self, move) -> SubtractionGame:
        if move not in self.legal_moves() or isinstance(move, bool):
            raise self.illegal_move_error(move)
        return SubtractionGame(self.stones - move, 1 - self.mover, self.max_take)

    def is_terminal(self) -> bool:
        return self.stones == 0

    def winner(self) -> int | None:
        # The player who took the last stone is the one who is not to move now.
        return 1 - self.mover if self.stones == 0 else None

    def __str__(self) -> str:
        return f"{self.stones} stones, player {self.mover} to move"


def winning_take(stones: int, max_take: int = 3) -> int | None:
    """The theory's winning move: leave a multiple of ``max_take + 1`` (None if lost)."""
    take = stones % (max_take + 1)
    return take or None
