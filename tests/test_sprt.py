"""Sequential tests on match results: Wald's SPRT (mctslib.play.sprt) and the GSPRT of
chess engine testing with game pairs (mctslib.play.elo_sprt), checked by simulation."""

import math

import numpy as np
import pytest
from scipy.optimize import minimize

from mctslib.play.elo_sprt import (
    EloSPRT,
    elo_sprt,
    game_outcomes,
    llr_logistic,
    llr_logistic_many,
    llr_normal,
    pair_outcomes,
    simulate_elo_sprt,
    simulate_results,
)
from mctslib.play.sprt import SPRT, sprt
from mctslib.play.stats import score_from_elo


def test_bounds_and_steps_by_hand():
    test = SPRT(0.45, 0.55, 0.05, 0.05)
    assert test.upper == pytest.approx(math.log(19))  # ln(0.95 / 0.05)
    assert test.lower == pytest.approx(-math.log(19))
    assert test.win_step == pytest.approx(math.log(11 / 9))
    assert test.loss_step == pytest.approx(-math.log(11 / 9))
    assert test.llr(3, 1) == pytest.approx(2 * math.log(11 / 9))


def test_straight_wins_stop_when_the_bound_is_crossed():
    # 14 wins give 14 ln(11/9) = 2.809 < ln 19 = 2.944; the 15th gives 3.010.
    outcome = sprt("W" * 40)
    assert (outcome.decision, outcome.games, outcome.wins) == ("H1", 15, 15)
    assert outcome.llr[13] < outcome.test.upper <= outcome.llr[14]
    losses = sprt([0.0] * 40)
    assert (losses.decision, losses.games) == ("H0", 15)


def test_draws_leave_the_ratio_unchanged():
    outcome = sprt("D" * 10 + "W" * 20)
    assert (outcome.decision, outcome.games, outcome.draws) == ("H1", 25, 10)
    assert outcome.llr[:10] == (0.0,) * 10
    assert sprt([0.5, 1.0, 1, "W"]).wins == 3  # numbers and letters read alike


def test_an_even_stream_never_decides():
    outcome = sprt("WL" * 100)
    assert outcome.decision is None and outcome.games == 200
    assert outcome.llr[-1] == pytest.approx(0.0, abs=1e-12)
    assert "no decision after 200 games" in str(outcome)


def test_error_rates_are_about_alpha_and_beta():
    # Simulated matches where the truth is exactly H0 or H1: the test should
    # pick the wrong hypothesis in at most about 5% of them (Wald's bound).
    rng = np.random.default_rng(2024)
    test = SPRT(0.45, 0.55, 0.05, 0.05)
    for p, wrong in ((0.45, "H1"), (0.55, "H0")):
        decisions = [test.run(np.where(rng.random(3000) < p, 1.0, 0.0)).decision
                     for _ in range(400)]
        assert None not in decisions  # 3,000 games always suffice here
        assert decisions.count(wrong) / len(decisions) < 0.08


def test_outcome_as_dict_records_the_model():
    data = sprt("W" * 20).as_dict()
    assert data["decision"] == "H1" and data["games"] == 15 and len(data["llr"]) == 15
    assert "draws" in data["model"] and data["p0"] == 0.45 and data["alpha"] == 0.05


@pytest.mark.parametrize("call, words", [
    (lambda: SPRT(0.55, 0.45), "p0 must be smaller than p1"),
    (lambda: SPRT(0.0, 0.5), "p0 must be strictly between 0 and 1"),
    (lambda: SPRT(0.45, 0.55, alpha=0.5), "alpha must be strictly between 0 and 0.5"),
    (lambda: SPRT(0.45, 0.55, beta="x"), "beta"),
    (lambda: sprt([1.0, 0.7]), "1, 0.5 or 0"),
    (lambda: sprt("WX"), "1, 0.5 or 0"),
])
def test_bad_input_is_a_sentence(call, words):
    with pytest.raises(ValueError, match=words):
        call()


# --- The GSPRT of chess engine testing (mctslib.play.elo_sprt) ---------------------------

def test_pentanomial_and_trinomial_counts():
    assert pair_outcomes("LL" "LD" "DL" "LW" "WL" "DD" "DW" "WD" "WW") == (1, 2, 3, 2, 1)
    assert pair_outcomes([1, 0.0, "D", 0.5, 1.0, 1]) == (0, 0, 2, 0, 1)
    assert pair_outcomes(np.array([1.0, 1.0])) == (0, 0, 0, 0, 1)
    assert pair_outcomes("") == (0, 0, 0, 0, 0)
    assert game_outcomes("WWDLW") == (1, 1, 3)  # losses, draws, wins: by points


@pytest.mark.parametrize("results, words", [
    ("WLW", "odd number of games \\(3\\)"),
    ("WX", "1, 0.5 or 0"),
    ([1, 0.25], "1, 0.5 or 0"),
    ([True, False], "1, 0.5 or 0"),
    (b"WL", "sequence of game results"),
    (7, "sequence of game results"),
])
def test_pair_outcomes_refuses_bad_results(results, words):
    with pytest.raises(ValueError, match=words):
        pair_outcomes(results)


