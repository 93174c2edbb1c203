"""Exact values (mctslib.search.minimax): minimax, random-playout values, enumeration. Chapter 1."""

from dataclasses import dataclass
from fractions import Fraction

import pytest

from mctslib.games import GameState, TicTacToe
from mctslib.search.minimax import (
    clear_caches,
    minimax_value,
    move_values,
    random_playout_move_values,
    random_playout_outcomes,
    random_playout_value,
    reachable_states,
    winning_moves,
)


@dataclass(frozen=True)
class Countdown(GameState):
    """Take 1 or 2 from a pile; whoever takes the last one wins. A second game
    for the protocol, small enough to solve by hand."""

    pile: int
    to_move: int = 0

    @property
    def player_to_move(self):
        return self.to_move

    def legal_moves(self):
        return tuple(take for take in (1, 2) if take <= self.pile)

    def play(self, move):
        if move not in self.legal_moves():
            raise self.illegal_move_error(move)
        return Countdown(self.pile - move, 1 - self.to_move)

    def is_terminal(self):
        return self.pile == 0

    def winner(self):
        return 1 - self.to_move if self.pile == 0 else None


def board(text):
    return TicTacToe.from_string(text)


# ---------------------------------------------------------------- minimax


def test_the_empty_board_is_a_draw_and_so_is_every_first_move():
    empty = TicTacToe()
    assert minimax_value(empty, 0) == minimax_value(empty, 1) == 0.5
    assert move_values(empty) == {cell: 0.5 for cell in range(9)}
    assert winning_moves(empty) == ()


def test_an_immediate_win_is_the_only_winning_move():
    # X: 0, 1, 8; O: 3, 4, 6; X to move. X completes 0-1-2 with 2. After X 5,
    # O wins with 2 (2-4-6); after X 7, O wins with 5 (3-4-5) or 2.
    position = board("XX./OO./O.X")
    assert move_values(position) == {2: 1.0, 5: 0.0, 7: 0.0}
    assert winning_moves(position) == (2,)
    assert minimax_value(position, 0) == 1.0 and minimax_value(position, 1) == 0.0


def test_a_quiet_winning_move_found_by_hand():
    # O (2) against X (3, 7), O to move. O 0 threatens 1; X must block at 1 and
    # then threatens 4 (1-4-7); O blocks at 4 and has two threats (6 and 8).
    # O 8 is the mirror image. O 4 threatens 6, but X's block at 6 makes two
    # threats (0 and 8). O 1 threatens 0; X blocks, threatens 6; O blocks,
    # threatens 4; X blocks at 4 with two threats (5 and 8).
    position = board("..O/X../.X.")
    assert winning_moves(position) == (0, 8)
    assert move_values(position)[4] == 0.0
    assert move_values(position)[1] == 0.0
    assert winning_moves(position.play(4)) == (6,)


def test_finished_games_have_their_result_as_value():
    won_by_o = board("XX./OOO/X..")  # O completed the middle row with its third mark
    assert minimax_value(won_by_o, 1) == 1.0
    assert minimax_value(won_by_o, 0) == 0.0
    assert random_playout_value(won_by_o, 1) == 1.0
    assert random_playout_outcomes(board("XOX/XOO/OXX"), 0) == (0.0, 1.0, 0.0)


def test_minimax_on_another_game_through_the_protocol():
    # Countdown: take 1 or 2 from a pile, taking the last one wins. Multiples
    # of 3 are lost for the player to move (the opponent restores a multiple of 3).
    for pile in range(1, 10):
        expected = 0.0 if pile % 3 == 0 else 1.0
        assert minimax_value(Countdown(pile), 0) == expected
    assert winning_moves(Countdown(7)) == (1,)
    assert winning_moves(Countdown(8)) == (2,)


def test_bad_player_and_finished_positions_raise_sentences():
    with pytest.raises(ValueError, match="player must be 0"):
        minimax_value(TicTacToe(), 2)
    with pytest.raises(ValueError, match="player must be 0"):
        random_playout_value(TicTacToe(), True)
    with pytest.raises(ValueError, match="still on"):
        move_values(board("XXX/OO./..."))
    with pytest.raises(ValueError, match="still on"):
        random_playout_move_values(board("XOX/XOO/OXX"))


