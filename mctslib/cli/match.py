"""``python -m mctslib match uttt``: bot-vs-bot matches of Ultimate Tic-Tac-Toe, with intervals.

    python -m mctslib match uttt --a SPEC --b SPEC [--games N] [--jobs J | --scheduler ADDRESS]
                                 [--scoring codingame|openspiel] [--seed S]
                                 [--openings K] [--opening-plies P] [--out results.json]

The chapter "Ultimate Tic-Tac-Toe: tuning a real bot" decides every change to its bot with
games; ``match`` plays them in parallel (on this machine, or on a Dask cluster with
``--scheduler tcp://HOST:PORT``) and reports the score with its 95% interval. A SPEC names a
bot and its options (:mod:`mctslib.bots.uttt`). :func:`add_match_command` adds the
subcommand to ``python -m mctslib``; the CodinGame player is :mod:`mctslib.cli.codingame`.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

from ..bots.uttt import (
    BYTES_PER_NODE,
    MAX_OPENING_PLIES,
    MAX_OPENINGS,
    SPEC_SYNTAX,
    available_memory,
    distinct_openings,
    random_openings,
)
from ..games.uttt import SCORINGS, UltimateTicTacToe
from .argtypes import (
    MAX_SEED,
    UsageError,
    any_machine_bot_spec,
    forbid_repeats,
    whole_number,
    writable_file,
)

__all__ = ["add_match_command", "run_match"]

#: The CodinGame player's default: the options the chapter found to help, with a time
#: budget that leaves a safety margin under CodinGame's 1,000 ms / 100 ms (measured in
#: Width of the interval the games-needed hint talks about (plus or minus 0.05).
HINT_WIDTH = 0.10
#: The openings draw from a stream of their own: play_match spawns streams 0, 1, 2, ...
#: from the match seed, so the openings use a spawn key no match reaches.
OPENINGS_STREAM = 2**32 - 1
#: Games in one match: a million take hours even with fast bots, and each is a task in memory.
MAX_GAMES = 1_000_000
#: Worker processes per core this process may use: more only share the same cores (and
#: each loads numba and holds two node pools).
JOBS_PER_CORE = 4
#: Seconds ``match --scheduler`` waits for the scheduler, then for its first worker
#: (mctslib.play.cluster.SCHEDULER_TIMEOUT, written here to keep Dask's module unloaded).
SCHEDULER_WAIT = 10.0


# ------------------------------------------------------------------ argument types


def _default_jobs() -> int:
    """All the cores this process may use (what :func:`mctslib.play.arena.default_jobs` says).

    Read here rather than imported: the CodinGame player builds this parser too,
    and its start-up is timed.
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def _jobs(text: str) -> int:
    """An argparse type: worker processes, 1 to :data:`JOBS_PER_CORE` per usable core."""
    return whole_number(1, JOBS_PER_CORE * _default_jobs())(text)


