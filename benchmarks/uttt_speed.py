"""Ultimate Tic-Tac-Toe speed: the Python reference, the numba engine and OpenSpiel's C++ MCTS.

    python benchmarks/uttt_speed.py [--repeats 7]
    python benchmarks/uttt_speed.py --per-move [--games 4]

Measures, from the empty board and from a fixed middle-game position:

* random playouts per second: the readable reference
  (:func:`mctslib.search.flat.random_playout` on :class:`~mctslib.games.uttt.UltimateTicTacToe`)
  and the numba engine (:func:`mctslib.fast.uttt.playout_counts`); OpenSpiel's
  rollout evaluator is not callable from Python, so it has no playout row;
* UCT iterations per second at equal search sizes (2,000 and 20,000 iterations per
  search): the readable :class:`mctslib.search.uct.UCTSearch` (2,000 only), the numba bot
  (:class:`mctslib.bots.uttt.UTTTBot`, every option off: plain UCT, like OpenSpiel's) and
  OpenSpiel's C++ ``MCTSBot`` with a ``RandomRolloutEvaluator`` (simulations per second
  of ``mcts_search``, the search ``step()`` runs, at a fixed ``max_simulations``,
  solver off);
* iterations completed in a 100 ms turn from each position: the numba bot plain and
  with the chapter's options (win-taking playouts, solver), and OpenSpiel's MCTSBot
  stopped by its own clock (``max_wall_clock_time``); each engine's tree is then as
  large as its speed makes it.

All measurements are interleaved, repetition by repetition, so that the noise of a
shared machine hits every engine alike. The script prints medians with their range,
the machine's load average before and after, ratios, whether each target of the issue
is met, and finally three summary lines a script can read.

``--per-move`` measures instead the time per move of the chapter's bots in whole
games (``c=0.5``, every option off): 1,000, 20,000 and 100,000 iterations a move and
100 ms a move (first move too), in one process, one move at a time (no second job
competing for the other core). Each game is the bot against itself from a seeded
2-ply opening, the same openings for every bot, the bots interleaved game by game. It
prints iterations per move and per second, milliseconds per move (median and mean),
the share of the wall time the process had the CPU (below 100%: the machine was busy),
the rate and the milliseconds per move in CPU time (what a quiet core gives: a busy
machine shrinks the wall-clock rate, much less this one), and ratios to the
1,000-iteration bot. The times stored with the experiments' results come from matches
of two processes on two shared cores: load artefacts, not these.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time

import pyspiel

from mctslib.bots.openspiel import DEFAULT_MAX_MEMORY_MB, DEFAULT_UCT_C, spiel_state
from mctslib.bots.uttt import parse_spec
from mctslib.fast import uttt as engine
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.search.flat import random_playout
from mctslib.search.uct import UCTSearch
from mctslib.xorshift import XorShift64

#: 20 plies of two seeded numba bots (3,000 iterations, c 0.5, win-taking, solver):
#: X to move in board 0, seven legal moves, no board closed.
MID_GAME_MOVES = (30, 20, 70, 48, 72, 55, 4, 3, 19, 76, 77, 71, 34, 12, 36, 38, 52, 58, 21, 54)
POSITIONS = {
    "empty board": UltimateTicTacToe(),
    "mid-game": UltimateTicTacToe.from_moves(MID_GAME_MOVES),
}
# Playouts per timed call (each call takes roughly 0.05-0.1 s here).
PYTHON_PLAYOUTS = 200
NUMBA_PLAYOUTS = 50_000
# Searches compare at equal iterations per search: as a tree grows, playouts start
# deeper and get shorter, so the rate of every engine depends on the search size.
# 2,000 is what the Python reference manages in about half a second; 20,000 is
# between OpenSpiel's and our bot's iterations in a real 100 ms turn.
SMALL, LARGE = 2_000, 20_000
NUMBA_SMALL_REPEATS = 10  # one small numba search takes a few ms: time ten in a row
EXPLORATION = 1.0  # c on our 0..1 reward scale; OpenSpiel's default 2.0 on its -1..1 scale
PLAIN_TURN = "uct:c=0.5,ms=100,first_ms=100"
CHAPTER_TURN = "uct:c=0.5,wins=on,solver=on,ms=100,first_ms=100"
TURN_SECONDS = 0.1
TARGETS = {"openspiel": 12.0, "turn": 50_000, "python": 50.0}
ENGINE_ROWS = (("python playouts", "playouts/s"), ("numba playouts", "playouts/s"),
               (f"python UCT {SMALL:,}", "iterations/s"), (f"numba UCT {SMALL:,}", "iterations/s"),
               (f"OpenSpiel {SMALL:,}", "simulations/s"), (f"numba UCT {LARGE:,}", "iterations/s"),
               (f"OpenSpiel {LARGE:,}", "simulations/s"))


def timed(call, times: int = 1) -> float:
    start = time.perf_counter()
    for _ in range(times):
        call()
    return time.perf_counter() - start


def openspiel_bot(simulations: int, seconds: float = -1.0):
    """OpenSpiel's MCTSBot with random rollouts (solver off, like our plain UCT)."""
    return pyspiel.MCTSBot(pyspiel.load_game("ultimate_tic_tac_toe"),
                           pyspiel.RandomRolloutEvaluator(1, 2026), DEFAULT_UCT_C, simulations,
                           DEFAULT_MAX_MEMORY_MB, False, 2026, False,
                           max_wall_clock_time=seconds)


