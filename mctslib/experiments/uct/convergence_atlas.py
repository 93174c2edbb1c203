"""A convergence atlas of tic-tac-toe: from which budget does UCT answer correctly for good?

For every position of tic-tac-toe where the choice matters, run UCT (c = 1.0,
the harness's search, numba) on a fixed set of seeds and find the smallest
budget from which the most visited move is minimax-correct on every seed and
stays so at every larger budget we look at. End of chapter 4.

**Which positions.** Every position reachable from the empty board
(:func:`mctslib.search.minimax.reachable_states`) where the game is still on
and the legal moves do *not* all have the same minimax value. A move is
*correct* when its minimax value (for the player who makes it) is the best
among the legal moves: the correct moves form the *best value class*, the set
of moves with the best minimax value (for example both winning moves, or all
three drawing moves when the others lose). Where every move has the same
value, every answer is correct and the position says nothing about
convergence, so it is left out: 1,329 of the 4,520 positions still on (the
empty board among them), which leaves 3,191.

**Settle budget.** Budgets are the checkpoints ``round(2 ** (k / 2))`` for
k = 0, 1, ..., up to :data:`LARGEST` (2**14 = 16,384 iterations): 28
distinct budgets, two per doubling. For one seed, its *settle index* is the
smallest checkpoint index ``i`` such that the answer is correct at checkpoint
``i`` and at every later checkpoint; a seed wrong at the last checkpoint never
settles (index = number of checkpoints). The position's *settle budget* is the
checkpoint at the largest settle index over the seeds: from that budget on,
every seed answers correctly at every checkpoint up to 16,384. A position with
a seed that never settles is *censored*: all we know is that its settle budget
exceeds 16,384 (or does not exist).

Every seed is a separate UCT run from scratch; one run per seed and position
records the answer at all checkpoints (:mod:`mctslib.fast.tictactoe_anytime`),
so each position costs 16 runs of 16,384 iterations. Seeds come from
:func:`mctslib.xorshift.derive_seeds` (SplitMix64 from
:data:`ROOT_SEED`), the same 16 for every position. Regenerate with::

    python -m mctslib.experiments.uct.convergence_atlas

(it prints how long it took: 252 s for the stored atlas on this two-core
machine, shared with other jobs at the time). :func:`load_convergence_atlas` reads the stored result,
:func:`hardest_positions` explains the hardest ones, :func:`symmetry_classes`
and :func:`hardest_classes` group the positions by the board's eight
symmetries (a copy's settle budget is a second measurement of the same
position, so the range over copies gauges the seed noise),
:func:`difficulty_table` relates the settle budget to the refutation depth and
the random-playout margin, and :func:`check_convergence_atlas` re-runs a
handful of positions against it. Every summary reads the stored data; none
re-runs UCT.

Why one module of about 700 lines: the atlas's stored format and every summary of it
change together (a field added to :class:`ConvergenceAtlas` is read by the summaries and
checked by :func:`check_convergence_atlas`), and chapters 4 and 4b read them as one
experiment with its analysis.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np

from ..._checks import check_int, check_real, shown
from ..._version import __version__
from ...fast.tictactoe_anytime import uct_answers
from ...games.tictactoe import TicTacToe
from ...search.minimax import move_values, random_playout_move_values, reachable_states
from ...xorshift import derive_seeds
from .running_example import MAX_WORKERS, board_text

__all__ = [
    "DEFAULT_PATH",
    "AtlasCheck",
    "ConvergenceAtlas",
    "DifficultyTable",
    "HardPosition",
    "SymmetryClass",
    "atlas_checkpoints",
    "atlas_positions",
    "board_symmetries",
    "canonical_board",
    "check_convergence_atlas",
    "difficulty_table",
    "forced_line_length",
    "hardest_classes",
    "hardest_positions",
    "load_convergence_atlas",
    "run_convergence_atlas",
    "seed_settle_indices",
    "settle_histogram",
    "symmetry_classes",
]

EXPLORATION = 1.0
ROOT_SEED = 4242
SEEDS = 16
LARGEST = 2**14
#: The largest budget a run accepts: 2**20 iterations for 3,191 positions would take hours.
MAX_LARGEST = 2**22
MAX_SEEDS = 1024
DEFAULT_PATH = Path(__file__).resolve().parents[3] / "data" / "convergence_atlas.json"
COMMAND = "python -m mctslib.experiments.uct.convergence_atlas"


# ----------------------------------------------------------------------- definitions


def atlas_checkpoints(largest: int = LARGEST) -> list[int]:
    """``round(2 ** (k / 2))`` for k = 0, 1, ... up to ``largest`` (a power of 2), each once.

    Two checkpoints per doubling; integer arithmetic for the odd k (the
    rounded square root of 2**k), so the ladder is the same on every machine.
    ``largest`` is a power of 2 from 2 to :data:`MAX_LARGEST`.
    """
    largest = check_int("largest", largest, 2, MAX_LARGEST)
    if largest & (largest - 1):
        raise ValueError(f"largest must be a power of 2 (the ladder has two checkpoints per "
                         f"doubling), got {largest:,}.")
    ladder = set()
    for k in range(2 * (largest.bit_length() - 1) + 1):
        if k % 2 == 0:
            ladder.add(1 << (k // 2))
        else:  # round(sqrt(2**k)): the integer square root of 4 * 2**k, halved and rounded
            root = math.isqrt(4 << k)
            ladder.add((root + 1) // 2)
    return sorted(ladder)


def atlas_positions() -> list[TicTacToe]:
    """The positions of the atlas, in the order of ``reachable_states(TicTacToe())``.

    Game still on, and the legal moves do not all share one minimax value
    (3,191 positions).
    """
    kept = []
    for state in reachable_states(TicTacToe()):
        if not state.is_terminal() and len(set(move_values(state).values())) > 1:
            kept.append(state)
    return kept


def correct_moves(state: TicTacToe) -> list[int]:
    """The best value class: the legal moves with the best minimax value for the mover."""
    values = move_values(state)
    best = max(values.values())
    return [move for move, value in values.items() if value == best]


def seed_settle_indices(correct) -> list[int]:
    """Per seed (row), the first checkpoint index from which every answer is correct.

    ``correct`` is a 2-d array of booleans, one row per seed and one column
    per checkpoint. A row wrong at the last checkpoint gets the number of
    checkpoints (never settled).
    """
    table = np.asarray(correct, dtype=bool)
    if table.ndim != 2 or table.shape[1] == 0:
        raise ValueError(f"correct must be a 2-d table (seeds x checkpoints) of booleans, got "
                         f"shape {table.shape}.")
    indices = []
    for row in table:
        i = row.size
        while i > 0 and row[i - 1]:
            i -= 1
        indices.append(int(i))
    return indices


def _settle_answers(state: TicTacToe, checkpoints, seeds, exploration) -> list[int]:
    answers = uct_answers(state.x, state.o, exploration, checkpoints, seeds)
    return seed_settle_indices(np.isin(answers, correct_moves(state)))


# ------------------------------------------------------------------------------ result


@dataclass(frozen=True)
class ConvergenceAtlas:
    """Parameters and, per position, the settle index of every seed.

    ``positions[j]`` is ``(board, seed_settle)``: the board as
    :func:`~mctslib.experiments.uct.running_example.board_text` writes it and one
    checkpoint index per seed (``len(checkpoints)`` = never settled).
    """

    exploration: float
    root_seed: int
    seed_count: int
    checkpoints: list
    positions: list
    seconds: float
    workers: int
    mctslib_version: str
    rule: str = ("non-terminal positions reachable from the empty board whose legal moves do not "
                 "all share one minimax value; correct = a move with the best minimax value")
    settle: str = ("position settle budget = checkpoints[max over seeds of the first index from "
                   "which that seed's most visited move is correct at every later checkpoint]; "
                   "index len(checkpoints) = never settled (censored)")
    command: str = COMMAND

    def seeds(self) -> list[int]:
        return derive_seeds(self.root_seed, self.seed_count)

    def settle_index(self, j: int) -> int:
        """The position's settle index: the largest of its seeds' (``len(checkpoints)`` if censored)."""
        return max(self.positions[j][1])

    def settle_budget(self, j: int) -> int | None:
        """The position's settle budget, or None if censored."""
        i = self.settle_index(j)
        return self.checkpoints[i] if i < len(self.checkpoints) else None

    def wrong_at_last(self, j: int) -> int:
        """How many seeds answer wrongly at the largest budget."""
        return sum(1 for i in self.positions[j][1] if i == len(self.checkpoints))

    def index_of(self, board) -> int:
        """The row of a position (a TicTacToe or its board text)."""
        text = board_text(board) if isinstance(board, TicTacToe) else board
        for j, (stored, _) in enumerate(self.positions):
            if stored == text:
                return j
        raise ValueError(f"board must be a position of the atlas, got {shown(board)}.")

    def to_json(self) -> str:
        header = {name: getattr(self, name) for name in
                  ("command", "rule", "settle", "exploration", "root_seed", "seed_count",
                   "checkpoints", "seconds", "workers", "mctslib_version")}
        lines = json.dumps(header, indent=1)[:-2]  # drop the closing brace, keep one object
        rows = ",\n".join("  " + json.dumps(row) for row in self.positions)
        return f'{lines},\n "positions": [\n{rows}\n ]\n}}'


