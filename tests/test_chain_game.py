"""The Coquelin-Munos chain: rules, rewards, exact values, and UCT searching it unchanged."""

import numpy as np
import pytest

from mctslib.games.chain import DEEPER, LEAVE, MAX_DEPTH, PASS, ChainGame
from mctslib.search.flat import random_playout
from mctslib.search.minimax import minimax_value, move_values
from mctslib.search.uct import UCTSearch, robust_child


def _walk(depth, moves):
    state = ChainGame(depth)
    for move in moves:
        state = state.play(move)
    return state


def test_moves_alternate_with_a_pass():
    state = ChainGame(3)
    assert state.player_to_move == 0 and state.legal_moves() == (LEAVE, DEEPER)
    state = state.play(DEEPER)
    assert state.player_to_move == 1 and state.legal_moves() == (PASS,)
    state = state.play(PASS)
    assert state == ChainGame(3, decisions=1, mover=0)
    assert not state.is_terminal()


@pytest.mark.parametrize("depth", [1, 2, 3, 5])
def test_rewards_fall_along_the_chain_and_the_end_pays_one(depth):
    for decision in range(1, depth + 1):
        line = [DEEPER, PASS] * (decision - 1) + [LEAVE]
        final = _walk(depth, line)
        assert final.is_terminal() and final.legal_moves() == ()
        assert final.reward() == (depth - decision) / depth
        assert final.result(0) + final.result(1) == 1.0
    end = _walk(depth, [DEEPER, PASS] * (depth - 1) + [DEEPER])
    assert end.is_terminal() and end.reward() == 1.0 and end.winner() == 0


def test_winner_only_for_the_extreme_rewards():
    assert _walk(2, [LEAVE]).winner() is None  # reward 1/2
    assert _walk(2, [DEEPER, PASS, LEAVE]).winner() == 1  # reward 0
    assert ChainGame(2).winner() is None  # still on


@pytest.mark.parametrize("depth", [1, 2, 4, 8])
def test_minimax_goes_deeper_and_the_decoy_is_worth_one_step_less(depth):
    values = move_values(ChainGame(depth))
    assert values[DEEPER] == 1.0
    assert values[LEAVE] == (depth - 1) / depth
    assert minimax_value(ChainGame(depth), 1) == 0.0


def _random_value(state):
    # The library's random_playout_value counts wins, draws and losses; the chain is scored.
    if state.is_terminal():
        return state.reward()
    moves = state.legal_moves()
    return sum(_random_value(state.play(move)) for move in moves) / len(moves)


@pytest.mark.parametrize("depth", [3, 4, 6])
def test_random_samples_make_going_deeper_look_worse_than_leaving(depth):
    start = ChainGame(depth)
    assert _random_value(start.play(DEEPER)) < (depth - 1) / depth == _random_value(start.play(LEAVE))


def test_bad_positions_and_moves_are_named():
    with pytest.raises(ValueError, match="depth"):
        ChainGame(0)
    with pytest.raises(ValueError, match="depth"):
        ChainGame(MAX_DEPTH + 1)
    with pytest.raises(ValueError, match="decisions"):
        ChainGame(3, decisions=4)
    with pytest.raises(ValueError, match="mover"):
        ChainGame(3, mover=2)
    with pytest.raises(ValueError, match="left"):
        ChainGame(3, decisions=1, left=1)
    with pytest.raises(ValueError, match="left=True"):
        ChainGame(3, left=True)
    with pytest.raises(ValueError, match="legal moves are: 1, 2"):
        ChainGame(3).play(PASS)
    with pytest.raises(ValueError, match="legal moves are: 0"):
        ChainGame(3).play(DEEPER).play(LEAVE)
    with pytest.raises(ValueError, match="illegal"):
        ChainGame(3).play(2.0)
    with pytest.raises(ValueError, match="game is over"):
        _walk(2, [LEAVE]).play(DEEPER)
    with pytest.raises(ValueError, match="finished"):
        ChainGame(3).reward()


def test_numpy_fields_hash_like_ints():
    assert ChainGame(np.int64(4), np.int32(1)) == ChainGame(4, 1)
    assert hash(ChainGame(np.int64(4))) == hash(ChainGame(4))
    assert ChainGame(3).play(np.int64(DEEPER)) == ChainGame(3, 1, 1)


def test_a_random_playout_ends_with_a_reward():
    final = random_playout(ChainGame(6), np.random.default_rng(3))
    assert final.is_terminal() and 0.0 <= final.reward() <= 1.0


def test_uct_searches_it_unchanged():
    # A short chain is easy; the search keeps its mean for the player who moved.
    root = UCTSearch(2**0.5, 2000, seed=1).search(ChainGame(2))
    best = robust_child(root)
    assert best.move == DEEPER
    assert best.mean > 0.9  # nearly every late sample reaches the reward 1
    assert root.children[0].mover == 0


def test_same_seed_same_tree():
    def visits(seed):
        root = UCTSearch(1.0, 300, seed=seed).search(ChainGame(4))
        return [(child.move, child.visits, child.wins) for child in root.children]

    assert visits(5) == visits(5)
