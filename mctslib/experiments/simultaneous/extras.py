"""Two smaller experiments of the simultaneous-moves chapter: a turn-taking tree, and three agents.

1. :func:`sequential_experiment`: plain UCT on the turn-taking version of
   Goofspiel (:class:`mctslib.search.smmcts.SequentialUCT`, player 1 sees
   player 0's bid in the tree) and its exact NashConv as it grows, next to
   the uniform profile's. The chapter's first section showed one such tree
   beaten by "always rock" in a matrix game; this closes the loop on a whole
   game.
2. :func:`multi_agent_experiment`: on 3-agent Goofspiel
   (:class:`mctslib.games.multi_goofspiel.MultiGoofspiel`), how many nodes
   Smitsimax's per-agent trees and a joint-action DUCT tree
   (:class:`mctslib.search.smmcts.JointDUCT`) hold after the same iterations,
   how many visits a node gets on average, and how well each plays as agent 0
   against fixed opponents (uniformly random bidders, or bidders who always
   bid the prize's value) at the same iterations per move.

The command line runs both and stores them::

    python -m mctslib.experiments.simultaneous.extras --out data/simultaneous/extras.json

Chapter "When both players move at once (simultaneous moves)".
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..._checks import check_int, check_real
from ...fixed_order import mean, sample_variance
from ...games.goofspiel import Goofspiel
from ...games.multi_goofspiel import MultiGoofspiel
from ...search.backward_induction import nash_conv, uniform_profile
from ...search.smitsimax import Smitsimax
from ...search.smmcts import JointDUCT, SequentialUCT

__all__ = ["OPPONENTS", "multi_agent_experiment", "opponent_bid", "sequential_experiment",
           "tree_size_sweep"]

#: Where ``python -m mctslib.experiments.simultaneous.extras`` stores its results.
DEFAULT_DATA = Path("data") / "simultaneous" / "extras.json"

#: Fixed opponents of the multi-agent matches.
OPPONENTS = ("random", "prize")

#: The multi-agent searches compared.
MULTI_SEARCHES = ("smitsimax", "joint_duct")


def sequential_experiment(cards: int = 4, budgets: Sequence[int] = (1000, 10000, 100000),
                          seeds: Sequence[int] = (0, 1, 2), c: float = 0.1) -> dict:
    """NashConv (points) of a turn-taking UCT tree on Goofspiel at each budget, per seed.

    Returns ``{"cards", "budgets", "seeds", "c", "uniform", "nashconv": [[per budget] per seed],
    "median": [per budget]}``.
    """
    root = Goofspiel(cards)
    budgets = [check_int("each budget", b, 1) for b in budgets]
    c = check_real("c", c, 0.0)
    rows = []
    for seed in seeds:
        search, row = SequentialUCT(root, c=c, seed=check_int("each seed", seed, 0)), []
        for budget in budgets:
            search.run(budget - search.iterations)
            row.append(nash_conv(root, search.profile()))
        rows.append(row)
    return {"cards": root.cards, "budgets": budgets, "seeds": list(seeds), "c": c,
            "uniform": nash_conv(root, uniform_profile), "nashconv": rows,
            "median": [statistics.median(r[k] for r in rows) for k in range(len(budgets))]}


def opponent_bid(kind: str, state: MultiGoofspiel, agent: int, rng: np.random.Generator) -> int:
    """A fixed opponent's bid: ``"random"`` (uniform over its cards) or ``"prize"`` (the prize's value)."""
    if kind == "prize":  # always legal: prizes come down from the highest, one card per round
        return state.prize()
    actions = state.legal_actions(agent)
    return actions[int(rng.integers(len(actions)))]


def _make_multi(search: str, state, c: float, rng):
    return Smitsimax(state, c=c, seed=rng) if search == "smitsimax" else JointDUCT(state, c=c,
                                                                                   seed=rng)


def _multi_game(search: str, opponent: str, players: int, cards: int, iterations: int, c: float,
                seed: int, game: int) -> int:
    """One game, agent 0 searching, the others fixed; returns agent 0's points."""
    state = MultiGoofspiel(players, cards)
    while not state.is_terminal():
        rng = np.random.default_rng([seed, game, state.round])
        if len(state.legal_actions(0)) == 1:
            mine = state.legal_actions(0)[0]
        else:
            mine = _make_multi(search, state, c, rng).run(iterations).root_move(
                0, "mix", float(rng.random()))
        others = [opponent_bid(opponent, state, agent, rng) for agent in range(1, players)]
        state = state.play((mine, *others))
    return state.points()[0]


