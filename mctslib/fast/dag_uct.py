"""UCT on a tree or on a DAG with a transposition table, in numba (Connect Four).

The fast twin of :class:`mctslib.search.transpositions.TranspositionSearch`
(``table=True``) and of :class:`mctslib.search.uct.UCTSearch` (``table=False``)
on :class:`~mctslib.games.connect_four.ConnectFour` with an
:class:`~mctslib.xorshift.XorShift64`: the same selection (first unvisited
edge, else the first strictly highest score of the update rule, same
floating-point order), the same expansion (all moves at once, on a node's
second visit or at the root, columns ascending then Fisher-Yates with
``below(i + 1)``), the same random playouts and the same backup along the path
taken, so both build the same graph; the tests compare them node by node and
edge by edge. Chapter "Enhancements that matter".

**Layout.** A :class:`DagPool` holds flat arrays allocated once: nodes
(position statistics: ``visits``, ``wins``, the playouts started there
``own_visits`` / ``own_wins``, UCT3's ``value3``, and where the node's edges
are), edges (``move``, ``child``, ``visits``, ``wins``: the statistics of one
move from one parent) and the **transposition table**: ``slots``, a power of
two of node indices (-1 empty), open addressing with linear probing. A
position's slot starts at a hash of its key; the node stores the full key
(``node_key``), and a look-up compares it, so two positions whose hashes
collide never share a node. Connect Four's key is exact (below ``2**49``).
Nothing is allocated inside the loop; when the pool or the table is full the
search stops expanding and keeps iterating (a leaf then gets a playout).

With ``table=False`` the same code never looks a position up: every move gets
a fresh node, the graph is a tree, and an edge's statistics are its child's.
The speed comparison of tree and DAG (``benchmarks/transposition_speed.py``)
therefore runs one kernel, the look-up being the only difference.

**Rules** (:data:`RULES`, the codes of :data:`mctslib.search.transpositions.UPDATES`):
``UCT1`` edge mean, ``UCT2`` child position's mean (the readable default),
``UCT3`` backed-up value, all with the edge's count in the exploration term;
``NAIVE`` reads the child node alone (mean and count), the double-counting
rule the chapter shows.

The game-independent parts (:func:`select_edge`, :func:`backup`,
:func:`find_or_add`, :func:`clear_table`) are shared with
:mod:`mctslib.fast.uttt_dag`.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._checks import check_bool, check_choice, check_int, check_real
from . import connect_four as c4
from .xorshift import shuffle_prefix

#: The largest pool (node and edge indices are int32).
MAX_CAPACITY = 2**31 // 81

UCT1, UCT2, UCT3, NAIVE = 0, 1, 2, 3
#: Rule names in code order, as :data:`mctslib.search.transpositions.UPDATES`.
RULES = ("uct1", "uct2", "uct3", "naive")
#: The deepest path: the root and one node per move of the longest game.
MAX_PATH = 43
#: Bytes per node of a plain UCT tree (move, first child, child count and visits as int32,
#: wins as float64): the tree's edge statistics live in its child. :func:`memory_bytes` counts
#: both structures in the least memory their rules need, not this module's working arrays.
TREE_NODE_BYTES = 4 * 4 + 8
#: Bytes per DAG node besides its key: visits, first edge, edge count (int32), wins (float64).
DAG_NODE_BYTES = 3 * 4 + 8
#: Bytes per key word (int64); Connect Four's key is one word, UTTT's three.
KEY_WORD_BYTES = 8
#: Bytes per edge: move and child and visits (int32), wins (float64).
EDGE_BYTES = 3 * 4 + 8
#: Bytes per slot of the transposition table (an int32 node index).
SLOT_BYTES = 4


class DagPool:
    """The graph's arrays and the transposition table, allocated once.

    Parameters
    ----------
    capacity : int
        Nodes the pool holds (>= 2); edges get ``edges_per_node`` times as many
        and the table the next power of two at least twice ``capacity`` (so it
        is at most half full).
    edges_per_node : int
        Edge slots per node (>= 1): 7 for Connect Four (a tree has one edge per
        node, a DAG more), 81 is never needed on average.
    key_words : int
        int64 words of a position's key (1 for Connect Four, 3 for UTTT).
    """

    def __init__(self, capacity: int, edges_per_node: int = 2, key_words: int = 1):
        self.capacity = check_int("capacity (nodes)", capacity, 2, MAX_CAPACITY)
        edges_per_node = check_int("edges_per_node", edges_per_node, 1, 81)
        key_words = check_int("key_words", key_words, 1, 8)
        self.edge_capacity = edges_per_node * self.capacity
        self.node_key = np.zeros((self.capacity, key_words), dtype=np.int64)
        self.node_hash = np.zeros(self.capacity, dtype=np.uint64)
        self.visits = np.zeros(self.capacity, dtype=np.int32)
        self.wins = np.zeros(self.capacity, dtype=np.float64)
        self.own_visits = np.zeros(self.capacity, dtype=np.int32)
        self.own_wins = np.zeros(self.capacity, dtype=np.float64)
        self.value3 = np.zeros(self.capacity, dtype=np.float64)
        self.first_edge = np.zeros(self.capacity, dtype=np.int32)
        self.edge_count = np.zeros(self.capacity, dtype=np.int32)
        self.node_slot = np.full(self.capacity, -1, dtype=np.int64)
        self.edge_move = np.zeros(self.edge_capacity, dtype=np.int32)
        self.edge_child = np.zeros(self.edge_capacity, dtype=np.int32)
        self.edge_visits = np.zeros(self.edge_capacity, dtype=np.int32)
        self.edge_wins = np.zeros(self.edge_capacity, dtype=np.float64)
        size = 1
        while size < 2 * self.capacity:
            size *= 2
        self.slots = np.full(size, -1, dtype=np.int32)
        # [nodes in use, edges in use, transpositions found, probes past the first slot]
        self.used = np.zeros(4, dtype=np.int64)

    @property
    def nodes(self) -> int:
        """Nodes in use."""
        return int(self.used[0])

    @property
    def edges(self) -> int:
        """Edges in use."""
        return int(self.used[1])

    @property
    def transpositions(self) -> int:
        """Look-ups that found an existing node (a move into a position already in the graph)."""
        return int(self.used[2])

    @property
    def probes(self) -> int:
        """Table slots stepped over because another position held them (hash collisions)."""
        return int(self.used[3])

    def node_arrays(self) -> tuple:
        return (self.node_key, self.node_hash, self.visits, self.wins, self.own_visits,
                self.own_wins, self.value3, self.first_edge, self.edge_count, self.node_slot)

    def edge_arrays(self) -> tuple:
        return self.edge_move, self.edge_child, self.edge_visits, self.edge_wins

    def reset(self) -> None:
        """Empty the graph (clearing only the table slots in use)."""
        clear_table(self.used, self.node_slot, self.slots)

    def edges_of(self, node: int) -> range:
        first = int(self.first_edge[node])
        return range(first, first + int(self.edge_count[node]))

    def best_move(self) -> int:
        """The root move with the most edge visits, the first in graph order on ties."""
        edges = self.edges_of(0)
        if not edges:
            raise ValueError("the root has no moves: run a search first.")
        best = edges[0]
        for e in edges[1:]:
            if self.edge_visits[e] > self.edge_visits[best]:
                best = e
        return int(self.edge_move[best])


def memory_bytes(nodes: int, edges: int, table: bool, slots: int = 0, key_words: int = 1) -> int:
    """Bytes a search's graph needs: a plain tree's nodes, or DAG nodes, edges and table.

    A tree stores an edge's statistics in its child, so it needs
    :data:`TREE_NODE_BYTES` per node and nothing else; a DAG needs per node
    :data:`DAG_NODE_BYTES` and its key (``key_words`` int64 words, kept to
    tell colliding positions apart), :data:`EDGE_BYTES` per edge and the
    table's ``slots`` (UCT3 and the own-playout counts would add 20 bytes a
    node; UCT1 and UCT2 do not need them). Chapter "Enhancements that matter".
    """
    nodes, edges = check_int("nodes", nodes, 0), check_int("edges", edges, 0)
    slots, key_words = check_int("slots", slots, 0), check_int("key_words", key_words, 1, 8)
    if not check_bool("table", table):
        return nodes * TREE_NODE_BYTES
    return (nodes * (DAG_NODE_BYTES + KEY_WORD_BYTES * key_words) + edges * EDGE_BYTES
            + slots * SLOT_BYTES)


@njit(cache=True)
def clear_table(used, node_slot, slots):
    """Empty the graph: free the table slots the nodes in use hold, count nothing."""
    for i in range(used[0]):
        if node_slot[i] >= 0:
            slots[node_slot[i]] = -1
            node_slot[i] = -1
    used[0] = 0
    used[1] = 0
    used[2] = 0
    used[3] = 0


@njit(cache=True)
def _same_key(node_key, node, new_key):
    for w in range(new_key.shape[0]):
        if node_key[node, w] != new_key[w]:
            return False
    return True


@njit(cache=True)
def new_node(used, new_key, h, node_key, node_hash, visits, wins, own_visits, own_wins, value3,
             first_edge, edge_count, node_slot):
    """Add a node for ``new_key`` (not in the table); return its index."""
    node = used[0]
    used[0] = node + 1
    for w in range(new_key.shape[0]):
        node_key[node, w] = new_key[w]
    node_hash[node] = h
    visits[node] = 0
    wins[node] = 0.0
    own_visits[node] = 0
    own_wins[node] = 0.0
    value3[node] = np.nan
    first_edge[node] = 0
    edge_count[node] = 0
    node_slot[node] = -1
    return node


@njit(cache=True)
def find_or_add(use_table, used, new_key, h, hash_mask, slots, node_key, node_hash, visits, wins,
                own_visits, own_wins, value3, first_edge, edge_count, node_slot):
    """The node of the position ``new_key`` (hash ``h``), made if new; tree mode always makes one.

    Open addressing: start at ``h & hash_mask & (len(slots) - 1)`` and step one slot at a
    time until the slot is empty (the position is new: it takes the slot) or
    holds a node with the same full key (a transposition). The caller keeps
    the table at most half full, so a free slot is always near.
    """
    if not use_table:
        return new_node(used, new_key, h, node_key, node_hash, visits, wins, own_visits,
                        own_wins, value3, first_edge, edge_count, node_slot)
    mask = np.uint64(slots.shape[0] - 1)
    slot = np.int64(h & hash_mask & mask)
    while True:
        node = slots[slot]
        if node < 0:
            node = new_node(used, new_key, h, node_key, node_hash, visits, wins, own_visits,
                            own_wins, value3, first_edge, edge_count, node_slot)
            slots[slot] = node
            node_slot[node] = slot
            return node
        if node_hash[node] == h and _same_key(node_key, node, new_key):
            used[2] += 1
            return node
        used[3] += 1
        slot = (slot + 1) & np.int64(mask)


@njit(cache=True)
def select_edge(node, rule, c, visits, wins, value3, first_edge, edge_count, edge_child,
                edge_visits, edge_wins):
    """The first unvisited edge, else the first strictly highest score of ``rule``.

    Scores as :meth:`TranspositionSearch._select`, operation for operation:
    ``value + c * sqrt(ln n(s) / n)``, ``n`` the edge's visits (the child's for NAIVE).
    """
    best, best_score = -1, -math.inf
    log_parent = math.log(visits[node])
    first = first_edge[node]
    for e in range(first, first + edge_count[node]):
        child = edge_child[e]
        if rule == NAIVE:
            if visits[child] == 0:
                return e
            score = wins[child] / visits[child] + c * math.sqrt(log_parent / visits[child])
        else:
            if edge_visits[e] == 0:
                return e
            if rule == UCT1:
                value = edge_wins[e] / edge_visits[e]
            elif rule == UCT2:
                value = wins[child] / visits[child]
            else:
                value = value3[child]
            score = value + c * math.sqrt(log_parent / edge_visits[e])
        if score > best_score:
            best, best_score = e, score
    return best


@njit(cache=True)
def backed_up_value(node, wins, own_wins, visits, value3, first_edge, edge_count, edge_child,
                    edge_visits):
    """UCT3's ``Q3(s) = (own_wins + sum_a n(s, a) (1 - Q3(g(s, a)))) / n(s)``."""
    total = own_wins[node]
    first = first_edge[node]
    for e in range(first, first + edge_count[node]):
        if edge_visits[e]:
            total += edge_visits[e] * (1.0 - value3[edge_child[e]])
    return total / visits[node]


