"""The sequential test chess engine testing uses: Elo hypotheses, draws modelled, game pairs.

Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", section "How many games a
decision needs". :mod:`mctslib.play.sprt` is Wald's test in its simplest form
(a decisive game is a coin flip, draws are set aside). Engine testers, with
Fishtest (the Stockfish project's testing service) as the reference, run a
*generalized* SPRT (GSPRT) designed by Michel Van den Bergh. This module is our
own implementation of that method:

* **Hypotheses on Elo.** H0: A is ``elo0`` Elo stronger than B (usually 0:
  "the change does not help") against H1: A is ``elo1`` Elo stronger (say +10
  or +20: the smallest gain worth having). On the logistic Elo scale a
  difference ``e`` means an expected score ``1 / (1 + 10 ** (-e / 400))``
  per game (:func:`~mctslib.play.stats.score_from_elo`): ``s0`` and ``s1``.
* **Draws modelled, and game pairs.** A single game has three outcomes for A
  (loss, draw, win: 0, 0.5, 1 point), counted in a *trinomial*. Our arena
  plays each opening twice with the sides swapped (games ``2k`` and
  ``2k + 1``); such a pair has five outcomes (0, 0.5, 1, 1.5, 2 points),
  counted in a *pentanomial* (:func:`pair_outcomes`). The two games of a pair
  are not independent (a lopsided opening tends to win one game and lose the
  other), but different pairs are, so the pair is the unit of evidence.
* **The likelihood ratio.** The test does not assume the chances of the
  outcomes (how often a game is drawn, say); under each hypothesis it takes the
  distribution over the outcomes that has the hypothesis' expected score
  (``s0`` or ``s1`` per game) and makes the observed counts most likely (a
  maximum-likelihood fit under one linear constraint). The LLR is the
  log-likelihood of the counts under H1's fit minus that under H0's
  (:func:`llr_logistic`). It is recomputed from all the counts after every
  game (trinomial) or every pair (pentanomial); it is not a sum of fixed steps.
* **Wald's bounds.** Accept H1 when LLR >= ln((1 - beta) / alpha), H0 when
  LLR <= ln(beta / (1 - alpha)); otherwise play on. When the truth is ``elo0``
  the test accepts H1 in about ``alpha`` of matches, when it is ``elo1`` it
  accepts H0 in about ``beta`` (Wald's approximation, checked by simulation in
  the tests); in between either answer is acceptable.

The constrained fit: with observed frequencies ``p_i`` of outcomes worth
``a_i`` (per game: 0, 0.5, 1, or 0, 0.25, 0.5, 0.75, 1 for a pair), the most
likely distribution with expected score ``s`` is ``q_i = p_i / (1 + x (a_i -
s))``, where ``x`` solves ``sum_i p_i (a_i - s) / (1 + x (a_i - s)) = 0`` (one
equation in one unknown, solved here by a safeguarded Newton iteration). An
outcome never seen would get no weight at all, and a run of pure wins could
then fit no distribution with an even score: as Fishtest does, a count of 0
is replaced by 0.001.

:func:`llr_normal` is the normal approximation of the same ratio (each
observation a normal variable of unknown variance): about
``N (s1 - s0) (2 m - s0 - s1) / (2 v)`` with ``m`` and ``v`` the mean and
variance of the observed per-game (per-pair average) score over ``N`` games
(pairs). It reads as "how much nearer ``s1`` than ``s0`` the mean is, in
units of its spread", which is why it is the version to teach first. The two
agree closely for small Elo differences once there are a few dozen games.

Every number a chapter prints from this module is computed in pure Python
(:func:`math.fsum`, :mod:`math`); :func:`simulate_elo_sprt` runs thousands of
matches at once with numpy, for error rates and stopping times.

Why one module of about 800 lines: the test and its simulation share the likelihood
ratio. :func:`simulate_elo_sprt` runs the same maximum-likelihood fit as
:class:`EloSPRT`, vectorised over thousands of matches (``_llr_*_many``), and the tests
check the two against each other; split, those private functions would become a public
interface that only the simulation uses.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from .._checks import MAX_EXACT_COUNT, check_choice, check_int, check_real, is_sequence, shown
from ..rng import make_rng
from .sprt import _letter, wald_bounds
from .stats import score_from_elo

__all__ = [
    "EloSPRT",
    "EloSPRTOutcome",
    "EloSPRTTracker",
    "SPRTSimulation",
    "elo_sprt",
    "game_outcomes",
    "llr_logistic",
    "llr_logistic_many",
    "llr_normal",
    "pair_outcomes",
    "simulate_elo_sprt",
    "simulate_results",
]

#: The statistical models: games in pairs sharing an opening, or single games.
MODELS = ("pentanomial", "trinomial")
#: How the LLR is computed: the constrained maximum-likelihood fit, or its normal approximation.
METHODS = ("mle", "normal")
#: What a count of 0 is replaced by before the fit (Fishtest's choice).
ZERO_COUNT = 1e-3
#: Newton steps at most when fitting a constrained distribution (a handful are used).
_MAX_STEPS = 200
_INDEX = {"L": 0, "D": 1, "W": 2}
_LETTERS = "LDW"


# --- Counting outcomes ------------------------------------------------------------------

def game_outcomes(results) -> tuple[int, int, int]:
    """The trinomial: how many of A's games were lost, drawn and won, ``(losses, draws, wins)``.

    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot". The order is by points
    (0, 0.5, 1), as for :func:`pair_outcomes`; note that
    :func:`~mctslib.play.stats.score_interval` takes ``(wins, draws, losses)``.
    ``results`` are A's results as ``"W"`` / ``"D"`` / ``"L"`` or 1 / 0.5 / 0.

    >>> game_outcomes("WWDL")
    (1, 1, 2)
    """
    counts = [0, 0, 0]
    for index in _indices(results):
        counts[index] += 1
    return tuple(counts)


def pair_outcomes(results) -> tuple[int, int, int, int, int]:
    """The pentanomial: how many game pairs gave A 0, 0.5, 1, 1.5 and 2 points.

    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot". Games ``2k`` and
    ``2k + 1`` of ``results`` form a pair: our arena plays them from the same
    opening with the sides swapped. Entry ``i`` counts the pairs worth ``i / 2``
    points: LL; LD or DL; LW, WL or DD; DW or WD; WW.

    Raises ValueError for an odd number of games (the last one has no partner)
    or a result that is not a win, draw or loss.

    >>> pair_outcomes("WLDDWWLD")
    (0, 1, 2, 0, 1)
    """
    indices = _indices(results)
    if len(indices) % 2:
        raise ValueError(f"results must hold whole pairs (games 2k and 2k + 1 share an opening), "
                         f"got an odd number of games ({len(indices):,}): the last one has no "
                         f"partner.")
    counts = [0, 0, 0, 0, 0]
    for first, second in zip(indices[0::2], indices[1::2]):
        counts[first + second] += 1
    return tuple(counts)


def _indices(results) -> list[int]:
    """0, 1, 2 for each loss, draw, win of A (checked)."""
    _check_results(results)
    return [_INDEX[_letter(result)] for result in results]


def _check_results(results) -> None:
    # Bytes iterate as numbers, and a 0-d numpy array claims to be iterable but is one value.
    if isinstance(results, (bytes, bytearray)) or not isinstance(results, Iterable) \
            or getattr(results, "ndim", 1) == 0:
        raise ValueError(f"results must be a sequence of game results (1, 0.5, 0 or W, D, L), "
                         f"got {shown(results)}.")


# --- The log-likelihood ratio -----------------------------------------------------------

def llr_logistic(elo0: float, elo1: float, counts) -> float:
    """The GSPRT's log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for these counts.

    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot". ``counts`` is a
    trinomial ``(losses, draws, wins)`` of single games or a pentanomial of
    pairs (:func:`pair_outcomes`); the model follows from its length. The
    ratio compares the most likely outcome distributions with the two
    hypotheses' expected scores (see the module docstring); no counts at all
    give 0 (no evidence). Pure Python, the same bits on every machine.

    >>> round(llr_logistic(0, 20, (20, 10, 30)), 4)
    0.5721
    """
    prepared = _weighted_outcomes(elo0, elo1, counts)
    if prepared is None:
        return 0.0
    s0, s1, values, weights = prepared
    offsets0 = [value - s0 for value in values]
    offsets1 = [value - s1 for value in values]
    x0, x1 = _fitted_shift(weights, offsets0), _fitted_shift(weights, offsets1)
    # log q1_i - log q0_i = log(1 + x0 b0_i) - log(1 + x1 b1_i): the p_i cancel.
    return math.fsum(weight * (math.log1p(x0 * b0) - math.log1p(x1 * b1))
                     for weight, b0, b1 in zip(weights, offsets0, offsets1))


def llr_normal(elo0: float, elo1: float, counts) -> float:
    """The normal approximation of :func:`llr_logistic`: ``(N / 2) ln(r0 / r1)``.

    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot". Treat each observed
    per-game score (for a pentanomial: each pair's average) as a normal
    variable whose variance is unknown; ``r0`` and ``r1`` are the mean squared
    distances of the ``N`` observations from ``s0`` and ``s1``, that is
    ``v + (m - s0) ** 2`` and ``v + (m - s1) ** 2`` with ``m`` and ``v`` the
    observed mean and variance. For small differences this is about
    ``N (s1 - s0) (2 m - s0 - s1) / (2 v)``: how much nearer ``s1`` than ``s0``
    the mean is, in units of its spread, times the evidence ``N``. Zero
    counts are replaced by 0.001 as in :func:`llr_logistic`; no counts at all
    give 0.

    A formula to read, not to decide with: after a few pairs the observed
    spread can be far too small (several pairs split 1-1 in a row), and the
    test then stops too early. Simulated (H0 0 against H1 +20 Elo, 10% draws,
    2,000 matches at +20 Elo), it accepted H0 in 7.9% of the matches with
    balanced openings and 11.3% with lopsided ones, where the constrained
    maximum-likelihood ratio (:func:`llr_logistic`) gave 5.3% and 5.9%.

    >>> round(llr_normal(0, 20, (20, 10, 30)), 4)
    0.5765
    """
    prepared = _weighted_outcomes(elo0, elo1, counts)
    if prepared is None:
        return 0.0
    s0, s1, values, weights = prepared
    total = math.fsum(weights)
    r0 = math.fsum(w * (a - s0) * (a - s0) for w, a in zip(weights, values)) / total
    r1 = math.fsum(w * (a - s1) * (a - s1) for w, a in zip(weights, values)) / total
    return 0.5 * total * math.log(r0 / r1)


def _weighted_outcomes(elo0, elo1, counts):
    """``(s0, s1, values, weights)`` shared by both LLRs; None when there are no counts.

    Zero counts become :data:`ZERO_COUNT` (as Fishtest does), so every outcome
    keeps a little weight and the fitted distributions stay inside the simplex.
    """
    s0, s1 = _scores(elo0, elo1)
    counts = _counts(counts)
    if sum(counts) == 0:
        return None
    weights = [float(count) if count > 0 else ZERO_COUNT for count in counts]
    return s0, s1, _values(len(counts)), weights


def _fitted_shift(weights, offsets) -> float:
    """The root x of ``sum_i w_i b_i / (1 + x b_i) = 0`` inside ``(-1 / max b, -1 / min b)``.

    The left side falls as x grows (its derivative is ``-sum w b^2 / (1 + x b)^2``),
    so the root is unique. Newton's method from the normal approximation's root,
    kept inside a bracket that shrinks at every step (a bisection step when Newton
    would leave it).
    """
    low, high = -1.0 / max(offsets), -1.0 / min(offsets)
    x = math.fsum(w * b for w, b in zip(weights, offsets)) / \
        math.fsum(w * b * b for w, b in zip(weights, offsets))
    if not low < x < high:
        x = 0.0
    for _ in range(_MAX_STEPS):
        ratios = [b / (1.0 + x * b) for b in offsets]
        value = math.fsum(w * r for w, r in zip(weights, ratios))
        if value > 0.0:
            low = x
        elif value < 0.0:
            high = x
        else:
            return x
        slope = math.fsum(w * r * r for w, r in zip(weights, ratios))
        following = x + value / slope
        if not low < following < high:
            following = 0.5 * (low + high)
        if abs(following - x) <= 1e-15 * max(1.0, abs(x)):
            return following
        x = following
    return x


def llr_logistic_many(elo0: float, elo1: float, counts) -> np.ndarray:
    """:func:`llr_logistic` for many count vectors at once (rows of ``counts``), with numpy.

    For simulations (:func:`simulate_elo_sprt`): thousands of matches per call.
    The method is :func:`llr_logistic`'s, but the sums are numpy's and so are
    the logarithms, and the fit stops a little earlier, so results agree with
    it to about 1e-12, not bit for bit;
    numbers a chapter prints come from :func:`llr_logistic`.
    """
    s0, s1 = _scores(elo0, elo1)
    return _llr_logistic_many(s0, s1, _table(counts))[0]


def _llr_logistic_many(s0: float, s1: float, table: np.ndarray,
                       starts: tuple[np.ndarray, np.ndarray] | None = None):
    """LLR per row and the two fitted shifts (``starts``: guesses for them, to save steps)."""
    values = np.array(_values(table.shape[1]))
    weights = np.where(table > 0, table, ZERO_COUNT)
    offsets0, offsets1 = values - s0, values - s1
    x0 = _fitted_shift_many(weights, offsets0, None if starts is None else starts[0])
    x1 = _fitted_shift_many(weights, offsets1, None if starts is None else starts[1])
    terms = weights * (np.log1p(x0[:, None] * offsets0) - np.log1p(x1[:, None] * offsets1))
    return np.where(table.sum(axis=1) == 0, 0.0, terms.sum(axis=1)), x0, x1


def _fitted_shift_many(weights: np.ndarray, offsets: np.ndarray,
                       start: np.ndarray | None = None) -> np.ndarray:
    """:func:`_fitted_shift` for each row of ``weights`` (numpy), from ``start`` if given."""
    rows = weights.shape[0]
    low = np.full(rows, -1.0 / offsets.max())
    high = np.full(rows, -1.0 / offsets.min())
    if start is None:
        weighted = weights * offsets
        start = weighted.sum(axis=1) / (weighted * offsets).sum(axis=1)
    x = np.where((low < start) & (start < high), start, 0.0)
    active = np.ones(rows, dtype=bool)
    for _ in range(_MAX_STEPS):
        ratio = offsets / (1.0 + x[:, None] * offsets)
        weighted = weights * ratio
        value = weighted.sum(axis=1)
        slope = (weighted * ratio).sum(axis=1)
        low = np.where(active & (value > 0.0), x, low)
        high = np.where(active & (value < 0.0), x, high)
        following = x + value / slope  # slope > 0: every weight is > 0, some offset is not 0
        following = np.where((low < following) & (following < high), following,
                             0.5 * (low + high))
        # A little looser than the scalar fit's 1e-15 (one Newton step fewer); looser still
        # would not do: near a pole of the sum a Newton step is small far from the root.
        done = (value == 0.0) | (np.abs(following - x) <= 1e-12 * np.maximum(1.0, np.abs(x)))
        x = np.where(active & (value != 0.0), following, x)
        active &= ~done
        if not active.any():
            break
    return x


def _llr_normal_many(s0: float, s1: float, table: np.ndarray) -> np.ndarray:
    """:func:`llr_normal` for the rows of ``table`` (numpy; simulations)."""
    values = np.array(_values(table.shape[1]))
    weights = np.where(table > 0, table, ZERO_COUNT)
    total = weights.sum(axis=1)
    r0 = (weights * (values - s0) ** 2).sum(axis=1) / total
    r1 = (weights * (values - s1) ** 2).sum(axis=1) / total
    return np.where(table.sum(axis=1) == 0, 0.0, 0.5 * total * np.log(r0 / r1))


def _table(counts) -> np.ndarray:
    table = np.asarray(counts) if is_sequence(counts) else None
    if table is None or table.ndim != 2 or table.shape[1] not in (3, 5) \
            or table.dtype.kind not in "iu" or (table.size and table.min() < 0):
        raise ValueError(f"counts must be a 2-d array of whole numbers >= 0 with 3 or 5 columns "
                         f"(one match per row), got {shown(counts)}.")
    return table


def _scores(elo0, elo1) -> tuple[float, float]:
    elo0 = check_real("elo0 (the Elo difference under H0)", elo0)
    elo1 = check_real("elo1 (the Elo difference under H1)", elo1)
    if not elo0 < elo1:
        raise ValueError(f"elo0 must be smaller than elo1 (H1 says A is stronger than H0 does), "
                         f"got elo0={shown(elo0)} and elo1={shown(elo1)}.")
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    if not 0.0 < s0 < s1 < 1.0:
        raise ValueError(f"elo0 and elo1 must give expected scores strictly between 0 and 1 and "
                         f"different from each other, got elo0={shown(elo0)} and "
                         f"elo1={shown(elo1)} (scores {shown(s0)} and {shown(s1)}).")
    return s0, s1


def _counts(counts) -> tuple[int, ...]:
    if not is_sequence(counts) or len(counts) not in (3, 5):
        raise ValueError(f"counts must be 3 whole numbers (losses, draws, wins) or 5 (pairs "
                         f"scoring 0, 0.5, 1, 1.5, 2 points), got {shown(counts)}.")
    checked = tuple(check_int(f"counts[{index}]", count, 0, MAX_EXACT_COUNT)
                    for index, count in enumerate(counts))
    if sum(checked) > MAX_EXACT_COUNT:
        raise ValueError("counts must add up to at most 2**53 (a count exact as a float).")
    return checked


def _values(outcomes: int) -> tuple[float, ...]:
    """Per-game score of each outcome: 0, 0.5, 1 (a game) or 0, 0.25, ..., 1 (a pair's average)."""
    return tuple(index / (outcomes - 1) for index in range(outcomes))


# --- The test ---------------------------------------------------------------------------

@dataclass(frozen=True)
class EloSPRT:
    """The GSPRT of chess engine testing: H0 ``elo = elo0`` against H1 ``elo = elo1``.

    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot". See the module docstring
    for the model. :meth:`run` applies it to a whole stream of results,
    :meth:`tracker` to results that arrive one at a time.

    Parameters
    ----------
    elo0, elo1 : float
        A's Elo advantage under H0 and under H1, ``elo0 < elo1`` (default 0 and
        +20: "no gain" against "a gain of 20 Elo", a score of 0.529).
    alpha, beta : float
        Target error rates: accepting H1 when ``elo0`` is true, and H0 when
        ``elo1`` is, each strictly between 0 and 0.5 (default 0.05).
    model : {"pentanomial", "trinomial"}
        ``"pentanomial"`` (default) reads games in pairs that share an opening
        (games ``2k`` and ``2k + 1``, as our arena plays them) and updates after
        each pair; ``"trinomial"`` treats every game as independent and updates
        after each game.
    method : {"mle", "normal"}
        ``"mle"`` (default, as Fishtest): :func:`llr_logistic`; ``"normal"``:
        its normal approximation :func:`llr_normal` (for teaching: its error
        rates drift above ``alpha`` and ``beta``, see there).
    """

    elo0: float = 0.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "pentanomial"
    method: str = "mle"

    def __post_init__(self):
        _scores(self.elo0, self.elo1)  # checks both
        object.__setattr__(self, "elo0", float(self.elo0))
        object.__setattr__(self, "elo1", float(self.elo1))
        for name in ("alpha", "beta"):
            value = check_real(f"{name} (an error rate)", getattr(self, name), 0.0, 0.5)
            if not 0.0 < value < 0.5:
                raise ValueError(f"{name} must be strictly between 0 and 0.5, got {value}.")
            object.__setattr__(self, name, value)
        check_choice("model", self.model, MODELS)
        check_choice("method", self.method, METHODS)

    @property
    def score0(self) -> float:
        """A's expected score per game under H0."""
        return score_from_elo(self.elo0)

    @property
    def score1(self) -> float:
        """A's expected score per game under H1."""
        return score_from_elo(self.elo1)

    @property
    def lower(self) -> float:
        """Accept H0 at or below this: ln(beta / (1 - alpha))."""
        return wald_bounds(self.alpha, self.beta)[0]

    @property
    def upper(self) -> float:
        """Accept H1 at or above this: ln((1 - beta) / alpha)."""
        return wald_bounds(self.alpha, self.beta)[1]

    @property
    def outcomes(self) -> int:
        """How many outcomes one observation has: 5 (a pair) or 3 (a game)."""
        return 5 if self.model == "pentanomial" else 3

    def llr(self, counts) -> float:
        """The log-likelihood ratio for these counts (5 for pentanomial, 3 for trinomial)."""
        if is_sequence(counts) and len(counts) != self.outcomes:
            raise ValueError(f"counts must hold {self.outcomes} numbers for the {self.model} "
                             f"model, got {shown(counts)}.")
        compute = llr_logistic if self.method == "mle" else llr_normal
        return compute(self.elo0, self.elo1, counts)

    def decide(self, llr: float) -> str | None:
        """``"H1"`` at or above the upper bound, ``"H0"`` at or below the lower one, else None."""
        llr = check_real("llr", llr)
        return "H1" if llr >= self.upper else "H0" if llr <= self.lower else None

    def tracker(self) -> EloSPRTTracker:
        """A fresh tracker: feed it A's results one at a time with :meth:`EloSPRTTracker.update`."""
        return EloSPRTTracker(self)

    def run(self, results: Iterable) -> EloSPRTOutcome:
        """Apply the test to A's results in the order played; stop at the first crossing.

        ``results`` are ``"W"`` / ``"D"`` / ``"L"`` or 1 / 0.5 / 0 (a string such
        as ``"WLDW"`` works). Results after the stopping game are not read. For
        the pentanomial model, raises ValueError if the results run out in the
        middle of a pair without a decision (an odd number of games).
        """
        _check_results(results)
        tracker = self.tracker()
        for result in results:
            if tracker.update(result) is not None:
                break
        if tracker.pending:
            raise ValueError(f"results must hold whole pairs for the pentanomial model (games 2k "
                             f"and 2k + 1 share an opening), got an odd number of games "
                             f"({tracker.games:,}) and no decision: pass an even number of "
                             f"games, or use model='trinomial'.")
        return tracker.outcome()


class EloSPRTTracker:
    """The state of one :class:`EloSPRT` as results arrive: counts, LLR path, decision.

    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot". Made by
    :meth:`EloSPRT.tracker`. For the pentanomial model the first game of a pair
    is held (``pending``) until its partner arrives; the LLR then moves once
    for the pair.
    """

    def __init__(self, test: EloSPRT):
        if not isinstance(test, EloSPRT):
            raise ValueError(f"test must be an EloSPRT, got {shown(test)}.")
        self.test = test
        self._counts = [0] * test.outcomes
        self._pending: int | None = None
        self._path: list[float] = []
        self.games = 0
        self.decision: str | None = None

    @property
    def counts(self) -> tuple[int, ...]:
        """The trinomial or pentanomial counts so far (complete pairs only)."""
        return tuple(self._counts)

    @property
    def pending(self) -> bool:
        """True when the first game of a pair waits for its partner."""
        return self._pending is not None

    @property
    def llr(self) -> float:
        """The current log-likelihood ratio (0 before the first game or pair)."""
        return self._path[-1] if self._path else 0.0

    def update(self, result) -> str | None:
        """Add A's next result (W / D / L or 1 / 0.5 / 0); return the decision (None: play on).

        Raises ValueError once the test has decided: further games cannot
        change a sequential test's answer.
        """
        if self.decision is not None:
            raise ValueError(f"the test already accepted {self.decision} after {self.games:,} "
                             f"games; start a new tracker for a new match.")
        index = _INDEX[_letter(result)]
        self.games += 1
        if self.test.model == "pentanomial":
            if self._pending is None:
                self._pending = index
                return None
            index, self._pending = index + self._pending, None
        self._counts[index] += 1
        value = self.test.llr(self._counts)
        self._path.append(value)
        self.decision = self.test.decide(value)
        return self.decision

    def outcome(self) -> EloSPRTOutcome:
        """Where the test stands now, as an :class:`EloSPRTOutcome`."""
        return EloSPRTOutcome(self.test, self.decision, self.games, self.counts, tuple(self._path))


@dataclass(frozen=True)
class EloSPRTOutcome:
    """Where an :class:`EloSPRT` stopped, or stands.

    ``decision`` is ``"H1"``, ``"H0"`` or None (undecided); ``games`` the games
    read (the stopping game if it stopped); ``counts`` the trinomial or
    pentanomial counts; ``llr`` the ratio after each game (trinomial) or each
    pair (pentanomial).
    """

    test: EloSPRT
    decision: str | None
    games: int
    counts: tuple[int, ...]
    llr: tuple[float, ...] = field(repr=False)

    @property
    def pairs(self) -> int | None:
        """Pairs read (pentanomial model), else None."""
        return sum(self.counts) if self.test.model == "pentanomial" else None

    def __str__(self) -> str:
        test = self.test
        read = f"{self.games:,} games" + (f" ({self.pairs:,} pairs)" if self.pairs is not None
                                          else "")
        last = self.llr[-1] if self.llr else 0.0
        if self.decision is None:
            return f"no decision after {read} (LLR {last:.3f})"
        elo = test.elo1 if self.decision == "H1" else test.elo0
        return f"accepts {self.decision} (elo = {elo:+g}) after {read} (LLR {last:.3f})"

    def as_dict(self) -> dict:
        """Plain data (for JSON), with the model stated in words."""
        test = self.test
        return {
            "model": (f"GSPRT on logistic Elo, {test.model} counts "
                      f"({'game pairs sharing an opening' if test.model == 'pentanomial' else 'single games'}), "
                      f"LLR by {'constrained maximum likelihood' if test.method == 'mle' else 'normal approximation'}"),
            "elo0": test.elo0, "elo1": test.elo1, "alpha": test.alpha, "beta": test.beta,
            "lower_bound": test.lower, "upper_bound": test.upper,
            "decision": self.decision, "games": self.games, "pairs": self.pairs,
            "counts": list(self.counts), "llr": list(self.llr),
        }


def elo_sprt(results: Iterable, elo0: float = 0.0, elo1: float = 20.0, alpha: float = 0.05,
             beta: float = 0.05, model: str = "pentanomial", method: str = "mle") -> EloSPRTOutcome:
    """Run the GSPRT (see :class:`EloSPRT`) on A's results in the order played.

    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot".

    >>> elo_sprt("WL" * 300).decision
    'H0'
    """
    return EloSPRT(elo0, elo1, alpha, beta, model, method).run(results)


# --- Simulation: error rates and stopping times -----------------------------------------

@dataclass(frozen=True)
class SPRTSimulation:
    """What :func:`simulate_elo_sprt` saw: decisions and games over many simulated matches.

    ``accepted_h0``, ``accepted_h1`` and ``undecided`` count matches;
    ``games`` holds each match's games at its stop (``max_games`` if it never
    stopped); ``mean_games`` is their average (undecided matches counted at
    ``max_games``, so it is a lower bound when ``undecided > 0``).
    """

    test: EloSPRT
    elo: float
    draw_rate: float
    opening_bias: float
    max_games: int
    seed: int
    accepted_h0: int
    accepted_h1: int
    undecided: int
    games: tuple[int, ...] = field(repr=False)

    @property
    def runs(self) -> int:
        """Matches simulated."""
        return len(self.games)

    @property
    def mean_games(self) -> float:
        """Average games to the stop (integer total divided once)."""
        return sum(self.games) / len(self.games)

    def games_quantile(self, fraction: float) -> int:
        """The games by which ``fraction`` of the matches had stopped (order statistic)."""
        fraction = check_real("fraction", fraction, 0.0, 1.0)
        ordered = sorted(self.games)
        return ordered[min(len(ordered) - 1, math.ceil(fraction * len(ordered)) - 1)] \
            if fraction > 0 else ordered[0]

    def as_dict(self) -> dict:
        """Plain data (for JSON): the settings and the summary, not every match."""
        return {"elo0": self.test.elo0, "elo1": self.test.elo1, "alpha": self.test.alpha,
                "beta": self.test.beta, "model": self.test.model, "method": self.test.method,
                "true_elo": self.elo, "draw_rate": self.draw_rate,
                "opening_bias": self.opening_bias, "max_games": self.max_games, "seed": self.seed,
                "runs": self.runs, "accepted_h0": self.accepted_h0,
                "accepted_h1": self.accepted_h1, "undecided": self.undecided,
                "mean_games": self.mean_games, "median_games": self.games_quantile(0.5),
                "p90_games": self.games_quantile(0.9)}


def simulate_elo_sprt(test: EloSPRT, elo: float, runs: int = 2000, seed: int = 0,
                      draw_rate: float = 0.2, opening_bias: float = 0.0,
                      max_games: int = 100_000) -> SPRTSimulation:
    """Play ``runs`` simulated matches whose true Elo difference is ``elo``; run ``test`` on each.

    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot": how often the test
    decides wrongly and how many games it takes, measured instead of assumed.

    The simulated match: games come in pairs from one opening with the sides
    swapped. Each opening favours the side that moves first by ``u``, drawn
    uniformly from ``[-opening_bias, opening_bias]``: A's expected score is
    ``s + u`` in the pair's first game and ``s - u`` in the second, where
    ``s = score_from_elo(elo)``. Each game is drawn with probability
    ``draw_rate``, and otherwise won or lost so that its expected score is
    right. Over all openings every game is the same trinomial (mean ``s``,
    ``draw_rate`` draws); a larger ``opening_bias`` makes the two games of a
    pair more negatively correlated, which the pentanomial model sees and the
    trinomial model does not. The games of a seed do not depend on the test,
    so two tests given the same seed see the same games.

    Uses numpy (:func:`llr_logistic_many` for ``method="mle"``); the counts it
    returns are integers.

    Parameters
    ----------
    test : EloSPRT
        The test to run.
    elo : float
        The true Elo difference (try ``test.elo0``, ``test.elo1`` and halfway).
    runs : int
        Matches to simulate (1 to 1,000,000).
    seed : int
        Seed of the generator (every random choice flows from it).
    draw_rate : float
        Chance that a game is drawn, in [0, 1).
    opening_bias : float
        Largest advantage an opening gives the first player, in expected score.
    max_games : int
        A match still undecided after this many games stops undecided.

    Returns
    -------
    SPRTSimulation
    """
    if not isinstance(test, EloSPRT):
        raise ValueError(f"test must be an EloSPRT, got {shown(test)}.")
    max_games = check_int("max_games", max_games, 2, 10_000_000)
    if max_games % 2:
        raise ValueError(f"max_games must be even (games come in pairs), got {max_games:,}.")
    elo, runs, seed, draw_rate, opening_bias, score = _match_model(elo, runs, seed, draw_rate,
                                                                   opening_bias)
    rng = make_rng(seed)
    matches = _Matches(test, runs)
    pentanomial = test.model == "pentanomial"
    for pair in range(max_games // 2):
        # Every match draws its pair (stopped ones too), so the games do not depend on the test.
        first, second = _draw_pair(rng, runs, score, draw_rate, opening_bias)
        if pentanomial:
            matches.add(first + second, 2 * pair + 2)
        else:
            matches.add(first, 2 * pair + 1)
            matches.add(second, 2 * pair + 2)
        if not matches.active.any():
            break
    stopped_at = np.where(matches.decision == 0, max_games, matches.stopped_at)
    return SPRTSimulation(test, elo, draw_rate, opening_bias, max_games, seed,
                          int(np.count_nonzero(matches.decision == -1)),
                          int(np.count_nonzero(matches.decision == 1)),
                          int(np.count_nonzero(matches.decision == 0)),
                          tuple(int(games) for games in stopped_at))


def simulate_results(elo: float, games: int, runs: int = 1, seed: int = 0,
                     draw_rate: float = 0.2, opening_bias: float = 0.0) -> list[str]:
    """The games :func:`simulate_elo_sprt` plays, as A's results: one ``"WDL..."`` string per match.

    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot". Same model and
    parameters as :func:`simulate_elo_sprt` (``games`` even: pairs from one
    opening with the sides swapped); with the same seed and runs, match ``r``
    here is the match ``r`` that :func:`simulate_elo_sprt` plays, so its
    results can be fed to :meth:`EloSPRT.run` one game at a time.

    >>> simulate_results(0, 8, seed=1)
    ['WLLDDDWD']
    """
    games = check_int("games", games, 2, 10_000_000)
    if games % 2:
        raise ValueError(f"games must be even (games come in pairs), got {games:,}.")
    elo, runs, seed, draw_rate, opening_bias, score = _match_model(elo, runs, seed, draw_rate,
                                                                   opening_bias)
    if runs * games > 50_000_000:
        raise ValueError(f"runs * games must be at most 50,000,000 results, got {runs * games:,}.")
    rng = make_rng(seed)
    outcomes = np.zeros((runs, games), dtype=np.int64)
    for pair in range(games // 2):
        outcomes[:, 2 * pair], outcomes[:, 2 * pair + 1] = _draw_pair(rng, runs, score, draw_rate,
                                                                     opening_bias)
    return ["".join(_LETTERS[index] for index in row) for row in outcomes.tolist()]


def _match_model(elo, runs, seed, draw_rate, opening_bias):
    """Checked parameters of the simulated matches, and the true score."""
    elo = check_real("elo (the true Elo difference)", elo)
    runs = check_int("runs", runs, 1, 1_000_000)
    seed = check_int("seed", seed, 0)
    draw_rate = check_real("draw_rate", draw_rate, 0.0, 1.0)
    opening_bias = check_real("opening_bias", opening_bias, 0.0, 0.5)
    score = score_from_elo(elo)
    # Both games of a pair need chances of winning and losing >= 0 at every opening.
    if score - opening_bias - draw_rate / 2 < 0.0 or score + opening_bias + draw_rate / 2 > 1.0:
        raise ValueError(f"elo, draw_rate and opening_bias leave no room for the games: need "
                         f"draw_rate / 2 + opening_bias <= the true score {score:.4f} and <= 1 - "
                         f"it, got elo={shown(elo)}, draw_rate={shown(draw_rate)} and "
                         f"opening_bias={shown(opening_bias)}.")
    return elo, runs, seed, draw_rate, opening_bias, score


def _draw_pair(rng, runs, score, draw_rate, opening_bias) -> tuple[np.ndarray, np.ndarray]:
    """One pair of games for each of ``runs`` matches: A's outcomes (0, 1, 2) in each game."""
    bias = rng.uniform(-opening_bias, opening_bias, runs)
    first = _game_outcomes(rng.random(runs), score + bias, draw_rate)
    second = _game_outcomes(rng.random(runs), score - bias, draw_rate)
    return first, second


def _game_outcomes(uniform, expected, draw_rate) -> np.ndarray:
    """0 loss, 1 draw, 2 win, with the given expected score and draw rate."""
    loss = 1.0 - expected - draw_rate / 2
    return np.where(uniform < loss, 0, np.where(uniform < loss + draw_rate, 1, 2))


class _Matches:
    """Counts, decisions and fitted shifts of many simulated matches under one test."""

    def __init__(self, test: EloSPRT, runs: int):
        self.test = test
        self.counts = np.zeros((runs, test.outcomes), dtype=np.int64)
        self.active = np.ones(runs, dtype=bool)
        self.decision = np.zeros(runs, dtype=np.int8)  # 0 undecided, -1 H0, +1 H1
        self.stopped_at = np.zeros(runs, dtype=np.int64)
        # Last fitted shifts: one observation moves them little, so they start the next fit.
        self.shifts = (np.zeros(runs), np.zeros(runs))

    def add(self, outcome: np.ndarray, games: int) -> None:
        """Count one more observation (index ``outcome[row]``) for each active match; decide."""
        rows = np.flatnonzero(self.active)
        if rows.size == 0:
            return
        self.counts[rows, outcome[rows]] += 1
        table = self.counts[rows]
        test = self.test
        if test.method == "mle":
            starts = (self.shifts[0][rows], self.shifts[1][rows])
            llr, x0, x1 = _llr_logistic_many(test.score0, test.score1, table, starts)
            self.shifts[0][rows], self.shifts[1][rows] = x0, x1
        else:
            llr = _llr_normal_many(test.score0, test.score1, table)
        verdict = np.where(llr >= test.upper, 1, np.where(llr <= test.lower, -1, 0))
        done = rows[verdict != 0]
        self.decision[done] = verdict[verdict != 0]
        self.stopped_at[done] = games
        self.active[done] = False