def run_convergence_atlas(seeds: int = SEEDS, largest: int = LARGEST, root_seed: int = ROOT_SEED,
                          exploration: float = EXPLORATION, workers: int = 2,
                          positions: Sequence | None = None) -> ConvergenceAtlas:
    """Run the atlas (numba UCT, one anytime run per seed and position).

    Parameters
    ----------
    seeds : int
        Seeds per position, 1 to :data:`MAX_SEEDS` (16 in the stored atlas).
    largest : int
        The largest checkpoint, a power of 2 (2**14 in the stored atlas).
    root_seed : int
        Start of :func:`~mctslib.xorshift.derive_seeds`.
    exploration : float
        UCB1's c (1.0).
    workers : int
        Threads; positions go to whichever thread is free (answers do not
        depend on it).
    positions : sequence of TicTacToe, optional
        A subset (default :func:`atlas_positions`: all 3,191).

    Returns
    -------
    ConvergenceAtlas
    """
    count = check_int("seeds", seeds, 1, MAX_SEEDS)
    checkpoints = atlas_checkpoints(largest)
    exploration = check_real("exploration", exploration, 0.0, 1e6)
    workers = check_int("workers", workers, 1, MAX_WORKERS)
    if positions is None:
        states = atlas_positions()
    else:
        if isinstance(positions, (str, bytes)) or not hasattr(positions, "__iter__"):
            raise ValueError(f"positions must be a sequence of TicTacToe positions, got "
                             f"{shown(positions)}.")
        states = list(positions)
        for state in states:
            if not isinstance(state, TicTacToe) or state.is_terminal() \
                    or len(set(move_values(state).values())) < 2:
                raise ValueError(f"each position must be a TicTacToe position still on whose "
                                 f"moves do not all share one minimax value, got {shown(state)}.")
    seed_list = derive_seeds(root_seed, count)
    for state in states:  # solve every position before the threads start (the memo is shared)
        correct_moves(state)
    start = time.perf_counter()
    uct_answers(states[0].x, states[0].o, exploration, [1], seed_list[:1])  # compile first
    with ThreadPoolExecutor(max_workers=workers) as pool:
        settles = list(pool.map(lambda s: _settle_answers(s, checkpoints, seed_list, exploration),
                                states))
    seconds = time.perf_counter() - start
    rows = [[board_text(s), settle] for s, settle in zip(states, settles)]
    return ConvergenceAtlas(exploration, root_seed, count, checkpoints, rows, round(seconds, 1),
                            workers, __version__)


