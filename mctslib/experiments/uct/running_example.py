"""Chapter 1's trap position, searched by three algorithms at every budget (end of chapter 4).

The running example of chapters 1, 2 and 4 is the trap ``.X./..X/O..``, O to
move (the first position :func:`mctslib.search.flat.find_traps` lists): moves
0 and 8 win by force, the other four lose, and random playouts rate the losing
move 4 highest. This module measures, for

- **flat Monte Carlo** (chapter 1): equal playouts for every move, the best
  mean, ties to the first move in move order;
- **flat UCB** (chapter 2's bandit over the root moves): UCB1 with c = 1.0,
  one random playout per pull, the most visited move
  (``UCTSearch(1.0, budget, seed, max_depth=1)``);
- **UCT** (chapter 4): ``UCTSearch(1.0, budget, seed)``, the most visited move;

the probability that the move chosen is minimax-correct (one of the moves with
the best minimax value) as a function of the budget, with a Wilson 95%
interval per point.

*Budget* is the number of random playouts, which for the two bandit searches
is the number of iterations. The default budgets are multiples of the six legal
moves, so flat Monte Carlo spends exactly the same budget: ``budget / 6``
playouts per move. (For a budget that is not a multiple, it spends
``budget // moves`` per move, the largest equal share that fits.)

**Random numbers.** Every run draws from the xorshift64 stream of the
published harness, :class:`mctslib.xorshift.XorShift64`, which the numba
kernels (:mod:`mctslib.fast.tictactoe_anytime`) also use. ``UCTSearch`` takes
an ``XorShift64`` directly, so the kernels are tested against it. Chapter 1's
:func:`~mctslib.search.flat.flat_monte_carlo` only takes a numpy seed or
Generator; :func:`flat_monte_carlo_choice` below is its readable twin on any
source with ``below(count)`` (tested equal to ``flat_monte_carlo`` on numpy's
generator, and to the kernel on xorshift64).

Seed ``i`` of a run is the ``i``-th output of SplitMix64 started at
``root_seed`` (:func:`mctslib.xorshift.derive_seeds`, re-exported here): small
seeds such as 1, 2, 3 would give xorshift64 start states with only a few bits
set, whose first draws are all zero, and ``XorShift64`` sets the lowest bit of
its seed, so consecutive seeds would run each stream twice; the derived seeds
are checked to give distinct start states.

The runs are *anytime*: one run per seed to the largest budget records its
answer at every checkpoint, which is exactly what a fresh run with that budget
and seed answers. Regenerate the stored result with::

    python -m mctslib.experiments.uct.running_example

(:data:`DEFAULT_PATH`; it prints how long it took: 36 s for the stored run
on two cores).
:func:`load_running_example` reads it back and :func:`check_running_example`
re-runs a few seeds and budgets against it.

Why one module of about 500 lines: the three algorithms must be run on the same seeds,
budgets and position and stored in one file that the chapter reads and checks; the
runner, the stored format and its check change together.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from ..._checks import check_choice, check_int, check_real, shown
from ..._version import __version__
from ...fast.tictactoe_anytime import flat_mc_answers, uct_answers
from ...fixed_order import geometric_points
from ...fixed_order import mean as fixed_order_mean
from ...games.tictactoe import TicTacToe
from ...play.stats import score_interval
from ...rng import move_source
from ...search.flat import find_traps, random_playout
from ...search.minimax import move_values, random_playout_move_values
from ...search.uct import UCTSearch
from ...xorshift import XorShift64, derive_seeds

__all__ = [
    "DEFAULT_PATH",
    "METHODS",
    "CheckResult",
    "RunningExample",
    "board_text",
    "budget_ladder",
    "check_running_example",
    "derive_seeds",
    "flat_monte_carlo_choice",
    "load_running_example",
    "readable_answer",
    "run_running_example",
    "trap_position",
]

#: The three searches, in the order the chapter introduces them.
METHODS = ("flat_mc", "flat_ucb", "uct")
#: How the figure and the summaries name them.
METHOD_NAMES = {"flat_mc": "flat Monte Carlo", "flat_ucb": "flat UCB", "uct": "UCT"}
EXPLORATION = 1.0
ROOT_SEED = 2026
SEEDS = 2000
#: Budgets (playouts) of the stored run: log-spaced from 6 to 19,998, all multiples of 6.
LARGEST_BUDGET = 19_998
BUDGET_POINTS = 30
#: The stored result, relative to the repository root.
DEFAULT_PATH = Path(__file__).resolve().parents[3] / "data" / "running_example.json"
#: The most seeds one run accepts (the stored run has 2,000; a million take hours).
MAX_SEEDS = 1_000_000
#: The largest budget one run accepts (20,000 takes about 15 ms per seed for UCT).
MAX_BUDGET = 10_000_000
#: The most threads a run may use.
MAX_WORKERS = 64


# ----------------------------------------------------------------------------- helpers


def trap_position() -> TicTacToe:
    """Chapter 1's trap, ``.X./..X/O..`` with O to move: ``find_traps(TicTacToe())[0]``."""
    return find_traps(TicTacToe())[0].state


