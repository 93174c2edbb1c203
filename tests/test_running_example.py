"""Chapter 1's trap through chapter 4: anytime numba kernels, their readable twins, stored data."""

from __future__ import annotations

import dataclasses
import itertools

import matplotlib
import numpy as np
import pytest

from mctslib.experiments.uct import running_example as rx
from mctslib.fast.tictactoe_anytime import flat_mc_answers, seed_states, uct_answers
from mctslib.fast.tictactoe_uct import FastTicTacToeUCT
from mctslib.games.tictactoe import TicTacToe
from mctslib.search.flat import flat_monte_carlo
from mctslib.search.uct import UCTSearch
from mctslib.xorshift import XorShift64

matplotlib.use("Agg")

TRAP = TicTacToe.from_string(".X./..X/O..")
OTHER = TicTacToe.from_string("X../.O./..X")  # X to move, 6 legal moves, a different tree
SEEDS = rx.derive_seeds(99, 4)


def test_trap_is_chapter_one_position():
    assert rx.trap_position() == TRAP
    assert rx.board_text(TRAP) == ".X./..X/O.."


@pytest.mark.parametrize("state", [TRAP, OTHER])
@pytest.mark.parametrize("depth", [None, 1])
def test_uct_kernel_equals_readable_search(state, depth):
    budgets = [1, 5, 6, 7, 40, 300]
    fast = uct_answers(state.x, state.o, 1.0, budgets, SEEDS, max_depth=depth)
    for i, seed in enumerate(SEEDS):
        for k, budget in enumerate(budgets):
            readable = UCTSearch(1.0, budget, seed=XorShift64(seed), max_depth=depth).choose(state)
            assert fast[i, k] == readable, (seed, budget, depth)


def test_uct_kernel_equals_harness_kernel_and_other_c():
    budgets = [50, 2000]
    fast = uct_answers(TRAP.x, TRAP.o, 0.5, budgets, SEEDS)
    for i, seed in enumerate(SEEDS):
        assert fast[i, 1] == FastTicTacToeUCT(2000, 0.5, seed).choose(TRAP.x, TRAP.o)
        assert fast[i, 0] == UCTSearch(0.5, 50, seed=XorShift64(seed)).choose(TRAP)


def test_anytime_equals_fresh_runs():
    budgets = [3, 17, 250]
    together = uct_answers(TRAP.x, TRAP.o, 1.0, budgets, SEEDS)
    alone = np.column_stack([uct_answers(TRAP.x, TRAP.o, 1.0, [b], SEEDS)[:, 0] for b in budgets])
    assert np.array_equal(together, alone)
    rounds = [1, 4, 30]
    together = flat_mc_answers(TRAP.x, TRAP.o, rounds, SEEDS)
    alone = np.column_stack([flat_mc_answers(TRAP.x, TRAP.o, [r], SEEDS)[:, 0] for r in rounds])
    assert np.array_equal(together, alone)


@pytest.mark.parametrize("state", [TRAP, OTHER])
def test_flat_mc_kernel_equals_readable_twin(state):
    rounds = [1, 2, 9, 60]
    fast = flat_mc_answers(state.x, state.o, rounds, SEEDS)
    for i, seed in enumerate(SEEDS):
        for k, r in enumerate(rounds):
            assert fast[i, k] == rx.flat_monte_carlo_choice(state, r, XorShift64(seed))
            moves = len(state.legal_moves())
            assert fast[i, k] == rx.readable_answer("flat_mc", state, r * moves + 1, seed)


@pytest.mark.parametrize("seed", [0, 5, 2026])
@pytest.mark.parametrize("playouts", [1, 4, 25])
def test_readable_twin_equals_flat_monte_carlo_on_numpy(seed, playouts):
    # Same algorithm as chapter 1's flat_monte_carlo: only the stream differs in the experiment.
    assert rx.flat_monte_carlo_choice(TRAP, playouts, seed) == \
        flat_monte_carlo(TRAP, playouts, seed).best_move


