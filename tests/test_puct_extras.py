"""PUCT's first-play-urgency reduction and the temperature of self-play (chapter 7)."""

import math

import pytest

from mctslib.games import TicTacToe
from mctslib.search.puct import Node, PUCTSearch, random_evaluator, uniform_evaluator, visit_policy


def hand_node(evaluation):
    node = Node(None, 1.0, None)
    node.evaluation = evaluation
    node.visits = 1 + 20 + 10
    for move, prior, visits, mean in (("a", 0.5, 20, 0.2), ("b", 0.3, 10, -0.1),
                                      ("c", 0.2, 0, 0.0)):
        child = Node(move, prior, node)
        child.visits, child.value_sum = visits, -mean * visits
        node.children.append(child)
    return node


def test_an_untried_child_counts_as_the_position_minus_the_reduction():
    search = PUCTSearch(uniform_evaluator, fpu_reduction=0.5)
    node = hand_node(0.3)
    (q_a, _), (q_b, _), (q_c, _) = search.scores(node)
    assert math.isclose(q_a, 0.2) and math.isclose(q_b, -0.1)
    assert math.isclose(q_c, 0.3 - 0.5 * math.sqrt(0.8), rel_tol=1e-12)
    plain = PUCTSearch(uniform_evaluator, first_play_value=-0.4)
    assert plain.scores(node)[2][0] == -0.4


def test_a_zero_reduction_with_zero_values_is_the_plain_first_play_value_zero():
    state = TicTacToe.from_string("X../OOX/...")
    zero_value = lambda s: (uniform_evaluator(s)[0], 0.0)
    fpu = PUCTSearch(zero_value, iterations=300, fpu_reduction=0.0)
    plain = PUCTSearch(zero_value, iterations=300)
    fpu.search(state)
    plain.search(state)
    assert fpu.visit_counts() == plain.visit_counts()


def test_the_reduction_changes_the_search_and_is_refused_with_mctx_q():
    state = TicTacToe().play(4)
    evaluator = random_evaluator(2)
    counts = []
    for reduction in (None, 0.5):
        search = PUCTSearch(evaluator, iterations=200, fpu_reduction=reduction)
        search.search(state)
        counts.append(search.visit_counts())
    assert counts[0] != counts[1]
    with pytest.raises(ValueError, match="fpu_reduction applies to q_transform 'plain'"):
        PUCTSearch(evaluator, q_transform="parent_and_siblings", fpu_reduction=0.25)
    with pytest.raises(ValueError, match="fpu_reduction"):
        PUCTSearch(evaluator, fpu_reduction=3.0)


def test_visit_policy_follows_the_temperature():
    visits = {0: 6, 1: 3, 2: 1, 3: 0}
    assert visit_policy(visits, 1.0) == pytest.approx({0: 0.6, 1: 0.3, 2: 0.1, 3: 0.0}, abs=1e-15)
    sharp = visit_policy(visits, 0.5)
    assert math.isclose(sharp[0], 36 / 46) and math.isclose(sharp[2], 1 / 46)
    assert visit_policy(visits, 0.0) == {0: 1.0, 1: 0.0, 2: 0.0, 3: 0.0}
    assert visit_policy({0: 2, 1: 2}, 0.0) == {0: 0.5, 1: 0.5}
    assert math.isclose(math.fsum(visit_policy({m: 1000 * m + 1 for m in range(9)}, 0.01).values()), 1.0)
    flat = visit_policy(visits, 100.0)
    assert max(flat.values()) - min(v for v in flat.values() if v) < 0.03


@pytest.mark.parametrize("visits, temperature, message", [
    ({}, 1.0, "non-empty"),
    ({0: 0, 1: 0}, 1.0, "at least one move with visits"),
    ({0: 2}, -1.0, "temperature"),
    ({0: 2.5}, 1.0, "visits"),
    ([3, 4], 1.0, "dict"),
])
def test_bad_visit_policy_input_is_refused_with_a_sentence(visits, temperature, message):
    with pytest.raises(ValueError, match=message):
        visit_policy(visits, temperature)
