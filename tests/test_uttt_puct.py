"""The numba PUCT kernel of chapter 7 with the network called at each leaf."""

from __future__ import annotations

import numpy as np
import pytest

from mctslib.fast import uttt as engine
from mctslib.fast import uttt_network as net
from mctslib.fast import uttt_puct as puct
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.rng import make_rng


def _weights(hidden=16, seed=0):
    rng = make_rng(seed)
    return net.as_weights({"w1": rng.normal(0, 0.3, (net.N_FEATURES, hidden)),
                           "b1": rng.normal(0, 0.3, hidden), "w2": np.zeros((0, 0)),
                           "b2": np.zeros(0), "wp": rng.normal(0, 0.3, (hidden, 81)),
                           "bp": np.zeros(81), "wv": rng.normal(0, 0.1, hidden),
                           "bv": np.zeros(1)})


@pytest.mark.parametrize(("mix", "use_policy"), [(0.0, True), (0.5, True), (1.0, False)])
def test_puct_respects_its_budget_and_counts_visits(mix, use_policy):
    weights = _weights()
    pool, work = puct.PUCTPool(20_000), puct.new_work(weights)
    state = UltimateTicTacToe.from_moves([40, 30, 0])
    root = engine.to_array(state)
    rng = engine.new_rng(7)
    best = puct.puct_search(root, 300, weights, pool, work, rng, mix=mix, use_policy=use_policy)
    assert pool.visits[0] == 300
    stats = pool.root_visits()
    assert sorted(stats) == sorted(state.legal_moves())
    assert sum(stats.values()) == 299
    assert stats[best] == max(stats.values())
    first, n = int(pool.first_child[0]), int(pool.child_count[0])
    assert abs(pool.prior[first:first + n].sum() - 1.0) < 1e-12
    again = puct.puct_search(root, 300, weights, pool, work, engine.new_rng(7), mix=mix,
                             use_policy=use_policy)
    assert again == best and pool.root_visits() == stats  # the same tree from the same seed


def _position_with_a_win(seed=3):
    """The first position of seeded random games where some but not every move wins at once."""
    rng = make_rng(seed)
    while True:
        state = UltimateTicTacToe()
        while not state.is_terminal():
            wins, legal = state.winning_moves(), state.legal_moves()
            if wins and len(wins) < len(legal):
                return state
            state = state.play(int(legal[rng.integers(len(legal))]))


def test_puct_finds_the_winning_move():
    state = _position_with_a_win()
    weights = _weights(seed=2)
    pool, work = puct.PUCTPool(100_000), puct.new_work(weights)
    best = puct.puct_search(engine.to_array(state), 2000, weights, pool, work, engine.new_rng(1))
    assert best in state.winning_moves()


def test_a_full_pool_stops_growing_and_bad_input_is_refused():
    weights = _weights(seed=2)
    pool, work = puct.PUCTPool(82), puct.new_work(weights)
    root = engine.to_array(UltimateTicTacToe())
    puct.puct_search(root, 500, weights, pool, work, engine.new_rng(1))
    assert pool.used[0] == 82 and pool.visits[0] == 500  # the root's children only
    with pytest.raises(ValueError, match="mix"):
        puct.puct_search(root, 5, weights, pool, work, engine.new_rng(1), mix=2.0)
    with pytest.raises(ValueError, match="c_puct"):
        puct.puct_search(root, 5, weights, pool, work, engine.new_rng(1), c=-1.0)
    with pytest.raises(ValueError, match="capacity"):
        puct.PUCTPool(10)
    with pytest.raises(ValueError, match="root_state"):
        puct.puct_search(_finished(), 5, weights, pool, work, engine.new_rng(1))


def _finished():
    rng, state = make_rng(0), UltimateTicTacToe()
    while not state.is_terminal():
        legal = state.legal_moves()
        state = state.play(int(legal[rng.integers(len(legal))]))
    return engine.to_array(state)
