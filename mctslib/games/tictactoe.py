"""Tic-tac-toe on two 9-bit masks, the first game of the book.

Cells are numbered 0..8 row by row; bit ``i`` of ``x`` (``o``) is set when X
(O) holds cell ``i``. X moves first, so the player to move follows from the
number of marks. The layout is the one the published UCT harness uses (UCT
chapter), which lets the readable code and the fast engines share positions.
Introduced in chapter 1 (flat Monte Carlo).
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import GameState

#: The eight winning lines as cell masks: three rows, three columns, two diagonals.
LINES = (0x007, 0x038, 0x1C0, 0x049, 0x092, 0x124, 0x111, 0x054)
FULL = 0x1FF
SYMBOLS = ("X", "O")


def has_line(mask: int) -> bool:
    """True when the cells in ``mask`` contain one of the eight lines."""
    return any(mask & line == line for line in LINES)


@dataclass(frozen=True, slots=True)
class TicTacToe(GameState):
    """A tic-tac-toe position. ``TicTacToe()`` is the empty board.

    Moves are cell numbers 0..8. Use :meth:`from_string` to write a position
    by hand, e.g. ``TicTacToe.from_string("X.O/.X./..O")``.
    """

    x: int = 0
    o: int = 0

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
        if (
            not isinstance(move, int)
            or isinstance(move, bool)
            or not 0 <= move < 9
            or not self.free_mask() >> move & 1
            or self.is_terminal()
        ):
            raise self.illegal_move_error(move)
        bit = 1 << move
        if self.player_to_move == 0:
            return TicTacToe(self.x | bit, self.o)
        return TicTacToe(self.x, self.o | bit)

    def winner(self) -> int | None:
        # X's lines are checked first, as in the reference harness.
        if has_line(self.x):
            return 0
        if has_line(self.o):
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
        cells = [ch for ch in text.upper() if ch not in " /\n\t|"]
        if len(cells) != 9 or any(ch not in "XO." for ch in cells):
            raise ValueError(
                f"a tic-tac-toe position needs exactly nine cells of X, O or '.', got {text!r}."
            )
        x = sum(1 << i for i, ch in enumerate(cells) if ch == "X")
        o = sum(1 << i for i, ch in enumerate(cells) if ch == "O")
        count_x, count_o = x.bit_count(), o.bit_count()
        if count_x - count_o not in (0, 1):
            raise ValueError(
                f"X moves first, so X has as many marks as O or one more; got {count_x} X and "
                f"{count_o} O in {text!r}."
            )
        return cls(x, o)

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
