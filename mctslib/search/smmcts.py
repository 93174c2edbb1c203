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
   each parent's two rules learn from either the child's *mean* result
   (``backup="mean"``, this class's default) or the iteration's own
   *sample* result (``backup="sample"``); player 0's reward is in ``[0, 1]``,
   player 1's is one minus it.

Which backup is which. The standard SM-MCTS of Tak, Lanctot and Winands
(2014), and so **standard DUCT**, updates every node's bandits with the
sampled return of the iteration: ``backup="sample"``. ``backup="mean"`` is
the averaged variant SM-MCTS-A of Lisý, Kovařík, Lanctot and Bošanský (2013):
the two rules at a node learn, for the pair of actions they chose, the mean
of every result that has come back through that pair (the child's
``total / visits``, this iteration's result included), while every node
still adds the *sample* to its own total and hands the sample up to its
parent. The first author's implementation does the same
(``SMADecoupledSelector`` in the Game Theoretic Library, github.com/aicenter/
gtlibrary-java: per-pair statistics updated with the new value, then the
rules updated with their mean; the sampled value is returned upwards). Their
convergence theorem for (epsilon-)Hannan-consistent rules that keep
exploring (regret matching, Exp3) is for this variant, and it speaks of the
nodes' empirical action frequencies, exploration included (the "mix"
profile below). For the sample backup, Kovařík and Lisý's later analysis
shows that Hannan consistency alone does not guarantee convergence, though
the common rules have the extra properties needed in their experiments. DUCT
has no such theorem under either backup. The default stays ``"mean"``
because the chapter's stored runs (``data/simultaneous/smmcts.json``) were
made with it; the tuned comparison
(:mod:`mctslib.experiments.simultaneous.tuning`) uses ``"sample"`` for DUCT.

Three selection rules, the one-node learners of :mod:`mctslib.learners.simultaneous`
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
  probability). Lisý et al. (2013) prove that SM-MCTS with such a rule and
  the mean backup converges to an approximate equilibrium of the whole game;
- ``"exp3"``, Exp3 with exploration
  (:class:`~mctslib.learners.simultaneous.Exp3Player`): a softmax of
  importance-weighted reward estimates blended with ``exploration`` of
  uniform play (Auer et al. 2002; in SM-MCTS, Tak et al. 2014).

A node's final strategy, for every rule, is its *average strategy*: how
often each player chose each action there (visit counts divided by their
sum, exploration included), which is what a search node can report. To play
a move from it there are two final-move rules (Tak et al. 2014):
``final="mix"`` samples the average strategy, ``final="max"`` plays the most
chosen action (:meth:`SMMCTS.root_move`; :meth:`SMMCTS.profile` scores either).
For regret matching and Exp3, :meth:`SMMCTS.profile` can also take the
exploration share out of the counts first (``exploration_removed=True``),
as Lanctot, Lisý and Winands (2013) and Bošanský et al. (2016) do before
reporting a strategy.

**Chance nodes** (Goofspiel with ``prize_order="random"``). A state where
chance acts (``is_chance()``) is a node of its own with no rules: each time
the selection reaches it, the search samples one outcome from
``chance_outcomes()`` with its own Generator (one uniform number, slices in
outcome order) and descends to that outcome's child, so a joint action keeps
one grandchild per outcome seen. The node's mean is then the sampled average
over outcomes, which is what the mean backup passes up to the bidding node
above. Random playouts sample chance the same way. Games without chance
draw no extra numbers, so their trees are unchanged.

The tree is turned into a behaviour profile (a mix per player per state;
uniform where the tree has no data) whose exact distance from equilibrium
:func:`mctslib.search.backward_induction.profile_exploitability` measures.
:func:`mctslib.experiments.simultaneous.smmcts.convergence_experiment` runs the chapter's
experiment (distance after 1k, 10k, ... iterations on several seeds). Chapter
"When both players move at once (simultaneous moves)".

