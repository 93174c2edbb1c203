"""Play Ultimate Tic-Tac-Toe against the bot in a terminal.

    python -m mctslib play uttt [--bot SPEC] [--side x|o] [--scoring codingame|openspiel]
                                [--seed S]

The chapter "Ultimate Tic-Tac-Toe: tuning a real bot" invites the reader to
feel the bot's strength first hand. The board is printed with row and column
numbers; the cells where the player to move may play are shown as ``+``, and a
line says which small board is forced or that the choice is free. A move is
typed as ``row col`` (each 0..8, like CodinGame's protocol). Anything else gets
a sentence saying what was wrong and the prompt again (bytes that are not
text included: they are read as U+FFFD); ``help``, ``moves``, ``board`` and
``quit`` are commands; closing the input (Ctrl-D, exit code 0) or Ctrl-C (exit
code 130) ends the game with a message. :func:`add_play_command` adds the
subcommand to ``python -m mctslib``.
"""

from __future__ import annotations

import argparse
import re
import sys
import time

from ..bots.uttt import BEST_BOT_OPTIONS, SPEC_SYNTAX, parse_spec
from ..games.base import check_player
from ..games.uttt import SCORINGS, SYMBOLS, UltimateTicTacToe, from_row_col, to_board_cell
from ..rng import make_rng
from .argtypes import MAX_SEED, bot_spec, forbid_repeats, quoted, whole_number

__all__ = ["PLAY_SPEC", "PlaySession", "add_play_command", "render_board", "run_play"]

#: The default opponent: the book's best bot, half a second per move.
PLAY_SPEC = f"uct:{BEST_BOT_OPTIONS},ms=500,first_ms=1000"
QUIT_WORDS = {"quit", "exit", "q"}
HELP_WORDS = {"help", "h", "?"}

COMMANDS_HELP = """\
Type a move as two numbers, 'row col', each 0 to 8 (row 0 is the top, col 0 the left),
for example '4 4' for the centre cell. '+' marks the cells where you may play.
Rules: the cell you play inside a small board sends your opponent to the small board
in the same position on the big board (playing the top-right cell of any small board
sends them to the top-right board). If that board is won or full, they may play in any
open board. Win three small boards in a line to win the game.
Commands: 'moves' lists your legal moves, 'board' shows the board again,
'help' shows this text, 'quit' (or Ctrl-D) ends the game."""


# ----------------------------------------------------------------------- the board


def render_board(state: UltimateTicTacToe) -> str:
    """The 9x9 grid with row and column numbers, ``+`` on the legal cells, and a status line.

    X and O are marks, ``+`` an empty cell the player to move may take, ``.``
    any other empty cell. The big board (who won which small board) is drawn
    to the right.
    """
    _check_state(state)
    legal = set(state.legal_moves())
    marks = {"X": "X", "O": "O", "drawn": "#", "open": "."}
    statuses = [marks[status] for status in state.board_statuses()]
    side = ["    big board", *("    " + " ".join(statuses[3 * r:3 * r + 3]) for r in range(3)),
            "    (# = full, no winner)"]
    lines = ["     0 1 2   3 4 5   6 7 8"]
    for row in range(9):
        if row in (3, 6):
            lines.append("    -------+-------+------")
        groups = [" ".join(_cell_symbol(state, row, col, legal) for col in range(c, c + 3))
                  for c in (0, 3, 6)]
        lines.append(f"  {row}  " + " | ".join(groups))
    lines = [line + (side[i - 1] if 1 <= i <= len(side) else "") for i, line in enumerate(lines)]
    return "\n".join([*lines, state.status_line()])


def _check_state(state) -> None:
    if not isinstance(state, UltimateTicTacToe):
        raise ValueError(f"state must be an UltimateTicTacToe position, got "
                         f"{type(state).__name__}.")


def _cell_symbol(state: UltimateTicTacToe, row: int, col: int, legal: set) -> str:
    mark = state.cell(row, col)
    if mark != ".":
        return mark
    return "+" if 9 * row + col in legal else "."


def _format_move(move: int) -> str:
    row, col = divmod(move, 9)
    return f"{row} {col}"


# --------------------------------------------------------------------- reading input


class _Rejected(Exception):
    """A line that is not a legal move; the message is the sentence to show."""


