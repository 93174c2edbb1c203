"""Bandit arms, policies and the regret experiment of chapter 2."""

import math
import re
from fractions import Fraction

import numpy as np
import pytest
from matplotlib.figure import Figure

from mctslib.learners.bandits import (
    UCB1,
    BanditArms,
    EpsilonGreedy,
    Greedy,
    checkpoints,
    run_experiment,
    ucb1_scores,
)
from mctslib.learners.ucb1 import SQRT2, ucb1_score
from mctslib.views.plotting import LivePlot
from mctslib.views.regret import draw_regret

CLOSE_ARMS = BanditArms([0.3, 0.5, 0.2, 0.7, 0.4])
WIN_DRAW_LOSS_ARMS = BanditArms([0.20, 0.35, 0.10, 0.45, 0.30], [0.50, 0.30, 0.60, 0.30, 0.20])
ALL_POLICIES = (Greedy(), EpsilonGreedy(0.1), UCB1(SQRT2), UCB1(SQRT2, (-1, 1)))


def assert_results_equal(first, second):
    assert len(first) == len(second)
    for a, b in zip(first, second):
        assert a.label == b.label
        for name in ("pulls", "mean_regret", "regret_low", "regret_high", "mean_reward",
                     "final_regret", "best_arm_share", "pull_counts", "choices"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), name


# ---------------------------------------------------------------- arms


def test_rewards_follow_win_draw_loss_thresholds():
    arms = BanditArms([0.5], [0.3])  # win below 0.5, draw in [0.5, 0.8), loss from 0.8
    uniforms = np.array([[0.1], [0.5], [0.79], [0.8], [0.99]])
    assert arms.rewards(uniforms).ravel().tolist() == [1.0, 0.5, 0.5, 0.0, 0.0]


def test_means_and_best_arm():
    assert np.allclose(WIN_DRAW_LOSS_ARMS.means, [0.45, 0.50, 0.40, 0.60, 0.40])
    assert WIN_DRAW_LOSS_ARMS.best_arm == 3
    assert BanditArms([0.7, 0.7]).best_arm == 0  # lowest index among equals


def test_bernoulli_arms_have_no_draws():
    assert BanditArms([0.2, 0.9]).draw_probs.tolist() == [0.0, 0.0]


# ---------------------------------------------------------------- policies


def test_ucb1_scores_agree_with_selection_ucb1_score():
    rng = np.random.default_rng(5)
    counts = rng.integers(1, 50, size=(20, 6))
    sums = rng.random((20, 6)) * counts
    pulls_done = int(counts.sum(axis=1).max())
    for c in (0.0, 0.5, SQRT2, 3.0):
        vectorised = ucb1_scores(sums, counts, pulls_done, c)
        scalar = [[ucb1_score(float(s), int(n), pulls_done, c) for s, n in zip(srow, nrow)]
                  for srow, nrow in zip(sums, counts)]
        assert np.array_equal(vectorised, np.array(scalar))


def test_ucb1_hand_computed_choice():
    # Arm 0: 3/5 + sqrt(ln 15 / 5) = 1.336; arm 1: 5/10 + sqrt(ln 15 / 10) = 1.020.
    sums, counts = np.array([[3.0, 5.0]]), np.array([[5, 10]])
    assert UCB1(c=1.0).choose(sums, counts, 15, None).tolist() == [0]
    # Arm 1 gets the same mean as arm 0: the bonus of the less-pulled arm 0 decides.
    assert UCB1(c=1.0).choose(np.array([[3.0, 6.0]]), counts, 15, None).tolist() == [0]
    # Exactly equal scores: the lowest index wins.
    assert UCB1(c=1.0).choose(np.array([[2.0, 2.0]]), np.array([[4, 4]]), 8, None).tolist() == [0]


@pytest.mark.parametrize("policy", ALL_POLICIES + (EpsilonGreedy(1.0),), ids=str)
def test_every_policy_pulls_each_arm_once_first_in_index_order(policy):
    (result,) = run_experiment(CLOSE_ARMS, [policy], runs=30, pulls=40, seed=4,
                               record_choices=True)
    first_round = result.choices[:, : CLOSE_ARMS.count]
    assert (first_round == np.arange(CLOSE_ARMS.count)).all()


def test_greedy_on_sure_arms_hand_derived():
    # Arm 1 always wins, arms 0 and 2 never: after the first round greedy stays on arm 1.
    (result,) = run_experiment(BanditArms([0.0, 1.0, 0.0]), [Greedy()], runs=3, pulls=10,
                               seed=0, record_choices=True)
    assert result.choices.tolist() == [[0, 1, 2] + [1] * 7] * 3
    assert result.final_regret.tolist() == [2.0, 2.0, 2.0]  # one pull each of gap 1
    assert result.wrong_arm_share == 0.0