class Engines:
    """One measuring method per engine; each returns work per second (or per turn)."""

    def __init__(self):
        self.python_source = XorShift64(2026)
        self.numba_rng = engine.new_rng(2026)
        self.python_uct = UCTSearch(EXPLORATION, iterations=SMALL, seed=XorShift64(2026))
        self.numba_uct = {size: parse_spec(f"uct:c={EXPLORATION},iters={size}")(seed=2026)
                          for size in (SMALL, LARGE)}
        self.openspiel = {size: openspiel_bot(size) for size in (SMALL, LARGE)}
        # OpenSpiel can stop on the clock itself: max_wall_clock_time, in seconds.
        self.openspiel_turn = openspiel_bot(10**9, TURN_SECONDS)
        self.turn_bots = {name: parse_spec(spec)(seed=2026)
                          for name, spec in (("plain", PLAIN_TURN), ("chapter", CHAPTER_TURN))}

    def python_playouts(self, state) -> float:
        return PYTHON_PLAYOUTS / timed(lambda: random_playout(state, self.python_source),
                                       PYTHON_PLAYOUTS)

    def numba_playouts(self, state) -> float:
        array = engine.to_array(state)
        return NUMBA_PLAYOUTS / timed(lambda: engine.playout_counts(
            array, NUMBA_PLAYOUTS, self.numba_rng, engine.CODINGAME))

    def python_iterations(self, state) -> float:
        return SMALL / timed(lambda: self.python_uct.choose(state))

    def numba_iterations(self, state, size: int) -> float:
        times = NUMBA_SMALL_REPEATS if size == SMALL else 1
        seconds = timed(lambda: self.numba_uct[size].choose(state), times)
        assert self.numba_uct[size].last.iterations == size  # no early stop: the rate is fair
        return size * times / seconds

    def openspiel_simulations(self, spiel, size: int) -> float:
        root = None

        def search():
            nonlocal root
            root = self.openspiel[size].mcts_search(spiel)  # what step() runs

        seconds = timed(search)
        assert root.explore_count == size  # it stops early only on a solved root or one move
        return size / seconds

    def iterations_in_a_turn(self, name: str, state) -> float:
        bot = self.turn_bots[name]
        bot.choose(state)
        return bot.last.iterations

    def openspiel_simulations_in_a_turn(self, spiel) -> float:
        return self.openspiel_turn.mcts_search(spiel).explore_count


def measure(repeats: int) -> dict:
    engines = Engines()
    spiel_states = {name: spiel_state(state) for name, state in POSITIONS.items()}
    for name, state in POSITIONS.items():  # warm-up: load numba's cache, fill CPU caches
        engines.numba_playouts(state)
        engines.numba_iterations(state, SMALL)
        engines.openspiel_simulations(spiel_states[name], SMALL)
    samples: dict = {}

    def add(key, value):
        samples.setdefault(key, []).append(value)

    for _ in range(repeats):
        for name, state in POSITIONS.items():
            spiel = spiel_states[name]
            add(("python playouts", name), engines.python_playouts(state))
            add(("numba playouts", name), engines.numba_playouts(state))
            add((f"python UCT {SMALL:,}", name), engines.python_iterations(state))
            for size in (SMALL, LARGE):
                add((f"numba UCT {size:,}", name), engines.numba_iterations(state, size))
                add((f"OpenSpiel {size:,}", name), engines.openspiel_simulations(spiel, size))
            for bot in ("plain", "chapter"):
                add(("100 ms turn", bot, name), engines.iterations_in_a_turn(bot, state))
            add(("100 ms turn", "openspiel", name), engines.openspiel_simulations_in_a_turn(spiel))
    return samples