Why one module of about 620 lines: SM-MCTS and the two trees it is compared with (one
joint tree, :class:`JointDUCT`; a turn-taking tree, :class:`SequentialUCT`) share the
selection rules, the playouts and the final-mix rules, and answer to the same interface
(:class:`~mctslib.search.simultaneous_search.SimultaneousSearch`), so that the chapter swaps one
for another in the same experiment.
"""


from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .._checks import check_bool, check_int, check_real
from ..games.simultaneous_base import SimultaneousState, check_player
from ..learners.simultaneous import (
    Exp3Player,
    RegretMatchingPlayer,
    UCB1Player,
    _sample_move,  # unchecked sampling: the same slices
    check_exploration,
    check_uniform,
    empirical_strategy,
    without_exploration,
)
from ..learners.ucb1 import SQRT2
from ..rng import make_rng
from .backward_induction import TableProfile, is_chance
from .simultaneous_search import SimultaneousSearch

__all__ = [
    "BACKUPS",
    "FINALS",
    "SELECTIONS",
    "SMMCTS",
    "JointDUCT",
    "SMNode",
    "SequentialUCT",
    "random_joint_playout",
]

#: The selection rules SM-MCTS accepts by name.
SELECTIONS = ("duct", "rm", "exp3")

#: The backups: pass up the child's mean (Lisý et al.'s SM-MCTS-A) or the sample (standard).
BACKUPS = ("mean", "sample")

#: The final-move rules: sample the average strategy, or play the most chosen action.
FINALS = ("mix", "max")


def check_final(final) -> str:
    """Return ``final`` if it is a final-move rule ("mix" or "max"), else raise ValueError."""
    if not isinstance(final, str) or final not in FINALS:
        raise ValueError(f"final must be one of {', '.join(FINALS)} (sample the average strategy, "
                         f"or play the most chosen action), got {final!r}.")
    return final


def final_mix(counts, final: str) -> list[float]:
    """The mix a node's visit ``counts`` stand for under a final-move rule.

    ``"mix"``: counts over their total (uniform before any visit); ``"max"``:
    the most chosen actions, sharing the probability equally on exact ties.
    Integer counts only, so the mix is exact and order-free.
    """
    if final == "mix":
        return empirical_strategy(counts)
    top = max(counts)
    best = [move for move, count in enumerate(counts) if count == top]
    return [1.0 / len(best) if move in best else 0.0 for move in range(len(counts))]


def _mix_without_exploration(counts, exploration: float) -> list[float]:
    """A node's counts with the exploration share taken out (uniform before any visit)."""
    if not any(counts):
        return empirical_strategy(counts)
    return without_exploration(counts, exploration)


def pick_final(counts, final: str, uniform: float = 0.0) -> int:
    """The action index a final-move rule plays from visit ``counts`` (see :meth:`SMMCTS.root_move`)."""
    if final == "max":
        return max(range(len(counts)), key=lambda move: (counts[move], -move))
    return _sample_move(empirical_strategy(counts), check_uniform(uniform))


# --------------------------------------------------------------------------- selection rules


def _make_rule(selection: str, count: int, c: float, exploration: float):
    """A fresh selection rule for one player at one node: the one-node learners of the chapter."""
    if selection == "duct":
        return UCB1Player(count, c)
    if selection == "rm":
        return RegretMatchingPlayer(count, exploration)
    if selection == "exp3":
        return Exp3Player(count, exploration)
    raise ValueError(f"selection must be one of {', '.join(SELECTIONS)}, got {selection!r}.")


# --------------------------------------------------------------------------- the tree


class SMNode:
    """One state in the SM-MCTS tree: two selection rules, children by joint action index.

    At a chance node (``chance`` true) there are no rules and the children
    are keyed by the chance outcome instead. ``total`` adds up player 0's rewards of every iteration through the
    node; ``mean`` is therefore player 0's average result here (player 1's
    is one minus it).
    """

    __slots__ = ("actions", "chance", "children", "rules", "state", "total", "visits")

    def __init__(self, state: SimultaneousState, selection: str, c: float, exploration: float):
        self.state = state
        self.visits = 0
        self.total = 0.0
        self.children: dict[tuple[int, int], SMNode] = {}
        # A node is made at every expansion, so no check in front: the handler (free until
        # it fires) names a state of the wrong kind.
        try:
            self.chance = is_chance(state)
            over = state.is_terminal() or self.chance  # no one bids at either
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
        if is_chance(state):
            state = state.apply_chance(sample_outcome(state, rng))
            continue
        joint = tuple(_random_choice(state.legal_actions(player), rng) for player in (0, 1))
        state = state.play(joint)
    return state


