"""Tuned baselines on Goofspiel: each method's best parameter at each budget, then the comparison.

The simultaneous-moves chapter compares SM-MCTS with decoupled UCB1 (DUCT),
with regret matching and with Exp3, and Smitsimax, by the exact distance
from equilibrium (NashConv) of what each has learned. A comparison with one
untuned constant says little (the UCT chapters' lesson), so this module
first **tunes** every method at every budget and only then **compares**:

1. :func:`tuning_experiment`: for every method and every value of its
   parameter (UCB1's ``c`` for DUCT and Smitsimax, the exploration share
   ``gamma`` for regret matching and Exp3), grow one search per tuning seed
   and measure NashConv at each budget (1k, 10k, 100k iterations); a method's
   best value at a budget is the one with the lowest median over seeds;
2. the comparison (same call): every method with its best value at each
   budget, grown again on *fresh* seeds (so that picking the best of many
   values on the tuning seeds does not flatter it), measured at that budget.

Both final-move rules are measured everywhere: ``mix`` (a node plays its
visit-count mix, the average strategy) and ``max`` (its most chosen action).

Rewards are in ``[0, 1]``; on 4-card Goofspiel with point scoring the payoff
runs from -10 to 10, so **one point is 0.05** of reward, and ``c = 0.1`` is
an exploration bonus of two points at ``ln N / n = 1``.

NashConv is the sum of both players' best-response gains, in points
(:func:`mctslib.search.backward_induction.nash_conv`); OpenSpiel's
``exploitability`` is half of it for two players. The command line runs the
full experiment and stores it::

    python -m mctslib.experiments.simultaneous.tuning --out data/simultaneous/tuning.json

Chapter "When both players move at once (simultaneous moves)".
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..._checks import check_int, check_real
from ...games.goofspiel import Goofspiel
from ...search.backward_induction import nash_conv, solve_game
from ...search.simultaneous_search import MAX_ITERATIONS
from ...search.smitsimax import Smitsimax
from ...search.smmcts import SMMCTS
from ..stored import dataclass_json, load_dataclass, write_and_report
from .smmcts import _maybe_progress

__all__ = [
    "C_GRID",
    "EXPLORATION_GRID",
    "METHODS",
    "TuningResult",
    "compare_at_best",
    "make_search",
    "merge_results",
    "tuning_experiment",
]

#: Every method: (search, selection rule, backup, name of the tuned parameter).
#: ``duct`` is standard DUCT (sample backup, Tak et al. 2014); ``duct_mean`` is the
#: chapter's earlier variant that passes up the child's mean; ``rm`` and ``exp3``
#: use the mean backup Lisý et al. (2013) analyse, ``*_sample`` the sample one.
METHODS = {
    "duct": ("smmcts", "duct", "sample", "c"),
    "duct_mean": ("smmcts", "duct", "mean", "c"),
    "rm": ("smmcts", "rm", "mean", "exploration"),
    "rm_sample": ("smmcts", "rm", "sample", "exploration"),
    "exp3": ("smmcts", "exp3", "mean", "exploration"),
    "exp3_sample": ("smmcts", "exp3", "sample", "exploration"),
    "smitsimax": ("smitsimax", None, None, "c"),
}

#: UCB1 constants tried, on the [0, 1] reward scale (one Goofspiel point is 0.05).
C_GRID = (0.0125, 0.025, 0.05, 0.1, 0.2, 0.4, 0.8, 1.6)

#: Exploration shares tried for regret matching and Exp3.
EXPLORATION_GRID = (0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.4)

#: Budgets (iterations) at which every search is measured.
BUDGETS = (1_000, 10_000, 100_000)

#: Where ``python -m mctslib.experiments.simultaneous.tuning`` stores the full run.
DEFAULT_DATA = Path("data") / "simultaneous" / "tuning.json"

#: Final-move rules measured.
FINALS = ("mix", "max")


def parameter_name(method: str) -> str:
    """``"c"`` or ``"exploration"``: the parameter tuned for ``method``."""
    return METHODS[_check_method(method)][3]


def _check_method(method) -> str:
    if not isinstance(method, str) or method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}.")
    return method


def make_search(method: str, value: float, root, seed):
    """A fresh search of kind ``method`` with its tuned parameter set to ``value``.

    ``method`` is a key of :data:`METHODS`; ``value`` is UCB1's ``c`` (>= 0) or
    the exploration share (in ``(0, 1]``), ``seed`` seeds every random choice.
    """
    kind, selection, backup, name = METHODS[_check_method(method)]
    if kind == "smitsimax":
        return Smitsimax(root, c=value, seed=seed)
    if name == "c":
        return SMMCTS(root, selection, c=value, backup=backup, seed=seed)
    return SMMCTS(root, selection, exploration=value, backup=backup, seed=seed)


def _grid(method: str, c_grid, exploration_grid) -> list[float]:
    return list(c_grid if parameter_name(method) == "c" else exploration_grid)


def _measure(search, budgets: list[int], bar) -> dict:
    """Grow ``search`` through ``budgets``; NashConv of both final-move rules at each."""
    row = {final: [] for final in FINALS}
    for budget in budgets:
        step = budget - search.iterations
        search.run(step)
        bar.update(step)
        for final in FINALS:
            row[final].append(nash_conv(search.root_state, search.profile(final)))
    return row


@dataclass
class TuningResult:
    """What :func:`tuning_experiment` measured (all distances are NashConv in points).

    Attributes
    ----------
    cards : int
        The Goofspiel game (point scoring, prizes highest first).
    budgets : list of int
    tuning_seeds, compare_seeds : list of int
    methods : list of str
    grids : dict
        ``{method: [values tried]}``.
    tuning : dict
        ``{method: {final: [[NashConv at each budget] for each seed] for each value]}}``,
        values in the order of ``grids[method]``.
    best : dict
        ``{method: [best value at each budget]}`` (lowest median with ``mix``).
    compare : dict
        ``{method: {final: [[NashConv at each budget] for each compare seed]}}``,
        each budget grown with that budget's best value.
    seconds : dict
        ``{"tuning": ..., "compare": ...}`` wall seconds (load dependent).
    uniform, version, command : the uniform profile's NashConv, the library
        version, the command that reproduces the file.
    """

    cards: int
    budgets: list
    tuning_seeds: list
    compare_seeds: list
    methods: list
    grids: dict
    tuning: dict = field(default_factory=dict)
    best: dict = field(default_factory=dict)
    compare: dict = field(default_factory=dict)
    seconds: dict = field(default_factory=dict)
    uniform: float = 0.0
    version: str = ""
    command: str = ""

    def tuning_medians(self, method: str, final: str = "mix") -> list[list[float]]:
        """``[[median over seeds at each budget] for each value]`` of ``method``'s grid."""
        rows = self.tuning[_check_method(method)][final]
        return [[statistics.median(seed_row[k] for seed_row in per_value)
                 for k in range(len(self.budgets))] for per_value in rows]

    def compare_medians(self, method: str, final: str = "mix") -> list[float]:
        """Median over the compare seeds at each budget (each budget at its best value)."""
        rows = self.compare[_check_method(method)][final]
        return [statistics.median(row[k] for row in rows) for k in range(len(self.budgets))]

    def format(self) -> str:
        """Plain-text tables: every grid's medians, then the comparison at the best values."""
        lines = []
        for method in self.methods:
            name = parameter_name(method)
            lines.append(f"{method} ({name}): median NashConv over seeds {self.tuning_seeds}")
            lines.append(f"{name:>12}" + "".join(f"{b:>10,}" for b in self.budgets))
            for value, medians in zip(self.grids[method], self.tuning_medians(method)):
                lines.append(f"{value:>12g}" + "".join(f"{m:>10.3f}" for m in medians))
        lines.append(f"comparison on fresh seeds {self.compare_seeds} (best value, median, "
                     "mix / max)")
        for method in self.methods:
            cells = [f"{v:g}: {a:.3f}/{b:.3f}" for v, a, b in zip(
                self.best[method], self.compare_medians(method, "mix"),
                self.compare_medians(method, "max"))]
            lines.append(f"{method:>12} " + " | ".join(cells))
        return "\n".join(lines)

    def to_json(self) -> str:
        return dataclass_json(self)

    @classmethod
    def load(cls, path=DEFAULT_DATA) -> TuningResult:
        """Read a result stored by ``python -m mctslib.experiments.simultaneous.tuning``."""
        return load_dataclass(cls, path, "a tuning result written by python -m "
                                         "mctslib.experiments.simultaneous.tuning")


