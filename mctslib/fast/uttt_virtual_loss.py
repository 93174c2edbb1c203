"""K simulated workers on one UCT tree with virtual loss, for Ultimate Tic-Tac-Toe, in numba.

Chapter 7b, "Parallel search". The fast twin of the
readable :class:`mctslib.search.parallel.ParallelUCTSearch`: the same model,
the same order of random draws, so the same tree for the same xorshift seed
(the tests compare them node by node, and ``workers=1`` with
:func:`mctslib.fast.uttt_uct.search_kernel`).

The model (see the readable module for the reasons): the search runs in
rounds of ``workers`` iterations (the last may be shorter). In a round,
workers descend in turn with :func:`mctslib.fast.uttt_uct._select` (UCB1: the
first child not yet visited, else the first strictly highest score) and
expand with :func:`mctslib.fast.uttt_uct._expand`; a leaf is expanded only if
it has a *finished* visit (or is the root). After its descent a worker adds
its virtual loss to every node of its path, in the pool's own arrays:
``visits += virtual_loss`` and ``wins += virtual_reward * virtual_loss``, so
the workers after it in the round select on those counts. Then the playouts
run in worker order, each followed by its backup, which removes that
worker's virtual loss (``visits -= v``, ``wins -= r v``) and adds the visit
and reward (``wins + reward``), flipping the reward at each level.

Why the virtual loss goes into the pool's arrays: :func:`_select` is then used
as it is, vector loop included. It relies on the visited children of a node
being a prefix of its list; with virtual visits that still holds, because
every worker takes the first child with no visits (finished or virtual). A
child with virtual visits but no finished one is scored ``0 / v + c sqrt(ln
N / v)`` like any other. The only node with children and no visits at all is
the root in the first round without virtual loss; :func:`_select` answers its
first child there before reading ``ln 0``.

Two schedules (``staggered``): rounds of ``workers`` descents then their
playouts (lockstep, the default), or ``workers - 1`` playouts always in flight,
iteration ``t`` in worker slot ``t % workers`` and its playout landing just
after the descent of iteration ``t + workers - 1`` (the readable module
explains both). :func:`_depart` and :func:`_finish` are one worker's halves of
an iteration, shared by the two.

Options: rewards 1 / 0.5 / 0 and random or win-taking playouts (the UTTT
chapter's two playouts); no solver, no tree wins, no cut-off: the model
measures the search overhead of the plain search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .uttt import ONGOING, OUTCOME, PLAYER, STATE_SIZE, play, random_playout, result
from .uttt_uct import MAX_PATH, SCORES_SIZE, NodePool, _expand, _select, win_taking_playout

#: The most workers per round (the size of the work arrays grows with it).
MAX_WORKERS = 1024


class Workers:
    """The work arrays of ``workers`` simulated workers on a pool of ``capacity`` nodes.

    ``states[k]`` is worker ``k``'s leaf position, ``paths[k, :depths[k]]``
    its path from the root, ``in_flight[node]`` how many workers of the
    current round have ``node`` on their path (zero between searches).
    """

    def __init__(self, workers: int, capacity: int):
        self.states = np.zeros((workers, STATE_SIZE), dtype=np.int64)
        self.paths = np.zeros((workers, MAX_PATH), dtype=np.int64)
        self.depths = np.zeros(workers, dtype=np.int64)
        self.in_flight = np.zeros(capacity, dtype=np.int32)
        self.buf = np.zeros(81, dtype=np.int64)
        self.scores = np.zeros(SCORES_SIZE, dtype=np.float64)

    def arrays(self) -> tuple:
        """The arrays in the order :func:`search` takes them."""
        return self.states, self.paths, self.depths, self.in_flight, self.buf, self.scores


def new_search(workers: int, capacity: int) -> tuple[NodePool, Workers]:
    """A fresh pool and work arrays for :func:`search` (checked by the caller)."""
    pool = NodePool(capacity)
    return pool, Workers(workers, pool.capacity)


@njit(cache=True, error_model="numpy", _nrt=False)
def _depart(k, root_state, count, virtual_loss, extra, c, scoring, rng, move, first_child,
            child_count, visits, wins, proven, states, paths, depths, in_flight, buf, scores):
    """Worker ``k``'s descent and expansion, then its virtual loss on its path; the new count."""
    capacity = move.shape[0]
    s = states[k]
    for i in range(STATE_SIZE):
        s[i] = root_state[i]
    node, depth = 0, 1
    paths[k, 0] = 0
    while child_count[node] > 0:
        node = _select(node, c, False, first_child, child_count, visits, wins, proven, scores)
        play(s, move[node])
        paths[k, depth] = node
        depth += 1
    finished = visits[node] - virtual_loss * in_flight[node]
    if s[OUTCOME] == ONGOING and (finished >= 1 or node == 0):
        grown = _expand(node, s, count, capacity, rng, False, scoring, move, first_child,
                        child_count, visits, wins, proven, buf)
        if grown > count:
            node = count
            count = grown
            play(s, move[node])
            paths[k, depth] = node
            depth += 1
    depths[k] = depth
    for d in range(depth):  # this worker's virtual loss, seen by the next ones
        current = paths[k, d]
        visits[current] += virtual_loss
        wins[current] += extra
        in_flight[current] += 1
    return count


