"""Real parallel UCT on Ultimate Tic-Tac-Toe: numba kernels that run on several threads at once.

Chapter 7b, "Parallel search". The three schemes of
Chaslot, Winands and van den Herik, "Parallel Monte-Carlo Tree Search"
(Computers and Games 2008), on the engine of :mod:`mctslib.fast.uttt_uct`
(its ``_select``, ``_expand``, node layout and playouts, imported, not copied).
The kernels are compiled with ``nogil=True``: a Python thread that calls one
releases the interpreter lock until the kernel returns, so K threads of a
``concurrent.futures.ThreadPoolExecutor`` run K kernels truly at the same time
(the driver is :class:`mctslib.bots.parallel.ParallelBot`). Only the outermost
function needs the flag: compiled code calling compiled code never touches the
lock.

**Root parallelism** (:func:`search_nogil`): K independent trees, one
:class:`~mctslib.fast.uttt_uct.NodePool` and one xorshift64 stream per worker,
each searched by the sequential kernel :func:`mctslib.fast.uttt_uct.search_kernel`
(this is its nogil wrapper: the same code, the same trees). The answer sums
each root move's visits over the trees. Nothing is shared, so it is
deterministic for a fixed iteration budget per worker, and one worker is the
sequential search.

**Tree parallelism, lock-free** (:func:`tree_search`; Enzenberger and Mueller,
"A Lock-Free Multithreaded Monte-Carlo Tree Search Algorithm", Advances in
Computer Games 12, 2010): K threads run UCT iterations on one shared pool at
once, with no lock:

1. *memory*: each thread allocates nodes from its own region of the pool
   (``region = [next free, end]``), so there is no shared counter to race on.
   A thread builds a node's children in its region *before* the parent can see
   them: :func:`~mctslib.fast.uttt_uct._expand` writes them below a private
   *staging* node (one per thread, past the tree's nodes, each on a cache line
   of its own), then the parent gets
   ``first_child`` and, after a fence, ``child_count`` (:func:`_barrier`:
   neither the compiler nor the processor moves a load or store across it).
   A thread that reads ``child_count > 0`` (then a fence, then
   ``first_child``) sees complete children. Two threads that expand the same node at once publish
   equal counts (same position, same moves), so any mix of the two writes is a
   valid child list; the loser's nodes are simply never reached. A thread that
   finds the node already expanded when it is about to publish drops its own
   children (their region space is reused; only a race inside those few
   instructions wastes nodes);
2. *virtual loss* (Chaslot et al.): when a thread leaves a node on its way down
   (and at its leaf, after the expansion decision) it adds ``virtual_loss``
   visits with reward 0 (losses) to it, so the threads behind it see a worse
   node and spread out; the backup removes them while adding the real visit
   (``visits += 1 - virtual_loss``, ``wins += reward``). A thread never sees
   its own virtual loss in its own selection (it is added after the node is
   used), so **one thread runs exactly the sequential kernel's iterations**
   (same tree, same random draws: a test), for any virtual loss;
3. *tolerated races*: visit and win counters are updated by plain
   read-modify-writes, not atomics, as in Fuego. Two threads updating the same
   counter at the same instant can lose one update: a visit count can end a
   few visits off, or even below zero for a rarely visited node whose virtual
   loss was lost (UCB1 then scores it NaN: a local distortion that further
   visits may or may not repair, which the lock-free design accepts). The kernel reports its iterations exactly
   (thread-local), so the lost root updates are measured: ``iterations run -
   root visits`` (:func:`tree_drift`). With more than one thread the search is
   **not deterministic**: the threads' interleaving changes from run to run.

**Leaf parallelism** (:func:`leaf_search`): one tree, one thread descends and
expands; from each new leaf K playouts run in a numba ``prange`` (OpenMP
threads) and their rewards are summed into the backup (``visits += K``).
Playout ``k`` draws from stream ``k`` (stream 0 also drives the tree's
shuffles), so it is deterministic, and K = 1 is the sequential kernel. A
playout takes about a microsecond here, so starting and joining the parallel
region at every iteration is expected to cost more than the playouts it
shares out (``benchmarks/parallel_speed.py`` measures both).

Measured on the book's 2-core machine while other jobs were running (a smoke
test; ``benchmarks/parallel_speed.py`` is the measurement): the barriers cost
nothing measurable (one thread of :func:`tree_search` took 0.99 times the
sequential kernel's time for 100,000 iterations, median of 7 interleaved
pairs); handing a task to a live thread and waiting for it took about 50
microseconds, starting and joining a new thread about 180; an empty
``prange`` region took milliseconds on the loaded machine (its two threads
must both get a core at every iteration), against about a microsecond per
playout.

Options of all three: exploration constant ``c``, rewards 1 / 0.5 / 0,
random or win-taking playouts with the tree's one-move win check
(``wins_on``, the bot's ``wins=on``); no solver, no cut-off, expansion on a
leaf's second visit.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange, types
from numba.core.extending import intrinsic

from .uttt import ONGOING, OUTCOME, PLAYER, STATE_SIZE, play, random_playout, result
from .uttt_playouts import RANDOM, WINS
from .uttt_uct import (
    DEFAULT_CUTOFF_SCALE,
    MAX_PATH,
    SCORES_SIZE,
    NodePool,
    _descend,
    _expand,
    _select,
    search_kernel,
    win_taking_playout,
)

#: Slots of a per-thread row (its region or its generator): 8 x 8 bytes, so two threads'
#: hot words never share a 64-byte cache line (false sharing would slow both).
ROW = 8
#: Nodes between two threads' staging nodes: 16 int32 ``first_child`` / ``child_count``
#: entries are one 64-byte line, so no two threads' staging entries share one.
STAGE_GAP = 16


@intrinsic
def _barrier(typingctx):
    """A fence (LLVM ``fence seq_cst``): no load or store moves across it.

    x86 keeps stores in order and loads in order by itself; the fence also
    stops the compiler from reordering the publication of a node's children
    (or the reading of them) for speed. Measured: no cost (see the module).
    """
    def codegen(context, builder, signature, args):
        builder.fence("seq_cst")
        return context.get_dummy_value()
    return types.none(), codegen


# ----------------------------------------------------------------- root parallelism


@njit(cache=True, nogil=True)
def search_nogil(root_state, iterations, c, pm1, playout, tree_wins, solver_on, scoring, rng,
                 used, move, first_child, child_count, visits, wins, proven, scratch, path, buf,
                 scores, expand, copy, draw, cutoff, cutoff_scale):
    """:func:`mctslib.fast.uttt_uct.search_kernel` with the interpreter lock released.

    The minimal wrapper that ``uttt_uct`` lacks (its kernels hold the lock):
    the same arguments, the same code, the same tree. One call per worker of
    root parallelism, each on its own pool and stream.
    """
    return search_kernel(root_state, iterations, c, pm1, playout, tree_wins, solver_on, scoring,
                         rng, used, move, first_child, child_count, visits, wins, proven,
                         scratch, path, buf, scores, expand, copy, draw, cutoff, cutoff_scale)


class Worker:
    """One thread's private arrays: generator, region, scratch state, path, moves, scores.

    ``rng`` is a view of element 0 of a row of :data:`ROW` words and
    ``region`` a row ``[next free node, end of region, ...]``, each in its own
    allocation, so no two threads write to one cache line in their hot loop.
    """

    def __init__(self, seed_state: int):
        self._rng_row = np.zeros(ROW, dtype=np.uint64)
        self._rng_row[0] = np.uint64(seed_state)
        self.rng = self._rng_row[:1]
        self.region = np.zeros(ROW, dtype=np.int64)
        self.scratch = np.zeros(STATE_SIZE, dtype=np.int64)
        self.path = np.zeros(MAX_PATH, dtype=np.int64)
        self.buf = np.zeros(81, dtype=np.int64)
        self.scores = np.zeros(SCORES_SIZE, dtype=np.float64)
        self.copy = np.zeros(STATE_SIZE, dtype=np.int64)


def root_worker_search(root_state, iterations, c, wins_on, scoring, pool: NodePool,
                       worker: Worker) -> int:
    """One root-parallel worker: ``iterations`` sequential UCT iterations on its own pool.

    Called from a thread; the kernel releases the lock. ``wins_on`` gives
    win-taking playouts and the tree's win check, as ``UTTTBot``'s ``wins=on``
    with every other option at its default, so one worker is that bot's search.
    """
    playout = WINS if wins_on else RANDOM
    return int(search_nogil(root_state, iterations, c, False, playout, wins_on, False, scoring,
                            worker.rng, pool.used, *pool.arrays(), worker.scratch, worker.path,
                            worker.buf, worker.scores, 1, worker.copy, 0.5, 0,
                            DEFAULT_CUTOFF_SCALE))


# ----------------------------------------------------------------- tree parallelism


class SharedTree:
    """One pool for K threads: ``capacity`` tree nodes in K regions, plus K staging nodes.

    Node 0 is the root; region ``k`` is nodes ``bounds[k] .. bounds[k + 1] - 1``
    (the first starts at 1); node :meth:`stage` ``(k)`` is thread ``k``'s staging
    node, past the tree's nodes and never part of the tree. With one thread the
    single region is nodes 1 to ``capacity - 1``: the layout of a sequential
    pool of ``capacity`` nodes.

    The staging nodes are :data:`STAGE_GAP` nodes apart (``stage_gap``), so
    that each thread's staging ``first_child`` and ``child_count``, written at
    every expansion, sit on a cache line of their own: side by side (a gap of
    1) the two threads' expansions took the line from each other, false sharing
    that :mod:`mctslib.experiments.parallel.sharing` counts (0.35 transfers an
    iteration, of 8 to 10 in all in searches of 4,000 to 20,000 iterations; the rest
    is the tree's own counters, shared by design).
    """

    def __init__(self, capacity: int, workers: int, stage_gap: int | None = None):
        self.capacity, self.workers = int(capacity), int(workers)
        self.stage_gap = STAGE_GAP if stage_gap is None else int(stage_gap)
        self.pool = NodePool(self.capacity + self.workers * self.stage_gap)
        self.bounds = [1 + (self.capacity - 1) * k // self.workers
                       for k in range(self.workers + 1)]

    def stage(self, k: int) -> int:
        """Thread ``k``'s staging node."""
        return self.capacity + k * self.stage_gap

    def reset(self, workers: list[Worker]) -> None:
        """An empty tree (a lone root) and every region empty again."""
        self.pool.reset()
        for k, worker in enumerate(workers):
            worker.region[0], worker.region[1] = self.bounds[k], self.bounds[k + 1]

    def nodes(self, workers: list[Worker]) -> int:
        """Nodes allocated (the root, and every region's used part, lost expansions included)."""
        return 1 + sum(int(w.region[0]) - self.bounds[k] for k, w in enumerate(workers))


@njit(cache=True, nogil=True, error_model="numpy")
def tree_search(root_state, iterations, c, virtual_loss, wins_on, scoring, rng, region, stage,
                move, first_child, child_count, visits, wins, proven, scratch, path, buf,
                scores, copy):
    """One thread's ``iterations`` lock-free UCT iterations on a shared pool; return how many ran.

    Parameters
    ----------
    root_state : int64 array
        The root position (read only; shared by the threads).
    iterations : int
        Iterations this thread runs.
    c : float
        UCB1's exploration constant.
    virtual_loss : int
        Visits (with reward 0) added to a node a thread passes through, removed
        by its backup (0: none).
    wins_on : bool
        Win-taking playouts and the tree's one-move win check.
    scoring : int
        :func:`mctslib.fast.uttt.scoring_code`.
    rng : uint64 array of 1
        This thread's xorshift64 state.
    region : int64 array
        ``[next free node, end]`` of this thread's region (``[0]`` advanced in place).
    stage : int
        This thread's staging node (see the module docstring).
    move, first_child, child_count, visits, wins, proven
        The shared pool's arrays (:attr:`SharedTree.pool`).
    scratch, path, buf, scores, copy
        This thread's work arrays (:class:`Worker`).
    """
    capacity = region[1]
    playout = WINS if wins_on else RANDOM
    done = 0
    while done < iterations:
        for i in range(STATE_SIZE):
            scratch[i] = root_state[i]
        node, depth = 0, 1
        path[0] = 0
        while child_count[node] > 0:  # selection
            _barrier()  # read the children only after their count: they are complete
            chosen = _select(node, c, False, first_child, child_count, visits, wins, proven,
                             scores)
            if virtual_loss:  # left behind for the threads after us (with none, no store:
                visits[node] += virtual_loss  # a write takes the cache line from the others)
            node = chosen
            play(scratch, move[node])
            path[depth] = node
            depth += 1
        if scratch[OUTCOME] == ONGOING and (visits[node] >= 1 or node == 0):  # expansion
            count = region[0]
            grown = _expand(stage, scratch, count, capacity, rng, wins_on, scoring, move,
                            first_child, child_count, visits, wins, proven, buf)
            if grown > count and child_count[node] == 0:  # publish, unless someone did
                first_child[node] = count
                _barrier()  # the children and first_child before the count
                child_count[node] = grown - count
                region[0] = grown
                visits[node] += virtual_loss
                node = count
                play(scratch, move[node])
                path[depth] = node
                depth += 1
        visits[node] += virtual_loss
        mover = 1 - scratch[PLAYER]
        if playout == RANDOM:  # simulation
            random_playout(scratch, rng)
        else:
            win_taking_playout(scratch, rng, scoring, buf)
        reward = result(scratch, mover, scoring)
        back = 1 - virtual_loss
        for d in range(depth - 1, -1, -1):  # backup, removing the virtual loss
            current = path[d]
            visits[current] += back
            wins[current] += reward
            reward = 1.0 - reward
        done += 1
    return done


def tree_drift(tree: SharedTree, iterations: int) -> int:
    """``iterations run - root visits`` after a tree-parallel search: the root's lost updates.

    Every iteration adds exactly one visit to the root, so without races the
    two are equal (as with one thread). A lost ``+1`` makes it positive; a lost
    virtual loss (added or removed) moves it by ``virtual_loss`` either way.
    """
    return int(iterations) - int(tree.pool.visits[0])


@njit(cache=True)
def negative_visits(visits, start, end):
    """How many of nodes ``start .. end - 1`` have a negative visit count (a lost virtual loss)."""
    bad = 0
    for i in range(start, end):
        if visits[i] < 0:
            bad += 1
    return bad


def tree_negative_visits(tree: SharedTree, workers: list[Worker]) -> int:
    """Nodes of the last tree-parallel search with a negative visit count (root and regions)."""
    visits = tree.pool.visits
    return int(visits[0] < 0) + sum(int(negative_visits(visits, tree.bounds[k], w.region[0]))
                                    for k, w in enumerate(workers))


# ----------------------------------------------------------------- leaf parallelism


@njit(cache=True, parallel=True, error_model="numpy")
def leaf_search(root_state, iterations, playouts, c, wins_on, scoring, rngs, used, move,
                first_child, child_count, visits, wins, proven, scratch, path, buf, scores,
                leaves, bufs, rewards):
    """Run ``iterations`` UCT iterations with ``playouts`` playouts from each leaf; return them.

    Selection and expansion as :func:`mctslib.fast.uttt_uct.search_kernel`
    (on stream ``rngs[0]``); then ``playouts`` playouts from the leaf in a
    ``prange`` (playout ``k`` on its own copy ``leaves[k]`` and stream
    ``rngs[k]``), their rewards summed in index order (exact: multiples of 0.5)
    and backed up as ``playouts`` visits. ``rngs`` is a ``(playouts, ROW)``
    uint64 array (the state in column 0); ``bufs`` ``(playouts, 81)``;
    ``rewards`` ``playouts`` floats. Deterministic; ``playouts = 1`` is the
    sequential kernel (same tree, same draws).
    """
    capacity = move.shape[0]
    count = used[0]
    tree_rng = rngs[0, :1]  # the stream of selection and expansion
    done = 0
    while done < iterations:
        _, depth, count = _descend(root_state, scratch, path, c, False, 1, count, capacity,
                                   tree_rng, wins_on, scoring, move, first_child, child_count,
                                   visits, wins, proven, buf, scores)
        mover = 1 - scratch[PLAYER]
        for k in prange(playouts):  # the K playouts at once
            leaf = leaves[k]
            for i in range(STATE_SIZE):
                leaf[i] = scratch[i]
            if wins_on:
                win_taking_playout(leaf, rngs[k, :1], scoring, bufs[k])
            else:
                random_playout(leaf, rngs[k, :1])
            rewards[k] = result(leaf, mover, scoring)
        total = 0.0
        for k in range(playouts):  # in index order: the same sum every run
            total += rewards[k]
        for d in range(depth - 1, -1, -1):  # backup of all K results
            current = path[d]
            visits[current] += playouts
            wins[current] += total
            total = playouts - total
        done += 1
    used[0] = count
    return done


@njit(cache=True, parallel=True)
def empty_parallel_region(rounds, values):
    """Start and join ``rounds`` parallel regions that do nothing: their cost alone.

    ``values`` has one slot per thread's share; the benchmark divides the time
    by ``rounds`` to get the fork-join cost leaf parallelism pays per iteration.
    """
    for _ in range(rounds):
        for k in prange(values.shape[0]):
            values[k] += 1.0
    return values[0]


@njit(cache=True, nogil=True)
def idle(x):
    """Nothing, without the lock: the benchmark's probe of a thread hand-off's cost."""
    return x + 1


def new_rngs(states) -> np.ndarray:
    """A ``(len(states), ROW)`` uint64 array with ``states[k]`` in column 0 (one row per stream)."""
    rngs = np.zeros((len(states), ROW), dtype=np.uint64)
    for k, state in enumerate(states):
        rngs[k, 0] = np.uint64(state)
    return rngs


__all__ = ["ROW", "STAGE_GAP", "SharedTree", "Worker", "empty_parallel_region", "idle", "leaf_search",
           "negative_visits", "new_rngs", "root_worker_search", "search_nogil", "tree_drift",
           "tree_negative_visits", "tree_search"]
