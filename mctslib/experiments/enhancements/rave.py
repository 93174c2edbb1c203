"""RAVE and GRAVE measured against plain UCT on Hex and Ultimate Tic-Tac-Toe (chapter "Enhancements that matter").

Three things for the chapter:

* **Matches** (:data:`EXPERIMENTS`, :func:`run_experiment`): each named
  experiment is a few comparisons, bot A against bot B with the project's
  arena (:func:`mctslib.play.arena.play_match`): random openings, each played
  twice with the sides swapped, iteration budgets (the same games on any
  machine and under any load) or time budgets (equal time; the lead runs
  those on a quiet machine). A run is stored as ``data/rave/NAME.json`` with
  every game's letter (W/D/L for A, in game order), so that the notebook can
  replay the first few games and check them one for one (:func:`replay`).
  Command: ``python -m mctslib.experiments.enhancements.rave NAME [--only LABEL] [--games N]``.
* **Beta schedules** (:func:`beta_curves`): ``beta`` against visits for the
  minimum-MSE and the hand-selected schedules, for a few parameters.
* **The bias RAVE blends out** (:func:`amaf_bias`): on one position, for each
  root move, the AMAF value, the move's real mean, the blended value and
  ``beta`` as a RAVE search grows, next to a reference value of the move from
  long UCT searches.

Why one module of about 620 lines: the experiment registry (:data:`EXPERIMENTS`) holds plans
that read other stored runs of the same registry (the confirmation reads the grid, the
follow-ups read its winner), so the plans, the runner and the stored format move together;
the two small measurements of the RAVE section (schedules, bias) sit beside them because the
chapter imports all of its RAVE numbers from one place. Split the schedules and the bias out
first if it grows.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ..._checks import check_choice, check_int, check_real
from ...bots.rave import RAVESpec, RAVEUCTSpec
from ...bots.uttt import BotSpec, parse_spec, random_openings
from ...fast import hex as fast_hex
from ...fast import hex_uct
from ...fast.xorshift import new_rng
from ...games.hex import Hex
from ...play.arena import letters, play_match
from ...play.openings import distinct_random_positions
from ...search.rave import _hand_beta, _mse_beta
from ..stored import dataclass_json

DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "rave"


# ------------------------------------------------------------------------ openings


def hex_openings(count: int, plies: int = 2, size: int = 7, seed=0) -> list[Hex]:
    """``count`` distinct Hex positions reached by ``plies`` uniformly random moves.

    ``count`` 1 to 10,000, ``plies`` 0 to 10, ``size`` 2 to 11; ``seed`` goes
    through :func:`mctslib.rng.make_rng`. Each opening is played twice in a
    match (sides swapped), which cancels Hex's first-player advantage.
    """
    count = check_int("count (openings)", count, 1, 10_000)
    plies = check_int("plies (random moves per opening)", plies, 0, 10)
    size = check_int("size", size, 2, fast_hex.MAX_FAST_SIZE)
    if plies == 0:
        if count > 1:
            raise ValueError("with plies = 0 there is one opening (the empty board): count "
                             "must be 1.")
        return [Hex(size)]
    return distinct_random_positions(lambda: Hex(size), count, plies, seed)


def _openings(game: str, games: int, plies: int, seed: int) -> list:
    count = max(1, (games + 1) // 2)
    if game == "hex":
        return hex_openings(count, plies, 7, seed)
    return random_openings(count, plies, seed)


# ------------------------------------------------------------------------ experiments


@dataclass(frozen=True)
class Plan:
    """One comparison of an experiment: bot A against bot B over ``games`` games."""

    label: str
    a: object  # RAVESpec or BotSpec
    b: object
    games: int


def _hex(kind, iterations=None, ms=None, **options) -> RAVESpec:
    return RAVESpec("hex", kind, iterations=iterations, ms=ms, **options)


def _uttt(kind, iterations=None, ms=None, **options) -> RAVESpec:
    return RAVESpec("uttt", kind, iterations=iterations, ms=ms, **options)


#: The tuned settings (data/rave/hex_tuning.json, uttt: data/uttt's c = 0.5 for UCT).
HEX_UCT_C, HEX_RAVE_BIAS = 0.4, 0.03
UTTT_UCT_C, UTTT_RAVE_BIAS, UTTT_RAVE_C = 0.5, 0.1, 0.25


def _tuning_plans(iterations: int, games: int) -> list[Plan]:
    base = _hex("uct", iterations, c=HEX_UCT_C)
    plans = [Plan(f"uct c={c:g}", _hex("uct", iterations, c=c), base, games)
             for c in (0.2, 0.6, 1.0)]
    plans += [Plan(f"rave b={b:g}", _hex("rave", iterations, bias=b), base, games)
              for b in (0.03, 0.1, 0.3)]
    return plans


def _versus_uct(game: str, iterations=None, ms=None, games=400) -> list[Plan]:
    make, c, bias = (_hex, HEX_UCT_C, HEX_RAVE_BIAS) if game == "hex" else \
        (_uttt, UTTT_UCT_C, UTTT_RAVE_BIAS)
    if game == "uttt" and ms is not None:
        # Equal time: the baseline is the chapter's fastest UCT (mctslib.fast.uttt_uct).
        base = BotSpec("uct", c=c, ms=ms, first_ms=ms)
    else:
        base = make("uct", iterations, ms, c=c)
    plans = [Plan("rave vs uct", make("rave", iterations, ms, bias=bias), base, games),
             Plan("grave vs uct", make("grave", iterations, ms, bias=bias), base, games)]
    if game == "uttt":  # c = 0 loses on UTTT; c = 0.25 does not (data/rave/uttt_tuning.json)
        plans += [Plan(f"{kind} c={UTTT_RAVE_C:g} vs uct",
                       make(kind, iterations, ms, c=UTTT_RAVE_C, bias=bias), base, games)
                  for kind in ("rave", "grave")]
    return plans


def _uttt_tuning_plans(iterations: int, games: int) -> list[Plan]:
    # RAVE with c = 0 and b = 0.1 lost 0.075 to UCT at 20,000 (uttt_20k): is it the settings?
    base = _uttt("uct", iterations, c=UTTT_UCT_C)
    return [Plan(f"rave c={c:g} b={b:g}", _uttt("rave", iterations, c=c, bias=b), base, games)
            for c, b in ((0.25, 0.1), (0.25, 1.0))]


# RAVE inside chapter 5's bot (mctslib.fast.uttt_rave_uct), at the bot's playing budget. The
# plan (data/rave/README.md, written before the runs): a coarse grid of c and b, without and with
# the heuristic prior, 40 games a cell against the bot; then the best cell of each half (highest
# score; ties to the lower c, then the lower b) in a confirmation of 200 new games each.
#: Iterations a move for both sides: chapter 5's playing budget (mctslib.experiments.uttt.playing).
BOT_ITERATIONS = 100_000
#: The bot RAVE plays against: chapter 5's options without tree reuse and the centre opening.
BOT_OPTIONS = "scale=01,wins=on,solver=on"
#: The grid: exploration constants, RAVE biases, prior strengths (virtual visits; 0: no prior).
GRID_C, GRID_BIAS, GRID_PRIOR = (0.25, 0.5), (0.03, 0.1, 0.3), (0.0, 20.0)
GRID_GAMES, CONFIRM_GAMES = 40, 200


def _bot_uct(iterations: int, c: float = UTTT_UCT_C) -> BotSpec:
    return parse_spec(f"uct:c={c:g},{BOT_OPTIONS},iters={iterations}")


def _bot_rave(iterations: int, c: float, bias: float, prior: float,
              amaf: bool = True) -> RAVEUCTSpec:
    return RAVEUCTSpec(f"uct:c={c:g},{BOT_OPTIONS},iters={iterations}", amaf=amaf, bias=bias,
                       prior_visits=prior)


def grid_label(c: float, bias: float, prior: float) -> str:
    """A grid cell's label in the stored files, e.g. ``"rave c=0.25 b=0.1 prior=20"``."""
    return f"rave c={c:g} b={bias:g}" + (f" prior={prior:g}" if prior else "")


