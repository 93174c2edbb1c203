"""Multi-armed bandits: arms, policies and regret experiments.

Chapter 2 ("Spend playouts where they pay") treats each candidate move of a
search as an arm and each playout as a pull. This module holds everything the
chapter runs:

- :class:`BanditArms`: arms that pay a win (1), a draw (0.5) or a loss (0), each
  with its own chances; plain win/lose (Bernoulli) arms have no draws.
- Policies: :class:`Greedy`, :class:`OptimisticGreedy`, :class:`EpsilonGreedy`,
  :class:`UCB1`, :class:`UCB1Tuned` and :class:`ThompsonSampling`. Every policy
  first pulls each arm once, in index order, then applies its rule. Ties are
  always broken towards the lowest arm index (``numpy.argmax`` returns the first
  maximum), so a run depends on its seed and nothing else.
- :func:`run_experiment`: many seeded runs of several policies on the same
  arms, vectorised over runs with numpy, recording cumulative pseudo-regret.
  The ``k``-th pull of arm ``i`` in run ``r`` pays according to one uniform
  number that depends on ``(r, i, k)`` only (:func:`pull_uniforms`), so every
  policy meets the same luck on the same arm, however differently it got there.

Their regret curves are drawn by :func:`mctslib.views.regret.draw_regret`.

Rewards and regret
    A policy sees rewards on its own scale (UCB1 can use 1/0.5/0 or 1/0/-1), but
    regret is always measured on the 0..1 scale: the *pseudo-regret* of one pull
    is the best arm's mean minus the pulled arm's mean, i.e. the expected wins
    lost by not pulling the best arm. It depends on the choices only, not on
    the luck of the draws, which makes curves smoother than realised regret.

Why one module of about 900 lines: the runner is written against the policies'
vectorised interface (``choose(sums, counts, pulls_done, rng)`` over all runs at
once), and the policies exist for the runner; chapter 2 reads them together.
"""


from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from .. import fixed_order
from .._checks import (
    MAX_EXACT_COUNT,
    check_bool,
    check_callable,
    check_choice,
    check_int,
    check_real,
    is_sequence,
    shown,
)
from ..progress import progress_bar
from ..rng import spawn_rngs
from .ucb1 import SQRT2

#: Percentiles across runs that :func:`run_experiment` reports as the band.
BAND_PERCENTILES = (10.0, 90.0)

#: The most arms a bandit may have (recorded choices use 32-bit arm numbers at most).
MAX_ARMS = 1_000_000

#: The largest reward size a policy's ``reward_scale`` may use: sums of rewards over
#: up to 2**53 pulls must stay finite and keep their differences visible.
MAX_REWARD = 1e12

#: The most pulls per run, and pulls times runs, an experiment accepts: every pull is
#: a few numpy operations per policy, so 10,000,000 pulls take minutes and 10**10
#: run-pulls about as long; more would keep a chapter waiting for hours.
MAX_PULLS = 10_000_000
MAX_RUN_PULLS = 10**10

#: The most numbers an experiment may hold at once in one of its arrays (2**27, about
#: a gigabyte of floats): each policy's statistics (runs x arms) and the recorded
#: choices (runs x pulls). Larger requests would fail for want of memory.
MAX_ARRAY = 2**27


# --------------------------------------------------------------------------- arms


@dataclass(frozen=True, eq=False)
class BanditArms:
    """Arms that end in a win (reward 1), a draw (0.5) or a loss (0).

    Parameters
    ----------
    win_probs : sequence of float
        Chance that a pull of each arm is a win, each in ``[0, 1]``.
    draw_probs : sequence of float, optional
        Chance of a draw for each arm (default: no draws, i.e. Bernoulli arms).
        ``win_probs[i] + draw_probs[i]`` must be at most 1; the rest is a loss.

    Notes
    -----
    A pull of arm ``i`` is decided by one uniform number ``u`` in ``[0, 1)``:
    a win if ``u < win``, a draw if ``win <= u < win + draw``, a loss
    otherwise. In :func:`run_experiment` the ``k``-th pull of an arm in a run
    reads the same ``u`` for every policy (:func:`pull_uniforms`). Chapter 2.
    """

    win_probs: np.ndarray
    draw_probs: np.ndarray = field(default=None)

    def __post_init__(self):
        wins = _probabilities("win_probs", self.win_probs)
        if self.draw_probs is None:
            draws = np.zeros_like(wins)
        else:
            draws = _probabilities("draw_probs", self.draw_probs)
            if draws.shape != wins.shape:
                raise ValueError(
                    f"draw_probs must have one entry per arm ({wins.size}), got {draws.size}."
                )
        for arm, (win, draw) in enumerate(zip(wins, draws)):
            if win + draw > 1.0:
                raise ValueError(
                    f"win_probs[{arm}] + draw_probs[{arm}] must be in [0, 1], "
                    f"got {win:g} + {draw:g} = {win + draw:g}."
                )
        wins.flags.writeable = False
        draws.flags.writeable = False
        # frozen dataclass: store the validated arrays through object.__setattr__
        object.__setattr__(self, "win_probs", wins)
        object.__setattr__(self, "draw_probs", draws)

    @property
    def count(self) -> int:
        """Number of arms."""
        return int(self.win_probs.size)

    @property
    def means(self) -> np.ndarray:
        """Expected reward of each arm on the 0..1 scale: ``win + 0.5 * draw``."""
        return self.win_probs + 0.5 * self.draw_probs

    @property
    def best_arm(self) -> int:
        """Index of the arm with the highest mean (the lowest index among equals)."""
        return int(np.argmax(self.means))

    def rewards(self, uniforms: np.ndarray) -> np.ndarray:
        """Rewards (1, 0.5 or 0) for uniforms in ``[0, 1)`` whose last axis runs over the arms."""
        try:
            array = np.asarray(uniforms)
        except ValueError:  # ragged nested lists
            array = None
        if (array is None or array.dtype.kind not in "fiu" or array.ndim == 0
                or array.shape[-1] != self.count):
            raise ValueError(f"uniforms must be an array of numbers whose last axis has one entry "
                             f"per arm ({self.count}), got {shown(uniforms)}.")
        if not np.all((array >= 0.0) & (array < 1.0)):  # NaN fails both comparisons
            raise ValueError("uniforms must all be numbers in [0, 1), got some outside it.")
        return self._rewards(array)

    def _rewards(self, uniforms: np.ndarray) -> np.ndarray:
        wins = uniforms < self.win_probs
        draws = ~wins & (uniforms < self.win_probs + self.draw_probs)
        return wins + 0.5 * draws

    def __repr__(self) -> str:
        wins = ", ".join(f"{p:g}" for p in self.win_probs)
        if not self.draw_probs.any():
            return f"BanditArms(win_probs=[{wins}])"
        draws = ", ".join(f"{p:g}" for p in self.draw_probs)
        return f"BanditArms(win_probs=[{wins}], draw_probs=[{draws}])"


