"""Pick numbers summing to 15: tic-tac-toe in disguise (UCT chapter).

Two players take turns picking a number from 1 to 9 that nobody has taken.
The first to hold three numbers that add up to 15 wins; if all nine are
taken first, it is a draw. On the magic square

    2 7 6
    9 5 1
    4 3 8

every row, column and diagonal sums to 15 and no other three numbers do, so
the game *is* tic-tac-toe with the cells renamed. The reader plays it against
UCT in the chapter's widget.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from .base import GameState

MAGIC_SQUARE = (2, 7, 6, 9, 5, 1, 4, 3, 8)
#: The eight triples of distinct numbers 1..9 that sum to 15, as bit masks (bit n = number n).
TRIPLES = tuple(
    sum(1 << n for n in triple) for triple in combinations(range(1, 10), 3) if sum(triple) == 15
)
ALL_NUMBERS = sum(1 << n for n in range(1, 10))


def _has_triple(mask: int) -> bool:
    return any(mask & triple == triple for triple in TRIPLES)


def numbers_of(mask: int) -> list[int]:
    """The numbers held in a mask, ascending."""
    return [n for n in range(1, 10) if mask >> n & 1]


@dataclass(frozen=True, slots=True)
class SumToFifteen(GameState):
    """Masks of the numbers held by the first and the second player (bit n = number n)."""

    first: int = 0
    second: int = 0

    @property
    def player_to_move(self) -> int:
        return (self.first | self.second).bit_count() % 2

    def legal_moves(self) -> tuple[int, ...]:
        if self.is_terminal():
            return ()
        taken = self.first | self.second
        return tuple(n for n in range(1, 10) if not taken >> n & 1)

    def play(self, move) -> SumToFifteen:
        if isinstance(move, bool) or move not in self.legal_moves():
            raise self.illegal_move_error(move)
        bit = 1 << move
        if self.player_to_move == 0:
            return SumToFifteen(self.first | bit, self.second)
        return SumToFifteen(self.first, self.second | bit)

    def winner(self) -> int | None:
        if _has_triple(self.first):
            return 0
        if _has_triple(self.second):
            return 1
        return None

    def is_terminal(self) -> bool:
        return self.winner() is not None or (self.first | self.second) == ALL_NUMBERS

    def __str__(self) -> str:
        return (f"first player holds {numbers_of(self.first)}, "
                f"second player holds {numbers_of(self.second)}")
