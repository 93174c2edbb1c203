"""Goofspiel: a bidding card game in which both players move at once.

Rules (the version used in the simultaneous-moves chapter):

- each player holds the cards ``1 .. cards``; a row of *prize* cards with the
  same values is turned up one at a time, **highest first** (``cards``,
  ``cards - 1``, ..., 1);
- in each round both players bid one card from their hand at the same time;
  the higher bid wins the prize card's value in points; equal bids win
  nothing (the prize is discarded); both bid cards are gone for good;
- after ``cards`` rounds the game is over. Both players saw every earlier
  bid: only the current bids are hidden.

``prize_order="random"`` is the standard variant (OpenSpiel's
``points_order="random"``): each round's prize is drawn uniformly at random
from the prizes still left, and shown to both players before they bid. The
draw is a **chance node**: a state where :meth:`Goofspiel.is_chance` is true,
no player acts (``legal_actions`` is empty), :meth:`Goofspiel.chance_outcomes`
lists every prize with its probability (for the exact solver) and
:meth:`Goofspiel.apply_chance` reveals one (a search samples it with its own
Generator). The game starts with such a draw, and one follows every round's
bids except the last.

Why a fixed prize order by default: it makes the game deterministic (no chance nodes),
so its tree is small enough to solve exactly with one linear programme per
state and to print. With 3 cards there are 9 joint actions at the start,
4 in the second round and 1 in the last; with 4 cards the tree has 1,313
states. The same rules are OpenSpiel's ``goofspiel`` with
``points_order="descending"`` and ``imp_info=False`` (the tests check it;
OpenSpiel's ``point_difference`` return is half of ours).

A state records the bids so far. Two different bid histories therefore
never share a state, which keeps the state space a tree: a search node,
a state and a history are the same thing.

Payoffs for player 0 (player 1 gets minus that; zero-sum):

- ``scoring="points"`` (default, the usual Goofspiel utility): player 0's
  points minus player 1's, between ``-T`` and ``T`` with ``T = 1 + ... + cards``;
  :meth:`~SimultaneousState.reward` maps it to ``(difference + T) / (2 T)``;
- ``scoring="win_loss"``: 1, 0 or -1 for a win, a tie or a loss in points;
  the reward is then the book's 1 / 0.5 / 0.

Chapter "When both players move at once (simultaneous moves)".
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

from .._checks import shown
from .simultaneous_base import SimultaneousState, check_player

#: The scorings a Goofspiel game may use (see the module docstring).
SCORINGS = ("points", "win_loss")

#: The prize orders: highest first (no chance at all) or drawn at random each round.
PRIZE_ORDERS = ("descending", "random")

#: The largest number of cards accepted (OpenSpiel's default deck has 13).
MAX_CARDS = 13


@dataclass(frozen=True, slots=True)
class Goofspiel(SimultaneousState):
    """A Goofspiel state. ``Goofspiel(cards=3)`` is the start of the 3-card game.

    Parameters
    ----------
    cards : int
        Cards per suit, 1 to 13: each hand and the prize row hold ``1 .. cards``.
    scoring : {"points", "win_loss"}
        How a finished game pays player 0 (see the module docstring).
    bids : tuple of (int, int)
        The bids so far, one ``(bid of player 0, bid of player 1)`` pair per
        round; leave it empty for a new game and let :meth:`play` extend it.
    prize_order : {"descending", "random"}
        Prizes highest first (default), or each drawn at random from those left
        (chance nodes; see the module docstring).
    prizes : tuple of int
        ``prize_order="random"`` only: the prizes drawn so far, one per round
        started (leave it empty for a new game; :meth:`apply_chance` extends it).
    """

    cards: int = 3
    scoring: str = "points"
    bids: tuple[tuple[int, int], ...] = ()
    prize_order: str = "descending"
    prizes: tuple[int, ...] = ()

    def __post_init__(self):
        cards = _whole_number(self.cards)
        if cards is None or not 1 <= cards <= MAX_CARDS:
            raise ValueError(
                f"cards must be a whole number from 1 to {MAX_CARDS}, got {shown(self.cards)}."
            )
        object.__setattr__(self, "cards", cards)  # a numpy integer becomes a plain int
        if not isinstance(self.scoring, str) or self.scoring not in SCORINGS:
            raise ValueError(f"scoring must be one of {', '.join(SCORINGS)}, got {shown(self.scoring)}.")
        if not self._bids_are_valid():
            raise ValueError(
                f"bids must be pairs of cards 1..{self.cards}, at most one pair per round and no "
                f"card bid twice by the same player, got {shown(self.bids)}."
            )
        if not isinstance(self.prize_order, str) or self.prize_order not in PRIZE_ORDERS:
            raise ValueError(f"prize_order must be one of {', '.join(PRIZE_ORDERS)}, got "
                             f"{shown(self.prize_order)}.")
        if not self._prizes_are_valid():
            raise ValueError(
                f"prizes must be distinct cards 1..{self.cards}, one per round started (as many "
                f"as the rounds of bids, or one more), and only with prize_order='random'; got "
                f"{shown(self.prizes)} after {shown(self.bids)}."
            )

    def _prizes_are_valid(self) -> bool:
        if not isinstance(self.prizes, tuple):
            return False
        if self.prize_order == "descending":
            return self.prizes == ()
        if any(type(card) is not int or not 1 <= card <= self.cards for card in self.prizes):
            return False
        if len(set(self.prizes)) != len(self.prizes):
            return False
        return len(self.prizes) in (len(self.bids), len(self.bids) + 1) and \
            len(self.prizes) <= self.cards

    def _bids_are_valid(self) -> bool:
        if not isinstance(self.bids, tuple) or len(self.bids) > self.cards:
            return False
        for player in (0, 1):
            try:
                own = [pair[player] for pair in self.bids]
            except (TypeError, IndexError):
                return False
            if any(type(card) is not int or not 1 <= card <= self.cards for card in own):
                return False
            if len(set(own)) != len(own):
                return False
        return all(len(pair) == 2 for pair in self.bids)

    # ----------------------------------------------------------------- rules

    @property
    def round(self) -> int:
        """How many rounds have been played (0 at the start, ``cards`` at the end)."""
        return len(self.bids)

    def prize(self, round_index: int | None = None) -> int:
        """The value of the prize card of a round (the current round by default).

        With ``prize_order="descending"`` round 0 is worth ``cards`` points
        and the last round 1 point; with ``"random"`` a round's prize is the
        one drawn for it (ValueError before the draw).
        """
        if round_index is None:
            if self.is_terminal():
                raise ValueError("the game is over, so no prize is up; give round_index from 0 "
                                 f"to {self.cards - 1} for an earlier round's prize.")
            index = self.round
        else:
            index = _whole_number(round_index)
            if index is None or not 0 <= index < self.cards:
                raise ValueError(
                    f"round_index must be from 0 to {self.cards - 1} (a whole number), "
                    f"got {shown(round_index)}."
                )
        if self.prize_order == "descending":
            return self.cards - index
        if index >= len(self.prizes):
            raise ValueError(f"the prize of round {index} has not been drawn yet (a chance node "
                             f"comes first: see chance_outcomes and apply_chance).")
        return self.prizes[index]

    def hand(self, player: int) -> tuple[int, ...]:
        """The cards ``player`` still holds, lowest first."""
        player = check_player(player)
        used = {pair[player] for pair in self.bids}
        return tuple(card for card in range(1, self.cards + 1) if card not in used)

    def legal_actions(self, player: int) -> tuple[int, ...]:
        """A player bids any card still in their hand (nothing once over or at a chance node)."""
        if self.is_terminal() or self.is_chance():
            check_player(player)
            return ()
        return self.hand(player)

    # ----------------------------------------------------------------- chance

    def is_chance(self) -> bool:
        """True when the next prize is to be drawn (``prize_order="random"`` only)."""
        return (self.prize_order == "random" and len(self.prizes) == len(self.bids)
                and len(self.bids) < self.cards)

    def chance_outcomes(self) -> tuple[tuple[int, float], ...]:
        """Every prize that may be drawn here with its probability, lowest prize first.

        The prizes left are equally likely; the probabilities are ``1 / k``
        for ``k`` prizes left (they add up to 1 within rounding).
        """
        if not self.is_chance():
            raise ValueError("chance_outcomes() needs a chance node (is_chance() true): a state "
                             "of prize_order='random' before a prize is drawn.")
        left = [card for card in range(1, self.cards + 1) if card not in self.prizes]
        return tuple((card, 1.0 / len(left)) for card in left)

    def apply_chance(self, prize) -> Goofspiel:
        """The state after ``prize`` was drawn at this chance node."""
        if not self.is_chance():
            raise ValueError("apply_chance() needs a chance node (is_chance() true): a state of "
                             "prize_order='random' before a prize is drawn.")
        card = _whole_number(prize)
        if card is None or not 1 <= card <= self.cards or card in self.prizes:
            left = [c for c in range(1, self.cards + 1) if c not in self.prizes]
            raise ValueError(f"prize must be one of the prizes left, {left}, got {shown(prize)}.")
        return self._copy(self.bids, (*self.prizes, card))

    def _copy(self, bids, prizes) -> Goofspiel:
        # The searches' innermost step: the new part was checked by the caller, so the full
        # re-check of every bid in __post_init__ is skipped.
        state = object.__new__(Goofspiel)
        object.__setattr__(state, "cards", self.cards)
        object.__setattr__(state, "scoring", self.scoring)
        object.__setattr__(state, "bids", bids)
        object.__setattr__(state, "prize_order", self.prize_order)
        object.__setattr__(state, "prizes", prizes)
        return state

    def play(self, joint_action) -> Goofspiel:
        """Both players bid: ``play((bid of player 0, bid of player 1))``."""
        bids = self._checked_bids(joint_action)
        if bids is None:
            if self.is_chance():
                raise ValueError(f"joint action {shown(joint_action)} is illegal here: a prize is "
                                 f"to be drawn first (a chance node: use apply_chance).")
            raise self.illegal_action_error(joint_action)
        return self._copy((*self.bids, bids), self.prizes)

    def _checked_bids(self, joint_action) -> tuple[int, int] | None:
        """The joint action as a pair of ints if both bids are legal, else None."""
        if (self.is_terminal() or self.is_chance() or not isinstance(joint_action, tuple)
                or len(joint_action) != 2):
            return None
        pair = []
        for player, bid in enumerate(joint_action):
            card = _whole_number(bid)
            if card is None or not 1 <= card <= self.cards:
                return None
            if any(earlier[player] == card for earlier in self.bids):  # already spent
                return None
            pair.append(card)
        return pair[0], pair[1]

    def is_terminal(self) -> bool:
        return self.round == self.cards

    def points(self) -> tuple[int, int]:
        """Points won so far by player 0 and player 1."""
        totals = [0, 0]
        descending = self.prize_order == "descending"
        for round_index, (bid0, bid1) in enumerate(self.bids):
            if bid0 != bid1:  # equal bids: the prize is discarded
                prize = self.cards - round_index if descending else self.prizes[round_index]
                totals[0 if bid0 > bid1 else 1] += prize
        return totals[0], totals[1]

    # --------------------------------------------------------------- payoffs

    def total_points(self) -> int:
        """All prizes together: ``1 + 2 + ... + cards``."""
        return self.cards * (self.cards + 1) // 2

    def payoff(self) -> float:
        """Player 0's payoff: point difference, or 1 / 0 / -1 under ``scoring="win_loss"``."""
        if not self.is_terminal():
            raise ValueError("payoff() is defined only for a finished game; this one is still on.")
        mine, theirs = self.points()
        difference = mine - theirs
        if self.scoring == "points":
            return float(difference)
        return float((difference > 0) - (difference < 0))

    @property
    def payoff_range(self) -> tuple[float, float]:
        if self.scoring == "points":
            return -float(self.total_points()), float(self.total_points())
        return -1.0, 1.0

    def __str__(self) -> str:
        bids0 = " ".join(str(pair[0]) for pair in self.bids) or "-"
        bids1 = " ".join(str(pair[1]) for pair in self.bids) or "-"
        mine, theirs = self.points()
        if self.is_terminal():
            upcoming = "game over"
        elif self.is_chance():
            upcoming = "prize to be drawn"
        else:
            upcoming = f"prize {self.prize()} up"
        if self.prize_order == "descending":
            return (f"Goofspiel({self.cards} cards) round {self.round}: bids P0 {bids0} | "
                    f"P1 {bids1} | points {mine}-{theirs} | {upcoming}")
        drawn = " ".join(str(card) for card in self.prizes) or "-"
        return (f"Goofspiel({self.cards} cards, random prizes) round {self.round}: prizes {drawn} | "
                f"bids P0 {bids0} | P1 {bids1} | points {mine}-{theirs} | {upcoming}")


def _whole_number(value) -> int | None:
    """``value`` as an int if it is an int or a numpy integer (not a bool or a float), else None."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None
