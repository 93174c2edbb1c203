"""Match statistics (Wilson interval, games needed) and the match runner."""

import functools
import math
from concurrent.futures import ThreadPoolExecutor

import pytest

from mctslib.fixed_order import mean, sample_variance
from mctslib.games import SubtractionGame, SumToFifteen, TicTacToe
from mctslib.play.arena import GameRecord, MatchResult, RandomPlayer, letters, play_game, play_match
from mctslib.play.elo_sprt import pair_outcomes
from mctslib.play.stats import (
    game_spread,
    games_for_width,
    independent_difference_interval,
    pair_difference_interval,
    pair_score_interval,
    score_interval,
)
from mctslib.search.uct import UCTSearch


def test_wilson_interval_by_hand():
    # 7 wins of 10: centre (0.7 + 1.96^2/20) / (1 + 1.96^2/10) = 0.6365...
    score, low, high = score_interval(7, 0, 3)
    z = 1.959963984540054
    centre = (0.7 + z * z / 20) / (1 + z * z / 10)
    half = z * math.sqrt(0.7 * 0.3 / 10 + z * z / 400) / (1 + z * z / 10)
    assert score == 0.7
    assert low == pytest.approx(centre - half) and high == pytest.approx(centre + half)
    assert low == pytest.approx(0.3968, abs=1e-4) and high == pytest.approx(0.8922, abs=1e-4)


def test_clean_sweep_keeps_doubt_and_draws_count_half():
    score, low, high = score_interval(10, 0, 0)
    assert score == 1.0 and high == 1.0 and 0.6 < low < 0.8
    assert score_interval(0, 10, 0)[0] == 0.5


def test_interval_narrows_like_one_over_root_n():
    width_100 = score_interval(50, 0, 50)[2] - score_interval(50, 0, 50)[1]
    width_400 = score_interval(200, 0, 200)[2] - score_interval(200, 0, 200)[1]
    assert width_100 / width_400 == pytest.approx(2.0, rel=0.02)


def test_games_for_width():
    assert games_for_width(0.1) == 385  # (2 * 1.96)^2 * 0.25 / 0.01 = 384.1
    assert games_for_width(0.05) == 4 * 385 - 3  # four times the games for half the width


@pytest.mark.parametrize("call, word", [
    (lambda: score_interval(0, 0, 0), "at least one game"),
    (lambda: score_interval(-1, 2, 3), "wins"),
    (lambda: score_interval(1, 1, 1, confidence=1.0), "confidence"),
    (lambda: games_for_width(0.0), "width"),
])
def test_bad_input(call, word):
    with pytest.raises(ValueError, match=word):
        call()


def test_play_game_and_random_player():
    final = play_game([RandomPlayer(1), RandomPlayer(2)], TicTacToe())
    assert final.is_terminal()


def test_match_alternates_sides_and_is_reproducible():
    # Perfect play wins any subtraction game from 5 stones for whoever moves first,
    # so a strong search against itself wins exactly the games in which it moves first.
    result = play_match(_uct(400), _uct(400), SubtractionGame(5), games=6, seed=3)
    assert (result.wins, result.draws, result.losses) == (3, 0, 3)
    again = play_match(_uct(400), _uct(400), SubtractionGame(5), games=6, seed=3)
    assert again == result


def test_uct_beats_random_at_sum_to_fifteen():
    result = play_match(_uct(300), RandomPlayer,
                        SumToFifteen(), games=20, seed=4)
    assert result.losses == 0 and result.score > 0.75
    assert isinstance(result, MatchResult) and "95% interval" in str(result)


def test_match_needs_games():
    with pytest.raises(ValueError, match="games"):
        play_match(RandomPlayer, RandomPlayer, TicTacToe(), games=0)


def _uct(iterations):
    return functools.partial(UCTSearch, exploration=1.0, iterations=iterations)


def test_parallel_and_executor_runs_equal_the_sequential_run(tmp_path):
    sequential = play_match(_uct(60), RandomPlayer, TicTacToe(), games=8, seed=12)
    parallel = play_match(_uct(60), RandomPlayer, TicTacToe(), games=8, seed=12, jobs=2)
    with ThreadPoolExecutor(max_workers=2) as executor:
        threaded = play_match(_uct(60), RandomPlayer, TicTacToe(), games=8, seed=12,
                              executor=executor)
    assert sequential == parallel == threaded
    assert [r.index for r in parallel.records] == list(range(8))
    assert [r.a_moved_first for r in parallel.records] == [True, False] * 4


def test_openings_are_played_twice_with_sides_swapped():
    openings = [TicTacToe.from_string("X../.../..."), TicTacToe.from_string(".X./.../...")]
    result = play_match(RandomPlayer, RandomPlayer, openings, games=4, seed=1)
    assert [r.a_moved_first for r in result.records] == [True, False, True, False]


