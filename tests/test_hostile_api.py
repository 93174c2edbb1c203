"""Hostile input, property-based: every public name answers a bad argument with a sentence.

For each function and class that ``mctslib`` exports at its root (``mctslib.__all__``), and
for the public methods a reader calls on them, hypothesis builds calls from one valid
example by replacing some arguments with hostile values: None, booleans, numeric strings,
NaN and the infinities, negative, zero and huge numbers, empty and wrongly shaped
sequences, a state of another game, a finished game, arbitrary objects. Each call must
either return a valid result (no NaN in it) or raise ``ValueError`` or ``TypeError`` with
a message; any other exception, a hang (more than a few seconds) or a NaN fails.

Profiles: ``ci`` (the default, about a minute on 2 cores) and ``long`` for a local hunt::

    HYPOTHESIS_PROFILE=long python -m pytest tests/test_hostile_api.py
"""

from __future__ import annotations

import dataclasses
import math
import os
import signal
from collections.abc import Callable
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mctslib
from mctslib import (
    UCB1,
    BanditArms,
    EpsilonGreedy,
    Goofspiel,
    Greedy,
    MatrixGame,
    RandomPlayer,
    RegretMatchingPlayer,
    SubtractionGame,
    SumToFifteen,
    TicTacToe,
    UCB1Player,
    UCTSearch,
    UltimateTicTacToe,
    XorShift64,
    weighted_rock_paper_scissors,
)

