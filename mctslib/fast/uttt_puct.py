"""PUCT on Ultimate Tic-Tac-Toe with the network called inside numba (chapter 7).

The chapter "PUCT and Gumbel: search with a learned prior" (chapter 7) asks whether the
small network of :mod:`mctslib.fast.uttt_network` inside the search, as the
top CodinGame bots use one, beats our plain UCT at equal time per move. This
kernel is that search: each leaf is evaluated by a compiled call to the
network (no Python call per leaf).

One iteration (AlphaGo Zero / AlphaZero's PUCT, Silver et al. 2017, 2018):

1. *Select*: from the root, while the node has children, go to the child
   maximising ``Q + c * P * sqrt(N) / (1 + n)``, where ``N`` is the node's
   visits, ``n``, ``P`` and ``Q`` the child's visits, prior and mean value
   for the player who moves into it (``fpu``, default 0, for an unvisited
   child). The first strictly highest score wins ties.
2. *Evaluate* the leaf: a finished game by its result (+1, 0, -1); otherwise
   ``v = (1 - mix) * network value + mix * z`` where ``z`` is the result of
   one random playout from the leaf (with ``mix`` 0 no playout is run, with
   ``mix`` 1 and ``use_policy`` off the network is not called at all).
3. *Expand* it (if the pool has room): one child per legal move, with prior
   the network's softmax over legal moves (``use_policy``) or uniform.
4. *Back up* ``v`` along the path, its sign flipped at every level, each node
   storing the sum for the player who moved into it.

The root's first iteration expands it; so after ``k`` iterations the root has
``k`` visits and its children ``k - 1`` between them. The answer is the most
visited root child (the first on ties). Rewards are in [-1, 1] (the network's
tanh), not UCT's [0, 1]: ``c`` of PUCT is on that scale.

Speed on the book's machine (``data/network/README.md``, CPU time): about
310 k iterations/s with ``mix`` 0 and 270 k/s with ``mix`` 0.5, against
1.3 M/s for the UCT bot's kernel from the same positions.

numba's cache checks only this file: the network's code is compiled into the
kernel, so after editing :mod:`mctslib.fast.uttt_network` touch this file too.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .node_pool import add_children
from .uttt import ONGOING, OUTCOME, PLAYER, STATE_SIZE, legal_moves, play, random_playout, winner
from .uttt_network import N_FEATURES, empty_work, evaluate, softmax_legal

MAX_PATH = 82


class PUCTPool:
    """The tree's arrays, allocated once (node 0 is the root)."""

    def __init__(self, capacity: int):
        if not isinstance(capacity, int) or capacity < 82:
            raise ValueError(f"capacity must be an int of at least 82 (a root and its children), "
                             f"got {capacity!r}.")
        self.capacity = capacity
        self.move = np.zeros(capacity, dtype=np.int32)
        self.first_child = np.zeros(capacity, dtype=np.int32)
        self.child_count = np.zeros(capacity, dtype=np.int32)
        self.visits = np.zeros(capacity, dtype=np.int32)
        self.value_sum = np.zeros(capacity, dtype=np.float64)
        self.prior = np.zeros(capacity, dtype=np.float64)
        self.used = np.zeros(1, dtype=np.int64)
        self.reset()

    def reset(self) -> None:
        self.used[0] = 1
        self.move[0] = -1
        self.first_child[0] = self.child_count[0] = self.visits[0] = 0
        self.value_sum[0] = 0.0

    def arrays(self) -> tuple:
        return (self.move, self.first_child, self.child_count, self.visits, self.value_sum,
                self.prior)

    def root_visits(self) -> dict[int, int]:
        """``{move: visits}`` of the root's children."""
        first, n = int(self.first_child[0]), int(self.child_count[0])
        return {int(self.move[i]): int(self.visits[i]) for i in range(first, first + n)}


