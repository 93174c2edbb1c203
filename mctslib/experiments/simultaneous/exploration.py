"""Must a search take its exploring picks out of its final mix? Both answers measured exactly.

Regret matching and Exp3 mix a share ``gamma`` of uniform play into every choice they make,
so a node's visit counts (its *average strategy*, what Lisý et al.'s theorem speaks of) hold
about ``gamma / k`` of random picks per action. Where the game's equilibrium plays an action
with probability 0 (most of Goofspiel's decision states), those picks keep the reported
strategy away from the equilibrium however long the search runs.

:func:`exploration_removal_experiment` grows SM-MCTS with each rule on each seed and, at
every checkpoint, measures the exact NashConv of the *same* tree twice: its plain average
strategy (``profile("mix")``) and that strategy with the exploration share taken out of every
node's counts (``profile("mix", exploration_removed=True)``, see
:func:`mctslib.learners.simultaneous.without_exploration`). Nothing else differs, so the
difference is what the removal buys. The defaults repeat the chapter's stored run of regret
matching (``data/simultaneous/smmcts.json``: gamma 0.1, mean backup, seeds 0-4, to a
million iterations), whose "kept" column the tests check against that file, and add Exp3::

    python -m mctslib.experiments.simultaneous.exploration --out data/simultaneous/exploration_removed.json

Chapter 8, "Simultaneous moves in a whole game".
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from ..._checks import check_choice, check_int
from ..._version import __version__
from ...games.goofspiel import Goofspiel
from ...learners.simultaneous import check_exploration
from ...search.backward_induction import nash_conv
from ...search.minimax import check_budget
from ...search.simultaneous_search import MAX_ITERATIONS
from ...search.smmcts import BACKUPS, SMMCTS
from ..stored import dataclass_json, load_dataclass, write_and_report
from .smmcts import MAX_CARDS, _maybe_progress

__all__ = ["RULES", "ExplorationRemovalResult", "exploration_removal_experiment"]

#: The selection rules that explore on purpose (DUCT has no share to remove).
RULES = ("rm", "exp3")

#: Where the command stores the full run (relative to the repository).
DEFAULT_DATA = Path("data") / "simultaneous" / "exploration_removed.json"

CHECKPOINTS = (1_000, 10_000, 100_000, 1_000_000)
SEEDS = (0, 1, 2, 3, 4)


@dataclass
class ExplorationRemovalResult:
    """NashConv of each tree's average strategy with and without its exploration share.

    Attributes
    ----------
    cards : int
        The Goofspiel game (point scoring, prizes highest first); NashConv is in points.
    rules, exploration, backup, checkpoints, seeds : the experiment's parameters.
    with_exploration, without_exploration : dict
        ``{rule: [[NashConv at each checkpoint] for each seed]}`` of the plain average
        strategy and of the same strategy with the exploration share removed.
    seconds : dict
        ``{rule: wall seconds for all its seeds}`` (depends on the machine and its load).
    version, command : the library version and the command that makes the file.
    """

    cards: int
    rules: list
    exploration: float
    backup: str
    checkpoints: list
    seeds: list
    with_exploration: dict = field(default_factory=dict)
    without_exploration: dict = field(default_factory=dict)
    seconds: dict = field(default_factory=dict)
    version: str = ""
    command: str = ""

    def medians(self, rule: str, removed: bool) -> list[float]:
        """Median NashConv over the seeds at each checkpoint, exploration removed or not."""
        rule = check_choice("rule", rule, self.rules)
        table = self.without_exploration if removed else self.with_exploration
        return [statistics.median(row[k] for row in table[rule])
                for k in range(len(self.checkpoints))]

    def format(self) -> str:
        """A plain-text table: the medians with and without the exploration share."""
        lines = [(f"{self.cards}-card Goofspiel, exploration {self.exploration:g}, "
                 f"{self.backup} backup, median NashConv over seeds {self.seeds}: "
                 "as counted / exploration removed")]
        lines.append(f"{'iterations':>10}" + "".join(f"{rule:>20}" for rule in self.rules))
        for k, iterations in enumerate(self.checkpoints):
            cells = "".join(f"{self.medians(rule, False)[k]:>11.3f} / "
                            f"{self.medians(rule, True)[k]:<6.3f}" for rule in self.rules)
            lines.append(f"{iterations:>10,}{cells}")
        return "\n".join(lines)

    def to_json(self) -> str:
        return dataclass_json(self)

    @classmethod
    def load(cls, path=DEFAULT_DATA) -> ExplorationRemovalResult:
        """Read a result stored by ``python -m mctslib.experiments.simultaneous.exploration``."""
        return load_dataclass(cls, path, "an exploration-removal result written by python -m "
                                         "mctslib.experiments.simultaneous.exploration")


def exploration_removal_experiment(cards: int = 4, rules: Sequence[str] = RULES,
                                   exploration: float = 0.1, backup: str = "mean",
                                   checkpoints: Sequence[int] = CHECKPOINTS,
                                   seeds: Sequence[int] = SEEDS, progress: bool = False,
                                   command: str = "") -> ExplorationRemovalResult:
    """Grow SM-MCTS per rule and seed; at each checkpoint score both readings of the tree.

    Parameters
    ----------
    cards : int
        Goofspiel's cards, 2 to 5 (every measurement visits every state).
    rules : sequence of {"rm", "exp3"}
    exploration : float
        The rules' share of uniform play, in ``(0, 1]``.
    backup : {"mean", "sample"}
        See :class:`~mctslib.search.smmcts.SMMCTS` (default the mean backup, Lisý et al.'s
        SM-MCTS-A).
    checkpoints : sequence of int
        Increasing iteration counts at which to measure (each tree keeps growing).
    seeds : sequence of int
        One tree per rule and seed (``SMMCTS(..., seed=seed)``).
    progress : bool
        Show a progress bar (the command line does).
    command : str
        Stored with the result (how to make the file again).

    Returns
    -------
    ExplorationRemovalResult
    """
    cards = check_int("cards", cards, 2, MAX_CARDS)
    rules = _distinct("rules", rules, lambda rule: check_choice("each rule", rule, RULES))
    exploration = check_exploration(exploration)
    backup = check_choice("backup", backup, BACKUPS)
    checkpoints = _distinct("checkpoints", checkpoints,
                            lambda point: check_budget("each checkpoint", point, 1,
                                                       MAX_ITERATIONS))
    if any(b <= a for a, b in pairwise(checkpoints)):
        raise ValueError(f"checkpoints must increase, got {checkpoints}.")
    seeds = _distinct("seeds", seeds, lambda seed: check_int("each seed", seed, 0))
    root = Goofspiel(cards)
    result = ExplorationRemovalResult(cards, rules, exploration, backup, checkpoints, seeds,
                                      version=__version__, command=command)
    with _maybe_progress(progress, len(rules) * len(seeds) * checkpoints[-1],
                         "SM-MCTS iterations") as bar:
        for rule in rules:
            start = time.perf_counter()
            kept, removed = [], []
            for seed in seeds:
                search = SMMCTS(root, rule, exploration=exploration, backup=backup, seed=seed)
                kept_row, removed_row = [], []
                for target in checkpoints:
                    step = target - search.iterations
                    search.run(step)
                    bar.update(step)
                    kept_row.append(nash_conv(root, search.profile("mix")))
                    removed_row.append(nash_conv(root, search.profile(
                        "mix", exploration_removed=True)))
                kept.append(kept_row)
                removed.append(removed_row)
            result.with_exploration[rule] = kept
            result.without_exploration[rule] = removed
            result.seconds[rule] = time.perf_counter() - start
    return result


def _distinct(name: str, values, check) -> list:
    """``values`` checked one by one, as a non-empty list without repeats."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise ValueError(f"{name} must be a sequence, got {values!r:.80}.")
    checked = [check(value) for value in values]
    if not checked or len(set(checked)) != len(checked):
        raise ValueError(f"{name} must hold at least one value and no repeats, got {checked}.")
    return checked


