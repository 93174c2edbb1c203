"""UCT with a transposition table on Ultimate Tic-Tac-Toe, in numba (Zobrist hashing).

The UTTT twin of :mod:`mctslib.fast.dag_uct` (which holds the shared parts:
the pool, selection, backup, the table's look-up): with ``table=True`` it
builds the graph of :class:`mctslib.search.transpositions.TranspositionSearch`
on :class:`~mctslib.games.uttt.UltimateTicTacToe`, with ``table=False`` the tree
of :class:`mctslib.search.uct.UCTSearch`, for the same
:class:`~mctslib.xorshift.XorShift64` seed (the tests compare them edge by
edge). Positions are :mod:`mctslib.fast.uttt` state arrays; playouts are
that module's random playouts. Chapter "Enhancements that matter".

**Zobrist hashing** (Zobrist 1970). Every (player, cell) pair gets a fixed
random 64-bit number, :data:`ZOBRIST` (from a fixed seed), and so does every
value of the forced board (:data:`ZOBRIST_FORCED`, index ``forced + 1``). A
position's hash is the XOR of the numbers of its marks and of its forced
board, so a move updates it with two or three XORs: the mover's mark in, the
old forced board out, the new one in (:func:`child_hash`). Different
positions can share a hash, and two hashes can share a table slot: the table
therefore stores each position's **full key** (:func:`pack_key`: X's and O's
81 marks and the forced board in three int64 words) and a look-up compares
it, so a collision costs a step to the next slot, never a wrong node. The
tests force every position into one slot to check that.

A position is the marks plus the forced board: the player to move follows
from the number of marks, and the won and closed boards from the marks under
the search's scoring (one per search), as in the readable game's ``__eq__``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._checks import check_choice
from . import uttt as u
from .dag_uct import DagPool, backup, checked_options, find_or_add, select_edge
from .xorshift import shuffle_prefix

#: Seed of the Zobrist numbers (fixed: a hash is the same in every run).
ZOBRIST_SEED = 1970
_zobrist = np.random.default_rng(ZOBRIST_SEED).integers(0, 2**64, size=2 * 81 + 10,
                                                        dtype=np.uint64)
#: ZOBRIST[player, 9 * board + cell]: the number XORed in when ``player`` marks that cell.
ZOBRIST = _zobrist[:162].reshape(2, 81).copy()
#: ZOBRIST_FORCED[forced + 1]: the number of the forced board (index 0: free choice).
ZOBRIST_FORCED = _zobrist[162:].copy()
#: Words of a position's full key.
KEY_WORDS = 3
#: The deepest path: the root and one node per move of the longest game.
MAX_PATH = 82


@njit(cache=True)
def zobrist_hash(s):
    """The Zobrist hash of a state array, from scratch (XOR over marks and the forced board)."""
    h = ZOBRIST_FORCED[s[u.FORCED] + 1]
    for p in range(2):
        for b in range(9):
            marks = s[9 * p + b]
            for cell in range(9):
                if marks >> cell & 1:
                    h ^= ZOBRIST[p, 9 * b + cell]
    return h


@njit(cache=True)
def child_hash(h, parent, child, move):
    """The hash after ``move`` took ``parent`` to ``child``: two or three XORs."""
    b, cell = u.BOARD_OF[move], u.CELL_OF[move]
    h ^= ZOBRIST[parent[u.PLAYER], 9 * b + cell]
    h ^= ZOBRIST_FORCED[parent[u.FORCED] + 1]
    h ^= ZOBRIST_FORCED[child[u.FORCED] + 1]
    return h


@njit(cache=True)
def pack_key(s, out):
    """The full key of a position in ``out[0..2]``: 9 bits per small board, X's then O's.

    Word 0 holds X's boards 0-6, word 1 X's boards 7-8 and O's 0-4, word 2
    O's boards 5-8 and ``forced + 1`` above them: every position its own key.
    """
    out[0] = 0
    out[1] = 0
    out[2] = 0
    for i in range(18):
        word, shift = i // 7, 9 * (i % 7)
        out[word] |= s[i] << shift
    out[2] |= (s[u.FORCED] + 1) << 36


@njit(cache=True)
def search(root_state, iterations, c, rule, use_table, hash_mask, scoring, rng, used, node_key,
           node_hash, visits, wins, own_visits, own_wins, value3, first_edge, edge_count,
           node_slot, edge_move, edge_child, edge_visits, edge_wins, slots, scratch, child_state,
           path, path_edges, buf, new_key):
    """Run ``iterations`` iterations from ``root_state`` (left unchanged); return them.

    As :func:`mctslib.fast.dag_uct.search`, on UTTT: ``scoring`` is
    :data:`mctslib.fast.uttt.CODINGAME` or ``OPENSPIEL``; ``hash_mask`` is
    ANDed into every Zobrist hash before the table is probed (0 in the tests:
    every position collides). ``new_key`` has :data:`KEY_WORDS` words;
    ``buf`` 81 moves; ``path`` and ``path_edges`` :data:`MAX_PATH` entries.
    Nodes store the unmasked hash, from which a child's hash is updated.
    """
    capacity = visits.shape[0]
    edge_capacity = edge_move.shape[0]
    if used[0] == 0:
        pack_key(root_state, new_key)
        h = zobrist_hash(root_state)
        find_or_add(use_table, used, new_key, h, hash_mask, slots, node_key, node_hash, visits,
                    wins, own_visits, own_wins, value3, first_edge, edge_count, node_slot)
    for _ in range(iterations):
        for i in range(u.STATE_SIZE):
            scratch[i] = root_state[i]
        node, depth = 0, 0
        path[0] = 0
        while edge_count[node] > 0:  # selection
            e = select_edge(node, rule, c, visits, wins, value3, first_edge, edge_count,
                            edge_child, edge_visits, edge_wins)
            u.play(scratch, edge_move[e])
            path_edges[depth] = e
            depth += 1
            node = edge_child[e]
            path[depth] = node
        if scratch[u.OUTCOME] == u.ONGOING and (visits[node] > 0 or node == 0):  # expansion
            n = u.legal_moves(scratch, buf)
            if used[0] + n <= capacity and used[1] + n <= edge_capacity:
                shuffle_prefix(buf, n, rng)
                first = used[1]
                used[1] = first + n
                first_edge[node] = first
                edge_count[node] = n
                parent_hash = node_hash[node]
                for k in range(n):
                    for i in range(u.STATE_SIZE):
                        child_state[i] = scratch[i]
                    u.play(child_state, buf[k])
                    pack_key(child_state, new_key)
                    h = child_hash(parent_hash, scratch, child_state, buf[k])
                    child = find_or_add(use_table, used, new_key, h, hash_mask, slots, node_key,
                                        node_hash, visits, wins, own_visits, own_wins, value3,
                                        first_edge, edge_count, node_slot)
                    edge_move[first + k] = buf[k]
                    edge_child[first + k] = child
                    edge_visits[first + k] = 0
                    edge_wins[first + k] = 0.0
                u.play(scratch, buf[0])
                path_edges[depth] = first
                depth += 1
                node = edge_child[first]
                path[depth] = node
        mover = 1 - scratch[u.PLAYER]  # who moved into the leaf
        u.random_playout(scratch, rng)
        reward = u.result(scratch, mover, scoring)
        backup(depth, reward, rule, path, path_edges, visits, wins, own_visits, own_wins, value3,
               first_edge, edge_count, edge_child, edge_visits, edge_wins)
    return iterations


class UTTTDag:
    """A reusable numba searcher for UTTT: a pool, work arrays, a generator.

    Parameters
    ----------
    capacity : int
        Nodes in the pool; edges get twice as many. A search that fills either stops growing.
    table : bool
        True: a transposition table (a DAG); False: a plain UCT tree.
    rule : {"uct1", "uct2", "uct3", "naive"}
        The update rule (:mod:`mctslib.fast.dag_uct`); ``"uct2"`` by default.
    c : float
        Exploration constant.
    scoring : int
        :data:`mctslib.fast.uttt.CODINGAME` (0) or ``OPENSPIEL`` (1).
    rng : uint64 array of 1 or None
        The xorshift64 state, advanced in place (None: ``new_rng(1)``).
    hash_mask : int
        ANDed into every hash before the table is probed, 0 to 2**64 - 1 (tests: 0).
    """

    def __init__(self, capacity: int, table: bool = True, rule: str = "uct2",
                 c: float = math.sqrt(2.0), scoring: int = u.CODINGAME, rng=None,
                 hash_mask: int = 2**64 - 1):
        self.table, self.rule, self.c, self.rng, self.hash_mask = checked_options(
            table, rule, c, rng, hash_mask)
        self.scoring = check_choice("scoring", scoring, (u.CODINGAME, u.OPENSPIEL))
        self.pool = DagPool(capacity, edges_per_node=2, key_words=KEY_WORDS)
        self.scratch = np.zeros(u.STATE_SIZE, dtype=np.int64)
        self.child_state = np.zeros(u.STATE_SIZE, dtype=np.int64)
        self.path = np.zeros(MAX_PATH, dtype=np.int64)
        self.path_edges = np.zeros(MAX_PATH, dtype=np.int64)
        self.buf = np.zeros(81, dtype=np.int64)
        self.new_key = np.zeros(KEY_WORDS, dtype=np.int64)

    def run(self, root_state: np.ndarray, iterations: int) -> int:
        """``iterations`` more iterations on the current graph (see :meth:`reset`)."""
        p = self.pool
        return search(root_state, int(iterations), self.c, self.rule, self.table,
                      self.hash_mask, self.scoring, self.rng, p.used, *p.node_arrays(),
                      *p.edge_arrays(), p.slots, self.scratch, self.child_state, self.path,
                      self.path_edges, self.buf, self.new_key)

    def reset(self) -> None:
        self.pool.reset()


__all__ = ["KEY_WORDS", "MAX_PATH", "ZOBRIST", "ZOBRIST_FORCED", "ZOBRIST_SEED", "UTTTDag",
           "child_hash", "pack_key", "search", "zobrist_hash"]
