"""Parallel UCT on threads: iterations per second with 1 and 2 workers, root, tree and leaf.

    python benchmarks/parallel_speed.py [--repeats 7] [--ms 100] [--out]

Chapter 7b, "Parallel search". For each mode of
:class:`mctslib.bots.parallel.ParallelBot` (Chaslot, Winands and van den Herik
2008: root, tree with virtual loss 1, leaf) and 1 and 2 workers, one search of
``--ms`` milliseconds from each of three fixed positions four plies in (seeded
random openings); the iterations it ran divided by its wall time is its rate
(root and tree: iterations summed over the workers; leaf: tree iterations,
each with K playouts, and playouts; leaf with one worker is the sequential
kernel, as root and tree with one are). Repeats are interleaved, every
configuration once per position per repeat, so the noise of a shared machine
hits all alike. Printed: the median rate and its range, the speed-up of 2
workers over 1 (ratio of medians, and the median of the per-repeat ratios),
tree mode's lost root updates (``iterations - root visits``), and the share of
two cores the process used.

Also measured, because they decide what a worker costs per move and per
iteration: handing a task to a live thread of a ``ThreadPoolExecutor`` and
waiting for it (what the bot pays per worker and move: its threads live as
long as it does), starting and joining a new thread instead, and starting and
joining one empty numba ``prange`` region (what leaf parallelism pays at every
iteration, against about a microsecond per playout).

``--out`` writes ``benchmarks/results/parallel_speed.txt`` (the printout) and
``.json`` (every sample). On a busy machine the rates are a smoke test only:
the process needs both cores to itself for a speed-up to show.

The stored run (2026-12-02, tree 1.70) predates the staging nodes' move onto
cache lines of their own (``uttt_parallel.STAGE_GAP``), which removes about 0.35
of the 8 to 10 cache-line transfers an iteration of two threads
(:mod:`mctslib.experiments.parallel.sharing`); its effect on the speed-up is to
be measured on a quiet computer. ``parallel_speed_reported.json`` keeps the
ranges another computer gave (tree 1.20-1.26, root 1.94-1.97), as reported.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import redirect_stdout
from pathlib import Path

import numba
import numpy as np

from mctslib.bots.parallel import MODES, ParallelSpec
from mctslib.bots.uttt import random_openings
from mctslib.experiments.parallel.threads import paired_speed_up, search_rates
from mctslib.fast import uttt_parallel as fast

RESULTS = Path(__file__).resolve().parent / "results"
POSITIONS_SEED, POSITION_PLIES, POSITION_COUNT = 2026, 4, 3
C = 0.5  # the chapter's UTTT constant
WORKERS = (1, 2)


def configurations(ms: float) -> list[tuple[str, int, ParallelSpec]]:
    return [(mode, k, ParallelSpec(mode=mode, workers=k, ms=ms, c=C))
            for mode in MODES for k in WORKERS]


def _per_call_us(call, rounds: int, seconds: float = 0.2) -> float:
    """Microseconds per ``call()``: up to ``rounds`` calls, stopping after ``seconds``."""
    done, start = 0, time.perf_counter()
    while done < rounds and (done == 0 or time.perf_counter() - start < seconds):
        call()
        done += 1
    return (time.perf_counter() - start) / done * 1e6


def handoff_costs(rounds: int = 2_000) -> dict:
    """Microseconds: submit-and-wait on a live thread; start-and-join a new one; empty prange.

    Each is timed for at most 0.2 s (on a busy machine one prange region can
    take milliseconds).
    """
    pool = ThreadPoolExecutor(1)
    pool.submit(fast.idle, 1).result()
    live = _per_call_us(lambda: pool.submit(fast.idle, 1).result(), rounds)
    pool.shutdown()

    def fresh_thread():
        thread = threading.Thread(target=fast.idle, args=(1,))
        thread.start()
        thread.join()

    fresh = _per_call_us(fresh_thread, rounds)
    values = np.zeros(2)
    fast.empty_parallel_region(10, values)
    region = _per_call_us(lambda: fast.empty_parallel_region(1, values), rounds)
    return {"live_thread_us": live, "new_thread_us": fresh, "prange_region_us": region}


def measure(repeats: int, ms: float) -> dict:
    positions = random_openings(POSITION_COUNT, POSITION_PLIES, seed=POSITIONS_SEED)
    configs = configurations(ms)
    bots = {(mode, k): spec(seed=1) for mode, k, spec in configs}  # threads live across moves
    samples = {f"{mode} {k}": [] for mode, k, _ in configs}
    drift = []
    costs = []
    cpu_before, wall_before = time.process_time(), time.perf_counter()
    for repeat in range(repeats):
        costs.append(handoff_costs())
        order = list(bots) if repeat % 2 == 0 else list(reversed(bots))  # no fixed first
        for position in positions:
            for key in order:
                bot = bots[key]
                bot.choose(position)
                info = bot.last
                samples[f"{key[0]} {key[1]}"].append(
                    {"iterations": info.iterations, "seconds": info.seconds,
                     "root_visits": info.root_visits, "nodes": info.nodes})
                if key == ("tree", 2):
                    drift.append((info.drift, info.iterations, info.negative))
    cores_used = (time.process_time() - cpu_before) / (time.perf_counter() - wall_before)
    for bot in bots.values():
        bot.close()
    return {"samples": samples, "drift": drift, "costs": costs, "cores_used": cores_used,
            "repeats": repeats, "ms": ms, "c": C,
            "positions": [str(p.legal_moves()) for p in positions]}


def median_range(values) -> str:
    return f"{statistics.median(values):>11,.0f} [{min(values):,.0f}-{max(values):,.0f}]"


def report(data: dict) -> None:
    print(f"Parallel UCT on UTTT, {data['ms']:g} ms searches, c = {data['c']}, "
          f"{data['repeats']} interleaved repeats x {POSITION_COUNT} positions "
          f"({POSITION_PLIES} plies, seed {POSITIONS_SEED}); numba {numba.__version__}, "
          f"threading layer {numba.threading_layer()}, {numba.get_num_threads()} numba threads, "
          f"{os.cpu_count()} cores")
    print(f"load average (1, 5, 15 min) before: {', '.join(data['load'][0])}; after: "
          f"{', '.join(data['load'][1])}; "
          f"CPU time / wall time of the run: {data['cores_used']:.2f} cores")
    rates = search_rates(data["samples"])
    print(f"{'mode':<6}{'workers':>8}{'iterations/s median [range]':>40}{'playouts/s':>14}"
          f"{'speed-up':>10}{'paired':>8}")
    for mode in MODES:
        one = rates[f"{mode} 1"]
        for k in WORKERS:
            rate = rates[f"{mode} {k}"]
            playouts = statistics.median(rate) * (k if mode == "leaf" else 1)
            ratio = statistics.median(rate) / statistics.median(one)
            paired, _, _ = paired_speed_up(one, rate)
            print(f"{mode:<6}{k:>8}{median_range(rate):>40}{playouts:>14,.0f}"
                  f"{ratio:>10.2f}{paired:>8.2f}")
    lost = [d for d, _, _ in data["drift"]]
    total = sum(n for _, n, _ in data["drift"])
    print(f"tree, 2 workers: root updates lost (iterations - root visits) per search: median "
          f"{statistics.median(lost):.0f}, max {max(lost)}, {sum(lost) / total:.4%} of "
          f"{total:,} iterations; nodes with negative visits: "
          f"{sum(neg for _, _, neg in data['drift'])}")
    costs = data["costs"]
    for key, label in (("live_thread_us", "hand a task to a live thread and wait"),
                       ("new_thread_us", "start and join a new thread"),
                       ("prange_region_us", "start and join an empty prange region")):
        values = [c[key] for c in costs]
        print(f"{label:<40} {statistics.median(values):8.1f} us median "
              f"[{min(values):.1f}-{max(values):.1f}]")
    leaf = rates["leaf 2"]
    print(f"leaf, 2 workers: {1e6 / statistics.median(leaf):.1f} us per iteration (2 playouts) "
          f"vs {1e6 / statistics.median(rates['leaf 1']):.2f} us for 1 playout sequentially")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--ms", type=float, default=100.0)
    parser.add_argument("--out", action="store_true",
                        help="write benchmarks/results/parallel_speed.txt and .json")
    args = parser.parse_args(argv)
    if args.repeats < 1 or not 0 < args.ms <= 10_000:
        parser.error("--repeats must be >= 1 and --ms in (0, 10000]")
    load_before = os.getloadavg()
    data = measure(args.repeats, args.ms)
    data["load"] = [f"{x:.2f}" for x in load_before], [f"{x:.2f}" for x in os.getloadavg()]
    text = io.StringIO()
    with redirect_stdout(text):
        report(data)
    sys.stdout.write(text.getvalue())
    if args.out:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "parallel_speed.txt").write_text(text.getvalue())
        (RESULTS / "parallel_speed.json").write_text(json.dumps(data, indent=1) + "\n")
        print(f"written to {RESULTS / 'parallel_speed.txt'} and .json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
