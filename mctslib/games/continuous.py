"""A tree of continuous bandits: a one-player problem with a continuous action (chapter "Enhancements").

Progressive widening (Coulom 2007; Couetoux et al. 2011) is for nodes with too
many moves to try each once, the extreme case being a continuous action. This
module gives the chapter such a problem, small enough to simulate in
microseconds and with an optimum known exactly, so that a search's
recommendation can be scored by its regret.

The problem
-----------
A decision maker makes ``depth`` choices ``x_1, ..., x_depth``, each a number in
``[0, 1]`` read on a circle (0 and 1 are the same point; distances wrap
around). Choice ``t`` is paid by a payoff in ``[0, 1]`` with two features:

- a **narrow peak** of height 1 and width ``peak_width`` (a Gaussian bump)
  centred at ``c_t``; and
- a **broad hump** of height :data:`HUMP_HEIGHT` and width :data:`HUMP_WIDTH`
  centred opposite the peak, at ``c_t + 1/2``: the decoy a coarse grid finds.

The payoff is the larger of the two bumps. The first peak sits at
``c_1 = (sqrt(5) - 1) / 2`` (0.618..., irrational, so no evenly spaced grid
hits it; the parameter ``first_peak`` moves it), and each choice moves the
next peak: ``c_{t+1} = x_t + sqrt(2) - 1`` (modulo 1). So the best second
choice depends on the first: the search must learn a different continuation below each first action, which is what makes
it a tree rather than ``depth`` separate bandits.

The mean reward of a finished sequence is the average of its ``depth`` payoffs.
The search does not see it: :meth:`ContinuousBanditTree.sample_reward` adds
Gaussian noise of standard deviation ``noise``, drawn from the generator the
search passes in (the problem owns no randomness). With noise a reward can
leave ``[0, 1]`` by a few standard deviations; its mean never does.

The optimum
-----------
Every peak can be hit exactly (``x_t = c_t``), whatever came before, so the
best mean reward is exactly :data:`OPTIMUM` ``= 1``, reached by one sequence
only (:meth:`ContinuousBanditTree.optimal_actions`). After any first steps,
the best that can still be achieved is the payoffs collected so far plus 1
per remaining step, averaged (:meth:`ContinuousBanditTree.best_value`):
that is the *true value* by which a search's recommended action is judged.
A grid of ``m`` evenly spaced actions (cell centres ``(i + 1/2) / m``) can do
no better than :meth:`ContinuousBanditTree.grid_optimum`.

The interface (one player)
--------------------------
The library's :class:`~mctslib.games.GameState` protocol is for two players
who alternate, with a finite list of legal moves. This problem has one player
and infinitely many actions, so it has its own small interface: a state is the
tuple of choices made so far; :meth:`initial_state`, :meth:`is_terminal`,
:meth:`step` (append one choice), :meth:`mean_reward` and
:meth:`sample_reward` (at a finished state). The search samples the actions
itself (:mod:`mctslib.search.widening`).
"""

from __future__ import annotations

import math

from .._checks import check_int, check_real, shown

__all__ = ["HUMP_HEIGHT", "HUMP_WIDTH", "OPTIMUM", "ContinuousBanditTree"]

#: The best mean reward of any sequence: every peak has height 1 and can be hit exactly.
OPTIMUM = 1.0
#: Height and width (standard deviation) of the broad decoy opposite each peak.
HUMP_HEIGHT = 0.6
HUMP_WIDTH = 0.1
#: Where the first peak sits: (sqrt(5) - 1) / 2, irrational.
FIRST_PEAK = (math.sqrt(5.0) - 1.0) / 2.0
#: How far each choice moves the next peak: sqrt(2) - 1, irrational.
PEAK_SHIFT = math.sqrt(2.0) - 1.0
#: The deepest tree: :meth:`ContinuousBanditTree.grid_optimum` enumerates m**depth sequences.
MAX_DEPTH = 4
#: The largest grid :meth:`ContinuousBanditTree.grid_optimum` enumerates (m**depth <= 10**6 at depth 2).
MAX_GRID = 1000


def circular_distance(x: float, y: float) -> float:
    """Distance between two points of ``[0, 1]`` read on a circle of length 1 (at most 1/2)."""
    gap = abs(x - y) % 1.0
    return min(gap, 1.0 - gap)


