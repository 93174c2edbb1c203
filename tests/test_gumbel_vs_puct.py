"""Gumbel MuZero against PUCT with the UTTT network (mctslib.experiments.puct.gumbel_vs_puct)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from mctslib.bots.uttt import random_openings
from mctslib.experiments.puct import gumbel_vs_puct as gvp
from mctslib.fast import uttt_network as net
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.search.puct import check_evaluation

WEIGHTS = net.load_weights(gvp.DEFAULT_WEIGHTS)


def positions():
    """The empty board, a few openings, and positions deep into random games."""
    found = [UltimateTicTacToe(), *random_openings(3, 2, seed=5)]
    rng = np.random.default_rng(7)
    for _ in range(4):
        state = UltimateTicTacToe()
        for _ in range(int(rng.integers(5, 40))):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            following = state.play(moves[int(rng.integers(len(moves)))])
            if following.is_terminal():
                break
            state = following
        found.append(state)
    return found


def reference(state, weights):
    """Plain Python: the readable features, the Python forward pass, a softmax with fsum."""
    value, logits = net.forward_reference(net.features_reference(state), weights)
    moves = state.legal_moves()
    top = max(logits[m] for m in moves)
    exps = [math.exp(logits[m] - top) for m in moves]
    total = math.fsum(exps)
    return {m: e / total for m, e in zip(moves, exps)}, value


@pytest.mark.parametrize("index", range(8))
def test_evaluator_equals_python_reference_and_priors_sum_to_one(index):
    state = positions()[index]
    assert not state.is_terminal()
    priors, value = gvp.network_evaluator()(state)
    ref_priors, ref_value = reference(state, WEIGHTS)
    assert priors == ref_priors  # bit for bit, same keys in the same order
    assert list(priors) == list(state.legal_moves())
    assert value == ref_value
    assert abs(math.fsum(priors.values()) - 1.0) <= 1e-12
    check_evaluation(priors, value, state.legal_moves())
    # a fresh evaluator built from the arrays answers the same
    assert gvp.network_evaluator(WEIGHTS)(state) == (priors, value)


def test_evaluator_is_not_uniform():
    priors, _ = gvp.network_evaluator()(UltimateTicTacToe())
    assert max(priors.values()) > 2 * min(priors.values())


def test_gumbel_noise_follows_the_seed_and_no_noise_ignores_it():
    state = random_openings(1, 2, seed=3)[0]
    def moves(scale, seed):
        player = gvp.GumbelNetworkPlayer(4, gumbel_scale=scale, seed=seed)
        return [player.search.search(state).gumbel for _ in range(2)]
    assert moves(1.0, 1) == moves(1.0, 1)
    assert moves(1.0, 1) != moves(1.0, 2)
    plain = gvp.GumbelNetworkPlayer(4, gumbel_scale=0.0, seed=1)
    other = gvp.GumbelNetworkPlayer(4, gumbel_scale=0.0, seed=2)
    assert plain.choose(state) == other.choose(state)
    assert set(plain.search.search(state).gumbel.values()) == {0.0}


def test_puct_player_uses_mctx_settings():
    player = gvp.PUCTNetworkPlayer(8, seed=1)
    assert (player.search.c_puct, player.search.pb_c_base, player.search.q_transform) == (
        1.25, 19652.0, "parent_and_siblings")
    state = UltimateTicTacToe()
    assert player.choose(state) == gvp.PUCTNetworkPlayer(8, seed=2).choose(state)
    assert sum(player.search.visit_counts().values()) == 8


def test_a_match_rerun_gives_the_same_letters(tmp_path):
    first = gvp.play_part(2, 4, 1)
    again = gvp.play_part(2, 4, 1)
    assert first.results == again.results and len(first.results) == 4
    assert set(first.results) <= set("WDL")
    assert (first.wins, first.draws, first.losses) == (
        first.results.count("W"), first.results.count("D"), first.results.count("L"))
    assert first.a["kind"] == "gumbel" and first.b["kind"] == "puct"
    assert first.a["simulations"] == first.b["iterations"] == 2
    assert first.a["weights_sha256"] == first.b["weights_sha256"]
    # the command stores the part where part_path says, and load_match reads it back
    assert gvp.main(["--simulations", "2", "--games", "4", "--part", "1",
                     "--data", str(tmp_path)]) == 0
    path = gvp.part_path(2, 1, data=tmp_path)
    assert path.name == "gumbel_vs_puct_2sims_part1.json"
    assert json.loads(path.read_text())["results"] == first.results
    total = gvp.load_match(2, data=tmp_path)
    assert (total["games"], total["results"], total["simulations"]) == (4, first.results, 2)


def test_part_path_names_variants():
    assert gvp.part_path(32, 3).name == "gumbel_vs_puct_32sims_part3.json"
    assert gvp.part_path(8, 0, gumbel_scale=0).name == "gumbel_vs_puct_8sims_scale0_part0.json"
    assert gvp.part_path(8, 0, max_considered=4).name == "gumbel_vs_puct_8sims_m4_part0.json"


@pytest.mark.parametrize("call, words", [
    (lambda: gvp.play_part(0, 4), "simulations"),
    (lambda: gvp.play_part(2, 1), "games"),
    (lambda: gvp.play_part(2, 4, -1), "part"),
    (lambda: gvp.play_part(2, 4, gumbel_scale=-1.0), "gumbel_scale"),
    (lambda: gvp.play_part(2, 4, max_considered=0), "max_considered"),
    (lambda: gvp.play_part(2, 4, seed=-3), "seed"),
    (lambda: gvp.play_part(2, 4, jobs=0), "jobs"),
    (lambda: gvp.play_part(2, 4, weights="no/such/file.npz"), "weights"),
    (lambda: gvp.play_part(2, 4, weights=3), "weights"),
    (lambda: gvp.network_evaluator(3), "weights"),
    (lambda: gvp.network_evaluator("no/such/file.npz"), "path"),
    (lambda: gvp.network_evaluator()("X"), "state"),
    (lambda: gvp.GumbelNetworkPlayer(0), "simulations"),
    (lambda: gvp.PUCTNetworkPlayer(-1), "simulations"),
    (lambda: gvp.part_path(2, 1000), "part"),
    (lambda: gvp.load_match(2, data="no/such/folder"), "no stored part"),
    (lambda: gvp.load_match(2, paths="one.json"), "paths"),
    (lambda: gvp.load_match(2, paths=[]), "paths"),
])
def test_bad_input_gets_a_sentence(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def test_finished_game_has_no_priors():
    state = UltimateTicTacToe()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        moves = state.legal_moves()
        state = state.play(moves[int(rng.integers(len(moves)))])
    with pytest.raises(ValueError, match="state must be a game still on"):
        gvp.network_evaluator()(state)


def test_load_part_names_a_wrong_file(tmp_path):
    bad = tmp_path / "gumbel_vs_puct_2sims_part0.json"
    bad.write_text("{}")
    with pytest.raises(ValueError, match="gumbel_vs_puct_2sims_part0.json"):
        gvp.load_match(2, data=tmp_path)
