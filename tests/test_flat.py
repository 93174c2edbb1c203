"""Flat Monte Carlo (mctslib.search.flat): playouts, the search, choice chances, traps. Chapter 1."""

import math
from dataclasses import dataclass

import numpy as np
import pytest

from mctslib.games import GameState, TicTacToe
from mctslib.rng import make_rng
from mctslib.search.flat import (
    FlatMCResult,
    choice_probabilities,
    find_traps,
    flat_monte_carlo,
    move_table,
    random_playout,
)
from mctslib.search.minimax import (
    minimax_value,
    move_values,
    random_playout_move_values,
    random_playout_outcomes,
)

TRAP = TicTacToe.from_string("..O/X../.X.")  # O to move; solved by hand in test_minimax


@dataclass(frozen=True)
class OneShot(GameState):
    """Player 0 picks a letter and the game ends: ``winners[letter]`` wins (None: draw)."""

    winners: tuple  # ((letter, winner), ...) in move order
    chosen: str = ""

    @property
    def player_to_move(self):
        return 0 if not self.chosen else 1

    def legal_moves(self):
        return () if self.chosen else tuple(letter for letter, _ in self.winners)

    def play(self, move):
        if move not in self.legal_moves():
            raise self.illegal_move_error(move)
        return OneShot(self.winners, move)

    def is_terminal(self):
        return bool(self.chosen)

    def winner(self):
        return dict(self.winners)[self.chosen] if self.chosen else None


# ---------------------------------------------------------------- playouts


def test_a_playout_ends_the_game_and_is_reproducible():
    finals = [random_playout(TicTacToe(), make_rng(seed)) for seed in range(20)]
    assert all(final.is_terminal() for final in finals)
    assert finals == [random_playout(TicTacToe(), make_rng(seed)) for seed in range(20)]
    assert len(set(finals)) > 10  # different seeds, different games


def test_a_playout_from_a_finished_game_returns_it_unchanged():
    done = TicTacToe.from_string("XXX/OO./...")
    assert random_playout(done, make_rng(0)) is done


def test_a_playout_with_one_free_cell_has_one_outcome():
    last = TicTacToe.from_string("XOX/XOO/OX.")
    assert random_playout(last, make_rng(5)) == TicTacToe.from_string("XOX/XOO/OXX")


def test_playout_results_follow_the_exact_chances():
    # O to move, two free cells: O wins half the playouts and draws the rest.
    position = TicTacToe.from_string("OX./XOX/XO.")
    rng = make_rng(11)
    results = [random_playout(position, rng).result(1) for _ in range(4000)]
    share_won = results.count(1.0) / len(results)
    assert set(results) == {1.0, 0.5}
    assert abs(share_won - 0.5) < 4 * math.sqrt(0.25 / 4000)


# -------------------------------------------------------- flat Monte Carlo


def test_flat_monte_carlo_is_reproducible_and_seed_dependent():
    first = flat_monte_carlo(TRAP, 50, seed=3)
    again = flat_monte_carlo(TRAP, 50, seed=3)
    other = flat_monte_carlo(TRAP, 50, seed=4)
    assert np.array_equal(first.results, again.results)
    assert first.best_move == again.best_move
    assert not np.array_equal(first.results, other.results)


def test_flat_monte_carlo_result_fields_agree():
    run = flat_monte_carlo(TRAP, 40, seed=8)
    assert run.moves == TRAP.legal_moves() == (0, 1, 4, 5, 6, 8)
    assert run.playouts_per_move == 40
    assert run.results.shape == (6, 40)
    assert set(np.unique(run.results)) <= {0.0, 0.5, 1.0}
    assert run.means == pytest.approx(tuple(run.results.mean(axis=1)))
    assert run.best_move == run.moves[int(np.argmax(run.means))]
    assert run.mean_of(4) == run.means[2]
    with pytest.raises(ValueError):
        run.results[0, 0] = 1.0  # the record is read-only


def test_a_longer_run_extends_a_shorter_one_with_the_same_seed():
    short = flat_monte_carlo(TicTacToe(), 7, seed=21)
    long = flat_monte_carlo(TicTacToe(), 30, seed=21)
    assert np.array_equal(long.results[:, :7], short.results)
    head = long.prefix(7)
    assert np.array_equal(head.results, short.results)
    assert (head.means, head.best_move, head.playouts_per_move) == (
        short.means, short.best_move, 7)
    with pytest.raises(ValueError, match="between 1 and 30"):
        long.prefix(31)