def _probabilities(name: str, values) -> np.ndarray:
    values = np.atleast_1d(np.asarray(values, dtype=object))
    if values.ndim != 1 or values.size == 0 or values.size > MAX_ARMS:
        raise ValueError(f"{name} must be a non-empty list of probabilities (one per arm, "
                         f"at most {MAX_ARMS:,} arms).")
    checked = [check_real(f"{name}[{arm}]", value, 0.0, 1.0) for arm, value in enumerate(values)]
    return np.array(checked, dtype=float)


# ------------------------------------------------------- common random numbers
#
# SplitMix64 (Steele, Lea and Flood 2014): a 64-bit state advanced by a fixed odd
# increment and passed through a mixing function. Each (run, arm) pair gets its own
# random starting state (its *key*); the k-th pull of that arm reads the k-th output of
# the stream that starts there. Integer arithmetic only, so numpy and the numba kernel
# (mctslib.fast.bandits) compute the same numbers bit for bit.

_SPLITMIX_STEP = np.uint64(0x9E3779B97F4A7C15)
_SPLITMIX_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_SPLITMIX_MIX2 = np.uint64(0x94D049BB133111EB)


def pull_uniforms(keys, pulls_before) -> np.ndarray:
    """The uniform number in ``[0, 1)`` that decides the next pull of an arm.

    Parameters
    ----------
    keys : array of uint64
        Each (run, arm) stream's key; :func:`run_experiment` draws one per run and
        arm from its seed.
    pulls_before : array of int, the same shape
        How often the arm was pulled before (0 for its first pull).

    Returns
    -------
    ndarray of float64
        Output number ``pulls_before + 1`` of the SplitMix64 stream that starts at
        each key, as a float with 53 random bits. The number depends on the key and
        the pull count only: two policies that pull arm ``i`` for the ``k``-th time
        in the same run get the same reward, whenever that happens. Chapter 2.
    """
    try:
        key_array = np.asarray(keys)
        count_array = np.asarray(pulls_before)
    except ValueError:  # ragged nested lists
        key_array = count_array = None
    if (key_array is None or key_array.dtype != np.uint64 or count_array.dtype.kind not in "iu"
            or count_array.shape != key_array.shape):
        raise ValueError(f"keys must be an array of uint64 and pulls_before an array of whole "
                         f"numbers of the same shape, got {shown(keys)} and {shown(pulls_before)}.")
    if count_array.size and count_array.min() < 0:
        raise ValueError("pulls_before must hold whole numbers >= 0, got a negative one.")
    return _pull_uniforms(key_array, count_array)


def _pull_uniforms(keys: np.ndarray, pulls_before: np.ndarray) -> np.ndarray:
    # Unchecked: the runner calls it for every pull. uint64 arithmetic wraps around.
    z = keys + (pulls_before.astype(np.uint64) + np.uint64(1)) * _SPLITMIX_STEP
    z = (z ^ (z >> np.uint64(30))) * _SPLITMIX_MIX1
    z = (z ^ (z >> np.uint64(27))) * _SPLITMIX_MIX2
    z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) * 2.0**-53


# ----------------------------------------------------------------------- policies
#
# A policy is vectorised over runs: ``sums`` and ``counts`` have shape
# (runs, arms) and hold each run's total reward (on the policy's own scale) and
# pull count per arm; ``choose`` returns one arm per run. All runs are always at
# the same pull, so ``pulls_done`` is a single number.


