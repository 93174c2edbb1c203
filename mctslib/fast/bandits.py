"""The bandit experiment's pulls in numba: the twin of the numpy runner in chapter 2.

:func:`mctslib.learners.bandits.run_experiment` with ``engine="numba"`` hands
every stretch of pulls between two checkpoints to :func:`play_pulls`. The
kernel repeats the numpy runner operation for operation, so both engines give
bit-identical results for the same seed (tests/test_bandits_fast.py):

- the reward of the ``k``-th pull of arm ``i`` in a run comes from the same
  SplitMix64 stream as in :func:`mctslib.learners.bandits.pull_uniforms`: the
  run's key for that arm, advanced ``k + 1`` times and mixed, in unsigned 64-bit
  arithmetic (which wraps around in numba as in numpy), then turned into a
  float with 53 random bits and into a reward with the same two comparisons
  (``u < win``, then ``u < win + draw``);
- epsilon-greedy's coin flips and random arms are drawn by the caller, one
  ``random(runs)`` and one ``integers(arms, size=runs)`` per pull after the
  first round, exactly as the numpy policy draws them;
- ``ln N`` comes from a table the caller fills with Python's ``math.log``
  (the same function the numpy runner calls), so no libm difference can creep
  in; scores are ``sum / count + c * sqrt(ln N / count)`` in that order, and
  ties go to the lowest arm index (``numpy.argmax`` keeps the first maximum,
  the loop keeps a new best only if it is strictly higher);
- each run's regret, reward and statistics are added up pull by pull in the
  same order as the numpy arrays are.

Pulls are the outer loop and runs the inner one, as in the numpy runner: the
state of all runs (1,000 x 5 arms) stays in the cache. The kernel is several
times faster than the numpy runner (benchmarks are not kept for it: the book
uses it only to make the longer sweeps of chapter 2 quick). Computing the
reward without branches (below) halved the kernel's time when it was measured;
keeping each arm's mean instead of dividing every pull is the cheaper form.
Chapter 2.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

#: Policy kinds understood by :func:`play_pulls`.
GREEDY, EPSILON_GREEDY, UCB1, OPTIMISTIC_GREEDY, UCB1_TUNED = 0, 1, 2, 3, 4

_STEP = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_TO_UNIT = 2.0**-53


@njit(cache=True)
def _pull_uniform(key, pulls_before):
    # SplitMix64 output number pulls_before + 1 of the stream starting at key.
    z = key + np.uint64(pulls_before + 1) * _STEP
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return float(z >> np.uint64(11)) * _TO_UNIT


@njit(cache=True)
def play_pulls(kind, c, epsilon, initial, weight, offset, stretch, win_probs, win_or_draw_probs,
               gaps, best, keys, first_pull, explore_uniforms, explore_arms, log_table,
               start, stop, sums, squares, counts, means, regret, reward, best_pulls, choices,
               record):
    """Play pulls ``start .. stop - 1`` of every run, updating the state arrays in place.

    ``keys[run, arm]`` is the key of that arm's stream in that run;
    ``explore_uniforms[t]`` and ``explore_arms[t]`` hold epsilon-greedy's draws for
    pull ``first_pull + t`` (unused by the other kinds); ``log_table[n]`` is
    ``math.log(n)``. ``initial`` and ``weight`` are the optimistic start of
    :class:`~mctslib.learners.bandits.OptimisticGreedy`; ``squares`` holds each arm's sum
    of squared rewards (UCB1-Tuned's variance). With ``record`` true,
    ``choices[run, pull]`` receives every arm chosen.
    """
    runs, arms = counts.shape
    for pull in range(start, stop):
        t = pull - first_pull
        log_n = log_table[pull]
        for run in range(runs):
            if pull < arms:  # first round: every arm once, in index order
                choice = pull
            elif kind == EPSILON_GREEDY and explore_uniforms[t, run] < epsilon:
                choice = explore_arms[t, run]
            else:
                choice = 0
                best_score = -math.inf
                for arm in range(arms):
                    score = means[run, arm]
                    if kind == UCB1:
                        score = score + c * math.sqrt(log_n / counts[run, arm])
                    elif kind == OPTIMISTIC_GREEDY:
                        score = (weight * initial + sums[run, arm]) / (weight + counts[run, arm])
                    elif kind == UCB1_TUNED:
                        # The numpy policy's operations in its order (UCB1Tuned._rule).
                        variance_bound = (squares[run, arm] / counts[run, arm] - score * score
                                          + math.sqrt(2.0 * log_n / counts[run, arm]))
                        score = score + math.sqrt(log_n / counts[run, arm]
                                                  * min(0.25, variance_bound))
                    if score > best_score:
                        best_score = score
                        choice = arm
            u = _pull_uniform(keys[run, choice], counts[run, choice])
            # 1 for a win, 0.5 for a draw, 0 for a loss (win <= win + draw), written without
            # branches: the outcome is a coin flip the processor cannot predict.
            value = 0.5 * ((u < win_probs[choice]) + (u < win_or_draw_probs[choice]))
            scaled = offset + stretch * value
            sums[run, choice] += scaled
            squares[run, choice] += scaled * scaled
            counts[run, choice] += 1
            means[run, choice] = sums[run, choice] / counts[run, choice]
            regret[run] += gaps[choice]
            reward[run] += value
            best_pulls[run] += best[choice]
            if record:
                choices[run, pull] = choice
