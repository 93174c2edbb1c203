"""Strength of real threads: K workers against one at equal wall time on UTTT (chapter 7b).

Chapter 7b, "Parallel search". The speed benchmark
(``benchmarks/parallel_speed.py``) counts iterations; this match asks whether
they buy strength: :class:`mctslib.bots.parallel.ParallelBot` with ``workers``
threads (A) against the same bot with one (B, the sequential search), both
with ``ms`` milliseconds a move (every move, the first too), from seeded
random 2-ply openings each played twice with the sides swapped. Games run one
at a time in this process (``jobs=1``): a second game at once would take the
core A's second thread needs. The result stores A's score with its Wilson
interval and the interval over opening pairs
(:func:`mctslib.play.stats.pair_score_interval`), the Elo difference, and the
parameters, seeds and machine that made it::

    python -m mctslib.experiments.parallel.threads --mode tree --games 400 --ms 100

(400 games of about 50 moves at 100 ms: about 6 s a game, 40 minutes, on a 2-core
machine; run nothing else meanwhile.) :func:`load_match` reads a stored match back.

The speed benchmark's summary lives here too, so that the benchmark and the
chapter compute it one way: :func:`search_rates` (iterations per second of each
stored search) and :func:`paired_speed_up` (the ratios of searches paired by
position and repeat).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from ..._checks import check_choice, check_int, check_real
from ..._version import __version__
from ...bots.parallel import MAX_WORKERS, MODES, ParallelSpec
from ...bots.uttt import random_openings
from ...play.arena import letters, play_match
from ...play.elo_sprt import pair_outcomes
from ...play.stats import elo_from_score, pair_score_interval, score_interval
from ..stored import dataclass_json, load_dataclass, write_result

#: Where the command stores its result by default.
DEFAULT_DATA = Path("data") / "parallel"
#: Random plies of each opening (720 distinct 2-ply openings: enough for 1,440 games).
OPENING_PLIES = 2


@dataclass(frozen=True)
class ThreadsMatch:
    """A match of K threads (A) against one (B) at equal time per move, A's point of view."""

    mode: str
    workers: int
    virtual_loss: int
    ms: float
    c: float
    wins_on: bool
    games: int
    seed: int
    wins: int
    draws: int
    losses: int
    score: float
    interval: tuple[float, float]
    pair_interval: tuple[float, float]
    elo: float
    results: str
    seconds_per_move: tuple[float, float]
    seconds: float
    machine: dict

    def format(self) -> str:
        low, high = self.interval
        plow, phigh = self.pair_interval
        return (f"{self.mode} parallel, {self.workers} workers vs 1, {self.ms:g} ms a move, "
                f"c = {self.c:g}, wins {'on' if self.wins_on else 'off'}: {self.games} games, "
                f"+{self.wins} ={self.draws} -{self.losses}, score {self.score:.3f} "
                f"[{low:.3f}, {high:.3f}] (pairs [{plow:.3f}, {phigh:.3f}]), "
                f"Elo {self.elo:+.0f}; seconds a move A {self.seconds_per_move[0]:.3f}, "
                f"B {self.seconds_per_move[1]:.3f}")

    def to_json(self) -> str:
        return dataclass_json(self)


def load_match(path) -> ThreadsMatch:
    """A match stored by the command; ValueError naming the file if it holds something else."""
    return load_dataclass(ThreadsMatch, path, "a ThreadsMatch written by "
                          "python -m mctslib.experiments.parallel.threads")


def search_rates(samples: dict) -> dict[str, list[float]]:
    """Iterations per second of every search of ``benchmarks/parallel_speed.py``'s samples.

    ``samples`` maps a configuration (``"tree 2"``) to its searches in run
    order, each a dict with ``iterations`` and ``seconds``.
    """
    return {name: [run["iterations"] / run["seconds"] for run in runs]
            for name, runs in samples.items()}


def paired_speed_up(one: list[float], more: list[float]) -> tuple[float, float, float]:
    """``(median, least, greatest)`` of the ratios ``more[i] / one[i]``.

    The two lists are rates of the same searches (position and repeat) with one
    worker and with more, so each ratio compares searches that met the same
    spell of the machine. ValueError if the lists differ in length or are empty.
    """
    if len(one) != len(more) or not one:
        raise ValueError(f"one and more must be rates of the same searches (equal, non-zero "
                         f"lengths), got {len(one)} and {len(more)}.")
    ratios = sorted(b / a for a, b in zip(one, more))
    return statistics.median(ratios), ratios[0], ratios[-1]


def threads_match(mode: str = "tree", workers: int = 2, ms: float = 100.0, games: int = 400,
                  c: float = 0.5, wins_on: bool = True, virtual_loss: int | None = None,
                  seed: int = 0) -> ThreadsMatch:
    """Play ``workers`` threads against one, ``ms`` milliseconds a move each; see the module.

    ``games`` must be even, 4 to 1,440 (two games per distinct 2-ply opening; the
    pairs' interval needs two pairs).
    Raises ValueError for bad input (the specs' sentences, or ``games``).
    """
    mode = check_choice("mode", mode, MODES)
    workers = check_int("workers", workers, 2, MAX_WORKERS)
    games = check_int("games", games, 4, 1_440)
    if games % 2:
        raise ValueError(f"games must be even (each opening is played twice, sides swapped), "
                         f"got {games}.")
    ms = check_real("ms (milliseconds per move)", ms, 0.0, 60_000.0)
    seed = check_int("seed", seed, 0)
    a = ParallelSpec(mode=mode, workers=workers, virtual_loss=virtual_loss, ms=ms, c=c,
                     wins=wins_on)
    b = ParallelSpec(mode=mode, workers=1, virtual_loss=virtual_loss, ms=ms, c=c, wins=wins_on)
    openings = random_openings(games // 2, OPENING_PLIES, seed=seed)
    start = time.perf_counter()
    result = play_match(a, b, openings, games, seed=seed, jobs=1,
                        description=f"{workers} threads vs 1")
    seconds = time.perf_counter() - start
    record = letters(result.records)
    score, low, high = score_interval(result.wins, result.draws, result.losses)
    _, plow, phigh = pair_score_interval(pair_outcomes(record))
    machine = {"cpus": os.cpu_count(), "jobs": 1, "python": platform.python_version(),
               "processor": platform.machine(), "load_after": list(os.getloadavg()),
               "mctslib": __version__}
    return ThreadsMatch(mode, workers, a.virtual_loss, ms, a.c, wins_on, games, seed,
                        result.wins, result.draws, result.losses, score, (low, high),
                        (plow, phigh), elo_from_score(min(max(score, 1e-3), 1 - 1e-3)), record,
                        result.seconds_per_move(), seconds, machine)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mctslib.experiments.parallel.threads",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=MODES, default="tree")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ms", type=float, default=100.0)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--c", type=float, default=0.5)
    parser.add_argument("--wins", choices=("on", "off"), default="on")
    parser.add_argument("--virtual-loss", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None,
                        help="default data/parallel/threads_{mode}_{workers}v1_{ms}ms.json")
    args = parser.parse_args(argv)
    try:
        result = threads_match(args.mode, args.workers, args.ms, args.games, args.c,
                               args.wins == "on", args.virtual_loss, args.seed)
    except ValueError as error:
        parser.error(str(error))
    out = args.out or DEFAULT_DATA / (f"threads_{args.mode}_{args.workers}v1_"
                                      f"{args.ms:g}ms.json")
    write_result(result, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
