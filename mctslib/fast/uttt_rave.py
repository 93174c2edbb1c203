"""UCT, RAVE and GRAVE on Ultimate Tic-Tac-Toe in numba (chapter "Enhancements that matter").

The twin of the readable :class:`mctslib.search.rave.RAVESearch` on
:class:`~mctslib.games.uttt.UltimateTicTacToe` with an
:class:`~mctslib.xorshift.XorShift64`, built on the primitives of
:mod:`mctslib.fast.uttt` (``legal_moves``, ``play``, ``random_move``, ``result``):
the same selection, expansion, recorded random playouts (the moves of
:func:`mctslib.fast.uttt.random_playout`, drawn one at a time so that each is
noted for the AMAF update), backup and AMAF update, so both build the same tree
and AMAF tables for the same seed (the tests compare them). ``use_amaf`` off is
plain UCT with the same recorded playout loop, so that UCT and RAVE are timed on
the same code; the chapter's fastest UCT is :mod:`mctslib.fast.uttt_uct`.

The node pool (:class:`~mctslib.fast.hex_uct.RAVEPool`), the work arrays and
the whole kernel are those of :mod:`mctslib.fast.hex_uct`: the kernel below is
its copy, verbatim (a test compares the two sources), with the game functions
imported from :mod:`mctslib.fast.uttt` instead of :mod:`mctslib.fast.hex`. In
Ultimate Tic-Tac-Toe a cell is also played at most once, so the AMAF update
has nothing to deduplicate either. Draws give each player 0.5 (a doubled
reward of 1 in the tables).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .hex_uct import HAND, MSE, RAVEPool, work_arrays  # noqa: F401 (public API)
from .node_pool import add_children
from .uttt import ONGOING, OUTCOME, PLAYER, legal_moves, play, random_move, result
from .xorshift import shuffle_prefix

#: Distinct moves (cells) of Ultimate Tic-Tac-Toe.
MOVES = 81


# ---- the kernel: copied verbatim into uttt_rave.py (a test compares the sources) ----
@njit(cache=True)
def _beta(schedule, bias, equivalence, n, av, parent_visits):
    """The weight of AMAF: readable ``RAVERule._beta``, operation for operation."""
    if schedule == MSE:
        if av == 0:
            return 0.0
        return av / (n + av + 4.0 * bias * bias * n * av)
    if av == 0 or equivalence == 0.0:
        return 0.0
    return math.sqrt(equivalence / (3.0 * parent_visits + equivalence))


@njit(cache=True)
def _select(node, player, ref_node, use_amaf, c, schedule, bias, equivalence, moves,
            first_child, child_count, visits, wins, move, table, amaf_n, amaf_w2):
    """The first strictly highest score among ``node``'s children (readable ``RAVERule``)."""
    first, count = first_child[node], child_count[node]
    parent_visits = visits[node]
    log_parent = math.log(parent_visits)
    t = table[ref_node] if use_amaf else -1
    best, best_score = -1, -math.inf
    for child in range(first, first + count):
        n = visits[child]
        av, aw = 0, 0.0
        if t >= 0:
            off = (2 * t + player) * moves + move[child]
            av = amaf_n[off]
            aw = 0.5 * amaf_w2[off]
        beta = _beta(schedule, bias, equivalence, n, av, parent_visits) if use_amaf else 0.0
        if n == 0:
            if c > 0.0 or beta == 0.0:
                score = math.inf
            else:
                score = aw / av
        else:
            value = wins[child] / n
            if beta > 0.0:
                value = (1.0 - beta) * value + beta * (aw / av)
            score = value + c * math.sqrt(log_parent / n)
        if score > best_score:
            best, best_score = child, score
    return best