# -------------------------------------------------------- random playouts


def test_random_playout_value_with_two_empty_cells():
    # X: 1, 3, 5, 6; O: 0, 4, 7; O to move, cells 2 and 8 free. O 8 completes
    # 0-4-8 (win). O 2 makes no line; X must take 8, which makes no line: draw.
    # Each with chance 1/2: O wins 1/2, draws 1/2, value 1/2 + 1/4 = 0.75.
    position = board("OX./XOX/XO.")
    assert random_playout_outcomes(position, 1) == (0.5, 0.5, 0.0)
    assert random_playout_outcomes(position, 0) == (0.0, 0.5, 0.5)
    assert random_playout_value(position, 1) == 0.75
    assert random_playout_move_values(position) == {2: 0.5, 8: 1.0}


def test_random_playout_value_with_three_empty_cells():
    # X to move with 2, 5, 7 free (position of the immediate-win test).
    # X 2 wins. X 5: O picks 2 (O wins) or 7 (then X takes 2 and wins): 1/2.
    # X 7: both of O's replies win for O: 0. Averages: (1 + 1/2 + 0) / 3 = 1/2.
    position = board("XX./OO./O.X")
    assert random_playout_move_values(position) == {2: 1.0, 5: 0.5, 7: 0.0}
    assert random_playout_value(position, 0) == pytest.approx(0.5)
    assert random_playout_outcomes(position, 0) == pytest.approx((0.5, 0.0, 0.5))


def test_random_play_from_the_empty_board():
    # Widely published: with uniformly random moves X wins 737/1260 of the
    # games, O 363/1260 and 160/1260 are drawn.
    win, draw, loss = random_playout_outcomes(TicTacToe(), 0)
    assert (win, draw, loss) == pytest.approx(
        (Fraction(737, 1260), Fraction(160, 1260), Fraction(363, 1260)), abs=1e-12
    )
    # The centre is the best first move for random play, the edges the worst.
    values = random_playout_move_values(TicTacToe())
    assert max(values, key=values.get) == 4
    assert values[4] == pytest.approx(0.75)
    assert values[1] == values[3] == values[5] == values[7] < values[0]


def test_random_playout_outcomes_sum_to_one_everywhere():
    for state in reachable_states(TicTacToe())[::97]:
        assert sum(random_playout_outcomes(state, 0)) == pytest.approx(1.0)


def test_clearing_the_caches_changes_no_value():
    before = random_playout_value(TicTacToe(), 0), minimax_value(board("..O/X../.X."), 1)
    clear_caches()
    after = random_playout_value(TicTacToe(), 0), minimax_value(board("..O/X../.X."), 1)
    assert before == after


# ------------------------------------------------------------ enumeration


def test_reachable_states_are_depth_first_in_move_order():
    states = reachable_states(TicTacToe())
    # Depth first with cell 0 first: empty, X0, X0 O1, X0 O1 X2, ...
    assert states[0] == TicTacToe()
    assert states[1] == board("X../.../...")
    assert states[2] == board("XO./.../...")
    assert states[3] == board("XOX/.../...")
    assert states[4] == board("XOX/O../...")


def test_reachable_states_of_a_small_game():
    # By hand from a pile of 4 (pile, player to move), taking 1 before 2:
    # 4,0 -> 3,1 -> 2,0 -> 1,1 -> 0,0; back at 2,0 taking 2 gives 0,1 (new);
    # back at 3,1 taking 2 gives 1,0 (its child 0,1 is known); back at 4,0
    # taking 2 gives 2,1 (its children 1,0 and 0,0 are known).
    found = [(state.pile, state.to_move) for state in reachable_states(Countdown(4))]
    assert found == [(4, 0), (3, 1), (2, 0), (1, 1), (0, 0), (0, 1), (1, 0), (2, 1)]


def test_reachable_states_from_a_finished_game_is_just_that_game():
    done = board("XXX/OO./...")
    assert reachable_states(done) == [done]