class ContinuousBanditTree:
    """``depth`` continuous choices, each paid by a narrow peak or a broad decoy (see the module).

    Parameters
    ----------
    depth : int
        Number of choices, from 1 to :data:`MAX_DEPTH` (default 2).
    peak_width : float
        Standard deviation of each narrow peak, from 0.001 to 0.25 (default 0.03).
    noise : float
        Standard deviation of the Gaussian noise on an observed reward, from 0 to 1
        (default 0.1).
    first_peak : float
        Where the first peak sits, in [0, 1) (default :data:`FIRST_PEAK`). An
        experiment that compares fixed grids draws it at random for each run, so
        that no grid is lucky or unlucky by where its points happen to fall.

    Notes
    -----
    One-player, with its own interface (not :class:`~mctslib.games.GameState`).
    Used by the chapter "Enhancements" (progressive widening) through
    :class:`mctslib.search.widening.ProgressiveWideningSearch`.
    """

    __slots__ = ("depth", "first_peak", "noise", "peak_width")

    def __init__(self, depth: int = 2, peak_width: float = 0.03, noise: float = 0.1,
                 first_peak: float = FIRST_PEAK):
        self.depth = check_int("depth", depth, 1, MAX_DEPTH)
        self.peak_width = check_real("peak_width", peak_width, 0.001, 0.25)
        self.noise = check_real("noise", noise, 0.0, 1.0)
        self.first_peak = check_real("first_peak", first_peak, 0.0, 1.0)
        if self.first_peak == 1.0:
            raise ValueError("first_peak must be a number in [0, 1) (1 is the same point as 0), "
                             "got 1.")

    def __repr__(self) -> str:
        peak = "" if self.first_peak == FIRST_PEAK else f", first_peak={self.first_peak!r}"
        return (f"ContinuousBanditTree(depth={self.depth}, peak_width={self.peak_width!r}, "
                f"noise={self.noise!r}{peak})")

    # --- the one-player interface -------------------------------------------------------

    def initial_state(self) -> tuple:
        """No choice made yet: the empty tuple."""
        return ()

    def is_terminal(self, state: tuple) -> bool:
        """True once all ``depth`` choices are made."""
        return len(self._checked_state(state)) == self.depth

    def step(self, state: tuple, action: float) -> tuple:
        """The state after choosing ``action`` (a number in [0, 1]) at an unfinished ``state``."""
        state = self._checked_state(state)
        if len(state) == self.depth:
            raise ValueError(f"step needs an unfinished state (fewer than {self.depth} choices), "
                             f"got {shown(state)}.")
        return state + (check_real("action", action, 0.0, 1.0),)

    def mean_reward(self, state: tuple) -> float:
        """Mean reward of a finished sequence: the average of its payoffs, in [0, 1]."""
        state = self._checked_state(state)
        if len(state) != self.depth:
            raise ValueError(f"mean_reward needs a finished state ({self.depth} choices), "
                             f"got {shown(state)}.")
        return math.fsum(self._payoffs(state)) / self.depth

    def sample_reward(self, state: tuple, rng) -> float:
        """An observed reward: :meth:`mean_reward` plus ``noise * rng.standard_normal()``.

        ``rng`` is the caller's numpy Generator; exactly one normal draw is taken,
        even when ``noise`` is 0, so a search's stream does not depend on the noise.
        """
        draw = float(rng.standard_normal())
        return self.mean_reward(state) + self.noise * draw

    # --- what the chapter scores a search by -------------------------------------------

    def payoff(self, action: float, peak: float) -> float:
        """Payoff of ``action`` when the peak is at ``peak``: the larger of the two bumps."""
        to_peak = circular_distance(action, peak)
        to_hump = circular_distance(action, peak + 0.5)
        return max(math.exp(-0.5 * (to_peak / self.peak_width) ** 2),
                   HUMP_HEIGHT * math.exp(-0.5 * (to_hump / HUMP_WIDTH) ** 2))

    def peak_after(self, state: tuple) -> float:
        """Where the peak of the next choice sits after the choices in ``state`` (in [0, 1))."""
        state = self._checked_state(state)
        return self.first_peak if not state else (state[-1] + PEAK_SHIFT) % 1.0

    def best_value(self, state: tuple) -> float:
        """The best mean reward still reachable from ``state``: payoffs so far, then 1 per step.

        The *true value* of choosing ``x`` at the root is ``best_value((x,))``;
        the optimum is ``best_value(()) == OPTIMUM``.
        """
        state = self._checked_state(state)
        earned = self._payoffs(state)
        return math.fsum(earned + [1.0] * (self.depth - len(state))) / self.depth

    def optimal_actions(self) -> tuple:
        """The one sequence with mean reward :data:`OPTIMUM`: each choice on its peak."""
        state: tuple = ()
        for _ in range(self.depth):
            state = state + (self.peak_after(state),)
        return state

    def grid_actions(self, m: int) -> tuple:
        """``m`` evenly spaced actions, the centres of ``m`` equal cells: ``(i + 1/2) / m``."""
        m = check_int("m (the number of grid actions)", m, 1, MAX_GRID)
        return tuple((i + 0.5) / m for i in range(m))

    def grid_optimum(self, m: int) -> float:
        """The best mean reward of a sequence whose every choice is one of :meth:`grid_actions`.

        Found by trying all ``m**depth`` sequences (refused above 10**6 of them).
        """
        grid = self.grid_actions(m)
        if m ** self.depth > 10**6:
            raise ValueError(f"grid_optimum tries m**depth sequences, at most 10**6; got m={m} "
                             f"at depth {self.depth}.")
        sequences = [()]
        for _ in range(self.depth):
            sequences = [state + (x,) for state in sequences for x in grid]
        return max(self.mean_reward(state) for state in sequences)

    # --- helpers --------------------------------------------------------------------------

    def _payoffs(self, state: tuple) -> list:
        payoffs, peak = [], self.first_peak
        for action in state:
            payoffs.append(self.payoff(action, peak))
            peak = (action + PEAK_SHIFT) % 1.0
        return payoffs

    def _checked_state(self, state) -> tuple:
        if not isinstance(state, tuple) or len(state) > self.depth:
            raise ValueError(f"state must be a tuple of at most {self.depth} actions in [0, 1], "
                             f"got {shown(state)}.")
        return state