def sample_outcome(state, rng: np.random.Generator):
    """One outcome of the chance node ``state``, drawn with one uniform number from ``rng``.

    The number falls into the outcomes' probability slices in the order of
    ``chance_outcomes()``; the last outcome takes any rounding left over.
    """
    outcomes = state.chance_outcomes()
    uniform, cumulative = float(rng.random()), 0.0
    for outcome, probability in outcomes:
        cumulative += probability
        if uniform < cumulative:
            return outcome
    return outcomes[-1][0]


def _random_choice(actions: Sequence, rng: np.random.Generator):
    return actions[int(rng.integers(len(actions)))]


class SMMCTS(SimultaneousSearch):
    """Simultaneous-move MCTS on one tree, grown a batch of iterations at a time.

    Parameters
    ----------
    root : SimultaneousState
        The state to search from (game still on).
    selection : {"duct", "rm", "exp3"}
        Decoupled UCB1, regret matching with exploration, or Exp3 (module docstring).
    c : float
        UCB1's exploration constant (``>= 0``; ``"duct"`` only).
    exploration : float
        Share of uniform play mixed into regret matching or Exp3, in ``(0, 1]``
        (``"rm"`` and ``"exp3"`` only; 0.1 as in Lisý et al.).
    backup : {"mean", "sample"}
        What a parent's rules learn from: the child's mean result (default;
        Lisý et al.'s SM-MCTS-A) or the iteration's own result (``"sample"``:
        standard SM-MCTS and standard DUCT, Tak et al. 2014).
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
        self.exploration = (check_exploration(exploration) if selection in ("rm", "exp3")
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
            if i is not None:  # a chance node (i None) has no rules to update
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
            if node.chance:  # chance picks the outcome; its child is added if new
                outcome = sample_outcome(node.state, self.rng)
                path.append((node, None, None))
                child = node.children.get(outcome)
                if child is None:
                    state = node.state.apply_chance(outcome)
                    child = node.children[outcome] = SMNode(state, self.selection, self.c,
                                                            self.exploration)
                    return path, child, _joint_playout(state, self.rng).reward(0)
                node = child
                continue
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

    def profile(self, final: str = "mix", *, exploration_removed: bool = False) -> TableProfile:
        """The behaviour profile the tree stands for: each node's final mixes, uniform elsewhere.

        ``final="mix"`` (default): a node's mix is how often each action was
        chosen there (the average strategy); ``final="max"``: the most chosen
        action (ties shared equally). A node never selected from is uniform.

        ``exploration_removed=True`` (``final="mix"``, regret matching or Exp3
        only) takes each node's share of uniform exploration out of its counts
        first (:func:`~mctslib.learners.simultaneous.without_exploration`): the
        exploring picks are the noise the rules add on purpose, not what they
        learned. The chapter measures what that changes.
        """
        final = check_final(final)
        if check_bool("exploration_removed", exploration_removed):
            if self.selection not in ("rm", "exp3") or final != "mix":
                raise ValueError(
                    f"exploration_removed needs final='mix' and a rule that explores on purpose "
                    f"('rm' or 'exp3'), got final={final!r} with selection={self.selection!r}.")
            return TableProfile({
                node.state: tuple(_mix_without_exploration(rule.counts, self.exploration)
                                  for rule in node.rules)
                for node in self.nodes() if node.rules
            })
        return TableProfile({
            node.state: tuple(final_mix(rule.counts, final) for rule in node.rules)
            for node in self.nodes() if node.rules
        })

    def root_strategies(self) -> tuple[np.ndarray, np.ndarray]:
        """The two players' final mixes at the root (over ``legal_actions`` in order)."""
        self._check_bidding_root("root_strategies")
        return (np.asarray(self.root.rules[0].average_strategy()),
                np.asarray(self.root.rules[1].average_strategy()))

    def root_move(self, player: int, final: str = "mix", uniform: float = 0.0):
        """The action ``player`` plays from the root under a final-move rule (Tak et al. 2014).

        ``final="mix"`` samples the root's average strategy with ``uniform``
        (a number in ``[0, 1)``, slices in action order); ``final="max"`` plays
        the most chosen action (the first one on ties; ``uniform`` unused).
        """
        player = check_player(player)
        self._check_bidding_root("root_move")
        return self.root.actions[player][pick_final(self.root.rules[player].counts,
                                                    check_final(final), uniform)]

    def _check_bidding_root(self, what: str) -> None:
        if not self.root.rules:
            raise ValueError(f"{what} needs a root where the players bid; this search starts at "
                             f"a chance node or a finished game ({self.root.state}).")



