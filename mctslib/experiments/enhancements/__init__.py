"""Experiments on the enhancements that matter (chapter 6, "Enhancements that matter").

- :mod:`.rave`: RAVE and GRAVE against plain UCT on Hex and Ultimate Tic-Tac-Toe;
- :mod:`.transpositions`: UCT on a graph (a transposition table) against UCT on a tree,
  and the memory each uses;
- :mod:`.widening`: progressive widening against fixed grids on a tree of continuous bandits;
- :mod:`.alphabeta`: the alpha-beta baseline against the MCTS bot at equal time, and the
  games alpha-beta wins.

The playout policies and the match against OpenSpiel given more time are experiments on the
UTTT bot and live with its tuning: :mod:`mctslib.experiments.uttt.enhancements`.
Stored results: ``data/rave/``, ``data/transpositions/``, ``data/widening/``,
``data/uttt/alphabeta/``, each with a README giving every file's command.
"""
