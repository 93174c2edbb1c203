"""Random number generators: the one place where randomness is created.

Every function in ``mctslib`` that makes a random choice takes a ``seed``
argument and passes it through :func:`make_rng`; nothing uses numpy's or
Python's global random state, so the same seed gives the same result on every
machine. Used by every chapter.
"""

from __future__ import annotations

import numpy as np


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
    """
    if isinstance(seed, np.random.Generator):
        return list(seed.spawn(count))
    if not isinstance(seed, np.random.SeedSequence):
        make_rng(seed)  # same validation and messages as make_rng
        seed = np.random.SeedSequence(seed)
    return [np.random.default_rng(child) for child in seed.spawn(count)]
