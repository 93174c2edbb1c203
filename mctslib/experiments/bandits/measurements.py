"""Chapter 2's two multi-seed measurements, stored under ``data/bandits/``.

**The c sweep** (:func:`run_c_sweep`). UCB1 with seven exploration constants,
``c = sqrt(2) * 2**(k/2)`` for ``k = -6 .. 0`` (0.177 to 1.414), plays the
chapter's five arms that win, draw or lose (:data:`SWEEP_WIN_PROBS`,
:data:`SWEEP_DRAW_PROBS`), 1,000 runs each, read after 1,000, 10,000 and
100,000 pulls. Every constant meets the same luck on every arm (common random
numbers, :func:`mctslib.learners.bandits.run_experiment`), and UCB1 makes no
random choice of its own, so the first ``h`` pulls of a longer run are exactly
the run of ``h`` pulls: the three horizons are three readings of one set of runs.
Stored per horizon and constant: the mean regret with its 95% half-width, the
median, 99th percentile and worst run, and how many runs end on a wrong arm (their
most pulled arm is not the best; ``wrong_arm``, stored as ``stuck`` by files written before
the name changed, which :func:`load_c_sweep` still reads); and the mean regret curve with its 10th-90th percentile band
at the longest horizon, for the chapter's figure.

**The best move** (:func:`run_best_move`). Chapter 1's opening ``XO./.../...``,
X to move: seven legal moves, and the move with the highest random-playout value
is the centre, 4 (0.858, the corner 6 next at 0.783). A random playout after a
move is one draw from that move's exact chances of a win, a draw and a loss for X
(:func:`mctslib.search.minimax.random_playout_outcomes`), so each move is an arm
of :class:`~mctslib.learners.bandits.BanditArms` with those chances, and flat UCB
on the position (:func:`mctslib.search.flat_ucb.flat_ucb`: every move once in
move order, then UCB1, the most pulled move, ties to the first) is UCB1 on these
arms read by its most pulled arm. For budgets of 70 to 2,100 playouts (10 to
300 per move) it stores how many of 4,000 seeds play the centre with ``c =
sqrt(2)`` and with ``c = 0.5``, and, for flat Monte Carlo with the same budget,
the exact chance (:func:`mctslib.search.flat.choice_probabilities`, no seeds).
``tests/test_bandits_measurements.py`` checks flat UCB with real playouts
against the stored chances.

Regenerate both (or one, ``--only c_sweep`` / ``--only best_move``) with::

    python -m mctslib.experiments.bandits.measurements

:func:`load_c_sweep` and :func:`load_best_move` read the stored files back;
:func:`check_c_sweep` and :func:`check_best_move` re-run the shortest horizon or
smallest budget in full and compare. Chapter 2.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ..._checks import check_choice, check_int
from ..._version import __version__
from ...fixed_order import mean as fixed_order_mean
from ...fixed_order import sample_variance
from ...games.tictactoe import TicTacToe
from ...learners.bandits import UCB1, BanditArms, run_experiment
from ...learners.ucb1 import SQRT2
from ...search.flat import choice_probabilities
from ...search.minimax import random_playout_move_values, random_playout_outcomes

__all__ = [
    "BEST_MOVE_PATH",
    "C_SWEEP_PATH",
    "BestMove",
    "CSweep",
    "best_move_arms",
    "check_best_move",
    "check_c_sweep",
    "load_best_move",
    "load_c_sweep",
    "run_best_move",
    "run_c_sweep",
]

DATA = Path(__file__).resolve().parents[3] / "data" / "bandits"
C_SWEEP_PATH = DATA / "c_sweep.json"
BEST_MOVE_PATH = DATA / "best_move.json"
COMMAND = "python -m mctslib.experiments.bandits.measurements"

#: The chapter's arms that win, draw or lose; arm 3 is the best (mean 0.60 on the 0..1 scale).
SWEEP_WIN_PROBS = (0.20, 0.35, 0.10, 0.45, 0.30)
SWEEP_DRAW_PROBS = (0.50, 0.30, 0.60, 0.30, 0.20)
#: sqrt(2) * 2**(k/2), k = -6 .. 0: each constant sqrt(2) times the previous one.
SWEEP_C = tuple(SQRT2 * 2.0 ** (k / 2) for k in range(-6, 1))
SWEEP_HORIZONS = (1_000, 10_000, 100_000)
SWEEP_RUNS = 1_000
SWEEP_SEED = 2024
#: Checkpoints kept of the regret curves: about this many, log-spaced (plus the last).
CURVE_POINTS = 120

#: Chapter 1's opening: X took a corner, O the edge next to it; X to move.
OPENING = "XO./.../..."
BEST_MOVE_PER_MOVE = (4, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300)
BEST_MOVE_C = (SQRT2, 0.5)
BEST_MOVE_RUNS = 4_000
BEST_MOVE_SEED = 2026

#: The most runs or seeds a command accepts (each is a row of numbers in memory).
MAX_RUNS = 1_000_000


# ----------------------------------------------------------------------- the c sweep


@dataclass(frozen=True)
class CSweep:
    """The stored c sweep (see the module docstring); ``tails[str(horizon)][k]`` is a dict
    with ``mean``, ``half_width``, ``median``, ``p99``, ``worst`` and ``wrong_arm`` (runs
    whose most pulled arm is not the best) for ``c_values[k]``; ``curve_*[k]`` is constant ``k``'s regret curve at ``curve_pulls``."""

    win_probs: list
    draw_probs: list
    c_values: list
    runs: int
    seed: int
    horizons: list
    tails: dict
    curve_pulls: list
    curve_mean: list
    curve_low: list
    curve_high: list
    version: str
    seconds: float

    def row(self, horizon: int, c_index: int) -> dict:
        """The tail statistics of constant ``c_values[c_index]`` after ``horizon`` pulls."""
        if horizon not in self.horizons:
            raise ValueError(f"horizon must be one of {self.horizons}, got {horizon!r}.")
        return self.tails[str(horizon)][c_index]

    def format(self) -> str:
        lines = []
        for horizon in self.horizons:
            lines.append(f"after {horizon:,} pulls ({self.runs:,} runs): c, mean +/- 95%, "
                         "median, 99th percentile, worst, runs on a wrong arm")
            for c, row in zip(self.c_values, self.tails[str(horizon)]):
                lines.append(f"  {c:6.3f} {row['mean']:9.1f} +/- {row['half_width']:5.1f} "
                             f"{row['median']:9.1f} {row['p99']:9.1f} {row['worst']:9.1f} "
                             f"{row['wrong_arm']:5d}")
        return "\n".join(lines)


