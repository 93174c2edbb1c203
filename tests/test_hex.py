"""Rules of Hex (mctslib.games.hex), chapter "Enhancements that matter".

Checked against OpenSpiel's ``hex`` (open-spiel 2.0.2) over random games. How OpenSpiel's
state is read (open_spiel/games/hex/hex.cc):

* game string ``hex(board_size=N)``; an action is the cell ``num_cols * row + col``, the same
  integer as our move;
* player 0 (Black, ``x``) joins the first and last rows (north/south), player 1 (White, ``o``)
  the first and last columns (west/east); no swap rule by default;
* ``str(state)`` prints one row per line, row r shifted r spaces, each cell ``x``, ``o`` or
  ``.`` followed by a space;
* returns are +1 / -1 for the winner / loser; there are no draws.
"""

import copy
import pickle

import numpy as np
import pyspiel
import pytest

from mctslib.games import Hex
from mctslib.games.base import GameState
from mctslib.search.minimax import minimax_value, winning_moves

#: 1,000 random games against OpenSpiel: most on 7 x 7 (the chapter's board), some on
#: every other size from 2 to 11 so edge cases of small and large boards are played too.
SIZED_GAMES = {7: 1000, 2: 40, 3: 40, 4: 40, 5: 40, 6: 40, 8: 20, 9: 20, 10: 20, 11: 20}


def openspiel_cells(spiel_state, size: int) -> list[str]:
    """The cells of OpenSpiel's board in move order, as 'X', 'O' or '.'."""
    rows = [line.split() for line in str(spiel_state).split("\n")]
    assert len(rows) == size and all(len(row) == size for row in rows)
    return [ch.upper() for row in rows for ch in row]


def play_both(size: int, rng: np.random.Generator) -> tuple[Hex, object, int]:
    """One random game in both implementations, compared at every ply; returns the ends."""
    spiel = pyspiel.load_game(f"hex(board_size={size})").new_initial_state()
    state = Hex(size)
    plies = 0
    while True:
        assert spiel.is_terminal() == state.is_terminal()
        assert openspiel_cells(spiel, size) == [state.cell(*divmod(m, size))
                                                for m in range(size * size)]
        assert list(spiel.legal_actions()) == list(state.legal_moves())
        if state.is_terminal():
            return state, spiel, plies
        assert spiel.current_player() == state.player_to_move
        moves = state.legal_moves()
        move = moves[int(rng.integers(len(moves)))]
        spiel.apply_action(move)
        state = state.play(move)
        plies += 1


def test_random_games_agree_move_by_move_with_open_spiel():
    rng = np.random.default_rng(20261202)
    wins, games = [0, 0], 0
    for size, count in SIZED_GAMES.items():
        for _ in range(count):
            final, spiel, plies = play_both(size, rng)
            winner = final.winner()
            assert winner in (0, 1)  # no draws in Hex
            assert spiel.returns() == [1.0 if winner == p else -1.0 for p in (0, 1)]
            assert final.result(winner) == 1.0 and final.result(1 - winner) == 0.0
            assert plies >= 2 * size - 1  # the winner needs at least `size` stones
            wins[winner] += 1
            games += 1
    assert games >= 1000
    assert min(wins) > 0.3 * games  # both players win random games often


def test_openspiel_default_has_no_swap_rule():
    assert pyspiel.load_game("hex").get_parameters()["swap"] is False


# ------------------------------------------------------------------ known positions


def test_a_straight_column_wins_for_x():
    # X fills column 0 top to bottom; O plays the top row from col 1 without connecting.
    moves = []
    for row in range(7):
        moves.append(7 * row)
        if row < 6:
            moves.append(1 + row)
    state = Hex.from_moves(moves)
    assert state.winner() == 0 and state.is_terminal() and state.legal_moves() == ()
    assert Hex.from_moves(moves[:-1]).winner() is None


