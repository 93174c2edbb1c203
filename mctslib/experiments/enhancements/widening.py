"""Progressive widening against fixed grids on the continuous-bandit tree, and its widening steps.

Chapter "Enhancements that matter" (progressive widening). Two stored results
(``data/widening/``, regeneration commands in its README.md):

* :func:`regret_experiment`: :class:`~mctslib.search.widening.ProgressiveWideningSearch`
  with widening (``ceil(k n^alpha)`` children, uniformly drawn actions) and
  with fixed grids of ``m`` evenly spaced actions, at equal iteration budgets,
  each on many seeds. A run's *regret* is ``optimum - true value`` of its
  recommended first action (:attr:`~mctslib.search.widening.WideningResult.regret`);
  its *line regret* scores the whole recommended line (for a grid, the later
  choices are grid points too). Each point stores the mean with a 95%
  interval (mean ± 1.96 standard errors over seeds) and the grid's floor
  (:meth:`~mctslib.games.continuous.ContinuousBanditTree.grid_optimum`: the
  least line regret a grid of ``m`` allows). By default each run draws the
  first peak's position at random, so that the grids are compared over all
  positions of the peak, not at one where a grid happens to be lucky.
* :func:`children_over_time`: the root's children after each iteration for
  several ``(k, alpha)``, beside ``ceil(k n^alpha)``: the steps of the figure.

Command line::

    python -m mctslib.experiments.enhancements.widening regret
    python -m mctslib.experiments.enhancements.widening children
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ..._checks import check_bool, check_int, check_real
from ...fixed_order import mean, sample_variance
from ...games.continuous import ContinuousBanditTree
from ...search.widening import ProgressiveWideningSearch, widening_limit
from ..stored import dataclass_json

__all__ = ["DEFAULT_DATA", "ChildrenResult", "RegretResult", "children_over_time",
           "regret_experiment"]

#: Where the commands store their files.
DEFAULT_DATA = Path("data") / "widening"
#: The largest budget an experiment runs (the readable search: about 100 microseconds an iteration).
MAX_BUDGET = 100_000
#: The most seeds per point.
MAX_SEEDS = 10_000


def _checked_numbers(name, values, low, high, kind=int) -> tuple:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
        raise ValueError(f"{name} must be a non-empty list of numbers from {low} to {high}, "
                         f"got {values!r}.")
    check = check_int if kind is int else check_real
    return tuple(check(f"each of {name}", v, low, high) for v in values)


@dataclass(frozen=True)
class RegretResult:
    """Mean regret against the budget for widening and for fixed grids (see the module).

    ``points`` holds one entry per (method, budget): ``method`` ("widening" or
    ``"grid m"``), ``m`` (None for widening), ``iterations``, ``seeds``,
    ``regret`` and ``line_regret`` (means), their ``*_interval_95``,
    ``near_optimum`` (the fraction of runs whose first action's regret is below
    ``near``), ``nodes`` (mean tree size) and, for grids, ``grid_floor`` =
    ``1 - grid_optimum(m)``.
    """

    problem: str
    k: float
    alpha: float
    c: float
    seed: int
    near: float
    points: list
    seconds: float
    load: list
    notes: list = field(default_factory=list)

    def to_json(self) -> str:
        return dataclass_json(self)

    def format(self) -> str:
        lines = [f"{self.problem}, k = {self.k:g}, alpha = {self.alpha:g}, c = {self.c:g}"]
        for p in self.points:
            low, high = p["regret_interval_95"]
            lines.append(f"{p['method']:>10} {p['iterations']:>6} it: regret {p['regret']:.3f} "
                         f"[{low:.3f}, {high:.3f}], line {p['line_regret']:.3f}, near optimum "
                         f"{p['near_optimum']:.2f}")
        return "\n".join(lines)


def _interval(values) -> tuple[float, list]:
    m = mean(values)
    if len(values) < 2:
        return m, [m, m]
    half = 1.96 * math.sqrt(sample_variance(values) / len(values))
    return m, [m - half, m + half]


def _first_peak(seed: int, run: int) -> float:
    """Where run ``run``'s first peak sits: uniform on [0, 1), from ``SeedSequence(seed, (run, 1))``."""
    return float(np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(run, 1))).random())


