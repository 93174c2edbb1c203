"""The UTTT experiments by name, their quick and full budgets, and the command that runs them.

``python -m mctslib.experiments.uttt`` (see :func:`main`) regenerates the
stored results in ``data/uttt/``.
"""


from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor

from . import openspiel, statistics, tuning
from .results import DATA_DIR, MAX_JOBS, NAMES, ExperimentResult, _check_name, experiment_path

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


def run_experiment(name: str, budget: str = "full", jobs: int = 1, executor=None,
                   callback: Callable | None = None) -> ExperimentResult:
    """Run experiment ``name`` at the ``"quick"`` or ``"full"`` budget.

    The budgets are :data:`QUICK` and :data:`FULL`; ``jobs``, ``executor`` and
    ``callback`` go to the experiment function.
    """
    _check_name(name)
    if not isinstance(budget, str) or budget not in BUDGETS:
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
    """The command: parse ``argv`` (None: the command line), run, print, write; 0 or 2."""
    from ...play.arena import default_jobs

    if argv is not None and (isinstance(argv, (str, bytes)) or not isinstance(argv, Sequence)
                             or not all(isinstance(arg, str) for arg in argv)):
        raise ValueError(f"argv must be a list of strings (the command's arguments) or None, "
                         f"got {argv!r:.80}.")
    args = build_parser().parse_args(argv)
    jobs = default_jobs() if args.jobs is None else args.jobs
    if not 1 <= jobs <= MAX_JOBS:
        print(f"error: --jobs must be from 1 to {MAX_JOBS}, got {jobs}.", file=sys.stderr)
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
    except (ValueError, OSError) as error:  # a sentence for the terminal, not a traceback
        print(f"error: {error}", file=sys.stderr)
        return 2
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    print(f"{len(names)} experiment{'s' if len(names) > 1 else ''} in "
          f"{time.perf_counter() - start:.1f} s")
    return 0

