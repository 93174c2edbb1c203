"""Figures and printed summaries for chapter 4's closing experiments.

Two results, computed and stored by the experiments layer:

- the **running example** (:mod:`mctslib.experiments.uct.running_example`): the
  chance that flat Monte Carlo, flat UCB and UCT choose a minimax-correct move
  in chapter 1's trap, against the budget;
- the **convergence atlas** (:mod:`mctslib.experiments.uct.convergence_atlas`):
  for every tic-tac-toe position where the choice matters, the budget from
  which UCT answers correctly on every seed.

The functions here take the objects those modules return (``RunningExample``,
the ``settle_histogram`` triple, ``HardPosition`` records) and only draw or
format them; views and experiments are sibling layers, so nothing here imports
the experiments. Printed numbers are integer counts or come from the Wilson
intervals computed one value at a time (no numpy reductions).
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from .._checks import check_int, shown
from .plotting import check_figsize

__all__ = [
    "atlas_summary",
    "draw_hardest_positions",
    "plot_probability_correct",
    "plot_settle_histogram",
    "running_example_summary",
]

#: Labels and colours of the three searches (colour-blind safe, readable in print).
_STYLE = {
    "flat_mc": ("flat Monte Carlo", "#d55e00", "s"),
    "flat_ucb": ("flat UCB (c = 1)", "#0072b2", "^"),
    "uct": ("UCT (c = 1)", "#009e73", "o"),
}


def _check_example(example) -> None:
    for name in ("curve", "answers", "budgets", "seed_count", "correct_moves", "moves"):
        if not hasattr(example, name):
            raise ValueError(f"example must be a RunningExample (from load_running_example), got "
                             f"{type(example).__name__}.")


def plot_probability_correct(example, figsize=(7.5, 4.2)) -> Figure:
    """P(the chosen move is minimax-correct) against the budget, log x, with 95% bands.

    One curve per search in ``example.answers``; the shaded band is the
    Wilson 95% interval over the seeds. The dotted line is the chance that a
    uniformly random legal move is correct. End of chapter 4.
    """
    _check_example(example)
    fig, ax = plt.subplots(figsize=check_figsize(figsize))
    for method in example.answers:
        label, colour, marker = _STYLE.get(method, (method, None, "o"))
        budgets, p, low, high = example.curve(method)
        ax.fill_between(budgets, low, high, color=colour, alpha=0.2, linewidth=0)
        ax.plot(budgets, p, marker=marker, markersize=4, color=colour, label=label)
    share = len(example.correct_moves) / len(example.moves)
    ax.axhline(share, color="grey", linestyle=":", linewidth=1,
               label=f"random legal move ({len(example.correct_moves)} of {len(example.moves)})")
    ax.set_xscale("log")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("budget (random playouts = iterations, log scale)")
    ax.set_ylabel("P(chosen move is minimax-correct)")
    ax.set_title(f"Chapter 1's trap {example.position}: {example.seed_count:,} seeds per point")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="center right", fontsize=9)
    fig.tight_layout()
    return fig


def running_example_summary(example, budgets: Sequence[int] | None = None) -> str:
    """A table: P(correct) and its 95% interval for each search at a few stored budgets.

    ``budgets`` defaults to five stored budgets spread over the range.
    """
    _check_example(example)
    stored = list(example.budgets)
    if budgets is None:
        picks = sorted({0, len(stored) // 4, len(stored) // 2, 3 * len(stored) // 4,
                        len(stored) - 1})
        budgets = [stored[i] for i in picks]
    if isinstance(budgets, (str, bytes)) or not hasattr(budgets, "__iter__"):
        raise ValueError(f"budgets must be a sequence of stored budgets, got {shown(budgets)}.")
    budgets = list(budgets)
    for b in budgets:
        if b not in stored:
            raise ValueError(f"each budget must be one of the stored budgets {stored}, got "
                             f"{shown(b)}.")
    methods = list(example.answers)
    # Narrow enough (about 70 characters) for the book's column without wrapping.
    header = f"{'budget':>7}" + "".join(f" {_STYLE.get(m, (m,))[0]:>20}" for m in methods)
    title = (f"{example.position} ({example.player_to_move} to move), correct moves "
             f"{example.correct_moves}\n{example.seed_count:,} seeds: P(correct) [95% interval]")
    lines = [title, header]
    for b in budgets:
        row = f"{b:>7,}"
        for m in methods:
            p, low, high = example.probability_at(m, b)
            row += f" {p:>5.3f} [{low:.3f}, {high:.3f}]"
        lines.append(row)
    return "\n".join(lines)


def _check_histogram(histogram) -> tuple[list, list, int]:
    try:
        checkpoints, counts, censored = histogram
        checkpoints, counts = list(checkpoints), list(counts)
    except (TypeError, ValueError):
        raise ValueError(f"histogram must be the triple (checkpoints, counts, censored) from "
                         f"settle_histogram, got {shown(histogram)}.") from None
    if len(checkpoints) != len(counts) or not checkpoints:
        raise ValueError(f"histogram must have one count per checkpoint, got {len(counts)} "
                         f"counts for {len(checkpoints)} checkpoints.")
    for value in counts + [censored]:
        check_int("each count of the histogram", value, 0)
    return checkpoints, counts, censored


def plot_settle_histogram(histogram, figsize=(7.5, 3.8)) -> Figure:
    """Positions per settle budget, one bar per checkpoint (log bins), censored at the right.

    ``histogram`` is :func:`~mctslib.experiments.uct.convergence_atlas.settle_histogram`'s
    triple. Checkpoints are two per doubling, so every bar spans the same
    width on the log axis.
    """
    checkpoints, counts, censored = _check_histogram(histogram)
    fig, ax = plt.subplots(figsize=check_figsize(figsize))
    ratio = 2 ** 0.25  # half a checkpoint step on each side
    for budget, count in zip(checkpoints, counts):
        if count:
            ax.bar(budget / ratio, count, width=budget * ratio - budget / ratio, align="edge",
                   color="#009e73", edgecolor="black", linewidth=0.5)
    beyond = checkpoints[-1] * 2 ** 0.5
    if censored:
        ax.bar(beyond / ratio, censored, width=beyond * ratio - beyond / ratio, align="edge",
               color="#d55e00", edgecolor="black", linewidth=0.5,
               label=f"never settled by {checkpoints[-1]:,} ({censored})")
        ax.legend(loc="upper right", fontsize=9)
    ax.set_xscale("log")
    ax.set_xlabel("settle budget (UCT iterations, log scale)")
    ax.set_ylabel("positions")
    total = sum(counts) + censored
    ax.set_title(f"From which budget is UCT right on every seed? {total:,} tic-tac-toe positions")
    ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def _quantile_budget(checkpoints, counts, censored, share: float):
    """The smallest checkpoint by which at least ``share`` of the positions settled (None: never)."""
    total = sum(counts) + censored
    running = 0
    for budget, count in zip(checkpoints, counts):
        running += count
        if running * 1_000_000 >= round(share * 1_000_000) * total:  # integer comparison
            return budget
    return None


def atlas_summary(histogram, hardest: Sequence = ()) -> str:
    """The atlas in a few lines: how many positions, quantiles of the settle budget, the hardest.

    ``hardest`` is :func:`~mctslib.experiments.uct.convergence_atlas.hardest_positions`'s or
    :func:`~mctslib.experiments.uct.convergence_atlas.hardest_classes`'s list; for classes
    the table adds the number of copies and the range of their settle budgets.
    A dash marks a forced line in a drawn position and a refutation of a
    tempting move that only draws (neither is defined). Chapter 4b.
    """
    checkpoints, counts, censored = _check_histogram(histogram)
    total = sum(counts) + censored
    parts = []
    for share in (0.5, 0.9, 0.99):
        budget = _quantile_budget(checkpoints, counts, censored, share)
        parts.append(f"{share:.0%} by {budget:,}" if budget is not None
                     else f"{share:.0%} not by {checkpoints[-1]:,}")
    lines = [f"{total:,} positions; settled on every seed:",
             "  " + ", ".join(parts) + f"; never settled by {checkpoints[-1]:,}: {censored}"]
    if hardest:  # columns narrow enough for the page (75 characters)
        classes = any(h.copies > 1 for h in hardest)
        unsettled = any(h.settle_budget is None for h in hardest)  # else wrong@max is all 0
        lines.append(f"{'board':>11} {'to':>2} " + ("copies     settles" if classes
                                                   else "settles")
                     + (" wrong@max" if unsettled else "")
                     + " value correct tempt margin forced refute")
        for h in hardest:
            settles = _budget(h.settle_budget)
            if classes:
                settles = f"{h.copies:>6} {_budget(h.lowest_settle_budget) + '-' + settles:>11}"
            else:
                settles = f"{settles:>7}"
            value = {1.0: "win", 0.5: "draw", 0.0: "loss"}[h.value]
            correct = ",".join(str(m) for m in h.correct_moves)
            lines.append(f"{h.board:>11} {h.player_to_move:>2} {settles}"
                         + (f" {h.wrong_at_last:>9}" if unsettled else "")
                         + f" {value:>5} {correct:<7} {h.tempting_move:>5} "
                         f"{h.random_playout_margin:+.3f} {_plies(h.forced_line):>6} "
                         f"{_plies(h.refutation_line):>6}")
    return "\n".join(lines)


def _budget(budget) -> str:
    return "never" if budget is None else f"{budget:,}"


def _plies(plies) -> str:
    """A line length, or a dash where it is not defined (no forced win, no refutation)."""
    return "\u2014" if plies is None else str(plies)


def _draw_board(ax, board: str, correct, tempting) -> None:
    cells = board.replace("/", "")
    for cell in range(9):
        row, col = divmod(cell, 3)
        colour = "white"
        if cell in correct:
            colour = "#bde5d6"
        elif cell == tempting:
            colour = "#f6c7a8"
        ax.add_patch(Rectangle((col, 2 - row), 1, 1, facecolor=colour, edgecolor="black",
                               linewidth=1))
        mark = cells[cell]
        if mark != ".":
            ax.text(col + 0.5, 2.5 - row, mark, ha="center", va="center", fontsize=16,
                    fontweight="bold", color="#000000" if mark == "X" else "#0072b2")
    ax.set_xlim(-0.05, 3.05)  # room for the outer lines
    ax.set_ylim(-0.05, 3.05)
    ax.set_aspect("equal")
    ax.axis("off")


def draw_hardest_positions(hardest: Sequence, columns: int = 5, figsize=None) -> Figure:
    """The hardest positions as boards: correct moves green, the tempting wrong move orange.

    Above each board: the player to move, the settle budget (for a symmetry
    class from :func:`~mctslib.experiments.uct.convergence_atlas.hardest_classes`,
    the range over its copies), the random-playout margin and the lengths in
    plies of the forced win and of the tempting move's refutation (a dash
    where there is none; see
    :func:`~mctslib.experiments.uct.convergence_atlas.hardest_positions`). Chapter 4b.
    """
    if isinstance(hardest, (str, bytes)) or not hasattr(hardest, "__len__") or not hardest:
        raise ValueError(f"hardest must be a non-empty list from hardest_positions, got "
                         f"{shown(hardest)}.")
    columns = check_int("columns", columns, 1, 20)
    rows = -(-len(hardest) // columns)
    width = min(columns, len(hardest))
    fig, axes = plt.subplots(rows, width, figsize=check_figsize(figsize or (2.3 * width,
                                                                             3.2 * rows)),
                             squeeze=False)
    for k, ax in enumerate(axes.flat):
        if k >= len(hardest):
            ax.axis("off")
            continue
        h = hardest[k]
        _draw_board(ax, h.board, h.correct_moves, h.tempting_move)
        # Short lines: each title must fit above its own board (about 2.3 inches wide).
        if h.copies > 1:
            settles = (f"settle {_budget(h.lowest_settle_budget)}\u2013"
                       f"{_budget(h.settle_budget)} ({h.copies} copies)")
        else:
            settles = f"settles at {_budget(h.settle_budget)}"
        ax.set_title(f"#{k + 1}: {h.player_to_move} to move\n{settles}\n"
                     f"margin {h.random_playout_margin:+.3f}\n"
                     f"forced {_plies(h.forced_line)}, refutation {_plies(h.refutation_line)}",
                     fontsize=8)
    what = "symmetry classes" if any(h.copies > 1 for h in hardest) else "positions"
    fig.suptitle(f"The {what} where UCT settles last (green: correct, orange: tempting wrong "
                 "move)", fontsize=10)
    fig.tight_layout()
    return fig
