"""mctslib: the library behind *mctsbook*, an interactive textbook on Monte Carlo Tree Search.

Layers, bottom to top (nothing imports a layer above it):

- ``mctslib.rng``: the one helper that turns a seed into a random generator;
- ``mctslib.games``: rules of games (tic-tac-toe, ...), knowing nothing of search;
- ``mctslib.selection``, ``mctslib.bandits``, ``mctslib.flat``, ``mctslib.minimax``:
  selection rules, bandit algorithms, flat Monte Carlo and exact solvers;
- ``mctslib.plotting``, ``mctslib.widgets``, ``mctslib.progress``: figures, live plots,
  notebook widgets and progress bars (import them from their modules; they pull in
  matplotlib and ipywidgets).

Each function's docstring names the chapter that teaches it.
"""

__version__ = "0.1.0"

from .bandits import (
    UCB1,
    BanditArms,
    BanditResult,
    EpsilonGreedy,
    Greedy,
    run_experiment,
)
from .flat import FlatMCResult, find_traps, flat_monte_carlo, random_playout
from .games import DRAW, LOSS, WIN, GameState, TicTacToe
from .minimax import (
    minimax_value,
    move_values,
    random_playout_value,
    reachable_states,
    winning_moves,
)
from .rng import make_rng, spawn_rngs
from .selection import SQRT2, ucb1_bonus, ucb1_score, ucb1_step

__all__ = [
    "DRAW",
    "LOSS",
    "SQRT2",
    "UCB1",
    "WIN",
    "BanditArms",
    "BanditResult",
    "EpsilonGreedy",
    "FlatMCResult",
    "GameState",
    "Greedy",
    "TicTacToe",
    "__version__",
    "find_traps",
    "flat_monte_carlo",
    "make_rng",
    "minimax_value",
    "move_values",
    "random_playout",
    "random_playout_value",
    "reachable_states",
    "run_experiment",
    "spawn_rngs",
    "ucb1_bonus",
    "ucb1_score",
    "ucb1_step",
    "winning_moves",
]