# --------------------------------------------------------------------------- more than two agents


class _JointNode:
    """A node of :class:`JointDUCT`: one UCB1 rule per agent, children by joint index tuple."""

    __slots__ = ("actions", "children", "rules", "state")

    def __init__(self, state, c: float):
        self.state = state
        self.children: dict[tuple, _JointNode] = {}
        if state.is_terminal():
            self.actions, self.rules = (), ()
        else:
            self.actions = tuple(tuple(state.legal_actions(a)) for a in range(state.agents))
            self.rules = tuple(UCB1Player(len(a), c) for a in self.actions)


class JointDUCT(SimultaneousSearch):
    """Standard DUCT on one tree of states for any number of agents (sample backup).

    The joint-action tree of SM-MCTS with ``n`` agents: at every node each
    agent's UCB1 rule picks its own action, the joint action (one per agent)
    decides the child, and every node keeps one child per joint action tried,
    up to ``actions ** n`` of them. Each agent's rule learns its own reward of
    the iteration (Tak, Lanctot and Winands 2014). The chapter compares its
    size with Smitsimax's per-agent trees (:meth:`Smitsimax.tree_sizes
    <mctslib.search.smitsimax.Smitsimax.tree_sizes>`) on
    :class:`~mctslib.games.multi_goofspiel.MultiGoofspiel`.

    Parameters
    ----------
    root : MultiAgentState
    c : float
        UCB1's constant (rewards in ``[0, 1]``).
    seed : int, numpy Generator or None
    """

    def __init__(self, root, c: float = SQRT2, seed=None):
        from ..games.simultaneous_base import MultiAgentState

        if not isinstance(root, MultiAgentState):
            raise ValueError(f"root must be a MultiAgentState such as MultiGoofspiel(), got "
                             f"{type(root).__name__}.")
        super().__init__(root, seed)
        self.c = check_real("c (UCB1's exploration constant)", c, 0.0)
        self.root = _JointNode(root, self.c)

    @property
    def root_state(self):
        return self.root.state

    def iterate(self) -> None:
        """Select with every agent's rule, add one node, play out at random, back up each reward."""
        node, path = self.root, []
        while not node.state.is_terminal():
            picks = tuple(rule.choose(float(self.rng.random())) for rule in node.rules)
            path.append((node, picks))
            child = node.children.get(picks)
            if child is None:
                state = node.state.play(tuple(a[i] for a, i in zip(node.actions, picks)))
                node.children[picks] = _JointNode(state, self.c)
                final = state
                while not final.is_terminal():
                    final = final.play(tuple(_random_choice(final.legal_actions(a), self.rng)
                                             for a in range(final.agents)))
                break
            node = child
        else:
            final = node.state
        rewards = [final.reward(a) for a in range(final.agents)]
        for parent, picks in path:
            for rule, index, reward in zip(parent.rules, picks, rewards):
                rule.update(index, reward)

    def tree_size(self) -> int:
        """How many nodes the joint tree holds."""
        count, stack = 0, [self.root]
        while stack:
            node = stack.pop()
            count += 1
            stack.extend(node.children.values())
        return count

    def root_move(self, agent: int, final: str = "mix", uniform: float = 0.0):
        """The action ``agent`` plays from the root under a final-move rule ("mix" or "max")."""
        agent = check_int("agent", agent, 0, len(self.root.rules) - 1)
        return self.root.actions[agent][pick_final(self.root.rules[agent].counts,
                                                   check_final(final), uniform)]


