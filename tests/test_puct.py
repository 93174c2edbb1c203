"""Unit tests of the readable PUCT (mctslib/search/puct.py, chapter 7); no JAX here."""

from __future__ import annotations

import math
import re

import pytest

from mctslib.games.tictactoe import TicTacToe
from mctslib.search.minimax import winning_moves
from mctslib.search.puct import (
    MCTX_OPTIONS,
    Node,
    PUCTSearch,
    check_evaluation,
    random_evaluator,
    uniform_evaluator,
)

EMPTY = TicTacToe()


def _fixed(priors, value):
    """An evaluator that answers the same (priors, value) everywhere."""
    return lambda state: (priors, value)


# -- bad input ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("options", "words"), [
    ({"c_puct": -1.0}, "c_puct must be a number in [0, inf)"),
    ({"c_puct": math.nan}, "c_puct"),
    ({"pb_c_base": 0.0}, "pb_c_base must be a number > 0, got 0.0"),
    ({"q_transform": "minmax"}, "q_transform must be one of 'plain', 'parent_and_siblings'"),
    ({"first_play_value": 1.5}, "first_play_value must be a number in [-1, 1], got 1.5"),
    ({"epsilon": 0.0}, "epsilon must be a number > 0"),
    ({"dirichlet_alpha": -0.3}, "dirichlet_alpha must be a number > 0, got -0.3"),
    ({"dirichlet_fraction": 1.5}, "dirichlet_fraction must be a number in [0, 1], got 1.5"),
    ({"iterations": 0}, "iterations must be a whole number >= 1, got 0"),
    ({"iterations": 2.5}, "iterations must be a whole number"),
    ({"iterations": 10**8}, "iterations must be at most 10,000,000"),
    ({"iterations": None}, "give exactly one budget"),
    ({"iterations": 5, "seconds": 1.0}, "give exactly one budget"),
])
def test_bad_options_are_named(options, words):
    with pytest.raises(ValueError, match="^" + _escaped(words)):
        PUCTSearch(uniform_evaluator, **options)


def _escaped(text: str) -> str:
    return re.escape(text)


def test_non_callable_evaluator_is_a_value_error():
    with pytest.raises(ValueError, match=r"^evaluator must be a function state -> \(priors, "
                                         r"value\).*got \{0: 1\.0\}"):
        PUCTSearch({0: 1.0})


@pytest.mark.parametrize(("priors", "value", "words"), [
    ({m: 0.1 for m in range(9)}, 0.0, "priors must sum to 1 over the legal moves"),
    ({m: 1 / 8 for m in range(8)}, 0.0,
     "priors must give every legal move a probability; missing [8]"),
    ({**{m: 1 / 9 for m in range(9)}, 9: 0.0}, 0.0,
     "priors must give probabilities to the legal moves only; [9] are not legal"),
    ({0: -0.5, **{m: 1.5 / 8 for m in range(1, 9)}}, 0.0, "priors[0] must be a number in [0, inf)"),
    ([1 / 9] * 9, 0.0, "priors must be a dict {legal move: probability}"),
    ({m: 1 / 9 for m in range(9)}, 1.5, "value must be a number in [-1, 1], got 1.5"),
    ({m: 1 / 9 for m in range(9)}, math.nan, "value must be a number in [-1, 1], got nan"),
    ({m: 1 / 9 for m in range(9)}, True, "value must be a number in [-1, 1], got True"),
])
def test_bad_evaluations_are_named(priors, value, words):
    with pytest.raises(ValueError, match="^" + _escaped(words)):
        check_evaluation(priors, value, EMPTY.legal_moves())
    # The search checks every evaluation with the same sentences.
    with pytest.raises(ValueError, match="^" + _escaped(words)):
        PUCTSearch(_fixed(priors, value), iterations=3).search(EMPTY)


def test_good_evaluation_comes_back_as_floats():
    priors, value = check_evaluation({0: 1, 1: 0}, -1, (0, 1))
    assert priors == {0: 1.0, 1: 0.0} and value == -1.0
    assert all(type(p) is float for p in priors.values()) and type(value) is float


def test_an_evaluator_that_does_not_answer_a_pair_is_named():
    with pytest.raises(ValueError, match=r"^the evaluator must return a pair \(priors, value\)"):
        PUCTSearch(lambda state: 0.5, iterations=2).search(EMPTY)