def _bot_grid_plans(iterations: int = BOT_ITERATIONS, games: int = GRID_GAMES) -> list[Plan]:
    base = _bot_uct(iterations)
    return [Plan(grid_label(c, b, prior), _bot_rave(iterations, c, b, prior), base, games)
            for prior in GRID_PRIOR for c in GRID_C for b in GRID_BIAS]


def grid_winners(grid: RAVEExperiment) -> dict:
    """The best cell of each half of a stored grid: ``{prior: (c, bias)}``.

    Highest score; ties go to the lower c, then the lower b (the rule fixed
    before the grid ran). ValueError if a half is incomplete.
    """
    winners = {}
    for prior in GRID_PRIOR:
        cells = {(c, b): None for c in GRID_C for b in GRID_BIAS}
        for row in grid.comparisons:
            for c, b in cells:
                if row["label"] == grid_label(c, b, prior):
                    cells[c, b] = row["score"]
        missing = [key for key, score in cells.items() if score is None]
        if missing:
            raise ValueError(f"the grid has no stored cell for {missing} (prior {prior:g}): run "
                             f"it before the confirmation.")
        winners[prior] = max(cells, key=lambda key: (cells[key], -key[0], -key[1]))
    return winners


def stored_grid_winners() -> dict:
    """:func:`grid_winners` of the stored ``uttt_bot_grid`` run: the confirmation's cells."""
    return grid_winners(load_experiment("uttt_bot_grid"))


