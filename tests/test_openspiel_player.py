"""OpenSpiel's C++ MCTS as a player on our Ultimate Tic-Tac-Toe positions.

The adapter keeps an OpenSpiel state in sync with ours (one reply replayed per turn, or
a rebuilt history) and turns its one or two actions back into our move; these tests play
it against a random player with tiny simulation counts and compare the two states after
every move. No timing is asserted: calibration only has to return a usable count.
"""

import pickle

import numpy as np
import pytest
from test_uttt_openspiel import openspiel_cells

from mctslib.bots import openspiel
from mctslib.bots.openspiel import (
    Calibration,
    OpenSpielMCTS,
    OpenSpielMCTSPlayer,
    calibrate_in_games,
    calibrate_simulations,
    calibration_positions,
    move_history,
    spiel_actions,
    spiel_state,
)
from mctslib.games.uttt import UltimateTicTacToe, from_row_col
from mctslib.play.arena import RandomPlayer, play_match
from mctslib.rng import make_rng


def random_game(seed: int, scoring: str = "openspiel") -> list[UltimateTicTacToe]:
    """Every position of one seeded random game, the empty board first."""
    rng, state = make_rng(seed), UltimateTicTacToe(scoring=scoring)
    states = [state]
    while not state.is_terminal():
        moves = state.legal_moves()
        state = state.play(moves[int(rng.integers(len(moves)))])
        states.append(state)
    return states


def assert_mirrors(spiel, state: UltimateTicTacToe) -> None:
    """The OpenSpiel state shows our position: cells, whose turn, the forced board."""
    assert openspiel_cells(spiel) == [state.cell(*divmod(m, 9)) for m in range(81)]
    assert spiel.is_terminal() == state.is_terminal()
    if not state.is_terminal():
        assert spiel.current_player() == state.player_to_move
        tensor = np.asarray(spiel.observation_tensor(0))  # 244..252 forced board, 253 free choice
        assert tensor[253] == float(state.free_choice)
        if not state.free_choice:
            assert tensor[244 + state.forced_board] == 1.0


def test_a_free_choice_is_two_actions_and_a_forced_turn_one():
    empty = UltimateTicTacToe()
    # Row 4, col 4 is the centre cell (4) of the centre board (4); row 0, col 8 is cell 2 of board 2.
    assert spiel_actions(empty, from_row_col(4, 4)) == (4, 4)
    assert spiel_actions(empty, from_row_col(0, 8)) == (2, 2)
    after = empty.play(from_row_col(4, 4))  # O is sent to the centre board
    assert spiel_actions(after, from_row_col(3, 5)) == (2,)  # its cell 2 (local row 0, col 2)


def test_move_history_reaches_positions_of_random_games():
    for seed in range(12):
        for state in random_game(seed)[:21]:
            moves = move_history(state)
            assert len(moves) == sum(m.bit_count() for m in state.x + state.o)
            assert UltimateTicTacToe.from_moves(moves, scoring="openspiel") == state
            assert_mirrors(spiel_state(state), state)


def test_move_history_rejects_positions_play_cannot_reach():
    # X's first move (row 0, col 0) sends O to board 0, but O's mark is in board 4.
    grid = "X" + "." * 39 + "O" + "." * 40
    with pytest.raises(ValueError, match="cannot arise in play"):
        move_history(UltimateTicTacToe.from_grid(grid, forced_board=4))
    # Play starts with a free choice, never on a forced board.
    with pytest.raises(ValueError, match="cannot arise in play"):
        move_history(UltimateTicTacToe(forced_board=4))
    with pytest.raises(ValueError, match="max_positions"):
        move_history(UltimateTicTacToe(), max_positions=0)


def follow_game(player_side: int, seed: int, simulations: int = 12):
    """A full game of the adapter against a random player, checking the mirror every move.

    Returns the final state and the number of free-choice turns the adapter played.
    """
    rng = make_rng(seed)
    adapter = OpenSpielMCTSPlayer(simulations, seed=rng)
    players = {player_side: adapter, 1 - player_side: RandomPlayer(rng)}
    state, free_turns = UltimateTicTacToe(scoring="openspiel"), 0
    while not state.is_terminal():
        mover = state.player_to_move
        free_turns += mover == player_side and state.free_choice
        move = players[mover].choose(state)
        assert move in state.legal_moves()
        state = state.play(move)
        if mover == player_side:
            assert_mirrors(adapter.spiel, state)
    return state, free_turns


def test_the_adapter_stays_in_sync_through_whole_games_on_both_sides(monkeypatch):
    rebuilds = []
    rebuild = openspiel.spiel_state
    monkeypatch.setattr(openspiel, "spiel_state",
                        lambda state: rebuilds.append(state) or rebuild(state))
    free_turns = 0
    for seed in range(6):
        final, free = follow_game(player_side=seed % 2, seed=seed)
        assert final.is_terminal()
        free_turns += free
    # Three games as X open with a free choice; closed boards gave the others.
    assert free_turns >= 10
    # Each game is rebuilt once, at the adapter's first turn; after that it replays replies.
    assert len(rebuilds) == 6
    assert all(sum(m.bit_count() for m in state.x + state.o) <= 1 for state in rebuilds)


