"""Every function that feeds a stored or printed number is machine-independent.

BLAS kernels (chosen per processor, or by OPENBLAS_CORETYPE) add products in
different orders, so ``@`` and ``numpy.convolve`` give results whose last bits
depend on the machine. The library sums through :mod:`mctslib.fixed_order`
instead. These tests prove it without touching BLAS's settings: each result
must equal, bit for bit, a plain-Python reference that fixes every rounding
(exact fractions rounded once, or a loop in a written-out order). A BLAS
product in any of these functions fails them: on these inputs its sums round
differently in some cases.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from mctslib import fixed_order
from mctslib.games.goofspiel import Goofspiel
from mctslib.games.matrix_games import MatrixGame, weighted_rock_paper_scissors
from mctslib.search.backward_induction import (
    TableProfile,
    all_states,
    best_response,
    equilibrium_with_exploration,
    profile_exploitability,
    profile_value,
    solve_game,
)
from mctslib.search.flat import choice_probabilities
from mctslib.search.zero_sum import exploitability, exploration_floor, solve_zero_sum


def exact_dot(left, right) -> float:
    """The reference: each product rounded as IEEE does, their exact sum rounded once."""
    return float(sum(Fraction(float(a) * float(b)) for a, b in zip(left, right)))


def random_mixes(rng, size, count):
    """``count`` mixes of ``size`` moves with awkward, non-dyadic probabilities."""
    mixes = []
    for _ in range(count):
        weights = rng.random(size) ** 3
        mixes.append(weights / math.fsum(weights))
    return mixes


# --------------------------------------------------------------------------- the helpers


def test_dot_is_the_exact_sum_rounded_once():
    rng = np.random.default_rng(1)
    for size in (1, 2, 3, 7, 50, 1000):
        for _ in range(20):
            left, right = rng.normal(size=size) * 1e3, rng.normal(size=size)
            assert fixed_order.dot(left, right) == exact_dot(left, right)


def test_the_dot_does_not_depend_on_the_order_of_terms():
    rng = np.random.default_rng(2)
    left, right = rng.normal(size=200), rng.normal(size=200)
    order = rng.permutation(200)
    assert fixed_order.dot(left, right) == fixed_order.dot(left[order], right[order])


def test_products_with_a_table_match_the_exact_reference():
    rng = np.random.default_rng(3)
    table = rng.normal(size=(5, 7))
    x, y = rng.random(5), rng.random(7)
    assert fixed_order.matrix_times_vector(table, y).tolist() == [
        exact_dot(row, y) for row in table]
    assert fixed_order.vector_times_matrix(x, table).tolist() == [
        exact_dot(x, column) for column in table.T]
    assert fixed_order.vector_matrix_vector(x, table, y) == exact_dot(
        x, [exact_dot(row, y) for row in table])


def test_mean_and_variance_match_exact_fractions():
    rng = np.random.default_rng(4)
    values = (rng.random(1001) * 100).tolist()
    total = float(sum(Fraction(v) for v in values))
    assert fixed_order.mean(values) == total / len(values)
    centre = total / len(values)
    squares = float(sum(Fraction((v - centre) * (v - centre)) for v in values))
    assert fixed_order.sample_variance(values) == squares / (len(values) - 1)
    assert math.isnan(fixed_order.mean([]))
    assert math.isnan(fixed_order.sample_variance([1.0]))


def test_convolve_adds_in_the_written_order():
    rng = np.random.default_rng(5)
    for sizes in ((1, 1), (3, 8), (8, 3), (40, 40), (200, 17)):
        first, second = rng.random(sizes[0]), rng.random(sizes[1])
        short, long_ = (first, second) if first.size <= second.size else (second, first)
        expected = [0.0] * (first.size + second.size - 1)
        for shift, weight in enumerate(short.tolist()):  # plain Python floats, one at a time
            for k, value in enumerate(long_.tolist()):
                expected[shift + k] = expected[shift + k] + weight * value
        assert fixed_order.convolve(first, second).tolist() == expected


def test_helpers_refuse_mismatched_input():
    with pytest.raises(ValueError, match="same length"):
        fixed_order.dot([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="non-empty 1-d"):
        fixed_order.convolve([], [1.0])


def test_geometric_points_round_to_numpys_checkpoints():
    for first, last, count in ((1, 10_000, 250), (1000, 10_000_000, 41), (100, 300_000, 36)):
        points = fixed_order.geometric_points(first, last, count)
        assert points[0] == first and points[-1] == last
        assert np.array_equal(np.round(points), np.round(np.geomspace(first, last, count)))


# --------------------------------------------------------------------------- matrix games


def reference_exploitability(payoffs, x, y) -> float:
    rows = [exact_dot(row, y) for row in payoffs]
    columns = [exact_dot(x, [row[j] for row in payoffs]) for j in range(len(payoffs[0]))]
    return max(rows) - min(columns)


@pytest.mark.parametrize("game", [
    weighted_rock_paper_scissors(),
    MatrixGame(np.random.default_rng(6).normal(size=(4, 6)) * 7.3, name="random 4x6"),
])
def test_exploitability_and_payoff_match_the_reference(game):
    rng = np.random.default_rng(7)
    payoffs = game.payoffs.tolist()
    rows, columns = game.shape
    for x, y in zip(random_mixes(rng, rows, 300), random_mixes(rng, columns, 300)):
        assert exploitability(game, x, y) == reference_exploitability(payoffs, x, y)
        assert game.expected_payoff(x, y) == exact_dot(x, [exact_dot(row, y) for row in payoffs])


def test_exploration_floor_and_equilibrium_of_weighted_rps():
    game = weighted_rock_paper_scissors()
    equilibrium = solve_zero_sum(game)
    mixes = [(1 - 0.1) * equilibrium.row_strategy + 0.1 / 3,
             (1 - 0.1) * equilibrium.column_strategy + 0.1 / 3]
    assert exploration_floor(game, 0.1, equilibrium) == reference_exploitability(
        game.payoffs.tolist(), *mixes)
    assert equilibrium.row_strategy.tolist() == pytest.approx([1 / 2, 1 / 6, 1 / 3], abs=1e-9)


# --------------------------------------------------------------------------- Goofspiel


def random_profile(root, seed):
    rng = np.random.default_rng(seed)
    table = {}
    for state in all_states(root):
        if not state.is_terminal():
            table[state] = tuple(random_mixes(rng, len(state.legal_actions(p)), 1)[0]
                                 for p in (0, 1))
    return TableProfile(table)


def reference_best_response_value(root, profile, player) -> float:
    """Best-response value by plain recursion, every expectation an exact sum rounded once."""
    sign = 1.0 if player == 0 else -1.0
    memo = {}

    def value(state):
        if state in memo:
            return memo[state]
        if state.is_terminal():
            result = sign * state.payoff()
        else:
            mine, theirs = state.legal_actions(player), state.legal_actions(1 - player)
            mix = [float(p) for p in profile(state, 1 - player)]
            candidates = []
            for action in mine:
                children = [state.play((action, other) if player == 0 else (other, action))
                            for other in theirs]
                candidates.append(exact_dot(mix, [value(child) for child in children]))
            result = max(candidates)
        memo[state] = result
        return result

    return value(root)


def reference_profile_value(root, profile) -> float:
    memo = {}

    def value(state):
        if state not in memo:
            if state.is_terminal():
                memo[state] = state.payoff()
            else:
                table = [[value(state.play((a0, a1))) for a1 in state.legal_actions(1)]
                         for a0 in state.legal_actions(0)]
                x = [float(p) for p in profile(state, 0)]
                y = [float(p) for p in profile(state, 1)]
                memo[state] = exact_dot(x, [exact_dot(row, y) for row in table])
        return memo[state]

    return value(root)


@pytest.fixture(scope="module")
def goofspiel4():
    return Goofspiel(4)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_goofspiel_distances_match_the_reference(goofspiel4, seed):
    profile = random_profile(goofspiel4, seed)
    responses = [reference_best_response_value(goofspiel4, profile, p) for p in (0, 1)]
    for player in (0, 1):
        assert best_response(goofspiel4, profile, player).value == responses[player]
    assert profile_exploitability(goofspiel4, profile) == responses[0] + responses[1]
    assert profile_value(goofspiel4, profile) == reference_profile_value(goofspiel4, profile)


def test_goofspiel_exploration_floor_matches_the_reference(goofspiel4):
    profile = equilibrium_with_exploration(solve_game(goofspiel4), 0.1)
    expected = sum(reference_best_response_value(goofspiel4, profile, p) for p in (0, 1))
    assert profile_exploitability(goofspiel4, profile) == expected


# --------------------------------------------------------------------------- flat Monte Carlo


def reference_choice_probabilities(outcomes, playouts):
    """Chapter 1's chances by plain loops: the same convolutions, then exact sums."""
    def distribution(outcome):
        win, draw, loss = outcome
        total, power, n = [1.0], [loss, draw, win], playouts
        while n:
            if n & 1:
                total = loop_convolve(total, power)
            n >>= 1
            if n:
                power = loop_convolve(power, power)
        return total

    def loop_convolve(first, second):
        if len(first) > len(second):
            first, second = second, first
        out = [0.0] * (len(first) + len(second) - 1)
        for shift, weight in enumerate(first):
            for k, value in enumerate(second):
                out[shift + k] = out[shift + k] + weight * value
        return out

    pmfs = [distribution(o) for o in outcomes]
    at_most = []
    for pmf in pmfs:
        running, cdf = 0.0, []
        for p in pmf:
            running += p
            cdf.append(running)
        at_most.append(cdf)
    below = [[0.0, *cdf[:-1]] for cdf in at_most]
    chances = []
    for i, pmf in enumerate(pmfs):
        others = [1.0] * len(pmf)
        for j in range(len(outcomes)):
            if j != i:
                factor = below[j] if j < i else at_most[j]
                others = [a * b for a, b in zip(others, factor)]
        chances.append(exact_dot(pmf, others))
    return chances


def test_choice_probabilities_match_the_reference():
    outcomes = [(0.3, 0.2, 0.5), (0.611, 0.1, 0.289), (0.1 / 3, 0.7, 0.3 - 0.1 / 3)]
    for playouts in (1, 7, 60):
        assert choice_probabilities(outcomes, playouts).tolist() == \
            reference_choice_probabilities(outcomes, playouts)


def test_smitsimax_mixes_from_a_plan_divide_by_the_exact_total():
    from mctslib.search.smitsimax import _mixes_from_plan

    rng = np.random.default_rng(8)
    plan, moves = {}, {}
    for index in range(200):
        sequence = (index,)
        available = list(range(int(rng.integers(2, 9))))
        moves[sequence] = available
        for action in available:
            plan[(*sequence, action)] = float(rng.random() ** 3)
    for sequence, mix in _mixes_from_plan(plan, moves).items():
        weights = [plan[(*sequence, action)] for action in moves[sequence]]
        total = float(sum(Fraction(w) for w in weights))
        assert mix.tolist() == [w / total for w in weights]