def ucb1_scores(sums: np.ndarray, counts: np.ndarray, pulls_done: int, c: float) -> np.ndarray:
    """UCB1 score of every arm: ``sums / counts + c * sqrt(ln(pulls_done) / counts)``.

    This is the same score as :func:`mctslib.learners.ucb1.ucb1_score` (mean reward
    plus exploration bonus), computed for whole arrays at once; ``pulls_done``
    plays the parent's visit count ``N`` and ``counts`` the children's ``n_i``.
    Every count must be at least 1 (arms never pulled are pulled first, before
    any score is compared). Chapter 2.

    Raises ValueError unless ``sums`` and ``counts`` are numeric arrays of the
    same shape, every count is a whole number from 1 to ``pulls_done``,
    ``pulls_done`` is a whole number from 1 to 2**53 and ``c`` is a finite
    number ``>= 0``.
    """
    pulls_done = check_int("pulls_done", pulls_done, 1, MAX_EXACT_COUNT)
    c = check_real("c (the exploration constant)", c, 0.0)
    sums, counts = _statistics(sums, counts)
    if counts.size and (counts.min() < 1 or counts.max() > pulls_done):
        raise ValueError(f"counts must all be from 1 to pulls_done ({pulls_done}): an arm is "
                         "pulled before its score is compared, and never more often than all "
                         f"arms together; got counts from {counts.min()} to {counts.max()}.")
    return _ucb1_scores(sums, counts, pulls_done, c)


def _ucb1_scores(sums, counts, pulls_done, c):
    # Unchecked: the runner scores every arm of every run at every pull.
    return sums / counts + c * np.sqrt(math.log(pulls_done) / counts)


def _statistics(sums, counts) -> tuple[np.ndarray, np.ndarray]:
    """``sums`` and ``counts`` as arrays, or ValueError unless they are a policy's statistics."""
    try:
        sums_array, counts_array = np.asarray(sums), np.asarray(counts)
    except ValueError:  # ragged nested lists
        sums_array = counts_array = None
    if (sums_array is None or sums_array.dtype.kind not in "fiu" or sums_array.ndim != 2
            or counts_array.dtype.kind not in "iu" or counts_array.shape != sums_array.shape):
        raise ValueError(f"sums and counts must be arrays of shape (runs, arms), sums of numbers "
                         f"and counts of whole numbers, got {shown(sums)} and {shown(counts)}.")
    if not np.all(np.isfinite(sums_array)):
        raise ValueError("sums must hold finite numbers, got NaN or an infinity.")
    return sums_array, counts_array


class _Policy:
    """Shared behaviour: pull each arm once in index order, then apply the rule."""

    #: Rewards the policy sees for (loss, win); a draw is the midpoint.
    reward_scale: tuple[float, float] = (0.0, 1.0)

    def choose(self, sums, counts, pulls_done: int, rng: np.random.Generator,
               squares=None) -> np.ndarray:
        """The arm to pull next in every run.

        Parameters
        ----------
        sums : ndarray, shape (runs, arms)
            Total reward of each arm so far, on the policy's ``reward_scale``.
        counts : ndarray of int, shape (runs, arms)
            Pulls of each arm so far.
        pulls_done : int
            Pulls so far in every run (the same for all runs).
        rng : numpy.random.Generator or None
            The policy's own random stream; :class:`EpsilonGreedy` and
            :class:`ThompsonSampling` draw from it, the others ignore it.
        squares : ndarray, shape (runs, arms), optional
            Sum of the squared rewards of each arm; only :class:`UCB1Tuned` reads
            it (its variance estimate) and requires it.

        Returns
        -------
        ndarray of int, shape (runs,)
            The first ``arms`` pulls go to arms 0, 1, 2, ... in turn; after that
            the policy's rule decides, ties going to the lowest index.

        Raises
        ------
        ValueError
            Unless the statistics are arrays of the same shape (runs, arms),
            ``pulls_done`` is a whole number ``>= 0`` and, once every arm has
            been pulled, every count is from 1 to ``pulls_done``; for
            epsilon-greedy and Thompson sampling, ``rng`` is a numpy Generator;
            for UCB1-Tuned, ``squares`` is an array like ``sums``.
        """
        pulls_done = check_int("pulls_done", pulls_done, 0, MAX_EXACT_COUNT)
        sums, counts = _statistics(sums, counts)
        if pulls_done >= counts.shape[1] and counts.size and (
                counts.min() < 1 or counts.max() > pulls_done):
            raise ValueError(f"counts must all be from 1 to pulls_done ({pulls_done}) once every "
                             "arm has been pulled (the first round pulls each arm once).")
        if self.draws_random_numbers and not isinstance(rng, np.random.Generator):
            raise ValueError(f"rng must be a numpy Generator ({self.label} draws from it), "
                             f"got {type(rng).__name__}.")
        if isinstance(self, UCB1Tuned):
            if squares is None:
                raise ValueError("squares must be given to UCB1-Tuned: the sum of each arm's "
                                 "squared rewards, an array of the shape of sums.")
            squares, _ = _statistics(squares, counts)
        return self._choose(sums, counts, pulls_done, rng, squares)

    #: Whether the rule draws from the policy's own random stream.
    draws_random_numbers = False

    def _choose(self, sums, counts, pulls_done: int, rng, squares=None) -> np.ndarray:
        # Unchecked: the runner calls it for every pull of every policy.
        runs, arms = counts.shape
        if pulls_done < arms:
            # No fudge terms: an arm is pulled before its average is compared.
            return np.full(runs, pulls_done, dtype=np.intp)
        return self._rule(sums, counts, pulls_done, rng, squares)

    def _rule(self, sums, counts, pulls_done, rng, squares):  # pragma: no cover - abstract
        raise NotImplementedError


