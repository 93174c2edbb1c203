"""The subtraction game: take 1, 2 or 3 stones; whoever takes the last stone wins (UCT chapter).

A pile that is a multiple of 4 is lost for the player to move: whatever they
take (1, 2 or 3), the opponent takes the rest of 4. From any other pile the
winning move leaves a multiple of 4. UCT finds these moves with no knowledge
of the rule, which makes the game a clean test of a search.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._checks import check_int, shown
from .base import GameState, whole_number

#: The most stones a move may take: legal_moves() lists every take, so a larger
#: bound would let one call build a list of millions of moves.
MAX_TAKE = 1000


@dataclass(frozen=True, slots=True)
class SubtractionGame(GameState):
    """A pile of ``stones`` with ``mover`` (0 or 1) to play; moves are how many to take.

    ``max_take`` is the most stones one move may take (3 in the book, at most
    :data:`MAX_TAKE`).
    """

    stones: int
    mover: int = 0
    max_take: int = 3

    def __post_init__(self):
        stones = check_int("stones", self.stones, 0)
        max_take = check_int("max_take", self.max_take, 1, MAX_TAKE)
        mover = whole_number(self.mover)
        if mover not in (0, 1):
            raise ValueError(f"mover must be 0 or 1, got {shown(self.mover)}.")
        # Numpy integers become plain ints, so equal positions hash alike.
        for name, value in (("stones", stones), ("mover", mover), ("max_take", max_take)):
            object.__setattr__(self, name, value)

    @property
    def player_to_move(self) -> int:
        return self.mover

    def legal_moves(self) -> tuple[int, ...]:
        return tuple(range(1, min(self.max_take, self.stones) + 1))

    def play(self, move) -> SubtractionGame:
        take = whole_number(move)  # numpy integers too; 1.0 and True are not takes
        if take is None or not 1 <= take <= min(self.max_take, self.stones):
            raise self.illegal_move_error(move)
        return SubtractionGame(self.stones - take, 1 - self.mover, self.max_take)

    def is_terminal(self) -> bool:
        return self.stones == 0

    def winner(self) -> int | None:
        # The player who took the last stone is the one who is not to move now.
        return 1 - self.mover if self.stones == 0 else None

    def __str__(self) -> str:
        return f"{self.stones} stones, player {self.mover} to move"


def winning_take(stones: int, max_take: int = 3) -> int | None:
    """The theory's winning move: leave a multiple of ``max_take + 1`` (None if lost)."""
    stones = check_int("stones", stones, 0)
    max_take = check_int("max_take", max_take, 1, MAX_TAKE)
    take = stones % (max_take + 1)
    return take or None
