"""Progressive widening on a tree of continuous bandits (chapter "Enhancements")."""

import math

import numpy as np
import pytest

from mctslib.games import ContinuousBanditTree
from mctslib.games.continuous import OPTIMUM
from mctslib.search.widening import ProgressiveWideningSearch, widening_limit

PROBLEM = ContinuousBanditTree()


# --- the problem --------------------------------------------------------------------------

def test_the_optimum_is_reached_by_hitting_every_peak():
    for depth in (1, 2, 3):
        problem = ContinuousBanditTree(depth=depth)
        line = problem.optimal_actions()
        assert len(line) == depth
        assert problem.mean_reward(line) == OPTIMUM == problem.best_value(())
        # A step off any peak costs something: the optimum is a narrow target.
        nudged = line[:-1] + ((line[-1] + 0.01) % 1.0,)
        assert problem.mean_reward(nudged) < OPTIMUM - 0.01 / depth


def test_a_coarse_grid_misses_the_peak_and_its_best_point_is_the_decoy():
    grid = PROBLEM.grid_actions(5)
    assert grid == (0.1, 0.3, 0.5, 0.7, 0.9)
    best_first = max(PROBLEM.best_value((x,)) for x in grid)
    # The decoy pays 0.6 at most, and the grid's point nearest the peak (0.7) pays almost nothing.
    assert 0.78 < best_first < 0.8, "m = 5: the best grid point is the decoy (payoff about 0.59)"
    assert PROBLEM.grid_optimum(5) <= best_first
    assert PROBLEM.grid_optimum(100) > PROBLEM.grid_optimum(5)


def test_first_peak_moves_the_whole_problem_and_keeps_the_optimum():
    moved = ContinuousBanditTree(first_peak=0.25)
    line = moved.optimal_actions()
    assert line[0] == 0.25 and moved.mean_reward(line) == OPTIMUM
    # The same line scores less on the default problem, whose first peak is at 0.618...
    assert PROBLEM.mean_reward(line) < 0.8
    # Every payoff depends only on the distance to the peak: moving the peak and the
    # actions by the same amount changes nothing.
    shift = 0.25 - PROBLEM.first_peak
    for x, y in [(0.1, 0.9), (0.62, 0.03), (0.5, 0.5)]:
        assert math.isclose(moved.mean_reward(((x + shift) % 1.0, (y + shift) % 1.0)),
                            PROBLEM.mean_reward((x, y)), abs_tol=1e-9)
    assert "first_peak=0.25" in repr(moved) and "first_peak" not in repr(PROBLEM)


def test_the_noise_comes_from_the_callers_generator_and_is_centred():
    line = (0.2, 0.7)
    quiet = ContinuousBanditTree(noise=0.0)
    assert quiet.sample_reward(line, np.random.default_rng(1)) == quiet.mean_reward(line)
    draws = [PROBLEM.sample_reward(line, np.random.default_rng(seed)) for seed in range(2000)]
    assert abs(math.fsum(draws) / len(draws) - PROBLEM.mean_reward(line)) < 0.01
    assert len(set(draws)) == len(draws)


# --- the widening rule --------------------------------------------------------------------

@pytest.mark.parametrize("k, alpha", [(1.0, 0.5), (2.0, 0.25), (0.5, 0.9), (3.0, 0.7), (1.0, 1.0)])
def test_the_root_widens_exactly_as_the_formula_says_at_every_visit(k, alpha):
    result = ProgressiveWideningSearch(k, alpha, iterations=600, seed=3).run(PROBLEM)
    expected, children = [], 0
    for visit in range(1, 601):
        children = min(children + 1, widening_limit(visit, k, alpha))  # one new child per visit
        expected.append(children)
        assert widening_limit(visit, k, alpha) == math.ceil(k * visit ** alpha)
    assert list(result.root_children) == expected
    if k * alpha <= 1:  # the limit grows by at most one per visit: a closed form
        assert expected == [min(n, math.ceil(k * n ** alpha)) for n in range(1, 601)]
    assert len(result.actions) == expected[-1]
    assert all(0.0 <= action < 1.0 for action in result.actions)


def test_alpha_zero_keeps_ceil_k_children():
    result = ProgressiveWideningSearch(3.5, 0.0, iterations=300, seed=0).run(PROBLEM)
    assert result.root_children[:4] == (1, 2, 3, 4)
    assert set(result.root_children[3:]) == {4}, "alpha = 0: never more than ceil(3.5) = 4 children"


def test_a_fixed_grid_adds_its_points_in_order_then_stops():
    result = ProgressiveWideningSearch(iterations=200, seed=0, discretisation=10).run(PROBLEM)
    assert list(result.root_children) == [min(n, 10) for n in range(1, 201)]
    assert result.actions == PROBLEM.grid_actions(10)
    assert sum(result.visits) == 200