def load_convergence_atlas(path=DEFAULT_PATH) -> ConvergenceAtlas:
    """Read the stored atlas (``data/convergence_atlas.json``); a sentence if it is not one."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except OSError as error:
        raise ValueError(f"cannot read the atlas from {path}: {error}. Regenerate it with: "
                         f"{COMMAND}") from None
    except json.JSONDecodeError:
        raise ValueError(f"{path} is not JSON; regenerate it with: {COMMAND}") from None
    try:
        atlas = ConvergenceAtlas(**data)
    except TypeError as error:
        raise ValueError(f"{path} does not hold a convergence atlas ({error}).") from None
    limit = len(atlas.checkpoints)
    for row in atlas.positions:
        if (not isinstance(row, list) or len(row) != 2 or len(row[1]) != atlas.seed_count
                or any(not 0 <= i <= limit for i in row[1])):
            raise ValueError(f"{path}: each position must be [board, {atlas.seed_count} settle "
                             f"indices from 0 to {limit}], got {shown(row)}.")
    return atlas


# --------------------------------------------------------------------------- summaries


def settle_histogram(atlas: ConvergenceAtlas) -> tuple[list[int], list[int], int]:
    """(checkpoints, positions settling at each, censored positions): integer counts."""
    _check_atlas(atlas)
    counts = [0] * len(atlas.checkpoints)
    censored = 0
    for j in range(len(atlas.positions)):
        i = atlas.settle_index(j)
        if i == len(atlas.checkpoints):
            censored += 1
        else:
            counts[i] += 1
    return list(atlas.checkpoints), counts, censored


def _check_atlas(atlas) -> None:
    if not isinstance(atlas, ConvergenceAtlas):
        raise ValueError(f"atlas must be a ConvergenceAtlas (from load_convergence_atlas), got "
                         f"{type(atlas).__name__}.")


@cache
def _line(x: int, o: int) -> tuple[int, int]:
    """(value for the player to move: 1 win, 0 draw, -1 loss; plies to the end) with the
    winner taking the shortest forced win and the loser the longest resistance."""
    state = TicTacToe(x, o)
    if state.is_terminal():
        return (-1 if state.winner() is not None else 0), 0  # the last mover made the line
    best = None
    for move in state.legal_moves():
        child = state.play(move)
        value, plies = _line(child.x, child.o)
        mine = (-value, plies + 1)
        # Higher value first; a win as short as possible, a loss as long as possible.
        key = (mine[0], -mine[1] if mine[0] > 0 else mine[1])
        if best is None or key > best[0]:
            best = (key, mine)
    return best[1]


def forced_line_length(state: TicTacToe) -> int:
    """Plies to the end of the game under minimax play from ``state``.

    The winning side takes the shortest forced win and the losing side
    resists longest; a drawn position runs to the full board (in
    tic-tac-toe a draw ends only there). For a won position this is the
    depth of the shortest proof of the win.
    """
    if not isinstance(state, TicTacToe):
        raise ValueError(f"state must be a TicTacToe position, got {type(state).__name__}.")
    return _line(state.x, state.o)[1]


@dataclass(frozen=True)
class HardPosition:
    """One of the hardest positions (or symmetry classes) and what explains it (chapter 4b).

    ``forced_line`` is None unless the position is won; ``refutation_line``
    is None unless the tempting move loses (see :func:`hardest_positions`).
    For a symmetry class (:func:`hardest_classes`) ``board`` is one copy,
    ``copies`` how many the class has, and ``settle_budget`` and
    ``lowest_settle_budget`` the largest and smallest settle budget over the
    copies (None: censored); for one position both are its settle budget.
    """

    board: str
    player_to_move: str
    settle_budget: int | None
    wrong_at_last: int
    value: float
    correct_moves: tuple
    tempting_move: int
    tempting_value: float
    random_playout_margin: float
    forced_line: int | None
    refutation_line: int | None
    copies: int = 1
    lowest_settle_budget: int | None = None


def hardest_positions(atlas: ConvergenceAtlas, count: int = 10) -> list[HardPosition]:
    """The ``count`` positions that settle last, with the numbers that explain them.

    Order: censored first, then by settle budget (largest first), then by the
    number of seeds still wrong at the largest budget, then by the sum of the
    seeds' settle indices (later = harder), then atlas order. For each:

    - ``value``: the minimax value for the player to move (1 win, 0.5 draw);
    - ``random_playout_margin``: the best correct move's exact random-playout
      value minus the best wrong move's (negative: random playouts prefer a
      wrong move, a trap);
    - ``tempting_move``: that best wrong move, and ``tempting_value`` its
      minimax value (0 loses, 0.5 draws: possible only in a won position);
    - ``forced_line``: in a won position, the shortest forced win in plies
      (:func:`forced_line_length`); None in a drawn position, where
      :func:`forced_line_length` only counts the empty cells;
    - ``refutation_line``: when the tempting move loses, the plies from it to
      the end under minimax play, the move itself included (1 + the
      opponent's shortest forced win): how deep the search must look to see
      that the move loses. None when the tempting move draws: there is then
      no refutation, only a game that runs to the full board.
    """
    _check_atlas(atlas)
    count = check_int("count", count, 1, len(atlas.positions))
    order = sorted(range(len(atlas.positions)),
                   key=lambda j: (-atlas.settle_index(j), -atlas.wrong_at_last(j),
                                  -sum(atlas.positions[j][1]), j))
    return [_explain(atlas, j) for j in order[:count]]


@cache
def _traits(board: str) -> tuple:
    """(mover, value, correct, tempting, its value, margin, forced, refute) of one board."""
    state = TicTacToe.from_string(board)
    values = move_values(state)
    random_values = random_playout_move_values(state)
    best = correct_moves(state)
    wrong = [m for m in values if m not in best]
    tempting = max(wrong, key=lambda m: random_values[m])  # first of equals, in move order
    margin = max(random_values[m] for m in best) - random_values[tempting]
    value = values[best[0]]
    forced = forced_line_length(state) if value == 1.0 else None
    refute = 1 + forced_line_length(state.play(tempting)) if values[tempting] == 0.0 else None
    return ("XO"[state.player_to_move], value, tuple(best), tempting, values[tempting], margin,
            forced, refute)


def _explain(atlas: ConvergenceAtlas, j: int) -> HardPosition:
    board = atlas.positions[j][0]
    mover, value, best, tempting, tempting_value, margin, forced, refute = _traits(board)
    budget = atlas.settle_budget(j)
    return HardPosition(board, mover, budget, atlas.wrong_at_last(j), value, best, tempting,
                        tempting_value, margin, forced, refute, 1, budget)


# --------------------------------------------------------------------------- symmetry


def _symmetry_maps() -> list[tuple[int, ...]]:
    """The board's 8 symmetries as cell permutations: ``image[cell]`` is where ``cell`` goes."""
    maps = []
    for turns in range(4):
        for mirror in (False, True):
            image = []
            for cell in range(9):
                row, col = divmod(cell, 3)
                if mirror:
                    col = 2 - col
                for _ in range(turns):  # a quarter turn clockwise
                    row, col = col, 2 - row
                image.append(3 * row + col)
            maps.append(tuple(image))
    return maps


_MAPS = _symmetry_maps()


def board_symmetries(board) -> list[str]:
    """The distinct boards (texts) a position becomes under the 8 symmetries of the square.

    ``board`` is a TicTacToe or its board text; the list is sorted, and the
    position itself is in it.
    """
    text = board_text(board) if isinstance(board, TicTacToe) else board
    if not isinstance(text, str) or len(text) != 11 or text.count("/") != 2:
        raise ValueError(f"board must be a TicTacToe or a board text like 'X../.O./...', got "
                         f"{shown(board)}.")
    cells = text.replace("/", "")
    images = set()
    for image in _MAPS:
        moved = ["."] * 9
        for cell, mark in enumerate(cells):
            moved[image[cell]] = mark
        flat = "".join(moved)
        images.add(f"{flat[:3]}/{flat[3:6]}/{flat[6:]}")
    return sorted(images)


def canonical_board(board) -> str:
    """The representative of a position's symmetry class: the smallest of its images."""
    return board_symmetries(board)[0]


@dataclass(frozen=True)
class SymmetryClass:
    """The copies of one position under the board's symmetries, as stored in the atlas.

    ``rows`` are the atlas rows of the copies (atlas order); the settle
    indices of copies are separate measurements of one position (each copy
    has its own UCT runs, and UCT breaks ties by a shuffle that symmetry does
    not preserve), so their range gauges the noise of a 16-seed maximum.
    """

    canonical: str
    rows: tuple

    def settle_indices(self, atlas: ConvergenceAtlas) -> list[int]:
        return [atlas.settle_index(j) for j in self.rows]


def symmetry_classes(atlas: ConvergenceAtlas) -> list[SymmetryClass]:
    """The atlas's positions grouped by symmetry (431 classes), in order of first appearance."""
    _check_atlas(atlas)
    groups: dict[str, list[int]] = {}
    for j, (board, _) in enumerate(atlas.positions):
        groups.setdefault(canonical_board(board), []).append(j)
    return [SymmetryClass(canonical, tuple(rows)) for canonical, rows in groups.items()]


def hardest_classes(atlas: ConvergenceAtlas, count: int = 10) -> list[HardPosition]:
    """The ``count`` symmetry classes whose slowest copy settles last, explained.

    Order: by the largest settle index over the copies (censored first), then
    by the seeds wrong at the largest budget (summed over copies), then by the
    mean over copies of the summed seed settle indices, then by first
    appearance. Each is described by its slowest copy (first in atlas order),
    with ``copies`` and ``lowest_settle_budget`` (the fastest copy's budget):
    the range from ``lowest_settle_budget`` to ``settle_budget`` is what the
    same position measured again gives.
    """
    _check_atlas(atlas)
    classes = symmetry_classes(atlas)
    count = check_int("count", count, 1, len(classes))

    def key(k: int):
        rows = classes[k].rows
        total = sum(sum(atlas.positions[j][1]) for j in rows)
        return (-max(atlas.settle_index(j) for j in rows),
                -sum(atlas.wrong_at_last(j) for j in rows), Fraction(-total, len(rows)), k)

    explained = []
    for k in sorted(range(len(classes)), key=key)[:count]:
        rows = classes[k].rows
        slowest = max(rows, key=lambda j: (atlas.settle_index(j), -j))
        fastest = min(rows, key=atlas.settle_index)
        explained.append(dataclasses.replace(
            _explain(atlas, slowest), copies=len(rows),
            lowest_settle_budget=atlas.settle_budget(fastest)))
    return explained


# ------------------------------------------------------------------------- difficulty

#: Refutation-depth bands (plies, inclusive) and margin edges of :func:`difficulty_table`.
REFUTE_BANDS = ((2, 3), (4, 5), (6, 7))  # a losing move is refuted in 2 to 7 plies
MARGIN_EDGES = (0.05, 0.15)


@dataclass(frozen=True)
class DifficultyTable:
    """Positions and their lower-median settle budget by refutation depth and playout margin.

    ``cells[r][m]`` is ``(positions, lower median settle budget or None)`` for
    row ``r`` of ``row_labels`` and margin band ``m`` of ``column_labels``; a
    censored position counts as larger than every budget, and an empty cell
    has median None.
    """

    row_labels: tuple
    column_labels: tuple
    cells: tuple

    def median(self, row: str, column: str):
        return self.cells[self.row_labels.index(row)][self.column_labels.index(column)][1]

    def count(self, row: str, column: str) -> int:
        return self.cells[self.row_labels.index(row)][self.column_labels.index(column)][0]

    def text(self) -> str:
        """The table: per refutation band and margin band, 'lower median (positions)'.

        The margin is written ``m`` in the column heads, so that the table fits a page
        column (about 70 characters).
        """
        heads = [label.replace("margin", "m") for label in self.column_labels]
        lines = [f"{'refutation (plies)':<20}" + "".join(f"{c:>17}" for c in heads)]
        for label, row in zip(self.row_labels, self.cells):
            shown_cells = []
            for n, m in row:
                median = "-" if m is None else ("never" if m == math.inf else f"{m:,}")
                shown_cells.append(f"{median} ({n:,})")
            lines.append(f"{label:<20}" + "".join(f"{c:>17}" for c in shown_cells))
        return "\n".join(lines)


def difficulty_table(atlas: ConvergenceAtlas, refute_bands=REFUTE_BANDS,
                     margin_edges=MARGIN_EDGES) -> DifficultyTable:
    """Every position of the atlas by refutation depth and random-playout margin (chapter 4b).

    Rows: the tempting move's ``refutation_line`` in the given bands of plies
    (:func:`hardest_positions` defines it), and a last row for the positions
    whose tempting move draws (a won position where the best-rated wrong move
    gives away only the win: it has no refutation). Columns: the margin below
    the first edge, between the edges, at or above the last edge (margins
    rounded to 6 decimals first, so 0.0497 counts below 0.05). Each cell: how
    many positions and the lower median of their settle budgets (a
    checkpoint; censored = infinity). Integer counts and order statistics
    only.
    """
    _check_atlas(atlas)
    bands = [tuple(check_int("each refutation band's end", v, 1, 9) for v in band)
             for band in refute_bands]
    edges = [check_real("each margin edge", e, -1.0, 1.0) for e in margin_edges]
    if list(edges) != sorted(set(edges)) or not edges:
        raise ValueError(f"margin_edges must be increasing, got {shown(margin_edges)}.")
    row_labels = [f"{low}-{high}" if low != high else f"{low}" for low, high in bands]
    row_labels.append("tempting move draws")
    column_labels = [f"margin < {edges[0]:g}"]
    column_labels += [f"{a:g} <= margin < {b:g}" for a, b in itertools.pairwise(edges)]
    column_labels.append(f"margin >= {edges[-1]:g}")
    budgets = [[[] for _ in column_labels] for _ in row_labels]
    for j, (board, _) in enumerate(atlas.positions):
        *_, margin, _forced, refute = _traits(board)
        if refute is None:
            r = len(bands)
        else:
            r = next((k for k, (low, high) in enumerate(bands) if low <= refute <= high), None)
            if r is None:
                continue
        column = sum(1 for e in edges if round(margin, 6) >= e)
        budget = atlas.settle_budget(j)
        budgets[r][column].append(math.inf if budget is None else budget)
    cells = tuple(tuple((len(b), statistics.median_low(b) if b else None) for b in row)
                  for row in budgets)
    return DifficultyTable(tuple(row_labels), tuple(column_labels), cells)


# ------------------------------------------------------------------------------ check


@dataclass(frozen=True)
class AtlasCheck:
    """Positions re-run, and a sentence per seed whose settle index differs."""

    boards: tuple
    mismatches: tuple

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def summary(self) -> str:
        if self.ok:
            return (f"re-ran {len(self.boards)} positions: every seed settles at the stored "
                    f"checkpoint")
        return (f"re-ran {len(self.boards)} positions: {len(self.mismatches)} seeds differ, "
                f"first: {self.mismatches[0]}")


def check_convergence_atlas(atlas: ConvergenceAtlas, boards: Sequence | None = None
                            ) -> AtlasCheck:
    """Re-run a handful of positions with the stored seeds and compare every seed's settle index.

    ``boards`` (TicTacToe positions or board texts of the atlas) defaults to
    the three hardest positions and the first, middle and last of the atlas
    (about two seconds). The notebook asserts ``check.ok``.
    """
    _check_atlas(atlas)
    if boards is None:
        n = len(atlas.positions)
        hardest = [h.board for h in hardest_positions(atlas, min(3, n))]
        boards = list(dict.fromkeys(hardest + [atlas.positions[j][0] for j in (0, n // 2, n - 1)]))
    elif isinstance(boards, (str, bytes)) or not hasattr(boards, "__iter__"):
        raise ValueError(f"boards must be a sequence of positions of the atlas, got "
                         f"{shown(boards)}.")
    rows = [atlas.index_of(board) for board in boards]
    seeds = atlas.seeds()
    mismatches = []
    for j in rows:
        board, stored = atlas.positions[j]
        fresh = _settle_answers(TicTacToe.from_string(board), atlas.checkpoints, seeds,
                                atlas.exploration)
        for s, (old, new) in enumerate(zip(stored, fresh)):
            if old != new:
                mismatches.append(f"{board} seed #{s}: stored settle index {old}, re-run {new}")
    return AtlasCheck(tuple(atlas.positions[j][0] for j in rows), tuple(mismatches))


# ------------------------------------------------------------------------ command line


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog=COMMAND,
        description=("For every tic-tac-toe position where the choice matters, the smallest "
                     "budget from which UCT's most visited move is minimax-correct on every "
                     "seed; stored as JSON."))
    parser.add_argument("--out", default=str(DEFAULT_PATH), help="where to write the JSON file")
    parser.add_argument("--seeds", type=int, default=SEEDS, help=f"seeds (default {SEEDS})")
    parser.add_argument("--largest", type=int, default=LARGEST,
                        help=f"largest budget, a power of 2 (default {LARGEST:,})")
    parser.add_argument("--workers", type=int, default=2, help="threads (default 2)")
    args = parser.parse_args(argv)
    try:
        atlas = run_convergence_atlas(args.seeds, args.largest, workers=args.workers)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(atlas.to_json() + "\n")
    budgets, counts, censored = settle_histogram(atlas)
    print("settle budget: positions  " + ", ".join(f"{b:,}: {c}" for b, c in zip(budgets, counts)
                                                   if c) + f", never: {censored}")
    print(f"{len(atlas.positions):,} positions x {atlas.seed_count} seeds up to "
          f"{atlas.checkpoints[-1]:,} iterations in {atlas.seconds:.1f} s on {atlas.workers} "
          f"threads; wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
