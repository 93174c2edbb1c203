"""Hostile command lines and hostile standard input: one sentence, never a traceback or a hang.

Every subcommand of ``python -m mctslib`` (the top level, ``harness``, ``match``,
``codingame``, ``play``) gets a table of bad argument lists: missing, unknown and
repeated options, wrong types, negative, zero, huge, NaN and infinite numbers,
unparsable SPECs, bad paths, nonsense games. ``codingame`` and ``play`` also get
malformed standard input.

Two forms of error are expected, and each case says which:

* ``ARGPARSE``: a bad argument, refused while parsing. argparse's own form: its usage
  line (possibly wrapped over several indented lines), then exactly one line
  ``python -m mctslib COMMAND: error: ...``; exit code 2. (argparse reports an
  unrecognised argument from the top-level parser: ``python -m mctslib: error: ...``.)
* ``SENTENCE``: one line ``python -m mctslib COMMAND: error: SENTENCE.`` and nothing
  else on standard error; exit code 2 for arguments that do not go together (found
  before any work starts), 1 for a failure at run time (a CodinGame referee breaking
  the protocol).

Decided and checked here: the input closing *between* CodinGame turns (an empty
input included) ends the player cleanly with exit code 0; closing *in the middle*
of a turn is an error (exit 1). A count of 0 valid actions means "no list given"
(the bot plays from its own position). ``play`` is for a person at a terminal: a
malformed line gets a sentence on standard output and the prompt again, and the
input closing abandons the game with exit code 0, so its standard error stays empty.

Speed: the tables run in this process through :func:`mctslib.cli.main.main` (numba
loads once); a few true subprocesses, started together, prove that nothing escapes
as a traceback from the real ``python -m mctslib``.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import mctslib.bots.uttt as uttt_bots
import mctslib.cli.match as match_cli
from mctslib.bots.uttt import warm_up
from mctslib.cli.codingame import run_codingame
from mctslib.cli.main import build_parser, main
from mctslib.cli.play import run_play
from mctslib.games.uttt import parse_codingame_move

ROOT = Path(__file__).resolve().parents[1]
ARGPARSE, SENTENCE = "argparse", "sentence"
HUGE = "99999999999999999999"
LONG = "9" * 5000
ALL_ACTIONS = "".join(f"{row} {col}\n" for row in range(9) for col in range(9))


@pytest.fixture(autouse=True)
def quiet_progress(monkeypatch):
    monkeypatch.setenv("MCTSLIB_PROGRESS", "0")


@pytest.fixture(scope="module", autouse=True)
def loaded():
    # In-process runs must find numba started, so the CodinGame player's start-up shortcut
    # (hiding scipy.linalg from numba) stays out of this process.
    warm_up()


def run_main(argv, monkeypatch, capsys, stdin=""):
    """``main(argv)`` in this process: (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin) if isinstance(stdin, str) else stdin)
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_error_form(err: str, form: str, command: str | None) -> str:
    """Check stderr has exactly one error line in the expected form; return that line."""
    assert "Traceback" not in err
    lines = err.rstrip("\n").split("\n")
    prog = "python -m mctslib" + (f" {command}" if command else "")
    error_lines = [line for line in lines if ": error: " in line]
    assert len(error_lines) == 1, err
    line = error_lines[0]
    assert line == lines[-1] and line.startswith(f"{prog}: error: "), err
    if form == SENTENCE:
        assert len(lines) == 1 and line.endswith("."), err
    else:
        assert lines[0].startswith("usage: "), err
        assert all(usage.startswith(" ") for usage in lines[1:-1]), err
    return line


# ------------------------------------------------------------------- argument tables

MATCH = ["match", "uttt", "--a", "random", "--b", "random", "--games", "2", "--jobs", "1"]
CODINGAME = ["codingame", "uttt"]
PLAY = ["play", "uttt", "--bot", "random"]
HARNESS = ["harness", "tictactoe", "--iterations", "10", "--games", "1"]