def _best_values(medians: list[list[float]], grid: list[float]) -> list[float]:
    """At each budget the value with the lowest median (the first one on exact ties)."""
    return [grid[min(range(len(grid)), key=lambda i: (medians[i][k], i))]
            for k in range(len(medians[0]))]


def tuning_experiment(cards: int = 4, budgets: Sequence[int] = BUDGETS,
                      tuning_seeds: Sequence[int] = (0, 1, 2),
                      compare_seeds: Sequence[int] = (100, 101, 102),
                      methods: Sequence[str] = tuple(METHODS),
                      c_grid: Sequence[float] = C_GRID,
                      exploration_grid: Sequence[float] = EXPLORATION_GRID,
                      progress: bool = False, command: str = "") -> TuningResult:
    """Tune every method at every budget on Goofspiel, then compare at the best values.

    Parameters
    ----------
    cards : int
        Goofspiel with ``cards`` cards (1 to 5; every measurement is exact).
    budgets : sequence of int
        Increasing iteration counts (at most :data:`MAX_ITERATIONS`).
    tuning_seeds, compare_seeds : sequence of int
        Seeds for the grid, and fresh seeds for the comparison.
    methods : sequence of str
        Keys of :data:`METHODS`.
    c_grid, exploration_grid : sequence of float
        Values tried for UCB1's ``c`` (>= 0) and for the exploration share (in (0, 1]).
    progress : bool
        Show a progress bar.
    command : str
        Stored with the result (the command line that made it).

    Returns
    -------
    TuningResult

    Notes
    -----
    Pure Python, one process: about 45 thousand SM-MCTS iterations a second
    (Smitsimax about 24 thousand) and 0.07 s per exact measurement. The
    default grid on 3 + 3 seeds to 100k iterations takes about half an hour.
    """
    from ..._version import __version__
    from ...search.backward_induction import uniform_profile

    root = Goofspiel(cards)
    if root.cards > 5:
        raise ValueError(f"cards must be from 1 to 5 here (exact measurements), got {cards}.")
    budgets = [check_int("each budget", b, 1, MAX_ITERATIONS) for b in budgets]
    if not budgets or any(b <= a for a, b in itertools.pairwise(budgets)):
        raise ValueError(f"budgets must be increasing whole numbers >= 1, got {budgets}.")
    tuning_seeds = [check_int("each tuning seed", s, 0) for s in tuning_seeds]
    compare_seeds = [check_int("each compare seed", s, 0) for s in compare_seeds]
    if not tuning_seeds or not compare_seeds:
        raise ValueError("tuning_seeds and compare_seeds must each hold at least one seed.")
    methods = [_check_method(m) for m in ([methods] if isinstance(methods, str) else methods)]
    c_grid = [check_real("each c", c, 0.0) for c in c_grid]
    exploration_grid = [check_real("each exploration", g, 0.0, 1.0) for g in exploration_grid]
    if 0.0 in exploration_grid:
        raise ValueError("each exploration must be in (0, 1]: importance weighting divides by "
                         "the probability of the action played.")
    if not c_grid or not exploration_grid:
        raise ValueError("c_grid and exploration_grid must each hold at least one value.")
    solve_game(root)  # warms nothing up, but fails early on a game too large to solve
    result = TuningResult(root.cards, budgets, tuning_seeds, compare_seeds, methods,
                          {m: _grid(m, c_grid, exploration_grid) for m in methods},
                          uniform=nash_conv(root, uniform_profile), version=__version__,
                          command=command)
    grid_work = sum(len(result.grids[m]) for m in methods) * len(tuning_seeds) * budgets[-1]
    compare_work = len(methods) * len(compare_seeds) * sum(budgets)
    with _maybe_progress(progress, grid_work + compare_work,
                         "tuning simultaneous-move searches") as bar:
        start = time.perf_counter()
        for method in methods:
            per_value = [[_measure(make_search(method, value, root, seed), budgets, bar)
                          for seed in tuning_seeds] for value in result.grids[method]]
            result.tuning[method] = {final: [[row[final] for row in rows] for rows in per_value]
                                     for final in FINALS}
            result.best[method] = _best_values(result.tuning_medians(method),
                                               result.grids[method])
        result.seconds["tuning"] = time.perf_counter() - start
        _compare(result, root, bar)
    return result


