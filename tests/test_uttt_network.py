"""The UTTT network of chapter 7: features, the numba forward pass, self-play data, training."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import numpy as np
import pytest

from mctslib.experiments.puct import network as exp
from mctslib.experiments.puct import network_play as play
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
    cost = play.forward_cost(loaded, result["data"].states[:20], repeats=1, rounds=1)
    assert cost["network_us"] > 0 and cost["playout_us"] > 0
    # `network_play measure` times the network on positions of the held-out games only
    held_out = exp.held_out_positions(result["data"], meta["training"], 1000, seed=0)
    test_states = {row.tobytes() for row in result["data"].states[result["test_rows"]]}
    assert 0 < len(held_out) <= len(result["test_rows"])
    assert all(row.tobytes() in test_states for row in held_out)
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


def test_puct_player_with_iterations_or_milliseconds():
    player = play.PUCTPlayer(50, weights=STORED, seed=1)
    state = UltimateTicTacToe.from_moves([40])
    assert player.choose(state) in state.legal_moves() and player.last_iterations == 50
    again = play.PUCTPlayer(50, weights=STORED, seed=1)
    assert [again.choose(state) for _ in range(3)] == [player.choose(state) for _ in range(3)]
    timed = play.PUCTPlayer(ms=20, mix=0.5, weights=STORED, seed=1)
    start = time.perf_counter()
    assert timed.choose(state) in state.legal_moves()
    spent = time.perf_counter() - start
    assert 0.02 <= spent < 1.0 and timed.last_iterations > 64  # past the first chunk
    assert sum(timed.pool.root_visits().values()) == timed.last_iterations - 1
    with pytest.raises(ValueError, match="iterations"):
        play.PUCTPlayer(0, weights=STORED)
    with pytest.raises(ValueError, match="not both"):
        play.PUCTPlayer(100, ms=10, weights=STORED)
    with pytest.raises(ValueError, match="ms"):
        play.PUCTPlayer(ms=0, weights=STORED)
    with pytest.raises(ValueError, match="mix"):
        play.PUCTPlayer(10, mix=1.5, weights=STORED)


def test_a_stored_match_repeats_letter_for_letter(tmp_path, capsys):
    out = tmp_path / "stored.json"
    assert play.main(["match", "--games", "4", "--iters", "30", "--uct-iters", "40",
                     "--weights", str(STORED), "--out", str(out)]) == 0
    assert "written to" in capsys.readouterr().out
    stored = play.load_part(out)
    assert stored.games == 4 and len(stored.results) == 4 and set(stored.results) <= set("WDL")
    assert stored.wins + stored.draws + stored.losses == 4
    assert stored.a["iterations"] == 30 and stored.b["iterations"] == 40
    assert stored.b["spec"].startswith("uct:c=0.5,") and "iters=40" in stored.b["spec"]
    assert not stored.a["timed"] and stored.machine["mctslib"]
    again = play.play_part(30, 4, 0, uct_iterations=40, weights=STORED)
    assert again.results == stored.results and again.a == stored.a and again.b == stored.b


def test_parts_are_stored_by_name_and_combined(tmp_path):
    common = ["match", "--iters", "20", "--c-puct", "1.5", "--mix", "0.5",
              "--weights", str(STORED), "--data", str(tmp_path)]
    assert play.main([*common, "--games", "4", "--part", "1"]) == 0
    assert play.main([*common, "--games", "2", "--part", "0"]) == 0
    name = "uttt_puct20it_c1.5_mix0.5_vs_uct20it_part1.json"
    assert play.part_path(20, 1, data=tmp_path) == tmp_path / name and (tmp_path / name).exists()
    parts = [play.load_part(play.part_path(20, p, data=tmp_path)) for p in (0, 1)]
    total = play.load_match(20, data=tmp_path)
    assert total["parts"] == [0, 1] and total["games"] == 6
    assert total["results"] == parts[0].results + parts[1].results
    assert total["wins"] == parts[0].wins + parts[1].wins and not total["timed"]
    assert total["seconds_per_move"] == [p.seconds_per_move for p in parts]
    assert 0 <= total["interval_95"][0] <= total["score"] <= total["interval_95"][1] <= 1
    # a part of another match (another mix) or a part given twice is refused
    other = play.play_part(20, 2, 2, mix=0.25, weights=STORED)
    (tmp_path / "other.json").write_text(other.to_json())
    files = [play.part_path(20, 0, data=tmp_path), tmp_path / "other.json"]
    with pytest.raises(ValueError, match="not of the same match"):
        play.load_match(paths=files)
    with pytest.raises(ValueError, match="parts repeat"):
        play.load_match(paths=[files[0], files[0]])


def test_a_timed_match_is_marked_and_measured(tmp_path):
    part = play.play_part(games=2, ms=5, weights=STORED)
    assert part.a["timed"] and part.b["timed"] and part.a["ms"] == part.b["ms"] == 5
    assert part.a["iterations"] is None and "first_ms=5" in part.b["spec"]
    assert any("timed match" in note for note in part.notes)
    # Means over the match: a bot's instant moves (a win taken, a proven position) pull its
    # mean below the 5 ms budget (UCT's was 4.3 ms in a run), so only the searching side is
    # held to it; neither side may hang.
    assert all(0 < seconds < 0.5 for seconds in part.seconds_per_move)
    assert max(part.seconds_per_move) > 0.004
    assert play.part_path(ms=5).name == "uttt_puct5ms_c1.5_mix0.5_vs_uct5ms_part0.json"


def test_bad_match_arguments_are_named(tmp_path):
    with pytest.raises(ValueError, match="not both"):
        play.load_match(1000, ms=100)
    with pytest.raises(ValueError, match="no stored part matches"):
        play.load_match(1000, data=tmp_path)
    with pytest.raises(ValueError, match="uct_iterations must be None in a timed match"):
        play.load_match(ms=100, uct_iterations=1000)
    with pytest.raises(ValueError, match="mix"):
        play.load_match(1000, mix=2)
    with pytest.raises(ValueError, match="tag"):
        play.load_match(1000, tag="../x")
    with pytest.raises(ValueError, match="at least one"):
        play.load_match(paths=[])
    with pytest.raises(ValueError, match="paths must be a list"):
        play.load_match(paths="a.json")
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(ValueError, match="does not hold a MatchPart"):
        play.load_match(paths=[tmp_path / "bad.json"])
    with pytest.raises(ValueError, match="games"):
        play.play_part(10, 1, weights=STORED)
    with pytest.raises(ValueError, match="part"):
        play.play_part(10, 2, 1000, weights=STORED)
    with pytest.raises(ValueError, match="weights"):
        play.play_part(10, 2, weights=tmp_path / "none.npz")
