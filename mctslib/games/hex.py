"""Hex: two players race to join their own pair of opposite edges of a rhombus.

The game of the chapter "Enhancements that matter" on which RAVE (all moves
as first) is measured: a move's value hardly depends on when it is played,
and a game never ends in a draw.

Rules, with OpenSpiel's ``hex`` conventions (so a move means the same cell in
both; the test suite plays random games in both and compares them move by move):

* The board is a ``size`` x ``size`` rhombus of hexagonal cells. Moves are ints
  ``size * row + col`` (row-major, 0 .. size*size - 1); any empty cell is legal.
* Player 0 (X, OpenSpiel's Black ``x``) moves first and wins by joining the top
  row (row 0) to the bottom row (row ``size - 1``); player 1 (O, White ``o``)
  joins the left column to the right column.
* Cell ``(row, col)`` touches six cells: ``(row, col -+ 1)``, ``(row -+ 1, col)``,
  ``(row - 1, col + 1)`` and ``(row + 1, col - 1)``. Printed with each row
  shifted half a cell to the right of the one above (as :meth:`Hex.__str__`
  does), these are the six cells around it.
* No swap (pie) rule: OpenSpiel's default. The first player has a winning
  strategy on every board size, so the first move matters a lot.
* The game ends at the first connection. A full board always holds exactly
  one connection (the Hex theorem), so there are no draws.

Inside, each player's stones are a bit mask with ``size + 1`` bits per row:
the extra, always empty column stops the six neighbour shifts from wrapping
around a row's end, so a stone's group is grown with a few shifts and ANDs
(a flood fill) after each move, and the game is won when that group touches
both of the mover's edges.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from .._checks import check_int, shown
from .base import GameState, check_player, play_moves, whole_number

__all__ = ["MAX_SIZE", "MIN_SIZE", "Hex"]

MIN_SIZE, MAX_SIZE = 2, 19
SYMBOLS = ("X", "O")


class _Layout:
    """Bit positions and edge masks of one board size (computed once per size)."""

    __slots__ = ("bit_of", "edges", "size", "stride")

    def __init__(self, size: int):
        stride = size + 1  # one empty guard column per row
        self.size, self.stride = size, stride
        self.bit_of = tuple(1 << (stride * (move // size) + move % size)
                            for move in range(size * size))
        top = sum(1 << col for col in range(size))
        bottom = top << stride * (size - 1)
        left = sum(1 << stride * row for row in range(size))
        right = left << (size - 1)
        self.edges = ((top, bottom), (left, right))  # player 0's pair, player 1's pair


@cache
def _layout(size: int) -> _Layout:
    return _Layout(size)


def _group(stone: int, own: int, stride: int) -> int:
    """The stones of ``own`` connected to ``stone`` (a flood fill on the bit mask)."""
    group = stone
    while True:
        # The six neighbours: same row (1), row below or above (stride), and the two
        # diagonal ones (stride - 1); guard-column bits fall outside ``own``.
        grown = (group | group << 1 | group >> 1 | group << stride | group >> stride
                 | group << (stride - 1) | group >> (stride - 1)) & own
        if grown == group:
            return group
        group = grown


def _connects(player: int, own: int, stone: int, layout: _Layout) -> bool:
    """True when the group of ``stone`` in ``own`` touches both edges of ``player``."""
    first_edge, second_edge = layout.edges[player]
    group = _group(stone, own, layout.stride)
    return bool(group & first_edge) and bool(group & second_edge)


def _has_connection(player: int, own: int, layout: _Layout) -> bool:
    """True when some group of ``own`` joins ``player``'s two edges (any stone, not one)."""
    first_edge, _ = layout.edges[player]
    start = own & first_edge
    return start != 0 and _connects(player, own, start, layout)


