"""xorshift64 for the numba engines: the same stream as :class:`mctslib.xorshift.XorShift64`.

The generator's state lives in a one-element uint64 array so compiled code can
advance it in place and the caller keeps it between calls (a uint64 returned to
Python comes back as an int, and passing that back would retype the argument
and trigger a recompile; see the toolchain notes).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..xorshift import XorShift64

_S13, _S7, _S17, _S32 = np.uint64(13), np.uint64(7), np.uint64(17), np.uint64(32)


def new_rng(seed: int) -> np.ndarray:
    """A one-element uint64 array holding ``XorShift64(seed)``'s state (same stream)."""
    return np.array([XorShift64(seed).state], dtype=np.uint64)


@njit(cache=True)
def xorshift_step(x):
    """One xorshift64 step on a uint64 value (shifts 13, 7, 17)."""
    x ^= x << _S13
    x ^= x >> _S7
    x ^= x << _S17
    return x


@njit(cache=True)
def scale_below(x, count):
    """Map a 64-bit draw to 0..count-1: the high 32 bits times count, shifted back."""
    return np.int64(((x >> _S32) * np.uint64(count)) >> _S32)


@njit(cache=True)
def xorshift_next(rng):
    """Advance the state held in ``rng[0]`` and return it."""
    rng[0] = xorshift_step(rng[0])
    return rng[0]


@njit(cache=True)
def below(rng, count):
    """A number in 0..count-1 drawn like ``XorShift64.below`` (advances ``rng[0]``)."""
    return scale_below(xorshift_next(rng), count)


@njit(cache=True, inline="always")
def shuffle_prefix(values, n, rng):
    """Shuffle ``values[:n]`` in place: Fisher-Yates as :func:`mctslib.search.uct.shuffled`.

    From the last index down to 1, ``i`` swaps with ``below(rng, i + 1)``: the
    draws of the readable searches' shuffle of a new node's children, so a
    kernel that calls this expands its nodes in the readable twin's order.
    Inlined (``inline="always"``) into the search kernels, which ran this loop
    written out before it moved here.
    """
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        values[i], values[j] = values[j], values[i]