def test_a_winding_path_wins_for_o():
    # O's path from the left edge to the right edge, going up and down through the rhombus:
    # (3,0) (3,1) (2,2) (1,3) (1,4) (2,4) (3,4) (4,4) (4,5) (3,6) on a 7 x 7 board.
    path = [(3, 0), (3, 1), (2, 2), (1, 3), (1, 4), (2, 4), (3, 4), (4, 4), (4, 5), (3, 6)]
    x_moves = [(6, 0), (6, 1), (6, 2), (6, 3), (6, 4), (6, 5), (6, 6), (5, 0), (5, 1), (5, 2),
               (5, 3)]
    moves = []
    for x_cell, o_cell in zip(x_moves, path):
        moves += [7 * x_cell[0] + x_cell[1], 7 * o_cell[0] + o_cell[1]]
    state = Hex.from_moves(moves)
    assert state.winner() == 1
    # Every cell of the path is needed: without its last stone O has not won.
    assert Hex.from_moves(moves[:-1]).winner() is None
    # The same stones, read as text, give an equal state.
    assert Hex.from_string(state.grid()) == state


def test_neighbours_follow_openspiel_diagonals_not_the_other_ones():
    # (0,1)-(1,0) touch (row - 1, col + 1); (0,0)-(1,1) do not. X on (0,1),(1,0) on 2 x 2 wins.
    assert Hex.from_moves([1, 0, 2], size=2).winner() == 0  # X (0,1), O (0,0), X (1,0)
    # X on (0,0) and (1,1) is not a chain on a 2 x 2 board.
    state = Hex.from_moves([0, 1, 3], size=2)  # X (0,0), O (0,1), X (1,1)
    assert state.winner() is None and state.legal_moves() == (2,)
    # O's (1,0) touches O's (0,1) through the same diagonal: O joins left and right.
    assert state.play(2).winner() == 1


def test_a_full_board_always_has_exactly_one_winner_and_play_finds_it():
    # Random fills: cell order[i] gets X for even i, O for odd i (alternating play).
    rng = np.random.default_rng(7)
    for size in (2, 3, 5, 7, 9):
        for _ in range(60):
            order = [int(cell) for cell in rng.permutation(size * size)]
            text = ["."] * (size * size)
            for ply, cell in enumerate(order):
                text[cell] = "XO"[ply % 2]
            connected = [_connected_by_search("".join(text), size, p) for p in (0, 1)]
            assert sum(connected) == 1  # never both, never neither: no draw
            # Played in that order, the game stops early, won by the player who holds the
            # connection on the full board (stones are never removed).
            state = Hex(size)
            for cell in order:
                if state.is_terminal():
                    break
                state = state.play(cell)
            assert state.is_terminal() and state.winner() == connected.index(True)


def _connected_by_search(text: str, size: int, player: int) -> bool:
    """Does ``player`` join their edges in the full board ``text``? (a plain graph search)."""
    symbol = "XO"[player]
    starts = [(0, c) if player == 0 else (c, 0) for c in range(size)]
    seen = {cell for cell in starts if text[size * cell[0] + cell[1]] == symbol}
    stack = list(seen)
    while stack:
        row, col = stack.pop()
        if (row if player == 0 else col) == size - 1:
            return True
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0), (-1, 1), (1, -1)):
            r, c = row + dr, col + dc
            if 0 <= r < size and 0 <= c < size and (r, c) not in seen \
                    and text[size * r + c] == symbol:
                seen.add((r, c))
                stack.append((r, c))
    return False


def test_random_games_end_with_the_winner_a_plain_search_finds():
    rng = np.random.default_rng(11)
    for _ in range(200):
        state = Hex(5)
        while not state.is_terminal():
            moves = state.legal_moves()
            state = state.play(moves[int(rng.integers(len(moves)))])
        text = "".join(state.cell(*divmod(m, 5)) for m in range(25))
        assert _connected_by_search(text, 5, state.winner())
        assert not _connected_by_search(text, 5, 1 - state.winner())


