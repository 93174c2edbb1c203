"""Decisions at the playing budget, and the matches against OpenSpiel (chapter 5).

The chapter "Ultimate Tic-Tac-Toe: tuning a real bot" makes its first
decisions at 1,000 iterations per move and then settles them where the bot
plays: 100,000 iterations per move, with every option the chapter keeps
(win-taking, the solver, tree reuse). Close calls there are decided by the
sequential test of chess engine testing (:mod:`mctslib.play.elo_sprt`, game
pairs, H0 ``elo0`` against H1 ``elo1``), each match stopping when the test
decides or at a cap fixed in advance:

- ``c_decision``: c = 0.6 and c = 0.4 each against c = 0.5;
- ``reuse_decision``: tree reuse on against off at equal *new* iterations per
  move (what reuse costs in time is a benchmark's job,
  ``benchmarks/uttt_reuse_cost.py``).

The OpenSpiel matches use counts instead of clocks, so that they repeat game
for game on any machine: each bot gets the number of iterations or
simulations it completes in 100 ms of CPU time on average over whole games
(``benchmarks/uttt_equal_time.py`` measures both, side by side):

- ``openspiel_sweep``: OpenSpiel's ``uct_c`` tuned as our c was, each value
  against its default 2 at the equal-time count;
- ``openspiel_equal_time`` and ``openspiel_ten_times``: our bot against the
  tuned OpenSpiel and, as a labelled second row, the default one, at equal
  time and with ten times OpenSpiel's time.

Every match here is played pair by pair (games ``2k`` and ``2k + 1`` share an
opening, sides swapped) with exactly the seeds a single
:func:`~mctslib.play.arena.play_match` call would give them, so a match can be
stopped by the test, interrupted and resumed (``progress``: a JSON-lines file
of finished pairs), and its first games replayed by a short run.
"""


from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ..._checks import check_int, check_real
from ...bots.uttt import MAX_ITERATIONS
from ...play.arena import GameRecord, MatchResult, play_match
from ...play.elo_sprt import EloSPRT
from ...search.minimax import check_budget
from .results import (
    BEST_OPTIONS,
    DEFAULT_SCORING,
    TIME_NOTE,
    Comparison,
    ExperimentResult,
    _bot,
    _common,
    _finish,
    _iterations,
    _machine,
    _numbers,
    _openings,
    _parameters,
    _path,
)

#: The budget the bot plays with: iterations per move (about a CodinGame turn of 100 ms).
PLAYING_ITERATIONS = 100_000
#: The sequential test of every decision here: no gain against +30 Elo, 5% errors each way.
DECISION_TEST = {"elo0": 0.0, "elo1": 30.0, "alpha": 0.05, "beta": 0.05}
#: A decision match that has not decided after this many games stops undecided.
DECISION_CAP = 1000


# ----------------------------------------------------------------------------- pairs