def compare_at_best(result: TuningResult, compare_seeds: Sequence[int],
                    progress: bool = False) -> TuningResult:
    """Redo the comparison of a stored tuning on other fresh seeds (the grid is kept).

    Returns ``result`` with ``compare_seeds``, ``compare`` and ``seconds["compare"]`` replaced.
    """
    if not isinstance(result, TuningResult):
        raise ValueError(f"result must be a TuningResult, got {type(result).__name__}.")
    result.compare_seeds = [check_int("each compare seed", s, 0) for s in compare_seeds]
    if not result.compare_seeds:
        raise ValueError("compare_seeds must hold at least one seed.")
    work = len(result.methods) * len(result.compare_seeds) * sum(result.budgets)
    with _maybe_progress(progress, work, "tuning simultaneous-move searches") as bar:
        _compare(result, Goofspiel(result.cards), bar)
    return result


def merge_results(results: Sequence[TuningResult]) -> TuningResult:
    """One result from runs of different methods on the same game, budgets and seeds.

    Lets a long tuning run as several processes (one per group of methods)
    and be stored as one file; ``seconds`` adds up, ``command`` joins the
    commands with `` && ``. Raises ValueError if the runs do not fit together.
    """
    results = list(results)
    if not results or not all(isinstance(r, TuningResult) for r in results):
        raise ValueError("results must be a non-empty sequence of TuningResult objects.")
    first = results[0]
    key = (first.cards, first.budgets, first.tuning_seeds, first.compare_seeds)
    for other in results[1:]:
        if (other.cards, other.budgets, other.tuning_seeds, other.compare_seeds) != key:
            raise ValueError("results must share cards, budgets, tuning seeds and compare seeds.")
        if set(other.methods) & set(first.methods):
            raise ValueError("results must measure different methods.")
    merged = TuningResult(first.cards, first.budgets, first.tuning_seeds, first.compare_seeds,
                          [], {}, uniform=first.uniform, version=first.version)
    for result in results:
        merged.methods += result.methods
        for name in ("grids", "tuning", "best", "compare"):
            getattr(merged, name).update(getattr(result, name))
        for part, seconds in result.seconds.items():
            merged.seconds[part] = merged.seconds.get(part, 0.0) + seconds
    merged.command = " && ".join(r.command for r in results)
    return merged


