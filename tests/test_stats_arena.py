"""Match statistics (Wilson interval, games needed) and the match runner."""

import functools
import math
from concurrent.futures import ThreadPoolExecutor

import pytest

from mctslib.games import SubtractionGame, SumToFifteen, TicTacToe
from mctslib.play.arena import MatchResult, RandomPlayer, play_game, play_match
from mctslib.play.stats import games_for_width, score_interval
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
