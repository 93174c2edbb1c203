"""Hostile calls to the bots, the arena, the harness and the CLI's helpers: a sentence each.

The public functions and classes of mctslib.bots (the UTTT bot and its SPEC, OpenSpiel's
MCTS as a player, the local CodinGame referee), mctslib.play.arena, the tic-tac-toe
harness and its numba engine, and the command line's argument types, called with wrong
types, NaN and infinities, huge and negative numbers, empty input, illegal moves and
unparsable SPECs. Each must raise ValueError with a sentence naming what was wrong (or
RuntimeError for a referee whose player process misbehaves), never an AttributeError or
TypeError from deep inside, a hang or a silent wrong result.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import re
import sys
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mctslib.bots.uttt as uttt_bots
from mctslib.bots.codingame_referee import LocalReferee
from mctslib.bots.openspiel import (
    OpenSpielMCTS,
    OpenSpielMCTSPlayer,
    calibrate_against,
    calibrate_simulations,
    calibration_positions,
    move_history,
    seconds_per_move,
    spiel_actions,
    spiel_state,
)
from mctslib.bots.uttt import (
    BYTES_PER_NODE,
    MAX_ITERATIONS,
    MAX_MS,
    BotSpec,
    UTTTBot,
    check_pool_memory,
    distinct_openings,
    opponent_reply,
    parse_spec,
    random_openings,
)
from mctslib.cli.argtypes import finite_number, whole_number, writable_file
from mctslib.cli.play import PlaySession, read_move, render_board
from mctslib.experiments.uct.harness import run_harness
from mctslib.fast.tictactoe_uct import GAME_TREE_NODES, FastTicTacToeUCT
from mctslib.games import TicTacToe
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.play.arena import MatchResult, RandomPlayer, play_game, play_match

NOT_STATES = [None, "4 4", 40, 4.0, [], {}, object(), UltimateTicTacToe, np.zeros(3)]
CENTRE = 40


# ------------------------------------------------------------------------ SPEC


@pytest.mark.parametrize("text", ["uct:ms=0.1234567", "uct:ms=1e-300,first_ms=123456.78901234",
                                  "uct:c=0.30000000000000004",
                                  "uct:ms=86400000", "uct:ms=100", "random",
                                  "uct:iters=100000000,capacity=2000000000,scale=pm1"])
def test_a_spec_reads_back_exactly(text):
    spec = parse_spec(text)
    assert parse_spec(str(spec)) == spec
    assert str(parse_spec(str(spec))) == str(spec)


def test_spec_text_keeps_whole_numbers_short():
    # The chapters' stored outputs show ms=100,first_ms=1000: the exact form keeps them.
    assert "ms=100,first_ms=1000," in str(parse_spec("uct"))
    assert "ms=0.1234567,first_ms=1.234567" in str(parse_spec("uct:ms=0.1234567"))


@settings(max_examples=200, deadline=None)
@given(c=st.floats(0, 1e300), ms=st.floats(1e-300, MAX_MS), first=st.floats(1e-300, MAX_MS),
       iterations=st.integers(1, MAX_ITERATIONS), capacity=st.integers(82, 2_000_000_000),
       flags=st.lists(st.booleans(), min_size=4, max_size=4), timed=st.booleans(),
       scale=st.sampled_from(["01", "pm1"]))
def test_every_spec_reads_back_exactly(c, ms, first, iterations, capacity, flags, timed, scale):
    budget = {"ms": ms, "first_ms": first} if timed else {"iterations": iterations}
    spec = BotSpec("uct", c, scale, wins=flags[0], solver=flags[1], reuse=flags[2],
                   centre=flags[3], capacity=capacity, **budget)
    assert parse_spec(str(spec)) == spec


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80) | st.from_regex(r"(uct|random)?:?([a-z_]{0,9}=[-+.0-9a-z]{0,12},?){0,4}",
                                           fullmatch=True))
def test_any_text_is_a_spec_or_a_sentence(text):
    try:
        spec = parse_spec(text)
    except ValueError as error:
        assert str(error).endswith((".", ")")) and "\n" not in str(error)
    else:
        assert parse_spec(str(spec)) == spec


@pytest.mark.parametrize("text, words", [
    ("uct:ms=1e308", r"at most 86,400,000 \(a day\), got 1e\+308"),
    ("uct:first_ms=86400001", "at most 86,400,000"),
    ("uct:iters=100000001", "from 1 to 100,000,000, got 100000001"),
    ("uct:capacity=81", "from 82 to 2,000,000,000, got 81"),
    ("uct:capacity=2000000001", "got 2000000001"),
    ("x" * 1001, "at most 1,000 characters"),
])
def test_spec_bounds(text, words):
    with pytest.raises(ValueError, match=words):
        parse_spec(text)


def test_a_long_time_budget_caps_the_first_move_at_a_day():
    spec = parse_spec("uct:ms=86400000")
    assert spec.first_ms == MAX_MS and parse_spec(str(spec)) == spec


@pytest.mark.parametrize("fields", [
    {"kind": "minimax"}, {"c": math.nan}, {"c": "1"}, {"c": True}, {"scale": 1},
    {"iterations": 0}, {"iterations": 2.0}, {"iterations": 10**20}, {"ms": -1.0},
    {"ms": math.inf}, {"first_ms": "fast"}, {"wins": "on"}, {"solver": 1},
    {"capacity": 10**12}, {"capacity": 81}, {"iterations": 5, "ms": 5.0},
])
def test_bad_botspec_fields(fields):
    with pytest.raises(ValueError):
        BotSpec(**fields)


# ------------------------------------------------------------------------- the bot


def test_memory_is_checked_before_the_pool_is_allocated(monkeypatch):
    monkeypatch.setattr(uttt_bots, "available_memory", lambda: 10 * 2**20)
    with pytest.raises(ValueError, match=r"capacity 2,000,000 needs 55.3 MiB for a node pool "
                                         r"\(29 bytes a node\), but only 10.0 MiB of memory is "
                                         r"available: capacity must be at most 361,577 here\."):
        UTTTBot("uct:iters=10")
    assert UTTTBot("uct:iters=10,capacity=300000", seed=1).pool.capacity == 300_000
    assert check_pool_memory(100_000) == 100_000 * BYTES_PER_NODE
    monkeypatch.setattr(uttt_bots, "available_memory", lambda: None)  # unknown: no check
    assert check_pool_memory(2_000_000_000) == 2_000_000_000 * BYTES_PER_NODE


def test_available_memory_is_read():
    available = uttt_bots.available_memory()
    assert available is None or available > 0


@pytest.mark.parametrize("state", NOT_STATES + [TicTacToe()])
def test_the_bot_wants_a_uttt_position(state):
    bot = UTTTBot("uct:iters=10", seed=1)
    with pytest.raises(ValueError, match="UltimateTicTacToe"):
        bot.choose(state)


@pytest.mark.parametrize("clock_start", ["now", math.nan, math.inf, True, [1.0], -1.0, -1e300,
                                         1e20, "one hour ahead"])
def test_a_bad_clock_start(clock_start):
    if clock_start == "one hour ahead":  # a start in the future would never let the search end
        clock_start = time.perf_counter() + 3600.0
    with pytest.raises(ValueError, match=r"clock_start \(a time.perf_counter\(\) reading, from 0 "
                                         r"up to now\) must be a number in \[0, "):
        UTTTBot("uct:ms=5", seed=1).choose(UltimateTicTacToe(), clock_start=clock_start)


def test_a_clock_start_from_the_past_or_now_is_a_move_at_once():
    bot = UTTTBot("uct:ms=5", seed=1)
    for clock_start in (0.0, time.perf_counter()):
        before = time.perf_counter()
        assert bot.choose(UltimateTicTacToe(), clock_start=clock_start) in range(81)
        assert time.perf_counter() - before < 5.0


def test_a_root_never_gets_more_visits_than_its_counter_holds():
    bot = UTTTBot("uct:iters=100,reuse=on", seed=1)
    state = UltimateTicTacToe().play(CENTRE)
    bot.choose(state)
    bot.pool.visits[0] = 2**31 - 1 - 5  # as if grown for two billion iterations
    bot.choose(state)  # asked again: the same tree keeps growing
    assert bot.last.iterations == 5 and int(bot.pool.visits[0]) == 2**31 - 1
    assert bot.choose(state) in state.legal_moves()  # no room left: it still answers
    assert bot.last.iterations == 0


@pytest.mark.parametrize("before, after", [("x", UltimateTicTacToe()), (UltimateTicTacToe(), None),
                                           (TicTacToe(), TicTacToe())])
def test_opponent_reply_wants_two_positions(before, after):
    with pytest.raises(ValueError, match="UltimateTicTacToe position"):
        opponent_reply(before, after)


def test_the_distinct_openings_are_counted_exactly():
    level = {UltimateTicTacToe()}
    for plies in (1, 2, 3):
        level = {child for state in level for move in state.legal_moves()
                 if not (child := state.play(move)).is_terminal()}
        assert distinct_openings(plies) == len(level)
    assert distinct_openings(5) is None


@pytest.mark.parametrize("count, plies, words", [
    (82, 1, "at most 81, the number of distinct openings of 1 ply"),
    (721, 2, "at most 720"),
    (6337, 3, "at most 6,336"),
    (10_001, 5, "from 1 to 10,000"),
    (10**20, 2, "from 1 to 10,000"),
    (3, 31, "from 1 to 30"),
    (3, 0, "from 1 to 30"),
    (2.0, 2, "whole number"),
])
def test_openings_are_refused_at_once(count, plies, words):
    with pytest.raises(ValueError, match=words):
        random_openings(count, plies, seed=0)


def test_the_deepest_openings_are_found():
    assert len(random_openings(3, 30, seed=1)) == 3


# ------------------------------------------------------------------------- the arena


@pytest.mark.parametrize("state", NOT_STATES)
def test_random_player_wants_a_position(state):
    with pytest.raises(ValueError, match="must be a game position"):
        RandomPlayer(1).choose(state)


def test_random_player_in_a_finished_game():
    finished = TicTacToe().play(0).play(3).play(1).play(4).play(2)  # X's top row
    assert finished.is_terminal()
    with pytest.raises(ValueError, match="finished game"):
        RandomPlayer(1).choose(finished)


@pytest.mark.parametrize("players, state, clock, words", [
    ((RandomPlayer(1), RandomPlayer(2)), None, None, "state must be a game position"),
    ((RandomPlayer(1), RandomPlayer(2)), "x", None, "state must be a game position"),
    ((RandomPlayer(1),), TicTacToe(), None, "players must be two players"),
    (RandomPlayer(1), TicTacToe(), None, "players must be two players"),
    ((RandomPlayer(1), "bot"), TicTacToe(), None, "players must be two players"),
    ((RandomPlayer(1), RandomPlayer(2)), TicTacToe(), [0.0], "clock must be None or a list"),
    ((RandomPlayer(1), RandomPlayer(2)), TicTacToe(), "clock", "clock must be None or a list"),
])
def test_play_game_checks_its_arguments(players, state, clock, words):
    with pytest.raises(ValueError, match=words):
        play_game(players, state, clock)


class _Illegal:
    def choose(self, state):
        return 99


@pytest.mark.parametrize("make_a, start, games, options, words", [
    (RandomPlayer, "x", 2, {}, "start must be a game position or a non-empty list"),
    (RandomPlayer, 42, 2, {}, "start must be a game position"),
    (RandomPlayer, [], 2, {}, "non-empty list of openings"),
    (RandomPlayer, [TicTacToe(), None], 2, {}, r"start\[1\] must be a game position"),
    (RandomPlayer, TicTacToe().play(0).play(3).play(1).play(4).play(2), 2, {}, "finished game"),
    ("random", TicTacToe(), 2, {}, "make_a must be a factory"),
    (RandomPlayer, TicTacToe(), 10**20, {}, "games must be a whole number from 1 to 10,000,000"),
    (RandomPlayer, TicTacToe(), 0, {}, "games"),
    (RandomPlayer, TicTacToe(), 2.0, {}, "games"),
    (RandomPlayer, TicTacToe(), 2, {"jobs": 10**6}, "jobs"),
    (RandomPlayer, TicTacToe(), 2, {"executor": "pool"}, "executor must be"),
    (RandomPlayer, TicTacToe(), 2, {"seed": -1}, "seed"),
    (RandomPlayer, TicTacToe(), 2, {"seed": "7"}, "seed"),
    (lambda seed: "not a player", TicTacToe(), 2, {}, "players must be two players"),
    (lambda seed: _Illegal(), TicTacToe(), 2, {}, "illegal"),
])
def test_play_match_checks_its_arguments(make_a, start, games, options, words):
    with pytest.raises(ValueError, match=words):
        play_match(make_a, RandomPlayer, start, games, **options)


def test_a_match_file_path_gets_a_sentence_naming_it(tmp_path):
    result = play_match(RandomPlayer, RandomPlayer, TicTacToe(), 2, seed=1)
    missing = str(tmp_path / "missing" / "match.json")
    for call in (result.save, MatchResult.load):
        for path, words in [("", "path must name a file, got an empty path."),
                            (tmp_path, f"path must name a file, not a folder, got {str(tmp_path)!r}."),
                            (f"{tmp_path}{os.sep}", "not a folder"),
                            ("a\0b", "path must be a file name without a NUL character"),
                            ("x" * 5000, "path must be a file name this system accepts"),
                            (b"match.json", "path must be a file name (a str or a pathlib.Path), got b"),
                            (None, "got None")]:
            with pytest.raises(ValueError, match=re.escape(words)):
                call(path)
    with pytest.raises(ValueError, match=re.escape(
            f"path must be in an existing folder: {str(tmp_path / 'missing')!r} is not one "
            f"(create it first), got {missing!r}.")):
        result.save(missing)
    with pytest.raises(ValueError, match=re.escape(
            f"path must name a saved match: there is no file {missing!r}.")):
        MatchResult.load(missing)
    assert list(tmp_path.iterdir()) == []  # no temporary file left behind either


def test_an_unreadable_match_file_is_named(tmp_path, monkeypatch):
    path = tmp_path / "match.json"
    play_match(RandomPlayer, RandomPlayer, TicTacToe(), 2, seed=1).save(path)

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(type(path), "read_text", refuse)
    with pytest.raises(PermissionError, match=re.escape(f"Permission denied: {str(path)!r}")):
        MatchResult.load(path)


def test_play_match_accepts_any_iterable_of_openings():
    openings = (state for state in [TicTacToe(), TicTacToe().play(4)])
    assert play_match(RandomPlayer, RandomPlayer, openings, 4, seed=1).games == 4


def test_a_result_is_saved_atomically_and_loaded_with_a_sentence(tmp_path, monkeypatch):
    result = play_match(RandomPlayer, RandomPlayer, TicTacToe(), 2, seed=1)
    path = tmp_path / "match.json"
    result.save(path, note="first")
    assert MatchResult.load(path)[1] == {"note": "first"}

    def fail(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="No space left"):
        result.save(path, note="second")
    monkeypatch.undo()
    assert MatchResult.load(path)[1] == {"note": "first"}  # the earlier file is whole
    assert [p.name for p in tmp_path.iterdir()] == ["match.json"]
    with pytest.raises(OSError, match=re.escape(f"No space left on device: {str(path)!r}")):
        monkeypatch.setattr(os, "replace", fail)  # the error names the user's file, not
        result.save(path)                          # the temporary one that was written
    monkeypatch.undo()
    for text in ("not json", "[]", json.dumps({"records": [{"bad": 1}]})):
        path.write_text(text)
        with pytest.raises(ValueError, match="is not a match saved by MatchResult.save"):
            MatchResult.load(path)


# ----------------------------------------------------------------------- the harness


@pytest.mark.parametrize("options, words", [
    ({"iterations": 10**20}, "iterations must be a whole number from 1 to 100,000,000"),
    ({"iterations": 0}, "iterations"),
    ({"iterations": 2.5}, "iterations"),
    ({"games": 10**20}, "games must be a whole number from 0 to 1,000,000"),
    ({"games": -1}, "games"),
    ({"exploration": math.nan}, "exploration"),
    ({"exploration": math.inf}, "exploration"),
    ({"exploration": "1"}, "exploration"),
    ({"engine": "gpu"}, "engine must be one of"),
    ({"engine": ["numba"]}, "engine must be one of"),
])
def test_harness_bounds(options, words):
    with pytest.raises(ValueError, match=words):
        run_harness(**options)


def test_the_numba_engine_never_allocates_more_than_the_game_tree():
    @functools.lru_cache(None)
    def nodes(state):
        return 1 + (0 if state.is_terminal() else sum(nodes(state.play(m))
                                                         for m in state.legal_moves()))

    assert nodes(TicTacToe()) == GAME_TREE_NODES
    big = FastTicTacToeUCT(MAX_ITERATIONS, 1.0, 1)
    assert big.move.shape == (GAME_TREE_NODES,)
    small = FastTicTacToeUCT(10, 1.0, 1)
    assert small.move.shape == (91,)  # as before: nine nodes an iteration, plus the root
    for bad in ({"iterations": 10**9}, {"exploration": math.nan}, {"iterations": 1.5}):
        arguments = {"iterations": 10, "exploration": 1.0, "seed": 1} | bad
        with pytest.raises(ValueError):
            FastTicTacToeUCT(**arguments)
    with pytest.raises(ValueError, match="games"):
        small.play_games(10**20, True, np.array([1], dtype=np.uint64))


# ------------------------------------------------------------------------- OpenSpiel


@pytest.mark.parametrize("options, words", [
    ({"simulations": 10**12}, "simulations must be a whole number from 2 to 2,147,483,647"),
    ({"simulations": 1}, "simulations"),
    ({"simulations": 2.0}, "simulations"),
    ({"simulations": None, "seconds": 1e9}, "seconds"),
    ({"simulations": None, "seconds": math.nan}, "seconds"),
    ({"rollouts": 10**12}, "rollouts must be a whole number from 1 to 1,000,000"),
    ({"max_memory_mb": 10**12}, "max_memory_mb"),
    ({"uct_c": math.inf}, "uct_c"),
    ({"seed": -3}, "seed"),
])
def test_openspiel_player_bounds(options, words):
    with pytest.raises(ValueError, match=words):
        OpenSpielMCTSPlayer(**options)
    if "seed" not in options:
        with pytest.raises(ValueError, match=words):
            OpenSpielMCTS(**options)


def test_openspiel_player_survives_a_clock_too_short_to_search():
    # OpenSpiel's own step() dies with a segmentation fault when its clock runs out before
    # the second simulation (the root has no children yet); the player searches again.
    player = OpenSpielMCTSPlayer(simulations=None, seconds=1e-9, seed=1)
    state = UltimateTicTacToe()
    for _ in range(6):
        state = state.play(player.choose(state))
    assert player.fallbacks == player.searches > 6  # free choices take two searches


def test_openspiel_factory_checks_solve():
    with pytest.raises(ValueError, match="solve"):
        OpenSpielMCTS(solve="yes")


@pytest.mark.parametrize("state, move, words", [
    (UltimateTicTacToe().play(CENTRE), 0, "illegal"),
    (UltimateTicTacToe().play(CENTRE), CENTRE, "taken"),
    (UltimateTicTacToe(), 81, "move"),
    (UltimateTicTacToe(), "4 4", "move"),
    ("x", 0, "UltimateTicTacToe position"),
    (TicTacToe(), 0, "UltimateTicTacToe position"),
])
def test_spiel_actions_refuse_illegal_moves(state, move, words):
    with pytest.raises(ValueError, match=words):
        spiel_actions(state, move)


@pytest.mark.parametrize("state", NOT_STATES)
def test_openspiel_player_and_history_want_a_position(state):
    with pytest.raises(ValueError, match="UltimateTicTacToe"):
        OpenSpielMCTSPlayer(10, seed=1).choose(state)
    with pytest.raises(ValueError, match="UltimateTicTacToe"):
        move_history(state)
    with pytest.raises(ValueError, match=r"^state must be an UltimateTicTacToe position, got "):
        spiel_state(state)


@pytest.mark.parametrize("call, words", [
    (lambda: seconds_per_move(None, [UltimateTicTacToe()]), "player must have a choose"),
    (lambda: seconds_per_move(RandomPlayer(1), UltimateTicTacToe()), "positions must be a list"),
    (lambda: seconds_per_move(RandomPlayer(1), [None]), r"positions\[0\] must be"),
    (lambda: seconds_per_move(RandomPlayer(1), []), "at least one position"),
    (lambda: calibration_positions(count=10**9), "count must be a whole number from 1"),
    (lambda: calibration_positions(max_ply=81), "max_ply"),
    (lambda: calibrate_simulations(1e9), "target_seconds"),
    (lambda: calibrate_simulations(0.01, probe=10**12), "probe"),
    (lambda: calibrate_simulations(0.01, rounds=10**6), "rounds"),
    (lambda: calibrate_against("ours"), "make_ours must be a factory"),
])
def test_calibration_bounds(call, words):
    with pytest.raises(ValueError, match=words):
        call()


# ------------------------------------------------------------------ the local referee


def test_referee_arguments():
    with pytest.raises(ValueError, match="spec must be a SPEC string"):
        LocalReferee(spec=5)
    with pytest.raises(ValueError, match="seed"):
        LocalReferee(seed=-1)
    with pytest.raises(ValueError, match="command must be a list of strings"):
        LocalReferee(command="python -m mctslib")


def test_referee_says_when_the_player_dies():
    dead = [sys.executable, "-c", "import sys; print('boom', file=sys.stderr); sys.exit(3)"]
    with pytest.raises(RuntimeError, match="the player did not start: 'boom'"):
        LocalReferee(command=dead)
    referee = LocalReferee(command=dead, wait_until_ready=False)
    with pytest.raises(RuntimeError, match=r"the player ended .* \(exit code 3\): boom"):
        referee.turn()
    talker = [sys.executable, "-c", "print('hello', flush=True); import sys; sys.stdin.read()"]
    referee = LocalReferee(command=talker, wait_until_ready=False)
    with pytest.raises(RuntimeError, match="the player answered 'hello\\\\n', not a move"):
        referee.turn()
    referee.close()


# ------------------------------------------------------------ the CLI's helpers


def test_play_helpers_want_positions_and_players():
    with pytest.raises(ValueError, match="UltimateTicTacToe"):
        render_board(TicTacToe())
    with pytest.raises(ValueError, match="line must be a string"):
        read_move(None, UltimateTicTacToe())
    with pytest.raises(ValueError, match="UltimateTicTacToe"):
        read_move("4 4", "board")
    with pytest.raises(ValueError, match="bot must be a player"):
        PlaySession(None, 0, "codingame", input, print)
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        PlaySession(RandomPlayer(1), 2, "codingame", input, print)
    with pytest.raises(ValueError, match="read_line must be a function"):
        PlaySession(RandomPlayer(1), 0, "codingame", "4 4", print)
    with pytest.raises(ValueError, match="scoring"):
        PlaySession(RandomPlayer(1), 0, "fide", input, print)


@pytest.mark.parametrize("parse, text, value", [
    (whole_number(1, 10), "10", 10),
    (whole_number(1, 10), " 3 ", 3),
    (whole_number(0), "0", 0),
    (finite_number(0.0), "1e308", 1e308),
    (finite_number(0.0, 1.0), "0.5", 0.5),
])
def test_argument_types_accept(parse, text, value):
    assert parse(text) == value


@pytest.mark.parametrize("parse, text, words", [
    (whole_number(1, 10), "11", "must be a whole number from 1 to 10, got 11."),
    (whole_number(1, 10), "x", "got x."),
    (whole_number(1, 10), "1e1", "got 1e1."),
    (whole_number(1, 10), "9" * 5000, "got 99999"),
    (whole_number(0), "-1", "must be a whole number >= 0, got -1."),
    (finite_number(0.0), "nan", "must be a finite number >= 0, got nan."),
    (finite_number(0.0), "-inf", "got -inf."),
    (finite_number(0.0, 1.0), "2", "from 0 to 1, got 2."),
    (finite_number(0.0), "", "got ''."),
])
def test_argument_types_refuse(parse, text, words):
    with pytest.raises(argparse.ArgumentTypeError) as error:
        parse(text)
    assert words in str(error.value) and "\n" not in str(error.value)


def test_writable_file(tmp_path):
    assert writable_file(str(tmp_path / "r.json")) == tmp_path / "r.json"
    for bad, words in [(str(tmp_path), "not a folder"), ("", "not a folder"),
                       (str(tmp_path / "no" / "r.json"), "must be in an existing folder"),
                       (str(tmp_path / "r.json") + os.sep, "not a folder")]:
        with pytest.raises(argparse.ArgumentTypeError, match=words):
            writable_file(bad)
    assert list(tmp_path.iterdir()) == []  # the trial file is gone
