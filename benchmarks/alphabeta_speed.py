"""The alpha-beta baseline: what move ordering saves, its speed, and how late it answers.

    python benchmarks/alphabeta_speed.py [--positions 200] [--depth 6] [--ms 100] [--moves 40]

(``--moves 0`` skips the bot's overrun.)

Three measurements, from seeded random positions (2 to 50 random plies from
the empty board, games still on):

* **nodes to a fixed depth**, with the killer and history move ordering
  (previous best move first) and without it (moves in ascending order): node
  counts do not depend on the machine or its load, so this part is exact and
  reproducible. Totals, and the median and quartiles of the per-position
  ratio;
* **nodes per second** of the compiled search over the same searches (wall
  time: depends on the load, printed next to it);
* **overrun** of the bot (:class:`mctslib.bots.uttt_alphabeta.AlphaBetaBot`) at
  ``--ms`` per move: its measured ``choose`` time minus the budget, on
  ``--moves`` positions (moves that stopped early on a proven result or a
  fully searched tree are left out: they end before the budget).

Chapter "Enhancements and failure modes".
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from mctslib.bots.uttt_alphabeta import AlphaBetaBot
from mctslib.fast import uttt as engine
from mctslib.fast import uttt_alphabeta as fast_ab
from mctslib.games.uttt import UltimateTicTacToe


def random_positions(count: int, seed: int) -> list:
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        state = UltimateTicTacToe()
        for _ in range(int(rng.integers(2, 51))):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            state = state.play(moves[int(rng.integers(len(moves)))])
        if not state.is_terminal():
            found.append(state)
    return found


def nodes_to_depth(states, depth: int, ordering: bool) -> tuple[np.ndarray, float]:
    workspace, out = fast_ab.new_workspace(), np.zeros(4, dtype=np.int64)
    counts, start = [], time.perf_counter()
    for state in states:
        fast_ab.search(engine.to_array(state), depth, fast_ab.NO_NODE_LIMIT, fast_ab.NO_DEADLINE,
                       engine.scoring_code(state.scoring), ordering, fast_ab.weights_array(),
                       *workspace, out)
        counts.append(int(out[3]))
    return np.array(counts), time.perf_counter() - start


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--ms", type=float, default=100.0)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args(argv)
    states = random_positions(args.positions, args.seed)
    nodes_to_depth(states[:2], 2, True)  # load the compiled code outside the clock
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores)")
    with_order, seconds_on = nodes_to_depth(states, args.depth, True)
    without, seconds_off = nodes_to_depth(states, args.depth, False)
    ratio = without / with_order
    q1, median, q3 = np.percentile(ratio, [25, 50, 75])
    print(f"{len(states)} positions, iterative deepening to depth {args.depth}:")
    print(f"  nodes with killer/history ordering: {with_order.sum():,}")
    print(f"  nodes in ascending move order:      {without.sum():,} "
          f"({without.sum() / with_order.sum():.2f} x)")
    print(f"  per-position ratio without/with: median {median:.2f}, quartiles {q1:.2f}-{q3:.2f}, "
          f"ordering searched fewer nodes on {(ratio > 1).sum()} of {len(states)} positions, "
          f"more on {(ratio < 1).sum()}")
    print(f"  speed (wall time, load {os.getloadavg()[0]:.2f}): "
          f"{with_order.sum() / seconds_on / 1e6:.2f} M nodes/s with ordering, "
          f"{without.sum() / seconds_off / 1e6:.2f} M nodes/s without")
    if args.moves <= 0:
        return
    bot = AlphaBetaBot(f"alphabeta:ms={args.ms:g},first_ms={args.ms:g}")
    overruns, depths = [], []
    for state in states[:args.moves]:
        bot.choose(state)
        info = bot.last
        if info.verdict is None and info.depth < fast_ab.MAX_PLY:
            overruns.append(1000 * info.seconds - args.ms)
            depths.append(info.depth)
    overruns = np.array(overruns)
    print(f"bot at {args.ms:g} ms a move, {len(overruns)} timed moves (load "
          f"{os.getloadavg()[0]:.2f}): overrun median {np.median(overruns):.3f} ms, "
          f"max {overruns.max():.3f} ms, over 1 ms on {(overruns > 1).sum()}, over 5 ms on "
          f"{(overruns > 5).sum()}; depth reached median {np.median(depths):.0f} "
          f"(range {min(depths)}-{max(depths)})")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
