"""Experiments on parallel search (chapter 7b, "Parallel search").

- :mod:`.model`: K simulated workers on one tree with virtual loss: what they lose against
  one worker at the same number of iterations, in agreement and in matches;
- :mod:`.threads`: real threads (root, tree and leaf parallelism) against one thread at
  equal wall time;
- :mod:`.sharing`: the cache lines two threads on one tree pass to each other per
  iteration, counted without a clock.

Stored results: ``data/parallel/`` (its README gives every file's command).
"""
