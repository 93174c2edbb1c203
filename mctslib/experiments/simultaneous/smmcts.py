"""How fast SM-MCTS and Smitsimax approach equilibrium on Goofspiel, measured exactly.

:func:`convergence_experiment` grows one search per method (SM-MCTS with
decoupled UCB1, SM-MCTS with regret matching, Smitsimax) and seed, and
measures the exact distance from equilibrium of what each has learned at
every checkpoint (:func:`mctslib.search.backward_induction.profile_exploitability`).
The chapter reruns it at a small budget; the command line runs the full one
and stores it::

    python -m mctslib.experiments.simultaneous.smmcts --out data/simultaneous/smmcts.json

Chapter "When both players move at once (simultaneous moves)".
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from itertools import pairwise
from pathlib import Path

import numpy as np

from ..._checks import check_int, check_real
from ...games.goofspiel import Goofspiel
from ...games.simultaneous_base import SimultaneousState
from ...learners.simultaneous import check_exploration
from ...learners.ucb1 import SQRT2
from ...search.backward_induction import profile_exploitability, solve_game
from ...search.minimax import check_budget
from ...search.simultaneous_search import MAX_ITERATIONS
from ...search.smmcts import SMMCTS

# --------------------------------------------------------------------------- experiment


#: What :func:`convergence_experiment` compares: SM-MCTS's two rules and Smitsimax.
METHODS = ("duct", "rm", "smitsimax")

#: Where ``python -m mctslib.experiments.simultaneous.smmcts`` stores the full run (relative to the repository).
DEFAULT_DATA = Path("data") / "simultaneous" / "smmcts.json"

#: The most cards: every measurement visits every state of the game exactly, and
#: 5 cards already have 32,826 states (6 cards about 1.2 million).
MAX_CARDS = 5


@dataclass
class ConvergenceResult:
    """Exact distance from equilibrium after growing searches to each checkpoint.

    Attributes
    ----------
    cards, scoring : the Goofspiel game.
    checkpoints, seeds, methods, c, exploration : the experiment's parameters.
    game_value : float
        Player 0's exact value of the game.
    uniform_distance : float
        Distance of the uniform profile (where every search starts).
    exploration_floor : float
        Distance of the equilibrium blended with ``exploration`` of uniform
        play at every state: what regret matching's exploration alone costs.
    blind_floor : float
        The smallest distance any profile of two *blind* strategies (a mix
        that depends only on the player's own earlier moves, like
        Smitsimax's) can have (:func:`mctslib.search.smitsimax.blind_floor`).
    distances : dict
        ``{method: [[distance at each checkpoint] for each seed]}`` in the
        game's payoff units.
    seconds : dict
        ``{method: wall seconds for all seeds, measurements included}``
        (varies from run to run and machine to machine).
    version : str
        The ``mctslib`` version that made the result.
    """

    cards: int
    scoring: str
    checkpoints: list[int]
    seeds: list[int]
    methods: list[str]
    c: float
    exploration: float
    game_value: float
    uniform_distance: float
    exploration_floor: float
    blind_floor: float
    distances: dict = field(default_factory=dict)
    seconds: dict = field(default_factory=dict)
    version: str = ""

    def median(self, method: str) -> np.ndarray:
        """The median distance over seeds at each checkpoint."""
        if not isinstance(method, str) or method not in self.distances:
            raise ValueError(f"method must be one of the methods this result measured "
                             f"({', '.join(self.distances)}), got {method!r}.")
        return np.median(np.asarray(self.distances[method]), axis=0)

    def format(self, digits: int = 3) -> str:
        """A plain-text table: median distance per method at each checkpoint (0 to 15 digits)."""
        digits = check_int("digits", digits, 0, 15)
        lines = [f"{'iterations':>10}" + "".join(f"{m:>11}" for m in self.methods)]
        for k, iterations in enumerate(self.checkpoints):
            row = "".join(f"{self.median(m)[k]:>11.{digits}f}" for m in self.methods)
            lines.append(f"{iterations:>10,}" + row)
        return "\n".join(lines)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1)

    @classmethod
    def from_json(cls, text: str) -> ConvergenceResult:
        """The result written by :meth:`to_json`; ValueError if ``text`` is not one."""
        try:
            return cls(**json.loads(text))
        except (TypeError, ValueError):
            raise ValueError("text must be a convergence result written by "
                             "ConvergenceResult.to_json().") from None

    @classmethod
    def load(cls, path=DEFAULT_DATA) -> ConvergenceResult:
        """Read a result stored by ``python -m mctslib.experiments.simultaneous.smmcts``."""
        try:
            text = Path(path).read_text()
        except TypeError:
            raise ValueError(f"path must be a file name, got {type(path).__name__}.") from None
        except (OSError, UnicodeDecodeError) as error:
            raise ValueError(f"cannot read the convergence result {path}: {error}.") from None
        try:
            return cls.from_json(text)
        except ValueError:
            raise ValueError(f"{path} does not hold a convergence result written by "
                             f"python -m mctslib.experiments.simultaneous.smmcts.") from None


def _make_search(method: str, root: SimultaneousState, c: float, exploration: float, seed):
    if method == "smitsimax":
        from ...search.smitsimax import (
            Smitsimax,
        )

        return Smitsimax(root, c=c, seed=seed)
    return SMMCTS(root, method, c=c, exploration=exploration, seed=seed)


def _check_experiment(checkpoints, seeds, methods) -> tuple[list[int], list[int], list[str]]:
    checkpoints = [check_int("each checkpoint", n, 1) for n in _sequence("checkpoints", checkpoints)]
    if not checkpoints or any(b <= a for a, b in pairwise(checkpoints)):
        raise ValueError(f"checkpoints must be increasing whole numbers >= 1, got {checkpoints}.")
    # Each search grows to the last checkpoint, in steps of at most that many iterations.
    check_budget("the last checkpoint", checkpoints[-1], 1, MAX_ITERATIONS)
    seeds = [check_int("each seed", s, 0) for s in _sequence("seeds", seeds)]
    if not seeds:
        raise ValueError("seeds must hold at least one seed.")
    methods = [methods] if isinstance(methods, str) else _sequence("methods", methods)
    if not methods or any(not isinstance(m, str) or m not in METHODS for m in methods):
        raise ValueError(f"methods must be chosen from {', '.join(METHODS)}, got {methods!r}.")
    return checkpoints, seeds, methods


def convergence_experiment(cards: int = 4, scoring: str = "points",
                           checkpoints: Sequence[int] = (100, 1000),
                           seeds: Sequence[int] = (0, 1, 2), methods: Sequence[str] = METHODS,
                           c: float = SQRT2, exploration: float = 0.1,
                           progress: bool = False) -> ConvergenceResult:
    """Exact distance from equilibrium of each method's profile as its tree grows.

    Parameters
    ----------
    cards, scoring :
        The Goofspiel game (see :class:`~mctslib.games.goofspiel.Goofspiel`),
        with 1 to :data:`MAX_CARDS` cards (the measurements are exact).
    checkpoints : sequence of int
        Increasing iteration counts at which to measure (one search per seed
        grows from one checkpoint to the next).
    seeds : sequence of int
        One search per method and seed, seeded with it.
    methods : sequence of str
        Any of ``"duct"``, ``"rm"`` (SM-MCTS's two rules) and ``"smitsimax"``.
    c, exploration :
        UCB1's constant (DUCT, Smitsimax) and regret matching's exploration.
    progress : bool
        Show a progress bar (see :mod:`mctslib.progress`).

    Returns
    -------
    ConvergenceResult

    Notes
    -----
    Pure Python: on 4-card Goofspiel SM-MCTS runs about 45-50 thousand
    iterations a second and Smitsimax about 20 thousand, and each exact
    measurement takes about 0.1 s. The chapter calls this with small
    budgets and reads the full run (``python -m mctslib.experiments.simultaneous.smmcts``) from
    :data:`DEFAULT_DATA`.
    """
    from ..._version import __version__
    from ...search.backward_induction import equilibrium_with_exploration, uniform_profile
    from ...search.smitsimax import blind_floor

    root = Goofspiel(cards, scoring)  # checks cards (1 to 13) and scoring
    cards = root.cards  # a plain int (numpy integers are refused by JSON)
    if root.cards > MAX_CARDS:
        raise ValueError(f"cards must be at most {MAX_CARDS} here: every measurement visits every "
                         f"state of the game exactly (5 cards: 32,826 states); got {cards}.")
    checkpoints, seeds, methods = _check_experiment(checkpoints, seeds, methods)
    c = check_real("c (UCB1's exploration constant)", c, 0.0)
    # Regret matching divides by the probability of the action played: it needs exploration > 0.
    exploration = (check_exploration(exploration) if "rm" in methods
                   else check_real("exploration", exploration, 0.0, 1.0))
    if not isinstance(progress, bool):
        raise ValueError(f"progress must be True or False, got {progress!r}.")
    solution = solve_game(root)
    result = ConvergenceResult(
        cards, scoring, checkpoints, seeds, methods, float(c), exploration, solution.value,
        profile_exploitability(root, uniform_profile),
        profile_exploitability(root, equilibrium_with_exploration(solution, exploration)),
        blind_floor(root), version=__version__)
    with _maybe_progress(progress, len(methods) * len(seeds) * checkpoints[-1]) as bar:
        for method in methods:
            start = time.perf_counter()
            result.distances[method] = [
                _distances(_make_search(method, root, c, exploration, seed), checkpoints, bar)
                for seed in seeds
            ]
            result.seconds[method] = time.perf_counter() - start
    return result


def _sequence(name: str, values) -> list:
    """``values`` as a list, or a sentence if it cannot be one (None, a number)."""
    try:
        return list(values)
    except TypeError:
        raise ValueError(f"{name} must be a sequence, got {type(values).__name__}.") from None


def _distances(search, checkpoints: list[int], bar) -> list[float]:
    """Grow one search to each checkpoint in turn and measure its exact distance there."""
    row = []
    for target in checkpoints:
        step = target - search.iterations
        search.run(step)
        bar.update(step)
        row.append(search.exploitability())
    return row


class _NoProgress:
    """Stands in for a progress bar when none is wanted."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, count: int) -> None:
        pass


def _maybe_progress(show: bool, total: int, description: str = "simultaneous-move searches"):
    """A progress bar over ``total`` iterations, or a stand-in that shows nothing."""
    if not show:
        return _NoProgress()
    from ...progress import progress_bar  # tqdm: only for people watching a long run

    return progress_bar(total, description, unit="it")


def _check_argv(argv) -> None:
    """``argv`` must be None (the command line) or a list of strings, as argparse expects."""
    if argv is not None and (isinstance(argv, (str, bytes)) or not isinstance(argv, Sequence)
                             or not all(isinstance(arg, str) for arg in argv)):
        raise ValueError(f"argv must be a list of strings (the command's arguments) or None, "
                         f"got {argv!r:.80}.")


def main(argv: Sequence[str] | None = None) -> None:
    """Run the full convergence experiment and store it as JSON (``python -m mctslib.experiments.simultaneous.smmcts``).

    ``argv`` is the command's arguments, a list of strings; None (the
    default) reads them from the command line, ``sys.argv[1:]``.
    """
    if argv is None:
        argv = sys.argv[1:]  # read here, so that whatever it holds is checked like a list given
    _check_argv(argv)
    parser = argparse.ArgumentParser(
        prog="python -m mctslib.experiments.simultaneous.smmcts",
        description="Grow DUCT, regret-matching SM-MCTS and Smitsimax on Goofspiel and store "
                    "their exact distance from equilibrium at each checkpoint as JSON.")
    parser.add_argument("--out", type=Path, default=DEFAULT_DATA,
                        help=f"where to write the JSON (default {DEFAULT_DATA})")
    parser.add_argument("--cards", type=int, default=4)
    parser.add_argument("--scoring", default="points", choices=("points", "win_loss"))
    parser.add_argument("--checkpoints", type=int, nargs="+",
                        default=[100, 1000, 10_000, 100_000, 1_000_000])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=METHODS)
    parser.add_argument("--c", type=float, default=SQRT2, help="UCB1's exploration constant")
    parser.add_argument("--exploration", type=float, default=0.1,
                        help="regret matching's share of uniform play")
    args = parser.parse_args(argv)
    try:
        result = convergence_experiment(args.cards, args.scoring, args.checkpoints, args.seeds,
                                        args.methods, args.c, args.exploration, progress=True)
    except ValueError as error:  # a sentence for the person at the terminal, no traceback
        parser.error(str(error))
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(result.to_json() + "\n")
    except OSError as error:
        parser.error(f"cannot write {args.out}: {error}")
    print(f"Goofspiel with {result.cards} cards ({result.scoring}): value {result.game_value:.3f}, "
          f"uniform {result.uniform_distance:.3f}, equilibrium + 10% noise "
          f"{result.exploration_floor:.3f}, blind floor {result.blind_floor:.3f}")
    print("median distance from equilibrium over seeds", result.seeds)
    print(result.format())
    print("seconds:", ", ".join(f"{m} {t:.0f}" for m, t in result.seconds.items()))
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