def sweep_arms() -> BanditArms:
    """The c sweep's five arms (win, draw or lose)."""
    return BanditArms(SWEEP_WIN_PROBS, SWEEP_DRAW_PROBS)


def _tails(result) -> dict:
    regret = result.final_regret
    half_width = 1.96 * math.sqrt(sample_variance(regret) / regret.size)
    wrong_arm = int(np.count_nonzero(~result.best_arms[result.most_pulled_arm]))
    return {"mean": fixed_order_mean(regret), "half_width": half_width,
            "median": float(np.median(regret)), "p99": float(np.percentile(regret, 99)),
            "worst": float(regret.max()), "wrong_arm": wrong_arm}


def _sweep_at(horizon: int, runs: int, seed) -> list:
    return run_experiment(sweep_arms(), [UCB1(c) for c in SWEEP_C], runs=runs, pulls=horizon,
                          seed=seed, engine="numba")


def run_c_sweep(runs: int = SWEEP_RUNS, horizons=SWEEP_HORIZONS, seed=SWEEP_SEED) -> CSweep:
    """Run the c sweep (about a minute at the stored size); see the module docstring."""
    runs = check_int("runs", runs, 1, MAX_RUNS)
    horizons = sorted(check_int("horizons[i]", h, 1, 10_000_000) for h in horizons)
    if not horizons:
        raise ValueError("horizons must hold at least one number of pulls.")
    started = time.perf_counter()
    tails, longest = {}, None
    for horizon in horizons:
        results = _sweep_at(horizon, runs, seed)
        tails[str(horizon)] = [_tails(result) for result in results]
        longest = results
    pulls = longest[0].pulls
    wanted = np.unique(np.concatenate([np.rint(np.geomspace(1, pulls[-1], CURVE_POINTS)),
                                       [pulls[-1]]]))
    keep = np.unique(np.searchsorted(pulls, wanted).clip(0, pulls.size - 1))
    return CSweep(
        win_probs=list(SWEEP_WIN_PROBS), draw_probs=list(SWEEP_DRAW_PROBS),
        c_values=list(SWEEP_C), runs=runs, seed=seed, horizons=horizons, tails=tails,
        curve_pulls=pulls[keep].tolist(),
        curve_mean=[result.mean_regret[keep].tolist() for result in longest],
        curve_low=[result.regret_low[keep].tolist() for result in longest],
        curve_high=[result.regret_high[keep].tolist() for result in longest],
        version=__version__, seconds=round(time.perf_counter() - started, 1))


