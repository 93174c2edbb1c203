"""Progressive widening: a tree search for a continuous action (chapter "Enhancements").

UCT tries every child of a node once before it compares them. With a
continuous action there are infinitely many children, and even a fine grid
spends the whole budget trying each once. Progressive widening (Coulom 2007,
for Go's many moves; Couetoux et al. 2011, "Continuous Upper Confidence
Trees", for continuous actions) lets the number of children grow with the
node's visits instead: a node visited ``n`` times may have at most

    ``widening_limit(n) = ceil(k * n ** alpha)``

children (:func:`widening_limit`). ``alpha`` in ``[0, 1]`` sets how fast the
node widens (0: never beyond ``ceil(k)`` children; 1: a new child at nearly
every visit, like UCT), ``k > 0`` how wide it starts. This is the action rule
of Couetoux et al.'s algorithm, which lets a node on its ``t``-th visit choose
among its first ``ceil(C * t ** alpha)`` options (their ``C`` is our ``k``);
the Julia package MCTS.jl (DPW solver) writes the same idea as "add an action
while the children number at most ``k * N ** alpha``", one more child at each
threshold. Couetoux et al.'s *double* progressive widening applies the rule a
second time, to the random outcomes of a stochastic transition; this problem's
transitions are deterministic, so one widening is enough.

One iteration of :class:`ProgressiveWideningSearch`, exactly as the code runs it:

1. **selection**: at a node on its ``n``-th visit (``n`` counting this one), if
   it has fewer than ``widening_limit(n)`` children, **widen**: draw a new action
   uniformly from ``[0, 1]`` (from the search's generator), add its child and
   stop descending. Otherwise descend into the child with the highest UCB1 score
   ``mean + c * sqrt(ln(n - 1) / visits)`` (``n - 1``: the node's visits before
   this one; the first child in order wins a tie). A finished state
   stops the descent too.
2. **simulation**: finish the sequence with uniformly random actions;
3. **evaluation**: one noisy reward of the finished sequence
   (:meth:`~mctslib.games.continuous.ContinuousBanditTree.sample_reward`);
4. **backpropagation**: every node on the path gains a visit and the reward.

A node adds at most one child per visit, so after ``n`` visits the root has
``min(n, ceil(k * n ** alpha))`` children as long as ``k * n ** alpha`` grows by
at most 1 per visit (always for ``k * alpha <= 1``). The baseline,
``discretisation=m``, replaces the uniform draw by ``m`` fixed actions, the
centres ``(i + 1/2) / m`` of ``m`` equal cells, added one per visit in that
order until all ``m`` are children, then plain UCB1 among them.

The answer is the most visited root child. Its *true value* is the best mean
reward still reachable after it
(:meth:`~mctslib.games.continuous.ContinuousBanditTree.best_value`), which the
chapter compares with the optimum.

The count is computed in floating point as ``math.ceil(k * n ** alpha)``. Where
``k * n ** alpha`` should be a whole number, the rounded power may land a hair
below it (``1000 ** (1/3)`` is ``9.999999999999998``, and its ceiling is still
10) or, in principle, a hair above, and then the limit is one higher at that
visit. The search computes the rule exactly as :func:`widening_limit` does (the
same expression, without the argument checks), and the tests compare the root's
children with :func:`widening_limit` at every visit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._checks import check_int, check_real, shown
from ..games.continuous import ContinuousBanditTree
from ..rng import make_rng
from .minimax import check_budget

__all__ = ["ProgressiveWideningSearch", "WideningResult", "widening_limit"]

#: The largest iteration budget: the tree keeps up to one new node per iteration.
MAX_ITERATIONS = 10_000_000
#: The largest ``k``: beyond it the limit never binds within any budget.
MAX_K = 1_000_000.0
#: The largest fixed grid (``discretisation``).
MAX_DISCRETISATION = 100_000


def widening_limit(visits: int, k: float, alpha: float) -> int:
    """The most children a node visited ``visits`` times may have: ``ceil(k * visits ** alpha)``.

    Parameters
    ----------
    visits : int
        The node's visits, counting the current one: a whole number from 1 to 2**53.
    k : float
        How wide a node starts, a number above 0 and at most 1,000,000.
    alpha : float
        How fast it widens, a number in ``[0, 1]``.

    Chapter "Enhancements" (progressive widening).
    """
    visits = check_int("visits", visits, 1, 2**53)
    k, alpha = _check_widening(k, alpha)
    return math.ceil(k * visits ** alpha)


def _check_widening(k, alpha) -> tuple[float, float]:
    # One sentence for k whatever the mistake: the range is open at 0, which
    # check_real's closed intervals cannot say.
    sentence = ("k (the widening scale) must be a number above 0 and at most 1,000,000 "
                "(at 0 a node could never have a child), got {}.")
    try:
        k = check_real("k (the widening scale)", k, 0.0, MAX_K)
    except ValueError:
        raise ValueError(sentence.format(shown(k))) from None
    if k == 0.0:
        raise ValueError(sentence.format(shown(k)))
    alpha = check_real("alpha (the widening exponent)", alpha, 0.0, 1.0)
    return k, alpha


class _Node:
    """One state in the tree: the action that led to it, its visits and summed rewards."""

    __slots__ = ("action", "children", "state", "total", "visits")

    def __init__(self, action, state: tuple):
        self.action = action
        self.state = state
        self.children: list[_Node] = []
        self.visits = 0
        self.total = 0.0


@dataclass(frozen=True)
class WideningResult:
    """What one :meth:`ProgressiveWideningSearch.run` found.

    Attributes
    ----------
    root_children : tuple of int
        How many children the root had after each iteration (one entry per iteration).
    actions, visits, means : tuple
        The root's children in the order they were added: action, visits, mean reward.
    recommended_action : float
        The most visited root child's action (the first added among equals).
    true_value : float
        The best mean reward reachable after it (the problem's ``best_value``).
    recommended_line : tuple of float
        From the root, the most visited child at each level, down to a finished
        state or a node without children: the actions the search would play
        if it played its whole tree's advice (first of them: ``recommended_action``).
    line_value : float
        The best mean reward reachable after that line (``best_value``): for a
        fixed grid, this counts that the later choices too are grid points.
    optimum : float
        The best mean reward reachable from the searched state (1.0 from the start
        of a :class:`ContinuousBanditTree`).
    nodes : int
        Nodes in the tree, the root included.
    """

    root_children: tuple
    actions: tuple
    visits: tuple
    means: tuple
    recommended_action: float
    true_value: float
    recommended_line: tuple
    line_value: float
    optimum: float
    nodes: int

    @property
    def regret(self) -> float:
        """``optimum - true_value``: what the recommendation loses against the best action."""
        return self.optimum - self.true_value


class ProgressiveWideningSearch:
    """UCB1 tree search whose nodes widen as ``ceil(k * n ** alpha)`` (see the module).

    Parameters
    ----------
    k : float
        Widening scale, above 0 and at most 1,000,000 (default 1).
    alpha : float
        Widening exponent, in ``[0, 1]`` (default 0.5).
    c : float
        UCB1's exploration constant, a finite number ``>= 0`` (default 0.5; rewards
        are means in ``[0, 1]`` with noise).
    iterations : int
        Budget per :meth:`run`, from 1 to 10,000,000 (default 1,000).
    seed : int, numpy.random.SeedSequence or None
        The same seed gives the same search. A new generator is made from it at
        every :meth:`run`, so running twice gives the same result twice.
    discretisation : int or None
        None (default): progressive widening with uniformly drawn actions.
        A whole number ``m`` from 1 to 100,000: the baseline with ``m`` fixed,
        evenly spaced actions at every node (``k`` and ``alpha`` are then unused).

    Chapter "Enhancements" (progressive widening).
    """

    def __init__(self, k: float = 1.0, alpha: float = 0.5, c: float = 0.5,
                 iterations: int = 1000, seed=0, discretisation: int | None = None):
        self.k, self.alpha = _check_widening(k, alpha)
        self.c = check_real("c (the exploration constant)", c, 0.0)
        self.iterations = check_budget("iterations", iterations, 1, MAX_ITERATIONS)
        if isinstance(seed, np.random.Generator):
            raise ValueError("seed must be an int >= 0, a numpy SeedSequence or None (a Generator "
                             "would be used up by the first run, and a second run would differ), "
                             "got a numpy Generator.")
        make_rng(seed)  # the same checks and sentences as everywhere in the book
        self.seed = seed
        if discretisation is not None:
            discretisation = check_int("discretisation", discretisation, 1, MAX_DISCRETISATION)
        self.discretisation = discretisation

    def __repr__(self) -> str:
        return (f"ProgressiveWideningSearch(k={self.k!r}, alpha={self.alpha!r}, c={self.c!r}, "
                f"iterations={self.iterations}, seed={self.seed!r}, "
                f"discretisation={self.discretisation!r})")

    def run(self, problem: ContinuousBanditTree, state: tuple = ()) -> WideningResult:
        """Search from ``state`` (default: the start) and return a :class:`WideningResult`.

        A fresh tree and a fresh generator every call: the same search run twice
        gives the same result.
        """
        if not isinstance(problem, ContinuousBanditTree):
            raise ValueError(f"problem must be a ContinuousBanditTree, got {shown(problem)}.")
        if problem.is_terminal(state):
            raise ValueError(f"run needs an unfinished state, got {shown(state)}.")
        rng = make_rng(self.seed)
        grid = None if self.discretisation is None else problem.grid_actions(self.discretisation)
        root = _Node(None, state)
        root_children, nodes = [], 1
        for _ in range(self.iterations):
            nodes += self._iterate(problem, root, rng, grid)
            root_children.append(len(root.children))
        return self._result(problem, root, root_children, nodes)

    def _iterate(self, problem, root: _Node, rng, grid) -> int:
        # Selection, widening at most once; returns the number of nodes added (0 or 1).
        path, node, added = [root], root, 0
        while not problem.is_terminal(node.state):
            visit = node.visits + 1  # this visit counts
            if len(node.children) < self._limit(visit, grid):
                action = (float(rng.random()) if grid is None else grid[len(node.children)])
                child = _Node(action, problem.step(node.state, action))
                node.children.append(child)
                path.append(child)
                added = 1
                break
            node = self._ucb1_child(node)
            path.append(node)
        reward = self._simulate(problem, path[-1].state, rng)
        for on_path in path:  # backpropagation: one player, so no sign flips
            on_path.visits += 1
            on_path.total += reward
        return added

    def _limit(self, visit: int, grid) -> int:
        if grid is not None:
            return len(grid)
        return math.ceil(self.k * visit ** self.alpha)  # widening_limit, without the checks

    def _ucb1_child(self, node: _Node) -> _Node:
        # Every child was visited when it was added, and node.visits (before this visit)
        # is at least 1 here, so ln and the division are defined.
        log_parent = math.log(node.visits)
        best, best_score = None, -math.inf
        for child in node.children:
            score = child.total / child.visits + self.c * math.sqrt(log_parent / child.visits)
            if score > best_score:  # strictly greater: the first child wins a tie
                best, best_score = child, score
        return best

    @staticmethod
    def _simulate(problem, state: tuple, rng) -> float:
        while not problem.is_terminal(state):
            state = problem.step(state, float(rng.random()))
        return problem.sample_reward(state, rng)

    @staticmethod
    def _result(problem, root: _Node, root_children: list, nodes: int) -> WideningResult:
        children = root.children
        action = _most_visited(root).action
        line, node = [], root
        while node.children:
            node = _most_visited(node)
            line.append(node.action)
        return WideningResult(
            root_children=tuple(root_children),
            actions=tuple(child.action for child in children),
            visits=tuple(child.visits for child in children),
            means=tuple(child.total / child.visits for child in children),
            recommended_action=action,
            true_value=problem.best_value(root.state + (action,)),
            recommended_line=tuple(line),
            line_value=problem.best_value(root.state + tuple(line)),
            optimum=problem.best_value(root.state),
            nodes=nodes,
        )


def _most_visited(node: _Node) -> _Node:
    # The robust child; among equal visits the first added (max keeps the first maximum).
    return max(node.children, key=lambda child: child.visits)