def test_same_seed_same_moves_and_different_seeds_differ():
    positions = calibration_positions(count=6, max_ply=20, seed=3)
    first = [OpenSpielMCTSPlayer(30, seed=5).choose(s) for s in positions]
    again = [OpenSpielMCTSPlayer(30, seed=5).choose(s) for s in positions]
    other = [OpenSpielMCTSPlayer(30, seed=6).choose(s) for s in positions]
    assert first == again
    assert first != other


def test_a_position_it_did_not_follow_is_rebuilt():
    states = random_game(seed=4)
    player = OpenSpielMCTSPlayer(20, seed=1)
    for state in (states[15], states[3], states[16]):  # jumps back and forth, never one reply
        move = player.choose(state)
        assert_mirrors(player.spiel, state.play(move))


def test_the_codingame_scoring_of_a_position_does_not_break_the_mirror():
    state = random_game(seed=2, scoring="codingame")[10]
    player = OpenSpielMCTSPlayer(20, seed=1)
    move = player.choose(state)
    assert_mirrors(player.spiel, state.play(move))


def test_the_factory_pickles_and_plays_a_match():
    factory = pickle.loads(pickle.dumps(OpenSpielMCTS(simulations=200)))
    assert factory == OpenSpielMCTS(simulations=200)
    assert "200 simulations" in factory.describe()
    result = play_match(factory, RandomPlayer, UltimateTicTacToe(scoring="openspiel"), games=4,
                        seed=11)
    assert result.games == 4
    assert result.score >= 0.75  # 200 simulations against random moves: it does not lose
    assert all(seconds > 0 for seconds in result.seconds_per_move())


@pytest.mark.parametrize("call, word", [
    (lambda: OpenSpielMCTSPlayer(simulations=1), "simulations"),
    (lambda: OpenSpielMCTSPlayer(seconds=0.1), "exactly one budget"),
    (lambda: OpenSpielMCTSPlayer(simulations=None), "exactly one budget"),
    (lambda: OpenSpielMCTSPlayer(simulations=None, seconds=0.0), "seconds"),
    (lambda: OpenSpielMCTS(simulations=None, seconds=-1.0), "seconds"),
    (lambda: OpenSpielMCTSPlayer(uct_c=-1.0), "uct_c"),
    (lambda: OpenSpielMCTSPlayer(rollouts=0), "rollouts"),
    (lambda: OpenSpielMCTSPlayer(solve="yes"), "solve"),
    (lambda: OpenSpielMCTS(simulations=0), "simulations"),
    (lambda: OpenSpielMCTSPlayer(10).choose(random_game(1)[-1]), "finished game"),
    (lambda: OpenSpielMCTSPlayer(10).choose("empty"), "UltimateTicTacToe"),
    (lambda: calibrate_simulations(0.0), "target_seconds"),
    (lambda: calibration_positions(count=0), "count"),
    (lambda: calibrate_in_games(OpenSpielMCTS(10), simulations=10, games=0), "games"),
])
def test_bad_input(call, word):
    with pytest.raises(ValueError, match=word):
        call()


def test_calibration_returns_a_usable_count():
    positions = calibration_positions(count=3, max_ply=10, seed=0)
    assert all(not state.is_terminal() for state in positions)
    assert positions[0] == UltimateTicTacToe(scoring="openspiel")
    calibration = calibrate_simulations(0.002, positions, probe=50, rounds=1, seed=0)
    assert isinstance(calibration, Calibration)
    assert calibration.simulations >= 2 and calibration.openspiel_seconds > 0
    assert calibration.positions == 3 and calibration.ours_seconds is None
    assert "simulations" in str(calibration)


def test_a_free_choice_splits_the_budget_between_two_searches():
    empty, forced = UltimateTicTacToe(scoring="openspiel"), random_game(seed=1)[1]
    assert empty.free_choice and not forced.free_choice
    player = OpenSpielMCTSPlayer(simulations=400, seed=0)
    spiel = spiel_state(empty)
    boards = player._bots[2].mcts_search(spiel)  # the board search of a free choice
    assert boards.explore_count == 200 and len(boards.children) == 9
    cells = player._bots[1].mcts_search(spiel_state(forced))  # a forced turn: one search
    assert cells.explore_count == 400
    player.choose(empty)
    player.choose(forced)
    assert player.searches == 3


def test_a_clock_budget_plays_legal_moves():
    factory = OpenSpielMCTS(simulations=None, seconds=0.002)
    assert "2 ms per move on its own clock" in factory.describe()
    player = pickle.loads(pickle.dumps(factory))(seed=1)
    state = UltimateTicTacToe(scoring="openspiel")
    for _ in range(6):
        state = state.play(player.choose(state))  # play() refuses an illegal move
        assert_mirrors(player.spiel, state)
        if state.is_terminal():
            break
        state = state.play(state.legal_moves()[0])


def test_calibration_in_games_reports_both_bots():
    calibration = calibrate_in_games(OpenSpielMCTS(simulations=20), simulations=10, games=2,
                                     rounds=2, seed=0)
    assert calibration.games == 2 and calibration.simulations >= 2
    assert calibration.ours_seconds > 0 and calibration.openspiel_seconds > 0
    assert "measured over 2 games" in str(calibration)
