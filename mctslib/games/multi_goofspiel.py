"""Goofspiel for three or more agents: the simultaneous-moves chapter's multi-agent game.

Every agent holds the cards ``1 .. cards``; prize cards ``cards, cards - 1,
..., 1`` are turned up one at a time (highest first, as in
:class:`~mctslib.games.goofspiel.Goofspiel`). Each round all agents bid one
of their cards at once; the single highest bid wins the prize's value in
points; if two or more agents share the highest bid the prize is discarded.
Every bid is seen by all after the round. After ``cards`` rounds each agent's
reward is its share of all prize points, ``points / (1 + ... + cards)``, in
``[0, 1]`` (the game is not zero-sum: discarded prizes go to nobody).

Why this game for "more than two agents": an agent's legal bids are its own
unspent cards, which depend only on its own earlier bids, never on the
others' (Smitsimax's requirement), and the joint actions grow as
``cards ** agents``: with 3 agents and 4 cards the first round already has
64 joint actions, so a joint-action tree (one child per joint action) grows
wide fast while each of Smitsimax's per-agent trees has at most
``1 + 4 + 12 + 24 = 41`` nodes. Chapter "When both players move at once".
"""

from __future__ import annotations

from dataclasses import dataclass

from .._checks import check_int, shown
from .simultaneous_base import MultiAgentState

__all__ = ["MultiGoofspiel"]

#: Most agents and cards accepted (the joint actions grow as cards ** agents).
MAX_AGENTS = 6
MAX_CARDS = 8


@dataclass(frozen=True, slots=True)
class MultiGoofspiel(MultiAgentState):
    """A state of multi-agent Goofspiel. ``MultiGoofspiel(3, 4)``: 3 agents, 4 cards each.

    Parameters
    ----------
    players : int
        Number of agents, 2 to :data:`MAX_AGENTS`.
    cards : int
        Cards per hand (and prizes), 1 to :data:`MAX_CARDS`.
    bids : tuple of tuples
        One tuple of bids (one per agent) per round played; empty for a new game.
    """

    players: int = 3
    cards: int = 4
    bids: tuple = ()

    def __post_init__(self):
        check_int("players", self.players, 2, MAX_AGENTS)
        check_int("cards", self.cards, 1, MAX_CARDS)
        if not isinstance(self.bids, tuple) or len(self.bids) > self.cards or any(
                not isinstance(row, tuple) or len(row) != self.players for row in self.bids):
            raise ValueError(f"bids must be a tuple of at most {self.cards} rounds, each a tuple of "
                             f"{self.players} bids, got {shown(self.bids)}.")
        for agent in range(self.players):
            own = [row[agent] for row in self.bids]
            if any(type(b) is not int or not 1 <= b <= self.cards for b in own) or \
                    len(set(own)) != len(own):
                raise ValueError(f"agent {agent}'s bids must be distinct cards 1..{self.cards}, "
                                 f"got {shown(tuple(own))}.")

    @property
    def agents(self) -> int:
        return self.players

    @property
    def round(self) -> int:
        """Rounds played so far."""
        return len(self.bids)

    def prize(self) -> int:
        """The value of the prize card up now (``cards`` in round 0, 1 in the last)."""
        if self.is_terminal():
            raise ValueError("the game is over, so no prize is up.")
        return self.cards - self.round

    def legal_actions(self, agent: int) -> tuple[int, ...]:
        """The agent's unspent cards, lowest first (nothing once the game is over)."""
        agent = check_int("agent", agent, 0, self.players - 1)
        if self.is_terminal():
            return ()
        used = {row[agent] for row in self.bids}
        return tuple(card for card in range(1, self.cards + 1) if card not in used)

    def play(self, joint_action) -> MultiGoofspiel:
        """Every agent bids: ``play((bid of 0, bid of 1, ...))``."""
        if (self.is_terminal() or not isinstance(joint_action, tuple)
                or len(joint_action) != self.players
                or any(bid not in self.legal_actions(agent)
                       for agent, bid in enumerate(joint_action))):
            raise ValueError(f"joint action {shown(joint_action)} is illegal here: give one unspent "
                             f"card per agent ({self.players} agents), while the game is on.")
        state = object.__new__(MultiGoofspiel)  # checked above; skip the full re-check
        object.__setattr__(state, "players", self.players)
        object.__setattr__(state, "cards", self.cards)
        object.__setattr__(state, "bids", (*self.bids, tuple(int(b) for b in joint_action)))
        return state

    def is_terminal(self) -> bool:
        return len(self.bids) == self.cards

    def points(self) -> tuple[int, ...]:
        """Points won so far by each agent."""
        totals = [0] * self.players
        for round_index, row in enumerate(self.bids):
            top = max(row)
            if row.count(top) == 1:  # a shared highest bid discards the prize
                totals[row.index(top)] += self.cards - round_index
        return tuple(totals)

    def reward(self, agent: int) -> float:
        """The agent's share of all prize points, in ``[0, 1]``."""
        agent = check_int("agent", agent, 0, self.players - 1)
        if not self.is_terminal():
            raise ValueError("reward() is defined only for a finished game; this one is still on.")
        return self.points()[agent] / (self.cards * (self.cards + 1) // 2)
