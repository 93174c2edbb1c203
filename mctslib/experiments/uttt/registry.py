"""The UTTT experiments by name, their quick and full budgets, and the command that runs them.

``python -m mctslib.experiments.uttt`` (see :func:`main`) regenerates the
stored results in ``data/uttt/``.
"""


from __future__ import annotations

import argparse
import dataclasses
import inspect
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from . import openspiel, playing, statistics, tuning
from .results import (
    BEST_OPTIONS,
    DATA_DIR,
    MAX_JOBS,
    NAMES,
    ExperimentResult,
    _check_name,
    experiment_path,
)

# ----------------------------------------------------------------------------- registry

#: Experiment name -> function, in the order the chapter uses them.
EXPERIMENTS = {
    "budget": tuning.budget_experiment,
    "exploration": tuning.exploration_experiment,
    "win_taking": tuning.win_taking_experiment,
    "solver": tuning.solver_experiment,
    "reuse": tuning.reuse_experiment,
    "centre": tuning.centre_experiment,
    "games_needed": statistics.games_needed_experiment,
    "openspiel": openspiel.openspiel_experiment,
    "doubling": tuning.doubling_experiment,
    "c_decision": playing.c_decision_experiment,
    "reuse_decision": playing.reuse_decision_experiment,
    "openspiel_sweep": playing.openspiel_sweep_experiment,
    "openspiel_equal_time": playing.openspiel_counts_experiment,
    "openspiel_ten_times": playing.openspiel_counts_experiment,
}
assert tuple(EXPERIMENTS) == NAMES, "the registry and results.NAMES list the same experiments"

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
    "doubling": {"budgets": (20, 40), "games": 2},
    "c_decision": {"challengers": (0.6,), "iterations": 100, "max_games": 4},
    "reuse_decision": {"iterations": 100, "max_games": 4},
    "openspiel_sweep": {"uct_cs": (1.0,), "simulations": 50, "games": 2},
    "openspiel_equal_time": {"iterations": 100, "simulations": 50, "uct_cs": (1.0, 2.0),
                             "games": 2},
    "openspiel_ten_times": {"iterations": 100, "simulations": 500, "uct_cs": (1.0, 2.0),
                            "games": 2, "name": "openspiel_ten_times"},
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

