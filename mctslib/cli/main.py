"""The command line: ``python -m mctslib ...`` (UCT chapter onward).

    python -m mctslib harness tictactoe [--iterations 2000] [--exploration 1.0]
                                        [--engine python|numba] [--games 1000]
    python -m mctslib match uttt --a SPEC --b SPEC --games N [--jobs J | --scheduler ADDRESS]
                                 [--out FILE] ...
    python -m mctslib codingame uttt [SPEC]
    python -m mctslib play uttt [--bot SPEC] [--side x|o]

``python -m mctslib COMMAND --help`` documents each command (the SPEC syntax under
``match --help``).

Every mistake gets one sentence on standard error, never a traceback: bad
arguments argparse's usage line and an ``error:`` line, exit code 2 (also for
arguments that are each fine but do not go together, :class:`~.argtypes.UsageError`);
a failure while running, one ``error:`` line and exit code 1; Ctrl-C a line and
exit code 130.
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import BrokenExecutor

from ..experiments.uct.harness import ENGINES, MAX_GAMES, MAX_ITERATIONS, run_harness
from .argtypes import UsageError, finite_number, forbid_repeats, whole_number
from .codingame import add_codingame_command
from .match import add_match_command
from .play import add_play_command

PROG = "python -m mctslib"


def build_parser() -> argparse.ArgumentParser:
    parser = forbid_repeats(argparse.ArgumentParser(
        prog=PROG, description="mctsbook's library: experiments from the command line."))
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    harness = forbid_repeats(commands.add_parser(
        "harness",
        help="reproduce a published experiment",
        description=(
            "Reproduce the published tic-tac-toe UCT harness (UCT chapter): one search seeded 2026 "
            "plays 1,000 games as X and 1,000 as O against a random opponent seeded 7, then is asked "
            "for its move in every reachable position with exactly one winning move. Prints three lines."
        ),
    ))
    harness.add_argument("game", choices=["tictactoe"], help="the game (only tictactoe)")
    harness.add_argument("--iterations", type=whole_number(1, MAX_ITERATIONS), default=2000,
                         help=f"UCT iterations per move, 1 to {MAX_ITERATIONS:,} (default 2000)")
    harness.add_argument("--exploration", type=finite_number(0.0), default=1.0,
                         help="the exploration constant c, a finite number >= 0 (default 1.0)")
    harness.add_argument("--engine", choices=ENGINES, default="numba",
                         help="numba (seconds) or the readable python reference (minutes); "
                              "both print the same lines (default numba)")
    harness.add_argument("--games", type=whole_number(1, MAX_GAMES), default=1000,
                         help=f"games per seat against the random opponent, 1 to {MAX_GAMES:,} "
                              "(default 1000)")
    harness.set_defaults(handler=run_harness_command)
    add_match_command(commands)
    add_codingame_command(commands)
    add_play_command(commands)
    return parser


def run_harness_command(args) -> int:
    result = run_harness(args.iterations, args.exploration, args.engine, args.games)
    print("\n".join(result.lines()))
    return 0


def main(argv=None) -> int:
    """Run ``python -m mctslib`` with ``argv`` (default: the process's); returns the exit code.

    argparse raises SystemExit(2) for a bad argument, after printing its usage
    line and the sentence.
    """
    prog = PROG
    try:
        args = build_parser().parse_args(argv)  # a SPEC loads numba: Ctrl-C may come here
        prog = f"{PROG} {args.command}"
        return args.handler(args)
    except UsageError as error:
        return _fail(prog, error, 2)
    except KeyboardInterrupt:
        print(f"{prog}: interrupted.", file=sys.stderr, flush=True)
        return 130
    except BrokenPipeError:
        # Whoever read our output has gone (`... | head -1`): nothing left to say to them.
        # Python would complain again when it flushes stdout at exit, so point it elsewhere.
        _silence_stdout()
        return 1
    except BrokenExecutor:
        return _fail(prog, ValueError("a worker process of the match died (killed, perhaps for "
                                      "lack of memory); no result was kept."), 1)
    except (ValueError, OSError, MemoryError) as error:
        # Every check in the library raises ValueError with a sentence; OSError (a disk
        # full, a file removed) and MemoryError come from the machine at run time.
        return _fail(prog, error, 1)


def _fail(prog: str, error: BaseException, code: int) -> int:
    message = str(error) or type(error).__name__
    if isinstance(error, MemoryError):
        message = f"the machine ran out of memory ({message})."
    elif isinstance(error, OSError) and error.strerror:
        where = f" ({error.filename})" if error.filename else ""
        message = f"{error.strerror}{where}."
    print(f"{prog}: error: {' '.join(message.split())}", file=sys.stderr, flush=True)
    return code


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file: nothing to flush later
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