def play_pairs(a, b, starts: Sequence, games: int, match_seed: np.random.SeedSequence, *,
               stop: Callable[[str], bool] | None = None, done: Sequence[GameRecord] = (),
               on_pair: Callable[[int, list[GameRecord]], None] | None = None, jobs: int = 1,
               executor=None, description: str = "games") -> MatchResult:
    """A match of up to ``games`` games played pair by pair, as ``play_match`` would play it.

    Pair ``k`` (games ``2k`` and ``2k + 1``) starts from ``starts[k % len(starts)]``
    with A moving first in game ``2k``, and its players get the streams that
    :func:`~mctslib.play.arena.play_match` with ``match_seed`` gives games ``2k``
    and ``2k + 1`` (``SeedSequence(..., n_children_spawned=4k)``), so the games
    are those of one long match, whatever its length. After each pair
    ``on_pair(k, records)`` is called and ``stop(results)`` (A's results so far,
    ``"WDL..."``) may end the match. ``done`` are records of pairs already
    played (a resumed run): they are counted, not played again.

    Returns
    -------
    MatchResult
        The games played, in order, with their records.
    """
    games = check_budget("games", games, 2, 10_000_000)
    if games % 2:
        raise ValueError(f"games must be even (pairs of games share an opening), got {games}.")
    starts = list(starts)
    if not starts:
        raise ValueError("starts must hold at least one opening.")
    records = list(done)
    if len(records) % 2 or len(records) > games:
        raise ValueError(f"done must hold whole pairs, at most {games} games, got "
                         f"{len(records)} records.")
    if stop is not None and records and stop(_letters(records)):
        return _tally(records)
    for pair in range(len(records) // 2, games // 2):
        seed = np.random.SeedSequence(match_seed.entropy, spawn_key=match_seed.spawn_key,
                                      n_children_spawned=4 * pair)
        played = play_match(a, b, [starts[pair % len(starts)]], 2, seed=seed, jobs=jobs,
                            executor=executor, description=f"{description}, pair {pair}")
        new = [dataclasses.replace(record, index=2 * pair + i)
               for i, record in enumerate(played.records)]
        records.extend(new)
        if on_pair is not None:
            on_pair(pair, new)
        if stop is not None and stop(_letters(records)):
            break
    return _tally(records)


def _letters(records) -> str:
    return "".join({1.0: "W", 0.5: "D", 0.0: "L"}[r.result_for_a] for r in records)


def _tally(records) -> MatchResult:
    letters = _letters(records)
    return MatchResult(letters.count("W"), letters.count("D"), letters.count("L"),
                       records=tuple(records))


class _Progress:
    """Finished pairs of an experiment's matches, appended to a JSON-lines file as they end."""

    def __init__(self, path):
        self.path = None if path is None else _path("progress", path)
        self.pairs: dict[str, dict[int, list[GameRecord]]] = {}
        if self.path is not None and self.path.is_file():
            for line in self.path.read_text().splitlines():
                try:
                    entry = json.loads(line)
                    records = [GameRecord(**record) for record in entry["records"]]
                except (ValueError, KeyError, TypeError):  # a line cut short by a stopped run
                    continue
                self.pairs.setdefault(entry["label"], {})[entry["pair"]] = records

    def done(self, key: str) -> list[GameRecord]:
        """The records of the pairs of match ``key`` finished before, in order, without gaps."""
        pairs, records = self.pairs.get(key, {}), []
        while len(records) // 2 in pairs:
            records.extend(pairs[len(records) // 2])
        return records

    def recorder(self, key: str):
        def record(pair: int, records: list[GameRecord]) -> None:
            if self.path is not None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with self.path.open("a") as file:
                    file.write(json.dumps({"label": key, "pair": pair, "records": [
                        dataclasses.asdict(r) for r in records]}) + "\n")
        return record


def _match(runner, progress: _Progress, label, value, a, b, starts, games, test=None):
    """One match of ``runner`` played in pairs (stopped by ``test`` if given): a Comparison."""
    key = len(runner.played)
    match_seed = np.random.SeedSequence(runner.seed, spawn_key=(key,))
    stop = None
    if test is not None:
        def stop(results: str) -> bool:
            return test.run(results).decision is not None
    # A resumed run takes only pairs of the same match: label, both players and seed.
    match_key = f"{label} | {_name(a)} | {_name(b)} | {runner.seed}, {key}"
    start = time.perf_counter()
    result = play_pairs(a, b, starts, games, match_seed, stop=stop, done=progress.done(match_key),
                        on_pair=progress.recorder(match_key), jobs=runner.jobs,
                        executor=runner.executor, description=f"{runner.name} {label}")
    comparison = Comparison.from_match(label, value, _name(a), _name(b),
                                       [runner.seed, key], result, time.perf_counter() - start)
    runner.played.append(comparison)
    if runner.callback is not None:
        runner.callback(comparison)
    return comparison


def _name(player) -> str:
    """A player factory's description (OpenSpiel's bot) or its SPEC (ours)."""
    describe = getattr(player, "describe", None)
    return describe() if describe else str(player)


# ----------------------------------------------------------------------------- decisions


def _test(elo0, elo1, alpha, beta) -> EloSPRT:
    return EloSPRT(elo0, elo1, alpha, beta)


def _test_summary(test: EloSPRT, comparison: Comparison, cap: int) -> dict:
    outcome = test.run(comparison.results)
    return {"label": comparison.label, "decision": outcome.decision, "games": comparison.games,
            "pairs": comparison.games // 2, "llr": [float(x) for x in outcome.llr],
            "final_llr": float(outcome.llr[-1]) if len(outcome.llr) else 0.0,
            "bounds": [test.lower, test.upper], "cap": cap,
            "capped": outcome.decision is None and comparison.games >= cap}


def _test_parameters(test: EloSPRT, cap: int) -> dict:
    return {"elo0": test.elo0, "elo1": test.elo1, "alpha": test.alpha, "beta": test.beta,
            "model": test.model, "method": test.method, "cap_games": cap}


def c_decision_experiment(challengers: Sequence[float] = (0.6, 0.4), reference: float = 0.5,
                          iterations: int = PLAYING_ITERATIONS, max_games: int = DECISION_CAP,
                          *, elo0: float = DECISION_TEST["elo0"],
                          elo1: float = DECISION_TEST["elo1"],
                          alpha: float = DECISION_TEST["alpha"],
                          beta: float = DECISION_TEST["beta"], options=BEST_OPTIONS,
                          seed: int = 21, scoring: str = DEFAULT_SCORING, opening_plies: int = 2,
                          progress=None, jobs: int = 1, executor=None,
                          callback: Callable | None = None) -> ExperimentResult:
    """The exploration constant decided at the playing budget by the sequential test.

    Each value of ``challengers`` plays ``reference`` (the same bot, ``options``,
    at ``iterations`` per move) pair by pair, and the Elo SPRT (H0 ``elo0``
    against H1 ``elo1``, pentanomial, ``alpha`` and ``beta``) is applied after
    every pair; a match stops when the test decides, or undecided after
    ``max_games``. The rule, fixed before the games: a challenger whose test
    accepts H1 replaces the reference; if none does, the reference stays;
    if more than one does, none is chosen here (``summary["chosen_c"]`` is
    None) and a further test decides.

    Returns
    -------
    ExperimentResult
        Summary ``tests`` (one per challenger: decision, games, the LLR after
        every pair, bounds, whether the cap stopped it) and ``chosen_c``.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", "Deciding at the
    playing budget".
    """
    start = time.perf_counter()
    max_games, runner = _common("c_decision", max_games, seed, scoring, jobs, executor, callback)
    if max_games % 2:
        raise ValueError(f"max_games must be even (pairs of games), got {max_games}.")
    challengers = _numbers("challengers", challengers, 0.0, kind=float, maximum=100.0)
    reference = check_real("reference (c)", reference, 0.0, 100.0)
    iterations = check_budget("iterations (per move)", iterations, 1, MAX_ITERATIONS)
    test = _test(elo0, elo1, alpha, beta)
    progress = _Progress(progress)
    bot = _iterations(_bot(options), iterations)
    base = _bot(bot, c=reference)
    starts = _openings(max_games, opening_plies, seed, scoring)
    for c in challengers:
        _match(runner, progress, f"c={c:g} vs c={reference:g}", c, _bot(bot, c=c), base,
               starts, max_games, test)
    tests = [_test_summary(test, comparison, max_games) for comparison in runner.played]
    accepted = [c.value for c, t in zip(runner.played, tests) if t["decision"] == "H1"]
    chosen = reference if not accepted else accepted[0] if len(accepted) == 1 else None
    summary = {"tests": tests, "chosen_c": chosen, "rule": (
        "a challenger whose test accepts H1 replaces the reference; none: the reference stays; "
        "more than one: no choice here, a further test decides")}
    notes = [("Sequential: each match stops at the first pair after which the test decides, or "
              f"undecided at {max_games} games; the stopping rule and the cap were fixed before "
              "the first game."), TIME_NOTE]
    return _finish(runner, start, title="the exploration constant at the playing budget",
                   scoring=scoring, reproducible=True, summary=summary, notes=notes,
                   parameters=_parameters(runner, challengers=challengers, reference=reference,
                                          iterations=iterations, max_games=max_games,
                                          test=_test_parameters(test, max_games),
                                          options=str(bot), opening_plies=opening_plies,
                                          openings=len(starts)))


def reuse_decision_experiment(iterations: int = PLAYING_ITERATIONS,
                              max_games: int = DECISION_CAP, *,
                              elo0: float = DECISION_TEST["elo0"],
                              elo1: float = DECISION_TEST["elo1"],
                              alpha: float = DECISION_TEST["alpha"],
                              beta: float = DECISION_TEST["beta"], options=BEST_OPTIONS,
                              seed: int = 22, scoring: str = DEFAULT_SCORING,
                              opening_plies: int = 2, progress=None, jobs: int = 1,
                              executor=None, callback: Callable | None = None) -> ExperimentResult:
    """Tree reuse on against off at equal new iterations per move, by the sequential test.

    Both bots are ``options`` at ``iterations`` per move, one with
    ``reuse=on``, one with ``reuse=off``: each runs exactly ``iterations`` new
    iterations a move, and the reusing bot starts them from the subtree it kept.
    This measures what the kept tree is worth at equal work; what re-rooting
    and a larger tree cost in time is measured apart (``benchmarks/uttt_reuse_cost.py``).
    The test and its cap as in :func:`c_decision_experiment`.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", "Tree reuse".
    """
    start = time.perf_counter()
    max_games, runner = _common("reuse_decision", max_games, seed, scoring, jobs, executor,
                                callback)
    if max_games % 2:
        raise ValueError(f"max_games must be even (pairs of games), got {max_games}.")
    iterations = check_budget("iterations (per move)", iterations, 1, MAX_ITERATIONS)
    test = _test(elo0, elo1, alpha, beta)
    progress = _Progress(progress)
    bot = _iterations(_bot(options), iterations)
    starts = _openings(max_games, opening_plies, seed, scoring)
    _match(runner, progress, f"reuse=on vs off, iters={iterations}", iterations,
           _bot(bot, reuse=True), _bot(bot, reuse=False), starts, max_games, test)
    summary = {"tests": [_test_summary(test, runner.played[0], max_games)]}
    notes = [("Equal new iterations per move: the reusing bot also keeps the subtree under the "
              "last two moves; the time re-rooting costs is not part of this match."),
             ("Sequential: the match stops at the first pair after which the test decides, or "
              f"undecided at {max_games} games, both fixed before the first game."), TIME_NOTE]
    return _finish(runner, start, title="tree reuse on vs off at equal new iterations",
                   scoring=scoring, reproducible=True, summary=summary, notes=notes,
                   parameters=_parameters(runner, iterations=iterations, max_games=max_games,
                                          test=_test_parameters(test, max_games),
                                          options=str(bot), opening_plies=opening_plies,
                                          openings=len(starts)))


# ----------------------------------------------------------------------------- OpenSpiel


def openspiel_sweep_experiment(uct_cs: Sequence[float] = (0.5, 0.7, 1.0, 1.4),
                               simulations: int = 2000, games: int = 10, *,
                               reference_uct_c: float | None = None, seed: int = 23,
                               opening_plies: int = 2, progress=None, jobs: int = 1,
                               executor=None, callback=None) -> ExperimentResult:
    """OpenSpiel's exploration constant tuned as ours was: each value against its default.

    Every OpenSpiel bot (``pyspiel.MCTSBot``, random rollouts, solver on) with
    ``uct_c`` from ``uct_cs`` plays the same bot with ``reference_uct_c``
    (default: OpenSpiel's example default 2) at ``simulations`` per move,
    ``games`` games each from the same seeded openings, OpenSpiel's scoring.
    Its rewards are -1 / 0 / 1, so ``uct_c`` explores like our c = uct_c / 2.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", "Against OpenSpiel".
    """
    from ...bots import openspiel as spiel  # pyspiel loads in about a second

    start = time.perf_counter()
    games, runner = _common("openspiel_sweep", games, seed, "openspiel", jobs, executor,
                            callback)
    uct_cs = _numbers("uct_cs", uct_cs, 0.0, kind=float, maximum=100.0)
    reference_uct_c = spiel.DEFAULT_UCT_C if reference_uct_c is None else check_real(
        "reference_uct_c", reference_uct_c, 0.0, 100.0)
    simulations = check_int("simulations", simulations, 2, 2**31 - 1)
    progress = _Progress(progress)
    reference = spiel.OpenSpielMCTS(simulations, uct_c=reference_uct_c)
    starts = _openings(games, opening_plies, seed, "openspiel")
    for uct_c in uct_cs:
        _match(runner, progress, f"uct_c={uct_c:g} vs {reference_uct_c:g}", uct_c,
               spiel.OpenSpielMCTS(simulations, uct_c=uct_c), reference, starts, games)
    best = max(runner.played, key=lambda c: c.score)
    summary = {"points": [{"uct_c": c.value, "games": c.games, "score": c.score,
                           "interval_95": c.interval_95} for c in runner.played],
               "best_uct_c": best.value if best.score > 0.5 else reference_uct_c,
               "rule": ("the tuned uct_c is the value with the best score against the default "
                        "if that score is above 0.5, else the default")}
    return _finish(runner, start, title="OpenSpiel's uct_c against its default",
                   scoring="openspiel", reproducible=True, summary=summary,
                   notes=[("Both sides are OpenSpiel's MCTSBot at the same simulations per move; "
                           "a free-choice turn is two searches (board, then cell) with half "
                           "the simulations each (our harness's split)."), TIME_NOTE],
                   parameters=_parameters(runner, uct_cs=uct_cs, reference_uct_c=reference_uct_c,
                                          simulations=simulations, games=games,
                                          openspiel=reference.describe(),
                                          opening_plies=opening_plies, openings=len(starts)))


def openspiel_counts_experiment(iterations: int = 2000, simulations: int = 2000,
                                uct_cs: Sequence[float] = (1.0, 2.0),
                                games: int | Sequence[int] = 10, *, options=BEST_OPTIONS,
                                name: str = "openspiel_equal_time", seed: int = 24,
                                opening_plies: int = 2, progress=None, jobs: int = 1,
                                executor=None, callback=None) -> ExperimentResult:
    """Our bot at ``iterations`` per move against OpenSpiel at ``simulations``, one row per uct_c.

    Counts stand in for clocks: with the counts each bot completes in the same
    CPU time (``benchmarks/uttt_equal_time.py``), the match is an equal-time
    match that repeats game for game on any machine; ten times OpenSpiel's
    count gives it ten times the time. ``uct_cs`` lists OpenSpiel's
    exploration constants, one comparison each (the tuned value first, then
    its default as a labelled second row), with ``games`` games each (one
    number, or one per uct_c). Every row plays the same openings.
    ``name`` is ``"openspiel_equal_time"`` or ``"openspiel_ten_times"``.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", "Against OpenSpiel".
    """
    from ...bots import openspiel as spiel

    if name not in ("openspiel_equal_time", "openspiel_ten_times"):
        raise ValueError(f"name must be 'openspiel_equal_time' or 'openspiel_ten_times', got "
                         f"{name!r}.")
    start = time.perf_counter()
    uct_cs = _numbers("uct_cs", uct_cs, 0.0, kind=float, maximum=100.0)
    per_row = [games] * len(uct_cs) if isinstance(games, (int, np.integer)) else list(games)
    if len(per_row) != len(uct_cs):
        raise ValueError(f"games must be one number or one per uct_c ({len(uct_cs)}), got "
                         f"{games!r}.")
    per_row = [check_budget("games (per row)", n, 2, 10_000_000) for n in per_row]
    most, runner = _common(name, max(per_row), seed, "openspiel", jobs, executor, callback)
    iterations = check_budget("iterations (per move)", iterations, 1, MAX_ITERATIONS)
    simulations = check_int("simulations", simulations, 2, 2**31 - 1)
    progress = _Progress(progress)
    ours = _iterations(_bot(options), iterations)
    starts = _openings(most, opening_plies, seed, "openspiel")
    machine_before = _machine()
    for uct_c, count in zip(uct_cs, per_row):
        _match(runner, progress, f"ours {iterations} iters vs OpenSpiel {simulations} sims, "
               f"uct_c={uct_c:g}", uct_c, ours, spiel.OpenSpielMCTS(simulations, uct_c=uct_c),
               starts, count)
    summary = {"points": [{"uct_c": c.value, "games": c.games, "score": c.score,
                           "interval_95": c.interval_95} for c in runner.played]}
    notes = [("Counts, not clocks: our bot runs a fixed number of iterations per move and "
              "OpenSpiel's bot a fixed number of simulations, sized by a benchmark to equal CPU "
              "time per move on average over whole games, so the games repeat exactly for the "
              "same seed (OpenSpiel's C++ seeds come from ours)."),
             ("On a free-choice turn OpenSpiel's player makes two searches (board, then cell) "
              "with half the simulations each: our harness's split, not OpenSpiel's."),
             ("Games start from random 2-ply openings, so our bot's centre=on never acts."),
             TIME_NOTE]
    return _finish(runner, start, title=("our bot vs OpenSpiel's C++ MCTS, " + (
        "equal time" if name == "openspiel_equal_time" else "OpenSpiel with ten times the time")
        + " (as counts)"), scoring="openspiel", reproducible=True, summary=summary, notes=notes,
        parameters=_parameters(runner, iterations=iterations, simulations=simulations,
                               uct_cs=uct_cs, games=per_row, ours=str(ours),
                               openspiel=spiel.OpenSpielMCTS(simulations).describe(),
                               opening_plies=opening_plies, openings=len(starts),
                               machine_before=machine_before, machine_after=_machine()))


def progress_path(name: str, directory) -> Path:
    """``DIRECTORY/NAME.pairs.jsonl``: the pairs a run of ``name`` has finished, for a resume."""
    return _path("directory", directory) / f"{name}.pairs.jsonl"
