"""The UTTT network playing: its cost, its search's speed, and stored matches (chapter 7).

The chapter "PUCT and Gumbel: search with a learned prior" (chapter 7) asks whether the
small network trained by :mod:`mctslib.experiments.puct.network`, called at
every leaf of a PUCT search (:mod:`mctslib.fast.uttt_puct`), beats our plain
UCT bot at equal iterations and at equal time per move. This module holds
what plays and what measures play:

* :func:`forward_cost` and :func:`search_speed`: what a network call costs in
  random playouts (the chapter's N) and the iterations per second of PUCT
  beside the UCT bot's (the ``measure`` command of
  :mod:`mctslib.experiments.puct.network` stores both).
* :class:`PUCTPlayer`: the PUCT kernel with the network as a player for
  :func:`mctslib.play.arena.play_match`, with a budget of iterations per move
  (reproducible) or of milliseconds per move: then the kernel runs in chunks
  until the deadline (there is no clock inside compiled code), each chunk sized
  from the measured rate to take about a millisecond, as
  :class:`mctslib.bots.uttt.UTTTBot` does for UCT.
* :func:`play_part`: part ``p`` of a match PUCT (A) against the UCT bot
  ``uct:c=0.5,...,wins=on,solver=on`` (B), stored as a
  :class:`mctslib.experiments.stored.MatchPart` (one letter W/D/L per
  game, seeds, loads, versions); game ``i`` starts from opening ``i // 2``,
  each opening played twice with the sides swapped. As in
  :mod:`mctslib.experiments.parallel.model`, part ``p`` has the match seed
  ``SeedSequence(seed, spawn_key=(p,))`` and its openings the stream
  ``(seed, 1000 + p)``, so the parts of one match meet different openings
  (drawn independently: with 720 distinct two-ply openings, two parts of 100
  openings share about 14 of them) and can run side by side, one per core.
  :func:`load_match` adds the stored parts up
  (:func:`mctslib.experiments.stored.combine`).

A timed match (``ms``) gives each side ``ms`` milliseconds for every move,
the first included (the UCT bot's ``first_ms`` is set to ``ms``); its games
depend on the machine's speed and load, so it is marked ``timed`` in A's and
B's parameters and in its notes, and stores each side's measured seconds per
move (``seconds_per_move``) and the load averages.

Command line (one part per core; the regeneration commands are in
``data/network/README.md``)::

    python -m mctslib.experiments.puct.network_play match --iters 1000 --uct-iters 1000 \\
        --c-puct 1.5 --mix 0.5 --games 200 --part 0
    python -m mctslib.experiments.puct.network_play match --ms 100 --games 200 --part 0
    python -m mctslib.experiments.puct.network_play measure   # the network's cost, search speed

Why one module of about 540 lines: the player (:class:`PUCTPlayer`), the matches it plays,
their stored parts and the command line change together (each option of the player is a
field of the stored part and an argument of the command), and
:mod:`mctslib.experiments.puct.prior_play` reuses the match's parts and parser.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

from ..._checks import check_bool, check_int, check_real
from ..._version import __version__
from ...bots.uttt import UTTTBot, parse_spec, random_openings
from ...fast import uttt as engine
from ...fast import uttt_network as net
from ...fast import uttt_puct
from ...games.uttt import UltimateTicTacToe
from ...play.arena import letters, play_match
from ...rng import make_rng
from ..stored import MatchPart, combine, gather_parts, load_dataclass
from .network import DEFAULT_DATA as SELF_PLAY_DATA
from .network import DEFAULT_WEIGHTS, held_out_positions, load_self_play

__all__ = ["DEFAULT_DATA", "DEFAULT_ITERATIONS", "SEED", "PUCTPlayer", "forward_cost",
           "load_match", "load_part", "main", "measure", "part_path", "play_part", "search_speed"]

#: Where the match command stores its parts (beside the weights).
DEFAULT_DATA = Path("data") / "network"
#: The experiment's seed of the stored matches.
SEED = 17
#: PUCT's iterations per move when neither iterations nor ms is given.
DEFAULT_ITERATIONS = 1000
#: Random plies of each opening (as the UTTT chapter's matches).
OPENING_PLIES = 2
#: The UCT bot's exploration constant (rewards 1 / 0.5 / 0), the UTTT chapter's.
UCT_C = 0.5
#: Most nodes a PUCT player's pool holds (32 bytes a node: 640 MB, of which only the
#: nodes used are ever touched, since numpy's zeros come from untouched pages).
MAX_POOL = 20_000_000
TIME_NOTE = ("seconds are wall time on a shared 2-core machine (load averages stored), not "
             "speeds; at an iteration budget the games do not depend on them")
TIMED_NOTE = ("timed match: each side had ms milliseconds for every move (the first included); "
              "its games depend on the machine's speed and load, so it does not repeat; "
              "seconds_per_move holds A's (PUCT) and B's (UCT) measured seconds per move")


# ----------------------------------------------------------------------------- measurements


def forward_cost(weights: net.Weights, states, *, repeats: int = 5, rounds: int = 7,
                 seed: int = 0) -> dict:
    """Microseconds of one network evaluation (features + forward) and of one random playout.

    Both run over the same ``states`` (rows of state arrays), ``repeats`` passes
    per timing, alternating network and playouts for ``rounds`` rounds; the
    medians give ``ratio`` = network cost / playout cost, the number N of the
    chapter (a network call costs as much as N playouts). The times are the
    process's CPU time (``network_us``, ``playout_us``: on a loaded machine
    wall time also counts the waits for a core) and wall time (``*_wall_us``).
    """
    states = np.ascontiguousarray(states, dtype=np.int64)
    repeats, rounds = check_int("repeats", repeats, 1), check_int("rounds", rounds, 1)
    work = net.empty_work(weights)
    rng, scratch = engine.new_rng(seed + 1), np.zeros(engine.STATE_SIZE, dtype=np.int64)
    net.evaluate_many(states[:1], 1, *weights, *work)  # compile / load before timing
    net.playout_many(states[:1], 1, rng, scratch)
    times = {"network": [], "playout": [], "network_wall": [], "playout_wall": []}
    per_call = 1e6 / (repeats * len(states))
    for _ in range(rounds):
        for name, run in (("network", lambda: net.evaluate_many(states, repeats, *weights, *work)),
                          ("playout", lambda: net.playout_many(states, repeats, rng, scratch))):
            wall, cpu = time.perf_counter(), time.process_time()
            run()
            times[name].append((time.process_time() - cpu) * per_call)
            times[name + "_wall"].append((time.perf_counter() - wall) * per_call)
    medians = {f"{name}_us": float(np.median(values)) for name, values in times.items()}
    return {**medians, "ratio": medians["network_us"] / medians["playout_us"],
            "ratio_wall": medians["network_wall_us"] / medians["playout_wall_us"],
            "positions": len(states), "repeats": repeats, "rounds": rounds,
            "load": list(os.getloadavg())}


def search_speed(weights: net.Weights, states, iterations: int = 2000, rounds: int = 3,
                 mixes=(0.0, 0.5)) -> dict:
    """Iterations per second of the PUCT kernel (network leaves) and of the UCT bot's kernel.

    Each search runs ``iterations`` iterations from every row of ``states``:
    PUCT with each leaf mix of ``mixes`` (0: the network's value alone; 0.5:
    half network, half one random playout), and the bot
    ``uct:c=0.5,wins=on,solver=on`` (whose search stops early on a proven
    root). Interleaved per round; medians over ``rounds`` of the process's
    CPU time (the machine is shared).
    """
    states = [s for s in np.asarray(states, dtype=np.int64) if s[engine.OUTCOME] == engine.ONGOING]
    bot = UTTTBot(f"uct:c=0.5,iters={iterations},wins=on,solver=on", seed=1)
    pool, work = uttt_puct.PUCTPool(82 * iterations + 82), uttt_puct.new_work(weights)
    rng = engine.new_rng(1)
    uttt_puct.puct_search(states[0], 2, weights, pool, work, rng, mix=0.5)  # compile / load
    rates = {f"puct_mix_{mix:g}_per_s": [] for mix in mixes}
    rates["uct_per_s"] = []
    for _ in range(rounds):
        for mix in mixes:
            t = time.process_time()
            for s in states:
                uttt_puct.puct_search(s, iterations, weights, pool, work, rng, mix=mix)
            rates[f"puct_mix_{mix:g}_per_s"].append(
                iterations * len(states) / (time.process_time() - t))
        t, done = time.process_time(), 0
        for s in states:
            bot.choose(engine.from_array(s))
            done += bot.last.iterations
        rates["uct_per_s"].append(done / (time.process_time() - t))
    return {**{name: float(np.median(v)) for name, v in rates.items()},
            "iterations": iterations, "positions": len(states), "rounds": rounds,
            "load": list(os.getloadavg())}


# ----------------------------------------------------------------------------- the player


def _budget(iterations, ms, default=DEFAULT_ITERATIONS):
    """``(iterations, ms)`` with exactly one set; ValueError if both are given."""
    if ms is None:
        return check_int("iterations", default if iterations is None else iterations, 1,
                         10_000_000), None
    if iterations is not None:
        raise ValueError(f"give iterations or ms (a time budget), not both; got "
                         f"iterations={iterations!r} and ms={ms!r}.")
    return None, check_real("ms (milliseconds per move)", ms, 0.001, 60_000.0)


class PUCTPlayer:
    """A player for :func:`mctslib.play.arena.play_match`: the PUCT kernel with the network.

    Parameters
    ----------
    iterations : int or None
        Iterations per move, 1 to 10,000,000 (default 1,000 when ``ms`` is None).
    c, mix, use_policy
        As in :func:`mctslib.fast.uttt_puct.puct_search` (``c`` 0 to 100, ``mix``
        0 to 1); first-play urgency 0.
    weights : path
        The network (default the stored one, :data:`~mctslib.experiments.puct.network.DEFAULT_WEIGHTS`).
    seed
        Seeds the playouts' xorshift (through :func:`mctslib.rng.make_rng`).
    ms : float or None
        Milliseconds per move (above 0, at most 60,000) instead of iterations:
        the kernel runs in chunks of about a millisecond until the deadline
        (at least one chunk, so there is always an answer). The pool then holds
        82 nodes for each of up to ``1,000 * ms`` iterations (1 M iterations a
        second, three times the kernel's measured rate), at most :data:`MAX_POOL`;
        a full pool stops growing the tree, not the search.

    ``last_iterations`` is the number of iterations of the last move's search.
    """

    def __init__(self, iterations: int | None = None, c: float = 1.5, mix: float = 0.0,
                 use_policy: bool = True, weights=DEFAULT_WEIGHTS, seed=None, *,
                 ms: float | None = None):
        self.iterations, self.ms = _budget(iterations, ms)
        self.c = check_real("c (c_puct)", c, 0.0, 100.0)
        self.mix = check_real("mix (weight of the playout in a leaf's value)", mix, 0.0, 1.0)
        self.use_policy = check_bool("use_policy", use_policy)
        self.weights = net.load_weights(weights)
        most = self.iterations if self.ms is None else int(1000 * self.ms) + 1
        self.pool = uttt_puct.PUCTPool(min(82 * most + 82, MAX_POOL))
        self.work = uttt_puct.new_work(self.weights)
        self.rng = engine.new_rng(int(make_rng(seed).integers(2**63)))
        self.last_iterations = 0
        # Load the compiled kernel now, outside any move's clock, on a stream of its own
        # (the player's own stream stays as the seed made it).
        self._kernel(engine.to_array(UltimateTicTacToe()), 1, 0, engine.new_rng(1))

    def _kernel(self, root, iterations: int, scoring: int, rng) -> None:
        """Run ``iterations`` more iterations on the tree in the pool (no reset)."""
        uttt_puct.puct_kernel(root, iterations, self.c, 0.0, self.mix, self.use_policy, scoring,
                              rng, self.pool.used, *self.pool.arrays(), *self.weights,
                              *self.work)

    def choose(self, state) -> int:
        """The most visited root child (the first on ties) after the move's budget."""
        start = time.perf_counter()
        root, scoring = engine.to_array(state), engine.scoring_code(state.scoring)
        if self.ms is None:
            self.last_iterations = self.iterations
            return uttt_puct.puct_search(root, self.iterations, self.weights, self.pool,
                                         self.work, self.rng, c=self.c, mix=self.mix,
                                         use_policy=self.use_policy, scoring=scoring)
        if root[engine.OUTCOME] != engine.ONGOING:
            raise ValueError("state must be a game still on (it has no moves to search).")
        deadline = start + self.ms / 1000.0
        self.pool.reset()
        done, chunk = 0, 64  # the first chunk is small: the rate is not known yet
        while True:
            before = time.perf_counter()
            self._kernel(root, chunk, scoring, self.rng)
            now = time.perf_counter()
            done += chunk
            left = deadline - now
            if left <= 0.0:
                break
            rate = chunk / max(now - before, 1e-6)
            chunk = max(16, int(rate * min(left, 0.001)))
        self.last_iterations = done
        stats = self.pool.root_visits()
        return max(stats, key=lambda m: (stats[m], -list(stats).index(m)))




# ----------------------------------------------------------------------------- stored matches


def _uct_spec(iterations, ms, c: float) -> str:
    budget = f"iters={iterations}" if ms is None else f"ms={ms!r},first_ms={ms!r}"
    return str(parse_spec(f"uct:c={c!r},{budget},wins=on,solver=on"))


def _budget_name(iterations, ms) -> str:
    return f"{iterations}it" if ms is None else f"{ms:g}ms"


def weights_sha256(path) -> str:
    """The SHA-256 of a weights file, stored with every match that used it."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError as error:
        raise ValueError(f"weights {str(path)!r} cannot be read ({error}); run the train "
                         f"command of mctslib.experiments.puct.network first.") from None


def machine_record(jobs: int) -> dict:
    """Where a stored match ran: cores, versions of Python, mctslib, numpy and numba."""
    import numba
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count()
    return {"cpus": os.cpu_count(), "cores_allowed": cores, "jobs": jobs,
            "python": platform.python_version(), "processor": platform.machine(),
            "mctslib": __version__, "numpy": np.__version__, "numba": numba.__version__}


def check_tag(tag) -> str:
    """``tag`` if it can go into a part's file name; ValueError naming it otherwise."""
    if not isinstance(tag, str) or any(ch in tag for ch in "/\\*?[]"):
        raise ValueError(f"tag must be text without /, \\, *, ?, [ or ] (it goes into a file "
                         f"name), got {tag!r:.80}.")
    return tag


def uct_iterations_of(iterations, ms, uct_iterations):
    """The UCT side's checked iterations: ``iterations`` unless given; None in a timed match."""
    if ms is not None:
        if uct_iterations is not None:
            raise ValueError(f"uct_iterations must be None in a timed match (ms={ms!r}: both "
                             f"sides get ms per move), got {uct_iterations!r}.")
        return None
    return check_int("uct_iterations", iterations if uct_iterations is None else uct_iterations,
                     1, 10_000_000)


def _sides(iterations, ms, uct_iterations, c, mix, use_policy, weights, uct_c):
    """Checked budgets and the parameter dicts of A (PUCT) and B (UCT)."""
    iterations, ms = _budget(iterations, ms)
    uct_iterations = uct_iterations_of(iterations, ms, uct_iterations)
    c = check_real("c (c_puct)", c, 0.0, 100.0)
    mix = check_real("mix (weight of the playout in a leaf's value)", mix, 0.0, 1.0)
    use_policy = check_bool("use_policy", use_policy)
    uct_c = check_real("uct_c (the UCT bot's exploration constant)", uct_c, 0.0, 100.0)
    timed = ms is not None
    a = {"label": f"PUCT {_budget_name(iterations, ms)} c={c:g} mix={mix:g}"
                  + ("" if use_policy else " uniform prior"),
         "kind": "puct", "iterations": iterations, "ms": ms, "c": c, "fpu": 0.0, "mix": mix,
         "use_policy": use_policy, "weights": Path(weights).name,
         "weights_sha256": weights_sha256(weights), "timed": timed}
    spec = _uct_spec(uct_iterations, ms, uct_c)
    b = {"label": f"UCT {_budget_name(uct_iterations, ms)}", "kind": "uct", "spec": spec,
         "iterations": uct_iterations, "ms": ms, "c": uct_c, "timed": timed}
    return a, b


def play_part(iterations: int | None = None, games: int = 20, part: int = 0, *,
              ms: float | None = None, uct_iterations: int | None = None, c: float = 1.5,
              mix: float = 0.5, use_policy: bool = True, weights=DEFAULT_WEIGHTS,
              seed: int = SEED, uct_c: float = UCT_C, opening_plies: int = OPENING_PLIES,
              jobs: int = 1) -> MatchPart:
    """Part ``part`` of the match PUCT with the network (A) against the UCT bot (B).

    Parameters
    ----------
    iterations : int or None
        PUCT's iterations per move, 1 to 10,000,000 (default 1,000; None with ``ms``).
    games : int
        Games of this part, 2 to 20,000 (pairs: one opening, sides swapped).
    part : int
        0 to 999: the match seed is ``SeedSequence(seed, spawn_key=(part,))``
        and the openings stream ``(seed, 1000 + part)``.
    ms : float or None
        A timed match: both sides get ``ms`` milliseconds for every move (above
        0, at most 60,000); not reproducible, marked ``timed``.
    uct_iterations : int or None
        The UCT bot's iterations per move (1 to 10,000,000; default ``iterations``;
        None with ``ms``).
    c, mix, use_policy
        PUCT's exploration constant (0 to 100), playout weight at a leaf (0 to 1)
        and whether the network's policy is the prior (else uniform).
    weights : path
        The network; A's parameters store its file name and SHA-256.
    seed : int
        The experiment's seed (>= 0).
    uct_c : float
        The UCT bot's exploration constant, 0 to 100 (B is ``uct:c=uct_c,...,wins=on,solver=on``).
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
    a, b = _sides(iterations, ms, uct_iterations, c, mix, use_policy, weights, uct_c)
    make_a = functools.partial(PUCTPlayer, a["iterations"], a["c"], a["mix"], a["use_policy"],
                               weights, ms=ms)
    starts = random_openings(max(1, games // 2), plies,
                             np.random.SeedSequence(seed, spawn_key=(1000 + part,)))
    load_before = list(os.getloadavg())
    start = time.perf_counter()
    result = play_match(make_a, parse_spec(b["spec"]), starts, games,
                        seed=np.random.SeedSequence(seed, spawn_key=(part,)), jobs=jobs,
                        description=f"{a['label']} vs {b['label']}, part {part}")
    seconds = time.perf_counter() - start
    return MatchPart(
        game="uttt", part=part, seed=seed, games=games, a=a, b=b, opening_plies=plies,
        wins=result.wins, draws=result.draws, losses=result.losses, score=result.score,
        interval_95=list(result.interval), results=letters(result.records), seconds=seconds,
        seconds_per_move=list(result.seconds_per_move()), load_before=load_before,
        load_after=list(os.getloadavg()), machine=machine_record(jobs),
        notes=[TIME_NOTE] if ms is None else [TIME_NOTE, TIMED_NOTE])


def part_path(iterations: int | None = None, part: int = 0, *, ms: float | None = None,
              uct_iterations: int | None = None, c: float = 1.5, mix: float = 0.5,
              tag: str = "", data=DEFAULT_DATA) -> Path:
    """``data/network/uttt_puct{budget}_c{c}_mix{mix}_vs_uct{budget}{tag}_part{part}.json``.

    Budgets as ``1000it`` or ``100ms``; ``tag`` (e.g. ``_h64`` for other weights)
    tells variants apart. Arguments as :func:`play_part` (checked the same way).
    """
    iterations, ms = _budget(iterations, ms)
    uct_iterations = uct_iterations_of(iterations, ms, uct_iterations)
    part = check_int("part", part, 0, 999)
    c = check_real("c (c_puct)", c, 0.0, 100.0)
    mix = check_real("mix (weight of the playout in a leaf's value)", mix, 0.0, 1.0)
    check_tag(tag)
    return Path(data) / (f"uttt_puct{_budget_name(iterations, ms)}_c{c:g}_mix{mix:g}_vs_uct"
                         f"{_budget_name(uct_iterations, ms)}{tag}_part{part}.json")


def load_part(path) -> MatchPart:
    """Read a part stored by the command; ValueError naming the file if it holds something else."""
    return load_dataclass(MatchPart, path, "a MatchPart written by "
                          "'python -m mctslib.experiments.puct.network_play match'")


def load_match(iterations: int | None = None, *, ms: float | None = None,
               uct_iterations: int | None = None, c: float = 1.5, mix: float = 0.5,
               tag: str = "", data=DEFAULT_DATA, paths=None) -> dict:
    """Every stored part of one match added up (what the chapter prints).

    The parts are the files :func:`part_path` names for these arguments (any
    part number) in ``data``, or the files ``paths`` if given (e.g. written with
    ``--out``). Returns :func:`mctslib.experiments.stored.combine`'s
    dict (games, W/D/L, score, 95% Wilson interval, every game's letter, parts
    in order) plus ``timed``, A's and B's parameters (``a_params``,
    ``b_params``), each part's ``seconds_per_move`` (A's, B's) and ``files``.
    Raises ValueError if no part is stored, if a file holds no part, or if the
    parts are not of one match (other bots, network, seed, or a part repeated).
    """
    first = part_path(iterations, 0, ms=ms, uct_iterations=uct_iterations, c=c, mix=mix,
                      tag=tag, data=data)
    paths, parts = gather_parts(paths, first, load_part,
                                "data/network/README.md gives the commands that make them.")
    return match_summary(paths, parts)


def match_summary(paths, parts) -> dict:
    """:func:`load_match`'s dict for parts already read (also used by :mod:`.prior_play`)."""
    return {**combine(parts), "timed": bool(parts[0].a.get("timed")), "a_params": parts[0].a,
            "b_params": parts[0].b, "seconds_per_move": [p.seconds_per_move for p in parts],
            "files": [str(path) for path in paths]}


# ----------------------------------------------------------------------------- command line


def match_parser(prog: str, description: str, iterations_help: str) -> argparse.ArgumentParser:
    """The command line of a stored match part, shared with :mod:`.prior_play`.

    ``match`` with the budget (``--iters`` or ``--ms``, ``--uct-iters``), the part and
    its seed, the network, the worker processes and where the part is stored; each
    module adds the options of its own player A.
    """
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("command", choices=("match",))
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--iters", type=int, default=None, help=iterations_help)
    budget.add_argument("--ms", type=float, default=None,
                        help="a timed match: milliseconds per move for each side")
    parser.add_argument("--uct-iters", type=int, default=None,
                        help="the UCT bot's iterations per move (default --iters)")
    parser.add_argument("--games", type=int, default=200, help="games of this part")
    parser.add_argument("--part", type=int, default=0)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--weights", type=Path, default=DEFAULT_WEIGHTS)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA,
                        help=f"folder of the stored parts (default {DEFAULT_DATA})")
    parser.add_argument("--tag", default="", help="added to the file name, e.g. _h64")
    parser.add_argument("--out", type=Path, default=None,
                        help="store the part here instead of its name in --data")
    return parser