def board_text(state: TicTacToe) -> str:
    """The position as three rows of ``X``, ``O`` and ``.`` joined by ``/`` (``from_string``'s format)."""
    if not isinstance(state, TicTacToe):
        raise ValueError(f"state must be a TicTacToe position, got {type(state).__name__}.")
    return str(state).replace(" ", "").replace("\n", "/")


def budget_ladder(moves: int, largest: int, points: int) -> list[int]:
    """About ``points`` budgets from ``moves`` to ``largest``, log-spaced, multiples of ``moves``.

    Rounding to whole rounds can merge neighbouring points at the low end, so
    the ladder may hold fewer than ``points`` budgets (each once, increasing).
    """
    moves = check_int("moves", moves, 1, 9)
    largest = check_int("largest (budget)", largest, moves, MAX_BUDGET)
    points = check_int("points", points, 1, 1000)
    rounds = largest // moves
    ladder = sorted({moves * max(1, round(r)) for r in geometric_points(1.0, rounds, points)})
    return ladder


def flat_monte_carlo_choice(state: TicTacToe, playouts_per_move: int, rng) -> int:
    """Flat Monte Carlo's move, readable, on any random source (the kernel's twin).

    The same algorithm as :func:`mctslib.search.flat.flat_monte_carlo`, step for
    step: rounds of one playout per legal move in move order, each scored for
    the player to move, then the highest mean, the first move on ties. It
    differs in one thing: ``rng`` may be an :class:`~mctslib.xorshift.XorShift64`
    (the stream of the numba kernel), a GeneratorSource, or anything
    :func:`mctslib.rng.move_source` accepts (an int seeds numpy's generator,
    and then the answer equals ``flat_monte_carlo(state, playouts_per_move, seed).best_move``).
    """
    if not isinstance(state, TicTacToe) or state.is_terminal():
        raise ValueError(f"state must be a TicTacToe position where the game is still on, "
                         f"got {shown(state)}.")
    playouts_per_move = check_int("playouts_per_move", playouts_per_move, 1, MAX_BUDGET)
    source = move_source(rng)
    player = state.player_to_move
    moves = state.legal_moves()
    children = [state.play(move) for move in moves]
    results = [[] for _ in moves]
    for _ in range(playouts_per_move):
        for i, child in enumerate(children):
            results[i].append(random_playout(child, source).result(player))
    means = [fixed_order_mean(row) for row in results]
    return moves[max(range(len(moves)), key=lambda i: means[i])]  # max keeps the first of equals