def _compare(result: TuningResult, root, bar) -> None:
    """Grow every method at each budget's best value on the compare seeds; NashConv there."""
    start = time.perf_counter()
    for method in result.methods:
        table = {final: [] for final in FINALS}
        for seed in result.compare_seeds:
            row = {final: [] for final in FINALS}
            for budget, value in zip(result.budgets, result.best[method]):
                measured = _measure(make_search(method, value, root, seed), [budget], bar)
                for final in FINALS:
                    row[final].append(measured[final][0])
            for final in FINALS:
                table[final].append(row[final])
        result.compare[method] = table
    result.seconds["compare"] = time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> None:
    """Run the tuning and the comparison and store them (``python -m mctslib.experiments.simultaneous.tuning``)."""
    parser = argparse.ArgumentParser(
        prog="python -m mctslib.experiments.simultaneous.tuning",
        description="Tune DUCT, regret matching, Exp3 and Smitsimax on Goofspiel at each budget "
                    "(median NashConv over seeds), compare them at their best values on fresh "
                    "seeds, and store both as JSON.")
    parser.add_argument("--out", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--cards", type=int, default=4)
    parser.add_argument("--budgets", type=int, nargs="+", default=list(BUDGETS))
    parser.add_argument("--tuning-seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--compare-seeds", type=int, nargs="+",
                        default=list(range(100, 110)))
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=list(METHODS))
    parser.add_argument("--c-grid", type=float, nargs="+", default=list(C_GRID))
    parser.add_argument("--exploration-grid", type=float, nargs="+",
                        default=list(EXPLORATION_GRID))
    parser.add_argument("--recompare", type=Path, default=None,
                        help="load this stored tuning and redo only its comparison on "
                             "--compare-seeds")
    parser.add_argument("--merge", type=Path, nargs="+", default=None,
                        help="merge these stored tunings of different methods into --out "
                             "(merge_results) and run nothing")
    args = parser.parse_args(argv)
    command = "python -m mctslib.experiments.simultaneous.tuning " + " ".join(
        argv if argv is not None else __import__("sys").argv[1:])
    try:
        if args.merge is not None:
            result = merge_results([TuningResult.load(path) for path in args.merge])
        elif args.recompare is not None:
            result = compare_at_best(TuningResult.load(args.recompare), args.compare_seeds,
                                     progress=True)
            result.command += " && " + command.strip()
        else:
                result = tuning_experiment(args.cards, args.budgets, args.tuning_seeds,
                                       args.compare_seeds, args.methods, args.c_grid,
                                       args.exploration_grid, progress=True,
                                       command=command.strip())
    except ValueError as error:
        parser.error(str(error))
    write_and_report(result, args.out)


if __name__ == "__main__":
    main()
