"""Which cache lines the threads of tree parallelism pass to each other (chapter 7b).

Chapter "Parallel search". Two threads on one tree run fewer iterations each
than one thread alone, and how many fewer depends on the processor (the
benchmark ``benchmarks/parallel_speed.py`` measured 1.5 to 1.8 times one
thread's iterations on the book's two CPUs, root parallelism 1.9 to 2.0). A
processor keeps memory in its caches in *lines* of 64 bytes; when one CPU
writes a line, every other CPU's copy of it becomes invalid, and the next time
that CPU reads or writes the line it must fetch it from the writer's cache (a
*coherence miss*, tens to a hundred or more nanoseconds depending on the
processor, against about a microsecond for a whole iteration here). A timing
cannot say how many such transfers an iteration causes, and it varies with the
other work on the computer; this module counts them exactly.

:func:`trace` runs the real lock-free kernel
(:func:`mctslib.fast.uttt_parallel.tree_search`) one iteration at a time,
the threads taking turns (thread 0, thread 1, thread 0, ...): a serialised
interleaving of the same code, deterministic for the seed. After each
iteration it reconstructs from the thread's path and region which elements of
the shared pool's arrays the iteration read and wrote:

* selection at each node of the path: the node's ``child_count`` and
  ``first_child``, the ``visits`` and ``wins`` of all its children (UCB1 reads
  them all), and a write of the node's ``visits`` (its virtual loss);
* expansion: the thread's *staging* node (``first_child`` and ``child_count``
  written by :func:`mctslib.fast.node_pool.add_children`), the new children
  (every array, in the thread's own region), then the parent's
  ``first_child``, ``child_count`` and ``visits``;
* backup: ``visits`` and ``wins`` of every node on the path.

It then plays the simplest coherence protocol over those accesses: a write
by one thread invalidates the other thread's copy of the line; an access to
an invalid line that the other thread wrote is a *transfer*. A transfer is
*true sharing* when this thread touches an element the other thread wrote
(the data itself is shared: a node's visit count) and *false sharing* when
it touches only other elements of the same line (two nodes that happen to sit
side by side). Each transfer is also charged to the node it concerns: the
root and its children (they share lines), deeper nodes, or the staging nodes.

Taking turns a whole iteration at a time is a model: real threads overlap,
so a line can also bounce inside one iteration; the counts are the transfers
that cannot be avoided by any timing, per iteration in steady state.
Sums use integers only, so every count is exact on every computer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np

from ..._checks import check_int, check_real
from ...bots.parallel import NODES_PER_ITERATION
from ...fast import uttt as engine
from ...fast import uttt_parallel as fast

#: Bytes in a cache line (x86 and most ARM processors).
LINE_BYTES = 64
#: The shared pool's arrays an iteration touches, as named in :class:`~mctslib.fast.uttt_uct.NodePool`.
ARRAYS = ("move", "first_child", "child_count", "visits", "wins", "proven")
#: The bot's virtual loss. Taking turns a whole iteration at a time, no thread ever sees
#: another's virtual loss, so it changes no path: only its writes are counted.
VIRTUAL_LOSS = 1
#: Where a transfer is charged: the node whose element caused it.
PLACES = ("root and its children", "deeper nodes", "staging nodes")


@dataclass(frozen=True)
class SharingCount:
    """Transfers per iteration between two threads of tree parallelism (see the module).

    ``iterations`` were traced (after the first, which thread 0 runs alone, as
    :class:`mctslib.bots.parallel.ParallelBot` does); ``true`` and ``false``
    are transfers of lines whose shared element this thread touched, or only
    their neighbours; ``by_place`` and ``by_array`` split the total. Divide by
    ``iterations`` for a rate.
    """

    iterations: int
    true: int
    false: int
    by_place: dict
    by_array: dict
    staging_apart: bool

    @property
    def total(self) -> int:
        return self.true + self.false

    def per_iteration(self) -> float:
        """Transfers per iteration (both kinds)."""
        return self.total / self.iterations


class _Coherence:
    """Two threads' copies of each cache line, and the transfers they cost (see the module).

    A line is a key ``(array, line number)``; ``touched`` maps each line an
    iteration touched to the elements it touched there: a set of single
    elements and a list of ``(start, stop)`` ranges (a node's children).
    ``stage_key`` maps a staging node's line to the key it has in this layout.
    """

    def __init__(self, stage_key):
        self.valid = {}  # line -> [thread 0 holds a valid copy, thread 1 does]
        self.dirty = {}  # line -> [elements thread 0 wrote since thread 1 held it, ...]
        self.stage_key = stage_key
        self.counts = {"true": 0, "false": 0}
        self.by_place = dict.fromkeys(PLACES, 0)
        self.by_array = dict.fromkeys(ARRAYS, 0)

    def iteration(self, k: int, touched: dict, written: list, place) -> None:
        """Thread ``k``'s iteration: the lines it touched, then the elements it wrote."""
        for key, (elements, ranges) in touched.items():
            key = self.stage_key(key)
            held = self.valid.setdefault(key, [False, False])
            theirs = self.dirty.setdefault(key, [set(), set()])[1 - k]
            if not held[k] and theirs:  # the other thread changed the line: a transfer
                shared = [e for e in theirs
                          if e in elements or any(lo <= e < hi for lo, hi in ranges)]
                self.counts["true" if shared else "false"] += 1
                self.by_array[key[0]] += 1
                self.by_place[place(key[0], min(shared or theirs))] += 1
            held[k] = True
            theirs.clear()  # this thread has seen those writes now
        for key, element in written:
            key = self.stage_key(key)
            self.valid[key][1 - k] = False
            self.dirty[key][k].add(element)

    def result(self, iterations: int, staging_apart: bool) -> SharingCount:
        return SharingCount(iterations, self.counts["true"], self.counts["false"],
                            self.by_place, self.by_array, staging_apart)


class _Accesses:
    """The lines one iteration touched and the elements it wrote (see the module's list).

    ``touched`` maps a line ``(array, line number)`` to ``(elements, ranges)``;
    ``written`` lists ``(line, element)`` for every write.
    """

    def __init__(self, strides: dict):
        self.strides = strides
        self.touched: dict = {}
        self.written: list = []

    def touch(self, name: str, lo: int, hi: int | None = None) -> None:
        """Element ``lo`` of array ``name``, or elements ``lo .. hi - 1``."""
        stride = self.strides[name]
        if hi is None:
            self.touched.setdefault((name, lo // stride), (set(), []))[0].add(lo)
            return
        for line in range(lo // stride, (hi - 1) // stride + 1):
            entry = self.touched.setdefault((name, line), (set(), []))
            entry[1].append((max(lo, line * stride), min(hi, (line + 1) * stride)))

    def write(self, name: str, element: int) -> None:
        self.touch(name, element)
        self.written.append(((name, element // self.strides[name]), element))

    def iteration(self, pool, path: list, before: int, after: int, stage: int) -> None:
        """One iteration of the kernel along ``path``; it expanded if ``after > before``."""
        expanded = after > before
        for node in path[:len(path) - 1 - expanded]:  # selection read these nodes' children
            first, count = int(pool.first_child[node]), int(pool.child_count[node])
            self.touch("child_count", node)
            self.touch("first_child", node)
            self.touch("visits", first, first + count)
            self.touch("wins", first, first + count)
            self.write("visits", node)  # its virtual loss
        if expanded:
            self.write("first_child", stage)
            self.write("child_count", stage)
            for name in ARRAYS:  # the new children, in this thread's region
                self.touch(name, before, after)
                stride = self.strides[name]
                self.written.extend(((name, child // stride), child)
                                    for child in range(before, after))
            for name in ("first_child", "child_count", "visits"):
                self.write(name, path[-2])  # the parent, publishing its children
        for node in path:  # the backup
            self.write("visits", node)
            self.write("wins", node)


def _place(stages, root_children, name: str, element: int) -> str:
    """Where a transfer of ``element`` of array ``name`` is charged (:data:`PLACES`)."""
    if name in ("first_child", "child_count") and element in stages:
        return "staging nodes"
    if element == 0 or element in root_children:
        return "root and its children"
    return "deeper nodes"


def trace(state, iterations: int = 5_000, c: float = 0.5,
          seed: int = 0) -> tuple[SharingCount, SharingCount]:
    """Count the cache-line transfers of two threads taking turns on one tree.

    Parameters
    ----------
    state : UltimateTicTacToe
        The position searched (a game still on).
    iterations : int
        Iterations traced, 2 to 1,000,000 (both threads together).
    c : float
        UCB1's constant, 0 to 100.
    seed : int
        Thread ``k``'s xorshift64 stream is ``seed + k + 1`` (>= 0).

    Returns
    -------
    (apart, side_by_side) : SharingCount, SharingCount
        The same iterations counted for the staging nodes each on a cache line
        of their own, as :class:`mctslib.fast.uttt_parallel.SharedTree` lays
        them out, and for the two side by side (``stage_gap=1``, the layout
        before this count). The layout changes no search, only which lines
        the staging writes land on.
    """
    iterations = check_int("iterations", iterations, 2, 1_000_000)
    c = check_real("c", c, 0.0, 100.0)
    seed = check_int("seed", seed, 0)
    if state.is_terminal():
        raise ValueError("state must be a game still on: a finished game has nothing to search.")
    s, scoring = engine.to_array(state), engine.scoring_code(state.scoring)
    tree = fast.SharedTree(NODES_PER_ITERATION * iterations + 1_000, 2)
    pool = tree.pool
    workers = [fast.Worker(seed + k + 1) for k in range(2)]
    tree.reset(workers)
    stages = [tree.stage(k) for k in range(2)]
    stage_lines = {(name, stage // (LINE_BYTES // 4)) for stage in stages
                   for name in ("first_child", "child_count")}
    arrays = pool.arrays()
    strides = {name: LINE_BYTES // array.itemsize
               for name, array in zip(ARRAYS, (pool.move, pool.first_child, pool.child_count,
                                               pool.visits, pool.wins, pool.proven))}
    apart = _Coherence(lambda key: key)
    side_by_side = _Coherence(lambda key: (key[0], -1) if key in stage_lines else key)

    for step in range(iterations + 1):
        k = 0 if step == 0 else (step - 1) % 2  # thread 0 runs the first iteration alone
        w = workers[k]
        w.path[:] = -1
        before = int(w.region[0])
        fast.tree_search(s, 1, c, VIRTUAL_LOSS, False, scoring, w.rng, w.region, stages[k],
                         *arrays, w.scratch, w.path, w.buf, w.scores, w.copy)
        if step == 0:
            continue
        after = int(w.region[0])
        depth = int(np.argmax(w.path < 0)) if (w.path < 0).any() else len(w.path)
        path = [int(node) for node in w.path[:depth]]
        accesses = _Accesses(strides)
        accesses.iteration(pool, path, before, after, stages[k])
        root_first, root_count = int(pool.first_child[0]), int(pool.child_count[0])
        place = partial(_place, stages, range(root_first, root_first + root_count))
        apart.iteration(k, accesses.touched, accesses.written, place)
        side_by_side.iteration(k, accesses.touched, accesses.written, place)
    return apart.result(iterations, True), side_by_side.result(iterations, False)


__all__ = ["ARRAYS", "LINE_BYTES", "PLACES", "SharingCount", "trace"]
