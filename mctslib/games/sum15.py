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

from .._checks import shown
from .base import GameState, whole_number
from .tictactoe import _alternation_problem

MAGIC_SQUARE = (2, 7, 6, 9, 5, 1, 4, 3, 8)
#: The eight triples of distinct numbers 1..9 that sum to 15, as bit masks (bit n = number n).
TRIPLES = tuple(
    sum(1 << n for n in triple) for triple in combinations(range(1, 10), 3) if sum(triple) == 15
)
ALL_NUMBERS = sum(1 << n for n in range(1, 10))


def _has_triple(mask: int) -> bool:
    return any(mask & triple == triple for triple in TRIPLES)


def numbers_of(mask: int) -> list[int]:
    """The numbers held in a mask, ascending (bit n set when n is held, n = 1..9)."""
    return [n for n in range(1, 10) if _number_mask("mask", mask) >> n & 1]


def _number_mask(name: str, mask) -> int:
    checked = whole_number(mask)
    if checked is None or checked < 0 or checked & ~ALL_NUMBERS:
        raise ValueError(f"{name} must be a mask of the numbers 1..9 (bit n set when n is held: "
                         f"a whole number with bits 1 to 9 only, at most {ALL_NUMBERS}), "
                         f"got {shown(mask)}.")
    return checked


@dataclass(frozen=True, slots=True)
class SumToFifteen(GameState):
    """Masks of the numbers held by the first and the second player (bit n = number n)."""

    first: int = 0
    second: int = 0

    def __post_init__(self):
        first, second = _number_mask("first", self.first), _number_mask("second", self.second)
        if first & second:
            raise ValueError(f"first and second both hold {numbers_of(first & second)}; each "
                             "number can be picked once.")
        problem = _alternation_problem(first, second, _has_triple, ("first", "second"),
                                      "{first} numbers for first and {second} for second",
                                      "triple summing to 15")
        if problem is not None:
            raise ValueError(f"first holding {numbers_of(first)} and second holding "
                             f"{numbers_of(second)} is not a position play can reach: {problem}.")
        # A numpy integer becomes a plain int, so equal positions hash alike.
        object.__setattr__(self, "first", first)
        object.__setattr__(self, "second", second)

    @classmethod
    def _after_move(cls, first: int, second: int) -> SumToFifteen:
        # play() checked the move, so the new position is reachable: skip the checks.
        state = object.__new__(cls)
        object.__setattr__(state, "first", first)
        object.__setattr__(state, "second", second)
        return state

    @property
    def player_to_move(self) -> int:
        return (self.first | self.second).bit_count() % 2

    def legal_moves(self) -> tuple[int, ...]:
        if self.is_terminal():
            return ()
        taken = self.first | self.second
        return tuple(n for n in range(1, 10) if not taken >> n & 1)

    def play(self, move) -> SumToFifteen:
        number = whole_number(move)  # numpy integers too; 5.0 and True are not numbers to pick
        if number is None or number not in self.legal_moves():
            raise self.illegal_move_error(move)
        bit = 1 << number
        if self.player_to_move == 0:
            return SumToFifteen._after_move(self.first | bit, self.second)
        return SumToFifteen._after_move(self.first, self.second | bit)

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