class Hex(GameState):
    """A Hex position. ``Hex(size)`` is the empty board (7 x 7 by default).

    Parameters
    ----------
    size : int
        Cells per side, from 2 to 19 (the chapter uses 7; 11 is the
        tournament size and OpenSpiel's default).

    Attributes
    ----------
    stones : tuple of two ints
        X's and O's stones as bit masks with ``size + 1`` bits per row (cell
        ``row, col`` is bit ``(size + 1) * row + col``; see the module notes).

    Notes
    -----
    States are immutable and hashable: two states are equal when they have
    the same size and the same stones. Build positions with :meth:`from_moves`
    or :meth:`from_string`. ``legal_moves()`` lists the empty cells in
    ascending ``size * row + col`` order, as OpenSpiel's ``LegalActions``.
    Used in the chapter "Enhancements that matter" (RAVE).
    """

    __slots__ = ("_layout", "_player", "_winner", "size", "stones")

    def __init__(self, size: int = 7):
        size = check_int("size", size, MIN_SIZE, MAX_SIZE)
        self._set(size, (0, 0), 0, None)

    def _set(self, size, stones, player, winner):
        # The one place attributes are written; __setattr__ refuses everything else.
        for name, value in (("size", size), ("stones", stones), ("_player", player),
                            ("_winner", winner), ("_layout", _layout(size))):
            object.__setattr__(self, name, value)
        return self

    def __setattr__(self, name, value):
        raise AttributeError("Hex states are immutable; play() returns a new one.")

    def __reduce__(self):
        # copy and pickle rebuild through the checked path (__setattr__ refuses them).
        return (_rebuild, (self.size, self.stones))

    # --- the GameState protocol --------------------------------------------

    @property
    def player_to_move(self) -> int:
        return self._player

    def legal_moves(self) -> tuple[int, ...]:
        """The empty cells, ascending ``size * row + col`` (none once the game is won)."""
        if self._winner is not None:
            return ()
        taken = self.stones[0] | self.stones[1]
        return tuple(move for move, bit in enumerate(self._layout.bit_of) if not taken & bit)

    def play(self, move) -> Hex:
        """The position after a stone on cell ``move``; ValueError if it is not an empty cell."""
        cell = move if type(move) is int else whole_number(move)  # numpy integers too
        layout = self._layout
        if cell is None or not 0 <= cell < len(layout.bit_of) or self._winner is not None:
            raise self.illegal_move_error(move)
        stone = layout.bit_of[cell]
        black, white = self.stones
        if (black | white) & stone:
            raise self.illegal_move_error(move)
        player = self._player
        own = (black if player == 0 else white) | stone
        stones = (own, white) if player == 0 else (black, own)
        # A chain across the board needs at least ``size`` stones: skip the flood fill before.
        won = own.bit_count() >= self.size and _connects(player, own, stone, layout)
        return object.__new__(Hex)._set(self.size, stones, 1 - player, player if won else None)

    def is_terminal(self) -> bool:
        return self._winner is not None

    def winner(self) -> int | None:
        """0 or 1 once a player has joined their edges; None while the game is on."""
        return self._winner

    # --- queries ------------------------------------------------------------

    @property
    def key(self) -> int:
        """An integer that identifies the stones (for tables keyed by position of one size)."""
        return self.stones[0] << (self.size * (self.size + 1)) | self.stones[1]

    def cell(self, row: int, col: int) -> str:
        """``"X"``, ``"O"`` or ``"."`` at ``row, col`` (each 0 .. size - 1)."""
        bit = self._layout.bit_of[self.move_at(row, col)]
        return "X" if self.stones[0] & bit else "O" if self.stones[1] & bit else "."

    def move_at(self, row: int, col: int) -> int:
        """The move ``size * row + col`` of a cell (row and col each 0 .. size - 1)."""
        top = self.size - 1
        return self.size * check_int("row", row, 0, top) + check_int("col", col, 0, top)

    def stone_count(self, player: int) -> int:
        """How many stones ``player`` (0 or 1) has on the board."""
        return self.stones[check_player(player)].bit_count()

    # --- building positions ---------------------------------------------------

    @classmethod
    def from_moves(cls, moves: Iterable[int], size: int = 7) -> Hex:
        """Play ``moves`` (ints ``size * row + col``) from the empty board; an illegal one raises."""
        return play_moves(cls(size), moves, "whole numbers size * row + col")

    @classmethod
    def from_string(cls, text: str) -> Hex:
        """Parse a square of ``X``, ``O`` and ``.`` cells, row by row (as :meth:`grid` prints).

        Spaces and newlines are ignored, lower case is accepted; the number of
        cells gives the size (4, 9, ..., 361 cells). Raises ValueError unless
        alternating play with X first can reach the position: X has as many
        stones as O or one more, and if a player has joined their edges, that
        player moved last and one of their stones (the last move) completed
        every connection they hold.
        """
        if not isinstance(text, str):
            raise ValueError(f"text must be a string of X, O and '.' cells, got {shown(text)}.")
        cells = [ch for ch in text.upper() if not ch.isspace()]
        size = round(len(cells) ** 0.5)
        if size * size != len(cells) or not MIN_SIZE <= size <= MAX_SIZE \
                or any(ch not in "XO." for ch in cells):
            raise ValueError(f"a Hex board needs size * size cells of X, O or '.' (size "
                             f"{MIN_SIZE} to {MAX_SIZE}), got {len(cells)} characters in "
                             f"{shown(text)}.")
        layout = _layout(size)
        stones = tuple(sum(bit for bit, ch in zip(layout.bit_of, cells) if ch == symbol)
                       for symbol in SYMBOLS)
        problem = _reachability_problem(stones, layout)
        if problem is not None:
            raise ValueError(f"{shown(text)} is not a Hex position play can reach: {problem}.")
        return _rebuild(size, stones)

    # --- text -----------------------------------------------------------------

    def grid(self) -> str:
        """The board row by row, each row shifted one more space (readable by :meth:`from_string`)."""
        return "\n".join(" " * row + " ".join(self.cell(row, col) for col in range(self.size))
                         for row in range(self.size))

    def status_line(self) -> str:
        """Whose turn it is, or who won."""
        if self._winner is not None:
            return f"game over: {SYMBOLS[self._winner]} wins"
        return f"{SYMBOLS[self._player]} to move"

    def __str__(self) -> str:
        # Row numbers on the left, column numbers on top: move = size * row + col.
        width = len(str(self.size - 1))
        header = " " * (width + 1) + " ".join(f"{col % 10}" for col in range(self.size))
        rows = [f"{row:>{width}} " + " " * row
                + " ".join(self.cell(row, col) for col in range(self.size))
                for row in range(self.size)]
        legend = "X joins top and bottom, O joins left and right"
        return "\n".join([header, *rows, legend, self.status_line()])

    def __repr__(self) -> str:
        return f"Hex.from_string({self.grid()!r})"

    def __eq__(self, other) -> bool:
        if not isinstance(other, Hex):
            return NotImplemented
        return self.size == other.size and self.stones == other.stones

    def __hash__(self) -> int:
        return hash((self.size, self.stones))