def _log_likelihood(weights, probabilities):
    return sum(w * math.log(p) for w, p in zip(weights, probabilities))


def _trinomial_reference(s, counts):
    """Best log-likelihood over (loss, draw, win) chances with expected score s: one free
    parameter (the draw chance t; then win = s - t/2, loss = 1 - s - t/2), found by
    ternary search on a concave function. Zero counts weigh 0.001, as in the module."""
    weights = [c if c else 1e-3 for c in counts]
    low, high = 0.0, min(2 * s, 2 - 2 * s)

    def value(t):
        return _log_likelihood(weights, (1 - s - t / 2, t, s - t / 2))
    for _ in range(200):
        a, b = low + (high - low) / 3, high - (high - low) / 3
        low, high = (a, high) if value(a) < value(b) else (low, b)
    return value((low + high) / 2)


def _pentanomial_reference(s, counts):
    """Best log-likelihood over the five pair outcomes with expected per-game score s,
    by a general constrained optimiser (independent of the module's Newton iteration)."""
    weights = np.array([c if c else 1e-3 for c in counts], dtype=float)
    values = np.arange(5) / 4
    start = np.full(5, 0.2) + (s - 0.5) * (values - 0.5) / 0.625 * 0.2
    fit = minimize(lambda q: -_log_likelihood(weights, q), start, method="SLSQP",
                   bounds=[(1e-12, 1)] * 5, options={"ftol": 1e-14, "maxiter": 500},
                   constraints=[{"type": "eq", "fun": lambda q: q.sum() - 1},
                                {"type": "eq", "fun": lambda q: q @ values - s}])
    assert fit.success
    return -fit.fun


@pytest.mark.parametrize("counts", [(20, 10, 30), (3, 0, 9), (0, 40, 0), (50, 5, 45), (1, 0, 0)])
def test_trinomial_llr_is_the_difference_of_best_fits(counts):
    s0, s1 = score_from_elo(0), score_from_elo(20)
    expected = _trinomial_reference(s1, counts) - _trinomial_reference(s0, counts)
    assert llr_logistic(0, 20, counts) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("counts", [(3, 10, 30, 12, 9), (0, 4, 20, 6, 0), (9, 0, 11, 0, 14)])
def test_pentanomial_llr_is_the_difference_of_best_fits(counts):
    s0, s1 = score_from_elo(-10), score_from_elo(30)
    expected = _pentanomial_reference(s1, counts) - _pentanomial_reference(s0, counts)
    assert llr_logistic(-10, 30, counts) == pytest.approx(expected, abs=1e-6)


def test_vectorised_llr_and_normal_approximation_agree():
    rng = np.random.default_rng(3)
    for outcomes in (3, 5):
        table = rng.integers(0, 300, (200, outcomes))
        table[rng.random(table.shape) < 0.2] = 0
        many = llr_logistic_many(0, 20, table)
        one_by_one = [llr_logistic(0, 20, row) for row in table.tolist()]
        assert np.allclose(many, one_by_one, rtol=0, atol=1e-9)
    # With many games the normal approximation is within a few percent of the MLE ratio.
    for counts in ((300, 150, 400), (40, 120, 300, 140, 60), (500, 100, 430)):
        exact, normal = llr_logistic(0, 10, counts), llr_normal(0, 10, counts)
        assert abs(normal - exact) < 0.03 * abs(exact) + 0.01, (counts, exact, normal)
    assert llr_logistic(0, 10, (0, 0, 0)) == 0.0 == llr_normal(0, 10, (0, 0, 0, 0, 0))
    # More wins, more evidence for H1.
    ratios = [llr_logistic(0, 20, (10, 20, 30, 20, wins)) for wins in range(5, 30, 5)]
    assert ratios == sorted(ratios)


def test_run_reads_pairs_and_stops_at_the_first_crossing():
    results = simulate_results(15, 3000, seed=11, draw_rate=0.1)[0]
    test = EloSPRT(0, 30)
    outcome = test.run(results)
    assert outcome.decision in ("H0", "H1") and outcome.games % 2 == 0
    assert outcome.pairs == len(outcome.llr) == outcome.games // 2
    # The path is the LLR of the counts after each pair, recomputed from scratch.
    for pairs in (1, 7, outcome.pairs):
        counts = pair_outcomes(results[:2 * pairs])
        assert outcome.llr[pairs - 1] == llr_logistic(0, 30, counts)
    assert all(test.lower < value < test.upper for value in outcome.llr[:-1])
    assert test.decide(outcome.llr[-1]) == outcome.decision
    # A tracker fed one game at a time ends in the same state.
    tracker = test.tracker()
    for result in results[:outcome.games]:
        tracker.update(result)
    assert tracker.outcome() == outcome
    with pytest.raises(ValueError, match="already accepted"):
        tracker.update("W")


def test_trinomial_run_moves_after_every_game():
    outcome = elo_sprt("WDLW" * 50, 0, 30, model="trinomial")
    assert len(outcome.llr) == outcome.games
    assert outcome.llr[2] == llr_logistic(0, 30, (1, 1, 1))
    words = str(outcome)
    assert f"{outcome.games:,} games" in words and "pairs" not in words
    data = elo_sprt("WW" * 200).as_dict()
    assert data["decision"] == "H1" and data["pairs"] == data["games"] // 2
    assert "pentanomial" in data["model"] and data["elo1"] == 20.0


