"""Experiments of the chapter "Enhancements and failure modes" on the UTTT bot: playouts and budget.

Two kinds of match, both at a fixed number of iterations per move (so a run
repeats game for game on any machine and under any load):

* :func:`rollouts_experiment`: each heuristic playout policy
  (:mod:`mctslib.fast.uttt_playouts`: ``safe``, ``capture``, ``greedy``)
  against the same bot with today's win-taking playouts (``wins=on``), one
  comparison per policy and budget, CodinGame scoring, random openings;
* :func:`target_experiment`: our bot (a SPEC with ``iters``) against
  OpenSpiel's C++ ``MCTSBot`` at a fixed simulation count
  (:class:`mctslib.bots.openspiel.OpenSpielMCTS`), OpenSpiel's scoring: the
  reproducible stand-in for "OpenSpiel given ten times our time" (about 90,000
  simulations in 1,000 ms on the book's machine, against our ~120,000
  iterations in 100 ms).

Results are :class:`~mctslib.experiments.uttt.results.ExperimentResult` files in
``data/uttt/enhancements/`` (:data:`DIRECTORY`). A long run is split into parts
that :func:`merge_into` adds to one file (a comparison with the same label and
seed is replaced). The command line, one heavy run at a time::

    python -m mctslib.experiments.uttt.enhancements rollouts --iterations 20000 \\
        --games 400 --policies safe [--out data/uttt/enhancements/rollouts.json]
    python -m mctslib.experiments.uttt.enhancements target --bot SPEC \\
        --simulations 90000 --games 200 [--out data/uttt/enhancements/target.json]

The evaluation inside the search (SPEC keys ``cutoff`` and ``cutoff_scale``:
early playout termination with the alpha-beta baseline's evaluation, see
:func:`mctslib.fast.uttt_uct.search_kernel`) is screened with the same
``target`` command and ``--out data/uttt/enhancements/eval_screen.json``::

    python -m mctslib.experiments.uttt.enhancements target \\
        --bot "uct:c=0.5,scale=01,wins=on,solver=on,reuse=on,centre=on,cutoff=6,iters=12000" \\
        --simulations 9000 --games 40 --out data/uttt/enhancements/eval_screen.json

A notebook re-runs a small version with the same seed: the first games of a
match are the same whatever the number of games (the openings are drawn in
order, game ``i`` starts from opening ``i // 2`` with seeds spawned for ``i``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ...bots.uttt import PLAYOUTS
from ...play.arena import play_match
from .results import (
    BEST_OPTIONS,
    DATA_DIR,
    TIME_NOTE,
    Comparison,
    ExperimentResult,
    _bot,
    _common,
    _finish,
    _iterations,
    _machine,
    _numbers,
    _openings,
    _parameters,
    _sequence,
    _without_budget,
)

#: Where the stored results live.
DIRECTORY = DATA_DIR / "enhancements"
#: The bot the policies are measured against: the player-reported c = 0.5 with today's
#: win-taking (in playouts and in the tree), nothing else.
WINS_OPTIONS = "c=0.5,scale=01,wins=on,solver=off,reuse=off,centre=off"
#: The options of the bot ``benchmarks/uttt_strength.py`` plays by default: the chapter's
#: best (:data:`~mctslib.experiments.uttt.results.BEST_OPTIONS`), since no screened change
#: beat it outside the noise (data/uttt/enhancements/README.md: the heuristic playouts lose
#: to win-taking ones at equal iterations; c = 0.35 or 0.7 and a contempt for draws,
#: ``draw=0.1``, scored within the noise of it against OpenSpiel at fixed counts).
TUNED_OPTIONS = BEST_OPTIONS
#: How the matches are seeded here (replaces the rule of the chapter's other experiments).
SEEDING = ("comparison with key K (rollouts: (index of the policy in PLAYOUTS, iterations); "
           "target: (iterations, simulations)): numpy.random.SeedSequence(seed, spawn_key=K); "
           "openings: SeedSequence(seed, spawn_key=(2**32 - 1,)); game i of a match gives A and "
           "B the streams 2i and 2i + 1 spawned from the match's SeedSequence")
#: The policies that are new (``random`` and ``wins`` are the chapter's earlier playouts).
HEURISTIC_POLICIES = ("safe", "capture", "greedy")


def rollouts_experiment(iterations=2000, games: int = 10, *,
                        policies: Sequence[str] = HEURISTIC_POLICIES, options=WINS_OPTIONS,
                        seed: int = 15, scoring: str = "codingame", opening_plies: int = 2,
                        jobs: int = 1, executor=None, callback=None) -> ExperimentResult:
    """Each playout policy against win-taking playouts, at equal iterations per move.

    Bot A is ``options`` with ``playout=POLICY``, bot B ``options`` as given
    (``wins=on``: win-taking playouts); both run ``iterations`` per move (an
    int or a sequence: one comparison per policy and budget, policy by
    policy). Other parameters as in
    :func:`mctslib.experiments.uttt.budget_experiment`.

    Notes
    -----
    Chapter "Enhancements and failure modes", better rollouts. Equal
    iterations give a costlier policy its extra time for free: the cost per
    playout is measured by ``benchmarks/uttt_playouts.py``.
    """
    start = time.perf_counter()
    games, runner = _common("rollouts", games, seed, scoring, jobs, executor, callback)
    budgets = _numbers("iterations", iterations, 1)
    policies = [policies] if isinstance(policies, str) else _sequence("policies", policies)
    if not policies or any(p not in PLAYOUTS for p in policies):
        raise ValueError(f"policies must be one or more of {', '.join(PLAYOUTS)}, got "
                         f"{policies}.")
    plain = _bot(options)
    if not plain.playouts_take_wins:
        raise ValueError(f"options must have wins=on (the policies take wins themselves), got "
                         f"{options!r}.")
    starts = _openings(games, opening_plies, seed, scoring)
    for policy in policies:
        for budget in budgets:
            _match(runner, (PLAYOUTS.index(policy), budget),
                   f"playout={policy} vs wins, iters={budget}", budget,
                   _iterations(_bot(plain, playout=policy), budget), _iterations(plain, budget),
                   starts, games)
    summary = {"points": [{"policy": c.label.split(" ")[0].removeprefix("playout="),
                           "iters": c.value, "games": c.games, "score": c.score,
                           "interval_95": c.interval_95, "distinguishable": c.excludes_half(),
                           "ms_per_move": [1000 * t for t in c.seconds_per_move]}
                          for c in runner.played]}
    notes = [("Equal iterations per move: a policy that makes a playout slower gets that time "
              "for free; its cost per playout is in benchmarks/uttt_playouts.py."), TIME_NOTE]
    parameters = _parameters(runner, policies=list(policies), iterations=budgets, games=games,
                             options=_without_budget(plain), opening_plies=opening_plies,
                             openings=len(starts), machine=_machine())
    parameters["seeding"] = SEEDING
    return _finish(runner, start, title="playout policies vs win-taking playouts at equal "
                   "iterations", scoring=scoring, reproducible=True, summary=summary,
                   notes=notes, parameters=parameters)


def _match(runner, key, label, value, a, b, starts, games) -> Comparison:
    """``runner.match`` with a seed of its own: ``SeedSequence(seed, spawn_key=key)``.

    The key names the comparison (a policy's index and the budget), so a
    comparison plays the same games whichever others run with it: a long
    experiment can be run in parts.
    """
    match_seed = np.random.SeedSequence(runner.seed, spawn_key=tuple(key))
    start = time.perf_counter()
    result = play_match(a, b, starts, games, seed=match_seed, jobs=runner.jobs,
                        executor=runner.executor, description=f"{runner.name} {label}")
    describe = getattr(b, "describe", None)
    comparison = Comparison.from_match(label, value, a, describe() if describe else b,
                                       [runner.seed, *key], result,
                                       time.perf_counter() - start)
    runner.played.append(comparison)
    if runner.callback is not None:
        runner.callback(comparison)
    return comparison


def target_experiment(bot: str, simulations: int = 1000, games: int = 4, *, seed: int = 16,
                      opening_plies: int = 2, uct_c: float | None = None, jobs: int = 1,
                      executor=None, callback=None) -> ExperimentResult:
    """Our bot (a SPEC with ``iters``) against OpenSpiel's MCTSBot at ``simulations`` per move.

    OpenSpiel's scoring (a game closing every board without a line is a draw:
    what its bot plays for), random openings of ``opening_plies`` plies, sides
    alternating. Both budgets are counts, so the result repeats exactly.

    Notes
    -----
    Chapter "Enhancements and failure modes": the bot worth ten times
    OpenSpiel's time, screened at fixed counts before the timed matches of
    ``benchmarks/uttt_strength.py``.
    """
    from ...bots.openspiel import DEFAULT_UCT_C, OpenSpielMCTS  # pyspiel: only when asked for

    start = time.perf_counter()
    games, runner = _common("target", games, seed, "openspiel", jobs, executor, callback)
    spec = _bot(bot.removeprefix("uct:") if isinstance(bot, str) else bot)
    if spec.iterations is None:
        raise ValueError(f"bot must have an iteration budget (iters=N), got {bot!r}.")
    uct_c = DEFAULT_UCT_C if uct_c is None else uct_c
    opponent = OpenSpielMCTS(simulations, uct_c=uct_c)
    starts = _openings(games, opening_plies, seed, "openspiel")
    _match(runner, (spec.iterations, simulations),
           f"{_without_budget(spec).removeprefix('uct:')},iters={spec.iterations} vs OpenSpiel "
           f"{simulations} sims", simulations, spec, opponent, starts, games)
    c = runner.played[-1]
    summary = {"score": c.score, "interval_95": c.interval_95, "games": c.games,
               "ms_per_move": [1000 * t for t in c.seconds_per_move]}
    parameters = _parameters(runner, bot=str(spec), simulations=simulations, uct_c=uct_c,
                             games=games, opening_plies=opening_plies, openings=len(starts),
                             machine=_machine())
    parameters["seeding"] = SEEDING
    return _finish(runner, start, title="our bot at fixed iterations vs OpenSpiel MCTSBot at "
                   "fixed simulations", scoring="openspiel", reproducible=True,
                   summary=summary, notes=[TIME_NOTE], parameters=parameters)


def merge_into(result: ExperimentResult, path) -> ExperimentResult:
    """Add ``result``'s comparisons to the file at ``path``; save and return the merged result.

    A comparison with the same label and seed as a stored one replaces it (a
    re-run); any other is added.

    The merged file keeps one entry per part in ``parameters["parts"]`` (each
    part's parameters and wall time) and the summed ``seconds``.
    """
    path = Path(path)
    part = {**result.parameters, "seconds": result.seconds}
    if path.is_file():
        old = ExperimentResult.load(path)
        if old.name != result.name:
            raise ValueError(f"{path} holds experiment {old.name!r}, not {result.name!r}.")
        keys = {(c.label, tuple(c.seed)) for c in result.comparisons}
        comparisons = [c for c in old.comparisons
                       if (c.label, tuple(c.seed)) not in keys] + result.comparisons
        parts = old.parameters.get("parts", [old.parameters]) + [part]
        seconds = old.seconds + result.seconds
    else:
        comparisons, parts, seconds = list(result.comparisons), [part], result.seconds
    points = [{"label": c.label, "value": c.value, "games": c.games, "score": c.score,
               "interval_95": c.interval_95, "distinguishable": c.excludes_half(),
               "ms_per_move": [1000 * s for s in c.seconds_per_move]} for c in comparisons]
    merged = ExperimentResult(name=result.name, title=result.title, scoring=result.scoring,
                              reproducible=result.reproducible,
                              parameters={"parts": parts}, comparisons=comparisons,
                              summary={"points": points}, notes=result.notes, seconds=seconds,
                              budget=result.budget)
    merged.save(path)
    return merged


def main(argv=None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m mctslib.experiments.uttt.enhancements",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="experiment", required=True)
    rollouts = sub.add_parser("rollouts", help="playout policies vs win-taking playouts")
    rollouts.add_argument("--iterations", type=int, nargs="+", default=[20000])
    rollouts.add_argument("--policies", nargs="+", default=list(HEURISTIC_POLICIES))
    rollouts.add_argument("--out", default=str(DIRECTORY / "rollouts.json"))
    target = sub.add_parser("target", help="our bot at fixed iterations vs OpenSpiel")
    target.add_argument("--bot", required=True, help="our bot's SPEC, with iters=N")
    target.add_argument("--simulations", type=int, default=90000)
    target.add_argument("--out", default=str(DIRECTORY / "target.json"))
    for each in (rollouts, target):
        each.add_argument("--games", type=int, default=400)
        each.add_argument("--seed", type=int, default=None)
        each.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    extra = {} if args.seed is None else {"seed": args.seed}
    try:
        if args.experiment == "rollouts":
            result = rollouts_experiment(args.iterations, args.games, policies=args.policies,
                                         jobs=args.jobs, callback=print, **extra)
        else:
            result = target_experiment(args.bot, args.simulations, args.games, jobs=args.jobs,
                                       callback=print, **extra)
    except ValueError as error:
        parser.error(str(error))
    result.parameters["load_before"] = load
    result.parameters["load_after"] = os.getloadavg()[0]
    merged = merge_into(result, args.out)
    print(merged.table())
    print(f"{result.seconds:.0f} s; load average {load:.2f} before, "
          f"{result.parameters['load_after']:.2f} after; written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
