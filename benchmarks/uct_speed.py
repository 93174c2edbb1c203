"""UCT iterations per second: the readable Python reference vs its numba twin (UCT chapter).

    python benchmarks/uct_speed.py [--repeats 5]

Both engines search the same positions with the same xorshift seed (so they do
exactly the same work), interleaved repetition by repetition so that the noise
of a shared machine hits both alike. Prints medians and the ratio; the last
line is the summary a script can read.
"""

from __future__ import annotations

import argparse
import statistics
import time

from mctslib.fast.tictactoe_uct import FastTicTacToeUCT
from mctslib.games import TicTacToe
from mctslib.search.uct import UCTSearch
from mctslib.xorshift import XorShift64

POSITIONS = {"empty board": TicTacToe(), "after X4 O0": TicTacToe.from_string("O../.X./...")}


def rate(search_once, iterations: int, searches: int) -> float:
    start = time.perf_counter()
    for _ in range(searches):
        search_once()
    return iterations * searches / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5, help="interleaved repetitions (default 5)")
    args = parser.parse_args()
    FastTicTacToeUCT(10, 1.0, 1).choose(0, 0)  # compile (or load from the cache) before timing
    ratios = []
    for name, state in POSITIONS.items():
        python_rates, numba_rates = [], []
        python = UCTSearch(1.0, iterations=2000, seed=XorShift64(2026))
        fast = FastTicTacToeUCT(2000, 1.0, 2026)
        for _ in range(args.repeats):
            python_rates.append(rate(lambda p=python, s=state: p.choose(s), 2000, 3))
            numba_rates.append(rate(lambda f=fast, s=state: f.choose(s.x, s.o), 2000, 300))
        py, nb = statistics.median(python_rates), statistics.median(numba_rates)
        ratios.append(nb / py)
        print(f"{name:>12}: python {py:12,.0f} it/s   numba {nb:12,.0f} it/s   ratio {nb / py:6.1f}x"
              f"   (numba range {min(numba_rates):,.0f}-{max(numba_rates):,.0f})")
    print(f"numba UCT / python UCT: {min(ratios):.1f}x (smallest ratio over positions)")


if __name__ == "__main__":
    main()
