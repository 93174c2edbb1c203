"""What starting a process pool costs with each start method (mctslib.play.cluster.process_pool).

Usage: ``python benchmarks/pool_start.py [--rounds 5] [--out benchmarks/results/pool_start.json]``

A pool of 2 workers is made and plays 2 short Ultimate Tic-Tac-Toe games
(``uct:c=0.5,iters=50``, one each); the time from making the pool to both
results is the cost of starting the workers, since the games themselves take
milliseconds. Each measurement runs in a new process whose parent has already
played one game (its modules and numba kernels are loaded, as after a first
match), for ``fork``, ``forkserver`` and ``spawn`` in interleaved rounds so that
a change of load hits all three alike; the medians are printed with the load
averages before and after. Wall time: the workers' start-up is what a person
waits for.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

METHODS = ("fork", "forkserver", "spawn")
ONE_POOL = """
import multiprocessing, time
from concurrent.futures import ProcessPoolExecutor
import numpy as np
from mctslib.bots.uttt import parse_spec, random_openings
from mctslib.play import arena

if __name__ == "__main__":
    spec = parse_spec("uct:c=0.5,iters=50")
    openings = random_openings(2, 2, np.random.SeedSequence(1), "codingame")
    streams = np.random.SeedSequence(3).spawn(4)
    tasks = [arena._GameTask(i, spec, spec, openings[i], True, streams[2 * i], streams[2 * i + 1])
             for i in range(2)]
    arena._play_task(tasks[0])  # the parent is warm
    start = time.perf_counter()
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context({method!r})) as pool:
        list(pool.map(arena._play_task, tasks))
    print(time.perf_counter() - start)
"""


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    load_before = os.getloadavg()[0]
    seconds = {method: [] for method in METHODS}
    for _ in range(args.rounds):
        for method in METHODS:
            done = subprocess.run([sys.executable, "-c", ONE_POOL.format(method=method)],
                                  capture_output=True, text=True, check=True)
            seconds[method].append(float(done.stdout.split()[-1]))
    load_after = os.getloadavg()[0]
    print(f"pool of 2 workers to 2 short games played, median of {args.rounds} "
          f"(load {load_before:.1f} -> {load_after:.1f})")
    for method in METHODS:
        print(f"{method:>10}: {statistics.median(seconds[method]):.2f} s "
              f"(min {min(seconds[method]):.2f}, max {max(seconds[method]):.2f})")
    if args.out:
        args.out.write_text(json.dumps({"seconds": seconds, "load": [load_before, load_after]},
                                       indent=1) + "\n")


if __name__ == "__main__":
    main()