def _rebuild(size: int, stones: tuple[int, int]) -> Hex:
    """A state from stone masks already known to be reachable (from_string, copy, pickle)."""
    layout = _layout(size)
    black, white = stones
    board = sum(layout.bit_of)
    if not (type(black) is int and type(white) is int and black & ~board == 0
            and white & ~board == 0 and not black & white):
        raise ValueError("stones must be two disjoint masks of cells of the board.")
    problem = _reachability_problem(stones, layout)
    if problem is not None:
        raise ValueError(f"the stones are not a position play can reach: {problem}.")
    winner = next((player for player in (0, 1)
                   if _has_connection(player, stones[player], layout)), None)
    player = (black.bit_count() + white.bit_count()) % 2
    return object.__new__(Hex)._set(size, (black, white), player, winner)


def _reachability_problem(stones: tuple[int, int], layout: _Layout) -> str | None:
    """Why alternating play cannot reach these stones, or None if it can.

    Removing stones never creates a connection, so any order of the other
    stones reaches the position one move before the last without a winner:
    the checks on the counts and on the last move are enough.
    """
    counts = stones[0].bit_count(), stones[1].bit_count()
    if counts[0] - counts[1] not in (0, 1):
        return f"X moves first, so X has as many stones as O or one more; got {counts[0]} X " \
               f"and {counts[1]} O"
    for player in (0, 1):
        own = stones[player]
        if not _has_connection(player, own, layout):
            continue
        name, other = SYMBOLS[player], SYMBOLS[1 - player]
        if (counts[0] > counts[1]) != (player == 0):
            return f"{name} has joined their edges, so {name} moved last, yet {other} moved after it"
        if all(_has_connection(player, own & ~bit, layout) for bit in layout.bit_of if own & bit):
            return f"no single last stone of {name} completed their connection, so the game " \
                   "would have ended a move earlier"
    return None
