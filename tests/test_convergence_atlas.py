"""The convergence atlas: definitions, kernel parity, the stored data and its check."""

from __future__ import annotations

import dataclasses

import matplotlib
import numpy as np
import pytest

from mctslib.experiments.uct import convergence_atlas as ca
from mctslib.experiments.uct.running_example import derive_seeds
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
        assert h.copies == 1 and h.lowest_settle_budget == h.settle_budget
        # forced: won positions only; refute: losing tempting moves only
        assert (h.forced_line is not None) == (h.value == 1.0)
        assert (h.refutation_line is not None) == (h.tempting_value == 0.0)


def test_forced_and_refutation_are_defined_only_where_they_mean_something(stored):
    # X1/O6: the tempting centre draws, so it has no refutation; the win takes 5 plies
    h = ca._explain(stored, stored.index_of(".X./.../O.."))
    assert (h.value, h.tempting_move, h.tempting_value) == (1.0, 4, 0.5)
    assert (h.forced_line, h.refutation_line) == (5, None)
    # O answering a corner opening: a draw (no forced win); the tempting corner 2 loses in 6
    h = ca._explain(stored, stored.index_of("X../.../..."))
    assert (h.value, h.tempting_move, h.tempting_value) == (0.5, 2, 0.0)
    assert (h.forced_line, h.refutation_line) == (None, 6)
    # X must block at 7; any other move lets O win at once: refuted in 2 plies (it and the win)
    *_, value, best, _tempting, tempting_value, _margin, forced, refute = ca._traits("XOX/.O./...")
    assert (value, best, tempting_value, forced, refute) == (0.5, (7,), 0.0, None, 2)


def test_symmetries_of_a_board():
    images = ca.board_symmetries(".X./.../O..")
    assert len(images) == 8 and ".X./.../O.." in images
    # the three harness misses of chapter 4b are one position turned and mirrored
    assert {".../..X/O..", "..O/.../.X."} <= set(images)
    assert len(ca.board_symmetries("X../.../...")) == 4  # a corner opening: 4 corners
    assert ca.board_symmetries(".../.X./...") == [".../.X./..."]
    assert all(ca.canonical_board(b) == images[0] for b in images)
    with pytest.raises(ValueError, match="board text"):
        ca.board_symmetries("X..")


def test_symmetry_classes_and_hardest_classes(stored):
    classes = ca.symmetry_classes(stored)
    assert len(classes) == 431
    assert sum(len(c.rows) for c in classes) == len(stored.positions)
    for c in classes[:50]:  # every copy of a class is an image of its canonical board
        assert {stored.positions[j][0] for j in c.rows} == set(ca.board_symmetries(c.canonical))
    hardest = ca.hardest_classes(stored, 10)
    assert len({ca.canonical_board(h.board) for h in hardest}) == 10
    ranges = {ca.canonical_board(h.board): (h.copies, h.lowest_settle_budget, h.settle_budget)
              for h in hardest[:4]}
    assert ranges == {ca.canonical_board(".X./.../O.."): (8, 724, 1448),   # X1/O6
                      ca.canonical_board("X../..O/..."): (8, 362, 1448),   # X0/O5
                      ca.canonical_board("X../.../..."): (4, 1024, 1448),  # corner openings
                      ca.canonical_board(".X./.../..."): (4, 1448, 1448)}  # edge openings
    settles = [h.settle_budget for h in hardest]
    assert settles == sorted(settles, reverse=True)
    assert all(h.lowest_settle_budget <= h.settle_budget for h in hardest)


def test_difficulty_table(stored):
    table = ca.difficulty_table(stored)
    assert sum(n for row in table.cells for n, _ in row) == len(stored.positions)
    low, high = table.column_labels[0], table.column_labels[-1]
    assert [table.median(r, low) for r in ("2-3", "4-5", "6-7")] == [45, 256, 724]
    assert [table.median(r, high) for r in ("2-3", "4-5", "6-7")] == [11, 32, 91]
    assert table.count("6-7", low) == 8 and table.count("tempting move draws", high) == 656
    # hard = deep refutation and small margin together: in every row a large margin settles
    # sooner than a small one (the middle column need not fall between them)
    for row in table.row_labels:
        assert table.median(row, low) > table.median(row, high)
    with pytest.raises(ValueError, match="increasing"):
        ca.difficulty_table(stored, margin_edges=(0.15, 0.05))


def test_difficulty_median_is_the_lower_median():
    atlas = ca.ConvergenceAtlas(1.0, 1, 1, [1, 2, 3, 4], [[".X./.../O..", [0]],
                                                          [".../..X/O..", [3]]], 0.0, 1, "t")
    table = ca.difficulty_table(atlas)
    assert table.count("tempting move draws", table.column_labels[0]) == 2
    assert table.median("tempting move draws", table.column_labels[0]) == 1  # not 2.5


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
    assert "copies" not in text and "\u2014" in text  # drawn positions have no forced win
    classes = ca.hardest_classes(stored, 10)
    text = atlas_summary(histogram, classes)
    assert "copies" in text and "724-1,448" in text
    fig = draw_hardest_positions(classes)
    assert "symmetry classes" in fig._suptitle.get_text()
    assert "settle 724\u20131,448 (8 copies)" in fig.axes[0].get_title()
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