def test_save_and_load_keep_every_parameter(tmp_path):
    result = play_match(_uct(30), RandomPlayer, TicTacToe(), games=4, seed=2)
    path = tmp_path / "match.json"
    result.save(path, a="uct 30", b="random", seed=2)
    loaded, parameters = MatchResult.load(path)
    assert loaded == result and parameters == {"a": "uct 30", "b": "random", "seed": 2}
    seconds_a, seconds_b = result.seconds_per_move()
    assert seconds_a > 0 and seconds_b >= 0


# --- letters: A's result in each game as W, D or L ---------------------------------------------

def test_letters_follow_the_records_and_count_the_match():
    result = play_match(RandomPlayer, RandomPlayer, TicTacToe(), games=40, seed=5)
    found = letters(result.records)
    by_hand = "".join({1.0: "W", 0.5: "D", 0.0: "L"}[r.result_for_a] for r in result.records)
    assert found == by_hand and len(found) == 40
    assert (found.count("W"), found.count("D"), found.count("L")) == (
        result.wins, result.draws, result.losses)
    assert {"W", "D", "L"} <= set(found)  # random tic-tac-toe: all three happen in 40 games
    assert letters(tuple(reversed(result.records))) == found[::-1]  # the order given
    assert letters([]) == ""


def _record(result):
    return GameRecord(0, True, result, 9, 0.0, 0.0, 5, 4)


@pytest.mark.parametrize("records, words", [
    ("WDL", "records must be a sequence of GameRecord"),
    (5, "records must be a sequence of GameRecord"),
    ([{"result_for_a": 1.0}], "records\\[0\\] must be a GameRecord"),
    ([_record(1.0), _record(0.25)], "records\\[1\\].result_for_a must be 1, 0.5 or 0"),
    ([_record(True)], "records\\[0\\].result_for_a must be 1, 0.5 or 0"),
    ([_record([1.0])], "records\\[0\\].result_for_a must be 1, 0.5 or 0"),
])
def test_letters_refuse_what_is_not_a_game_record(records, words):
    with pytest.raises(ValueError, match=words):
        letters(records)


# --- pair_difference_interval: two versions of a bot on the same games ----------------------

def test_pair_difference_by_hand():
    # Pairs (per-game score): A 1, 0.25, 0.75, 0; B 0.5, 0.25, 0.5, 0; differences
    # 0.5, 0, 0.25, 0: their mean plus or minus z sample standard deviations of the mean.
    differences = [0.5, 0.0, 0.25, 0.0]
    centre = sum(differences) / 4
    spread = math.sqrt(sum((d - centre) ** 2 for d in differences) / 3)
    half = 1.959963984540054 * spread / 2
    difference, low, high = pair_difference_interval("WWDLWDLL", "WLDLDDLL")
    assert difference == 0.1875
    assert low == pytest.approx(centre - half, abs=1e-15)
    assert high == pytest.approx(centre + half, abs=1e-15)
    # Letters or points, lists or strings: the same games.
    assert pair_difference_interval([1, 1, 0.5, 0, 1, 0.5, 0, 0],
                                    list("WLDLDDLL")) == (difference, low, high)


def test_pair_difference_is_the_chapters_formula_and_antisymmetric():
    ours = "WWDLWDLLWWWDLLDW" * 3
    best = "WLDLDDLLWWDDWLLD" * 3
    per_game = [{"W": 1.0, "D": 0.5, "L": 0.0}[a] - {"W": 1.0, "D": 0.5, "L": 0.0}[b]
                for a, b in zip(ours, best)]
    pairs = [(per_game[i] + per_game[i + 1]) / 2 for i in range(0, len(per_game), 2)]
    half = 1.959963984540054 * math.sqrt(sample_variance(pairs) / len(pairs))
    difference, low, high = pair_difference_interval(ours, best)
    assert difference == mean(pairs)
    assert (low, high) == pytest.approx((mean(pairs) - half, mean(pairs) + half), abs=1e-14)
    swapped = pair_difference_interval(best, ours)
    assert swapped == pytest.approx((-difference, -high, -low), abs=1e-14)
    assert pair_difference_interval(ours, ours) == (0.0, 0.0, 0.0)
    narrow = pair_difference_interval(ours, best, confidence=0.5)
    assert low < narrow[1] < difference < narrow[2] < high


def test_pair_difference_against_draws_is_the_pair_score_interval_shifted():
    ours = "WWDLWDLLWDDWLWWL"
    score, low, high = pair_score_interval(pair_outcomes(ours))
    assert pair_difference_interval(ours, "D" * len(ours)) == pytest.approx(
        (score - 0.5, low - 0.5, high - 0.5), abs=1e-14)