def test_bad_states_and_early_questions():
    search = PUCTSearch(uniform_evaluator, iterations=2)
    with pytest.raises(ValueError, match="^no search has run yet"):
        search.visit_counts()
    with pytest.raises(ValueError, match="^no search has run yet"):
        search.root_stats()
    with pytest.raises(ValueError, match="^cannot search a finished game"):
        search.search(TicTacToe.from_string("XXX/OO./..."))
    with pytest.raises(ValueError, match="^state must be a game position"):
        search.search("X../.../...")
    for evaluate in (uniform_evaluator, random_evaluator(0)):
        with pytest.raises(ValueError, match="^state must be a position still on"):
            evaluate(TicTacToe.from_string("XXX/OO./..."))
    with pytest.raises(ValueError, match="^seed must be a whole number >= 0, got -1"):
        random_evaluator(-1)


# -- the search --------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["XO./O.X/...", "XOX/.../O..", "X../OOX/...",  # forks
                                  "XX./OO./..."])  # a win in one
@pytest.mark.parametrize("options", [{}, MCTX_OPTIONS], ids=["alphazero", "mctx"])
def test_finds_the_only_winning_move(text, options):
    # 2,000 simulations: with mctx's min-max Q a child that beats the parent's value scores 1
    # and the rest 0, so the search can stay on a drawing move for a while ("X../OOX/..." keeps
    # 729 of its first 1,000 simulations on 8 and turns to the fork, 2, after that).
    state = TicTacToe.from_string(text)
    (winner,) = winning_moves(state)  # each position has exactly one winning move
    assert PUCTSearch(uniform_evaluator, iterations=2000, **options).choose(state) == winner


def test_visits_add_up_and_the_root_counts_its_evaluation():
    search = PUCTSearch(random_evaluator(1), iterations=50, **MCTX_OPTIONS)
    root = search.search(EMPTY)
    assert sum(search.visit_counts().values()) == 50
    assert root.visits == 51  # N(s) = 1 + sum of the children's visits, mctx's count
    assert list(search.visit_counts()) == list(EMPTY.legal_moves())


def test_backup_flips_the_sign_each_ply():
    # Every position is worth +0.5 to the player to move there.
    search = PUCTSearch(lambda state: (uniform_evaluator(state)[0], 0.5), iterations=1)
    root = search.search(EMPTY)
    child = next(c for c in root.children if c.visits)
    assert child.value_sum == 0.5 and child.q == -0.5  # good for O = bad for X
    assert root.value_sum == 0.5 - 0.5 and root.visits == 2


def test_finished_positions_are_worth_their_result_every_visit():
    # X to move with one empty cell left: 8 completes the diagonal 0-4-8.
    state = TicTacToe.from_string("XOX/OXO/OX.")
    search = PUCTSearch(uniform_evaluator, iterations=5)
    search.search(state)
    (stats,) = search.root_stats()
    assert (stats.move, stats.visits, stats.mean) == (8, 5, 1.0)
    draw = TicTacToe.from_string("XOX/XOO/OX.")  # X fills 8: a draw
    search.search(draw)
    assert search.root_stats()[0].mean == 0.0


def test_ties_go_to_the_first_move_in_order():
    # Uniform priors and value 0: every score ties until visited, so the first unvisited
    # move in order is taken each time; nine simulations visit each move once.
    search = PUCTSearch(uniform_evaluator, iterations=9)
    search.search(EMPTY)
    assert list(search.visit_counts().values()) == [1] * 9
    assert PUCTSearch(uniform_evaluator, iterations=1).choose(EMPTY) == 0


def test_mctx_q_transform_by_hand():
    search = PUCTSearch(uniform_evaluator, **MCTX_OPTIONS)
    node = Node(None, 1.0, None)
    node.visits, node.value_sum = 5, 1.0            # V = 0.2 for the player to move
    kids = [Node(move, prior, node) for move, prior in ((0, 0.5), (1, 0.3), (2, 0.2))]
    node.children = kids
    kids[0].visits, kids[0].value_sum = 2, -1.0     # Q = +0.5 for the chooser
    kids[1].visits, kids[1].value_sum = 2, 1.2      # Q = -0.6
    scale = 0.5 - -0.6                               # hi = 0.5, lo = -0.6 (V = 0.2 inside)
    c = 1.25 + math.log((5 + 19652 + 1) / 19652)
    expected = [((0.5 + 0.6) / scale, math.sqrt(5) * c * 0.5 / 3),
                (0.0, math.sqrt(5) * c * 0.3 / 3),
                (0.0, math.sqrt(5) * c * 0.2 / 1)]
    assert search.exploration(node) == c
    for got, want in zip(search.scores(node), expected):
        assert got == pytest.approx(want, rel=1e-12, abs=1e-15)
    # With all values equal the spread is below epsilon: Q terms are 0 and U decides.
    kids[0].value_sum, kids[1].value_sum = -0.4, -0.4
    assert [q for q, _ in search.scores(node)] == [0.0, 0.0, 0.0]