def _spread(values) -> str:
    return f"[{min(values):,.0f} - {max(values):,.0f}]"


def report(samples: dict, repeats: int, load_before, load_after) -> list[str]:
    median = {key: statistics.median(values) for key, values in samples.items()}
    header = (f"Ultimate Tic-Tac-Toe speed: medians of {repeats} interleaved repetitions, "
              f"[range]; load average {load_before:.2f} before, {load_after:.2f} after, "
              f"{os.cpu_count()} cores")
    legend = (f"(UCT N / OpenSpiel N: one search of N iterations or simulations; c = "
              f"{EXPLORATION:g} for ours, uct_c = {DEFAULT_UCT_C:g} for OpenSpiel's -1..1 "
              "rewards; no solver)")
    lines = [header, legend]
    for name in POSITIONS:
        lines.append(f"{name}:")
        for row, unit in ENGINE_ROWS:
            lines.append(f"  {row:>18}: {median[(row, name)]:12,.0f} {unit:<14}"
                         f"{_spread(samples[(row, name)])}")
    for name in POSITIONS:
        lines.append(f"in a {1000 * TURN_SECONDS:g} ms turn, {name}:")
        for key, what in (("plain", f"numba bot {PLAIN_TURN}"),
                          ("chapter", f"numba bot {CHAPTER_TURN}"),
                          ("openspiel", "OpenSpiel MCTSBot, max_wall_clock_time 0.1 s")):
            lines.append(f"  {median[('100 ms turn', key, name)]:9,.0f} iterations  "
                         f"{_spread(samples[('100 ms turn', key, name)])}  {what}")
    lines.append("ratios of medians:")
    versus_openspiel, versus_python = [], []
    for name in POSITIONS:
        def ratio(top, bottom, name=name):
            return median[(top, name)] / median[(bottom, name)]

        playouts = ratio("numba playouts", "python playouts")
        uct = ratio(f"numba UCT {SMALL:,}", f"python UCT {SMALL:,}")
        small = ratio(f"numba UCT {SMALL:,}", f"OpenSpiel {SMALL:,}")
        large = ratio(f"numba UCT {LARGE:,}", f"OpenSpiel {LARGE:,}")
        versus_python += [playouts, uct]
        versus_openspiel.append(large)
        turn = (median[("100 ms turn", "plain", name)]
                / median[("100 ms turn", "openspiel", name)])
        lines.append(f"  {name}: numba / python: playouts {playouts:.1f}x, UCT {uct:.1f}x; "
                     f"numba UCT / OpenSpiel MCTSBot: {small:.1f}x at {SMALL:,}, "
                     f"{large:.1f}x at {LARGE:,}, {turn:.1f}x in a 100 ms turn")
    to_openspiel, to_python = min(versus_openspiel), min(versus_python)
    turn = median[("100 ms turn", "plain", "empty board")]
    met = {True: "met", False: "NOT met"}
    verdicts = [
        (f"target numba UCT >= {TARGETS['openspiel']:g}x OpenSpiel MCTSBot (at {LARGE:,}, the "
         f"smaller of the two positions): {met[to_openspiel >= TARGETS['openspiel']]}"),
        (f"target >= {TARGETS['turn']:,} iterations in a 100 ms turn from the empty board "
         f"(plain UCT): {met[turn >= TARGETS['turn']]}"),
        (f"target numba >= {TARGETS['python']:g}x the python reference (the smallest of the "
         f"playout and UCT ratios): {met[to_python >= TARGETS['python']]}"),
    ]
    summary = [f"numba UCT / OpenSpiel MCTSBot: {to_openspiel:.1f}x",
               f"iterations in a 100 ms turn from the empty board: {turn:,.0f}",
               f"numba / python reference: {to_python:.1f}x"]
    return [*lines, *verdicts, *summary]


# ----------------------------------------------------------------------------- per move