def _bot_confirm_plans(iterations: int = BOT_ITERATIONS,
                       games: int = CONFIRM_GAMES) -> list[Plan]:
    winners = stored_grid_winners()
    base = _bot_uct(iterations)
    return [Plan(grid_label(c, b, prior), _bot_rave(iterations, c, b, prior), base, games)
            for prior, (c, b) in winners.items()]


# Two follow-ups to the confirmation, declared after it (data/rave/README.md), 200 games each:
# the prior alone (no AMAF tables) at the same c, and RAVE with the prior at the CPU time of the
# bot's 100,000 iterations: the bot's count times the stored speed ratio
# (benchmarks/results/rave_speed.json, UTTT empty board, "rave + prior in the bot").
#: From the benchmark measured on an idle machine (ratio 0.323): the chapter's match.
BOT_EQUAL_CPU_ITERATIONS = 32_300
#: From the first benchmark, measured at load 14-17 on 2 cores (ratio 0.232, about 30% low for
#: UTTT): the history match ``uttt_bot_equal_cpu``, which the chapter no longer uses.
BOT_EQUAL_CPU_LOADED = 23_200
FOLLOW_UP_GAMES = 200


def _prior_winner() -> tuple[float, float, float]:
    """The grid's winner with the prior: ``(c, bias, prior_visits)``."""
    [prior] = [p for p in GRID_PRIOR if p]
    c, bias = stored_grid_winners()[prior]
    return c, bias, prior


def _bot_prior_only_plans(iterations: int = BOT_ITERATIONS,
                          games: int = FOLLOW_UP_GAMES) -> list[Plan]:
    c, bias, prior = _prior_winner()  # the bias is unused without AMAF tables
    return [Plan(f"prior c={c:g} prior={prior:g}", _bot_rave(iterations, c, bias, prior, False),
                 _bot_uct(iterations), games)]


def _bot_equal_cpu_plans(iterations: int = BOT_EQUAL_CPU_ITERATIONS,
                         games: int = FOLLOW_UP_GAMES) -> list[Plan]:
    c, bias, prior = _prior_winner()
    return [Plan(f"{grid_label(c, bias, prior)} at {iterations}",
                 _bot_rave(iterations, c, bias, prior), _bot_uct(BOT_ITERATIONS), games)]


def _bot_quick_plans() -> list[Plan]:  # the tests' smoke run
    return [Plan("rave c=0.25 b=0.1 prior=20", _bot_rave(300, 0.25, 0.1, 20.0),
                 _bot_uct(300), 4)]


# Hex at equal CPU time, with repeatable games: UCT gets as many more iterations as it runs in
# the CPU time RAVE (GRAVE) needs for 10,000, by benchmarks/results/rave_speed.json (Hex rows,
# measured on an idle machine: RAVE 0.722 and GRAVE 0.708 of UCT's iterations per CPU-second,
# so 13,800 and 14,100).
HEX_EQUAL_CPU = {"rave": 13_800, "grave": 14_100}
#: The same from the first benchmark (load 14-17: 0.774 and 0.679): the history match
#: ``hex_equal_cpu``, which the chapter no longer uses.
HEX_EQUAL_CPU_LOADED = {"rave": 12_900, "grave": 14_700}


