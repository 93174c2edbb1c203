"""Matches of the alpha-beta baseline against the MCTS bot, and the games alpha-beta wins.

The chapter "Enhancements and failure modes" asks how the MCTS bot of the
UTTT chapter fares against the classical alternative, alpha-beta with a
hand-written evaluation (:mod:`mctslib.bots.uttt_alphabeta`), at equal time
per move, and where MCTS goes wrong in the games it loses.

A match is played as :func:`mctslib.play.arena.play_match` plays one (the same
seeding: game ``i`` gives alpha-beta and MCTS the streams ``2i`` and
``2i + 1`` spawned from ``SeedSequence(seed)``; openings of 2 random plies from
:func:`mctslib.bots.uttt.random_openings`, each played twice with the sides
swapped, alpha-beta as X in the even games), through the arena's
:func:`~mctslib.play.arena.play_game`, with one addition: every move is logged
with its thinking time and the mover's own value of it (alpha-beta's search
value and depth, MCTS's mean reward of the chosen child and its iterations),
so that the chapter can replay the games alpha-beta won
(:func:`alphabeta_wins`) and find the position where MCTS's view and
alpha-beta's differ most (:func:`turning_point`).

One command per match, stored as JSON in ``data/uttt/alphabeta/``::

    python -m mctslib.experiments.enhancements.alphabeta --ms 100 --games 400 --scoring codingame
    python -m mctslib.experiments.enhancements.alphabeta --ms 100 --games 400 --scoring openspiel
    python -m mctslib.experiments.enhancements.alphabeta --ms 1000 --games 400 --scoring codingame

A long match can be played in parts (``--first-game``, ``--last-game``: the
games of the whole match with those indices, same seeds) and the parts
joined with ``--merge``. Equal-time matches depend on the machine and its
load; ``--alphabeta``/``--mcts`` take any SPEC, e.g. node and iteration
budgets for a reproducible match.

Why one module of about 540 lines: the match, its stored form and the readings of
its games (the wins, the turning points, the weight comparison) share the move log
and change together.
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

from ..._checks import check_int, check_real
from ..._version import __version__
from ...bots.uttt import parse_spec, random_openings
from ...bots.uttt_alphabeta import AlphaBetaBot, AlphaBetaSpec, parse_alphabeta_spec
from ...fast import uttt as engine
from ...fast import uttt_alphabeta as fast_ab
from ...games.uttt import SCORINGS, UltimateTicTacToe
from ...play.arena import MAX_GAMES, play_game, play_match
from ...play.cluster import process_pool
from ...play.stats import score_interval
from ...rng import make_rng
from ...search.uttt_evaluation import check_weights
from ..stored import load_dataclass, write_and_report

__all__ = ["DATA_DIR", "EVAL_SCALE", "MCTS_SPEC", "AlphaBetaMatch", "TurningPoint",
           "alphabeta_spec_for", "alphabeta_wins", "compare_weights", "eval_probability",
           "load_match", "main", "mcts_spec_for", "merge_parts", "play_alphabeta_match",
           "positions", "rerun", "same_games", "turning_point"]

#: Where the commands store their matches.
DATA_DIR = Path(__file__).resolve().parents[3] / "data" / "uttt" / "alphabeta"
#: The MCTS bot of the brief: the UTTT chapter's best options at 100 ms (centre off).
MCTS_SPEC = "uct:c=0.5,scale=01,ms=100,first_ms=100,wins=on,solver=on,reuse=on"
#: The openings' random stream (as in the UTTT chapter's experiments).
OPENINGS_STREAM = 2**32 - 1
OPENING_PLIES = 2
#: Evaluation points per unit of log-odds when a value is read as a win probability.
EVAL_SCALE = 150.0
SEEDING = ("game i gives alpha-beta and MCTS the streams 2i and 2i + 1 of "
           "numpy.random.SeedSequence(seed).spawn(2 * games); openings: random_openings(games // 2 "
           "(at least 1), plies=2, seed=SeedSequence(seed, spawn_key=(2**32 - 1,))); game i starts "
           "from opening (i // 2) % openings, alpha-beta is X in the even games")
TIME_NOTE = ("seconds are wall time of each choose() on a machine shared with other work; "
             "load averages are stored; they are not speeds")


def mcts_spec_for(ms: float) -> str:
    """The brief's MCTS bot at ``ms`` milliseconds per move (first move too)."""
    ms = _ms(ms)
    return (f"uct:c=0.5,scale=01,ms={ms:g},first_ms={ms:g},wins=on,solver=on,reuse=on")