def test_an_odd_undecided_stream_is_refused_but_an_early_stop_is_not():
    with pytest.raises(ValueError, match="odd number of games \\(5\\) and no decision"):
        elo_sprt("WLWLW")
    assert elo_sprt("WW" * 200 + "L").decision == "H1"  # stops before the lone game
    assert elo_sprt("WLWLW", model="trinomial").decision is None


def test_simulation_plays_the_games_simulate_results_shows():
    test = EloSPRT(0, 40)
    simulation = simulate_elo_sprt(test, 20, runs=12, seed=3, draw_rate=0.1,
                                   opening_bias=0.3, max_games=600)
    matches = simulate_results(20, 600, runs=12, seed=3, draw_rate=0.1, opening_bias=0.3)
    outcomes = [test.run(match) for match in matches]
    assert [o.games if o.decision else 600 for o in outcomes] == list(simulation.games)
    assert sum(o.decision == "H1" for o in outcomes) == simulation.accepted_h1
    assert sum(o.decision is None for o in outcomes) == simulation.undecided


def test_error_rates_and_stopping_times_by_simulation():
    # 2,000 simulated matches per truth. H1 is +40 Elo rather than a realistic +10 or +20
    # to keep the test fast (the error rates do not depend on the gap; games scale as
    # 1 / gap^2). Openings are lopsided (bias up to 0.3 for the first player): the two
    # games of a pair are negatively correlated, which only the pentanomial model sees.
    runs, slack = 2000, 3 * math.sqrt(0.05 * 0.95 / 2000)  # three standard errors
    stopping = {}
    for model in ("pentanomial", "trinomial"):
        test = EloSPRT(0, 40, 0.05, 0.05, model)
        at_h0 = simulate_elo_sprt(test, 0, runs, seed=1, draw_rate=0.1, opening_bias=0.3)
        at_h1 = simulate_elo_sprt(test, 40, runs, seed=2, draw_rate=0.1, opening_bias=0.3)
        assert at_h0.undecided == at_h1.undecided == 0
        assert at_h0.accepted_h1 / runs < 0.05 + slack, (model, at_h0.as_dict())
        assert at_h1.accepted_h0 / runs < 0.05 + slack, (model, at_h1.as_dict())
        stopping[model] = (at_h0.mean_games, at_h1.mean_games)
        if model == "pentanomial":  # it models the pairs: its rates are near alpha and beta
            assert at_h0.accepted_h1 / runs > 0.05 - slack
            assert at_h1.accepted_h0 / runs > 0.05 - slack
    # Pairs need fewer games when openings are lopsided.
    for pairs, singles in zip(stopping["pentanomial"], stopping["trinomial"]):
        assert pairs < 0.92 * singles, stopping


def test_pairs_cost_nothing_when_openings_are_balanced():
    means = [simulate_elo_sprt(EloSPRT(0, 40, model=model), 40, 500, seed=5,
                               draw_rate=0.1).mean_games
             for model in ("pentanomial", "trinomial")]
    assert abs(means[0] / means[1] - 1) < 0.12, means


@pytest.mark.parametrize("call, words", [
    (lambda: EloSPRT(20, 0), "elo0 must be smaller than elo1"),
    (lambda: EloSPRT(0, 1e6), "strictly between 0 and 1"),
    (lambda: EloSPRT(0, 20, alpha=0.5), "alpha must be strictly between 0 and 0.5"),
    (lambda: EloSPRT(0, 20, model="binomial"), "model must be one of"),
    (lambda: EloSPRT(0, 20, method="exact"), "method must be one of"),
    (lambda: EloSPRT(0, "10"), "elo1"),
    (lambda: EloSPRT().llr((1, 2, 3)), "5 numbers for the pentanomial"),
    (lambda: llr_logistic(0, 20, (1, 2, 3, 4)), "3 whole numbers"),
    (lambda: llr_logistic(0, 20, (1, -2, 3)), "counts\\[1\\]"),
    (lambda: llr_logistic(0, 20, (1, 2.5, 3)), "counts\\[1\\]"),
    (lambda: llr_logistic_many(0, 20, [[1, 2, 3, 4]]), "3 or 5 columns"),
    (lambda: llr_logistic_many(0, 20, [[1.5, 2, 3]]), "whole numbers"),
    (lambda: simulate_elo_sprt("test", 0), "test must be an EloSPRT"),
    (lambda: simulate_elo_sprt(EloSPRT(), 0, draw_rate=0.5, opening_bias=0.4), "no room"),
    (lambda: simulate_elo_sprt(EloSPRT(), 0, max_games=101), "max_games must be even"),
    (lambda: simulate_results(0, 7), "games must be even"),
    (lambda: EloSPRT().decide(math.nan), "llr must be a number"),
])
def test_bad_gsprt_input_is_a_sentence(call, words):
    with pytest.raises(ValueError, match=words):
        call()
