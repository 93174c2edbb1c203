"""UCT, RAVE and GRAVE on Hex in numba: the searches the chapter "Enhancements that matter" measures.

The twin of the readable :class:`mctslib.search.rave.RAVESearch` on
:class:`~mctslib.games.hex.Hex` with an :class:`~mctslib.xorshift.XorShift64`:
the same selection (the first strictly highest blended score, unvisited
children scored as the readable rule scores them), the same expansion (all
children at once, on a node's second visit or at the root, moves ascending
then shuffled by Fisher-Yates with ``below(i + 1)``), the same random
playouts (:func:`mctslib.fast.hex.random_move`), the same backup and the same
AMAF update, so both build the same tree and the same AMAF tables; the tests
compare them. With ``use_amaf`` off it is plain UCT (the readable
:class:`~mctslib.search.uct.UCTSearch`), without the AMAF bookkeeping.

The tree is a node pool like :mod:`mctslib.fast.uttt_uct`'s: flat arrays
allocated once (:class:`RAVEPool`), a node's children next to each other,
node 0 the root. AMAF tables are a second pool: a node gets one the first
time a simulation passes through it (the readable search makes a table at
the same moment), ``2 * moves`` counts (player, move) of visits and of
doubled rewards (``2 * result``, a whole number: sums of 0, 0.5 and 1 kept
exactly, so the means equal the readable float sums'). A full node pool
stops the tree growing; a full table pool stops new tables (both only past
the budgets the pool was sized for; the search never allocates).

Each cell is played at most once in a game, so "the first time a move is
played in the rest of the simulation" is simply "the time it is played":
the update credits every move after the node, each once, to the player who
played it (the readable search's convention, with nothing to deduplicate).

The kernel :func:`search` is written once and copied verbatim into
:mod:`mctslib.fast.uttt_rave` (numba's on-disk cache wants plain module-level
functions, not a kernel built from game functions passed in); only the game
primitives it calls differ, and a test checks the two sources are equal.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._checks import check_int
from .hex import OUTCOME, PLAYER, legal_moves, play, random_move
from .hex import result as _result
from .node_pool import add_children
from .xorshift import shuffle_prefix

ONGOING = -1
MSE, HAND = 0, 1


@njit(cache=True)
def result(s, player, scoring):
    """The reward of ``player`` in the finished game ``s`` (``scoring`` is unused in Hex)."""
    return _result(s, player)


class RAVEPool:
    """The tree's arrays and the AMAF tables, allocated once.

    Parameters
    ----------
    capacity : int
        Nodes the pool holds (>= 2).
    tables : int
        AMAF tables it holds (0 for plain UCT); one per node a simulation
        passed through, so ``iterations + 1`` are enough for a search.
    moves : int
        Distinct moves of the game (49 on Hex 7 x 7, 81 in Ultimate
        Tic-Tac-Toe): a table has ``2 * moves`` entries.
    """

    def __init__(self, capacity: int, tables: int, moves: int):
        self.capacity = check_int("capacity (nodes in the pool)", capacity, 2, 10**9)
        self.tables = check_int("tables (AMAF tables in the pool)", tables, 0, 10**8)
        self.moves = check_int("moves (distinct moves of the game)", moves, 1, 10_000)
        self.move = np.zeros(self.capacity, dtype=np.int32)
        self.first_child = np.zeros(self.capacity, dtype=np.int32)
        self.child_count = np.zeros(self.capacity, dtype=np.int32)
        self.visits = np.zeros(self.capacity, dtype=np.int32)
        self.wins = np.zeros(self.capacity, dtype=np.float64)
        self.table = np.full(self.capacity, -1, dtype=np.int32)
        size = max(1, self.tables) * 2 * self.moves
        self.amaf_n = np.zeros(size, dtype=np.int32)
        self.amaf_w2 = np.zeros(size, dtype=np.int32)
        self.used = np.zeros(2, dtype=np.int64)  # [nodes, tables] in use
        self.reset()

    def reset(self) -> None:
        """Empty the tree: a lone root with no visits and no table."""
        self.used[0], self.used[1] = 1, 0
        self.move[0] = -1
        self.first_child[0] = self.child_count[0] = self.visits[0] = 0
        self.wins[0] = 0.0
        self.table[0] = -1

    def arrays(self) -> tuple:
        """The arrays in the order :func:`search` takes them (after ``used``)."""
        return (self.move, self.first_child, self.child_count, self.visits, self.wins,
                self.table, self.amaf_n, self.amaf_w2)

    def children(self, node: int = 0) -> range:
        """Indices of ``node``'s children (empty for a leaf)."""
        first = int(self.first_child[node])
        return range(first, first + int(self.child_count[node]))

    def amaf(self, node: int, player: int, move: int) -> tuple[int, float]:
        """``(visits, wins)`` of ``player``'s ``move`` in ``node``'s AMAF table ((0, 0.0) if none)."""
        t = int(self.table[node])
        if t < 0:
            return 0, 0.0
        off = (2 * t + player) * self.moves + move
        return int(self.amaf_n[off]), 0.5 * int(self.amaf_w2[off])


def work_arrays(state_size: int, max_moves: int) -> tuple:
    """Scratch state, path, path players, playout moves, playout players, move buffer."""
    depth = max_moves + 2
    return (np.zeros(state_size, dtype=np.int64), np.zeros(depth, dtype=np.int64),
            np.zeros(depth, dtype=np.int64), np.zeros(max_moves + 1, dtype=np.int64),
            np.zeros(max_moves + 1, dtype=np.int64), np.zeros(max_moves + 1, dtype=np.int64))


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
