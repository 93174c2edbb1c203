"""UCTSearch's expansion variants: all children at once (default) or one child per visit."""

import pytest

from mctslib.games import SubtractionGame, SumToFifteen, TicTacToe
from mctslib.search.uct import UCTSearch, robust_child
from mctslib.xorshift import XorShift64


def visited_signature(node):
    """Move, visits and wins of every visited node, nested like the tree."""
    return [(child.move, child.visits, child.wins, visited_signature(child))
            for child in node.children if child.visits]


def count_nodes(node, visited_only=False):
    here = 1 if node.visits or not visited_only else 0
    return here + sum(count_nodes(child, visited_only) for child in node.children)


def test_default_is_expand_all_and_unchanged():
    # The numbers the UCT chapter printed before the variant existed (2,000 iterations,
    # c = 1, xorshift seed 2026, empty board): 3,725 nodes, 1,995 visited, answer 4.
    root = UCTSearch(1.0, 2000, seed=XorShift64(2026)).search(TicTacToe())
    assert (count_nodes(root), count_nodes(root, visited_only=True)) == (3725, 1995)
    assert robust_child(root).move == 4
    assert [child.visits for child in root.children] == [
        child.visits for child in
        UCTSearch(1.0, 2000, seed=XorShift64(2026), expansion="all").search(TicTacToe()).children]
    assert UCTSearch(1.0, 10, seed=1).expansion == "all"


def test_expand_all_never_keeps_untried_moves():
    root = UCTSearch(1.0, 300, seed=4).search(TicTacToe())
    stack = [root]
    while stack:
        node = stack.pop()
        assert node.untried is None
        stack.extend(node.children)


@pytest.mark.parametrize("game", [TicTacToe(), SubtractionGame(13), SumToFifteen(),
                                  TicTacToe.from_string(".X./..X/O..")],
                         ids=["tictactoe", "subtraction13", "sum15", "trap"])
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_one_per_visit_grows_the_same_visits_and_wins(game, seed):
    # UCB1 tries unvisited children first, in tree order, so adding them one per visit in
    # the same shuffled order changes which nodes exist, not what the search does.
    every = UCTSearch(1.0, 800, seed=seed).search(game)
    one = UCTSearch(1.0, 800, seed=seed, expansion="one").search(game)
    assert visited_signature(one) == visited_signature(every)
    # Every node the variant creates is visited in the iteration that creates it.
    assert count_nodes(one) == count_nodes(one, visited_only=True) == count_nodes(
        every, visited_only=True)
    assert count_nodes(one) < count_nodes(every)


def test_one_per_visit_adds_moves_in_shuffled_order_without_repeats():
    search = UCTSearch(1.0, 5, seed=3, expansion="one")
    root = search.search(TicTacToe())
    assert len(root.children) == 5  # one new root child per iteration, nothing deeper yet
    assert len({child.move for child in root.children}) == 5
    assert sorted([child.move for child in root.children] + root.untried) == list(range(9))
    all_at_once = UCTSearch(1.0, 1, seed=3).search(TicTacToe())
    assert [child.move for child in root.children] == [
        child.move for child in all_at_once.children][:5]


def test_with_a_rule_that_skips_unvisited_children_the_variants_differ():
    def always_first(node):
        return node.children[0]

    every = UCTSearch(iterations=60, seed=2, selection=always_first).search(TicTacToe())
    one = UCTSearch(iterations=60, seed=2, selection=always_first,
                    expansion="one").search(TicTacToe())
    # Expand-all hands the rule all children at once: it never leaves the first one.
    assert [child.visits for child in every.children][1:] == [0] * 8
    # One per visit adds (and visits) every root move before the rule is asked at the root.
    assert len(one.children) == 9 and all(child.visits >= 1 for child in one.children)


def test_one_per_visit_respects_max_depth():
    root = UCTSearch(1.0, 200, seed=5, max_depth=1, expansion="one").search(TicTacToe())
    assert len(root.children) == 9
    assert all(not child.children for child in root.children)


@pytest.mark.parametrize("bad", ["some", "ALL", None, 1, ["one"]])
def test_bad_expansion_is_named(bad):
    with pytest.raises(ValueError, match="expansion must be one of 'all', 'one'"):
        UCTSearch(1.0, 10, expansion=bad)