def alphabeta_spec_for(ms: float) -> str:
    """The alpha-beta bot at ``ms`` milliseconds per move (first move too)."""
    ms = _ms(ms)
    return f"alphabeta:ms={ms:g},first_ms={ms:g}"


def _ms(ms) -> float:
    return check_real("ms (milliseconds per move)", ms, 0.001, 86_400_000.0)


def eval_probability(value: int) -> float:
    """An alpha-beta value read as a win probability for the side it is for.

    A proven win is 1 and a proven loss 0; an evaluation ``v`` becomes
    ``1 / (1 + exp(-v / EVAL_SCALE))`` (a won centre board, 100 points, is
    about 0.66). A rough common scale for comparing alpha-beta with MCTS's
    mean rewards, not a calibrated one.
    """
    if abs(value) >= fast_ab.PROVEN:
        return 1.0 if value > 0 else 0.0
    return 1.0 / (1.0 + math.exp(-value / EVAL_SCALE))


# ----------------------------------------------------------------------------- the match


@dataclass(frozen=True)
class AlphaBetaMatch:
    """A stored match of alpha-beta against MCTS (JSON-ready; counts are alpha-beta's).

    ``records`` has one dict per game, in game order: ``index``,
    ``alphabeta_first``, ``opening`` (the 2 random moves), ``moves`` (the
    moves after the opening), ``result`` (1 / 0.5 / 0 for alpha-beta), and per
    move ``seconds``, ``values`` (alpha-beta: its search value; MCTS: the mean
    reward of its move, or None) and ``work`` (alpha-beta: depth completed;
    MCTS: iterations). ``overrun_ms`` summarises thinking time beyond the
    budget for each bot; ``load`` the 1-minute load averages at the start and
    the end. ``first_game``/``last_game`` say which games of a ``games``-game
    match the file holds (a part, or all of it).
    """

    alphabeta: str
    mcts: str
    scoring: str
    games: int
    seed: int
    first_game: int
    last_game: int
    wins: int
    draws: int
    losses: int
    score: float
    interval_95: list
    results: str
    records: list
    overrun_ms: dict
    load: list
    wall_seconds: float
    started_utc: str
    machine: str
    seeding: str = SEEDING
    notes: list = field(default_factory=lambda: [TIME_NOTE])
    mctslib_version: str = __version__

    @property
    def seconds(self) -> dict:
        """Wall time of the run (printed by :func:`mctslib.experiments.stored.write_and_report`)."""
        return {"match": self.wall_seconds}

    def to_json(self) -> str:
        """Indented JSON with one line per game record (a 400-game match stays readable)."""
        data = asdict(self)
        records = data.pop("records")
        head = json.dumps(data, indent=1)
        games = ",\n  ".join(json.dumps(record, separators=(",", ":")) for record in records)
        return head[:-2] + ',\n "records": [\n  ' + games + "\n ]\n}"

    def format(self) -> str:
        low, high = self.interval_95
        played = self.wins + self.draws + self.losses
        lines = [(f"{self.alphabeta} vs {self.mcts} ({self.scoring} scoring), games "
                  f"{self.first_game}-{self.last_game} of {self.games}: {played} games, "
                  f"W-D-L {self.wins}-{self.draws}-{self.losses} for alpha-beta, score "
                  f"{self.score:.3f} [{low:.3f}, {high:.3f}] (95% Wilson)")]
        for bot, summary in self.overrun_ms.items():
            lines.append(f"  {bot}: overrun beyond the budget, max {summary['max']:.2f} ms, "
                         f"mean {summary['mean']:.2f} ms over {summary['moves']} moves, "
                         f"{summary['over_5ms']} moves over 5 ms")
        lines.append(f"  load {self.load[0]:.2f} at the start, {self.load[1]:.2f} at the end")
        return "\n".join(lines)


def load_match(path) -> AlphaBetaMatch:
    """Read a stored match (ValueError naming the file if it holds something else)."""
    return load_dataclass(AlphaBetaMatch, path,
                          "a match stored by python -m mctslib.experiments.enhancements.alphabeta")


