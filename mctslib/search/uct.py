"""UCT: Monte Carlo Tree Search with UCB1 at every node (the UCT chapter).

This is the readable reference. It works for any game written with the
:class:`~mctslib.games.GameState` protocol, and with the xorshift generator
and tic-tac-toe it reproduces the published reference harness number for
number (:mod:`mctslib.experiments.harness`). One iteration has four phases:

1. **selection**: from the root, while the node has children, descend into
   the child chosen by the selection rule (UCB1 by default);
2. **expansion**: if the game is not over and the node was visited before (or
   is the root), add all its children at once, in a shuffled order, and step
   into the first;
3. **simulation**: finish the game with uniformly random moves; none of the
   playout's positions enter the tree;
4. **backpropagation**: every node on the path gains a visit and the reward
   *for the player who made the move into that node* (1 win, 0.5 draw,
   0 loss), so each parent compares its children from the point of view of
   the player choosing among them.

The answer is the most visited root child (the "robust child").
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from .._checks import check_int, check_real
from ..games.base import GameState
from ..learners.ucb1 import ucb1_bonus
from ..rng import move_source
from .flat import random_playout


class Node:
    """One position in the tree, with the statistics of the move that led to it.

    ``wins`` is counted for ``mover``, the player who made ``move``; the
    root has no move and ``mover`` None.
    """

    __slots__ = ("children", "depth", "move", "mover", "parent", "visits", "wins")

    def __init__(self, move: Hashable | None, mover: int | None, parent: Node | None):
        self.move = move
        self.mover = mover
        self.parent = parent
        self.depth = 0 if parent is None else parent.depth + 1
        self.children: list[Node] = []
        self.visits = 0
        self.wins = 0.0

    @property
    def mean(self) -> float:
        """Average reward of the move into this node, for the player who made it."""
        return self.wins / self.visits if self.visits else math.nan


class UCB1Rule:
    """UCB1 selection: first unvisited child, else the first strictly highest score.

    Score = ``wins / visits + c * sqrt(ln(parent visits) / visits)``, the
    same arithmetic as :func:`mctslib.learners.ucb1.ucb1_score`, in the same order
    of floating-point operations as the published harness.
    """

    def __init__(self, c: float = math.sqrt(2.0)):
        self.c = check_real("exploration (the constant c)", c, 0.0)

    def __call__(self, node: Node) -> Node:
        best, best_score = None, -math.inf
        log_parent = math.log(node.visits)
        for child in node.children:
            if child.visits == 0:
                return child
            score = child.wins / child.visits + self.c * math.sqrt(log_parent / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def bonus(self, child: Node, parent: Node) -> float:
        """The exploration bonus alone (for printing trees)."""
        return ucb1_bonus(parent.visits, child.visits, self.c)


def shuffled(moves, source) -> list:
    """Fisher-Yates from the last index down to 1, swapping ``i`` with ``below(i + 1)``."""
    moves = list(moves)
    for i in range(len(moves) - 1, 0, -1):
        j = source.below(i + 1)
        moves[i], moves[j] = moves[j], moves[i]
    return moves


@dataclass(frozen=True)
class ChildStats:
    """What a widget or a printout needs about one root child."""

    move: Hashable
    visits: int
    mean: float
    bonus: float


class UCTSearch:
    """A UCT searcher that keeps its random source across searches.

    Parameters
    ----------
    exploration : float
        The constant ``c`` of UCB1, ``>= 0``.
    iterations : int or None
        Iterations per search (>= 1). Give this or ``seconds``.
    seconds : float or None
        Wall-time budget per search; the clock is read every iteration, so the
        search stops within one iteration of the budget (not reproducible:
        the book uses iterations).
    seed : int, numpy Generator, XorShift64 or None
        Where the random numbers come from. An :class:`XorShift64` reproduces
        the published harness.
    selection : callable(node) -> child, optional
        The selection rule; :class:`UCB1Rule` with ``exploration`` by default.
    max_depth : int or None
        Deepest level whose nodes may be expanded below (root = 0). ``None``
        grows the tree without limit; ``1`` expands the root only, which turns
        UCT into *flat UCB*: one bandit over the root moves.
    """

    def __init__(self, exploration: float = math.sqrt(2.0), iterations: int | None = 1000,
                 seconds: float | None = None, seed=None,
                 selection: Callable[[Node], Node] | None = None, max_depth: int | None = None):
        if (iterations is None) == (seconds is None):
            raise ValueError("give exactly one budget: iterations or seconds.")
        self.iterations = None if iterations is None else check_int("iterations", iterations, 1)
        self.seconds = None if seconds is None else check_real("seconds", seconds, 0.0)
        self.selection = selection or UCB1Rule(exploration)
        self.source = move_source(seed)
        self.max_depth = None if max_depth is None else check_int("max_depth", max_depth, 1)
        self.root: Node | None = None

    def search(self, state: GameState) -> Node:
        """Grow a fresh tree from ``state`` within the budget; return its root."""
        if state.is_terminal():
            raise ValueError("cannot search a finished game: there is no move to choose.")
        self.root = root = Node(None, None, None)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            self.iterate(root, state)
            done += 1
            if self.iterations is not None and done >= self.iterations:
                return root
            if deadline is not None and time.perf_counter() >= deadline:
                return root

    def choose(self, state: GameState) -> Hashable:
        """Search ``state`` and answer the most visited root move (first on ties)."""
        return robust_child(self.search(state)).move

    def iterate(self, root: Node, state: GameState) -> None:
        """One iteration: selection, expansion, simulation, backpropagation."""
        node, state = self.select(root, state)
        node, state = self.expand(node, state, root)
        final = random_playout(state, self.source)
        self.backpropagate(node, final.result(node.mover))

    def select(self, node: Node, state: GameState) -> tuple[Node, GameState]:
        """Descend by the selection rule while the node has children."""
        while node.children:
            node = self.selection(node)
            state = state.play(node.move)
        return node, state

    def expand(self, node: Node, state: GameState, root: Node) -> tuple[Node, GameState]:
        """Add all children of a node visited before (or of the root) and step into the first.

        Children are shuffled (Fisher-Yates on the search's random source) so
        that the order of legal moves does not favour any move when visits tie.
        ``max_depth`` limits how deep the tree may grow (1 gives flat UCB).
        """
        if state.is_terminal() or not (node.visits > 0 or node is root):
            return node, state
        if self.max_depth is not None and node.depth >= self.max_depth:
            return node, state
        mover = state.player_to_move
        node.children = [Node(move, mover, node) for move in shuffled(state.legal_moves(), self.source)]
        child = node.children[0]
        return child, state.play(child.move)

    def backpropagate(self, node: Node, reward: float) -> None:
        """Add a visit and the reward to every node up to the root.

        ``reward`` is for the player who moved into ``node``; one level up the
        mover is the other player, so the reward flips to ``1 - reward``.
        """
        while node is not None:
            node.visits += 1
            node.wins += reward
            reward = 1.0 - reward
            node = node.parent

    def root_stats(self) -> list[ChildStats]:
        """Visits, mean and bonus of every root child of the last search, in tree order."""
        root = self.root
        if root is None:
            raise ValueError("no search has run yet: call search() or choose() first.")
        bonus = getattr(self.selection, "bonus", lambda child, parent: math.nan)
        return [ChildStats(c.move, c.visits, c.mean, bonus(c, root)) for c in root.children]


def robust_child(root: Node) -> Node:
    """The most visited child; the first in tree order among equals."""
    best = root.children[0]
    for child in root.children[1:]:
        if child.visits > best.visits:
            best = child
    return best


def format_tree(root: Node, depth: int = 1, top: int = 5, rule=None, indent: str = "") -> str:
    """The ``top`` most visited children of each node down to ``depth``, one per line."""
    lines = []
    for child in sorted(root.children, key=lambda n: -n.visits)[:top]:
        bonus = rule.bonus(child, root) if rule is not None and child.visits else math.nan
        lines.append(f"{indent}move {child.move!s:>3}: visits {child.visits:6d}, mean "
                     f"{child.mean:.3f}" + ("" if math.isnan(bonus) else f", bonus {bonus:.3f}"))
        if depth > 1 and child.children:
            lines.append(format_tree(child, depth - 1, top, rule, indent + "    "))
    return "\n".join(lines)


__all__ = ["ChildStats", "Node", "UCB1Rule", "UCTSearch", "format_tree", "robust_child",
           "shuffled"]