def test_readable_answer_for_each_method():
    seed = SEEDS[0]
    assert rx.readable_answer("uct", TRAP, 30, seed) == \
        UCTSearch(1.0, 30, seed=XorShift64(seed)).choose(TRAP)
    assert rx.readable_answer("flat_ucb", TRAP, 30, seed) == \
        UCTSearch(1.0, 30, seed=XorShift64(seed), max_depth=1).choose(TRAP)
    assert rx.readable_answer("flat_mc", TRAP, 30, seed) == \
        rx.flat_monte_carlo_choice(TRAP, 5, XorShift64(seed))


def test_derived_seeds_are_distinct_streams_and_fixed():
    seeds = rx.derive_seeds(2026, 2000)
    assert len({XorShift64(s).state for s in seeds}) == 2000
    assert seeds[:2] == rx.derive_seeds(2026, 2)
    assert seeds[0] == 15824617304438902051  # SplitMix64 from 2026: the stored runs depend on it


def test_budget_ladder():
    ladder = rx.budget_ladder(6, 19_998, 30)
    assert ladder[0] == 6 and ladder[-1] == 19_998
    assert all(b % 6 == 0 for b in ladder)
    assert all(a < b for a, b in itertools.pairwise(ladder))


def test_small_run_is_consistent_and_does_not_depend_on_workers():
    one = rx.run_running_example(40, budgets=[6, 60, 600], workers=1)
    two = rx.run_running_example(40, budgets=[6, 60, 600], workers=2)
    assert one.answers == two.answers and one.correct == two.correct
    assert one.correct_moves == [0, 8]
    assert one.flat_mc_playouts_per_move == [1, 10, 100]
    assert rx.check_running_example(one, 10, budgets=[6, 600], readable=True).ok


# ------------------------------------------------------------------------- stored data


@pytest.fixture(scope="module")
def stored():
    return rx.load_running_example()


