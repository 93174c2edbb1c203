"""What tree reuse costs in time: the UTTT bot with and without it, at equal new iterations.

    python benchmarks/uttt_reuse_cost.py [--games 6] [--iterations 100000]

The chapter "Ultimate Tic-Tac-Toe: tuning a real bot" decides tree reuse with a match at
equal *new* iterations per move (``data/uttt/playing/reuse_decision.json``): the reusing
bot keeps the subtree under the last two moves and runs as many new iterations as the
other. That leaves out what keeping the tree costs: finding and re-rooting the subtree,
and iterating in a larger tree. This script measures that cost. Each game is the bot
against itself with ``reuse=on`` from a seeded 2-ply opening; in every position the game
reaches, a bot with ``reuse=off`` (the same options and seed) also searches, and its move is
thrown away. So both are timed on the same positions, one right after the other, and a
change of load hits both alike. Every search is timed in CPU time (``time.process_time``);
the script prints the mean and median CPU milliseconds per move of each, the ratio of the
means, and how many nodes the reusing bot kept per move.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time

from mctslib.bots.uttt import parse_spec, random_openings

#: The bot the chapter plays, without its budget and reuse.
BOT = "uct:c=0.5,scale=01,wins=on,solver=on,centre=on"


def game(specs: dict, opening, seed: int) -> dict:
    """(CPU seconds, iterations, kept nodes) of each bot at every position of one game.

    The game is played by the ``reuse=on`` bots; the ``reuse=off`` bot searches the same
    positions, its move unused.
    """
    players = {name: [parse_spec(spec)(seed=seed), parse_spec(spec)(seed=seed + 1)]
               for name, spec in specs.items()}
    state, moves = opening, {name: [] for name in specs}
    while not state.is_terminal():
        for name in specs:  # off first, then on: the one whose move is played comes last
            bot = players[name][state.player_to_move]
            start = time.process_time()
            move = bot.choose(state)
            moves[name].append((time.process_time() - start, bot.last.iterations,
                                bot.last.reused_nodes))
        state = state.play(move)
    return moves


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=6, help="games per bot (default 6)")
    parser.add_argument("--iterations", type=int, default=100_000,
                        help="new iterations per move (default 100,000)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    if not 1 <= args.iterations <= 10_000_000:
        parser.error(f"--iterations must be from 1 to 10,000,000, got {args.iterations}")
    openings = random_openings(args.games, plies=2, seed=2026)
    specs = {"reuse=off": f"{BOT},reuse=off,iters={args.iterations}",
             "reuse=on": f"{BOT},reuse=on,iters={args.iterations}"}
    game({"warm-up": f"{BOT},iters=1000"}, openings[0], 0)  # numba's cache, CPU caches
    load_before, start = os.getloadavg(), time.perf_counter()
    moves = {name: [] for name in specs}
    for k, opening in enumerate(openings):
        for name, rows in game(specs, opening, 100 * k).items():
            moves[name] += rows
    print(f"{BOT}, {args.iterations:,} new iterations a move; {args.games} games of the "
          f"reusing bot against itself from 2-ply openings, the other bot searching the same "
          f"positions; CPU time per move")
    mean = {}
    for name, rows in moves.items():
        cpu = [c for c, _, _ in rows]
        mean[name] = math.fsum(cpu) / len(cpu)
        kept = [k for _, _, k in rows]
        print(f"  {name:<10} {len(rows):>4} moves: mean {1000 * mean[name]:.1f} ms, median "
              f"{1000 * statistics.median(cpu):.1f} ms, {sum(i for _, i, _ in rows) / len(rows):,.0f}"
              f" iterations a move, {sum(kept) / len(kept):,.0f} nodes kept a move")
    print(f"  reuse=on / reuse=off, mean CPU per move: {mean['reuse=on'] / mean['reuse=off']:.3f}")
    print(f"load average (1, 5, 15 min) {', '.join(f'{x:.2f}' for x in load_before)} before, "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())} after; {os.cpu_count()} cores; "
          f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