BAD_SPECS = [
    ("uct:capacity=81,iters=10", "capacity (nodes in the pool) must be a whole number from 82"),
    (f"uct:iters={HUGE}", ("iters (iterations per move) must be a whole number from 1 to "
                          f"100,000,000, got {HUGE}.")),
    ("uct:capacity=1000000000000", ("capacity (nodes in the pool) must be a whole number from "
                                   "82 to 2,000,000,000")),
    ("uct:ms=1e308", "at most 86,400,000 (a day)"),
    ("uct:first_ms=inf", "first_ms (milliseconds) must be a finite number"),
    ("uct:ms=nan", "ms (milliseconds) must be a finite number"),
    ("uct:c=inf", "c (the exploration constant) must be a number"),
    ("uct:c=-1", "c (the exploration constant) must be a number"),
    ("uct:iters=0", "iters (iterations per move) must be"),
    ("uct:iters=2.5", "iters must be a whole number"),
    ("uct:iters=" + "9" * 500, "iters (iterations per move) must be a whole number from 1"),
    ("uct:iters=10,iters=10", "appears twice"),
    ("uct:iters=10,ms=5", "not both"),
    ("uct:turbo=on", "unknown option 'turbo=on'"),
    ("uct:wins=yes", "wins must be on or off"),
    ("uct:c=", "c must be a number"),
    ("UCT", "unknown bot 'UCT'"),
    ("random:c=1", "the random bot takes no options"),
    ("", "a bot SPEC must be a non-empty string"),
    ("x" * 3000, "a bot SPEC is at most 1,000 characters"),
    ("uct:\n", "unknown option"),
]

