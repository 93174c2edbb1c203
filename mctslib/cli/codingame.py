"""``python -m mctslib codingame uttt``: the bot as a CodinGame player on standard input and output.

    python -m mctslib codingame uttt [SPEC] [--scoring codingame|openspiel] [--seed S] [--quiet]

Runs the bot of the chapter "Ultimate Tic-Tac-Toe: tuning a real bot" under CodinGame's
referee protocol, so a reader can pit it against other programs (or submit it: the protocol
and the time limits are CodinGame's). A SPEC names a bot and its options
(:mod:`mctslib.bots.uttt`). :func:`add_codingame_command` adds the subcommand to
``python -m mctslib``; matches between bots are :mod:`mctslib.cli.match`.
"""

from __future__ import annotations

import argparse
import os
import queue
import select
import sys
import threading
import time

from ..bots.uttt import (
    BEST_BOT_OPTIONS,
    SPEC_SYNTAX,
    parse_spec,
)
from ..games.uttt import SCORINGS, UltimateTicTacToe, format_codingame_move, parse_codingame_move
from .argtypes import (
    MAX_SEED,
    bot_spec,
    forbid_repeats,
    quoted,
    whole_number,
)

__all__ = ["CODINGAME_SPEC", "add_codingame_command", "run_codingame"]

#: The default player: the book's best bot, stopping at 80 ms (900 ms on the first turn) to stay
#: inside CodinGame's 100 ms (1,000 ms) turn (benchmarks/codingame_turns.py: the answer arrives a
#: few ms after the budget runs out).
CODINGAME_SPEC = f"uct:{BEST_BOT_OPTIONS},ms=80,first_ms=900"
#: The longest input line the CodinGame player reads: a move line is a few characters.
MAX_LINE = 100


# --------------------------------------------------------------------- codingame

CODINGAME_DESCRIPTION = f"""\
Run the bot as a CodinGame player for Ultimate Tic-Tac-Toe. Each turn it reads
from standard input the opponent's last move 'row col' ('-1 -1' on the first
turn if it plays first), then the number of valid actions, then one 'row col'
line per valid action; it prints exactly one line 'row col' to standard output,
and loops until its input closes. Everything else (a line per turn with the
time and iterations) goes to standard error.

Input that breaks the protocol (a line that is not a move, an illegal move, the
input closing in the middle of a turn) or that contradicts the game the bot
followed (valid actions other than the legal moves of its position) ends the
program with one sentence on standard error and exit code 1: the bot cannot
rebuild a position from a list of actions, so playing on would mean searching
another game. A count of 0 valid actions means "no list": the bot plays from
its own position (handy to drive it by hand). The input closing between turns
ends it with exit code 0.

The bot keeps its tree between turns. CodinGame allows 1,000 ms for the first
turn and 100 ms after, counted from when the input is sent; the default SPEC
stops searching at 900 and 80 ms, counted from the moment the turn's first
line arrived (a first turn that was already waiting when the program started
reading counts from the process start, the worst case), and answers a few ms
later. Loading takes 0.5 to 1 s (numba's start-up and its cache of compiled
code; the first run ever compiles for some seconds, so run the command once
before timing it). A line "ready ..." on standard error says when it has
loaded.

Default SPEC: {CODINGAME_SPEC}

{SPEC_SYNTAX}"""


def add_codingame_command(subparsers) -> argparse.ArgumentParser:
    """Add ``codingame uttt [SPEC]`` to an argparse subparsers object; returns its parser.

    The parsed namespace's ``handler`` is :func:`run_codingame`.
    """
    parser = forbid_repeats(subparsers.add_parser(
        "codingame", help="play as a CodinGame bot on standard input and output",
        description=CODINGAME_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter))
    parser.add_argument("game", choices=["uttt"], help="the game (only uttt)")
    parser.add_argument("spec", nargs="?", type=bot_spec, default=parse_spec(CODINGAME_SPEC),
                        metavar="SPEC", help="the bot (default: the CodinGame SPEC above)")
    parser.add_argument("--scoring", choices=SCORINGS, default="codingame",
                        help="scoring the bot plays for (default codingame, as the referee)")
    parser.add_argument("--seed", type=whole_number(0, MAX_SEED), default=0,
                        help="the bot's seed, 0 to 2**64 - 1 (default 0)")
    parser.add_argument("--quiet", action="store_true",
                        help="no per-turn line on standard error")
    parser.set_defaults(handler=run_codingame)
    return parser


