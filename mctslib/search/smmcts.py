"""Simultaneous-move MCTS (SM-MCTS): one tree of states, one bandit per player per node.

In a game where both players move at once, a node cannot let one player
choose and the other reply (that would let the second player see the first
one's move). SM-MCTS (Lisý, Kovařík, Lanctot and Bošanský 2013; Tak, Lanctot
and Winands 2014) keeps one tree of states, and at every node **each player
has its own selection rule over its own actions**, scored only by that
player's own results. Each iteration:

1. **selection**: at each node both rules pick an action independently; the
   pair (joint action) decides the child; descend while the child exists;
2. **expansion**: the first child not yet in the tree is added;
3. **simulation**: from it, both players play uniformly random actions to
   the end of the game;
4. **backpropagation**: every node on the path adds the result to its total;
   each parent's two rules learn from the child's *mean* result (player 0's
   reward in ``[0, 1]``, player 1's is one minus it). Learning from the
   child's mean rather than the single sample is the averaged variant
   (SM-MCTS-A) that Lisý et al. analyse; ``backup="sample"`` gives the plain
   one.

Two selection rules, the one-node learners of :mod:`mctslib.learners.simultaneous`
(so the chapter's single-node experiment and every node of this tree run
the very same code):

- ``"duct"``, decoupled UCB1 (DUCT; :class:`~mctslib.learners.simultaneous.UCB1Player`):
  each player runs UCB1 on its own actions (untried actions first; exact
  ties broken at random). It has no convergence guarantee in
  simultaneous-move games;
- ``"rm"``, regret matching with exploration
  (:class:`~mctslib.learners.simultaneous.RegretMatchingPlayer`): each player plays
  its regret-matching mix blended with ``exploration`` (default 0.1) of
  uniform play, and estimates the rewards of actions it did not play by
  importance weighting (the played action's reward divided by its
  probability). Lisý et al. (2013) prove that SM-MCTS with such a rule
  converges to an approximate equilibrium of the whole game.

A node's final strategy, for both rules, is its *average strategy*: how
often each player chose each action there (visit counts divided by their
sum, exploration included), which is what a search node can report.

The tree is turned into a behaviour profile (a mix per player per state;
uniform where the tree has no data) whose exact distance from equilibrium
:func:`mctslib.search.backward_induction.profile_exploitability` measures.
:func:`mctslib.experiments.smmcts.convergence_experiment` runs the chapter's
experiment (distance after 1k, 10k, ... iterations on several seeds). Chapter
"When both players move at once (simultaneous moves)".
"""


from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .._checks import check_real
from ..games.simultaneous_base import SimultaneousState
from ..learners.simultaneous import RegretMatchingPlayer, UCB1Player, check_exploration
from ..learners.ucb1 import SQRT2
from ..rng import make_rng
from .backward_induction import TableProfile
from .simultaneous_search import SimultaneousSearch

__all__ = [
    "SELECTIONS",
    "SMMCTS",
    "SMNode",
    "random_joint_playout",
]

#: The selection rules SM-MCTS accepts by name.
SELECTIONS = ("duct", "rm")

#: The backups: pass up the child's mean (Lisý et al.'s SM-MCTS-A) or the sample.
BACKUPS = ("mean", "sample")


# --------------------------------------------------------------------------- selection rules


def _make_rule(selection: str, count: int, c: float, exploration: float):
    """A fresh selection rule for one player at one node: the one-node learners of the chapter."""
    if selection == "duct":
        return UCB1Player(count, c)
    if selection == "rm":
        return RegretMatchingPlayer(count, exploration)
    raise ValueError(f"selection must be one of {', '.join(SELECTIONS)}, got {selection!r}.")


# --------------------------------------------------------------------------- the tree


class SMNode:
    """One state in the SM-MCTS tree: two selection rules, children by joint action index.

    ``total`` adds up player 0's rewards of every iteration through the
    node; ``mean`` is therefore player 0's average result here (player 1's
    is one minus it).
    """

    __slots__ = ("actions", "children", "rules", "state", "total", "visits")

    def __init__(self, state: SimultaneousState, selection: str, c: float, exploration: float):
        self.state = state
        self.visits = 0
        self.total = 0.0
        self.children: dict[tuple[int, int], SMNode] = {}
        # A node is made at every expansion, so no check in front: the handler (free until
        # it fires) names a state of the wrong kind.
        try:
            over = state.is_terminal()
            self.actions = ((), ()) if over else (tuple(state.legal_actions(0)),
                                                  tuple(state.legal_actions(1)))
        except AttributeError:
            raise ValueError(f"state must be a simultaneous-move game state such as Goofspiel(), "
                             f"got {type(state).__name__}.") from None
        self.rules = () if over else tuple(_make_rule(selection, len(a), c, exploration)
                                           for a in self.actions)

    @property
    def mean(self) -> float:
        """Player 0's average reward through this node (NaN before the first visit)."""
        return self.total / self.visits if self.visits else math.nan


