"""mctslib: the library behind *mctsbook*, an interactive textbook on Monte Carlo Tree Search.

One folder per layer, bottom to top; a module imports only from its own layer
and the layers below it (``lint-imports`` checks this, see ``pyproject.toml``):

- root helpers, used by every layer: ``rng`` (the one seed helper), ``xorshift``,
  ``fixed_order`` (sums whose last bits are the same on every machine),
  ``progress`` (progress bars) and ``_checks`` (argument checks);
- ``games``: rules only (tic-tac-toe, subtraction, sum-to-15, Ultimate Tic-Tac-Toe,
  Goofspiel, matrix games), knowing nothing of search;
- ``fast``: numba kernels, the twins of the readable engines (leaves: they import
  only games and the root helpers);
- ``learners``: UCB1 and its step by hand, the bandit algorithms and their regret,
  the one-node simultaneous learners (decoupled UCB1, regret matching);
- ``search``: flat Monte Carlo, minimax, UCT, zero-sum solvers, backward induction,
  SM-MCTS and Smitsimax;
- ``play``: matches between any two players, score intervals, the SPRT;
- ``bots``: the Ultimate Tic-Tac-Toe bot and its SPEC, OpenSpiel's MCTS as a
  player, a local CodinGame referee;
- ``experiments``: the long experiments whose results are stored under ``data/``,
  and the published tic-tac-toe harness; ``views``: figures, live plots, boards
  and widgets (matplotlib and ipywidgets live here only);
- ``cli``: ``python -m mctslib``.

The names below are the ones a reader uses most, importable from the package
root (``from mctslib import UCTSearch``); ``import mctslib`` loads neither numba
nor matplotlib. Each function's docstring names the chapter that teaches it.
"""

from ._version import __version__
from .experiments.simultaneous.one_node import run_one_node
from .experiments.uct.harness import run_harness
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
from .games.matrix_games import MatrixGame, rock_paper_scissors, weighted_rock_paper_scissors
from .learners.bandits import (
    UCB1,
    BanditArms,
    BanditResult,
    EpsilonGreedy,
    Greedy,
    OptimisticGreedy,
    ThompsonSampling,
    UCB1Tuned,
    run_experiment,
)
from .learners.simultaneous import RegretMatchingPlayer, UCB1Player
from .learners.ucb1 import SQRT2, ucb1_bonus, ucb1_score, ucb1_step
from .play.arena import MatchResult, RandomPlayer, play_game, play_match
from .play.stats import games_for_width, score_interval
from .rng import make_rng, spawn_rngs
from .search.flat import FlatMCResult, find_traps, flat_monte_carlo, random_playout
from .search.minimax import (
    minimax_value,
    move_values,
    random_playout_value,
    reachable_states,
    winning_moves,
)
from .search.uct import UCTSearch, format_tree, robust_child
from .search.zero_sum import exploitability, solve_zero_sum
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
    "OptimisticGreedy",
    "RandomPlayer",
    "RegretMatchingPlayer",
    "SubtractionGame",
    "SumToFifteen",
    "ThompsonSampling",
    "TicTacToe",
    "UCB1Player",
    "UCB1Tuned",
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
