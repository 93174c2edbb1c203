"""The subtraction game and pick-numbers-summing-to-15 follow their rules."""

import pytest

from mctslib.games import SubtractionGame, SumToFifteen, TicTacToe
from mctslib.games.subtraction import winning_take
from mctslib.games.sum15 import MAGIC_SQUARE, TRIPLES, numbers_of
from mctslib.search.minimax import minimax_value, reachable_states, winning_moves


def test_subtraction_rules():
    state = SubtractionGame(5)
    assert state.legal_moves() == (1, 2, 3)
    assert SubtractionGame(2).legal_moves() == (1, 2)
    end = state.play(2).play(3)
    assert end.is_terminal() and end.winner() == 1  # player 1 took the last stone


@pytest.mark.parametrize("stones", range(1, 21))
def test_multiples_of_four_are_lost(stones):
    state = SubtractionGame(stones)
    lost = stones % 4 == 0
    assert (minimax_value(state, 0) == 0.0) == lost
    assert winning_moves(state) == (() if lost else (winning_take(stones),))


def test_subtraction_bad_input():
    with pytest.raises(ValueError, match="stones"):
        SubtractionGame(-1)
    with pytest.raises(ValueError, match="mover"):
        SubtractionGame(3, mover=2)


def test_the_eight_triples_are_the_magic_square_lines():
    rows = [MAGIC_SQUARE[i:i + 3] for i in (0, 3, 6)]
    cols = [MAGIC_SQUARE[i::3] for i in range(3)]
    diagonals = [MAGIC_SQUARE[0::4], MAGIC_SQUARE[2:7:2]]
    lines = {frozenset(line) for line in rows + cols + diagonals}
    assert lines == {frozenset(numbers_of(t)) for t in TRIPLES}
    assert len(TRIPLES) == 8


def test_sum15_is_tictactoe_renamed():
    # Map each number to its magic-square cell: the games have the same positions and values.
    cell_of = {number: cell for cell, number in enumerate(MAGIC_SQUARE)}

    def as_tictactoe(state):
        x = sum(1 << cell_of[n] for n in numbers_of(state.first))
        o = sum(1 << cell_of[n] for n in numbers_of(state.second))
        return TicTacToe(x, o)

    positions = reachable_states(SumToFifteen())
    assert len(positions) == 5478
    for state in positions[::37]:
        assert as_tictactoe(state).winner() == state.winner()
        assert minimax_value(as_tictactoe(state), 0) == minimax_value(state, 0)


def test_sum15_win_and_draw():
    state = SumToFifteen()
    for number in (5, 1, 4, 6, 9, 2, 8, 3, 7):  # a full game
        if state.is_terminal():
            break
        state = state.play(number)
    assert state.is_terminal()
    won = SumToFifteen().play(2).play(1).play(6).play(3).play(7)
    assert won.winner() == 0  # 2 + 6 + 7 = 15