#: The chapter's bots whose time per move the --per-move table gives (iteration budgets of
#: the experiments, and CodinGame's 100 ms; the first move gets 100 ms too).
PER_MOVE_BOTS = ("uct:c=0.5,iters=1000", "uct:c=0.5,iters=20000", "uct:c=0.5,iters=100000",
                 "uct:c=0.5,ms=100,first_ms=100")


def game_times(spec: str, opening, seed: int) -> list[tuple[float, float, int]]:
    """(wall seconds, CPU seconds, iterations) of every move of one game of ``spec`` vs itself."""
    players = [parse_spec(spec)(seed=seed), parse_spec(spec)(seed=seed + 1)]
    state, moves = opening, []
    while not state.is_terminal():
        bot = players[len(moves) % 2]
        wall, cpu = time.perf_counter(), time.process_time()
        move = bot.choose(state)
        moves.append((time.perf_counter() - wall, time.process_time() - cpu,
                      bot.last.iterations))
        state = state.play(move)
    return moves


def per_move(games: int) -> list[str]:
    """The --per-move table: each bot's speed in whole games, and ratios to the first bot."""
    from mctslib.bots.uttt import random_openings

    openings = random_openings(games, plies=2, seed=2026)
    game_times(PER_MOVE_BOTS[0], openings[0], 0)  # warm-up: numba's cache, CPU caches
    load_before = os.getloadavg()
    samples = {spec: [] for spec in PER_MOVE_BOTS}
    for k, opening in enumerate(openings):
        for spec in PER_MOVE_BOTS:  # interleaved: load changes hit every bot alike
            samples[spec] += game_times(spec, opening, 100 * k)
    load_after = os.getloadavg()
    header = (f"time per move in whole games, one process ({games} games per bot from 2-ply "
              f"openings); load average (1, 5, 15 min) {_loads(load_before)} before, "
              f"{_loads(load_after)} after, {os.cpu_count()} cores")
    columns = (f"  {'bot':<32}{'moves':>6}{'iters/move':>12}{'iterations/s':>14}"
               f"{'median ms':>11}{'mean ms':>9}"
               f"{'CPU/wall':>10}{'per CPU s':>12}{'CPU ms':>8}{'ms ratio':>10}"
               f"{'rate ratio':>12}")
    lines = [header, columns]
    base = None
    for spec in PER_MOVE_BOTS:
        moves = samples[spec]
        wall = math.fsum(w for w, _, _ in moves)
        cpu = math.fsum(c for _, c, _ in moves)
        iterations = sum(i for _, _, i in moves)
        rate = iterations / wall
        mean_ms = 1000 * wall / len(moves)
        if base is None:
            base = (mean_ms, rate)
        lines.append(f"  {spec:<32}{len(moves):>6}{iterations / len(moves):>12,.0f}{rate:>14,.0f}"
                     f"{1000 * statistics.median(w for w, _, _ in moves):>11.2f}{mean_ms:>9.2f}"
                     f"{100 * cpu / wall:>9.0f}%{iterations / cpu:>12,.0f}"
                     f"{1000 * cpu / len(moves):>8.2f}{mean_ms / base[0]:>10.1f}"
                     f"{rate / base[1]:>12.2f}")
    lines.append("  (iterations/s and ms: wall clock; per CPU s and CPU ms: the process's CPU "
                 "time, what a quiet core would give; ms ratio: mean ms per move / the first "
                 "bot's; rate ratio: iterations/s / the first bot's)")
    return lines


def _loads(loads) -> str:
    return ", ".join(f"{load:.2f}" for load in loads)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=7,
                        help="interleaved repetitions (default 7; at least 1)")
    parser.add_argument("--per-move", action="store_true",
                        help="only the time per move of the chapter's bots in whole games")
    parser.add_argument("--games", type=int, default=4,
                        help="with --per-move: games per bot (default 4; at least 1)")
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error(f"--repeats must be at least 1, got {args.repeats}")
    if args.per_move:
        if args.games < 1:
            parser.error(f"--games must be at least 1, got {args.games}")
        print("\n".join(per_move(args.games)))
        return
    load_before = os.getloadavg()[0]
    samples = measure(args.repeats)
    print("\n".join(report(samples, args.repeats, load_before, os.getloadavg()[0])))


if __name__ == "__main__":
    main()
