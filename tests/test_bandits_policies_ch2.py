"""Chapter 2's added bandit pieces: per-arm common random numbers and the policies beyond UCB1."""

import math

import numpy as np
import pytest

from mctslib.learners.bandits import (
    UCB1,
    BanditArms,
    Greedy,
    OptimisticGreedy,
    ThompsonSampling,
    UCB1Tuned,
    pull_uniforms,
    run_experiment,
)
from mctslib.rng import spawn_rngs

BERNOULLI_ARMS = BanditArms([0.3, 0.5, 0.2, 0.7, 0.4])
MASK64 = 2**64 - 1


def splitmix64_output(key: int, index: int) -> float:
    """Output number ``index`` (from 1) of SplitMix64 started at ``key``, in plain Python."""
    z = (key + index * 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    z ^= z >> 31
    return (z >> 11) * 2.0**-53


# ------------------------------------------------------------- common random numbers


def test_pull_uniforms_is_splitmix64_per_key_and_count():
    keys = np.array([0, 1, 2**63, MASK64, 0x0123456789ABCDEF], dtype=np.uint64)
    for pulls_before in (0, 1, 7, 10**6):
        counts = np.full(keys.shape, pulls_before)
        expected = [splitmix64_output(int(key), pulls_before + 1) for key in keys]
        assert pull_uniforms(keys, counts).tolist() == expected


def test_pull_uniforms_look_uniform():
    keys = np.random.default_rng(3).integers(0, 2**64, size=20_000, dtype=np.uint64)
    values = pull_uniforms(keys, np.zeros(keys.shape, dtype=np.int64))
    assert values.min() >= 0.0 and values.max() < 1.0
    assert abs(values.mean() - 0.5) < 0.01  # the standard error is 0.002
    assert np.histogram(values, bins=10, range=(0, 1))[0].min() > 1_850  # about 2,000 each


def test_pull_uniforms_refuses_what_it_cannot_use():
    with pytest.raises(ValueError, match="keys must be an array of uint64"):
        pull_uniforms(np.array([1, 2]), np.array([0, 0]))
    with pytest.raises(ValueError, match="pulls_before must hold whole numbers >= 0"):
        pull_uniforms(np.array([1], dtype=np.uint64), np.array([-1]))


@pytest.mark.parametrize("engine", ["numpy", "numba"])
def test_the_kth_pull_of_an_arm_reads_the_kth_number_of_its_stream(engine):
    # Replay greedy in plain Python from the experiment's keys (stream 0 of the seed).
    seed, runs, pulls = 17, 6, 60
    (result,) = run_experiment(BERNOULLI_ARMS, [Greedy()], runs=runs, pulls=pulls, seed=seed,
                               record_choices=True, engine=engine)
    keys = spawn_rngs(seed, 2)[0].integers(0, 2**64, size=(runs, 5), dtype=np.uint64)
    probs = BERNOULLI_ARMS.win_probs.tolist()
    for run in range(runs):
        wins, counts, chosen = [0.0] * 5, [0] * 5, []
        for pull in range(pulls):
            arm = pull if pull < 5 else max(range(5), key=lambda a: (wins[a] / counts[a], -a))
            u = splitmix64_output(int(keys[run, arm]), counts[arm] + 1)
            wins[arm] += float(u < probs[arm])
            counts[arm] += 1
            chosen.append(arm)
        assert result.choices[run].tolist() == chosen


# ------------------------------------------------------------------ the new policies


def test_optimistic_greedy_hand_computed():
    # Q = (1 + S) / (1 + n): arm 0 lost its first pull (0.5), arm 1 won (1.0).
    policy = OptimisticGreedy()
    assert policy.choose(np.array([[0.0, 1.0]]), np.array([[1, 1]]), 2, None).tolist() == [1]
    # Arm 1 then lost twice: (1 + 1) / (1 + 3) = 0.5 ties with arm 0's 0.5; the lower index wins.
    assert policy.choose(np.array([[0.0, 1.0]]), np.array([[1, 3]]), 4, None).tolist() == [0]
    # A start of 0 counted as a million pulls keeps every estimate near 0: the ranking is
    # that of the sums.
    cautious = OptimisticGreedy(initial=0.0, weight=1e6)
    assert cautious.choose(np.array([[3.0, 2.0]]), np.array([[5, 3]]), 8, None).tolist() == [0]


def test_optimistic_greedy_says_what_its_start_is():
    assert OptimisticGreedy().label == "greedy, optimistic start (one imaginary win)"
    assert OptimisticGreedy(0.6, 3.5).label == (
        "greedy, optimistic start (3.5 imaginary pulls paying 0.6)")
    assert OptimisticGreedy(0.5).label == "greedy, optimistic start (1 imaginary pull paying 0.5)"


def test_optimistic_start_locks_onto_a_wrong_arm_less_often_than_greedy():
    greedy, optimistic = run_experiment(BERNOULLI_ARMS, [Greedy(), OptimisticGreedy()],
                                        runs=400, pulls=2_000, seed=1)
    assert optimistic.wrong_arm_share < greedy.wrong_arm_share / 2


def test_ucb1_tuned_hand_computed():
    # Arm 0: 3 wins of 4; arm 1: 1 of 2; N = 6, ln 6 = 1.7918.
    sums, counts = np.array([[3.0, 1.0]]), np.array([[4, 2]])
    log_n = math.log(6)
    scores = []
    for s, n in ((3.0, 4), (1.0, 2)):
        mean = s / n
        variance = s / n - mean**2 + math.sqrt(2 * log_n / n)  # win/lose: squares = sums
        scores.append(mean + math.sqrt(log_n / n * min(0.25, variance)))
    expected = int(np.argmax(scores))
    assert UCB1Tuned().choose(sums, counts, 6, None, squares=sums).tolist() == [expected]
    with pytest.raises(ValueError, match="squares must be given to UCB1-Tuned"):
        UCB1Tuned().choose(sums, counts, 6, None)


def test_ucb1_tuned_is_ucb1_with_half_c_on_win_lose_arms_early_on():
    # Until an arm has thousands of pulls, min(1/4, V) is 1/4 for these arms.
    tuned, half = run_experiment(BERNOULLI_ARMS, [UCB1Tuned(), UCB1(0.5)], runs=100,
                                 pulls=3_000, seed=9, record_choices=True)
    assert np.array_equal(tuned.choices, half.choices)


def test_ucb1_tuned_gives_a_steady_arm_less_bonus_than_ucb1_with_half_c():
    # Arm 0 drew all of its 50,000 pulls (reward 0.5 each: no variance); arm 1 is a coin with
    # mean 0.495. UCB1 with c = 1/2 gives both the same bonus and picks arm 0's higher mean;
    # UCB1-Tuned shrinks arm 0's bonus to its tiny variance bound and picks arm 1.
    sums = np.array([[25_000.0, 24_750.0]])
    squares = np.array([[12_500.0, 24_750.0]])
    counts = np.array([[50_000, 50_000]])
    assert UCB1(0.5).choose(sums, counts, 1_000_000, None).tolist() == [0]
    assert UCB1Tuned().choose(sums, counts, 1_000_000, None, squares=squares).tolist() == [1]


def test_thompson_sampling_is_seeded_and_finds_the_best_arm():
    first = run_experiment(BERNOULLI_ARMS, [ThompsonSampling()], runs=100, pulls=3_000, seed=4,
                           record_choices=True)[0]
    again = run_experiment(BERNOULLI_ARMS, [ThompsonSampling()], runs=100, pulls=3_000, seed=4,
                           record_choices=True)[0]
    assert np.array_equal(first.choices, again.choices)
    assert first.wrong_arm_share == 0.0
    assert first.best_arm_share.mean() > 0.95


def test_thompson_sampling_needs_a_generator():
    with pytest.raises(ValueError, match="rng must be a numpy Generator"):
        ThompsonSampling().choose(np.ones((1, 2)), np.ones((1, 2), dtype=int), 2, None)


def test_the_numba_engine_names_what_it_cannot_run():
    with pytest.raises(ValueError, match="engine='numba' runs every policy but Thompson"):
        run_experiment(BERNOULLI_ARMS, [ThompsonSampling()], runs=2, pulls=10, engine="numba")


@pytest.mark.parametrize("arms", [BERNOULLI_ARMS, BanditArms([0.2, 0.35, 0.45, 0.3],
                                                             [0.5, 0.3, 0.3, 0.2])])
def test_the_numba_engine_runs_the_new_policies_bit_for_bit(arms):
    policies = [OptimisticGreedy(), OptimisticGreedy(0.6, 3.5), UCB1Tuned()]
    readable, fast = (run_experiment(arms, policies, runs=40, pulls=1_200, seed=8, chunk=113,
                                     record_choices=True, engine=engine)
                      for engine in ("numpy", "numba"))
    for a, b in zip(readable, fast):
        for name in ("choices", "final_regret", "mean_regret", "regret_low", "pull_counts"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), (a.label, name)


@pytest.mark.parametrize(("make", "words"), [
    (lambda: OptimisticGreedy(initial=1.5), "initial must be a number in [0, 1]"),
    (lambda: OptimisticGreedy(weight=0), "weight must be a number > 0"),
    (lambda: OptimisticGreedy(weight=-1), "weight must be a number in"),
])
def test_optimistic_greedy_refuses_bad_parameters(make, words):
    with pytest.raises(ValueError) as error:
        make()
    assert words in str(error.value)
