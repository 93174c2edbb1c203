"""Time management of the UTTT bot: how far a timed search overruns, and what early stopping saves.

    python benchmarks/time_management.py [--games 10] [--positions 30]

Chapter "Ultimate Tic-Tac-Toe: tuning a real bot" (time management). A time budget is
run in chunks of iterations sized to about a millisecond (``UTTTBot._run_until``:
compiled code has no clock), so a search ends a little after its deadline, and choosing
the answer takes a little more. This script measures that overrun where it matters,
in whole games: a bot with CodinGame's budgets (``first_ms=1000`` for its first move,
``ms=100`` after) plays a 1,000-iteration bot from seeded 2-ply openings, X in half
of the games and O in the other half, and every move is timed from the clock start
it is given to the moment ``choose`` returns. Four bots:

* ``plain``: ``c=0.5``, every option off;
* ``chapter``: ``c=0.5`` with win-taking, the solver and tree reuse (re-rooting is
  inside the clock);
* ``margin``: ``chapter`` with ``margin_ms=1``, ending one millisecond early;
* ``stop``: ``plain`` with ``stop=on``, ending once the most visited move cannot be
  overtaken in the time left (iterations estimated from the measured rate).

It prints the overrun (milliseconds beyond the budget) as a distribution: median, 90th
and 99th percentiles, maximum, share over 1 ms, and the part of it after the search
ended (choosing the answer, returning); the time the ``stop`` bot used; and,
for iteration budgets (1,000, 20,000 and 100,000 a move, ``c=0.5``) on positions taken
from games of 1,000-iteration bots, the iterations ``stop=on`` saves and whether it
answered what the whole search answers. The load average before and after, and the
share of the wall time the process had the CPU, say how busy the machine was: an
overrun measured on a busy machine includes the time the process waited for a core.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time

import numpy as np

from mctslib.bots.uttt import parse_spec, random_openings
from mctslib.games.uttt import UltimateTicTacToe

TIMED_BOTS = {
    "plain": "uct:c=0.5,ms=100,first_ms=1000",
    "chapter": "uct:c=0.5,wins=on,solver=on,reuse=on,ms=100,first_ms=1000",
    "margin": "uct:c=0.5,wins=on,solver=on,reuse=on,ms=100,first_ms=1000,margin_ms=1",
    "stop": "uct:c=0.5,ms=100,first_ms=1000,stop=on",
}
OPPONENT = "uct:c=0.5,iters=1000"
STOP_BUDGETS = (1_000, 20_000, 100_000)


def timed_game(spec: str, opening: UltimateTicTacToe, bot_side: int, seed: int,
               game: int = 0) -> list[dict]:
    """Every move of the timed bot in one game: budget, wall and CPU seconds, iterations."""
    bot, opponent = parse_spec(spec)(seed=seed), parse_spec(OPPONENT)(seed=seed + 1)
    state, records, search_ends = opening, [], []
    run_until = bot._run_until

    def traced(root_state, scoring, deadline):  # when the search itself ended, vs its deadline
        done = run_until(root_state, scoring, deadline)
        search_ends.append(time.perf_counter() - deadline)
        return done

    bot._run_until = traced
    while not state.is_terminal():
        if state.player_to_move == bot_side:
            budget = bot.spec.first_ms if bot.moves_chosen == 0 else bot.spec.ms
            cpu = time.process_time()
            start = time.perf_counter()
            move = bot.choose(state, clock_start=start)
            wall = time.perf_counter() - start
            records.append({"budget_ms": budget, "wall": wall, "cpu": time.process_time() - cpu,
                            "iterations": bot.last.iterations,
                            "search_over": search_ends[-1] if search_ends else math.nan,
                            "margin_ms": bot.spec.margin_ms, "game": game,
                            "bot_moves_before": bot.moves_chosen - 1})
        else:
            move = opponent.choose(state)
        state = state.play(move)
    return records


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (``share`` in [0, 1]) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(share * len(ordered)) - 1))]


def overrun_lines(name: str, records: list[dict]) -> list[str]:
    lines = []
    for label, first in (("first moves (1000 ms)", True), ("later moves (100 ms)", False)):
        chosen = [r for r in records if (r["budget_ms"] == 1000.0) == first]
        if not chosen:
            continue
        over = [1000 * r["wall"] - r["budget_ms"] for r in chosen]
        # after the search: choosing the answer and returning (the deadline is the budget's
        # end minus the margin, so this is the overrun less the search's own)
        after = [o - (1000 * r["search_over"] - r["margin_ms"]) for o, r in zip(over, chosen)
                 if r["search_over"] == r["search_over"]]
        wall = math.fsum(r["wall"] for r in chosen)
        cpu = math.fsum(r["cpu"] for r in chosen)
        lines.append(
            f"  {name:<8}{label:<22}{len(chosen):>5}{statistics.median(over):>9.2f}"
            f"{percentile(over, 0.9):>8.2f}{percentile(over, 0.99):>8.2f}{max(over):>8.2f}"
            f"{100 * sum(o > 1.0 for o in over) / len(over):>8.1f}%"
            f"{100 * cpu / wall:>9.0f}%"
            + (f"{statistics.median(after):>8.2f}{max(after):>7.2f}" if after else ""))
    return lines


def stop_time_lines(records: list[dict]) -> list[str]:
    later = [r for r in records if r["budget_ms"] == 100.0]
    used = [1000 * r["wall"] for r in later]
    early = sum(u < 99.0 for u in used)
    line = (f"  stop=on at 100 ms: {statistics.mean(used):.1f} ms a move on average (median "
            f"{statistics.median(used):.1f}); {early} of {len(used)} moves "
            f"({100 * early / len(used):.0f}%) ended more than 1 ms early")
    return [line]


def realistic_positions(count: int, seed: int = 2026) -> list[UltimateTicTacToe]:
    """``count`` positions (not finished) sampled from games of two 1,000-iteration bots."""
    rng = np.random.default_rng(seed)
    pool = []
    for k, opening in enumerate(random_openings(max(2, count // 10), plies=2, seed=seed)):
        players = [parse_spec(OPPONENT)(seed=10 * k), parse_spec(OPPONENT)(seed=10 * k + 1)]
        state = opening
        while not state.is_terminal():
            pool.append(state)
            state = state.play(players[state.player_to_move].choose(state))
    picks = rng.choice(len(pool), size=min(count, len(pool)), replace=False)
    return [pool[int(i)] for i in sorted(picks)]


def stop_iteration_lines(positions: list[UltimateTicTacToe]) -> list[str]:
    header = (f"  {'budget':>8}{'positions':>11}{'mean run':>10}{'saved':>8}"
              f"{'ended early':>13}{'same move':>11}")
    lines = [header]
    for budget in STOP_BUDGETS:
        run, early, same = [], 0, 0
        for k, state in enumerate(positions):
            stopping = parse_spec(f"uct:c=0.5,iters={budget},stop=on")(seed=k)
            whole = parse_spec(f"uct:c=0.5,iters={budget}")(seed=k)
            same += stopping.choose(state) == whole.choose(state)
            run.append(stopping.last.iterations)
            early += stopping.last.iterations < budget
        mean_run = sum(run) / len(run)
        lines.append(f"  {budget:>8,}{len(positions):>11}{mean_run:>10,.0f}"
                     f"{100 * (1 - mean_run / budget):>7.1f}%{early:>6} of {len(positions):<4}"
                     f"{same:>5} of {len(positions)}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10,
                        help="games per timed bot, half as X (default 10; at least 2)")
    parser.add_argument("--positions", type=int, default=30,
                        help="positions for the iteration-budget stop test (default 30)")
    args = parser.parse_args()
    if args.games < 2 or args.positions < 1:
        parser.error("--games must be at least 2 and --positions at least 1")
    parse_spec(OPPONENT)(seed=0).choose(UltimateTicTacToe())  # warm-up outside any clock
    started = time.perf_counter()
    load_before = os.getloadavg()
    openings = random_openings(args.games, plies=2, seed=7)
    records = {name: [] for name in TIMED_BOTS}
    for k, opening in enumerate(openings):
        for name, spec in TIMED_BOTS.items():  # interleaved: load changes hit every bot alike
            records[name] += timed_game(spec, opening, k % 2, seed=1000 * k, game=k)
    load_middle = os.getloadavg()
    positions = realistic_positions(args.positions)
    stop_lines = stop_iteration_lines(positions)
    load_after = os.getloadavg()
    loads = [", ".join(f"{x:.2f}" for x in load) for load in (load_before, load_middle, load_after)]
    print(f"load average (1, 5, 15 min): {loads[0]} before, {loads[1]} after the games, "
          f"{loads[2]} at the end; {os.cpu_count()} cores")
    print(f"overrun of a move's budget in ms ({args.games} games a bot vs {OPPONENT}; "
          "wall clock from the clock start given to choose until it returns):")
    print(f"  {'bot':<8}{'moves':<22}{'n':>5}{'median':>9}{'p90':>8}{'p99':>8}{'max':>8}"
          f"{'> 1 ms':>9}{'CPU/wall':>10}{'after search: median, max':>27}")
    for name in ("plain", "chapter", "margin"):
        print("\n".join(overrun_lines(name, records[name])))
    for name, spec in TIMED_BOTS.items():
        print(f"  {name}: {spec}")
    print("every move over its budget by more than 1 ms (game of this process, 0 = the first; "
          "the bot's move number in its game, 0 = its first):")
    late = [(name, r) for name in ("plain", "chapter", "margin") for r in records[name]
            if 1000 * r["wall"] - r["budget_ms"] > 1.0]
    for name, r in late:
        print(f"  {name:<8} game {r['game']:>2}, move {r['bot_moves_before']:>2}, budget "
              f"{r['budget_ms']:g} ms: over by {1000 * r['wall'] - r['budget_ms']:.2f} ms, "
              f"{r['iterations']:,} iterations, CPU/wall {100 * r['cpu'] / r['wall']:.0f}%")
    if not late:
        print("  none")
    print("early stopping (stop=on):")
    print("\n".join(stop_time_lines(records["stop"])))
    print(f"  iteration budgets, {len(positions)} positions from games of {OPPONENT} bots:")
    print("\n".join(stop_lines))
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
