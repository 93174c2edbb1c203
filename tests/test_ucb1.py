"""UCB1 scores and the selection step (mctslib.learners.ucb1), checked against chapter 3's hand trace.

Expected values were worked out by hand (ln 10 = 2.3026, ln 11 = 2.3979):
step 1, N = 10: A 0.667 + sqrt(2 ln 10 / 6) = 0.667 + 0.876 = 1.543,
B 0.333 + 1.239 = 1.572, C 0 + 2.146 = 2.146 -> C;
step 2, N = 11 (C lost again, 0 of 2): A 1.561, B 1.598, C 1.549 -> B.
"""

import math

import pytest

from mctslib.learners.ucb1 import SQRT2, ucb1_bonus, ucb1_score, ucb1_step

STEP1 = [("A", 4, 6), ("B", 1, 3), ("C", 0, 1)]
STEP2 = [("A", 4, 6), ("B", 1, 3), ("C", 0, 2)]


def rounded(step, field):
    return [round(getattr(row, field), 3) for row in step.rows]


def test_step1_matches_the_hand_trace():
    step = ucb1_step(STEP1)
    assert step.parent_visits == 10
    assert rounded(step, "mean") == [0.667, 0.333, 0.0]
    assert rounded(step, "bonus") == [0.876, 1.239, 2.146]
    assert rounded(step, "score") == [1.543, 1.572, 2.146]
    assert step.rows[step.chosen].name == "C"


def test_step2_matches_the_hand_trace():
    step = ucb1_step(STEP2)
    assert step.parent_visits == 11
    assert rounded(step, "score") == [1.561, 1.598, 1.549]
    assert step.rows[step.chosen].name == "B"


def test_default_c_is_the_papers_sqrt_2_ln_n_over_n():
    for parent_visits, visits in [(10, 6), (11, 2), (1000, 7)]:
        paper = math.sqrt(2 * math.log(parent_visits) / visits)
        assert ucb1_bonus(parent_visits, visits) == pytest.approx(paper, rel=1e-12)
        assert ucb1_bonus(parent_visits, visits, c=1.0) == pytest.approx(
            math.sqrt(math.log(parent_visits) / visits), rel=1e-12)
    assert SQRT2 == pytest.approx(1.41421356, abs=1e-8)


def test_score_is_mean_plus_bonus_and_infinite_when_unvisited():
    assert ucb1_score(1, 3, 10) == pytest.approx(1 / 3 + math.sqrt(2 * math.log(10) / 3))
    assert ucb1_score(0, 0, 10) == math.inf
    assert ucb1_bonus(10, 0) == math.inf


def test_format_prints_the_three_decimal_table_and_the_choice():
    text = ucb1_step(STEP1).format()
    assert "N = 10, ln N = 2.303, c = 1.414" in text
    assert "0.667   0.876   1.543" in text
    assert "0.000   2.146   2.146" in text
    assert text.splitlines()[-1].startswith("chosen: C")


def test_unvisited_child_is_chosen_before_any_comparison():
    step = ucb1_step([("A", 100, 100), ("B", 0, 0), ("C", 0, 0)])
    assert step.rows[step.chosen].name == "B"  # the first unvisited child, not C
    assert "never visited" in step.reason


def test_tie_goes_to_the_first_child_in_order():
    step = ucb1_step([("A", 1, 2), ("B", 1, 2)])
    assert step.rows[0].score == step.rows[1].score
    assert step.rows[step.chosen].name == "A"
    assert "tied with B" in step.reason
    reversed_step = ucb1_step([("B", 1, 2), ("A", 1, 2)])
    assert reversed_step.rows[reversed_step.chosen].name == "B"


def test_a_strictly_greater_later_score_replaces_the_best():
    step = ucb1_step([("A", 1, 2), ("B", 1.5, 2)])
    assert step.rows[step.chosen].name == "B"
    assert step.reason == "highest score"


def test_c_zero_is_greedy_on_the_mean():
    step = ucb1_step(STEP1, c=0.0)
    assert rounded(step, "bonus") == [0.0, 0.0, 0.0]
    assert step.rows[step.chosen].name == "A"


def test_fractional_wins_count_draws_as_half():
    step = ucb1_step([("A", 2.5, 4), ("B", 1, 4)])
    assert step.rows[0].mean == 0.625


@pytest.mark.parametrize(
    ("children", "c", "names"),
    [
        (STEP1, -1.0, "c (the exploration constant)"),
        (STEP1, math.nan, "c (the exploration constant)"),
        ([("A", 7, 6)], SQRT2, "wins of child A"),
        ([("A", -1, 6)], SQRT2, "wins of child A"),
        ([("A", 0, -1)], SQRT2, "visits of child A"),
        ([("A", 1, 2.5)], SQRT2, "visits of child A"),
        ([], SQRT2, "children"),
    ],
)
def test_bad_input_raises_a_value_error_naming_the_parameter(children, c, names):
    with pytest.raises(ValueError, match=r"must") as caught:
        ucb1_step(children, c)
    assert str(caught.value).startswith(names)
