"""Smitsimax: one search tree per agent, over that agent's own moves only.

MSmits' search for CodinGame's Coders Strike Back, since used by winners of
several CodinGame contests, drops the shared tree of SM-MCTS altogether:

- every agent has **its own tree**, whose nodes are sequences of *its own*
  moves; what the other agents did is not part of the node, so one node
  stands for many game states, and no node needs a child per *pair* of moves;
- each iteration, every tree picks a move for its agent with UCB1 (unvisited
  moves first, in random order), the turn is simulated with all the picks
  together, and the trees descend in step until the game ends;
- each agent's own result (its reward in ``[0, 1]``) goes up its own tree.

It needs an agent's legal moves to depend only on its own earlier moves, never
on the others' choices; otherwise one node would need different children in
different states. :class:`Smitsimax` checks this and raises ValueError if it
fails. Goofspiel satisfies it (a player's hand is what it has not bid yet).

Why Goofspiel for the demonstration: it is the game the SM-MCTS experiment
already solves exactly, so what Smitsimax learns can be scored by the same
exact distance from equilibrium and compared with DUCT and regret matching
at the same budget. The code loops over agents and would run unchanged with
more of them; the exact scoring needs two.

What it learns is a strategy that *cannot look at the opponent's earlier
moves*: its mix after its own bids 4 then 3 is the same whatever the other
player bid. :func:`mctslib.search.backward_induction.exploit` finds a best
response to it and the states where that response gains most, and
:func:`blind_guarantee` computes exactly the most that *any* such "blind"
strategy can guarantee: in 3-card Goofspiel as much as the game value, in
4-card Goofspiel less, so there no amount of search brings Smitsimax to an
equilibrium (:func:`blind_floor`).

The final strategy of a node is the visit-count mix (as in DUCT). Chapter
"When both players move at once (simultaneous moves)".
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np

from .._checks import check_int, check_real
from ..games.simultaneous_base import PLAYERS, MultiAgentState, SimultaneousState, check_player
from ..learners.simultaneous import UCB1Player
from ..learners.ucb1 import SQRT2
from .backward_induction import MAX_STATES, TableProfile, is_chance, solve_game, too_many_states
from .simultaneous_search import SimultaneousSearch
from .smmcts import check_final, final_mix, pick_final

__all__ = ["AgentNode", "BlindGuarantee", "Smitsimax", "blind_floor", "blind_guarantee"]


class AgentNode:
    """A node of one agent's tree: a UCB1 bandit over that agent's own moves.

    The bandit is the chapter's one-node learner
    :class:`~mctslib.learners.simultaneous.UCB1Player` (untried moves first, then
    UCB1, exact ties broken at random); the node's final strategy is its
    visit-count mix. ``children[i]`` is the node after the agent played
    ``actions[i]`` (``None`` until first reached).
    """

    __slots__ = ("actions", "bandit", "children")

    def __init__(self, actions: tuple[Hashable, ...], c: float):
        if not isinstance(actions, tuple) or not actions:
            raise ValueError(f"actions must be a non-empty tuple of the agent's moves, got "
                             f"{actions!r}.")
        self.actions = actions
        self.bandit = UCB1Player(len(actions), c)
        self.children: list[AgentNode | None] = [None] * len(actions)

    def strategy(self) -> np.ndarray:
        """The visit-count mix over the agent's moves here (uniform before the first visit)."""
        return np.asarray(self.bandit.average_strategy())