@njit(cache=True, error_model="numpy", _nrt=False)
def _finish(k, virtual_loss, extra, wins_on, scoring, rng, visits, wins, states, paths, depths,
            in_flight, buf):
    """Worker ``k``'s playout, then its backup, which takes its virtual loss off the path."""
    s = states[k]
    mover = 1 - s[PLAYER]
    if wins_on:
        win_taking_playout(s, rng, scoring, buf)
    else:
        random_playout(s, rng)
    reward = result(s, mover, scoring)
    for d in range(depths[k] - 1, -1, -1):
        current = paths[k, d]
        visits[current] -= virtual_loss
        wins[current] -= extra
        in_flight[current] -= 1
        visits[current] += 1
        wins[current] += reward
        reward = 1.0 - reward


@njit(cache=True, error_model="numpy", _nrt=False)
def search(root_state, iterations, workers, virtual_loss, virtual_reward, c, wins_on, scoring,
           rng, used, move, first_child, child_count, visits, wins, proven, states, paths,
           depths, in_flight, buf, scores, staggered=False):
    """Run ``iterations`` iterations of ``workers`` simulated workers; return how many ran.

    Parameters
    ----------
    root_state : int64 array
        The root position (left unchanged).
    iterations, workers : int
        Iterations in all (>= 1) and workers (1 to the work arrays' rows).
    virtual_loss : int
        Extra visits per in-flight worker (>= 0).
    virtual_reward : float
        Each extra visit's reward for the node's mover: 0.0 a loss, 0.5 a draw.
    c : float
        UCB1's exploration constant.
    wins_on : bool
        Win-taking playouts (else random).
    scoring : int
        :func:`mctslib.fast.uttt.scoring_code`.
    rng : uint64 array of 1
        The xorshift64 state, advanced in place.
    used, move, first_child, child_count, visits, wins, proven
        ``pool.used`` and the arrays of a :class:`~mctslib.fast.uttt_uct.NodePool`.
    states, paths, depths, in_flight, buf, scores
        The arrays of :class:`Workers`.
    staggered : bool
        False: rounds of ``workers`` descents, then their playouts (``"lockstep"``);
        True: ``workers - 1`` playouts always in flight, worker slot ``t % workers``
        for iteration ``t`` (``"staggered"``; see :mod:`mctslib.search.parallel`).
    """
    count = used[0]
    extra = virtual_reward * virtual_loss
    if staggered:
        for t in range(iterations):
            count = _depart(t % workers, root_state, count, virtual_loss, extra, c, scoring,
                            rng, move, first_child, child_count, visits, wins, proven, states,
                            paths, depths, in_flight, buf, scores)
            if t >= workers - 1:  # the oldest flight lands
                _finish((t - workers + 1) % workers, virtual_loss, extra, wins_on, scoring,
                        rng, visits, wins, states, paths, depths, in_flight, buf)
        for t in range(max(0, iterations - workers + 1), iterations):  # the last ones land
            _finish(t % workers, virtual_loss, extra, wins_on, scoring, rng, visits, wins,
                    states, paths, depths, in_flight, buf)
        used[0] = count
        return iterations
    done = 0
    while done < iterations:
        here = min(workers, iterations - done)
        for k in range(here):  # descents, in worker order
            count = _depart(k, root_state, count, virtual_loss, extra, c, scoring, rng, move,
                            first_child, child_count, visits, wins, proven, states, paths,
                            depths, in_flight, buf, scores)
        for k in range(here):  # playouts and backups, in worker order
            _finish(k, virtual_loss, extra, wins_on, scoring, rng, visits, wins, states, paths,
                    depths, in_flight, buf)
        done += here
    used[0] = count
    return done


@njit(cache=True)
def root_visits(first_child, child_count, visits, out):
    """The root children's visits into ``out`` (tree order); return how many children."""
    first, count = first_child[0], child_count[0]
    for k in range(count):
        out[k] = visits[first + k]
    return count


def best_move(pool: NodePool) -> int:
    """The most visited root move, the first in tree order on ties (as ``robust_child``)."""
    children = pool.children(0)
    if len(children) == 0:
        raise ValueError("the root has no children: run a search first.")
    best = children[0]
    for child in children[1:]:
        if pool.visits[child] > pool.visits[best]:
            best = child
    return int(pool.move[best])


__all__ = ["MAX_WORKERS", "Workers", "best_move", "new_search", "root_visits", "search"]
