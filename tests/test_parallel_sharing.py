"""The cache-line count of two threads on one tree (chapter 7b, "Parallel search")."""

import pytest

from mctslib.experiments.parallel import sharing
from mctslib.fast import uttt_parallel as fast
from mctslib.games.uttt import UltimateTicTacToe

POSITION = UltimateTicTacToe().play(40)


def test_the_count_is_exact_and_adds_up():
    apart, side_by_side = sharing.trace(POSITION, iterations=400, seed=3)
    again, _ = sharing.trace(POSITION, iterations=400, seed=3)
    assert apart == again  # deterministic: the same interleaving, the same transfers
    for count in (apart, side_by_side):
        assert count.total == count.true + count.false
        assert sum(count.by_place.values()) == count.total == sum(count.by_array.values())
        # Every iteration after the first writes the root's visits and wins, so each of the
        # other thread's iterations must fetch both lines again: at least two transfers.
        assert count.by_place["root and its children"] >= 2 * (count.iterations - 1)
    assert apart.staging_apart and not side_by_side.staging_apart


def test_side_by_side_staging_nodes_add_false_sharing_and_nothing_else():
    apart, side_by_side = sharing.trace(POSITION, iterations=600, seed=1)
    assert apart.by_place["staging nodes"] == 0
    extra = side_by_side.by_place["staging nodes"]
    assert extra > 0
    assert side_by_side.total - apart.total == extra
    assert side_by_side.false - apart.false == extra  # two threads' own nodes: false sharing
    for place in ("root and its children", "deeper nodes"):
        assert side_by_side.by_place[place] == apart.by_place[place]


def test_the_shared_tree_puts_each_staging_node_on_its_own_line():
    tree = fast.SharedTree(1_000, 3)
    stages = [tree.stage(k) for k in range(3)]
    assert stages[0] == 1_000 and len({s * 4 // 64 for s in stages}) == 3
    assert tree.pool.capacity >= stages[-1] + 1
    assert fast.SharedTree(1_000, 1).stage(0) == 1_000  # one thread: the sequential layout


@pytest.mark.parametrize("kwargs, message", [
    ({"iterations": 1}, "iterations"),
    ({"c": -1.0}, "c"),
    ({"seed": -2}, "seed"),
])
def test_bad_input_is_refused_with_a_sentence(kwargs, message):
    with pytest.raises(ValueError, match=message):
        sharing.trace(POSITION, **kwargs)


def test_a_finished_game_is_refused():
    state = UltimateTicTacToe()
    while not state.is_terminal():
        state = state.play(state.legal_moves()[0])
    with pytest.raises(ValueError, match="still on"):
        sharing.trace(state, iterations=10)
