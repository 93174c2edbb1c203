"""The speed ladder (chapter "How a Legend bot gets its strength"): every rung is the same search.

Each compiled rung of mctslib.fast.uttt_ladder must grow the readable UCT's tree (the root's
children in order, their visits, and the generator's state after the search) for the same seed;
only speed may differ (benchmarks/speed_ladder.py measures it).
"""

import random

import numpy as np
import pytest

from mctslib.fast import uttt as engine
from mctslib.fast import uttt_ladder as ladder
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.search.uct import UCTSearch
from mctslib.xorshift import XorShift64


def random_position(plies, seed):
    rnd, state = random.Random(seed), UltimateTicTacToe()
    for _ in range(plies):
        state = state.play(rnd.choice(state.legal_moves()))
    return state


POSITIONS = [UltimateTicTacToe(), random_position(20, 1), random_position(45, 3),
             random_position(50, 6)]


@pytest.mark.parametrize("rung", list(ladder.RUNGS))
def test_every_rung_grows_the_readable_tree(rung):
    function, representation = ladder.RUNGS[rung]
    for state in POSITIONS:
        assert not state.is_terminal()
        search = UCTSearch(0.5, iterations=400, seed=XorShift64(9))
        root = search.search(state)
        array = ladder.grid_position(state) if representation == "grid" else engine.to_array(state)
        before = array.copy()
        rng = engine.new_rng(9)
        moves, visits = function(array, 400, 0.5, rng)
        assert list(moves) == [child.move for child in root.children]
        assert list(visits) == [child.visits for child in root.children]
        assert int(rng[0]) == search.source.state
        assert np.array_equal(array, before)  # the root position is left as it was


def test_the_grid_plays_the_readable_rules():
    rnd = random.Random(4)
    for _ in range(30):
        state, grid = UltimateTicTacToe(), ladder.grid_position(UltimateTicTacToe())
        while not state.is_terminal():
            assert list(ladder.grid_legal(grid)) == list(state.legal_moves())
            move = rnd.choice(state.legal_moves())
            state, grid = state.play(move), ladder.grid_play(grid, move)
            assert np.array_equal(grid, ladder.grid_position(state))
        for player in (0, 1):
            assert ladder.grid_result(grid, player) == state.result(player)


def test_make_then_unmake_restores_the_position():
    state = random_position(30, 2)
    s = engine.to_array(state)
    original, undo, moves = s.copy(), np.zeros((10, ladder.UNDO_SIZE), np.int64), []
    rnd = random.Random(1)
    for k in range(10):
        if state.is_terminal():
            break
        move = rnd.choice(state.legal_moves())
        ladder.make(s, move, undo[k])
        state = state.play(move)
        moves.append(move)
        assert engine.from_array(s) == state
    for k in range(len(moves) - 1, -1, -1):
        ladder.unmake(s, moves[k], undo[k])
    assert np.array_equal(s, original)