def test_the_same_seed_gives_the_same_search_and_a_rerun_changes_nothing():
    search = ProgressiveWideningSearch(iterations=2000, seed=11)
    first = search.run(PROBLEM)
    assert search.run(PROBLEM) == first
    assert ProgressiveWideningSearch(iterations=2000, seed=11).run(PROBLEM) == first
    assert ProgressiveWideningSearch(iterations=2000, seed=12).run(PROBLEM).actions != first.actions
    assert first.recommended_line[0] == first.recommended_action
    assert first.visits[first.actions.index(first.recommended_action)] == max(first.visits)


def test_a_search_from_a_later_state_scores_against_what_is_still_reachable():
    problem = ContinuousBanditTree(depth=3)
    result = ProgressiveWideningSearch(iterations=500, seed=2).run(problem, (0.1,))
    assert result.optimum == problem.best_value((0.1,)) < OPTIMUM
    assert result.true_value <= result.optimum


# --- widening against a fixed grid --------------------------------------------------------

def test_widening_approaches_the_optimum_where_a_coarse_grid_cannot():
    seeds = range(5)
    wide = [ProgressiveWideningSearch(iterations=20_000, seed=s).run(PROBLEM) for s in seeds]
    for result in wide:
        assert result.regret < 0.05, f"widening, 20,000 iterations: true value {result.true_value}"
    small = [ProgressiveWideningSearch(iterations=1000, seed=s).run(PROBLEM) for s in seeds]
    assert math.fsum(r.regret for r in wide) < math.fsum(r.regret for r in small), \
        "more iterations should bring the recommendation closer to the optimum on average"
    best_grid_point = max(PROBLEM.best_value((x,)) for x in PROBLEM.grid_actions(5))
    assert OPTIMUM - best_grid_point > 0.2, "m = 5 should miss the peak by a wide margin"
    coarse = ProgressiveWideningSearch(iterations=20_000, seed=0, discretisation=5).run(PROBLEM)
    assert coarse.true_value <= best_grid_point
    assert min(r.true_value for r in wide) > best_grid_point + 0.15


# --- bad input ----------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, words", [
    ({"k": 0}, r"k \(the widening scale\) must be a number above 0 and at most 1,000,000"),
    ({"k": -1.0}, r"k \(the widening scale\) must be a number above 0 and at most 1,000,000"),
    ({"k": "2"}, r"k \(the widening scale\) must be a number above 0 .* got '2'"),
    ({"alpha": 1.5}, r"alpha \(the widening exponent\) must be a number in \[0, 1\]"),
    ({"alpha": math.nan}, r"alpha \(the widening exponent\) must be a number in \[0, 1\]"),
    ({"c": -0.1}, r"c \(the exploration constant\) must be a number in \[0, inf\)"),
    ({"iterations": 0}, r"iterations must be a whole number >= 1"),
    ({"iterations": 2.5}, r"iterations must be a whole number >= 1"),
    ({"iterations": 10**8}, r"iterations must be at most 10,000,000"),
    ({"discretisation": 0}, r"discretisation must be a whole number from 1 to 100,000"),
    ({"discretisation": 2.0}, r"discretisation must be a whole number from 1 to 100,000"),
    ({"seed": -1}, r"seed must be a non-negative integer"),
    ({"seed": np.random.default_rng(0)}, r"seed must be an int >= 0, a numpy SeedSequence or None"),
])
def test_bad_search_parameters_are_named_with_their_range(kwargs, words):
    with pytest.raises(ValueError, match=words):
        ProgressiveWideningSearch(**kwargs)


@pytest.mark.parametrize("call, words", [
    (lambda: ContinuousBanditTree(depth=0), r"depth must be a whole number from 1 to 4"),
    (lambda: ContinuousBanditTree(peak_width=0), r"peak_width must be a number in \[0.001, 0.25\]"),
    (lambda: ContinuousBanditTree(noise=2), r"noise must be a number in \[0, 1\]"),
    (lambda: ContinuousBanditTree(first_peak=-0.1), r"first_peak must be a number in \[0, 1\]"),
    (lambda: ContinuousBanditTree(first_peak=1.0), r"first_peak must be a number in \[0, 1\)"),
    (lambda: PROBLEM.step((), 1.5), r"action must be a number in \[0, 1\]"),
    (lambda: PROBLEM.step((0.1, 0.2), 0.5), r"step needs an unfinished state"),
    (lambda: PROBLEM.mean_reward((0.1,)), r"mean_reward needs a finished state \(2 choices\)"),
    (lambda: PROBLEM.best_value([0.1]), r"state must be a tuple of at most 2 actions"),
    (lambda: PROBLEM.grid_actions(0), r"m \(the number of grid actions\) must be a whole number"),
    (lambda: widening_limit(0, 1.0, 0.5), r"visits must be a whole number from 1 to"),
    (lambda: ProgressiveWideningSearch().run("chess"), r"problem must be a ContinuousBanditTree"),
    (lambda: ProgressiveWideningSearch().run(PROBLEM, (0.1, 0.2)), r"run needs an unfinished state"),
])
def test_bad_problem_input_is_named(call, words):
    with pytest.raises(ValueError, match=words):
        call()
