"""Argument types for the command line: a bad value becomes one sentence, never a traceback.

Shared by ``python -m mctslib``'s commands (:mod:`mctslib.cli.main`, :mod:`mctslib.cli.match`,
:mod:`mctslib.cli.codingame`, :mod:`mctslib.cli.play`); argparse prints the sentence after its usage line and
exits with code 2. Every count has an upper bound the machine can serve, and an
option given twice is refused (argparse would silently keep the last one).
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
from pathlib import Path

__all__ = [
    "MAX_SEED",
    "StoreOnce",
    "UsageError",
    "bot_spec",
    "finite_number",
    "forbid_repeats",
    "non_negative_number",
    "quoted",
    "shown",
    "whole_number",
    "writable_file",
]

#: Seeds are whole numbers that fit in 64 bits (numpy takes any size; a person types a few digits).
MAX_SEED = 2**64 - 1
#: Text longer than this is cut in a message: an error line must stay one readable line.
_SHOWN = 60


class UsageError(Exception):
    """Arguments that are each fine but do not go together (exit code 2, like argparse's errors).

    Raised by a command's handler before it starts any work; :func:`mctslib.cli.main.main`
    prints the sentence.
    """


def shown(text) -> str:
    """``text`` as typed if it is one plain word, else its ``repr``; cut to a readable length.

    A hostile argument may be empty, hold control characters or be megabytes long.
    """
    text = str(text)
    plain = text.isprintable() and text and not any(char.isspace() for char in text)
    text = text if plain else repr(text)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def quoted(text) -> str:
    """``repr(text)``, cut to a readable length."""
    text = repr(str(text))
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "..."


def whole_number(minimum: int, maximum: int | None = None):
    """An argparse type: a whole number from ``minimum`` to ``maximum`` (inclusive; None: no bound).

    Give a ``maximum`` to every count the machine must serve (games, iterations,
    processes): a number beyond it is refused here rather than failing deep
    inside numpy or numba.
    """
    allowed = (f"a whole number >= {minimum}" if maximum is None
               else f"a whole number from {minimum:,} to {maximum:,}")

    def parse(text: str) -> int:
        try:
            value = int(text.strip(), 10) if len(text) <= 100 else None
        except ValueError:
            value = None
        if value is None or not (value >= minimum and (maximum is None or value <= maximum)):
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {shown(text)}.")
        return value

    parse.__name__ = allowed  # argparse names the type in some messages
    return parse


def non_negative_number(text: str) -> float:
    """An argparse type: a finite number >= 0."""
    return finite_number(0.0)(text)


def finite_number(minimum: float = -math.inf, maximum: float = math.inf):
    """An argparse type: a finite number from ``minimum`` to ``maximum`` (NaN and infinities refused)."""
    allowed = (f"a finite number >= {minimum:g}" if math.isinf(maximum)
               else f"a finite number from {minimum:g} to {maximum:g}")

    def parse(text: str) -> float:
        try:
            value = float(text) if len(text) <= 100 else math.nan
        except ValueError:
            value = math.nan
        if not (minimum <= value <= maximum) or math.isinf(value):  # NaN fails the comparison
            raise argparse.ArgumentTypeError(f"must be {allowed}, got {shown(text)}.")
        return value

    parse.__name__ = allowed
    return parse


def bot_spec(text: str):
    """An argparse type: a bot SPEC (see :mod:`mctslib.bots.uttt`) for a bot that plays here.

    Parsed into a ``BotSpec``; its node pool is checked against the memory
    available now, so a pool that cannot fit is refused before anything starts.
    """
    from ..bots.uttt import check_pool_memory  # loads numba: only for a SPEC

    spec = any_machine_bot_spec(text)
    try:
        if getattr(spec, "kind", None) == "uct":  # alpha-beta has no node pool
            check_pool_memory(spec.capacity)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return spec


def any_machine_bot_spec(text: str):
    """An argparse type: a bot SPEC parsed into a ``BotSpec``, its memory not checked here.

    For commands that may play elsewhere (``match --scheduler``): the machine
    that plays checks the node pools (``match`` checks this machine's memory
    itself when it plays locally, each Dask worker's limit otherwise).
    """
    from ..bots.uttt import parse_spec  # loads numba: only for a SPEC

    try:
        return parse_spec(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def writable_file(text: str) -> Path:
    """An argparse type: a file this process can create or replace (checked now, by a trial file).

    A command that saves its results at the end checks the path before its
    first game, so an hour of games is never lost to a typo in a folder name.
    """
    path = Path(text)
    if not text or text.endswith(os.sep) or path.is_dir():
        raise argparse.ArgumentTypeError(f"must name a file to write, not a folder, got "
                                         f"{shown(text)}.")
    folder = path.parent
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"must be in an existing folder; {shown(str(folder))} "
                                         f"is not one (create it first), got {shown(text)}.")
    try:  # the only reliable test: os.access ignores read-only mounts and some ACLs
        with tempfile.NamedTemporaryFile(dir=folder, prefix=f".{path.name}.", suffix=".check"):
            pass
    except OSError as error:
        raise argparse.ArgumentTypeError(f"must be in a folder this process may write to; "
                                         f"{shown(str(folder))} is not ({error.strerror}), "
                                         f"got {shown(text)}.") from None
    if path.exists() and not os.access(path, os.W_OK):
        raise argparse.ArgumentTypeError(f"names a file this process may not replace, got "
                                         f"{shown(text)}.")
    return path


class StoreOnce(argparse.Action):
    """argparse's ``store`` action, except that an option given twice is an error.

    argparse keeps the last value of a repeated option without a word; on a
    long command line that hides a mistake (``--games 10 ... --games 1000``).
    """

    def __call__(self, parser, namespace, values, option_string=None):
        given = vars(namespace).setdefault("_options_given", {})
        if self.dest in given and option_string is not None:
            raise argparse.ArgumentError(
                self, f"given twice ({shown(given[self.dest])}, then {shown(values)}); "
                      "give it once.")
        given[self.dest] = values
        setattr(namespace, self.dest, values)


class _FlagOnce(argparse.Action):
    """``store_true``, refusing a repeat like :class:`StoreOnce`."""

    def __init__(self, option_strings, dest, default=False, required=False, help=None):
        super().__init__(option_strings, dest, nargs=0, const=True, default=default,
                         required=required, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        given = vars(namespace).setdefault("_options_given", {})
        if self.dest in given:
            raise argparse.ArgumentError(self, "given twice; give it once.")
        given[self.dest] = True
        setattr(namespace, self.dest, True)


def forbid_repeats(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Make every option added to ``parser`` from now on refuse to be given twice; returns it.

    Call it right after creating the parser (argparse looks the actions up by
    name when an argument is added).
    """
    parser.register("action", None, StoreOnce)
    parser.register("action", "store", StoreOnce)
    parser.register("action", "store_true", _FlagOnce)
    return parser
