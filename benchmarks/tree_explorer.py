"""How long the tree explorer takes to redraw, by the number of nodes it draws (UCT chapter).

    python benchmarks/tree_explorer.py [--repeats 5]

Grows tic-tac-toe trees with the explorer's recording UCT search, then times what a
press of "one iteration" costs per picture: one phase of the search plus the whole
redraw of the widget (DOT source, Graphviz ``dot`` layout to SVG, statistics panel, node
list), with the folding threshold set so that a few dozen to several hundred nodes are
drawn. Prints medians per picture and per iteration (four pictures); the goal is a redraw
under 200 ms for a few hundred drawn nodes. The split into DOT building (``DOT ms``)
and ``dot`` itself (wall time, and its CPU time, which a busy machine inflates less)
shows where the time goes; ``picture cpu`` is the CPU time of a whole redraw (Python and
dot), which other work on a shared machine inflates far less than wall time. Timings
only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from mctslib.games import TicTacToe
from mctslib.views.tree_explorer import TreeExplorer
from mctslib.views.tree_layout import render_svg

# (iterations grown first, depth shown, fold below this many visits): about 30 to 600 drawn.
SETTINGS = ((30, 2, 1), (100, 3, 1), (200, 4, 1), (300, 4, 1), (450, 4, 1), (3000, 12, 6))


def _children_cpu() -> float:
    """CPU seconds used so far by finished child processes (dot): less noisy than wall time."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_timed(action) -> tuple[float, float]:
    """Wall seconds and CPU seconds (this process and its children: Python plus dot)."""
    start, cpu = time.perf_counter(), time.process_time() + _children_cpu()
    action()
    return time.perf_counter() - start, time.process_time() + _children_cpu() - cpu


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5,
                        help="iterations timed per setting, four pictures each (default 5)")
    args = parser.parse_args()
    print(f"{'tree':>6} {'drawn':>6} {'folded':>6}   {'DOT ms':>7} {'dot ms':>7} {'dot cpu':>7} "
          f"{'picture ms':>10} {'picture cpu':>11} {'iteration ms':>12}")
    worst = worst_cpu = 0.0
    for grown, depth, min_visits in SETTINGS:
        explorer = TreeExplorer(TicTacToe(), seed=2026, depth=depth, min_visits=min_visits,
                                run_iterations=grown, phase_seconds=0)
        explorer.session.run(grown)
        explorer.redraw()  # warm up (imports, first dot start)
        pictures, picture_cpu, iterations = [], [], []
        dot_times, layout_times, layout_cpu = [], [], []
        for _ in range(args.repeats):
            total = 0.0
            for _phase in range(4):
                spent, cpu = cpu_timed(lambda e=explorer: (e.session.next_phase(), e.redraw()))
                pictures.append(spent)
                picture_cpu.append(cpu)
                total += spent
            iterations.append(total)
            drawn = explorer.session.drawing()
            dot_times.append(timed(explorer.session.drawing))
            before = _children_cpu()
            layout_times.append(timed(lambda d=drawn: render_svg(d)))
            layout_cpu.append(_children_cpu() - before)
        drawn = explorer.session.drawing()
        picture = statistics.median(pictures)
        worst = max(worst, picture)
        worst_cpu = max(worst_cpu, statistics.median(picture_cpu))
        print(f"{drawn.total:6,} {len(drawn.nodes):6,} {drawn.folded:6,}   "
              f"{1000 * statistics.median(dot_times):7.1f} "
              f"{1000 * statistics.median(layout_times):7.1f} "
              f"{1000 * statistics.median(layout_cpu):7.1f} {1000 * picture:10.1f} "
              f"{1000 * statistics.median(picture_cpu):11.1f} "
              f"{1000 * statistics.median(iterations):12.1f}")
    print(f"slowest median redraw per picture: {1000 * worst:.0f} ms wall, {1000 * worst_cpu:.0f} ms "
          "CPU (goal: under 200 ms; on a busy machine trust the CPU column)")


if __name__ == "__main__":
    main()