class ProtocolError(Exception):
    """The referee's input broke the protocol (the message says how)."""


class TimedLines:
    """Lines of a stream read by a background thread, each with the time it arrived.

    The thread starts before the bot loads (about a second), so a first turn
    sent meanwhile is timed from its arrival, not from when the bot got to
    read it. Input that was already waiting when the thread started is
    dated to the process start: when it was sent is unknown, so assume the
    worst.
    """

    def __init__(self, stream, process_start: float):
        self._lines: queue.Queue = queue.Queue()
        self._stream = stream
        self._waiting = _input_waiting(stream)
        self._process_start = process_start
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        first = True
        try:
            for line in iter(self._stream.readline, ""):
                arrived = self._process_start if first and self._waiting else time.perf_counter()
                self._lines.put((arrived, line))
                first = False
        except (OSError, ValueError) as error:  # UnicodeDecodeError is a ValueError
            # Handed to the main thread, which says what happened; dying here would leave
            # it waiting for a line that never comes.
            self._lines.put((time.perf_counter(), error))
            return
        self._lines.put((time.perf_counter(), None))

    def next(self) -> tuple[float, str | None]:
        """``(arrival time, line)``; the line is None once the input has closed.

        Raises :class:`ProtocolError` if the input could not be read as text.
        """
        arrived, line = self._lines.get()
        if isinstance(line, BaseException):
            self._lines.put((arrived, line))  # every later call fails the same way
            raise ProtocolError(f"standard input could not be read as text: {line}.")
        return arrived, line


def _input_waiting(stream) -> bool:
    try:
        ready, _, _ = select.select([stream], [], [], 0)
    except (TypeError, ValueError, OSError, AttributeError):  # not a file descriptor
        return False
    return bool(ready)


def _process_start() -> float:
    """The process's start on the ``time.perf_counter`` clock (10 ms steps; Linux).

    Elsewhere, or if /proc cannot be read, the moment of the call.
    """
    now = time.perf_counter()
    try:
        with open("/proc/self/stat") as stat, open("/proc/uptime") as uptime:
            started_ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
            up = float(uptime.read().split()[0])
        age = up - started_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return now
    return now - max(0.0, age)


def _skip_numba_blas_probe() -> bool:
    """Save about 0.3 s of start-up: numba's first compiled call imports scipy.linalg.

    numba imports SciPy's BLAS when it first compiles or loads code, to decide
    whether ``np.dot`` in compiled code may call it. The bot does no linear
    algebra, and the CodinGame player is a process of its own, so it hides
    ``scipy.linalg`` until numba has looked (numba then falls back to its own
    loops for ``np.dot`` in this process). Nothing happens if numba has
    already started up or SciPy is already loaded. Returns whether it hid it.
    """
    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return False
    sys.modules["scipy.linalg"] = None  # "import scipy.linalg" now raises ImportError
    return True


def run_codingame(args, stdin=None, stdout=None, stderr=None) -> int:
    """Play a parsed ``codingame uttt`` command on the given streams (default: the process's).

    Returns 0 when the input closes, 1 after a protocol error (explained on
    standard error).
    """
    if stdin is None:
        _replace_undecodable(sys.stdin)
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    process_start = _process_start()
    lines = TimedLines(stdin, process_start)
    hidden = _skip_numba_blas_probe()
    try:
        bot = args.spec(seed=args.seed)  # builds the node pool and loads the compiled search
    finally:
        if hidden:
            del sys.modules["scipy.linalg"]  # later imports of SciPy work as usual
    log = (lambda text: None) if args.quiet else (lambda text: print(text, file=stderr, flush=True))
    log(f"ready {1000 * (time.perf_counter() - process_start):.0f} ms after the process "
        f"started; bot {args.spec}")
    try:
        _play_turns(bot, lines, args.scoring, stdout, log)
    except ProtocolError as error:
        print(f"python -m mctslib codingame: error: {error}", file=stderr, flush=True)
        return 1
    return 0


def _replace_undecodable(stream) -> None:
    """Read bytes that are not UTF-8 as U+FFFD, so that a garbled line is refused like any other."""
    try:
        stream.reconfigure(errors="replace")
    except (AttributeError, ValueError, OSError):  # not a TextIOWrapper, or already read from
        pass