def test_stored_parameters_and_shape(stored):
    assert stored.position == ".X./..X/O.." and stored.player_to_move == "O"
    assert stored.moves == [0, 2, 3, 4, 7, 8] and stored.correct_moves == [0, 8]
    assert stored.minimax_values == {"0": 1.0, "2": 0.0, "3": 0.0, "4": 0.0, "7": 0.0, "8": 1.0}
    assert stored.seed_count >= 1000
    assert stored.exploration == 1.0
    assert stored.budgets == rx.budget_ladder(6, rx.LARGEST_BUDGET, rx.BUDGET_POINTS)
    assert stored.budgets[0] <= 9 and stored.budgets[-1] >= 19_000
    assert stored.flat_mc_playouts_per_move == [b // 6 for b in stored.budgets]
    assert sorted(stored.answers) == sorted(rx.METHODS)
    for method in rx.METHODS:
        assert len(stored.answers[method]) == len(stored.budgets)
        assert all(len(text) == stored.seed_count for text in stored.answers[method])
        assert all(set(text) <= set("023478") for text in stored.answers[method])


def test_stored_story(stored):
    # What the chapter says: UCT converges to a winning move, flat MC and flat UCB to the trap.
    last = stored.budgets[-1]
    assert stored.probability_at("uct", last)[0] == 1.0
    assert stored.probability_at("flat_mc", last)[0] < 0.05
    assert stored.probability_at("flat_ucb", last)[0] < 0.05
    counts = stored.choice_counts("flat_mc", last)
    assert max(counts, key=counts.get) == 4  # the trap move


def test_stored_check_passes_and_detects_a_planted_change(stored):
    assert stored.seeds() == rx.derive_seeds(stored.root_seed, stored.seed_count)
    check = rx.check_running_example(stored)
    assert check.ok, check.summary()
    assert check.compared == 3 * 3 * 50
    budget = stored.budgets[0]
    text = stored.answers["uct"][0]
    planted = text[:7] + ("8" if text[7] != "8" else "0") + text[8:]
    answers = {**stored.answers, "uct": [planted] + stored.answers["uct"][1:]}
    changed = dataclasses.replace(stored, answers=answers)
    check = rx.check_running_example(changed, 10, budgets=[budget])
    assert not check.ok and "seed #7" in check.mismatches[0]
    assert len(check.mismatches) == 1


def test_loader_detects_counts_that_disagree_with_answers(stored, tmp_path):
    correct = {**stored.correct, "uct": [stored.correct["uct"][0] + 1] + stored.correct["uct"][1:]}
    path = tmp_path / "bad.json"
    path.write_text(dataclasses.replace(stored, correct=correct).to_json())
    with pytest.raises(ValueError, match="correct seeds but its answers hold"):
        rx.load_running_example(path)
    with pytest.raises(ValueError, match="cannot read"):
        rx.load_running_example(tmp_path / "missing.json")
    (tmp_path / "text.json").write_text("not json")
    with pytest.raises(ValueError, match="is not JSON"):
        rx.load_running_example(tmp_path / "text.json")


def test_views_draw_and_summarise(stored):
    from mctslib.views.convergence import plot_probability_correct, running_example_summary

    fig = plot_probability_correct(stored)
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and "budget" in ax.get_xlabel()
    assert len(ax.lines) == 4  # three searches and the random-move level
    text = running_example_summary(stored, [stored.budgets[0], stored.budgets[-1]])
    p, low, high = stored.probability_at("uct", stored.budgets[-1])
    assert f"{p:.3f} [{low:.3f}, {high:.3f}]" in text
    with pytest.raises(ValueError, match="one of the stored budgets"):
        running_example_summary(stored, [7])
    with pytest.raises(ValueError, match="must be a RunningExample"):
        plot_probability_correct({"budgets": []})


# ------------------------------------------------------------------------- input checks


@pytest.mark.parametrize(("call", "words"), [
    (lambda: uct_answers(TRAP.x, TRAP.o, 1.0, [5, 5], [1]), "strictly increasing"),
    (lambda: uct_answers(TRAP.x, TRAP.o, 1.0, [0, 5], [1]), "from 1 to"),
    (lambda: uct_answers(TRAP.x, TRAP.o, 1.0, "10", [1]), "sequence of whole numbers"),
    (lambda: uct_answers(TRAP.x, TRAP.o, -1.0, [5], [1]), "exploration"),
    (lambda: uct_answers(TRAP.x, TRAP.o, 1.0, [5], []), "from 1 to"),
    (lambda: uct_answers(TRAP.x, TRAP.o, 1.0, [5], [-3]), "seed"),
    (lambda: uct_answers(0b111, 0b11000, 1.0, [5], [1]), "finished"),
    (lambda: uct_answers(1, 1, 1.0, [5], [1]), "both mark"),
    (lambda: flat_mc_answers(TRAP.x, TRAP.o, [3, 2], [1]), "strictly increasing"),
    (lambda: seed_states(5), "sequence of whole numbers"),
    (lambda: rx.run_running_example(0), "seeds must be a whole number"),
    (lambda: rx.run_running_example(5, budgets=[6, 9]), "increase by at least 6"),
    (lambda: rx.run_running_example(5, budgets=[3]), "each budget"),
    (lambda: rx.run_running_example(5, methods=["mcts"]), "each method"),
    (lambda: rx.run_running_example(5, state=TicTacToe.from_string("XXX/OO./...")), "still on"),
    (lambda: rx.readable_answer("flat_mc", TRAP, 5, 1), "at least the number of legal moves"),
    (lambda: rx.readable_answer("minimax", TRAP, 5, 1), "method"),
    (lambda: rx.derive_seeds(-1, 3), "root_seed"),
    (lambda: rx.check_running_example("data"), "must be a RunningExample"),
])
def test_bad_input_answers_with_a_sentence(call, words):
    with pytest.raises(ValueError, match=words):
        call()
