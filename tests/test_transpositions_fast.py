"""The numba tree / DAG searches of Connect Four and UTTT against the readable references."""

import math

import numpy as np
import pytest

from mctslib.fast import connect_four as fc4
from mctslib.fast import dag_uct, uttt_dag
from mctslib.fast import uttt as fu
from mctslib.fast.xorshift import new_rng
from mctslib.games.connect_four import ConnectFour
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.search.flat import random_playout
from mctslib.search.transpositions import TranspositionSearch
from mctslib.search.uct import UCTSearch
from mctslib.xorshift import XorShift64, derive_seeds


def c4_key(position):
    return (position.key,)


def uttt_key(position):
    out = np.zeros(uttt_dag.KEY_WORDS, dtype=np.int64)
    uttt_dag.pack_key(fu.to_array(position), out)
    return tuple(int(w) for w in out)


def engine_for(state, table, rule, seed, hash_mask=2**64 - 1):
    if isinstance(state, ConnectFour):
        return (dag_uct.ConnectFourDag(20_000, table, rule, rng=new_rng(seed),
                                       hash_mask=hash_mask), fc4.to_array(state), c4_key)
    return (uttt_dag.UTTTDag(40_000, table, rule, rng=new_rng(seed), hash_mask=hash_mask),
            fu.to_array(state), uttt_key)


def assert_same_graph(state, iterations, rule, seed, hash_mask=2**64 - 1):
    """The numba DAG holds the readable TranspositionSearch's graph, node for node, edge for edge."""
    readable = TranspositionSearch(iterations=iterations, seed=XorShift64(seed), update=rule)
    readable.search(state)
    engine, s, key_of = engine_for(state, True, rule, seed, hash_mask)
    engine.run(s, iterations)
    pool = engine.pool
    assert pool.nodes == len(readable.table)
    index = {tuple(int(w) for w in pool.node_key[i]): i for i in range(pool.nodes)}
    assert len(index) == pool.nodes  # one node per position
    edges = 0
    for position, node in readable.table.items():
        i = index[key_of(position)]
        assert (pool.visits[i], pool.wins[i]) == (node.visits, node.wins)
        assert (pool.own_visits[i], pool.own_wins[i]) == (node.own_visits, node.own_wins)
        if rule == "uct3" and node.visits:
            assert pool.value3[i] == node.value3
        mine = list(pool.edges_of(i))
        assert len(mine) == len(node.edges)
        for e, edge in zip(mine, node.edges):
            assert pool.edge_move[e] == edge.move
            assert (pool.edge_visits[e], pool.edge_wins[e]) == (edge.visits, edge.wins)
            assert pool.edge_child[e] == index[key_of(position.play(edge.move))]
        edges += len(mine)
    assert pool.edges == edges
    best = readable.root.edges[0]
    for edge in readable.root.edges[1:]:
        if edge.visits > best.visits:
            best = edge
    assert pool.best_move() == best.move
    return pool


def assert_same_tree(state, iterations, seed):
    """The numba search without a table holds UCTSearch's tree, node for node."""
    readable = UCTSearch(iterations=iterations, seed=XorShift64(seed))
    root = readable.search(state)
    engine, s, _ = engine_for(state, False, "uct2", seed)
    engine.run(s, iterations)
    pool = engine.pool
    stack, seen = [(root, 0)], 0
    while stack:
        node, i = stack.pop()
        seen += 1
        assert (pool.visits[i], pool.wins[i]) == (node.visits, node.wins)
        mine = list(pool.edges_of(i))
        assert len(mine) == len(node.children)
        for e, child in zip(mine, node.children):
            assert pool.edge_move[e] == child.move
            assert (pool.edge_visits[e], pool.edge_wins[e]) == (child.visits, child.wins)
            stack.append((child, int(pool.edge_child[e])))
    assert seen == pool.nodes and pool.transpositions == 0


def test_connect_four_playouts_match_the_readable_game():
    buf = np.zeros(7, dtype=np.int64)
    for seed in derive_seeds(60, 59):  # distinct streams (0 and 1 are one stream)
        s = fc4.to_array(ConnectFour.from_moves([3, 3]))
        fc4.random_playout(s, new_rng(seed), buf)
        final = random_playout(ConnectFour.from_moves([3, 3]), XorShift64(seed))
        assert (int(s[fc4.X]), int(s[fc4.O])) == final.discs
        assert fc4.key(s) == final.key
        assert (fc4.to_array(final) == s).all()
        assert fc4.from_array(s) == final
        assert fc4.result(s, 0) == final.result(0)


@pytest.mark.parametrize("rule", dag_uct.RULES)
def test_connect_four_dag_is_the_readable_graph(rule):
    pool = assert_same_graph(ConnectFour(), 400, rule, 7)
    assert pool.transpositions > 50  # the graph really shares positions


def test_connect_four_tree_is_uct():
    for seed in (1, 8):
        assert_same_tree(ConnectFour(), 500, seed)


