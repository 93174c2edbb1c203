"""Experiments that take minutes at full size, one subpackage per subject of the book.

Every experiment is a function with a small default budget that a chapter runs in
seconds, and a command line that runs the full budget and stores the result (parameters,
seeds, ``mctslib`` version and time taken) as JSON under ``data/``, which the chapter loads:

- :mod:`.uct`: the tic-tac-toe harness, the running example, the convergence atlas
  (chapters 1, 4 and 4b);
- :mod:`.uttt`: every tuning decision of the Ultimate Tic-Tac-Toe bot as a match with a
  95% interval (chapter 5; ``python -m mctslib.experiments.uttt --jobs 2``);
- :mod:`.enhancements`: RAVE, transpositions, progressive widening, alpha-beta (chapter 6);
- :mod:`.puct`: the UTTT network, PUCT and Gumbel with it, the mctx cross-check (chapter 7);
- :mod:`.parallel`: many workers on one tree, simulated and with real threads (chapter 7);
- :mod:`.simultaneous`: simultaneous-move games (chapter 8);
- :mod:`.stored`: the one way results are written, read back and added up from parts.

No package here imports its modules, so ``python -m`` runs each one as a script without
importing it twice.
"""