def test_plain_q_and_first_play_value():
    search = PUCTSearch(uniform_evaluator, c_puct=2.0, first_play_value=-0.25)
    node = Node(None, 1.0, None)
    node.visits, node.value_sum = 3, 0.0
    node.children = [Node(0, 0.5, node), Node(1, 0.5, node)]
    node.children[0].visits, node.children[0].value_sum = 2, 0.6
    assert search.exploration(node) == 2.0
    assert search.scores(node) == [(-0.3, math.sqrt(3) * 2.0 * 0.5 / 3),
                                   (-0.25, math.sqrt(3) * 2.0 * 0.5 / 1)]


def test_same_seed_same_search_and_no_noise_needs_no_seed():
    def run(seed, **options):
        search = PUCTSearch(random_evaluator(4), iterations=200, seed=seed, **options)
        search.search(EMPTY)
        return search.visit_counts(), [s.prior for s in search.root_stats()]

    noisy = {"dirichlet_alpha": 0.3, "dirichlet_fraction": 0.25}
    assert run(7, **noisy) == run(7, **noisy)
    assert run(7, **noisy) != run(8, **noisy)
    assert run(7) == run(8)  # without noise nothing is random


def test_dirichlet_noise_changes_the_root_priors_only():
    evaluator = random_evaluator(2)
    plain = PUCTSearch(evaluator, iterations=20)
    plain.search(EMPTY)
    noisy = PUCTSearch(evaluator, iterations=20, dirichlet_alpha=0.3, dirichlet_fraction=0.25,
                       seed=11)
    root = noisy.search(EMPTY)
    before = [s.prior for s in plain.root_stats()]
    after = [s.prior for s in noisy.root_stats()]
    assert before == [evaluator(EMPTY)[0][m] for m in EMPTY.legal_moves()]
    assert after != before and math.fsum(after) == pytest.approx(1.0, abs=1e-12)
    assert all(a >= 0.75 * b - 1e-15 for a, b in zip(after, before))  # 75% of the prior stays
    # Below the root the priors are the evaluator's own.
    child = next(c for c in root.children if c.children)
    state = EMPTY.play(child.move)
    assert [g.prior for g in child.children] == [evaluator(state)[0][m]
                                                 for m in state.legal_moves()]
    # A fraction of 0 leaves the priors alone.
    zero = PUCTSearch(evaluator, iterations=20, dirichlet_alpha=0.3, dirichlet_fraction=0.0)
    zero.search(EMPTY)
    assert [s.prior for s in zero.root_stats()] == before


def test_random_evaluator_is_a_fixed_function_of_seed_and_state():
    first, again, other = random_evaluator(0), random_evaluator(0), random_evaluator(1)
    priors, value = first(EMPTY)
    # The same numbers in every process: the generator is keyed by a digest, not hash().
    assert value == 0.6404644602480762 and priors[4] == 0.07905456962161
    assert again(EMPTY) == (priors, value) and other(EMPTY) != (priors, value)
    for state in (EMPTY, EMPTY.play(4), TicTacToe.from_string("XO./.X./...")):
        check_evaluation(*first(state), state.legal_moves())
        assert min(first(state)[0].values()) > 0.005  # no tiny priors: mctx's noise is 1e-7


def test_uniform_evaluator_and_a_timed_search():
    priors, value = uniform_evaluator(EMPTY)
    assert value == 0.0 and set(priors.values()) == {1 / 9}
    search = PUCTSearch(uniform_evaluator, iterations=None, seconds=0.01)
    search.search(EMPTY)
    assert sum(search.visit_counts().values()) >= 1


def test_root_stats_match_the_tree():
    search = PUCTSearch(random_evaluator(3), iterations=100, **MCTX_OPTIONS)
    root = search.search(EMPTY)
    stats = search.root_stats()
    assert [s.move for s in stats] == list(EMPTY.legal_moves())
    for s, child, (_, u) in zip(stats, root.children, search.scores(root)):
        assert s.visits == child.visits and s.prior == child.prior and s.bonus == u
        assert math.isnan(s.mean) if not child.visits else s.mean == -child.mean
    best = max(stats, key=lambda s: s.visits)
    assert PUCTSearch(random_evaluator(3), iterations=100, **MCTX_OPTIONS).choose(EMPTY) \
        == best.move
