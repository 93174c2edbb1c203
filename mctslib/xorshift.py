"""xorshift64: the tiny random number generator of the published UCT harness.

The UCT chapter reproduces, number for number, a tic-tac-toe experiment whose
C++ and Rust versions print the same results because they share this
generator and use it in the same order. Python ints are unbounded, so every
step masks to 64 bits to get the same wraparound as C's ``uint64_t``.
The numba engines use the same three shifts (:mod:`mctslib.fast`).

The state starts at ``seed | 1`` (a zero state would stay zero), so the seeds
``2k`` and ``2k + 1`` give the *same* stream, and small seeds start with only a
few bits set. Runs that must be independent (one search per seed, repeated a
thousand times) take their seeds from :func:`derive_seeds`, never from
``range(count)``. Chapters 4 and 4b.
"""

from __future__ import annotations

from ._checks import check_int

MASK64 = (1 << 64) - 1
#: The most seeds :func:`derive_seeds` hands out at once.
MAX_DERIVED_SEEDS = 1_000_000
#: The largest count ``below`` serves: its draw is the top 32 bits of the state.
_MAX_BELOW = 1 << 32


class XorShift64:
    """Marsaglia's xorshift64 with shifts 13, 7, 17.

    Parameters
    ----------
    seed : int
        A whole number from 0 to 2**64 - 1 (a C ``uint64_t``; a Python or numpy
        integer); the state is ``seed | 1`` so it is never zero (a zero state
        would stay zero forever), which makes seeds ``2k`` and ``2k + 1`` the
        same stream: independent runs take their seeds from
        :func:`derive_seeds`. Larger seeds are refused: masked to 64 bits
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


def _splitmix64(value: int) -> tuple[int, int]:
    """One SplitMix64 step: (next state, output). Steele, Lea and Flood's seeding generator."""
    value = (value + 0x9E3779B97F4A7C15) & MASK64
    z = value
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return value, z ^ (z >> 31)


def derive_seeds(root_seed: int, count: int) -> list[int]:
    """``count`` xorshift64 seeds with distinct streams: SplitMix64's first outputs from ``root_seed``.

    Consecutive integers are not independent seeds here: ``XorShift64`` starts
    at ``seed | 1``, so 0 and 1, 2 and 3, ... give identical streams. SplitMix64
    spreads neighbouring values over all 64 bits, so each seed's stream also
    starts well mixed, and the seeds are checked to give distinct start
    states (a ValueError names the root seed in the never yet seen case that
    two collide). ``root_seed`` is 0 to 2**64 - 1, ``count`` 1 to
    :data:`MAX_DERIVED_SEEDS`. Chapter 4's running example, chapter 4b's
    thousand-search counts and the convergence atlas.
    """
    root_seed = check_int("root_seed", root_seed, 0, MASK64)
    count = check_int("count (of seeds)", count, 1, MAX_DERIVED_SEEDS)
    seeds, value = [], root_seed
    for _ in range(count):
        value, output = _splitmix64(value)
        seeds.append(output)
    if len({seed | 1 for seed in seeds}) != count:
        raise ValueError(f"root_seed {root_seed} gives two seeds with the same xorshift64 start "
                         f"state among the first {count:,}; choose another root_seed.")
    return seeds
