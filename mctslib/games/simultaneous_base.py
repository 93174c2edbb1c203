"""The protocol of two-player zero-sum games in which both players move at once.

In the rest of the book one player moves at a time (:class:`~mctslib.games.GameState`).
Here both players choose an action *without seeing the other's choice*, and
the pair (the *joint action*) decides the next state. Everything that
happened before is seen by both, so a state is all either player knows.

A state is immutable and hashable, like the alternating games' states:
searches keep states as dictionary keys and never copy them.

Payoffs are for player 0 in the game's own units (player 1 gets minus
that: zero-sum); :meth:`SimultaneousState.reward` rescales them to ``[0, 1]``
for the searches, which, like UCT, expect rewards in that range. Chapter
"When both players move at once (simultaneous moves)".
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence

from .._checks import shown
from .base import check_player

__all__ = ["PLAYERS", "MultiAgentState", "SimultaneousState", "check_player"]

#: The two players of a simultaneous-move game.
PLAYERS = (0, 1)


class SimultaneousState(ABC):
    """A state of a two-player zero-sum game with simultaneous moves.

    Subclasses implement the abstract members. The searches and the exact
    solver (:mod:`mctslib.search.backward_induction`) use only these. A player's
    legal actions may depend on the state, never on what the other player
    is choosing at the same moment.
    """

    __slots__ = ()

    @abstractmethod
    def legal_actions(self, player: int) -> Sequence[Hashable]:
        """Actions ``player`` may choose here, in a fixed order (empty once the game is over)."""

    @abstractmethod
    def play(self, joint_action: tuple[Hashable, Hashable]) -> SimultaneousState:
        """The state after both players' actions ``(action of 0, action of 1)``."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over."""

    @abstractmethod
    def payoff(self) -> float:
        """Player 0's payoff of the finished game in the game's units (player 1 gets minus it)."""

    @property
    @abstractmethod
    def payoff_range(self) -> tuple[float, float]:
        """The lowest and highest payoff player 0 can get: what :meth:`reward` maps to 0 and 1."""

    def reward(self, player: int) -> float:
        """``player``'s payoff of the finished game rescaled to ``[0, 1]`` (1 is the best).

        Player 0 gets ``(payoff - low) / (high - low)`` and player 1 one minus
        that, so the two rewards always add up to 1, as win/draw/loss
        scores 1/0.5/0 do in the alternating-move chapters.
        """
        player = check_player(player)
        if not self.is_terminal():
            raise ValueError("reward() is defined only for a finished game; this one is still on.")
        low, high = self.payoff_range
        if not low < high:  # a game of one possible payoff has nothing to rescale
            raise ValueError(f"payoff_range must be (low, high) with low < high to rescale "
                             f"payoffs, got {shown((low, high))}.")
        share = (self.payoff() - low) / (high - low)
        return share if player == 0 else 1.0 - share

    def illegal_action_error(self, joint_action) -> ValueError:
        """The ValueError every simultaneous game raises for a bad joint action."""
        if self.is_terminal():
            return ValueError(f"joint action {shown(joint_action)} is illegal: the game is over.")
        legal = "; ".join(
            f"player {player} may play " + ", ".join(repr(a) for a in self.legal_actions(player))
            for player in PLAYERS
        )
        return ValueError(
            f"joint action {shown(joint_action)} is illegal here: give a pair (action of player 0, "
            f"action of player 1); {legal}."
        )


class MultiAgentState(ABC):
    """A state of a game in which any number of agents (two or more) move at once.

    Unlike :class:`SimultaneousState` the game need not be zero-sum: each
    agent has its own reward in ``[0, 1]`` at the end. Smitsimax and the
    joint-action SM-MCTS tree (:class:`mctslib.search.smmcts.JointDUCT`) use
    only these members. An agent's legal actions may depend on the state,
    never on what the others are choosing at the same moment. Chapter "When
    both players move at once" (the section on more than two agents).
    """

    __slots__ = ()

    @property
    @abstractmethod
    def agents(self) -> int:
        """How many agents move at every step."""

    @abstractmethod
    def legal_actions(self, agent: int) -> Sequence[Hashable]:
        """Actions ``agent`` may choose here, in a fixed order (empty once the game is over)."""

    @abstractmethod
    def play(self, joint_action: tuple) -> MultiAgentState:
        """The state after every agent's action (one per agent, in agent order)."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over."""

    @abstractmethod
    def reward(self, agent: int) -> float:
        """``agent``'s result of the finished game in ``[0, 1]`` (1 is the best)."""