class Smitsimax(SimultaneousSearch):
    """Smitsimax on a simultaneous-move game: one UCB1 tree per agent.

    Parameters
    ----------
    root : SimultaneousState or MultiAgentState
        The state to search from (game still on); a
        :class:`~mctslib.games.simultaneous_base.MultiAgentState` gives one tree
        to each of its agents (the profile and its distance need two players).
    c : float
        UCB1's exploration constant, ``>= 0`` (rewards lie in ``[0, 1]``).
    seed : int, numpy Generator or None
        Every random choice comes from ``make_rng(seed)``.

    Raises
    ------
    ValueError
        For bad arguments, for a game with chance nodes (Goofspiel with
        ``prize_order="random"``: the per-agent trees have no place for the
        draws yet), or during :meth:`run` if an agent's legal moves at a node
        change with the other agents' moves (Smitsimax's requirement).
    """

    def __init__(self, root: SimultaneousState, c: float = SQRT2, seed=None):
        super().__init__(root, seed)
        if is_chance(root) or getattr(root, "prize_order", "descending") != "descending":
            raise ValueError("Smitsimax here runs on games without chance nodes; its per-agent "
                             "trees have no place for chance draws yet (use SMMCTS for "
                             "Goofspiel with prize_order='random').")
        self._root_state = root
        self.c = check_real("c (UCB1's exploration constant)", c, 0.0)
        # Two players, or any number of agents in a MultiAgentState.
        self.agents = (tuple(range(root.agents)) if isinstance(root, MultiAgentState)
                       else PLAYERS)
        self.roots = [AgentNode(tuple(root.legal_actions(agent)), self.c)
                      for agent in self.agents]

    @property
    def root_state(self) -> SimultaneousState:
        """The state the search started from."""
        return self._root_state

    def iterate(self) -> None:
        """Every tree picks its agent's move, the turn is played, down to the end of the game."""
        state, nodes = self.root_state, list(self.roots)
        paths: list[list[tuple[AgentNode, int]]] = [[] for _ in self.agents]
        while True:
            picks = []
            for agent in self.agents:
                index = nodes[agent].bandit.choose(float(self.rng.random()))
                paths[agent].append((nodes[agent], index))
                picks.append(nodes[agent].actions[index])
            state = state.play(tuple(picks))
            if state.is_terminal():
                break
            nodes = [self._child(path[-1], state, agent) for agent, path in enumerate(paths)]
        for agent in self.agents:
            reward = state.reward(agent)  # each agent's own result, up its own tree
            for node, index in paths[agent]:
                node.bandit.update(index, reward)

    def _child(self, step: tuple[AgentNode, int], state: SimultaneousState,
               agent: int) -> AgentNode:
        """The node after the agent's move ``step``, created when first reached.

        The node is the same whatever the other agent played, so its moves
        must be the same too: checked here, every time.
        """
        node, index = step
        actions = tuple(state.legal_actions(agent))
        child = node.children[index]
        if child is None:
            child = node.children[index] = AgentNode(actions, self.c)
        elif child.actions != actions:
            raise ValueError(
                f"Smitsimax needs each agent's legal moves to depend only on its own earlier "
                f"moves; agent {agent}'s moves changed from {child.actions} to {actions} "
                f"at {state}."
            )
        return child

    # ------------------------------------------------------------- what it learned

    def profile(self, final: str = "mix") -> TableProfile:
        """The behaviour profile the trees stand for, written state by state.

        ``final="mix"`` (default) takes each node's visit-count mix,
        ``final="max"`` its most visited move (ties shared equally), as
        :meth:`mctslib.search.smmcts.SMMCTS.profile` does.

        At a state, each agent plays the visit-count mix of the node its own
        earlier moves lead to, whatever the other agent did (uniform where its
        tree has no node). Built by walking every reachable state, so for
        small games whose states record the moves so far (as Goofspiel's do);
        raises ValueError if two move histories lead to the same state.
        """
        final = check_final(final)
        if len(self.agents) != 2 or not isinstance(self.root_state, SimultaneousState):
            raise ValueError("profile() measures two-player zero-sum games only; this search has "
                             f"{len(self.agents)} agents.")
        table = {}
        stack = [(self.root_state, tuple(self.roots))]
        while stack:
            state, nodes = stack.pop()
            if state.is_terminal():
                continue
            if len(table) >= MAX_STATES:
                raise too_many_states("Smitsimax.profile()")
            if state in table:
                raise ValueError(
                    "Smitsimax.profile() needs a game whose states record the moves so far; "
                    f"two move histories lead to {state}."
                )
            table[state] = tuple(_strategy(node, state, agent, final)
                                 for agent, node in enumerate(nodes))
            for i, a0 in enumerate(state.legal_actions(0)):
                for j, a1 in enumerate(state.legal_actions(1)):
                    children = tuple(None if node is None else node.children[k]
                                     for node, k in zip(nodes, (i, j)))
                    stack.append((state.play((a0, a1)), children))
        return TableProfile(table)

    def root_strategies(self) -> tuple[np.ndarray, np.ndarray]:
        """The two agents' visit-count mixes at their roots."""
        return self.roots[0].strategy(), self.roots[1].strategy()

    def root_move(self, player: int, final: str = "mix", uniform: float = 0.0):
        """The move ``player`` plays from its root under a final-move rule ("mix" or "max").

        As :meth:`mctslib.search.smmcts.SMMCTS.root_move`: sample the visit-count
        mix with ``uniform``, or play the most visited move.
        """
        player = check_int("player", player, 0, len(self.agents) - 1)
        root = self.roots[player]
        return root.actions[pick_final(root.bandit.counts, check_final(final), uniform)]

    def tree_sizes(self) -> list[int]:
        """How many nodes each agent's tree holds (one list entry per agent)."""
        return [_count_nodes(root) for root in self.roots]