def test_ties_go_to_the_first_move_in_order():
    all_draws = OneShot((("a", None), ("b", None), ("c", None)))
    assert flat_monte_carlo(all_draws, 5, seed=0).best_move == "a"
    two_wins = OneShot((("a", 1), ("b", 0), ("c", 0)))
    run = flat_monte_carlo(two_wins, 5, seed=0)
    assert run.means == (0.0, 1.0, 1.0)
    assert run.best_move == "b"


def test_results_are_scored_for_the_player_to_move():
    # O to move: O's immediate win at 8 must score 1 for O.
    position = TicTacToe.from_string("OX./XOX/XO.")
    run = flat_monte_carlo(position, 20, seed=1)
    assert run.mean_of(8) == 1.0
    assert run.mean_of(2) == 0.5


def test_flat_monte_carlo_converges_to_the_exact_random_playout_values():
    run = flat_monte_carlo(TRAP, 3000, seed=2026)
    exact = random_playout_move_values(TRAP)
    errors = run.standard_errors()
    for move, error in zip(run.moves, errors):
        assert abs(run.mean_of(move) - exact[move]) < 4 * error
    assert max(errors) < 0.5 / math.sqrt(3000) * 1.01  # a result in [0, 1] has sd <= 0.5


def test_intervals_and_clearly_worse_moves():
    results = np.array([[1.0, 1.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.5], [1.0, 0.0, 1.0, 1.0]])
    record = FlatMCResult(("a", "b", "c"), 4, results, (0.75, 0.125, 0.75), "a")
    # Standard error of a: sample sd of (1, 1, 0, 1) is 0.5, so 0.5 / 2 = 0.25.
    assert record.standard_errors()[0] == pytest.approx(0.25)
    low, high = record.intervals(z=1.0)
    assert (low[0], high[0]) == pytest.approx((0.5, 1.0))
    # b: sd 0.25, se 0.125, interval [0, 0.25] lies below a's [0.5, 1.0]; c ties a.
    assert record.clearly_worse(z=1.0) == ("b",)
    assert record.clearly_worse(z=4.0) == ()  # wide intervals overlap


def test_one_playout_per_move_has_no_standard_error():
    run = flat_monte_carlo(TRAP, 1, seed=0)
    assert np.isnan(run.standard_errors()).all()


def test_move_table_marks_the_choice_and_shows_the_verdicts():
    run = flat_monte_carlo(TRAP, 30, seed=4)
    table = move_table(run, random_playout_move_values(TRAP), move_values(TRAP))
    lines = table.splitlines()
    assert len(lines) == 1 + len(run.moves)
    chosen = [line for line in lines if "<-" in line]
    assert len(chosen) == 1 and chosen[0].split()[0] == str(run.best_move)
    assert "0.633" in lines[3] and "loss" in lines[3]  # move 4
    assert "win" in lines[1]  # move 0


@pytest.mark.parametrize("playouts", [0, -3, 2.5, True, "10"])
def test_bad_budgets_are_refused_with_a_sentence(playouts):
    with pytest.raises(ValueError, match="playouts_per_move must be a whole number >= 1"):
        flat_monte_carlo(TRAP, playouts, seed=0)


def test_a_finished_game_and_a_bad_seed_are_refused():
    with pytest.raises(ValueError, match="still on"):
        flat_monte_carlo(TicTacToe.from_string("XXX/OO./..."), 10, seed=0)
    with pytest.raises(ValueError, match="seed"):
        flat_monte_carlo(TRAP, 10, seed=-1)


# ------------------------------------------------------- choice chances


def test_choice_chances_for_one_playout_by_hand():
    # Move a wins with chance 0.6, b with 0.3 (no draws), one playout each.
    # a is chosen if it wins, or if both lose (tie, a is first):
    # 0.6 + 0.4 * 0.7 = 0.88.
    chances = choice_probabilities([(0.6, 0.0, 0.4), (0.3, 0.0, 0.7)], 1)
    assert chances == pytest.approx([0.88, 0.12])