BAD_ARGUMENTS = [
    # the top level
    ([], ARGPARSE, None, "the following arguments are required: COMMAND"),
    (["bogus"], ARGPARSE, None, "invalid choice: 'bogus'"),
    (["--bogus"], ARGPARSE, None, "error: "),
    # harness
    (["harness"], ARGPARSE, "harness", "the following arguments are required: game"),
    (["harness", "chess"], ARGPARSE, "harness", "invalid choice: 'chess'"),
    ([*HARNESS, "--iterations"], ARGPARSE, "harness", "expected one argument"),
    ([*HARNESS, "--bogus", "1"], ARGPARSE, None, "unrecognized arguments: --bogus 1"),
    ([*HARNESS, "--iterations", "5"], ARGPARSE, "harness", "--iterations: given twice (10, then 5)"),
    (["harness", "tictactoe", "--iterations", HUGE], ARGPARSE, "harness",
     f"--iterations: must be a whole number from 1 to 100,000,000, got {HUGE}."),
    (["harness", "tictactoe", "--iterations", "1000000000"], ARGPARSE, "harness",
     "from 1 to 100,000,000, got 1000000000."),
    (["harness", "tictactoe", "--iterations", "0"], ARGPARSE, "harness", "got 0."),
    (["harness", "tictactoe", "--iterations", "-1"], ARGPARSE, "harness", "got -1."),
    (["harness", "tictactoe", "--iterations", "2.5"], ARGPARSE, "harness", "got 2.5."),
    (["harness", "tictactoe", "--iterations", "abc"], ARGPARSE, "harness", "got abc."),
    (["harness", "tictactoe", "--iterations", ""], ARGPARSE, "harness", "got ''."),
    (["harness", "tictactoe", "--iterations", LONG], ARGPARSE, "harness", "got 9999"),
    (["harness", "tictactoe", "--games", HUGE], ARGPARSE, "harness",
     f"--games: must be a whole number from 1 to 1,000,000, got {HUGE}."),
    (["harness", "tictactoe", "--games", "0"], ARGPARSE, "harness", "--games: must be"),
    (["harness", "tictactoe", "--games", "1e3"], ARGPARSE, "harness", "got 1e3."),
    (["harness", "tictactoe", "--exploration", "nan"], ARGPARSE, "harness",
     "--exploration: must be a finite number >= 0, got nan."),
    (["harness", "tictactoe", "--exploration", "inf"], ARGPARSE, "harness", "got inf."),
    (["harness", "tictactoe", "--exploration=-inf"], ARGPARSE, "harness", "got -inf."),
    (["harness", "tictactoe", "--exploration", "-1"], ARGPARSE, "harness", "got -1."),
    (["harness", "tictactoe", "--exploration", "1e999"], ARGPARSE, "harness", "got 1e999."),
    (["harness", "tictactoe", "--engine", "cuda"], ARGPARSE, "harness", "invalid choice: 'cuda'"),
    # match
    (["match"], ARGPARSE, "match", "the following arguments are required"),
    (["match", "chess", "--a", "random", "--b", "random"], ARGPARSE, "match", "invalid choice"),
    (["match", "uttt", "--b", "random"], ARGPARSE, "match",
     "the following arguments are required: --a"),
    (["match", "uttt", "--a", "random"], ARGPARSE, "match",
     "the following arguments are required: --b"),
    ([*MATCH, "--a", "random"], ARGPARSE, "match", "--a: given twice (random, then random)"),
    ([*MATCH, "--turbo"], ARGPARSE, None, "unrecognized arguments: --turbo"),
    ([*MATCH, "--games"], ARGPARSE, "match", "expected one argument"),
    ([*MATCH[:6], "--games", "0"], ARGPARSE, "match", "--games: must be a whole number from 1"),
    ([*MATCH[:6], "--games", HUGE], ARGPARSE, "match", f"to 1,000,000, got {HUGE}."),
    ([*MATCH[:6], "--games", "nan"], ARGPARSE, "match", "got nan."),
    ([*MATCH[:8], "--jobs", "0"], ARGPARSE, "match", "--jobs: must be a whole number from 1"),
    ([*MATCH[:8], "--jobs", "100000"], ARGPARSE, "match", "got 100000."),
    ([*MATCH[:8], "--jobs", "two"], ARGPARSE, "match", "got two."),
    ([*MATCH, "--seed", "-1"], ARGPARSE, "match", "--seed: must be a whole number from 0"),
    ([*MATCH, "--seed", str(2**64)], ARGPARSE, "match", "got 18446744073709551616."),
    ([*MATCH, "--scoring", "fide"], ARGPARSE, "match", "invalid choice: 'fide'"),
    ([*MATCH, "--openings", "-1"], ARGPARSE, "match", "--openings: must be"),
    ([*MATCH, "--openings", "100000", "--opening-plies", "1"], ARGPARSE, "match",
     "--openings: must be a whole number from 0 to 10,000, got 100000."),
    ([*MATCH, "--opening-plies", "0"], ARGPARSE, "match", "--opening-plies: must be"),
    ([*MATCH, "--opening-plies", "31"], ARGPARSE, "match", "from 1 to 30, got 31."),
    ([*MATCH, "--out", "/nonexistent/r.json"], ARGPARSE, "match",
     "--out: must be in an existing folder; /nonexistent is not one"),
    ([*MATCH, "--out", ""], ARGPARSE, "match", "--out: must name a file to write"),
    ([*MATCH, "--out", str(ROOT)], ARGPARSE, "match", "not a folder"),
    ([*MATCH, "--out", str(ROOT / "results") + os.sep], ARGPARSE, "match", "not a folder"),
    ([*MATCH, "--openings", "100", "--opening-plies", "1"], SENTENCE, "match",
     ("--openings must be at most 81 with --opening-plies 1: only 81 distinct openings of 1 "
     "ply exist, got 100.")),
    ([*MATCH, "--openings", "721"], SENTENCE, "match", "only 720 distinct openings of 2 plies"),
    # codingame
    (["codingame"], ARGPARSE, "codingame", "the following arguments are required: game"),
    (["codingame", "chess"], ARGPARSE, "codingame", "invalid choice: 'chess'"),
    ([*CODINGAME, "random", "random"], ARGPARSE, None, "unrecognized arguments: random"),
    ([*CODINGAME, "--quiet", "--quiet"], ARGPARSE, "codingame", "--quiet: given twice"),
    ([*CODINGAME, "--seed", "-5"], ARGPARSE, "codingame", "--seed: must be"),
    ([*CODINGAME, "--seed", "1", "--seed", "2"], ARGPARSE, "codingame", "given twice (1, then 2)"),
    ([*CODINGAME, "--scoring"], ARGPARSE, "codingame", "expected one argument"),
    ([*CODINGAME, "--scoring", "chess"], ARGPARSE, "codingame", "invalid choice"),
    *[([*CODINGAME, spec], ARGPARSE, "codingame", words) for spec, words in BAD_SPECS],
    # play
    (["play"], ARGPARSE, "play", "the following arguments are required: game"),
    (["play", "go"], ARGPARSE, "play", "invalid choice: 'go'"),
    ([*PLAY, "--side", "z"], ARGPARSE, "play", "invalid choice: 'z'"),
    ([*PLAY, "--side", "x", "--side", "o"], ARGPARSE, "play", "--side: given twice"),
    ([*PLAY, "--seed", "abc"], ARGPARSE, "play", "--seed: must be a whole number from 0"),
    ([*PLAY, "--seed", HUGE + HUGE], ARGPARSE, "play", "got 9999"),
    ([*PLAY, "--scoring", "fide"], ARGPARSE, "play", "invalid choice"),
    ([*PLAY, "--bot"], ARGPARSE, "play", "expected one argument"),
    ([*PLAY, "--bot", "minimax"], ARGPARSE, "play", "unknown bot 'minimax'"),
    *[(["play", "uttt", "--bot", spec], ARGPARSE, "play", words) for spec, words in BAD_SPECS[:6]],
]


