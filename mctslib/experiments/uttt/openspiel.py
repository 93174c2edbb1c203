"""Our best bot against OpenSpiel's C++ MCTS at equal time (experiment 5 of the UTTT chapter)."""


from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict

from ..._checks import check_int, check_real
from ...bots.uttt import MAX_ITERATIONS
from ...search.minimax import check_budget
from .results import (
    BEST_OPTIONS,
    TIME_NOTE,
    ExperimentResult,
    _bot,
    _common,
    _finish,
    _iterations,
    _machine,
    _milliseconds,
    _numbers,
    _openings,
    _parameters,
    _sequence,
)

# ----------------------------------------------------------------------------- 5. OpenSpiel


def openspiel_experiment(ms: float = 20.0, games: int = 4, *, options=BEST_OPTIONS,
                         openspiel_budget: str = "clock", simulations: int | None = None,
                         uct_c: float | None = None, calibration_positions: int = 8,
                         iterations: int | None = None, versions: Sequence[str] = ("best",),
                         seed: int = 8, opening_plies: int = 2, jobs: int = 1, executor=None,
                         callback=None) -> ExperimentResult:
    """Our best bot against OpenSpiel's C++ MCTS (``pyspiel.MCTSBot``) at equal time per move.

    Our bot gets ``ms`` milliseconds for every move. OpenSpiel's bot
    (:class:`mctslib.bots.openspiel.OpenSpielMCTS`, random rollouts, its
    solver on) gets, by ``openspiel_budget``:

    * ``"clock"`` (default): the same ``ms`` per move on its own clock, as a
      referee would give both players;
    * ``"calibrated"``: the simulation count that takes it as long here,
      measured just before the games by
      :func:`mctslib.bots.openspiel.calibrate_against` on
      ``calibration_positions`` seeded positions (a fixed count: its time per
      move in the games is only about equal to ours);

    or exactly ``simulations`` per move if given. Games use OpenSpiel's
    scoring (a game that closes every board without a line is a draw), which
    its bot plays for.

    **Equal simulations** (issue 14, separating speed from tuning): with
    ``iterations`` our bot plays that many iterations per move instead of
    ``ms`` (ignored), and OpenSpiel's bot ``simulations`` per move (default:
    the same number), so neither bot's speed matters and the result repeats
    exactly. ``versions`` lists our bots, one comparison each: ``"best"``
    (``options``) and ``"matched"`` (:data:`MATCHED_OPTIONS`: OpenSpiel's own
    algorithm, plain UCT with random playouts and a solver). Match the
    exploration with ``uct_c=1.0``: OpenSpiel selects the child maximising
    ``total_reward / explore_count + uct_c * sqrt(ln(parent_explore_count) /
    explore_count)`` (``SearchNode::UCTValue`` in ``open_spiel/algorithms/mcts.cc``)
    on rewards -1/0/1, whose mean is ``2m - 1`` for our mean ``m`` on 1/0.5/0;
    so ``uct_c = 1`` ranks children exactly as our ``c = 0.5``.

    Returns
    -------
    ExperimentResult
        Summary: both bots' measured ms per move in the games, the
        calibration if there was one, and whether the interval leaves out 0.5.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", our bot against OpenSpiel.
    """
    from ...bots import openspiel as spiel  # imported here: pyspiel loads in about a second

    start = time.perf_counter()
    games, runner = _common("openspiel", games, seed, "openspiel", jobs, executor, callback)
    ms = _numbers("ms", ms, 0.0, kind=float)[0]
    if not isinstance(openspiel_budget, str) or openspiel_budget not in ("clock", "calibrated"):
        raise ValueError(f"openspiel_budget must be 'clock' or 'calibrated', "
                         f"got {openspiel_budget!r}.")
    if simulations is not None:
        simulations = check_int("simulations", simulations, 2)
    calibration_positions = check_budget("calibration_positions", calibration_positions, 1,
                                         spiel.MAX_POSITIONS)
    uct_c = spiel.DEFAULT_UCT_C if uct_c is None else check_real("uct_c", uct_c, 0.0)
    if iterations is not None:
        return _equal_simulations(runner, start, options, iterations, simulations, uct_c, games,
                                  versions, seed, opening_plies, spiel)
    ours = _milliseconds(_bot(options), ms)
    machine_before = _machine()
    calibration = None
    if simulations is not None:
        theirs = spiel.OpenSpielMCTS(simulations, uct_c=uct_c)
    elif openspiel_budget == "clock":
        theirs = spiel.OpenSpielMCTS(None, uct_c=uct_c, seconds=ms / 1000.0)
    else:
        positions = spiel.calibration_positions(calibration_positions, max_ply=40, seed=seed)
        calibration = spiel.calibrate_against(ours, positions, seed=seed, uct_c=uct_c)
        theirs = spiel.OpenSpielMCTS(calibration.simulations, uct_c=uct_c)
    starts = _openings(games, opening_plies, seed, "openspiel")
    match = runner.match(f"ours {ms:g} ms vs OpenSpiel", ms, ours, theirs, starts, games)
    summary = {"calibration": None if calibration is None else asdict(calibration),
               "ms_per_move_in_games": {"ours": 1000 * match.seconds_per_move[0],
                                        "openspiel": 1000 * match.seconds_per_move[1]},
               "distinguishable": match.excludes_half()}
    return _finish(runner, start, title="our best bot vs OpenSpiel's C++ MCTS at equal time",
                   scoring="openspiel", reproducible=False, summary=summary,
                   notes=_openspiel_notes(theirs),
                   parameters=_parameters(runner, ms=ms, games=games, ours=str(ours),
                                          openspiel=theirs.describe(),
                                          openspiel_budget=("simulations" if simulations
                                                            else openspiel_budget),
                                          simulations=theirs.simulations, uct_c=uct_c,
                                          calibration_positions=calibration_positions,
                                          opening_plies=opening_plies, openings=len(starts),
                                          machine_before=machine_before,
                                          machine_after=_machine()))


