"""K workers on one UCT tree with virtual loss, simulated in turns (chapter 7b).

The chapter "Parallel search" (7b) asks where more workers stop
paying. Real threads answer that only for as many cores as the machine has
and never twice the same way; this module is a *deterministic model* of tree
parallelism (Chaslot, Winands and van den Herik 2008, "Parallel Monte-Carlo
Tree Search"; Segal 2010, "On the scalability of parallel UCT", simulated
many-thread UCT the same way) that measures the *search overhead* alone: what
K workers that cannot see each other's unfinished playouts lose against one
worker at the same total number of iterations. It is the readable twin of
:mod:`mctslib.fast.uttt_virtual_loss` (same trees for the same xorshift seed on
Ultimate Tic-Tac-Toe; the tests compare them node by node).

The search runs in *rounds* of K iterations (the last round may be shorter,
so that exactly ``iterations`` run):

1. **descents, in worker order**: worker ``k`` selects from the root with
   UCB1 (:class:`~mctslib.search.uct.UCB1Rule`) and expands as
   :class:`~mctslib.search.uct.UCTSearch` does, seeing the *virtual loss* of
   workers ``1 .. k-1`` of this round, whose playouts have not finished: every
   node on an in-flight path counts ``virtual_loss`` extra visits per worker
   in flight through it, each worth ``virtual_reward`` to the node's mover.
   Only then is worker ``k``'s own virtual loss added on its path (so its own
   descent is the sequential one), and a node counts as visited for
   expansion by its finished visits only (a leaf another worker is still
   playing out from is not expanded);
2. **playouts and backups, in worker order**: each worker's playout runs, and
   its backup removes its virtual loss from every node of its path and adds
   the real visit and reward, as in UCT.

Random numbers are drawn from one stream in exactly that order (the shuffles
of the K expansions, then the K playouts), so ``workers=1`` *is* sequential
UCT: the same tree and the same draws as :class:`UCTSearch` with the same
seed (a test). ``virtual_loss=0`` gives K workers blind to each other: at a
node they all take the same child, the overhead without virtual loss.

Two schedules (``schedule``):

* ``"lockstep"`` (the default), the rounds above: worker ``j`` of a round
  misses the ``j - 1`` playouts of the workers before it, ``(K - 1) / 2`` on
  average. It is also exactly how a search collects a *batch* of K leaves
  for one call of a network (Silver et al. 2016 used virtual loss so);
* ``"staggered"``: the steady state of K equal-speed workers that have
  drifted apart, as real threads do. Iterations start one at a time, and the
  playout of iteration ``t`` finishes (and is backed up) just after the
  descent of iteration ``t + K - 1``: every descent after the first ``K - 1``
  sees exactly ``K - 1`` playouts in flight, the most a K-worker search can
  miss. The draws come in that order too (the shuffle of iteration ``t``'s
  expansion, then the playout of iteration ``t - K + 1``). With one worker it
  is sequential UCT as well.

Two kinds of virtual loss (``kind``), with rewards 1 / 0.5 / 0 for the mover:

* ``"loss"`` (``virtual_reward`` 0; the default): the extra visits are
  losses, as in Chaslot et al. and Segal. On rewards +1 / -1 this is "visits
  and losses" (N += v, W -= v, as AlphaGo's virtual loss);
* ``"draw"`` (``virtual_reward`` 0.5): the extra visits are draws. On rewards
  +1 / -1 this is "visits only" (N += v, W unchanged): the exploration term
  shrinks, and the mean is pulled towards a draw instead of a loss.

Not modelled: the mean-preserving count of Liu et al.'s WU-UCT (2020), locks,
and different playout lengths (workers finish in worker order, a model of
equal-speed workers). Rewards stay multiples of 0.5, so adding and removing
a virtual loss of 0.5 per visit is exact in floating point.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Hashable

from .._checks import check_choice, check_int, shown
from ..games.base import GameState, check_game_state
from .flat import _playout
from .minimax import check_budget
from .uct import MAX_ITERATIONS, Node, UCTSearch, robust_child

#: The most workers the model runs (the issue's figure goes to 64).
MAX_WORKERS = 1024
#: The largest virtual loss, in visits per in-flight worker.
MAX_VIRTUAL_LOSS = 1_000_000
#: The kinds of virtual loss and the reward, for the mover, of each extra visit.
KINDS = {"loss": 0.0, "draw": 0.5}
#: When the workers' playouts finish (see the module docstring).
SCHEDULES = ("lockstep", "staggered")


class _ZeroVisitFirst:
    """A selection rule that sends a worker to the first child of a node with no visits yet.

    Only the root can have children and no visits: in the first round without
    virtual loss, before any playout finished. UCB1 takes the first unvisited
    child there anyway, but :class:`UCB1Rule` takes ``ln(visits)`` first; the
    numba kernel answers the first child too.
    """

    def __init__(self, rule):
        self.rule = rule

    def __call__(self, node: Node) -> Node:
        if node.visits == 0 and node.children:
            return node.children[0]
        return self.rule(node)

    def bonus(self, child: Node, parent: Node) -> float:
        return getattr(self.rule, "bonus", lambda c, p: math.nan)(child, parent)


class ParallelUCTSearch(UCTSearch):
    """UCT with ``workers`` simulated workers sharing one tree (see the module docstring).

    Parameters
    ----------
    exploration : float
        UCB1's constant ``c`` (>= 0).
    iterations : int
        Iterations per search in all (1 to :data:`~mctslib.search.uct.MAX_ITERATIONS`).
    workers : int
        Workers per round, 1 to :data:`MAX_WORKERS`; 1 is sequential UCT.
    virtual_loss : int
        Extra visits per in-flight worker on each node of its path, 0 to
        :data:`MAX_VIRTUAL_LOSS`.
    kind : {"loss", "draw"}
        What each extra visit is worth to the node's mover (:data:`KINDS`).
    schedule : {"lockstep", "staggered"}
        Rounds of K descents then K playouts, or K - 1 playouts always in
        flight (:data:`SCHEDULES`, the module docstring).
    seed : int, numpy Generator, XorShift64 or None
        The one random stream (an XorShift64 gives the numba kernel's trees).
    selection, max_depth, expansion
        As :class:`UCTSearch`.
    playout : callable(state, source) -> final state, or None
        The simulation; None: uniformly random moves (UCT's). For UTTT's
        win-taking playouts pass
        ``lambda s, src: mctslib.search.uttt_playouts.policy_playout(s, src, "wins")``.
    """

    def __init__(self, exploration: float = math.sqrt(2.0), iterations: int = 1000,
                 workers: int = 1, virtual_loss: int = 1, kind: str = "loss", seed=None,
                 selection: Callable[[Node], Node] | None = None, max_depth: int | None = None,
                 expansion: str = "all", playout: Callable | None = None,
                 schedule: str = "lockstep"):
        iterations = check_budget("iterations", iterations, 1, MAX_ITERATIONS)
        super().__init__(exploration, iterations, None, seed, selection, max_depth, expansion)
        self.selection = _ZeroVisitFirst(self.selection)
        self.workers = check_int("workers", workers, 1, MAX_WORKERS)
        self.virtual_loss = check_int("virtual_loss (visits)", virtual_loss, 0, MAX_VIRTUAL_LOSS)
        self.kind = check_choice("kind (of virtual loss)", kind, tuple(KINDS))
        self.schedule = check_choice("schedule", schedule, SCHEDULES)
        if playout is not None and not callable(playout):
            raise ValueError(f"playout must be a function (state, source) -> final state or "
                             f"None, got {shown(playout)}.")
        self.playout = _playout if playout is None else playout
        self.in_flight: dict[Node, int] = {}

    def search(self, state: GameState) -> Node:
        """Grow a fresh tree from ``state`` in rounds of ``workers`` iterations; return its root."""
        check_game_state(state)
        if state.is_terminal():
            raise ValueError("cannot search a finished game: there is no move to choose.")
        self.root = root = Node(None, None, None)
        self.in_flight = {}
        if self.schedule == "staggered":
            self.staggered(root, state)
            return root
        left = self.iterations
        while left > 0:
            workers = min(self.workers, left)
            self.round(root, state, workers)
            left -= workers
        return root

    def choose(self, state: GameState) -> Hashable:
        """Search ``state`` and answer the most visited root move (first on ties)."""
        return robust_child(self.search(state)).move

    def round(self, root: Node, state: GameState, workers: int) -> None:
        """One round: ``workers`` descents in turn, then their playouts and backups in turn."""
        flights = [self.depart(root, state) for _ in range(workers)]
        for node, leaf in flights:
            self.finish(node, leaf)

    def staggered(self, root: Node, state: GameState) -> None:
        """All the iterations, each playout finishing after the next ``workers - 1`` descents."""
        flights = deque()
        for _ in range(self.iterations):
            flights.append(self.depart(root, state))
            if len(flights) == self.workers:
                self.finish(*flights.popleft())
        while flights:
            self.finish(*flights.popleft())

    def depart(self, root: Node, state: GameState) -> tuple[Node, GameState]:
        """A worker's descent and expansion; its virtual loss added on the path. Its leaf."""
        node, leaf = self.select(root, state)
        node, leaf = self.expand(node, leaf, root)
        self._add_virtual_loss(node)
        return node, leaf

    def finish(self, node: Node, leaf: GameState) -> None:
        """A worker's playout from ``leaf`` and its backup from ``node``."""
        final = self.playout(leaf, self.source)
        self.land(node, final.result(node.mover))

    def finished_visits(self, node: Node) -> int:
        """``node``'s visits without the virtual ones: the playouts that came back through it."""
        return node.visits - self.virtual_loss * self.in_flight.get(node, 0)

    def expand(self, node: Node, state: GameState, root: Node) -> tuple[Node, GameState]:
        """UCT's expansion, on finished visits: a leaf still being played out is not grown."""
        if node is not root and self.finished_visits(node) == 0:
            return node, state
        return super().expand(node, state, root)

    def _add_virtual_loss(self, node: Node) -> None:
        extra, worth = self.virtual_loss, KINDS[self.kind] * self.virtual_loss
        while node is not None:
            node.visits += extra
            node.wins += worth
            self.in_flight[node] = self.in_flight.get(node, 0) + 1
            node = node.parent

    def land(self, node: Node, reward: float) -> None:
        """A worker's backup: remove its virtual loss on the path, then add the visit and reward.

        ``reward`` is for the player who moved into ``node`` and flips at each
        level, as in :meth:`UCTSearch.backpropagate`. The wins are updated as
        ``(wins - virtual) + reward`` in that order, as the kernel does.
        """
        extra, worth = self.virtual_loss, KINDS[self.kind] * self.virtual_loss
        while node is not None:
            node.visits -= extra
            node.wins -= worth
            self.in_flight[node] -= 1
            node.visits += 1
            node.wins += reward
            reward = 1.0 - reward
            node = node.parent


__all__ = ["KINDS", "MAX_VIRTUAL_LOSS", "MAX_WORKERS", "SCHEDULES", "ParallelUCTSearch"]
