"""Rules of Connect Four (mctslib.games.connect_four), chapter "Enhancements that matter".

Checked against OpenSpiel's ``connect_four`` (open-spiel 2.0.2) over random games. How
OpenSpiel's state is read (open_spiel/games/connect_four/connect_four.cc):

* 6 rows, 7 columns; an action is a column 0..6, the same integer as our move;
* player 0 plays ``x`` and moves first, player 1 plays ``o``;
* ``str(state)`` prints the top row first, one character per cell (``x``, ``o``, ``.``);
* returns are +1 / -1 for a win and 0 / 0 for a draw (a full board without four).
"""

import copy
import pickle
from itertools import permutations

import numpy as np
import pyspiel
import pytest

from mctslib.games import ConnectFour
from mctslib.games.base import GameState

GAMES = 1000


def grid_of(columns: list[str]) -> str:
    """Text for from_string from seven columns, each written bottom-up ("XO" = X under O)."""
    rows = []
    for row in reversed(range(6)):
        rows.append(" ".join(column[row] if row < len(column) else "." for column in columns))
    return "\n".join(rows)


def openspiel_grid(spiel_state) -> str:
    """OpenSpiel's board as our grid() text: top row first, cells upper case, one space apart."""
    rows = [line for line in str(spiel_state).split("\n") if line.strip()]
    assert len(rows) == 6 and all(len(row) == 7 for row in rows)
    return "\n".join(" ".join(row.upper()) for row in rows)


def play_both(rng: np.random.Generator | None, moves_to_play: list[int] | None = None
              ) -> tuple[ConnectFour, object]:
    """One game in both implementations, compared at every ply; returns the ends.

    Moves are drawn uniformly with ``rng``, or taken from ``moves_to_play``.
    """
    moves_to_play = list(moves_to_play or [])
    spiel = pyspiel.load_game("connect_four").new_initial_state()
    state = ConnectFour()
    while True:
        assert spiel.is_terminal() == state.is_terminal()
        assert openspiel_grid(spiel) == state.grid()
        assert list(spiel.legal_actions()) == list(state.legal_moves())
        if state.is_terminal():
            return state, spiel
        assert spiel.current_player() == state.player_to_move
        moves = state.legal_moves()
        move = moves_to_play.pop(0) if moves_to_play else moves[int(rng.integers(len(moves)))]
        spiel.apply_action(move)
        state = state.play(move)


def test_random_games_agree_move_by_move_with_open_spiel():
    rng = np.random.default_rng(20261202)
    outcomes = {0: 0, 1: 0, None: 0}
    for _ in range(GAMES):
        final, spiel = play_both(rng)
        winner = final.winner()
        expected = [0.0, 0.0] if winner is None else [1.0 if winner == p else -1.0 for p in (0, 1)]
        assert spiel.returns() == expected
        outcomes[winner] += 1
    # Random games: both sides win often. Draws are rarer than 1 in 1,000 random games;
    # the drawn game below is compared move by move as well.
    assert outcomes[0] > 300 and outcomes[1] > 300


# ------------------------------------------------------------------ known positions


@pytest.mark.parametrize("name, moves, winner", [
    # X builds the line, O answers elsewhere; the last move completes it.
    ("vertical", [0, 1, 0, 1, 0, 1, 0], 0),
    ("horizontal", [0, 0, 1, 1, 2, 2, 3], 0),
    ("rising diagonal", [0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3], 0),
    ("falling diagonal", [6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3], 0),
    ("vertical for O", [0, 1, 0, 1, 0, 1, 6, 1], 1),
])
def test_fours_in_every_direction_win(name, moves, winner):
    before = ConnectFour.from_moves(moves[:-1])
    assert not before.is_terminal(), f"{name}: the game ended before the last move"
    state = before.play(moves[-1])
    assert state.winner() == winner and state.is_terminal() and state.legal_moves() == ()
    assert state.result(winner) == 1.0 and state.result(1 - winner) == 0.0


def test_a_four_on_the_top_row_wins():
    # Columns 0..3 filled so that X's discs in row 5 (the top) come last; below, rows alternate
    # by column pairs so no earlier four appears.
    grid = ("X X X X . . ."
            "O O O X . . ."
            "X X X O . . ."
            "O O O X . . ."
            "X X X O . . ."
            "O O O X . O .")
    state = ConnectFour.from_string(grid)
    assert state.winner() == 0
    assert state.cell(5, 0) == "X" and state.cell(0, 5) == "O"


def test_no_four_across_columns_through_the_guard_bit():
    # X on the top cell of column 0 and the bottom three of column 1: bits 5, 7, 8, 9 of
    # the mask. Only the empty guard bit 6 between them keeps this from being four "up".
    state = ConnectFour.from_string(grid_of(["OXOXOX", "XXX", "O", "O", "", "", ""]))
    assert state.cell(5, 0) == "X" and state.winner() is None and not state.is_terminal()
    # The same position reached by play: still no winner.
    assert ConnectFour.from_moves([1, 0, 1, 2, 1, 3, 0, 0, 0, 0, 0]) == state


#: A random game (numpy seed 5, game 24) that filled the board without a four.
DRAWN_GAME = [1, 0, 4, 2, 2, 6, 5, 3, 6, 3, 6, 4, 2, 3, 4, 5, 6, 1, 0, 2, 4, 6, 6, 2, 0, 5, 1,
              0, 1, 4, 3, 2, 1, 3, 4, 5, 5, 0, 3, 1, 0, 5]


