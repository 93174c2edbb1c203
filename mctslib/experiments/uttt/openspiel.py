"""Our best bot against OpenSpiel's C++ MCTS at equal time (experiment 5 of the UTTT chapter)."""


from __future__ import annotations

import time
from dataclasses import asdict

from ..._checks import check_int, check_real
from ...search.minimax import check_budget
from .results import (
    BEST_OPTIONS,
    ExperimentResult,
    _bot,
    _common,
    _finish,
    _machine,
    _milliseconds,
    _numbers,
    _openings,
    _parameters,
)

# ----------------------------------------------------------------------------- 5. OpenSpiel


def openspiel_experiment(ms: float = 20.0, games: int = 4, *, options=BEST_OPTIONS,
                         openspiel_budget: str = "clock", simulations: int | None = None,
                         uct_c: float | None = None, calibration_positions: int = 8,
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
            "Not reproducible exactly: our bot's budget is time."]
