"""Argument checks shared by the library: one sentence per mistake.

A learner who passes a bad parameter should read what was wrong and what is
allowed, not a traceback from deep inside numpy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: The largest count a float holds exactly with every whole number below it (2**53).
#: Visits, games and pulls are divided and logged as floats; beyond this bound
#: ``n + 1 == n`` in floating point, so such counts are refused rather than rounded.
MAX_EXACT_COUNT = 2**53


def check_int(name: str, value, minimum: int = 0, maximum: int | None = None) -> int:
    """Return ``value`` as an int, or raise ValueError unless it is a whole number in range.

    ``maximum`` (inclusive) is for counts the machine must be able to serve:
    a budget, a number of games, a pool of nodes. Booleans, floats and
    strings are refused even when they look like whole numbers (``True``,
    ``3.0``, ``"3"``), so a mistake in a call is named rather than guessed at.
    """
    allowed = f">= {minimum}" if maximum is None else f"from {minimum} to {maximum:,}"
    if isinstance(value, bool) or not isinstance(value, (int,)) and not _is_numpy_int(value):
        raise ValueError(f"{name} must be a whole number {allowed}, got {shown(value)}.")
    if value < minimum or maximum is not None and value > maximum:
        raise ValueError(f"{name} must be a whole number {allowed}, got {shown(value, str)}.")
    return int(value)


def shown(value, show=repr) -> str:
    """``show(value)`` for a sentence, with a whole number of more than 30 digits summarised.

    A sentence should fit on a screen, and Python refuses to print an int of
    more than 4,300 digits at all (it raises ValueError of its own), even
    inside a tuple or a list: such a value is then described by its type.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 100:
        digits = int(value.bit_length() * 0.30103) + 1  # log10(2) digits per bit, give or take one
        sign = "a negative" if value < 0 else "a"
        return f"{sign} whole number of about {digits:,} digits"
    try:
        text = show(value)
    except ValueError:
        return f"a {type(value).__name__} holding a number too long to print"
    # A whole table or a long list in a sentence would bury the sentence.
    return text if len(text) <= 200 else f"{text[:150]}... ({type(value).__name__}, cut)"


def check_real(name: str, value, low: float = -math.inf, high: float = math.inf) -> float:
    """Return ``value`` as a float, or raise ValueError unless it is a finite number in [low, high].

    Booleans and strings are refused (``True`` is not a probability, and
    ``"0.5"`` is text, not a number), as are NaN and the infinities.
    """
    if isinstance(value, (bool, str, bytes)) or _is_numpy_bool(value):
        raise ValueError(f"{name} must be a number in {_interval(low, high)}, got {shown(value)}.")
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} must be a number in {_interval(low, high)}, got {shown(value)}.") from None
    if math.isnan(number) or not (low <= number <= high) or math.isinf(number):
        raise ValueError(f"{name} must be a number in {_interval(low, high)}, got {shown(value)}.")
    return number


def _interval(low: float, high: float) -> str:
    if math.isinf(low) and math.isinf(high):
        return "(-inf, inf) (finite)"
    if math.isinf(high):
        return f"[{low:g}, inf) (finite)"
    if math.isinf(low):
        return f"(-inf, {high:g}]"
    return f"[{low:g}, {high:g}]"


def _is_numpy_bool(value) -> bool:
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is a dependency
        return False
    return isinstance(value, np.bool_)


def _is_numpy_int(value) -> bool:
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is a dependency
        return False
    return isinstance(value, np.integer)


def is_sequence(value) -> bool:
    """True for a list, a tuple or another sequence, or a numpy array of at least one axis.

    Text is not a sequence here (``"abc"`` is one value, not three), and
    neither is a 0-d array: ``len()`` of either would mislead or fail.
    """
    if isinstance(value, (str, bytes, bytearray)):
        return False
    if isinstance(value, Sequence):
        return True
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is a dependency
        return False
    return isinstance(value, np.ndarray) and value.ndim >= 1


def check_bool(name: str, value) -> bool:
    """Return ``value`` as a bool, or raise ValueError unless it is True or False.

    Truthiness is not enough: ``"no"`` and ``[0]`` are true, and a flag set by a
    mistaken argument would silently switch a behaviour on.
    """
    if isinstance(value, bool) or _is_numpy_bool(value):
        return bool(value)
    raise ValueError(f"{name} must be True or False, got {shown(value)}.")


def check_callable(name: str, value):
    """Return ``value`` unchanged, or raise TypeError unless it can be called.

    TypeError, not ValueError: it is Python's own answer to calling what is not
    callable, and the check only moves that answer to the start of the call,
    before any work is done.
    """
    if not callable(value):
        raise TypeError(f"{name} must be callable (a function), got {shown(value)}.")
    return value


def check_choice(name: str, value, choices) -> str:
    """Return ``value`` unchanged, or raise ValueError unless it is one of ``choices``."""
    # Types are compared first: ``value in choices`` would compare a numpy array
    # element-wise and fail with numpy's message instead of ours.
    if not any(isinstance(value, type(choice)) and value == choice for choice in choices):
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, got {shown(value)}.")
    return value
