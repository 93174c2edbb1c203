"""Where more workers stop paying: K simulated workers with virtual loss on UTTT (chapter 7).

Chapter 7b, "Parallel search". The model of K workers on one tree
(:mod:`mctslib.search.parallel`, kernel :mod:`mctslib.fast.uttt_virtual_loss`)
is deterministic, so the *search overhead* of K workers (what they lose
against one worker at the same total number of iterations, because each
descends without the results of the playouts still in flight) is measured
exactly and reproducibly, for K far beyond this machine's two cores. Two
measurements, stored as JSON under ``data/parallel/`` (commands in its README):

* :func:`play_part`: a match of the K-worker bot (A) against the 1-worker bot
  (B, sequential UCT) at the same iterations per move, with
  :func:`mctslib.play.arena.play_match` (fresh bots every game, random
  openings each played twice with the sides swapped). Stored as a
  :class:`mctslib.experiments.stored.MatchPart` (labels ``K=8 vl=1``
  and ``K=1``) in parts with their own seeds, added up by
  :func:`mctslib.experiments.stored.combine`. Every (K, virtual loss)
  pair of one part meets the same openings and the same B streams, so the
  curves over K are paired. :func:`sweep` runs the grid (K in
  :data:`WORKERS`, virtual loss in :data:`VIRTUAL_LOSSES`).
* :func:`agreement`: no games, about a minute: on a fixed set of positions,
  how often the K-worker search at N iterations chooses the *reference move*
  (that of a sequential search ten times as long), against two anchors
  measured alongside: the sequential search at N (no overhead) and at N / K
  (the K workers worth only N / K iterations, all overhead). Where the K-worker
  rate falls between the two says how much of the parallel work was wasted.
  Why this measure: a match only sees the move played, so the chosen move is
  what the overhead can cost, and a longer search is the best answer we have
  for a UTTT position (there is no solved value). Also stored: how often it
  chooses the move of an independent sequential search at N (two searches at
  N agree only so often: the noise floor, the K = 1 row), and the total
  variation distance between their root visit distributions. Sums of
  fractions use ``math.fsum`` (a fixed order, no BLAS).

Command line (``python -m mctslib.experiments.parallel.model --help``)::

    python -m mctslib.experiments.parallel.model match --workers 8 --virtual-loss 1 \\
        --iterations 10000 --games 20 --part 0
    python -m mctslib.experiments.parallel.model sweep --iterations 10000 --games 200 --part 0
    python -m mctslib.experiments.parallel.model agreement --iterations 10000
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ..._checks import check_bool, check_choice, check_int, check_real
from ..._version import __version__
from ...bots.uttt import random_openings
from ...bots.virtual_loss import DEFAULT_C, NODES_PER_ITERATION, SCHEMES, VirtualLossSpec
from ...fast import uttt as fast_uttt
from ...fast import uttt_virtual_loss as engine
from ...fast.xorshift import new_rng
from ...games.uttt import UltimateTicTacToe
from ...play.arena import letters, play_match
from ...play.openings import positions_at_plies
from ...search.parallel import KINDS, MAX_VIRTUAL_LOSS, SCHEDULES
from ..stored import (
    MatchPart,
    combine,
    dataclass_json,
    gather_parts,
    load_dataclass,
    store_result,
    write_result,
)

__all__ = ["DEFAULT_DATA", "VIRTUAL_LOSSES", "WORKERS", "AgreementResult", "agreement",
           "load_match", "load_part", "part_path", "play_part", "sweep"]

#: Where the commands store their files.
DEFAULT_DATA = Path("data") / "parallel"
#: The workers of the figure.
WORKERS = (1, 2, 4, 8, 16, 32, 64)
#: The virtual losses of the figure (0: workers blind to each other).
VIRTUAL_LOSSES = (0, 1, 3)
#: Random plies of each opening (as the UTTT chapter's matches).
OPENING_PLIES = 2
TIME_NOTE = ("seconds are wall time on a shared 2-core machine (load averages stored), not "
             "speeds; at an iteration budget the games do not depend on them")


def _spec(workers, virtual_loss, kind, iterations, c, wins, schedule="lockstep",
          scheme="tree") -> VirtualLossSpec:
    return VirtualLossSpec(workers=workers, virtual_loss=virtual_loss, kind=kind,
                           iterations=iterations, c=c, wins=wins, schedule=schedule,
                           scheme=scheme)


def _label(spec: VirtualLossSpec) -> str:
    if spec.workers == 1:
        return "K=1"
    if spec.scheme == "root":
        return f"K={spec.workers} root"
    return (f"K={spec.workers} vl={spec.virtual_loss}" + ("" if spec.kind == "loss" else " draw")
            + (" staggered" if spec.schedule == "staggered" else ""))


def _machine(jobs: int) -> dict:
    return {"cpus": os.cpu_count(), "jobs": jobs, "python": platform.python_version(),
            "processor": platform.machine(), "mctslib": __version__}


def play_part(workers: int = 8, virtual_loss: int = 1, iterations: int = 10_000,
              games: int = 20, part: int = 0, *, seed: int = 16, kind: str = "loss",
              c: float = DEFAULT_C, wins: bool = False, opening_plies: int = OPENING_PLIES,
              jobs: int = 1, schedule: str = "lockstep", scheme: str = "tree") -> MatchPart:
    """Part ``part`` of the match K workers (A) against 1 worker (B), same iterations per move.

    Parameters
    ----------
    workers : int
        A's workers, 1 to 1,024.
    virtual_loss : int
        A's virtual loss in visits, 0 to 1,000,000.
    iterations : int
        Iterations per move of both bots, 1 to 10,000,000.
    games : int
        Games of this part, 2 to 100,000 (pairs: one opening, sides swapped).
    part : int
        0 to 999: the match seed is ``SeedSequence(seed, spawn_key=(part,))``
        and the openings stream ``(seed, 1000 + part)``, whatever A is.
    seed : int
        The experiment's seed (>= 0).
    kind : {"loss", "draw"}
        A's kind of virtual loss.
    c : float
        Both bots' exploration constant, 0 to 100.
    wins : bool
        Win-taking playouts for both.
    opening_plies : int
        Random plies of each opening, 1 to 8.
    jobs : int
        Worker processes that play games side by side, 1 to 64.
    schedule : {"lockstep", "staggered"}
        A's schedule (:data:`mctslib.search.parallel.SCHEDULES`).
    scheme : {"tree", "root"}
        A's scheme: one shared tree, or K separate trees of ``iterations / K``
        (root parallelism; give ``virtual_loss=0``).
    """
    games = check_int("games", games, 2, 100_000)
    part = check_int("part", part, 0, 999)
    seed = check_int("seed", seed, 0)
    jobs = check_int("jobs", jobs, 1, 64)
    plies = check_int("opening_plies", opening_plies, 1, 8)
    a = _spec(workers, virtual_loss, kind, iterations, c, wins, schedule, scheme)
    b = _spec(1, 0, "loss", iterations, c, wins)
    starts = random_openings(max(1, games // 2), plies,
                             np.random.SeedSequence(seed, spawn_key=(1000 + part,)))
    load_before = list(os.getloadavg())
    start = time.perf_counter()
    result = play_match(a, b, starts, games, seed=np.random.SeedSequence(seed, spawn_key=(part,)),
                        jobs=jobs, description=f"{_label(a)} vs K=1, part {part}")
    seconds = time.perf_counter() - start
    return MatchPart(
        game="uttt", part=part, seed=seed, games=games,
        a={"label": _label(a), "describe": a.describe(), **asdict(a)},
        b={"label": _label(b), "describe": b.describe(), **asdict(b)}, opening_plies=plies,
        wins=result.wins, draws=result.draws, losses=result.losses, score=result.score,
        interval_95=list(result.interval), results=letters(result.records), seconds=seconds,
        seconds_per_move=list(result.seconds_per_move()), load_before=load_before,
        load_after=list(os.getloadavg()), machine=_machine(jobs), notes=[TIME_NOTE])


def part_path(workers: int, virtual_loss: int, iterations: int, part: int, kind: str = "loss",
              data=DEFAULT_DATA, schedule: str = "lockstep", scheme: str = "tree") -> Path:
    """``data/parallel/uttt_{N}it_k{K}_vl{V}[_draw][_staggered]_part{p}.json``.

    Root parallelism (``scheme="root"``): ``uttt_{N}it_k{K}_root_part{p}.json``.
    """
    if scheme == "root":
        return Path(data) / f"uttt_{iterations}it_k{workers}_root_part{part}.json"
    tag = ("" if kind == "loss" else f"_{kind}") + ("" if schedule == "lockstep" else f"_{schedule}")
    return Path(data) / f"uttt_{iterations}it_k{workers}_vl{virtual_loss}{tag}_part{part}.json"


def load_part(path) -> MatchPart:
    """Read a part stored by the command; ValueError naming the file if it holds something else."""
    return load_dataclass(MatchPart, path,
                          "a MatchPart written by 'python -m mctslib.experiments.parallel.model'")


def load_match(workers: int, virtual_loss: int, iterations: int, kind: str = "loss",
               data=DEFAULT_DATA, schedule: str = "lockstep", scheme: str = "tree") -> dict:
    """Every stored part of one (K, virtual loss) match added up (transpositions' ``combine``).

    Raises ValueError if no part is stored.
    """
    first = part_path(workers, virtual_loss, iterations, 0, kind, data, schedule, scheme)
    _, parts = gather_parts(None, first, load_part,
                            "the README there gives the commands that make them.")
    return combine(parts)


def sweep(workers=WORKERS, virtual_losses=VIRTUAL_LOSSES, iterations: int = 10_000,
          games: int = 20, part: int = 0, *, kind: str = "loss", data=DEFAULT_DATA,
          jobs: int = 1, overwrite: bool = False, report=print, schedule: str = "lockstep",
          scheme: str = "tree") -> list[Path]:
    """Play and store :func:`play_part` for every K and virtual loss; return the files.

    K = 1 is played once (its virtual loss never matters: nothing else is in
    flight), stored with virtual loss 0, and only for the lockstep tree scheme
    (it is the same player under every schedule and scheme). Root parallelism
    has no virtual loss: ``virtual_losses`` is ignored. A file already there is
    kept unless ``overwrite``, so an interrupted sweep resumes where it stopped.
    """
    workers = [check_int("workers (each)", k, 1, engine.MAX_WORKERS) for k in workers]
    virtual_losses = [check_int("virtual_losses (each)", v, 0, MAX_VIRTUAL_LOSS)
                      for v in virtual_losses]
    overwrite = check_bool("overwrite", overwrite)
    written = []
    plain = schedule == "lockstep" and scheme == "tree"
    for k in workers:
        if k == 1 and not plain:
            continue
        for v in ([0] if k == 1 or scheme == "root" else virtual_losses):
            out = part_path(k, v, iterations, part, kind, data, schedule, scheme)
            if out.exists() and not overwrite:
                report(f"kept {out}")
                written.append(out)
                continue
            result = play_part(k, v, iterations, games, part, kind=kind, jobs=jobs,
                               schedule=schedule, scheme=scheme)
            store_result(result, out)
            report(f"{result.format()} ({result.seconds:.0f} s) -> {out}")
            written.append(out)
    return written


# ----------------------------------------------------------------------------- agreement


@dataclass(frozen=True)
class AgreementResult:
    """How often K-worker searches choose the reference move, and agree with sequential ones.

    ``rows`` has one dict per (K, virtual loss), fractions over the (position,
    stream) pairs: ``reference_move`` (the K-worker search at N chooses the
    position's reference move, that of a sequential search of
    ``reference * N`` iterations), ``same_move_n`` (it chooses the move of an
    independent sequential search at N), ``same_move_n_over_k`` (of the
    sequential search at ``N // K`` on its own stream), ``tv_n`` (mean total
    variation distance between its root visit distribution and the sequential
    N one's) and ``mean_nodes``. ``anchors[K]`` is how often the sequential
    search at ``N // K`` chooses the reference move: K = 1 gives the
    sequential search at N (no overhead), larger K the line where the K
    workers would be worth only N / K iterations (all overhead).
    """

    iterations: int
    reference: int
    workers: list
    virtual_losses: list
    kind: str
    c: float
    wins: bool
    plies: list
    per_ply: int
    seeds: int
    seed: int
    rows: list
    anchors: dict
    seconds: float
    load: list
    version: str
    notes: list = field(default_factory=list)

    def to_json(self) -> str:
        return dataclass_json(self)

    def format(self) -> str:
        head = (f"{self.iterations} iterations, {self.per_ply * len(self.plies)} positions x "
                f"{self.seeds} streams; reference move ({self.reference} x N sequential) / same "
                f"move as sequential N / as sequential N/K / visit distance to sequential N")
        lines = [head]
        for row in self.rows:
            lines.append(f"K={row['workers']:>4} vl={row['virtual_loss']}: "
                         f"{row['reference_move']:.3f} / {row['same_move_n']:.3f} / "
                         f"{row['same_move_n_over_k']:.3f} / {row['tv_n']:.3f}")
        lines.append("sequential N/K, reference move: " + ", ".join(
            f"K={k} {v:.3f}" for k, v in self.anchors.items()))
        return "\n".join(lines)


def _positions(plies, per_ply: int, seed: int) -> list:
    return [state for _, state in positions_at_plies(UltimateTicTacToe, plies, per_ply, seed)]


def _stream(seed: int, position: int, stream: int, role: int) -> int:
    """A 64-bit xorshift seed of its own for each (position, stream, role)."""
    key = (position, stream, role)
    return int(np.random.SeedSequence(seed, spawn_key=key).generate_state(1, np.uint64)[0])


class _Runner:
    """One pool and work arrays reused for the searches of :func:`agreement`."""

    def __init__(self, max_workers: int, capacity: int, c: float, wins: bool):
        self.pool, self.work = engine.new_search(max_workers, capacity)
        self.c, self.wins = c, wins

    def run(self, s, iterations, workers, virtual_loss, kind, xorshift_seed):
        """(chosen move, root visits in move order 0..80, nodes) of one search."""
        pool = self.pool
        pool.reset()
        engine.search(s, iterations, workers, virtual_loss, KINDS[kind], self.c, self.wins,
                      fast_uttt.CODINGAME, new_rng(xorshift_seed), pool.used, *pool.arrays(),
                      *self.work.arrays())
        by_move = [0] * 81
        for child in pool.children(0):
            by_move[int(pool.move[child])] = int(pool.visits[child])
        return engine.best_move(pool), by_move, pool.count


def _tv(a, b) -> float:
    total_a, total_b = sum(a), sum(b)
    return 0.5 * math.fsum(abs(x / total_a - y / total_b) for x, y in zip(a, b, strict=True))


def agreement(iterations: int = 2000, workers=WORKERS, virtual_losses=VIRTUAL_LOSSES, *,
              kind: str = "loss", c: float = DEFAULT_C, wins: bool = False,
              plies=(0, 10, 20, 30), per_ply: int = 5, seeds: int = 4, reference: int = 10,
              seed: int = 16) -> AgreementResult:
    """The search overhead without games: K-worker searches at N against sequential ones.

    ``per_ply`` random positions (1 to 100) at each number of ``plies`` (each 0
    to 40) from the empty board (:func:`mctslib.play.openings.positions_at_plies`). On position
    ``p``, one sequential search of ``reference * N`` iterations (``reference``
    1 to 100) gives the reference move; then for each of ``seeds`` (1 to 100)
    streams ``j``: a sequential search at N, and on another stream every
    K-worker search at N and the sequential search at ``N // K`` (at least 1).
    Each (p, j, role) has its own xorshift seed from
    ``SeedSequence(seed, spawn_key=(p, j, role))``, so the searches compared
    with the sequential N one never share its draws: K = 1 is the noise floor
    of two independent searches. ``iterations`` 1 to 1,000,000. Pools are
    large enough never to fill (81 nodes an iteration; the reference search
    16 an iteration, the bots' allowance, :data:`~mctslib.bots.virtual_loss.NODES_PER_ITERATION`).
    """
    iterations = check_int("iterations", iterations, 1, 1_000_000)
    workers = [check_int("workers (each)", k, 1, engine.MAX_WORKERS) for k in workers]
    virtual_losses = [check_int("virtual_losses (each)", v, 0, MAX_VIRTUAL_LOSS)
                      for v in virtual_losses]
    kind = check_choice("kind (of virtual loss)", kind, tuple(KINDS))
    c = check_real("c (the exploration constant)", c, 0.0, 100.0)
    wins = check_bool("wins (win-taking playouts)", wins)
    plies = [check_int("plies (each)", p, 0, 40) for p in plies]
    per_ply = check_int("per_ply", per_ply, 1, 100)
    seeds = check_int("seeds", seeds, 1, 100)
    reference = check_int("reference (times the iterations)", reference, 1, 100)
    seed = check_int("seed", seed, 0)
    if not workers or not virtual_losses or not plies:
        raise ValueError("workers, virtual_losses and plies must each hold at least one value.")
    start, load = time.perf_counter(), list(os.getloadavg())
    runner = _Runner(max(workers), 81 * iterations + 2, c, wins)
    long_runner = _Runner(1, NODES_PER_ITERATION * reference * iterations + 100, c, wins)
    tally = {(k, v): [0, 0, 0, 0] for k in workers for v in virtual_losses}
    distances = {key: [] for key in tally}
    anchor = {k: 0 for k in workers}
    cases = 0
    for p, state in enumerate(_positions(plies, per_ply, seed)):
        s = fast_uttt.to_array(state)
        best = long_runner.run(s, reference * iterations, 1, 0, kind, _stream(seed, p, 0, 2))[0]
        for j in range(seeds):
            move_n, visits_n, _ = runner.run(s, iterations, 1, 0, kind, _stream(seed, p, j, 0))
            other = _stream(seed, p, j, 1)
            cases += 1
            for k in workers:
                move_k = runner.run(s, max(1, iterations // k), 1, 0, kind, other)[0]
                anchor[k] += move_k == best
                for v in virtual_losses:
                    move, visits, nodes = runner.run(s, iterations, k, v, kind, other)
                    counts = tally[k, v]
                    counts[0] += move == best
                    counts[1] += move == move_n
                    counts[2] += move == move_k
                    counts[3] += nodes
                    distances[k, v].append(_tv(visits, visits_n))
    rows = [{"workers": k, "virtual_loss": v, "reference_move": tally[k, v][0] / cases,
             "same_move_n": tally[k, v][1] / cases, "same_move_n_over_k": tally[k, v][2] / cases,
             "tv_n": math.fsum(distances[k, v]) / cases, "mean_nodes": tally[k, v][3] / cases}
            for k in workers for v in virtual_losses]
    return AgreementResult(
        iterations=iterations, reference=reference, workers=workers,
        virtual_losses=virtual_losses, kind=kind, c=c, wins=wins, plies=plies, per_ply=per_ply,
        seeds=seeds, seed=seed, rows=rows, anchors={str(k): anchor[k] / cases for k in workers},
        seconds=time.perf_counter() - start, load=load, version=__version__, notes=[
            ("K = 1 rows: the sequential search on a second stream (same_move_n is the noise "
             "floor of two independent searches); anchors: how often sequential N // K "
             "iterations choose the reference move"), TIME_NOTE])


# ----------------------------------------------------------------------------- command line


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mctslib.experiments.parallel.model",
                                     description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("match", help="one part of a K-workers-against-1 match")
    m.add_argument("--workers", type=int, required=True)
    m.add_argument("--virtual-loss", type=int, required=True)
    s = sub.add_parser("sweep", help="every K and virtual loss, one part each")
    s.add_argument("--workers", type=int, nargs="+", default=list(WORKERS))
    s.add_argument("--virtual-loss", type=int, nargs="+", default=list(VIRTUAL_LOSSES))
    s.add_argument("--overwrite", action="store_true")
    for p in (m, s):
        p.add_argument("--schedule", choices=SCHEDULES, default="lockstep")
        p.add_argument("--scheme", choices=SCHEMES, default="tree")
        p.add_argument("--iterations", type=int, default=10_000)
        p.add_argument("--games", type=int, default=20)
        p.add_argument("--part", type=int, default=0)
        p.add_argument("--kind", choices=tuple(KINDS), default="loss")
        p.add_argument("--jobs", type=int, default=1)
        p.add_argument("--data", type=Path, default=DEFAULT_DATA)
    a = sub.add_parser("agreement", help="same-move rates against sequential searches")
    a.add_argument("--iterations", type=int, default=10_000)
    a.add_argument("--workers", type=int, nargs="+", default=list(WORKERS))
    a.add_argument("--virtual-loss", type=int, nargs="+", default=list(VIRTUAL_LOSSES))
    a.add_argument("--kind", choices=tuple(KINDS), default="loss")
    a.add_argument("--per-ply", type=int, default=5)
    a.add_argument("--seeds", type=int, default=4)
    a.add_argument("--reference", type=int, default=10, help="reference search: this x N")
    a.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args(argv)
    if args.command == "sweep":
        sweep(args.workers, args.virtual_loss, args.iterations, args.games, args.part,
              kind=args.kind, data=args.data, jobs=args.jobs, overwrite=args.overwrite,
              schedule=args.schedule, scheme=args.scheme)
        return 0
    if args.command == "match":
        result = play_part(args.workers, args.virtual_loss, args.iterations, args.games,
                           args.part, kind=args.kind, jobs=args.jobs, schedule=args.schedule,
                           scheme=args.scheme)
        out = part_path(args.workers, args.virtual_loss, args.iterations, args.part, args.kind,
                        args.data, args.schedule, args.scheme)
    else:
        result = agreement(args.iterations, args.workers, args.virtual_loss, kind=args.kind,
                           per_ply=args.per_ply, seeds=args.seeds, reference=args.reference)
        tag = "" if args.kind == "loss" else f"_{args.kind}"
        out = Path(args.data) / f"agreement_uttt_{args.iterations}it{tag}.json"
    write_result(result, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