def test_a_full_board_without_four_is_a_draw_here_and_in_open_spiel():
    state = ConnectFour.from_moves(DRAWN_GAME)
    assert state.grid() == ("X O O X X O X\n"
                            "O X O O O X O\n"
                            "O X O X X O X\n"
                            "X X X O X O X\n"
                            "X O X O O O X\n"
                            "O X O O X X O")
    assert state.is_terminal() and state.winner() is None and state.legal_moves() == ()
    assert state.result(0) == state.result(1) == 0.5
    assert state.status_line() == "game over: draw (board full)"
    assert ConnectFour.from_string(state.grid()) == state
    final, spiel = play_both(None, DRAWN_GAME)  # compared with OpenSpiel at every ply
    assert final == state and spiel.returns() == [0.0, 0.0]


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("move", [-1, 7, 3.0, True, "3", None])
def test_moves_off_the_board_are_refused(move):
    with pytest.raises(ValueError, match="is illegal here; legal moves are: 0, 1, 2, 3, 4, 5, 6"):
        ConnectFour().play(move)


def test_a_full_column_and_a_finished_game_are_refused():
    full = ConnectFour.from_moves([3] * 6)
    with pytest.raises(ValueError, match="move 3 is illegal here; legal moves are: 0, 1, 2, 4"):
        full.play(3)
    won = ConnectFour.from_moves([0, 1, 0, 1, 0, 1, 0])
    with pytest.raises(ValueError, match="the game is over"):
        won.play(2)


@pytest.mark.parametrize("text, message", [
    ("X" * 42, "X moves first"),
    ("." * 41, "exactly 42 cells"),
    ("." * 41 + "Y", "exactly 42 cells"),
    ("X" + "." * 41, "column 0 has a disc above an empty cell"),
    (grid_of(["OOOO", "XX", "XX", "", "X", "", ""]), "O has four in a line, so O moved last"),
    (grid_of(["XXXX", "OOOO", "", "", "", "", ""]), "both X and O have four in a line"),
    (grid_of(["XO", "XO", "X", "XOO", "X", "XO", "XO"]), "no single last disc of X"),
])
def test_from_string_checks_the_position(text, message):
    with pytest.raises(ValueError, match=message):
        ConnectFour.from_string(text)


def test_from_string_accepts_a_won_position_whose_last_disc_is_on_top():
    # Bottom row X in columns 0-3 (four), O above three of them: X's (3, 0) can be the last.
    state = ConnectFour.from_string(grid_of(["XO", "XO", "XO", "X", "", "", ""]))
    assert state.winner() == 0 and state.is_terminal()
    with pytest.raises(ValueError, match="text must be a string of 42 cells"):
        ConnectFour.from_string(42)


def test_from_moves_needs_a_sequence():
    with pytest.raises(ValueError, match="moves must be a sequence of columns"):
        ConnectFour.from_moves(3)


@pytest.mark.parametrize("col", [-1, 7, 2.0, "2"])
def test_queries_check_their_arguments(col):
    with pytest.raises(ValueError, match="col must be a whole number from 0 to 6"):
        ConnectFour().height(col)


# ------------------------------------------------------------------ immutability, hashing


def test_play_returns_a_new_state_and_leaves_the_old_one_unchanged():
    start = ConnectFour.from_moves([3, 3])
    before = (start.discs, start.player_to_move, start.legal_moves(), start.key)
    after = start.play(3)
    assert after is not start and after != start
    assert (start.discs, start.player_to_move, start.legal_moves(), start.key) == before
    assert after.height(3) == 3 and start.height(3) == 2
    with pytest.raises(AttributeError, match="immutable"):
        start.discs = (0, 0)


def test_move_orders_reaching_one_position_give_equal_states_and_keys():
    # X plays columns 0 and 3, O plays 1 and 5, in every order: 2 x 2 orders, one position.
    states = {ConnectFour.from_moves([x1, o1, x2, o2])
              for x1, x2 in permutations((0, 3)) for o1, o2 in permutations((1, 5))}
    assert len(states) == 1
    keys = {ConnectFour.from_moves([x1, o1, x2, o2]).key
            for x1, x2 in permutations((0, 3)) for o1, o2 in permutations((1, 5))}
    assert len(keys) == 1


def test_keys_are_distinct_for_distinct_positions():
    # Every position of the first five plies (many reached by several orders): as many keys
    # as states, all below 2**49.
    layer, seen = {ConnectFour()}, {ConnectFour()}
    for _ in range(5):
        layer = {state.play(move) for state in layer for move in state.legal_moves()}
        seen |= layer
    keys = {state.key for state in seen}
    assert len(keys) == len(seen) and max(keys) < 2**49
    assert len(seen) == 1 + 7 + 49 + 238 + 1120 + 4263  # OEIS A212693: positions by ply


def test_copy_and_pickle_give_equal_states():
    state = ConnectFour.from_moves([3, 3, 4, 2, 2, 5])
    for clone in (copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert clone == state and clone.key == state.key
        assert clone.player_to_move == state.player_to_move
    assert eval(repr(state), {"ConnectFour": ConnectFour}) == state


def test_connect_four_is_a_game_state_and_prints_the_board():
    state = ConnectFour.from_moves([3, 3])
    assert isinstance(state, GameState)
    lines = str(state).split("\n")
    assert lines[4] == ". . . O . . ." and lines[5] == ". . . X . . ."
    assert lines[6] == "0 1 2 3 4 5 6" and lines[7] == "X to move"
