"""Hostile input to the games, the learners and the root helpers: a sentence, never a traceback.

Part of the issue "Hostile input: every command and public function answers with a sentence,
never a traceback, a hang or a silent wrong result". Each test names what a bad argument used
to do (an IndexError, a ZeroDivisionError, a hang, a NaN, a wrong answer accepted in silence)
and checks the ValueError with a sentence that replaced it: the sentence names the parameter,
the value and what is allowed. A non-callable callback is a TypeError (Python's own answer to
calling what cannot be called), raised before any work is done.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from mctslib import (
    UCB1,
    BanditArms,
    EpsilonGreedy,
    Goofspiel,
    Greedy,
    MatrixGame,
    RegretMatchingPlayer,
    SubtractionGame,
    SumToFifteen,
    TicTacToe,
    UCB1Player,
    UltimateTicTacToe,
    XorShift64,
    games_for_width,
    run_experiment,
    score_interval,
    spawn_rngs,
    ucb1_bonus,
    ucb1_score,
    ucb1_step,
    weighted_rock_paper_scissors,
)
from mctslib.experiments.simultaneous.one_node import run_one_node
from mctslib.games.goofspiel import Goofspiel as GoofspielState
from mctslib.games.matrix_games import check_strategy, uniform_strategy
from mctslib.games.simultaneous_base import SimultaneousState, check_player
from mctslib.games.subtraction import winning_take
from mctslib.games.sum15 import numbers_of
from mctslib.games.tictactoe import has_line
from mctslib.learners import simultaneous as one_node
from mctslib.learners.bandits import checkpoints, ucb1_scores
from mctslib.play.sprt import SPRT, sprt
from mctslib.rng import GeneratorSource, make_rng
from mctslib.search.minimax import reachable_states
from mctslib.search.zero_sum import exploitability, solve_zero_sum

GAME = weighted_rock_paper_scissors()
ARMS = BanditArms([0.3, 0.6])
FINISHED = TicTacToe.from_string("XXX/OO./...")


def refused(call, *words: str) -> str:
    """Run ``call``, expect a ValueError whose sentence holds every one of ``words``."""
    with pytest.raises(ValueError) as error:
        call()
    message = str(error.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    assert message.endswith((".", ")")), f"not a sentence: {message!r}"
    return message


def after_choose(kind, uniform=0.5):
    """A 3-move player of ``kind`` in the middle of a round (choose done, update not yet)."""
    player = kind(3)
    return player, player.choose(uniform)


# --------------------------------------------------------------------------- 1. games_for_width


@pytest.mark.parametrize("width", [1e-200, 1e-160, 1e-8])
def test_a_width_too_small_for_any_countable_match_is_a_sentence(width):
    # Was ZeroDivisionError (1e-200: width ** 2 underflows) or OverflowError (1e-160).
    refused(lambda: games_for_width(width), "width must be large enough", "2**53", repr(width))


def test_games_for_width_still_answers_down_to_a_count_a_float_holds():
    assert games_for_width(0.1) == 385
    assert games_for_width(1e-7) == 384_145_882_069_413


@pytest.mark.parametrize("score", [0.0, 1.0])
def test_a_score_of_0_or_1_no_longer_needs_no_game(score):
    # Was 0 games: the normal approximation has no spread there.
    refused(lambda: games_for_width(0.1, score=score), "score must be strictly between 0 and 1")


# --------------------------------------------------------------------------- 2. one-node players


@pytest.mark.parametrize("kind", [UCB1Player, RegretMatchingPlayer])
@pytest.mark.parametrize("uniform", [1.0, -0.1, math.nan, math.inf, "0.5", True, None, [0.5]])
def test_choose_refuses_a_uniform_outside_0_1(kind, uniform):
    # UCB1Player.choose(1.0) was an IndexError; regret matching took the last move.
    refused(lambda: kind(2).choose(uniform), "uniform must be a number in [0, 1")


@pytest.mark.parametrize("kind", [UCB1Player, RegretMatchingPlayer])
def test_update_before_choose_says_choose_comes_first(kind):
    # UCB1Player(2).update(5, 1.0) was an IndexError; regret matching left NaN regrets.
    player = kind(2)
    refused(lambda: player.update(0, 1.0), "update() must follow choose()")
    assert not any(math.isnan(value) for value in getattr(player, "regrets", []))


@pytest.mark.parametrize("kind", [UCB1Player, RegretMatchingPlayer])
@pytest.mark.parametrize("move", [0, 2, 5, -1, 1.0, True, "1", None])
def test_update_must_name_the_move_choose_returned(kind, move):
    # An out-of-range move was an IndexError (UCB1) or accepted (regret matching), and
    # another legal move was credited with the chosen move's probability.
    player, chosen = after_choose(kind)
    assert chosen == 1
    refused(lambda: player.update(move, 1.0), "move must be the move choose() just returned (1)")


@pytest.mark.parametrize("kind", [UCB1Player, RegretMatchingPlayer])
@pytest.mark.parametrize("reward", [1.5, -0.1, math.nan, math.inf, "1", True, None])
def test_update_refuses_a_reward_outside_0_1_and_the_round_can_still_finish(kind, reward):
    player, chosen = after_choose(kind)
    refused(lambda: player.update(chosen, reward), "reward must be a number in [0, 1]")
    player.update(chosen, 1.0)  # the refused update changed nothing
    refused(lambda: player.update(chosen, 1.0), "update() must follow choose()")


def test_a_refused_update_leaves_regret_matching_exactly_as_a_clean_round_does():
    clean, chosen = after_choose(RegretMatchingPlayer, 0.0)
    clean.update(chosen, 0.6)
    tried, chosen = after_choose(RegretMatchingPlayer, 0.0)
    for bad in (7, math.nan):
        with pytest.raises(ValueError):
            tried.update(bad, 0.6) if bad == 7 else tried.update(chosen, bad)
    tried.update(chosen, 0.6)
    assert tried.regrets == clean.regrets and tried.counts == clean.counts


# --------------------------------------------------------------------------- 3. spawn_rngs


@pytest.mark.parametrize("count", [-1, 2.0, "3", True, None, 10**9])
def test_spawn_rngs_refuses_a_bad_count(count):
    # -1 was an OverflowError from numpy; 10**9 generators would not fit in memory.
    refused(lambda: spawn_rngs(0, count), "count must be a whole number from 0 to 100,000")


def test_spawn_rngs_of_zero_streams_is_an_empty_list():
    assert spawn_rngs(0, 0) == []


# --------------------------------------------------------------------------- 4. the band


@pytest.mark.parametrize(("band", "words"), [
    ((50,), "band must be a pair (low, high)"),          # was IndexError
    ((90, 10), "band must be (low, high) with low <= high"),  # was accepted
    (50, "band must be a pair"),
    ("1090", "band must be a pair"),
    ((10, 50, 90), "band must be a pair"),
    ((None, 90), "band[0] must be a number in [0, 100]"),
    ((10, 101), "band[1] must be a number in [0, 100]"),
])
def test_run_experiment_refuses_a_bad_band(band, words):
    refused(lambda: run_experiment(ARMS, [Greedy()], runs=2, pulls=5, band=band), words)


# --------------------------------------------------------------------------- 5. UCB1's domain


@pytest.mark.parametrize(("call", "words"), [
    (lambda: ucb1_bonus(0, 1), "parent_visits must be at least 1"),  # was "math domain error"
    (lambda: ucb1_bonus(3, 5), "parent_visits must be at least visits (5)"),
    (lambda: ucb1_bonus(10, 1, c=-5), "c (the exploration constant) must be a number in [0, inf)"),
    (lambda: ucb1_bonus(10, 1, c=math.nan), "c (the exploration constant)"),
    (lambda: ucb1_bonus(2**60, 1), "parent_visits must be a whole number from 0 to"),
    (lambda: ucb1_bonus(10, -1), "visits must be a whole number from 0 to"),
    (lambda: ucb1_bonus(10.0, 1), "parent_visits must be a whole number"),
    (lambda: ucb1_score(5.0, 3, 10), "wins must be a number in [0, 3]"),
    (lambda: ucb1_score(-1.0, 3, 10), "wins must be a number in [0, 3]"),
    (lambda: ucb1_score(1.0, 0, 10), "wins must be a number in [0, 0]"),
    (lambda: ucb1_step([("A", 1, 10**400)]), "visits of child A"),  # was OverflowError
    (lambda: ucb1_step([("A", 0, 2**53), ("B", 0, 1)]), "add up to at most 2**53"),
])
def test_ucb1_functions_refuse_arguments_outside_their_domain(call, words):
    refused(call, words)


def test_ucb1_keeps_its_answers_inside_the_domain():
    assert ucb1_bonus(10, 0) == ucb1_bonus(0, 0) == math.inf  # unvisited: no log is taken
    assert ucb1_score(0, 0, 0) == math.inf
    assert ucb1_bonus(1, 1) == 0.0  # ln 1 = 0
    assert ucb1_bonus(10, 3, c=0.0) == 0.0
    assert ucb1_score(1, 3, 10) == pytest.approx(1 / 3 + math.sqrt(2 * math.log(10) / 3))


@pytest.mark.parametrize(("children", "words"), [
    (None, "children must be a list of (name, wins, visits) entries"),  # was TypeError
    ("ABC", "children must be a list"),
    ([("A", 1)], "children[0] must be a (name, wins, visits) entry"),  # was "not enough values"
    ([5], "children[0] must be a (name, wins, visits) entry"),  # was TypeError
    ([("A", 1, 2), "B12"], "children[1] must be a (name, wins, visits) entry"),
])
def test_ucb1_step_refuses_children_that_are_not_triples(children, words):
    refused(lambda: ucb1_step(children), words)


@pytest.mark.parametrize("digits", [-1, 1.5, "3", True, 10**6])
def test_ucb1_step_format_refuses_a_bad_number_of_digits(digits):
    # -1 and "3" were format errors, 1.5 a TypeError from format, 10**6 a wall of zeros.
    refused(lambda: ucb1_step([("A", 1, 2)]).format(digits), "digits must be a whole number")


# --------------------------------------------------------------------------- 6. the SPRT


@pytest.mark.parametrize(("p0", "p1"), [(1e-320, 0.5), (5e-324, 1e-300)])
def test_sprt_refuses_probabilities_whose_log_ratio_is_not_finite(p0, p1):
    # sprt("LWLW", p0=1e-320, p1=0.5).llr was (nan, inf).
    refused(lambda: sprt("LWLW", p0=p0, p1=p1), "p0 and p1 must be far enough apart",
            "finite and non-zero")


def test_sprt_with_a_tiny_but_safe_p0_stays_finite():
    llr = sprt("LWLW", p0=1e-300, p1=0.5).llr
    assert all(math.isfinite(value) for value in llr)


@pytest.mark.parametrize(("results", "words"), [
    (None, "results must be a sequence of game results"),  # was TypeError
    (5, "results must be a sequence of game results"),
    (b"WW", "results must be a sequence"),  # bytes iterate as numbers
    (np.array(0.5), "results must be a sequence"),  # was "iteration over a 0-d array"
    ([[1]], "each game's result must be 1, 0.5 or 0"),  # was "unhashable type: 'list'"
    ([True], "each game's result must be 1, 0.5 or 0"),  # was counted as a win
    ([10**400], "each game's result must be 1, 0.5 or 0"),
])
def test_sprt_refuses_results_that_are_not_games(results, words):
    refused(lambda: sprt(results), words)


@pytest.mark.parametrize(("wins", "losses"), [(10**400, 0), (-1, 2), (1.5, 0), ("3", 1)])
def test_llr_refuses_counts_that_are_not_whole_numbers_in_range(wins, losses):
    # 10**400 was an OverflowError, "3" a repeated string times a float.
    refused(lambda: SPRT().llr(wins, losses), "must be a whole number from 0 to")


# --------------------------------------------------------------------------- 7. the games


def test_subtraction_blames_the_move_not_the_stones():
    message = refused(lambda: SubtractionGame(5).play(1.0), "move 1.0 is illegal",
                      "legal moves are: 1, 2, 3")
    assert "stones" not in message


def test_subtraction_accepts_a_numpy_integer_move():
    assert SubtractionGame(5).play(np.int64(2)) == SubtractionGame(3, 1)


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"mover": True}, "mover must be 0 or 1"),  # was accepted, then 1 - True = 0
    ({"mover": 1.0}, "mover must be 0 or 1"),  # was accepted: the next mover was 0.0
    ({"max_take": 10**9}, "max_take must be a whole number from 1 to 1,000"),  # a hang
])
def test_subtraction_refuses_a_bad_mover_or_max_take(kwargs, words):
    refused(lambda: SubtractionGame(10**9, **kwargs).legal_moves(), words)


@pytest.mark.parametrize(("args", "words"), [
    ((5, -1), "max_take must be a whole number from 1"),  # was ZeroDivisionError
    (("5", 3), "stones must be a whole number"),  # was TypeError
    ((5.0, 3), "stones must be a whole number"),
])
def test_winning_take_refuses_bad_arguments(args, words):
    refused(lambda: winning_take(*args), words)


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"x": -1}, "x must be a whole number from 0 to 511"),
    ({"o": 512}, "o must be a whole number from 0 to 511"),
    ({"x": 1.0}, "x must be a whole number"),
    ({"x": True}, "x must be a whole number"),
    ({"x": "1"}, "x must be a whole number"),
    ({"x": 7, "o": 56}, "both X and O have a line"),
    ({"x": 3, "o": 3}, "x and o both mark cell(s) [0, 1]"),
    ({"x": 7}, "got 3 X and 0 O"),
    ({"o": 1}, "got 0 X and 1 O"),
])
def test_tictactoe_refuses_positions_play_cannot_reach(kwargs, words):
    refused(lambda: TicTacToe(**kwargs), words)


@pytest.mark.parametrize(("text", "words"), [
    ("XXX/OO./O..", "X has a line, so X made the last move, yet O moved after it"),
    ("OOO/XX./X.X", "O has a line, so O made the last move, yet X moved after it"),
    ("XXX/OOO/XO.", "both X and O have a line"),
])
def test_from_string_refuses_a_game_played_on_after_its_end(text, words):
    refused(lambda: TicTacToe.from_string(text), repr(text), words)


def test_from_string_refuses_text_that_is_not_a_string():
    refused(lambda: TicTacToe.from_string(None), "text must be a string")  # was AttributeError


def test_tictactoe_accepts_exactly_the_5478_positions_play_reaches():
    reachable = {(state.x, state.o) for state in reachable_states(TicTacToe())}
    accepted = set()
    for cells in itertools.product((0, 1, 2), repeat=9):
        x = sum(1 << i for i, cell in enumerate(cells) if cell == 1)
        o = sum(1 << i for i, cell in enumerate(cells) if cell == 2)
        try:
            accepted.add((TicTacToe(x, o).x, o))
        except ValueError:
            pass
    assert accepted == reachable and len(accepted) == 5478


def test_sum_to_fifteen_accepts_exactly_the_5478_positions_play_reaches():
    reachable = {(state.first, state.second) for state in reachable_states(SumToFifteen())}
    accepted = set()
    for cells in itertools.product((0, 1, 2), repeat=9):
        first = sum(1 << n for n, cell in zip(range(1, 10), cells) if cell == 1)
        second = sum(1 << n for n, cell in zip(range(1, 10), cells) if cell == 2)
        try:
            SumToFifteen(first, second)
            accepted.add((first, second))
        except ValueError:
            pass
    assert accepted == reachable and len(accepted) == 5478


def mask(*numbers: int) -> int:
    return sum(1 << n for n in numbers)


@pytest.mark.parametrize(("args", "words"), [
    ((1,), "first must be a mask of the numbers 1..9"),  # bit 0 is no number
    ((1 << 10,), "first must be a mask of the numbers 1..9"),
    ((0, -2), "second must be a mask"),
    (([math.nan], 4), "first must be a mask"),  # was accepted: a NaN in a position
    ((mask(5), mask(5)), "first and second both hold [5]"),
    ((mask(2, 7, 6), mask(1, 3, 8)), "first has a triple summing to 15, so first made the last"),
    ((mask(2, 7, 6, 1),), "got 4 numbers for first and 0 for second"),
])
def test_sum_to_fifteen_refuses_masks_play_cannot_reach(args, words):
    refused(lambda: SumToFifteen(*args), words)


def test_sum_to_fifteen_refuses_a_float_move_with_a_sentence():
    # Was TypeError: unsupported operand type(s) for <<: 'int' and 'float'.
    refused(lambda: SumToFifteen().play(5.0), "move 5.0 is illegal here")


@pytest.mark.parametrize("mask_value", [-1, 1, "a", 1.0, 1 << 10])
def test_numbers_of_refuses_what_is_not_a_mask(mask_value):
    # -1 listed every number, "a" was a TypeError.
    refused(lambda: numbers_of(mask_value), "mask must be a mask of the numbers 1..9")


@pytest.mark.parametrize("mask_value", [-1, 512, "a", 7.0, None])
def test_has_line_refuses_what_is_not_a_board_mask(mask_value):
    # -1 held "every line", "a" was a TypeError.
    refused(lambda: has_line(mask_value), "mask must be a whole number from 0 to 511")


def finished_uttt() -> UltimateTicTacToe:
    source, state = XorShift64(1), UltimateTicTacToe()
    while not state.is_terminal():
        moves = state.legal_moves()
        state = state.play(moves[source.below(len(moves))])
    return state


@pytest.mark.parametrize("finished", [lambda: FINISHED, finished_uttt, lambda: SubtractionGame(0)])
@pytest.mark.parametrize("player", [7, -1, True, 1.0, "0", None])
def test_result_refuses_a_player_that_is_not_0_or_1(finished, player):
    # TicTacToe(...).result(7) was 0.0: any value but the winner "lost".
    state = finished()
    refused(lambda: state.result(player), "player must be 0 or 1")


def test_result_accepts_numpy_players():
    assert FINISHED.result(np.int64(0)) == 1.0 and FINISHED.result(np.int8(1)) == 0.0


@pytest.mark.parametrize("count", [-5, 0, 2**32 + 1, 1.5, "3", True, None])
def test_xorshift_below_refuses_a_count_it_cannot_serve(count):
    # below(-5) returned 0 (and other negative counts negative numbers); below(0) always 0.
    refused(lambda: XorShift64(1).below(count), "count must be a whole number from 1 to 4,294,967,296")


@pytest.mark.parametrize("count", [0, -3, 2**63, 2.5, "3"])
def test_generator_source_below_refuses_a_count_it_cannot_serve(count):
    # Was numpy's "high <= 0" or "high is out of bounds for int64".
    refused(lambda: GeneratorSource(1).below(count), "count must be a whole number from 1")


@pytest.mark.parametrize("seed", [2**64, 2**64 + 5, -1, 1.0, "7"])
def test_xorshift_refuses_a_seed_beyond_64_bits(seed):
    # 2**64 + 5 was silently the stream of seed 5.
    refused(lambda: XorShift64(seed), "seed must be a whole number from 0 to 18,446,744,073,709,551,615")


def test_xorshift_accepts_numpy_seeds_and_its_full_range():
    assert XorShift64(np.uint64(5)).state == XorShift64(5).state
    assert XorShift64(2**64 - 1).below(2**32) < 2**32


@pytest.mark.parametrize(("round_index", "words"), [
    (1.5, "round_index must be from 0 to 1 (a whole number), got 1.5"),  # returned 0.5
    (True, "round_index must be from 0 to 1"),  # was round 1
    ("a", "round_index must be from 0 to 1"),  # was TypeError
    (2, "round_index must be from 0 to 1"),
])
def test_goofspiel_prize_refuses_a_bad_round(round_index, words):
    refused(lambda: Goofspiel(2).prize(round_index), words)


def test_goofspiel_prize_of_a_finished_game_says_the_game_is_over():
    over = Goofspiel(2).play((1, 2)).play((2, 1))
    refused(lambda: over.prize(), "the game is over, so no prize is up")
    assert over.prize(0) == 2 and over.points() == (1, 2)


@pytest.mark.parametrize("player", [0.0, 1.0, True, np.bool_(False), "0"])
def test_simultaneous_players_are_whole_numbers(player):
    # 0.0 and 1.0 were accepted as players.
    refused(lambda: check_player(player), "player must be 0 or 1")
    refused(lambda: Goofspiel(2).hand(player), "player must be 0 or 1")


class OnePayoffGame(SimultaneousState):
    """A finished game whose payoff range is a single number: nothing to rescale."""

    def legal_actions(self, player):
        return ()

    def play(self, joint_action):
        return self

    def is_terminal(self):
        return True

    def payoff(self):
        return 0.0

    @property
    def payoff_range(self):
        return (0.0, 0.0)


def test_reward_of_a_game_with_one_possible_payoff_is_a_sentence():
    # Was ZeroDivisionError: (payoff - low) / (high - low).
    refused(lambda: OnePayoffGame().reward(0), "payoff_range must be (low, high) with low < high")


def test_tictactoe_accepts_numpy_integer_moves():
    # Was "move np.int64(4) is illegal here; legal moves are: 0, ..., 4, ...".
    assert TicTacToe().play(np.int64(4)) == TicTacToe().play(4)
    assert SumToFifteen().play(np.int8(5)) == SumToFifteen().play(5)


@pytest.mark.parametrize("scoring", [np.array(["points"]), ["points"], None])
def test_goofspiel_and_uttt_scoring_must_be_a_name(scoring):
    # An array holding "points" passed the membership test and then broke hashing.
    refused(lambda: GoofspielState(2, scoring), "scoring must be one of")
    refused(lambda: UltimateTicTacToe(scoring=scoring), "scoring must be one of")


def test_uttt_refuses_an_endless_iterator_of_masks_instead_of_hanging():
    refused(lambda: UltimateTicTacToe(x=itertools.count()), "x must be nine whole numbers 0..511")


@pytest.mark.parametrize("moves", [None, 5, np.array(40)])
def test_uttt_from_moves_refuses_what_is_not_a_list_of_moves(moves):
    # Was TypeError: 'NoneType' object is not iterable.
    refused(lambda: UltimateTicTacToe.from_moves(moves), "moves must be a sequence of whole numbers")


def test_uttt_from_grid_refuses_text_that_is_not_a_string():
    refused(lambda: UltimateTicTacToe.from_grid(["X"] * 81), "text must be a string of 81 cells")


def uttt_masks(**boards):
    """Nine masks with the given boards set, e.g. ``b0=0b111`` (cells of board 0)."""
    return tuple(boards.get(f"b{board}", 0) for board in range(9))


def test_uttt_refuses_a_small_board_won_twice():
    # X's two disjoint lines in board 0 (rows 0 and 2): a won board takes no more moves.
    x = uttt_masks(b0=0b111_000_111, b1=0b000_001_000)
    o = uttt_masks(b1=0b111_000_000, b2=0b000_000_011, b3=1)
    refused(lambda: UltimateTicTacToe(x, o), "board 0 holds lines of X that no single last move")


def test_uttt_refuses_a_game_played_on_after_a_line_of_boards():
    # X won boards 0, 1 and 2 (a line), then O moved again: counts are equal.
    x = uttt_masks(b0=0b111, b1=0b111, b2=0b111)
    o = uttt_masks(b3=0b111, b4=0b011, b5=0b011, b6=0b001, b7=0b001)
    refused(lambda: UltimateTicTacToe(x, o), "X has a line of won boards, so X made the last move")


def test_uttt_still_builds_every_position_a_random_game_reaches():
    source = XorShift64(3)
    for _ in range(20):
        state = UltimateTicTacToe()
        while not state.is_terminal():
            moves = state.legal_moves()
            state = state.play(moves[source.below(len(moves))])
            rebuilt = UltimateTicTacToe(state.x, state.o, state.forced_board, state.scoring)
            assert rebuilt == state and rebuilt.winner() == state.winner()


# --------------------------------------------------------------------------- 8. learner numbers


@pytest.mark.parametrize(("call", "words"), [
    (lambda: UCB1(reward_scale=("0", "1")), "reward_scale[0] (the loss) must be a number"),
    (lambda: UCB1(reward_scale=(False, True)), "reward_scale[0] (the loss) must be a number"),
    (lambda: UCB1(reward_scale="01"), "reward_scale must be a pair (loss, win)"),
    (lambda: UCB1(reward_scale=(-1e308, 1e308)), "reward_scale[0] (the loss)"),  # NaN sums
    (lambda: UCB1(reward_scale=np.array(0.5)), "reward_scale must be a pair"),
    (lambda: UCB1(c="0.5"), "c (the exploration constant) must be a number"),
    (lambda: UCB1(c=True), "c (the exploration constant) must be a number"),
    (lambda: EpsilonGreedy("0.1"), "epsilon must be a number in [0, 1]"),
    (lambda: BanditArms(["0.5"]), "win_probs[0] must be a number in [0, 1]"),
    (lambda: BanditArms([True]), "win_probs[0] must be a number in [0, 1]"),
    (lambda: BanditArms([0.3], draw_probs=["0.1"]), "draw_probs[0] must be a number"),
    (lambda: UCB1Player(3, c="1"), "c (the exploration constant) must be a number"),
    (lambda: RegretMatchingPlayer(3, exploration="0.1"), "exploration must be a number"),
    (lambda: RegretMatchingPlayer(3, exploration=True), "exploration must be a number"),
    (lambda: one_node.make_players(GAME, "ucb1", c="1"), "c (the exploration constant)"),
])
def test_every_learner_number_refuses_text_and_truth_values(call, words):
    refused(call, words)


def test_reward_scales_of_whole_numbers_still_mean_what_they_say():
    assert UCB1(reward_scale=(-1, 1)).reward_scale == (-1.0, 1.0)


# --------------------------------------------------------------------------- 9. matrix games


@pytest.mark.parametrize("payoffs", [[[1e16]], [[1e308, -1e308], [0, 1]], [[0, -1e13]]])
def test_matrix_game_refuses_payoffs_too_large_for_the_solver_and_the_rescaling(payoffs):
    # [[1e16]] was a RuntimeError from the LP solver; 1e308 an IndexError in run_one_node.
    refused(lambda: MatrixGame(payoffs), "must be a number from -1e12 to 1e12",
            "divide every payoff by the same positive number")


def test_matrix_game_refuses_payoffs_too_close_for_their_size():
    # Was a RuntimeError from HiGHS: differences of 1e-3 on payoffs of 1e6.
    table = [[1e6, 1e6 + 1e-3], [1e6 + 1e-3, 1e6]]
    refused(lambda: MatrixGame(table), "payoffs must differ by at least a millionth",
            "subtract the same constant from every payoff")


ACCEPTED_EDGE_TABLES = [
    [[1e12, -1e12], [-1e12, 1e12]],
    [[1e12, 0.0, 5e-324], [-1e12, 1.0, 1e12], [1e-20, -1e12, 0.0]],
    [[1e12 - 1e6, 1e12], [1e12, 1e12 - 1e6]],  # a spread of exactly a millionth
    [[3.0, 3.0 + 4.4e-16], [3.0 + 4.4e-16, 3.0]],  # rounding noise: a constant table to HiGHS
    [[91.0, 91.0 + 5e-10], [91.0, 91.0]],
    [[5e-324, 0.0], [0.0, 5e-324]],  # subnormal payoffs
    [[1e-300, -1e-300, 0.0]],
    [[7.0]],
]


@pytest.mark.parametrize("payoffs", ACCEPTED_EDGE_TABLES)
def test_every_accepted_edge_table_is_solved_and_learnt(payoffs):
    game = MatrixGame(payoffs)
    solution = solve_zero_sum(game)
    assert math.isfinite(solution.value)
    assert math.isfinite(exploitability(game, solution.row_strategy, solution.column_strategy))
    for learner in ("ucb1", "regret_matching"):
        for engine in ("python", "numba"):
            run = run_one_node(game, learner, 300, 1, engine=engine, checkpoints=[100, 300],
                               outcomes="win_loss" if engine == "numba" else "payoff")
            assert np.all(np.isfinite(run.average_distance))
            assert np.all(np.isfinite(run.current_distance))


def test_a_random_sweep_of_accepted_tables_is_solved():
    rng = np.random.default_rng(9)
    solved = 0
    for _ in range(300):
        shape = tuple(rng.integers(1, 6, size=2))
        offset = rng.choice([-1.0, 0.0, 1.0]) * 10.0 ** rng.integers(-6, 13)
        table = np.clip(offset + rng.uniform(0, 1, shape) * 10.0 ** rng.uniform(-12, 12),
                        -1e12, 1e12)
        try:
            game = MatrixGame(table)
        except ValueError:
            continue
        solution = solve_zero_sum(game)
        assert math.isfinite(exploitability(game, solution.row_strategy,
                                            solution.column_strategy))
        solved += 1
    assert solved > 200


@pytest.mark.parametrize(("payoffs", "words"), [
    ([["1.5", 0]], "payoffs[0][0] must be a number, got '1.5'"),  # text was read as a number
    ([[b"1", 0]], "payoffs[0][0] must be a number"),
    ([np.array(1.0)], "payoffs row 0 must be a sequence of numbers"),  # was "len() of unsized"
    ([[np.array([1.0, 2.0])]], "payoffs[0][0] must be a number"),
    ([[10**400]], "payoffs[0][0] must be a finite number"),  # was OverflowError
])
def test_matrix_game_refuses_entries_that_are_not_numbers(payoffs, words):
    refused(lambda: MatrixGame(payoffs), words)


@pytest.mark.parametrize("names", [5, np.array("ab"), iter(["a", "b"])])
def test_matrix_game_move_names_must_be_a_sequence(names):
    # 5 was "object of type 'int' has no len()".
    refused(lambda: MatrixGame([[1, 2], [3, 4]], row_moves=names), "row_moves must name each")


@pytest.mark.parametrize("width", [-1, 0, 1.5, "9", 10**9])
def test_matrix_game_format_refuses_a_bad_width(width):
    # -1 was a format-spec error, 1.5 truncated every name to one letter, 10**9 ran out of memory.
    refused(lambda: GAME.format(width), "width must be a whole number from 1 to 100")


@pytest.mark.parametrize("mix", [[True, False, False], ["0.5", "0.5", "0"], [1j, 0, 0]])
def test_check_strategy_refuses_truth_values_text_and_complex_numbers(mix):
    # numpy converted all three to floats without a word.
    refused(lambda: check_strategy("row_strategy", mix, 3), "row_strategy must be a sequence")


@pytest.mark.parametrize("size", [10**12, 0, 2.0])
def test_uniform_strategy_refuses_a_size_it_cannot_build(size):
    # 10**12 was a MemoryError.
    refused(lambda: uniform_strategy(size), "size must be a whole number from 1 to 10,000,000")


# --------------------------------------------------------------------------- 10. the learners


@pytest.mark.parametrize(("call", "words"), [
    (lambda: one_node.sample_move([], 0.5), "mix must be a non-empty sequence"),  # returned -1
    (lambda: one_node.sample_move([0.5, 0.5], 1.5), "uniform must be a number in [0, 1)"),
    (lambda: one_node.sample_move([0.5, 0.7], 0.5), "mix must sum to 1"),
    (lambda: one_node.empirical_strategy([]), "counts must be a non-empty sequence"),  # 1 / 0
    (lambda: one_node.empirical_strategy([1, -2]), "counts[1] must be a whole number"),
    (lambda: one_node.regret_matching_strategy([], 0.1), "regrets must be a non-empty"),  # []
    (lambda: one_node.regret_matching_strategy([math.nan, 1.0], 0.1), "regrets[0] must be"),
    (lambda: one_node.regret_matching_strategy([1.0], 0.0), "exploration must be a number in (0, 1]"),
    (lambda: one_node.next_uniform(5), "stream must be an XorShift64"),  # AttributeError
    (lambda: one_node.make_players("rps", "ucb1"), "game must be a MatrixGame"),  # AttributeError
    (lambda: UCB1Player(10**9), "moves must be a whole number from 1 to 1,000,000"),
    (lambda: RegretMatchingPlayer(10**12), "moves must be a whole number from 1 to 1,000,000"),
])
def test_one_node_helpers_refuse_bad_arguments(call, words):
    refused(call, words)


def reference_rounds(**changes):
    """Arguments of a valid ``play_rounds`` call, with some replaced."""
    row, column = one_node.rescaled_rewards(GAME)
    arguments = {"row_player": UCB1Player(3), "column_player": UCB1Player(3),
                 "row_rewards": row.tolist(), "column_rewards": column.tolist(), "rounds": 10,
                 "stream": XorShift64(3), "win_loss": False}
    arguments.update(changes)
    return arguments


@pytest.mark.parametrize(("changes", "words"), [
    ({"row_rewards": [[0.5, 0.5]]}, "row_rewards must be a 3 x 3 table"),  # was IndexError
    ({"column_rewards": [[2.0] * 3] * 3}, "column_rewards must hold rewards in [0, 1]"),
    ({"row_rewards": [["a"] * 3] * 3}, "row_rewards must be a 3 x 3 table"),
    ({"rounds": "5"}, "rounds must be a whole number"),  # was TypeError
    ({"rounds": 2**40}, "rounds must be a whole number from 0 to 1,000,000,000"),  # a hang
    ({"stream": 7}, "stream must be an XorShift64"),  # was AttributeError
    ({"row_player": "ucb1"}, "row_player must be a UCB1Player or a RegretMatchingPlayer"),
    ({"win_loss": "no"}, "win_loss must be True or False"),  # "no" switched win/loss on
    ({"column_player": UCB1Player(2)}, "row_rewards must be a 3 x 2 table"),
])
def test_play_rounds_checks_everything_before_the_first_round(changes, words):
    arguments = reference_rounds(**changes)
    refused(lambda: one_node.play_rounds(**arguments), words)
    assert arguments["row_player"] == "ucb1" or arguments["row_player"].rounds == 0


def test_play_rounds_refuses_one_player_on_both_sides():
    player = UCB1Player(3)
    arguments = reference_rounds(row_player=player, column_player=player)
    refused(lambda: one_node.play_rounds(**arguments), "two different players")


@pytest.mark.parametrize("engine", ["python", "numba"])
def test_a_match_refuses_players_that_do_not_fit_the_game(engine):
    # With numba the kernels read past the players' arrays: garbage, not an error.
    refused(lambda: one_node.make_match(GAME, UCB1Player(2), UCB1Player(3), XorShift64(1), False,
                                        engine), "one move per row and per column")


@pytest.mark.parametrize("rounds", [-5, 2.0, 2**40])
def test_the_fast_match_refuses_a_bad_number_of_rounds(rounds):
    # -5 played nothing but moved the round counter back by 5.
    match = one_node.FastOneNodeMatch(GAME, UCB1Player(3), UCB1Player(3), XorShift64(1), False)
    refused(lambda: match.play(rounds), "rounds must be a whole number from 0")
    assert match.rounds_played == 0


def test_the_fast_match_refuses_what_is_not_a_player():
    refused(lambda: one_node.FastOneNodeMatch(GAME, "ucb1", UCB1Player(3), XorShift64(1), False),
            "row_player must be a UCB1Player or a RegretMatchingPlayer")


SUMS, COUNTS = np.array([[3.0, 5.0]]), np.array([[5, 10]])


@pytest.mark.parametrize(("call", "words"), [
    (lambda: ucb1_scores(SUMS, COUNTS, 0, 1.0), "pulls_done must be a whole number from 1"),
    (lambda: ucb1_scores(SUMS, np.array([[0, 10]]), 15, 1.0), "counts must all be from 1"),
    (lambda: ucb1_scores(SUMS, COUNTS, 15, -1.0), "c (the exploration constant)"),
    (lambda: ucb1_scores(SUMS, COUNTS[0], 15, 1.0), "sums and counts must be arrays of shape"),
    (lambda: Greedy().choose(SUMS, COUNTS.astype(float), 15, None), "sums and counts must be"),
    (lambda: Greedy().choose([[1.0]], [[1, 2]], 3, None), "sums and counts must be arrays"),
    (lambda: Greedy().choose(SUMS, np.array([[0, 10]]), 15, None), "counts must all be from 1"),
    (lambda: EpsilonGreedy().choose(SUMS, COUNTS, 15, None), "rng must be a numpy Generator"),
    (lambda: ARMS.rewards(np.zeros((4, 3))), "one entry per arm (2)"),  # was a numpy broadcast
    (lambda: ARMS.rewards(np.full((4, 2), 1.5)), "uniforms must all be numbers in [0, 1)"),
    (lambda: ARMS.rewards("0.5"), "uniforms must be an array of numbers"),
    (lambda: checkpoints(10**30), "pulls must be a whole number from 1 to"),  # int64 overflow
    (lambda: checkpoints(100, count=10**9), "count must be a whole number from 2 to 1,000,000"),
])
def test_bandit_helpers_refuse_bad_statistics(call, words):
    refused(call, words)


def test_policies_still_choose_from_valid_statistics():
    assert UCB1(c=1.0).choose(SUMS, COUNTS, 15, None).tolist() == [0]
    assert Greedy().choose(np.zeros((2, 3)), np.zeros((2, 3), dtype=int), 1, None).tolist() == [1, 1]
    assert EpsilonGreedy(0.0).choose(SUMS, COUNTS, 15, make_rng(1)).tolist() == [0]


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"policies": UCB1()}, "policies must be a list of policies, got the single policy"),
    ({"policies": "UCB1"}, "policies must be a list"),
    ({"record_choices": "no"}, "record_choices must be True or False"),
    ({"runs": 2**27}, "runs * arms must be at most 2**27"),
    ({"runs": 10**4, "pulls": 10**5, "record_choices": True}, "runs * pulls must be at most 2**27"),
    ({"pulls": 2**31}, "pulls must be a whole number from 1 to 10,000,000"),  # a hang
    ({"runs": 10**5, "pulls": 10**6}, "runs * pulls must be at most 10**10"),
    ({"runs": 2**40}, "runs must be a whole number from 1 to"),  # a MemoryError
])
def test_run_experiment_refuses_work_it_cannot_do(kwargs, words):
    arguments = {"arms": ARMS, "policies": [UCB1()], "runs": 3, "pulls": 20, **kwargs}
    refused(lambda: run_experiment(**arguments), words)


def test_run_experiment_refuses_a_callback_that_cannot_be_called_before_any_pull():
    # Was a TypeError from the first call, after a chunk of work.
    with pytest.raises(TypeError, match="callback must be callable"):
        run_experiment(ARMS, [UCB1()], runs=2, pulls=500, callback="plot")


def test_regret_at_refuses_what_is_not_a_checkpoint():
    result = run_experiment(ARMS, [UCB1()], runs=2, pulls=20, seed=1)[0]
    for pulls in ([10, 20], "10", 10.0, True):
        refused(lambda pulls=pulls: result.regret_at(pulls), "pulls must be a recorded checkpoint")
    assert result.regret_at(10) == result.regret_at(np.int64(10))


# --------------------------------------------------------------------------- the root helpers


@pytest.mark.parametrize(("args", "words"), [
    ((10**400, 0, 0), "wins must be a whole number from 0 to"),  # was OverflowError
    ((2**52, 2**52, 1), "wins + draws + losses must be at most 2**53"),
])
def test_score_interval_refuses_counts_beyond_what_a_float_holds(args, words):
    refused(lambda: score_interval(*args), words)


def test_a_number_too_long_to_print_still_gets_a_sentence():
    # Python refuses to print an int of more than 4,300 digits: the sentence describes it.
    huge = 10**5000
    refused(lambda: spawn_rngs(0, huge), "a whole number of about 5,001 digits")
    refused(lambda: TicTacToe().play(huge), "is illegal here")
    assert MatrixGame([[1.0, 2.0]], row_moves=[huge]).row_moves == (
        "a whole number of about 5,001 digits",)


@pytest.mark.parametrize("engine", [np.array([]), np.array(["python"]), ["python"]])
def test_a_choice_given_as_an_array_is_a_sentence(engine):
    # check_choice compared arrays element-wise: numpy's "truth value is ambiguous".
    refused(lambda: one_node.make_match(GAME, UCB1Player(3), UCB1Player(3), XorShift64(1), False,
                                        engine), "engine must be one of 'python', 'numba'")