def random_joint_playout(state: SimultaneousState, rng: np.random.Generator) -> SimultaneousState:
    """Both players pick uniformly random legal actions until the game is over.

    ``rng`` is a numpy Generator, or anything :func:`mctslib.rng.make_rng`
    turns into one (a seed); a finished game is returned unchanged.
    """
    if not isinstance(state, SimultaneousState):
        raise ValueError(f"state must be a simultaneous-move game state such as Goofspiel(), "
                         f"got {type(state).__name__}.")
    return _joint_playout(state, make_rng(rng))


def _joint_playout(state: SimultaneousState, rng: np.random.Generator) -> SimultaneousState:
    """:func:`random_joint_playout` without the checks: the search's simulation phase."""
    while not state.is_terminal():
        joint = tuple(_random_choice(state.legal_actions(player), rng) for player in (0, 1))
        state = state.play(joint)
    return state


def _random_choice(actions: Sequence, rng: np.random.Generator):
    return actions[int(rng.integers(len(actions)))]


class SMMCTS(SimultaneousSearch):
    """Simultaneous-move MCTS on one tree, grown a batch of iterations at a time.

    Parameters
    ----------
    root : SimultaneousState
        The state to search from (game still on).
    selection : {"duct", "rm"}
        Decoupled UCB1, or regret matching with exploration (module docstring).
    c : float
        UCB1's exploration constant (``>= 0``; ``"duct"`` only).
    exploration : float
        Share of uniform play mixed into regret matching, in ``[0, 1]``
        (``"rm"`` only; 0.1 as in Lisý et al.).
    backup : {"mean", "sample"}
        What a parent's rules learn from: the child's mean result (default) or
        the iteration's own result.
    seed : int, numpy Generator or None
        Every random choice (selection ties, regret-matching draws, playouts)
        comes from ``make_rng(seed)``: the same seed grows the same tree.

    Examples
    --------
    >>> search = SMMCTS(Goofspiel(3), "rm", seed=1).run(1000)
    >>> search.exploitability() >= 0
    True
    """

    def __init__(self, root: SimultaneousState, selection: str = "duct", c: float = SQRT2,
                 exploration: float = 0.1, backup: str = "mean", seed=None):
        super().__init__(root, seed)
        if selection not in SELECTIONS:
            raise ValueError(
                f"selection must be one of {', '.join(SELECTIONS)}, got {selection!r}."
            )
        if backup not in BACKUPS:
            raise ValueError(f"backup must be one of {', '.join(BACKUPS)}, got {backup!r}.")
        self.selection = selection
        self.c = check_real("c (UCB1's exploration constant)", c, 0.0)
        # Regret matching divides by the probability of the action played, so it
        # needs exploration > 0; DUCT ignores the number.
        self.exploration = (check_exploration(exploration) if selection == "rm"
                            else check_real("exploration", exploration, 0.0, 1.0))
        self.backup = backup
        self.root = SMNode(root, selection, self.c, self.exploration)

    def iterate(self) -> None:
        """One iteration: selection, expansion, simulation, backpropagation."""
        path, leaf, reward = self._descend()
        leaf.visits += 1
        leaf.total += reward
        child = leaf
        for parent, i, j in reversed(path):
            backed = child.mean if self.backup == "mean" else reward
            parent.rules[0].update(i, backed)
            parent.rules[1].update(j, 1.0 - backed)
            parent.visits += 1
            parent.total += reward
            child = parent

    def _descend(self):
        """Select down the tree, add one node and play out from it.

        Returns the path of (node, action index of 0, action index of 1), the
        last node reached, and player 0's reward of the iteration.
        """
        node, path = self.root, []
        while not node.state.is_terminal():
            # Each rule draws its own uniform number: player 0's first, then player 1's.
            i = node.rules[0].choose(float(self.rng.random()))
            j = node.rules[1].choose(float(self.rng.random()))
            path.append((node, i, j))
            child = node.children.get((i, j))
            if child is None:
                state = node.state.play((node.actions[0][i], node.actions[1][j]))
                child = node.children[(i, j)] = SMNode(state, self.selection, self.c,
                                                       self.exploration)
                return path, child, _joint_playout(state, self.rng).reward(0)
            node = child
        return path, node, node.state.reward(0)

    # ------------------------------------------------------------- what it learned

    @property
    def root_state(self) -> SimultaneousState:
        """The state the search started from."""
        return self.root.state

    def nodes(self):
        """Every node of the tree, the root first (depth first)."""
        stack = [self.root]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(node.children.values())

    def profile(self) -> TableProfile:
        """The behaviour profile the tree stands for: each node's final mixes, uniform elsewhere.

        A node's final mix is the visit-count mix (DUCT) or the average mix
        played (regret matching); a node never selected from is uniform.
        """
        return TableProfile({
            node.state: (node.rules[0].average_strategy(), node.rules[1].average_strategy())
            for node in self.nodes() if node.rules
        })

    def root_strategies(self) -> tuple[np.ndarray, np.ndarray]:
        """The two players' final mixes at the root (over ``legal_actions`` in order)."""
        return (np.asarray(self.root.rules[0].average_strategy()),
                np.asarray(self.root.rules[1].average_strategy()))

