"""The alpha-beta baseline: numba == readable, tactics, time budget, SPEC and input checks."""

from __future__ import annotations

import pickle
import time

import numpy as np
import pytest

from mctslib.bots.uttt_alphabeta import AlphaBetaBot, AlphaBetaSpec, parse_alphabeta_spec, warm_up
from mctslib.fast import uttt as engine
from mctslib.fast import uttt_alphabeta as fast_ab
from mctslib.games.tictactoe import TicTacToe
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.search.alphabeta import PROVEN, WIN_SCORE, alphabeta, is_proven
from mctslib.search.uttt_evaluation import DEFAULT_WEIGHTS, evaluate, winning_cells


def _random_positions(count, seed, max_plies=60, scoring=None):
    """``count`` positions still on, reached by random moves (deterministic)."""
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        state = UltimateTicTacToe(scoring=scoring or ("codingame", "openspiel")[len(found) % 2])
        for _ in range(int(rng.integers(0, max_plies))):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            state = state.play(moves[int(rng.integers(len(moves)))])
        if not state.is_terminal():
            found.append(state)
    return found


def _fast(state, depth, ordering=True, max_nodes=fast_ab.NO_NODE_LIMIT,
          weights=fast_ab.DEFAULT_WEIGHTS):
    workspace, out = fast_ab.new_workspace(), np.zeros(4, dtype=np.int64)
    fast_ab.search(engine.to_array(state), depth, max_nodes, fast_ab.NO_DEADLINE,
                   engine.scoring_code(state.scoring), ordering, fast_ab.weights_array(weights),
                   *workspace, out)
    return tuple(int(v) for v in out)


# ------------------------------------------------------------------ the two twins agree


def test_numba_evaluation_equals_readable():
    for state in _random_positions(150, seed=1, max_plies=75):
        assert fast_ab.evaluate(engine.to_array(state), DEFAULT) == evaluate(state)
        assert fast_ab.evaluate(engine.to_array(state), OTHER) == evaluate(state, tuple(OTHER))


DEFAULT = fast_ab.weights_array()
OTHER = fast_ab.weights_array((40, 90, 7, -2, 5))


def test_default_weights_agree():
    assert fast_ab.DEFAULT_WEIGHTS == DEFAULT_WEIGHTS


@pytest.mark.parametrize("ordering", [True, False])
def test_numba_search_equals_readable_at_depths_1_to_3(ordering):
    """Same best move, value, depth and node count on 120 random positions."""
    for index, state in enumerate(_random_positions(120, seed=2)):
        depth = 1 + index % 3
        result = alphabeta(state, evaluate, depth, ordering=ordering)
        assert (result.move, result.value, result.depth, result.nodes) == _fast(
            state, depth, ordering), (state, depth)


def test_node_budget_abandons_the_iteration_alike():
    for state in _random_positions(20, seed=3):
        result = alphabeta(state, evaluate, 6, max_nodes=500)
        assert (result.move, result.value, result.depth, result.nodes) == _fast(
            state, 6, max_nodes=500)
        assert result.depth >= 1 and result.move in state.legal_moves()


def test_readable_search_works_on_another_game():
    """Tic-tac-toe from the empty board, searched to the end: a draw, proven by exhaustion."""
    result = alphabeta(TicTacToe(), lambda state: 0, 9)
    assert result.value == 0 and result.move in TicTacToe().legal_moves()
    assert result.verdict is None


def test_winning_cells():
    assert winning_cells(0b000000011, 0b111111100) == 0b000000100
    assert winning_cells(0b000000011, 0b111111000) == 0  # the third cell is taken
    assert winning_cells(0b000010001, 0b111101110) == 0b100000000  # the diagonal 0-4-8 only
    # cells 0, 1, 4: row 0 needs 2, the diagonal 8, the middle column 7
    assert winning_cells(0b000010011, 0b111101100) == 0b110000100


# ------------------------------------------------------------------ tactics


def _positions_with(predicate, count, seed):
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(20_000):
        state = UltimateTicTacToe()
        while not state.is_terminal() and len(found) < count:
            if predicate(state):
                found.append(state)
                break
            moves = state.legal_moves()
            state = state.play(moves[int(rng.integers(len(moves)))])
        if len(found) == count:
            break
    assert len(found) == count
    return found


