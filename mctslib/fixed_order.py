"""Sums and products whose result does not depend on the machine.

Every number the book prints, stores under ``data/`` or compares for
equality must come out bit for bit the same on every machine that builds it.
numpy's ``@``, ``dot``, ``matmul`` and ``convolve`` hand their sums to BLAS,
and BLAS picks a kernel for the processor it finds (or the one named by
``OPENBLAS_CORETYPE``): kernels add the same products in different orders,
with or without fused multiply-adds, so the last bits of a result move from
machine to machine (about 1e-15 relative on the simultaneous-moves chapter's
distances, enough to make a stored run compare unequal). numpy's own
reductions (``sum``, ``mean`` along an axis) keep an order that numpy, not
this library, decides.

So every sum that feeds a stored number is computed here, in a way the
library owns. Dot products, means and variances go through :func:`math.fsum`:
each product is one IEEE multiplication (the same everywhere), and ``fsum``
returns the exact sum of those products rounded once, which does not depend
on the order of the terms at all. :func:`convolve`, whose outputs are too
many for ``fsum`` one by one, adds its terms in one written-out order
(elementwise numpy operations, each rounded as IEEE says, and no fused
multiply-add between them). The tests check each function bit for bit
against exact rational arithmetic (:mod:`fractions`) or a plain Python loop
in the same order.

The tables these functions see are small (payoff tables of a few rows, the
Goofspiel stage games), so a Python loop costs less than numpy's call
overhead would. Used by the simultaneous-moves chapter (distances from
equilibrium), chapter 1 (the chance that flat Monte Carlo picks a move) and
the experiments' summaries.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

__all__ = [
    "convolve",
    "dot",
    "geometric_points",
    "matrix_times_vector",
    "mean",
    "sample_variance",
    "vector_matrix_vector",
    "vector_times_matrix",
]


def dot(left: Sequence[float], right: Sequence[float]) -> float:
    """``sum_i left[i] * right[i]``, correctly rounded: the same on every machine.

    Raises
    ------
    ValueError
        If the two sequences differ in length.
    """
    if len(left) != len(right):
        raise ValueError(f"dot needs two sequences of the same length, got {len(left)} and "
                         f"{len(right)}.")
    return math.fsum(float(a) * float(b) for a, b in zip(left, right))


def matrix_times_vector(table, vector: Sequence[float]) -> np.ndarray:
    """``table @ vector`` (one :func:`dot` per row), without BLAS."""
    return np.array([dot(row, vector) for row in np.asarray(table, dtype=float)])


def vector_times_matrix(vector: Sequence[float], table) -> np.ndarray:
    """``vector @ table`` (one :func:`dot` per column), without BLAS."""
    return np.array([dot(vector, column) for column in np.asarray(table, dtype=float).T])


def vector_matrix_vector(left: Sequence[float], table, right: Sequence[float]) -> float:
    """``left @ table @ right``: ``table @ right`` first, then its dot with ``left``."""
    return dot(left, matrix_times_vector(table, right))


def mean(values: Iterable[float]) -> float:
    """The average, from the correctly rounded sum (``nan`` for no values)."""
    values = [float(value) for value in values]
    return math.fsum(values) / len(values) if values else math.nan


def sample_variance(values: Iterable[float]) -> float:
    """The variance with ``n - 1`` in the denominator (``nan`` for fewer than two values)."""
    values = [float(value) for value in values]
    if len(values) < 2:
        return math.nan
    centre = mean(values)
    return math.fsum((value - centre) * (value - centre) for value in values) / (len(values) - 1)


def convolve(first, second) -> np.ndarray:
    """The full discrete convolution of two 1-d arrays, in an order this library fixes.

    Entry ``k`` is ``sum_j first[j] * second[k - j]``, added for ``j = 0, 1,
    ...`` in turn (the shorter array plays ``first``): the same bits on every
    machine, unlike :func:`numpy.convolve`, which sums through BLAS.
    """
    first, second = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    if first.ndim != 1 or second.ndim != 1 or first.size == 0 or second.size == 0:
        raise ValueError(f"convolve needs two non-empty 1-d arrays, got shapes {first.shape} "
                         f"and {second.shape}.")
    if first.size > second.size:
        first, second = second, first
    total = np.zeros(first.size + second.size - 1)
    for shift, weight in enumerate(first):
        total[shift:shift + second.size] += weight * second  # one rounded product, one rounded add
    return total


def geometric_points(first: float, last: float, count: int) -> np.ndarray:
    """``count`` numbers from ``first`` to ``last`` (both > 0), equally spaced on a log scale.

    The same points as :func:`numpy.geomspace`, but each computed with Python's
    ``math`` (the C library, one value at a time) rather than numpy's array
    ``power``, which takes a vectorised code path on processors with AVX-512
    and may round differently there. Callers round the points to whole
    numbers of rounds or pulls, so the checkpoints are the same everywhere.
    """
    if count == 1:
        return np.array([float(first)])
    low, high = math.log10(first), math.log10(last)
    step = (high - low) / (count - 1)
    points = [10.0 ** (low + k * step) for k in range(count)]
    points[0], points[-1] = float(first), float(last)
    return np.array(points)
