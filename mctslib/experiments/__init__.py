"""Experiments that take minutes at full size, each a function plus a command.

Every experiment here is a function with a small default budget that a
chapter can run in seconds, and a command line that runs the full budget and
stores the result (parameters, seeds, ``mctslib`` version and time taken) as
a JSON file under ``data/``, which the chapter can load:

- :mod:`mctslib.experiments.simultaneous`: two learners at one simultaneous
  node, distance from equilibrium over rounds (simultaneous-moves chapter);
  ``python -m mctslib.experiments.simultaneous --out data/simultaneous/one_node.json``.
- :mod:`mctslib.experiments.uttt`: every tuning decision of the Ultimate Tic-Tac-Toe
  chapter as a match with a 95% interval (budget, exploration constant under both reward
  scales, win-taking playouts, solver, tree reuse, centre opening, games needed, against
  OpenSpiel); ``python -m mctslib.experiments.uttt --jobs 2`` rewrites ``data/uttt/``
  (about 10 minutes on 2 cores).

The package imports none of its modules, so ``python -m`` can run each one
as a script without importing it twice.
"""