settings.register_profile("ci", max_examples=25, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

#: Seconds of CPU time a single call may take before it counts as a hang.
HANG_SECONDS = 20
#: How many times HANG_SECONDS a call may take on the clock (a wait with no work).
WAIT_FACTOR = 6

#: Values no public parameter should take silently.
HOSTILE = [
    None, True, False, "abc", "0.5", "3", b"x", "", math.nan, math.inf, -math.inf, -1, -7.5,
    0, 0.5, 2**63, 2**64 + 1, 10**400, 1e308, -1e308, 1e-320, [], (), [[]], {}, [None],
    [math.nan], [1, "a"], object(), TicTacToe, (1, 2, 3), [1.5, -0.5], np.float64("nan"),
    np.int64(-3), np.array([]), np.array([[1.0, 2.0]]),
]


def _finished_tictactoe():
    return TicTacToe.from_string("XXX/OO./...")


def _hostile_states():
    # Lazily built: states of other games, finished games, and things that are not states.
    return [Goofspiel(2), SubtractionGame(0), _finished_tictactoe(), UltimateTicTacToe(),
            SumToFifteen(), TicTacToe(), "X../.../...", 5]


@dataclasses.dataclass
class Call:
    """A valid call, and the names of the arguments hypothesis may corrupt."""

    target: Callable
    args: tuple = ()
    kwargs: dict = dataclasses.field(default_factory=dict)


def _small_game():
    return MatrixGame([[0.0, -2.0, 1.0], [2.0, 0.0, -3.0], [-1.0, 3.0, 0.0]])


def _uct_root():
    search = UCTSearch(1.0, 30, seed=1)
    search.search(TicTacToe())
    return search.root


#: One valid call per public name (constructors and functions of ``mctslib.__all__``).
CALLS = {
    "UCB1": lambda: Call(UCB1, (1.4,), {"reward_scale": (0.0, 1.0)}),
    "BanditArms": lambda: Call(BanditArms, ([0.3, 0.6],), {"draw_probs": [0.1, 0.2]}),
    "EpsilonGreedy": lambda: Call(EpsilonGreedy, (0.1,)),
    "Goofspiel": lambda: Call(Goofspiel, (3,), {"scoring": "points"}),
    "Greedy": lambda: Call(Greedy),
    "OptimisticGreedy": lambda: Call(mctslib.OptimisticGreedy, (0.8,), {"weight": 2.0}),
    "ThompsonSampling": lambda: Call(mctslib.ThompsonSampling),
    "UCB1Tuned": lambda: Call(mctslib.UCB1Tuned),
    "MatrixGame": lambda: Call(MatrixGame, ([[1.0, -1.0], [-1.0, 1.0]],),
                               {"row_moves": ["a", "b"], "column_moves": ["c", "d"]}),
    "RandomPlayer": lambda: Call(RandomPlayer, (3,)),
    "RegretMatchingPlayer": lambda: Call(RegretMatchingPlayer, (3,), {"exploration": 0.1}),
    "SubtractionGame": lambda: Call(SubtractionGame, (10,), {"mover": 0, "max_take": 3}),
    "SumToFifteen": lambda: Call(SumToFifteen, (0b10, 0b100)),
    "TicTacToe": lambda: Call(TicTacToe, (0b1, 0b10)),
    "UCB1Player": lambda: Call(UCB1Player, (3,), {"c": 1.4}),
    "UCTSearch": lambda: Call(UCTSearch, (1.0, 50), {"seed": 2}),
    "UltimateTicTacToe": lambda: Call(UltimateTicTacToe, ()),
    "XorShift64": lambda: Call(XorShift64, (7,)),
    "exploitability": lambda: Call(mctslib.exploitability,
                                   (_small_game(), [0.5, 0.25, 0.25], [1 / 3, 1 / 3, 1 / 3])),
    "find_traps": lambda: Call(mctslib.find_traps, (TicTacToe.from_string("XO./X../O.."),)),
    "flat_monte_carlo": lambda: Call(mctslib.flat_monte_carlo, (TicTacToe(), 5, 1)),
    "format_tree": lambda: Call(mctslib.format_tree, (_uct_root(),), {"depth": 1, "top": 3}),
    "games_for_width": lambda: Call(mctslib.games_for_width, (0.1,), {"score": 0.5}),
    "make_rng": lambda: Call(mctslib.make_rng, (3,)),
    "minimax_value": lambda: Call(mctslib.minimax_value,
                                  (TicTacToe.from_string("XO./X../O.."), 0)),
    "move_values": lambda: Call(mctslib.move_values, (TicTacToe.from_string("XO./X../O.."),)),
    "play_game": lambda: Call(mctslib.play_game, ((RandomPlayer(1), RandomPlayer(2)),
                                                  TicTacToe())),
    "play_match": lambda: Call(mctslib.play_match,
                               (lambda seed: RandomPlayer(seed), lambda seed: RandomPlayer(seed),
                                TicTacToe(), 2), {"seed": 1}),
    "random_playout": lambda: Call(mctslib.random_playout, (TicTacToe(), mctslib.make_rng(1))),
    "random_playout_value": lambda: Call(mctslib.random_playout_value,
                                         (TicTacToe.from_string("XO./X../O.."), 0)),
    "reachable_states": lambda: Call(mctslib.reachable_states,
                                     (TicTacToe.from_string("XO./X../O.."),)),
    "robust_child": lambda: Call(mctslib.robust_child, (_uct_root(),)),
    "rock_paper_scissors": lambda: Call(mctslib.rock_paper_scissors),
    "run_experiment": lambda: Call(mctslib.run_experiment, (BanditArms([0.3, 0.6]), [UCB1()]),
                                   {"runs": 3, "pulls": 20, "seed": 1}),
    "run_harness": lambda: Call(mctslib.run_harness, (20, 1.0), {"engine": "python", "games": 2}),
    "run_one_node": lambda: Call(mctslib.run_one_node,
                                 (weighted_rock_paper_scissors(), "regret_matching", 200, 1),
                                 {"engine": "python", "checkpoints": [100, 200]}),
    "score_interval": lambda: Call(mctslib.score_interval, (5, 2, 3), {"confidence": 0.95}),
    "solve_zero_sum": lambda: Call(mctslib.solve_zero_sum, (_small_game(),)),
    "spawn_rngs": lambda: Call(mctslib.spawn_rngs, (1, 3)),
    "ucb1_bonus": lambda: Call(mctslib.ucb1_bonus, (10, 3), {"c": 1.4}),
    "ucb1_score": lambda: Call(mctslib.ucb1_score, (2.0, 3, 10), {"c": 1.4}),
    "ucb1_step": lambda: Call(mctslib.ucb1_step, ([("A", 4, 6), ("B", 1, 3)],), {"c": 1.4}),
    "weighted_rock_paper_scissors": lambda: Call(mctslib.weighted_rock_paper_scissors),
    "winning_moves": lambda: Call(mctslib.winning_moves, (TicTacToe.from_string("XX./OO./..."),)),
}

#: Public names that take no argument a caller can get wrong, with the reason.
EXEMPT = {
    "GameState": "the abstract base of every game; it has no constructor arguments",
    "BanditResult": "a record the bandit runner fills; readers never build one",
    "FlatMCResult": "a record flat_monte_carlo fills; readers never build one",
    "MatchResult": "a record play_match fills (and MatchResult.load reads); readers never build one",
}


def _player_after_choose(kind):
    player = kind(3)
    assert player.choose(0.5) == 1  # the valid update below is for this move
    return player


#: Public methods a reader calls, on a valid object: (object factory, method, valid args).
METHODS = {
    "TicTacToe.play": (TicTacToe, "play", (4,)),
    "TicTacToe.result": (_finished_tictactoe, "result", (0,)),
    "TicTacToe.from_string": (lambda: TicTacToe, "from_string", ("X../.O./...",)),
    "SubtractionGame.play": (lambda: SubtractionGame(5), "play", (1,)),
    "SumToFifteen.play": (SumToFifteen, "play", (5,)),
    "UltimateTicTacToe.play": (UltimateTicTacToe, "play", (40,)),
    "UltimateTicTacToe.from_moves": (lambda: UltimateTicTacToe, "from_moves", ([40, 39],)),
    "Goofspiel.play": (lambda: Goofspiel(3), "play", ((1, 2),)),
    "Goofspiel.legal_actions": (lambda: Goofspiel(3), "legal_actions", (0,)),
    "XorShift64.below": (lambda: XorShift64(3), "below", (5,)),
    "UCB1Player.choose": (lambda: UCB1Player(3), "choose", (0.5,)),
    "UCB1Player.update": (lambda: _player_after_choose(UCB1Player), "update", (1, 1.0)),
    "RegretMatchingPlayer.choose": (lambda: RegretMatchingPlayer(3), "choose", (0.5,)),
    "RegretMatchingPlayer.update": (lambda: _player_after_choose(RegretMatchingPlayer),
                                    "update", (1, 1.0)),
    "UCTSearch.search": (lambda: UCTSearch(1.0, 20, seed=1), "search", (TicTacToe(),)),
    "UCTSearch.choose": (lambda: UCTSearch(1.0, 20, seed=1), "choose", (TicTacToe(),)),
    "RandomPlayer.choose": (lambda: RandomPlayer(1), "choose", (TicTacToe(),)),
    "MatrixGame.expected_payoff": (_small_game, "expected_payoff",
                                   ([0.5, 0.25, 0.25], [0.2, 0.3, 0.5])),
}


def test_every_public_name_is_fuzzed_or_exempt_with_a_reason():
    callables = {name for name in mctslib.__all__ if callable(getattr(mctslib, name))}
    assert callables == set(CALLS) | set(EXEMPT)


@contextmanager
def _time_limit(seconds: int, what: str):
    """TimeoutError after ``seconds`` of this process's CPU time, or WAIT_FACTOR times as long.

    CPU time, because the machine is shared: a refusal that takes 3 s of work (a game too
    large for exact answers) can take 20 s on the clock under others' load, and is no hang.
    The clock still catches a call that waits forever without working.
    """
    def hang(signum, frame):
        spent = (f"{seconds} s of CPU time" if signum == signal.SIGPROF
                 else f"{seconds * WAIT_FACTOR} s on the clock")
        raise TimeoutError(f"{what} ran for more than {spent}: a hang on hostile input")

    previous = {kind: signal.signal(kind, hang) for kind in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.alarm(seconds * WAIT_FACTOR)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.alarm(0)
        for kind, handler in previous.items():
            signal.signal(kind, handler)


def _has_nan(value, depth: int = 0) -> bool:
    if depth > 3:
        return False
    if isinstance(value, float):
        return math.isnan(value)
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return bool(np.isnan(value).any())
    if isinstance(value, (list, tuple)):
        return any(_has_nan(item, depth + 1) for item in value[:50])
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(_has_nan(getattr(value, f.name), depth + 1) for f in dataclasses.fields(value))
    return False


def _check_outcome(call: Callable[[], object], what: str) -> None:
    try:
        with _time_limit(HANG_SECONDS, what):
            result = call()
    except (ValueError, TypeError) as error:
        assert str(error).strip(), f"{what} raised {type(error).__name__} without a message"
        return
    assert not _has_nan(result), f"{what} returned NaN: {result!r}"


def _corrupt(draw, call: Call):
    """Replace a few arguments of a valid call by hostile values (at least one)."""
    args, kwargs = list(call.args), dict(call.kwargs)
    slots = [("arg", i) for i in range(len(args))] + [("kw", key) for key in kwargs]
    if not slots:
        extra = draw(st.sampled_from(HOSTILE))
        return [extra], {}  # a function of no arguments called with one
    chosen = draw(st.lists(st.sampled_from(slots), min_size=1, max_size=min(3, len(slots)),
                           unique=True))
    pool = st.one_of(st.sampled_from(HOSTILE), st.sampled_from(_hostile_states()),
                     st.integers(min_value=-10, max_value=10),
                     st.floats(allow_nan=True, allow_infinity=True))
    for kind, key in chosen:
        value = draw(pool)
        if kind == "arg":
            args[key] = value
        else:
            kwargs[key] = value
    return args, kwargs


@pytest.mark.parametrize("name", sorted(CALLS))
def test_valid_call_succeeds(name):
    call = CALLS[name]()
    _check_outcome(lambda: call.target(*call.args, **call.kwargs), f"{name} (valid call)")


@pytest.mark.parametrize("name", sorted(CALLS))
@settings(deadline=None)
@given(data=st.data())
def test_hostile_arguments_get_a_sentence(name, data):
    call = CALLS[name]()
    args, kwargs = _corrupt(data.draw, call)
    _check_outcome(lambda: call.target(*args, **kwargs), f"{name}(*{args!r}, **{kwargs!r})")


@pytest.mark.parametrize("name", sorted(METHODS))
def test_valid_method_call_succeeds(name):
    factory, method, valid = METHODS[name]
    getattr(factory(), method)(*valid)  # must not raise: the fuzz below starts from it


@pytest.mark.parametrize("name", sorted(METHODS))
@settings(deadline=None)
@given(data=st.data())
def test_hostile_method_arguments_get_a_sentence(name, data):
    factory, method, valid = METHODS[name]
    args, kwargs = _corrupt(data.draw, Call(None, valid))
    bound = getattr(factory(), method)
    _check_outcome(lambda: bound(*args, **kwargs), f"{name}(*{args!r})")
