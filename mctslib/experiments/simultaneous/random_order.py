"""Goofspiel with a random prize order: a game whose main line needs mixing.

With the prizes highest first, 687 of the 737 decision states of 4-card
Goofspiel have a pure computed equilibrium, and the first round has a saddle
point (both bid 4), so a search never has to mix on the main line. The
standard variant draws each round's prize at random from those left
(:class:`~mctslib.games.goofspiel.Goofspiel` with ``prize_order="random"``,
chance nodes solved exactly by :mod:`mctslib.search.backward_induction`).
This module measures, on that game:

1. :func:`equilibrium_census`: how many decision states there are, how many
   have a pure computed equilibrium, and at how many of the states where the
   players choose no equilibrium gives every bid the share ``gamma / k`` that
   exploration forces (one small linear programme per state and player: the
   mix that still guarantees the value with the largest smallest probability);
2. :func:`random_order_experiment`: the game value, the census for both
   prize orders, and the NashConv of SM-MCTS with DUCT (sample backup),
   regret matching and Exp3 (mean backups) at the values tuned on the
   *fixed* order (``data/simultaneous/tuning.json`` and ``tuning_100k.json``),
   at each budget, on a few seeds, under both final-move rules ("mix" and
   "max"). Smitsimax is not run here: its per-agent trees have no place for
   the chance draws yet (:class:`~mctslib.search.smitsimax.Smitsimax` refuses
   games with chance nodes).

NashConv is in points (the sum of both players' best-response gains;
OpenSpiel's ``exploitability`` is half of it). The command line stores the
full run::

    python -m mctslib.experiments.simultaneous.random_order --out data/simultaneous/random_order.json

Chapter "When both players move at once (simultaneous moves)", section on a
game that needs mixing.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..._checks import check_int, check_real
from ...games.goofspiel import Goofspiel
from ...search.backward_induction import (
    GameSolution,
    all_states,
    is_chance,
    nash_conv,
    solve_game,
    stage_game,
    uniform_profile,
)
from ..stored import dataclass_json, load_dataclass, write_and_report
from .tuning import TuningResult, make_search

__all__ = [
    "METHODS",
    "FirstRoundResult",
    "RandomOrderResult",
    "equilibrium_census",
    "first_round_experiment",
    "random_order_experiment",
    "recompare_at_budget",
    "tuned_values",
    "widest_equilibrium_mix",
]

#: The searches measured (keys of :data:`mctslib.experiments.simultaneous.tuning.METHODS`).
METHODS = ("duct", "rm", "exp3")

#: Where the command line stores the full run.
DEFAULT_DATA = Path("data") / "simultaneous" / "random_order.json"

#: The stored tunings on the fixed order whose best values are reused.
TUNINGS = (Path("data") / "simultaneous" / "tuning.json",
           Path("data") / "simultaneous" / "tuning_100k.json")

FINALS = ("mix", "max")


def widest_equilibrium_mix(table, value: float, player: int) -> float:
    """The largest smallest probability of a mix of ``player`` that still guarantees ``value``.

    ``table`` is player 0's payoff matrix of a stage game and ``value`` its
    value for player 0. The answer is at least ``gamma / k`` exactly when some
    equilibrium mix of that player can be played by a player who explores a
    share ``gamma`` uniformly over its ``k`` actions. One linear programme
    (``scipy.optimize.linprog``, HiGHS); the guarantee is relaxed by 1e-9.
    """
    from scipy.optimize import linprog  # scipy is needed only here, as in zero_sum

    payoffs = np.asarray(table, dtype=float) if player == 0 else -np.asarray(table, dtype=float).T
    goal = value if player == 0 else -value
    moves, replies = payoffs.shape
    cost = np.r_[np.zeros(moves), -1.0]  # variables: the mix, then its smallest entry
    keeps_value = np.c_[-payoffs.T, np.zeros(replies)]  # every reply leaves at least `goal`
    below_each = np.c_[-np.eye(moves), np.ones(moves)]  # smallest entry <= every entry
    result = linprog(cost, A_ub=np.r_[keeps_value, below_each],
                     b_ub=np.r_[np.full(replies, 1e-9 - goal), np.zeros(moves)],
                     A_eq=[np.r_[np.ones(moves), 0.0]], b_eq=[1.0],
                     bounds=[(0, None)] * moves + [(None, None)], method="highs")
    return float(-result.fun)


def equilibrium_census(solution: GameSolution, gamma: float = 0.1) -> dict:
    """Count the decision states of a solved game by the kind of equilibrium they have.

    Returns a dict of counts: ``states`` (all, chance and terminal included),
    ``chance``, ``decisions`` (states where the players bid), ``pure`` (whose
    computed equilibrium plays one bid per player), ``mixed``, ``one_card``
    (one legal bid each: nothing to choose), ``choosing`` (the other decision
    states), ``blocked`` (choosing states where no equilibrium gives every
    bid at least ``gamma / k``) and ``blocked_pure`` (of those, the ones with a
    pure computed equilibrium).
    """
    if not isinstance(solution, GameSolution):
        raise ValueError(f"solution must be a GameSolution (from solve_game), got "
                         f"{type(solution).__name__}.")
    gamma = check_real("gamma", gamma, 0.0, 1.0)
    states = all_states(solution.root)
    chance = [s for s in states if not s.is_terminal() and is_chance(s)]
    decisions = [s for s in states if not s.is_terminal() and not is_chance(s)]
    pure = {s for s in decisions
            if max(float(np.max(mix)) for mix in solution.strategies[s]) >= 1 - 1e-9}
    choosing = [s for s in decisions if len(s.legal_actions(0)) > 1 or len(s.legal_actions(1)) > 1]

    def explorable(state) -> bool:
        table = stage_game(state, solution.values).payoffs
        return all(widest_equilibrium_mix(table, solution.values[state], player)
                   >= gamma / len(state.legal_actions(player)) - 1e-9 for player in (0, 1))

    blocked = [s for s in choosing if not explorable(s)]
    return {"states": len(states), "chance": len(chance), "decisions": len(decisions),
            "pure": len(pure), "mixed": len(decisions) - len(pure),
            "one_card": len(decisions) - len(choosing), "choosing": len(choosing),
            "blocked": len(blocked), "blocked_pure": sum(s in pure for s in blocked)}


def tuned_values(tunings: Sequence[TuningResult], methods: Sequence[str],
                 budgets: Sequence[int]) -> dict:
    """``{method: [best value at each budget]}`` read from stored fixed-order tunings."""
    values = {}
    for method in methods:
        row = []
        for budget in budgets:
            found = [r.best[method][r.budgets.index(budget)] for r in tunings
                     if method in r.best and budget in r.budgets]
            if not found:
                raise ValueError(f"no stored tuning has {method} at {budget:,} iterations.")
            row.append(found[0])
        values[method] = row
    return values


@dataclass
class RandomOrderResult:
    """What :func:`random_order_experiment` measured (distances are NashConv in points).

    Attributes
    ----------
    cards, gamma : the game (point scoring) and the exploration share of the census.
    value : float
        Player 0's value of the random-order game (0 by symmetry).
    census : dict
        ``{"random": counts, "descending": counts}`` (:func:`equilibrium_census`).
    uniform : float
        NashConv of uniform play everywhere on the random-order game.
    budgets, seeds, methods : list
    values : dict
        ``{method: [parameter at each budget]}``, tuned on the fixed order.
    nash_conv : dict
        ``{method: {final: [[NashConv at each budget] for each seed]}}``.
    nodes : dict
        ``{method: [[tree nodes at each budget] for each seed]}``.
    seconds, version, command : wall seconds (load dependent), library version, command.
    """

    cards: int
    gamma: float
    value: float
    census: dict
    uniform: float
    budgets: list
    seeds: list
    methods: list
    values: dict
    nash_conv: dict = field(default_factory=dict)
    nodes: dict = field(default_factory=dict)
    seconds: dict = field(default_factory=dict)
    version: str = ""
    command: str = ""

    def medians(self, method: str, final: str = "mix") -> list[float]:
        """Median NashConv over the seeds at each budget."""
        rows = self.nash_conv[method][final]
        return [statistics.median(row[k] for row in rows) for k in range(len(self.budgets))]

    def to_json(self) -> str:
        return dataclass_json(self)

    @classmethod
    def load(cls, path=DEFAULT_DATA) -> RandomOrderResult:
        """Read a result stored by ``python -m mctslib.experiments.simultaneous.random_order``."""
        return load_dataclass(cls, path, "a result written by python -m "
                                         "mctslib.experiments.simultaneous.random_order")

    def format(self) -> str:
        lines = [(f"{self.cards}-card Goofspiel, random prize order: value {self.value:+.4f}, "
                 f"uniform play {self.uniform:.3f}")]
        for order, counts in self.census.items():
            lines.append(f"  {order}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
        for method in self.methods:
            for final in FINALS:
                lines.append(f"{method:>5} {final}: " + "  ".join(
                    f"{b:,}: " + " ".join(f"{row[k]:.3f}" for row in self.nash_conv[method][final])
                    for k, b in enumerate(self.budgets)))
        return "\n".join(lines)


@dataclass
class FirstRoundResult:
    """The first bid of the random-order game, solved exactly, after each possible first prize.

    Attributes
    ----------
    cards : int
    states, decisions : int
        All states of the game, and those where both players bid.
    value : float
        Player 0's value of the game.
    mixes : dict
        ``{prize: [player 0's equilibrium mix, player 1's]}`` over bids ``1..cards``, after
        ``prize`` is drawn first (keys are strings, as JSON has them).
    maximin, minimax : dict
        ``{prize: ...}``: the best player 0 can guarantee with a single bid there, and the
        least player 1 can hold it to with a single bid. Different: the stage game has no
        saddle point, so every equilibrium mixes.
    seconds, version, command : wall seconds (load dependent), library version, command.
    """

    cards: int
    states: int
    decisions: int
    value: float
    mixes: dict
    maximin: dict
    minimax: dict
    seconds: float = 0.0
    version: str = ""
    command: str = ""

    def to_json(self) -> str:
        return dataclass_json(self)

    @classmethod
    def load(cls, path) -> FirstRoundResult:
        """Read a result stored by ``... random_order --first-round``."""
        return load_dataclass(cls, path, "a first-round result written by python -m "
                                         "mctslib.experiments.simultaneous.random_order "
                                         "--first-round")

    def format(self) -> str:
        lines = [(f"{self.cards}-card Goofspiel, random prize order: {self.states:,} states, "
                 f"{self.decisions:,} decisions, value {self.value:+.4f}")]
        for prize, mixes in self.mixes.items():
            lines.append(f"  prize {prize} first: " + " / ".join(
                str(np.round(mix, 3).tolist()) for mix in mixes)
                + f"; pure maximin {self.maximin[prize]:+.3f}, minimax {self.minimax[prize]:+.3f}")
        return "\n".join(lines)


def first_round_experiment(cards: int = 4, command: str = "") -> FirstRoundResult:
    """Solve the random-order game and keep its first bid after each first prize.

    The stage game after each first prize is read from the solution's values
    (:func:`~mctslib.search.backward_induction.stage_game`); its pure maximin and minimax
    show whether a single bid can be an equilibrium there. Solving 4 cards takes about a
    minute; the chapter reads the stored result.
    """
    from ..._version import __version__

    cards = check_int("cards", cards, 1, 5)
    start = time.perf_counter()
    root = Goofspiel(cards, prize_order="random")
    solution = solve_game(root)
    states = all_states(root)
    decisions = [s for s in states if not s.is_terminal() and not is_chance(s)]
    mixes, maximin, minimax = {}, {}, {}
    for prize in range(1, cards + 1):
        first = root.apply_chance(prize)
        table = stage_game(first, solution.values).payoffs
        mixes[str(prize)] = [np.asarray(mix, dtype=float).tolist()
                             for mix in solution.strategies[first]]
        maximin[str(prize)] = float(table.min(axis=1).max())
        minimax[str(prize)] = float(table.max(axis=0).min())
    return FirstRoundResult(cards, len(states), len(decisions), solution.value + 0.0, mixes,
                            maximin, minimax, time.perf_counter() - start, __version__, command)


def measure_search(method: str, value: float, root, seed: int, budget: int) -> tuple:
    """Grow one search; return its NashConv under "mix" and "max" and its node count."""
    search = make_search(method, value, root, seed).run(budget)
    return (nash_conv(root, search.profile("mix")), nash_conv(root, search.profile("max")),
            sum(1 for _ in search.nodes()))


def random_order_experiment(cards: int = 4, budgets: Sequence[int] = (1_000, 10_000, 100_000),
                            seeds: Sequence[int] = (0, 1, 2), methods: Sequence[str] = METHODS,
                            tunings: Sequence[TuningResult] | None = None, gamma: float = 0.1,
                            command: str = "") -> RandomOrderResult:
    """Solve the random-order game, count its equilibria, and measure the tuned searches.

    ``tunings`` defaults to the stored fixed-order tunings (:data:`TUNINGS`, read
    relative to the working directory). Every search is grown afresh for each
    budget with that budget's tuned value, on each seed.
    """
    from ..._version import __version__

    cards = check_int("cards", cards, 1, 5)
    budgets = [check_int("each budget", b, 1) for b in budgets]
    seeds = [check_int("each seed", s, 0) for s in seeds]
    if tunings is None:
        tunings = [TuningResult.load(path) for path in TUNINGS]
    values = tuned_values(tunings, methods, budgets)
    start = time.perf_counter()
    root = Goofspiel(cards, prize_order="random")
    solution = solve_game(root)
    census = {"random": equilibrium_census(solution, gamma),
              "descending": equilibrium_census(solve_game(Goofspiel(cards)), gamma)}
    result = RandomOrderResult(cards, gamma, solution.value + 0.0, census,
                               nash_conv(root, uniform_profile), budgets, seeds, list(methods),
                               values, version=__version__, command=command)
    result.seconds["solve"] = time.perf_counter() - start
    start = time.perf_counter()
    for method in methods:
        table = {final: [] for final in FINALS}
        nodes = []
        for seed in seeds:
            measured = [measure_search(method, value, root, seed, budget)
                        for budget, value in zip(budgets, values[method])]
            table["mix"].append([m[0] for m in measured])
            table["max"].append([m[1] for m in measured])
            nodes.append([m[2] for m in measured])
        result.nash_conv[method], result.nodes[method] = table, nodes
        print(f"{method} done", flush=True)
    result.seconds["searches"] = time.perf_counter() - start
    return result


def recompare_at_budget(result: TuningResult, budget: int, compare_seeds: Sequence[int],
                        progress: bool = False) -> TuningResult:
    """The stored fixed-order comparison redone at one budget on other fresh seeds.

    Keeps ``result``'s grid and best values, drops every other budget, and grows
    each method at that budget's best value on ``compare_seeds``
    (:func:`mctslib.experiments.simultaneous.tuning.compare_at_best`). ``result`` is not changed.
    """
    from .tuning import compare_at_best

    if not isinstance(result, TuningResult):
        raise ValueError(f"result must be a TuningResult, got {type(result).__name__}.")
    if budget not in result.budgets:
        raise ValueError(f"budget must be one of the stored budgets {result.budgets}, got "
                         f"{budget!r}.")
    k = result.budgets.index(budget)
    grid_at_budget = {method: {final: [[[seed_row[k]] for seed_row in per_value]
                                       for per_value in rows] for final, rows in table.items()}
                      for method, table in result.tuning.items()}
    one = TuningResult(result.cards, [budget], list(result.tuning_seeds), [], list(result.methods),
                       dict(result.grids), tuning=grid_at_budget,
                       best={m: [v[k]] for m, v in result.best.items()},
                       uniform=result.uniform, version=result.version, command=result.command)
    return compare_at_best(one, compare_seeds, progress=progress)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the experiment and store it (``python -m mctslib.experiments.simultaneous.random_order``)."""
    parser = argparse.ArgumentParser(
        prog="python -m mctslib.experiments.simultaneous.random_order",
        description="Goofspiel with a random prize order: value, equilibrium census and the "
                    "NashConv of tuned SM-MCTS searches; stored as JSON.")
    parser.add_argument("--out", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--cards", type=int, default=4)
    parser.add_argument("--budgets", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=list(METHODS))
    parser.add_argument("--first-round", action="store_true",
                        help="instead: solve the game and store only its first bid after each "
                             "first prize (first_round_experiment)")
    parser.add_argument("--recompare-tuning", type=Path, default=None,
                        help="instead: redo this stored fixed-order tuning's comparison at the "
                             "one budget --budgets on the fresh seeds --seeds "
                             "(recompare_at_budget)")
    args = parser.parse_args(argv)
    command = "python -m mctslib.experiments.simultaneous.random_order " + " ".join(
        argv if argv is not None else __import__("sys").argv[1:])
    try:
        if args.first_round:
            result = first_round_experiment(args.cards, command=command.strip())
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(result.to_json() + "\n")
            print(result.format())
            print(f"seconds {result.seconds:.0f}; written to {args.out}")
            return
        if args.recompare_tuning is not None:
            if len(args.budgets) != 1:
                raise ValueError("--recompare-tuning needs exactly one budget in --budgets.")
            result = recompare_at_budget(TuningResult.load(args.recompare_tuning),
                                         args.budgets[0], args.seeds, progress=True)
            result.command += " && " + command.strip()
        else:
            result = random_order_experiment(args.cards, args.budgets, args.seeds,
                                             args.methods, command=command.strip())
    except ValueError as error:
        parser.error(str(error))
    write_and_report(result, args.out)


if __name__ == "__main__":
    main()
