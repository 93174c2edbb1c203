"""Experiments that take minutes at full size, each a function plus a command.

Every experiment here is a function with a small default budget that a
chapter can run in seconds, and a command line that runs the full budget and
stores the result (parameters, seeds, ``mctslib`` version and time taken) as
a JSON file under ``data/``, which the chapter can load:

- :mod:`mctslib.experiments.simultaneous`: two learners at one simultaneous
  node, distance from equilibrium over rounds (simultaneous-moves chapter);
  ``python -m mctslib.experiments.simultaneous --out data/simultaneous/one_node.json``.

The package imports none of its modules, so ``python -m`` can run each one
as a script without importing it twice.
"""
