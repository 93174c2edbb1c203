"""UCT: Monte Carlo Tree Search with UCB1 at every node (the UCT chapter).

This is the readable reference. It works for any game written with the
:class:`~mctslib.games.GameState` protocol, and with the xorshift generator
and tic-tac-toe it reproduces the published reference harness number for
number (:mod:`mctslib.experiments.uct.harness`). One iteration has four phases:

1. **selection**: from the root, while the node has children, descend into
   the child chosen by the selection rule (UCB1 by default);
2. **expansion**: if the game is not over and the node was visited before (or
   is the root), add all its children at once, in a shuffled order, and step
   into the first (``expansion="one"`` adds one child per visit instead, see
   :class:`UCTSearch`);
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

from .._checks import check_choice, check_int, check_real
from ..games.base import GameState, check_game_state
from ..learners.ucb1 import ucb1_bonus
from ..rng import move_source
from .flat import _playout
from .minimax import check_budget

#: The largest iteration budget per search. The tree keeps every node it adds,
#: so far larger budgets run out of memory or run for days instead of answering.
MAX_ITERATIONS = 10_000_000
#: The largest time budget per search, in seconds (a day).
MAX_SECONDS = 86_400.0
#: The expansion variants: all children at once, or one new child per visit.
EXPANSIONS = ("all", "one")


class Node:
    """One position in the tree, with the statistics of the move that led to it.

    ``wins`` is counted for ``mover``, the player who made ``move``; the
    root has no move and ``mover`` None. ``untried`` is used by
    ``expansion="one"`` only: the moves not yet made children, in the order
    they will be added (None until the node is first expanded, and always
    None with the default ``expansion="all"``).
    """

    __slots__ = ("children", "depth", "move", "mover", "parent", "untried", "visits", "wins")

    def __init__(self, move: Hashable | None, mover: int | None, parent: Node | None):
        self.move = move
        self.mover = mover
        self.parent = parent
        # Nodes are made at every expansion: a bad parent is named by the handler (free until
        # it fires), not by a check in front of every node.
        try:
            self.depth = 0 if parent is None else parent.depth + 1
        except (AttributeError, TypeError):
            raise ValueError(f"parent must be a Node or None, got {type(parent).__name__}.") from None
        self.children: list[Node] = []
        self.untried: list | None = None
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
        # No checks in front of the loop: this runs at every level of every iteration. A
        # node the rule cannot score fails inside, and the handlers (free in Python 3.11
        # until an exception is raised) turn that into a sentence.
        try:
            best, best_score = None, -math.inf
            log_parent = math.log(node.visits)
            for child in node.children:
                if child.visits == 0:
                    return child
                score = child.wins / child.visits + self.c * math.sqrt(log_parent / child.visits)
                if score > best_score:
                    best, best_score = child, score
        except (AttributeError, TypeError, ValueError):
            raise _unscorable(node) from None
        if best is None:
            raise _unscorable(node)
        return best

    def bonus(self, child: Node, parent: Node) -> float:
        """The exploration bonus alone (for printing trees); infinite for an unvisited child."""
        for name, node in (("child", child), ("parent", parent)):
            if not isinstance(node, Node):
                raise ValueError(f"{name} must be a Node of a search tree, got "
                                 f"{type(node).__name__}.")
        if child.visits and not parent.visits:
            raise ValueError(f"parent must have been visited to give a bonus, got a parent with "
                             f"0 visits and a child with {child.visits}.")
        return ucb1_bonus(parent.visits, child.visits, self.c)


def _unscorable(node) -> ValueError:
    if not isinstance(node, Node):
        return ValueError(f"node must be a Node of a search tree, got {type(node).__name__}.")
    return ValueError(f"the UCB1 rule needs a node with children and at least one visit, got "
                      f"{len(node.children)} children and {node.visits} visits.")


def shuffled(moves, source) -> list:
    """Fisher-Yates from the last index down to 1, swapping ``i`` with ``below(i + 1)``.

    ``source`` is anything :func:`mctslib.rng.move_source` accepts (an
    XorShift64, a GeneratorSource, a numpy Generator or a seed).
    """
    if isinstance(moves, (str, bytes)) or not hasattr(moves, "__iter__"):
        raise ValueError(f"moves must be a sequence of moves, got {type(moves).__name__}.")
    return _shuffled(moves, move_source(source))


def _shuffled(moves, source) -> list:
    """:func:`shuffled` without the checks: the search's expansion step."""
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
        Iterations per search, from 1 to :data:`MAX_ITERATIONS`. Give this or ``seconds``.
    seconds : float or None
        Wall-time budget per search (at most :data:`MAX_SECONDS`, a day); the
        clock is read every iteration, so the search stops within one
        iteration of the budget (not reproducible: the book uses iterations).
    seed : int, numpy Generator, XorShift64 or None
        Where the random numbers come from. An :class:`XorShift64` reproduces
        the published harness.
    selection : callable(node) -> child, optional
        The selection rule; :class:`UCB1Rule` with ``exploration`` by default.
    max_depth : int or None
        Deepest level whose nodes may be expanded below (root = 0). ``None``
        grows the tree without limit; ``1`` expands the root only, which turns
        UCT into *flat UCB*: one bandit over the root moves.
    expansion : {"all", "one"}
        ``"all"`` (the default, and the published harness) creates every
        child of a node at its expansion. ``"one"`` shuffles the legal moves
        the same way (same random draws) but creates one child per visit, in
        that order; selection descends below a node only once all its moves
        are children. With :class:`UCB1Rule`, which tries unvisited children
        first in tree order, both variants grow the same visits and wins node
        for node, and ``"one"`` creates only nodes it visits (the UCT chapter
        measures this); with a selection rule that does not try every child
        first, the two search differently.
    """

    def __init__(self, exploration: float = math.sqrt(2.0), iterations: int | None = 1000,
                 seconds: float | None = None, seed=None,
                 selection: Callable[[Node], Node] | None = None, max_depth: int | None = None,
                 expansion: str = "all"):
        self.iterations, self.seconds = check_budgets(iterations, seconds)
        if selection is not None and not callable(selection):
            raise ValueError(f"selection must be a function node -> child (such as UCB1Rule()) "
                             f"or None, got {type(selection).__name__}.")
        self.selection = selection or UCB1Rule(exploration)
        self.source = move_source(seed)
        self.max_depth = None if max_depth is None else check_int("max_depth", max_depth, 1)
        self.expansion = check_choice("expansion", expansion, EXPANSIONS)
        self.root: Node | None = None

    def search(self, state: GameState) -> Node:
        """Grow a fresh tree from ``state`` within the budget; return its root."""
        check_game_state(state)
        if state.is_terminal():
            raise ValueError("cannot search a finished game: there is no move to choose.")
        self.root = root = Node(None, None, None)
        return grow(self.iterate, root, state, self.iterations, self.seconds)

    def choose(self, state: GameState) -> Hashable:
        """Search ``state`` and answer the most visited root move (first on ties)."""
        return robust_child(self.search(state)).move

    def iterate(self, root: Node, state: GameState) -> None:
        """One iteration: selection, expansion, simulation, backpropagation."""
        node, state = self.select(root, state)
        node, state = self.expand(node, state, root)
        final = _playout(state, self.source)
        self.backpropagate(node, final.result(node.mover))

    def select(self, node: Node, state: GameState) -> tuple[Node, GameState]:
        """Descend by the selection rule while the node has children and no untried move.

        Only ``expansion="one"`` leaves untried moves: such a node stops the
        descent, and the expansion step adds its next child.
        """
        while node.children and not node.untried:
            child = self.selection(node)
            try:  # free until it fires: a rule of one's own that answers something else is named
                move = child.move
            except AttributeError:
                raise ValueError(f"the selection rule must return one of the node's children (a "
                                 f"Node), got {type(child).__name__}.") from None
            node = child
            state = state.play(move)
        return node, state

    def expand(self, node: Node, state: GameState, root: Node) -> tuple[Node, GameState]:
        """Add all children of a node visited before (or of the root) and step into the first.

        Children are shuffled (Fisher-Yates on the search's random source) so
        that the order of legal moves does not favour any move when visits tie.
        ``max_depth`` limits how deep the tree may grow (1 gives flat UCB).
        With ``expansion="one"`` the shuffled moves are kept in ``node.untried``
        and only the next one becomes a child at each visit.
        """
        if state.is_terminal() or not (node.visits > 0 or node is root):
            return node, state
        if self.max_depth is not None and node.depth >= self.max_depth:
            return node, state
        mover = state.player_to_move
        if self.expansion == "one":
            if node.untried is None:
                # Reversed, so that pop() from the end takes the moves in shuffled order.
                node.untried = _shuffled(state.legal_moves(), self.source)[::-1]
            child = Node(node.untried.pop(), mover, node)
            node.children.append(child)
            return child, state.play(child.move)
        node.children = [Node(move, mover, node)
                         for move in _shuffled(state.legal_moves(), self.source)]
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


def check_budgets(iterations, seconds) -> tuple[int | None, float | None]:
    """``(iterations, seconds)`` checked: exactly one given, the other None; else ValueError.

    ``iterations`` 1 to :data:`MAX_ITERATIONS`, ``seconds`` 0 to
    :data:`MAX_SECONDS`: the budget :func:`grow` spends. Shared by the readable
    searches (UCT, transpositions, PUCT).
    """
    if (iterations is None) == (seconds is None):
        raise ValueError("give exactly one budget: iterations or seconds.")
    return ((None if iterations is None
             else check_budget("iterations", iterations, 1, MAX_ITERATIONS)),
            None if seconds is None else check_real("seconds", seconds, 0.0, MAX_SECONDS))


def grow(iterate: Callable, root, state: GameState, iterations: int | None,
         seconds: float | None):
    """Call ``iterate(root, state)`` until the budget is spent; return ``root``.

    The budget is ``iterations`` iterations or ``seconds`` of wall time,
    whichever ends first (None: no limit of that kind; the searches check that
    one is given). The clock is read between iterations, so a timed search
    ends after the iteration that crosses its deadline. Shared by the
    readable searches built on UCT's loop (UCT, transpositions).
    """
    deadline = None if seconds is None else time.perf_counter() + seconds
    done = 0
    while True:
        iterate(root, state)
        done += 1
        if iterations is not None and done >= iterations:
            return root
        if deadline is not None and time.perf_counter() >= deadline:
            return root


def robust_child(root: Node) -> Node:
    """The most visited child; the first in tree order among equals.

    Raises ValueError if ``root`` has no children (no search has grown it).
    """
    if not isinstance(root, Node):
        raise ValueError(f"root must be a Node of a search tree, got {type(root).__name__}.")
    if not root.children:
        raise ValueError("root has no children: grow the tree first (search() or iterate()); "
                         "a node without children has no move to choose.")
    best = root.children[0]
    for child in root.children[1:]:
        if child.visits > best.visits:
            best = child
    return best


def format_tree(root: Node, depth: int = 1, top: int = 5, rule=None, indent: str = "") -> str:
    """The ``top`` most visited children of each node down to ``depth``, one per line.

    Each level is indented four spaces more than its parent. ``rule``, if
    given, needs a ``bonus(child, parent)`` method (as :class:`UCB1Rule`);
    an unvisited child's mean prints as ``nan``.
    """
    if not isinstance(root, Node):
        raise ValueError(f"root must be a Node of a search tree, got {type(root).__name__}.")
    depth = check_int("depth", depth, 1)
    top = check_int("top", top, 0)
    if rule is not None and not callable(getattr(rule, "bonus", None)):
        raise ValueError(f"rule must have a bonus(child, parent) method (such as UCB1Rule()) or "
                         f"be None, got {type(rule).__name__}.")
    if not isinstance(indent, str):
        raise ValueError(f"indent must be a string, got {type(indent).__name__}.")
    lines: list[str] = []
    # Depth first on an explicit stack (a deep tree would pass Python's recursion limit):
    # each frame is a node whose top children are still to print, at its depth and indent.
    stack = [(iter(_most_visited(root, top)), root, depth, indent)]
    while stack:
        children, parent, levels, pad = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            continue
        bonus = rule.bonus(child, parent) if rule is not None and child.visits else math.nan
        lines.append(f"{pad}move {child.move!s:>3}: visits {child.visits:6d}, mean "
                     f"{child.mean:.3f}" + ("" if math.isnan(bonus) else f", bonus {bonus:.3f}"))
        if levels > 1 and child.children:
            stack.append((iter(_most_visited(child, top)), child, levels - 1, pad + "    "))
    return "\n".join(lines)


def _most_visited(node: Node, top: int) -> list[Node]:
    return sorted(node.children, key=lambda n: -n.visits)[:top]


__all__ = ["ChildStats", "Node", "UCB1Rule", "UCTSearch", "format_tree", "robust_child",
           "shuffled"]