#: Decisions re-measured at budgets a bot really plays with (issue 14): 20,000 iterations per
#: move (about 13 ms on a quiet core, between the 1,000 of :data:`FULL` and the ~116,000 of a
#: 100 ms CodinGame turn), written to data/uttt/realistic/NAME.json. See data/uttt/README.md for
#: each file's wall time and the machine's load. Games: 200 per point (doubling, c, OpenSpiel
#: per version), 400 for the solver, 300 for win-taking (each place) and the centre, and 300 for
#: reuse at 50 ms; win-taking and the centre were cut from 400 to fit a shared 2-core machine
#: (a game between two 20,000-iteration bots took 1.8 s of wall time per job at load 8-12).
#: OpenSpiel plays 2,000 simulations per move (its C++ search takes about 10 times our time per
#: simulation, so 2,000 is what 400 games afford).
REALISTIC_ITERATIONS = 20_000
REALISTIC = {
    "doubling": {"budgets": (500, 1000, 2000, 4000, 8000, 16000, 32000), "games": 200},
    "exploration": {"cs": {"01": (0.3, math.sqrt(2.0) - 1.0, 0.7, 1.0),
                           "pm1": (1.0, math.sqrt(2.0))},
                    "iterations": REALISTIC_ITERATIONS, "games": 200},
    "solver": {"iterations": REALISTIC_ITERATIONS, "games": 400},
    "win_taking": {"iterations": REALISTIC_ITERATIONS, "games": 300,
                   "where": ("playouts", "tree")},
    "centre": {"iterations": REALISTIC_ITERATIONS, "games": 300, "against": "searched",
               "first_iterations": 10 * REALISTIC_ITERATIONS, "first_move_samples": 20},
    "openspiel": {"iterations": 2000, "games": 200, "uct_c": 1.0,
                  "versions": ("best", "matched")},
    "reuse": {"ms": 50.0, "games": 300},
}
#: The decisions once more at 100,000 iterations per move (about a 100 ms turn), written to
#: data/uttt/deep/NAME.json: the solver, win-taking (both places, then playouts only and tree
#: only: the "both" games are identical to a run of "both" alone, since every variant plays the
#: same openings and seeds), and c on both sides of the reference 0.5 (0.3 and 0.7 were clearly
#: worse at 20,000 iterations; sqrt 2 - 1 was inside the noise there and would need ~1,900 games),
#: and tree reuse at CodinGame's 100 ms on the clock (not reproducible game for game).
DEEP_ITERATIONS = 100_000
DEEP = {
    "solver": {"iterations": DEEP_ITERATIONS, "games": 200},
    "win_taking": {"iterations": DEEP_ITERATIONS, "games": 200,
                   "where": ("both", "playouts", "tree")},
    "exploration": {"cs": (0.3, 0.7), "scales": ("01",), "iterations": DEEP_ITERATIONS,
                    "games": 200},
    "reuse": {"ms": 100.0, "games": 200},
}
#: The decisions settled at the budget the bot plays with, 100,000 iterations per move and
#: every option the chapter keeps, by the Elo SPRT (0 against +30 Elo, 5% errors, pairs, at
#: most 1,000 games), and the OpenSpiel matches with counts standing in for clocks; written to
#: data/uttt/playing/NAME.json. data/uttt/README.md states each question, its hypotheses and
#: its limits, written before the match started.
class Stored:
    """A value a ``playing`` experiment takes from an earlier one's stored result, at run time.

    ``Stored("c_decision", "chosen_c")`` is the c the c decision kept: the
    experiments after it use the bot it decided on, whatever that was.
    ``template`` turns the value into the argument (default: the value itself).
    """

    def __init__(self, name: str, key: str, template: Callable | None = None):
        self.name, self.key, self.template = name, key, template

    def resolve(self, directory):
        stored = ExperimentResult.load(experiment_path(self.name, directory))
        value = stored.summary[self.key]
        if value is None:
            raise ValueError(f"{self.name} chose no {self.key} (see its summary); declare the "
                             f"next test in data/uttt/README.md before running this one.")
        return value if self.template is None else self.template(value)

    def __repr__(self) -> str:
        return f"Stored({self.name!r}, {self.key!r})"


def _best_with_c(c: float) -> str:
    return BEST_OPTIONS.replace("c=0.5,", f"c={c:g},")


#: The bot the chapter plays, with the c that the c decision kept.
DECIDED_BOT = Stored("c_decision", "chosen_c", _best_with_c)
#: OpenSpiel's uct_c as tuned by the sweep, then its default 2 as a labelled second row.
TUNED_AND_DEFAULT = Stored("openspiel_sweep", "best_uct_c", lambda c: (c, 2.0))
#: Counts for 100 ms of CPU a move on average over whole games, and ten times OpenSpiel's
#: (benchmarks/results/uttt_equal_time.txt).
EQUAL_TIME_ITERATIONS, EQUAL_TIME_SIMULATIONS = 130_000, 13_000
PLAYING = {
    "c_decision": {"challengers": (0.6, 0.4), "iterations": playing.PLAYING_ITERATIONS,
                   "max_games": playing.DECISION_CAP},
    "openspiel_sweep": {"uct_cs": (0.5, 0.7, 1.0, 1.4), "simulations": EQUAL_TIME_SIMULATIONS,
                        "games": 100},
    "openspiel_equal_time": {"iterations": EQUAL_TIME_ITERATIONS,
                             "simulations": EQUAL_TIME_SIMULATIONS, "uct_cs": TUNED_AND_DEFAULT,
                             "games": 200, "options": DECIDED_BOT},
    "reuse_decision": {"iterations": playing.PLAYING_ITERATIONS,
                       "max_games": playing.DECISION_CAP, "options": DECIDED_BOT},
    "openspiel_ten_times": {"iterations": EQUAL_TIME_ITERATIONS,
                            "simulations": 10 * EQUAL_TIME_SIMULATIONS,
                            "uct_cs": TUNED_AND_DEFAULT, "games": 100, "options": DECIDED_BOT,
                            "name": "openspiel_ten_times"},
}
BUDGETS = {"quick": QUICK, "full": FULL, "realistic": REALISTIC, "deep": DEEP,
           "playing": PLAYING}


