"""Flat UCB (chapter 2): UCB1 over the root moves, one random playout per pull."""

import math

import pytest

from mctslib.games.tictactoe import TicTacToe
from mctslib.learners.ucb1 import ucb1_score
from mctslib.rng import make_rng, move_source
from mctslib.search.flat import _playout, find_traps
from mctslib.search.flat_ucb import flat_ucb


def reference(state, playouts, seed, c):
    # The rule written out once more, independently: pull each move once, then the best score.
    source = move_source(make_rng(seed))
    moves = state.legal_moves()
    wins, pulls = [0.0] * len(moves), [0] * len(moves)
    for done in range(playouts):
        if done < len(moves):
            arm = done
        else:
            best = -math.inf
            for i in range(len(moves)):
                score = wins[i] / pulls[i] + c * math.sqrt(math.log(done) / pulls[i])
                if score > best:
                    best, arm = score, i
        wins[arm] += _playout(state.play(moves[arm]), source).result(state.player_to_move)
        pulls[arm] += 1
    return pulls, wins


@pytest.mark.parametrize("seed", [1, 2])
def test_flat_ucb_matches_a_plain_loop(seed):
    state = TicTacToe().play(4)
    result = flat_ucb(state, 400, seed, c=0.7)
    pulls, wins = reference(state, 400, seed, 0.7)
    assert list(result.playouts) == pulls
    assert list(result.means) == [w / n for w, n in zip(wins, pulls)]
    assert sum(result.playouts) == 400


def test_first_pulls_go_to_every_move_in_order():
    state = TicTacToe()
    result = flat_ucb(state, 9, 0)
    assert result.playouts == (1,) * 9
    assert result.best_move == 0  # all equal: the first move


def test_flat_ucb_spends_less_on_bad_moves_but_keeps_the_trap():
    trap = find_traps(TicTacToe())[0]
    result = flat_ucb(trap.state, 3000, 5)
    assert result.best_move == trap.trap_move
    worst = [result.playouts[result.moves.index(m)] for m in (3, 7)]  # exact value 0.5 each
    assert max(worst) < 3000 / len(result.moves)


def test_bad_arguments_are_sentences():
    with pytest.raises(ValueError, match="playouts"):
        flat_ucb(TicTacToe(), 0, 1)
    with pytest.raises(ValueError, match="exploration constant"):
        flat_ucb(TicTacToe(), 10, 1, c=-1.0)
    with pytest.raises(ValueError, match="still on"):
        over = TicTacToe()
        for move in (0, 3, 1, 4, 2):
            over = over.play(move)
        flat_ucb(over, 10, 1)
    assert ucb1_score(1.0, 1, 1) == 1.0