def test_without_a_swap_rule_the_first_player_wins_small_boards():
    # Exact search: X wins 2 x 2 and 3 x 3 with best play; on 3 x 3 the centre is a winning
    # first move, and the winning first moves are symmetric under a half turn (cell m <-> 8 - m).
    assert minimax_value(Hex(2), 0) == 1.0 and minimax_value(Hex(3), 0) == 1.0
    first_moves = set(winning_moves(Hex(3)))
    assert 4 in first_moves and first_moves == {8 - move for move in first_moves}
    assert first_moves != set(range(9))  # some first moves lose (an acute corner, for one)


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("size", [1, 0, -3, 20, 7.0, True, "7", None])
def test_bad_sizes_are_refused_with_a_sentence(size):
    with pytest.raises(ValueError, match="size must be a whole number from 2 to 19"):
        Hex(size)


@pytest.mark.parametrize("move", [-1, 49, 3.0, True, "3", None])
def test_moves_off_the_board_are_refused(move):
    with pytest.raises(ValueError, match="is illegal here; legal moves are"):
        Hex().play(move)


def test_an_occupied_cell_and_a_finished_game_are_refused():
    with pytest.raises(ValueError, match="move 3 is illegal here"):
        Hex().play(3).play(3)
    won = Hex.from_moves([1, 0, 2], size=2)
    with pytest.raises(ValueError, match="the game is over"):
        won.play(3)


def test_numpy_integers_are_moves():
    assert Hex().play(np.int64(24)) == Hex().play(24)


@pytest.mark.parametrize("text, message", [
    ("XX..", "X moves first, so X has as many stones as O or one more"),
    ("XXO.", None),
    ("X.X.O", "size \\* size cells"),
    ("X..O" * 100, "size \\* size cells"),
    ("X.Y.", "size \\* size cells"),
    ("OOO XX. XX.", "O has joined their edges, so O moved last"),
    ("XOX XO. OX.", None),
])
def test_from_string_checks_the_position(text, message):
    if message is None:
        assert isinstance(Hex.from_string(text), Hex)
    else:
        with pytest.raises(ValueError, match=message):
            Hex.from_string(text)


def test_from_string_refuses_a_win_no_last_stone_completed():
    # X holds two separate top-to-bottom columns: removing any one stone leaves a win.
    text = "XOXO. XOXO. XOXO. XOXO. XOX.."  # X 10 stones, O 9 without a connection
    with pytest.raises(ValueError, match="no single last stone of X"):
        Hex.from_string(text)


def test_from_moves_needs_a_sequence():
    with pytest.raises(ValueError, match="moves must be a sequence"):
        Hex.from_moves(3)


# ------------------------------------------------------------------ immutability, hashing


def test_play_returns_a_new_state_and_leaves_the_old_one_unchanged():
    start = Hex()
    before = (start.stones, start.player_to_move, start.legal_moves())
    after = start.play(24)
    assert after is not start and after != start
    assert (start.stones, start.player_to_move, start.legal_moves()) == before
    assert after.player_to_move == 1 and 24 not in after.legal_moves()
    with pytest.raises(AttributeError, match="immutable"):
        start.stones = (1, 0)


def test_equal_positions_from_different_orders_are_equal_and_hash_alike():
    first = Hex.from_moves([0, 10, 20, 30])
    second = Hex.from_moves([20, 30, 0, 10])
    assert first == second and hash(first) == hash(second) and first.key == second.key
    assert len({first, second, Hex.from_moves([10, 0, 30, 20])}) == 2  # colours swapped
    assert Hex(5) != Hex(7)


def test_copy_and_pickle_give_equal_states():
    state = Hex.from_moves([24, 25, 17, 18, 10], size=7)
    for clone in (copy.copy(state), copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert clone == state and clone.player_to_move == state.player_to_move
        assert clone.legal_moves() == state.legal_moves()


def test_hex_is_a_game_state_and_prints_a_rhombus():
    state = Hex.from_moves([0, 48], size=7)
    assert isinstance(state, GameState)
    lines = str(state).split("\n")
    assert lines[1].endswith("X . . . . . .") and lines[7].endswith("      . . . . . . O")
    assert lines[-1] == "X to move"
    assert Hex.from_string(state.grid()) == state