def main(argv: Sequence[str] | None = None) -> None:
    """Run the experiment and store it (``python -m mctslib.experiments.simultaneous.exploration``)."""
    if argv is not None and (isinstance(argv, (str, bytes)) or not isinstance(argv, Sequence)
                             or not all(isinstance(arg, str) for arg in argv)):
        raise ValueError(f"argv must be a list of strings (the command's arguments) or None, "
                         f"got {argv!r:.80}.")
    parser = argparse.ArgumentParser(
        prog="python -m mctslib.experiments.simultaneous.exploration",
        description="Grow SM-MCTS with regret matching and Exp3 on Goofspiel and store the "
                    "exact NashConv of each tree's average strategy with and without its "
                    "exploration share.")
    parser.add_argument("--out", type=Path, default=DEFAULT_DATA,
                        help=f"where to write the JSON (default {DEFAULT_DATA})")
    parser.add_argument("--cards", type=int, default=4)
    parser.add_argument("--rules", nargs="+", default=list(RULES), choices=RULES)
    parser.add_argument("--exploration", type=float, default=0.1)
    parser.add_argument("--backup", default="mean", choices=BACKUPS)
    parser.add_argument("--checkpoints", type=int, nargs="+", default=list(CHECKPOINTS))
    parser.add_argument("--seeds", type=int, nargs="+", default=list(SEEDS))
    args = parser.parse_args(argv)
    command = "python -m mctslib.experiments.simultaneous.exploration " + " ".join(
        argv if argv is not None else sys.argv[1:])
    try:
        result = exploration_removal_experiment(args.cards, args.rules, args.exploration,
                                                args.backup, args.checkpoints, args.seeds,
                                                progress=True, command=command.strip())
    except ValueError as error:  # a sentence for the person at the terminal, no traceback
        parser.error(str(error))
    try:
        write_and_report(result, args.out)
    except OSError as error:
        parser.error(f"cannot write {args.out}: {error}")


if __name__ == "__main__":
    main()
