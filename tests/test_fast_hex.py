"""The numba Hex engine (mctslib.fast.hex), chapter "Enhancements that matter": the same
positions, legal moves, winners and random playouts as the readable Hex."""

import numpy as np
import pytest

from mctslib.fast import hex as fh
from mctslib.fast.xorshift import new_rng
from mctslib.games.hex import Hex
from mctslib.xorshift import XorShift64, derive_seeds


def readable_playout(state, source):
    moves = state.legal_moves()
    while moves:
        state = state.play(moves[source.below(len(moves))])
        moves = state.legal_moves()
    return state


@pytest.mark.parametrize("size", [2, 3, 4, 5, 7, 9, 11])
def test_random_playouts_end_in_the_same_position_as_the_readable_ones(size):
    for seed in derive_seeds(41, 40):  # distinct streams (0 and 1 are one stream)
        s = fh.new_state(size)
        winner = fh.random_playout(s, new_rng(seed))
        final = readable_playout(Hex(size), XorShift64(seed))
        assert winner == final.winner()
        assert fh.from_array(s) == final
        assert s[fh.PLAYER] == final.player_to_move
        assert fh.result(s, winner) == 1.0 and fh.result(s, 1 - winner) == 0.0


def test_every_position_of_random_games_converts_both_ways_with_the_same_moves():
    rng = np.random.default_rng(3)
    out = np.zeros(fh.MAX_MOVES, dtype=np.int64)
    for _ in range(30):
        state, s = Hex(6), fh.new_state(6)
        while True:
            n = fh.legal_moves(s, out)
            assert tuple(out[:n]) == state.legal_moves()
            assert np.array_equal(fh.to_array(state)[: fh.CELLS + 36], s[: fh.CELLS + 36])
            winner = state.winner()
            assert s[fh.OUTCOME] == (fh.ONGOING if winner is None else winner)
            if state.is_terminal():
                break
            move = state.legal_moves()[rng.integers(n)]
            state = state.play(move)
            fh.play(s, move)


def test_random_move_is_the_kth_legal_move():
    s, out = fh.new_state(5), np.zeros(25, dtype=np.int64)
    for move in (0, 7, 12):
        fh.play(s, move)
    rng_a, source = new_rng(9), XorShift64(9)
    n = fh.legal_moves(s, out)
    for _ in range(20):
        assert fh.random_move(s, rng_a) == out[source.below(n)]


def test_bad_sizes_and_states_are_refused_with_a_sentence():
    with pytest.raises(ValueError, match="size must be"):
        fh.new_state(12)
    with pytest.raises(ValueError, match="size must be"):
        fh.new_state(1)
    with pytest.raises(ValueError, match="Hex position"):
        fh.to_array("....")
    with pytest.raises(ValueError, match="size must be"):
        fh.to_array(Hex(13))