def _hex_equal_cpu_plans(counts: dict = HEX_EQUAL_CPU, games: int = 400) -> list[Plan]:
    return [Plan(f"{kind} vs uct {iterations}", _hex(kind, 10_000, bias=HEX_RAVE_BIAS),
                 _hex("uct", iterations, c=HEX_UCT_C), games)
            for kind, iterations in counts.items()]


#: Experiment name -> (game, opening plies, seed, comparisons; or a function that returns them,
#: for a plan that depends on stored results).
EXPERIMENTS = {
    "hex_quick": ("hex", 2, 10, _versus_uct("hex", 200, games=4)),  # the tests' smoke run
    "hex_tuning": ("hex", 2, 11, _tuning_plans(10_000, 100)),
    "hex_10k": ("hex", 2, 12, _versus_uct("hex", 10_000)),
    "hex_50k": ("hex", 2, 13, _versus_uct("hex", 50_000)),
    "hex_time": ("hex", 2, 14, _versus_uct("hex", ms=100.0)),
    "uttt_tuning": ("uttt", 2, 18, _uttt_tuning_plans(20_000, 60)),
    "uttt_20k": ("uttt", 2, 15, _versus_uct("uttt", 20_000)),
    "uttt_100k": ("uttt", 2, 16, _versus_uct("uttt", 100_000)),
    "uttt_time": ("uttt", 2, 17, _versus_uct("uttt", ms=100.0)),
    "hex_equal_cpu": ("hex", 2, 22, _hex_equal_cpu_plans(HEX_EQUAL_CPU_LOADED)),  # history
    "hex_equal_cpu_idle": ("hex", 2, 25, _hex_equal_cpu_plans()),
    "uttt_bot_quick": ("uttt", 2, 21, _bot_quick_plans),
    "uttt_bot_grid": ("uttt", 2, 19, _bot_grid_plans),
    "uttt_bot_confirm": ("uttt", 2, 20, _bot_confirm_plans),
    "uttt_bot_prior_only": ("uttt", 2, 23, _bot_prior_only_plans),
    "uttt_bot_equal_cpu": ("uttt", 2, 24,  # history
                           lambda: _bot_equal_cpu_plans(BOT_EQUAL_CPU_LOADED)),
    "uttt_bot_equal_cpu_idle": ("uttt", 2, 26, _bot_equal_cpu_plans),
}


@dataclass
class Comparison:
    """One stored comparison: A's score and every game's letter (game order)."""

    label: str
    a: dict
    b: dict
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    interval_95: list
    results: str
    seconds: float
    load_average_before: list
    load_average_after: list
    seconds_per_move: list

    def __str__(self) -> str:
        low, high = self.interval_95
        return (f"{self.label}: {self.score:.3f} [{low:.3f}, {high:.3f}] "
                f"({self.games} games, {self.wins}-{self.draws}-{self.losses})")


@dataclass
class RAVEExperiment:
    """A stored experiment (``data/rave/NAME.json``)."""

    name: str
    game: str
    plies: int
    seed: int
    comparisons: list = field(default_factory=list)
    command: str = ""
    machine: dict = field(default_factory=dict)
    notes: str = ("Times per move are wall time on a 2-core machine shared with other work "
                  "(see the load averages); they are not speeds (benchmarks/rave_speed.py).")

    def to_json(self) -> str:
        return dataclass_json(self)

    def format(self) -> str:
        return "\n".join([f"{self.name} ({self.game}):"]
                         + [f"  {Comparison(**c)}" for c in self.comparisons])


def _spec_dict(spec) -> dict:
    data = spec.as_dict()
    data["bot"] = type(spec).__name__
    return data


def load_experiment(name: str, directory=None) -> RAVEExperiment:
    """Read ``data/rave/NAME.json`` (ValueError naming the file if it is not one)."""
    path = Path(directory or DATA_DIR) / f"{_name(name)}.json"
    try:
        return RAVEExperiment(**json.loads(path.read_text()))
    except (OSError, TypeError, ValueError) as error:
        raise ValueError(f"{path} does not hold a stored RAVE experiment ({error}).") from None


def _name(name: str) -> str:
    return check_choice("name (experiment)", name, tuple(EXPERIMENTS))


