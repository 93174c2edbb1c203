"""Wald's sequential probability ratio test on a stream of match results.

Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", section "How many games a
decision needs". A fixed-size match decides after N games however clear the
answer was after a few; a *sequential* test looks after every game and stops
as soon as the evidence is strong enough for one of two hypotheses.

The model (the simple Bernoulli SPRT on decisive games):

* Each game A wins or loses is a Bernoulli trial: A wins it with probability
  ``p``, the same in every game. Draws are set aside: the model assumes the
  draw rate does not depend on which hypothesis is true, so a draw has the
  same likelihood under both and leaves the test where it was. (Under
  CodinGame scoring draws are rare in Ultimate Tic-Tac-Toe.)
* ``p`` is A's score over decisive games; it equals the match score when there
  are no draws, and is 0.5 exactly when the match score is 0.5.
* H0: ``p = p0`` against H1: ``p = p1`` (``p0 < p1``). After ``w`` wins and
  ``l`` losses the log-likelihood ratio is

  .. math:: \\mathrm{LLR} = w \\ln\\frac{p_1}{p_0} + l \\ln\\frac{1 - p_1}{1 - p_0}.

* Wald's bounds: stop and accept H1 when LLR >= ln((1 - beta) / alpha), stop
  and accept H0 when LLR <= ln(beta / (1 - alpha)); otherwise play another
  game. The test then accepts H1 wrongly with probability about ``alpha``
  when H0 holds, and H0 wrongly with probability about ``beta`` when H1
  holds (Wald's approximation; the true rates are a little smaller).

When the truth lies between ``p0`` and ``p1`` either answer is acceptable (the
*indifference zone*): the symmetric default, 0.45 against 0.55, asks "which
of the two is better, if either is better by 5 points or more?". The closer
``p0`` and ``p1``, the more games the test needs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from .._checks import MAX_EXACT_COUNT, check_int, check_real, shown

__all__ = ["SPRT", "SPRTOutcome", "sprt", "wald_bounds"]

#: How a game's result for A counts: 1 win, 0.5 draw, 0 loss, or the letters W, D, L.
_RESULTS = {1.0: "W", 0.5: "D", 0.0: "L", "W": "W", "D": "D", "L": "L"}


def wald_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's approximate stopping bounds on the log-likelihood ratio: ``(lower, upper)``.

    Accept H0 at or below ``ln(beta / (1 - alpha))``, H1 at or above
    ``ln((1 - beta) / alpha)``; shared by :class:`SPRT` and
    :class:`mctslib.play.elo_sprt.EloSPRT`.
    """
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


@dataclass(frozen=True)
class SPRT:
    """The test's hypotheses and error rates; :meth:`run` applies it to a stream of games.

    Parameters
    ----------
    p0, p1 : float
        A's chance of winning a decisive game under H0 and under H1,
        ``0 < p0 < p1 < 1`` (default 0.45 and 0.55).
    alpha, beta : float
        Target error rates: accepting H1 when H0 holds, and H0 when H1 holds,
        each strictly between 0 and 0.5 (default 0.05).
    """

    p0: float = 0.45
    p1: float = 0.55
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        for name in ("p0", "p1"):
            value = check_real(f"{name} (A's chance to win a decisive game)",
                               getattr(self, name), 0.0, 1.0)
            if not 0.0 < value < 1.0:
                raise ValueError(f"{name} must be strictly between 0 and 1, got {value}.")
            object.__setattr__(self, name, value)
        if not self.p0 < self.p1:
            raise ValueError(f"p0 must be smaller than p1 (H0 says A is weaker than H1 does), "
                             f"got p0={self.p0} and p1={self.p1}.")
        # Each game moves the LLR by ln(p1 / p0) or ln((1 - p1) / (1 - p0)); a ratio that
        # overflows or rounds to 1 would move it by infinity (then NaN) or not at all.
        win_ratio, loss_ratio = self.p1 / self.p0, (1.0 - self.p1) / (1.0 - self.p0)
        if not (1.0 < win_ratio < math.inf and 0.0 < loss_ratio < 1.0):
            raise ValueError(f"p0 and p1 must be far enough apart, and p0 large enough, for "
                             f"ln(p1 / p0) and ln((1 - p1) / (1 - p0)) to be finite and non-zero, "
                             f"got p0={shown(self.p0)} and p1={shown(self.p1)}.")
        for name in ("alpha", "beta"):
            value = check_real(f"{name} (an error rate)", getattr(self, name), 0.0, 0.5)
            if not 0.0 < value < 0.5:
                raise ValueError(f"{name} must be strictly between 0 and 0.5, got {value}.")
            object.__setattr__(self, name, value)

    @property
    def win_step(self) -> float:
        """How much one win raises the log-likelihood ratio: ln(p1 / p0)."""
        return math.log(self.p1 / self.p0)

    @property
    def loss_step(self) -> float:
        """How much one loss changes it (negative): ln((1 - p1) / (1 - p0))."""
        return math.log((1.0 - self.p1) / (1.0 - self.p0))

    @property
    def lower(self) -> float:
        """Accept H0 at or below this: ln(beta / (1 - alpha))."""
        return wald_bounds(self.alpha, self.beta)[0]

    @property
    def upper(self) -> float:
        """Accept H1 at or above this: ln((1 - beta) / alpha)."""
        return wald_bounds(self.alpha, self.beta)[1]

    def llr(self, wins: int, losses: int) -> float:
        """The log-likelihood ratio of H1 against H0 after ``wins`` and ``losses`` (whole numbers)."""
        wins = check_int("wins", wins, 0, MAX_EXACT_COUNT)
        losses = check_int("losses", losses, 0, MAX_EXACT_COUNT)
        return wins * self.win_step + losses * self.loss_step

    def run(self, results: Iterable) -> SPRTOutcome:
        """Apply the test game by game; stop at the first game that crosses a bound.

        ``results`` are A's results in the order the games were played:
        1 / 0.5 / 0 or ``"W"`` / ``"D"`` / ``"L"`` (a string such as
        ``"WWLDW"`` works). Games after the stopping game are not read.
        """
        # Bytes iterate as numbers, and a 0-d numpy array claims to be iterable but is one value.
        if isinstance(results, (bytes, bytearray)) or not isinstance(results, Iterable) \
                or getattr(results, "ndim", 1) == 0:
            raise ValueError(f"results must be a sequence of game results (1, 0.5, 0 or W, D, L), "
                             f"got {shown(results)}.")
        wins = draws = losses = 0
        trajectory = []
        win_step, loss_step = self.win_step, self.loss_step
        for result in results:
            letter = _letter(result)
            wins += letter == "W"
            draws += letter == "D"
            losses += letter == "L"
            value = wins * win_step + losses * loss_step  # llr(), without its checks
            trajectory.append(value)
            if value >= self.upper or value <= self.lower:
                return SPRTOutcome(self, "H1" if value >= self.upper else "H0",
                                   len(trajectory), wins, draws, losses, tuple(trajectory))
        return SPRTOutcome(self, None, len(trajectory), wins, draws, losses, tuple(trajectory))


