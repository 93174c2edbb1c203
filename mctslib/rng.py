"""Random number generators: the one place where randomness is created.

Every function in ``mctslib`` that makes a random choice takes a ``seed``
argument and passes it through :func:`make_rng`; nothing uses numpy's or
Python's global random state, so the same seed gives the same result on every
machine. Used by every chapter.
"""

from __future__ import annotations

import numpy as np

from ._checks import check_int
from .xorshift import XorShift64

#: The most streams one call of :func:`spawn_rngs` makes: each is a full generator
#: (about a kilobyte), and the book needs one per policy or player.
MAX_STREAMS = 100_000

#: The largest count :meth:`GeneratorSource.below` serves (numpy draws int64).
_MAX_BELOW = 2**63 - 1


def make_rng(seed=None) -> np.random.Generator:
    """Turn a seed, a ``SeedSequence``, a ``Generator`` or ``None`` into a Generator.

    Parameters
    ----------
    seed : int, numpy.random.SeedSequence, numpy.random.Generator or None
        An int or ``SeedSequence`` gives a new PCG64 generator (reproducible);
        an existing ``Generator`` is returned unchanged, so a caller can thread
        one stream through several functions; ``None`` draws fresh entropy
        from the operating system (not reproducible: the book never does this).

    Returns
    -------
    numpy.random.Generator

    Raises
    ------
    ValueError
        If ``seed`` is a negative int or of another type.
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None or isinstance(seed, np.random.SeedSequence):
        return np.random.default_rng(seed)
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        if seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed}.")
        return np.random.default_rng(int(seed))
    raise ValueError(
        "seed must be an int >= 0, a numpy SeedSequence, a numpy Generator or None, "
        f"got {type(seed).__name__}."
    )


def spawn_rngs(seed, count: int) -> list[np.random.Generator]:
    """Make ``count`` independent generators from one seed.

    Independent streams (``SeedSequence.spawn``) let several players or
    policies draw their own random numbers without one's draws shifting
    another's, so adding a policy to an experiment leaves the others unchanged.
    Used by the bandits chapter and the arena.

    ``count`` is a whole number from 0 to :data:`MAX_STREAMS`.
    """
    count = check_int("count", count, 0, MAX_STREAMS)
    if isinstance(seed, np.random.Generator):
        return list(seed.spawn(count))
    if not isinstance(seed, np.random.SeedSequence):
        make_rng(seed)  # same validation and messages as make_rng
        seed = np.random.SeedSequence(seed)
    return [np.random.default_rng(child) for child in seed.spawn(count)]


class GeneratorSource:
    """A numpy Generator seen through ``below(count)``, the one draw searches make.

    Playouts and UCT only ever ask for "a whole number in 0..count-1". Both
    this adapter and :class:`~mctslib.xorshift.XorShift64` answer that, so the
    same search code runs on numpy's generator (the book's default) or on the
    xorshift64 stream of the published harness (UCT chapter).
    """

    __slots__ = ("generator",)

    def __init__(self, seed=None):
        self.generator = make_rng(seed)

    def below(self, count: int) -> int:
        """A uniformly random whole number in ``0 .. count-1`` (``count`` from 1 to 2**63 - 1)."""
        if type(count) is not int or not 0 < count <= _MAX_BELOW:  # cheap: playouts call it often
            count = check_int("count", count, 1, _MAX_BELOW)
        return int(self.generator.integers(count))


def move_source(seed):
    """Anything with ``below(count)``: an XorShift64 or GeneratorSource as is, else via numpy."""
    if isinstance(seed, (XorShift64, GeneratorSource)):
        return seed
    return GeneratorSource(seed)
