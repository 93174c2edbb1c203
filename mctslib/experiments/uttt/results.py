"""What every UTTT tuning experiment shares: its stored result, its bots and how it plays.

:class:`Comparison` (one match between two versions of the bot, with its
interval) and :class:`ExperimentResult` (an experiment's comparisons, summary,
parameters, seeds and wall time, saved as ``data/uttt/NAME.json``), the bot
options every experiment starts from, and the helpers that turn an
experiment's parameters into seeded matches (``_Runner``). Part of the
chapter "Ultimate Tic-Tac-Toe: tuning a real bot".
"""


from __future__ import annotations

import dataclasses
import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ..._checks import check_int, check_real
from ..._version import __version__
from ...bots.uttt import MAX_ITERATIONS, MAX_MS, BotSpec, parse_spec, random_openings
from ...games.uttt import SCORINGS, UltimateTicTacToe
from ...play.arena import MAX_GAMES, MatchResult, play_match
from ...play.stats import score_interval
from ...search.minimax import check_budget

#: The most worker processes an experiment starts (as :func:`~mctslib.play.arena.play_match`).
MAX_JOBS = 1024

#: The experiments, in the order the chapter uses them (:data:`~.registry.EXPERIMENTS` maps
#: each to its function).
NAMES = ("budget", "exploration", "win_taking", "solver", "reuse", "centre", "games_needed",
         "openspiel", "doubling", "c_decision", "reuse_decision", "openspiel_sweep",
         "openspiel_equal_time", "openspiel_ten_times")

#: Where the stored full results live (``data/uttt`` of the repository).
DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "uttt"
#: The plain bot every experiment varies one thing of: UCT with the player-reported c = 0.5
#: on rewards 1/0.5/0, every enhancement off.
BASE_OPTIONS = "c=0.5,scale=01,wins=off,solver=off,reuse=off,centre=off"
#: The bot with every enhancement the chapter measures turned on (the OpenSpiel match).
BEST_OPTIONS = "c=0.5,scale=01,wins=on,solver=on,reuse=on,centre=on"
#: Exploration constants players reported (brief), on rewards 1/0.5/0 for Di_Masta's 0.5.
PLAYER_REPORTED_C = {
    "sqrt(2) - 1 (Di_Masta, 1st in Gold)": math.sqrt(2.0) - 1.0,
    "0.5 (Di_Masta, 80th in Legend, rewards 1/0.5/0)": 0.5,
}
#: The openings' random stream (the same spawn key as ``python -m mctslib match``).
OPENINGS_STREAM = 2**32 - 1
DEFAULT_SCORING = "codingame"
SEEDING = ("match of comparison k: numpy.random.SeedSequence(seed, spawn_key=(k,)); "
           "openings: SeedSequence(seed, spawn_key=(2**32 - 1,)); game i of a match gives "
           "A and B the streams 2i and 2i + 1 spawned from the match's SeedSequence")
#: Item 9 of issue 14: the ms per move stored with each comparison are not speeds.
TIME_NOTE = ("seconds_per_move is wall time measured while the games ran in parallel worker "
             "processes (jobs) on a machine shared with other work: a load artefact, not the "
             "bot's speed (the same 1,000-iteration bot was stored at 0.50 to 1.6 ms a move). "
             "Speed is measured one bot at a time on a quiet machine in benchmarks/uttt_speed.py.")
SCORE_RULE = "win 1, draw 0.5, loss 0; 95% Wilson score interval (mctslib.play.stats.score_interval)"


