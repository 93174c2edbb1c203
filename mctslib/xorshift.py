"""xorshift64: the tiny random number generator of the published UCT harness.

The UCT chapter reproduces, number for number, a tic-tac-toe experiment whose
C++ and Rust versions print the same results because they share this
generator and use it in the same order. Python ints are unbounded, so every
step masks to 64 bits to get the same wraparound as C's ``uint64_t``.
The numba engines use the same three shifts (:mod:`mctslib.fast`).
"""

from __future__ import annotations

from ._checks import check_int

MASK64 = (1 << 64) - 1
#: The largest count ``below`` serves: its draw is the top 32 bits of the state.
_MAX_BELOW = 1 << 32


class XorShift64:
    """Marsaglia's xorshift64 with shifts 13, 7, 17.

    Parameters
    ----------
    seed : int
        A whole number from 0 to 2**64 - 1 (a C ``uint64_t``; a Python or numpy
        integer); the state is ``seed | 1`` so it is never zero (a zero state
        would stay zero forever). Larger seeds are refused: masked to 64 bits
        they would silently repeat smaller ones.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int):
        self.state = (check_int("seed", seed, 0, MASK64) | 1) & MASK64

    def next(self) -> int:
        """Advance the state and return it (a 64-bit unsigned integer)."""
        s = self.state
        s ^= (s << 13) & MASK64
        s ^= s >> 7
        s ^= (s << 17) & MASK64
        self.state = s
        return s

    def below(self, count: int) -> int:
        """A number in ``0 .. count-1``: the high 32 bits scaled by multiplication, no division.

        ``count`` is a whole number from 1 to 2**32: the draw has 32 bits, so a
        larger count could not reach every number below it.
        """
        if type(count) is not int or not 0 < count <= _MAX_BELOW:  # cheap: playouts call it often
            count = check_int("count", count, 1, _MAX_BELOW)
        return ((self.next() >> 32) * count) >> 32
