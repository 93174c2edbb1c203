"""Experiments on UCT in tic-tac-toe (chapters 4 and 4b, "UCT" and "Testing a search").

- :mod:`.harness`: the published tic-tac-toe harness, reproduced exactly by the readable
  search and its numba twin (``python -m mctslib harness``);
- :mod:`.running_example`: chapter 1's trap position searched by flat Monte Carlo, flat UCB
  and UCT at every budget (``python -m mctslib.experiments.uct.running_example``);
- :mod:`.convergence_atlas`: for every tic-tac-toe position, the budget from which UCT's
  answer is right for good (``python -m mctslib.experiments.uct.convergence_atlas``).

Stored results: ``data/running_example.json``, ``data/convergence_atlas.json``.
"""
