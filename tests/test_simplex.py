"""The triangle of mixes: corners and centre land where geometry says, bad mixes are refused."""

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest

from mctslib.views.simplex import CORNERS, MixTrace, draw_simplex, draw_trace, simplex_xy


def test_pure_mixes_are_the_corners_and_uniform_is_the_centroid():
    assert np.allclose(simplex_xy(np.eye(3)), CORNERS)
    # The centroid of an equilateral triangle with base [0, 1] is at height sqrt(3) / 6.
    assert np.allclose(simplex_xy([1 / 3, 1 / 3, 1 / 3]), [0.5, math.sqrt(3) / 6])
    # Halfway between rock and paper: the middle of the bottom side.
    assert np.allclose(simplex_xy([0.5, 0.5, 0.0]), [0.5, 0.0])


def test_sides_have_length_one():
    for a in range(3):
        b = (a + 1) % 3
        assert math.isclose(np.linalg.norm(CORNERS[a] - CORNERS[b]), 1.0)


@pytest.mark.parametrize("bad, words", [
    ([0.5, 0.5], "shape"),
    ([[0.2, 0.2, 0.2, 0.4]], "shape"),
    ([0.5, 0.6, -0.1], ">= 0"),
    ([0.5, 0.5, 0.5], "sum to 1"),
    ([np.nan, 0.5, 0.5], ">= 0"),
])
def test_bad_mixes_raise_a_sentence(bad, words):
    with pytest.raises(ValueError, match=words):
        simplex_xy(bad)


def test_draw_simplex_needs_three_names():
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="3 corners"):
        draw_simplex(ax, ("rock", "paper"))
    plt.close(fig)


def test_draw_trace_shows_the_recorded_distances_in_a_fixed_frame():
    trace = MixTrace(("rock", "paper", "scissors"), np.array([0.5, 1 / 6, 1 / 3]),
                     total_rounds=10_000, floor=0.1)
    trace.record(100, [1 / 3, 1 / 3, 1 / 3], [0.2, 0.3, 0.5], 1.2)
    trace.record(1_000, [0.5, 0.2, 0.3], [0.45, 0.2, 0.35], 0.3)
    fig = plt.figure()
    draw_trace(fig, trace)
    simplex_ax, distance_ax = fig.axes
    curve = distance_ax.lines[0]
    assert list(curve.get_xdata()) == [100, 1_000]
    assert list(curve.get_ydata()) == [1.2, 0.3]
    assert distance_ax.get_xlim() == pytest.approx((100, 10_000))
    # The row player's dot marks its latest mix.
    (row_dot,) = [line for line in simplex_ax.lines
                  if line.get_label() == "row player's average mix"]
    assert np.allclose(np.column_stack(row_dot.get_data())[0], simplex_xy([0.5, 0.2, 0.3]))
    plt.close(fig)