@njit(cache=True)
def backup(depth, reward, rule, path, path_edges, visits, wins, own_visits, own_wins, value3,
           first_edge, edge_count, edge_child, edge_visits, edge_wins):
    """One visit and the reward to the nodes ``path[0..depth]`` and their edges, leaf first.

    ``reward`` is for the player who moved into the leaf and flips one level
    up; the leaf counts the playout as its own; UCT3 recomputes each node's
    value once its statistics are up to date (the readable ``backpropagate_path``).
    """
    leaf = path[depth]
    own_visits[leaf] += 1
    own_wins[leaf] += reward
    for d in range(depth, -1, -1):
        node = path[d]
        visits[node] += 1
        wins[node] += reward
        if d > 0:
            e = path_edges[d - 1]
            edge_visits[e] += 1
            edge_wins[e] += reward
        if rule == UCT3:
            value3[node] = backed_up_value(node, wins, own_wins, visits, value3, first_edge,
                                           edge_count, edge_child, edge_visits)
        reward = 1.0 - reward


@njit(cache=True)
def _hash(k):
    """Mix Connect Four's exact key into 64 bits (splitmix64's finaliser), so its low bits,
    which pick the table slot, depend on every bit of the key."""
    z = np.uint64(k)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def search(root_state, iterations, c, rule, use_table, hash_mask, rng, used, node_key,
           node_hash, visits, wins, own_visits, own_wins, value3, first_edge, edge_count,
           node_slot, edge_move, edge_child, edge_visits, edge_wins, slots, scratch, child_state,
           path, path_edges, buf, new_key):
    """Run ``iterations`` iterations from ``root_state`` (left unchanged) on a pool; return them.

    The graph continues from what the pool holds (an empty pool gets the root
    as node 0). ``hash_mask`` is ANDed into every hash before the table is
    probed: all ones normally, 0 in the tests to send every position to the
    same slot and check that collisions are resolved by the full key.
    ``used`` is the pool's ``[nodes, edges, transpositions, probes]``.
    Work arrays: two states, :data:`MAX_PATH` node and edge indices, 7 moves,
    one key word.
    """
    capacity = visits.shape[0]
    edge_capacity = edge_move.shape[0]
    if used[0] == 0:
        new_key[0] = c4.key(root_state)
        find_or_add(use_table, used, new_key, _hash(new_key[0]), hash_mask, slots, node_key,
                    node_hash, visits, wins, own_visits, own_wins, value3, first_edge,
                    edge_count, node_slot)
    for _ in range(iterations):
        for i in range(c4.STATE_SIZE):
            scratch[i] = root_state[i]
        node, depth = 0, 0
        path[0] = 0
        # Selection, written out again in uttt_dag.search: one shared descent (choose the path,
        # then play its moves with each game's rules) cost 2-7% of the iterations on Connect Four.
        while edge_count[node] > 0:  # selection
            e = select_edge(node, rule, c, visits, wins, value3, first_edge, edge_count,
                            edge_child, edge_visits, edge_wins)
            c4.play(scratch, edge_move[e])
            path_edges[depth] = e
            depth += 1
            node = edge_child[e]
            path[depth] = node
        if scratch[c4.OUTCOME] == c4.ONGOING and (visits[node] > 0 or node == 0):  # expansion
            n = c4.legal_moves(scratch, buf)
            if used[0] + n <= capacity and used[1] + n <= edge_capacity:
                shuffle_prefix(buf, n, rng)
                first = used[1]
                used[1] = first + n
                first_edge[node] = first
                edge_count[node] = n
                for k in range(n):
                    for i in range(c4.STATE_SIZE):
                        child_state[i] = scratch[i]
                    c4.play(child_state, buf[k])
                    new_key[0] = c4.key(child_state)
                    child = find_or_add(use_table, used, new_key, _hash(new_key[0]), hash_mask,
                                        slots, node_key, node_hash, visits, wins, own_visits,
                                        own_wins, value3, first_edge, edge_count, node_slot)
                    edge_move[first + k] = buf[k]
                    edge_child[first + k] = child
                    edge_visits[first + k] = 0
                    edge_wins[first + k] = 0.0
                c4.play(scratch, buf[0])
                path_edges[depth] = first
                depth += 1
                node = edge_child[first]
                path[depth] = node
        mover = 1 - scratch[c4.PLAYER]  # who moved into the leaf
        c4.random_playout(scratch, rng, buf)
        reward = c4.result(scratch, mover)
        backup(depth, reward, rule, path, path_edges, visits, wins, own_visits, own_wins, value3,
               first_edge, edge_count, edge_child, edge_visits, edge_wins)
    return iterations


