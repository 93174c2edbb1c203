"""Chapter 2's measurements over many seeds ("Spend playouts where they pay").

- :mod:`.measurements`: UCB1's exploration constant swept on the chapter's arms that
  win, draw or lose (1,000 runs, read after 1,000, 10,000 and 100,000 pulls), and the
  chance that flat Monte Carlo and flat UCB play the best move of chapter 1's opening
  (4,000 seeds per budget) (``python -m mctslib.experiments.bandits.measurements``).

Stored results: ``data/bandits/c_sweep.json`` and ``data/bandits/best_move.json``; the
commands and the time they took are in ``data/bandits/README.md``.
"""
