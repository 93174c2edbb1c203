"""Head-to-head Goofspiel matches between simultaneous-move searches, and mix vs max.

Being hard to exploit (a small NashConv, :mod:`mctslib.experiments.simultaneous.tuning`)
and winning more games against a given opponent are different goals: an
equilibrium strategy guarantees the game value (0 in symmetric Goofspiel)
against everybody, but a strategy that gives up some safety can beat a
particular opponent by more. So the chapter also plays games.

A *bot* is a search (a key of :data:`mctslib.experiments.simultaneous.tuning.METHODS`),
its parameter value and a final-move rule (Tak, Lanctot and Winands 2014):
``"mix"`` samples the root's visit-count mix, ``"max"`` plays the root's most
chosen action. At every round where it has a choice, each bot grows a fresh
search of ``iterations`` iterations from the current state (both bids of every
earlier round are known to both) and plays its final-move rule; the last
round is forced. Games come in pairs with the same seed and the seats
swapped. A match reports the first bot's score (win 1, tie on points 0.5,
loss 0) with its Wilson 95% interval (:func:`mctslib.play.stats.score_interval`)
and its mean point difference with a normal 95% interval. Random numbers: a
bot's search in round ``r`` of game pair ``g`` as player ``p`` is seeded with
``(seed, g, r, p)``, and its "mix" draw comes from the same generator after
the search, so every game can be replayed alone.

The command line plays the chapter's matches with the best parameters stored
by the tuning run and writes them::

    python -m mctslib.experiments.simultaneous.matches --out data/simultaneous/matches.json

Chapter "When both players move at once (simultaneous moves)".
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ..._checks import check_int
from ...fixed_order import mean, sample_variance
from ...games.goofspiel import Goofspiel
from ...play.stats import pair_score_interval, score_interval
from ...search.smmcts import check_final
from .tuning import METHODS, TuningResult, make_search

__all__ = ["Bot", "MatchResult", "PooledMatch", "bot_move", "match", "pair_counts", "play_game",
           "pool_matches", "tuned_bot"]

#: Where ``python -m mctslib.experiments.simultaneous.matches`` stores its matches.
DEFAULT_DATA = Path("data") / "simultaneous" / "matches.json"


@dataclass(frozen=True)
class Bot:
    """A search bot for Goofspiel: method, parameter value, final-move rule.

    ``method`` is a key of :data:`mctslib.experiments.simultaneous.tuning.METHODS`,
    ``value`` its parameter (``c`` or the exploration share), ``final``
    ``"mix"`` or ``"max"``.
    """

    method: str
    value: float
    final: str = "mix"

    def __post_init__(self):
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, got {self.method!r}.")
        check_final(self.final)

    @property
    def label(self) -> str:
        return f"{self.method}({self.value:g},{self.final})"


def tuned_bot(tuning: TuningResult, method: str, iterations: int, final: str = "mix") -> Bot:
    """``method`` with the best value the tuning found at the largest budget <= ``iterations``."""
    budgets = tuning.budgets
    below = [k for k, b in enumerate(budgets) if b <= iterations] or [0]
    return Bot(method, tuning.best[method][below[-1]], final)


def bot_move(bot: Bot, state: Goofspiel, player: int, iterations: int, rng: np.random.Generator):
    """The bid ``bot`` makes as ``player`` at ``state`` after ``iterations`` iterations."""
    actions = state.legal_actions(player)
    if len(actions) == 1:  # forced: no search
        return actions[0]
    search = make_search(bot.method, bot.value, state, rng).run(iterations)
    return search.root_move(player, bot.final, float(rng.random()))


def play_game(bot0: Bot, bot1: Bot, iterations: int, seed: int, pair: int,
              cards: int = 4) -> Goofspiel:
    """One game, ``bot0`` as player 0; returns the final state (its ``payoff()`` is player 0's)."""
    state = Goofspiel(cards)
    while not state.is_terminal():
        bids = tuple(bot_move(bot, state, player, iterations,
                              np.random.default_rng([seed, pair, state.round, player]))
                     for player, bot in enumerate((bot0, bot1)))
        state = state.play(bids)
    return state


@dataclass
class MatchResult:
    """A match: the first bot's results over game pairs (both seats per pair).

    ``differences`` holds the first bot's point difference in every game
    (pair by pair, first bot as player 0 then as player 1).
    """

    first: str
    second: str
    iterations: int
    cards: int
    seed: int
    differences: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def games(self) -> int:
        return len(self.differences)

    def counts(self) -> tuple[int, int, int]:
        """The first bot's wins, ties and losses (on points)."""
        wins = sum(d > 0 for d in self.differences)
        ties = sum(d == 0 for d in self.differences)
        return wins, ties, self.games - wins - ties

    def score(self) -> tuple[float, float, float]:
        """First bot's score and Wilson 95% interval (a tie is half a win)."""
        return score_interval(*self.counts())

    def points(self) -> tuple[float, float, float]:
        """Mean point difference and a normal 95% interval (games of a pair count separately)."""
        centre = mean(self.differences)
        half = 1.96 * math.sqrt(sample_variance(self.differences) / self.games)
        return centre, centre - half, centre + half

    def format(self) -> str:
        wins, ties, losses = self.counts()
        score, low, high = self.score()
        centre, p_low, p_high = self.points()
        return (f"{self.first} vs {self.second} at {self.iterations:,} it/move: {self.games} games "
                f"+{wins} ={ties} -{losses}, score {score:.3f} [{low:.3f}, {high:.3f}], points "
                f"{centre:+.2f} [{p_low:+.2f}, {p_high:+.2f}]")


def match(first: Bot, second: Bot, iterations: int, pairs: int, seed: int = 0,
          cards: int = 4) -> MatchResult:
    """Play ``pairs`` pairs of games (seats swapped within a pair) between two bots.

    Parameters
    ----------
    first, second : Bot
    iterations : int
        Iterations each bot's search grows per move (>= 1).
    pairs : int
        Game pairs (``2 * pairs`` games).
    seed : int
        The match's seed; pair ``g`` uses ``(seed, g, round, player)``.
    cards : int
        Goofspiel's cards (point scoring, prizes highest first).
    """
    iterations = check_int("iterations", iterations, 1, 10_000_000)
    pairs = check_int("pairs", pairs, 1, 1_000_000)
    seed = check_int("seed", seed, 0)
    result = MatchResult(first.label, second.label, iterations, cards, seed)
    start = time.perf_counter()
    for pair in range(pairs):
        as_zero = play_game(first, second, iterations, seed, pair, cards).payoff()
        as_one = play_game(second, first, iterations, seed, pair, cards).payoff()
        result.differences += [as_zero, -as_one]
    result.seconds = time.perf_counter() - start
    return result


#: The searches that meet head to head (each at its tuned value).
HEAD_TO_HEAD = ("duct", "rm", "exp3", "smitsimax")


def _one(task):
    first, second, iterations, pairs, seed, cards = task
    return match(Bot(**first), Bot(**second), iterations, pairs, seed, cards)


def main(argv: Sequence[str] | None = None) -> None:
    """Play the chapter's matches and store them (``python -m mctslib.experiments.simultaneous.matches``)."""
    parser = argparse.ArgumentParser(
        prog="python -m mctslib.experiments.simultaneous.matches",
        description="Head-to-head Goofspiel matches of the tuned searches, and each search's "
                    "mix vs max final-move rule, stored as JSON.")
    parser.add_argument("--out", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--tuning", type=Path, default=Path("data/simultaneous/tuning.json"))
    parser.add_argument("--iterations", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--pairs", type=int, nargs="+", default=[200, 50],
                        help="game pairs per match at each iteration budget")
    parser.add_argument("--methods", nargs="+", default=list(HEAD_TO_HEAD),
                        choices=list(METHODS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    if len(args.pairs) != len(args.iterations):
        parser.error("give one --pairs value per --iterations value.")
    tuning = TuningResult.load(args.tuning)
    tasks = []
    for iterations, pairs in zip(args.iterations, args.pairs):
        bots = {m: tuned_bot(tuning, m, iterations) for m in args.methods}
        for i, a in enumerate(args.methods):
            for b in args.methods[i + 1:]:
                tasks.append((asdict(bots[a]), asdict(bots[b]), iterations, pairs, args.seed, 4))
        for m in args.methods:
            tasks.append((asdict(bots[m]), asdict(Bot(m, bots[m].value, "max")), iterations,
                          pairs, args.seed, 4))
    start = time.perf_counter()
    if args.workers > 1:
        from ...play.cluster import process_pool

        with process_pool(args.workers) as pool:
            results = list(pool.map(_one, tasks))
    else:
        results = [_one(task) for task in tasks]
    for result in results:
        print(result.format(), flush=True)
    command = "python -m mctslib.experiments.simultaneous.matches " + " ".join(
        argv if argv is not None else __import__("sys").argv[1:])
    from ..._version import __version__

    record = {"command": command.strip(), "version": __version__, "tuning": str(args.tuning),
              "seconds": time.perf_counter() - start,
              "matches": [asdict(r) for r in results]}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(record, indent=1) + "\n")
    print(f"written to {args.out}")


def load_matches(path=DEFAULT_DATA) -> list[MatchResult]:
    """The matches stored by ``python -m mctslib.experiments.simultaneous.matches``."""
    try:
        record = json.loads(Path(path).read_text())
        return [MatchResult(**m) for m in record["matches"]]
    except (OSError, KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{path} does not hold matches written by python -m "
                         f"mctslib.experiments.simultaneous.matches ({error}).") from None


def pair_counts(differences) -> list[int]:
    """Pentanomial counts of a match: game pairs in which the first bot scored 0, 0.5, 1, 1.5, 2.

    ``differences`` are the first bot's point differences, pair by pair (games ``2k`` and
    ``2k + 1`` share a seed, seats swapped); a win counts 1, a tie on points 0.5. Chapter
    "When both players move at once (simultaneous moves)".
    """
    if len(differences) % 2:
        raise ValueError(f"differences must come in game pairs, got {len(differences)} games.")
    counts = [0] * 5
    for game_a, game_b in zip(differences[::2], differences[1::2]):
        points = sum(1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d in (game_a, game_b))
        counts[int(2 * points)] += 1
    return counts


@dataclass(frozen=True)
class PooledMatch:
    """One match pooled over stored runs that differ only in their seed.

    ``differences`` are the runs' point differences one after the other (pairs stay
    pairs); ``seeds`` the runs' seeds in that order and ``pairs_per_seed`` how many game
    pairs each run contributed.
    """

    first: str
    second: str
    iterations: int
    cards: int
    seeds: tuple
    pairs_per_seed: tuple
    differences: tuple

    @property
    def pairs(self) -> int:
        return len(self.differences) // 2

    def pair_counts(self) -> list[int]:
        return pair_counts(self.differences)

    def score(self) -> tuple[float, float, float]:
        """First bot's score and normal 95% interval over game pairs (``pair_score_interval``)."""
        return pair_score_interval(self.pair_counts())

    def points(self) -> tuple[float, float, float]:
        """Mean point difference per game and a normal 95% interval over game pairs."""
        per_pair = [(a + b) / 2 for a, b in zip(self.differences[::2], self.differences[1::2])]
        centre = mean(per_pair)
        half = 1.96 * math.sqrt(sample_variance(per_pair) / len(per_pair))
        return centre, centre - half, centre + half


def pool_matches(*runs: Sequence[MatchResult], iterations: int | None = None) -> list[PooledMatch]:
    """Pool the matches of several stored runs, match by match (same bots, budget and game).

    Each run is a list of :class:`MatchResult` (as :func:`load_matches` returns). A match
    is pooled when every run holds it with the same bot labels (so the same tuned values and
    final-move rules), the same ``iterations`` and ``cards``, and the runs' seeds are all
    different (otherwise the same games would count twice). ``iterations`` keeps only that
    budget. Matches in the first run that another run lacks raise ``ValueError``. Chapter
    "When both players move at once (simultaneous moves)".
    """
    if len(runs) < 2:
        raise ValueError(f"pool_matches needs at least two runs, got {len(runs)}.")
    if iterations is not None:
        iterations = check_int("iterations", iterations, 1)
    pooled = []
    for first_run_match in runs[0]:
        if iterations is not None and first_run_match.iterations != iterations:
            continue
        key = (first_run_match.first, first_run_match.second, first_run_match.iterations,
               first_run_match.cards)
        parts = []
        for run in runs:
            found = [m for m in run if (m.first, m.second, m.iterations, m.cards) == key]
            if len(found) != 1:
                raise ValueError(f"{key[0]} vs {key[1]} at {key[2]:,} iterations: expected one "
                                 f"such match in every run, found {len(found)} in one.")
            parts.append(found[0])
        seeds = tuple(m.seed for m in parts)
        if len(set(seeds)) != len(seeds):
            raise ValueError(f"{key[0]} vs {key[1]}: runs share a seed ({seeds}), so they hold "
                             f"the same games; pool runs with different seeds only.")
        differences = tuple(d for m in parts for d in m.differences)
        pair_counts(differences)  # checks that every run holds whole pairs
        pooled.append(PooledMatch(*key, seeds, tuple(m.games // 2 for m in parts), differences))
    return pooled


if __name__ == "__main__":
    main()