# --------------------------------------------------------------------------- a turn-taking tree


class _TurnNode:
    """A node of :class:`SequentialUCT`: player 0 to bid, or player 1 after seeing bid ``pending``."""

    __slots__ = ("actions", "children", "pending", "rule", "state")

    def __init__(self, state, pending, c: float):
        self.state, self.pending = state, pending
        mover = 0 if pending is None else 1
        self.actions = () if state.is_terminal() else tuple(state.legal_actions(mover))
        self.rule = UCB1Player(len(self.actions), c) if self.actions else None
        self.children: list = [None] * len(self.actions)


class SequentialUCT(SimultaneousSearch):
    """Plain UCT on the turn-taking version of a simultaneous game: player 1 sees player 0's bid.

    The chapter's first section builds this tree for one matrix game and shows
    that "always rock" beats it. Here it is grown on a whole game (Goofspiel):
    at every state player 0 bids first (a UCB1 node over its actions), then
    player 1 bids at a node that knows player 0's bid; each node's rule
    maximises its own mover's reward (player 1's is one minus player 0's), and
    the iteration's sampled result is backed up. The behaviour profile it
    stands for (:meth:`profile`): player 0 plays its nodes' visit-count mix;
    player 1, who in the real game cannot see the bid, plays the visit counts
    of its nodes summed over player 0's bids (what it played on average in the
    tree). :meth:`~SimultaneousSearch.exploitability` then measures how far
    that is from equilibrium.

    Parameters
    ----------
    root : SimultaneousState
    c : float
        UCB1's constant (rewards in ``[0, 1]``).
    seed : int, numpy Generator or None
    """

    def __init__(self, root: SimultaneousState, c: float = SQRT2, seed=None):
        super().__init__(root, seed)
        if not isinstance(root, SimultaneousState):
            raise ValueError("SequentialUCT needs a two-player SimultaneousState such as Goofspiel().")
        self.c = check_real("c (UCB1's exploration constant)", c, 0.0)
        self.root = _TurnNode(root, None, self.c)

    @property
    def root_state(self) -> SimultaneousState:
        return self.root.state

    def iterate(self) -> None:
        """Select turn by turn, add one node, play out at random, back up the sample."""
        node, path = self.root, []
        while node.rule is not None:
            index = node.rule.choose(float(self.rng.random()))
            path.append((node, index))
            child = node.children[index]
            if child is None:
                child = node.children[index] = self._child(node, index)
                state = child.state
                if child.pending is not None:  # player 1 still has to answer: a random bid
                    answer = _random_choice(state.legal_actions(1), self.rng)
                    state = state.play((child.pending, answer))
                reward = _joint_playout(state, self.rng).reward(0)
                break
            node = child
        else:
            reward = node.state.reward(0)
        for parent, index in path:
            parent.rule.update(index, reward if parent.pending is None else 1.0 - reward)

    def _child(self, node: _TurnNode, index: int) -> _TurnNode:
        action = node.actions[index]
        if node.pending is None:
            return _TurnNode(node.state, action, self.c)
        return _TurnNode(node.state.play((node.pending, action)), None, self.c)

    def profile(self, final: str = "mix") -> TableProfile:
        """Player 0's node mixes and player 1's counts summed over player 0's bids, per state."""
        final = check_final(final)
        table, stack = {}, [self.root]
        while stack:
            node = stack.pop()
            if node.rule is None:
                continue
            answers = [child for child in node.children if child is not None]
            summed = [0] * len(node.state.legal_actions(1))
            for answer in answers:
                if answer.rule is not None:
                    summed = [a + b for a, b in zip(summed, answer.rule.counts)]
                stack.extend(c for c in answer.children if c is not None)
            table[node.state] = (final_mix(node.rule.counts, final), final_mix(summed, final))
        return TableProfile(table)