@pytest.mark.parametrize("argv, form, command, words", BAD_ARGUMENTS,
                         ids=[" ".join(case[0])[:60] or "(none)" for case in BAD_ARGUMENTS])
def test_bad_arguments_get_one_sentence(argv, form, command, words, monkeypatch, capsys):
    code, out, err = run_main(argv, monkeypatch, capsys)
    assert code == 2, err
    line = assert_error_form(err, form, command)
    assert words in line
    assert out == "" and "Traceback" not in out


def test_a_pool_that_does_not_fit_in_memory_is_refused_with_the_largest_that_does(
        monkeypatch, capsys):
    for module in (uttt_bots, match_cli):
        monkeypatch.setattr(module, "available_memory", lambda: 100 * 2**20)  # 100 MiB free
    code, _, err = run_main([*CODINGAME, "uct:capacity=5000000"], monkeypatch, capsys)
    line = assert_error_form(err, ARGPARSE, "codingame")
    assert code == 2
    assert ("capacity 5,000,000 needs 138.3 MiB for a node pool (29 bytes a node), but only "
            "100.0 MiB of memory is available: capacity must be at most 3,615,779 here.") in line
    # Each worker of a match holds both bots' pools: two of 1,000,000 nodes in 2 workers.
    spec = "uct:capacity=1000000,iters=5"
    argv = ["match", "uttt", "--a", spec, "--b", spec, "--games", "2", "--jobs", "2"]
    code, out, err = run_main(argv, monkeypatch, capsys)
    line = assert_error_form(err, SENTENCE, "match")
    assert code == 2 and out == ""
    assert "node pools need 0.11 GiB (2 worker processes" in line and "fewer --jobs" in line


def test_a_match_on_a_cluster_does_not_check_pools_against_this_machines_memory(monkeypatch):
    # The workers check their own limits (tests/test_dask_cluster.py); this machine only
    # parses the SPECs, so a pool larger than its free memory is accepted for --scheduler.
    for module in (uttt_bots, match_cli):
        monkeypatch.setattr(module, "available_memory", lambda: 100 * 2**20)  # 100 MiB free
    spec = "uct:capacity=5000000,iters=5"
    args = build_parser().parse_args(["match", "uttt", "--a", spec, "--b", spec,
                                      "--scheduler", "tcp://127.0.0.1:8786"])
    assert args.a.capacity == args.b.capacity == 5_000_000
    # Played here, the same pools are refused before the first game.
    args = build_parser().parse_args(["match", "uttt", "--a", spec, "--b", spec, "--jobs", "1"])
    with pytest.raises(match_cli.UsageError, match=r"node pools need 0.27 GiB \(1 worker process,"):
        match_cli.run_match(args, out=io.StringIO())