def test_finds_a_win_in_one():
    bot = AlphaBetaBot("alphabeta:nodes=20000")
    for state in _positions_with(lambda s: len(s.winning_moves()) > 0, 15, seed=4):
        move, value, _, _ = _fast(state, 3)
        assert move in state.winning_moves() and value == WIN_SCORE - 1
        assert bot.choose(state) in state.winning_moves()
        assert bot.last.verdict == "win" and bot.last.depth == 1


def _threatened(state):
    """No win for the mover, but some moves (not all) let the opponent win at once."""
    if state.winning_moves():
        return False
    safe = [m for m in state.legal_moves() if not state.play(m).is_terminal()
            and not state.play(m).winning_moves()]
    return 0 < len(safe) < len(state.legal_moves())


def test_blocks_an_immediate_loss():
    bot = AlphaBetaBot("alphabeta:nodes=20000")
    for state in _positions_with(_threatened, 15, seed=5):
        move = bot.choose(state)
        after = state.play(move)
        assert not after.winning_moves(), (state, move)
        assert _fast(state, 2)[0] == move or not state.play(_fast(state, 2)[0]).winning_moves()


def test_recognises_a_proven_loss():
    # X to move in board 4 with O about to win: find a position where every move loses at once.
    def lost(state):
        return (not state.winning_moves() and len(state.legal_moves()) > 0
                and all(state.play(m).winning_moves() for m in state.legal_moves()))
    for state in _positions_with(lost, 3, seed=6):
        _, value, _, _ = _fast(state, 4)
        assert is_proven(value) and value <= -(WIN_SCORE - 2)


# ------------------------------------------------------------------ the bot


def test_bot_always_answers_a_legal_move_in_time():
    """Whole games at 5 ms a move (legal moves; how late is measured, not asserted here)."""
    spec = parse_alphabeta_spec("alphabeta:ms=5,first_ms=5")
    rng = np.random.default_rng(7)
    for game in range(2):
        bot, state = spec(seed=rng), UltimateTicTacToe()
        while not state.is_terminal():
            if state.player_to_move == game % 2:
                move = bot.choose(state)
                assert move in state.legal_moves() and bot.last.depth >= 1
            else:
                moves = state.legal_moves()
                move = moves[int(rng.integers(len(moves)))]
            state = state.play(move)


def test_a_late_start_still_answers():
    bot = AlphaBetaBot("alphabeta:ms=1,first_ms=1")
    state = UltimateTicTacToe()
    move = bot.choose(state, clock_start=time.perf_counter() - 1.0)  # the budget is spent
    assert move in state.legal_moves() and bot.last.depth == 1


def test_node_budget_is_reproducible():
    state = _random_positions(1, seed=8)[0]
    bots = [AlphaBetaBot("alphabeta:nodes=5000") for _ in range(2)]
    assert bots[0].choose(state) == bots[1].choose(state)
    assert bots[0].last.nodes == bots[1].last.nodes and bots[0].last.nodes <= 5000 + 1


def test_compiled_clock_is_perf_counter_ns():
    before = time.perf_counter_ns()
    now = fast_ab.clock_ns()
    assert before <= now <= time.perf_counter_ns()


# ------------------------------------------------------------------ SPEC


@pytest.mark.parametrize("text", ["alphabeta", "alphabeta:ms=100,first_ms=100",
                                  "alphabeta:nodes=200000,depth=5",
                                  "alphabeta:ms=50,order=off,margin_ms=2",
                                  "alphabeta:ms=0.5,first_ms=86400000",
                                  "alphabeta:nodes=10,eval=40/90/7/-2/5"])
def test_spec_round_trips_and_pickles(text):
    spec = parse_alphabeta_spec(text)
    assert parse_alphabeta_spec(str(spec)) == spec
    assert pickle.loads(pickle.dumps(spec)) == spec
    assert isinstance(spec(seed=np.random.default_rng(1)), AlphaBetaBot)


def test_spec_defaults():
    spec = parse_alphabeta_spec("alphabeta")
    assert (spec.ms, spec.first_ms, spec.depth, spec.order, spec.nodes) == (100, 1000, 81, True,
                                                                          None)
    assert str(spec) == "alphabeta:ms=100,first_ms=1000,depth=81"


