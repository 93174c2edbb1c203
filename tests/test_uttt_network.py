"""The UTTT network of chapter 8: features, the numba forward pass, self-play data, training."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from mctslib.experiments import uttt_network as exp
from mctslib.fast import uttt as engine
from mctslib.fast import uttt_network as net
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.rng import make_rng

STORED = Path(__file__).resolve().parent.parent / "data" / "network" / "uttt_mlp.npz"


def _games(count, seed):
    """Move lists of ``count`` uniformly random games."""
    rng = make_rng(seed)
    games = []
    for _ in range(count):
        state, moves = UltimateTicTacToe(), []
        while not state.is_terminal():
            legal = state.legal_moves()
            moves.append(int(legal[rng.integers(len(legal))]))
            state = state.play(moves[-1])
        games.append(moves)
    return games


def _positions(count=6, seed=1):
    out = []
    for moves in _games(count, seed):
        out.extend(UltimateTicTacToe.from_moves(moves[:k]) for k in range(len(moves) + 1))
    return out


def _random_weights(hidden, seed=0, scale=0.3):
    rng = make_rng(seed)
    sizes = (net.N_FEATURES, *hidden)
    arrays = {"w1": rng.normal(0, scale, (sizes[0], sizes[1])), "b1": rng.normal(0, scale,
                                                                                 sizes[1])}
    if len(hidden) == 2:
        arrays["w2"] = rng.normal(0, scale, (sizes[1], sizes[2]))
        arrays["b2"] = rng.normal(0, scale, sizes[2])
    else:
        arrays["w2"], arrays["b2"] = np.zeros((0, 0)), np.zeros(0)
    arrays.update(wp=rng.normal(0, scale, (sizes[-1], 81)), bp=rng.normal(0, scale, 81),
                  wv=rng.normal(0, 0.05, sizes[-1]), bv=rng.normal(0, 0.05, 1))
    # float32 values, as stored and as JAX computes with them
    return net.as_weights({k: v.astype(np.float32) for k, v in arrays.items()})


def test_features_match_the_readable_position():
    x = np.zeros(net.N_FEATURES)
    positions = _positions()
    for state in positions:
        net.features(engine.to_array(state), x)
        np.testing.assert_array_equal(x, net.features_reference(state))
    # the planes mean what they say on one position: the mover's marks and legal moves
    state = UltimateTicTacToe.from_moves([40, 30])  # X centre, O answers in the centre board
    net.features(engine.to_array(state), x)
    assert x[net.OWN + 40] == 1 and x[net.OPPONENT + 30] == 1 and x[:81].sum() == 1
    assert sorted(np.flatnonzero(x[net.LEGAL:])) == list(state.legal_moves())
    rows = np.zeros((len(positions), net.N_FEATURES), dtype=np.uint8)
    net.features_rows(np.array([engine.to_array(s) for s in positions]), rows)
    assert np.array_equal(rows[-1], net.features_reference(positions[-1]))


@pytest.mark.parametrize("hidden", [(16,), (12, 8)])
def test_forward_equals_the_fixed_order_reference_bit_for_bit(hidden):
    weights = _random_weights(hidden)
    x, h1, h2, logits = net.empty_work(weights)
    for state in _positions(2, seed=3)[::5]:
        value = net.evaluate(engine.to_array(state), *weights, x, h1, h2, logits)
        ref_value, ref_logits = net.forward_reference(x, weights)
        assert value == ref_value
        assert logits.tolist() == ref_logits
        assert -1 <= value <= 1
        legal = set(state.legal_moves())
        assert all((logits[m] > -math.inf) == (m in legal) for m in range(81))


@pytest.mark.parametrize("hidden", [(16,), (12, 8)])
def test_forward_close_to_the_jax_forward_of_training(hidden):
    weights = _random_weights(hidden, seed=5)
    params = {k: np.asarray(getattr(weights, k), dtype=np.float32) for k in net.Weights._fields}
    if len(hidden) == 1:
        del params["w2"], params["b2"]
    states = _positions(2, seed=4)[::3]
    xs = np.array([net.features_reference(s) for s in states], dtype=np.float32)
    jax_logits, jax_values = (np.asarray(a, dtype=np.float64) for a in exp.jax_forward(params, xs))
    x, h1, h2, logits = net.empty_work(weights)
    for i, state in enumerate(states):
        value = net.evaluate(engine.to_array(state), *weights, x, h1, h2, logits)
        assert abs(value - jax_values[i]) < 1e-5
        legal = logits > -math.inf
        assert np.max(np.abs(logits[legal] - jax_logits[i][legal])) < 1e-5
        assert np.all(jax_logits[i][~legal] == -1e9)


def test_softmax_over_legal_moves():
    logits = np.full(81, -np.inf)
    logits[[3, 7, 9]] = [0.0, math.log(2.0), math.log(5.0)]
    out = np.zeros(81)
    net.softmax_legal(logits, np.array([3, 7, 9]), 3, out)
    assert out[:3].tolist() == pytest.approx([1 / 8, 2 / 8, 5 / 8], abs=1e-15)


def test_symmetries_map_features_of_transformed_games():
    moves_table = exp.symmetry_moves()
    gather, inverse = exp.symmetry_gathers()
    assert all(sorted(row) == list(range(81)) for row in moves_table)
    assert len({tuple(row) for row in moves_table}) == 8
    for moves in _games(2, seed=9):
        for t in range(8):
            for k in (0, 7, len(moves)):
                original = UltimateTicTacToe.from_moves(moves[:k])
                image = UltimateTicTacToe.from_moves([int(moves_table[t, m]) for m in moves[:k]])
                x = net.features_reference(original)
                np.testing.assert_array_equal(x[gather[t]], net.features_reference(image))
                policy = np.arange(81.0)
                assert policy[inverse[t]][moves_table[t, 5]] == 5


def test_weights_shapes_are_checked():
    good = _random_weights((8,))
    with pytest.raises(ValueError, match="weights wp must have shape"):
        net.as_weights(good._replace(wp=np.zeros((8, 80))))
    with pytest.raises(ValueError, match="weights w1 must have shape"):
        net.as_weights(good._replace(w1=np.zeros((269, 8))))
    with pytest.raises(ValueError, match="does not hold network weights"):
        net.load_weights("/nonexistent/weights.npz")


def test_self_play_records_targets_and_repeats_from_its_seed():
    data = exp.self_play(2, 60, seed=3, progress=False)
    again = exp.self_play(2, 60, seed=3, progress=False)
    assert np.array_equal(data.states, again.states) and np.array_equal(data.policy, again.policy)
    assert len(data) == len(data.states) == len(data.policy) == len(data.game) > 20
    np.testing.assert_allclose(data.policy.sum(axis=1), 1.0, atol=1e-6)
    for s, p in zip(data.states, data.policy, strict=True):
        legal = np.zeros(81, dtype=bool)
        buf = np.zeros(81, dtype=np.int64)
        legal[buf[:engine.legal_moves(s, buf)]] = True
        assert np.all(p[~legal] == 0)
    assert set(data.value.tolist()) <= {-1, 0, 1}
    for g in (0, 1):  # the result alternates with the side to move (or is a draw throughout)
        v = data.value[data.game == g].astype(int)
        assert np.all(v[:-1] == -v[1:])
    with pytest.raises(ValueError, match="iterations"):
        exp.self_play(1, 0)
    with pytest.raises(ValueError, match="sample_plies"):
        exp.self_play(1, 10, sample_plies=-1)


def test_tiny_training_saves_and_loads(tmp_path):
    lines = []
    result = exp.tiny_training(games=2, iterations=50, epochs=2, hidden=(8,), log=lines.append)
    assert len(lines) == 2 and "held-out policy" in lines[0]
    held = result["held_out"]
    assert held["positions"] == len(result["test_rows"]) > 0
    assert 0 <= held["top1"] <= 1 and held["value_mse"] >= 0
    path = exp.save_weights(result, result["data"].params, tmp_path / "w.npz")
    loaded = net.load_weights(path)
    for name in net.Weights._fields:
        assert np.array_equal(getattr(loaded, name),
                              getattr(result["weights"], name).astype(np.float32))
    meta = json.loads(path.with_suffix(".json").read_text())
    assert meta["features_version"] == net.FEATURES_VERSION and meta["hidden"] == [8]
    cost = exp.forward_cost(loaded, result["data"].states[:20], repeats=1, rounds=1)
    assert cost["network_us"] > 0 and cost["playout_us"] > 0
    with pytest.raises(ValueError, match="each of hidden"):
        exp.train(result["data"], hidden=(0,))


def test_stored_weights_are_small_and_described():
    assert STORED.stat().st_size < 500_000
    weights = net.load_weights(STORED)
    meta = json.loads(STORED.with_suffix(".json").read_text())
    assert meta["features_version"] == net.FEATURES_VERSION
    assert [list(getattr(weights, n).shape) for n in net.Weights._fields] == \
        [meta["shapes"][n] for n in net.Weights._fields]
    # the network prefers a legal move and gives a value in [-1, 1] on the empty board
    x, h1, h2, logits = net.empty_work(weights)
    value = net.evaluate(engine.to_array(UltimateTicTacToe()), *weights, x, h1, h2, logits)
    assert -1 <= value <= 1 and np.isfinite(logits).all()


def test_puct_player_and_the_match_command(capsys):
    player = exp.PUCTPlayer(50, seed=1)
    state = UltimateTicTacToe.from_moves([40])
    assert player.choose(state) in state.legal_moves()
    with pytest.raises(ValueError, match="iterations"):
        exp.PUCTPlayer(0)
    assert exp.main(["match", "--games", "2", "--iters", "20", "--uct-iters", "20"]) == 0
    assert "vs UCT 20 it" in capsys.readouterr().out