def load_c_sweep(path=C_SWEEP_PATH) -> CSweep:
    """Read the stored c sweep, or raise ValueError with a sentence saying how to make it.

    Files written before the column was renamed call ``wrong_arm`` ``stuck``; both are read.
    """
    stored = _read(path, "the c sweep", "c_sweep")
    for rows in (stored.get("tails", {}) if isinstance(stored, dict) else {}).values():
        for row in rows:
            if "stuck" in row and "wrong_arm" not in row:
                row["wrong_arm"] = row.pop("stuck")
    return CSweep(**stored)


def check_c_sweep(stored: CSweep) -> None:
    """Re-run the stored sweep's shortest horizon in full; AssertionError if anything differs."""
    horizon = min(stored.horizons)
    fresh = [_tails(result) for result in _sweep_at(horizon, stored.runs, stored.seed)]
    assert fresh == stored.tails[str(horizon)], (
        f"the c sweep after {horizon:,} pulls differs from the stored one; regenerate it with "
        f"{COMMAND} --only c_sweep")


# ------------------------------------------------------------------------ best move


@dataclass(frozen=True)
class BestMove:
    """The stored best-move measurement (see the module docstring).

    ``outcomes[i]`` holds the exact chances (win, draw, loss) for X of a random playout
    after ``moves[i]``; ``flat_mc[j]`` is flat Monte Carlo's exact chance of playing
    ``best_move`` with ``budgets[j]`` playouts; ``flat_ucb_correct[k][j]`` is how many of
    the ``runs`` seeds of flat UCB with ``c_values[k]`` play it.
    """

    position: str
    moves: list
    best_move: int
    outcomes: list
    budgets: list
    runs: int
    seed: int
    flat_mc: list
    c_values: list
    flat_ucb_correct: list
    version: str
    seconds: float

    def flat_ucb_share(self, c_index: int) -> list:
        """The share of seeds on which flat UCB with ``c_values[c_index]`` plays the best move."""
        return [count / self.runs for count in self.flat_ucb_correct[c_index]]

    def format(self) -> str:
        names = "".join(f"  flat UCB c = {c:.3g}" for c in self.c_values)
        lines = [(f"{self.position}: chance of playing move {self.best_move} "
                  f"({self.runs:,} seeds for flat UCB; flat Monte Carlo exact)"),
                 f"{'budget':>7}  flat MC{names}"]
        for j, budget in enumerate(self.budgets):
            shares = "".join(f"{self.flat_ucb_correct[k][j] / self.runs:>18.3f}"
                             for k in range(len(self.c_values)))
            lines.append(f"{budget:>7,}  {self.flat_mc[j]:7.3f}{shares}")
        return "\n".join(lines)