def run_experiment(name: str, budget: str = "full", jobs: int = 1, executor=None,
                   callback: Callable | None = None, progress=None,
                   stored_dir=None) -> ExperimentResult:
    """Run experiment ``name`` at one of the :data:`BUDGETS` (``"quick"``, ``"full"``, ...).

    ``jobs``, ``executor`` and ``callback`` go to the experiment function, and
    ``progress`` (a file of finished pairs, to resume from) to those that play
    pair by pair (:mod:`.playing`). Values a budget takes from earlier results
    (:class:`Stored`) are read from ``stored_dir`` (default: the budget's folder).
    Raises ValueError if the budget does not hold the experiment (``"realistic"``
    and ``"deep"`` hold only the decisions re-measured at those budgets).
    """
    _check_name(name)
    if not isinstance(budget, str) or budget not in BUDGETS:
        raise ValueError(f"budget must be one of {', '.join(BUDGETS)}, got {budget!r}.")
    if name not in BUDGETS[budget]:
        raise ValueError(f"the {budget!r} budget has no experiment {name!r}; it has "
                         f"{', '.join(BUDGETS[budget])}.")
    extra = {}
    if progress is not None and "progress" in inspect.signature(EXPERIMENTS[name]).parameters:
        extra["progress"] = progress
    stored_dir = budget_directory(budget) if stored_dir is None else stored_dir
    arguments = {key: value.resolve(stored_dir) if isinstance(value, Stored)
                 else value for key, value in BUDGETS[budget][name].items()}
    result = EXPERIMENTS[name](**arguments, jobs=jobs, executor=executor, callback=callback,
                               **extra)
    return dataclasses.replace(result, budget=budget)


def budget_directory(budget: str, data_dir=None) -> Path:
    """Where a budget's stored results live: data/uttt for "full", data/uttt/BUDGET otherwise."""
    if not isinstance(budget, str) or budget not in BUDGETS:
        raise ValueError(f"budget must be one of {', '.join(BUDGETS)}, got {budget!r}.")
    base = DATA_DIR if data_dir is None else Path(data_dir)
    return base if budget == "full" else base / budget


# ----------------------------------------------------------------------------- command line


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m mctslib.experiments.uttt",
        description=("Regenerate the stored results of the Ultimate Tic-Tac-Toe chapter's "
                     "experiments (" + ", ".join(EXPERIMENTS) + ") as data/uttt/NAME.json "
                     "(--budget full), data/uttt/realistic/NAME.json (20,000 iterations per "
                     "move) or data/uttt/deep/NAME.json (100,000, or 100 ms for reuse). The full budgets take 10-15 "
                     "minutes with --jobs 2 on 2 cores (measured: 9.7 minutes on a lightly "
                     "loaded machine, 14.5 minutes on one shared with other work); the "
                     "realistic ones hours (data/uttt/README.md lists each file's time)."))
    parser.add_argument("--budget", choices=list(BUDGETS), default=None,
                        help="full (default: the 1,000-iteration decisions, data/uttt), "
                             "realistic (20,000 iterations, data/uttt/realistic), deep "
                             "(100,000 iterations; reuse at 100 ms; data/uttt/deep), playing "
                             "(decisions by the sequential test at 100,000 iterations and the "
                             "OpenSpiel matches; data/uttt/playing; a run interrupted resumes "
                             "from NAME.pairs.jsonl) or quick")
    parser.add_argument("--quick", action="store_true",
                        help="same as --budget quick: tiny budgets (seconds); writes files only "
                             "if --out-dir is given")
    parser.add_argument("--only", nargs="+", choices=list(EXPERIMENTS), metavar="NAME",
                        help="run only these experiments (default: all of the budget)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="worker processes (default: every core this process may use)")
    parser.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                        help="play the games on this Dask scheduler's workers (results are "
                             "identical game for game to a local run for iteration budgets); "
                             "--jobs is then not used")
    parser.add_argument("--out-dir", default=None,
                        help="where to write NAME.json (default: data/uttt of the repository "
                             "for full runs; nowhere for --quick)")
    return parser


