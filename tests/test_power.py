"""Power of a match, spreads from draws and pairs, Elo (mctslib.play.stats), checked by simulation."""

import math

import numpy as np
import pytest

from mctslib.play.elo_sprt import pair_outcomes
from mctslib.play.stats import (
    elo_from_score,
    elo_interval,
    game_spread,
    games_for_power,
    games_for_width,
    pair_score_interval,
    pair_spread,
    power_of,
    score_from_elo,
    score_interval,
)

# --- The numbers chapter 5 quotes -----------------------------------------------------

def test_power_against_the_width_rule():
    # The width rule puts the *average* interval's edge on 0.5: about half the matches miss.
    assert games_for_width(0.1) == 385 and games_for_width(0.02) == 9604
    assert 0.49 < power_of(385, 0.05) < 0.52
    assert 0.49 < power_of(9604, 0.01) < 0.52
    # 80% power at 95% confidence: about twice the games.
    assert games_for_power(0.05) == 783
    assert games_for_power(0.01) == 19620
    # The textbook rounding (0.5 spread on both sides): ((1.96 + 0.84) / 0.1) ** 2.
    assert games_for_power(0.05, sd_per_game=0.5, interval="measured") == 785
    assert games_for_power(0.01, sd_per_game=0.5, interval="measured") == 19623


@pytest.mark.parametrize("difference, power, sd, interval", [
    (0.05, 0.8, None, "wilson"), (-0.05, 0.8, None, "wilson"), (0.02, 0.9, None, "wilson"),
    (0.05, 0.8, 0.4, "measured"), (0.05, 0.8, 0.4, "wilson"), (0.3, 0.5, None, "wilson"),
    (0.01, 0.99, 0.3, "measured"),
])
def test_games_for_power_is_the_fewest_that_reach_the_power(difference, power, sd, interval):
    games = games_for_power(difference, power, sd_per_game=sd, interval=interval)
    assert power_of(games, difference, sd_per_game=sd, interval=interval) >= power
    if games > 1:
        assert power_of(games - 1, difference, sd_per_game=sd, interval=interval) < power


def test_power_is_the_false_alarm_rate_without_a_difference_and_grows_with_games():
    assert power_of(500, 0.0) == pytest.approx(0.05)
    assert power_of(500, 0.0, confidence=0.99) == pytest.approx(0.01)
    powers = [power_of(games, 0.03) for games in (10, 100, 1000, 10000)]
    assert powers == sorted(powers) and powers[-1] > 0.999
    # A smaller spread (draws) needs fewer games: 40% fewer at sd 0.39 instead of 0.5.
    assert games_for_power(0.05, sd_per_game=0.39, interval="measured") < 0.62 * 785


# --- Power by simulation --------------------------------------------------------------

def _simulated_games(rng, matches, games, win, draw):
    """Per-match counts (wins, draws, losses) of independent games."""
    outcome = rng.random((matches, games))
    wins = np.count_nonzero(outcome < win, axis=1)
    draws = np.count_nonzero((outcome >= win) & (outcome < win + draw), axis=1)
    return wins, draws, games - wins - draws


def _excludes_half(intervals):
    return np.array([not low <= 0.5 <= high for _, low, high in intervals])


@pytest.mark.parametrize("draw", [0.0, 0.3])
def test_wilson_power_matches_simulation(draw):
    # Matches of 783 games whose true score is 0.55; the fraction whose Wilson interval
    # (score_interval, a draw half a win) leaves out 0.5 is the power.
    rng = np.random.default_rng(55 + int(10 * draw))
    matches, games, score = 4000, 783, 0.55
    win = score - draw / 2
    true_sd = math.sqrt(win + draw / 4 - score * score)  # E[x^2] - E[x]^2
    counts = _simulated_games(rng, matches, games, win, draw)
    decided = _excludes_half(score_interval(w, d, l) for w, d, l in zip(*counts))
    predicted = power_of(games, score - 0.5, sd_per_game=None if draw == 0 else true_sd)
    error = math.sqrt(predicted * (1 - predicted) / matches)
    assert abs(decided.mean() - predicted) < 4 * error, (decided.mean(), predicted)
    if draw:  # without the measured spread the formula is a lower bound
        assert decided.mean() > power_of(games, score - 0.5) + 2 * error


def test_pair_interval_power_matches_simulation_on_lopsided_openings():
    # Pairs from one opening with the sides swapped: the opening favours the first
    # player by u ~ U(-b, b). Counting pairs (pair_score_interval) uses the smaller
    # spread sqrt(s - s^2 - d/4 - b^2/3) per game, so fewer games reach the same power.
    rng = np.random.default_rng(7)
    matches, pairs, score, draw, bias = 3000, 250, 0.55, 0.1, 0.35
    u = rng.uniform(-bias, bias, (matches, pairs))
    first = _outcome_points(rng.random((matches, pairs)), score + u, draw)
    second = _outcome_points(rng.random((matches, pairs)), score - u, draw)
    pair_points = (first + second).astype(int)  # 0..4 half points
    counts = [tuple(np.bincount(row, minlength=5)) for row in pair_points]
    decided = _excludes_half(pair_score_interval(c) for c in counts)
    spread = math.sqrt(score - score * score - draw / 4 - bias * bias / 3)
    predicted = power_of(2 * pairs, score - 0.5, sd_per_game=spread, interval="measured")
    error = math.sqrt(predicted * (1 - predicted) / matches)
    assert abs(decided.mean() - predicted) < 4 * error, (decided.mean(), predicted)
    # The same games read one by one with Wilson's interval decide less often.
    wilson = power_of(2 * pairs, score - 0.5, sd_per_game=math.sqrt(score - score**2 - draw / 4))
    assert predicted > wilson + 0.1
    # And the measured pair spread is close to the model's.
    assert abs(np.median([pair_spread(c) for c in counts[:200]]) - spread) < 0.02