def _count_nodes(root: AgentNode) -> int:
    count, stack = 0, [root]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(child for child in node.children if child is not None)
    return count


def _strategy(node: AgentNode | None, state: SimultaneousState, agent: int,
              final: str = "mix") -> np.ndarray:
    """The node's final mix (see :meth:`Smitsimax.profile`), or uniform where there is no node."""
    if node is None:
        count = len(state.legal_actions(agent))
        return np.full(count, 1.0 / count)
    return np.asarray(final_mix(node.bandit.counts, final))


# --------------------------------------------------------------------------- the price of blindness


@dataclass(frozen=True)
class BlindGuarantee:
    """The best a *blind* player can guarantee: one whose mix depends only on its own moves so far.

    Attributes
    ----------
    player : int
    value : float
        The player's guaranteed payoff (its own, in the game's units) against
        an opponent who sees everything and answers as well as possible.
    strategy : dict
        ``{own moves so far (a tuple): mix over the moves available then}``
        for every sequence the strategy can reach.
    """

    player: int
    value: float
    strategy: dict

    def mix(self, own_moves: tuple, count: int) -> np.ndarray:
        """The mix after ``own_moves`` (uniform over ``count`` moves if never reached)."""
        count = check_int("count (moves available)", count, 1)
        if isinstance(own_moves, (str, bytes)) or not hasattr(own_moves, "__iter__"):
            raise ValueError(f"own_moves must be a sequence of the player's moves so far, got "
                             f"{own_moves!r}.")
        try:
            mix = self.strategy.get(tuple(own_moves))
        except TypeError:  # a move that cannot be a key (a list) was never played
            mix = None
        return np.full(count, 1.0 / count) if mix is None else mix


def blind_guarantee(root: SimultaneousState, player: int = 0) -> BlindGuarantee:
    """Solve exactly for the best strategy that ignores the opponent's earlier moves.

    Smitsimax's strategy has this form (a node is a sequence of the agent's
    own moves), so its guarantee can never exceed this value, however long
    it searches.

    Parameters
    ----------
    root : SimultaneousState
        A small game whose states record the moves so far (e.g. Goofspiel).
    player : int
        The blind player (0 or 1); the opponent sees everything.

    Notes
    -----
    A linear programme in *sequence form*. The blind player's strategy is
    written as a *realization plan*: ``r(s)`` is the probability of playing
    its own sequence of moves ``s`` when the opponent's moves allow it, with
    ``r(()) = 1`` and ``r(s) = sum over a of r(s + a)``. For every state ``h``
    the variable ``V(h)`` stands for ``r(own moves to h)`` times the blind
    player's payoff from ``h`` when the opponent answers best; at the end of
    the game it is ``r(s) * payoff``, and at a state each opponent action
    ``b`` gives the bound ``V(h) <= sum over a of V(child after (a, b))``.
    Maximising ``V(root)`` makes every bound tight where it matters: the
    opponent's best answer. Solved with ``scipy.optimize.linprog`` (HiGHS).
    """
    player = check_player(player)
    if not isinstance(root, SimultaneousState):
        raise ValueError(
            f"root must be a simultaneous-move game state such as Goofspiel(), got "
            f"{type(root).__name__}."
        )
    if root.is_terminal():
        raise ValueError("blind_guarantee needs a state where the game is still on; this one is "
                         "over, so there is no strategy to choose.")
    program = _BlindProgram(player)
    root_variable = program.add_state(root, ())
    plan, value = program.solve(root_variable)
    return BlindGuarantee(player, value, _mixes_from_plan(plan, program.moves))


def blind_floor(root: SimultaneousState) -> float:
    """The smallest distance from equilibrium any pair of blind strategies can have.

    If both players are blind, each one's opponent can win at least the gap
    between its equilibrium payoff and its blind guarantee, so the distance
    (:func:`~mctslib.search.backward_induction.profile_exploitability`) of a Smitsimax
    profile is at least ``(v - g0) + (-v - g1)``, with ``v`` the game value
    and ``g0``, ``g1`` the two blind guarantees.
    """
    value = solve_game(root).value
    return (value - blind_guarantee(root, 0).value) + (-value - blind_guarantee(root, 1).value)


#: The longest game :func:`blind_guarantee` builds its programme for, in rounds
#: (its recursion goes one call deeper per round; Goofspiel has at most 13).
MAX_ROUNDS = 200