@dataclass(frozen=True)
class Greedy(_Policy):
    """Always pull the arm with the best average so far (lowest index on ties).

    Greedy never explores after its first round, so an arm that was unlucky at
    first may never be pulled again. Chapter 2.
    """

    @property
    def label(self) -> str:
        return "greedy"

    def _rule(self, sums, counts, pulls_done, rng, squares):
        return np.argmax(sums / counts, axis=1)


@dataclass(frozen=True)
class EpsilonGreedy(_Policy):
    """Greedy, except that a share ``epsilon`` of pulls goes to a uniformly random arm.

    Parameters
    ----------
    epsilon : float
        Probability, in ``[0, 1]``, of pulling a random arm (which may happen
        to be the greedy one). Default 0.1, i.e. 10% of the pulls.

    Notes
    -----
    At every pull after the first round the policy draws one uniform number and
    one random arm per run from its own generator, whether it explores or not,
    so its stream of random numbers does not depend on the rewards. Chapter 2.
    """

    epsilon: float = 0.1
    draws_random_numbers = True

    def __post_init__(self):
        object.__setattr__(self, "epsilon", check_real("epsilon", self.epsilon, 0.0, 1.0))

    @property
    def label(self) -> str:
        return f"ε-greedy (ε = {self.epsilon:g})"

    def _rule(self, sums, counts, pulls_done, rng, squares):
        runs, arms = counts.shape
        explore = rng.random(runs) < self.epsilon
        random_arms = rng.integers(arms, size=runs)
        return np.where(explore, random_arms, np.argmax(sums / counts, axis=1))


@dataclass(frozen=True)
class UCB1(_Policy):
    """UCB1 (Auer, Cesa-Bianchi and Fischer 2002): pull the arm with the best upper bound.

    Parameters
    ----------
    c : float
        Exploration constant, ``>= 0``. The default ``sqrt(2)`` gives the
        paper's bonus ``sqrt(2 ln N / n_i)``.
    reward_scale : (float, float)
        Rewards the policy sees for a loss and a win; a draw gets the midpoint.
        ``(0, 1)`` (default) scores 1/0.5/0, ``(-1, 1)`` scores 1/0/-1.

    Notes
    -----
    The score is :func:`ucb1_scores`, the same as
    :func:`mctslib.learners.ucb1.ucb1_score`. Stretching the rewards by a factor
    ``k`` stretches the gaps between averages by ``k`` while the bonus stays,
    so UCB1 on ``(-1, 1)`` with constant ``c`` makes exactly the choices of
    UCB1 on ``(0, 1)`` with ``c / 2``. Chapter 2.
    """

    c: float = SQRT2
    reward_scale: tuple[float, float] = (0.0, 1.0)

    def __post_init__(self):
        object.__setattr__(self, "c", check_real("c (the exploration constant)", self.c, 0.0))
        object.__setattr__(self, "reward_scale", _check_scale(self.reward_scale))

    @property
    def label(self) -> str:
        loss, win = self.reward_scale
        draw = (loss + win) / 2
        return f"UCB1 (c = {self.c:.3g}, rewards {win:g}/{draw:g}/{loss:g})"

    def _rule(self, sums, counts, pulls_done, rng, squares):
        return np.argmax(_ucb1_scores(sums, counts, pulls_done, self.c), axis=1)


@dataclass(frozen=True)
class OptimisticGreedy(_Policy):
    """Greedy on estimates that start high: each arm begins with imaginary pulls that paid well.

    Parameters
    ----------
    initial : float
        The optimistic first estimate ``Q_1`` of every arm, in ``[0, 1]`` (default 1,
        the most a pull can pay).
    weight : float
        How many pulls the first estimate counts as, ``> 0`` (default 1).

    Notes
    -----
    The estimate of an arm pulled ``n`` times for a total reward ``S`` is
    ``(weight * initial + S) / (weight + n)``: ``weight`` imaginary pulls that paid
    ``initial`` averaged in with the real ones (the incremental mean with step
    ``1 / (weight + n)``, started from ``Q = initial``; with the plain step ``1 / n`` the
    first real reward would replace the start entirely). An arm looks
    better than it is until its pulls wash the optimism out, so greedy tries it
    again rather than writing it off after one bad pull (Sutton and Barto, section
    2.6, start their estimates high for the same reason; they use a constant step
    size, here the sample average keeps a fading trace of the start). The
    exploration it buys happens early and stops. Chapter 2.
    """

    initial: float = 1.0
    weight: float = 1.0

    def __post_init__(self):
        object.__setattr__(self, "initial", check_real("initial", self.initial, 0.0, 1.0))
        weight = check_real("weight", self.weight, 0.0, MAX_REWARD)
        if weight == 0.0:
            raise ValueError("weight must be a number > 0 (the imaginary pulls the first "
                             "estimate counts as), got 0.")
        object.__setattr__(self, "weight", weight)

    @property
    def label(self) -> str:
        if self.weight == 1.0 and self.initial == 1.0:
            return "greedy, optimistic start (one imaginary win)"
        pulls = "pull" if self.weight == 1.0 else "pulls"
        return f"greedy, optimistic start ({self.weight:g} imaginary {pulls} paying {self.initial:g})"

    def _rule(self, sums, counts, pulls_done, rng, squares):
        return np.argmax((self.weight * self.initial + sums) / (self.weight + counts), axis=1)


