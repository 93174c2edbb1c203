"""Iterations per second of UCT, RAVE and GRAVE side by side (chapter "Enhancements that matter").

Usage: ``python benchmarks/rave_speed.py [--repeats 7] [--out data/rave/speed.json]``

Each engine searches a fixed number of iterations from a fixed position, in
interleaved rounds (UCT, RAVE, GRAVE, UCT, ...) so that a change of load hits
all of them alike; the median over the rounds is reported, with the load
averages before and after. Positions: Hex 7 x 7 empty, and Ultimate
Tic-Tac-Toe empty and 20 plies in. On UTTT the chapter's fastest UCT
(:mod:`mctslib.fast.uttt_uct`, no recorded playouts) is timed too: it is the
baseline of the equal-time matches. Run it on a quiet machine: under load
the numbers are not speeds (the load averages say how quiet it was).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import numpy as np

from mctslib.fast import hex as fast_hex
from mctslib.fast import hex_uct, uttt_rave, uttt_uct
from mctslib.fast import uttt as fast_uttt
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
        start = time.perf_counter()
        kernel(state, iterations, c, use_amaf, hex_uct.MSE, 0.1, 0.0, ref, 0, moves,
               new_rng(seed), pool.used, *pool.arrays(), *work)
        return iterations / (time.perf_counter() - start)

    return run


def _fast_uct_timer(state, iterations):
    pool = uttt_uct.NodePool(1 + 81 * iterations)
    work = (np.zeros(fast_uttt.STATE_SIZE, np.int64), np.zeros(uttt_uct.MAX_PATH, np.int64),
            np.zeros(81, np.int64), np.zeros(uttt_uct.SCORES_SIZE, np.float64))

    def run(seed):
        pool.reset()
        start = time.perf_counter()
        uttt_uct.search(state, iterations, 0.5, False, False, False, False, 0, new_rng(seed),
                        pool.used, *pool.arrays(), *work)
        return iterations / (time.perf_counter() - start)

    return run


def measure(repeats: int = 7, hex_iterations: int = 10_000,
            uttt_iterations: int = 20_000) -> dict:
    """Median iterations per second of each engine on each position (and the load)."""
    middle = UltimateTicTacToe()
    rng = np.random.default_rng(20)
    for _ in range(20):
        moves = middle.legal_moves()
        middle = middle.play(moves[int(rng.integers(len(moves)))])
    positions = {
        "hex 7x7 empty": (_rave_timer(fast_hex.new_state(7), hex_uct.search, 49,
                                      hex_iterations), None),
        "uttt empty": (_rave_timer(fast_uttt.to_array(UltimateTicTacToe()), uttt_rave.search,
                                   81, uttt_iterations),
                       _fast_uct_timer(fast_uttt.to_array(UltimateTicTacToe()),
                                       uttt_iterations)),
        "uttt 20 plies": (_rave_timer(fast_uttt.to_array(middle), uttt_rave.search, 81,
                                      uttt_iterations),
                          _fast_uct_timer(fast_uttt.to_array(middle), uttt_iterations)),
    }
    load_before = list(os.getloadavg())
    table = {}
    for name, (rave_run, fast_run) in positions.items():
        samples = {label: [] for label in ENGINES}
        if fast_run is not None:
            samples["uct (uttt_uct.py)"] = []
        for label, options in ENGINES.items():  # warm-up: compile or load the cache
            rave_run(*options, 1)
        if fast_run is not None:
            fast_run(1)
        for round_ in range(repeats):
            for label, options in ENGINES.items():
                samples[label].append(rave_run(*options, round_ + 2))
            if fast_run is not None:
                samples["uct (uttt_uct.py)"].append(fast_run(round_ + 2))
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