def store_part(result: MatchPart, out: Path) -> None:
    """Write a played part as JSON to ``out`` and print its summary (the commands' output)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(result.to_json() + "\n")
    print(result.format())
    low, high = result.interval_95
    print(f"{result.wins}-{result.draws}-{result.losses}, score {result.score:.3f} "
          f"[{low:.3f}, {high:.3f}]; seconds per move A {result.seconds_per_move[0]:.4f}, "
          f"B {result.seconds_per_move[1]:.4f}; {result.seconds:.0f} s, load "
          f"{os.getloadavg()}; written to {out}")


def measure(weights_path: Path = DEFAULT_WEIGHTS, data_path: Path = SELF_PLAY_DATA,
            seed: int = 0) -> dict:
    """The ``measure`` command: :func:`forward_cost` and :func:`search_speed` of stored weights.

    On held-out positions of the self-play data (1,000 for the cost, the first 20 for
    the search speed); the measurements are written into the weights' JSON record
    (``measurements``) and returned.
    """
    weights = net.load_weights(weights_path)
    record_path = Path(weights_path).with_suffix(".json")
    meta = json.loads(record_path.read_text())
    states = held_out_positions(load_self_play(data_path), meta["training"], 1000, seed)
    meta["measurements"] = {"forward_cost": forward_cost(weights, states),
                            "search_speed": search_speed(weights, states[:20])}
    record_path.write_text(json.dumps(meta, indent=1) + "\n")
    return meta["measurements"]


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["measure"]:
        parser = argparse.ArgumentParser(prog="python -m mctslib.experiments.puct.network_play",
                                         description=measure.__doc__.split("\n\n")[0])
        parser.add_argument("command", choices=("measure",))
        parser.add_argument("--weights", type=Path, default=DEFAULT_WEIGHTS)
        parser.add_argument("--data", type=Path, default=SELF_PLAY_DATA,
                            help=f"self-play positions (default {SELF_PLAY_DATA})")
        parser.add_argument("--seed", type=int, default=0)
        args = parser.parse_args(argv)
        for name, value in measure(args.weights, args.data, args.seed).items():
            print(name, json.dumps(value, indent=1))
        return 0
    parser = match_parser("python -m mctslib.experiments.puct.network_play",
                          __doc__.split("\n\n")[0],
                          f"PUCT's iterations per move (default {DEFAULT_ITERATIONS})")
    parser.add_argument("--c-puct", type=float, default=1.5)
    parser.add_argument("--mix", type=float, default=0.5, help="playout weight at leaves")
    parser.add_argument("--uniform-prior", action="store_true",
                        help="PUCT without the network's policy")
    args = parser.parse_args(argv)
    out = args.out or part_path(args.iters, args.part, ms=args.ms, uct_iterations=args.uct_iters,
                                c=args.c_puct, mix=args.mix, tag=args.tag, data=args.data)
    store_part(play_part(args.iters, args.games, args.part, ms=args.ms,
                         uct_iterations=args.uct_iters, c=args.c_puct, mix=args.mix,
                         use_policy=not args.uniform_prior, weights=args.weights,
                         seed=args.seed, jobs=args.jobs), out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
