"""A parallel UCT player for Ultimate Tic-Tac-Toe: root, tree or leaf parallelism on threads.

Chapter 7b, "Parallel search". :class:`ParallelSpec`
is a frozen description of a player, called like a factory
``spec(seed=generator)`` by :func:`mctslib.play.arena.play_match` to build a
fresh :class:`ParallelBot` for each game (as :class:`mctslib.bots.uttt.BotSpec`
and :class:`mctslib.bots.transpositions.DagSpec`). The searches are the
kernels of :mod:`mctslib.fast.uttt_parallel` (Chaslot, Winands and van den
Herik 2008; Enzenberger and Mueller 2010):

* ``mode="root"``: K independent trees, one per thread; the answer is the
  move with the most visits summed over the trees (ties: the first in worker
  0's tree order). Deterministic with ``iterations`` (each worker runs that
  many); ``workers=1`` is :class:`mctslib.bots.uttt.UTTTBot`'s search with
  the same seed and options (``c``, ``wins``, every other option off).
* ``mode="tree"``: one shared tree, K threads running lock-free on it, each
  with ``iterations`` iterations (or until the clock), ``virtual_loss`` visits
  added on the way down. Not deterministic with K > 1 (the threads race);
  K = 1 is the sequential search. Worker 0 runs the first iteration alone
  (it expands the root), then all K start.
* ``mode="leaf"``: one tree, ``iterations`` iterations with K playouts from
  each new leaf (numba ``prange``); deterministic; K = 1 is sequential.

Worker 0 always runs in the calling thread; workers 1 .. K-1 run on the bot's
:class:`~concurrent.futures.ThreadPoolExecutor`, created with the bot and kept
for its whole life, so no thread is started during a move (handing a task to
a live thread and waiting for it took about 50 microseconds here, starting and
joining a new one about 180: ``benchmarks/parallel_speed.py`` measures both;
either is small against a 100 ms move, but the live thread is the cheaper). Kernels release the
interpreter lock, so the threads run on separate cores at once.

Budgets: ``iterations`` per move and per worker (reproducible for root and
leaf), or ``ms`` milliseconds per move on the clock: each thread runs chunks of
about a millisecond and reads the clock between them (there is no clock
inside compiled code). With neither, 100 ms. Memory: ``capacity`` nodes per
tree (root mode: per worker), checked against the memory available.

Leaf mode's ``prange`` runs on numba's OpenMP threads (the threading layer
here), which are safe to call from several threads but do not survive a
``fork``. Leaf-mode matches still take any ``jobs``: once those threads have
run, :func:`mctslib.play.cluster.process_pool` starts worker processes with
``forkserver`` instead of a fork.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from .._checks import check_bool, check_choice, check_int, check_real
from ..fast import uttt as engine
from ..fast import uttt_parallel as fast
from ..fast.uttt_uct import NodePool
from ..fast.xorshift import new_rng
from ..games.uttt import UltimateTicTacToe
from ..rng import make_rng
from .uttt import MAX_ITERATIONS, MIN_CAPACITY, check_pool_memory

#: The three schemes of Chaslot et al. (2008).
MODES = ("root", "tree", "leaf")
#: The most workers (threads, or playouts per leaf in leaf mode).
MAX_WORKERS = 64
#: The largest virtual loss, in visits: more than a search's iterations would only freeze it.
MAX_VIRTUAL_LOSS = 1_000_000
#: The most milliseconds per move (a minute).
MAX_MS = 60_000.0
#: The time budget when neither ``iterations`` nor ``ms`` is given.
DEFAULT_MS = 100.0
#: The largest tree, in nodes (29 bytes each; the kernels' indices are 32-bit).
MAX_CAPACITY = 500_000_000
#: Nodes per tree for a time budget when ``capacity`` is not given (root mode: shared
#: out over the K trees, which together run about as many iterations as one tree).
TIMED_CAPACITY = 4_000_000
#: Nodes per iteration a default pool allows for an iteration budget: UTTT adds 2.3 nodes
#: per iteration on average (chapter 6's memory experiment) and at most 81.
NODES_PER_ITERATION = 16


@dataclass(frozen=True)
class ParallelSpec:
    """A parallel UCT player; call it with ``seed=...`` for a fresh :class:`ParallelBot`.

    Attributes
    ----------
    mode : {"root", "tree", "leaf"}
    workers : int
        K: threads (root, tree) or playouts per leaf (leaf), 1 to :data:`MAX_WORKERS`.
    virtual_loss : int or None
        Tree mode: visits with reward 0 added to each node a thread passes, 0
        to :data:`MAX_VIRTUAL_LOSS` (None: 1). Root and leaf modes have none
        (None or 0).
    iterations : int or None
        Iterations per move and per worker (leaf: tree iterations), 1 to
        :data:`mctslib.bots.uttt.MAX_ITERATIONS`; None for a time budget.
    ms : float or None
        Milliseconds per move, above 0 and at most :data:`MAX_MS`; not with
        ``iterations``; with neither, :data:`DEFAULT_MS`.
    c : float
        UCB1's exploration constant, 0 to 100.
    wins : bool
        Win-taking playouts and the tree's one-move win check (``wins=on``).
    solver : bool
        Must be False: the parallel kernels prove nothing (MCTS-Solver's
        proofs would be one more thing the threads race on).
    capacity : int or None
        Nodes per tree (root: per worker), :data:`mctslib.bots.uttt.MIN_CAPACITY`
        to :data:`MAX_CAPACITY`; None: enough for the budget
        (:data:`NODES_PER_ITERATION` per iteration, or :data:`TIMED_CAPACITY`).
    """

    mode: str = "tree"
    workers: int = 2
    virtual_loss: int | None = None
    iterations: int | None = None
    ms: float | None = None
    c: float = math.sqrt(2.0)
    wins: bool = False
    solver: bool = False
    capacity: int | None = None

    def __post_init__(self):
        set_ = lambda name, value: object.__setattr__(self, name, value)
        set_("mode", check_choice("mode", self.mode, MODES))
        set_("workers", check_int("workers (threads, or playouts per leaf)", self.workers, 1,
                                  MAX_WORKERS))
        if self.virtual_loss is None:
            set_("virtual_loss", 1 if self.mode == "tree" else 0)
        vl = check_int("virtual_loss (visits)", self.virtual_loss, 0, MAX_VIRTUAL_LOSS)
        if vl and self.mode != "tree":
            raise ValueError(f"virtual_loss applies to mode 'tree' (one shared tree), not to "
                             f"mode {self.mode!r}; got virtual_loss={vl}: give 0 or leave it "
                             f"out.")
        set_("virtual_loss", vl)
        if self.iterations is not None and self.ms is not None:
            raise ValueError(f"give one budget: iterations (per move and worker) or ms "
                             f"(milliseconds per move), not both; got iterations="
                             f"{self.iterations!r}, ms={self.ms!r}.")
        if self.iterations is not None:
            set_("iterations", check_int("iterations (per move and worker)", self.iterations,
                                         1, MAX_ITERATIONS))
        else:
            ms = DEFAULT_MS if self.ms is None else check_real(
                "ms (milliseconds per move)", self.ms, 0.0, MAX_MS)
            if ms == 0.0:
                raise ValueError(f"ms (milliseconds per move) must be above 0 and at most "
                                 f"{MAX_MS:g}, got 0.")
            set_("ms", ms)
        set_("c", check_real("c (the exploration constant)", self.c, 0.0, 100.0))
        set_("wins", check_bool("wins", self.wins))
        if check_bool("solver", self.solver):
            raise ValueError("solver must be False (off): the parallel searches prove "
                             "nothing; use mctslib.bots.uttt.UTTTBot for MCTS-Solver.")
        if self.capacity is not None:
            set_("capacity", check_int("capacity (nodes per tree)", self.capacity,
                                       MIN_CAPACITY, MAX_CAPACITY))

    @property
    def nodes(self) -> int:
        """Nodes per tree (root mode: per worker's tree; tree mode: the shared one)."""
        if self.capacity is not None:
            return self.capacity
        if self.iterations is None:
            share = TIMED_CAPACITY // self.workers if self.mode == "root" else TIMED_CAPACITY
            return max(MIN_CAPACITY, share)
        per_tree = self.iterations * (self.workers if self.mode == "tree" else 1)
        return min(MAX_CAPACITY, NODES_PER_ITERATION * per_tree + MIN_CAPACITY)

    @property
    def pools(self) -> int:
        """How many trees the player keeps (K in root mode, else 1)."""
        return self.workers if self.mode == "root" else 1

    def __call__(self, seed=None) -> ParallelBot:
        """A fresh player whose K streams are drawn from ``seed`` (what the arena calls)."""
        return ParallelBot(self, seed)

    def describe(self) -> str:
        """One line: mode, workers, virtual loss, c, wins and budget."""
        budget = (f"{self.iterations} iterations" if self.iterations is not None
                  else f"{self.ms:g} ms")
        vl = f", virtual loss {self.virtual_loss}" if self.mode == "tree" else ""
        wins = ", wins on" if self.wins else ""
        return (f"UTTT UCT, {self.mode} parallel, {self.workers} worker"
                f"{'s' if self.workers > 1 else ''}{vl}, c = {self.c:g}{wins}, {budget} a move")


@dataclass(frozen=True)
class ParallelInfo:
    """What the last :meth:`ParallelBot.choose` did.

    ``iterations`` is the sum over workers (leaf: tree iterations, each with
    K playouts), ``per_worker`` each worker's count, ``root_visits`` the
    visits summed over the root(s); ``drift`` is tree mode's ``iterations -
    root visits`` (updates lost to races; 0 otherwise) and ``negative`` its
    nodes left with a negative visit count.
    """

    move: int
    iterations: int
    per_worker: tuple[int, ...]
    seconds: float
    nodes: int
    root_visits: int
    drift: int
    negative: int


class ParallelBot:
    """A player built by :class:`ParallelSpec`: ``choose(state)`` searches on K threads.

    Parameters
    ----------
    spec : ParallelSpec
    seed : int, SeedSequence, Generator or None
        Goes through :func:`mctslib.rng.make_rng`; worker ``k`` seeds its
        xorshift64 with the ``k``-th draw of ``integers(2**63)``, so worker 0
        gets :class:`mctslib.bots.uttt.UTTTBot`'s stream for the same seed.
    """

    def __init__(self, spec: ParallelSpec, seed=None):
        if not isinstance(spec, ParallelSpec):
            raise ValueError(f"spec must be a ParallelSpec, got {type(spec).__name__}.")
        self.spec = spec
        check_pool_memory(spec.nodes, spec.pools)
        generator = make_rng(seed)
        states = [int(new_rng(int(generator.integers(2**63)))[0]) for _ in range(spec.workers)]
        k = spec.workers
        if spec.mode == "root":
            self.workers = [fast.Worker(state) for state in states]
            self.pools = [NodePool(spec.nodes) for _ in range(k)]
        elif spec.mode == "tree":
            self.workers = [fast.Worker(state) for state in states]
            self.tree = fast.SharedTree(spec.nodes, k)
        else:
            self.worker = fast.Worker(0)
            self.pool = NodePool(spec.nodes)
            self.rngs = fast.new_rngs(states)
            self.leaves = np.zeros((k, engine.STATE_SIZE), dtype=np.int64)
            self.bufs = np.zeros((k, 81), dtype=np.int64)
            self.rewards = np.zeros(k, dtype=np.float64)
        threads = k - 1 if spec.mode != "leaf" else 0
        self._executor = (ThreadPoolExecutor(threads, thread_name_prefix="uct-worker")
                          if threads else None)
        self.last: ParallelInfo | None = None
        warm_up(spec.mode)

    def close(self) -> None:
        """Let the worker threads end (also done when the bot is garbage collected)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None

    def choose(self, state: UltimateTicTacToe) -> int:
        """Search ``state`` within the budget and answer a move (``9 * row + col``)."""
        start = time.perf_counter()
        if not isinstance(state, UltimateTicTacToe):
            raise ValueError(f"state must be an UltimateTicTacToe position, got "
                             f"{type(state).__name__}.")
        if state.is_terminal():
            raise ValueError("cannot search a finished game: there is no move to choose.")
        if self.spec.mode != "leaf" and self._executor is None and self.spec.workers > 1:
            raise ValueError("this bot was closed: build a new one from its spec.")
        s, scoring = engine.to_array(state), engine.scoring_code(state.scoring)
        deadline = None if self.spec.ms is None else start + self.spec.ms / 1000.0
        run = {"root": self._root, "tree": self._tree, "leaf": self._leaf}[self.spec.mode]
        move, per_worker, nodes, visits, drift, negative = run(s, scoring, deadline)
        self.last = ParallelInfo(move, sum(per_worker), tuple(per_worker),
                                 time.perf_counter() - start, nodes, visits, drift, negative)
        return move

    # --- the three modes ---------------------------------------------------------

    def _in_parallel(self, jobs) -> list[int]:
        """Run ``jobs[0]`` here and the others on the pool's threads; their results in order."""
        futures = [self._executor.submit(job) for job in jobs[1:]]
        first = jobs[0]()
        return [first] + [future.result() for future in futures]

    def _root(self, s, scoring, deadline):
        spec = self.spec

        def job(k):
            pool, worker = self.pools[k], self.workers[k]
            pool.reset()
            run = lambda n: fast.root_worker_search(s, n, spec.c, spec.wins, scoring,
                                                    pool, worker)
            return _budget(run, spec.iterations, deadline)

        per_worker = self._in_parallel([lambda k=k: job(k) for k in range(spec.workers)])
        totals: dict[int, int] = {}
        for pool in self.pools:  # visits per move, summed in worker 0's tree order first
            for child in pool.children(0):
                totals[int(pool.move[child])] = (totals.get(int(pool.move[child]), 0)
                                                 + int(pool.visits[child]))
        move = max(totals, key=lambda m: totals[m])  # max keeps the first of equals
        return (move, per_worker, sum(pool.count for pool in self.pools),
                sum(int(pool.visits[0]) for pool in self.pools), 0, 0)

    def _tree(self, s, scoring, deadline):
        spec, tree, workers = self.spec, self.tree, self.workers
        tree.reset(workers)
        arrays = tree.pool.arrays()

        def run(k, n):
            w = workers[k]
            return int(fast.tree_search(s, n, spec.c, spec.virtual_loss, spec.wins, scoring,
                                        w.rng, w.region, tree.stage(k), *arrays, w.scratch,
                                        w.path, w.buf, w.scores, w.copy))

        first = run(0, 1)  # worker 0 alone expands the root, as the sequential search does
        budgets = [None if spec.iterations is None else spec.iterations - (k == 0)
                   for k in range(spec.workers)]  # worker 0 has run one already
        jobs = [lambda k=k: _budget(lambda n: run(k, n), budgets[k], deadline)
                for k in range(spec.workers)]
        per_worker = self._in_parallel(jobs)
        per_worker[0] += first
        pool = tree.pool
        best = max(pool.children(0), key=lambda child: pool.visits[child])
        nodes = tree.nodes(workers)
        return (int(pool.move[best]), per_worker, nodes, int(pool.visits[0]),
                fast.tree_drift(tree, sum(per_worker)),
                fast.tree_negative_visits(tree, workers))

    def _leaf(self, s, scoring, deadline):
        spec, pool, w = self.spec, self.pool, self.worker
        pool.reset()
        if spec.workers == 1:  # one playout per leaf: the sequential kernel (the same tree,
            w.rng = self.rngs[0, :1]  # tested), without a parallel region per iteration
            run = lambda n: fast.root_worker_search(s, n, spec.c, spec.wins,
                                                    scoring, pool, w)
        else:
            run = lambda n: int(fast.leaf_search(
                s, n, spec.workers, spec.c, spec.wins, scoring, self.rngs, pool.used,
                *pool.arrays(), w.scratch, w.path, w.buf, w.scores, self.leaves, self.bufs,
                self.rewards))
        # a leaf-parallel iteration can take milliseconds on a busy machine: small chunks
        least = 16 if spec.workers == 1 else 1
        done = _budget(run, spec.iterations, deadline, least)
        best = max(pool.children(0), key=lambda child: pool.visits[child])
        return int(pool.move[best]), [done], pool.count, int(pool.visits[0]), 0, 0


def _budget(run, iterations: int | None, deadline: float | None, least: int = 16) -> int:
    """``run(iterations)``, or chunks of ``run`` until ``deadline``; the iterations run.

    Chunks are sized from the measured rate to take about a millisecond, at
    least ``least`` iterations (the first is ``4 * least``), as
    :class:`mctslib.bots.uttt.UTTTBot` does; at least one chunk runs.
    """
    if deadline is None:
        return run(iterations) if iterations > 0 else 0
    done, chunk = 0, 4 * least
    while True:
        before = time.perf_counter()
        ran = run(chunk)
        now = time.perf_counter()
        done += ran
        left = deadline - now
        if left <= 0.0:
            return done
        chunk = max(least, int(ran / max(now - before, 1e-6) * min(left, 0.001)))


_warmed_up: set[str] = set()


def warm_up(mode: str = "tree") -> None:
    """Load (or compile) ``mode``'s kernels once per process, outside any move's clock.

    Leaf mode's kernel starts numba's OpenMP threads, so it is loaded only
    when a leaf bot is built.
    """
    mode = check_choice("mode", mode, MODES)
    if mode in _warmed_up:
        return
    _warmed_up.add(mode)  # first: the bot built below calls warm_up too
    # leaf mode with one worker runs the sequential kernel: two load the prange kernel
    bot = ParallelSpec(mode=mode, workers=2 if mode == "leaf" else 1, iterations=20,
                       capacity=2000)(0)
    bot.choose(UltimateTicTacToe())
    bot.close()


__all__ = ["DEFAULT_MS", "MAX_CAPACITY", "MAX_MS", "MAX_VIRTUAL_LOSS", "MAX_WORKERS", "MODES",
           "NODES_PER_ITERATION", "TIMED_CAPACITY", "ParallelBot", "ParallelInfo",
           "ParallelSpec", "warm_up"]