@dataclass(frozen=True)
class UCB1Tuned(_Policy):
    """UCB1-Tuned (Auer, Cesa-Bianchi and Fischer 2002, section 4): a bonus sized by the variance.

    The score of arm ``i`` after ``N`` pulls in all, ``n_i`` of them on arm ``i``, is
    ``Q_i + sqrt(ln N / n_i * min(1/4, V_i))`` with
    ``V_i = (sum of squared rewards) / n_i - Q_i**2 + sqrt(2 ln N / n_i)``: an
    upper bound on the arm's variance. ``1/4`` is the largest variance a reward in
    ``[0, 1]`` can have, so the bonus is at most ``1/2 * sqrt(ln N / n_i)``, UCB1's
    with ``c = 1/2``; an arm whose rewards vary less gets less. Rewards on the 0..1
    scale. The paper reports that it does better than UCB1 in its experiments and
    proves no bound for it. Chapter 2.
    """

    @property
    def label(self) -> str:
        return "UCB1-Tuned"

    def _rule(self, sums, counts, pulls_done, rng, squares):
        log_n = math.log(pulls_done)
        means = sums / counts
        variance_bound = squares / counts - means * means + np.sqrt(2.0 * log_n / counts)
        bonus = np.sqrt(log_n / counts * np.minimum(0.25, variance_bound))
        return np.argmax(means + bonus, axis=1)


@dataclass(frozen=True)
class ThompsonSampling(_Policy):
    """Thompson sampling (Thompson 1933) with a uniform Beta(1, 1) prior on each arm's mean.

    Every pull draws one guess of each arm's mean from its posterior,
    ``Beta(1 + S_i, 1 + n_i - S_i)`` with ``S_i`` the arm's total reward on the 0..1
    scale, and pulls the arm with the highest guess. For win/lose arms this is the
    exact Bayesian posterior; a draw counts as half a win and half a loss, which is
    a convenient approximation, not Bayes' rule. The guesses come from the policy's
    own random stream (one ``beta`` call of shape (runs, arms) per pull). Chapter 2.
    """

    draws_random_numbers = True

    @property
    def label(self) -> str:
        return "Thompson sampling"

    def _rule(self, sums, counts, pulls_done, rng, squares):
        return np.argmax(rng.beta(1.0 + sums, 1.0 + counts - sums), axis=1)


def _check_scale(scale) -> tuple[float, float]:
    message = ("reward_scale must be a pair (loss, win) of numbers from -1e12 to 1e12 with "
               "loss < win")
    if not is_sequence(scale) or len(scale) != 2:
        raise ValueError(f"{message}, got {shown(scale)}.")
    # check_real refuses text and truth values; the bound keeps sums of rewards finite.
    loss = check_real("reward_scale[0] (the loss)", scale[0], -MAX_REWARD, MAX_REWARD)
    win = check_real("reward_scale[1] (the win)", scale[1], -MAX_REWARD, MAX_REWARD)
    if not loss < win:
        raise ValueError(f"{message}, got {shown(scale)}.")
    return (loss, win)


# --------------------------------------------------------------------- experiment


@dataclass(frozen=True)
class BanditResult:
    """What :func:`run_experiment` measured for one policy (Chapter 2).

    Curves are recorded at ``pulls`` (checkpoints, in pulls done). Regret is
    cumulative pseudo-regret on the 0..1 scale; the band is the
    ``band_percentiles`` (10th and 90th by default) across runs.

    Attributes
    ----------
    label : str
        The policy's name, for legends.
    pulls : ndarray of int, shape (checkpoints,)
    mean_regret, regret_low, regret_high : ndarray, shape (checkpoints,)
        Mean and band of cumulative regret across runs.
    mean_reward : ndarray, shape (checkpoints,)
        Mean cumulative reward (0..1 scale) actually collected.
    final_regret : ndarray, shape (runs,)
        Each run's cumulative regret after the last pull done.
    best_arm_share : ndarray, shape (runs,)
        Each run's fraction of pulls that went to a best arm.
    pull_counts : ndarray of int, shape (runs, arms)
        How often each run pulled each arm.
    choices : ndarray of int, shape (runs, pulls) or None
        Every arm chosen, if the experiment was asked to record them (final
        results only: the partial results passed to a callback have None).
    total_pulls : int
        Pulls the experiment was asked for (the last checkpoint once finished).
    best_arms : ndarray of bool, shape (arms,)
        Which arms have the best mean.
    """

    label: str
    pulls: np.ndarray
    mean_regret: np.ndarray
    regret_low: np.ndarray
    regret_high: np.ndarray
    mean_reward: np.ndarray
    final_regret: np.ndarray
    best_arm_share: np.ndarray
    pull_counts: np.ndarray
    choices: np.ndarray | None
    total_pulls: int
    best_arms: np.ndarray
    band_percentiles: tuple[float, float] = BAND_PERCENTILES

    @property
    def runs(self) -> int:
        return int(self.final_regret.size)

    def regret_at(self, pulls: int) -> tuple[float, float, float]:
        """Mean, low and high (band) cumulative regret after exactly ``pulls`` pulls.

        ``pulls`` must be one of the recorded checkpoints (every power of ten is).
        """
        whole = isinstance(pulls, (int, np.integer)) and not isinstance(pulls, bool)
        index = np.flatnonzero(self.pulls == pulls) if whole else np.array([], dtype=int)
        if index.size == 0:
            raise ValueError(f"pulls must be a recorded checkpoint (see .pulls), got {shown(pulls)}.")
        i = int(index[0])
        return float(self.mean_regret[i]), float(self.regret_low[i]), float(self.regret_high[i])

    @property
    def most_pulled_arm(self) -> np.ndarray:
        """Each run's most pulled arm (lowest index among equals)."""
        return np.argmax(self.pull_counts, axis=1)

    @property
    def wrong_arm_share(self) -> float:
        """Fraction of runs whose most pulled arm is not a best arm."""
        return fixed_order.mean(~self.best_arms[self.most_pulled_arm])


