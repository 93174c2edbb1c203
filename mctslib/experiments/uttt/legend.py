"""Experiments of the chapter "How a Legend bot gets its strength": the toolbox, tool by tool.

Every match plays today's bot, :data:`TODAY` (chapter 5's tuned options,
:data:`mctslib.experiments.uttt.enhancements.TUNED_OPTIONS`, read at import:
never copied), against a variant: today's options with one tool of the
toolbox (:mod:`mctslib.bots.uttt_toolbox`) added, or several. Budgets are
counts of iterations, so every game repeats exactly for the same seed on any
machine and under any load; *equal time* is a count scaled by the variant's
speed relative to today's bot, measured side by side in one run by
``benchmarks/toolbox_speed.py`` (stored in ``benchmarks/results/``) and given
here as ``ratio``. Three kinds of experiment, each stored as an
:class:`~mctslib.experiments.uttt.results.ExperimentResult` in
``data/uttt/legend/NAME.json`` (:data:`DIRECTORY`):

* :func:`grid_experiment`: a tool's value picked at a small budget (equal
  iterations, fixed number of games per point);
* :func:`screen_experiment`: each tool against today's bot at equal time, a
  fixed number of games each;
* :func:`decision_experiment`: one variant against one bot, pair by pair,
  stopped by the Elo SPRT of chess engine testing (:mod:`mctslib.play.elo_sprt`,
  game pairs) or at a cap, both fixed before the first game.

Every match of an experiment starts from the same seeded 2-ply openings
(each played twice, sides swapped), or from the empty board when the
question is the first move (``openings=0``); CodinGame scoring. A run writes
``NAME.pairs.jsonl`` as it goes and resumes from it. The command line (one
process, ``nice -n 10`` on a shared machine; the data README has each
command and its time)::

    python -m mctslib.experiments.uttt.legend grid --points fpu=0.7 fpu=1 --iterations 5000 \\
        --games 200 --name tool_grid
    python -m mctslib.experiments.uttt.legend screen --variant fpu=fpu=1@0.98 ... \\
        --iterations 20000 --games 400 --name screens
    python -m mctslib.experiments.uttt.legend decide --a "OPTIONS" --b "OPTIONS" \\
        --a-iterations N --b-iterations M --max-games 1000 --name NAME

A notebook re-runs a small version with the same seed: the first games of a
match are the same whatever the number of games.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
import time
from pathlib import Path

from ...bots.uttt import BotSpec, parse_spec
from ...games.uttt import UltimateTicTacToe
from ...play.elo_sprt import EloSPRT
from ...play.stats import elo_from_score, elo_interval
from .enhancements import TUNED_OPTIONS
from .playing import _match, _Progress, _test_parameters, _test_summary, progress_path
from .results import (
    DATA_DIR,
    TIME_NOTE,
    ExperimentResult,
    _bot,
    _common,
    _finish,
    _iterations,
    _machine,
    _milliseconds,
    _openings,
    _parameters,
    load_experiment,
)

#: Where the stored results live.
DIRECTORY = DATA_DIR / "legend"
#: Today's bot: chapter 5's tuned options (its budget is set by each experiment).
TODAY = TUNED_OPTIONS
#: The sequential test of every decision here: no gain against +30 Elo, 5% errors each way.
DECISION_TEST = {"elo0": 0.0, "elo1": 30.0, "alpha": 0.05, "beta": 0.05}


def variant(options: str = TODAY, extra: str = "") -> BotSpec:
    """``options`` with the keys of ``extra`` (``"KEY=VALUE,..."``) replacing or adding theirs.

    A variant with ``bounds=on`` turns the solver off (the bounds replace it)
    unless ``extra`` says otherwise; ``wins`` replaces ``playout_wins`` and
    ``tree_wins``.
    """
    base = _bot(options)
    if not extra:
        return base
    items = dict(item.split("=", 1) for item in str(base).removeprefix("uct:").split(","))
    changes = dict(item.split("=", 1) for item in filter(None, extra.replace(" ", "").split(",")))
    if changes.get("bounds") == "on":
        changes.setdefault("solver", "off")
    if "wins" in changes:
        items.pop("playout_wins", None)
        items.pop("tree_wins", None)
    items.update(changes)
    return parse_spec("uct:" + ",".join(f"{key}={value}" for key, value in items.items()))


def _starts(games: int, openings: int, seed: int) -> list:
    """Seeded 2-ply openings, one per pair; ``openings=0``: the empty board for every pair."""
    if openings == 0:
        return [UltimateTicTacToe()]
    return _openings(games, 2, seed, "codingame")


def grid_experiment(points=(("fpu", 1.0),), iterations: int = 1000, games: int = 10, *,
                    options: str = TODAY, name: str = "tool_grid", seed: int = 40,
                    openings: int = 2, progress=None, jobs: int = 1, callback=None
                    ) -> ExperimentResult:
    """Each ``(key, value)`` of ``points`` added to ``options`` against ``options`` alone.

    Both bots at ``iterations`` per move (equal iterations: this picks a value,
    it does not measure the tool at equal time), ``games`` games each, the
    same openings for every point. Summary: each point's score, and per key
    the value with the best score.
    """
    start = time.perf_counter()
    games, runner = _common(name, games, seed, "codingame", jobs, None, callback)
    progress = _Progress(progress)
    today = _iterations(variant(options), iterations)
    starts = _starts(games, openings, seed)
    for key, value in points:
        extra = f"{key}={value:g}" if isinstance(value, (int, float)) else f"{key}={value}"
        _match(runner, progress, f"{extra} vs today", f"{key}={value}",
               _iterations(variant(options, extra), iterations), today, starts, games)
    best: dict = {}
    for (key, value), c in zip(points, runner.played):
        if key not in best or c.score > best[key]["score"]:
            best[key] = {"value": value, "score": c.score, "interval_95": c.interval_95}
    summary = {"points": _points(runner.played), "best": best,
               "rule": "per key, the value with the best score is the one screened next"}
    return _finish(runner, start, title=f"tool values at {iterations:,} iterations, equal "
                   "iterations", scoring="codingame", reproducible=True, summary=summary,
                   notes=[TIME_NOTE], parameters=_parameters(
                       runner, points=[list(p) for p in points], iterations=iterations,
                       games=games, options=options, openings=openings,
                       machine=_machine()))


def screen_experiment(variants: dict, iterations: int = 1000, games: int = 10, *,
                      options: str = TODAY, name: str = "screens", seed: int = 41,
                      openings: int = 2, first_factor: float | None = None, progress=None,
                      jobs: int = 1, callback=None) -> ExperimentResult:
    """Each variant against ``options`` at equal time, ``games`` games each.

    ``variants`` maps a label to ``(extra, ratio)``: the keys added to
    ``options`` and the variant's iterations per CPU second relative to
    today's bot; the variant runs ``round(iterations * ratio)`` a move and
    today's bot ``iterations``. ``first_factor`` gives both a first move of
    that many times their budget (CodinGame's 1,000 ms first turn: 10).
    """
    start = time.perf_counter()
    games, runner = _common(name, games, seed, "codingame", jobs, None, callback)
    progress = _Progress(progress)
    today = _budget(variant(options), iterations, first_factor)
    starts = _starts(games, openings, seed)
    for label, (extra, ratio) in variants.items():
        count = max(1, round(iterations * ratio))
        _match(runner, progress, f"{label} vs today", label,
               _budget(variant(options, extra), count, first_factor), today, starts, games)
    summary = {"points": _points(runner.played)}
    return _finish(runner, start, title=f"each tool against today's bot at equal time "
                   f"({iterations:,} iterations for today's)", scoring="codingame",
                   reproducible=True, summary=summary, notes=[TIME_NOTE],
                   parameters=_parameters(runner, variants={k: list(v) for k, v in
                                                            variants.items()},
                                          iterations=iterations, games=games, options=options,
                                          openings=openings, first_factor=first_factor,
                                          machine=_machine()))


def decision_experiment(a: str, b: str, a_iterations: int | None, b_iterations: int | None,
                        max_games: int = 1000, *, name: str = "decision", seed: int = 42,
                        openings: int = 2, first_factor: float | None = None,
                        ms: float | None = None,
                        elo0: float = DECISION_TEST["elo0"], elo1: float = DECISION_TEST["elo1"],
                        alpha: float = DECISION_TEST["alpha"],
                        beta: float = DECISION_TEST["beta"], sequential: bool = True,
                        progress=None, jobs: int = 1, callback=None) -> ExperimentResult:
    """Bot A (options ``a``) against bot B (options ``b``), stopped by the Elo SPRT.

    Pairs of games until the test (H0 ``elo0`` against H1 ``elo1``, pentanomial,
    maximum-likelihood LLR, ``alpha`` and ``beta``) decides, or undecided at
    ``max_games``; with ``sequential=False`` exactly ``max_games`` games (the
    test is still computed on them, for the record). Counts ``a_iterations``
    and ``b_iterations`` stand in for equal time; or, with ``ms`` (and both
    counts None), both bots get ``ms`` milliseconds a move on the clock, the
    first move too: the timed match of the issue's target, which cannot repeat
    game for game (``reproducible`` is False), to be run one game per core on a
    quiet machine.
    """
    counts = (a_iterations, b_iterations)
    if (None in counts) if ms is None else (counts != (None, None)):
        raise ValueError("give both iteration counts, or ms (a time a move) and no counts; "
                         f"got a_iterations={a_iterations}, b_iterations={b_iterations}, ms={ms}.")
    if ms is not None and first_factor is not None:
        raise ValueError("a timed decision gives every move the same ms; first_factor is for "
                         "counts.")
    start = time.perf_counter()
    max_games, runner = _common(name, max_games, seed, "codingame", jobs, None, callback)
    if max_games % 2:
        raise ValueError(f"max_games must be even (pairs of games), got {max_games}.")
    test = EloSPRT(elo0, elo1, alpha, beta)
    progress = _Progress(progress)
    if ms is None:
        bot_a = _budget(variant(a), a_iterations, first_factor)
        bot_b = _budget(variant(b), b_iterations, first_factor)
    else:
        bot_a, bot_b = _milliseconds(variant(a), ms), _milliseconds(variant(b), ms)
    starts = _starts(max_games, openings, seed)
    _match(runner, progress, "A vs B", None, bot_a, bot_b, starts, max_games,
           test if sequential else None)
    summary = {"tests": [_test_summary(test, runner.played[0], max_games)],
               "points": _points(runner.played)}
    notes = [("Sequential: the match stops at the first pair after which the test decides, or "
              f"undecided at {max_games} games, both fixed before the first game." if sequential
              else f"Fixed size: {max_games} games, fixed before the first game."), TIME_NOTE]
    return _finish(runner, start, title="a decision by the sequential test", scoring="codingame",
                   reproducible=ms is None, summary=summary, notes=notes,
                   parameters=_parameters(runner, a=str(bot_a), b=str(bot_b),
                                          max_games=max_games, openings=openings,
                                          first_factor=first_factor, sequential=sequential,
                                          test=_test_parameters(test, max_games),
                                          machine=_machine()))


def _budget(spec: BotSpec, iterations: int, first_factor: float | None) -> BotSpec:
    spec = _iterations(spec, iterations)
    if first_factor is not None:
        spec = dataclasses.replace(spec, first_iterations=round(first_factor * iterations))
    return spec


def _points(comparisons) -> list:
    return [{"label": c.label, "a": c.a, "b": c.b, "games": c.games, "score": c.score,
             "interval_95": c.interval_95, "wins": c.wins, "draws": c.draws,
             "losses": c.losses} for c in comparisons]


def load(name: str, directory=None) -> ExperimentResult:
    """The stored result ``NAME.json`` of this chapter (default folder :data:`DIRECTORY`)."""
    return ExperimentResult.load(Path(directory or DIRECTORY) / f"{name}.json")


# ----------------------------------------------------------------------------- speed and strength


#: The stored benchmark runs the chapter reads (``benchmarks/results``).
BENCHMARK_RESULTS = DATA_DIR.parents[1] / "benchmarks" / "results"


def speed_ladder(path=None) -> dict:
    """The stored run of ``benchmarks/speed_ladder.py``: ``{rung: {position: it per CPU s}}``.

    Rungs in the ladder's order (the side step ``make/unmake`` after ``copy once``).
    """
    data = json.loads(Path(path or BENCHMARK_RESULTS / "speed_ladder.json").read_text())
    rates: dict = {}
    for key, rate in data["rates_per_cpu_second"].items():
        rung, position = key.split(" | ")
        rates.setdefault(rung, {})[position] = rate
    return rates


def toolbox_ratios(path=None) -> dict:
    """The stored run of ``benchmarks/toolbox_speed.py``: ``{variant: speed ratio to today}``."""
    text = Path(path or BENCHMARK_RESULTS / "toolbox_speed.txt").read_text()
    ratios = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 7 and parts[1].isdigit():
            ratios[parts[0]] = float(parts[4])
    return ratios


def openspiel_match(name: str, path=None) -> dict:
    """The one match of a stored ``benchmarks/uttt_strength.py`` run, as its summary dict.

    Chapter "How a Legend bot gets its strength" (against OpenSpiel's MCTS). Reads
    ``NAME.json`` in :data:`BENCHMARK_RESULTS` (or ``path``); keys as the script
    writes them (``factor``, ``games``, ``our_ms_per_move``, ``openspiel_ms_per_move``,
    and per scoring ``wins``, ``draws``, ``losses``, ``score``, ``interval_95``), plus
    OpenSpiel's ``uct_c`` and our bot's ``bot`` SPEC from the run's header.
    """
    run = json.loads(Path(path or BENCHMARK_RESULTS / f"{name}.json").read_text())
    if len(run["matches"]) != 1:
        raise ValueError(f"{name}.json holds {len(run['matches'])} matches; give a run of one "
                         "factor (--openspiel-factor F).")
    return {**run["matches"][0]["summary"], "uct_c": run["uct_c"], "bot": run["bot"]}


def elo_per_doubling(doubling: ExperimentResult | None = None) -> list[tuple[int, float]]:
    """Chapter 5's Elo per doubling: ``[(N, Elo of N iterations against N / 2), ...]``.

    From ``data/uttt/realistic/doubling.json`` (plain UCT, 200 games a point)
    unless another result of that experiment is given.
    """
    if doubling is None:
        doubling = load_experiment("doubling", DATA_DIR / "realistic")
    return [(int(c.value), elo_from_score(c.score)) for c in doubling.comparisons]


def predicted_elo(low: float, high: float, doublings: list[tuple[int, float]]) -> float:
    """The Elo that going from ``low`` to ``high`` iterations a move is worth, by the doubling curve.

    The doubling measured at N (N against N / 2) is taken to hold on the whole
    stretch from N / 2 to N, in log2 of the budget; below the first and above the
    last measured budget the nearest doubling's Elo is used (an extrapolation).
    The result is that Elo per doubling times the doublings covered, summed.
    """
    if not (low > 0 and high > 0):
        raise ValueError(f"low and high must be budgets above 0, got {low} and {high}.")
    sign = 1.0
    if high < low:
        low, high, sign = high, low, -1.0
    total, points = 0.0, sorted(doublings)
    for k, (budget, elo) in enumerate(points):
        start = -math.inf if k == 0 else math.log2(budget / 2)
        end = math.inf if k == len(points) - 1 else math.log2(budget)
        overlap = min(end, math.log2(high)) - max(start, math.log2(low))
        if overlap > 0:
            total += elo * overlap
    return sign * total


#: The rows of the chapter's results table, one a tool: (tool, its key in the speed run
#: :func:`toolbox_ratios` or None, its comparison in ``tool_grid`` or None, and its screen
#: as ``(stored file, comparison)`` or None). Only finished runs are named. Time management's
#: screen is not at equal time: it plays by CodinGame's turn rules (a first turn ten times as
#: long, the extension beyond the budget).
TABLE_ROWS = (
    ("first-play urgency 1.2", "fpu=1.2", "fpu=1.2 vs today", ("screens", "fpu vs today")),
    ("score bounds", "bounds", None, ("screens", "bounds vs today")),
    ("anti-decisive, tree", "tree_safe", None, ("screens", "tree_safe vs today")),
    ("anti-decisive, playouts", "playout=safe", None, ("screens_slow", "safe vs today")),
    ("MAST, epsilon 0.8", "mast=0.8", "mast=0.8 vs today", ("screens_slow", "mast vs today")),
    ("time management", None, None, ("time_screen", "time vs today")),
)


def results_table(rows=TABLE_ROWS, directory=None, ratios=None) -> list[dict]:
    """The chapter's results table: one dict a tool, read from the stored runs.

    Keys: ``tool``; ``speed`` (iterations per CPU second against today's bot,
    :func:`toolbox_ratios`, or None); ``grid`` and ``screen``: the tool's
    comparison at equal iterations in ``tool_grid`` and in its screen (an
    :class:`~mctslib.experiments.uttt.results.Comparison`), or None where the
    row names none. Files come from :data:`DIRECTORY` (or ``directory``).
    """
    ratios = toolbox_ratios() if ratios is None else ratios
    cache: dict = {}

    def comparison(name, label):
        if name not in cache:
            cache[name] = load(name, directory)
        return cache[name].comparison(label)

    return [{"tool": tool, "speed": None if key is None else ratios[key],
             "grid": None if grid is None else comparison("tool_grid", grid),
             "screen": None if screen is None else comparison(*screen)}
            for tool, key, grid, screen in rows]


def decision_line(name: str, directory=None) -> str:
    """One stored decision (``decide``) in one line: budget, verdict, W-D-L, score and Elo.

    Chapter "How a Legend bot gets its strength". The budget is the two iteration
    counts, or the milliseconds on the clock with the time each side really used a
    move; the verdict is the sequential test's (``H0``, ``H1``, or ``no decision``
    when it stopped at its cap), or ``fixed size`` for a run of fixed size; score
    and Elo carry their 95% intervals (bot A's point of view).
    """
    decision = load(name, directory)
    c, test = decision.comparisons[0], decision.summary["tests"][0]
    a, b = parse_spec(c.a), parse_spec(c.b)
    if a.ms is None:
        budget = f"{a.iterations:,} vs {b.iterations:,} iterations a move"
    else:
        used = " and ".join(f"{1000 * s:.0f}" for s in c.seconds_per_move)
        budget = f"{a.ms:g} ms a move each on the clock ({used} ms used)"
    elo, low, high = elo_interval((c.score, c.low, c.high))
    # A fixed-size run computes the test only for the record: its crossing is no verdict.
    verdict = (f"{test['decision'] or 'no decision'} after" if decision.parameters["sequential"]
               else "fixed size,")
    return (f"{budget}: {verdict} {c.games} games, "
            f"{c.wins}-{c.draws}-{c.losses}, score {c.score:.3f} [{c.low:.3f}, {c.high:.3f}], "
            f"{elo:+.0f} Elo [{low:+.0f}, {high:+.0f}]")


# ----------------------------------------------------------------------------- command line


def _variant_arg(text: str) -> tuple[str, tuple[str, float]]:
    """``LABEL=EXTRA@RATIO`` -> ``(LABEL, (EXTRA, RATIO))``."""
    label, _, rest = text.partition("=")
    extra, _, ratio = rest.rpartition("@")
    if not label or not extra or not ratio:
        raise argparse.ArgumentTypeError(f"a variant is LABEL=OPTIONS@RATIO, got {text!r}")
    return label, (extra, float(ratio))


def _point_arg(text: str) -> tuple[str, float | str]:
    key, _, value = text.partition("=")
    if not key or not value:
        raise argparse.ArgumentTypeError(f"a point is KEY=VALUE, got {text!r}")
    try:
        return key, float(value)
    except ValueError:
        return key, value


def main(argv=None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m mctslib.experiments.uttt.legend",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="experiment", required=True)
    grid = sub.add_parser("grid", help="tool values at equal iterations")
    grid.add_argument("--points", type=_point_arg, nargs="+", required=True)
    grid.add_argument("--iterations", type=int, default=5000)
    grid.add_argument("--games", type=int, default=200)
    screen = sub.add_parser("screen", help="each tool against today's bot at equal time")
    screen.add_argument("--variant", type=_variant_arg, action="append", required=True,
                        help="LABEL=OPTIONS@RATIO; the label ends at the first '=', so it "
                             "holds none (safe=playout=safe@0.3)")
    screen.add_argument("--iterations", type=int, default=20000)
    screen.add_argument("--games", type=int, default=400)
    decide = sub.add_parser("decide", help="one variant against one bot, the Elo SPRT")
    decide.add_argument("--a", required=True, help="bot A's options (a SPEC without 'uct:')")
    decide.add_argument("--b", default=TODAY, help="bot B's options (default: today's)")
    decide.add_argument("--a-iterations", type=int, default=None)
    decide.add_argument("--b-iterations", type=int, default=None)
    decide.add_argument("--ms", type=float, default=None,
                        help="both bots on the clock, this many ms a move (instead of counts)")
    decide.add_argument("--max-games", type=int, default=1000)
    decide.add_argument("--elo1", type=float, default=DECISION_TEST["elo1"])
    decide.add_argument("--fixed", action="store_true",
                        help="play exactly --max-games games (no sequential stop)")
    for each in (grid, screen, decide):
        each.add_argument("--name", required=True)
        each.add_argument("--seed", type=int, default=None)
        each.add_argument("--openings", type=int, choices=(0, 2), default=2,
                          help="2: seeded 2-ply openings (default); 0: the empty board")
        each.add_argument("--jobs", type=int, default=1)
        each.add_argument("--out-dir", default=str(DIRECTORY))
    for each in (screen, decide):
        each.add_argument("--first-factor", type=float, default=None,
                          help="a first move of this many times the budget (CodinGame: 10)")
    args = parser.parse_args(argv)
    out_dir = Path(args.out_dir)
    progress = progress_path(args.name, out_dir)
    extra = {"seed": args.seed} if args.seed is not None else {}
    common = {"name": args.name, "openings": args.openings, "progress": progress,
              "jobs": args.jobs, "callback": print, **extra}
    load_before = os.getloadavg()
    try:
        if args.experiment == "grid":
            result = grid_experiment(args.points, args.iterations, args.games, **common)
        elif args.experiment == "screen":
            result = screen_experiment(dict(args.variant), args.iterations, args.games,
                                       first_factor=args.first_factor, **common)
        else:
            result = decision_experiment(args.a, args.b, args.a_iterations, args.b_iterations,
                                         args.max_games, first_factor=args.first_factor,
                                         ms=args.ms,
                                         elo1=args.elo1, sequential=not args.fixed, **common)
    except ValueError as error:
        parser.error(str(error))
    result.parameters["load_before"] = list(load_before)
    result.parameters["load_after"] = list(os.getloadavg())
    result.parameters["command"] = "python -m mctslib.experiments.uttt.legend " + " ".join(
        sys.argv[1:] if argv is None else argv)
    path = result.save(out_dir / f"{args.name}.json")
    print(result.table())
    print(f"{result.seconds:.0f} s; written to {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
