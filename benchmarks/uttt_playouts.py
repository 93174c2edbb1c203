"""The cost of each UTTT playout policy, side by side in one run (chapter "Enhancements and failure modes").

    python benchmarks/uttt_playouts.py [--repeats 5] [--playouts 20000] [--iterations 20000]

For each policy of :mod:`mctslib.fast.uttt_playouts` (``random``, ``wins``,
``safe``, ``capture``, ``greedy``), from the empty board and from a middle-game
position (20 plies of a seeded game):

* playouts per second of the policy's playout (:func:`~mctslib.fast.uttt_playouts.policy_playout`,
  what the search runs: for ``random`` and ``wins`` the engine's inlined loop
  :func:`mctslib.fast.uttt.playout`, for the others the same style of loop that falls back
  to a list of moves only where the opponent might win at once);
* moves per playout, and the playouts' outcomes (X / O / draw shares, CodinGame scoring):
  a stronger policy ends more games in a line, a greedier one less diversely;
* nodes (and bytes) after a search of ``--iterations`` with ``expand=k``, k = 1 to 16;
* UCT iterations per second of the bot (``c=0.5,wins=on`` and ``playout=POLICY``; ``random``
  is ``wins=off``) in a search of ``--iterations`` from each position.

Measurements are interleaved repetition by repetition (medians printed, with the range),
in CPU seconds of this process (``time.process_time``: another program slows the wall clock,
not, to first order, these counts), and the load average is printed before and after: on a
shared machine the ratios between policies mean more than the rates. The last lines are one summary line per policy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from mctslib.bots.uttt import BYTES_PER_NODE, UTTTBot
from mctslib.fast import uttt as engine
from mctslib.fast import uttt_playouts as policies
from mctslib.games.uttt import UltimateTicTacToe

MIDDLE_SEED, MIDDLE_PLIES = 20, 20
EXPANDS = (1, 2, 4, 8, 16)


def middle_game() -> UltimateTicTacToe:
    """20 plies of win-taking playout moves from a fixed seed (a position still on)."""
    state = UltimateTicTacToe()
    rng = engine.new_rng(MIDDLE_SEED)
    buf, copy = np.zeros(81, np.int64), np.zeros(engine.STATE_SIZE, np.int64)
    for _ in range(MIDDLE_PLIES):
        s = engine.to_array(state)
        state = state.play(int(policies.policy_move(s, rng, policies.WINS, engine.CODINGAME,
                                                    buf, copy)))
    assert not state.is_terminal()
    return state


def spec_of(policy: str, iterations: int) -> str:
    if policy == "random":
        return f"uct:c=0.5,wins=off,iters={iterations}"
    return f"uct:c=0.5,wins=on,iters={iterations}" + ("" if policy == "wins"
                                                        else f",playout={policy}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--playouts", type=int, default=20000)
    parser.add_argument("--iterations", type=int, default=20000)
    args = parser.parse_args(argv)
    positions = {"empty board": UltimateTicTacToe(), f"{MIDDLE_PLIES} plies in": middle_game()}
    load_before = os.getloadavg()
    rates: dict = {}
    tallies: dict = {}
    bots = {p: UTTTBot(spec_of(p, args.iterations), seed=1) for p in policies.POLICIES}
    for name, state in positions.items():  # compile and warm up
        s = engine.to_array(state)
        for p in policies.POLICIES:
            policies.playout_rate_sample(s, 2, engine.new_rng(1), policies.policy_code(p), 0)
            tallies[name, p] = policies.policy_tally(s, args.playouts, engine.new_rng(2),
                                                     policies.policy_code(p), engine.CODINGAME)
    for _ in range(args.repeats):
        for name, state in positions.items():
            s = engine.to_array(state)
            for p in policies.POLICIES:
                code = policies.policy_code(p)
                start = time.process_time()
                policies.playout_rate_sample(s, args.playouts, engine.new_rng(3), code, 0)
                rates.setdefault((name, p, "playout"), []).append(
                    args.playouts / (time.process_time() - start))
                bot = bots[p]
                bot.pool.reset()
                start = time.process_time()
                bot.choose(state)
                rates.setdefault((name, p, "search"), []).append(
                    args.iterations / (time.process_time() - start))
    load_after = os.getloadavg()
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}; "
          f"{os.cpu_count()} cpus; {args.repeats} repeats, medians [min, max] per CPU-second")
    for name in positions:
        print(f"\n{name}:")
        base = statistics.median(rates[name, "wins", "search"])
        for p in policies.POLICIES:
            x, o, draws, moves = (int(v) for v in tallies[name, p])
            n = x + o + draws
            parts = [f"{p:<8}"]
            for kind in ("playout", "search"):
                if (name, p, kind) in rates:
                    values = rates[name, p, kind]
                    unit = "it/s" if kind == "search" else "playouts/s"
                    parts.append(f"{kind} {statistics.median(values):>10,.0f} {unit} "
                                 f"[{min(values):,.0f}, {max(values):,.0f}]")
            parts.append(f"{moves / n:.1f} moves/playout, X/O/draw {x / n:.3f}/{o / n:.3f}/"
                         f"{draws / n:.3f}")
            parts.append(f"search speed / wins: {statistics.median(rates[name, p, 'search']) / base:.2f}")
            print("  " + "; ".join(parts))
    print(f"\nexpand=k (memory): nodes after {args.iterations:,} iterations of "
          f"uct:c=0.5,wins=on from each position, {BYTES_PER_NODE} bytes a node")
    for name, state in positions.items():
        row = []
        for k in EXPANDS:
            bot = UTTTBot(f"uct:c=0.5,wins=on,iters={args.iterations},expand={k}", seed=1)
            bot.choose(state)
            row.append(f"k={k}: {bot.pool.count:,} nodes "
                       f"({bot.pool.count * BYTES_PER_NODE / 2**20:.2f} MiB)")
        print(f"  {name}: " + "; ".join(row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