def _plans(name: str, only: str | None) -> list[Plan]:
    plans = EXPERIMENTS[_name(name)][3]
    if callable(plans):
        plans = plans()
    if only is None:
        return plans
    labels = tuple(plan.label for plan in plans)
    check_choice("only (a comparison label)", only, labels)
    return [plan for plan in plans if plan.label == only]


def play(name: str, label: str, games: int | None = None, jobs: int = 1) -> Comparison:
    """Play comparison ``label`` of experiment ``name`` (its first ``games`` games)."""
    game, plies, seed, _ = EXPERIMENTS[_name(name)]
    plan = _plans(name, label)[0]
    games = plan.games if games is None else check_int("games", games, 1, plan.games)
    before = list(os.getloadavg())
    start = time.perf_counter()
    match = play_match(plan.a, plan.b, _openings(game, plan.games, plies, seed), games,
                       seed=seed, jobs=check_int("jobs", jobs, 1, 64), description=label)
    low, high = match.interval
    return Comparison(plan.label, _spec_dict(plan.a), _spec_dict(plan.b), match.games,
                      match.wins, match.draws, match.losses, match.score, [low, high],
                      letters(match.records),
                      time.perf_counter() - start, before, list(os.getloadavg()),
                      list(match.seconds_per_move()))


def replay(name: str, label: str, games: int, directory=None) -> tuple[str, str]:
    """Re-play the first ``games`` games of a stored comparison: ``(stored, replayed)`` letters.

    Iteration budgets give the same games on any machine, so the two strings
    are equal (the notebook checks); time budgets do not replay.
    """
    stored = load_experiment(name, directory)
    rows = [c for c in stored.comparisons if c["label"] == label]
    if not rows:
        raise ValueError(f"{name} has no stored comparison {label!r}.")
    a = rows[0]["a"]
    if (parse_spec(a["spec"]).iterations if "spec" in a else a.get("iterations")) is None:
        raise ValueError("a comparison on the clock does not replay game for game.")
    games = check_int("games", games, 1, rows[0]["games"])
    return rows[0]["results"][:games], play(name, label, games).results


def run_experiment(name: str, only: str | None = None, games: int | None = None,
                   jobs: int = 1, directory=None) -> RAVEExperiment:
    """Play experiment ``name`` (or its comparison ``only``) and store it in ``data/rave``.

    A comparison already stored under the same label is replaced; the others
    in the file are kept, so an experiment can be run a comparison at a time.
    """
    game, plies, seed, _ = EXPERIMENTS[_name(name)]
    directory = Path(directory or DATA_DIR)
    path = directory / f"{name}.json"
    try:
        result = load_experiment(name, directory)
    except ValueError:
        result = RAVEExperiment(name, game, plies, seed)
    for plan in _plans(name, only):
        comparison = play(name, plan.label, games, jobs)
        print(comparison, f"({comparison.seconds:.0f} s)", flush=True)
        result.comparisons = [c for c in result.comparisons if c["label"] != plan.label]
        result.comparisons.append(asdict(comparison))
        order = [p.label for p in _plans(name, None)]
        result.comparisons.sort(key=lambda c: order.index(c["label"]))
        result.command = f"python -m mctslib.experiments.enhancements.rave {name}"
        result.machine = {"cpus": os.cpu_count(), "load_average": list(os.getloadavg())}
        directory.mkdir(parents=True, exist_ok=True)
        path.write_text(result.to_json() + "\n")
    return result