def test_help_is_not_an_error(monkeypatch, capsys):
    for argv in (["--help"], ["harness", "--help"], ["match", "-h"], ["codingame", "--help"],
                 ["play", "--help"]):
        code, out, err = run_main(argv, monkeypatch, capsys)
        assert (code, err) == (0, "") and out.startswith("usage: python -m mctslib")


# ------------------------------------------------------------------ --out and the results


def test_out_is_written_all_at_once_after_the_report(tmp_path, monkeypatch, capsys):
    out = tmp_path / "r.json"
    out.write_text("an earlier result\n")
    code, text, err = run_main([*MATCH, "--out", str(out)], monkeypatch, capsys)
    assert (code, err) == (0, "")
    assert text.rstrip().endswith(f"saved to {out}")
    assert json.loads(out.read_text())["games"] == 2
    assert sorted(path.name for path in tmp_path.iterdir()) == ["r.json"]  # no temporary left


def test_a_failed_save_keeps_the_report_and_the_earlier_file(tmp_path, monkeypatch, capsys):
    out = tmp_path / "r.json"
    out.write_text("an earlier result\n")

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device", str(out))

    monkeypatch.setattr(os, "replace", disk_full)
    code, text, err = run_main([*MATCH, "--out", str(out)], monkeypatch, capsys)
    assert code == 1
    assert "A: random" in text and "saved to" not in text  # the report came first
    line = assert_error_form(err, SENTENCE, "match")
    assert line == f"python -m mctslib match: error: No space left on device ({out})."
    assert out.read_text() == "an earlier result\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["r.json"]


def test_openings_count_the_distinct_ones_and_never_hang(monkeypatch, capsys):
    code, text, err = run_main([*MATCH[:6], "--games", "4", "--openings", "81",
                                "--opening-plies", "1", "--jobs", "1"], monkeypatch, capsys)
    assert (code, err) == (0, "") and "from 81 random openings of 1 ply," in text


# ----------------------------------------------------------------- codingame's input

SPEC = "uct:iters=20,reuse=on,solver=on,wins=on,centre=on"

CODINGAME_INPUT = [
    # (standard input, exit code, words on standard error (None: it stays empty))
    ("", 0, None),  # the input closes before the first turn: a clean end
    (f"-1 -1\n81\n{ALL_ACTIONS}", 0, None),  # one legal turn, then the input closes
    ("4 4\n0\n", 0, None),  # no list of actions: the bot plays from its own position
    ("garbage\n", 1, "turn 1: the opponent's move: a CodinGame move line is two whole numbers"),
    ("4,4\n0\n", 1, "two whole numbers"),
    ("4 4 extra\n0\n", 1, "two whole numbers"),
    ("\x00\x00\n", 1, "two whole numbers"),
    ("\n", 1, "two whole numbers"),
    ("9 9\n0\n", 1, "row and col must each be 0..8"),
    (f"{HUGE} 1\n0\n", 1, "row and col must each be 0..8"),
    (LONG + "\n", 1, "got a line of 5,001 characters"),
    ("4 4\n", 1, "turn 1: the input closed before the number of valid actions."),
    ("4 4\n3\n3 3\n", 1, "the input closed in the middle of the valid actions, after 1 of 3."),
    ("4 4\nmany\n", 1, "the number of valid actions must be a whole number 0..81, got 'many'."),
    (f"4 4\n{LONG}\n", 1, "the number of valid actions must be a whole number"),
    ("4 4\n82\n", 1, "the number of valid actions must be 0..81, got 82."),
    ("4 4\n-1\n", 1, "must be 0..81, got -1."),
    (f"4 4\n{HUGE}\n", 1, f"must be 0..81, got {HUGE}."),
    ("4 4\n1\n-1 -1\n", 1, "a valid action cannot be '-1 -1'."),
    ("4 4\n1\n10 0\n", 1, "a valid action: row and col must each be 0..8"),
    # The referee contradicts the game the bot followed (item 1 of the issue): it stops.
    ("4 4\n1\n4 4\n", 1, ("turn 1: the referee's valid actions (4 4) are not the legal moves "
                         "of the position the bot followed (3 3, 3 4, 3 5, 4 3, 4 5, 5 3, ... "
                         "8 in all)")),
    ("4 4\n1\n0 0\n", 1, "the referee and the bot disagree about the game"),
    ("4 4\n9\n3 3\n3 4\n3 5\n4 3\n4 5\n5 3\n5 4\n5 5\n3 3\n", 1, "(3 3, 3 4, 3 5, 4 3, 4 5,"),
    ("4 4\n0\n4 4\n0\n", 1, "turn 2: the opponent's move is illegal here"),
    ("4 4\n0\n-1 -1\n0\n", 1, "turn 2: '-1 -1' (no opponent move) only comes on the first turn"),
]


