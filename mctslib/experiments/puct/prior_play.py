"""The network as a progressive bias inside UCT: stored matches against the UCT bot (chapter 7).

Chapter 7's PUCT with the network loses to our UCT bot at equal time because
it calls the network at every leaf. :class:`mctslib.bots.uttt_prior.PriorUCTBot`
spends the network more sparingly: the UCT bot's search, where a node that
reaches ``bias_visits`` visits is evaluated once and its policy then adds
``bias * P / (visits + 1)`` to each child's UCB1 score (progressive bias,
Chaslot et al. 2008). This module plays it (A) against the same UCT bot
without the bias (B, ``uct:c=0.5,...,wins=on,solver=on``), at equal
iterations (reproducible) or at equal time per move, and stores each part as a
:class:`mctslib.experiments.stored.MatchPart`, seeded as
:mod:`mctslib.experiments.puct.network_play`'s matches: part ``p`` has the match
seed ``SeedSequence(seed, spawn_key=(p,))`` and the openings ``(seed, 1000 + p)``,
so its openings are the ones the PUCT matches of the same part met.

Command line (the regeneration commands and their times are in
``data/network/README.md``)::

    python -m mctslib.experiments.puct.prior_play match --iters 5000 --games 200 --part 0
    python -m mctslib.experiments.puct.prior_play match --ms 100 --games 200 --part 0
"""

from __future__ import annotations

import functools
import os
import time
from pathlib import Path

import numpy as np

from ..._checks import check_int, check_real
from ...bots.uttt import parse_spec, random_openings
from ...bots.uttt_prior import PriorUCTBot
from ...play.arena import letters, play_match
from ..stored import MatchPart, gather_parts, load_dataclass
from .network import DEFAULT_WEIGHTS
from .network_play import (
    DEFAULT_DATA,
    OPENING_PLIES,
    SEED,
    TIME_NOTE,
    TIMED_NOTE,
    UCT_C,
    _budget,
    _budget_name,
    _uct_spec,
    check_tag,
    machine_record,
    match_parser,
    match_summary,
    store_part,
    uct_iterations_of,
    weights_sha256,
)

__all__ = ["BIAS", "BIAS_VISITS", "DEFAULT_ITERATIONS", "load_match", "load_part", "main",
           "part_path", "play_part"]

#: The bias weight and the visits before a node's network call: the best of a first, unstored
#: 200-game screen at 5,000 iterations; the stored 400-game screen (bias 2, 8, 32 by visits 8,
#: 32, 128) finds no setting clearly better (data/network/README.md).
BIAS, BIAS_VISITS = 8.0, 32
#: Iterations per move for each side when neither iterations nor ms is given.
DEFAULT_ITERATIONS = 5000


def _sides(iterations, ms, uct_iterations, bias, bias_visits, weights, uct_c):
    """Checked budgets and the parameter dicts of A (biased) and B (the UCT bot)."""
    iterations, ms = _budget(iterations, ms, DEFAULT_ITERATIONS)
    uct_iterations = uct_iterations_of(iterations, ms, uct_iterations)
    bias = check_real("bias", bias, 0.0, 100.0)
    bias_visits = check_int("bias_visits", bias_visits, 1, 1_000_000)
    uct_c = check_real("uct_c (the UCT bot's exploration constant)", uct_c, 0.0, 100.0)
    timed, budget = ms is not None, _budget_name(iterations, ms)
    a = {"label": f"UCT+bias {budget} bias={bias:g} k={bias_visits}", "kind": "uct+prior",
         "spec": _uct_spec(iterations, ms, uct_c), "iterations": iterations, "ms": ms, "bias": bias,
         "bias_visits": bias_visits, "weights": Path(weights).name,
         "weights_sha256": weights_sha256(weights), "timed": timed}
    b = {"label": f"UCT {_budget_name(uct_iterations, ms)}", "kind": "uct",
         "spec": _uct_spec(uct_iterations, ms, uct_c), "iterations": uct_iterations, "ms": ms,
         "c": uct_c, "timed": timed}
    return a, b


