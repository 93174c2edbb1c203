"""Every tuning experiment of the chapter "Ultimate Tic-Tac-Toe: tuning a real bot".

Each change that CodinGame players report (brief: forum thread 22616 and
write-ups) is measured here with games between versions of our bot
(:mod:`mctslib.bots.uttt`), each comparison reported as games, wins / draws /
losses, score and a 95% Wilson interval:

- ``budget``: how strong is UCT at 250 ... 32,000 iterations per move against
  a fixed reference budget? (iterations)
- ``exploration``: which exploration constant c, on rewards 1/0.5/0 and
  1/0/-1, against c = 0.5 on 1/0.5/0? (iterations)
- ``win_taking``: playouts that take an immediate win, on vs off (iterations)
- ``solver``: MCTS-Solver, on vs off (iterations)
- ``reuse``: keeping the subtree between moves, on vs off (equal time, ms)
- ``centre``: X's score after the centre opening vs after a random first
  move (iterations)
- ``games_needed``: interval width against games; close values of c (0.6 vs
  0.7 as in the brief, 0.4 vs 0.5) with their running intervals and a
  sequential test, :mod:`mctslib.play.sprt` (iterations)
- ``openspiel``: our best bot vs OpenSpiel's C++ MCTS (equal time, ms; or equal
  simulations with matched exploration, iterations)
- ``doubling``: Elo per doubling, each budget against half of it (iterations)
- ``c_decision``, ``reuse_decision``: the close calls settled at the playing
  budget (100,000 iterations a move, every option on) by the Elo SPRT, each
  match stopped by the test or at a cap declared before its first game
  (:mod:`.playing`)
- ``openspiel_sweep``, ``openspiel_equal_time``, ``openspiel_ten_times``:
  OpenSpiel's ``uct_c`` tuned against its default, then our bot against the
  tuned and the default OpenSpiel at equal CPU time and with ten times
  OpenSpiel's time, as counts so that the games repeat (:mod:`.playing`)

Each is a function (``budget_experiment``, ``exploration_experiment``, ...)
with a small default budget that runs in seconds, for the chapter and CI;
:data:`QUICK` holds tiny budgets (tests), :data:`FULL` the budgets of the
stored results in ``data/uttt/NAME.json`` (decisions at 1,000 iterations),
:data:`REALISTIC` the same decisions at 20,000 iterations per move
(``data/uttt/realistic/NAME.json``), :data:`DEEP` at 100,000
(``data/uttt/deep/NAME.json``) and :data:`PLAYING` the decisions at the
playing budget (``data/uttt/playing/NAME.json``); this command regenerates them (see
``data/uttt/README.md`` for each file's command, wall time and load)::

    python -m mctslib.experiments.uttt [--budget quick|full|realistic|deep|playing]
                                       [--only NAME ...]
                                       [--jobs J | --scheduler tcp://HOST:PORT] [--out-dir DIR]

and :func:`load_experiment` reads back. Every result records its parameters,
seeds, scoring, ``mctslib`` version and wall time.

How the games are set up, everywhere:

* Games start from random openings of a few plies
  (:func:`mctslib.bots.uttt.random_openings`) so that they differ, each opening
  played twice with the sides swapped (:func:`mctslib.play.arena.play_match`); all
  comparisons of one experiment share the same openings. The centre
  experiment is the exception: it is about the first move itself.
* Scoring is CodinGame's (a game that closes every board without a line goes
  to whoever won more small boards) except against OpenSpiel, whose bot plays
  for OpenSpiel's scoring (every such game is a draw).
* Budgets are iterations per move, so results repeat exactly for the same
  seed on any machine and with any number of worker processes; tree reuse
  and the OpenSpiel match are about time, use milliseconds, and do not
  repeat exactly (the files say so: ``"reproducible": false``).
* Seeds: the match of comparison ``k`` of an experiment with seed ``s`` uses
  ``numpy.random.SeedSequence(s, spawn_key=(k,))``; the openings use
  ``SeedSequence(s, spawn_key=(2**32 - 1,))``.
"""

from .gains import gains_by_budget
from .openspiel import openspiel_experiment
from .playing import (
    c_decision_experiment,
    openspiel_counts_experiment,
    openspiel_sweep_experiment,
    play_pairs,
    reuse_decision_experiment,
)
from .registry import (
    BUDGETS,
    DEEP,
    EXPERIMENTS,
    FULL,
    PLAYING,
    QUICK,
    REALISTIC,
    budget_directory,
    build_parser,
    main,
    run_experiment,
)
from .results import (
    BASE_OPTIONS,
    BEST_OPTIONS,
    DATA_DIR,
    Comparison,
    ExperimentResult,
    experiment_path,
    load_experiment,
)
from .statistics import games_needed_experiment, pair_analysis
from .tuning import (
    budget_experiment,
    centre_experiment,
    doubling_experiment,
    exploration_experiment,
    reuse_experiment,
    solver_experiment,
    win_taking_experiment,
)

__all__ = [
    "BASE_OPTIONS",
    "BEST_OPTIONS",
    "BUDGETS",
    "DATA_DIR",
    "DEEP",
    "EXPERIMENTS",
    "FULL",
    "PLAYING",
    "QUICK",
    "REALISTIC",
    "Comparison",
    "ExperimentResult",
    "budget_directory",
    "budget_experiment",
    "build_parser",
    "c_decision_experiment",
    "centre_experiment",
    "doubling_experiment",
    "experiment_path",
    "exploration_experiment",
    "gains_by_budget",
    "games_needed_experiment",
    "load_experiment",
    "main",
    "openspiel_counts_experiment",
    "openspiel_experiment",
    "openspiel_sweep_experiment",
    "pair_analysis",
    "play_pairs",
    "reuse_decision_experiment",
    "reuse_experiment",
    "run_experiment",
    "solver_experiment",
    "win_taking_experiment",
]