def read_move(line: str, state: UltimateTicTacToe) -> int:
    """The move typed on ``line`` (``row col``), or _Rejected with a sentence saying why not."""
    if not isinstance(line, str):
        raise ValueError(f"line must be a string, got {type(line).__name__}.")
    _check_state(state)
    parts = [part for part in re.split(r"[\s,;()]+", line.strip()) if part]
    if (len(parts) != 2 or not all(re.fullmatch(r"[+-]?\d{1,20}", part, re.ASCII)
                                   for part in parts)):
        raise _Rejected(f"I did not understand {quoted(line.strip())}: type a move as two "
                        "whole numbers 'row col', each 0 to 8 (for example '4 4'), or 'help'.")
    row, col = (int(part) for part in parts)
    if not (0 <= row <= 8 and 0 <= col <= 8):
        raise _Rejected(f"Row and column must each be 0 to 8; you typed row {row}, col {col}.")
    move = from_row_col(row, col)
    if move not in state.legal_moves():
        raise _Rejected(_why_illegal(state, move))
    return move


def _why_illegal(state: UltimateTicTacToe, move: int) -> str:
    row, col = divmod(move, 9)
    board, _ = to_board_cell(move)
    where = f"Row {row}, col {col}"
    if state.cell(row, col) != ".":
        reason = f"{where} is taken by {state.cell(row, col)}."
    elif state.forced_board is not None:
        reason = (f"{where} is in board {board}, but you must play in {_area(state.forced_board)}"
                  ", where the last move sent you.")
    else:
        owner = state.board_status(board)
        closed = "is full" if owner == "drawn" else f"was won by {owner}"
        reason = f"{where} is in board {board}, which {closed}: it takes no more moves."
    return reason + " The cells marked '+' are legal; type 'moves' to list them."