def test_pair_difference_stays_within_minus_one_and_one():
    # Pair differences 1, 1, 1, -1: mean 0.5, sample standard deviation 1, half-width 0.98.
    difference, low, high = pair_difference_interval("WWWWWWLL", "LLLLLLWW")
    assert difference == 0.5 and high == 1.0  # 1.48, clipped
    assert low == pytest.approx(0.5 - 1.959963984540054 / 2, abs=1e-15)
    assert pair_difference_interval("WWWW", "LLLL") == (1.0, 1.0, 1.0)


# --- independent_difference_interval: two matches that share nothing game by game ---------

def test_independent_difference_by_hand():
    # A: 3-1-1 (5 games, results 1, 1, 1, 0.5, 0), B: 1-0-2 (3 games, results 1, 0, 0).
    a, b = [1, 1, 1, 0.5, 0], [1, 0, 0]
    variances = [sample_variance(results) / len(results) for results in (a, b)]
    half = 1.959963984540054 * math.sqrt(sum(variances))
    centre = mean(a) - mean(b)
    difference, low, high = independent_difference_interval((3, 1, 1), (1, 0, 2))
    assert difference == pytest.approx(0.7 - 1 / 3, abs=1e-15)
    assert low == pytest.approx(centre - half, abs=1e-14)
    assert centre + half > 1.0 and high == 1.0  # clipped
    # The spread of one game is game_spread's: draws narrow it.
    assert variances[0] == pytest.approx(game_spread(3, 1, 1) ** 2 / 5, abs=1e-15)


def test_independent_difference_is_antisymmetric_and_narrows_with_confidence():
    wide = independent_difference_interval((125, 48, 27), (103, 61, 36))
    assert [round(x, 3) for x in wide] == [0.078, 0.005, 0.15]
    swapped = independent_difference_interval((103, 61, 36), (125, 48, 27))
    assert swapped == pytest.approx((-wide[0], -wide[2], -wide[1]), abs=1e-15)
    narrow = independent_difference_interval((125, 48, 27), (103, 61, 36), confidence=0.5)
    assert wide[1] < narrow[1] < wide[0] < narrow[2] < wide[2]
    # Twice the games (same proportions): the half-width shrinks by about sqrt(2).
    doubled = independent_difference_interval((250, 96, 54), (206, 122, 72))
    assert (doubled[2] - doubled[1]) == pytest.approx((wide[2] - wide[1]) / math.sqrt(2),
                                                      rel=0.01)


def test_independent_difference_stays_within_minus_one_and_one():
    difference, low, high = independent_difference_interval((1, 0, 1), (0, 0, 2))
    assert difference == 0.5 and high == 1.0 and low == pytest.approx(0.5 - 1.959963984540054 * 0.5)
    assert independent_difference_interval((4, 0, 0), (0, 0, 4)) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize("args, words", [
    (((1, 0, 0), (1, 1, 1)), "counts_a must hold at least two games"),
    (((1, 1, 1), (0, 0, 0)), "counts_b must hold at least two games"),
    (((1, 1), (1, 1, 1)), "counts_a must be three whole numbers"),
    (("WDL", (1, 1, 1)), "counts_a must be three whole numbers"),
    (((1, 1, 1), 3), "counts_b must be three whole numbers"),
    (((1, -1, 3), (1, 1, 1)), "counts_a draws"),
    (((1, 1, 1), (1, 1.5, 1)), "counts_b draws"),
    (((1, 1, 1), (1, 1, 1), 0.0), "confidence"),
])
def test_independent_difference_bad_input_is_named(args, words):
    with pytest.raises(ValueError, match=words):
        independent_difference_interval(*args)


@pytest.mark.parametrize("args, words", [
    (("WWDL", "WWD"), "the same games, got 4 and 3"),
    (("WWD", "WWD"), "whole pairs"),
    (("WL", "LW"), "at least two, got 2 games"),
    (("WWDX", "WWDL"), "results_a\\[3\\] must be a game result"),
    (("WWDL", [1, 0.25, 0, 0]), "results_b\\[1\\] must be a game result"),
    (("WWDL", [True, 1, 0, 0]), "results_b\\[0\\] must be a game result"),
    ((b"WWDL", "WWDL"), "results_a must be a sequence of game results"),
    (("WWDL", 4), "results_b must be a sequence of game results"),
    (("WWDL", "WWDL", 1.0), "confidence"),
])
def test_pair_difference_bad_input_is_named(args, words):
    with pytest.raises(ValueError, match=words):
        pair_difference_interval(*args)