def multi_agent_experiment(players: int = 3, cards: int = 4,
                           budgets: Sequence[int] = (1000, 10000, 100000),
                           seeds: Sequence[int] = (0, 1, 2), c: float = 0.1,
                           match_iterations: int = 1000, games: int = 100) -> dict:
    """Tree sizes of Smitsimax and joint-action DUCT, and their play as agent 0 vs fixed opponents.

    Returns a dict: ``sizes[search]`` is ``[[nodes at each budget] for each seed]``
    (Smitsimax: all agents' trees together; ``smitsimax_per_agent`` gives the
    per-agent counts), ``visits_per_node`` the budget divided by the median
    node count, and ``matches[search][opponent]`` agent 0's mean points with a
    normal 95% interval over ``games`` games (game ``g`` seeded with ``(seed 0, g, round)``).
    """
    root = MultiGoofspiel(players, cards)
    budgets = [check_int("each budget", b, 1) for b in budgets]
    c = check_real("c", c, 0.0)
    sizes = {search: [] for search in MULTI_SEARCHES}
    per_agent = []
    for seed in seeds:
        smitsimax, joint = Smitsimax(root, c=c, seed=seed), JointDUCT(root, c=c, seed=seed)
        row_s, row_j, row_a = [], [], []
        for budget in budgets:
            smitsimax.run(budget - smitsimax.iterations)
            joint.run(budget - joint.iterations)
            row_a.append(smitsimax.tree_sizes())
            row_s.append(sum(row_a[-1]))
            row_j.append(joint.tree_size())
        sizes["smitsimax"].append(row_s)
        sizes["joint_duct"].append(row_j)
        per_agent.append(row_a)
    medians = {s: [statistics.median(r[k] for r in rows) for k in range(len(budgets))]
               for s, rows in sizes.items()}
    matches = {}
    total = cards * (cards + 1) // 2
    for search in MULTI_SEARCHES:
        matches[search] = {}
        for opponent in OPPONENTS:
            start = time.perf_counter()
            points = [_multi_game(search, opponent, players, cards, match_iterations, c, 0, g)
                      for g in range(games)]
            centre = mean(points)
            half = 1.96 * math.sqrt(sample_variance(points) / len(points))
            matches[search][opponent] = {"points": points, "mean": centre,
                                         "low": centre - half, "high": centre + half,
                                         "share": centre / total,
                                         "seconds": time.perf_counter() - start}
    return {"players": players, "cards": cards, "budgets": budgets, "seeds": list(seeds),
            "c": c, "sizes": sizes, "smitsimax_per_agent": per_agent, "median_sizes": medians,
            "match_iterations": match_iterations, "games": games, "matches": matches,
            "joint_actions_at_root": cards ** players}


def tree_size_sweep(games: Sequence[tuple[int, int]] = ((3, 4), (4, 3)),
                    cs: Sequence[float] = (0.1, 0.4, 1.6),
                    budgets: Sequence[int] = (1000, 10000), seeds: Sequence[int] = (0, 1, 2)) -> list:
    """Nodes held by Smitsimax (all agents' trees) and joint-action DUCT for several ``c``.

    ``games`` lists ``(agents, cards)`` pairs. Returns one record per game and
    ``c``: ``{"players", "cards", "c", "budgets", "smitsimax": [[nodes per budget] per
    seed], "smitsimax_per_agent": [[[per agent] per budget] per seed], "joint_duct": ...}``.
    """
    records = []
    for players, cards in games:
        root = MultiGoofspiel(players, cards)
        for c in cs:
            c = check_real("each c", c, 0.0)
            record = {"players": players, "cards": cards, "c": c, "budgets": list(budgets),
                      "smitsimax": [], "smitsimax_per_agent": [], "joint_duct": []}
            for seed in seeds:
                smitsimax, joint = Smitsimax(root, c=c, seed=seed), JointDUCT(root, c=c, seed=seed)
                per_agent, joint_sizes = [], []
                for budget in budgets:
                    smitsimax.run(budget - smitsimax.iterations)
                    joint.run(budget - joint.iterations)
                    per_agent.append(smitsimax.tree_sizes())
                    joint_sizes.append(joint.tree_size())
                record["smitsimax_per_agent"].append(per_agent)
                record["smitsimax"].append([sum(sizes) for sizes in per_agent])
                record["joint_duct"].append(joint_sizes)
            records.append(record)
    return records


def main(argv: Sequence[str] | None = None) -> None:
    """Run both experiments and store them (``python -m mctslib.experiments.simultaneous.extras``)."""
    parser = argparse.ArgumentParser(
        prog="python -m mctslib.experiments.simultaneous.extras",
        description="Turn-taking UCT's NashConv on Goofspiel; Smitsimax vs joint-action DUCT "
                    "on 3-agent Goofspiel (tree sizes, play vs fixed opponents).")
    parser.add_argument("--out", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--budgets", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--c", type=float, default=0.1)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--match-iterations", type=int, default=1000)
    parser.add_argument("--sweep-only", action="store_true",
                        help="only the tree-size sweep over c and game sizes (tree_size_sweep)")
    args = parser.parse_args(argv)
    from ..._version import __version__

    command = "python -m mctslib.experiments.simultaneous.extras " + " ".join(
        argv if argv is not None else __import__("sys").argv[1:])
    if args.sweep_only:
        start = time.perf_counter()
        sweep = tree_size_sweep(seeds=args.seeds)
        for r in sweep:
            print(r["players"], "agents", r["cards"], "cards, c", r["c"], "median sizes smitsimax",
                  [statistics.median(x[k] for x in r["smitsimax"]) for k in range(len(r["budgets"]))],
                  "joint", [statistics.median(x[k] for x in r["joint_duct"])
                            for k in range(len(r["budgets"]))], flush=True)
        record = {"command": command.strip(), "version": __version__, "sweep": sweep,
                  "seconds": time.perf_counter() - start}
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(record, indent=1) + "\n")
        print(f"written to {args.out}")
        return

    start = time.perf_counter()
    sequential = sequential_experiment(4, args.budgets, args.seeds, args.c)
    sequential["seconds"] = time.perf_counter() - start
    print("sequential UCT NashConv medians", sequential["median"], "uniform",
          sequential["uniform"], flush=True)
    start = time.perf_counter()
    multi = multi_agent_experiment(3, 4, args.budgets, args.seeds, args.c,
                                   args.match_iterations, args.games)
    multi["seconds"] = time.perf_counter() - start
    print("median tree sizes", multi["median_sizes"])
    for search, table in multi["matches"].items():
        for opponent, m in table.items():
            print(f"{search} vs {opponent}: {m['mean']:.2f} [{m['low']:.2f}, {m['high']:.2f}]")
    record = {"command": command.strip(), "version": __version__, "sequential": sequential,
              "multi_agent": multi}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
