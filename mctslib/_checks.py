"""Argument checks shared by the library: one sentence per mistake.

A learner who passes a bad parameter should read what was wrong and what is
allowed, not a traceback from deep inside numpy.
"""

from __future__ import annotations

import math


def check_int(name: str, value, minimum: int = 0, maximum: int | None = None) -> int:
    """Return ``value`` as an int, or raise ValueError unless it is a whole number in range.

    ``maximum`` (inclusive) is for counts the machine must be able to serve:
    a budget, a number of games, a pool of nodes. Booleans, floats and
    strings are refused even when they look like whole numbers (``True``,
    ``3.0``, ``"3"``), so a mistake in a call is named rather than guessed at.
    """
    allowed = f">= {minimum}" if maximum is None else f"from {minimum} to {maximum:,}"
    if isinstance(value, bool) or not isinstance(value, (int,)) and not _is_numpy_int(value):
        raise ValueError(f"{name} must be a whole number {allowed}, got {value!r}.")
    if value < minimum or maximum is not None and value > maximum:
        raise ValueError(f"{name} must be a whole number {allowed}, got {value}.")
    return int(value)


def check_real(name: str, value, low: float = -math.inf, high: float = math.inf) -> float:
    """Return ``value`` as a float, or raise ValueError unless it is a finite number in [low, high].

    Booleans and strings are refused (``True`` is not a probability, and
    ``"0.5"`` is text, not a number), as are NaN and the infinities.
    """
    if isinstance(value, (bool, str, bytes)) or _is_numpy_bool(value):
        raise ValueError(f"{name} must be a number in {_interval(low, high)}, got {value!r}.")
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} must be a number in {_interval(low, high)}, got {value!r}.") from None
    if math.isnan(number) or not (low <= number <= high) or math.isinf(number):
        raise ValueError(f"{name} must be a number in {_interval(low, high)}, got {value!r}.")
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


def check_choice(name: str, value, choices) -> str:
    """Return ``value`` unchanged, or raise ValueError unless it is one of ``choices``."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}.")
    return value
