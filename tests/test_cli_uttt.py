"""``match uttt`` and ``codingame uttt`` (mctslib.cli.match, mctslib.cli.codingame), through argparse and as a process.

The CodinGame player is run as a real process and fed CodinGame's protocol through pipes by
mctslib.bots.codingame_referee.LocalReferee (turn times are measured by benchmarks/codingame_turns.py).
"""

import argparse
import io
import json
from pathlib import Path

import pytest

from mctslib.bots.codingame_referee import LocalReferee as Referee
from mctslib.bots.uttt import warm_up
from mctslib.cli.codingame import CODINGAME_SPEC, add_codingame_command, run_codingame
from mctslib.cli.match import add_match_command

ROOT = Path(__file__).resolve().parents[1]
FAST_SPEC = "uct:c=0.5,ms=15,first_ms=60,wins=on,solver=on,reuse=on,centre=on"


def parser():
    top = argparse.ArgumentParser(prog="mctslib")
    commands = top.add_subparsers(dest="command", required=True)
    add_match_command(commands)
    add_codingame_command(commands)
    return top


def run(argv):
    args = parser().parse_args(argv)
    return args.handler(args)


# --------------------------------------------------------------------------- help


@pytest.mark.parametrize("command", ["match", "codingame"])
def test_help_documents_the_spec_syntax_and_every_option(command, capsys):
    with pytest.raises(SystemExit) as stop:
        parser().parse_args([command, "--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    for key in ("c=NUMBER", "scale=01|pm1", "iters=N", "ms=NUMBER", "first_ms=NUMBER",
                "wins=on|off", "solver=on|off", "reuse=on|off", "centre=on|off", "capacity=N",
                "random"):
        assert key in text
    options = (["--a", "--b", "--games", "--jobs", "--scoring", "--seed", "--openings",
                "--opening-plies", "--out", "Wilson"] if command == "match"
               else ["--scoring", "--seed", "--quiet", "-1 -1", "1,000 ms", CODINGAME_SPEC])
    for option in options:
        assert option in text


# -------------------------------------------------------------------------- match


def test_match_prints_the_report_and_saves_every_parameter(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("MCTSLIB_PROGRESS", "0")
    out = tmp_path / "result.json"
    argv = ["match", "uttt", "--a", "uct:iters=200,solver=on", "--b", "random", "--games", "4",
            "--seed", "3"]
    assert run([*argv, "--jobs", "1", "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Ultimate Tic-Tac-Toe, codingame scoring, seed 3, from the empty")
    assert lines[1].startswith("A: uct:c=1.4142135623730951,scale=01,iters=200,wins=off,solver=on")
    assert lines[2] == "B: random"
    assert lines[3].startswith("4 games (A moved first in 2): A won ")
    assert "95% Wilson interval [" in lines[4]
    assert "games at a score of" in lines[5] and lines[6].startswith("seconds per move: A ")
    data = json.loads(out.read_text())
    assert data["games"] == 4 and len(data["records"]) == 4
    assert data["wins"] + data["draws"] + data["losses"] == 4
    parameters = data["parameters"]
    assert parameters["a_options"]["iterations"] == 200 and parameters["a_options"]["solver"]
    assert parameters["b_options"] == {"kind": "random"}
    assert (parameters["seed"], parameters["jobs"], parameters["scoring"]) == (3, 1, "codingame")
    assert (parameters["openings"], parameters["opening_plies"]) == (0, 2)
    # The same seed gives the same games, whether in one process or two.
    again = tmp_path / "again.json"
    assert run([*argv, "--jobs", "2", "--out", str(again)]) == 0
    assert games_of(json.loads(again.read_text())) == games_of(data)


def games_of(data):
    """The records of a saved match without the measured times."""
    return [{key: value for key, value in record.items() if not key.startswith("seconds")}
            for record in data["records"]]


def test_match_from_openings_with_openspiel_scoring(capsys):
    argv = ["match", "uttt", "--a", "uct:iters=100", "--b", "uct:iters=100,wins=on",
            "--games", "4", "--jobs", "1", "--openings", "2", "--opening-plies", "3",
            "--scoring", "openspiel"]
    assert run(argv) == 0
    text = capsys.readouterr().out
    assert "openspiel scoring" in text and "from 2 random openings of 3 plies" in text


def test_match_takes_the_alpha_beta_baseline(capsys):
    # chapter 6's baseline through the same SPEC: it has no node pool to check
    argv = ["match", "uttt", "--a", "alphabeta:nodes=2000,depth=3", "--b", "uct:iters=200",
            "--games", "2", "--jobs", "1", "--openings", "1"]
    assert run(argv) == 0
    text = capsys.readouterr().out
    assert "A: alphabeta:nodes=2000,depth=3" in text and "2 games" in text


@pytest.mark.parametrize("argv, words", [
    (["--a", "uct:c=-1", "--b", "random"], "c (the exploration constant) must be a number"),
    (["--a", "alphabeta:depth=0", "--b", "random"], "depth (plies of the deepest iteration)"),
    (["--a", "uct:turbo=on", "--b", "random"], "unknown option 'turbo=on'"),
    (["--a", "uct:iters=-5", "--b", "random"], "iters (iterations per move) must be"),
    (["--a", "uct", "--b", "random", "--games", "0"],
     "--games: must be a whole number from 1 to 1,000,000, got 0."),
    (["--a", "uct", "--b", "random", "--jobs", "two"], "--jobs: must be a whole number from 1"),
    (["--a", "uct", "--b", "random", "--scoring", "fide"], "invalid choice"),
    (["--b", "random"], "the following arguments are required: --a"),
])
def test_bad_match_arguments_exit_with_a_sentence(argv, words, capsys):
    with pytest.raises(SystemExit) as stop:
        parser().parse_args(["match", "uttt", *argv])
    assert stop.value.code == 2
    assert words in capsys.readouterr().err


# ---------------------------------------------------------------------- codingame


def test_codingame_player_plays_a_whole_game_through_pipes():
    referee = Referee(FAST_SPEC, bot_first=False, seed=1)
    code, extra, errors = referee.play()
    assert referee.state.is_terminal()
    assert code == 0 and extra == ""  # exactly one stdout line per turn, nothing else
    turn_lines = [line for line in errors.splitlines() if line.startswith("turn ")]
    assert len(turn_lines) == len(referee.turn_seconds) > 5
    assert "kept" in turn_lines[-1] and "Traceback" not in errors


def test_codingame_player_keeps_its_tree_with_the_default_spec():
    # Turn times are measured in benchmarks/codingame_turns.py, not asserted here.
    referee = Referee(bot_first=False, seed=2)
    for _ in range(4):
        referee.turn()
    code, extra, errors = referee.close()
    assert code == 0 and extra == ""
    assert ", 0 kept" not in errors.splitlines()[-1]  # the tree was reused


@pytest.fixture
def loaded():
    # In-process runs must find numba started, so the start-up shortcut stays out of this
    # process (see mctslib.cli.codingame._skip_numba_blas_probe).
    warm_up()


def play_in_process(text, spec=FAST_SPEC):
    args = parser().parse_args(["codingame", "uttt", spec, "--quiet"])
    stdout, stderr = io.StringIO(), io.StringIO()
    code = run_codingame(args, io.StringIO(text), stdout, stderr)
    return code, stdout.getvalue(), stderr.getvalue()


def test_codingame_first_turn_as_x_plays_the_centre(loaded):
    actions = "\n".join(f"{r} {c}" for r in range(9) for c in range(9))
    code, out, err = play_in_process(f"-1 -1\n81\n{actions}\n")
    assert (code, out, err) == (0, "4 4\n", "")


@pytest.mark.parametrize("text, words", [
    ("4 4\n8\n3 3\n", "closed in the middle of the valid actions"),
    ("4 4\nmany\n", "number of valid actions must be a whole number"),
    ("9 9\n0\n", "row and col must each be 0..8"),
    ("4 4\n0\n-1 -1\n0\n", "'-1 -1' (no opponent move) only comes on the first turn"),
    ("4 4\n0\n4 4\n0\n", "the opponent's move is illegal here"),
])
def test_codingame_protocol_errors_exit_1_with_a_sentence(loaded, text, words):
    code, _, err = play_in_process(text)
    assert code == 1 and words in err and "Traceback" not in err


def test_codingame_bad_spec_is_an_argument_error(capsys):
    with pytest.raises(SystemExit) as stop:
        parser().parse_args(["codingame", "uttt", "uct:ms=-3"])
    assert stop.value.code == 2
    assert "ms (milliseconds) must be a finite number > 0" in capsys.readouterr().err