# ----------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Comparison:
    """One match between two bots: the games, the score and its 95% interval.

    Attributes
    ----------
    label : str
        What this point of the experiment is, e.g. ``"iters=4000"``.
    value : float, str or None
        The experiment's variable at this point (a budget, a value of c, ...).
    a, b : str
        The two players: a full SPEC (:mod:`mctslib.bots.uttt`) or a description.
    seed : list of int
        ``[s, k]``: the match used ``SeedSequence(s, spawn_key=(k,))``.
    perspective : {"A", "X"}
        Whose results are counted: bot A's, or the first player's (X) when
        both sides are the same bot (the centre experiment).
    games, wins, draws, losses : int
    score : float
    interval_95 : list of float
        ``[low, high]``, the 95% Wilson interval of the score.
    seconds_per_move : list of float
        Measured thinking time per move of A and of B.
    mean_plies : float
        Moves played per game after the opening.
    results : str
        One letter per game in game order (W, D, L for ``perspective``);
        game ``i`` started from opening ``i // 2`` with A as X when ``i`` is even.
    seconds : float
        Wall time of the match.
    """

    label: str
    value: float | str | None
    a: str
    b: str
    seed: list
    perspective: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    interval_95: list
    seconds_per_move: list
    mean_plies: float
    results: str
    seconds: float

    @classmethod
    def from_match(cls, label, value, a, b, seed, match: MatchResult, seconds: float,
                   perspective: str = "A") -> Comparison:
        """Summarise a finished match from A's point of view (or X's)."""
        letters = "".join(_letter(_result_for(record, perspective)) for record in match.records)
        wins, draws, losses = (letters.count(letter) for letter in "WDL")
        score, low, high = score_interval(wins, draws, losses)
        return cls(label, value, str(a), str(b), list(seed), perspective, len(letters), wins,
                   draws, losses, score, [low, high], list(match.seconds_per_move()),
                   float(np.mean([record.moves for record in match.records])), letters, seconds)

    @property
    def low(self) -> float:
        return self.interval_95[0]

    @property
    def high(self) -> float:
        return self.interval_95[1]

    def excludes_half(self) -> bool:
        """Does the 95% interval leave out 0.5 (the two sides are distinguishable)?"""
        return self.high < 0.5 or self.low > 0.5

    def __str__(self) -> str:
        return (f"{self.label}: {self.games} games, {self.wins}-{self.draws}-{self.losses} "
                f"(W-D-L for {self.perspective}), score {self.score:.3f} "
                f"[{self.low:.3f}, {self.high:.3f}]")


def _result_for(record, perspective: str) -> float:
    # play_match puts A on player 0 (X) when a_moved_first; X's result follows from A's.
    if perspective == "A":
        return record.result_for_a
    return record.result_for_a if record.a_moved_first else 1.0 - record.result_for_a


def _letter(result: float) -> str:
    return {1.0: "W", 0.5: "D", 0.0: "L"}[result]


