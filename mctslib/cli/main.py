"""The command line: ``python -m mctslib ...`` (UCT chapter onward).

    python -m mctslib harness tictactoe [--iterations 2000] [--exploration 1.0]
                                        [--engine python|numba] [--games 1000]
    python -m mctslib match uttt --a SPEC --b SPEC --games N [--jobs J] [--out FILE] ...
    python -m mctslib codingame uttt [SPEC]
    python -m mctslib play uttt [--bot SPEC] [--side x|o]

``python -m mctslib COMMAND --help`` documents each command (the SPEC syntax under
``match --help``).

Bad arguments get a one-line message and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys

from ..experiments.harness import ENGINES, run_harness
from .argtypes import non_negative_number, whole_number
from .play import add_play_command
from .uttt import add_codingame_command, add_match_command


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m mctslib", description="mctsbook's library: experiments from the command line.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    harness = commands.add_parser(
        "harness",
        help="reproduce a published experiment",
        description=(
            "Reproduce the published tic-tac-toe UCT harness (UCT chapter): one search seeded 2026 "
            "plays 1,000 games as X and 1,000 as O against a random opponent seeded 7, then is asked "
            "for its move in every reachable position with exactly one winning move. Prints three lines."
        ),
    )
    harness.add_argument("game", choices=["tictactoe"], help="the game (only tictactoe)")
    harness.add_argument("--iterations", type=whole_number(1), default=2000,
                         help="UCT iterations per move (default 2000)")
    harness.add_argument("--exploration", type=non_negative_number, default=1.0,
                         help="the exploration constant c (default 1.0)")
    harness.add_argument("--engine", choices=ENGINES, default="numba",
                         help="numba (seconds) or the readable python reference (minutes); "
                              "both print the same lines (default numba)")
    harness.add_argument("--games", type=whole_number(1), default=1000,
                         help="games per seat against the random opponent (default 1000)")
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
    args = build_parser().parse_args(argv)
    return args.handler(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