def partial_path(name: str, directory) -> Path:
    """``DIRECTORY/NAME.partial.jsonl``: the comparisons of a run still going, one JSON a line.

    The command appends each comparison there as it finishes and deletes the
    file once ``NAME.json`` is written, so a run stopped part way keeps the
    matches it finished.
    """
    return experiment_path(name, directory).with_suffix(".partial.jsonl")


def _reporter(partial: Path | None) -> Callable:
    def report(comparison) -> None:
        print(f"   {comparison} ({comparison.seconds:.1f} s)", flush=True)
        if partial is not None:
            partial.parent.mkdir(parents=True, exist_ok=True)
            with partial.open("a") as file:
                file.write(json.dumps(dataclasses.asdict(comparison)) + "\n")
    return report


def main(argv=None) -> int:
    """The command: parse ``argv`` (None: the command line), run, print, write; 0 or 2."""
    from ...play.arena import default_jobs
    from ...play.cluster import open_executor

    if argv is not None and (isinstance(argv, (str, bytes)) or not isinstance(argv, Sequence)
                             or not all(isinstance(arg, str) for arg in argv)):
        raise ValueError(f"argv must be a list of strings (the command's arguments) or None, "
                         f"got {argv!r:.80}.")
    args = build_parser().parse_args(argv)
    jobs = default_jobs() if args.jobs is None else args.jobs
    if not 1 <= jobs <= MAX_JOBS:
        print(f"error: --jobs must be from 1 to {MAX_JOBS}, got {jobs}.", file=sys.stderr)
        return 2
    if args.quick and args.budget not in (None, "quick"):
        print(f"error: --quick and --budget {args.budget} disagree; give one.", file=sys.stderr)
        return 2
    budget = "quick" if args.quick else (args.budget or "full")
    out_dir = args.out_dir or (None if budget == "quick" else budget_directory(budget))
    names = args.only or list(BUDGETS[budget])
    missing = [name for name in names if name not in BUDGETS[budget]]
    if missing:
        print(f"error: the {budget} budget has no experiment {', '.join(missing)}; it has "
              f"{', '.join(BUDGETS[budget])}.", file=sys.stderr)
        return 2
    if out_dir is not None:  # before hours of games, not after: the folder must be writable
        try:
            Path(out_dir).mkdir(parents=True, exist_ok=True)
        except OSError as error:
            print(f"error: cannot write results to {out_dir}: {error}.", file=sys.stderr)
            return 2
    start = time.perf_counter()
    try:
        with open_executor(args.scheduler, 1 if args.scheduler else jobs) as executor:
            for name in names:
                where = (f"scheduler {args.scheduler}" if args.scheduler
                         else f"{jobs} job{'s' if jobs > 1 else ''}")
                print(f"== {name} ({budget} budget, {where})", flush=True)
                partial = None if out_dir is None else partial_path(name, out_dir)
                pairs = None if out_dir is None else playing.progress_path(name, out_dir)
                result = run_experiment(name, budget, jobs, executor,
                                        callback=_reporter(partial), progress=pairs,
                                        stored_dir=out_dir)
                print(result.table())
                print(f"   {result.seconds:.1f} s", flush=True)
                if out_dir is not None:
                    print(f"   wrote {result.save(experiment_path(name, out_dir))}")
                    partial.unlink(missing_ok=True)
                    pairs.unlink(missing_ok=True)
    except (ValueError, OSError) as error:  # a sentence for the terminal, not a traceback
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"{len(names)} experiment{'s' if len(names) > 1 else ''} in "
          f"{time.perf_counter() - start:.1f} s")
    return 0