@pytest.mark.parametrize("text, words", [
    ("alphabeta:ms=0", ["ms (milliseconds)", "> 0", "86,400,000"]),
    ("alphabeta:ms=-3", ["ms (milliseconds)", "> 0"]),
    ("alphabeta:ms=1e9", ["ms (milliseconds)", "a day"]),
    ("alphabeta:ms=abc", ["ms must be a number"]),
    ("alphabeta:first_ms=0", ["first_ms (milliseconds)", "> 0"]),
    ("alphabeta:margin_ms=-1", ["margin_ms", ">= 0", "below ms and first_ms"]),
    ("alphabeta:ms=10,margin_ms=10", ["margin_ms", "below ms and first_ms (here 10)"]),
    ("alphabeta:nodes=0", ["nodes (node budget per move)", "from 1 to 10,000,000,000"]),
    ("alphabeta:nodes=1.5", ["nodes must be a whole number"]),
    ("alphabeta:nodes=100,ms=10", ["nodes or in milliseconds", "not both"]),
    ("alphabeta:depth=0", ["depth", "from 1 to 81"]),
    ("alphabeta:depth=82", ["depth", "from 1 to 81"]),
    ("alphabeta:order=maybe", ["order must be on or off"]),
    ("alphabeta:eval=1/2/3", ["weights must be five whole numbers"]),
    ("alphabeta:eval=1/2/3/4/x", ["eval must be five whole numbers joined by '/'"]),
    ("alphabeta:eval=1/2/3/4/5000", ["weight of the free choice", "from -1000 to 1,000"]),
    ("alphabeta:speed=3", ["unknown option", "Allowed:"]),
    ("alphabeta:ms=1,ms=2", ["appears twice"]),
    ("uct:ms=10", ["unknown bot 'uct'", "Allowed:"]),
    ("", ["non-empty string"]),
])
def test_spec_errors_name_the_key_and_its_range(text, words):
    with pytest.raises(ValueError) as error:
        parse_alphabeta_spec(text)
    for word in words:
        assert word in str(error.value), (word, str(error.value))


def test_spec_fields_are_checked_when_built_directly():
    with pytest.raises(ValueError, match="order must be True or False"):
        AlphaBetaSpec(order="yes")
    with pytest.raises(ValueError, match="depth"):
        AlphaBetaSpec(depth=2.0)


def test_bot_input_checks():
    bot = AlphaBetaBot("alphabeta:nodes=100")
    with pytest.raises(ValueError, match="UltimateTicTacToe"):
        bot.choose(TicTacToe())
    rng, finished = np.random.default_rng(9), UltimateTicTacToe()
    while not finished.is_terminal():
        moves = finished.legal_moves()
        finished = finished.play(moves[int(rng.integers(len(moves)))])
    with pytest.raises(ValueError, match="finished game"):
        bot.choose(finished)
    with pytest.raises(ValueError, match="clock_start"):
        bot.choose(UltimateTicTacToe(), clock_start="now")


# ------------------------------------------------------------------ readable search checks


@pytest.mark.parametrize("kwargs, words", [
    ({"depth": 0}, "depth (plies of the deepest iteration) must be a whole number from 1 to 81"),
    ({"depth": 82}, "from 1 to 81"),
    ({"max_nodes": 0}, "max_nodes (node budget) must be a whole number >= 1"),
    ({"seconds": 0}, "seconds (time budget) must be a number in"),
    ({"ordering": "yes"}, "ordering must be True or False"),
])
def test_alphabeta_input_checks(kwargs, words):
    with pytest.raises(ValueError) as error:
        alphabeta(UltimateTicTacToe(), evaluate, **kwargs)
    assert words in str(error.value)


def test_alphabeta_refuses_what_it_cannot_search():
    with pytest.raises(TypeError, match="evaluate must be callable"):
        alphabeta(UltimateTicTacToe(), 3)
    with pytest.raises(ValueError, match="game position"):
        alphabeta("board", evaluate)
    with pytest.raises(ValueError, match="must be an UltimateTicTacToe"):
        evaluate(TicTacToe())
    with pytest.raises(ValueError, match="evaluate must return a whole number"):
        alphabeta(UltimateTicTacToe(), lambda state: 0.5, 2)
    with pytest.raises(ValueError, match="weights must be five whole numbers"):
        evaluate(UltimateTicTacToe(), None)


def test_proven_threshold():
    assert is_proven(PROVEN) and is_proven(-PROVEN) and not is_proven(PROVEN - 1)
    warm_up()  # idempotent
