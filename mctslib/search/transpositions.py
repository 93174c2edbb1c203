"""UCT on a graph: a transposition table keyed by the position (chapter "Enhancements that matter").

In many games one position is reached by several move orders: in Connect Four
"column 0, column 6, column 1" and "column 1, column 6, column 0" give the same
board. A plain UCT tree stores that position twice and learns about it twice.
A **transposition table**, a dict from position to node (positions are
hashable by the game protocol), lets every path share one node: the tree
becomes a directed acyclic graph (DAG). Sharing raises two questions that
Childs, Brodeur and Kocsis (2008) answer with three update rules, and that
Saffidine, Cazenave and Mehat (2012, UCD) generalise.

**What is stored.** Every node keeps the statistics of its *position*:
``visits`` n(s), all simulations that passed through it by any path, and
``wins``, their total reward for the player who moved into it. Every edge
(parent, move) keeps its own ``visits`` n(s, a) and ``wins``: the simulations
that took *this* move from *this* parent. A node's visits are its own
playouts (the simulations that started there) plus the visits of its outgoing
edges, ``n(s) = own(s) + sum_a n(s, a)``, which the tests check.

**The three rules** (Childs et al. 2008; the score of move ``a`` at node ``s``,
``g(s, a)`` the node the move leads to, ``c`` the exploration constant):

* ``"uct1"``: ``Q(s, a) + c sqrt(ln n(s) / n(s, a))`` with ``Q(s, a)`` the
  edge's own mean. Node visits n(s) are shared by all paths; move values are
  not: what was learnt about a position through another parent does not reach
  this parent's choice.
* ``"uct2"``: ``Q(g(s, a)) + c sqrt(ln n(s) / n(s, a))``: the value is the
  *child position's* mean over all its visits, whichever path brought them,
  so every parent profits from what any path learnt; the exploration term
  still counts this edge's visits.
* ``"uct3"``: ``Q3(g(s, a)) + c sqrt(ln n(s) / n(s, a))`` with a value backed
  up from the children instead of averaged over simulations:
  ``Q3(s) = (own_wins(s) + sum_a n(s, a) (1 - Q3(g(s, a)))) / n(s)``, the
  edge-visit-weighted average of the children's values (``1 - Q3`` because a
  child's value is for the other player) plus the position's own playouts;
  a node without children has ``Q3 = own_wins / own``. Q3 is recomputed for the
  nodes on the path of each simulation, leaf first; a node off the path keeps
  its value until a simulation passes through it again. In a tree (no
  transpositions) ``Q3`` equals the plain mean.

Unvisited edges are tried first in every rule, as in
:class:`~mctslib.search.uct.UCTSearch`, even when the position they lead to
is already well visited: the parent has not tried that move yet.

**Backpropagation follows the path actually taken**, as in the paper: the
edges and nodes the simulation passed through gain one visit each, nothing
else. Updating *all* parents of a shared node instead (as if every path had
been played) counts one simulation several times: the parents' counts grow
faster than the simulations that went through them, and a parent's count no
longer equals the sum of its moves' counts. :func:`double_counting_example`
prints the numbers on a hand-built example.

``update="naive"`` is the *wrong* rule, kept so the chapter can show it: no
edge statistics, the score reads the child node alone,
``Q(g(s, a)) + c sqrt(ln n(s) / n(g(s, a)))``. The child's visits include
simulations that came from other parents, so the sum of the children's visits
exceeds the parent's, and the exploration term of a transposed move shrinks
for visits this parent never gave it.

With no transposition in the game (each position reached by one path
only), ``"uct1"``, ``"uct2"`` and ``"naive"`` grow the same visits and wins
as :class:`~mctslib.search.uct.UCTSearch` node for node for the same seed
(the same random draws in the same order); ``"uct3"`` too up to rounding of
its backed-up means.

The fast twins, which build the same graphs for the same xorshift seed (the
tests compare them edge by edge), are :mod:`mctslib.fast.dag_uct` (Connect
Four) and :mod:`mctslib.fast.uttt_dag` (UTTT, Zobrist hashing); the chapter's
matches and memory measurements run on them
(:mod:`mctslib.experiments.enhancements.transpositions`).

The game must not repeat positions (no cycles): in all the book's games a move
adds a piece or removes stones, so a position cannot come back.

Sources: Childs, Brodeur and Kocsis (2008), "Transpositions and Move Groups in
Monte Carlo Tree Search", IEEE CIG (the rules UCT1, UCT2, UCT3); Saffidine,
Cazenave and Mehat (2012), "UCD: Upper Confidence bound for rooted Directed
acyclic graphs", Knowledge-Based Systems 34 (a framework that generalises them:
which mean and which counts, how far up the graph, enter a move's score). The
three formulas were written from the paper's description as later work
summarises it and checked against an independent public implementation; they
were not checked against the paper's own text. Where that implementation
refreshes UCT3's value of every ancestor of an updated node, this module
refreshes the path only (the choice stated above). So the names ``"uct1"``,
``"uct2"`` and ``"uct3"`` are this library's labels for the three rules described
here, not a claim about which of the paper's rules they match; the chapter names
the rules by what they do (the edge's mean, the child position's mean, a mean
backed up from the children).
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass

from .._checks import check_choice, check_int, check_real
from ..games.base import GameState, check_game_state
from ..games.subtraction import SubtractionGame
from ..rng import move_source
from .flat import _playout
from .uct import ChildStats, _shuffled, check_budgets, grow

#: The update rules of Childs, Brodeur and Kocsis (2008), and the wrong one the chapter shows.
UPDATES = ("uct1", "uct2", "uct3", "naive")


class Edge:
    """A move from one node, with its own statistics: n(s, a) and the reward of its mover."""

    __slots__ = ("child", "move", "visits", "wins")

    def __init__(self, move: Hashable, child: DagNode):
        self.move = move
        self.child = child
        self.visits = 0
        self.wins = 0.0

    @property
    def mean(self) -> float:
        """Average reward of the simulations that took this move from this parent."""
        return self.wins / self.visits if self.visits else math.nan


class DagNode:
    """One position of the graph, shared by every path that reaches it.

    ``visits`` and ``wins`` count every simulation through the position (by
    any path), for ``mover``, the player who moved into it. ``own_visits`` and
    ``own_wins`` count the simulations whose playout started here; ``value3``
    is UCT3's backed-up value. ``edges`` are the moves out, in shuffled order.
    """

    __slots__ = ("edges", "mover", "own_visits", "own_wins", "value3", "visits", "wins")

    def __init__(self, mover: int | None):
        self.mover = mover
        self.edges: list[Edge] = []
        self.visits = 0
        self.wins = 0.0
        self.own_visits = 0
        self.own_wins = 0.0
        self.value3 = math.nan

    @property
    def mean(self) -> float:
        """Average reward over all visits, for the player who moved into the position."""
        return self.wins / self.visits if self.visits else math.nan


@dataclass(frozen=True)
class DagMemory:
    """Nodes of the graph against the nodes a tree needs for the same statistics.

    ``tree_nodes`` is ``edges + 1``: in a tree every edge owns its child, so a
    tree holding the same edge statistics needs one node per edge plus the
    root; ``dag_nodes`` is the number of distinct positions. ``shared`` is the
    number of nodes the table saved.
    """

    dag_nodes: int
    edges: int
    tree_nodes: int

    @property
    def shared(self) -> int:
        return self.tree_nodes - self.dag_nodes


class TranspositionSearch:
    """UCT with a transposition table: positions reached by several move orders share one node.

    Parameters
    ----------
    exploration, iterations, seconds, seed
        As :class:`~mctslib.search.uct.UCTSearch` (the budget, ``c``, the random source).
    update : {"uct1", "uct2", "uct3", "naive"}
        The update rule of Childs, Brodeur and Kocsis (2008), see the module
        docstring; ``"uct2"`` by default. ``"naive"`` is the double-counting
        rule the chapter shows, not one to play with.

    Expansion creates all children at once (as ``UCTSearch``'s default), linking a
    move whose position is already in the table to the existing node. ``table``
    holds the last search's graph: position -> :class:`DagNode`.
    """

    def __init__(self, exploration: float = math.sqrt(2.0), iterations: int | None = 1000,
                 seconds: float | None = None, seed=None, update: str = "uct2"):
        # The same checks, in the same order, as UCTSearch's.
        self.iterations, self.seconds = check_budgets(iterations, seconds)
        self.c = check_real("exploration (the constant c)", exploration, 0.0)
        self.source = move_source(seed)
        self.update = check_choice("update", update, UPDATES)
        self.table: dict[GameState, DagNode] = {}
        self.root: DagNode | None = None

    def search(self, state: GameState) -> DagNode:
        """Grow a fresh graph from ``state`` within the budget; return its root."""
        check_game_state(state)
        if state.is_terminal():
            raise ValueError("cannot search a finished game: there is no move to choose.")
        self.table = {}
        self.root = root = self._node_for(state, None)
        return grow(self.iterate, root, state, self.iterations, self.seconds)

    def choose(self, state: GameState) -> Hashable:
        """Search ``state`` and answer the root move with the most edge visits (first on ties)."""
        return _most_visited_edge(self.search(state)).move

    def iterate(self, root: DagNode, state: GameState) -> None:
        """One iteration: selection, expansion, simulation, backpropagation along the path."""
        path, edges = [root], []
        node = root
        while node.edges:  # selection
            edge = self._select(node)
            edges.append(edge)
            node = edge.child
            state = state.play(edge.move)
            path.append(node)
        if not state.is_terminal() and (node.visits > 0 or node is root):  # expansion
            mover = state.player_to_move
            moves = _shuffled(state.legal_moves(), self.source)
            first_state = None
            for move in moves:
                after = state.play(move)
                if first_state is None:
                    first_state = after
                node.edges.append(Edge(move, self._node_for(after, mover)))
            edges.append(node.edges[0])
            path.append(node.edges[0].child)
            state = first_state
        final = _playout(state, self.source)  # simulation
        self.backpropagate_path(path, edges, final.result(path[-1].mover))

    def _node_for(self, state: GameState, mover: int | None) -> DagNode:
        """The table's node for ``state``, made if new: the one place transpositions are found."""
        node = self.table.get(state)
        if node is None:
            node = self.table[state] = DagNode(mover)
        elif node.mover != mover:
            raise ValueError(f"the position {state} was reached after moves by different players "
                             f"({node.mover} and {mover}): a transposition table keyed by the "
                             f"position needs the player who moved into it to be fixed.")
        return node

    def _select(self, node: DagNode) -> Edge:
        """The first unvisited edge, else the first strictly highest score of the update rule."""
        best, best_score = None, -math.inf
        log_parent = math.log(node.visits)
        update, c = self.update, self.c
        for edge in node.edges:
            child = edge.child
            if update == "naive":
                if child.visits == 0:
                    return edge
                score = child.wins / child.visits + c * math.sqrt(log_parent / child.visits)
            else:
                if edge.visits == 0:
                    return edge
                value = (edge.wins / edge.visits if update == "uct1"
                         else child.wins / child.visits if update == "uct2" else child.value3)
                score = value + c * math.sqrt(log_parent / edge.visits)
            if score > best_score:
                best, best_score = edge, score
        return best

    def backpropagate_path(self, path: list[DagNode], edges: list[Edge], reward: float) -> None:
        """Add one visit and the reward to the nodes and edges of this path only, leaf first.

        ``path[i + 1]`` is ``edges[i].child``; ``reward`` is for the player who
        moved into the leaf ``path[-1]``, and flips one level up. The leaf also
        counts the playout as its own; with ``update="uct3"`` each node's
        backed-up value is recomputed once its statistics are up to date.
        """
        leaf = path[-1]
        leaf.own_visits += 1
        leaf.own_wins += reward
        for depth in range(len(path) - 1, -1, -1):
            node = path[depth]
            node.visits += 1
            node.wins += reward
            if depth > 0:
                edge = edges[depth - 1]
                edge.visits += 1
                edge.wins += reward
            if self.update == "uct3":
                node.value3 = _backed_up_value(node)
            reward = 1.0 - reward

    def memory(self) -> DagMemory:
        """Nodes in the last search's graph against the nodes a tree needs for the same edges."""
        if self.root is None:
            raise ValueError("no search has run yet: call search() or choose() first.")
        edges = sum(len(node.edges) for node in self.table.values())
        return DagMemory(dag_nodes=len(self.table), edges=edges, tree_nodes=edges + 1)

    def root_stats(self) -> list[ChildStats]:
        """Edge visits, the rule's value and the bonus of every root move, in graph order."""
        root = self.root
        if root is None:
            raise ValueError("no search has run yet: call search() or choose() first.")
        rows = []
        for edge in root.edges:
            visits = edge.child.visits if self.update == "naive" else edge.visits
            value = (edge.mean if self.update == "uct1" else
                     edge.child.value3 if self.update == "uct3" else edge.child.mean)
            bonus = (math.inf if not visits
                     else self.c * math.sqrt(math.log(root.visits) / visits))
            rows.append(ChildStats(edge.move, visits, value, bonus))
        return rows


def _backed_up_value(node: DagNode) -> float:
    """UCT3's ``Q3(s) = (own_wins + sum_a n(s, a) (1 - Q3(g(s, a)))) / n(s)``."""
    total = node.own_wins
    for edge in node.edges:
        if edge.visits:
            total += edge.visits * (1.0 - edge.child.value3)
    return total / node.visits


def _most_visited_edge(root: DagNode) -> Edge:
    if not root.edges:
        raise ValueError("root has no moves: grow the graph first (search()).")
    best = root.edges[0]
    for edge in root.edges[1:]:
        if edge.visits > best.visits:
            best = edge
    return best


@dataclass(frozen=True)
class DoubleCountingExample:
    """The numbers of :func:`double_counting_example` (a parent A, a shared child X).

    ``simulations`` went from the root R through A or B to X (``via_a`` through
    A). With node statistics only ("naive"), A sees its child X with
    ``naive_child_visits`` visits although A itself has ``parent_visits``:
    more visits below A than through A. With edge statistics (Childs et al.)
    the edge A -> X has ``edge_visits`` = the simulations that really went
    through A. Updating *all* parents of X at every simulation ("update all")
    gives A ``update_all_a`` visits and B ``update_all_b``, so R's two moves
    sum to ``update_all_root_moves`` while R had ``simulations``.
    """

    simulations: int
    via_a: int
    parent_visits: int
    naive_child_visits: int
    edge_visits: int
    naive_bonus: float
    edge_bonus: float
    update_all_a: int
    update_all_b: int
    update_all_root_moves: int

    def format(self) -> str:
        """The example as a small table a reader can check by hand (the chapter prints it)."""
        via_b = self.simulations - self.via_a
        edge = (f"{'edge statistics (uct1-uct3)':<32}{self.parent_visits:>6}"
                f"{self.edge_visits:>15}{self.edge_bonus:>15.3f}")
        naive = (f"{'naive (the child node X)':<32}{self.parent_visits:>6}"
                 f"{self.naive_child_visits:>15}{self.naive_bonus:>15.3f}")
        update_all = (f"update all parents of X: n(A) = {self.update_all_a}, n(B) = "
                      f"{self.update_all_b}, R's moves sum to {self.update_all_root_moves} for "
                      f"{self.simulations} simulations")
        return "\n".join([
            f"{self.simulations} simulations from R: {self.via_a} by R-A-X, {via_b} by R-B-X",
            f"{'rule':<32}{'n(A)':>6}{'count of A->X':>15}{'bonus of A->X':>15}",
            edge, naive, update_all])


def double_counting_example(via_a: int = 3, via_b: int = 2,
                            exploration: float = math.sqrt(2.0)) -> DoubleCountingExample:
    """Count a transposition by hand: the subtraction game from 6 stones, X = 3 stones.

    R (6 stones, player 0 to move) -> take 1 -> A (5) -> take 2 -> X (3, player 0
    to move again) and R -> take 2 -> B (4) -> take 1 -> X. ``via_a``
    simulations go R-A-X and ``via_b`` go R-B-X, each backed up along its own
    path by :meth:`TranspositionSearch.backpropagate_path`; the bonus is
    ``c sqrt(ln n(A) / n)`` of the move A -> X with the naive count and with
    the edge's. Chapter "Enhancements that matter".
    """
    via_a = check_int("via_a", via_a, 1, 1000)
    via_b = check_int("via_b", via_b, 1, 1000)
    search = TranspositionSearch(exploration, iterations=1, seed=0, update="uct2")
    start = SubtractionGame(6)
    search.table = {}
    root = search._node_for(start, None)
    paths = {}
    for name, moves in (("A", (1, 2)), ("B", (2, 1))):
        state, node, path, edges = start, root, [root], []
        for move in moves:
            edge = next((e for e in node.edges if e.move == move), None)
            if edge is None:
                edge = Edge(move, search._node_for(state.play(move), state.player_to_move))
                node.edges.append(edge)
            state, node = state.play(move), edge.child
            path.append(node)
            edges.append(edge)
        paths[name] = (path, edges)
    for name, count in (("A", via_a), ("B", via_b)):
        for _ in range(count):
            search.backpropagate_path(*paths[name], 1.0)  # the reward does not matter here
    (_, a, x), (_, a_to_x) = paths["A"]
    # "Update all": every simulation through X also updates every other path into X,
    # so each ancestor of X gains a visit whichever path the simulation took.
    parents: dict[int, list[DagNode]] = {}
    for node in search.table.values():
        for edge in node.edges:
            parents.setdefault(id(edge.child), []).append(node)
    update_all = {id(node): 0 for node in search.table.values()}
    for _ in range(via_a + via_b):
        seen, stack = set(), [x]
        while stack:
            node = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            update_all[id(node)] += 1
            stack.extend(parents.get(id(node), []))
    b = paths["B"][0][1]
    c = search.c
    return DoubleCountingExample(
        simulations=root.visits, via_a=via_a, parent_visits=a.visits,
        naive_child_visits=x.visits, edge_visits=a_to_x.visits,
        naive_bonus=c * math.sqrt(math.log(a.visits) / x.visits),
        edge_bonus=c * math.sqrt(math.log(a.visits) / a_to_x.visits),
        update_all_a=update_all[id(a)], update_all_b=update_all[id(b)],
        update_all_root_moves=update_all[id(a)] + update_all[id(b)])


__all__ = ["UPDATES", "DagMemory", "DagNode", "DoubleCountingExample", "Edge",
           "TranspositionSearch", "double_counting_example"]
