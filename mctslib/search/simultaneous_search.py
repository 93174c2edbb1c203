"""What SM-MCTS and Smitsimax share: a root still in play, one seeded generator, ``run``.

Both searches of the simultaneous-moves chapter grow from a state where the
game is on, take every random choice from ``make_rng(seed)``, add iterations
with :meth:`SimultaneousSearch.run`, and are judged by the exact distance from
equilibrium of the behaviour profile they stand for
(:func:`mctslib.search.backward_induction.profile_exploitability`).
Subclasses write :meth:`~SimultaneousSearch.iterate`, :meth:`~SimultaneousSearch.profile`
and the ``root_state`` they search from.
"""

from __future__ import annotations

from ..games.simultaneous_base import MultiAgentState, SimultaneousState
from ..rng import make_rng
from .backward_induction import TableProfile, profile_exploitability
from .minimax import check_budget

#: The most iterations one call of :meth:`SimultaneousSearch.run` adds. The
#: chapter's longest stored run has 1,000,000; the trees keep every node they
#: add, so far more would run for days or fill the memory instead of answering.
MAX_ITERATIONS = 10_000_000


class SimultaneousSearch:
    """Base of :class:`~mctslib.search.smmcts.SMMCTS` and :class:`~mctslib.search.smitsimax.Smitsimax`.

    Parameters
    ----------
    root : SimultaneousState or MultiAgentState
        The state to search from; the game must still be on (searches that
        handle more than two agents accept a
        :class:`~mctslib.games.simultaneous_base.MultiAgentState`).
    seed : int, numpy Generator or None
        Every random choice of the search comes from ``make_rng(seed)``.

    Raises
    ------
    ValueError
        If ``root`` is not a simultaneous-move state or the game is over.
    """

    def __init__(self, root: SimultaneousState, seed=None):
        if not isinstance(root, (SimultaneousState, MultiAgentState)):
            raise ValueError(
                f"root must be a simultaneous-move game state such as Goofspiel(), got "
                f"{type(root).__name__}."
            )
        if root.is_terminal():
            raise ValueError("root must be a state where the game is still on; this one is over.")
        self.rng = make_rng(seed)
        self.iterations = 0

    @property
    def root_state(self) -> SimultaneousState:  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    def iterate(self) -> None:  # pragma: no cover - every subclass defines it
        """One iteration of the search."""
        raise NotImplementedError

    def profile(self) -> TableProfile:  # pragma: no cover - every subclass defines it
        """The behaviour profile (a mix per player per state) the search stands for."""
        raise NotImplementedError

    def run(self, iterations: int):
        """Add ``iterations`` iterations (a whole number from 1 to :data:`MAX_ITERATIONS`).

        Returns the search itself, so that ``search.run(1000).exploitability()`` reads.
        """
        count = check_budget("iterations", iterations, 1, MAX_ITERATIONS)
        for _ in range(count):
            self.iterate()
        self.iterations += count
        return self

    def exploitability(self) -> float:
        """Exact distance of :meth:`profile` from equilibrium, in the game's payoff units."""
        return profile_exploitability(self.root_state, self.profile())