class _PolicyRun:
    """The state of one policy across all runs while an experiment runs."""

    def __init__(self, policy, runs, arms: BanditArms, rng, record_choices, total_pulls):
        self.policy = policy
        self.rng = rng
        self.sums = np.zeros((runs, arms.count))
        self.counts = np.zeros((runs, arms.count), dtype=np.int64)
        self.means = np.zeros((runs, arms.count))  # sums / counts, kept by the numba engine
        self.squares = np.zeros((runs, arms.count))  # sums of squared rewards (UCB1-Tuned)
        self.regret = np.zeros(runs)
        self.reward = np.zeros(runs)
        self.best_pulls = np.zeros(runs, dtype=np.int64)
        self.checkpoints: list[tuple[int, float, float, float, float]] = []
        self.choices = (
            np.zeros((runs, total_pulls), dtype=_smallest_int(arms.count)) if record_choices else None
        )
        loss, win = policy.reward_scale
        self.offset, self.stretch = loss, win - loss

    def pull(self, pulls_done, keys, arms: BanditArms, gaps, best, rows) -> None:
        """One pull in every run; the chosen arm's reward comes from its own stream (``keys``)."""
        choice = self.policy._choose(self.sums, self.counts, pulls_done, self.rng, self.squares)
        cell = rows * arms.count + choice  # (run, chosen arm) in the flattened arrays: faster
        uniform = _pull_uniforms(keys.reshape(-1)[cell], self.counts.reshape(-1)[cell])
        # 1 for a win, 0.5 for a draw, 0 for a loss (the kernel computes the same).
        reward = 0.5 * ((uniform < arms.win_probs[choice]).astype(np.float64)
                        + (uniform < arms.win_probs[choice] + arms.draw_probs[choice]))
        scaled = self.offset + self.stretch * reward
        self.sums.reshape(-1)[cell] += scaled
        self.squares.reshape(-1)[cell] += scaled * scaled
        self.counts.reshape(-1)[cell] += 1
        self.regret += gaps[choice]
        self.reward += reward
        self.best_pulls += best[choice]
        if self.choices is not None:
            self.choices[:, pulls_done] = choice

    def pull_fast(self, start, stop, keys, tables, record_at, band) -> None:
        """Pulls ``start .. stop - 1`` through the numba kernel, recording at checkpoints.

        ``keys`` are the (run, arm) streams' keys (the ones the numpy runner reads
        through :func:`pull_uniforms`); ``tables`` holds the arms' thresholds, gaps,
        best arms and ln.
        """
        from ..fast import bandits as fast_bandits  # numba loads only when asked for (seconds)

        runs, arms = self.counts.shape
        policy = self.policy
        explore_uniforms = np.zeros((0, 0))
        explore_arms = np.zeros((0, 0), dtype=np.int64)
        if isinstance(policy, EpsilonGreedy):
            # The numpy policy's draws, in its order: one coin and one arm per run per pull
            # after the first round.
            explore_uniforms = np.zeros((stop - start, runs))
            explore_arms = np.zeros((stop - start, runs), dtype=np.int64)
            for pulls_done in range(max(start, arms), stop):
                explore_uniforms[pulls_done - start] = self.rng.random(runs)
                explore_arms[pulls_done - start] = self.rng.integers(arms, size=runs)
        kind, c, epsilon, initial, weight = _kernel_policy(policy)
        choices = self.choices if self.choices is not None else np.zeros((1, 1), dtype=np.int8)
        win_probs, win_or_draw_probs, gaps, best, log_table = tables
        checkpoints_here = [p for p in record_at if start < p <= stop]
        segment_start = start
        for segment_stop in checkpoints_here + [stop]:
            if segment_stop > segment_start:
                fast_bandits.play_pulls(
                    kind, c, epsilon, initial, weight, float(self.offset), float(self.stretch),
                    win_probs, win_or_draw_probs, gaps, best, keys, start, explore_uniforms,
                    explore_arms, log_table, segment_start, segment_stop, self.sums,
                    self.squares, self.counts, self.means, self.regret, self.reward,
                    self.best_pulls, choices, self.choices is not None)
                segment_start = segment_stop
                if segment_stop in checkpoints_here:
                    self.record(segment_stop, band)

    def record(self, pulls_done: int, band) -> None:
        low, high = np.percentile(self.regret, band)  # sorted values, interpolated: no sum
        # Means over runs from a correctly rounded sum (fixed_order), not numpy's own order.
        self.checkpoints.append(
            (pulls_done, fixed_order.mean(self.regret), low, high, fixed_order.mean(self.reward))
        )

    def result(self, pulls_done, total_pulls, best, band, with_choices=True) -> BanditResult:
        columns = np.array(self.checkpoints, dtype=float).reshape(-1, 5).T
        return BanditResult(
            label=self.policy.label,
            pulls=columns[0].astype(np.int64),
            mean_regret=columns[1],
            regret_low=columns[2],
            regret_high=columns[3],
            mean_reward=columns[4],
            final_regret=self.regret.copy(),
            best_arm_share=self.best_pulls / max(pulls_done, 1),
            pull_counts=self.counts.copy(),
            choices=self.choices if with_choices else None,
            total_pulls=total_pulls,
            best_arms=best.copy(),
            band_percentiles=tuple(band),
        )