@dataclass(frozen=True)
class SPRTOutcome:
    """Where the test stopped: ``decision`` is ``"H1"``, ``"H0"`` or None (still undecided).

    ``games`` is the number of games read (the stopping game if it stopped);
    ``llr`` holds the log-likelihood ratio after each of them.
    """

    test: SPRT
    decision: str | None
    games: int
    wins: int
    draws: int
    losses: int
    llr: tuple[float, ...]

    def __str__(self) -> str:
        test = self.test
        head = (f"SPRT p0={test.p0:g} vs p1={test.p1:g} (alpha={test.alpha:g}, "
                f"beta={test.beta:g}, bounds {test.lower:.3f} and {test.upper:.3f}): ")
        tally = f"{self.wins} wins, {self.draws} draws, {self.losses} losses"
        if self.decision is None:
            final = self.llr[-1] if self.llr else 0.0
            return head + f"no decision after {self.games} games ({tally}; LLR {final:.3f})"
        hypothesis = test.p1 if self.decision == "H1" else test.p0
        return head + (f"accepted {self.decision} (p = {hypothesis:g}) after {self.games} games "
                       f"({tally}; LLR {self.llr[-1]:.3f})")

    def as_dict(self) -> dict:
        """JSON-ready: the test's parameters, the decision and the LLR after each game."""
        test = self.test
        return {"model": "Bernoulli SPRT on decisive games (draws leave the LLR unchanged)",
                "p0": test.p0, "p1": test.p1, "alpha": test.alpha, "beta": test.beta,
                "lower_bound": test.lower, "upper_bound": test.upper,
                "decision": self.decision, "games": self.games, "wins": self.wins,
                "draws": self.draws, "losses": self.losses, "llr": list(self.llr)}


def sprt(results: Iterable, p0: float = 0.45, p1: float = 0.55, alpha: float = 0.05,
         beta: float = 0.05) -> SPRTOutcome:
    """Run Wald's SPRT on A's results (see the module docstring for the model).

    Examples
    --------
    Fifteen straight wins decide 0.45 against 0.55 at 5% error rates: each win
    adds ln(0.55 / 0.45) = 0.2007 and the upper bound is ln(19) = 2.944.

    >>> sprt("W" * 20).games
    15
    """
    return SPRT(p0, p1, alpha, beta).run(results)


def _letter(result) -> str:
    # A truth value is not a game result, and an unhashable one cannot be looked up.
    key = None if isinstance(result, (bool, np.bool_)) else (
        result if isinstance(result, str) else _as_float(result))
    if not isinstance(key, (str, float)) or key not in _RESULTS:
        raise ValueError(f"each game's result must be 1, 0.5 or 0 (or W, D, L) for A, "
                         f"got {shown(result)}.")
    return _RESULTS[key]


def _as_float(result):
    try:
        return float(result)
    except (TypeError, ValueError, OverflowError):
        return None
