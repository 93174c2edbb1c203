"""The bot author's toolbox for the UTTT search, in numba (chapter "How a Legend bot gets its strength").

:func:`toolbox_kernel` is the search of :mod:`mctslib.fast.uttt_uct` (same
node pool, same selection, expansion, playouts and backup) with four more
options, each one SPEC key of :mod:`mctslib.bots.uttt` (the bot runs this kernel
only when one of them is on, so every other SPEC keeps its old kernel):

* ``fpu`` (*first-play urgency*, Gelly, Wang, Munos and Teytaud 2006): an
  unvisited child scores ``fpu`` instead of being tried before any visited
  one; a visited child keeps its UCB1 score. Negative: off (the first
  unvisited child first, as UCT does). At a free choice (up to 81 moves)
  plain UCT spends 81 visits before it compares anything; with an urgency
  below the good moves' scores it spends them on the good moves.
* ``bounds_on`` (*score-bounded MCTS*, Cazenave and Saffidine 2010): every
  node keeps a pessimistic and an optimistic bound on the game's value for
  the player who moved into it, ``lower`` and ``upper`` in {0 loss, 1 draw,
  2 win}; a finished game has both equal to its result, a node not yet
  known (0, 2). A node's bounds follow from its children's (the mover into
  the node gets the worst of what the opponent's replies leave it):
  ``lower = min(2 - upper[child])`` and ``upper = min(2 - lower[child])``,
  recomputed up the path whenever a leaf's bounds change. Selection skips a
  child whose optimistic bound cannot beat what another child guarantees
  (``upper[child] <= max lower[sibling]``): a proven draw is not explored
  further while a win is still possible elsewhere, and a proven loss never.
  The search stops once the root's bounds meet (the root is solved: a win,
  a loss *or a draw*). It replaces MCTS-Solver (``solver_on`` must be off),
  which proves wins and losses only.
* ``tree_safe`` (*anti-decisive moves in the tree*, Teytaud and Teytaud
  2010): a position that gets children keeps only the moves after which the
  opponent cannot win the game at once (all of them if none is safe). It
  needs ``tree_wins`` (the *decisive* rule: a position with a winning move
  gets that one child), so that a winning move is never dropped. The test
  is a few look-ups in the win tables (:func:`mctslib.fast.uttt_playouts.keep_safe`).
* ``mast_threshold`` (*MAST*, the move-average sampling technique of Finnsson
  and Björnsson 2008): a table of the average result of every (player,
  move) pair over all simulations of the search, every move of the tree path
  and of the playout counted for the player who made it. Each playout move
  is, with chance ``epsilon``, uniformly random, and otherwise the legal move
  with the best average (an unseen move counts as a win, so that it gets
  tried; the first in move order on ties): the epsilon-greedy selection of
  Tak, Winands and Björnsson (2012) in place of the paper's Gibbs sampling.
  ``mast_threshold`` is ``epsilon * 2**32`` (the draw compares the high 32
  bits of one xorshift64 step with it); negative: off. Win-taking playouts
  (``playout`` 1) still take an immediate win first; MAST replaces the
  random move only.

With every option off, :func:`toolbox_kernel` builds the same tree as
:func:`mctslib.fast.uttt_uct.search_kernel` (tested), and each option is
tested equal, node for node, to the readable
:class:`mctslib.search.uttt_toolbox.ToolboxSearch`.

Nothing here allocates: the caller passes every array (the bot's pool, two
int8 arrays for the bounds, the MAST table and a move trail).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .node_pool import add_children
from .uttt import (
    BOARD_OF,
    CELL_OF,
    FORCED,
    FREE,
    MOVE_OF,
    ONGOING,
    OUTCOME,
    PLAYER,
    STATE_SIZE,
    legal_moves,
    play,
    random_move,
    random_playout,
    result,
    winning_moves,
)
from .uttt_playouts import RANDOM, WINS, danger, keep_safe, policy_playout
from .uttt_uct import LANES, LOG_OF, LOSS, UNKNOWN, _backup, _prove_leaf, win_taking_playout
from .uttt_uct import _select as _ucb1_select
from .xorshift import shuffle_prefix, xorshift_next

#: Bounds of a node, for the player who moved into it.
LOST, DRAWN, WON_GAME = 0, 1, 2
#: An unseen move's MAST value: a win, so that every move gets tried.
MAST_UNSEEN = 1.0


@njit(cache=True, error_model="numpy", inline="always")
def _select(node, c, fpu, solver_on, bounds_on, first_child, child_count, visits, wins, proven,
            lower, upper, scores):
    """UCB1 with first-play urgency and the bounds' cut; the first strictly highest score.

    Off (``fpu < 0``, no bounds): the first unvisited child, else the first
    strictly highest UCB1 score, as :func:`mctslib.fast.uttt_uct._select`
    (the same floating-point operations). An unvisited child scores ``fpu``;
    a child cut by the bounds, or a proven loss with the solver, minus
    infinity. The scores are computed as in that function, over whole blocks
    of :data:`~mctslib.fast.uttt_uct.LANES` children with no branch (one
    vector instruction a step; an unvisited child's 0 / 0 is replaced after).
    """
    first, count = first_child[node], child_count[node]
    if fpu < 0.0 and visits[first + count - 1] == 0:
        for child in range(first, first + count):
            if visits[child] == 0:
                return child
    parent_visits = visits[node]
    log_parent = (LOG_OF[parent_visits] if parent_visits < LOG_OF.shape[0]
                  else math.log(parent_visits))
    base = np.uint64(first)
    for k in range(np.uint64((count + LANES - 1) & -LANES)):
        scores[k] = (wins[base + k] / visits[base + k]
                     + c * math.sqrt(log_parent / visits[base + k]))
    if fpu >= 0.0:
        for k in range(count):
            if visits[first + k] == 0:
                scores[k] = fpu
    if bounds_on:
        guaranteed = lower[first]  # the best lower bound: what the mover is already sure of
        for k in range(1, count):
            guaranteed = max(guaranteed, lower[first + k])
        for k in range(count):
            if upper[first + k] <= guaranteed:
                scores[k] = -math.inf  # cannot beat what a sibling already guarantees
    if solver_on:
        for k in range(count):
            if proven[first + k] == LOSS:
                scores[k] = -math.inf
    best = 0
    for k in range(1, count):
        if scores[k] > scores[best]:
            best = k
    return first + best


@njit(cache=True, inline="always")
def _expand(node, s, count, capacity, rng, tree_wins, tree_safe, scoring, move, first_child,
            child_count, visits, wins, proven, lower, upper, buf, copy):
    """Children for ``node`` (decisive, then anti-decisive rule); return the new node count.

    As :func:`mctslib.fast.uttt_uct._expand`, and with ``tree_safe`` the moves
    after which the opponent wins at once are left out (unless all are).
    New children get the bounds (0, 2): nothing known.
    """
    if tree_wins and winning_moves(s, scoring, buf) > 0:
        n = 1  # buf[0], the lowest winning move
    else:
        n = legal_moves(s, buf)
        if tree_safe and danger(s):
            n = keep_safe(s, n, scoring, buf, copy)
    if count + n > capacity:
        return count
    shuffle_prefix(buf, n, rng)
    add_children(node, count, n, buf, move, first_child, child_count, visits, wins, proven,
                 UNKNOWN)
    for child in range(count, count + n):
        lower[child] = LOST
        upper[child] = WON_GAME
    return count + n


@njit(cache=True)
def _update_bounds(path, depth, first_child, child_count, lower, upper):
    """Recompute the bounds of the path's nodes from their children, leaf's parent upwards.

    Stops at the first node whose bounds do not change (nothing above it can).
    """
    for d in range(depth - 2, -1, -1):
        node = path[d]
        first = first_child[node]
        low, high = WON_GAME, WON_GAME
        for child in range(first, first + child_count[node]):
            low = min(low, WON_GAME - upper[child])
            high = min(high, WON_GAME - lower[child])
        if low == lower[node] and high == upper[node]:
            return
        lower[node] = low
        upper[node] = high


@njit(cache=True, inline="always")
def _mast_value(player, move, mast_sum, mast_count):
    seen = mast_count[player, move]
    return mast_sum[player, move] / seen if seen > 0 else MAST_UNSEEN


@njit(cache=True)
def _mast_best(s, mast_sum, mast_count):
    """The legal move with the best MAST average for the player to move; the lowest on ties.

    Legal moves in ascending order without a list: a forced board's free cells
    (cell order is move order within a board), or every cell of the grid
    whose board's free mask has it.
    """
    player, forced = s[PLAYER], s[FORCED]
    chosen, best = -1, -1.0
    if forced >= 0:
        free = s[FREE + forced]
        for cell in range(9):
            if (free >> cell) & 1:
                move = np.int64(MOVE_OF[forced, cell])
                value = _mast_value(player, move, mast_sum, mast_count)
                if value > best:
                    chosen, best = move, value
        return chosen
    for move in range(81):
        if (s[FREE + BOARD_OF[move]] >> CELL_OF[move]) & 1:
            value = _mast_value(player, move, mast_sum, mast_count)
            if value > best:
                chosen, best = move, value
    return chosen


@njit(cache=True)
def mast_playout(s, rng, take_wins, threshold, scoring, buf, mast_sum, mast_count, trail):
    """A MAST playout in place (see the module); return the number of moves, kept in ``trail``.

    Per move: an immediate win if ``take_wins`` and there is one; else one
    xorshift64 step, whose high 32 bits below ``threshold`` mean a uniformly
    random move (``legal moves[below(count)]``, a second draw); otherwise the
    legal move with the best MAST average for the player to move.
    """
    played = 0
    while s[OUTCOME] == ONGOING:
        if take_wins and winning_moves(s, scoring, buf) > 0:
            chosen = buf[0]
        elif (xorshift_next(rng) >> 32) < threshold:
            chosen = random_move(s, rng)
        else:
            chosen = _mast_best(s, mast_sum, mast_count)
        trail[played] = chosen
        played += 1
        play(s, chosen)
    return played


@njit(cache=True)
def _mast_update(root_player, path, depth, move, trail, played, s, scoring, mast_sum,
                 mast_count):
    """Credit every move of the iteration (tree path, then playout) to the player who made it."""
    x_result = result(s, 0, scoring)
    player = root_player
    for d in range(1, depth):
        m = move[path[d]]
        mast_sum[player, m] += x_result if player == 0 else 1.0 - x_result
        mast_count[player, m] += 1
        player = 1 - player
    for k in range(played):
        m = trail[k]
        mast_sum[player, m] += x_result if player == 0 else 1.0 - x_result
        mast_count[player, m] += 1
        player = 1 - player


@njit(cache=True, error_model="numpy", _nrt=False)
def toolbox_kernel(root_state, iterations, c, pm1, playout, tree_wins, solver_on, scoring, rng,
                   used, move, first_child, child_count, visits, wins, proven, scratch, path,
                   buf, scores, copy, expand, draw, fpu, bounds_on, lower, upper, tree_safe,
                   mast_threshold, mast_sum, mast_count, trail):
    """Run up to ``iterations`` iterations from ``root_state``; return how many ran.

    The arguments up to ``draw`` are those of
    :func:`mctslib.fast.uttt_uct.search_kernel` (no cut-off here; ``scores`` is
    the work array of its vectorised UCB1, used when ``fpu`` and the bounds are
    off); then
    ``fpu`` (negative: off), ``bounds_on`` with the int8 arrays ``lower`` and
    ``upper`` (one entry a node; the root's are set by the caller to (0, 2)
    for a fresh tree), ``tree_safe``, and ``mast_threshold`` (negative: off)
    with ``mast_sum`` and ``mast_count`` (float64 and int64, shape (2, 81),
    kept by the caller) and ``trail`` (81 int64). Fewer iterations run only
    when the solver or the bounds solve the root.
    """
    capacity = move.shape[0]
    count = used[0]
    root_player = root_state[PLAYER]
    done = 0
    while done < iterations:
        if solver_on and proven[0] != UNKNOWN:
            break
        if bounds_on and lower[0] == upper[0]:
            break  # the root is solved: a win, a loss or a draw
        for i in range(STATE_SIZE):
            scratch[i] = root_state[i]
        node, depth = 0, 1
        path[0] = 0
        while child_count[node] > 0:  # selection
            if fpu < 0.0 and not bounds_on:  # plain UCB1: the chapter-5 kernel's vector loop
                node = _ucb1_select(node, c, solver_on, first_child, child_count, visits, wins,
                                    proven, scores)
            else:
                node = _select(node, c, fpu, solver_on, bounds_on, first_child, child_count,
                               visits, wins, proven, lower, upper, scores)
            play(scratch, move[node])
            path[depth] = node
            depth += 1
        if scratch[OUTCOME] == ONGOING and (visits[node] >= expand or node == 0):  # expansion
            grown = _expand(node, scratch, count, capacity, rng, tree_wins, tree_safe, scoring,
                            move, first_child, child_count, visits, wins, proven, lower, upper,
                            buf, copy)
            if grown > count:
                node = count
                count = grown
                play(scratch, move[node])
                path[depth] = node
                depth += 1
        mover = 1 - scratch[PLAYER]
        if scratch[OUTCOME] != ONGOING:
            if solver_on:
                _prove_leaf(node, scratch, scoring, proven)
            if bounds_on:
                value = round(2.0 * result(scratch, mover, scoring))
                lower[node] = value
                upper[node] = value
                _update_bounds(path, depth, first_child, child_count, lower, upper)
        played = 0
        if mast_threshold >= 0:  # simulation
            played = mast_playout(scratch, rng, playout == WINS, mast_threshold, scoring, buf,
                                  mast_sum, mast_count, trail)
        elif playout == RANDOM:
            random_playout(scratch, rng)
        elif playout == WINS:
            win_taking_playout(scratch, rng, scoring, buf)
        else:
            policy_playout(scratch, rng, playout, scoring, buf, copy)
        reward = result(scratch, mover, scoring)
        if mast_threshold >= 0:
            _mast_update(root_player, path, depth, move, trail, played, scratch, scoring,
                         mast_sum, mast_count)
        if reward == 0.5 and draw != 0.5:
            reward = draw if mover == root_player else 1.0 - draw
        if pm1:
            reward = 2.0 * reward - 1.0
        _backup(path, depth, reward, pm1, solver_on, first_child, child_count, visits, wins,
                proven)
        done += 1
    used[0] = count
    return done


@njit(cache=True)
def move_bounds(new_root, old_count, new_index, lower, upper):
    """Move the bounds of the subtree :func:`mctslib.fast.uttt_uct.reroot` kept, as it moved the nodes.

    ``new_index[i]`` is node ``i``'s new index (negative: not kept); new
    indices are never larger than old ones, so copying in index order never
    overwrites a bound still to be moved.
    """
    for i in range(new_root, old_count):
        target = new_index[i]
        if target >= 0:
            lower[target] = lower[i]
            upper[target] = upper[i]
