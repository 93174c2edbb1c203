"""Transposition tables measured: DAG against tree in matches, memory, and the command line.

Chapter "Enhancements that matter". Three measurements, each stored as JSON
under ``data/transpositions/`` (regeneration commands in its README.md):

* :func:`play_part`: a match of UCT on a DAG (a transposition table, rule
  ``uct2`` by default) against the same UCT on a tree, with
  :func:`mctslib.play.arena.play_match` (fresh bots every game, sides
  alternating, each opening played twice with the sides swapped), at equal
  iterations or equal time per move. A match of many games is stored in
  *parts* of a few hundred games, each its own file and its own seed
  ``SeedSequence(seed, spawn_key=(part,))`` and openings; :func:`combine`
  adds them up (wins, draws, losses, 95% Wilson interval, and every game's
  letter, parts in order: what the chapter's tables take). Re-running the
  first ``n`` games of a part with the same arguments gives the stored first
  ``n`` games (the arena spawns game ``i``'s streams by index), which is how
  the chapter checks a stored match in seconds.
* :func:`memory_experiment`: tree and DAG searched at equal iterations from
  the same positions with the same seed: nodes, edges, transpositions found,
  bytes (:func:`mctslib.fast.dag_uct.memory_bytes`).
* the speed benchmark is ``benchmarks/transposition_speed.py``.

Command line (``python -m mctslib.experiments.enhancements.transpositions --help``)::

    python -m mctslib.experiments.enhancements.transpositions match --game connect_four --iterations 10000 \\
        --games 200 --part 0
    python -m mctslib.experiments.enhancements.transpositions memory --game connect_four --iterations 10000
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ..._checks import check_choice, check_int, check_real
from ...bots.transpositions import GAMES, DagSpec
from ...bots.uttt import random_openings as uttt_openings
from ...fast import connect_four as fast_c4
from ...fast import dag_uct, uttt_dag
from ...fast import uttt as fast_uttt
from ...fast.xorshift import new_rng
from ...games.connect_four import ConnectFour
from ...games.uttt import UltimateTicTacToe
from ...play.arena import letters, play_match
from ...play.openings import distinct_random_positions, positions_at_plies
from ..stored import MatchPart, combine, dataclass_json, gather_parts, write_result

__all__ = ["DEFAULT_DATA", "MatchPart", "MemoryResult", "combine", "connect_four_openings",
           "load_match", "load_part", "memory_experiment", "openings", "part_path", "play_part"]

#: Where the commands store their files.
DEFAULT_DATA = Path("data") / "transpositions"
#: The exploration constant of the matches: UCT's textbook sqrt(2) on Connect Four, the UTTT
#: chapter's 0.5 (rewards 1 / 0.5 / 0) on UTTT.
DEFAULT_C = {"connect_four": math.sqrt(2.0), "uttt": 0.5}
#: Random plies of each opening (Connect Four: 7**4 = 2,401 sequences; UTTT as chapter 5).
DEFAULT_PLIES = {"connect_four": 4, "uttt": 2}
TIME_NOTE = ("seconds are wall time on a shared 2-core machine (load averages stored): not speeds; "
             "speed is measured by benchmarks/transposition_speed.py")


def connect_four_openings(count: int, plies: int = 4, seed=None) -> list[ConnectFour]:
    """``count`` distinct Connect Four positions after ``plies`` uniformly random moves.

    ``count`` 1 to 2,000, ``plies`` 1 to 8; ``seed`` goes through
    :func:`mctslib.rng.make_rng`. Raises ValueError if ``100 * count`` tries
    find fewer distinct positions that are still on.
    """
    count = check_int("count (openings)", count, 1, 2000)
    plies = check_int("plies", plies, 1, 8)
    return distinct_random_positions(ConnectFour, count, plies, seed)


def openings(game: str, count: int, plies: int, seed: int, part: int) -> list:
    """The openings of one part of a match: its own stream ``(seed, 1000 + part)``."""
    stream = np.random.SeedSequence(seed, spawn_key=(1000 + part,))
    if game == "connect_four":
        return connect_four_openings(count, plies, stream)
    return uttt_openings(count, plies, stream)


def _spec_dict(spec: DagSpec, label: str) -> dict:
    return {"label": label, "describe": spec.describe(), **asdict(spec)}


def _specs(game, iterations, ms, rule, c):
    common = {"game": game, "rule": rule, "c": c, "iterations": iterations, "ms": ms}
    return DagSpec(table=True, **common), DagSpec(table=False, **common)


def play_part(game: str = "connect_four", iterations: int | None = 10_000,
              ms: float | None = None, games: int = 200, part: int = 0, *, seed: int = 15,
              rule: str = "uct2", c: float | None = None, opening_plies: int | None = None,
              a_table: bool = True, b_table: bool = False, b_rule: str | None = None,
              jobs: int = 1) -> MatchPart:
    """Play part ``part`` of the match DAG (A) against tree (B) and return it.

    Parameters
    ----------
    game : {"connect_four", "uttt"}
    iterations, ms : int or float, exactly one given
        Iterations per move (1 to 10,000,000) or milliseconds per move (above 0, at most 60,000).
    games : int
        Games of this part, 2 to 100,000 (pairs: one opening, sides swapped).
    part : int
        The part's number, 0 to 999: its match seed is ``SeedSequence(seed,
        spawn_key=(part,))`` and its openings stream ``(seed, 1000 + part)``.
    seed : int
        The experiment's seed (>= 0).
    rule : {"uct1", "uct2", "uct3", "naive"}
        A's update rule (B's too, where it matters: ``b_rule``).
    c : float or None
        Exploration constant of both (0 to 100); None: :data:`DEFAULT_C`.
    opening_plies : int or None
        Random plies of each opening (1 to 8); None: :data:`DEFAULT_PLIES`.
    a_table, b_table : bool
        Whether A and B use a transposition table (defaults: DAG against tree).
    b_rule : str or None
        B's rule, None for ``rule`` (e.g. ``"naive"`` DAG against a ``"uct2"`` DAG).
    jobs : int
        Worker processes (1 to 64).
    """
    game = check_choice("game", game, GAMES)
    games = check_int("games", games, 2, 100_000)
    part = check_int("part", part, 0, 999)
    seed = check_int("seed", seed, 0)
    jobs = check_int("jobs", jobs, 1, 64)
    c = DEFAULT_C[game] if c is None else check_real("c (the exploration constant)", c, 0.0,
                                                      100.0)
    plies = (DEFAULT_PLIES[game] if opening_plies is None
             else check_int("opening_plies", opening_plies, 1, 8))
    budget = {"iterations": iterations, "ms": ms}
    a = DagSpec(game=game, table=a_table, rule=rule, c=c, **budget)
    b = DagSpec(game=game, table=b_table, rule=rule if b_rule is None else b_rule, c=c, **budget)
    starts = openings(game, max(1, games // 2), plies, seed, part)
    load_before = list(os.getloadavg())
    start = time.perf_counter()
    result = play_match(a, b, starts, games, seed=np.random.SeedSequence(seed, spawn_key=(part,)),
                        jobs=jobs, description=f"{game} part {part}")
    seconds = time.perf_counter() - start
    label = lambda spec: ("DAG " + spec.rule) if spec.table else "tree"
    return MatchPart(
        game=game, part=part, seed=seed, games=games, a=_spec_dict(a, label(a)),
        b=_spec_dict(b, label(b)), opening_plies=plies, wins=result.wins, draws=result.draws,
        losses=result.losses, score=result.score, interval_95=list(result.interval),
        results=letters(result.records), seconds=seconds,
        seconds_per_move=list(result.seconds_per_move()),
        load_before=load_before, load_after=list(os.getloadavg()), machine=_machine(jobs),
        notes=[TIME_NOTE] if iterations is not None else [
            TIME_NOTE, "equal-time match: its games depend on the machine's speed and load"])


def _machine(jobs: int) -> dict:
    return {"cpus": os.cpu_count(), "jobs": jobs, "python": platform.python_version(),
            "processor": platform.machine()}


def part_path(game: str, budget: str, part: int, data=DEFAULT_DATA, tag: str = "") -> Path:
    """``data/transpositions/{game}_{budget}{tag}_part{part}.json`` (budget e.g. ``10000it``)."""
    return Path(data) / f"{game}_{budget}{tag}_part{part}.json"


def load_part(path) -> MatchPart:
    """Read a part stored by the command; ValueError naming the file if it holds something else."""
    try:
        return MatchPart(**json.loads(Path(path).read_text()))
    except (OSError, TypeError, ValueError) as error:
        raise ValueError(f"{path} does not hold a MatchPart written by "
                         f"'python -m mctslib.experiments.enhancements.transpositions match' ({error}).") from None


def load_match(game: str, budget: str, data=DEFAULT_DATA, tag: str = "") -> dict:
    """Every stored part of one match, added up by :func:`combine` (what the chapter prints).

    ``budget`` as in the file names (``"10000it"``, ``"100ms"``), ``tag`` the
    suffix of a variant (``"_naive"``, ``"_confirm"``): the files
    ``{game}_{budget}{tag}_part*.json`` in ``data``. The chapter's tables take
    the ``results`` letters. Raises ValueError if no part is stored.
    """
    game = check_choice("game", game, GAMES)
    first = Path(data) / f"{game}_{budget}{tag}_part0.json"
    _, parts = gather_parts(None, first, load_part,
                            "the README there gives the commands that make them.")
    return combine(parts)


# ----------------------------------------------------------------------------- memory


@dataclass(frozen=True)
class MemoryResult:
    """Tree and DAG at equal iterations from the same positions, same seed (one row each).

    Each row: ``plies`` of the position, ``tree_nodes``, ``dag_nodes``,
    ``dag_edges``, ``transpositions`` (look-ups that found a node already in
    the graph), ``tree_bytes`` and ``dag_bytes`` (least-memory layouts of
    :func:`mctslib.fast.dag_uct.memory_bytes`, the table counted at its size
    for this search), and ``same_move`` (do they choose the same root move).
    """

    game: str
    iterations: int
    rule: str
    c: float
    seed: int
    rows: list
    summary: dict
    seconds: float
    load: list
    notes: list = field(default_factory=list)

    def to_json(self) -> str:
        return dataclass_json(self)

    def format(self) -> str:
        s = self.summary
        return (f"{self.game}, {self.iterations} iterations, {len(self.rows)} positions: DAG "
                f"nodes / tree nodes {s['node_ratio']:.3f}, DAG bytes / tree bytes "
                f"{s['byte_ratio']:.3f}, transpositions per iteration "
                f"{s['transpositions_per_iteration']:.3f}")


def memory_experiment(game: str = "connect_four", iterations: int = 10_000, *,
                      plies=(0, 6, 12, 18), per_ply: int = 5, rule: str = "uct2",
                      c: float | None = None, seed: int = 15) -> MemoryResult:
    """Nodes and bytes of tree and DAG after one search of ``iterations`` from the same positions.

    ``per_ply`` random positions (1 to 100) at each number of ``plies`` (each
    0 to 40) from the empty board; both searches use the xorshift seed
    ``seed + row``. ``iterations`` 1 to 1,000,000.
    """
    game = check_choice("game", game, GAMES)
    iterations = check_int("iterations", iterations, 1, 1_000_000)
    per_ply = check_int("per_ply", per_ply, 1, 100)
    plies = tuple(check_int("plies (each)", p, 0, 40) for p in plies)
    rule = check_choice("rule", rule, dag_uct.RULES)
    seed = check_int("seed", seed, 0)
    c = DEFAULT_C[game] if c is None else check_real("c (the exploration constant)", c, 0.0,
                                                      100.0)
    start, rows = time.perf_counter(), []
    load = list(os.getloadavg())
    key_words = 1 if game == "connect_four" else uttt_dag.KEY_WORDS
    for index, (depth, state) in enumerate(positions_at_plies(lambda: ConnectFour() if game == "connect_four" else UltimateTicTacToe(),
                                 plies, per_ply, seed)):
        row = {"plies": depth}
        moves = {}
        for table in (False, True):
            capacity = (7 if game == "connect_four" else 16) * iterations + 100
            if game == "connect_four":
                engine = dag_uct.ConnectFourDag(capacity, table, rule, c, new_rng(seed + index))
                s = fast_c4.to_array(state)
            else:
                engine = uttt_dag.UTTTDag(capacity, table, rule, c, fast_uttt.CODINGAME,
                                          new_rng(seed + index))
                s = fast_uttt.to_array(state)
            engine.run(s, iterations)
            pool = engine.pool
            moves[table] = pool.best_move()
            if table:
                slots = _table_slots(pool.nodes)
                row.update(dag_nodes=pool.nodes, dag_edges=pool.edges,
                           transpositions=pool.transpositions,
                           dag_bytes=dag_uct.memory_bytes(pool.nodes, pool.edges, True, slots,
                                                          key_words))
            else:
                row.update(tree_nodes=pool.nodes,
                           tree_bytes=dag_uct.memory_bytes(pool.nodes, pool.edges, False))
        row["same_move"] = moves[False] == moves[True]
        rows.append(row)
    total = {k: sum(r[k] for r in rows) for k in ("tree_nodes", "dag_nodes", "dag_edges",
                                                   "transpositions", "tree_bytes", "dag_bytes")}
    by_plies = {}
    for depth in plies:
        sel = [r for r in rows if r["plies"] == depth]
        by_plies[str(depth)] = {
            "node_ratio": sum(r["dag_nodes"] for r in sel) / sum(r["tree_nodes"] for r in sel),
            "byte_ratio": sum(r["dag_bytes"] for r in sel) / sum(r["tree_bytes"] for r in sel),
            "transpositions_per_iteration": sum(r["transpositions"] for r in sel)
            / (len(sel) * iterations)}
    summary = {**total, "node_ratio": total["dag_nodes"] / total["tree_nodes"],
               "byte_ratio": total["dag_bytes"] / total["tree_bytes"],
               "transpositions_per_iteration": total["transpositions"] / (len(rows) * iterations),
               "same_move": sum(r["same_move"] for r in rows), "by_plies": by_plies}
    return MemoryResult(game=game, iterations=iterations, rule=rule, c=c, seed=seed, rows=rows,
                        summary=summary, seconds=time.perf_counter() - start, load=load, notes=[
                            ("bytes: least-memory layouts (mctslib.fast.dag_uct.memory_bytes): a "
                             "tree node 24 bytes; a DAG node 20 bytes + 8 per key word, an edge "
                             "20 bytes, the table the smallest power of two >= 2 x nodes, 4 "
                             "bytes a slot"), TIME_NOTE])


def _table_slots(nodes: int) -> int:
    size = 1
    while size < 2 * nodes:
        size *= 2
    return size


# ----------------------------------------------------------------------------- command line


def _budget_name(iterations, ms) -> str:
    return f"{iterations}it" if iterations is not None else f"{ms:g}ms"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mctslib.experiments.enhancements.transpositions",
                                     description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("match", help="one part of a DAG-against-tree match")
    m.add_argument("--game", choices=GAMES, default="connect_four")
    budget = m.add_mutually_exclusive_group(required=True)
    budget.add_argument("--iterations", type=int)
    budget.add_argument("--ms", type=float)
    m.add_argument("--games", type=int, default=200)
    m.add_argument("--part", type=int, default=0)
    m.add_argument("--seed", type=int, default=15)
    m.add_argument("--rule", choices=dag_uct.RULES, default="uct2")
    m.add_argument("--b-table", choices=("on", "off"), default="off",
                   help="B with a table too (with --b-rule: rule against rule)")
    m.add_argument("--b-rule", choices=dag_uct.RULES, default=None)
    m.add_argument("--jobs", type=int, default=1)
    m.add_argument("--data", type=Path, default=DEFAULT_DATA)
    m.add_argument("--tag", default="", help="added to the file name, e.g. _naive")
    r = sub.add_parser("memory", help="nodes and bytes, tree against DAG")
    r.add_argument("--game", choices=GAMES, default="connect_four")
    r.add_argument("--iterations", type=int, required=True)
    r.add_argument("--per-ply", type=int, default=5)
    r.add_argument("--plies", type=int, nargs="+", default=None)
    r.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args(argv)
    if args.command == "match":
        result = play_part(args.game, args.iterations, args.ms, args.games, args.part,
                           seed=args.seed, rule=args.rule, b_table=args.b_table == "on",
                           b_rule=args.b_rule, jobs=args.jobs)
        out = part_path(args.game, _budget_name(args.iterations, args.ms), args.part, args.data,
                        args.tag)
    else:
        plies = args.plies or ((0, 6, 12, 18) if args.game == "connect_four" else (0, 10, 20, 30))
        result = memory_experiment(args.game, args.iterations, plies=plies,
                                   per_ply=args.per_ply)
        out = Path(args.data) / f"memory_{args.game}_{args.iterations}it.json"
    write_result(result, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