@njit(cache=True)
def search(root_state, iterations, c, use_amaf, schedule, bias, equivalence, ref, scoring, moves,
           rng, used, move, first_child, child_count, visits, wins, table, amaf_n, amaf_w2,
           scratch, path, path_player, seq, seq_player, buf):
    """Run ``iterations`` iterations of UCT (``use_amaf`` off), RAVE or GRAVE from ``root_state``.

    Parameters
    ----------
    root_state : int64 array
        The root position (left unchanged; not finished).
    iterations : int
        Iterations to run.
    c : float
        Exploration constant (>= 0).
    use_amaf : bool
        Keep AMAF tables and blend them in (RAVE / GRAVE); off: plain UCT.
    schedule, bias, equivalence : int, float, float
        :data:`MSE` with the bias ``b``, or :data:`HAND` with ``k``.
    ref : int
        GRAVE's threshold (a node reads the table of the closest node on the
        path with more than ``ref`` visits, the root if none); -1 for RAVE.
    scoring : int
        How a finished game scores (Ultimate Tic-Tac-Toe's CODINGAME or
        OPENSPIEL; unused in Hex).
    moves : int
        Distinct moves of the game, the pool's ``moves``.
    rng : uint64 array of 1
        The xorshift64 state, advanced in place.
    used : int64 array of 2
        ``[nodes, tables]`` in use, updated in place.
    move ... amaf_w2
        The arrays of a :class:`RAVEPool`.
    scratch, path, path_player, seq, seq_player, buf
        Work arrays (:func:`work_arrays`).

    Returns the number of iterations run.
    """
    capacity = move.shape[0]
    table_capacity = amaf_n.shape[0] // (2 * moves)
    count, tables = used[0], used[1]
    state_len = root_state.shape[0]
    done = 0
    while done < iterations:
        for i in range(state_len):
            scratch[i] = root_state[i]
        node, depth = 0, 1
        path[0] = 0
        while child_count[node] > 0:  # selection
            player = scratch[PLAYER]
            ref_node = node
            if ref >= 0:  # GRAVE: the closest node on the path with more than ref visits
                d = depth - 1
                while visits[path[d]] <= ref and d > 0:
                    d -= 1
                ref_node = path[d]
            node = _select(node, player, ref_node, use_amaf, c, schedule, bias, equivalence,
                           moves, first_child, child_count, visits, wins, move, table, amaf_n,
                           amaf_w2)
            play(scratch, move[node])
            path_player[depth] = player
            path[depth] = node
            depth += 1
        if scratch[OUTCOME] == ONGOING and (visits[node] > 0 or node == 0):  # expansion
            n = legal_moves(scratch, buf)
            if count + n <= capacity:
                shuffle_prefix(buf, n, rng)
                add_children(node, count, n, buf, move, first_child, child_count, visits, wins,
                             table, -1)
                path_player[depth] = scratch[PLAYER]
                node = count
                count += n
                play(scratch, move[node])
                path[depth] = node
                depth += 1
        mover = path_player[depth - 1]  # who made the move into the leaf
        length = 0
        while scratch[OUTCOME] == ONGOING:  # simulation, recorded
            seq_player[length] = scratch[PLAYER]
            m = random_move(scratch, rng)
            seq[length] = m
            length += 1
            play(scratch, m)
        reward = result(scratch, mover, scoring)
        for d in range(depth - 1, -1, -1):  # backpropagation
            current = path[d]
            visits[current] += 1
            wins[current] += reward
            reward = 1.0 - reward
        if use_amaf:  # AMAF: every move after a node, credited to who played it
            r0 = np.int32(2.0 * result(scratch, 0, scoring))
            r1 = np.int32(2.0 * result(scratch, 1, scoring))
            for d in range(depth - 1, -1, -1):
                if length == 0 and d == depth - 1:
                    continue  # nothing was played after the leaf: no table (as readable)
                current = path[d]
                t = table[current]
                if t < 0:
                    if tables >= table_capacity:
                        continue
                    t = tables
                    tables += 1
                    table[current] = t
                    for i in range(2 * moves * t, 2 * moves * (t + 1)):
                        amaf_n[i] = 0
                        amaf_w2[i] = 0
                base = 2 * moves * t
                for k in range(length):
                    off = base + seq_player[k] * moves + seq[k]
                    amaf_n[off] += 1
                    amaf_w2[off] += r0 if seq_player[k] == 0 else r1
                for e in range(d + 1, depth):
                    p = path_player[e]
                    off = base + p * moves + move[path[e]]
                    amaf_n[off] += 1
                    amaf_w2[off] += r0 if p == 0 else r1
        done += 1
    used[0], used[1] = count, tables
    return done
# ---- end of the kernel ----