def _outcome_points(uniform, expected, draw):
    """Half points of A in one game (0 loss, 1 draw, 2 win) with this expected score."""
    loss = 1 - expected - draw / 2
    return np.where(uniform < loss, 0, np.where(uniform < loss + draw, 1, 2))


# --- Spreads and the pair interval by hand --------------------------------------------

def test_spreads_by_hand():
    # 3 wins, 2 draws, 3 losses: mean 0.5, squares 3 * 0.25 * 2 = 1.5, over 7.
    assert game_spread(3, 2, 3) == pytest.approx(math.sqrt(1.5 / 7))
    # Pairs worth 0 and 2 points only, as many of each: pair averages 0 and 1.
    assert pair_spread((5, 0, 0, 0, 5)) == pytest.approx(math.sqrt(2) * math.sqrt(2.5 / 9))
    # Every pair split 1-1: no spread at all; the interval is the point 0.5.
    assert pair_spread((0, 0, 7, 0, 0)) == 0.0
    assert pair_score_interval((0, 0, 7, 0, 0)) == (0.5, 0.5, 0.5)
    score, low, high = pair_score_interval(pair_outcomes("WWLL" * 10 + "WW" * 4))
    assert score == pytest.approx(28 / 48) and low < score < high


# --- Elo ------------------------------------------------------------------------------

def test_elo_and_score_by_hand_and_round_trip():
    assert score_from_elo(0) == 0.5
    assert score_from_elo(400) == pytest.approx(10 / 11)
    assert score_from_elo(-400) == pytest.approx(1 / 11)
    assert elo_from_score(10 / 11) == pytest.approx(400)
    for score in (0.01, 0.3, 0.5, 0.55, 0.9, 0.999):
        assert score_from_elo(elo_from_score(score)) == pytest.approx(score, rel=1e-12)
    assert (elo_from_score(0.0), elo_from_score(1.0)) == (-math.inf, math.inf)
    assert score_from_elo(1e6) == 1.0 and score_from_elo(-1e6) == 0.0


def test_elo_interval_maps_the_ends():
    interval = score_interval(220, 20, 160)
    elo, low, high = elo_interval(interval)
    assert (elo, low, high) == tuple(elo_from_score(value) for value in interval)
    assert low < elo < high and high - elo > elo - low  # Elo stretches scores far from 0.5
    assert elo_interval((1.0, 0.8, 1.0))[2] == math.inf


# --- Hostile input --------------------------------------------------------------------

@pytest.mark.parametrize("call, words", [
    (lambda: games_for_power(0.0), "difference must not be 0"),
    (lambda: games_for_power(0.05, power=1.0), "power must be strictly between 0 and 1"),
    (lambda: games_for_power(0.05, power="high"), "power"),
    (lambda: games_for_power(1e-9), "at most 2\\*\\*53 games"),
    (lambda: power_of(0, 0.05), "games must be a whole number"),
    (lambda: power_of(100, 0.6), "true score"),
    (lambda: power_of(100, 0.05, score=0.0), "score must be strictly between 0 and 1"),
    (lambda: power_of(100, 0.05, interval="measured"), "needs sd_per_game"),
    (lambda: power_of(100, 0.05, interval="t"), "interval must be one of"),
    (lambda: power_of(100, 0.05, sd_per_game=0.0), "sd_per_game must be greater than 0"),
    (lambda: power_of(100, 0.05, sd_per_game=0.7), "sd_per_game must be a number in"),
    (lambda: power_of(100, math.nan), "difference must be a number"),
    (lambda: game_spread(1, 0, 0), "at least two observations"),
    (lambda: pair_spread((1, 2, 3)), "five whole numbers"),
    (lambda: pair_spread("12345"), "five whole numbers"),
    (lambda: pair_score_interval((1, 2, 3, -1, 0)), "pairs scoring 1.5"),
    (lambda: score_from_elo(math.inf), "elo must be a number"),
    (lambda: elo_from_score(1.5), "score must be a number in"),
    (lambda: elo_interval((0.5, 0.6, 0.7)), "low <= score <= high"),
    (lambda: elo_interval(0.5), "score, low, high"),
])
def test_bad_input_is_a_sentence(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def test_docstring_examples_hold():
    # The numbers quoted in the docstrings (783 games, 19,620, ...) are checked here.
    import doctest

    import mctslib.play.elo_sprt
    import mctslib.play.stats
    for module in (mctslib.play.stats, mctslib.play.elo_sprt):
        failed, attempted = doctest.testmod(module)
        assert failed == 0 and attempted >= 5, module.__name__
