"""The readable UCT: phases, answers on solved positions, flat UCB, bad input."""

import math

import numpy as np
import pytest

from mctslib.experiments.uct.harness import single_winning_move_positions
from mctslib.games import SubtractionGame, SumToFifteen, TicTacToe
from mctslib.games.subtraction import winning_take
from mctslib.search.minimax import winning_moves
from mctslib.search.uct import UCB1Rule, UCTSearch, format_tree, robust_child
from mctslib.xorshift import XorShift64


def test_root_visits_equal_iterations_and_children_sum():
    search = UCTSearch(1.0, iterations=500, seed=1)
    root = search.search(TicTacToe())
    assert root.visits == 500
    # Every visit after the first went on into exactly one child.
    assert sum(child.visits for child in root.children) == 500
    assert sorted(child.move for child in root.children) == list(range(9))


def test_wins_are_scored_for_the_player_who_moved_into_the_node():
    # X to move can win at once with cell 2; that child must look like a sure win for X.
    state = TicTacToe.from_string("XX./OO./...")
    search = UCTSearch(1.0, iterations=400, seed=3)
    root = search.search(state)
    child = next(c for c in root.children if c.move == 2)
    assert child.mover == 0
    assert child.mean == 1.0
    assert robust_child(root).move == 2


SINGLE_WIN_POSITIONS = single_winning_move_positions()


@pytest.mark.parametrize("index", range(0, len(SINGLE_WIN_POSITIONS), 97))
def test_finds_a_single_winning_move(index):
    state, winning = SINGLE_WIN_POSITIONS[index]
    assert winning_moves(state) == (winning,)
    assert UCTSearch(1.0, iterations=2000, seed=index).choose(state) == winning


@pytest.mark.parametrize("stones", range(1, 21))
def test_subtraction_game_every_pile(stones):
    # Piles above 16 need many more iterations: random playouts from a big pile say little,
    # and the tree must reach down to the small piles where the rule shows (UCT chapter).
    iterations = 3000 if stones <= 16 else 40000
    take = winning_take(stones)
    move = UCTSearch(1.0, iterations=iterations, seed=stones).choose(SubtractionGame(stones))
    if take is None:
        assert move in (1, 2, 3)[: min(3, stones)]  # lost pile: any move loses
    else:
        assert move == take


def test_flat_ucb_expands_the_root_only():
    search = UCTSearch(1.0, iterations=300, seed=5, max_depth=1)
    root = search.search(SumToFifteen())
    assert len(root.children) == 9
    assert all(not child.children for child in root.children)


def test_same_seed_same_tree():
    def shape(node):
        return (node.move, node.visits, node.wins, [shape(c) for c in node.children])

    a = UCTSearch(1.0, iterations=300, seed=np.random.default_rng(8)).search(TicTacToe())
    b = UCTSearch(1.0, iterations=300, seed=np.random.default_rng(8)).search(TicTacToe())
    assert shape(a) == shape(b)


def test_xorshift_source_continues_across_searches():
    search = UCTSearch(1.0, iterations=50, seed=XorShift64(2026))
    search.choose(TicTacToe())
    state_after_one = search.source.state
    search.choose(TicTacToe())
    assert search.source.state != state_after_one


def test_root_stats_and_format_tree():
    search = UCTSearch(1.0, iterations=200, seed=2)
    root = search.search(SubtractionGame(10))
    stats = search.root_stats()
    assert [s.move for s in stats] == [c.move for c in root.children]
    assert sum(s.visits for s in stats) == 200
    assert all(math.isfinite(s.bonus) for s in stats)
    text = format_tree(root, depth=2, top=2, rule=search.selection)
    assert text.count("\n") >= 2 and "visits" in text


def test_time_budget_stops():
    search = UCTSearch(1.0, iterations=None, seconds=0.05, seed=1)
    assert search.search(TicTacToe()).visits >= 1


@pytest.mark.parametrize(
    "kwargs, word",
    [
        ({"iterations": -1}, "iterations"),
        ({"iterations": 0}, "iterations"),
        ({"exploration": -0.5}, "exploration"),
        ({"iterations": None, "seconds": -1.0}, "seconds"),
        ({"iterations": 10, "seconds": 1.0}, "exactly one budget"),
        ({"max_depth": 0}, "max_depth"),
    ],
)
def test_bad_parameters_raise_a_sentence(kwargs, word):
    with pytest.raises(ValueError, match=word):
        UCTSearch(**kwargs)


def test_cannot_search_a_finished_game():
    with pytest.raises(ValueError, match="finished game"):
        UCTSearch(1.0, iterations=10, seed=1).search(TicTacToe.from_string("XXX/OO./..."))


def test_illegal_move_names_the_move_and_the_legal_ones():
    with pytest.raises(ValueError, match=r"move 4 is illegal here; legal moves are: 1, 2, 3"):
        SubtractionGame(7).play(4)
    with pytest.raises(ValueError, match=r"move 5 is illegal.*legal moves are: 1, 2, 3, 4, 6"):
        SumToFifteen().play(5).play(7).play(8).play(9).play(5)


def test_ucb1_rule_rejects_negative_c():
    with pytest.raises(ValueError, match="exploration"):
        UCB1Rule(-1.0)
