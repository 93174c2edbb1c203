"""Every tuning experiment of the chapter "Ultimate Tic-Tac-Toe: tuning a real bot".

Each change that CodinGame players report (brief: forum thread 22616 and
write-ups) is measured here with games between versions of our bot
(:mod:`mctslib.bots`), each comparison reported as games, wins / draws /
losses, score and a 95% Wilson interval:

- ``budget``: how strong is UCT at 250 ... 32,000 iterations per move against
  a fixed reference budget? (iterations)
- ``exploration``: which exploration constant c, on rewards 1/0.5/0 and
  1/0/-1, against c = 0.5 on 1/0.5/0? (iterations)
- ``win_taking``: playouts that take an immediate win, on vs off (iterations)
- ``solver``: MCTS-Solver, on vs off (iterations)
- ``reuse``: keeping the subtree between moves, on vs off (equal time, ms)
- ``centre``: X's score after the centre opening vs after a random first
  move (iterations)
- ``games_needed``: interval width against games; close values of c (0.6 vs
  0.7 as in the brief, 0.4 vs 0.5) with their running intervals and a
  sequential test, :mod:`mctslib.sprt` (iterations)
- ``openspiel``: our best bot vs OpenSpiel's C++ MCTS (equal time, ms)

Each is a function (``budget_experiment``, ``exploration_experiment``, ...)
with a small default budget that runs in seconds, for the chapter and CI;
:data:`QUICK` holds tiny budgets (tests) and :data:`FULL` the budgets of the
stored results in ``data/uttt/NAME.json``, which this command regenerates::

    python -m mctslib.experiments.uttt [--quick] [--only NAME ...] [--jobs J] [--out-dir DIR]

and :func:`load_experiment` reads back. Every result records its parameters,
seeds, scoring, ``mctslib`` version and wall time.

How the games are set up, everywhere:

* Games start from random openings of a few plies
  (:func:`mctslib.bots.random_openings`) so that they differ, each opening
  played twice with the sides swapped (:func:`mctslib.arena.play_match`); all
  comparisons of one experiment share the same openings. The centre
  experiment is the exception: it is about the first move itself.
* Scoring is CodinGame's (a game that closes every board without a line goes
  to whoever won more small boards) except against OpenSpiel, whose bot plays
  for OpenSpiel's scoring (every such game is a draw).
* Budgets are iterations per move, so results repeat exactly for the same
  seed on any machine and with any number of worker processes; tree reuse
  and the OpenSpiel match are about time, use milliseconds, and do not
  repeat exactly (the files say so: ``"reproducible": false``).
* Seeds: the match of comparison ``k`` of an experiment with seed ``s`` uses
  ``numpy.random.SeedSequence(s, spawn_key=(k,))``; the openings use
  ``SeedSequence(s, spawn_key=(2**32 - 1,))``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np

from .. import __version__, fixed_order
from .._checks import check_int, check_real
from ..arena import MatchResult, play_match
from ..bots import CENTRE, BotSpec, parse_spec, random_openings
from ..games.uttt import SCORINGS, UltimateTicTacToe
from ..sprt import SPRT
from ..stats import games_for_width, score_interval

#: Where the stored full results live (``data/uttt`` of the repository).
DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "uttt"
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
SCORE_RULE = "win 1, draw 0.5, loss 0; 95% Wilson score interval (mctslib.stats.score_interval)"


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
        The two players: a full SPEC (:mod:`mctslib.bots`) or a description.
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
        The experiment's key (:data:`EXPERIMENTS`) and the question it answers.
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
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.to_json() + "\n")
        return path

    @classmethod
    def load(cls, path) -> ExperimentResult:
        """Read a file written by :meth:`save`."""
        data = json.loads(Path(path).read_text())
        data["comparisons"] = [Comparison(**c) for c in data["comparisons"]]
        return cls(**data)


def experiment_path(name: str, directory=None) -> Path:
    """``DIRECTORY/NAME.json`` (default directory: :data:`DATA_DIR`)."""
    _check_name(name)
    return Path(DATA_DIR if directory is None else directory) / f"{name}.json"


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
    games = check_int("games", games, 2)
    seed = check_int("seed", seed, 0)
    if scoring not in SCORINGS:
        raise ValueError(f"scoring must be one of {SCORINGS}, got {scoring!r}.")
    return games, _Runner(name, seed, check_int("jobs", jobs, 1), executor, callback)


def _parameters(runner: _Runner, **values) -> dict:
    return {**values, "seed": runner.seed, "jobs": runner.jobs, "seeding": SEEDING,
            "score": SCORE_RULE}


def _finish(runner: _Runner, start: float, **fields) -> ExperimentResult:
    return ExperimentResult(name=runner.name, comparisons=list(runner.played),
                            seconds=time.perf_counter() - start, **fields)


def _numbers(name: str, values, minimum, kind=int) -> list:
    """One number or a sequence, each checked: whole numbers >= ``minimum``, or reals > 0."""
    values = [values] if isinstance(values, (int, float, np.integer, np.floating)) else list(values)
    if not values:
        raise ValueError(f"{name} must hold at least one value.")
    check = check_int if kind is int else (lambda n, v, low: check_real(n, v, low))
    checked = [check(f"each of {name}", value, minimum) for value in values]
    if kind is float and min(checked) <= 0:
        raise ValueError(f"each of {name} must be > 0, got {checked}.")
    return checked


def _machine() -> dict:
    return {"cpus": os.cpu_count(), "load_average_1min": os.getloadavg()[0]}


# ----------------------------------------------------------------------------- 1. budget


def budget_experiment(budgets: Sequence[int] = (250, 1000, 4000), reference: int = 1000,
                      games: int = 10, *, options=BASE_OPTIONS, seed: int = 1,
                      scoring: str = DEFAULT_SCORING, opening_plies: int = 2,
                      games_by_budget: dict | None = None, jobs: int = 1, executor=None,
                      callback: Callable | None = None) -> ExperimentResult:
    """Strength against iterations per move: each budget plays the same bot at ``reference``.

    Parameters
    ----------
    budgets : sequence of int
        Iterations per move of bot A, one comparison each.
    reference : int
        Iterations per move of bot B, the fixed opponent.
    games : int
        Games per comparison (pairs of games from the same opening).
    options : str or BotSpec
        Everything but the budget, the same for both bots (default: plain
        UCT, c = 0.5 on rewards 1/0.5/0).
    games_by_budget : dict, optional
        ``{budget: games}`` to play fewer (or more) games at some budgets.
    seed, scoring, opening_plies, jobs, executor, callback
        As in every experiment here: the seed of the matches and openings,
        the scoring, the plies of random opening, worker processes or an
        executor for :func:`~mctslib.arena.play_match`, and a function called
        with each :class:`Comparison` as it finishes.

    Returns
    -------
    ExperimentResult
        Summary: each budget's score, interval and the Elo difference that
        score would mean (``400 log10(s / (1 - s))``; None at 0 or 1).

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", "Speed first".
    """
    start = time.perf_counter()
    games, runner = _common("budget", games, seed, scoring, jobs, executor, callback)
    budgets = _numbers("budgets", budgets, 1)
    reference = check_int("reference (iterations per move)", reference, 1)
    games_by_budget = {check_int("a budget of games_by_budget", b, 1):
                       check_int("games in games_by_budget", n, 2)
                       for b, n in (games_by_budget or {}).items()}
    plain = _bot(options)
    opponent = _iterations(plain, reference)
    starts = _openings(max([games, *games_by_budget.values()]), opening_plies, seed, scoring)
    for budget in budgets:
        runner.match(f"iters={budget}", budget, _iterations(plain, budget), opponent, starts,
                     games_by_budget.get(budget, games))
    summary = {"reference": reference, "points": [
        {"iterations": c.value, "games": c.games, "score": c.score, "interval_95": c.interval_95,
         "elo": _elo(c.score), "elo_interval_95": [_elo(c.low), _elo(c.high)]}
        for c in runner.played]}
    return _finish(runner, start, title="score against iterations per move, vs a fixed budget",
                   scoring=scoring, reproducible=True, summary=summary, notes=[],
                   parameters=_parameters(runner, budgets=budgets, reference=reference,
                                          games=games,
                                          games_by_budget={str(budget): count for budget, count
                                                           in games_by_budget.items()},
                                          options=_without_budget(plain),
                                          opening_plies=opening_plies,
                                          openings=len(starts)))


def _elo(score: float) -> float | None:
    """The Elo difference a score means; None for 0 or 1 (infinite)."""
    if not 0.0 < score < 1.0:
        return None
    return 400.0 * math.log10(score / (1.0 - score))


# ----------------------------------------------------------------------------- 2. c


def exploration_experiment(cs: Sequence[float] = (0.2, 0.5, 1.0),
                           scales: Sequence[str] = ("01", "pm1"), iterations: int = 500,
                           games: int = 10, *, reference_c: float = 0.5,
                           reference_scale: str = "01", options=BASE_OPTIONS, seed: int = 2,
                           scoring: str = DEFAULT_SCORING, opening_plies: int = 2,
                           jobs: int = 1, executor=None,
                           callback: Callable | None = None) -> ExperimentResult:
    """A sweep of the exploration constant c under both reward scales, against one reference.

    Every bot ``(c, scale)`` plays the same opponent, c = ``reference_c`` on
    ``reference_scale``, at the same iterations per move. On rewards 1/0/-1 a
    mean's spread is twice that on 1/0.5/0, so the same balance of exploring
    and exploiting needs twice the c: the optimum should move by a factor
    of about 2 (c on 1/0/-1 explores like c/2 on 1/0.5/0).

    Returns
    -------
    ExperimentResult
        Summary per scale: the best c measured with its score and interval,
        the values of c whose interval reaches the best one's lower bound (not
        separated from it at this many games), and the vertex of a parabola
        fitted to score against log2 c over the best point and up to two
        neighbours each side; and the ratio of the two scales' optima.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", "The exploration constant".
    """
    start = time.perf_counter()
    games, runner = _common("exploration", games, seed, scoring, jobs, executor, callback)
    cs = sorted(set(_numbers("cs", cs, 0.0, kind=float)))
    scales = list(scales)
    if not scales or any(scale not in ("01", "pm1") for scale in scales):
        raise ValueError(f"scales must be one or both of '01' and 'pm1', got {scales}.")
    iterations = check_int("iterations (per move)", iterations, 1)
    plain = _iterations(_bot(options), iterations)
    reference = _bot(plain, c=reference_c, scale=reference_scale)
    starts = _openings(games, opening_plies, seed, scoring)
    for scale in scales:
        for c in cs:
            runner.match(f"c={c:g},scale={scale}", c, _bot(plain, c=c, scale=scale), reference,
                         starts, games)
    summary = {scale: _optimum([p for p in runner.played if p.label.endswith(f"scale={scale}")])
               for scale in scales}
    if set(scales) == {"01", "pm1"}:
        summary["ratio_pm1_to_01"] = {
            "best_measured": summary["pm1"]["best_c"] / summary["01"]["best_c"],
            "parabola_vertex": _ratio(summary["pm1"]["parabola_vertex_c"],
                                      summary["01"]["parabola_vertex_c"])}
    summary["rule"] = ("close_to_best: c whose interval's upper end reaches the best point's "
                       "lower end (not separated from it at this many games; a loose rule)")
    notes = [("On rewards 1/0/-1 a node's mean is 2m - 1 where m is its mean on 1/0.5/0, so "
              "UCB1 with c on 1/0/-1 ranks children exactly as c/2 does on 1/0.5/0 (up to "
              "rounding): the two curves are one curve with c scaled by 2, measured on "
              "different games. c=1 on pm1 is therefore the reference bot itself, and so is "
              "c=0.5 on 01: both should score about 0.5.")]
    return _finish(runner, start, title="exploration constant c under both reward scales",
                   scoring=scoring, reproducible=True, summary=summary, notes=notes,
                   parameters=_parameters(runner, cs=cs, scales=scales, iterations=iterations,
                                          games=games, reference=str(reference),
                                          options=str(plain), opening_plies=opening_plies,
                                          player_reported_c=PLAYER_REPORTED_C,
                                          openings=len(starts)))


def _optimum(points: list[Comparison]) -> dict:
    best = max(points, key=lambda p: p.score)
    close = [p.value for p in points if p.high >= best.low]
    return {"best_c": best.value, "best_score": best.score, "best_interval_95": best.interval_95,
            "close_to_best": close, "parabola_vertex_c": _vertex(points, points.index(best))}


def _vertex(points: list[Comparison], best: int) -> float | None:
    """Top of a parabola through score against log2 c near the best point (None if not a top)."""
    near = points[max(0, best - 2): best + 3]
    if len(near) < 3 or any(p.value <= 0 for p in near):
        return None
    x = [math.log2(p.value) for p in near]
    curvature, slope = _parabola(x, [p.score for p in near])
    if curvature >= 0:
        return None
    top = float(-slope / (2 * curvature))
    return 2.0 ** top if min(x) <= top <= max(x) else None


def _parabola(x: list[float], y: list[float]) -> tuple[Fraction, Fraction]:
    """Curvature and slope of the least-squares parabola through the points, exactly.

    The normal equations are solved in rational arithmetic (Cramer's rule on
    the 3x3 system), so the stored vertex does not depend on the LAPACK and
    BLAS kernels that ``numpy.polyfit`` would call.
    """
    xs, ys = [Fraction(v) for v in x], [Fraction(v) for v in y]
    power = [sum(v ** k for v in xs) for k in range(5)]  # sum of x^k, k = 0..4
    moment = [sum(v ** k * w for v, w in zip(xs, ys)) for k in range(3)]
    matrix = [[power[4], power[3], power[2]], [power[3], power[2], power[1]],
              [power[2], power[1], power[0]]]
    right = [moment[2], moment[1], moment[0]]

    def determinant(m):
        return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))

    def with_right_in(column):  # Cramer's rule: the right-hand side replaces one column
        return [[right[i] if j == column else matrix[i][j] for j in range(3)] for i in range(3)]

    whole = determinant(matrix)
    return determinant(with_right_in(0)) / whole, determinant(with_right_in(1)) / whole


def _ratio(top, bottom):
    return None if top is None or bottom is None else top / bottom


# ----------------------------------------------------------------------------- 3. options


def _on_off(name, option, given, games, options, seed, scoring, opening_plies, jobs, executor,
            callback, title, by_time=False) -> ExperimentResult:
    """Bot A has ``option`` on, bot B off, everything else equal, one comparison per budget.

    ``given`` is the budget as the caller gave it (iterations, or ms if
    ``by_time``): one number or a sequence, recorded as given.
    """
    start = time.perf_counter()
    games, runner = _common(name, games, seed, scoring, jobs, executor, callback)
    argument = "ms" if by_time else "iterations"
    budgets = _numbers(argument, given, 0.0 if by_time else 1, kind=float if by_time else int)
    budget_of = _milliseconds if by_time else _iterations
    unit = "ms" if by_time else "iters"
    plain = _bot(options)
    starts = _openings(games, opening_plies, seed, scoring)
    machine_before = _machine()
    for budget in budgets:
        runner.match(f"{option}=on vs off, {unit}={budget:g}", budget,
                     budget_of(_bot(plain, **{option: True}), budget),
                     budget_of(_bot(plain, **{option: False}), budget), starts, games)
    if by_time:
        notes = [("Both bots stop on the clock, so the result depends on the machine and its "
                  "load and does not repeat exactly with the same seed; games ran in parallel "
                  "worker processes (jobs), which share the cores with each other and anything "
                  "else running.")]
    else:
        notes = [("Equal iterations per move: an option that makes each iteration slower gets "
                  "that time for free; compare the measured ms per move.")]
    summary = {"points": [{unit: c.value, "games": c.games, "score": c.score,
                           "interval_95": c.interval_95, "distinguishable": c.excludes_half()}
                          for c in runner.played]}
    single = isinstance(given, (int, float, np.integer, np.floating))
    parameters = _parameters(runner, option=option, budget_unit=unit, games=games,
                             **{argument: budgets[0] if single else budgets},
                             options=_without_budget(plain), opening_plies=opening_plies,
                             openings=len(starts))
    if by_time:
        parameters["machine_before"], parameters["machine_after"] = machine_before, _machine()
    return _finish(runner, start, title=title, scoring=scoring, reproducible=not by_time,
                   summary=summary, notes=notes, parameters=parameters)


def win_taking_experiment(iterations=1000, games: int = 10, *, options=BASE_OPTIONS,
                          seed: int = 3, scoring: str = DEFAULT_SCORING, opening_plies: int = 2,
                          jobs: int = 1, executor=None, callback=None) -> ExperimentResult:
    """Taking an immediate win (``wins=on``: in playouts and in the tree) against not taking it.

    ``iterations`` (an int or a sequence: one comparison each) is the budget
    of both bots. Other parameters as in :func:`budget_experiment`.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", win-taking playouts.
    """
    return _on_off("win_taking", "wins", iterations, games, options, seed, scoring,
                   opening_plies, jobs, executor, callback,
                   "win-taking playouts on vs off at equal iterations")


def solver_experiment(iterations=1000, games: int = 10, *, options=BASE_OPTIONS, seed: int = 4,
                      scoring: str = DEFAULT_SCORING, opening_plies: int = 2, jobs: int = 1,
                      executor=None, callback=None) -> ExperimentResult:
    """MCTS-Solver on (``solver=on``) against off, at equal iterations per move.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", MCTS-Solver.
    """
    return _on_off("solver", "solver", iterations, games, options, seed, scoring, opening_plies,
                   jobs, executor, callback, "MCTS-Solver on vs off at equal iterations")


def reuse_experiment(ms=10.0, games: int = 10, *, options=BASE_OPTIONS, seed: int = 5,
                     scoring: str = DEFAULT_SCORING, opening_plies: int = 2, jobs: int = 1,
                     executor=None, callback=None) -> ExperimentResult:
    """Tree reuse on against off at equal time per move (``ms``, the same for every move).

    Reuse only pays in time: with a fixed iteration count the kept subtree
    would simply be extra iterations. So both bots stop on the clock, and the
    result does not repeat exactly (recorded as ``reproducible: false``, with
    the machine's load before and after).

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", tree reuse.
    """
    return _on_off("reuse", "reuse", ms, games, options, seed, scoring, opening_plies, jobs,
                   executor, callback, "tree reuse on vs off at equal time per move",
                   by_time=True)


def centre_experiment(iterations: int = 500, games: int = 8, *, options=BASE_OPTIONS,
                      seed: int = 6, scoring: str = DEFAULT_SCORING, jobs: int = 1,
                      executor=None, callback=None) -> ExperimentResult:
    """X's score after the centre opening against X's score after a random first move.

    The same bot plays both sides. In the first comparison X has played the
    centre cell of the centre board (row 4, col 4); in the second a uniformly
    random first move: the 81 first moves in a seeded random order, each
    played twice with the bots' seats swapped (``games`` a multiple of 162
    covers every first move equally often). Both comparisons count X's
    results (``perspective="X"``).

    Returns
    -------
    ExperimentResult
        Summary: both X scores, and their difference with a 95% normal
        interval from the two samples' per-game variances.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", the opening.
    """
    start = time.perf_counter()
    games, runner = _common("centre", games, seed, scoring, jobs, executor, callback)
    iterations = check_int("iterations (per move)", iterations, 1)
    bot = _iterations(_bot(options), iterations)
    empty = UltimateTicTacToe(scoring=scoring)
    firsts = [empty.play(move) for move in empty.legal_moves()]
    order = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(OPENINGS_STREAM,)))
    firsts = [firsts[i] for i in order.permutation(len(firsts))]
    centre = runner.match("centre", CENTRE, bot, bot, [empty.play(CENTRE)], games,
                          perspective="X")
    random_first = runner.match("random first move", "random", bot, bot, firsts, games,
                                perspective="X")
    difference, low, high = _difference(centre.results, random_first.results)
    summary = {"x_score_centre": centre.score, "x_score_random_first": random_first.score,
               "difference": difference, "difference_interval_95": [low, high],
               "difference_rule": "normal approximation, per-game variances of both samples"}
    return _finish(runner, start, title="X's score: centre opening vs a random first move",
                   scoring=scoring, reproducible=True, summary=summary, notes=[
                       "Both sides are the same bot; results are X's (the first player's)."],
                   parameters=_parameters(runner, iterations=iterations, games=games,
                                          bot=str(bot), first_moves=len(firsts)))


def _difference(first: str, second: str) -> tuple[float, float, float]:
    """Difference of two mean scores (W/D/L letters) with a 95% normal interval."""
    samples = [[{"W": 1.0, "D": 0.5, "L": 0.0}[x] for x in s] for s in (first, second)]
    # fixed_order: correctly rounded sums, so the stored interval is the same on every machine.
    difference = fixed_order.mean(samples[0]) - fixed_order.mean(samples[1])
    error = math.sqrt(sum(fixed_order.sample_variance(s) / len(s) for s in samples))
    return float(difference), float(difference - 1.96 * error), float(difference + 1.96 * error)


# ----------------------------------------------------------------------------- 4. games


#: Games at which the chapter reads the interval width.
WIDTH_GAMES = (10, 20, 50, 100, 200, 400, 1000, 2000, 5000, 10000)
#: Interval widths whose games the chapter lists.
WIDTHS = (0.2, 0.1, 0.05, 0.02)


def games_needed_experiment(games: int = 20, pairs: Sequence[Sequence[float]] = ((0.6, 0.7),),
                            iterations: int = 500, *, options=BASE_OPTIONS,
                            sprt_p0: float = 0.45, sprt_p1: float = 0.55,
                            sprt_alpha: float = 0.05, sprt_beta: float = 0.05,
                            width_games: Sequence[int] = WIDTH_GAMES,
                            widths: Sequence[float] = WIDTHS, seed: int = 7,
                            scoring: str = DEFAULT_SCORING, opening_plies: int = 2, jobs: int = 1,
                            executor=None, callback=None) -> ExperimentResult:
    """How many games a decision needs: widths by formula, and close settings played out.

    Computed (no games): the 95% Wilson interval's width at a score of 0.5
    after each number of ``width_games``, and the games
    :func:`~mctslib.stats.games_for_width` gives for each of ``widths``.
    Played: for each pair ``(c_a, c_b)`` of ``pairs`` (default the brief's
    0.6 vs 0.7), ``games`` games of c = c_a against c = c_b, with the
    interval after 10, 20, 50, 100 games and every 100 after, and Wald's
    sequential test (:mod:`mctslib.sprt`) run on the same games in order,
    reporting when (if) it stops.

    Returns
    -------
    ExperimentResult
        Summary: ``width_vs_games``, ``games_for_width``, and under
        ``pairs`` for each comparison's label its ``running`` intervals,
        ``decided_at_end`` (the final interval leaves out 0.5) and ``sprt``.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", "How many games a decision needs".
    """
    start = time.perf_counter()
    games, runner = _common("games_needed", games, seed, scoring, jobs, executor, callback)
    iterations = check_int("iterations (per move)", iterations, 1)
    pairs = _pairs(pairs)
    test = SPRT(sprt_p0, sprt_p1, sprt_alpha, sprt_beta)
    plain = _iterations(_bot(options), iterations)
    starts = _openings(games, opening_plies, seed, scoring)
    played = {}
    for c_a, c_b in pairs:
        match = runner.match(f"c={c_a:g} vs c={c_b:g}", c_a, _bot(plain, c=c_a),
                             _bot(plain, c=c_b), starts, games)
        played[match.label] = {
            "running": [_running(match.results, n) for n in _checkpoints(games)],
            "decided_at_end": match.excludes_half(),
            "sprt": test.run(match.results).as_dict(),
        }
    summary = {
        "width_vs_games": [_width_at_half(check_int("each of width_games", n, 2))
                           for n in width_games],
        "games_for_width": [{"width": w, "games": games_for_width(w)} for w in widths],
        "pairs": played,
    }
    return _finish(runner, start, title="how many games a decision needs", scoring=scoring,
                   reproducible=True, summary=summary, notes=[],
                   parameters=_parameters(runner, games=games, pairs=[list(p) for p in pairs],
                                          iterations=iterations, options=str(plain),
                                          sprt={"p0": test.p0, "p1": test.p1,
                                                "alpha": test.alpha, "beta": test.beta},
                                          width_games=list(width_games), widths=list(widths),
                                          opening_plies=opening_plies, openings=len(starts)))


def _pairs(pairs) -> list[tuple[float, float]]:
    checked = []
    for pair in pairs:
        if isinstance(pair, (str, bytes)) or len(pair) != 2:
            raise ValueError(f"pairs must hold pairs (c_a, c_b) of exploration constants, "
                             f"got {pair!r}.")
        checked.append(tuple(check_real("each c of pairs", c, 0.0) for c in pair))
    if not checked:
        raise ValueError("pairs must hold at least one pair (c_a, c_b).")
    return checked


def _width_at_half(games: int) -> dict:
    """The 95% Wilson interval when half the games are won and half lost."""
    wins = games // 2
    _, low, high = score_interval(wins, games - 2 * wins, wins)
    return {"games": games, "interval_95": [low, high], "width": high - low}


def _checkpoints(games: int) -> list[int]:
    marks = [n for n in (10, 20, 50) if n < games] + list(range(100, games, 100))
    return [*marks, games]


def _running(results: str, games: int) -> dict:
    played = results[:games]
    score, low, high = score_interval(played.count("W"), played.count("D"), played.count("L"))
    return {"games": games, "score": score, "interval_95": [low, high],
            "excludes_half": high < 0.5 or low > 0.5}


# ----------------------------------------------------------------------------- 5. OpenSpiel


def openspiel_experiment(ms: float = 20.0, games: int = 4, *, options=BEST_OPTIONS,
                         openspiel_budget: str = "clock", simulations: int | None = None,
                         uct_c: float | None = None, calibration_positions: int = 8,
                         seed: int = 8, opening_plies: int = 2, jobs: int = 1, executor=None,
                         callback=None) -> ExperimentResult:
    """Our best bot against OpenSpiel's C++ MCTS (``pyspiel.MCTSBot``) at equal time per move.

    Our bot gets ``ms`` milliseconds for every move. OpenSpiel's bot
    (:class:`mctslib.openspiel_player.OpenSpielMCTS`, random rollouts, its
    solver on) gets, by ``openspiel_budget``:

    * ``"clock"`` (default): the same ``ms`` per move on its own clock, as a
      referee would give both players;
    * ``"calibrated"``: the simulation count that takes it as long here,
      measured just before the games by
      :func:`mctslib.openspiel_player.calibrate_against` on
      ``calibration_positions`` seeded positions (a fixed count: its time per
      move in the games is only about equal to ours);

    or exactly ``simulations`` per move if given. Games use OpenSpiel's
    scoring (a game that closes every board without a line is a draw), which
    its bot plays for.

    Returns
    -------
    ExperimentResult
        Summary: both bots' measured ms per move in the games, the
        calibration if there was one, and whether the interval leaves out 0.5.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", our bot against OpenSpiel.
    """
    from .. import openspiel_player as spiel  # imported here: pyspiel loads in about a second

    start = time.perf_counter()
    games, runner = _common("openspiel", games, seed, "openspiel", jobs, executor, callback)
    ms = _numbers("ms", ms, 0.0, kind=float)[0]
    if openspiel_budget not in ("clock", "calibrated"):
        raise ValueError(f"openspiel_budget must be 'clock' or 'calibrated', "
                         f"got {openspiel_budget!r}.")
    uct_c = spiel.DEFAULT_UCT_C if uct_c is None else check_real("uct_c", uct_c, 0.0)
    ours = _milliseconds(_bot(options), ms)
    machine_before = _machine()
    calibration = None
    if simulations is not None:
        theirs = spiel.OpenSpielMCTS(check_int("simulations", simulations, 2), uct_c=uct_c)
    elif openspiel_budget == "clock":
        theirs = spiel.OpenSpielMCTS(None, uct_c=uct_c, seconds=ms / 1000.0)
    else:
        count = check_int("calibration_positions", calibration_positions, 1)
        positions = spiel.calibration_positions(count, max_ply=40, seed=seed)
        calibration = spiel.calibrate_against(ours, positions, seed=seed, uct_c=uct_c)
        theirs = spiel.OpenSpielMCTS(calibration.simulations, uct_c=uct_c)
    starts = _openings(games, opening_plies, seed, "openspiel")
    match = runner.match(f"ours {ms:g} ms vs OpenSpiel", ms, ours, theirs, starts, games)
    summary = {"calibration": None if calibration is None else asdict(calibration),
               "ms_per_move_in_games": {"ours": 1000 * match.seconds_per_move[0],
                                        "openspiel": 1000 * match.seconds_per_move[1]},
               "distinguishable": match.excludes_half()}
    return _finish(runner, start, title="our best bot vs OpenSpiel's C++ MCTS at equal time",
                   scoring="openspiel", reproducible=False, summary=summary,
                   notes=_openspiel_notes(theirs),
                   parameters=_parameters(runner, ms=ms, games=games, ours=str(ours),
                                          openspiel=theirs.describe(),
                                          openspiel_budget=("simulations" if simulations
                                                            else openspiel_budget),
                                          simulations=theirs.simulations, uct_c=uct_c,
                                          calibration_positions=calibration_positions,
                                          opening_plies=opening_plies, openings=len(starts),
                                          machine_before=machine_before,
                                          machine_after=_machine()))


def _openspiel_notes(theirs) -> list[str]:
    if theirs.simulations is None:
        budget = ("Both bots stop on their own clocks, so load on the machine costs both of "
                  "them search; each stops early when its root is solved (compare the "
                  "measured ms per move).")
    else:
        budget = ("Our bot stops on the clock; OpenSpiel's runs a fixed number of simulations. "
                  "Load on the machine costs our bot iterations while OpenSpiel's bot simply "
                  "takes longer, and the count buys OpenSpiel less time late in a game; "
                  "compare the measured ms per move.")
    return [budget,
            ("OpenSpiel's player is described in parameters.openspiel: a free-choice turn is "
             "two OpenSpiel actions (board, then cell); times are per whole move."),
            "Not reproducible exactly: our bot's budget is time."]


# ----------------------------------------------------------------------------- registry

#: Experiment name -> function, in the order the chapter uses them.
EXPERIMENTS = {
    "budget": budget_experiment,
    "exploration": exploration_experiment,
    "win_taking": win_taking_experiment,
    "solver": solver_experiment,
    "reuse": reuse_experiment,
    "centre": centre_experiment,
    "games_needed": games_needed_experiment,
    "openspiel": openspiel_experiment,
}

#: Tiny budgets: every experiment in a few seconds (tests, CI's smoke run of the command).
QUICK = {
    "budget": {"budgets": (50, 200), "reference": 100, "games": 2},
    "exploration": {"cs": (0.5, 1.0), "scales": ("01", "pm1"), "iterations": 100, "games": 2},
    "win_taking": {"iterations": 100, "games": 2},
    "solver": {"iterations": 100, "games": 2},
    "reuse": {"ms": 2.0, "games": 2},
    "centre": {"iterations": 100, "games": 2},
    "games_needed": {"games": 4, "iterations": 100, "pairs": ((0.6, 0.7),)},
    "openspiel": {"ms": 5.0, "games": 2},
}

#: The budgets of the stored results (data/uttt/NAME.json), chosen to fit well inside 25 minutes
#: with 2 jobs on a 2-core machine shared with other work (measured: 9.7 minutes lightly
#: loaded, 14.5 minutes at a load average of 4-6; a game between two 1,000-iteration bots
#: takes 0.05-0.1 s of wall time per job). 200 games per comparison,
#: except: 400 for the on/off decisions (win_taking, solver, reuse) and for each close call of
#: games_needed; 100 and 40 at the costly 8,000-32,000-iteration points (scores near 1, where
#: the interval is narrow anyway); 162 per centre comparison (each first move twice); 200
#: against OpenSpiel (100 ms per move: the slowest games, about 7 minutes with 2 jobs).
FULL = {
    "budget": {"budgets": (250, 500, 1000, 2000, 4000, 8000, 16000, 32000),
               "reference": 1000, "games": 200,
               "games_by_budget": {8000: 100, 16000: 100, 32000: 40}},
    "exploration": {"cs": (0.1, 0.2, 0.3, math.sqrt(2.0) - 1.0, 0.5, 0.7, 1.0, 1.4, 2.0),
                    "scales": ("01", "pm1"), "iterations": 1000, "games": 200},
    "win_taking": {"iterations": 1000, "games": 400},
    "solver": {"iterations": 1000, "games": 400},
    "reuse": {"ms": 10.0, "games": 400},
    "centre": {"iterations": 1000, "games": 162},
    "games_needed": {"games": 400, "iterations": 1000, "pairs": ((0.6, 0.7), (0.4, 0.5))},
    "openspiel": {"ms": 100.0, "games": 200, "openspiel_budget": "clock"},
}
BUDGETS = {"quick": QUICK, "full": FULL}


def _check_name(name: str) -> None:
    if name not in EXPERIMENTS:
        raise ValueError(f"unknown experiment {name!r}; the experiments are "
                         f"{', '.join(EXPERIMENTS)}.")


def run_experiment(name: str, budget: str = "full", jobs: int = 1, executor=None,
                   callback: Callable | None = None) -> ExperimentResult:
    """Run experiment ``name`` at the ``"quick"`` or ``"full"`` budget.

    The budgets are :data:`QUICK` and :data:`FULL`; ``jobs``, ``executor`` and
    ``callback`` go to the experiment function.
    """
    _check_name(name)
    if budget not in BUDGETS:
        raise ValueError(f"budget must be 'quick' or 'full', got {budget!r}.")
    result = EXPERIMENTS[name](**BUDGETS[budget][name], jobs=jobs, executor=executor,
                               callback=callback)
    return dataclasses.replace(result, budget=budget)


# ----------------------------------------------------------------------------- command line


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m mctslib.experiments.uttt",
        description=("Regenerate the stored results of the Ultimate Tic-Tac-Toe chapter's "
                     "experiments (" + ", ".join(EXPERIMENTS) + ") as data/uttt/NAME.json. "
                     "The full budgets take 10-15 minutes with --jobs 2 on 2 cores "
                     "(measured: 9.7 minutes on a lightly loaded machine, 14.5 minutes on one "
                     "shared with other work)."))
    parser.add_argument("--quick", action="store_true",
                        help="tiny budgets (seconds); writes files only if --out-dir is given")
    parser.add_argument("--only", nargs="+", choices=list(EXPERIMENTS), metavar="NAME",
                        help="run only these experiments (default: all)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="worker processes (default: every core this process may use)")
    parser.add_argument("--out-dir", default=None,
                        help="where to write NAME.json (default: data/uttt of the repository "
                             "for full runs; nowhere for --quick)")
    return parser


def main(argv=None) -> int:
    from ..arena import default_jobs

    args = build_parser().parse_args(argv)
    jobs = default_jobs() if args.jobs is None else args.jobs
    if jobs < 1:
        print(f"error: --jobs must be at least 1, got {jobs}.", file=sys.stderr)
        return 2
    budget = "quick" if args.quick else "full"
    out_dir = args.out_dir or (None if args.quick else DATA_DIR)
    names = args.only or list(EXPERIMENTS)
    start = time.perf_counter()
    executor = ProcessPoolExecutor(max_workers=jobs) if jobs > 1 else None
    try:
        for name in names:
            print(f"== {name} ({budget} budget, {jobs} job{'s' if jobs > 1 else ''})",
                  flush=True)
            result = run_experiment(name, budget, jobs, executor,
                                    callback=lambda c: print(f"   {c} ({c.seconds:.1f} s)",
                                                                    flush=True))
            print(result.table())
            print(f"   {result.seconds:.1f} s", flush=True)
            if out_dir is not None:
                print(f"   wrote {result.save(experiment_path(name, out_dir))}")
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    print(f"{len(names)} experiment{'s' if len(names) > 1 else ''} in "
          f"{time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
