"""The convergence atlas: definitions, kernel parity, the stored data and its check."""

from __future__ import annotations

import dataclasses

import matplotlib
import numpy as np
import pytest

from mctslib.experiments import convergence_atlas as ca
from mctslib.experiments.running_example import derive_seeds
from mctslib.fast.tictactoe_anytime import uct_answers
from mctslib.games.tictactoe import TicTacToe
from mctslib.search.minimax import move_values, reachable_states
from mctslib.search.uct import UCTSearch
from mctslib.xorshift import XorShift64

matplotlib.use("Agg")


def test_checkpoints_are_rounded_half_powers_of_two():
    assert ca.atlas_checkpoints(2**14) == sorted({round(2 ** (k / 2)) for k in range(29)})
    assert ca.atlas_checkpoints(4) == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="power of 2"):
        ca.atlas_checkpoints(1000)


def test_positions_kept_and_left_out():
    kept = ca.atlas_positions()
    still_on = [s for s in reachable_states(TicTacToe()) if not s.is_terminal()]
    assert len(kept) == 3191 and len(still_on) - len(kept) == 1329
    assert TicTacToe() not in kept  # every first move draws
    for state in kept[:200]:
        assert len(set(move_values(state).values())) > 1
    assert ca.correct_moves(TicTacToe.from_string(".X./..X/O..")) == [0, 8]


def test_settle_index_definition():
    table = [[True, True, True],      # right from the start: 0
             [False, True, True],     # 1
             [True, False, True],     # wrong at checkpoint 1, so it settles at 2
             [True, True, False]]     # wrong at the last checkpoint: never (3)
    assert ca.seed_settle_indices(table) == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="2-d table"):
        ca.seed_settle_indices([True, False])


@pytest.mark.parametrize("board", ["X../.../...", ".X./.OX/...", "XO./.X./..O"])
def test_kernel_equals_readable_uct_on_atlas_positions(board):
    state = TicTacToe.from_string(board)
    seeds = derive_seeds(7, 3)
    budgets = [1, 2, 11, 45, 256]
    fast = uct_answers(state.x, state.o, 1.0, budgets, seeds)
    for i, seed in enumerate(seeds):
        for k, budget in enumerate(budgets):
            assert fast[i, k] == UCTSearch(1.0, budget, seed=XorShift64(seed)).choose(state)


def test_forced_line_lengths():
    assert ca.forced_line_length(TicTacToe.from_string("XX./OO./...")) == 1  # X takes 2 at once
    assert ca.forced_line_length(TicTacToe()) == 9  # a draw fills the board
    # O to move must block at 2, then X wins by force: O resists as long as it can.
    assert ca.forced_line_length(TicTacToe.from_string("XXO/O../...")) == 3  # X4, a block, X wins
    assert ca.forced_line_length(TicTacToe.from_string("XX./O../...")) == 4


def test_small_run_and_its_check():
    states = [TicTacToe.from_string(b) for b in (".X./.OX/...", "XO./.X./..O", "X../.O./..X")]
    atlas = ca.run_convergence_atlas(seeds=4, largest=256, positions=states, workers=2)
    same = ca.run_convergence_atlas(seeds=4, largest=256, positions=states, workers=1)
    assert atlas.positions == same.positions
    assert [row[0] for row in atlas.positions] == [".X./.OX/...", "XO./.X./..O", "X../.O./..X"]
    assert ca.check_convergence_atlas(atlas).ok
    budgets, counts, censored = ca.settle_histogram(atlas)
    assert sum(counts) + censored == 3 and budgets[-1] == 256


# ------------------------------------------------------------------------- stored data


@pytest.fixture(scope="module")
def stored():
    return ca.load_convergence_atlas()


def test_stored_parameters_and_shape(stored):
    assert stored.exploration == 1.0 and stored.seed_count == ca.SEEDS
    assert stored.checkpoints == ca.atlas_checkpoints(ca.LARGEST)
    assert [row[0] for row in stored.positions] == \
        [ca.board_text(s) for s in ca.atlas_positions()]
    assert all(len(row[1]) == stored.seed_count for row in stored.positions)
    assert stored.seeds() == derive_seeds(stored.root_seed, stored.seed_count)
    _, counts, censored = ca.settle_histogram(stored)
    assert sum(counts) + censored == 3191


