"""mctslib: the library behind *mctsbook*, an interactive textbook on Monte Carlo Tree Search.

Layers, bottom to top (nothing imports a layer above it):

- ``mctslib.rng``: the one helper that turns a seed into a random generator;
- ``mctslib.games``: rules of games (tic-tac-toe, ...), knowing nothing of search;
- ``mctslib.selection``, ``mctslib.bandits``, ``mctslib.flat``, ``mctslib.minimax``,
  ``mctslib.uct``: selection rules, bandit algorithms, flat Monte Carlo, exact solvers
  and UCT; ``mctslib.fast``: numba twins of the readable engines;
- ``mctslib.matrix_games``, ``mctslib.simultaneous``, ``mctslib.backward_induction``,
  ``mctslib.smmcts``, ``mctslib.smitsimax``: games where both players move at once;
- ``mctslib.bots``: the Ultimate Tic-Tac-Toe bot (numba UCT with its options; import it
  from its module, it loads numba);
- ``mctslib.arena``, ``mctslib.stats``, ``mctslib.harness``, ``mctslib.cli``: matches,
  confidence intervals, the published tic-tac-toe harness, ``python -m mctslib``;
- ``mctslib.experiments``: the long experiments whose results are stored under ``data/``;
- ``mctslib.plotting``, ``mctslib.widgets``, ``mctslib.progress``: figures, live plots,
  notebook widgets and progress bars (import them from their modules; they pull in
  matplotlib and ipywidgets).

Each function's docstring names the chapter that teaches it.
"""

__version__ = "0.1.0"

from .arena import MatchResult, RandomPlayer, play_game, play_match
from .bandits import (
    UCB1,
    BanditArms,
    BanditResult,
    EpsilonGreedy,
    Greedy,
    run_experiment,
)
from .flat import FlatMCResult, find_traps, flat_monte_carlo, random_playout
from .games import (
    DRAW,
    LOSS,
    WIN,
    GameState,
    SubtractionGame,
    SumToFifteen,
    TicTacToe,
    UltimateTicTacToe,
)
from .games.goofspiel import Goofspiel
from .harness import run_harness
from .matrix_games import (
    MatrixGame,
    exploitability,
    rock_paper_scissors,
    solve_zero_sum,
    weighted_rock_paper_scissors,
)
from .minimax import (
    minimax_value,
    move_values,
    random_playout_value,
    reachable_states,
    winning_moves,
)
from .rng import make_rng, spawn_rngs
from .selection import SQRT2, ucb1_bonus, ucb1_score, ucb1_step
from .simultaneous import RegretMatchingPlayer, UCB1Player, run_one_node
from .stats import games_for_width, score_interval
from .uct import UCTSearch, format_tree, robust_child
from .xorshift import XorShift64

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
    "Goofspiel",
    "Greedy",
    "MatchResult",
    "MatrixGame",
    "RandomPlayer",
    "RegretMatchingPlayer",
    "SubtractionGame",
    "SumToFifteen",
    "TicTacToe",
    "UCB1Player",
    "UCTSearch",
    "UltimateTicTacToe",
    "XorShift64",
    "__version__",
    "exploitability",
    "find_traps",
    "flat_monte_carlo",
    "format_tree",
    "games_for_width",
    "make_rng",
    "minimax_value",
    "move_values",
    "play_game",
    "play_match",
    "random_playout",
    "random_playout_value",
    "reachable_states",
    "robust_child",
    "rock_paper_scissors",
    "run_experiment",
    "run_harness",
    "run_one_node",
    "score_interval",
    "solve_zero_sum",
    "spawn_rngs",
    "ucb1_bonus",
    "ucb1_score",
    "ucb1_step",
    "weighted_rock_paper_scissors",
    "winning_moves",
]
