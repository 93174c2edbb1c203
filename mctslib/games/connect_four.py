"""Connect Four: drop discs into seven columns; four in a row wins.

The game of the chapter "Enhancements that matter" on which transposition
tables are measured: the same position arises from many move orders (X
playing columns 0 and 3 while O plays columns 1 and 5 reaches one position
by four orders), so a search tree holds many copies of it.

Rules, with OpenSpiel's ``connect_four`` conventions (the test suite plays
random games in both and compares them move by move):

* 6 rows, 7 columns. A move is a column 0..6; the disc falls to the lowest
  empty cell of that column, and a full column is not a legal move.
* Player 0 (X, OpenSpiel's ``x``) moves first.
* Four discs of one player in a line (horizontal, vertical or either
  diagonal) win at once. A full board without one is a draw.

Inside, each player's discs are a bit mask in the classic layout: column
``c`` uses bits ``7c`` (bottom) to ``7c + 5`` (top), and bit ``7c + 6`` stays
empty so that shifts by 1 (vertical), 7 (horizontal), 6 and 8 (diagonals)
never carry a line from one column into the next.
"""

from __future__ import annotations

from collections.abc import Iterable

from .._checks import check_int, shown
from .base import GameState, check_player, play_moves, whole_number

__all__ = ["COLUMNS", "ROWS", "ConnectFour"]

ROWS, COLUMNS = 6, 7
HEIGHT = ROWS + 1  # bits per column: six cells and one empty guard bit
SYMBOLS = ("X", "O")
#: The bottom cell of every column, and every cell of the board.
BOTTOM = sum(1 << HEIGHT * col for col in range(COLUMNS))
FULL = sum(((1 << ROWS) - 1) << HEIGHT * col for col in range(COLUMNS))
_COLUMN_CELLS = tuple(((1 << ROWS) - 1) << HEIGHT * col for col in range(COLUMNS))
_TOP_CELL = tuple(1 << HEIGHT * col + ROWS - 1 for col in range(COLUMNS))
#: Shifts from a cell to the next one along a line: up, right, down-right, up-right.
_DIRECTIONS = (1, HEIGHT, HEIGHT - 1, HEIGHT + 1)


def _has_four(discs: int) -> bool:
    """True when the bit mask ``discs`` holds four in a line in some direction."""
    for step in _DIRECTIONS:
        pairs = discs & discs >> step  # cells that start two in a line
        if pairs & pairs >> 2 * step:  # two such pairs, two steps apart: four in a line
            return True
    return False


