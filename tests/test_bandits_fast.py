"""The numba engine of chapter 2's bandit experiment gives the numpy runner's results bit for bit."""

import numpy as np
import pytest

from mctslib.learners.bandits import UCB1, BanditArms, EpsilonGreedy, Greedy, run_experiment
from mctslib.learners.ucb1 import SQRT2

FIELDS = ("pulls", "mean_regret", "regret_low", "regret_high", "mean_reward", "final_regret",
          "best_arm_share", "pull_counts", "choices")
WIN_DRAW_LOSS_ARMS = BanditArms([0.20, 0.35, 0.10, 0.45, 0.30], [0.50, 0.30, 0.60, 0.30, 0.20])
BERNOULLI_ARMS = BanditArms([0.3, 0.5, 0.2, 0.7, 0.4])
POLICIES = (Greedy(), EpsilonGreedy(0.1), EpsilonGreedy(0.5), UCB1(SQRT2), UCB1(0.25),
            UCB1(0.0), UCB1(SQRT2, (-1, 1)), UCB1(3.0, (-2.5, 7.0)))


def both_engines(arms, **kwargs):
    return [run_experiment(arms, POLICIES, record_choices=True, engine=engine, **kwargs)
            for engine in ("numpy", "numba")]


@pytest.mark.parametrize("arms", [WIN_DRAW_LOSS_ARMS, BERNOULLI_ARMS])
@pytest.mark.parametrize("seed", [0, 2024])
def test_numba_engine_equals_numpy_engine(arms, seed):
    readable, fast = both_engines(arms, runs=60, pulls=1_500, seed=seed, chunk=97)
    for a, b in zip(readable, fast):
        assert a.label == b.label
        for name in FIELDS:
            assert np.array_equal(getattr(a, name), getattr(b, name)), (a.label, name)


def test_engines_agree_when_chunks_and_checkpoints_are_tiny():
    # Chunks of 1 pull and fewer pulls than arms: every boundary case of the segments.
    for pulls in (1, 3, 7):
        readable, fast = both_engines(BERNOULLI_ARMS, runs=5, pulls=pulls, seed=3, chunk=1)
        for a, b in zip(readable, fast):
            for name in FIELDS:
                assert np.array_equal(getattr(a, name), getattr(b, name)), (pulls, name)


def test_ties_go_to_the_lowest_arm_in_both_engines():
    # Equal arms and c = 0: greedy ties all the time; the lowest index must win each one.
    arms = BanditArms([0.5, 0.5, 0.5])
    readable, fast = both_engines(arms, runs=20, pulls=200, seed=11)
    for a, b in zip(readable, fast):
        assert np.array_equal(a.choices, b.choices)


def test_numba_engine_sends_partial_results_to_the_callback():
    frames = []
    run_experiment(BERNOULLI_ARMS, [UCB1()], runs=4, pulls=100, seed=1, chunk=30,
                   callback=frames.append, engine="numba")
    assert [frame[0].pulls[-1] for frame in frames] == [30, 60, 90]


def test_engine_must_be_named():
    with pytest.raises(ValueError, match="engine must be one of 'numpy', 'numba'"):
        run_experiment(BERNOULLI_ARMS, [UCB1()], runs=2, pulls=10, engine="fast")
