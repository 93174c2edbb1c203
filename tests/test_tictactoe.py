"""Rules of tic-tac-toe (mctslib.games.tictactoe), chapter 1."""

from collections import Counter
from itertools import combinations

import pytest

from mctslib.games import TicTacToe
from mctslib.games.tictactoe import LINES, has_line
from mctslib.search.minimax import reachable_states

# The eight lines written as cell triples, independently of the masks in the module.
TRIPLES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def mask(cells):
    return sum(1 << cell for cell in cells)


def test_the_line_masks_are_the_three_rows_three_columns_and_two_diagonals():
    assert sorted(LINES) == sorted(mask(triple) for triple in TRIPLES)


def others_without_a_line(triple, count):
    """``count`` cells off ``triple`` that hold no line: the loser's marks beside a win."""
    for cells in combinations([cell for cell in range(9) if cell not in triple], count):
        if not has_line(mask(cells)):
            return cells
    raise AssertionError("every line leaves room for the loser's marks")


@pytest.mark.parametrize("triple", TRIPLES)
def test_every_line_wins_for_x_and_for_o(triple):
    assert has_line(mask(triple))
    # X wins on its third mark (O has two); O wins on its third mark (X has three).
    assert TicTacToe(x=mask(triple), o=mask(others_without_a_line(triple, 2))).winner() == 0
    assert TicTacToe(x=mask(others_without_a_line(triple, 3)), o=mask(triple)).winner() == 1


def test_two_cells_of_a_line_and_a_scattered_three_are_not_lines():
    assert not has_line(mask((0, 1)))
    assert not has_line(mask((0, 1, 5)))  # three marks, but not in a row


def test_a_position_where_both_sides_own_a_line_is_refused():
    # Impossible in play (the game ends at the first line), so it cannot be built.
    with pytest.raises(ValueError, match="both X and O have a line"):
        TicTacToe(x=mask((0, 1, 2)), o=mask((3, 4, 5)))


def test_a_full_board_without_a_line_is_a_draw():
    board = TicTacToe.from_string("XOX/XOO/OXX")
    assert board.is_terminal()
    assert board.winner() is None
    assert board.result(0) == board.result(1) == 0.5
    assert board.legal_moves() == ()


def test_a_won_game_is_over_even_with_free_cells():
    board = TicTacToe.from_string("XXX/OO./...")
    assert board.is_terminal() and board.winner() == 0
    assert board.legal_moves() == ()


def test_players_alternate_and_play_returns_a_new_state():
    empty = TicTacToe()
    after = empty.play(4)
    assert empty == TicTacToe() and empty.player_to_move == 0
    assert after.player_to_move == 1 and str(after) == ". . .\n. X .\n. . ."
    assert str(after.play(0)) == "O . .\n. X .\n. . ."
    assert after.legal_moves() == (0, 1, 2, 3, 5, 6, 7, 8)


def test_result_of_an_unfinished_game_is_an_error():
    with pytest.raises(ValueError, match="still on"):
        TicTacToe().result(0)


@pytest.mark.parametrize("move", [4, 9, -1, True, "4", 2.0])
def test_an_illegal_move_names_the_move_and_the_legal_moves(move):
    board = TicTacToe.from_string("XO./.X./...")
    with pytest.raises(ValueError) as error:
        board.play(move)
    message = str(error.value)
    assert repr(move) in message
    assert "legal moves are: 2, 3, 5, 6, 7, 8." in message


def test_a_move_after_the_game_is_over_says_so():
    with pytest.raises(ValueError, match="the game is over"):
        TicTacToe.from_string("XXX/OO./...").play(8)


def test_from_string_reads_what_str_writes():
    board = TicTacToe.from_string("x.o / .X. / ..o")
    assert TicTacToe.from_string(str(board)) == board
    assert board.x == mask((0, 4)) and board.o == mask((2, 8))


@pytest.mark.parametrize(
    "text, words",
    [
        ("XO./...", "exactly nine cells"),
        ("XO./.../...X", "exactly nine cells"),
        ("XQ./.../...", "exactly nine cells"),
        ("XX./.../...", "2 X and 0 O"),
        ("O../.../...", "0 X and 1 O"),
    ],
)
def test_from_string_rejects_bad_text_with_a_sentence(text, words):
    with pytest.raises(ValueError, match=words):
        TicTacToe.from_string(text)


def test_reachable_positions_of_tic_tac_toe():
    # Published counts: 5,478 legal positions, of which 958 are over
    # (626 won by X, 316 by O, 16 drawn), so 4,520 are still on.
    states = reachable_states(TicTacToe())
    assert len(states) == 5478
    assert len(set(states)) == 5478
    assert sum(not state.is_terminal() for state in states) == 4520
    finished = Counter(state.winner() for state in states if state.is_terminal())
    assert finished == {0: 626, 1: 316, None: 16}


def test_reachable_positions_by_number_of_marks():
    # By hand for the first levels: 9 first moves, 9 * 8 = 72 pairs, 9 * C(8, 2) = 252
    # positions with three marks. No game can be over before the fifth mark, so
    # the counts grow as C(9, x) * C(9 - x, o) up to there: 756 with four marks.
    states = reachable_states(TicTacToe())
    by_marks = Counter((state.x | state.o).bit_count() for state in states)
    assert [by_marks[k] for k in range(5)] == [1, 9, 72, 252, 756]
    assert sum(by_marks.values()) == 5478