class _BlindProgram:
    """Builds the sequence-form linear programme of :func:`blind_guarantee`, row by row."""

    def __init__(self, player: int):
        self.player = player
        self.sign = 1.0 if player == 0 else -1.0  # the blind player's payoff is sign * payoff()
        self.count = 0
        self.states = 0                        # states visited, against MAX_STATES
        self.plan: dict[tuple, int] = {}       # own sequence -> variable r(s)
        self.moves: dict[tuple, tuple] = {}    # own sequence -> moves available after it
        self.upper: list[dict] = []            # rows "sum coef * variable <= 0"
        self.equal: list[tuple[dict, float]] = []  # rows "sum coef * variable == constant"
        self.plan_variable(())
        self.equal.append(({self.plan[()]: 1.0}, 1.0))

    def new_variable(self) -> int:
        self.count += 1
        return self.count - 1

    def plan_variable(self, sequence: tuple) -> int:
        if sequence not in self.plan:
            self.plan[sequence] = self.new_variable()
        return self.plan[sequence]

    def add_state(self, state: SimultaneousState, sequence: tuple) -> dict:
        """Rows for ``state`` and everything below; returns V(state) as {variable: coefficient}."""
        self.states += 1
        if self.states > MAX_STATES:
            raise too_many_states("blind_guarantee")
        if len(sequence) > MAX_ROUNDS:  # the recursion is one call deep per round
            raise ValueError(f"blind_guarantee handles games of at most {MAX_ROUNDS} rounds; "
                             f"this one goes on longer.")
        if state.is_terminal():
            return {self.plan_variable(sequence): self.sign * state.payoff()}
        mine = tuple(state.legal_actions(self.player))
        theirs = state.legal_actions(1 - self.player)
        self.add_plan_row(sequence, mine)
        children = {}
        for a in mine:
            for b in theirs:
                joint = (a, b) if self.player == 0 else (b, a)
                children[a, b] = self.add_state(state.play(joint), (*sequence, a))
        value = self.new_variable()
        for b in theirs:  # V(h) - sum_a V(h, a, b) <= 0 for each opponent action b
            row = {value: 1.0}
            for a in mine:
                for variable, coefficient in children[a, b].items():
                    row[variable] = row.get(variable, 0.0) - coefficient
            self.upper.append(row)
        return {value: 1.0}

    def add_plan_row(self, sequence: tuple, mine: tuple) -> None:
        """``r(s) = sum_a r(s + a)``, once per sequence (many states share it)."""
        if sequence in self.moves:
            if self.moves[sequence] != mine:
                raise ValueError(
                    "blind_guarantee needs the player's moves to depend only on its own earlier "
                    f"moves; after {sequence} they were {self.moves[sequence]} and then {mine}."
                )
            return
        self.moves[sequence] = mine
        row = {self.plan_variable(sequence): -1.0}
        for a in mine:
            row[self.plan_variable((*sequence, a))] = 1.0
        self.equal.append((row, 0.0))

    def solve(self, root_value: dict) -> tuple[dict, float]:
        from scipy.optimize import linprog  # scipy is needed only here
        from scipy.sparse import csr_matrix

        def matrix(rows):
            entries = [(i, variable, coefficient) for i, row in enumerate(rows)
                       for variable, coefficient in row.items()]
            i, j, x = zip(*entries)
            return csr_matrix((x, (i, j)), shape=(len(rows), self.count))

        objective = np.zeros(self.count)
        for variable, coefficient in root_value.items():
            objective[variable] = -coefficient  # linprog minimises
        bounds = [(None, None)] * self.count
        for variable in self.plan.values():
            bounds[variable] = (0.0, None)
        result = linprog(objective, A_ub=matrix(self.upper), b_ub=np.zeros(len(self.upper)),
                         A_eq=matrix([row for row, _ in self.equal]),
                         b_eq=[constant for _, constant in self.equal], bounds=bounds,
                         method="highs")
        if not result.success:  # pragma: no cover - the programme always has a solution
            raise RuntimeError(f"linear program failed: {result.message}")
        plan = {sequence: float(result.x[v]) for sequence, v in self.plan.items()}
        return plan, -float(result.fun) + 0.0  # + 0.0 turns -0.0 into 0.0


def _mixes_from_plan(plan: dict, moves: dict) -> dict:
    """Behaviour mixes ``r(s + a) / r(s)`` from a realization plan (uniform where ``r(s) = 0``)."""
    mixes = {}
    for sequence, available in moves.items():
        weights = np.maximum([plan[(*sequence, a)] for a in available], 0.0) + 0.0  # no -0.0
        total = math.fsum(weights)  # an order-free sum: the same mixes on every machine
        uniform = np.full(len(available), 1.0 / len(available))
        mixes[sequence] = weights / total if total > 1e-12 else uniform
    return mixes
