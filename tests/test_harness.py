"""The published tic-tac-toe harness: the readable UCT and its numba twin agree bit for bit."""

import numpy as np
import pytest

from mctslib.cli.main import main
from mctslib.experiments.uct.harness import run_harness, single_winning_move_positions
from mctslib.fast.tictactoe_uct import FastTicTacToeUCT, below, xorshift_next
from mctslib.games import TicTacToe
from mctslib.search.minimax import reachable_states
from mctslib.search.uct import UCTSearch
from mctslib.xorshift import XorShift64


def test_xorshift_first_value_by_hand():
    # state 1: 1 ^ 1<<13 = 8193; ^ >>7 = 8257; ^ <<17 = 8257 + 8257 * 2**17 = 1082269761
    assert XorShift64(1).next() == 1082269761
    assert XorShift64(0).state == 1  # seed | 1 keeps the state away from zero


def test_xorshift_wraps_at_64_bits_and_matches_numba():
    python = XorShift64(2026)
    numba_state = np.array([XorShift64(2026).state], dtype=np.uint64)
    for count in [2, 3, 9, 1000, 7]:
        assert python.next() == int(xorshift_next(numba_state))
        assert 0 <= python.below(count) == below(numba_state, count) < count
    assert python.state < 2**64


def test_bad_xorshift_seed():
    with pytest.raises(ValueError, match="seed"):
        XorShift64(-1)


def _python_tree(node):
    return (node.move, node.visits, node.wins, [_python_tree(c) for c in node.children])


def _numba_tree(engine, index, move=None):
    first, count = engine.first_child[index], engine.child_count[index]
    children = [_numba_tree(engine, child, int(engine.move[child]))
                for child in range(first, first + count)]
    return (move, int(engine.visits[index]), float(engine.wins[index]), children)


def test_identical_trees_on_a_set_of_positions():
    positions = [TicTacToe()] + [s for s in reachable_states(TicTacToe()) if not s.is_terminal()][::450]
    python = UCTSearch(1.0, iterations=300, seed=XorShift64(99))
    fast = FastTicTacToeUCT(300, 1.0, 99)
    for state in positions:
        python_root = python.search(state)
        fast.choose(state.x, state.o)
        assert _python_tree(python_root) == _numba_tree(fast, 0)
    assert python.source.state == int(fast.rng[0])


def test_engines_print_the_same_lines_on_a_reduced_run():
    python = run_harness(iterations=300, engine="python", games=12)
    fast = run_harness(iterations=300, engine="numba", games=12)
    assert python.lines() == fast.lines()


def test_full_published_harness_on_numba(capsys):
    assert main(["harness", "tictactoe", "--engine", "numba"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "search as X: 991 wins, 9 draws, 0 losses",
        "search as O: 911 wins, 89 draws, 0 losses",
        "positions with exactly one winning move: 1686, found by the search: 1686",
    ]


def test_the_brief_claims_hold_at_2000_and_fail_at_500():
    strong = run_harness(2000, engine="numba")
    weak = run_harness(500, engine="numba")
    assert strong.as_x[2] == strong.as_o[2] == 0  # never loses
    assert strong.found == strong.single_win_positions
    assert strong.lost_games == ()
    assert weak.as_o[2] > 0  # loses some games as O with 500 iterations
    # The chapter shows these two games: both lost as O.
    assert [(game.search_player, game.game) for game in weak.lost_games] == [(1, 304), (1, 358)]


def test_lost_games_are_recorded_alike_by_both_engines_and_replay():
    # At 10 iterations the search loses in both seats within a dozen games.
    python = run_harness(iterations=10, engine="python", games=12)
    fast = run_harness(iterations=10, engine="numba", games=12)
    assert python.lost_games == fast.lost_games
    lost = fast.lost_games
    assert len(lost) == fast.as_x[2] + fast.as_o[2] == 7
    assert {game.search_player for game in lost} == {0, 1}
    for game in lost:
        positions = game.positions()
        assert len(positions) == len(game.moves) + 1
        assert positions[-1].is_terminal() and positions[-1].result(game.search_player) == 0.0
        plies = game.search_plies()
        assert all(positions[ply].player_to_move == game.search_player for ply in plies)
        for ply in plies:  # the readable engine, restarted from the recorded state, agrees
            search = game.search_before(ply, iterations=10, exploration=1.0)
            assert search.choose(positions[ply]) == game.moves[ply]


def test_search_before_refuses_an_opponent_move():
    game = run_harness(iterations=10, engine="numba", games=12).lost_games[0]
    opponent_ply = next(ply for ply, state in enumerate(game.search_states) if state is None)
    with pytest.raises(ValueError, match="ply must be one of the search's moves"):
        game.search_before(opponent_ply, iterations=10)


def test_single_winning_move_positions_are_in_depth_first_order():
    positions = single_winning_move_positions()
    assert len(positions) == 1686
    keys = [state.key for state, _ in positions]
    assert len(set(keys)) == len(keys)


@pytest.mark.parametrize("argv, message", [
    (["harness", "tictactoe", "--iterations", "0"], "from 1 to 100,000,000, got 0."),
    (["harness", "tictactoe", "--exploration", "-1"], ">= 0"),
    (["harness", "tictactoe", "--engine", "cuda"], "invalid choice"),
    (["harness", "chess"], "invalid choice"),
])
def test_cli_rejects_bad_arguments_with_a_sentence(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_run_harness_validates():
    with pytest.raises(ValueError, match="engine"):
        run_harness(engine="gpu")
    with pytest.raises(ValueError, match="exploration"):
        run_harness(exploration=-1.0)