def _scheduler(text: str) -> str:
    """An argparse type: a Dask scheduler's address ``tcp://HOST:PORT``."""
    from ..play.cluster import check_scheduler_address

    try:
        return check_scheduler_address(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None



# -------------------------------------------------------------------------- match

MATCH_DESCRIPTION = f"""\
Play GAMES games of Ultimate Tic-Tac-Toe between bot A and bot B, A moving
first in the even-numbered games, in parallel worker processes (or on a Dask
cluster, see below). Prints A's wins, draws and losses, its score (win 1,
draw 0.5) with a 95% Wilson interval, how many games a 95% interval of width
{HINT_WIDTH:g} (plus or minus {HINT_WIDTH / 2:g}) would need at that score, and
each side's measured seconds per move. With --openings K the games start from
K random positions (each played twice, sides swapped) instead of the empty
board. Iteration budgets give the same result for the same seed on every
machine; time budgets depend on the machine and its load.

With --scheduler tcp://HOST:PORT the games run on the workers of a Dask
cluster instead of local processes: start `dask scheduler` on one machine and
`dask worker tcp://HOST:PORT --nworkers N --nthreads 1` on each (N its cores:
a bot's search holds Python's lock, so one process per core), with the same
mctslib installed everywhere. The result is the same game for game as a local
run with iteration budgets; a game lost with a worker that dies is played
again elsewhere, with the same seeds.

{SPEC_SYNTAX}"""


def add_match_command(subparsers) -> argparse.ArgumentParser:
    """Add ``match uttt`` to an argparse subparsers object; returns its parser.

    The parsed namespace's ``handler`` is :func:`run_match` (call ``args.handler(args)``).
    """
    parser = forbid_repeats(subparsers.add_parser(
        "match", help="play games between two bots and report the score with its interval",
        description=MATCH_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter))
    parser.add_argument("game", choices=["uttt"], help="the game (only uttt)")
    parser.add_argument("--a", required=True, type=any_machine_bot_spec, metavar="SPEC",
                        help="bot A, e.g. 'uct:c=0.5,iters=2000,solver=on' (its score is reported)")
    parser.add_argument("--b", required=True, type=any_machine_bot_spec, metavar="SPEC",
                        help="bot B, e.g. 'uct:iters=2000' or 'random'")
    parser.add_argument("--games", type=whole_number(1, MAX_GAMES), default=100,
                        help=f"number of games, 1 to {MAX_GAMES:,}, best even (default 100)")
    parser.add_argument("--jobs", type=_jobs, default=None,
                        help=f"worker processes, at most {JOBS_PER_CORE} per core this process "
                             "may use (default: one per core)")
    parser.add_argument("--scheduler", type=_scheduler, metavar="ADDRESS",
                        help="play on the Dask cluster whose scheduler is at this address, "
                             "tcp://HOST:PORT (not with --jobs above 1: the cluster's workers "
                             f"decide how many games run at once; waits up to "
                             f"{SCHEDULER_WAIT:g} s for the scheduler and a worker)")
    parser.add_argument("--scoring", choices=SCORINGS, default="codingame",
                        help="how a game that closes every board without a line ends: "
                             "codingame = more boards won wins (default), openspiel = draw")
    parser.add_argument("--seed", type=whole_number(0, MAX_SEED), default=0,
                        help="match seed: the bots' and openings' random streams, 0 to 2**64 - 1 "
                             "(default 0)")
    parser.add_argument("--openings", type=whole_number(0, MAX_OPENINGS), default=0,
                        help=f"start from this many random openings, at most {MAX_OPENINGS:,} "
                             "(default 0: the empty board)")
    parser.add_argument("--opening-plies", type=whole_number(1, MAX_OPENING_PLIES), default=2,
                        help=f"random moves in each opening, 1 to {MAX_OPENING_PLIES} (default 2)")
    parser.add_argument("--out", metavar="PATH", type=writable_file,
                        help="save the result and every parameter to this JSON file (its folder "
                             "is checked before the first game; written at the end, all at once)")
    parser.set_defaults(handler=run_match)
    return parser


def run_match(args, out=None) -> int:
    """Run a parsed ``match uttt`` command and print its report; returns the exit code 0.

    Raises :class:`~.argtypes.UsageError` before the first game if the options do
    not go together (more openings than exist, node pools that do not fit in
    memory, ``--jobs`` above 1 with ``--scheduler``), and ConnectionError if the
    Dask cluster of ``--scheduler`` cannot be used or is lost; the report is
    printed before the results are saved, so a disk that fails at the end loses
    nothing on screen.
    """
    from ..play.arena import play_match
    from ..play.stats import games_for_width

    out = out or sys.stdout
    scheduler = getattr(args, "scheduler", None)
    if scheduler is not None:
        if args.jobs not in (None, 1):
            raise UsageError(f"--jobs {args.jobs} and --scheduler do not go together: on a "
                             "cluster its workers decide how many games run at once.")
        jobs = 1
    else:
        jobs = args.jobs or _default_jobs()
        _check_pools(args.a, args.b, min(jobs, args.games))
    start = _match_start(args)
    if scheduler is None:
        result = play_match(args.a, args.b, start, args.games, seed=args.seed, jobs=jobs,
                            description="uttt games")
        where_played = f"{jobs} worker process{'es' if jobs > 1 else ''}"
    else:
        result, where_played = _match_on_cluster(args, start, scheduler)
    low, high = result.interval
    first = sum(record.a_moved_first for record in result.records)
    seconds_a, seconds_b = result.seconds_per_move()
    where = ("the empty board" if not args.openings
             else f"{args.openings} random openings of {args.opening_plies} "
                  f"pl{'y' if args.opening_plies == 1 else 'ies'}")
    lines = [
        (f"Ultimate Tic-Tac-Toe, {args.scoring} scoring, seed {args.seed}, from {where}, "
         f"{where_played}"),
        f"A: {args.a}",
        f"B: {args.b}",
        (f"{result.games} games (A moved first in {first}): A won {result.wins}, "
         f"drew {result.draws}, lost {result.losses}"),
        (f"score of A: {result.score:.3f}, 95% Wilson interval [{low:.3f}, {high:.3f}] "
         f"(width {high - low:.3f})"),
        _games_hint(games_for_width, low, high),
        f"seconds per move: A {seconds_a:.4f}, B {seconds_b:.4f}",
    ]
    print("\n".join(lines), file=out, flush=True)
    if args.out:
        cluster = {} if scheduler is None else {"scheduler": scheduler}
        result.save(args.out, game="uttt", a=str(args.a), b=str(args.b),
                    a_options=args.a.as_dict(), b_options=args.b.as_dict(), games=args.games,
                    jobs=jobs, scoring=args.scoring, seed=args.seed, openings=args.openings,
                    opening_plies=args.opening_plies, **cluster)
        print(f"saved to {args.out}", file=out)
    return 0


def _match_on_cluster(args, start, address: str):
    """Play the match on the Dask cluster at ``address``: ``(result, where it was played)``.

    Failures become one sentence (ConnectionError or ValueError, printed by
    :func:`mctslib.cli.main.main`): a scheduler out of reach, a cluster without
    workers or with another mctslib, node pools larger than a worker's memory
    limit, a game whose workers kept dying, the connection lost mid-match.
    """
    import logging

    # Dask logs its own errors with tracebacks (a scheduler gone, its reconnection
    # failing): the command says what happened in one sentence instead.
    logging.disable(logging.ERROR)
    try:
        return _play_on_cluster(args, start, address)
    finally:
        logging.disable(logging.NOTSET)


def _play_on_cluster(args, start, address: str):
    from concurrent.futures import CancelledError

    from ..play.arena import play_match
    from ..play.cluster import connect, open_executor

    client = connect(address, SCHEDULER_WAIT)
    try:
        workers = client.scheduler_info(n_workers=-1)["workers"]
        _check_worker_pools(args.a, args.b, workers)
        threads = sum(worker["nthreads"] for worker in workers.values())
        with open_executor(client) as executor:
            result = play_match(args.a, args.b, start, args.games, seed=args.seed,
                                executor=executor, description="uttt games")
    except CancelledError:
        raise ConnectionError(f"the connection to the Dask scheduler at {address} was lost "
                              "during the match; no result was kept.") from None
    except Exception as error:
        if type(error).__name__ != "KilledWorker":  # Dask's, not imported until a cluster is used
            raise
        allowed = getattr(error, "allowed_failures", "its")
        raise ConnectionError(f"every Dask worker that ran one of the games died while playing "
                              f"it ({allowed} deaths allowed by the scheduler's setting "
                              "distributed.scheduler.allowed-failures): the game itself may "
                              "kill workers (memory?); no result was kept.") from None
    finally:
        client.close()
    return result, (f"on the Dask cluster at {address} ({len(workers)} worker"
                    f"{'s' if len(workers) != 1 else ''}, {threads} thread"
                    f"{'s' if threads != 1 else ''} at the start)")


def _check_worker_pools(a, b, workers: dict) -> None:
    """Each thread of a Dask worker holds both bots' node pools: check its memory limit."""
    nodes = sum(spec.capacity for spec in (a, b) if getattr(spec, "kind", None) == "uct")
    for address, worker in sorted(workers.items()):
        limit, threads = worker.get("memory_limit") or 0, worker.get("nthreads", 1)
        needed = threads * nodes * BYTES_PER_NODE
        if nodes and limit and needed > limit:
            raise UsageError(f"the bots' node pools need {needed / 2**30:,.2f} GiB on the Dask "
                             f"worker {address} ({threads} thread{'s' if threads > 1 else ''}, "
                             f"each holding A's and B's, {BYTES_PER_NODE} bytes a node), but its "
                             f"memory limit is {limit / 2**30:,.2f} GiB: start workers with "
                             "fewer --nthreads or more --memory-limit, or use smaller capacities.")


def _check_pools(a, b, workers: int) -> None:
    """Every worker holds both bots' node pools during a game: check they all fit in memory."""
    nodes = sum(spec.capacity for spec in (a, b) if getattr(spec, "kind", None) == "uct")
    available = available_memory()
    needed = workers * nodes * BYTES_PER_NODE
    if nodes and available is not None and needed > available:
        raise UsageError(f"the bots' node pools need {needed / 2**30:,.2f} GiB ({workers} worker "
                         f"process{'es' if workers > 1 else ''}, each holding A's and B's, "
                         f"{BYTES_PER_NODE} bytes a node), but only {available / 2**30:,.2f} GiB "
                         "of memory is available: use fewer --jobs or smaller capacities.")


def _games_hint(games_for_width, low: float, high: float) -> str:
    # The score's spread is largest at 0.5; taking the interval's point nearest 0.5
    # keeps the estimate honest when the observed score sits at 0 or 1.
    score = min(max(0.5, low), high)
    return (f"a 95% interval of width {HINT_WIDTH:g} needs about "
            f"{games_for_width(HINT_WIDTH, score)} games at a score of {score:.3f} "
            "(the point of this interval nearest 0.5)")


def _match_start(args):
    if not args.openings:
        return UltimateTicTacToe(scoring=args.scoring)
    exist = distinct_openings(args.opening_plies)
    if exist is not None and args.openings > exist:
        raise UsageError(f"--openings must be at most {exist:,} with --opening-plies "
                         f"{args.opening_plies}: only {exist:,} distinct openings of "
                         f"{args.opening_plies} pl{'y' if args.opening_plies == 1 else 'ies'} "
                         f"exist, got {args.openings:,}.")
    stream = np.random.SeedSequence(args.seed, spawn_key=(OPENINGS_STREAM,))
    try:
        return random_openings(args.openings, args.opening_plies, stream, args.scoring)
    except ValueError as error:
        raise UsageError(f"--openings: {error}") from None