def new_work(weights) -> tuple:
    """Work arrays of :func:`puct_kernel`: scratch state, path, moves, priors, then the network's."""
    return (np.zeros(STATE_SIZE, dtype=np.int64), np.zeros(MAX_PATH, dtype=np.int64),
            np.zeros(81, dtype=np.int64), np.zeros(81), *empty_work(weights))


@njit(cache=True)
def puct_kernel(root_state, iterations, c, fpu, mix, use_policy, scoring, rng, used, move,
                first_child, child_count, visits, value_sum, prior,
                w1, b1, w2, b2, wp, bp, wv, bv,
                scratch, path, buf, priors, x, h1, h2, logits):
    """Run ``iterations`` PUCT iterations from ``root_state``; return how many ran.

    Allocation-free; the tree lives in the pool arrays (``used[0]`` nodes).
    """
    capacity = move.shape[0]
    call_network = use_policy or mix < 1.0
    for _ in range(iterations):
        scratch[:] = root_state
        node, depth = 0, 0
        path[0] = 0
        while child_count[node] > 0:
            first, n = first_child[node], child_count[node]
            root_n = math.sqrt(visits[node])
            best, best_score = first, -np.inf
            for child in range(first, first + n):
                q = value_sum[child] / visits[child] if visits[child] > 0 else fpu
                score = q + c * prior[child] * root_n / (1.0 + visits[child])
                if score > best_score:
                    best, best_score = child, score
            node = best
            play(scratch, move[node])
            depth += 1
            path[depth] = node
        # evaluate: v is for the player who moved into the leaf
        if scratch[OUTCOME] != ONGOING:
            won_by = winner(scratch, scoring)
            v = 0.0 if won_by < 0 else (1.0 if won_by != scratch[PLAYER] else -1.0)
        else:
            mover = 1 - scratch[PLAYER]
            n = legal_moves(scratch, buf)
            v = 0.0
            if call_network:
                v = -evaluate(scratch, w1, b1, w2, b2, wp, bp, wv, bv, x, h1, h2, logits)
            count = used[0]
            if count + n <= capacity:
                if use_policy:
                    softmax_legal(logits, buf, n, priors)
                add_children(node, count, n, buf, move, first_child, child_count, visits,
                             value_sum, prior, 0.0)
                for k in range(n):  # the policy's priors, or uniform ones
                    prior[count + k] = priors[k] if use_policy else 1.0 / n
                used[0] = count + n
            if mix > 0.0:
                random_playout(scratch, rng)
                won_by = winner(scratch, scoring)
                z = 0.0 if won_by < 0 else (1.0 if won_by == mover else -1.0)
                v = (1.0 - mix) * v + mix * z
        for d in range(depth, -1, -1):
            visits[path[d]] += 1
            value_sum[path[d]] += v
            v = -v
    return iterations


def puct_search(root_state, iterations, weights, pool: PUCTPool, work, rng, *, c=1.5, fpu=0.0,
                mix=0.0, use_policy=True, scoring=0) -> int:
    """Python front of :func:`puct_kernel`: checks the arguments, runs, returns the best move."""
    if not (isinstance(c, (int, float)) and c >= 0):
        raise ValueError(f"c (c_puct) must be a number >= 0, got {c!r}.")
    if not (isinstance(mix, (int, float)) and 0.0 <= mix <= 1.0):
        raise ValueError(f"mix (weight of the playout in a leaf's value) must be in [0, 1], "
                         f"got {mix!r}.")
    if root_state[OUTCOME] != ONGOING:
        raise ValueError("root_state must be a game still on (it has no moves to search).")
    if len(work[4]) != N_FEATURES:
        raise ValueError("work must come from new_work(weights).")
    pool.reset()
    puct_kernel(root_state, int(iterations), float(c), float(fpu), float(mix), bool(use_policy),
                int(scoring), rng, pool.used, *pool.arrays(), *weights, *work)
    stats = pool.root_visits()
    return max(stats, key=lambda m: (stats[m], -list(stats).index(m)))
