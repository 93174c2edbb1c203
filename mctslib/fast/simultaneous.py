"""One-node simultaneous learners in numba: the twin of :mod:`mctslib.learners.simultaneous`.

Decoupled UCB1 and regret matching with exploration, round for round as the
readable players do it: the same xorshift64 stream (two uniforms per round,
the row player's first), the same floating-point operations in the same
order (sums left to right, no fused multiply-add), so a run gives identical
statistics on both engines (simultaneous-moves chapter; the tests check it).
Each player's statistics live in flat arrays, owned by
:class:`mctslib.learners.simultaneous.FastOneNodeMatch`, which copies them into
the reference player objects whenever a run measures its distance, so
strategies and distances are computed by the same Python code. Kernels only:
this module imports nothing from the readable learners.
"""


from __future__ import annotations

import math

import numpy as np
from numba import njit

from .xorshift import xorshift_next

_S11 = np.uint64(11)
_TWO_TO_MINUS_53 = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True)
def next_uniform(rng):
    """``(next() >> 11) * 2**-53``: a uniform number in [0, 1) from the state in ``rng[0]``."""
    return np.float64(xorshift_next(rng) >> _S11) * _TWO_TO_MINUS_53


@njit(cache=True)
def sample_move(mix, uniform):
    """The first move whose running total of probabilities exceeds ``uniform`` (else the last)."""
    cumulative = 0.0
    last = mix.shape[0] - 1
    for move in range(last):
        cumulative += mix[move]
        if uniform < cumulative:
            return move
    return last


# --------------------------------------------------------------------------- regret matching


@njit(cache=True)
def regret_matching_mix(regrets, exploration, mix):
    """Write into ``mix`` the regret-matching strategy mixed with uniform exploration."""
    n = regrets.shape[0]
    total = 0.0
    for move in range(n):
        if regrets[move] > 0.0:
            total += regrets[move]
    for move in range(n):
        if total > 0.0:
            base = max(0.0, regrets[move]) / total
        else:
            base = 1.0 / n
        mix[move] = (1.0 - exploration) * base + exploration / n


@njit(cache=True)
def regret_matching_update(regrets, move, probability, reward):
    """Importance-weighted regret update: ``estimate - reward`` for every move."""
    estimate = reward / probability
    for other in range(regrets.shape[0]):
        if other == move:
            regrets[other] += estimate - reward
        else:
            regrets[other] -= reward


@njit(cache=True)
def round_rewards(row_rewards, column_rewards, row_move, column_move, win_loss, rng):
    """Both players' rewards for this pair of moves (a third uniform decides a win/loss round)."""
    if win_loss:
        row_reward = 1.0 if next_uniform(rng) < row_rewards[row_move, column_move] else 0.0
        return row_reward, 1.0 - row_reward
    return row_rewards[row_move, column_move], column_rewards[row_move, column_move]


@njit(cache=True)
def regret_matching_rounds(row_rewards, column_rewards, win_loss, rounds, exploration, rng,
                           row_regrets, column_regrets, row_counts, column_counts):
    """Play ``rounds`` rounds of regret matching against regret matching, in place."""
    row_mix = np.empty(row_regrets.shape[0])
    column_mix = np.empty(column_regrets.shape[0])
    for _ in range(rounds):
        row_uniform = next_uniform(rng)
        column_uniform = next_uniform(rng)
        regret_matching_mix(row_regrets, exploration, row_mix)
        row_move = sample_move(row_mix, row_uniform)
        row_counts[row_move] += 1
        regret_matching_mix(column_regrets, exploration, column_mix)
        column_move = sample_move(column_mix, column_uniform)
        column_counts[column_move] += 1
        row_reward, column_reward = round_rewards(row_rewards, column_rewards, row_move,
                                                  column_move, win_loss, rng)
        regret_matching_update(row_regrets, row_move, row_mix[row_move], row_reward)
        regret_matching_update(column_regrets, column_move, column_mix[column_move],
                               column_reward)


# --------------------------------------------------------------------------- decoupled UCB1


@njit(cache=True)
def ucb1_choose(counts, reward_sums, rounds_so_far, c, uniform, tied):
    """A move with the highest UCB1 score; ``uniform`` picks among exact ties (``tied`` is scratch)."""
    best_score = -math.inf
    tie_count = 0
    for move in range(counts.shape[0]):
        if counts[move] == 0:
            score = math.inf
        else:
            score = reward_sums[move] / counts[move] + c * math.sqrt(
                math.log(rounds_so_far) / counts[move])
        if score > best_score:
            best_score = score
            tied[0] = move
            tie_count = 1
        elif score == best_score:
            tied[tie_count] = move
            tie_count += 1
    return tied[int(uniform * tie_count)]


@njit(cache=True)
def ucb1_rounds(row_rewards, column_rewards, win_loss, rounds, rounds_before, c, rng,
                row_counts, row_sums, column_counts, column_sums):
    """Play ``rounds`` rounds of UCB1 against UCB1, in place (``rounds_before`` already played)."""
    row_tied = np.empty(row_counts.shape[0], dtype=np.int64)
    column_tied = np.empty(column_counts.shape[0], dtype=np.int64)
    played = rounds_before
    for _ in range(rounds):
        row_uniform = next_uniform(rng)
        column_uniform = next_uniform(rng)
        row_move = ucb1_choose(row_counts, row_sums, played, c, row_uniform, row_tied)
        column_move = ucb1_choose(column_counts, column_sums, played, c, column_uniform,
                                  column_tied)
        row_counts[row_move] += 1
        column_counts[column_move] += 1
        played += 1
        row_reward, column_reward = round_rewards(row_rewards, column_rewards, row_move,
                                                  column_move, win_loss, rng)
        row_sums[row_move] += row_reward
        column_sums[column_move] += column_reward