def _area(board: int) -> str:
    top, left = 3 * (board // 3), 3 * (board % 3)
    return f"board {board} (rows {top}-{top + 2}, cols {left}-{left + 2})"


# --------------------------------------------------------------------------- the game


class PlaySession:
    """One game between a person (reading lines) and a bot (any ``choose(state)`` player).

    Parameters
    ----------
    bot : player
        The opponent; if it has ``last`` (a :class:`mctslib.bots.uttt.SearchInfo`),
        its iterations are shown with its thinking time.
    human_side : int
        0 to play X (first), 1 to play O.
    scoring : {"codingame", "openspiel"}
    read_line : callable() -> str
        Returns the next line; raises EOFError when the input closes.
    write : callable(str)
        Prints a line.
    """

    def __init__(self, bot, human_side: int, scoring: str, read_line, write):
        if not callable(getattr(bot, "choose", None)):
            raise ValueError(f"bot must be a player with a choose(state) method, got "
                             f"{type(bot).__name__}.")
        for name, function in (("read_line", read_line), ("write", write)):
            if not callable(function):
                raise ValueError(f"{name} must be a function, got {type(function).__name__}.")
        self.bot = bot
        self.human_side = check_player(human_side)
        self.state = UltimateTicTacToe(scoring=scoring)
        self.read_line = read_line
        self.write = write

    def run(self) -> int:
        """Play until the game ends (0), the person quits or closes the input (0)."""
        you = SYMBOLS[self.human_side]
        self.write(f"You play {you}" + (" and move first." if self.human_side == 0
                                          else "; the bot (X) moves first."))
        self.write("Type a move as 'row col' (each 0 to 8); '+' marks the cells where you may "
                   "play. Type 'help' for the rules and commands.")
        while not self.state.is_terminal():
            if self.state.player_to_move == self.human_side:
                move = self._human_move()
                if move is None:
                    return 0
            else:
                move = self._bot_move()
            self.state = self.state.play(move)
        self.write("")
        self.write(render_board(self.state))
        self.write(self._verdict())
        return 0

    def _human_move(self) -> int | None:
        """The person's next legal move, or None if they quit or the input closed."""
        self.write("")
        self.write(render_board(self.state))
        while True:
            try:
                line = self.read_line()
            except EOFError:
                self.write("")
                self.write("Input closed: the game is abandoned. Goodbye!")
                return None
            except UnicodeDecodeError:  # a stream that is not the terminal's: not text
                self.write("That line is not text (UTF-8); type a move as 'row col'.")
                continue
            word = line.strip().lower()
            if word in QUIT_WORDS:
                self.write("You left the game. Goodbye!")
                return None
            if word in HELP_WORDS:
                self.write(COMMANDS_HELP)
            elif word == "moves":
                moves = ", ".join(_format_move(m) for m in self.state.legal_moves())
                self.write(f"Your legal moves (row col): {moves}")
            elif word == "board":
                self.write(render_board(self.state))
            elif word:
                try:
                    return read_move(line, self.state)
                except _Rejected as rejection:
                    self.write(str(rejection))

    def _bot_move(self) -> int:
        start = time.perf_counter()
        move = self.bot.choose(self.state)
        seconds = time.perf_counter() - start
        info = getattr(self.bot, "last", None)
        work = f", {info.iterations:,} iterations" if info is not None else ""
        how = f", {info.how}" if info is not None and info.how != "search" else ""
        self.write(f"The bot ({SYMBOLS[1 - self.human_side]}) plays {_format_move(move)} "
                   f"(thought {seconds:.2f} s{work}{how}).")
        return move

    def _verdict(self) -> str:
        winner = self.state.winner()
        if winner is None:
            return "It is a draw."
        return "You win, well played!" if winner == self.human_side else "The bot wins."


# ---------------------------------------------------------------------- command line

PLAY_DESCRIPTION = f"""\
Play Ultimate Tic-Tac-Toe against the bot in the terminal. The board shows
row and column numbers; '+' marks the cells where you may play, and the line
under the board says which small board you must play in or that you have a
free choice. Type a move as 'row col' (each 0..8, e.g. '4 4' for the centre);
'help' explains the rules, 'moves' lists your legal moves, 'board' shows the
board again, 'quit' or Ctrl-D ends the game. The bot's reply is shown with its
thinking time.

Default bot: {PLAY_SPEC}

{SPEC_SYNTAX}"""


def add_play_command(subparsers) -> argparse.ArgumentParser:
    """Add ``play uttt`` to an argparse subparsers object; returns its parser.

    The parsed namespace's ``handler`` is :func:`run_play` (call ``args.handler(args)``).
    """
    parser = forbid_repeats(subparsers.add_parser(
        "play", help="play Ultimate Tic-Tac-Toe against the bot in the terminal",
        description=PLAY_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter))
    parser.add_argument("game", choices=["uttt"], help="the game (only uttt)")
    parser.add_argument("--bot", type=bot_spec, default=parse_spec(PLAY_SPEC), metavar="SPEC",
                        help="the bot you play against (default: the SPEC above)")
    parser.add_argument("--side", choices=["x", "o"], default="x", type=str.lower,
                        help="x moves first (default x)")
    parser.add_argument("--scoring", choices=SCORINGS, default="codingame",
                        help="how a game that closes every board without a line ends: "
                             "codingame = more boards won wins (default), openspiel = draw")
    parser.add_argument("--seed", type=whole_number(0, MAX_SEED), default=None,
                        help="the bot's seed, 0 to 2**64 - 1 (default: a fresh one, printed "
                             "at the start)")
    parser.set_defaults(handler=run_play)
    return parser


def run_play(args, stdin=None, stdout=None) -> int:
    """Play a parsed ``play uttt`` command on the given streams (default: the terminal).

    Returns 0 when the game ends, the person quits or the input closes, 130 on Ctrl-C.
    """
    if stdin is None:
        try:  # bytes that are not UTF-8 become U+FFFD: "I did not understand", not a crash
            sys.stdin.reconfigure(errors="replace")
        except (AttributeError, ValueError, OSError):
            pass
    stdin, stdout = stdin or sys.stdin, stdout or sys.stdout

    def write(text: str) -> None:
        print(text, file=stdout, flush=True)

    def read_line() -> str:
        stdout.write("your move> ")
        stdout.flush()
        line = stdin.readline()
        if not line:
            raise EOFError
        return line

    seed = args.seed if args.seed is not None else int(make_rng(None).integers(2**31))
    write(f"Ultimate Tic-Tac-Toe, {args.scoring} scoring. Bot: {args.bot} (seed {seed}).")
    write("Loading the bot...")
    bot = args.bot(seed=seed)
    session = PlaySession(bot, 0 if args.side == "x" else 1, args.scoring, read_line, write)
    try:
        return session.run()
    except KeyboardInterrupt:
        write("")
        write("Interrupted: the game is abandoned. Goodbye!")
        return 130