def main(argv=None) -> int:
    """``python -m mctslib.experiments.enhancements.rave NAME [--only LABEL] [--games N] [--jobs J]``."""
    parser = argparse.ArgumentParser(prog="python -m mctslib.experiments.enhancements.rave",
                                     description="RAVE / GRAVE against UCT (data/rave).")
    parser.add_argument("name", choices=tuple(EXPERIMENTS))
    parser.add_argument("--only", default=None, help="one comparison label")
    parser.add_argument("--games", type=int, default=None, help="fewer games (smoke run)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=None, help="folder (default data/rave)")
    args = parser.parse_args(argv)
    try:
        result = run_experiment(args.name, args.only, args.games, args.jobs, args.out)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(result.format())
    return 0


# ------------------------------------------------------------------------ beta schedules


@dataclass(frozen=True)
class BetaCurves:
    """``beta`` against visits: one row per schedule and parameter."""

    visits: list
    curves: dict  # label -> list of beta, one per entry of visits


def beta_curves(visits=None, biases=(0.05, 0.1, 0.3), equivalences=(100.0, 1000.0, 10000.0),
                amaf_per_visit: float = 10.0) -> BetaCurves:
    """The weight of AMAF as a child gains visits, for both schedules of Gelly and Silver (2011).

    For the minimum-MSE schedule ``beta`` depends on the child's visits ``n``
    and its AMAF count, taken as ``amaf_per_visit * n`` (>= 1, at most 1,000: a move
    is credited by AMAF in many simulations for each one that plays it first);
    for the hand-selected one on the parent's visits, taken as ``n`` (what a
    child that gets every visit sees). ``visits`` are whole numbers >= 1
    (default: 1 to 100,000, logarithmically spaced); ``biases`` in [0, 1],
    ``equivalences`` >= 0. Chapter "Enhancements that matter".
    """
    if visits is None:
        visits = sorted({int(v) for v in np.logspace(0, 5, 60)})
    visits = [check_int("visits", v, 1, 10**9) for v in visits]
    ratio = check_real("amaf_per_visit", amaf_per_visit, 1.0, 1000.0)
    curves = {}
    for b in biases:
        b = check_real("bias (b)", b, 0.0, 1.0)
        curves[f"mse b={b:g}"] = [_mse_beta(v, int(ratio * v), b) for v in visits]
    for k in equivalences:
        k = check_real("equivalence (k)", k, 0.0)
        curves[f"hand k={k:g}"] = [_hand_beta(v, k) for v in visits]
    return BetaCurves(visits, curves)


# ------------------------------------------------------------------------ the AMAF bias


@dataclass(frozen=True)
class AMAFBias:
    """Each root move of a position as a RAVE search grows, next to its reference value.

    ``moves[i]`` has ``reference[i]`` (its value from a long UCT search below
    it), and for each checkpoint ``j`` (``checkpoints[j]`` iterations):
    ``visits[j][i]``, ``mean[j][i]`` (real mean, nan if unvisited),
    ``amaf[j][i]`` (AMAF mean at the root), ``beta[j][i]`` and
    ``blended[j][i]``, the value RAVE's selection uses without exploration.
    """

    position: str
    moves: list
    reference: list
    checkpoints: list
    visits: list
    mean: list
    amaf: list
    beta: list
    blended: list
    bias: float


def amaf_bias(state: Hex, checkpoints=(100, 1_000, 10_000), bias: float = 0.1,
              reference_iterations: int = 20_000, c: float = 0.2, seed: int = 1) -> AMAFBias:
    """How AMAF values differ from real ones, and how RAVE's blend moves from one to the other.

    A RAVE search (``"mse"`` schedule with ``bias``, exploration ``c`` so
    that every move gets real visits) runs from the Hex position ``state``
    and is read at each checkpoint (iterations, ascending, 1 to 1,000,000).
    Each root move's reference value is ``1 -`` the mean of the most visited
    reply in a UCT search of ``reference_iterations`` (1 to 1,000,000) from
    the position after it (c = 0.4), that is the mover's value when the
    opponent answers well. Chapter "Enhancements that matter".
    """
    if not isinstance(state, Hex) or state.is_terminal():
        raise ValueError("state must be a Hex position with a move to play.")
    checkpoints = [check_int("checkpoints", n, 1, 1_000_000) for n in checkpoints]
    if not checkpoints or checkpoints != sorted(set(checkpoints)):
        raise ValueError("checkpoints must be ascending, distinct whole numbers.")
    bias = check_real("bias (b)", bias, 0.0, 1.0)
    c = check_real("c (the exploration constant)", c, 0.0, 10.0)
    reference_iterations = check_int("reference_iterations", reference_iterations, 1,
                                     1_000_000)
    seed = check_int("seed", seed, 0)
    moves_count = state.size * state.size
    player = state.player_to_move
    root = fast_hex.to_array(state)
    pool = hex_uct.RAVEPool(1 + moves_count * checkpoints[-1], checkpoints[-1] + 2,
                            moves_count)
    work = hex_uct.work_arrays(root.shape[0], moves_count)
    rng = new_rng(seed + 1)
    rows = {key: [] for key in ("visits", "mean", "amaf", "beta", "blended")}
    done = 0
    for target in checkpoints:
        hex_uct.search(root, target - done, c, True, hex_uct.MSE, bias, 0.0, -1, 0,
                       moves_count, rng, pool.used, *pool.arrays(), *work)
        done = target
        children = list(pool.children(0))
        row = {key: [] for key in rows}
        for i in children:
            n = int(pool.visits[i])
            av, aw = pool.amaf(0, player, int(pool.move[i]))
            amaf = aw / av if av else math.nan
            mean = float(pool.wins[i]) / n if n else math.nan
            beta = _mse_beta(n, av, bias)
            row["visits"].append(n)
            row["mean"].append(mean)
            row["amaf"].append(amaf)
            row["beta"].append(beta)
            row["blended"].append(amaf if n == 0 else (1 - beta) * mean + beta * (
                amaf if av else 0.0))
        for key, column in rows.items():
            column.append(row[key])
    moves = [int(pool.move[i]) for i in pool.children(0)]
    reference = []
    ref_pool = hex_uct.RAVEPool(1 + moves_count * reference_iterations, 0, moves_count)
    for move in moves:
        after = state.play(move)
        if after.is_terminal():
            reference.append(1.0)
            continue
        ref_pool.reset()
        hex_uct.search(fast_hex.to_array(after), reference_iterations, 0.4, False,
                       hex_uct.MSE, 0.0, 0.0, -1, 0, moves_count, new_rng(seed + 2),
                       ref_pool.used, *ref_pool.arrays(), *work)
        kids = list(ref_pool.children(0))
        best = max(kids, key=lambda i: (int(ref_pool.visits[i]), -i))
        reference.append(1.0 - float(ref_pool.wins[best]) / int(ref_pool.visits[best]))
    return AMAFBias(state.grid(), moves, reference, checkpoints, rows["visits"], rows["mean"],
                    rows["amaf"], rows["beta"], rows["blended"], bias)


if __name__ == "__main__":
    sys.exit(main())


# ------------------------------------------------------------------------ the blend, step by step


@dataclass(frozen=True)
class BlendSnapshot:
    """The root of a growing RAVE search after ``iterations``: one entry per root move.

    ``visits[i]`` and ``mean[i]`` are move ``moves[i]``'s real visits and mean,
    ``amaf_visits[i]`` and ``amaf_mean[i]`` its AMAF count and mean at the root,
    ``beta[i]`` the weight of AMAF and ``blend[i] = (1 - beta) mean + beta amaf_mean``,
    the value selection adds its exploration term to (nan where a mean is missing).
    """

    iterations: int
    moves: list
    visits: list
    mean: list
    amaf_visits: list
    amaf_mean: list
    beta: list
    blend: list


def blend_snapshots(state, checkpoints=(10, 30, 100, 300, 1000, 3000), exploration: float = 1.0,
                    bias: float = 0.1, seed: int = 7) -> list[BlendSnapshot]:
    """One readable RAVE search from ``state``, read at each checkpoint (iterations).

    The search (:class:`mctslib.search.rave.RAVESearch`, minimum-MSE schedule with
    ``bias``, exploration ``exploration``, seeded ``seed``) grows one iteration at a time,
    so each snapshot is the same tree a little later. ``checkpoints``: ascending, distinct,
    1 to 100,000. The chapter's figure of AMAF being blended out, on tic-tac-toe.
    """
    from ...search.rave import RAVESearch

    checkpoints = [check_int("checkpoints", n, 1, 100_000) for n in checkpoints]
    if not checkpoints or checkpoints != sorted(set(checkpoints)):
        raise ValueError("checkpoints must be ascending, distinct whole numbers.")
    search = RAVESearch(exploration, bias=bias, iterations=1, seed=seed)
    root = search.search(state)
    done, snapshots = 1, []
    for target in checkpoints:
        while done < target:
            search.iterate(root, state)
            done += 1
        rows = search.root_stats()
        blend = [(1 - r.beta) * r.mean + r.beta * r.amaf_mean if r.amaf_visits else r.mean
                 for r in rows]
        snapshots.append(BlendSnapshot(done, [r.move for r in rows], [r.visits for r in rows],
                                       [r.mean for r in rows], [r.amaf_visits for r in rows],
                                       [r.amaf_mean for r in rows], [r.beta for r in rows],
                                       blend))
    return snapshots
