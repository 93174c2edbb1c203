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

from .._checks import check_int
from ..games.simultaneous_base import SimultaneousState
from ..rng import make_rng
from .backward_induction import TableProfile, profile_exploitability


class SimultaneousSearch:
    """Base of :class:`~mctslib.search.smmcts.SMMCTS` and :class:`~mctslib.search.smitsimax.Smitsimax`.

    Parameters
    ----------
    root : SimultaneousState
        The state to search from; the game must still be on.
    seed : int, numpy Generator or None
        Every random choice of the search comes from ``make_rng(seed)``.

    Raises
    ------
    ValueError
        If ``root`` is not a simultaneous-move state or the game is over.
    """

    def __init__(self, root: SimultaneousState, seed=None):
        if not isinstance(root, SimultaneousState):
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
        """Add ``iterations`` iterations (a whole number >= 1); returns the search itself."""
        for _ in range(check_int("iterations", iterations, 1)):
            self.iterate()
        self.iterations += iterations
        return self

    def exploitability(self) -> float:
        """Exact distance of :meth:`profile` from equilibrium, in the game's payoff units."""
        return profile_exploitability(self.root_state, self.profile())