def test_draws_count_half_a_win_in_regret_and_reward():
    # Arm 0 always wins, arm 1 always draws: greedy pulls arm 1 once and loses half a win.
    (result,) = run_experiment(BanditArms([1.0, 0.0], [0.0, 1.0]), [Greedy()], runs=2,
                               pulls=100, seed=0)
    assert result.final_regret.tolist() == [0.5, 0.5]
    assert result.mean_reward[-1] == 99.5


def test_epsilon_zero_is_greedy():
    greedy, epsilon_zero = run_experiment(CLOSE_ARMS, [Greedy(), EpsilonGreedy(0.0)], runs=50,
                                          pulls=300, seed=6, record_choices=True)
    assert np.array_equal(greedy.choices, epsilon_zero.choices)


def test_epsilon_one_pulls_arms_uniformly():
    (result,) = run_experiment(CLOSE_ARMS, [EpsilonGreedy(1.0)], runs=200, pulls=2000, seed=7)
    assert abs(result.best_arm_share.mean() - 1 / CLOSE_ARMS.count) < 0.01


# ------------------------------------------------------- reward scale


@pytest.mark.parametrize("c", [0.3, SQRT2, 3.0])
def test_ucb1_on_minus_one_one_is_ucb1_on_zero_one_with_half_c(c):
    wide, narrow_half_c, narrow_same_c = run_experiment(
        WIN_DRAW_LOSS_ARMS, [UCB1(c, (-1, 1)), UCB1(c / 2, (0, 1)), UCB1(c, (0, 1))],
        runs=100, pulls=1500, seed=8, record_choices=True,
    )
    assert np.array_equal(wide.choices, narrow_half_c.choices)
    assert np.array_equal(wide.final_regret, narrow_half_c.final_regret)
    # The same c on the other scale explores differently (so the check above means something).
    assert not np.array_equal(wide.choices, narrow_same_c.choices)


# ------------------------------------------------------- experiment


def test_same_seed_gives_identical_arrays():
    kwargs = {"runs": 40, "pulls": 500, "seed": 11, "record_choices": True}
    assert_results_equal(run_experiment(CLOSE_ARMS, ALL_POLICIES, **kwargs),
                         run_experiment(CLOSE_ARMS, ALL_POLICIES, **kwargs))


def test_different_seeds_differ():
    first = run_experiment(CLOSE_ARMS, [EpsilonGreedy()], runs=40, pulls=500, seed=1)
    second = run_experiment(CLOSE_ARMS, [EpsilonGreedy()], runs=40, pulls=500, seed=2)
    assert not np.array_equal(first[0].final_regret, second[0].final_regret)


def test_chunk_size_and_callback_do_not_change_results():
    frames = []
    chunked = run_experiment(CLOSE_ARMS, ALL_POLICIES, runs=20, pulls=300, seed=3, chunk=7,
                             callback=frames.append, record_choices=True)
    whole = run_experiment(CLOSE_ARMS, ALL_POLICIES, runs=20, pulls=300, seed=3, chunk=300,
                           record_choices=True)
    assert_results_equal(chunked, whole)
    assert len(frames) == math.ceil(300 / 7) - 1  # no callback after the last chunk
    assert [frame[0].pulls[-1] for frame in frames] == sorted(f[0].pulls[-1] for f in frames)
    assert all(frame[0].pulls[-1] <= 7 * (i + 1) for i, frame in enumerate(frames))


def test_adding_a_policy_leaves_the_others_unchanged():
    two = run_experiment(CLOSE_ARMS, ALL_POLICIES[:2], runs=30, pulls=400, seed=9)
    four = run_experiment(CLOSE_ARMS, ALL_POLICIES, runs=30, pulls=400, seed=9)
    assert_results_equal(two, four[:2])


def test_common_random_numbers_same_policy_twice_gives_same_result():
    first, second = run_experiment(CLOSE_ARMS, [EpsilonGreedy(0.0), Greedy()], runs=30,
                                   pulls=400, seed=10)
    assert np.array_equal(first.mean_reward, second.mean_reward)


def test_regret_never_decreases():
    for result in run_experiment(CLOSE_ARMS, ALL_POLICIES, runs=50, pulls=2000, seed=12):
        for curve in (result.mean_regret, result.regret_low, result.regret_high):
            assert (np.diff(curve) >= 0).all()
        assert (result.regret_low <= result.mean_regret + 1e-9).all()
        assert (result.mean_regret <= result.regret_high + 1e-9).all()


def test_ucb1_regret_far_below_epsilon_greedy_with_a_clearly_best_arm():
    epsilon_greedy, ucb1 = run_experiment(BanditArms([0.1, 0.2, 0.9]),
                                          [EpsilonGreedy(0.1), UCB1()],
                                          runs=100, pulls=10_000, seed=13)
    # epsilon-greedy keeps paying about 0.1 * (0.8 + 0.7) / 3 = 0.05 per pull, ~500 in all.
    assert epsilon_greedy.mean_regret[-1] > 400
    assert ucb1.mean_regret[-1] < 0.25 * epsilon_greedy.mean_regret[-1]
    assert ucb1.best_arm_share.mean() > 0.98