def test_connect_four_collisions_are_resolved_by_the_full_key():
    """Every position hashed to one slot: the same graph, found by stepping over the others."""
    pool = assert_same_graph(ConnectFour.from_moves([3, 2]), 200, "uct2", 5, hash_mask=0)
    assert pool.probes > pool.nodes and pool.transpositions > 0


@pytest.mark.parametrize("rule", ["uct2", "uct3", "naive"])
def test_uttt_dag_is_the_readable_graph(rule):
    pool = assert_same_graph(UltimateTicTacToe.from_moves([40, 30, 10]), 1200, rule, 11)
    assert pool.transpositions > 0


def test_uttt_collisions_are_resolved_by_the_full_key():
    pool = assert_same_graph(UltimateTicTacToe.from_moves([40, 30, 10]), 1200, "uct2", 11,
                             hash_mask=0)
    assert pool.probes > pool.nodes and pool.transpositions > 0


def test_uttt_tree_is_uct():
    assert_same_tree(UltimateTicTacToe.from_moves([40]), 400, 3)


def test_zobrist_hash_is_updated_move_by_move():
    state = UltimateTicTacToe()
    source = XorShift64(9)
    s = fu.to_array(state)
    h = np.uint64(uttt_dag.zobrist_hash(s) % 2**64)  # a Python int crosses back as int64
    while not state.is_terminal():
        moves = state.legal_moves()
        move = moves[source.below(len(moves))]
        child = fu.to_array(state.play(move))
        h = np.uint64(uttt_dag.child_hash(h, fu.to_array(state), child, move) % 2**64)
        assert h == uttt_dag.zobrist_hash(child) % 2**64
        state = state.play(move)


def test_uttt_key_tells_the_forced_board_apart():
    """Same marks, different forced boards: two positions, two keys."""
    a = UltimateTicTacToe.from_moves([0, 1])  # O played cell 1 of board 0: X sent to board 1
    b = UltimateTicTacToe((1, 0, 0, 0, 0, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0, 0, 0, 0), None)
    assert a != b and uttt_key(a) != uttt_key(b)


def test_memory_bytes():
    assert dag_uct.memory_bytes(10, 9, False) == 10 * dag_uct.TREE_NODE_BYTES
    assert dag_uct.memory_bytes(10, 15, True, 32, 3) == (
        10 * (dag_uct.DAG_NODE_BYTES + 3 * dag_uct.KEY_WORD_BYTES) + 15 * dag_uct.EDGE_BYTES
        + 32 * dag_uct.SLOT_BYTES)


def test_full_pool_stops_growing_but_keeps_iterating():
    engine = dag_uct.ConnectFourDag(20, True, "uct2", rng=new_rng(3))
    assert engine.run(fc4.to_array(ConnectFour()), 300) == 300
    assert engine.pool.nodes <= 20
    assert engine.pool.visits[0] == 300


def test_reset_empties_the_table():
    engine = dag_uct.ConnectFourDag(5000, True, "uct2", rng=new_rng(3))
    s = fc4.to_array(ConnectFour())
    engine.run(s, 300)
    engine.reset()
    assert (engine.pool.slots == -1).all() and engine.pool.nodes == 0
    engine.run(s, 10)
    assert engine.pool.visits[0] == 10


def test_naive_counts_more_child_visits_than_the_parent_has():
    """The bug the chapter shows, in the fast graph: edges and child visits disagree."""
    engine = dag_uct.ConnectFourDag(20_000, True, "naive", rng=new_rng(3))
    engine.run(fc4.to_array(ConnectFour()), 2000)
    pool = engine.pool
    over = 0
    for node in range(pool.nodes):
        edges = list(pool.edges_of(node))
        if edges and sum(int(pool.visits[pool.edge_child[e]]) for e in edges) > pool.visits[node]:
            over += 1
    assert over > 0
    assert not math.isnan(pool.wins[0])


@pytest.mark.parametrize("make, words", [
    (lambda: dag_uct.ConnectFourDag(1), "capacity (nodes) must be a whole number from 2"),
    (lambda: dag_uct.ConnectFourDag(100, rule="uct4"), "rule must be one of"),
    (lambda: dag_uct.ConnectFourDag(100, c=-1.0), "c (the exploration constant)"),
    (lambda: dag_uct.ConnectFourDag(100, rng=5), "rng must be a one-element uint64 array"),
    (lambda: dag_uct.ConnectFourDag(100, hash_mask=-1), "hash_mask must be a whole number"),
    (lambda: dag_uct.ConnectFourDag(100, table="yes"), "table must be True or False"),
    (lambda: uttt_dag.UTTTDag(100, scoring=3), "scoring must be one of"),
    (lambda: dag_uct.memory_bytes(-1, 0, True), "nodes must be a whole number"),
    (lambda: dag_uct.DagPool(10, 0), "edges_per_node must be a whole number from 1 to 81"),
    (lambda: fc4.to_array("board"), "state must be a ConnectFour position"),
])
def test_fast_searchers_check_their_options(make, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        make()
