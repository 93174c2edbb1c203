"""Iterations per second of UCT on a tree and on a DAG (transposition table), side by side.

    python benchmarks/transposition_speed.py [--repeats 7] [--out FILE]

Chapter "Enhancements that matter". For Connect Four (:mod:`mctslib.fast.dag_uct`)
and Ultimate Tic-Tac-Toe (:mod:`mctslib.fast.uttt_dag`), from the empty board and
from a fixed middle-game position, one search of a fixed number of iterations
(Connect Four 10,000 and 50,000; UTTT 20,000 and 100,000) with the same kernel,
``table=False`` (tree) and ``table=True`` (DAG, rule uct2), interleaved repetition
by repetition so that the noise of a shared machine hits both alike. Prints the
median iterations per CPU-second of the process (``time.process_time``: another
program slows the wall clock, not these counts, to first order) with its range, the
DAG / tree ratio, the nodes each used, the transpositions the DAG found, the share of
wall time the process had the CPU (below 100%: the machine was busy), and the load
average before and after.

The tree here is the DAG kernel without look-ups (same arrays, same selection
code), so the ratio is the cost of the table alone; the chapter-5 UTTT engine
(:mod:`mctslib.fast.uttt_uct`, vectorised selection) is faster than both.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time

from mctslib.fast import connect_four as fc4
from mctslib.fast import dag_uct, uttt_dag
from mctslib.fast import uttt as fu
from mctslib.fast.xorshift import new_rng
from mctslib.games.connect_four import ConnectFour
from mctslib.games.uttt import UltimateTicTacToe

CASES = (
    ("connect_four", "empty", ConnectFour(), 10_000),
    ("connect_four", "empty", ConnectFour(), 50_000),
    ("connect_four", "12 plies", ConnectFour.from_moves([3, 3, 2, 4, 4, 2, 3, 1, 5, 5, 1, 6]),
     50_000),
    ("uttt", "empty", UltimateTicTacToe(), 20_000),
    ("uttt", "empty", UltimateTicTacToe(), 100_000),
    ("uttt", "20 plies", None, 100_000),
)


def _uttt_middle() -> UltimateTicTacToe:
    import numpy as np

    rng, state = np.random.default_rng(20), UltimateTicTacToe()
    for _ in range(20):
        moves = state.legal_moves()
        state = state.play(moves[int(rng.integers(len(moves)))])
    return state


def _engine(game, table, iterations):
    if game == "connect_four":
        return dag_uct.ConnectFourDag(7 * iterations + 100, table, "uct2", math.sqrt(2.0),
                                      new_rng(1))
    return uttt_dag.UTTTDag(16 * iterations + 100, table, "uct2", 0.5, fu.CODINGAME, new_rng(1))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--out", default=None, help="also write the table to this file")
    args = parser.parse_args(argv)
    lines = [f"load before: {os.getloadavg()}"]
    for game, where, state, iterations in CASES:
        state = _uttt_middle() if state is None else state
        s = fc4.to_array(state) if game == "connect_four" else fu.to_array(state)
        engines = {table: _engine(game, table, iterations) for table in (False, True)}
        for engine in engines.values():  # compile and warm up
            engine.run(s, 100)
            engine.reset()
        rates = {False: [], True: []}
        cpu = {False: 0.0, True: 0.0}
        wall = {False: 0.0, True: 0.0}
        for _ in range(args.repeats):
            for table, engine in engines.items():
                engine.reset()
                w, c = time.perf_counter(), time.process_time()
                engine.run(s, iterations)
                dw, dc = time.perf_counter() - w, time.process_time() - c
                rates[table].append(iterations / dc)  # per CPU-second: robust to a busy machine
                wall[table] += dw
                cpu[table] += dc
        tree, dag = engines[False].pool, engines[True].pool
        med = {t: statistics.median(r) for t, r in rates.items()}
        lines.append(
            f"{game:>12} {where:>9} {iterations:>7} it | tree {med[False]:>9,.0f}/s "
            f"[{min(rates[False]):,.0f}-{max(rates[False]):,.0f}] {tree.nodes:>8,} nodes "
            f"(cpu {cpu[False] / wall[False]:.0%}) | DAG {med[True]:>9,.0f}/s "
            f"[{min(rates[True]):,.0f}-{max(rates[True]):,.0f}] {dag.nodes:>8,} nodes "
            f"{dag.edges:>8,} edges {dag.transpositions:>7,} transp. (cpu "
            f"{cpu[True] / wall[True]:.0%}) | DAG/tree {med[True] / med[False]:.2f}")
        print(lines[-1], flush=True)
    lines.append(f"load after: {os.getloadavg()}")
    print(lines[0])
    print(lines[-1])
    if args.out:
        with open(args.out, "w") as file:
            file.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