def checked_options(table, rule, c, rng, hash_mask) -> tuple:
    """The searchers' options checked: ``(table, rule code, c, rng, hash mask)``."""
    from .xorshift import new_rng

    table = check_bool("table", table)
    rule = RULES.index(check_choice("rule", rule, RULES))
    c = check_real("c (the exploration constant)", c, 0.0)
    if rng is None:
        rng = new_rng(1)
    elif not (isinstance(rng, np.ndarray) and rng.dtype == np.uint64 and rng.shape == (1,)):
        raise ValueError(f"rng must be a one-element uint64 array (mctslib.fast.xorshift."
                         f"new_rng(seed)) or None, got {type(rng).__name__}.")
    hash_mask = np.uint64(check_int("hash_mask", hash_mask, 0, 2**64 - 1))
    return table, rule, c, rng, hash_mask


class ConnectFourDag:
    """A reusable numba searcher for Connect Four: a pool, work arrays, a generator.

    Parameters
    ----------
    capacity : int
        Nodes in the pool (>= 16). A search that fills it stops growing.
    table : bool
        True: a transposition table (a DAG); False: a plain UCT tree.
    rule : {"uct1", "uct2", "uct3", "naive"}
        The update rule (see the module notes); ``"uct2"`` by default.
    c : float
        Exploration constant (>= 0).
    rng : uint64 array of 1 or None
        The xorshift64 state (:func:`mctslib.fast.xorshift.new_rng`), advanced in
        place; None: ``new_rng(1)``.
    hash_mask : int
        ANDed into every hash before the table is probed, 0 to 2**64 - 1 (the
        tests give 0: every position starts at the same slot).
    """

    def __init__(self, capacity: int, table: bool = True, rule: str = "uct2",
                 c: float = math.sqrt(2.0), rng=None, hash_mask: int = 2**64 - 1):
        self.table, self.rule, self.c, self.rng, self.hash_mask = checked_options(
            table, rule, c, rng, hash_mask)
        self.pool = DagPool(capacity, edges_per_node=2 if not table else 7, key_words=1)
        self.scratch = np.zeros(c4.STATE_SIZE, dtype=np.int64)
        self.child_state = np.zeros(c4.STATE_SIZE, dtype=np.int64)
        self.path = np.zeros(MAX_PATH, dtype=np.int64)
        self.path_edges = np.zeros(MAX_PATH, dtype=np.int64)
        self.buf = np.zeros(7, dtype=np.int64)
        self.new_key = np.zeros(1, dtype=np.int64)

    def run(self, root_state: np.ndarray, iterations: int) -> int:
        """``iterations`` more iterations on the current graph (see :meth:`reset`)."""
        p = self.pool
        return search(root_state, int(iterations), self.c, self.rule, self.table,
                      self.hash_mask, self.rng, p.used, *p.node_arrays(), *p.edge_arrays(),
                      p.slots, self.scratch, self.child_state, self.path, self.path_edges,
                      self.buf, self.new_key)

    def reset(self) -> None:
        self.pool.reset()


__all__ = [
    "DAG_NODE_BYTES",
    "EDGE_BYTES",
    "KEY_WORD_BYTES",
    "MAX_PATH",
    "NAIVE",
    "RULES",
    "SLOT_BYTES",
    "TREE_NODE_BYTES",
    "UCT1",
    "UCT2",
    "UCT3",
    "ConnectFourDag",
    "DagPool",
    "backup",
    "checked_options",
    "clear_table",
    "find_or_add",
    "memory_bytes",
    "search",
    "select_edge",
]