def _kernel_policy(policy) -> tuple[int, float, float, float, float]:
    """The numba kernel's policy kind, exploration constant, epsilon and optimistic start."""
    from ..fast import bandits as fast_bandits

    if isinstance(policy, UCB1):
        return fast_bandits.UCB1, float(policy.c), 0.0, 0.0, 0.0
    if isinstance(policy, EpsilonGreedy):
        return fast_bandits.EPSILON_GREEDY, 0.0, float(policy.epsilon), 0.0, 0.0
    if isinstance(policy, OptimisticGreedy):
        return (fast_bandits.OPTIMISTIC_GREEDY, 0.0, 0.0, float(policy.initial),
                float(policy.weight))
    if isinstance(policy, UCB1Tuned):
        return fast_bandits.UCB1_TUNED, 0.0, 0.0, 0.0, 0.0
    return fast_bandits.GREEDY, 0.0, 0.0, 0.0, 0.0


#: The policies the numba engine runs; Thompson sampling runs with ``engine="numpy"`` only.
NUMBA_POLICIES = (Greedy, EpsilonGreedy, UCB1, OptimisticGreedy, UCB1Tuned)


def _smallest_int(arms: int):
    return np.int8 if arms <= 127 else np.int16 if arms <= 32767 else np.int32


def checkpoints(pulls: int, count: int = 500) -> np.ndarray:
    """About ``count`` pull numbers in ``1..pulls``, dense both early (log) and late (linear).

    Half are spaced geometrically so a log-scaled axis shows the first pulls,
    half linearly, plus every power of ten (so tables can quote regret after
    exactly 100 or 1,000 pulls); duplicates are dropped. Chapter 2.

    ``pulls`` is a whole number from 1 to 2**53 and ``count`` from 2 to 1,000,000.
    """
    pulls = check_int("pulls", pulls, 1, MAX_EXACT_COUNT)
    count = check_int("count", count, 2, 1_000_000)
    geometric = np.rint(fixed_order.geometric_points(1, pulls, count // 2))
    linear = np.rint(np.linspace(1, pulls, count - count // 2))
    powers_of_ten = [10**k for k in range(len(str(pulls))) if 10**k <= pulls]
    return np.unique(np.concatenate([geometric, linear, powers_of_ten]).astype(np.int64))


def run_experiment(
    arms: BanditArms,
    policies: Sequence,
    runs: int = 1000,
    pulls: int = 10_000,
    seed=0,
    callback: Callable[[list[BanditResult]], None] | None = None,
    chunk: int = 250,
    record_choices: bool = False,
    band: tuple[float, float] = BAND_PERCENTILES,
    engine: str = "numpy",
) -> list[BanditResult]:
    """Run every policy ``runs`` times for ``pulls`` pulls on the same arms.

    Parameters
    ----------
    arms : BanditArms
    policies : sequence of policies
        :class:`Greedy`, :class:`OptimisticGreedy`, :class:`EpsilonGreedy`,
        :class:`UCB1`, :class:`UCB1Tuned` or :class:`ThompsonSampling` objects.
    runs, pulls : int
        Independent runs (at least 1) and pulls per run (from 1 to
        :data:`MAX_PULLS`), with ``runs * pulls`` at most :data:`MAX_RUN_PULLS`
        and ``runs * arms`` within :data:`MAX_ARRAY`.
    seed : int, SeedSequence or Generator
        Everything random flows from it: the same seed gives identical arrays.
    callback : callable(list of BanditResult), optional
        Called after every ``chunk`` pulls with the results so far (curves up
        to the pulls done), e.g. ``LivePlot.update``.
    chunk : int
        Pulls between callbacks. It does not change the results.
    record_choices : bool
        Keep every arm chosen in ``BanditResult.choices`` (memory: runs x pulls).
    band : (float, float)
        Percentiles across runs reported as the band (default 10th-90th).
    engine : {"numpy", "numba"}
        ``"numpy"`` (default) runs the readable vectorised code below;
        ``"numba"`` hands the pulls to :func:`mctslib.fast.bandits.play_pulls`,
        which repeats the same operations in the same order, several times
        faster, with identical results for the same seed; it runs every policy
        but Thompson sampling (:data:`NUMBA_POLICIES`).

    Returns
    -------
    list of BanditResult, in the order of ``policies``.

    Notes
    -----
    *Common random numbers*: every run draws one key per arm from the
    experiment's own stream, and the ``k``-th pull of arm ``i`` in run ``r``
    pays according to :func:`pull_uniforms` of that key and ``k``, for every
    policy alike. Two policies that pull arm ``i`` for the ``k``-th time in the
    same run get the same reward, even if they get there at different steps,
    so the luck each arm brings is the same for all policies and differences
    between their curves come from their choices. Each policy's own random
    numbers (epsilon-greedy's and Thompson sampling's) come from a separate
    stream (``spawn_rngs``: stream 0 for the arms, stream ``i + 1`` for policy
    ``i``), so adding a policy at the end leaves the others' results unchanged.

    Vectorised over runs: every pull is a few numpy operations on arrays of
    shape (runs, arms). Chapter 2.
    """
    # The book's rule: every bad argument is a ValueError with one sentence.
    if not isinstance(arms, BanditArms):
        raise ValueError(f"arms must be a BanditArms, got {type(arms).__name__}.")
    if isinstance(policies, _Policy):
        raise ValueError(f"policies must be a list of policies, got the single policy "
                         f"{shown(policies)}: write [{shown(policies)}].")
    if not is_sequence(policies):
        raise ValueError(f"policies must be a list of policies (Greedy, UCB1, ...), "
                         f"got {shown(policies)}.")
    policies = list(policies)
    if not policies:
        raise ValueError("policies must contain at least one policy.")
    for policy in policies:
        if not isinstance(policy, _Policy):
            raise ValueError(
                f"policies must be Greedy, OptimisticGreedy, EpsilonGreedy, UCB1, UCB1Tuned or "
                f"ThompsonSampling objects, got {shown(policy)}."
            )
    runs = check_int("runs", runs, 1, MAX_ARRAY)
    pulls = check_int("pulls", pulls, 1, MAX_PULLS)
    if runs * pulls > MAX_RUN_PULLS:
        raise ValueError(f"runs * pulls must be at most 10**10 (about an hour of numpy work per "
                         f"policy), got {runs * pulls:,}: use fewer runs or pulls.")
    chunk = check_int("chunk", chunk, 1)
    if callback is not None:
        check_callable("callback", callback)
    record_choices = check_bool("record_choices", record_choices)
    band = _check_band(band)
    engine = check_choice("engine", engine, ("numpy", "numba"))
    if engine == "numba":
        for policy in policies:
            if not isinstance(policy, NUMBA_POLICIES):
                raise ValueError(f"engine='numba' runs every policy but Thompson sampling, got "
                                 f"{policy.label}: use engine='numpy' for it.")
    if runs * arms.count > MAX_ARRAY:
        raise ValueError(f"runs * arms must be at most 2**27 (each policy keeps several numbers "
                         f"per run and arm, about a gigabyte each), got {runs * arms.count:,}: "
                         "use fewer runs.")
    if record_choices and runs * pulls > MAX_ARRAY:
        raise ValueError(f"runs * pulls must be at most 2**27 to record every choice, got "
                         f"{runs * pulls:,}: record fewer pulls or runs, or record_choices=False.")

    arm_rng, *policy_rngs = spawn_rngs(seed, 1 + len(policies))
    # One stream key per run and arm, shared by every policy (common random numbers).
    keys = arm_rng.integers(0, 2**64, size=(runs, arms.count), dtype=np.uint64)
    states = [
        _PolicyRun(policy, runs, arms, rng, record_choices, pulls)
        for policy, rng in zip(policies, policy_rngs)
    ]
    means = arms.means
    gaps = means.max() - means
    best = gaps == 0.0
    record_at = set(checkpoints(pulls).tolist())
    rows = np.arange(runs)
    if engine == "numba":
        # ln N from Python's math.log, the function the numpy runner calls (no libm drift).
        log_table = np.array([0.0] + [math.log(n) for n in range(1, pulls + 1)])
        tables = (arms.win_probs, arms.win_probs + arms.draw_probs, gaps, best, log_table)
        record_list = sorted(record_at)

    def results(pulls_done: int, final: bool) -> list[BanditResult]:
        # Live frames skip the recorded choices: copying them every chunk would be slow.
        return [state.result(pulls_done, pulls, best, band, final) for state in states]

    with progress_bar(pulls, "bandit pulls", unit="pull") as bar:
        for start in range(0, pulls, chunk):
            stop = min(start + chunk, pulls)
            if engine == "numba":
                for state in states:
                    state.pull_fast(start, stop, keys, tables, record_list, band)
                bar.update(stop - start)
                if callback is not None and stop < pulls:
                    callback(results(stop, final=False))
                continue
            for state in states:
                for pulls_done in range(start, stop):
                    state.pull(pulls_done, keys, arms, gaps, best, rows)
                    if pulls_done + 1 in record_at:
                        state.record(pulls_done + 1, band)
            bar.update(stop - start)
            if callback is not None and stop < pulls:
                callback(results(stop, final=False))
    return results(pulls, final=True)


def _check_band(band) -> tuple[float, float]:
    """Two percentiles ``(low, high)`` with ``0 <= low <= high <= 100``, or ValueError."""
    if not is_sequence(band) or len(band) != 2:
        raise ValueError(f"band must be a pair (low, high) of percentiles from 0 to 100, "
                         f"got {shown(band)}.")
    low = check_real("band[0]", band[0], 0.0, 100.0)
    high = check_real("band[1]", band[1], 0.0, 100.0)
    if low > high:
        raise ValueError(f"band must be (low, high) with low <= high, got {shown(band)}.")
    return low, high