def _play_turns(bot, lines: TimedLines, scoring: str, stdout, log) -> None:
    state = UltimateTicTacToe(scoring=scoring)
    turn = 0
    while True:
        arrived, line = lines.next()
        if line is None:
            return
        turn += 1
        opponent = _read_move(line, f"turn {turn}: the opponent's move")
        actions = _read_actions(lines, turn)
        state = _apply_opponent(state, opponent, turn)
        _check_actions(actions, state, turn)
        move, how = _choose(bot, state, arrived)
        print(format_codingame_move(move), file=stdout, flush=True)
        answered = time.perf_counter()
        state = state.play(move)
        log(f"turn {turn}: {format_codingame_move(move)} after "
            f"{1000 * (answered - arrived):.1f} ms ({how})")


def _choose(bot, state: UltimateTicTacToe, arrived: float) -> tuple[int, str]:
    """The bot's move, and a few words on how it was found for the log."""
    if not hasattr(bot, "last"):  # the random player: no search, no clock
        return bot.choose(state), "random"
    move = bot.choose(state, clock_start=arrived)
    info = bot.last
    return move, (f"{info.how}, {info.iterations:,} iterations, {info.nodes:,} nodes, "
                  f"{info.reused_nodes:,} kept" + (f", proven {info.verdict}" if info.verdict else ""))


def _read_move(line: str, what: str) -> int | None:
    if len(line) > MAX_LINE:
        raise ProtocolError(f"{what}: a CodinGame move line is two whole numbers 'row col', got "
                            f"a line of {len(line):,} characters starting {line[:20]!r}.")
    try:
        return parse_codingame_move(line)
    except ValueError as error:
        raise ProtocolError(f"{what}: {error}") from None


def _read_actions(lines: TimedLines, turn: int) -> list[int]:
    _, count_line = lines.next()
    if count_line is None:
        raise ProtocolError(f"turn {turn}: the input closed before the number of valid actions.")
    try:
        count = int(count_line) if len(count_line) <= MAX_LINE else None
    except ValueError:
        count = None
    if count is None:
        raise ProtocolError(f"turn {turn}: the number of valid actions must be a whole number "
                            f"0..81, got {quoted(count_line.strip())}.")
    if not 0 <= count <= 81:
        raise ProtocolError(f"turn {turn}: the number of valid actions must be 0..81, "
                            f"got {count}.")
    actions = []
    for index in range(count):
        _, line = lines.next()
        if line is None:
            raise ProtocolError(f"turn {turn}: the input closed in the middle of the valid "
                                f"actions, after {index} of {count}.")
        move = _read_move(line, f"turn {turn}: a valid action")
        if move is None:
            raise ProtocolError(f"turn {turn}: a valid action cannot be '-1 -1'.")
        actions.append(move)
    return actions


def _check_actions(actions: list[int], state: UltimateTicTacToe, turn: int) -> None:
    """Refuse valid actions that are not exactly the legal moves of the bot's position.

    Resynchronising is not safe: the list names the cells where the bot may
    play, not the marks on the board, so no position can be rebuilt from it,
    and a bot that searched the position it believes in could answer a cell
    the referee holds taken. An empty list means "no list given".
    """
    legal = state.legal_moves()
    if actions and sorted(actions) != sorted(legal):
        raise ProtocolError(
            f"turn {turn}: the referee's valid actions ({_listed(actions)}) are not the legal "
            f"moves of the position the bot followed ({_listed(legal)}), so the referee and "
            "the bot disagree about the game; the bot stops rather than play another game.")


def _listed(moves) -> str:
    shown_moves = ", ".join(format_codingame_move(move) for move in moves[:6])
    more = f", ... {len(moves)} in all" if len(moves) > 6 else ""
    return shown_moves + more


def _apply_opponent(state: UltimateTicTacToe, move: int | None, turn: int) -> UltimateTicTacToe:
    if move is None:
        if turn != 1:
            raise ProtocolError(f"turn {turn}: '-1 -1' (no opponent move) only comes on the "
                                "first turn, when the bot plays first.")
        return state
    try:
        state = state.play(move)
    except ValueError as error:
        raise ProtocolError(f"turn {turn}: the opponent's move is illegal here: {error}") from None
    if state.is_terminal():
        raise ProtocolError(f"turn {turn}: the opponent's move ended the game; there is "
                            "nothing left to play.")
    return state
