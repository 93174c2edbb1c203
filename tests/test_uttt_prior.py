"""The UCT bot with the network's policy as a progressive bias (chapter 7):
mctslib.fast.uttt_prior_uct and mctslib.bots.uttt_prior."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from mctslib.bots.uttt import UTTTBot
from mctslib.bots.uttt_prior import PriorUCTBot
from mctslib.fast import uttt as engine
from mctslib.fast import uttt_network as net
from mctslib.games.uttt import UltimateTicTacToe

WEIGHTS = Path(__file__).resolve().parents[1] / "data" / "network" / "uttt_mlp.npz"
SPEC = "uct:c=0.5,iters=1500,wins=on,solver=on,reuse=on"
NODE_ARRAYS = ("move", "first_child", "child_count", "visits", "wins", "proven")


def _same_tree(a, b):
    n = a.pool.count
    assert b.pool.count == n
    for name in NODE_ARRAYS:
        assert np.array_equal(getattr(a.pool, name)[:n], getattr(b.pool, name)[:n]), name


def _play_both(a, b, plies):
    """Both bots answer the same positions (a's moves are played); their answers must agree."""
    state = UltimateTicTacToe()
    for _ in range(plies):
        move = a.choose(state)
        assert b.choose(state) == move
        _same_tree(a, b)
        state = state.play(move)
    return state


def test_without_bias_it_is_the_uttt_bot_node_for_node():
    plain = UTTTBot(SPEC, seed=3)
    biased = PriorUCTBot(SPEC, WEIGHTS, bias=0.0, bias_visits=4, seed=3)
    _play_both(plain, biased, 12)  # tree reuse included: the kept subtrees agree too
    assert biased.calls[0] == 0


def test_the_same_seed_gives_the_same_games():
    one = PriorUCTBot(SPEC, WEIGHTS, bias=2.0, bias_visits=16, seed=4)
    two = PriorUCTBot(SPEC, WEIGHTS, bias=2.0, bias_visits=16, seed=4)
    _play_both(one, two, 10)
    assert one.calls[0] == two.calls[0] > 0
    n = one.pool.count
    assert np.array_equal(one.prior[:n], two.prior[:n])


def test_the_bias_changes_the_search():
    plain = UTTTBot(SPEC, seed=5)
    biased = PriorUCTBot(SPEC, WEIGHTS, bias=5.0, bias_visits=8, seed=5)
    state = UltimateTicTacToe.from_moves([40, 30])
    plain.choose(state)
    biased.choose(state)
    assert biased.calls[0] > 0
    assert not np.array_equal(plain.pool.visits[:plain.pool.count],
                              biased.pool.visits[:biased.pool.count])


def _positions(bot):
    """Engine state of every node of the bot's tree, found by playing the moves down."""
    root = engine.to_array(bot._root)
    states = {0: root}
    pool = bot.pool
    for node in range(pool.count):  # children come after their parent
        for child in pool.children(node):
            s = states[node].copy()
            engine.play(s, int(pool.move[child]))
            states[child] = s
    return states


def test_every_primed_node_holds_the_networks_policy_after_tree_reuse():
    weights = net.load_weights(WEIGHTS)
    k = 8
    bot = PriorUCTBot(SPEC, weights, bias=1.0, bias_visits=k, seed=6)
    state = UltimateTicTacToe()
    for _ in range(6):  # each move after the first starts from a kept subtree
        move = bot.choose(state)
        state = state.play(move)
        state = state.play(state.legal_moves()[0])
    bot.choose(state)
    assert bot.last.reused_nodes > 0
    pool = bot.pool
    states = _positions(bot)
    work = net.empty_work(weights)
    checked = 0
    for node in range(pool.count):
        children = list(pool.children(node))
        if bot.primed[node]:
            assert pool.visits[node] >= k
            assert children
            if len(children) == 1:
                assert bot.prior[children[0]] == 1.0
                continue
            net.evaluate(states[node], *weights, *work)
            logits = work[3][[int(pool.move[c]) for c in children]]
            expected = np.exp(logits - logits.max())
            expected /= expected.sum()
            assert np.allclose(bot.prior[children], expected, rtol=0, atol=1e-12), node
            checked += 1
        elif children and pool.visits[node] >= k + 2:
            pytest.fail(f"node {node} has {pool.visits[node]} visits and no prior")
    assert checked >= 20


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"bias": -1.0}, "bias"),
    ({"bias": math.nan}, "bias"),
    ({"bias_visits": 0}, "bias_visits"),
    ({"spec": "uct:c=0.5,iters=100,wins=off"}, "playout_policy"),
    ({"spec": "uct:c=0.5,iters=100,wins=on,scale=pm1"}, "scale"),
    ({"spec": "random"}, "uct SPEC"),
    ({"weights": "no-such-file.npz"}, "weights"),
])
def test_bad_input_gets_a_sentence(kwargs, words):
    arguments = {"spec": SPEC, "weights": WEIGHTS, **kwargs}
    with pytest.raises(ValueError, match=words):
        PriorUCTBot(**arguments)