class _Logged:
    """A player that logs each move, its time and the mover's value of it into ``log``."""

    def __init__(self, player, log: list):
        self.player, self.log = player, log

    def choose(self, state):
        start = time.perf_counter()
        move = self.player.choose(state)
        seconds = time.perf_counter() - start
        player = self.player
        if isinstance(player, AlphaBetaBot):
            value, work = player.last.value, player.last.depth
        else:
            means = {m: mean for m, _, mean, _ in player.root_stats()}
            value = means.get(move, math.nan)
            value = None if math.isnan(value) else round(float(value), 5)
            work = player.last.iterations
        self.log.append((move, round(seconds, 6), value, work))
        return move


def _play_game(task) -> dict:
    """One game of a match (top level: worker processes run it)."""
    index, ab_text, mcts_text, opening, ab_first, seed_ab, seed_mcts, scoring = task
    log: list = []
    alphabeta = _Logged(parse_alphabeta_spec(ab_text)(seed=make_rng(seed_ab)), log)
    mcts = _Logged(parse_spec(mcts_text)(seed=make_rng(seed_mcts)), log)
    start = UltimateTicTacToe.from_moves(opening, scoring)
    final = play_game((alphabeta, mcts) if ab_first else (mcts, alphabeta), start)
    return {"index": index, "alphabeta_first": ab_first, "opening": list(opening),
            "moves": [entry[0] for entry in log], "result": final.result(0 if ab_first else 1),
            "seconds": [entry[1] for entry in log], "values": [entry[2] for entry in log],
            "work": [entry[3] for entry in log]}


def _opening_moves(state: UltimateTicTacToe) -> list:
    """The two moves of a 2-ply opening (X's one mark, then O's)."""
    moves = []
    for marks in (state.x, state.o):
        (board,) = [b for b in range(9) if marks[b]]
        moves.append(int(engine.MOVE_OF[board, marks[board].bit_length() - 1]))
    return moves


def _overruns(records, budgets: dict) -> dict:
    """Time beyond the budget per bot, over every move of the match."""
    summary = {}
    for bot, (first_ms, ms) in budgets.items():
        over = []
        for record in records:
            mine = record["alphabeta_first"] == (bot == "alphabeta")  # did this bot play X?
            # X moves at the even plies after the 2-ply opening, O at the odd ones.
            turns = [k for k in range(len(record["moves"])) if (k % 2 == 0) == mine]
            for count, k in enumerate(turns):
                budget = first_ms if count == 0 else ms
                over.append(1000 * record["seconds"][k] - budget)
        over = np.array(over) if over else np.zeros(1)
        summary[bot] = {"max": float(over.max()), "mean": float(np.maximum(over, 0).mean()),
                        "moves": len(over), "over_1ms": int((over > 1).sum()),
                        "over_5ms": int((over > 5).sum())}
    return summary


