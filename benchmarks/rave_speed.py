"""Iterations per CPU-second of UCT, RAVE and GRAVE side by side (chapter "Enhancements that matter").

Usage: ``python benchmarks/rave_speed.py [--repeats 7] [--out benchmarks/results/rave_speed.json]``

Each engine searches a fixed number of iterations from a fixed position, in
interleaved rounds (UCT, RAVE, GRAVE, UCT, ...) so that a change of load hits
all of them alike; the median over the rounds is reported, with the load
averages before and after. Time is the process's CPU time
(``time.process_time``), so another program on the machine slows the wall
clock but not, to first order, the count (caches shared with it still do:
read the ratios). Positions: Hex 7 x 7 empty (the Hex kernel, UCT with the
AMAF tables off), and Ultimate Tic-Tac-Toe empty and 20 plies in, where the
rows are chapter 5's bot search (:mod:`mctslib.fast.uttt_uct`, win-taking,
solver) and RAVE inside it (:mod:`mctslib.fast.uttt_rave_uct`, without and
with the heuristic prior) at the chapter's playing budget, 100,000
iterations: the speed cost of the equal-iteration matches in
``data/rave/README.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import numpy as np

from mctslib.bots.rave import RAVEUCTSpec
from mctslib.bots.uttt import UTTTBot
from mctslib.fast import hex as fast_hex
from mctslib.fast import hex_uct
from mctslib.fast.xorshift import new_rng
from mctslib.games.uttt import UltimateTicTacToe

ENGINES = {  # label -> (use_amaf, c, ref)
    "uct": (False, 0.4, -1),
    "rave": (True, 0.0, -1),
    "grave": (True, 0.0, 50),
}


def _rave_timer(state, kernel, moves, iterations):
    pool = hex_uct.RAVEPool(1 + moves * iterations, iterations + 2, moves)
    work = hex_uct.work_arrays(state.shape[0], moves)

    def run(use_amaf, c, ref, seed):
        pool.reset()
        start = time.process_time()
        kernel(state, iterations, c, use_amaf, hex_uct.MSE, 0.1, 0.0, ref, 0, moves,
               new_rng(seed), pool.used, *pool.arrays(), *work)
        return iterations / (time.process_time() - start)

    return run


#: UTTT rows: label -> a factory of the player (chapter 5's bot, RAVE inside it).
BOT = "uct:c=0.5,scale=01,wins=on,solver=on,iters={}"
UTTT_ENGINES = {
    "bot (uttt_uct)": lambda n, seed: UTTTBot(BOT.format(n), seed=seed),
    "rave in the bot": lambda n, seed: RAVEUCTSpec(BOT.format(n), bias=0.1)(seed=seed),
    "rave + prior in the bot": lambda n, seed: RAVEUCTSpec(BOT.format(n), bias=0.1,
                                                          prior_visits=20.0)(seed=seed),
}


def _bot_timer(state, make, iterations):
    def run(seed):
        bot = make(iterations, seed)
        start = time.process_time()
        bot.choose(state)
        elapsed = time.process_time() - start
        return bot.last.iterations / elapsed

    return run


def measure(repeats: int = 7, hex_iterations: int = 10_000,
            uttt_iterations: int = 100_000) -> dict:
    """Median iterations per CPU-second of each engine on each position (and the load)."""
    middle = UltimateTicTacToe()
    rng = np.random.default_rng(20)
    for _ in range(20):
        moves = middle.legal_moves()
        middle = middle.play(moves[int(rng.integers(len(moves)))])
    hex_run = _rave_timer(fast_hex.new_state(7), hex_uct.search, 49, hex_iterations)
    positions = {"hex 7x7 empty": {label: (lambda seed, o=options: hex_run(*o, seed))
                                   for label, options in ENGINES.items()}}
    for name, state in (("uttt empty", UltimateTicTacToe()), ("uttt 20 plies", middle)):
        positions[name] = {label: _bot_timer(state, make, uttt_iterations)
                           for label, make in UTTT_ENGINES.items()}
    load_before = list(os.getloadavg())
    table = {}
    for name, runs in positions.items():
        samples = {label: [] for label in runs}
        for run in runs.values():  # warm-up: compile or load the cache
            run(1)
        for round_ in range(repeats):
            for label, run in runs.items():
                samples[label].append(run(round_ + 2))
        table[name] = {label: statistics.median(values) for label, values in samples.items()}
    return {"iterations_per_second": table, "repeats": repeats,
            "hex_iterations": hex_iterations, "uttt_iterations": uttt_iterations,
            "load_average_before": load_before, "load_average_after": list(os.getloadavg()),
            "cpus": os.cpu_count()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--out", default=None, help="store the result as JSON here")
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    result = measure(args.repeats)
    for name, row in result["iterations_per_second"].items():
        print(f"{name:14s} " + "  ".join(f"{label} {value:10,.0f}/s"
                                           for label, value in row.items()))
    print("load averages before", result["load_average_before"], "after",
          result["load_average_after"])
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
        print("written to", args.out)


if __name__ == "__main__":
    main()
