"""How long the CodinGame player really takes per turn, seen from the referee's side.

    python benchmarks/codingame_turns.py [--games 3] [--spec SPEC]

Runs ``python -m mctslib codingame uttt`` as a process under
:class:`mctslib.bots.codingame_referee.LocalReferee` (CodinGame's protocol through pipes,
against a random opponent), timing each turn from sending its input to reading the
answer, I/O included, as CodinGame does. CodinGame allows 1,000 ms for the first turn
and 100 ms after. Also measures the worst case of the first turn: input sent the moment
the process starts, before it has loaded. Timings depend on the machine's load, which is
why they are measured here and not asserted in a test, and why the load average is
printed with them. How far a search itself overruns its budget, and the options that
manage it (``margin_ms``, ``stop``), are measured by ``benchmarks/time_management.py``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from mctslib.bots.codingame_referee import LocalReferee


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="games as O and as X each (default 3)")
    parser.add_argument("--spec", default=None, help="bot SPEC (default: the player's own)")
    args = parser.parse_args()
    load_before = os.getloadavg()
    first_turns, later_turns, ready = [], [], []
    for game in range(args.games):
        for bot_first in (False, True):
            referee = LocalReferee(args.spec, bot_first=bot_first, seed=game)
            ready.append(referee.ready)
            referee.play()
            first_turns.append(referee.turn_seconds[0])
            later_turns.extend(referee.turn_seconds[1:])
    cold = []
    for seed in range(args.games):
        referee = LocalReferee(args.spec, bot_first=False, seed=seed, wait_until_ready=False)
        referee.turn()
        cold.append(time.perf_counter() - referee.spawned)
        referee.close()
    loads = [", ".join(f"{x:.2f}" for x in load) for load in (load_before, os.getloadavg())]
    print(f"load average (1, 5, 15 min): {loads[0]} before, {loads[1]} after; "
          f"{os.cpu_count()} cores")
    later_sorted = sorted(later_turns)
    p99 = later_sorted[min(len(later_sorted) - 1, int(0.99 * len(later_sorted)))]
    print(f"process ready after start: median {1000 * statistics.median(ready):.0f} ms, "
          f"max {1000 * max(ready):.0f} ms")
    print(f"first turn (limit 1000 ms): max {1000 * max(first_turns):.0f} ms over {len(first_turns)} games")
    print(f"first turn with input sent at spawn: max {1000 * max(cold):.0f} ms after spawn")
    print(f"later turns (limit 100 ms): median {1000 * statistics.median(later_turns):.1f} ms, "
          f"99th percentile {1000 * p99:.1f} ms, max {1000 * max(later_turns):.1f} ms "
          f"over {len(later_turns)} turns")
    within = max(later_turns) < 0.100 and max(first_turns) < 1.0 and max(cold) < 1.0
    print(f"codingame turns within limits: {'yes' if within else 'NO'}")


if __name__ == "__main__":
    main()
