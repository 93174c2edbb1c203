"""Gumbel MuZero against PUCT with the UTTT network, at 2 to 32 simulations (chapter 7).

The chapter "PUCT and Gumbel: search with a learned prior" (chapter 7) asks what Danihelka,
Guez, Schrittwieser and Silver ("Policy improvement by planning with Gumbel",
ICLR 2022) claim: with few simulations, Gumbel MuZero's root (Gumbel-top-k
sampling without replacement, sequential halving, completed Q values) plays
better than PUCT's. Both searches here are the readable ones of
:mod:`mctslib.search`, on :class:`~mctslib.games.uttt.UltimateTicTacToe`, both
with the same evaluator, the network stored in ``data/network/uttt_mlp.npz``
(trained by :mod:`mctslib.experiments.puct.network`):

* :func:`network_evaluator` turns the network into ``evaluator(state) ->
  (priors, value)``: the state array (:func:`mctslib.fast.uttt.to_array`), the
  numba forward pass (:func:`mctslib.fast.uttt_network.evaluate`, a fixed
  order of sums, no BLAS), then the softmax over the legal moves in their
  order, ``exp(logit - max) / S`` with ``S`` the :func:`math.fsum` of the
  exponentials (exactly rounded, so the priors sum to 1 within a few ulps);
  the value is the network's ``tanh`` output for the player to move. The
  result is a function of the position, bit for bit.
* A, :class:`GumbelNetworkPlayer`: :class:`mctslib.search.gumbel.GumbelMuZeroSearch`
  with ``simulations = n``, ``m = 16`` considered root moves, the completed-Q
  transform with mctx's defaults (``CompletedQ()``, rescaled over the legal
  moves) and Gumbel noise of scale 1 drawn from the player's stream of the
  match (``gumbel_scale = 0``: the variant without noise, deterministic);
  it plays the most visited root move, ties to the best Gumbel score.
* B, :class:`PUCTNetworkPlayer`: :class:`mctslib.search.puct.PUCTSearch` with
  ``iterations = n`` and :data:`mctslib.search.puct.MCTX_OPTIONS` (mctx's
  ``muzero_policy``: ``c(s) = 1.25 + log((N + 19653) / 19652)``, Q normalised
  by parent and siblings), without root noise (a match, not self-play); it
  plays the most visited root move.

Both spend ``n + 1`` network calls a move at most: the root's evaluation and one
per simulation (a simulation that ends in a finished game calls nothing).

:func:`play_part` plays part ``p`` of a match A against B as
:mod:`mctslib.experiments.parallel.model` does: match seed
``SeedSequence(seed, spawn_key=(p,))``, openings drawn from the stream
``(seed, 1000 + p)`` (two random plies), game ``i`` from opening ``i // 2``,
each opening played twice with the sides swapped; stored as a
:class:`mctslib.experiments.stored.MatchPart` (one letter W/D/L for A
per game). :func:`load_match` adds the stored parts up.

Command line (one part per core; parts 0 and 1 of 200 games give the 400 games
of the chapter)::

    python -m mctslib.experiments.puct.gumbel_vs_puct --simulations 2 4 8 16 32 --games 200 --part 0
    python -m mctslib.experiments.puct.gumbel_vs_puct --simulations 2 4 8 16 32 --games 200 --part 0 \\
        --gumbel-scale 0

writes ``data/network/gumbel_vs_puct_{n}sims_part{p}.json`` for each ``n``
(``..._{n}sims_scale0_part{p}.json`` without noise).

Time, measured on the book's 2-core machine (``taskset -c 1``, the other core busy;
process CPU time of ``play_part``, a warm-up game first so numba's cache is loaded): a
20-game match took 0.5 s at n = 2, 0.9 s at n = 4, 0.9 to 1.5 s at n = 8, 2.0 s at
n = 16 and 4.5 to 5.0 s at n = 32 (Gumbel 4.7 ms and PUCT 4.1 ms a move at n = 32,
about 0.14 ms per network call with the readable searches' Python around it). One part
of the first command above (200 games at each of 2, 4, 8, 16 and 32 simulations) should
take about 10 x (0.5 + 0.9 + 1.2 + 2.0 + 4.7) s, some 95 s of CPU (two minutes of wall
time on a loaded core); the same again for the variant without noise.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np

from ..._checks import check_int, check_real, shown
from ...bots.uttt import random_openings
from ...fast import uttt as engine
from ...fast import uttt_network as net
from ...games.uttt import UltimateTicTacToe
from ...play.arena import letters, play_match
from ...search.gumbel import MAX_SIMULATIONS, CompletedQ, GumbelMuZeroSearch
from ...search.puct import MCTX_OPTIONS, PUCTSearch
from ..stored import MatchPart, combine, gather_parts, load_dataclass
from .network import DEFAULT_WEIGHTS
from .network_play import machine_record, weights_sha256

__all__ = ["DEFAULT_DATA", "DEFAULT_SIMULATIONS", "SEED", "GumbelNetworkPlayer",
           "NetworkEvaluator", "PUCTNetworkPlayer", "load_match", "load_part", "main",
           "network_evaluator", "part_path", "play_part"]

#: Where the command stores its parts (beside the weights).
DEFAULT_DATA = Path("data") / "network"
#: The budgets of the chapter's table.
DEFAULT_SIMULATIONS = (2, 4, 8, 16, 32)
#: The experiment's seed of the stored matches.
SEED = 18
#: Random plies of each opening (as the UTTT chapter's matches).
OPENING_PLIES = 2
#: Gumbel MuZero's ``m``, the most root moves considered (mctx's default).
MAX_CONSIDERED = 16
TIME_NOTE = ("seconds are wall time on a shared 2-core machine (load averages stored), not "
             "speeds; at a simulation budget the games do not depend on them")


# ----------------------------------------------------------------------------- the evaluator


class NetworkEvaluator:
    """``evaluator(state) -> (priors, value)`` from the UTTT network (see the module).

    Built by :func:`network_evaluator`. Keeps its own work arrays, so one
    evaluator serves one thread at a time.
    """

    def __init__(self, weights: net.Weights):
        self.weights = weights
        self.work = net.empty_work(weights)

    def __call__(self, state: UltimateTicTacToe) -> tuple[dict, float]:
        if not isinstance(state, UltimateTicTacToe):
            raise ValueError(f"state must be an UltimateTicTacToe position, got {shown(state)}.")
        moves = state.legal_moves()
        if not moves:
            raise ValueError("state must be a game still on: a finished game has no priors.")
        value = net.evaluate(engine.to_array(state), *self.weights, *self.work)
        logits = self.work[3]
        chosen = [float(logits[move]) for move in moves]
        top = max(chosen)
        # exp(logit - max) keeps every term in (0, 1]; fsum makes the total independent of
        # the order of summation, so the priors are a function of the position alone.
        weights = [math.exp(x - top) for x in chosen]
        total = math.fsum(weights)
        return {move: w / total for move, w in zip(moves, weights)}, float(value)


def network_evaluator(weights=DEFAULT_WEIGHTS) -> NetworkEvaluator:
    """The network as an evaluator for PUCT and Gumbel MuZero on UTTT positions.

    Parameters
    ----------
    weights : path or mctslib.fast.uttt_network.Weights
        The stored network (default ``data/network/uttt_mlp.npz``) or its arrays.

    Returns a callable ``evaluator(state) -> (priors, value)``: ``priors`` a dict
    {legal move: probability} (the softmax of the policy logits over the legal
    moves, summing to 1), ``value`` in [-1, 1] for the player to move. Raises
    ValueError if ``weights`` is neither a readable file of weights nor
    :class:`~mctslib.fast.uttt_network.Weights`.
    """
    if isinstance(weights, net.Weights):
        return NetworkEvaluator(net.as_weights(weights))
    if not isinstance(weights, (str, os.PathLike)):
        raise ValueError(f"weights must be a path to an .npz of network weights or Weights, "
                         f"got {shown(weights)}.")
    return NetworkEvaluator(net.load_weights(weights))


# ----------------------------------------------------------------------------- the players


def _simulations(simulations) -> int:
    return check_int("simulations", simulations, 1, MAX_SIMULATIONS)


class GumbelNetworkPlayer:
    """A: Gumbel MuZero with the network, a player for :func:`mctslib.play.arena.play_match`.

    Parameters
    ----------
    simulations : int
        Simulations per move, 1 to 1,000,000.
    max_considered : int
        ``m``, the most root moves sampled by Gumbel-top-k, 1 to 81 (default 16).
    gumbel_scale : float
        Factor on the root's Gumbel noise, 0 to 10 (0: no noise, deterministic).
    weights : path
        The network.
    seed
        The Gumbel noise's stream (:func:`mctslib.rng.make_rng`): the match gives each
        game's player its own.
    """

    def __init__(self, simulations: int, max_considered: int = MAX_CONSIDERED,
                 gumbel_scale: float = 1.0, weights=DEFAULT_WEIGHTS, seed=None):
        self.search = GumbelMuZeroSearch(
            network_evaluator(weights), _simulations(simulations),
            check_int("max_considered", max_considered, 1, 81),
            check_real("gumbel_scale", gumbel_scale, 0.0, 10.0), seed=seed)

    def choose(self, state: UltimateTicTacToe) -> int:
        return self.search.choose(state)


class PUCTNetworkPlayer:
    """B: PUCT with the network and mctx's ``muzero_policy`` settings, no root noise.

    ``simulations`` (1 to 1,000,000) is PUCT's ``iterations``; ``weights`` the
    network; ``seed`` is accepted for the match's protocol and unused (without root
    noise the search is a function of the position).
    """

    def __init__(self, simulations: int, weights=DEFAULT_WEIGHTS, seed=None):
        self.search = PUCTSearch(network_evaluator(weights), iterations=_simulations(simulations),
                                 seed=seed, **MCTX_OPTIONS)

    def choose(self, state: UltimateTicTacToe) -> int:
        return self.search.choose(state)


# ----------------------------------------------------------------------------- stored matches


def _variant(simulations, max_considered, gumbel_scale) -> tuple[int, int, float, str]:
    """Checked arguments and the file-name tag of the variant ("" for m = 16, scale 1)."""
    simulations = _simulations(simulations)
    m = check_int("max_considered", max_considered, 1, 81)
    scale = check_real("gumbel_scale", gumbel_scale, 0.0, 10.0)
    tag = ("" if scale == 1.0 else f"_scale{scale:g}") + ("" if m == MAX_CONSIDERED
                                                           else f"_m{m}")
    return simulations, m, scale, tag


def part_path(simulations: int, part: int = 0, *, max_considered: int = MAX_CONSIDERED,
              gumbel_scale: float = 1.0, data=DEFAULT_DATA) -> Path:
    """``data/network/gumbel_vs_puct_{n}sims[_scale{s}][_m{m}]_part{p}.json``.

    The tags appear when ``gumbel_scale`` is not 1 or ``max_considered`` not 16.
    """
    simulations, _, _, tag = _variant(simulations, max_considered, gumbel_scale)
    part = check_int("part", part, 0, 999)
    return Path(data) / f"gumbel_vs_puct_{simulations}sims{tag}_part{part}.json"


def play_part(simulations: int, games: int = 20, part: int = 0, *,
              max_considered: int = MAX_CONSIDERED, gumbel_scale: float = 1.0,
              weights=DEFAULT_WEIGHTS, seed: int = SEED, opening_plies: int = OPENING_PLIES,
              jobs: int = 1) -> MatchPart:
    """Part ``part`` of the match Gumbel MuZero (A) against PUCT (B), both with the network.

    Parameters
    ----------
    simulations : int
        Both sides' simulations per move, 1 to 1,000,000.
    games : int
        Games of this part, 2 to 20,000 (pairs: one opening, sides swapped).
    part : int
        0 to 999: the match seed is ``SeedSequence(seed, spawn_key=(part,))``
        and the openings stream ``(seed, 1000 + part)``.
    max_considered, gumbel_scale
        A's ``m`` (1 to 81) and noise scale (0 to 10), as :class:`GumbelNetworkPlayer`.
    weights : path
        The network; both sides' parameters store its file name and SHA-256.
    seed : int
        The experiment's seed (>= 0).
    opening_plies : int
        Random plies of each opening, 1 to 8.
    jobs : int
        Worker processes that play games side by side, 1 to 64.
    """
    simulations, m, scale, _ = _variant(simulations, max_considered, gumbel_scale)
    games = check_int("games", games, 2, 20_000)
    part = check_int("part", part, 0, 999)
    seed = check_int("seed", seed, 0)
    jobs = check_int("jobs", jobs, 1, 64)
    plies = check_int("opening_plies", opening_plies, 1, 8)
    if not isinstance(weights, (str, os.PathLike)):
        raise ValueError(f"weights must be a path to an .npz of network weights, got "
                         f"{shown(weights)}.")
    network = {"weights": Path(weights).name, "weights_sha256": weights_sha256(weights)}
    a = {"label": f"Gumbel {simulations} sims m={m} scale={scale:g}", "kind": "gumbel",
         "simulations": simulations, "max_considered_actions": m, "gumbel_scale": scale,
         "qtransform": asdict(CompletedQ()), **network}
    b = {"label": f"PUCT {simulations} sims (mctx settings)", "kind": "puct",
         "iterations": simulations, **MCTX_OPTIONS, "dirichlet": None, **network}
    # functools.partial pickles only for top-level callables: the players' classes are.
    make_a = functools.partial(GumbelNetworkPlayer, simulations, m, scale, weights)
    make_b = functools.partial(PUCTNetworkPlayer, simulations, weights)
    starts = random_openings(max(1, games // 2), plies,
                             np.random.SeedSequence(seed, spawn_key=(1000 + part,)))
    load_before = list(os.getloadavg())
    start = time.perf_counter()
    result = play_match(make_a, make_b, starts, games,
                        seed=np.random.SeedSequence(seed, spawn_key=(part,)), jobs=jobs,
                        description=f"{a['label']} vs PUCT, part {part}")
    seconds = time.perf_counter() - start
    return MatchPart(
        game="uttt", part=part, seed=seed, games=games, a=a, b=b, opening_plies=plies,
        wins=result.wins, draws=result.draws, losses=result.losses, score=result.score,
        interval_95=list(result.interval), results=letters(result.records), seconds=seconds,
        seconds_per_move=list(result.seconds_per_move()), load_before=load_before,
        load_after=list(os.getloadavg()), machine=machine_record(jobs), notes=[TIME_NOTE])


def load_part(path) -> MatchPart:
    """Read a part stored by the command; ValueError naming the file if it holds something else."""
    return load_dataclass(MatchPart, path, "a MatchPart written by "
                          "'python -m mctslib.experiments.puct.gumbel_vs_puct'")


def load_match(simulations: int, *, max_considered: int = MAX_CONSIDERED,
               gumbel_scale: float = 1.0, data=DEFAULT_DATA, paths=None) -> dict:
    """Every stored part of one match added up (what the chapter prints).

    The parts are the files :func:`part_path` names for these arguments (any
    part number) in ``data``, or the files ``paths`` if given. Returns
    :func:`mctslib.experiments.stored.combine`'s dict (games, W/D/L for
    Gumbel, score, 95% Wilson interval, every game's letter, parts in order)
    plus ``simulations``, A's and B's parameters and ``files``. Raises
    ValueError if no part is stored, a file holds no part, or the parts are not
    of one match.
    """
    first = part_path(simulations, 0, max_considered=max_considered,
                      gumbel_scale=gumbel_scale, data=data)
    paths, parts = gather_parts(paths, first, load_part, "the module "
                                "mctslib.experiments.puct.gumbel_vs_puct gives the command.")
    return {**combine(parts), "simulations": parts[0].a["simulations"], "a_params": parts[0].a,
            "b_params": parts[0].b, "files": [str(path) for path in paths]}


# ----------------------------------------------------------------------------- command line


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mctslib.experiments.puct.gumbel_vs_puct",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--simulations", type=int, nargs="+", default=list(DEFAULT_SIMULATIONS),
                        help="simulations per move of both sides; one match per value")
    parser.add_argument("--games", type=int, default=200, help="games of each part")
    parser.add_argument("--part", type=int, default=0)
    parser.add_argument("--max-considered", type=int, default=MAX_CONSIDERED,
                        help="Gumbel's m, the most root moves considered")
    parser.add_argument("--gumbel-scale", type=float, default=1.0,
                        help="the Gumbel noise's scale (0: no noise)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--weights", type=Path, default=DEFAULT_WEIGHTS)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA,
                        help=f"folder of the stored parts (default {DEFAULT_DATA})")
    args = parser.parse_args(argv)
    # Check every budget and name every file before the first (long) match starts.
    outs = [part_path(n, args.part, max_considered=args.max_considered,
                      gumbel_scale=args.gumbel_scale, data=args.data) for n in args.simulations]
    for n, out in zip(args.simulations, outs):
        cpu = time.process_time()
        result = play_part(n, args.games, args.part, max_considered=args.max_considered,
                           gumbel_scale=args.gumbel_scale, weights=args.weights, seed=args.seed,
                           jobs=args.jobs)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(result.to_json() + "\n")
        low, high = result.interval_95
        print(f"{result.format()}; seconds per move A {result.seconds_per_move[0]:.4f}, "
              f"B {result.seconds_per_move[1]:.4f}; {result.seconds:.0f} s wall, "
              f"{time.process_time() - cpu:.0f} s CPU in this process; score "
              f"{result.score:.3f} [{low:.3f}, {high:.3f}]; written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