@pytest.mark.parametrize("spec", [SPEC, "random"])
@pytest.mark.parametrize("text, code, words", CODINGAME_INPUT,
                         ids=[repr(case[0][:24]) for case in CODINGAME_INPUT])
def test_codingame_input(text, code, words, spec, monkeypatch, capsys):
    got, out, err = run_main([*CODINGAME, spec, "--quiet"], monkeypatch, capsys, stdin=text)
    assert got == code, err
    if words is None:
        assert err == ""
    else:
        assert words in assert_error_form(err, SENTENCE, "codingame")
    for line in out.splitlines():  # whatever was answered before the error is a move
        assert parse_codingame_move(line) is not None


def binary_input():
    return io.TextIOWrapper(io.BytesIO(b"\xff\xfe\x00\n4 4\n"), encoding="utf-8")


def test_codingame_input_that_is_not_text(monkeypatch, capsys):
    # The process's standard input reads undecodable bytes as U+FFFD: a line it refuses.
    code, out, err = run_main([*CODINGAME, "random", "--quiet"], monkeypatch, capsys,
                              stdin=binary_input())
    assert (code, out) == (1, "")
    line = assert_error_form(err, SENTENCE, "codingame")
    assert "turn 1: the opponent's move: a CodinGame move line is two whole numbers" in line
    # Another stream, strict about its encoding: the reading thread reports the error.
    args = build_parser().parse_args([*CODINGAME, "random", "--quiet"])
    stdout, stderr = io.StringIO(), io.StringIO()
    assert run_codingame(args, binary_input(), stdout, stderr) == 1
    assert stdout.getvalue() == ""
    line = assert_error_form(stderr.getvalue(), SENTENCE, "codingame")
    assert "standard input could not be read as text: 'utf-8' codec can't decode" in line


def test_codingame_centre_answer_is_checked_against_the_list(monkeypatch, capsys):
    # X's first turn with a list the bot agrees with: the answer is one of the actions.
    code, out, err = run_main([*CODINGAME, SPEC, "--quiet"], monkeypatch, capsys,
                              stdin=f"-1 -1\n81\n{ALL_ACTIONS}")
    assert (code, out, err) == (0, "4 4\n", "")


# ------------------------------------------------------------------------ play's input

PLAY_INPUT = [
    # (standard input, words on standard output)
    ("", "Input closed: the game is abandoned. Goodbye!"),
    ("garbage\n", "I did not understand 'garbage'"),
    ("\x00\x00\n", "I did not understand '\\x00\\x00'"),
    (f"{HUGE} 1\n", f"you typed row {HUGE}, col 1"),
    (f"{LONG} 1\n", "I did not understand '9999"),
    ("4 4\n4 4\n", "Input closed"),  # EOF in the middle of the game
    ("4 4 4\n-1 -1\n", "each be 0 to 8"),
    ("quit\n", "You left the game. Goodbye!"),
]


@pytest.mark.parametrize("text, words", PLAY_INPUT, ids=[repr(case[0][:20]) for case in PLAY_INPUT])
def test_play_input(text, words, monkeypatch, capsys):
    code, out, err = run_main([*PLAY, "--seed", "1"], monkeypatch, capsys, stdin=text)
    assert (code, err) == (0, "")
    assert words in out and "Traceback" not in out