@dataclass(frozen=True)
class ExperimentResult:
    """An experiment's comparisons with everything that made them; JSON-ready.

    Attributes
    ----------
    name, title : str
        The experiment's key (:data:`NAMES`) and the question it answers.
    scoring : {"codingame", "openspiel"}
        How a game that closes every board without a line is scored.
    reproducible : bool
        True for iteration budgets (same seed, same numbers anywhere); False
        when a bot stops on the clock.
    parameters : dict
        Every argument of the experiment function, the bots' SPECs, the
        seeding rule, the score rule and the number of worker processes.
    comparisons : list of Comparison
    summary : dict
        What the experiment computes from its comparisons (optimum, widths,
        the sequential test, the calibration, ...).
    notes : list of str
        Sentences a reader of the file needs (caveats).
    seconds : float
        Wall time of the whole experiment.
    mctslib_version : str
    budget : str
        ``"full"``, ``"quick"`` or ``"custom"`` (a direct call).
    """

    name: str
    title: str
    scoring: str
    reproducible: bool
    parameters: dict
    comparisons: list = field(default_factory=list)
    summary: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    seconds: float = 0.0
    mctslib_version: str = __version__
    budget: str = "custom"

    def comparison(self, label: str) -> Comparison:
        """The comparison called ``label``."""
        for comparison in self.comparisons:
            if comparison.label == label:
                return comparison
        raise ValueError(f"no comparison {label!r} in experiment {self.name!r}; it has "
                         f"{[c.label for c in self.comparisons]}.")

    def table(self) -> str:
        """One line per comparison: games, W-D-L, score, interval, seconds per move."""
        lines = [f"{self.name}: {self.title} ({self.scoring} scoring, {self.budget} budget)"]
        for c in self.comparisons:
            lines.append(f"  {c.label:<28} {c.games:>4} games  {c.wins:>3}-{c.draws:>2}-"
                         f"{c.losses:<3} score {c.score:.3f} [{c.low:.3f}, {c.high:.3f}]  "
                         f"{1000 * c.seconds_per_move[0]:.2f} / "
                         f"{1000 * c.seconds_per_move[1]:.2f} ms per move")
        return "\n".join(lines)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1)

    def save(self, path) -> Path:
        """Write the result as JSON (folders are created); returns the path."""
        path = _path("path", path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(self.to_json() + "\n")
        except OSError as error:
            raise ValueError(f"cannot write the experiment result to {path}: {error}.") from None
        return path

    @classmethod
    def load(cls, path) -> ExperimentResult:
        """Read a file written by :meth:`save`; ValueError, naming the file, if it is not one."""
        path = _path("path", path)
        try:
            text = path.read_text()
        except (OSError, UnicodeDecodeError) as error:
            raise ValueError(f"cannot read the experiment result {path}: {error}.") from None
        try:
            data = json.loads(text)
            data["comparisons"] = [Comparison(**c) for c in data["comparisons"]]
            return cls(**data)
        except (ValueError, TypeError, KeyError):
            raise ValueError(f"{path} does not hold an experiment result written by "
                             f"ExperimentResult.save().") from None


def experiment_path(name: str, directory=None) -> Path:
    """``DIRECTORY/NAME.json`` (default directory: :data:`DATA_DIR`)."""
    _check_name(name)
    return (DATA_DIR if directory is None else _path("directory", directory)) / f"{name}.json"


def _path(name: str, value) -> Path:
    """``value`` as a Path, or a sentence unless it is a file name (a str or a path)."""
    if not isinstance(value, (str, os.PathLike)) or isinstance(value, str) and not value:
        raise ValueError(f"{name} must be a file name (a non-empty str or a pathlib.Path), got "
                         f"{value!r:.80}.")
    return Path(value)


def load_experiment(name: str, directory=None) -> ExperimentResult:
    """The stored result of experiment ``name`` (default: the repository's ``data/uttt``)."""
    path = experiment_path(name, directory)
    if not path.is_file():
        raise ValueError(f"no stored result {path}; regenerate it with "
                         f"python -m mctslib.experiments.uttt --only {name}")
    return ExperimentResult.load(path)


# ----------------------------------------------------------------------------- helpers


def _bot(options, **fields) -> BotSpec:
    """The bot of ``options`` (a SPEC's options or a BotSpec) with ``fields`` replaced."""
    spec = options if isinstance(options, BotSpec) else parse_spec(f"uct:{options}")
    return dataclasses.replace(spec, **fields)


def _iterations(spec: BotSpec, iterations: int) -> BotSpec:
    return dataclasses.replace(spec, iterations=iterations, ms=None, first_ms=None)


def _without_budget(spec: BotSpec) -> str:
    """The SPEC of ``spec`` with its budget left out (what stays fixed in an experiment)."""
    return str(_iterations(spec, 1)).replace(",iters=1,", ",")


def _milliseconds(spec: BotSpec, ms: float) -> BotSpec:
    # The same budget for the first move as for the others: the comparison is about
    # equal time, and CodinGame's longer first turn would only add noise.
    return dataclasses.replace(spec, iterations=None, ms=ms, first_ms=ms)


def _openings(games: int, plies: int, seed: int, scoring: str) -> list[UltimateTicTacToe]:
    """One opening per pair of games (each is played with both colours)."""
    stream = np.random.SeedSequence(seed, spawn_key=(OPENINGS_STREAM,))
    return random_openings(max(1, games // 2), plies, stream, scoring)


@dataclass
class _Runner:
    """Plays an experiment's matches with shared settings and numbers them for their seeds."""

    name: str
    seed: int
    jobs: int
    executor: object
    callback: Callable | None
    played: list = field(default_factory=list)

    def match(self, label, value, a, b, starts, games, perspective="A") -> Comparison:
        key = len(self.played)
        match_seed = np.random.SeedSequence(self.seed, spawn_key=(key,))
        start = time.perf_counter()
        result = play_match(a, b, starts, games, seed=match_seed, jobs=self.jobs,
                            executor=self.executor, description=f"{self.name} {label}")
        describe = getattr(b, "describe", None)
        comparison = Comparison.from_match(label, value, a, describe() if describe else b,
                                           [self.seed, key], result,
                                           time.perf_counter() - start, perspective)
        self.played.append(comparison)
        if self.callback is not None:
            self.callback(comparison)
        return comparison


def _common(name, games, seed, scoring, jobs, executor, callback):
    """The checks every experiment starts with: games, seed, scoring, jobs, executor, callback."""
    games = check_budget("games", games, 2, MAX_GAMES)
    seed = check_int("seed", seed, 0)
    if not isinstance(scoring, str) or scoring not in SCORINGS:
        raise ValueError(f"scoring must be one of {SCORINGS}, got {scoring!r}.")
    jobs = check_budget("jobs", jobs, 1, MAX_JOBS)
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise ValueError(f"executor must be a concurrent.futures.Executor (or None), got "
                         f"{type(executor).__name__}.")
    if callback is not None and not callable(callback):
        raise ValueError(f"callback must be a function called with each Comparison, or None; "
                         f"got {type(callback).__name__}.")
    return games, _Runner(name, seed, jobs, executor, callback)


def _parameters(runner: _Runner, **values) -> dict:
    return {**values, "seed": runner.seed, "jobs": runner.jobs, "seeding": SEEDING,
            "score": SCORE_RULE}


def _finish(runner: _Runner, start: float, **fields) -> ExperimentResult:
    return ExperimentResult(name=runner.name, comparisons=list(runner.played),
                            seconds=time.perf_counter() - start, **fields)


def _numbers(name: str, values, minimum, kind=int, maximum=None) -> list:
    """One number or a sequence, each checked: whole numbers >= ``minimum``, or reals > 0.

    ``maximum`` defaults to what a bot accepts: :data:`~mctslib.bots.uttt.MAX_ITERATIONS`
    iterations per move for whole numbers, :data:`~mctslib.bots.uttt.MAX_MS` ms for reals.
    """
    values = [values] if isinstance(values, (int, float, np.integer, np.floating)) else _sequence(
        name, values)
    if not values:
        raise ValueError(f"{name} must hold at least one value.")
    if kind is int:
        top = MAX_ITERATIONS if maximum is None else maximum
        checked = [check_budget(f"each of {name}", value, minimum, top) for value in values]
    else:
        top = MAX_MS if maximum is None else maximum
        checked = [check_real(f"each of {name}", value, minimum, top) for value in values]
    if kind is float and min(checked) <= 0:
        raise ValueError(f"each of {name} must be > 0, got {checked}.")
    return checked


def _sequence(name: str, values) -> list:
    """``values`` as a list, or a sentence if it cannot be one (None, a number, text)."""
    if isinstance(values, (str, bytes)):
        raise ValueError(f"{name} must be a sequence, got the text {values!r:.80}.")
    try:
        return list(values)
    except TypeError:
        raise ValueError(f"{name} must be a sequence, got {type(values).__name__}.") from None


def _machine() -> dict:
    return {"cpus": os.cpu_count(), "load_average_1min": os.getloadavg()[0]}


def _check_name(name: str) -> None:
    if not isinstance(name, str) or name not in NAMES:
        raise ValueError(f"unknown experiment {name!r}; the experiments are "
                         f"{', '.join(NAMES)}.")
