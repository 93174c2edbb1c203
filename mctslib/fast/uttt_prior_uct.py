"""The UCT bot's search with the network's policy as a progressive bias (chapter 7).

The chapter "PUCT and Gumbel: search with a learned prior" (chapter 7) finds that PUCT with
the network at every leaf loses to the UCT bot at equal time, because a network
call costs about as much as 8.7 random playouts. This kernel spends the network
where it is cheap: the UCT bot's search (:mod:`mctslib.fast.uttt_uct`, 0/1
rewards, win-taking playouts, win-taking in the tree, the MCTS-Solver) calls the
network once for a node, when that node has been visited ``bias_visits`` times,
and from then on adds to each child's UCB1 score the *progressive bias* of
Chaslot et al. (2008), a term that fades as the child's own visits grow::

    wins / visits + c * sqrt(ln(parent visits) / visits) + bias * P(child) / (visits + 1)

where ``P`` is the network's policy (softmax over the node's children). A node
visited fewer times, and every node when ``bias`` is 0, is scored by the UCT
bot's own selection (the tests check that ``bias = 0`` builds the UCT bot's
tree node for node). An unvisited child is still taken first, in the shuffled
order of the tree, so a node's children are all tried once before the bias
can matter when ``bias_visits`` is at least their number. With
``bias_visits`` k the network runs once for each node that reaches k visits
(and has more than one child); an iteration adds a visit to every node on
its path, so that is at most (iterations x mean path length) / k calls, and
far fewer in practice, since most nodes never reach k visits (the bot counts
its calls in ``calls``).

The node arrays are a :class:`mctslib.fast.uttt_uct.NodePool`'s, with two more:
``prior`` (float64, padded like ``visits``) and ``primed`` (int8, 1 once the
node's children have their prior). :class:`mctslib.bots.uttt_prior.PriorUCTBot`
keeps them through tree reuse.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .uttt import ONGOING, OUTCOME, PLAYER, STATE_SIZE, play, result
from .uttt_network import evaluate, softmax_legal
from .uttt_uct import (
    LANES,
    LOG_OF,
    LOSS,
    UNKNOWN,
    _backup,
    _expand,
    _prove_leaf,
    _select,
    win_taking_playout,
)


@njit(cache=True, error_model="numpy", inline="always")  # see uttt_uct._select
def _select_biased(node, c, bias, solver_on, first_child, child_count, visits, wins, proven,
                   prior, scores):
    """UCB1 plus the progressive bias over ``node``'s children (the first unvisited first).

    The loop of :func:`mctslib.fast.uttt_uct._select` (padded blocks of
    :data:`LANES`, the first strictly highest score) with the bias term added.
    Used for primed nodes only; the others take ``_select`` itself.
    """
    first, count = first_child[node], child_count[node]
    if visits[first + count - 1] == 0:
        for child in range(first, first + count):
            if visits[child] == 0:
                return child
    parent_visits = visits[node]
    log_parent = (LOG_OF[parent_visits] if parent_visits < LOG_OF.shape[0]
                  else math.log(parent_visits))
    base = np.uint64(first)
    for k in range(np.uint64((count + LANES - 1) & -LANES)):
        scores[k] = (wins[base + k] / visits[base + k]
                     + c * math.sqrt(log_parent / visits[base + k])
                     + bias * prior[base + k] / (visits[base + k] + 1.0))
    if solver_on:
        for k in range(count):
            if proven[first + k] == LOSS:
                scores[k] = -math.inf
    best, best_score = 0, scores[0]
    for k in range(1, count):
        if scores[k] > best_score:
            best, best_score = k, scores[k]
    return first + best


@njit(cache=True)
def _prime(node, s, first_child, child_count, move, prior, primed, moves, probs,
           w1, b1, w2, b2, wp, bp, wv, bv, x, h1, h2, logits) -> int:
    """Give ``node``'s children (position ``s``) the network's policy; return the calls made.

    A node with one child (a forced or a winning move) needs no call.
    """
    first, n = first_child[node], child_count[node]
    primed[node] = 1
    if n == 1:
        prior[first] = 1.0
        return 0
    evaluate(s, w1, b1, w2, b2, wp, bp, wv, bv, x, h1, h2, logits)
    for k in range(n):
        moves[k] = move[first + k]
    softmax_legal(logits, moves, n, probs)
    for k in range(n):
        prior[first + k] = probs[k]
    return 1


@njit(cache=True, error_model="numpy")
def prior_uct_kernel(root_state, iterations, c, bias, bias_visits, tree_wins, solver_on,
                     scoring, rng, used, move, first_child, child_count, visits, wins, proven,
                     prior, primed, calls, scratch, path, buf, scores, moves, probs,
                     w1, b1, w2, b2, wp, bp, wv, bv, x, h1, h2, logits):
    """Run up to ``iterations`` iterations from ``root_state``; return how many ran.

    Arguments as :func:`mctslib.fast.uttt_uct.search_kernel` with 0/1 rewards,
    win-taking playouts, children on a leaf's second visit and no cut-off,
    plus: ``bias`` (>= 0) and ``bias_visits`` (>= 1), see the module;
    ``prior``, ``primed`` (the two extra node arrays); ``calls`` (int64 array
    of 1, network calls added in place); ``moves`` (81 int64) and ``probs``
    (81 float64) work arrays; the network's eight arrays and its four work
    arrays (:func:`mctslib.fast.uttt_network.empty_work`).
    """
    capacity = move.shape[0]
    count = used[0]
    done = 0
    while done < iterations:
        if solver_on and proven[0] != UNKNOWN:
            break  # the root is proven
        for i in range(STATE_SIZE):
            scratch[i] = root_state[i]
        node, depth = 0, 1
        path[0] = 0
        while child_count[node] > 0:  # selection, priming nodes that have earned a call
            if bias > 0.0 and primed[node] == 0 and visits[node] >= bias_visits:
                calls[0] += _prime(node, scratch, first_child, child_count, move, prior, primed,
                                   moves, probs, w1, b1, w2, b2, wp, bp, wv, bv, x, h1, h2,
                                   logits)
            if primed[node]:  # bias > 0 here: no node is primed without it
                node = _select_biased(node, c, bias, solver_on, first_child, child_count,
                                      visits, wins, proven, prior, scores)
            else:  # the UCT bot's own selection, vectorised (most nodes are never primed)
                node = _select(node, c, solver_on, first_child, child_count, visits, wins,
                               proven, scores)
            play(scratch, move[node])
            path[depth] = node
            depth += 1
        if scratch[OUTCOME] == ONGOING and (visits[node] >= 1 or node == 0):  # expansion
            grown = _expand(node, scratch, count, capacity, rng, tree_wins, scoring, move,
                            first_child, child_count, visits, wins, proven, buf)
            for i in range(count, grown):  # new nodes: no prior yet
                prior[i] = 0.0
                primed[i] = 0
            if grown > count:
                node = count
                count = grown
                play(scratch, move[node])
                path[depth] = node
                depth += 1
        mover = 1 - scratch[PLAYER]
        if solver_on and scratch[OUTCOME] != ONGOING:
            _prove_leaf(node, scratch, scoring, proven)
        win_taking_playout(scratch, rng, scoring, buf)
        _backup(path, depth, result(scratch, mover, scoring), False, solver_on, first_child,
                child_count, visits, wins, proven)
        done += 1
    used[0] = count
    return done


@njit(cache=True)
def move_node_data(new_root, old_count, new_index, prior, primed):
    """After :func:`mctslib.fast.uttt_uct.reroot`: move ``prior`` and ``primed`` as it moved the nodes.

    ``new_index`` is the pool's scratch as ``reroot`` left it (the new index of
    each node from ``new_root`` on, -1 for a node not kept); targets never
    exceed sources, so one ascending pass is safe.
    """
    for i in range(new_root, old_count):
        target = new_index[i]
        if target >= 0:
            prior[target] = prior[i]
            primed[target] = primed[i]
