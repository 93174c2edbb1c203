"""What each tool of the bot author's toolbox costs in speed, side by side with today's bot.

    python benchmarks/toolbox_speed.py [--games 4] [--iterations 50000]
                                       [--variant NAME=OPTIONS ...]

Chapter "How a Legend bot gets its strength". Its matches give every bot the
*same time*, as counts of iterations (so that they repeat game for game on any
machine): a tool that makes an iteration 20% slower gets 20% fewer iterations.
This script measures those ratios. For each variant it plays ``--games`` games
(pairs from seeded 2-ply openings, sides swapped) between today's bot
(:data:`mctslib.experiments.uttt.enhancements.TUNED_OPTIONS`) and the variant
(today's options with the variant's added), both at ``--iterations`` a move,
in one process, the two bots alternating move by move, so that a change of the
machine's load hits both alike. Every move is timed in CPU time
(``time.process_time``). It prints, per variant, the iterations per CPU second
of both bots over the same games, their ratio, and the counts that give the
variant today's time at the chapter's two budgets (20,000 iterations, the
screens; 130,000, CodinGame's 100 ms: ``benchmarks/results/uttt_equal_time.txt``),
rounded to two significant digits. On a shared machine read only the ratios.
"""

from __future__ import annotations

import argparse
import math
import os
import time

from mctslib.bots.uttt import parse_spec, random_openings
from mctslib.experiments.uttt.enhancements import TUNED_OPTIONS
from mctslib.experiments.uttt.legend import variant
from mctslib.rng import make_rng

#: The variants measured by default: each tool on top of today's bot.
VARIANTS = {
    "fpu=0.6": "fpu=0.6",
    "fpu=0.9": "fpu=0.9",
    "fpu=1.2": "fpu=1.2",
    "bounds": "bounds=on",
    "tree_safe": "tree_safe=on",
    "playout=safe": "playout=safe",
    "mast=0.2": "mast=0.2",
    "mast=0.5": "mast=0.5",
    "mast=0.8": "mast=0.8",
}
#: The budgets whose equal-time counts are printed: the screens', and 100 ms of CPU.
BUDGETS = (20_000, 130_000)


def play(spec_a: str, spec_b: str, opening, seed: int, a_first: bool) -> dict:
    """One game; per bot, the CPU seconds and iterations of each of its moves."""
    rng = make_rng(seed)
    bots = {"a": parse_spec(spec_a)(seed=rng), "b": parse_spec(spec_b)(seed=rng)}
    order = ("a", "b") if a_first else ("b", "a")
    state, cpu, iterations = opening, {"a": [], "b": []}, {"a": [], "b": []}
    while not state.is_terminal():
        name = order[state.player_to_move]
        start = time.process_time()
        move = bots[name].choose(state)
        cpu[name].append(time.process_time() - start)
        iterations[name].append(bots[name].last.iterations)
        state = state.play(move)
    return {"cpu": cpu, "iterations": iterations}


def two_digits(count: float) -> int:
    """``count`` rounded to two significant digits (74,613 -> 75,000)."""
    digits = math.floor(math.log10(count)) - 1
    return int(round(count, -digits))


def measure(options: str, games: int, iterations: int) -> dict:
    today = f"uct:{TUNED_OPTIONS},iters={iterations}"
    other = str(variant(f"{TUNED_OPTIONS},iters={iterations}", options))
    openings = random_openings(games // 2, plies=2, seed=2026)
    cpu, done = {"a": [], "b": []}, {"a": [], "b": []}
    for game in range(games):
        result = play(today, other, openings[game // 2], game, game % 2 == 0)
        for name in cpu:
            cpu[name] += result["cpu"][name]
            done[name] += result["iterations"][name]
    rates = {name: sum(done[name]) / math.fsum(cpu[name]) for name in cpu}
    return {"moves": {name: len(cpu[name]) for name in cpu}, "rates": rates,
            "ratio": rates["b"] / rates["a"],
            "iterations": {name: sum(done[name]) / len(done[name]) for name in done}}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4, help="games per variant, even (4)")
    parser.add_argument("--iterations", type=int, default=50_000,
                        help="iterations a move for both bots (default 50,000)")
    parser.add_argument("--variant", action="append", metavar="NAME=OPTIONS",
                        help="a variant to measure instead of the default list (repeatable)")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error(f"--games must be an even number >= 2, got {args.games}")
    if not 1_000 <= args.iterations <= 10_000_000:
        parser.error(f"--iterations must be from 1,000 to 10,000,000, got {args.iterations}")
    variants = VARIANTS
    if args.variant:
        try:
            variants = dict(item.split("=", 1) for item in args.variant)
        except ValueError:
            parser.error("--variant must be NAME=OPTIONS, e.g. fpu=fpu=1")
    for options in variants.values():
        try:
            variant(f"{TUNED_OPTIONS},iters=1000", options)
        except ValueError as error:
            parser.error(str(error))
    load_before, start = os.getloadavg(), time.perf_counter()
    print(f"today's bot: uct:{TUNED_OPTIONS}; {args.iterations:,} iterations a move for both; "
          f"{args.games} games per variant from 2-ply openings, CodinGame scoring; CPU time")
    print(f"  {'variant':<14}{'moves':>7}{'today it/CPU s':>16}{'variant it/CPU s':>18}"
          f"{'ratio':>7}" + "".join(f"{f'at {b:,}':>12}" for b in BUDGETS))
    for name, options in variants.items():
        m = measure(options, args.games, args.iterations)
        counts = "".join(f"{two_digits(b * m['ratio']):>12,}" for b in BUDGETS)
        print(f"  {name:<14}{m['moves']['b']:>7}{m['rates']['a']:>16,.0f}"
              f"{m['rates']['b']:>18,.0f}{m['ratio']:>7.3f}{counts}", flush=True)
    print("  (ratio: the variant's iterations per CPU second / today's, over the same games, "
          "moves alternating; 'at N': the variant's count for the time today's bot spends on "
          "N, two significant digits)")
    print(f"load average (1, 5, 15 min) {', '.join(f'{x:.2f}' for x in load_before)} before, "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())} after; {os.cpu_count()} cores; "
          f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
