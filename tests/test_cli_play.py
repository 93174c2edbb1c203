"""``python -m mctslib play uttt``: a person against the bot in a terminal.

The game is driven through piped standard input: malformed lines, coordinates out of
range, illegal moves, commands, legal moves and a closed input. Nothing here may end in
a traceback.
"""

import argparse
import io
import subprocess
import sys
from pathlib import Path

import pytest

from mctslib.bots.uttt import parse_spec
from mctslib.cli.play import (
    PlaySession,
    _Rejected,
    add_play_command,
    read_move,
    render_board,
    run_play,
)
from mctslib.games.uttt import UltimateTicTacToe, from_row_col

ROOT = Path(__file__).resolve().parents[1]
CENTRE = from_row_col(4, 4)


def play_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="test")
    add_play_command(parser.add_subparsers(dest="command", required=True))
    return parser


def run_in_process(lines: list[str], *options: str) -> tuple[int, str]:
    args = play_parser().parse_args(["play", "uttt", "--seed", "5", *options])
    out = io.StringIO()
    code = run_play(args, stdin=io.StringIO("".join(line + "\n" for line in lines)), stdout=out)
    return code, out.getvalue()


def test_the_board_marks_where_the_player_to_move_may_play():
    after_centre = UltimateTicTacToe().play(CENTRE)  # O is sent to the centre board
    text = render_board(after_centre)
    rows = text.split("\n")
    assert rows[0].split() == [str(col) for col in range(9)]
    cells = [row[5:26] for row in rows[1:12] if not row.strip().startswith("-")]
    assert len(cells) == 9
    assert sum(row.count("+") for row in cells) == 8  # the centre board's nine cells minus the X
    assert rows[6].startswith("  4  . . . | + X + | . . .")  # header, rows 0-2, a rule, row 3
    assert "must play in board 4 (rows 3-5, cols 3-5)" in rows[-1]
    empty_rows = render_board(UltimateTicTacToe()).split("\n")[1:12]
    assert sum(row[5:26].count("+") for row in empty_rows if "|" in row) == 81  # free choice
    assert "free choice" in render_board(UltimateTicTacToe())


def x_won_board_0() -> UltimateTicTacToe:
    # X holds the top row of board 0 (won); O two cells of board 3; O to move, free choice.
    grid = "XXX......" + "." * 18 + "OO......." + "." * 45
    return UltimateTicTacToe.from_grid(grid)


@pytest.mark.parametrize("state, line, words", [
    (UltimateTicTacToe(), "hello", "did not understand 'hello'"),
    (UltimateTicTacToe(), "4", "two whole numbers"),
    (UltimateTicTacToe(), "4 4 4", "two whole numbers"),
    (UltimateTicTacToe(), "4.5 3", "two whole numbers"),
    (UltimateTicTacToe(), "9 2", "you typed row 9, col 2"),
    (UltimateTicTacToe(), "-1 -1", "each be 0 to 8"),
    (UltimateTicTacToe().play(CENTRE), "4 4", "Row 4, col 4 is taken by X"),
    (UltimateTicTacToe().play(CENTRE), "0 0", "you must play in board 4 (rows 3-5, cols 3-5)"),
    (x_won_board_0(), "1 1", "board 0, which was won by X"),
])
def test_bad_lines_get_a_sentence(state, line, words):
    with pytest.raises(_Rejected, match=words.replace("(", r"\(").replace(")", r"\)")):
        read_move(line, state)


def test_moves_may_be_typed_with_commas_or_brackets():
    for line in ("4 4", " 4   4 ", "4,4", "(4, 4)"):
        assert read_move(line, UltimateTicTacToe()) == CENTRE


def test_a_session_rejects_bad_input_then_plays_and_stops_at_the_end_of_input():
    code, out = run_in_process(["hello", "", "9 9", "help", "moves", "4 4", "4 4", "board"],
                               "--bot", "random")
    assert code == 0
    assert "did not understand 'hello'" in out
    assert "you typed row 9, col 9" in out
    assert "Win three small boards in a line" in out  # help
    assert "Your legal moves (row col): 0 0, 0 1," in out  # all 81 on the first move
    assert out.count("The bot (O) plays") == 1
    assert "Row 4, col 4 is taken by X" in out
    assert out.rstrip().endswith("Input closed: the game is abandoned. Goodbye!")


def test_quit_as_o_after_the_bot_opened():
    code, out = run_in_process(["quit"], "--bot", "random", "--side", "O")
    assert code == 0
    assert "the bot (X) moves first" in out and "The bot (X) plays" in out
    assert out.rstrip().endswith("You left the game. Goodbye!")


def test_a_whole_game_reaches_a_verdict():
    # Trying every cell in turn, pass after pass, plays some legal move each turn until the end.
    every_cell = [f"{row} {col}" for row in range(9) for col in range(9)]
    code, out = run_in_process(every_cell * 45, "--bot", "random", "--scoring", "openspiel")
    assert code == 0
    assert "game over:" in out and "openspiel scoring" in out
    assert out.rstrip().endswith(("You win, well played!", "The bot wins.", "It is a draw."))


def test_the_session_shows_the_uct_bot_thinking():
    lines = ["4 4"]

    def read_line():
        if not lines:
            raise EOFError
        return lines.pop(0)

    written = []
    session = PlaySession(parse_spec("uct:iters=200")(seed=1), 0, "codingame", read_line,
                          written.append)
    assert session.run() == 0
    assert written[-1] == "Input closed: the game is abandoned. Goodbye!"
    reply = next(line for line in written if line.startswith("The bot (O) plays"))
    assert "200 iterations" in reply and "thought" in reply


def test_the_command_line_through_a_pipe():
    centre_board = [f"{row} {col}" for row in range(3, 6) for col in range(3, 6)]
    lines = ["what", "10 10", "4 4", "4 4", "0 0", *centre_board]
    done = subprocess.run(
        [sys.executable, "-m", "mctslib", "play", "uttt", "--bot", "uct:iters=200", "--seed", "2"],
        input="".join(line + "\n" for line in lines), capture_output=True, text=True,
        cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    out = done.stdout
    assert "did not understand 'what'" in out and "you typed row 10, col 10" in out
    assert "Row 4, col 4 is taken by X" in out
    assert "you must play in board" in out or out.count("The bot (O) plays") >= 2
    assert "200 iterations" in out
    assert out.rstrip().endswith(("Goodbye!", "You win, well played!", "The bot wins.",
                                  "It is a draw."))


def test_parser_options_and_help(capsys):
    args = play_parser().parse_args(["play", "uttt", "--side", "O", "--bot", "random"])
    assert args.side == "o" and args.bot == parse_spec("random") and args.seed is None
    assert args.handler is run_play and args.scoring == "codingame"
    with pytest.raises(SystemExit) as exit_info:
        play_parser().parse_args(["play", "uttt", "--bot", "minimax"])
    assert exit_info.value.code == 2
    assert "unknown bot 'minimax'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        play_parser().parse_args(["play", "uttt", "--help"])
    text = capsys.readouterr().out
    assert "row col" in text and "SPEC syntax" in text and "Ctrl-D" in text