def play_part(iterations: int | None = None, games: int = 200, part: int = 0, *,
              ms: float | None = None, uct_iterations: int | None = None, bias: float = BIAS,
              bias_visits: int = BIAS_VISITS, weights=DEFAULT_WEIGHTS, seed: int = SEED,
              uct_c: float = UCT_C, opening_plies: int = OPENING_PLIES,
              jobs: int = 1) -> MatchPart:
    """Part ``part`` of the match UCT with the network's bias (A) against the UCT bot (B).

    Parameters
    ----------
    iterations : int or None
        Iterations per move for each side, 1 to 10,000,000 (default 5,000; None with ``ms``).
    games : int
        Games of this part, 2 to 20,000 (pairs: one opening, sides swapped).
    part : int
        0 to 999 (the seeds of :mod:`mctslib.experiments.puct.network_play`).
    ms : float or None
        A timed match: both sides get ``ms`` milliseconds for every move (above 0,
        at most 60,000; the first move included); not reproducible, marked ``timed``.
    uct_iterations : int or None
        The UCT bot's iterations per move if not ``iterations`` (e.g. the iterations
        its speed buys it); None in a timed match.
    bias, bias_visits
        :class:`mctslib.bots.uttt_prior.PriorUCTBot`'s bias weight (0 to 100) and
        visits before a node's network call (1 to 1,000,000).
    weights : path
        The network; A's parameters store its file name and SHA-256.
    seed : int
        The experiment's seed (>= 0).
    uct_c : float
        Both sides' exploration constant, 0 to 100.
    opening_plies : int
        Random plies of each opening, 1 to 8.
    jobs : int
        Worker processes that play games side by side, 1 to 64 (1 for a timed match
        unless the cores are free).
    """
    games = check_int("games", games, 2, 20_000)
    part = check_int("part", part, 0, 999)
    seed = check_int("seed", seed, 0)
    jobs = check_int("jobs", jobs, 1, 64)
    plies = check_int("opening_plies", opening_plies, 1, 8)
    a, b = _sides(iterations, ms, uct_iterations, bias, bias_visits, weights, uct_c)
    make_a = functools.partial(PriorUCTBot, a["spec"], weights, a["bias"], a["bias_visits"])
    starts = random_openings(max(1, games // 2), plies,
                             np.random.SeedSequence(seed, spawn_key=(1000 + part,)))
    load_before = list(os.getloadavg())
    start = time.perf_counter()
    result = play_match(make_a, parse_spec(b["spec"]), starts, games,
                        seed=np.random.SeedSequence(seed, spawn_key=(part,)), jobs=jobs,
                        description=f"{a['label']} vs {b['label']}, part {part}")
    seconds = time.perf_counter() - start
    notes = [TIME_NOTE] if ms is None else [TIME_NOTE, TIMED_NOTE.replace("PUCT", "UCT+bias")]
    return MatchPart(
        game="uttt", part=part, seed=seed, games=games, a=a, b=b, opening_plies=plies,
        wins=result.wins, draws=result.draws, losses=result.losses, score=result.score,
        interval_95=list(result.interval), results=letters(result.records), seconds=seconds,
        seconds_per_move=list(result.seconds_per_move()), load_before=load_before,
        load_after=list(os.getloadavg()), machine=machine_record(jobs), notes=notes)


def part_path(iterations: int | None = None, part: int = 0, *, ms: float | None = None,
              uct_iterations: int | None = None, bias: float = BIAS,
              bias_visits: int = BIAS_VISITS, tag: str = "", data=DEFAULT_DATA) -> Path:
    """``data/network/uttt_prior{budget}_bias{bias}_k{visits}_vs_uct{budget}{tag}_part{part}.json``.

    Budgets as ``5000it`` or ``100ms``; arguments as :func:`play_part`.
    """
    iterations, ms = _budget(iterations, ms, DEFAULT_ITERATIONS)
    uct_iterations = uct_iterations_of(iterations, ms, uct_iterations)
    part = check_int("part", part, 0, 999)
    bias = check_real("bias", bias, 0.0, 100.0)
    bias_visits = check_int("bias_visits", bias_visits, 1, 1_000_000)
    check_tag(tag)
    return Path(data) / (f"uttt_prior{_budget_name(iterations, ms)}_bias{bias:g}_k{bias_visits}"
                         f"_vs_uct{_budget_name(uct_iterations, ms)}{tag}_part{part}.json")


def load_part(path) -> MatchPart:
    """Read a part stored by the command; ValueError naming the file if it holds something else."""
    return load_dataclass(MatchPart, path, "a MatchPart written by "
                          "'python -m mctslib.experiments.puct.prior_play match'")


def load_match(iterations: int | None = None, *, ms: float | None = None,
               uct_iterations: int | None = None, bias: float = BIAS,
               bias_visits: int = BIAS_VISITS, tag: str = "", data=DEFAULT_DATA,
               paths=None) -> dict:
    """Every stored part of one match added up, as
    :func:`mctslib.experiments.puct.network_play.load_match` (same keys)."""
    first = part_path(iterations, 0, ms=ms, uct_iterations=uct_iterations, bias=bias,
                      bias_visits=bias_visits, tag=tag, data=data)
    paths, parts = gather_parts(paths, first, load_part,
                                "data/network/README.md gives the commands that make them.")
    return match_summary(paths, parts)


def main(argv=None) -> int:
    parser = match_parser("python -m mctslib.experiments.puct.prior_play",
                          __doc__.split("\n\n")[0],
                          f"the biased bot's iterations per move (default {DEFAULT_ITERATIONS})")
    parser.add_argument("--bias", type=float, default=BIAS)
    parser.add_argument("--bias-visits", type=int, default=BIAS_VISITS)
    args = parser.parse_args(argv)
    out = args.out or part_path(args.iters, args.part, ms=args.ms, uct_iterations=args.uct_iters,
                                bias=args.bias, bias_visits=args.bias_visits, tag=args.tag,
                                data=args.data)
    store_part(play_part(args.iters, args.games, args.part, ms=args.ms,
                         uct_iterations=args.uct_iters, bias=args.bias,
                         bias_visits=args.bias_visits, weights=args.weights, seed=args.seed,
                         jobs=args.jobs), out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
