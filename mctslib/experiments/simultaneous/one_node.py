"""Distance from equilibrium over rounds: decoupled UCB1 vs regret matching at one node.

The simultaneous-moves chapter lets two learners of the same kind play the
weighted rock-paper-scissors game (:func:`~mctslib.games.matrix_games.weighted_rock_paper_scissors`)
against each other and measures, at log-spaced checkpoints, how far their
average strategies are from the equilibrium, on several seeds, next to the
floor that 10% uniform exploration alone would impose
(:func:`~mctslib.search.zero_sum.exploration_floor`).

:func:`one_node_experiment` runs it with a small default budget (100,000
rounds: seconds); the command line runs the full budget and stores it::

    python -m mctslib.experiments.simultaneous.one_node --out data/simultaneous/one_node.json

(10,000,000 rounds, seeds 0-4, both learners, both kinds of outcome; about
ten seconds with numba). :func:`load_one_node_experiment` reads the file back.

Why one module of about 650 lines: :func:`run_one_node`, the experiment that stores many of
its runs, the parameter sweep and the mix paths drawn in the chapter share their checks,
checkpoints and file format.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ..._checks import check_choice, check_int, check_real
from ..._version import __version__
from ...fixed_order import geometric_points
from ...games.matrix_games import MatrixGame, weighted_rock_paper_scissors
from ...learners.simultaneous import (
    DEFAULT_EXPLORATION,
    ENGINES,
    LEARNERS,
    ONE_NODE_LEARNERS,
    OUTCOMES,
    check_exploration,
    make_match,
    make_players,
    stream_for_seed,
)
from ...learners.ucb1 import SQRT2
from ...progress import progress_bar
from ...search.minimax import check_budget
from ...search.zero_sum import exploitability, exploration_floor, solve_zero_sum

#: The longest run accepted, in rounds: about a minute per run with numba (the
#: stored runs have 10,000,000); far longer would keep a chapter waiting for hours.
MAX_ROUNDS = 1_000_000_000
#: The most checkpoints per factor of 10 (each one measures both mixes).
MAX_PER_DECADE = 1000

# --------------------------------------------------------------------------- one run


# --------------------------------------------------------------------------- runs


def log_checkpoints(rounds: int, first: int = 1000, per_decade: int = 10) -> np.ndarray:
    """Rounds at which a run measures its distance: log-spaced from ``first`` to ``rounds``.

    ``per_decade`` points per factor of 10, rounded to whole rounds,
    duplicates removed; always ends with ``rounds``. If ``rounds < first``
    the only checkpoint is ``rounds``.
    """
    rounds = check_budget("rounds", rounds, 1, MAX_ROUNDS)
    first = check_int("first", first, 1)
    per_decade = check_budget("per_decade", per_decade, 1, MAX_PER_DECADE)
    if rounds <= first:
        return np.array([rounds], dtype=np.int64)
    decades = math.log10(rounds / first)
    count = max(2, math.ceil(decades * per_decade) + 1)
    points = np.round(geometric_points(first, rounds, count)).astype(np.int64)
    points[-1] = rounds
    return np.unique(points)


@dataclass(frozen=True)
class OneNodeRun:
    """One run of two learners at one node, measured at checkpoints.

    Attributes
    ----------
    learner, outcomes, engine : str
    seed : int
    checkpoints : numpy.ndarray
        Rounds played at each measurement (increasing, the last is the run's length).
    average_distance : numpy.ndarray
        :func:`~mctslib.search.zero_sum.exploitability` of the pair of average
        strategies (move frequencies) at each checkpoint.
    current_distance : numpy.ndarray
        The same for the pair of current strategies (what each would play next).
    row_average, column_average, row_current, column_current : numpy.ndarray
        The four strategies at the end of the run.
    """

    learner: str
    outcomes: str
    engine: str
    seed: int
    checkpoints: np.ndarray
    average_distance: np.ndarray
    current_distance: np.ndarray
    row_average: np.ndarray
    column_average: np.ndarray
    row_current: np.ndarray
    column_current: np.ndarray

    @property
    def final_distance(self) -> float:
        """Distance of the average strategies at the end of the run."""
        return float(self.average_distance[-1])


def run_one_node(game: MatrixGame, learner: str, rounds: int, seed, *,
                 exploration: float = DEFAULT_EXPLORATION, c: float = SQRT2,
                 outcomes: str = "payoff", checkpoints=None, engine: str = "numba",
                 callback: Callable[[int, float, float], None] | None = None) -> OneNodeRun:
    """Let two learners of kind ``learner`` play ``game`` for ``rounds`` rounds.

    Parameters
    ----------
    game : MatrixGame
    learner : {"ucb1", "regret_matching", "exp3"}
        Both players use this rule (each with its own statistics); Exp3 runs
        on ``engine="python"`` only.
    rounds : int
        Rounds to play, from 1 to :data:`MAX_ROUNDS`.
    seed : int, SeedSequence or Generator
        Seeds the run's xorshift64 stream (:func:`stream_for_seed`).
    exploration : float
        Regret matching's uniform share, in ``(0, 1]`` (ignored by UCB1).
    c : float
        UCB1's exploration constant, ``>= 0`` (ignored by regret matching).
    outcomes : {"payoff", "win_loss"}
        Exact rescaled payoffs, or a win or a loss drawn with those chances
        (see the module's notes).
    checkpoints : sequence of int, optional
        Increasing rounds in ``1 .. rounds`` at which to measure (default
        :func:`log_checkpoints` from 1,000, ten per decade).
    engine : {"numba", "python"}
        The numba twin (fast) or the readable reference; both give identical runs.
    callback : callable, optional
        Called as ``callback(rounds_played, average_distance, current_distance)``
        at each checkpoint, e.g. to update a live plot.

    Returns
    -------
    OneNodeRun

    Notes
    -----
    The run stops at each checkpoint, reads both players' statistics and
    measures the distances in Python with the same code for both engines.
    Simultaneous-moves chapter.
    """
    if not isinstance(game, MatrixGame):
        raise ValueError(f"game must be a MatrixGame, got {type(game).__name__}.")
    learner = check_choice("learner", learner, ONE_NODE_LEARNERS)
    engine = check_choice("engine", engine, ENGINES)
    outcomes = check_choice("outcomes", outcomes, OUTCOMES)
    rounds = check_budget("rounds", rounds, 1, MAX_ROUNDS)
    checkpoints = _check_checkpoints(checkpoints, rounds)
    _check_callback(callback)
    row_player, column_player = make_players(game, learner, exploration, c)
    stream = stream_for_seed(seed)
    match = make_match(game, row_player, column_player, stream, outcomes == "win_loss", engine)
    average, current = [], []
    played = 0
    for checkpoint in checkpoints:
        match.play(int(checkpoint) - played)
        played = int(checkpoint)
        row_player, column_player = match.players()
        average.append(exploitability(game, row_player.average_strategy(),
                                      column_player.average_strategy()))
        current.append(exploitability(game, row_player.strategy(), column_player.strategy()))
        if callback is not None:
            callback(played, average[-1], current[-1])
    return OneNodeRun(
        learner, outcomes, engine, _seed_label(seed), checkpoints, np.array(average), np.array(current),
        np.array(row_player.average_strategy()), np.array(column_player.average_strategy()),
        np.array(row_player.strategy()), np.array(column_player.strategy()),
    )


@dataclass(frozen=True)
class MixPath:
    """Both players' average mixes at each checkpoint of one run (for pictures of the run).

    ``checkpoints[k]`` rounds had been played when ``row_mixes[k]``, ``column_mixes[k]`` and
    ``distances[k]`` (their :func:`~mctslib.search.zero_sum.exploitability`) were read.
    """

    learner: str
    outcomes: str
    seed: int
    checkpoints: tuple
    row_mixes: tuple
    column_mixes: tuple
    distances: tuple


def mix_path(game: MatrixGame, learner: str, rounds: int, seed, *, checkpoints=None,
             outcomes: str = "win_loss", exploration: float = DEFAULT_EXPLORATION,
             c: float = SQRT2) -> MixPath:
    """One run of :func:`run_one_node`, keeping both average mixes at every checkpoint.

    The same run (same stream, same rules) as ``run_one_node`` with these arguments, on the
    numba engine for UCB1 and regret matching and the readable one for Exp3; the chapter
    draws its mixes moving on the triangle, one frame per checkpoint
    (:func:`mctslib.views.simplex.draw_mix_paths`). Simultaneous-moves chapter.
    """
    if not isinstance(game, MatrixGame):
        raise ValueError(f"game must be a MatrixGame, got {type(game).__name__}.")
    learner = check_choice("learner", learner, ONE_NODE_LEARNERS)
    outcomes = check_choice("outcomes", outcomes, OUTCOMES)
    rounds = check_budget("rounds", rounds, 1, MAX_ROUNDS)
    checkpoints = _check_checkpoints(checkpoints, rounds)
    row_player, column_player = make_players(game, learner, exploration, c)
    engine = "python" if learner == "exp3" else "numba"  # Exp3 has no numba twin
    match = make_match(game, row_player, column_player, stream_for_seed(seed),
                       outcomes == "win_loss", engine)
    rows, columns, distances, played = [], [], [], 0
    for checkpoint in checkpoints:
        match.play(int(checkpoint) - played)
        played = int(checkpoint)
        row_player, column_player = match.players()
        rows.append(tuple(row_player.average_strategy()))
        columns.append(tuple(column_player.average_strategy()))
        distances.append(exploitability(game, rows[-1], columns[-1]))
    return MixPath(learner, outcomes, _seed_label(seed), tuple(int(p) for p in checkpoints),
                   tuple(rows), tuple(columns), tuple(distances))


def _check_callback(callback) -> None:
    if callback is not None and not callable(callback):
        raise ValueError(f"callback must be a function or None, got {type(callback).__name__}.")


def _check_checkpoints(checkpoints, rounds: int) -> np.ndarray:
    if checkpoints is None:
        return log_checkpoints(rounds)
    points = [check_int("each checkpoint", point, 1) for point in _sequence("checkpoints",
                                                                            checkpoints)]
    if not points or any(b <= a for a, b in itertools.pairwise(points)) or points[-1] > rounds:
        raise ValueError(
            f"checkpoints must be increasing whole numbers in 1..rounds ({rounds}), got {points}."
        )
    return np.array(points, dtype=np.int64)


def _seed_label(seed):
    """The seed as stored in a result (an int stays an int; other seeds are described)."""
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return int(seed)
    return repr(seed)


# --------------------------------------------------------------------------- the experiment


#: The chapter's budget (seconds) and the stored run's budget.
SMALL_ROUNDS = 100_000
FULL_ROUNDS = 10_000_000
SEEDS = (0, 1, 2, 3, 4)
FIRST_CHECKPOINT = 1_000
PER_DECADE = 10


@dataclass(frozen=True)
class OneNodeExperiment:
    """Everything one experiment produced, JSON-ready.

    Attributes
    ----------
    parameters : dict
        Game (name, move names, payoffs), learners, outcomes, rounds, seeds,
        exploration, c, checkpoints' spacing, engine.
    equilibrium : dict
        ``row_strategy``, ``column_strategy`` and ``value`` from the linear program.
    exploration_floor : float
        Distance of the equilibrium mixed 90/10 (for 10% exploration) with uniform.
    runs : list of dict
        One per (learner, outcomes, seed): ``checkpoints``, ``average_distance``,
        ``current_distance`` and the four final strategies.
    seconds : float
        Wall-clock time of the whole experiment.
    mctslib_version : str
    """

    parameters: dict
    equilibrium: dict
    exploration_floor: float
    runs: list
    seconds: float
    mctslib_version: str

    def run(self, learner: str, outcomes: str, seed: int) -> dict:
        """The stored run of ``learner`` with ``outcomes`` on ``seed``."""
        for record in self.runs:
            if (record["learner"], record["outcomes"], record["seed"]) == (learner, outcomes, seed):
                return record
        raise ValueError(f"no run of {learner!r} with {outcomes!r} outcomes on seed {seed!r}.")

    def curves(self, learner: str, outcomes: str = "payoff") -> tuple[np.ndarray, np.ndarray]:
        """Checkpoints and the average strategies' distance, one row per seed."""
        records = [self.run(learner, outcomes, seed) for seed in self.parameters["seeds"]]
        return (np.array(records[0]["checkpoints"]),
                np.array([record["average_distance"] for record in records]))

    def final_distances(self, learner: str, outcomes: str = "payoff") -> np.ndarray:
        """The average strategies' distance at the last checkpoint, one per seed."""
        return self.curves(learner, outcomes)[1][:, -1]

    def summary(self) -> str:
        """Final distances per seed and learner, the floor, and how they compare (plain text)."""
        floor = self.exploration_floor
        seeds = self.parameters["seeds"]
        lines = [
            (f"{self.parameters['game']['name']}, {self.parameters['rounds']:,} rounds, "
             f"seeds {', '.join(map(str, seeds))}"),
            f"floor of {self.parameters['exploration']:.0%} uniform exploration: {floor:.4f}",
        ]
        for outcomes in self.parameters["outcomes"]:
            medians = {}
            for learner in self.parameters["learners"]:
                finals = self.final_distances(learner, outcomes)
                medians[learner] = float(np.median(finals))
                below = int(np.sum(finals < floor))
                lines.append(
                    f"{outcomes:>8} {learner:>15}: final distance "
                    + " ".join(f"{value:.4f}" for value in finals)
                    + f"  (median {medians[learner]:.4f}; {below} of {len(finals)} below the floor)"
                )
            if {"ucb1", "regret_matching"} <= medians.keys() and medians["regret_matching"] > 0:
                lines.append(f"{outcomes:>8} median UCB1 / median regret matching: "
                             f"{medians['ucb1'] / medians['regret_matching']:.1f}x")
        return "\n".join(lines)

    def to_json(self) -> str:
        """The experiment as JSON text (every float written exactly)."""
        return json.dumps(asdict(self), indent=1)


def one_node_experiment(rounds: int = SMALL_ROUNDS, seeds: Sequence[int] = SEEDS, *,
                        learners: Sequence[str] = LEARNERS,
                        outcomes: Sequence[str] = OUTCOMES,
                        game: MatrixGame | None = None,
                        exploration: float = DEFAULT_EXPLORATION, c: float = SQRT2,
                        first_checkpoint: int = FIRST_CHECKPOINT, per_decade: int = PER_DECADE,
                        engine: str = "numba",
                        callback: Callable[[str, str, int, int, float, float], None] | None = None,
                        ) -> OneNodeExperiment:
    """Distance from equilibrium over rounds for each learner, kind of outcome and seed.

    Parameters
    ----------
    rounds : int
        Rounds per run (default 100,000: seconds; the stored run uses 10,000,000;
        at most :data:`MAX_ROUNDS`).
    seeds : sequence of int
        One run per seed for each learner and kind of outcome (default 0-4).
    learners : sequence of {"ucb1", "regret_matching"}
    outcomes : sequence of {"payoff", "win_loss"}
        See :mod:`mctslib.learners.simultaneous` (default both).
    game : MatrixGame, optional
        Default: weighted rock-paper-scissors.
    exploration, c : float
        Regret matching's uniform share (default 0.1) and UCB1's constant
        (default sqrt(2)); the floor uses ``exploration``.
    first_checkpoint, per_decade : int
        Checkpoints: log-spaced from ``first_checkpoint`` to ``rounds``
        (:func:`~mctslib.experiments.simultaneous.one_node.log_checkpoints`).
    engine : {"numba", "python"}
        Both give the same numbers; the reference is about 100 times slower.
    callback : callable, optional
        ``callback(learner, outcomes, seed, rounds_played, average_distance,
        current_distance)`` at every checkpoint (for a live plot).

    Returns
    -------
    OneNodeExperiment

    Notes
    -----
    Simultaneous-moves chapter.
    """
    rounds = check_budget("rounds", rounds, 1, MAX_ROUNDS)
    seeds = [check_int("each seed", seed, 0) for seed in _sequence("seeds", seeds)]
    if not seeds or len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct whole numbers >= 0, at least one, got {seeds}.")
    learners = _choices("learners", learners, LEARNERS)
    outcomes = _choices("outcomes", outcomes, OUTCOMES)
    game = weighted_rock_paper_scissors() if game is None else game
    if not isinstance(game, MatrixGame):
        raise ValueError(f"game must be a MatrixGame or None, got {type(game).__name__}.")
    exploration = check_exploration(exploration)
    c = check_real("c (the exploration constant)", c, 0.0)
    engine = check_choice("engine", engine, ENGINES)
    _check_callback(callback)
    checkpoints = log_checkpoints(rounds, first_checkpoint, per_decade)
    equilibrium = solve_zero_sum(game)
    start = time.perf_counter()
    runs = []
    with progress_bar(rounds * len(seeds) * len(learners) * len(outcomes),
                      "one-node rounds", unit="round") as bar:
        for outcome in outcomes:
            for learner in learners:
                for seed in seeds:
                    run = _measured_run(game, learner, outcome, seed, rounds, checkpoints,
                                        {"exploration": exploration, "c": c, "engine": engine},
                                        bar, callback)
                    runs.append(_run_record(run))
    seconds = time.perf_counter() - start
    parameters = {
        "game": {"name": game.name, "row_moves": list(game.row_moves),
                 "column_moves": list(game.column_moves), "payoffs": game.payoffs.tolist()},
        "learners": learners, "outcomes": outcomes, "rounds": rounds, "seeds": seeds,
        "exploration": exploration, "c": float(c), "first_checkpoint": first_checkpoint,
        "per_decade": per_decade, "engine": engine,
        "seeding": "xorshift64 state drawn by mctslib.rng.make_rng(seed)",
        "average_strategy": "move frequencies (counts / rounds)",
    }
    return OneNodeExperiment(
        parameters=parameters,
        equilibrium={"row_strategy": equilibrium.row_strategy.tolist(),
                     "column_strategy": equilibrium.column_strategy.tolist(),
                     "value": equilibrium.value},
        exploration_floor=exploration_floor(game, exploration, equilibrium),
        runs=runs, seconds=seconds, mctslib_version=__version__,
    )


def load_one_node_experiment(path) -> OneNodeExperiment:
    """Read an experiment written by :meth:`OneNodeExperiment.to_json` (e.g. the stored run).

    Raises ValueError, naming the file, if it is missing or not such an experiment.
    """
    try:
        text = Path(path).read_text()
    except TypeError:
        raise ValueError(f"path must be a file name, got {type(path).__name__}.") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read the experiment file {path}: {error}.") from None
    try:
        data = json.loads(text)
        return OneNodeExperiment(**data)
    except (ValueError, TypeError):
        raise ValueError(f"{path} does not hold a one-node experiment written by "
                         f"OneNodeExperiment.to_json().") from None


def _measured_run(game, learner, outcome, seed, rounds, checkpoints, options, bar, callback):
    """One run, advancing the progress bar and calling ``callback`` at each checkpoint."""
    done = 0

    def measured(played, average, current):
        nonlocal done
        bar.update(played - done)
        done = played
        if callback is not None:
            callback(learner, outcome, seed, played, average, current)

    return run_one_node(game, learner, rounds, seed, outcomes=outcome, checkpoints=checkpoints,
                        callback=measured, **options)


def _run_record(run) -> dict:
    return {
        "learner": run.learner, "outcomes": run.outcomes, "seed": run.seed,
        "checkpoints": run.checkpoints.tolist(),
        "average_distance": run.average_distance.tolist(),
        "current_distance": run.current_distance.tolist(),
        "row_average": run.row_average.tolist(), "column_average": run.column_average.tolist(),
        "row_current": run.row_current.tolist(), "column_current": run.column_current.tolist(),
    }


def _sequence(name: str, values) -> list:
    """``values`` as a list, or a sentence if it cannot be one (None, a number)."""
    try:
        return list(values)
    except TypeError:
        raise ValueError(f"{name} must be a sequence, got {type(values).__name__}.") from None


def _choices(name: str, values: Sequence[str], allowed: Sequence[str]) -> list[str]:
    values = [values] if isinstance(values, str) else _sequence(name, values)
    if not values or any(not isinstance(value, str) or value not in allowed for value in values):
        raise ValueError(f"{name} must be one or more of {', '.join(allowed)}, got {values}.")
    return values


# --------------------------------------------------------------------------- tuning sweep

#: The chapter's check that the rules got a fair chance: each rule's parameter over a grid.
SWEEP_GRID = {"ucb1": ("c", (0.25, 0.5, 1.0, SQRT2, 2.0, 4.0)),
              "regret_matching": ("exploration", (0.02, 0.05, 0.1, 0.2, 0.4)),
              "exp3": ("exploration", (0.02, 0.05, 0.1, 0.2, 0.4))}


@dataclass(frozen=True)
class OneNodeSweep:
    """Final distances of each rule over a grid of its parameter (see :func:`one_node_sweep`).

    ``sweeps[learner]`` is ``{"setting": name, "values": [...], "finals": [[final distance on
    each seed] for each value]}``.
    """

    rounds: int
    seeds: list
    outcomes: str
    sweeps: dict
    seconds: float
    mctslib_version: str

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1)

    @classmethod
    def load(cls, path) -> OneNodeSweep:
        try:
            return cls(**json.loads(Path(path).read_text()))
        except (OSError, TypeError, ValueError) as error:
            raise ValueError(f"{path} does not hold a sweep written by python -m "
                             f"mctslib.experiments.simultaneous.one_node --sweep ({error}).") from None


def one_node_sweep(rounds: int = SMALL_ROUNDS, seeds: Sequence[int] = SEEDS,
                   grid: dict | None = None, outcomes: str = "win_loss",
                   game: MatrixGame | None = None) -> OneNodeSweep:
    """Each rule's final distance after ``rounds`` on every seed, one parameter varied at a time.

    ``grid`` maps a learner to ``(setting, values)`` (default :data:`SWEEP_GRID`: UCB1's ``c``,
    the exploration share of regret matching and Exp3). Every run is :func:`run_one_node` with
    that one argument changed; Exp3 runs on the readable engine, the others on numba.
    Simultaneous-moves chapter (were the rules given a fair chance?).
    """
    rounds = check_budget("rounds", rounds, 1, MAX_ROUNDS)
    seeds = [check_int("each seed", seed, 0) for seed in _sequence("seeds", seeds)]
    outcomes = check_choice("outcomes", outcomes, OUTCOMES)
    game = weighted_rock_paper_scissors() if game is None else game
    grid = SWEEP_GRID if grid is None else grid
    start, sweeps = time.perf_counter(), {}
    for learner, (setting, values) in grid.items():
        learner = check_choice("each learner", learner, ONE_NODE_LEARNERS)
        setting = check_choice("each setting", setting, ("c", "exploration"))
        finals = [[run_one_node(game, learner, rounds, seed, outcomes=outcomes,
                                engine="python" if learner == "exp3" else "numba",
                                checkpoints=[rounds], **{setting: value}).final_distance
                   for seed in seeds] for value in values]
        sweeps[learner] = {"setting": setting, "values": [float(v) for v in values],
                           "finals": finals}
    return OneNodeSweep(rounds, seeds, outcomes, sweeps, time.perf_counter() - start,
                        __version__)


# --------------------------------------------------------------------------- command line


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m mctslib.experiments.simultaneous.one_node",
        description=("Two learners of the same kind play weighted rock-paper-scissors at one "
                     "simultaneous node; measure how far their average strategies are from "
                     "equilibrium over rounds, and store the result as JSON."),
    )
    parser.add_argument("--out", required=True, help="where to write the JSON file")
    parser.add_argument("--rounds", type=int, default=FULL_ROUNDS,
                        help=f"rounds per run (default {FULL_ROUNDS:,})")
    parser.add_argument("--seeds", type=int, nargs="+", default=list(SEEDS),
                        help="seeds (default 0 1 2 3 4)")
    parser.add_argument("--learners", nargs="+", choices=LEARNERS, default=list(LEARNERS))
    parser.add_argument("--outcomes", nargs="+", choices=OUTCOMES, default=list(OUTCOMES))
    parser.add_argument("--exploration", type=float, default=DEFAULT_EXPLORATION,
                        help="regret matching's uniform share (default 0.1)")
    parser.add_argument("--c", type=float, default=SQRT2,
                        help="UCB1's exploration constant (default sqrt(2))")
    parser.add_argument("--first-checkpoint", type=int, default=FIRST_CHECKPOINT)
    parser.add_argument("--per-decade", type=int, default=PER_DECADE)
    parser.add_argument("--engine", choices=ENGINES, default="numba")
    parser.add_argument("--sweep", action="store_true",
                        help="instead: every rule over its parameter grid (SWEEP_GRID) at "
                             "--rounds on --seeds, win/loss outcomes (one_node_sweep)")
    return parser


