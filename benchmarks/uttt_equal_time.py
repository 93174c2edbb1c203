"""Counts that stand in for equal time: our UTTT bot against OpenSpiel's C++ MCTS.

    python benchmarks/uttt_equal_time.py [--games 4] [--ms 100] [--ten-times-games 2]

The chapter "Ultimate Tic-Tac-Toe: tuning a real bot" plays its matches against
OpenSpiel's ``MCTSBot`` with counts (iterations per move for our bot, simulations
per move for OpenSpiel's), so that they repeat game for game on any machine. This
script sizes the counts: it plays games between the two bots from seeded 2-ply
openings (OpenSpiel's scoring, sides swapped), times every move in CPU time
(``time.process_time``: what the process itself used, which another process on the
machine changes far less than the wall clock), and rescales each count so that
its bot uses ``--ms`` of CPU per move on average over whole games:

* round 1 at probe counts, round 2 at the rescaled counts (a check: both bots
  should now average about ``--ms``), and the counts of round 2 rescaled once
  more, rounded to two significant digits: the counts the chapter uses;
* then ``--ten-times-games`` games with ten times OpenSpiel's count (its CPU per
  move should be about ten times ``--ms``).

The two bots alternate move by move in the same process, so a change of load hits
both alike; the load average is printed before and after. OpenSpiel's bot runs with
its default ``uct_c`` 2 (the exploration constant changes the tree's shape, hardly
the time per simulation).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time

from mctslib.bots.openspiel import OpenSpielMCTS
from mctslib.bots.uttt import parse_spec, random_openings
from mctslib.rng import make_rng

#: The bot the chapter plays, without its budget.
BOT = "uct:c=0.5,scale=01,wins=on,solver=on,reuse=on,centre=on"
#: Probe counts of round 1 (about a tenth of a second each on a 2020s core).
PROBE_ITERATIONS, PROBE_SIMULATIONS = 50_000, 10_000


def play(ours: str, simulations: int, opening, seed: int, ours_first: bool) -> dict:
    """One game; CPU seconds and counts of every move of each bot."""
    rng = make_rng(seed)
    bots = {"ours": parse_spec(ours)(seed=rng), "openspiel": OpenSpielMCTS(simulations)(seed=rng)}
    order = ("ours", "openspiel") if ours_first else ("openspiel", "ours")
    state, cpu = opening.with_scoring("openspiel"), {"ours": [], "openspiel": []}
    iterations = []
    while not state.is_terminal():
        name = order[state.player_to_move]
        start = time.process_time()
        move = bots[name].choose(state)
        cpu[name].append(time.process_time() - start)
        if name == "ours":
            iterations.append(bots["ours"].last.iterations)
        state = state.play(move)
    return {"cpu": cpu, "iterations": iterations}


def round_of_games(iterations: int, simulations: int, games: int) -> dict:
    """``games`` games (pairs from one opening, sides swapped) at these counts."""
    openings = random_openings(max(1, games // 2), plies=2, seed=2026)
    cpu = {"ours": [], "openspiel": []}
    for game in range(games):
        result = play(f"{BOT},iters={iterations}", simulations, openings[game // 2], game,
                      game % 2 == 0)
        for name in cpu:
            cpu[name] += result["cpu"][name]
    return cpu


def describe(label: str, iterations: int, simulations: int, cpu: dict) -> str:
    ours, theirs = cpu["ours"], cpu["openspiel"]
    return (f"  {label}: ours {iterations:,} iterations a move: mean {_ms(ours)} ms CPU, median "
            f"{1000 * statistics.median(ours):.1f} ({len(ours)} moves); OpenSpiel "
            f"{simulations:,} simulations a move: mean {_ms(theirs)} ms CPU, median "
            f"{1000 * statistics.median(theirs):.1f} ({len(theirs)} moves)")


def _ms(seconds: list[float]) -> str:
    return f"{1000 * math.fsum(seconds) / len(seconds):.1f}"


def rescaled(count: int, seconds: list[float], target: float) -> int:
    """``count`` scaled so that its mean CPU time per move becomes ``target`` seconds."""
    return round(count * target / (math.fsum(seconds) / len(seconds)))


def two_digits(count: int) -> int:
    """``count`` rounded to two significant digits (74,613 -> 75,000)."""
    digits = math.floor(math.log10(count)) - 1
    return round(count, -digits)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4,
                        help="games per round, an even number (default 4)")
    parser.add_argument("--ms", type=float, default=100.0,
                        help="CPU milliseconds per move to equalise (default 100)")
    parser.add_argument("--ten-times-games", type=int, default=2,
                        help="games with ten times OpenSpiel's count (default 2; 0: none)")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error(f"--games must be an even number >= 2, got {args.games}")
    if not 0 < args.ms <= 10_000:
        parser.error(f"--ms must be above 0 and at most 10,000, got {args.ms}")
    if args.ten_times_games < 0:
        parser.error(f"--ten-times-games must be >= 0, got {args.ten_times_games}")
    target = args.ms / 1000
    load_before, start = os.getloadavg(), time.perf_counter()
    print(f"our bot {BOT}; OpenSpiel MCTSBot, uct_c 2, random rollouts, solver on; "
          f"{args.games} games a round from 2-ply openings, OpenSpiel scoring; target "
          f"{args.ms:g} ms of CPU a move on average")
    cpu = round_of_games(PROBE_ITERATIONS, PROBE_SIMULATIONS, args.games)
    print(describe("round 1 (probe)", PROBE_ITERATIONS, PROBE_SIMULATIONS, cpu))
    iterations = rescaled(PROBE_ITERATIONS, cpu["ours"], target)
    simulations = rescaled(PROBE_SIMULATIONS, cpu["openspiel"], target)
    cpu = round_of_games(iterations, simulations, args.games)
    print(describe("round 2 (rescaled)", iterations, simulations, cpu))
    final_iterations = two_digits(rescaled(iterations, cpu["ours"], target))
    final_simulations = two_digits(rescaled(simulations, cpu["openspiel"], target))
    print(f"counts for {args.ms:g} ms of CPU a move: ours {final_iterations:,} iterations, "
          f"OpenSpiel {final_simulations:,} simulations (ratio "
          f"{final_iterations / final_simulations:.2f})")
    if args.ten_times_games:
        cpu = round_of_games(final_iterations, 10 * final_simulations, args.ten_times_games)
        print(describe("ten times OpenSpiel's count", final_iterations, 10 * final_simulations,
                       cpu))
    print(f"load average (1, 5, 15 min) {', '.join(f'{x:.2f}' for x in load_before)} before, "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())} after; {os.cpu_count()} cores; "
          f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