def test_choice_chances_with_draws_by_hand():
    # a always draws (1 half point per playout); b wins or loses, 50:50.
    # One playout: a is chosen unless b wins: 0.5. Two playouts: a has 2 half
    # points; b has 0, 2 or 4 with chances 1/4, 1/2, 1/4; a is chosen unless b has 4.
    # With the coin first, the tie at 2 goes to it: chosen unless it has 0.
    draw, coin = (0.0, 1.0, 0.0), (0.5, 0.0, 0.5)
    assert choice_probabilities([draw, coin], 1) == pytest.approx([0.5, 0.5])
    assert choice_probabilities([draw, coin], 2) == pytest.approx([0.75, 0.25])
    assert choice_probabilities([coin, draw], 2) == pytest.approx([0.75, 0.25])


def test_choice_chances_match_repeated_runs_of_flat_monte_carlo():
    outcomes = [random_playout_outcomes(TRAP.play(m), TRAP.player_to_move) for m in TRAP.legal_moves()]
    chances = choice_probabilities(outcomes, 5)
    assert chances.sum() == pytest.approx(1.0)
    runs = 400
    rng = make_rng(99)
    picks = [flat_monte_carlo(TRAP, 5, seed=rng).best_move for _ in range(runs)]
    for move, chance in zip(TRAP.legal_moves(), chances):
        observed = picks.count(move) / runs
        assert abs(observed - chance) < 4 * math.sqrt(chance * (1 - chance) / runs) + 1e-9


def test_more_playouts_make_the_trap_move_more_likely():
    outcomes = [random_playout_outcomes(TRAP.play(m), TRAP.player_to_move) for m in TRAP.legal_moves()]
    trap_index = TRAP.legal_moves().index(4)
    chances = [choice_probabilities(outcomes, n)[trap_index] for n in (10, 100, 1000, 10000)]
    assert chances == sorted(chances)
    assert chances[-1] > 0.999


def test_choice_chances_refuse_bad_input():
    with pytest.raises(ValueError, match="playouts_per_move"):
        choice_probabilities([(1.0, 0.0, 0.0)], 0)
    with pytest.raises(ValueError, match="summing to 1"):
        choice_probabilities([(0.5, 0.0, 0.0)], 3)
    with pytest.raises(ValueError, match="summing to 1"):
        choice_probabilities([], 3)
    with pytest.raises(ValueError, match="outcome chance"):
        choice_probabilities([(1.5, 0.0, -0.5)], 3)


# --------------------------------------------------------------- traps


def test_every_trap_found_satisfies_the_definition():
    traps = find_traps(TicTacToe())
    assert traps, "tic-tac-toe has traps for flat Monte Carlo"
    for trap in traps:
        state, mover = trap.state, trap.state.player_to_move
        random_values = random_playout_move_values(state)
        exact = move_values(state)
        # 1. flat Monte Carlo's limit choice (first of the highest values) ...
        assert trap.trap_move == max(random_values, key=random_values.get)
        # ... loses by force,
        assert exact[trap.trap_move] == 0.0
        # 2. to exactly one reply,
        after = state.play(trap.trap_move)
        winning_replies = [
            reply for reply in after.legal_moves()
            if minimax_value(after.play(reply), 1 - mover) == 1.0
        ]
        assert winning_replies == [trap.refutation]
        # 3. while another move at least draws.
        assert trap.best_value == max(exact.values()) >= 0.5
        assert trap.best_moves == tuple(m for m, v in exact.items() if v == trap.best_value)
        assert trap.margin == pytest.approx(
            random_values[trap.trap_move] - max(random_values[m] for m in trap.best_moves)
        )
        assert trap.margin >= 0


def test_traps_are_sorted_most_instructive_first():
    traps = find_traps(TicTacToe())
    keys = [(-trap.best_value, -trap.margin) for trap in traps]
    assert keys == sorted(keys)


def test_the_first_trap_is_the_position_solved_by_hand():
    # Four mirror images share the top key; the first found by the depth-first
    # walk is TRAP reflected in the main diagonal (cell 3 <-> 1, 7 <-> 5, 2 <-> 6).
    first = find_traps(TicTacToe())[0]
    assert first.state == TicTacToe.from_string(".X./..X/O..")
    assert (first.trap_move, first.refutation, first.best_moves) == (4, 2, (0, 8))
    assert first.best_value == 1.0
    assert first.margin > 0


def test_a_game_without_traps_gives_an_empty_list():
    assert find_traps(OneShot((("a", 0), ("b", None)))) == []
