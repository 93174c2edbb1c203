"""Argument types for the command line: a bad value becomes one sentence, never a traceback.

Shared by ``python -m mctslib``'s commands (:mod:`mctslib.cli.main`, :mod:`mctslib.cli.uttt`,
:mod:`mctslib.cli.play`); argparse prints the sentence and exits with code 2.
"""

from __future__ import annotations

import argparse
import math


def whole_number(minimum: int):
    """An argparse type: a whole number >= ``minimum``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    parse.__name__ = f"whole number >= {minimum}"
    return parse


def non_negative_number(text: str) -> float:
    """An argparse type: a finite number >= 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not value >= 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {text}")
    return value


def bot_spec(text: str):
    """An argparse type: a bot SPEC (see :mod:`mctslib.bots.uttt`), parsed into a ``BotSpec``."""
    from ..bots.uttt import parse_spec  # loads numba: only when a command takes a SPEC

    try:
        return parse_spec(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