def play_alphabeta_match(games: int = 20, ms: float = 100.0, scoring: str = "codingame",
                         seed: int = 15, jobs: int = 1, alphabeta: str | None = None,
                         mcts: str | None = None, first_game: int = 0,
                         last_game: int | None = None) -> AlphaBetaMatch:
    """Play games ``first_game`` .. ``last_game`` of a ``games``-game match; return them.

    ``alphabeta`` and ``mcts`` are SPECs (default: both at ``ms`` per move,
    first move included, :func:`alphabeta_spec_for` and :func:`mcts_spec_for`).
    ``scoring`` is ``"codingame"`` or ``"openspiel"``. ``jobs`` worker processes
    (1 plays here). Chapter "Enhancements and failure modes".
    """
    games = check_int("games", games, 1, MAX_GAMES)
    if scoring not in SCORINGS:
        raise ValueError(f"scoring must be one of {SCORINGS}, got {scoring!r}.")
    seed = check_int("seed", seed, 0)
    jobs = check_int("jobs", jobs, 1, 64)
    first_game = check_int("first_game", first_game, 0, games - 1)
    last_game = games - 1 if last_game is None else check_int("last_game", last_game,
                                                              first_game, games - 1)
    ab_spec = parse_alphabeta_spec(alphabeta or alphabeta_spec_for(ms))
    mcts_spec = parse_spec(mcts or mcts_spec_for(ms))
    openings = random_openings(max(1, games // 2), OPENING_PLIES,
                               np.random.SeedSequence(seed, spawn_key=(OPENINGS_STREAM,)), scoring)
    streams = np.random.SeedSequence(seed).spawn(2 * games)
    tasks = [(i, str(ab_spec), str(mcts_spec), _opening_moves(openings[(i // 2) % len(openings)]),
              i % 2 == 0, streams[2 * i], streams[2 * i + 1], scoring)
             for i in range(first_game, last_game + 1)]
    load_start, started = os.getloadavg()[0], time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    clock = time.perf_counter()
    if jobs == 1:
        records = [_play_game(task) for task in tasks]
    else:
        with process_pool(jobs) as pool:
            records = list(pool.map(_play_game, tasks))
    wall = time.perf_counter() - clock
    budgets = {"alphabeta": _budget(ab_spec), "mcts": _budget(mcts_spec)}
    return _summarise(str(ab_spec), str(mcts_spec), scoring, games, seed, first_game, last_game,
                      records, _overruns(records, budgets) if None not in budgets["alphabeta"]
                      + budgets["mcts"] else {}, [load_start, os.getloadavg()[0]], wall, started)


def _budget(spec) -> tuple:
    return (spec.first_ms, spec.ms) if getattr(spec, "iterations", None) is None and \
        getattr(spec, "nodes", None) is None else (None, None)


def _summarise(ab, mcts, scoring, games, seed, first, last, records, overruns, load, wall,
               started) -> AlphaBetaMatch:
    letters = "".join({1.0: "W", 0.5: "D", 0.0: "L"}[r["result"]] for r in records)
    wins, draws, losses = (letters.count(letter) for letter in "WDL")
    score, low, high = score_interval(wins, draws, losses)
    machine = f"{platform.machine()}, {os.cpu_count()} cores, {platform.python_version()}"
    return AlphaBetaMatch(ab, mcts, scoring, games, seed, first, last, wins, draws, losses,
                          score, [low, high], letters, records, overruns, load, wall, started,
                          machine)


def merge_parts(paths) -> AlphaBetaMatch:
    """Join stored parts of one match (same bots, scoring, seed and size) into one result."""
    parts = sorted((load_match(path) for path in paths), key=lambda part: part.first_game)
    if not parts:
        raise ValueError("merge_parts needs at least one stored part.")
    head = parts[0]
    for part in parts[1:]:
        if (part.alphabeta, part.mcts, part.scoring, part.seed, part.games) != (
                head.alphabeta, head.mcts, head.scoring, head.seed, head.games):
            raise ValueError("the parts come from different matches (bots, scoring, seed or "
                             "size differ); merge parts of one match only.")
    records = [record for part in parts for record in part.records]
    indices = [record["index"] for record in records]
    if len(set(indices)) != len(indices):
        raise ValueError("the parts overlap: a game index appears twice.")
    overruns = {}
    for bot in head.overrun_ms:
        moves = sum(part.overrun_ms[bot]["moves"] for part in parts)
        overruns[bot] = {
            "max": max(part.overrun_ms[bot]["max"] for part in parts),
            "mean": sum(part.overrun_ms[bot]["mean"] * part.overrun_ms[bot]["moves"]
                        for part in parts) / moves,
            "moves": moves,
            **{key: sum(part.overrun_ms[bot][key] for part in parts)
               for key in ("over_1ms", "over_5ms")}}
    merged = _summarise(head.alphabeta, head.mcts, head.scoring, head.games, head.seed,
                        min(indices), max(indices), records, overruns,
                        [parts[0].load[0], parts[-1].load[1]],
                        sum(part.wall_seconds for part in parts), head.started_utc)
    return merged


def rerun(match: AlphaBetaMatch, first_game: int = 0, last_game: int = 1) -> AlphaBetaMatch:
    """Play games ``first_game`` .. ``last_game`` of a stored match again, with its bots and seed.

    With node and iteration budgets the games come out move for move as
    stored (:func:`same_games`); a notebook re-runs a few this way instead of
    the whole match. With time budgets they differ (the clock decides).
    """
    _check_match(match)
    return play_alphabeta_match(match.games, scoring=match.scoring, seed=match.seed,
                                alphabeta=match.alphabeta, mcts=match.mcts,
                                first_game=first_game, last_game=last_game)


def _check_match(match, name: str = "match") -> AlphaBetaMatch:
    if not isinstance(match, AlphaBetaMatch):
        raise ValueError(f"{name} must be an AlphaBetaMatch (load_match(path)), got "
                         f"{type(match).__name__}.")
    return match


def same_games(stored: AlphaBetaMatch, again: AlphaBetaMatch) -> bool:
    """Whether every game of ``again`` has the same opening, moves and result as in ``stored``."""
    _check_match(stored, "stored")
    _check_match(again, "again")
    kept = {record["index"]: record for record in stored.records}
    fields = ("opening", "moves", "result", "alphabeta_first")
    return all(record["index"] in kept
               and all(kept[record["index"]][key] == record[key] for key in fields)
               for record in again.records)


# ----------------------------------------------------------------------------- the games


def alphabeta_wins(match: AlphaBetaMatch) -> list:
    """The records of the games alpha-beta won, in game order."""
    _check_match(match)
    return [record for record in match.records if record["result"] == 1.0]


def _check_record(record) -> dict:
    keys = ("index", "alphabeta_first", "opening", "moves", "values")
    if not isinstance(record, dict) or any(key not in record for key in keys):
        raise ValueError(f"record must be one game of a stored match (a dict with keys "
                         f"{', '.join(keys)}, ...: an entry of AlphaBetaMatch.records), "
                         f"got {record!r:.80}.")
    return record


def positions(record: dict, scoring: str = "codingame") -> list:
    """The positions of a stored game: after the opening, then after each move."""
    _check_record(record)
    state = UltimateTicTacToe.from_moves(record["opening"], scoring)
    states = [state]
    for move in record["moves"]:
        state = state.play(move)
        states.append(state)
    return states


@dataclass(frozen=True)
class TurningPoint:
    """Where MCTS's view of its own move and alpha-beta's differ most in one game.

    ``ply`` counts moves after the opening; ``state`` is the position before
    MCTS's move ``mcts_move``; ``mcts_value`` its mean reward of that move (its
    estimate of its chance); ``alphabeta_value`` alpha-beta's value of the
    position after the move, for MCTS, read as a probability
    (:func:`eval_probability`); ``gap`` their difference (MCTS minus alpha-beta).
    ``alphabeta_move``/``alphabeta_move_value`` are what a ``depth``-ply
    alpha-beta search would have played there and its value for MCTS.
    """

    game: int
    ply: int
    state: UltimateTicTacToe
    mcts_move: int
    mcts_value: float
    alphabeta_value: float
    gap: float
    alphabeta_move: int
    alphabeta_move_value: float
    depth: int


def _fixed_depth(state: UltimateTicTacToe, depth: int, weights, workspace, out) -> tuple[int, int]:
    fast_ab.search(engine.to_array(state), depth, fast_ab.NO_NODE_LIMIT, fast_ab.NO_DEADLINE,
                   engine.scoring_code(state.scoring), True, weights, *workspace, out)
    return int(out[0]), int(out[1])


def turning_point(record: dict, scoring: str = "codingame", depth: int = 6,
                  weights=fast_ab.DEFAULT_WEIGHTS,
                  iterations: int | None = None) -> TurningPoint | None:
    """The MCTS move of a stored game where MCTS's value exceeds alpha-beta's by the most.

    Each position where MCTS moved is searched again by alpha-beta to a
    fixed ``depth`` (1 to 81; deterministic, independent of the machine's
    load), with the evaluation's ``weights`` (default: the bot's defaults).
    Moves without a stored MCTS value are skipped; None if none is left. Ties
    go to the earliest move.

    ``iterations``, the MCTS bot's iteration budget a move (a match played
    with ``iters=``), skips the moves where MCTS ran fewer: with the solver
    on, its search stops early only once the root is proven, and the value
    it logs there is the leftover mean reward of a move already proven won or
    lost, not an estimate (chapter "Enhancements that matter" found its first
    example misread that way). None (the default) keeps every move.
    """
    depth = check_int("depth", depth, 1, 81)
    if iterations is not None:
        iterations = check_int("iterations (the MCTS bot's budget a move)", iterations, 1,
                               2**31 - 1)
    weights = fast_ab.weights_array(check_weights(weights))
    states = positions(record, scoring)
    mcts_is_x = not record["alphabeta_first"]
    workspace, out = fast_ab.new_workspace(), np.zeros(4, dtype=np.int64)
    best = None
    for ply, move in enumerate(record["moves"]):
        if (ply % 2 == 0) != mcts_is_x or record["values"][ply] is None:
            continue
        if iterations is not None and record["work"][ply] < iterations:
            continue  # the root was proven: the logged value is not an estimate
        after = states[ply + 1]
        if after.is_terminal():
            value_after = after.result(states[ply].player_to_move)
        else:
            value_after = 1.0 - eval_probability(_fixed_depth(after, depth, weights, workspace,
                                                              out)[1])
        gap = record["values"][ply] - value_after
        if best is None or gap > best[0]:
            best = (gap, ply, value_after)
    if best is None:
        return None
    gap, ply, value_after = best
    ab_move, ab_value = _fixed_depth(states[ply], depth, weights, workspace, out)
    return TurningPoint(record["index"], ply, states[ply], record["moves"][ply],
                        record["values"][ply], value_after, gap, ab_move,
                        eval_probability(ab_value), depth)


# ----------------------------------------------------------------------------- weights


def compare_weights(weights, base=fast_ab.DEFAULT_WEIGHTS, nodes: int = 30_000,
                    games: int = 100, seed: int = 15, jobs: int = 1,
                    scoring: str = "codingame"):
    """Alpha-beta with evaluation ``weights`` against alpha-beta with ``base``, at ``nodes`` a move.

    A reproducible match (node budgets; :func:`mctslib.play.arena.play_match`,
    openings of 2 random plies, each played twice with the sides swapped).
    Returns the :class:`~mctslib.play.arena.MatchResult` for ``weights``. How the
    default weights were checked (``data/uttt/alphabeta/README.md``).
    """
    nodes = check_int("nodes (node budget per move)", nodes, 1, 10_000_000_000)
    games = check_int("games", games, 2, MAX_GAMES)
    make = [AlphaBetaSpec(nodes=nodes, weights=check_weights(w)) for w in (weights, base)]
    openings = random_openings(max(1, games // 2), OPENING_PLIES,
                               np.random.SeedSequence(seed, spawn_key=(OPENINGS_STREAM,)), scoring)
    return play_match(make[0], make[1], openings, games, seed=seed, jobs=jobs)


# ----------------------------------------------------------------------------- command line


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mctslib.experiments.enhancements.alphabeta",
        description="Play the alpha-beta bot against the MCTS bot and store the games as JSON.")
    parser.add_argument("--ms", type=float, default=100.0,
                        help="milliseconds per move for both bots, first move too (default 100)")
    parser.add_argument("--games", type=int, default=20, help="games of the match (default 20)")
    parser.add_argument("--scoring", choices=SCORINGS, default="codingame")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--alphabeta", help="the alpha-beta bot's SPEC (default: at --ms)")
    parser.add_argument("--mcts", help="the MCTS bot's SPEC (default: the brief's bot at --ms)")
    parser.add_argument("--first-game", type=int, default=0,
                        help="play only games FIRST..LAST of the match (a part)")
    parser.add_argument("--last-game", type=int, default=None)
    parser.add_argument("--out", type=Path, help="the JSON file (default: data/uttt/alphabeta/"
                        "ms{MS}_{SCORING}[_games{FIRST}-{LAST}].json)")
    parser.add_argument("--merge", nargs="+", type=Path, metavar="PART",
                        help="join stored parts of one match into --out instead of playing")
    args = parser.parse_args(argv)
    try:
        if args.merge:
            if args.out is None:
                parser.error("--merge needs --out")
            result = merge_parts(args.merge)
        else:
            result = play_alphabeta_match(args.games, args.ms, args.scoring, args.seed, args.jobs,
                                          args.alphabeta, args.mcts, args.first_game,
                                          args.last_game)
    except ValueError as error:
        parser.error(str(error))
    out = args.out
    if out is None:
        part = ("" if (result.first_game, result.last_game) == (0, result.games - 1)
                else f"_games{result.first_game}-{result.last_game}")
        out = DATA_DIR / f"ms{args.ms:g}_{args.scoring}{part}.json"
    write_and_report(result, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
