"""Matrix games: exact equilibria against hand-derived values, distance, the sequential view, input checks."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mctslib.games.matrix_games import (
    MatrixGame,
    check_strategy,
    rock_paper_scissors,
    uniform_strategy,
    weighted_rock_paper_scissors,
)
from mctslib.rng import make_rng
from mctslib.search.zero_sum import (
    exploit_sequential_tree,
    exploitability,
    exploration_floor,
    sequential_tree_view,
    solve_zero_sum,
)

ROCK, PAPER, SCISSORS = 0, 1, 2

# Weighted rock-paper-scissors, derived by hand.
# Payoffs to the row player (a win pays 1 with rock, 2 with paper, 3 with scissors):
#               rock  paper  scissors
#     rock        0     -2       1
#     paper       2      0      -3
#     scissors   -1      3       0
# The table is skew-symmetric (A^T = -A): the game is symmetric, so its value is 0 and
# both players have the same equilibrium mixes. At a fully mixed equilibrium the
# column mix (r, p, s) must make every row move earn the value 0:
#     rock:      -2p + s  = 0   ->  s = 2p
#     paper:     2r  - 3s = 0   ->  r = 3s/2 = 3p
#     scissors:  -r  + 3p = 0   ->  r = 3p   (the same equation: consistent)
# and r + p + s = 3p + p + 2p = 6p = 1, so p = 1/6, r = 1/2, s = 1/3.
# Rock, the move whose win pays least, is played most.
WEIGHTED_EQUILIBRIUM = np.array([1 / 2, 1 / 6, 1 / 3])

# Exploration floor, by hand: with q = 0.9 * equilibrium + 0.1 * uniform for both players,
# A q = 0.9 * A eq + 0.1 * A u = 0 + 0.1 * (-1/3, -1/3, 2/3) (the row sums of A over 3), so
# the row player's best reply gains 0.1 * 2/3 = 1/15; by symmetry the column player's too:
# 2/15 in all.
WEIGHTED_FLOOR = 2 / 15

# A 2x3 game with a non-zero value, by hand. The third column is worse for the column
# player than the second against any row mix (5 > -1 and 6 > 1), so it gets probability 0.
# Row mix (p, 1 - p) equalising the first two columns: 3p - 2(1 - p) = -p + (1 - p)
# -> 5p - 2 = 1 - 2p -> p = 3/7, value 3 * 3/7 - 2 * 4/7 = 1/7. Column mix (q, 1 - q, 0)
# equalising the rows: 3q - (1 - q) = -2q + (1 - q) -> 4q - 1 = 1 - 3q -> q = 2/7.
SKEWED = [[3, -1, 5], [-2, 1, 6]]


def test_classic_rock_paper_scissors_is_uniform_with_value_zero():
    solution = solve_zero_sum(rock_paper_scissors())
    np.testing.assert_allclose(solution.row_strategy, [1 / 3] * 3, atol=1e-9)
    np.testing.assert_allclose(solution.column_strategy, [1 / 3] * 3, atol=1e-9)
    assert solution.value == pytest.approx(0.0, abs=1e-9)


def test_weighted_rock_paper_scissors_table_and_hand_derived_equilibrium():
    game = weighted_rock_paper_scissors()
    assert game.payoffs.tolist() == [[0, -2, 1], [2, 0, -3], [-1, 3, 0]]
    assert game.row_moves == ("rock", "paper", "scissors")
    solution = solve_zero_sum(game)
    np.testing.assert_allclose(solution.row_strategy, WEIGHTED_EQUILIBRIUM, atol=1e-9)
    np.testing.assert_allclose(solution.column_strategy, WEIGHTED_EQUILIBRIUM, atol=1e-9)
    assert solution.value == pytest.approx(0.0, abs=1e-9)


def test_rectangular_game_with_a_nonzero_value():
    solution = solve_zero_sum(MatrixGame(SKEWED))
    np.testing.assert_allclose(solution.row_strategy, [3 / 7, 4 / 7], atol=1e-9)
    np.testing.assert_allclose(solution.column_strategy, [2 / 7, 5 / 7, 0], atol=1e-9)
    assert solution.value == pytest.approx(1 / 7, abs=1e-9)


def test_saddle_point_gives_pure_strategies():
    # Row 0 beats row 1 everywhere; the column player then prefers column 0 (1 < 2).
    solution = solve_zero_sum(MatrixGame([[1, 2], [0, -1]]))
    np.testing.assert_allclose(solution.row_strategy, [1, 0], atol=1e-9)
    np.testing.assert_allclose(solution.column_strategy, [1, 0], atol=1e-9)
    assert solution.value == pytest.approx(1.0, abs=1e-9)


def test_distance_is_zero_at_equilibrium():
    for game in (rock_paper_scissors(), weighted_rock_paper_scissors(), MatrixGame(SKEWED)):
        solution = solve_zero_sum(game)
        distance = exploitability(game, solution.row_strategy, solution.column_strategy)
        assert distance == pytest.approx(0.0, abs=1e-9)


def test_distance_of_hand_worked_pairs():
    game = weighted_rock_paper_scissors()
    uniform = uniform_strategy(3)
    # Against uniform, rows earn (-1/3, -1/3, 2/3) and columns concede (1/3, 1/3, -2/3).
    assert exploitability(game, uniform, uniform) == pytest.approx(4 / 3)
    # Both always rock: paper would earn 2 against it, and paper would cost rock 2.
    assert exploitability(game, [1, 0, 0], [1, 0, 0]) == pytest.approx(4.0)


def test_distance_is_positive_away_from_equilibrium():
    game = weighted_rock_paper_scissors()
    rng = make_rng(11)
    for _ in range(50):
        row, column = rng.dirichlet(np.ones(3)), rng.dirichlet(np.ones(3))
        assert exploitability(game, row, column) > 0.0


def test_exploration_floor_matches_the_hand_derivation():
    assert exploration_floor(weighted_rock_paper_scissors(), 0.1) == pytest.approx(WEIGHTED_FLOOR)
    # Uniform exploration costs nothing when the equilibrium is uniform.
    assert exploration_floor(rock_paper_scissors(), 0.1) == pytest.approx(0.0, abs=1e-9)
    assert exploration_floor(weighted_rock_paper_scissors(), 0.0) == pytest.approx(0.0, abs=1e-9)


def test_sequential_tree_plays_scissors_and_rock_counters_it_every_round():
    game = weighted_rock_paper_scissors()
    view = sequential_tree_view(game)
    # Worst cases by hand: rock meets paper (-2), paper meets scissors (-3),
    # scissors meets rock (-1): scissors has the best worst case.
    np.testing.assert_array_equal(view.move_values, [-2, -3, -1])
    assert (view.row_move, view.counter_move, view.value) == (SCISSORS, ROCK, -1.0)
    match = exploit_sequential_tree(game, rounds=12)
    assert (match.row_move, match.counter_move) == (SCISSORS, ROCK)
    np.testing.assert_array_equal(match.row_payoffs, [-1.0] * 12)
    assert match.rounds_won_by_counter == 12


def test_sequential_tree_breaks_ties_towards_the_first_move():
    view = sequential_tree_view(rock_paper_scissors())  # every move's worst case is -1
    assert (view.row_move, view.counter_move) == (ROCK, PAPER)


def test_expected_payoff_and_format():
    game = MatrixGame(SKEWED, row_moves=["up", "down"], column_moves=["a", "b", "c"], name="skewed")
    assert game.expected_payoff([1, 0], [0, 0, 1]) == 5.0
    assert game.expected_payoff([3 / 7, 4 / 7], [0.5, 0.5, 0]) == pytest.approx(1 / 7)
    text = game.format()
    assert text.splitlines()[0] == "skewed (payoffs to the row player)"
    assert "down" in text and text.splitlines()[-1].split()[1:] == ["-2", "1", "6"]
    assert game.shape == (2, 3) and game.payoff_range == (-2.0, 6.0)


def test_payoffs_are_read_only():
    game = rock_paper_scissors()
    with pytest.raises(ValueError):
        game.payoffs[0, 0] = 5.0


@pytest.mark.parametrize(
    ("payoffs", "words"),
    [
        ([], "at least one row"),
        ([[1, 2], [3]], "rectangular"),
        ([[1, 2], []], "row 1 is empty"),
        ([[1, math.nan]], "payoffs[0][1] must be a finite number"),
        ([[1.0], [math.inf]], "payoffs[1][0] must be a finite number"),
        ([[1, "x"]], "payoffs[0][1] must be a number"),
        ([[True, 0]], "payoffs[0][0] must be a number"),
        ([1, 2, 3], "row 0 must be a sequence"),
        ("abc", "must be a table"),
        (5, "must be a table"),
    ],
)
def test_bad_tables_raise_a_sentence(payoffs, words):
    with pytest.raises(ValueError, match="payoffs") as error:
        MatrixGame(payoffs)
    assert words in str(error.value)


def test_move_names_must_match_the_table():
    with pytest.raises(ValueError, match="column_moves must name each of the 3 moves"):
        MatrixGame(SKEWED, column_moves=["a", "b"])


@pytest.mark.parametrize(
    ("mix", "words"),
    [
        ([0.5, 0.5], "one probability per move (3)"),
        ([0.5, 0.7, -0.2], "finite probabilities >= 0"),
        ([0.5, math.nan, 0.5], "finite probabilities >= 0"),
        ([0.5, 0.5, 0.5], "must sum to 1"),
        ("abc", "sequence of 3 probabilities"),
    ],
)
def test_bad_mixes_raise_a_sentence(mix, words):
    game = weighted_rock_paper_scissors()
    with pytest.raises(ValueError, match="row_strategy") as error:
        exploitability(game, mix, [1 / 3] * 3)
    assert words in str(error.value)


def test_check_strategy_accepts_rounding_error_and_rejects_a_non_game():
    mix = check_strategy("mix", [0.1, 0.2, 0.7 + 1e-9], 3)
    assert mix.dtype == float
    with pytest.raises(ValueError, match="game must be a MatrixGame"):
        solve_zero_sum([[0, 1], [1, 0]])
    with pytest.raises(ValueError, match="exploration must be a number in"):
        exploration_floor(rock_paper_scissors(), 1.5)
