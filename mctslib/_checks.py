"""Argument checks shared by the library: one sentence per mistake.

A learner who passes a bad parameter should read what was wrong and what is
allowed, not a traceback from deep inside numpy.
"""

from __future__ import annotations

import math


def check_int(name: str, value, minimum: int = 0) -> int:
    """Return ``value`` as an int, or raise ValueError unless it is an int >= minimum."""
    if isinstance(value, bool) or not isinstance(value, (int,)) and not _is_numpy_int(value):
        raise ValueError(f"{name} must be a whole number >= {minimum}, got {value!r}.")
    if value < minimum:
        raise ValueError(f"{name} must be a whole number >= {minimum}, got {value}.")
    return int(value)


def check_real(name: str, value, low: float = -math.inf, high: float = math.inf) -> float:
    """Return ``value`` as a float, or raise ValueError unless it is finite and in [low, high]."""
    try:
        number = float(value)
    except (TypeError, ValueError):
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