def regret_experiment(budgets=(100, 300, 1000, 3000, 10_000), grids=(3, 5, 10, 20, 50), *,
                      seeds: int = 40, k: float = 1.0, alpha: float = 0.5, c: float = 0.5,
                      depth: int = 2, seed: int = 15, near: float = 0.02,
                      random_peak: bool = True) -> RegretResult:
    """Widening and fixed grids of ``m`` actions at equal budgets, ``seeds`` runs each.

    Parameters
    ----------
    budgets : sequence of int
        Iterations per search (each 1 to 100,000).
    grids : sequence of int
        Grid sizes ``m`` of the baselines (each 1 to 1,000).
    seeds : int
        Runs per point (2 to 10,000); run ``i`` uses the seed
        ``SeedSequence(seed, spawn_key=(i,))`` for every method and budget.
    k, alpha, c
        Widening scale and exponent, UCB1's constant (as the search checks them).
    depth : int
        Choices in the problem (1 to 4); the default problem otherwise.
    near : float
        A run is *near the optimum* when its regret is below this (0 to 1).
    random_peak : bool
        Run ``i`` places the first peak uniformly at random (drawn from
        ``SeedSequence(seed, spawn_key=(i, 1))``, the same for every method and
        budget) instead of at the default 0.618...: with one fixed peak, a grid
        whose points happen to fall near it looks good by luck (default True).
        Each grid's ``grid_floor`` is then the mean of its floors over the runs.
    """
    budgets = _checked_numbers("budgets", budgets, 1, MAX_BUDGET)
    grids = _checked_numbers("grids", grids, 1, 1000)
    seeds = check_int("seeds", seeds, 2, MAX_SEEDS)
    seed = check_int("seed", seed, 0)
    near = check_real("near", near, 0.0, 1.0)
    random_peak = check_bool("random_peak", random_peak)
    problem = ContinuousBanditTree(depth=depth)
    # Run i's problem: its own first peak (stream (i, 1); the search uses (i,)), or the default.
    problems = [ContinuousBanditTree(depth=depth, first_peak=_first_peak(seed, i))
                if random_peak else problem for i in range(seeds)]
    ProgressiveWideningSearch(k, alpha, c)  # the search's own checks, before any run
    load, start, points = list(os.getloadavg()), time.perf_counter(), []
    floors = {m: 1.0 - mean([p.grid_optimum(m) for p in problems]) for m in grids}
    for m in (None, *grids):
        for budget in budgets:
            runs = [ProgressiveWideningSearch(k, alpha, c, budget,
                                              np.random.SeedSequence(seed, spawn_key=(i,)),
                                              discretisation=m).run(problems[i])
                    for i in range(seeds)]
            regret, regret_ci = _interval([r.regret for r in runs])
            line, line_ci = _interval([r.optimum - r.line_value for r in runs])
            points.append({
                "method": "widening" if m is None else f"grid {m}", "m": m,
                "iterations": budget, "seeds": seeds, "regret": regret,
                "regret_interval_95": regret_ci, "line_regret": line,
                "line_regret_interval_95": line_ci,
                "near_optimum": sum(r.regret < near for r in runs) / seeds,
                "nodes": mean([r.nodes for r in runs]),
                "grid_floor": None if m is None else floors[m]})
    where = "first peak uniform at random per run" if random_peak else "first peak fixed"
    return RegretResult(problem=f"{problem!r}, {where}", k=k, alpha=alpha, c=c, seed=seed, near=near,
                        points=points, seconds=time.perf_counter() - start, load=load, notes=[
                            ("regret = 1 - best_value(first recommended action); line regret = "
                             "1 - best_value(recommended line); intervals: mean +- 1.96 standard "
                             "errors over seeds (the same seeds for every method and budget)"),
                            "seconds are wall time on a shared machine, not speeds"])


@dataclass(frozen=True)
class ChildrenResult:
    """The root's children after each iteration, for each ``(k, alpha)``, beside the limit.

    ``curves`` holds one entry per setting: ``k``, ``alpha``, ``children``
    (after iteration 1, 2, ...) and ``limit`` (``ceil(k n^alpha)`` at visit n).
    """

    iterations: int
    seed: int
    curves: list
    seconds: float

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    def format(self) -> str:
        return "\n".join(f"k = {c['k']:g}, alpha = {c['alpha']:g}: {c['children'][-1]} root "
                         f"children after {self.iterations} iterations (limit {c['limit'][-1]})"
                         for c in self.curves)


def children_over_time(iterations: int = 2000, settings=((1.0, 0.5), (1.0, 0.25), (2.0, 0.5),
                                                         (0.5, 0.75)), *, seed: int = 15
                       ) -> ChildrenResult:
    """Root children after each of ``iterations`` (1 to 100,000) iterations, per ``(k, alpha)``."""
    iterations = check_int("iterations", iterations, 1, MAX_BUDGET)
    if isinstance(settings, (str, bytes)) or not isinstance(settings, Sequence) or not settings:
        raise ValueError(f"settings must be a non-empty list of (k, alpha) pairs, got "
                         f"{settings!r}.")
    start, problem, curves = time.perf_counter(), ContinuousBanditTree(), []
    for pair in settings:
        if not isinstance(pair, Sequence) or len(pair) != 2:
            raise ValueError(f"each setting must be a pair (k, alpha), got {pair!r}.")
        k, alpha = pair
        result = ProgressiveWideningSearch(k, alpha, 0.5, iterations, seed).run(problem)
        curves.append({"k": float(k), "alpha": float(alpha),
                       "children": list(result.root_children),
                       "limit": [widening_limit(n, k, alpha) for n in range(1, iterations + 1)]})
    return ChildrenResult(iterations=iterations, seed=seed, curves=curves,
                          seconds=time.perf_counter() - start)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mctslib.experiments.enhancements.widening")
    parser.add_argument("command", choices=("regret", "children"))
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--budgets", type=int, nargs="+", default=[100, 300, 1000, 3000, 10_000])
    parser.add_argument("--grids", type=int, nargs="+", default=[3, 5, 10, 20, 50])
    parser.add_argument("--fixed-peak", action="store_true",
                        help="keep the first peak at 0.618... in every run (default: random)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args(argv)
    if args.command == "regret":
        result = regret_experiment(args.budgets, args.grids, seeds=args.seeds,
                                   random_peak=not args.fixed_peak)
        out = args.data / "regret.json"
    else:
        result = children_over_time()
        out = args.data / "children.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(result.to_json() + "\n")
    print(result.format())
    print(f"seconds {result.seconds:.0f}, load {os.getloadavg()}; written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
