"""Gumbel MuZero, the readable search (chapter 7): schedule, completed Q, answers, bad input.

No JAX here; the equality with mctx is tests/test_gumbel_mctx.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mctslib.games.tictactoe import TicTacToe
from mctslib.search.gumbel import (
    CompletedQ,
    GumbelMuZeroSearch,
    GumbelNode,
    considered_visits,
    mixed_value,
    softmax,
)
from mctslib.search.minimax import minimax_value, move_values, reachable_states
from mctslib.search.puct import random_evaluator, uniform_evaluator

EMPTY = TicTacToe()


def strong_evaluator(state):
    """Priors leaning to the minimax-best moves (logit 4 per unit of value), exact value."""
    values = move_values(state)
    weights = {move: math.exp(4.0 * (2.0 * v - 1.0)) for move, v in values.items()}
    total = math.fsum(weights.values())
    priors = {move: w / total for move, w in weights.items()}
    return priors, 2.0 * minimax_value(state, state.player_to_move) - 1.0


# ----------------------------------------------------------------- sequential halving


def test_considered_visits_by_hand():
    # 4 moves, 8 simulations: one round of 4 (log2 4 = 2 rounds, 8 // (2 * 4) = 1 visit
    # each), then the best 2 get 8 // (2 * 2) = 2 visits each.
    assert considered_visits(4, 8) == (0, 0, 0, 0, 1, 1, 2, 2)
    # 16 moves, 32 simulations: 16, then 8 twice... cut at 32 entries.
    assert considered_visits(16, 32) == (0,) * 16 + (1,) * 8 + (2,) * 4 + (3,) * 4
    # A budget that is not a power of two ends inside a phase; 3 moves: ceil(log2 3) = 2.
    assert considered_visits(3, 5) == (0, 0, 0, 1, 1)
    # One considered move takes every simulation; fewer simulations than moves.
    assert considered_visits(1, 5) == (0, 1, 2, 3, 4)
    assert considered_visits(16, 2) == (0, 0)


def test_considered_visits_three_moves_twelve_simulations():
    # 12 // (2 * 3) = 2 rounds of 3, then 2 moves with 12 // (2 * 2) = 3 rounds each.
    assert considered_visits(3, 12) == (0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4)


@settings(max_examples=200, deadline=None)
@given(k=st.integers(1, 40), n=st.integers(1, 200), seed=st.integers(0, 2**32 - 1))
def test_an_eligible_move_always_exists(k, n, seed):
    """Whichever eligible move each simulation picks, the next one has an eligible move."""
    schedule = considered_visits(k, n)
    assert len(schedule) == n and schedule[:min(k, n)] == (0,) * min(k, n)
    rng = np.random.default_rng(seed)
    visits = [0] * k
    for wanted in schedule:
        eligible = [i for i, v in enumerate(visits) if v == wanted]
        assert eligible
        visits[int(rng.choice(eligible))] += 1
    assert sum(visits) == n


@pytest.mark.parametrize("args, name", [((0, 8), "max_considered"), ((4, 0), "simulations"),
                                        ((2.0, 8), "max_considered"),
                                        ((4, True), "simulations")])
def test_considered_visits_bad_input(args, name):
    with pytest.raises(ValueError, match=name):
        considered_visits(*args)


# ----------------------------------------------------------------- completed Q values


def _node(priors, raw_value, children):
    """A node with moves 0..k-1; children: (visits, value for the opponent) or None."""
    node = GumbelNode(range(len(priors)), [math.log(p) for p in priors], raw_value)
    for i, child in enumerate(children):
        if child is not None:
            visits, value = child
            node.children[i] = GumbelNode((), (), value)
            node.children[i].visits = visits
    return node


def test_mixed_value_by_hand():
    # Q = -child value: move 0 worth 0.5 (2 visits), move 1 worth -0.4 (1 visit).
    # weighted q = (0.5 * 0.5 + 0.3 * -0.4) / 0.8 = 0.1625; (0.2 + 3 * 0.1625) / 4 = 0.171875.
    assert mixed_value(0.2, [0.5, -0.4, 0.0], [2, 1, 0], [0.5, 0.3, 0.2]) == \
        pytest.approx(0.171875, abs=1e-15)
    assert mixed_value(0.3, [0.0, 0.0], [0, 0], [0.5, 0.5]) == 0.3  # no visit: raw value


def test_completed_q_by_hand():
    node = _node([0.5, 0.3, 0.2], 0.2, [(2, -0.5), (1, 0.4), None])
    # completed [0.5, -0.4, 0.171875] -> [1, 0, 0.571875 / 0.9] -> times (50 + 2) * 0.1.
    expected = [5.2, 0.0, 5.2 * 0.571875 / 0.9]
    assert CompletedQ()(node) == pytest.approx(expected, abs=1e-12)
    # Padding to 9 actions changes nothing here: the mixed value is inside [min, max].
    assert CompletedQ(num_actions=9)(node) == pytest.approx(expected, abs=1e-12)
    raw = CompletedQ(rescale_values=False, use_mixed_value=False)(node)
    assert raw == pytest.approx([2.6, -2.08, 5.2 * 0.2], abs=1e-12)


def test_padding_widens_the_range_when_every_legal_move_is_visited():
    # Both moves visited, Q 0.5 and 0.3; raw value -1 pulls the mixed value below both.
    node = _node([0.5, 0.5], -1.0, [(1, -0.5), (1, -0.3)])
    mixed = (-1.0 + 2 * 0.4) / 3
    legal_only = CompletedQ()(node)
    assert legal_only == pytest.approx([5.1, 0.0], abs=1e-12)
    padded = CompletedQ(num_actions=9)(node)
    assert padded == pytest.approx([5.1, 5.1 * (0.3 - mixed) / (0.5 - mixed)], abs=1e-12)
    with pytest.raises(ValueError, match="num_actions"):
        CompletedQ(num_actions=1)(node)


def test_equal_values_rescale_to_zero_not_nan():
    node = _node([0.5, 0.5], 0.0, [None, None])
    assert CompletedQ()(node) == [0.0, 0.0]


def test_softmax_sums_to_one_and_keeps_ties():
    probs = softmax([0.0, 0.0, math.log(2.0), -math.inf])
    assert probs == pytest.approx([0.25, 0.25, 0.5, 0.0])
    assert probs[0] == probs[1]


# ----------------------------------------------------------------- the search


def test_visits_policy_and_action_fit_together():
    search = GumbelMuZeroSearch(random_evaluator(3), 24, seed=11)
    result = search.search(EMPTY)
    assert set(result.visits) == set(EMPTY.legal_moves()) == set(result.policy)
    assert sum(result.visits.values()) == 24
    assert math.fsum(result.policy.values()) == pytest.approx(1.0, abs=1e-12)
    # The action is among the most visited moves.
    assert result.visits[result.action] == max(result.visits.values())
    assert result.root.visits == 25  # the root's evaluation plus 24 simulations


def test_only_the_gumbel_top_k_moves_are_visited():
    search = GumbelMuZeroSearch(random_evaluator(5), 8, max_considered_actions=2, seed=3)
    result = search.search(EMPTY)
    visited = {move for move, n in result.visits.items() if n}
    scores = {move: result.gumbel[move] + logit
              for move, logit in zip(result.root.moves, result.root.logits)}
    top_two = set(sorted(scores, key=scores.get, reverse=True)[:2])
    assert visited == top_two
    assert sorted(n for n in result.visits.values() if n) == [4, 4]


def test_a_single_legal_move_takes_every_simulation():
    state = TicTacToe.from_string("XOX/XOO/OX.")
    result = GumbelMuZeroSearch(uniform_evaluator, 5, seed=0).search(state)
    assert result.visits == {8: 5} and result.action == 8 and result.policy == {8: 1.0}


def test_seeded_searches_repeat():
    def run(seed):
        search = GumbelMuZeroSearch(random_evaluator(7), 16, seed=seed)
        return [(r.visits, r.action, r.gumbel) for r in (search.search(EMPTY),
                                                          search.search(EMPTY))]

    first, again = run(42), run(42)
    assert first == again
    # The search keeps its generator: the second search draws fresh noise.
    assert first[0][2] != first[1][2]
    assert run(43)[0][2] != first[0][2]


def test_scale_zero_ignores_the_seed():
    results = [GumbelMuZeroSearch(random_evaluator(7), 16, gumbel_scale=0.0, seed=s)
               .search(EMPTY) for s in (1, 2)]
    assert results[0].visits == results[1].visits
    assert results[0].action == results[1].action


def test_given_gumbel_as_dict_or_sequence():
    state = TicTacToe.from_string("XO./.X./...")
    moves = state.legal_moves()
    draws = [0.1 * i for i in range(len(moves))]
    search = GumbelMuZeroSearch(random_evaluator(2), 8, gumbel_scale=2.0)
    by_list = search.search(state, gumbel=draws)
    by_dict = search.search(state, gumbel=dict(zip(moves, draws)))
    assert by_list.visits == by_dict.visits
    assert by_list.gumbel == {m: 2.0 * g for m, g in zip(moves, draws)}


POSITIONS = {
    "win in one": ("XX./OO./...", {2}),
    "block": ("X../.X./O..", {8}),  # O must take 8
    "fork defence": ("X../.O./..X", {1, 3, 5, 7}),  # O must play an edge
    "take the centre": ("X../.../...", {4}),  # O's only drawing answer to a corner
}


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_finds_the_best_move(name):
    text, best = POSITIONS[name]
    state = TicTacToe.from_string(text)
    values = move_values(state)
    assert best == {m for m, v in values.items() if v == max(values.values())}
    search = GumbelMuZeroSearch(strong_evaluator, 32, seed=2026)
    for _ in range(10):  # ten noise draws, all must find it
        assert search.choose(state) in best


def test_strong_prior_finds_best_moves_across_positions():
    """Over 60 seeded positions with a real choice, 32 simulations always pick a best move."""
    positions = [s for s in reachable_states(EMPTY) if not s.is_terminal()
                 and len(set(move_values(s).values())) > 1]
    rng = np.random.default_rng(8)
    search = GumbelMuZeroSearch(strong_evaluator, 32, seed=9)
    for k in rng.choice(len(positions), 60, replace=False):
        state = positions[int(k)]
        values = move_values(state)
        assert values[search.choose(state)] == max(values.values()), state


def test_search_improves_on_a_misleading_prior():
    """The prior puts 0.9 on a losing move; the exact values move the answer away from it."""
    state = TicTacToe.from_string("XX./OO./...")  # X wins at 2

    def misleading(position):
        priors, _ = uniform_evaluator(position)
        if position == state:
            priors = {m: (0.9 if m == 8 else 0.1 / 4) for m in position.legal_moves()}
        return priors, 2.0 * minimax_value(position, position.player_to_move) - 1.0

    result = GumbelMuZeroSearch(misleading, 16, gumbel_scale=0.0).search(state)
    assert result.action == 2
    # From a prior of 0.025 to the largest share of the improved policy.
    assert result.policy[2] > 0.7 and result.policy[8] < 0.25


def test_finished_children_keep_their_exact_value():
    state = TicTacToe.from_string("XX./OO./...")
    result = GumbelMuZeroSearch(uniform_evaluator, 32, seed=1).search(state)
    win = result.root.children[result.root.moves.index(2)]
    assert win.terminal and win.value == -1.0  # -1 for O, to move in the finished game
    assert result.root.qvalues()[result.root.moves.index(2)] == 1.0


# ----------------------------------------------------------------- bad input


@pytest.mark.parametrize("kwargs, name", [
    ({"simulations": 0}, "simulations"),
    ({"simulations": 1.5}, "simulations"),
    ({"max_considered_actions": 0}, "max_considered_actions"),
    ({"gumbel_scale": -0.5}, "gumbel_scale"),
    ({"gumbel_scale": math.nan}, "gumbel_scale"),
    ({"qtransform": "mix"}, "qtransform"),
    ({"seed": -1}, "seed"),
])
def test_bad_parameters(kwargs, name):
    with pytest.raises(ValueError, match=name):
        GumbelMuZeroSearch(uniform_evaluator, **kwargs)


def test_bad_evaluator_is_named():
    with pytest.raises(ValueError, match="evaluator"):
        GumbelMuZeroSearch("uniform")


@pytest.mark.parametrize("kwargs, name", [
    ({"value_scale": -0.1}, "value_scale"),
    ({"maxvisit_init": -1.0}, "maxvisit_init"),
    ({"rescale_values": 1}, "rescale_values"),
    ({"use_mixed_value": "yes"}, "use_mixed_value"),
    ({"epsilon": 0.0}, "epsilon"),
    ({"epsilon": -1e-8}, "epsilon"),
    ({"num_actions": 0}, "num_actions"),
])
def test_bad_transform_parameters(kwargs, name):
    with pytest.raises(ValueError, match=name):
        CompletedQ(**kwargs)


@pytest.mark.parametrize("answer, words", [
    (({0: 1.0}, 0.0), "priors must give every legal move"),
    (({m: 0.2 for m in range(9)}, 0.0), "sum to 1"),
    (({m: 1 / 9 for m in range(9)}, 1.5), "value"),
    (({m: 1 / 9 for m in range(9)}, math.nan), "value"),
    ("priors and value", "pair"),
    (None, "pair"),
])
def test_bad_evaluator_output(answer, words):
    search = GumbelMuZeroSearch(lambda state: answer, 4)
    with pytest.raises(ValueError, match=words):
        search.search(EMPTY)


@pytest.mark.parametrize("gumbel, words", [
    ([0.0] * 8, "gumbel"),
    ({0: 0.0}, "gumbel"),
    ([math.inf] + [0.0] * 8, "gumbel"),
    ("123456789", "gumbel"),
])
def test_bad_gumbel(gumbel, words):
    with pytest.raises(ValueError, match=words):
        GumbelMuZeroSearch(uniform_evaluator, 4).search(EMPTY, gumbel=gumbel)


def test_bad_states():
    search = GumbelMuZeroSearch(uniform_evaluator, 4)
    with pytest.raises(ValueError, match="finished game"):
        search.search(TicTacToe.from_string("XXX/OO./..."))
    with pytest.raises(ValueError, match="state"):
        search.search("X........")


def test_completed_q_refuses_other_nodes():
    with pytest.raises(ValueError, match="node"):
        CompletedQ()(42)
