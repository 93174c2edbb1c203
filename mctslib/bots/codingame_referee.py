"""A local stand-in for CodinGame's referee: play a bot process through its real protocol.

``python -m mctslib codingame uttt`` reads and writes exactly what CodinGame's referee
sends and expects. :class:`LocalReferee` starts such a process, plays it against a seeded
uniformly random opponent through pipes, and times every turn from the moment it sends the
turn's input to the moment it reads the answer, as CodinGame does. The tests use it to
check the protocol; ``benchmarks/codingame_turns.py`` uses it to measure turn times.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from .._checks import check_int
from ..games.uttt import UltimateTicTacToe, format_codingame_move, parse_codingame_move

#: The command that starts our bot as a CodinGame player.
PLAYER = [sys.executable, "-m", "mctslib", "codingame", "uttt"]


class LocalReferee:
    """Play a CodinGame UTTT player process against a seeded random opponent.

    Parameters
    ----------
    spec : str or None
        The bot SPEC passed on the command line (None: the player's default).
    bot_first : bool
        Whether the bot plays X (moves first).
    seed : int
        Seed of the random opponent.
    wait_until_ready : bool
        Wait for the player's ``ready`` line on standard error before the first turn.
    command : list of str
        The player command (default: ``python -m mctslib codingame uttt``).

    Notes
    -----
    A player that dies, answers something that is not a move or plays an
    illegal move raises RuntimeError with what it said on standard error.
    """

    def __init__(self, spec=None, bot_first=True, seed=0, wait_until_ready=True,
                 command=PLAYER):
        if spec is not None and not isinstance(spec, str):
            raise ValueError(f"spec must be a SPEC string or None, got {type(spec).__name__}.")
        if isinstance(command, str) or not all(isinstance(part, str) for part in command):
            raise ValueError(f"command must be a list of strings, got {command!r:.80}.")
        seed = check_int("seed", seed, 0)
        self.spawned = time.perf_counter()
        argv = list(command) + ([spec] if spec else [])
        cwd = Path(__file__).resolve().parent.parent
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, bufsize=1, cwd=cwd)
        self.ready = None
        if wait_until_ready:  # the player says on standard error when it has loaded
            line = self.process.stderr.readline()
            if not line.startswith("ready "):
                self.process.kill()
                rest = self.process.stderr.read()
                self.process.wait()
                raise RuntimeError(f"the player did not start: {(line + rest).strip()!r}")
            self.ready = time.perf_counter() - self.spawned
        self.rng = np.random.default_rng(seed)
        self.state = UltimateTicTacToe()
        self.last = None
        self.turn_seconds: list[float] = []
        if not bot_first:
            self._opponent_moves()

    def _opponent_moves(self) -> None:
        moves = self.state.legal_moves()
        self.last = moves[self.rng.integers(len(moves))]
        self.state = self.state.play(self.last)

    def turn(self) -> None:
        """Send one turn's input, read the answer, check it is legal, play the reply."""
        actions = self.state.legal_moves()
        lines = [format_codingame_move(self.last), len(actions), *map(format_codingame_move, actions)]
        if self.state.is_terminal():
            raise RuntimeError("the game is over: there is no turn left to play.")
        sent = time.perf_counter()
        try:
            self.process.stdin.write("".join(f"{line}\n" for line in lines))
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError):  # ValueError: our end was closed already
            raise RuntimeError(self._ended("before reading its turn")) from None
        answer = self.process.stdout.readline()
        self.turn_seconds.append(time.perf_counter() - sent)
        if not answer:
            raise RuntimeError(self._ended("without answering"))
        try:
            move = parse_codingame_move(answer)
        except ValueError as error:
            raise RuntimeError(f"the player answered {answer!r}, not a move: {error}") from None
        if move not in actions:
            raise RuntimeError(f"the player answered {answer!r}, not one of the valid actions")
        self.state = self.state.play(move)
        if not self.state.is_terminal():
            self._opponent_moves()

    def _ended(self, when: str) -> str:
        """Why the player stopped, from its exit code and standard error."""
        try:
            self.process.stdin.close()
        except (BrokenPipeError, ValueError):
            pass
        errors = self.process.stderr.read().strip()
        code = self.process.wait(timeout=10)
        last = errors.splitlines()[-1] if errors else "nothing on standard error"
        return f"the player ended {when} (exit code {code}): {last}"

    def play(self, turns: int = 200):
        """Play until the game ends (or ``turns`` turns); returns :meth:`close`'s result."""
        turns = check_int("turns", turns, 0)
        for _ in range(turns):
            if self.state.is_terminal():
                break
            self.turn()
        return self.close()

    def close(self) -> tuple[int, str, str]:
        """Close the player's input; return (exit code, extra stdout, stderr)."""
        try:
            self.process.stdin.close()
        except (BrokenPipeError, ValueError):  # it had stopped reading, or closed already
            pass
        extra = self.process.stdout.read()
        errors = self.process.stderr.read()
        return self.process.wait(timeout=10), extra, errors
