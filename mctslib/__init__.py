"""mctslib: the library behind *mctsbook*, an interactive textbook on Monte Carlo Tree Search.

Layers, bottom to top (nothing imports a layer above it):

- ``mctslib.rng``: the one helper that turns a seed into a random generator;
- ``mctslib.games``: rules of games (tic-tac-toe, ...), knowing nothing of search;
- ``mctslib.selection``, ``mctslib.bandits``, ``mctslib.flat``, ``mctslib.minimax``:
  selection rules, bandit algorithms, flat Monte Carlo and exact solvers;
- ``mctslib.plotting``, ``mctslib.widgets``, ``mctslib.progress``: figures, live plots,
  notebook widgets and progress bars.

Each function's docstring names the chapter that teaches it.
"""

__version__ = "0.1.0"