def _check_argv(argv) -> None:
    """``argv`` must be None (the command line) or a list of strings, as argparse expects."""
    if argv is not None and (isinstance(argv, (str, bytes)) or not isinstance(argv, Sequence)
                             or not all(isinstance(arg, str) for arg in argv)):
        raise ValueError(f"argv must be a list of strings (the command's arguments) or None, "
                         f"got {argv!r:.80}.")


def main(argv=None) -> int:
    _check_argv(argv)
    args = build_parser().parse_args(argv)
    if args.sweep:
        try:
            sweep = one_node_sweep(args.rounds, args.seeds)
            Path(args.out).parent.mkdir(parents=True, exist_ok=True)
            Path(args.out).write_text(sweep.to_json() + "\n")
        except (ValueError, OSError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        print(f"sweep of {sum(len(v['values']) for v in sweep.sweeps.values())} settings in "
              f"{sweep.seconds:.1f} s; wrote {args.out}")
        return 0
    try:
        experiment = one_node_experiment(
            args.rounds, args.seeds, learners=args.learners, outcomes=args.outcomes,
            exploration=args.exploration, c=args.c, first_checkpoint=args.first_checkpoint,
            per_decade=args.per_decade, engine=args.engine,
        )
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    out = Path(args.out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(experiment.to_json() + "\n")
    except OSError as error:
        print(f"error: cannot write {out}: {error}", file=sys.stderr)
        return 2
    print(experiment.summary())
    print(f"{len(experiment.runs)} runs in {experiment.seconds:.1f} s; wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

