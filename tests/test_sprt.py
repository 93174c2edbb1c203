"""Wald's sequential probability ratio test on match results (mctslib.play.sprt)."""

import math

import numpy as np
import pytest

from mctslib.play.sprt import SPRT, sprt


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