def best_move_arms(position: str = OPENING) -> tuple[tuple, BanditArms, int]:
    """``(moves, arms, best arm)`` of a tic-tac-toe position: each legal move an arm that
    pays what a random playout after it pays the player to move (its exact chances)."""
    state = TicTacToe.from_string(position)
    moves = tuple(state.legal_moves())
    mover = state.player_to_move
    outcomes = [random_playout_outcomes(state.play(move), mover) for move in moves]
    arms = BanditArms([win for win, _, _ in outcomes], [draw for _, draw, _ in outcomes])
    values = random_playout_move_values(state)
    best = max(range(len(moves)), key=lambda i: values[moves[i]])  # first of equal values
    return moves, arms, best


def _flat_ucb_correct(arms, best, budgets, runs, seed) -> list:
    counts = []
    for c in BEST_MOVE_C:
        per_budget = []
        for budget in budgets:
            (result,) = run_experiment(arms, [UCB1(c)], runs=runs, pulls=budget, seed=seed,
                                       engine="numba")
            per_budget.append(int(np.count_nonzero(result.most_pulled_arm == best)))
        counts.append(per_budget)
    return counts


def run_best_move(runs: int = BEST_MOVE_RUNS, per_move=BEST_MOVE_PER_MOVE,
                  seed=BEST_MOVE_SEED) -> BestMove:
    """Run the best-move measurement (seconds at the stored size); see the module docstring."""
    runs = check_int("runs", runs, 1, MAX_RUNS)
    per_move = [check_int("per_move[i]", n, 1, 100_000) for n in per_move]
    started = time.perf_counter()
    state = TicTacToe.from_string(OPENING)
    moves, arms, best = best_move_arms(OPENING)
    outcomes = [random_playout_outcomes(state.play(move), state.player_to_move)
                for move in moves]
    budgets = [n * len(moves) for n in per_move]
    flat_mc = [float(choice_probabilities(outcomes, n)[best]) for n in per_move]
    correct = _flat_ucb_correct(arms, best, budgets, runs, seed)
    return BestMove(position=OPENING, moves=list(moves), best_move=moves[best],
                    outcomes=[list(map(float, outcome)) for outcome in outcomes],
                    budgets=budgets, runs=runs, seed=seed, flat_mc=flat_mc,
                    c_values=list(BEST_MOVE_C), flat_ucb_correct=correct,
                    version=__version__, seconds=round(time.perf_counter() - started, 1))


def load_best_move(path=BEST_MOVE_PATH) -> BestMove:
    """Read the stored best-move measurement, or raise ValueError with a sentence."""
    return BestMove(**_read(path, "the best-move measurement", "best_move"))


def check_best_move(stored: BestMove) -> None:
    """Re-run the smallest budget for every seed; AssertionError if a count differs."""
    _, arms, best = best_move_arms(stored.position)
    fresh = _flat_ucb_correct(arms, best, stored.budgets[:1], stored.runs, stored.seed)
    assert [counts[0] for counts in fresh] == [counts[0] for counts in stored.flat_ucb_correct], (
        f"flat UCB at {stored.budgets[0]} playouts differs from the stored counts; regenerate "
        f"them with {COMMAND} --only best_move")


# -------------------------------------------------------------------------- storing


def _read(path, what: str, only: str) -> dict:
    path = Path(path)
    try:
        return json.loads(path.read_text())
    except OSError as error:
        raise ValueError(f"cannot read {what} from {path}: {error}. Regenerate it with: "
                         f"{COMMAND} --only {only}") from None
    except json.JSONDecodeError:
        raise ValueError(f"{path} is not JSON; regenerate it with: {COMMAND} --only {only}") from None


def _store(result, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(asdict(result), indent=1) + "\n")
    print(result.format())
    print(f"seconds {result.seconds:.0f}; written to {path}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("c_sweep", "best_move"), default=None,
                        help="run one of the two measurements (default: both)")
    parser.add_argument("--out", type=Path, default=DATA,
                        help="folder for the JSON files (default: data/bandits)")
    args = parser.parse_args(argv)
    check_choice("--only", args.only or "both", ("c_sweep", "best_move", "both"))
    if args.only in (None, "c_sweep"):
        _store(run_c_sweep(), args.out / C_SWEEP_PATH.name)
    if args.only in (None, "best_move"):
        _store(run_best_move(), args.out / BEST_MOVE_PATH.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
