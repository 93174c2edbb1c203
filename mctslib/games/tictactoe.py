"""Tic-tac-toe on two 9-bit masks, the first game of the book.

Cells are numbered 0..8 row by row; bit ``i`` of ``x`` (``o``) is set when X
(O) holds cell ``i``. X moves first, so the player to move follows from the
number of marks. The layout is the one the published UCT harness uses (UCT
chapter), which lets the readable code and the fast engines share positions.
Introduced in chapter 1 (flat Monte Carlo).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .._checks import shown
from .base import GameState, whole_number

#: The eight winning lines as cell masks: three rows, three columns, two diagonals.
LINES = (0x007, 0x038, 0x1C0, 0x049, 0x092, 0x124, 0x111, 0x054)
FULL = 0x1FF
SYMBOLS = ("X", "O")


def has_line(mask: int) -> bool:
    """True when the cells in ``mask`` (a 9-bit mask, 0..511) contain one of the eight lines."""
    checked = whole_number(mask)
    if checked is None or not 0 <= checked <= FULL:
        raise ValueError(f"mask must be a whole number from 0 to {FULL} (one bit per cell), "
                         f"got {shown(mask)}.")
    return _has_line(checked)


def _has_line(mask: int) -> bool:
    # Unchecked: winner() calls it on every position of every playout.
    return any(mask & line == line for line in LINES)


def _alternation_problem(first: int, second: int, has_win: Callable[[int], bool],
                        names: tuple[str, str], tally: str, line: str) -> str | None:
    """Why two players' marks cannot arise by alternating play, or None if they can.

    Shared by tic-tac-toe and sum-to-15 (the same game renamed). ``first`` and
    ``second`` are the two players' masks (already checked to be disjoint),
    ``has_win`` tells whether a mask holds a winning ``line`` (the word used
    in the sentence), ``names`` names the two players and ``tally`` is a format
    string with ``{first}`` and ``{second}`` for their numbers of marks. The
    first player moves first, so it holds as many marks as the second or one
    more; play stops at the first line, so at most one player has one, that
    player made the last move, and that last mark lies on every line it holds.
    """
    count_first, count_second = first.bit_count(), second.bit_count()
    counts = tally.format(first=count_first, second=count_second)
    name_first, name_second = names
    if count_first - count_second not in (0, 1):
        return (f"{name_first} moves first, so {name_first} has as many marks as {name_second} "
                f"or one more; got {counts}")
    wins = has_win(first), has_win(second)
    if wins[0] and wins[1]:
        return (f"both {name_first} and {name_second} have a {line}; the game ends at the "
                f"first {line}, so play cannot reach that")
    for player, mask, last_mover in ((0, first, count_first > count_second),
                                     (1, second, count_first == count_second)):
        if not wins[player]:
            continue
        name, other = names[player], names[1 - player]
        if not last_mover:
            return (f"{name} has a {line}, so {name} made the last move, yet {other} moved "
                    f"after it ({counts})")
        marks = [1 << bit for bit in range(mask.bit_length()) if mask >> bit & 1]
        if all(has_win(mask & ~mark) for mark in marks):
            return (f"{name} holds a {line} that no single last move can have completed, so "
                    "the game would have ended a move earlier")
    return None


@dataclass(frozen=True, slots=True)
class TicTacToe(GameState):
    """A tic-tac-toe position. ``TicTacToe()`` is the empty board.

    Moves are cell numbers 0..8. Use :meth:`from_string` to write a position
    by hand, e.g. ``TicTacToe.from_string("X.O/.X./..O")``.
    """

    x: int = 0
    o: int = 0

    def __post_init__(self):
        x, o = _cell_mask("x", self.x), _cell_mask("o", self.o)
        if x & o:
            cells = [cell for cell in range(9) if (x & o) >> cell & 1]
            raise ValueError(f"x and o both mark cell(s) {cells}; a cell holds one mark.")
        problem = _alternation_problem(x, o, _has_line, SYMBOLS, "{first} X and {second} O", "line")
        if problem is not None:
            raise ValueError(f"x={x} and o={o} is not a position play can reach: {problem}.")
        # A numpy integer becomes a plain int, so equal positions hash alike.
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "o", o)

    @classmethod
    def _after_move(cls, x: int, o: int) -> TicTacToe:
        # play() checked the move, so the new position is reachable: skip __post_init__'s
        # checks, which would otherwise run on every move of every playout.
        state = object.__new__(cls)
        object.__setattr__(state, "x", x)
        object.__setattr__(state, "o", o)
        return state

    @property
    def player_to_move(self) -> int:
        return (self.x | self.o).bit_count() % 2

    def free_mask(self) -> int:
        """Mask of the empty cells."""
        return FULL & ~(self.x | self.o)

    def legal_moves(self) -> tuple[int, ...]:
        if self.is_terminal():
            return ()
        free = self.free_mask()
        return tuple(cell for cell in range(9) if free >> cell & 1)

    def play(self, move) -> TicTacToe:
        cell = move if type(move) is int else whole_number(move)  # numpy integers too
        if (
            cell is None
            or not 0 <= cell < 9
            or not self.free_mask() >> cell & 1
            or self.is_terminal()
        ):
            raise self.illegal_move_error(move)
        bit = 1 << cell
        if self.player_to_move == 0:
            return TicTacToe._after_move(self.x | bit, self.o)
        return TicTacToe._after_move(self.x, self.o | bit)

    def winner(self) -> int | None:
        # X's lines are checked first, as in the reference harness.
        if _has_line(self.x):
            return 0
        if _has_line(self.o):
            return 1
        return None

    def is_terminal(self) -> bool:
        return self.winner() is not None or (self.x | self.o) == FULL

    @property
    def key(self) -> int:
        """An 18-bit integer that identifies the position: ``x << 9 | o``."""
        return self.x << 9 | self.o

    @classmethod
    def from_string(cls, text: str) -> TicTacToe:
        """Parse nine cells of ``X``, ``O`` and ``.`` (slashes, spaces and newlines ignored).

        Raises ValueError if the text does not describe a position reachable
        by alternating moves with X first.
        """
        if not isinstance(text, str):
            raise ValueError(f"text must be a string of nine cells of X, O or '.', got {shown(text)}.")
        cells = [ch for ch in text.upper() if ch not in " /\n\t|"]
        if len(cells) != 9 or any(ch not in "XO." for ch in cells):
            raise ValueError(
                f"a tic-tac-toe position needs exactly nine cells of X, O or '.', got {shown(text)}."
            )
        x = sum(1 << i for i, ch in enumerate(cells) if ch == "X")
        o = sum(1 << i for i, ch in enumerate(cells) if ch == "O")
        count_x, count_o = x.bit_count(), o.bit_count()
        if count_x - count_o not in (0, 1):
            raise ValueError(
                f"X moves first, so X has as many marks as O or one more; got {count_x} X and "
                f"{count_o} O in {shown(text)}."
            )
        try:
            return cls(x, o)
        except ValueError as error:  # the text, not the masks, is what the caller wrote
            raise ValueError(f"{shown(text)} is not a position play can reach: "
                             f"{str(error).split(': ', 1)[-1]}") from None

    def __str__(self) -> str:
        rows = []
        for row in range(3):
            cells = []
            for col in range(3):
                cell = 3 * row + col
                if self.x >> cell & 1:
                    cells.append("X")
                elif self.o >> cell & 1:
                    cells.append("O")
                else:
                    cells.append(".")
            rows.append(" ".join(cells))
        return "\n".join(rows)


def _cell_mask(name: str, mask) -> int:
    checked = whole_number(mask)
    if checked is None or not 0 <= checked <= FULL:
        raise ValueError(f"{name} must be a whole number from 0 to {FULL} (bit i set when the "
                         f"player holds cell i), got {shown(mask)}.")
    return checked
