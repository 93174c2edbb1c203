"""Reading a bot SPEC (``NAME:KEY=VALUE,...``): the steps every SPEC reader takes alike.

:func:`mctslib.bots.uttt.parse_spec` and
:func:`mctslib.bots.uttt_alphabeta.parse_alphabeta_spec` each know their own
keys, values and help sentence; the checks of the text, the loop over the
options and the reading of an on/off switch or a number are written once here,
so that both answer bad input with the same sentences. So are their time
budgets (``ms``, ``first_ms``, ``margin_ms``): checked, completed and written
back into a SPEC the same way.
"""

from __future__ import annotations

from collections.abc import Callable

from .._checks import check_real

#: A longer SPEC is refused: every option of the MCTS bot spelled out takes about 130.
MAX_SPEC_LENGTH = 1000
_ON_OFF = {"on": True, "off": False}
DEFAULT_MS = 100.0
FIRST_MOVE_FACTOR = 10  # CodinGame: 1,000 ms for the first turn, 100 ms after
#: A time budget of at most a day, in milliseconds: beyond that a typo, not a plan.
MAX_MS = 86_400_000.0


def split_spec(text, help_text: str) -> tuple[str, str]:
    """``(name, options)`` of a SPEC string, spaces removed: the text before and after ``:``.

    Raises ValueError, ending with ``help_text``, if ``text`` is not a non-empty
    string of at most :data:`MAX_SPEC_LENGTH` characters.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"a bot SPEC must be a non-empty string, got {text!r:.80}. " + help_text)
    if len(text) > MAX_SPEC_LENGTH:
        raise ValueError(f"a bot SPEC is at most {MAX_SPEC_LENGTH:,} characters, got one of "
                         f"{len(text):,} starting {text[:40]!r}. " + help_text)
    name, _, options = text.replace(" ", "").partition(":")
    return name, options


def read_options(text: str, options: str, keys: dict, parse_value: Callable,
                 help_text: str) -> dict:
    """The ``KEY=VALUE`` items of ``options`` as ``{keys[KEY]: parse_value(KEY, VALUE, text)}``.

    ``keys`` maps each allowed key to its field name. Raises ValueError for an
    unknown key or an item without ``=`` (ending with ``help_text``) and for a
    key given twice.
    """
    values: dict = {}
    for item in filter(None, options.split(",")):
        key, equals, value = item.partition("=")
        if key not in keys or not equals:
            raise ValueError(f"unknown option {item!r} in SPEC {text!r}. " + help_text)
        if keys[key] in values:
            raise ValueError(f"option {key!r} appears twice in SPEC {text!r}; give it once.")
        values[keys[key]] = parse_value(key, value, text)
    return values


def on_off(key: str, value: str, text: str) -> bool:
    """True for ``on``, False for ``off``; anything else raises ValueError naming ``key``."""
    if value not in _ON_OFF:
        raise ValueError(f"{key} must be on or off, got {value!r} in SPEC {text!r}.")
    return _ON_OFF[value]


def number(key: str, value: str, text: str, whole_keys, help_text: str) -> int | float:
    """``value`` as an int if ``key`` is in ``whole_keys``, else as a float.

    Raises ValueError, ending with ``help_text``, if it is not one.
    """
    try:
        return int(value) if key in whole_keys else float(value)
    except ValueError:
        kind = "a whole number" if key in whole_keys else "a number"
        raise ValueError(f"{key} must be {kind}, got {value!r} in SPEC {text!r}. "
                         + help_text) from None


def exact(number: float) -> str:
    """The shortest text that reads back to exactly ``number`` (``100`` rather than ``100.0``)."""
    return repr(float(number)).removesuffix(".0")


def positive_milliseconds(name: str, value) -> float:
    """``value`` as a float above 0 and at most :data:`MAX_MS`; else ValueError naming ``name``."""
    message = (f"{name} (milliseconds) must be a finite number > 0 and at most "
               f"{MAX_MS:,.0f} (a day), got {value!r}.")
    try:
        number = check_real(name, value)
    except ValueError:
        raise ValueError(message) from None
    if not 0.0 < number <= MAX_MS:
        raise ValueError(message)
    return number


def time_budget(ms, first_ms, margin_ms) -> tuple[float, float, float]:
    """A time budget checked and completed: ``(ms, first_ms, margin_ms)``.

    ``ms`` and ``first_ms`` are None or milliseconds (:func:`positive_milliseconds`);
    ``ms`` defaults to :data:`DEFAULT_MS` and ``first_ms`` to
    ``FIRST_MOVE_FACTOR * ms``, at most a day like a time given, so that the
    SPEC written back reads back. ``margin_ms`` must be >= 0 and below both.
    """
    if ms is not None:
        ms = positive_milliseconds("ms", ms)
    if first_ms is not None:
        first_ms = positive_milliseconds("first_ms", first_ms)
    if ms is None:
        ms = DEFAULT_MS
    if first_ms is None:
        first_ms = min(FIRST_MOVE_FACTOR * ms, MAX_MS)
    budget = min(ms, first_ms)
    message = (f"margin_ms (milliseconds) must be a finite number >= 0 and below ms and "
               f"first_ms (here {exact(budget)}), got {margin_ms!r}.")
    try:
        margin = check_real("margin_ms", margin_ms, 0.0)
    except ValueError:
        raise ValueError(message) from None
    if margin >= budget:
        raise ValueError(message)
    return ms, first_ms, margin


def budget_text(ms: float, first_ms: float, margin_ms: float) -> str:
    """A time budget as SPEC options: ``ms=...,first_ms=...`` and ``margin_ms`` if not 0."""
    text = f"ms={exact(ms)},first_ms={exact(first_ms)}"
    if margin_ms:
        text += f",margin_ms={exact(margin_ms)}"
    return text
