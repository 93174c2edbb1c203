"""The speed ladder: iterations per second of each rung, side by side in one interleaved run.

    python benchmarks/speed_ladder.py [--iterations 20000] [--repeats 5] [--json FILE]

Chapter "How a Legend bot gets its strength". The same UCT (c = 0.5, random
playouts, CodinGame scoring), written eight ways, from the readable search to
the bot's kernel (:mod:`mctslib.fast.uttt_ladder` describes the rungs):

0. readable: :class:`mctslib.search.uct.UCTSearch` on
   :class:`~mctslib.games.uttt.UltimateTicTacToe` (Python objects, immutable positions);
1.-6. the compiled rungs of :data:`mctslib.fast.uttt_ladder.RUNGS` (a grid;
   bitboards; tables; one copy per iteration, and make/unmake beside it; a
   node pool; no allocation);
7. the bot: :class:`mctslib.bots.uttt.UTTTBot` with every option off.

Before timing, every rung is checked to grow the same tree as the readable
search (the root's children and their visits, and the generator's state)
from each position. Then each rung runs one search of ``--iterations``
iterations from the empty board and from the middle-game position of
``benchmarks/uttt_speed.py``, rung after rung, ``--repeats`` times
(interleaved, so that the machine's load falls on all alike). A rung's speed
is its median iterations per CPU second (``time.process_time``); the wall
clock's median is printed beside it. On a shared machine read the ratios:
each rung against the one before, and against the readable search.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from mctslib.bots.uttt import parse_spec
from mctslib.fast import uttt as engine
from mctslib.fast import uttt_ladder as ladder
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.search.uct import UCTSearch
from mctslib.xorshift import XorShift64

#: 20 plies of two seeded bots: X to move in board 0 (benchmarks/uttt_speed.py).
MID_GAME_MOVES = (30, 20, 70, 48, 72, 55, 4, 3, 19, 76, 77, 71, 34, 12, 36, 38, 52, 58, 21, 54)
POSITIONS = {"empty board": UltimateTicTacToe(),
             "mid-game": UltimateTicTacToe.from_moves(MID_GAME_MOVES)}
C = 0.5
SEED = 2026


def readable(state, iterations, seed):
    search = UCTSearch(C, iterations=iterations, seed=XorShift64(seed))
    root = search.search(state)
    return ([child.move for child in root.children], [child.visits for child in root.children],
            search.source.state)


def compiled(name):
    function, representation = ladder.RUNGS[name]

    def run(state, iterations, seed):
        array = (ladder.grid_position(state) if representation == "grid"
                 else engine.to_array(state))
        rng = engine.new_rng(seed)
        moves, visits = function(array, iterations, C, rng)
        return list(moves), list(visits), int(rng[0])
    return run


def bot(state, iterations, seed):
    player = parse_spec(f"uct:c={C},iters={iterations}")(seed=XorShift64(seed))
    player.choose(state)
    stats = player.root_stats()
    return [m for m, _, _, _ in stats], [v for _, v, _, _ in stats], int(player.rng[0])


RUNGS = {"readable": readable, **{name: compiled(name) for name in ladder.RUNGS},
         "the bot's kernel": bot}
#: The rungs of the ladder's figure, in order (make/unmake is the side step beside copy once).
LADDER = ("readable", "grid", "bitboards", "tables", "copy once", "node pool", "no allocation",
          "the bot's kernel")


def check(iterations: int) -> None:
    """Every rung grows the readable search's tree from every position (same seed)."""
    for name, state in POSITIONS.items():
        want = readable(state, iterations, SEED)
        for rung, run in RUNGS.items():
            assert run(state, iterations, SEED) == want, f"{rung} differs from the readable " \
                                                         f"search from the {name}"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", help="also write the medians to this file")
    args = parser.parse_args(argv)
    if not 100 <= args.iterations <= 1_000_000 or args.repeats < 1:
        parser.error("--iterations must be 100 to 1,000,000 and --repeats at least 1")
    check(500)  # also compiles every rung
    check(args.iterations)
    load_before, start = os.getloadavg(), time.perf_counter()
    samples = {(rung, name): {"cpu": [], "wall": []} for rung in RUNGS for name in POSITIONS}
    for repeat in range(args.repeats):
        for name, state in POSITIONS.items():
            for rung, run in RUNGS.items():
                wall, cpu = time.perf_counter(), time.process_time()
                run(state, args.iterations, SEED + repeat)
                cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                samples[(rung, name)]["cpu"].append(args.iterations / cpu)
                samples[(rung, name)]["wall"].append(args.iterations / wall)
    print(f"UCT, c = {C}, one search of {args.iterations:,} iterations per sample, {args.repeats}"
          f" interleaved repeats; medians of iterations per CPU second (per wall second); "
          f"checked: every rung grows the readable search's tree")
    medians = {}
    for name in POSITIONS:
        print(f"{name}:")
        print(f"  {'rung':<18}{'it/CPU s':>12}{'(it/wall s)':>14}{'x previous':>12}"
              f"{'x readable':>12}")
        previous = None
        for rung in RUNGS:
            cpu = statistics.median(samples[(rung, name)]["cpu"])
            wall = statistics.median(samples[(rung, name)]["wall"])
            medians[f"{rung} | {name}"] = cpu
            base = medians[f"readable | {name}"]
            step = "" if previous is None else f"{cpu / previous:>12.2f}"
            print(f"  {rung:<18}{cpu:>12,.0f}{wall:>14,.0f}{step:>12}{cpu / base:>12.1f}")
            if rung != "make/unmake":  # a side step: the next rung follows copy once
                previous = cpu
    load_after = os.getloadavg()
    print("  (x previous: against the rung above; make/unmake is measured beside copy once, "
          "and node pool is compared with copy once)")
    print(f"load average (1, 5, 15 min) {', '.join(f'{x:.2f}' for x in load_before)} before, "
          f"{', '.join(f'{x:.2f}' for x in load_after)} after; {os.cpu_count()} cores; "
          f"{time.perf_counter() - start:.0f} s")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"iterations": args.iterations, "repeats": args.repeats, "c": C,
                       "ladder": list(LADDER), "rates_per_cpu_second": medians,
                       "samples": {f"{r} | {n}": v for (r, n), v in samples.items()},
                       "load_before": load_before, "load_after": load_after}, out, indent=1)


if __name__ == "__main__":
    main()