def test_play_input_that_is_not_text(monkeypatch, capsys):
    code, out, err = run_main([*PLAY, "--seed", "1"], monkeypatch, capsys, stdin=binary_input())
    assert (code, err) == (0, "")
    assert "I did not understand '\ufffd\ufffd\\x00'" in out
    # Another stream, strict about its encoding: the line is refused, the game goes on.
    args = build_parser().parse_args([*PLAY, "--seed", "1"])
    stdout = io.StringIO()
    assert run_play(args, binary_input(), stdout) == 0
    assert "That line is not text (UTF-8)" in stdout.getvalue()
    assert stdout.getvalue().rstrip().endswith("Goodbye!")


# ------------------------------------------------------- the real thing, as subprocesses

SUBPROCESS_CASES = [
    # (argv, standard input, exit code, form (None: a clean exit), words)
    (["codingame", "uttt", "uct:iters=50", "--quiet"], b"4 4\n1\n4 4\n", 1, SENTENCE,
     "the referee and the bot disagree about the game"),
    (["codingame", "uttt", "uct:capacity=81,iters=10"], b"-1 -1\n0\n", 2, ARGPARSE,
     "must be a whole number from 82"),
    (["codingame", "uttt", f"uct:iters={HUGE}"], b"-1 -1\n0\n", 2, ARGPARSE, "100,000,000"),
    (["codingame", "uttt", "random", "--quiet"], b"\xff\xfe\x00\n", 1, SENTENCE,
     "two whole numbers"),
    (["codingame", "uttt", "random", "--quiet"], b"", 0, None, ""),
    (["play", "uttt", "--bot", "random", "--seed", "3"], b"\xff\xfe\x00\n", 0, None,
     "I did not understand"),
    (["harness", "tictactoe", "--iterations", HUGE], b"", 2, ARGPARSE, "100,000,000"),
    (["harness", "tictactoe", "--games", HUGE], b"", 2, ARGPARSE, "1,000,000"),
    (["match", "uttt", "--a", "random", "--b", "random", "--games", "2", "--out",
      "/nonexistent/r.json"], b"", 2, ARGPARSE, "/nonexistent is not one"),
    (["match", "uttt", "--a", "random", "--b", "random", "--games", "4", "--openings", "100000",
      "--opening-plies", "1"], b"", 2, ARGPARSE, "from 0 to 10,000, got 100000."),
    ([], b"", 2, ARGPARSE, "required"),
]


@pytest.fixture(scope="module")
def subprocess_runs():
    """Run every subprocess case, two at a time: {index: (exit code, stdout, stderr)}."""
    env = dict(os.environ, MCTSLIB_PROGRESS="0")

    def run(case):
        argv, data, *_ = case
        done = subprocess.run([sys.executable, "-m", "mctslib", *argv], input=data,
                              capture_output=True, cwd=ROOT, env=env, timeout=120, check=False)
        return done.returncode, done.stdout.decode(errors="replace"), done.stderr.decode(
            errors="replace")

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(enumerate(pool.map(run, SUBPROCESS_CASES)))


@pytest.mark.parametrize("index", range(len(SUBPROCESS_CASES)),
                         ids=[" ".join(case[0])[:50] or "(none)" for case in SUBPROCESS_CASES])
def test_no_traceback_escapes_the_real_command(index, subprocess_runs):
    argv, _, code, form, words = SUBPROCESS_CASES[index]
    got, out, err = subprocess_runs[index]
    assert "Traceback" not in err and "Traceback" not in out
    assert got == code, err
    if form is None:
        assert err == "" and words in out
    else:
        command = argv[0] if argv else None
        assert words in assert_error_form(err, form, command)
    if argv[:1] == ["codingame"]:
        assert out == ""  # no move was answered to a contradicting or broken turn


def test_the_openings_hang_is_gone(subprocess_runs):
    # Reproducer 5 of the issue retried for minutes; the whole table above runs in seconds.
    index = next(i for i, case in enumerate(SUBPROCESS_CASES) if "--openings" in case[0])
    assert subprocess_runs[index][0] == 2