def test_hardest_positions_are_ordered_and_explained(stored):
    hardest = ca.hardest_positions(stored, 10)
    assert len(hardest) == 10
    keys = [(h.settle_budget is None, h.settle_budget or 0) for h in hardest]
    assert keys == sorted(keys, reverse=True)
    j = stored.index_of(hardest[0].board)
    assert max(stored.settle_index(k) for k in range(len(stored.positions))) == \
        stored.settle_index(j)
    for h in hardest:
        state = TicTacToe.from_string(h.board)
        assert set(h.correct_moves) == set(ca.correct_moves(state))
        assert h.tempting_move not in h.correct_moves
        assert 1 <= h.forced_line <= 9 and 1 <= h.refutation_line <= 9


def test_stored_check_passes_and_detects_a_planted_change(stored):
    board = stored.positions[5][0]
    check = ca.check_convergence_atlas(stored, [board])
    assert check.ok, check.summary()
    rows = [list(row) for row in stored.positions]
    settle = list(rows[5][1])
    settle[2] = (settle[2] + 1) % (len(stored.checkpoints) + 1)
    rows[5] = [board, settle]
    changed = dataclasses.replace(stored, positions=rows)
    check = ca.check_convergence_atlas(changed, [board])
    assert not check.ok and "seed #2" in check.mismatches[0]


def test_default_check_covers_the_hardest(stored):
    check = ca.check_convergence_atlas(stored)
    assert check.ok, check.summary()
    assert ca.hardest_positions(stored, 1)[0].board in check.boards


def test_round_trip_and_bad_file(stored, tmp_path):
    path = tmp_path / "atlas.json"
    path.write_text(stored.to_json())
    assert ca.load_convergence_atlas(path) == stored
    rows = [list(row) for row in stored.positions]
    rows[0] = [rows[0][0], rows[0][1][:-1]]
    path.write_text(dataclasses.replace(stored, positions=rows).to_json())
    with pytest.raises(ValueError, match="settle indices"):
        ca.load_convergence_atlas(path)


def test_views(stored):
    from mctslib.views.convergence import (
        atlas_summary,
        draw_hardest_positions,
        plot_settle_histogram,
    )

    histogram = ca.settle_histogram(stored)
    fig = plot_settle_histogram(histogram)
    assert fig.axes[0].get_xscale() == "log"
    hardest = ca.hardest_positions(stored, 10)
    fig = draw_hardest_positions(hardest)
    assert len(fig.axes) == 10
    text = atlas_summary(histogram, hardest)
    assert "3,191 positions" in text and hardest[0].board in text
    with pytest.raises(ValueError, match="triple"):
        plot_settle_histogram([1, 2])
    with pytest.raises(ValueError, match="non-empty list"):
        draw_hardest_positions([])


# ------------------------------------------------------------------------- input checks


@pytest.mark.parametrize(("call", "words"), [
    (lambda: ca.run_convergence_atlas(seeds=0), "seeds"),
    (lambda: ca.run_convergence_atlas(largest=3), "power of 2"),
    (lambda: ca.run_convergence_atlas(positions=[TicTacToe()]), "do not all share"),
    (lambda: ca.run_convergence_atlas(positions="X........"), "sequence of TicTacToe"),
    (lambda: ca.settle_histogram({}), "must be a ConvergenceAtlas"),
    (lambda: ca.hardest_positions(None), "must be a ConvergenceAtlas"),
    (lambda: ca.forced_line_length("X........"), "TicTacToe position"),
])
def test_bad_input_answers_with_a_sentence(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def test_check_refuses_a_board_outside_the_atlas(stored):
    with pytest.raises(ValueError, match="position of the atlas"):
        ca.check_convergence_atlas(stored, ["XXX/OO./..."])
    assert np.array_equal(ca.atlas_checkpoints()[:3], [1, 2, 3])
