"""xorshift64: the tiny random number generator of the published UCT harness.

The UCT chapter reproduces, number for number, a tic-tac-toe experiment whose
C++ and Rust versions print the same results because they share this
generator and use it in the same order. Python ints are unbounded, so every
step masks to 64 bits to get the same wraparound as C's ``uint64_t``.
The numba engines use the same three shifts (:mod:`mctslib.fast`).
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1


class XorShift64:
    """Marsaglia's xorshift64 with shifts 13, 7, 17.

    Parameters
    ----------
    seed : int
        Any integer >= 0; the state is ``seed | 1`` so it is never zero
        (a zero state would stay zero forever).
    """

    __slots__ = ("state",)

    def __init__(self, seed: int):
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed must be a whole number >= 0, got {seed!r}.")
        self.state = (seed | 1) & MASK64

    def next(self) -> int:
        """Advance the state and return it (a 64-bit unsigned integer)."""
        s = self.state
        s ^= (s << 13) & MASK64
        s ^= s >> 7
        s ^= (s << 17) & MASK64
        self.state = s
        return s

    def below(self, count: int) -> int:
        """A number in ``0 .. count-1``: the high 32 bits scaled by multiplication, no division."""
        return ((self.next() >> 32) * count) >> 32