class ConnectFour(GameState):
    """A Connect Four position. ``ConnectFour()`` is the empty 6 x 7 board.

    Attributes
    ----------
    discs : tuple of two ints
        X's and O's discs as bit masks: row ``row`` (0 = bottom) of column
        ``col`` is bit ``7 * col + row`` (see the module notes).

    Notes
    -----
    States are immutable and hashable: two states are equal when they hold
    the same discs, whatever order of moves reached them, so a dictionary
    keyed by states is already a transposition table. :attr:`key` gives the
    same identity as one integer below ``2**49``. Build positions with
    :meth:`from_moves` or :meth:`from_string`. Moves are columns 0..6,
    listed in ascending order.
    Used in the chapter "Enhancements that matter" (transpositions).
    """

    __slots__ = ("_player", "_winner", "discs")

    def __init__(self):
        self._set((0, 0), 0, None)

    def _set(self, discs, player, winner):
        # The one place attributes are written; __setattr__ refuses everything else.
        object.__setattr__(self, "discs", discs)
        object.__setattr__(self, "_player", player)
        object.__setattr__(self, "_winner", winner)
        return self

    def __setattr__(self, name, value):
        raise AttributeError("ConnectFour states are immutable; play() returns a new one.")

    def __reduce__(self):
        # copy and pickle rebuild through the checked parser (__setattr__ refuses them).
        return (ConnectFour.from_string, (self.grid(),))

    # --- the GameState protocol --------------------------------------------

    @property
    def player_to_move(self) -> int:
        return self._player

    def legal_moves(self) -> tuple[int, ...]:
        """The columns that are not full, ascending (none once the game is over)."""
        if self.is_terminal():
            return ()
        taken = self.discs[0] | self.discs[1]
        return tuple(col for col in range(COLUMNS) if not taken & _TOP_CELL[col])

    def play(self, move) -> ConnectFour:
        """The position after a disc dropped in column ``move``; ValueError if it is illegal."""
        col = move if type(move) is int else whole_number(move)  # numpy integers too
        if col is None or not 0 <= col < COLUMNS or self.is_terminal():
            raise self.illegal_move_error(move)
        taken = self.discs[0] | self.discs[1]
        if taken & _TOP_CELL[col]:
            raise self.illegal_move_error(move)
        # Adding the column's bottom bit to its run of discs carries to the first empty cell.
        disc = (taken + (1 << HEIGHT * col)) & _COLUMN_CELLS[col]
        player = self._player
        own = self.discs[player] | disc
        discs = (own, self.discs[1]) if player == 0 else (self.discs[0], own)
        winner = player if _has_four(own) else None
        return object.__new__(ConnectFour)._set(discs, 1 - player, winner)

    def is_terminal(self) -> bool:
        return self._winner is not None or (self.discs[0] | self.discs[1]) == FULL

    def winner(self) -> int | None:
        """0 or 1 once a player has four in a line; None for a draw or a game still on."""
        return self._winner

    # --- queries ------------------------------------------------------------

    @property
    def key(self) -> int:
        """One integer below ``2**49`` that identifies the position (for transposition tables).

        Adding each column's bottom bit to the mask of all discs leaves one
        bit just above the column's top disc; adding X's discs (all below that
        bit, so nothing carries) records who owns each disc under it.
        """
        x, o = self.discs
        return x + (x | o) + BOTTOM

    def height(self, col: int) -> int:
        """How many discs column ``col`` (0..6) holds."""
        col = check_int("col", col, 0, COLUMNS - 1)
        return ((self.discs[0] | self.discs[1]) & _COLUMN_CELLS[col]).bit_count()

    def cell(self, row: int, col: int) -> str:
        """``"X"``, ``"O"`` or ``"."`` at ``row`` (0 bottom .. 5 top) and ``col`` (0..6)."""
        bit = 1 << HEIGHT * check_int("col", col, 0, COLUMNS - 1) \
            + check_int("row", row, 0, ROWS - 1)
        return "X" if self.discs[0] & bit else "O" if self.discs[1] & bit else "."

    def disc_count(self, player: int) -> int:
        """How many discs ``player`` (0 or 1) has on the board."""
        return self.discs[check_player(player)].bit_count()

    # --- building positions ---------------------------------------------------

    @classmethod
    def from_moves(cls, moves: Iterable[int]) -> ConnectFour:
        """Play ``moves`` (columns 0..6) from the empty board; an illegal one raises."""
        return play_moves(cls(), moves, f"columns (whole numbers 0 to {COLUMNS - 1})")

    @classmethod
    def from_string(cls, text: str) -> ConnectFour:
        """Parse 42 cells of ``X``, ``O`` and ``.``, top row first (as :meth:`grid` prints).

        Spaces and newlines are ignored, lower case is accepted. Raises
        ValueError when the discs alone show that play cannot reach the
        position: a disc above an empty cell, X not having as many discs as O
        or one more, a four for both players, a four for the player who did not
        move last, or fours that no single last disc (a column's top one) completed.
        """
        if not isinstance(text, str):
            raise ValueError(f"text must be a string of 42 cells of X, O or '.', top row first; "
                             f"got {shown(text)}.")
        cells = [ch for ch in text.upper() if not ch.isspace()]
        if len(cells) != ROWS * COLUMNS or any(ch not in "XO." for ch in cells):
            raise ValueError(f"a Connect Four board needs exactly {ROWS * COLUMNS} cells of X, O "
                             f"or '.', top row first; got {len(cells)} characters in {shown(text)}.")
        discs = [0, 0]
        for index, ch in enumerate(cells):
            if ch != ".":
                row, col = ROWS - 1 - index // COLUMNS, index % COLUMNS
                discs[SYMBOLS.index(ch)] |= 1 << HEIGHT * col + row
        problem = _position_problem(discs[0], discs[1])
        if problem is not None:
            raise ValueError(f"{shown(text)} is not a position play can reach: {problem}.")
        x, o = discs
        winner = 0 if _has_four(x) else 1 if _has_four(o) else None
        player = (x.bit_count() + o.bit_count()) % 2
        return object.__new__(cls)._set((x, o), player, winner)

    # --- text -----------------------------------------------------------------

    def grid(self) -> str:
        """The board, top row first, one character per cell."""
        return "\n".join(" ".join(self.cell(row, col) for col in range(COLUMNS))
                         for row in reversed(range(ROWS)))

    def status_line(self) -> str:
        """Whose turn it is, or how the game ended."""
        if self._winner is not None:
            return f"game over: {SYMBOLS[self._winner]} wins"
        if self.is_terminal():
            return "game over: draw (board full)"
        return f"{SYMBOLS[self._player]} to move"

    def __str__(self) -> str:
        columns = " ".join(str(col) for col in range(COLUMNS))
        return f"{self.grid()}\n{columns}\n{self.status_line()}"

    def __repr__(self) -> str:
        return f"ConnectFour.from_string({self.grid()!r})"

    def __eq__(self, other) -> bool:
        if not isinstance(other, ConnectFour):
            return NotImplemented
        return self.discs == other.discs

    def __hash__(self) -> int:
        return hash(self.discs)


def _position_problem(x: int, o: int) -> str | None:
    """Why the discs ``x`` and ``o`` cannot arise in play (as far as they tell), or None."""
    taken = x | o
    for col in range(COLUMNS):
        column = (taken & _COLUMN_CELLS[col]) >> HEIGHT * col
        if column & (column + 1):  # the discs of a column are a run from the bottom
            return f"column {col} has a disc above an empty cell"
    counts = x.bit_count(), o.bit_count()
    if counts[0] - counts[1] not in (0, 1):
        return (f"X moves first, so X has as many discs as O or one more; got {counts[0]} X "
                f"and {counts[1]} O")
    fours = _has_four(x), _has_four(o)
    if fours[0] and fours[1]:
        return "both X and O have four in a line; the game ends at the first"
    for player, own in ((0, x), (1, o)):
        if not fours[player]:
            continue
        name, other = SYMBOLS[player], SYMBOLS[1 - player]
        if (counts[0] > counts[1]) != (player == 0):
            return f"{name} has four in a line, so {name} moved last, yet {other} moved after it"
        tops = [_top_disc(taken, col) for col in range(COLUMNS)]
        if not any(top & own and not _has_four(own & ~top) for top in tops):
            return (f"no single last disc of {name} (the top of a column) completed all of "
                    f"{name}'s fours, so the game would have ended earlier")
    return None


def _top_disc(taken: int, col: int) -> int:
    """The bit of the top disc of column ``col`` (0 for an empty column)."""
    column = taken & _COLUMN_CELLS[col]
    return 1 << column.bit_length() - 1 if column else 0
