"""Ultimate Tic-Tac-Toe: nine tic-tac-toe boards, and where you play sends your opponent.

The readable reference of the game of the chapter "Ultimate Tic-Tac-Toe:
tuning a real bot"; its numba twin is :mod:`mctslib.fast.uttt`, tested to
give identical legal moves and random playouts for the same seed.

Rules (CodinGame's referee; OpenSpiel's ``ultimate_tic_tac_toe`` agrees except
for the scoring of a game that ends with every board closed):

* Nine small boards in a 3x3 grid. X (player 0) moves first. A cell has
  global coordinates ``row, col`` in 0..8; it lies in small board
  ``board = 3 * (row // 3) + col // 3`` at ``cell = 3 * (row % 3) + col % 3``.
* Playing cell ``c`` of any board sends the opponent to small board ``c``.
* A small board *closes* when it is won (three marks in a line) or full.
  A won board takes no more moves, even with empty cells; a full board
  without a line counts for nobody and blocks every big-board line through it.
* Free choice: on the first move, and whenever the board you are sent to is
  closed, you may play any empty cell of any open board.
* Three won small boards in a line (rows, columns, diagonals of the big
  board) win the game at once. Otherwise the game ends when every board is
  closed, scored by ``scoring``:

  - ``"codingame"`` (the default): more won small boards wins; equal counts draw;
  - ``"openspiel"``: always a draw.

Moves are ints ``9 * row + col`` (0..80, row-major over the 9x9 grid), and
:meth:`UltimateTicTacToe.legal_moves` lists them in ascending order. That
order is part of the contract: a random playout plays
``moves[below(len(moves))]``, so the fast engine must list moves the same way.
:func:`to_board_cell`, :func:`from_board_cell`, :func:`to_row_col` and
:func:`from_row_col` convert between the numberings; :func:`parse_codingame_move`
and :func:`format_codingame_move` read and write CodinGame's ``row col`` lines.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice
from numbers import Integral

from .._checks import shown
from .base import GameState, play_moves
from .tictactoe import FULL, has_line

__all__ = [
    "SCORINGS",
    "UltimateTicTacToe",
    "format_codingame_move",
    "from_board_cell",
    "from_row_col",
    "parse_codingame_move",
    "to_board_cell",
    "to_row_col",
]

#: The two ways to score a game that ends with every small board closed and no line.
SCORINGS = ("codingame", "openspiel")
SYMBOLS = ("X", "O")
#: ``HAS_LINE[mask]``: does a 9-bit mask of one player's marks hold a line?
#: A small board and the big board (bit b = board b won) use the same table.
HAS_LINE = tuple(has_line(mask) for mask in range(512))
#: ``ONE_MOVE_LINE[mask]``: does the mask hold a line that one last mark completed?
#: A board (or the game) closes at its first line, so a line whose every mark
#: lies off some other line of the same mask cannot arise in play.
ONE_MOVE_LINE = tuple(
    HAS_LINE[mask] and any(mask >> bit & 1 and not HAS_LINE[mask & ~(1 << bit)] for bit in range(9))
    for mask in range(512)
)
_EMPTY_BOARDS = (0,) * 9
# (board, cell) -> global move and back, computed once: play() and legal_moves() run often.
_MOVE_OF = tuple(
    tuple(9 * (3 * (board // 3) + cell // 3) + 3 * (board % 3) + cell % 3 for cell in range(9))
    for board in range(9)
)
_BOARD_CELL_OF = tuple(
    (3 * (move // 27) + move % 9 // 3, 3 * (move // 9 % 3) + move % 3) for move in range(81)
)


# ------------------------------------------------------------------ numberings


def _is_whole(value) -> bool:
    # Python and numpy integers (a move read from a numba array is a numpy int), not bools.
    # The exact-type test first: the abstract-class check is slow, and play() runs often.
    return type(value) is int or isinstance(value, Integral) and not isinstance(value, bool)


def _check_index(name: str, value, top: int) -> int:
    if not _is_whole(value) or not 0 <= value <= top:
        raise ValueError(f"{name} must be a whole number from 0 to {top}, got {shown(value)}.")
    return int(value)


def to_board_cell(move: int) -> tuple[int, int]:
    """The small board (0..8) and the cell in it (0..8) of a global move 0..80."""
    return _BOARD_CELL_OF[_check_index("move (9 * row + col)", move, 80)]


def from_board_cell(board: int, cell: int) -> int:
    """The global move ``9 * row + col`` of ``cell`` in small ``board`` (both 0..8)."""
    return _MOVE_OF[_check_index("board", board, 8)][_check_index("cell", cell, 8)]


def to_row_col(move: int) -> tuple[int, int]:
    """Global ``(row, col)``, each 0..8, of a move 0..80."""
    return divmod(_check_index("move (9 * row + col)", move, 80), 9)


def from_row_col(row: int, col: int) -> int:
    """The move ``9 * row + col`` of global coordinates ``row, col`` (each 0..8)."""
    return 9 * _check_index("row", row, 8) + _check_index("col", col, 8)


def parse_codingame_move(line: str) -> int | None:
    """Read one CodinGame ``row col`` line; ``-1 -1`` (no previous move) gives None.

    CodinGame sends the opponent's last move this way each turn (``-1 -1``
    before X's first move) and lists the valid actions the same way.
    Raises ValueError if the line is not two whole numbers 0..8 (or ``-1 -1``).
    """
    parts = line.split() if isinstance(line, str) else None
    try:
        row, col = (int(part) for part in parts)
    except (TypeError, ValueError):
        raise ValueError(
            f"a CodinGame move line is two whole numbers 'row col' (each 0..8, or '-1 -1' for "
            f"no move), got {shown(line)}."
        ) from None
    if (row, col) == (-1, -1):
        return None
    if not (0 <= row <= 8 and 0 <= col <= 8):
        raise ValueError(
            f"row and col must each be 0..8 (or both -1 for no move), got {shown(line.strip())}."
        )
    return 9 * row + col


def format_codingame_move(move: int | None) -> str:
    """The ``row col`` line CodinGame expects for a move (None gives ``-1 -1``)."""
    if move is None:
        return "-1 -1"
    row, col = to_row_col(move)
    return f"{row} {col}"


def _describe(move: int) -> str:
    row, col = divmod(move, 9)
    board, cell = _BOARD_CELL_OF[move]
    return f"move {move} (row {row}, col {col}: board {board}, cell {cell})"


def _board_area(board: int) -> str:
    top, left = 3 * (board // 3), 3 * (board % 3)
    return f"board {board} (rows {top}-{top + 2}, cols {left}-{left + 2})"


# ----------------------------------------------------------------------- state


class UltimateTicTacToe(GameState):
    """An Ultimate Tic-Tac-Toe position. ``UltimateTicTacToe()`` is the empty board.

    Parameters
    ----------
    x, o : sequence of 9 ints
        ``x[b]`` is the 9-bit mask of X's marks in small board ``b`` (bit
        ``cell``, cells numbered ``3 * localRow + localCol``); ``o`` the same
        for O. The player to move follows from the number of marks.
    forced_board : int or None
        The board the player to move must play in, or None for a free choice
        (first move, sent to a closed board, or the game is over).
    scoring : {"codingame", "openspiel"}
        How a game that ends with every board closed and no line is scored.

    Notes
    -----
    States are immutable and hashable (two states are equal when marks,
    forced board and scoring are equal). Build positions with
    :meth:`from_moves` or :meth:`from_grid`; the constructor checks that the
    masks describe a position reachable by alternating play as far as the
    marks alone can tell. Moves are ints ``9 * row + col``; ``legal_moves()``
    lists them in ascending order.
    """

    __slots__ = ("_closed", "_ending", "_player", "_won", "forced_board", "o", "scoring", "x")

    def __init__(self, x: Iterable[int] = _EMPTY_BOARDS, o: Iterable[int] = _EMPTY_BOARDS,
                 forced_board: int | None = None, scoring: str = "codingame"):
        x, o = _check_masks("x", x), _check_masks("o", o)
        if not isinstance(scoring, str) or scoring not in SCORINGS:
            raise ValueError(f"scoring must be one of {SCORINGS}, got {shown(scoring)}.")
        for board in range(9):
            if x[board] & o[board]:
                raise ValueError(f"x and o both mark the same cell of board {board}.")
            if HAS_LINE[x[board]] and HAS_LINE[o[board]]:
                raise ValueError(f"board {board} has a line for both X and O; a won board "
                                 "takes no more moves, so play cannot reach that.")
            for symbol, marks in (("X", x[board]), ("O", o[board])):
                if HAS_LINE[marks] and not ONE_MOVE_LINE[marks]:
                    raise ValueError(f"board {board} holds lines of {symbol} that no single last "
                                     "move completed; a won board takes no more moves, so play "
                                     "cannot reach that.")
        marks_x, marks_o = sum(m.bit_count() for m in x), sum(m.bit_count() for m in o)
        if marks_x - marks_o not in (0, 1):
            raise ValueError(f"X moves first, so X has as many marks as O or one more; got "
                             f"{marks_x} X and {marks_o} O.")
        won = tuple(sum(1 << b for b in range(9) if HAS_LINE[marks[b]]) for marks in (x, o))
        if HAS_LINE[won[0]] and HAS_LINE[won[1]]:
            raise ValueError("both players have a line of won boards; the game ends at the first.")
        for player, last_mover in ((0, marks_x > marks_o), (1, marks_x == marks_o)):
            if not HAS_LINE[won[player]]:
                continue
            symbol, other = SYMBOLS[player], SYMBOLS[1 - player]
            if not last_mover:
                raise ValueError(f"{symbol} has a line of won boards, so {symbol} made the last "
                                 f"move, yet {other} moved after it ({marks_x} X and {marks_o} "
                                 "O); the game ends at the first line.")
            if not ONE_MOVE_LINE[won[player]]:
                raise ValueError(f"{symbol}'s won boards hold lines that no single last move "
                                 "completed; the game ends at the first line.")
        closed = won[0] | won[1] | sum(1 << b for b in range(9) if x[b] | o[b] == FULL)
        ending = _ending(won, closed)
        if forced_board is not None:
            _check_index("forced_board", forced_board, 8)
            if ending is not None or closed >> forced_board & 1:
                raise ValueError(f"forced_board must be None or an open board while the game "
                                 f"is on; board {forced_board} is closed or the game is over.")
        self._set(x, o, forced_board, scoring, won, closed, ending, (marks_x + marks_o) % 2)

    def _set(self, x, o, forced_board, scoring, won, closed, ending, player):
        # The one place attributes are written; __setattr__ refuses everything else.
        for name, value in (("x", x), ("o", o), ("forced_board", forced_board),
                            ("scoring", scoring), ("_won", won), ("_closed", closed),
                            ("_ending", ending), ("_player", player)):
            object.__setattr__(self, name, value)
        return self

    def __setattr__(self, name, value):
        raise AttributeError("UltimateTicTacToe states are immutable; play() returns a new one.")

    def __reduce__(self):
        # copy and pickle rebuild through the checked constructor (__setattr__ refuses them).
        return (UltimateTicTacToe, (self.x, self.o, self.forced_board, self.scoring))

    # --- the GameState protocol --------------------------------------------

    @property
    def player_to_move(self) -> int:
        return self._player

    def legal_moves(self) -> tuple[int, ...]:
        """Empty cells of the forced board (or of every open board), ascending ``9*row+col``."""
        if self._ending is not None:
            return ()
        moves = []
        for board in self.playable_boards():
            free = FULL & ~(self.x[board] | self.o[board])
            moves.extend(_MOVE_OF[board][cell] for cell in range(9) if free >> cell & 1)
        # One board's moves are already ascending; several boards interleave row by row.
        return tuple(moves) if self.forced_board is not None else tuple(sorted(moves))

    def play(self, move) -> UltimateTicTacToe:
        """The position after ``move`` (an int 0..80); ValueError says why an illegal one is."""
        move = self._check_legal(move)
        board, cell = _BOARD_CELL_OF[move]
        player = self._player
        boards = [list(self.x), list(self.o)]
        boards[player][board] |= 1 << cell
        won, closed = list(self._won), self._closed
        if HAS_LINE[boards[player][board]]:
            won[player] |= 1 << board
            closed |= 1 << board
        elif boards[0][board] | boards[1][board] == FULL:
            closed |= 1 << board
        ending = _ending(won, closed)
        # The move's cell names the next board, unless it is closed (or the game ended).
        forced = cell if ending is None and not closed >> cell & 1 else None
        new = object.__new__(UltimateTicTacToe)
        return new._set(tuple(boards[0]), tuple(boards[1]), forced, self.scoring, tuple(won),
                        closed, ending, 1 - player)

    def is_terminal(self) -> bool:
        return self._ending is not None

    def winner(self) -> int | None:
        """0 or 1 for a won game; None for a draw or a game still on (depends on ``scoring``)."""
        if self._ending == "line":
            return 0 if HAS_LINE[self._won[0]] else 1
        if self._ending == "all closed" and self.scoring == "codingame":
            count_x, count_o = self.won_boards(0), self.won_boards(1)
            if count_x != count_o:
                return 0 if count_x > count_o else 1
        return None

    # --- queries ------------------------------------------------------------

    @property
    def free_choice(self) -> bool:
        """True when the player to move may pick any open board (the game is on)."""
        return self._ending is None and self.forced_board is None

    def playable_boards(self) -> tuple[int, ...]:
        """The boards the player to move may play in (none once the game is over)."""
        if self._ending is not None:
            return ()
        if self.forced_board is not None:
            return (self.forced_board,)
        return tuple(board for board in range(9) if not self._closed >> board & 1)

    def board_status(self, board: int) -> str:
        """``"X"`` or ``"O"`` (won), ``"drawn"`` (full, no line) or ``"open"``."""
        _check_index("board", board, 8)
        for player in (0, 1):
            if self._won[player] >> board & 1:
                return SYMBOLS[player]
        return "drawn" if self._closed >> board & 1 else "open"

    def board_statuses(self) -> tuple[str, ...]:
        """:meth:`board_status` of the nine boards, board 0 first."""
        return tuple(self.board_status(board) for board in range(9))

    def won_mask(self, player: int) -> int:
        """9-bit mask of the small boards ``player`` has won (bit b = board b)."""
        return self._won[_check_index("player", player, 1)]

    def won_boards(self, player: int) -> int:
        """How many small boards ``player`` has won."""
        return self.won_mask(player).bit_count()

    @property
    def closed_mask(self) -> int:
        """9-bit mask of the closed (won or full) small boards."""
        return self._closed

    def ending(self) -> str | None:
        """How the game ended: ``"line"`` (three boards in a line), ``"all closed"``, or None."""
        return self._ending

    def cell(self, row: int, col: int) -> str:
        """``"X"``, ``"O"`` or ``"."`` at global coordinates ``row, col``."""
        board, cell = _BOARD_CELL_OF[from_row_col(row, col)]
        if self.x[board] >> cell & 1:
            return "X"
        return "O" if self.o[board] >> cell & 1 else "."

    def winning_moves(self) -> tuple[int, ...]:
        """Legal moves that end the game at once with a win for the player to move.

        A move wins at once when it completes a line of won boards, or (with
        ``"codingame"`` scoring) when it closes the last open board while the
        mover then has won more boards. Ascending order, like ``legal_moves()``.
        The UTTT chapter's playouts take such a move when there is one.
        """
        player = self._player
        return tuple(move for move in self.legal_moves() if self.play(move).winner() == player)

    def with_scoring(self, scoring: str) -> UltimateTicTacToe:
        """The same position scored the other way (``"codingame"`` or ``"openspiel"``)."""
        return UltimateTicTacToe(self.x, self.o, self.forced_board, scoring)

    # --- building positions ---------------------------------------------------

    @classmethod
    def from_moves(cls, moves: Iterable[int], scoring: str = "codingame") -> UltimateTicTacToe:
        """Play ``moves`` (ints ``9*row+col``) from the empty board; an illegal one raises."""
        return play_moves(cls(scoring=scoring), moves, "whole numbers 9 * row + col (0..80)")

    @classmethod
    def from_grid(cls, text: str, forced_board: int | None = None,
                  scoring: str = "codingame") -> UltimateTicTacToe:
        """Parse 81 cells of ``X``, ``O`` and ``.`` row by row (as printed by :meth:`grid`).

        Spaces, newlines and the separators ``|``, ``-`` and ``+`` are ignored;
        lower-case ``x``/``o`` are accepted. Raises ValueError if the text has
        another number of cells or the position cannot arise in play.
        """
        if not isinstance(text, str):
            raise ValueError(f"text must be a string of 81 cells of X, O or '.', row by row; "
                             f"got {shown(text)}.")
        cells = [ch for ch in text.upper() if ch not in " \t\n|-+"]
        if len(cells) != 81 or any(ch not in "XO." for ch in cells):
            raise ValueError("a UTTT grid needs exactly 81 cells of X, O or '.', row by row; got "
                             f"{len(cells)} cell characters in {shown(text)}.")
        x, o = [0] * 9, [0] * 9
        for move, ch in enumerate(cells):
            board, cell = _BOARD_CELL_OF[move]
            if ch == "X":
                x[board] |= 1 << cell
            elif ch == "O":
                o[board] |= 1 << cell
        return cls(x, o, forced_board, scoring)

    # --- text -----------------------------------------------------------------

    def grid(self) -> str:
        """The 9x9 grid with separators between small boards (readable by :meth:`from_grid`)."""
        lines = []
        for row in range(9):
            if row in (3, 6):
                lines.append("------+-------+------")
            groups = [" ".join(self.cell(row, col) for col in range(c, c + 3)) for c in (0, 3, 6)]
            lines.append(" | ".join(groups))
        return "\n".join(lines)

    def status_line(self) -> str:
        """Whose turn and where, or how the game ended."""
        counts = f"boards won X {self.won_boards(0)}, O {self.won_boards(1)}"
        if self._ending is not None:
            winner = self.winner()
            verdict = "draw" if winner is None else f"{SYMBOLS[winner]} wins"
            how = "line of boards" if self._ending == "line" else f"all boards closed, {counts}"
            return f"game over: {verdict} ({how}; {self.scoring} scoring)"
        where = ("free choice" if self.forced_board is None
                 else f"must play in {_board_area(self.forced_board)}")
        return f"{SYMBOLS[self._player]} to move, {where}; {counts}"

    def __str__(self) -> str:
        # The big board goes to the right of the first rows: X/O won, # full, . open.
        marks = {"X": "X", "O": "O", "drawn": "#", "open": "."}
        statuses = [marks[status] for status in self.board_statuses()]
        side = ["   big board"] + [
            "   " + " ".join(statuses[3 * r:3 * r + 3]) for r in range(3)
        ] + ["   (# = full, no winner)"]
        lines = self.grid().split("\n")
        lines = [line + side[i] if i < len(side) else line for i, line in enumerate(lines)]
        return "\n".join([*lines, self.status_line()])

    def __repr__(self) -> str:
        return (f"UltimateTicTacToe(x={self.x}, o={self.o}, forced_board={self.forced_board}, "
                f"scoring={self.scoring!r})")

    def __eq__(self, other) -> bool:
        if not isinstance(other, UltimateTicTacToe):
            return NotImplemented
        return (self.x, self.o, self.forced_board, self.scoring) == (
            other.x, other.o, other.forced_board, other.scoring)

    def __hash__(self) -> int:
        return hash((self.x, self.o, self.forced_board, self.scoring))

    # --- checks -----------------------------------------------------------------

    def _check_legal(self, move) -> int:
        """``move`` as an int, or ValueError saying why it is illegal and what is allowed."""
        if not _is_whole(move) or not 0 <= move <= 80:
            raise ValueError(f"move {shown(move)} is not a cell: moves are whole numbers 9 * row + col "
                             "from 0 to 80 (row and col 0..8).")
        move = int(move)
        if self._ending is not None:
            raise ValueError(f"{_describe(move)} is illegal: the game is over.")
        board, cell = _BOARD_CELL_OF[move]
        if (self.x[board] | self.o[board]) >> cell & 1:
            reason = "that cell is taken"
        elif self.forced_board is not None and board != self.forced_board:
            reason = f"{SYMBOLS[self._player]} was sent to board {self.forced_board}"
        elif self._closed >> board & 1:
            reason = f"board {board} is closed ({self.board_status(board)})"
        else:
            return move
        if self.forced_board is not None:
            allowed = f"allowed are the empty cells of {_board_area(self.forced_board)}"
        else:
            allowed = "allowed are the empty cells of the open boards " + ", ".join(
                str(b) for b in self.playable_boards())
        raise ValueError(f"{_describe(move)} is illegal: {reason}; {allowed}: "
                         f"{list(self.legal_moves())}.")


def _check_masks(name: str, masks) -> tuple[int, ...]:
    try:
        masks = tuple(islice(masks, 10))  # ten at most: enough to see a wrong count, and an
    except TypeError:                      # endless iterator cannot hang the check
        masks = ()
    if len(masks) != 9 or any(not _is_whole(m) or not 0 <= m <= FULL for m in masks):
        raise ValueError(f"{name} must be nine whole numbers 0..511 (one 9-bit mask per small "
                         f"board), got {shown(masks)}.")
    return tuple(int(m) for m in masks)


def _ending(won, closed: int) -> str | None:
    if HAS_LINE[won[0]] or HAS_LINE[won[1]]:
        return "line"
    return "all closed" if closed == FULL else None