#: Our bot made as close as it gets to OpenSpiel's MCTSBot: UCT with random playouts and a
#: solver, nothing else (no win-taking, no tree reuse; the centre never acts from an opening).
MATCHED_OPTIONS = "c=0.5,scale=01,wins=off,solver=on,reuse=off,centre=off"
VERSIONS = {"best": None, "matched": MATCHED_OPTIONS}


def _equal_simulations(runner, start, options, iterations, simulations, uct_c, games, versions,
                       seed, opening_plies, spiel) -> ExperimentResult:
    """Our bot(s) at ``iterations`` per move against OpenSpiel at ``simulations``, same seeds."""
    iterations = check_budget("iterations (per move)", iterations, 2, MAX_ITERATIONS)
    simulations = iterations if simulations is None else simulations
    versions = [versions] if isinstance(versions, str) else _sequence("versions", versions)
    if not versions or any(not isinstance(v, str) or v not in VERSIONS for v in versions):
        raise ValueError(f"versions must be one or more of {', '.join(VERSIONS)}, got "
                         f"{versions}.")
    theirs = spiel.OpenSpielMCTS(simulations, uct_c=uct_c)
    machine_before = _machine()
    starts = _openings(games, opening_plies, seed, "openspiel")
    bots = {}
    for version in versions:
        ours = _iterations(_bot(VERSIONS[version] or options), iterations)
        bots[version] = str(ours)
        runner.match(f"{version} {iterations} iters vs OpenSpiel {simulations} sims", version,
                     ours, theirs, starts, games)
    summary = {"points": [{"version": c.value, "ours": c.a, "games": c.games, "score": c.score,
                           "interval_95": c.interval_95, "distinguishable": c.excludes_half()}
                          for c in runner.played],
               "exploration_match": {"openspiel_uct_c": uct_c, "our_c_equivalent": uct_c / 2,
                                     "rule": OPENSPIEL_UCT_RULE}}
    notes = [("Equal simulations: our bot plays a fixed number of iterations per move and "
              "OpenSpiel's bot the same number of simulations, so speed plays no part and the "
              "games repeat exactly for the same seed (OpenSpiel's C++ seeds come from ours)."),
             ("On a free-choice turn OpenSpiel's player makes two searches (board, then cell) "
              "with half the simulations each: that split is our harness's choice "
              "(mctslib.bots.openspiel), not OpenSpiel's."),
             ("Games start from random 2-ply openings, so our bot's centre=on option never "
              "acts (it only chooses X's first move on the empty board)."),
             OPENSPIEL_UCT_RULE, TIME_NOTE]
    return _finish(runner, start,
                   title="our bot vs OpenSpiel's C++ MCTS at equal simulations per move",
                   scoring="openspiel", reproducible=True, summary=summary, notes=notes,
                   parameters=_parameters(runner, iterations=iterations, simulations=simulations,
                                          games=games, versions=list(versions), ours=bots,
                                          openspiel=theirs.describe(), uct_c=uct_c,
                                          opening_plies=opening_plies, openings=len(starts),
                                          centre_acts=opening_plies == 0,
                                          machine_before=machine_before,
                                          machine_after=_machine()))


#: How OpenSpiel's exploration constant maps onto ours (checked in its source, mcts.cc).
OPENSPIEL_UCT_RULE = ("OpenSpiel's MCTSBot (UCT policy) picks the child maximising "
                      "total_reward / explore_count + uct_c * sqrt(ln(parent_explore_count) / "
                      "explore_count) on rewards -1/0/1 (SearchNode::UCTValue, "
                      "open_spiel/algorithms/mcts.cc); our bot maximises wins / visits + "
                      "c * sqrt(ln(parent visits) / visits) on 1/0.5/0. The mean on -1/0/1 is "
                      "2m - 1 for our mean m, so uct_c ranks children as c = uct_c / 2 does: "
                      "uct_c = 1 matches c = 0.5, and OpenSpiel's example default uct_c = 2 "
                      "explores like c = 1.")


def _openspiel_notes(theirs) -> list[str]:
    if theirs.simulations is None:
        budget = ("Both bots stop on their own clocks, so load on the machine costs both of "
                  "them search; each stops early when its root is solved (compare the "
                  "measured ms per move).")
    else:
        budget = ("Our bot stops on the clock; OpenSpiel's runs a fixed number of simulations. "
                  "Load on the machine costs our bot iterations while OpenSpiel's bot simply "
                  "takes longer, and the count buys OpenSpiel less time late in a game; "
                  "compare the measured ms per move.")
    return [budget,
            ("OpenSpiel's player is described in parameters.openspiel: a free-choice turn is "
             "two OpenSpiel actions (board, then cell); times are per whole move."),
            "Not reproducible exactly: our bot's budget is time.",
            ("Games start from random 2-ply openings, so our bot's centre=on option never "
             "acts (it only chooses X's first move on the empty board)."),
            ("On a free-choice turn OpenSpiel's player splits the move's budget 50/50 between "
             "its two searches (board, then cell): our harness's choice "
             "(mctslib.bots.openspiel), not OpenSpiel's."),
            OPENSPIEL_UCT_RULE]