def test_result_bookkeeping():
    for result in run_experiment(CLOSE_ARMS, ALL_POLICIES, runs=25, pulls=777, seed=14):
        assert result.runs == 25 and result.total_pulls == 777
        assert result.pulls[0] == 1 and result.pulls[-1] == 777
        assert (result.pull_counts.sum(axis=1) == 777).all()
        share = result.pull_counts[:, CLOSE_ARMS.best_arm] / 777
        assert np.allclose(result.best_arm_share, share)
        gaps = CLOSE_ARMS.means.max() - CLOSE_ARMS.means
        assert np.allclose(result.final_regret, result.pull_counts @ gaps)
        assert result.choices is None


def test_regret_at_reads_a_checkpoint():
    (result,) = run_experiment(CLOSE_ARMS, [UCB1()], runs=20, pulls=1000, seed=17)
    i = int(np.flatnonzero(result.pulls == 100)[0])
    assert result.regret_at(100) == (result.mean_regret[i], result.regret_low[i],
                                     result.regret_high[i])
    # The mean over runs is the correctly rounded one (mctslib.fixed_order), exactly.
    assert result.regret_at(1000)[0] == (float(sum(Fraction(r) for r in result.final_regret))
                                         / len(result.final_regret))
    with pytest.raises(ValueError, match="^pulls"):
        result.regret_at(0)


def test_checkpoints_cover_powers_of_ten_and_the_end():
    points = checkpoints(10_000)
    assert points[0] == 1 and points[-1] == 10_000
    assert {10, 100, 1000} <= set(points.tolist())
    assert (np.diff(points) > 0).all() and len(points) <= 505


# ------------------------------------------------------- figure


def test_draw_regret_draws_one_line_and_band_per_policy():
    results = run_experiment(CLOSE_ARMS, ALL_POLICIES[:3], runs=20, pulls=200, seed=15)
    fig = Figure()
    draw_regret(fig, results)
    (ax,) = fig.axes
    assert len(ax.lines) == 3 and len(ax.collections) == 3
    assert [text.get_text() for text in ax.get_legend().get_texts()] == [r.label for r in results]
    assert ax.get_xlabel() and ax.get_ylabel()
    assert ax.get_xlim() == (0.0, 200.0)


def test_draw_regret_options():
    results = run_experiment(CLOSE_ARMS, ALL_POLICIES[:2], runs=20, pulls=200, seed=15)
    fig = Figure()
    draw_regret(fig, results, log_x=True, ymax=5.0, colors=["red", "black"])
    (ax,) = fig.axes
    assert ax.get_xscale() == "log" and ax.get_ylim() == (0.0, 5.0)
    assert [line.get_color() for line in ax.lines] == ["red", "black"]


def test_draw_regret_can_leave_a_band_out():
    results = run_experiment(CLOSE_ARMS, ALL_POLICIES[:3], runs=20, pulls=200, seed=15)
    fig = Figure()
    draw_regret(fig, results, bands=[False, True, True])
    (ax,) = fig.axes
    assert len(ax.lines) == 3 and len(ax.collections) == 2
    for bad in ([True], "yes", [True, "no", True]):
        with pytest.raises(ValueError, match="bands"):
            draw_regret(Figure(), results, bands=bad)


def test_live_plot_can_draw_regret():
    results = run_experiment(CLOSE_ARMS, [UCB1()], runs=5, pulls=50, seed=16)
    live = LivePlot(draw_regret)
    live.finish(results)
    assert len(live.fig.axes) == 1


# ------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("make", "name"),
    [
        (lambda: BanditArms([]), "win_probs"),
        (lambda: BanditArms([0.5, 1.2]), "win_probs[1]"),
        (lambda: BanditArms([-0.1]), "win_probs[0]"),
        (lambda: BanditArms([0.5], [1.5]), "draw_probs[0]"),
        (lambda: BanditArms([0.6, 0.2], [0.5, 0.2]), "win_probs[0] + draw_probs[0]"),
        (lambda: BanditArms([0.5, 0.2], [0.1]), "draw_probs"),
        (lambda: EpsilonGreedy(1.5), "epsilon"),
        (lambda: EpsilonGreedy(-0.1), "epsilon"),
        (lambda: UCB1(-1.0), "c (the exploration constant)"),
        (lambda: UCB1(1.0, (1, -1)), "reward_scale"),
        (lambda: run_experiment(CLOSE_ARMS, [Greedy()], runs=10, pulls=0), "pulls"),
        (lambda: run_experiment(CLOSE_ARMS, [Greedy()], runs=0, pulls=10), "runs"),
        (lambda: run_experiment(CLOSE_ARMS, [], runs=10, pulls=10), "policies"),
        (lambda: run_experiment(CLOSE_ARMS, [Greedy()], runs=5, pulls=5, seed=-1), "seed"),
        (lambda: run_experiment([0.5, 0.6], [Greedy()], runs=5, pulls=5), "arms"),
    ],
)
def test_bad_input_names_the_parameter(make, name):
    with pytest.raises(ValueError, match="^" + re.escape(name)):
        make()