def readable_answer(method: str, state: TicTacToe, budget: int, seed: int,
                    exploration: float = EXPLORATION) -> int:
    """The move the readable search ``method`` picks with ``budget`` playouts on ``XorShift64(seed)``.

    ``flat_mc`` plays ``budget // moves`` playouts per move
    (:func:`flat_monte_carlo_choice`); ``flat_ucb`` and ``uct`` are
    ``UCTSearch(exploration, budget, XorShift64(seed), max_depth=1 or None).choose(state)``.
    Slow (pure Python): for tests and spot checks of the numba runs.
    """
    method = check_choice("method", method, METHODS)
    budget = check_int("budget", budget, 1, MAX_BUDGET)
    source = XorShift64(seed)
    if method == "flat_mc":
        moves = len(state.legal_moves()) if isinstance(state, TicTacToe) else 1
        if budget < moves:
            raise ValueError(f"budget must be at least the number of legal moves ({moves}) for "
                             f"flat Monte Carlo, which gives every move a playout; got {budget}.")
        return flat_monte_carlo_choice(state, budget // moves, source)
    depth = 1 if method == "flat_ucb" else None
    return UCTSearch(exploration, budget, seed=source, max_depth=depth).choose(state)


def _fast_answers(method: str, state: TicTacToe, budgets: Sequence[int], seeds: Sequence[int],
                  exploration: float) -> np.ndarray:
    """The numba kernels' answers, shape (seeds, budgets)."""
    if method == "flat_mc":
        moves = len(state.legal_moves())
        return flat_mc_answers(state.x, state.o, [b // moves for b in budgets], seeds)
    depth = 1 if method == "flat_ucb" else None
    return uct_answers(state.x, state.o, exploration, budgets, seeds, max_depth=depth)


def _check_budgets(budgets, moves: int) -> list[int]:
    if isinstance(budgets, (str, bytes)) or not hasattr(budgets, "__iter__"):
        raise ValueError(f"budgets must be a sequence of whole numbers, got {shown(budgets)}.")
    values = [check_int("each budget", b, moves, MAX_BUDGET) for b in budgets]
    if not values:
        raise ValueError("budgets must hold at least one budget, got none.")
    shares = [b // moves for b in values]
    for before, after in itertools.pairwise(shares):
        if after <= before:
            raise ValueError(f"budgets must increase by at least {moves} (one playout per move, "
                             f"so flat Monte Carlo's share grows too), got "
                             f"{before * moves}.. then {after * moves}...")
    return values


# ------------------------------------------------------------------------ the result


@dataclass(frozen=True)
class RunningExample:
    """The stored experiment: parameters, per-seed answers and correct counts.

    ``answers[method][k]`` is a string with one digit per seed: the cell that
    ``method`` chose with ``budgets[k]`` playouts on seed ``i``.
    ``correct[method][k]`` counts the seeds whose move is in ``correct_moves``.
    """

    position: str
    player_to_move: str
    moves: list
    minimax_values: dict
    random_playout_values: dict
    correct_moves: list
    exploration: float
    root_seed: int
    seed_count: int
    budgets: list
    flat_mc_playouts_per_move: list
    answers: dict
    correct: dict
    seconds: float
    workers: int
    mctslib_version: str
    command: str = "python -m mctslib.experiments.uct.running_example"

    def state(self) -> TicTacToe:
        return TicTacToe.from_string(self.position)

    def seeds(self) -> list[int]:
        """The xorshift64 seeds of the runs, re-derived from ``root_seed``."""
        return derive_seeds(self.root_seed, self.seed_count)

    def curve(self, method: str) -> tuple[list, list, list, list]:
        """(budgets, P(correct), Wilson 95% low, high) for one method."""
        method = check_choice("method", method, METHODS)
        p, low, high = [], [], []
        for count in self.correct[method]:
            share, lo, hi = score_interval(count, 0, self.seed_count - count)
            p.append(share)
            low.append(lo)
            high.append(hi)
        return list(self.budgets), p, low, high

    def probability_at(self, method: str, budget: int) -> tuple[float, float, float]:
        """(P(correct), low, high) of ``method`` at one stored budget."""
        method = check_choice("method", method, METHODS)
        if budget not in self.budgets:
            raise ValueError(f"budget must be one of the stored budgets {self.budgets}, "
                             f"got {shown(budget)}.")
        count = self.correct[method][self.budgets.index(budget)]
        return score_interval(count, 0, self.seed_count - count)

    def choice_counts(self, method: str, budget: int) -> dict:
        """How many seeds chose each move at one stored budget (integer counts)."""
        method = check_choice("method", method, METHODS)
        if budget not in self.budgets:
            raise ValueError(f"budget must be one of the stored budgets {self.budgets}, "
                             f"got {shown(budget)}.")
        text = self.answers[method][self.budgets.index(budget)]
        return {move: text.count(str(move)) for move in self.moves}

    def to_json(self) -> str:
        data = asdict(self)
        # One line per (method, budget) string keeps the file readable in a diff.
        return json.dumps(data, indent=1)


def run_running_example(seeds: int = SEEDS, budgets: Sequence[int] | None = None,
                        root_seed: int = ROOT_SEED, exploration: float = EXPLORATION,
                        workers: int = 2, methods: Sequence[str] = METHODS,
                        state: TicTacToe | None = None) -> RunningExample:
    """Run the three searches on the trap for ``seeds`` seeds at every budget (numba).

    Parameters
    ----------
    seeds : int
        How many seeds (runs per method), 1 to :data:`MAX_SEEDS`; the stored run uses 2,000.
    budgets : sequence of int, optional
        Total playouts, increasing, each at least the number of legal moves;
        default :func:`budget_ladder` (6 to 19,998, log-spaced).
    root_seed : int
        Start of :func:`derive_seeds`.
    exploration : float
        UCB1's c for flat UCB and UCT (1.0, the book's harness value).
    workers : int
        Threads (the kernels release the GIL); the answers do not depend on it.
    methods : sequence of str
        A subset of :data:`METHODS`.
    state : TicTacToe, optional
        Another position (default :func:`trap_position`).

    Returns
    -------
    RunningExample
        End of chapter 4 (the figure), with chapters 1 and 2's position.
    """
    state = trap_position() if state is None else state
    if not isinstance(state, TicTacToe) or state.is_terminal():
        raise ValueError(f"state must be a TicTacToe position where the game is still on, "
                         f"got {shown(state)}.")
    moves = list(state.legal_moves())
    count = check_int("seeds", seeds, 1, MAX_SEEDS)
    budgets = _check_budgets(budget_ladder(len(moves), LARGEST_BUDGET, BUDGET_POINTS)
                             if budgets is None else budgets, len(moves))
    exploration = check_real("exploration", exploration, 0.0, 1e6)
    workers = check_int("workers", workers, 1, MAX_WORKERS)
    if isinstance(methods, str) or not hasattr(methods, "__iter__"):
        raise ValueError(f"methods must be a sequence of names from {METHODS}, got {shown(methods)}.")
    methods = [check_choice("each method", m, METHODS) for m in methods]
    seed_list = derive_seeds(root_seed, count)
    values = move_values(state)
    best = max(values.values())
    correct_moves = [m for m in moves if values[m] == best]
    start = time.perf_counter()
    _fast_answers("flat_mc", state, budgets[:1], seed_list[:1], exploration)  # compile first
    answers = _run_chunks(methods, state, budgets, seed_list, exploration, workers)
    seconds = time.perf_counter() - start
    random_values = random_playout_move_values(state)
    answer_text = {m: ["".join(str(int(c)) for c in answers[m][:, k]) for k in range(len(budgets))]
                   for m in methods}
    correct = {m: [sum(text.count(str(c)) for c in correct_moves) for text in answer_text[m]]
               for m in methods}
    return RunningExample(
        position=board_text(state), player_to_move="XO"[state.player_to_move], moves=moves,
        minimax_values={str(m): values[m] for m in moves},
        random_playout_values={str(m): random_values[m] for m in moves},
        correct_moves=correct_moves, exploration=exploration, root_seed=root_seed,
        seed_count=count, budgets=budgets,
        flat_mc_playouts_per_move=[b // len(moves) for b in budgets],
        answers=answer_text, correct=correct, seconds=round(seconds, 1), workers=workers,
        mctslib_version=__version__,
    )


def _run_chunks(methods, state, budgets, seeds, exploration, workers) -> dict:
    """Each method's answers, the seeds cut into chunks that threads take as they free up."""
    chunk = max(1, math.ceil(len(seeds) / (4 * workers)))
    jobs = [(m, i) for m in methods for i in range(0, len(seeds), chunk)]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        parts = list(pool.map(lambda job: _fast_answers(job[0], state, budgets,
                                                        seeds[job[1]:job[1] + chunk], exploration),
                              jobs))
    return {m: np.concatenate([p for (name, _), p in zip(jobs, parts) if name == m]) for m in methods}


# ----------------------------------------------------------------------- load and check


def load_running_example(path=DEFAULT_PATH) -> RunningExample:
    """Read the stored run (``data/running_example.json``) and check it is consistent.

    Raises ValueError with a sentence if the file is missing, not this
    experiment's JSON, or its counts do not match its per-seed answers.
    """
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except OSError as error:
        raise ValueError(f"cannot read the running example from {path}: {error}. Regenerate it "
                         f"with: python -m mctslib.experiments.uct.running_example") from None
    except json.JSONDecodeError:
        raise ValueError(f"{path} is not JSON; regenerate it with: "
                         f"python -m mctslib.experiments.uct.running_example") from None
    try:
        example = RunningExample(**data)
    except TypeError as error:
        raise ValueError(f"{path} does not hold a running example ({error}).") from None
    _check_consistent(example, path)
    return example


def _check_consistent(example: RunningExample, path) -> None:
    for method, texts in example.answers.items():
        if method not in METHODS or len(texts) != len(example.budgets):
            raise ValueError(f"{path}: answers of {method!r} must be one string per budget.")
        for k, text in enumerate(texts):
            if len(text) != example.seed_count:
                raise ValueError(f"{path}: {method} at budget {example.budgets[k]} has "
                                 f"{len(text)} answers for {example.seed_count} seeds.")
            counted = sum(text.count(str(c)) for c in example.correct_moves)
            if counted != example.correct[method][k]:
                raise ValueError(f"{path}: {method} at budget {example.budgets[k]} stores "
                                 f"{example.correct[method][k]} correct seeds but its answers "
                                 f"hold {counted}.")


@dataclass(frozen=True)
class CheckResult:
    """What a re-run compared: how many answers, and a sentence per difference."""

    compared: int
    mismatches: tuple

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def summary(self) -> str:
        if self.ok:
            return f"re-ran {self.compared:,} answers: every one equals the stored answer"
        return (f"re-ran {self.compared:,} answers: {len(self.mismatches)} differ, first: "
                f"{self.mismatches[0]}")


def check_running_example(example: RunningExample, seeds: int = 50,
                          budgets: Sequence[int] | None = None, readable: bool = False
                          ) -> CheckResult:
    """Re-run the first ``seeds`` seeds at a few stored budgets and compare the answers.

    ``budgets`` defaults to three stored budgets (the smallest, one near 600
    and one near 2,000: under a second with numba). ``readable=True`` re-runs
    them with the readable Python searches instead (slower: use few seeds).
    The notebook asserts ``check.ok``. Chapter 4.
    """
    if not isinstance(example, RunningExample):
        raise ValueError(f"example must be a RunningExample (from load_running_example), got "
                         f"{type(example).__name__}.")
    seeds = check_int("seeds", seeds, 1, example.seed_count)
    if budgets is None:
        budgets = sorted({example.budgets[0],
                          min(example.budgets, key=lambda b: abs(b - 600)),
                          min(example.budgets, key=lambda b: abs(b - 2000))})
    if isinstance(budgets, (str, bytes)) or not hasattr(budgets, "__iter__"):
        raise ValueError(f"budgets must be a sequence of stored budgets, got {shown(budgets)}.")
    budgets = list(budgets)
    for b in budgets:
        if b not in example.budgets:
            raise ValueError(f"each budget must be one of the stored budgets {example.budgets}, "
                             f"got {shown(b)}.")
    state, seed_list = example.state(), example.seeds()[:seeds]
    mismatches, compared = [], 0
    for method in example.answers:
        if readable:
            fresh = np.array([[readable_answer(method, state, b, s, example.exploration)
                               for b in budgets] for s in seed_list])
        else:
            fresh = _fast_answers(method, state, budgets, seed_list, example.exploration)
        for j, b in enumerate(budgets):
            stored = example.answers[method][example.budgets.index(b)]
            for i in range(seeds):
                compared += 1
                if int(fresh[i, j]) != int(stored[i]):
                    mismatches.append(f"{METHOD_NAMES[method]} at budget {b}, seed #{i}: stored "
                                      f"move {stored[i]}, re-run move {int(fresh[i, j])}")
    return CheckResult(compared, tuple(mismatches))


# ------------------------------------------------------------------------ command line


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m mctslib.experiments.uct.running_example",
        description=("Flat Monte Carlo, flat UCB and UCT on chapter 1's trap: the chance of a "
                     "minimax-correct move at every budget, stored as JSON."))
    parser.add_argument("--out", default=str(DEFAULT_PATH), help="where to write the JSON file")
    parser.add_argument("--seeds", type=int, default=SEEDS, help=f"seeds (default {SEEDS:,})")
    parser.add_argument("--workers", type=int, default=2, help="threads (default 2)")
    args = parser.parse_args(argv)
    try:
        example = run_running_example(args.seeds, workers=args.workers)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(example.to_json() + "\n")
    for method in example.answers:
        budgets, p, _, _ = example.curve(method)
        picks = sorted({0, len(budgets) // 4, len(budgets) // 2, 3 * len(budgets) // 4,
                        len(budgets) - 1})
        points = ", ".join(f"{budgets[i]:,}: {p[i]:.3f}" for i in picks)
        print(f"{METHOD_NAMES[method]:>16}: P(correct) {points}")
    print(f"{example.seed_count:,} seeds x {len(example.budgets)} budgets x "
          f"{len(example.answers)} methods in {example.seconds:.1f} s on {example.workers} "
          f"threads; wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
