"""Chapter 3's picture of UCB1 over many steps: every child's score, step by step.

:func:`plot_score_history` draws the scores of a :class:`~mctslib.learners.ucb1.UCB1Walk`
(the table of chapter 3 followed for fifty steps): one line per child, a filled dot where
the child was chosen, and, beside it, the chosen step's scores split into mean and bonus.
:func:`score_history_frames` draws it at several steps for
:func:`mctslib.views.frames.frame_player`, so a reader of the published book can step
through the walk without a kernel. Chapter 3 ("One selection step, by hand").
"""

from __future__ import annotations

from .._checks import check_int
from ..learners.ucb1 import UCB1Walk

#: One colour per child, in table order (A, B, C, then more).
CHILD_COLOURS = ("tab:blue", "tab:orange", "tab:green", "tab:purple", "tab:brown")


def _check_walk(walk) -> UCB1Walk:
    if not isinstance(walk, UCB1Walk):
        raise ValueError(f"walk must be a UCB1Walk (from mctslib.learners.ucb1.ucb1_walk), got "
                         f"{type(walk).__name__}.")
    return walk


def plot_score_history(walk: UCB1Walk, upto: int | None = None, figsize=(9.5, 3.8)):
    """The scores of every child at every step of ``walk`` up to step ``upto`` (default: all).

    Left: score against step, one line per child, a filled dot at each step where it was
    chosen, an open one where it was not. Right: the scores at step ``upto`` as bars split
    into mean (solid) and bonus (light), the chosen child outlined. Axes are fixed by the
    whole walk, so frames drawn at different steps line up. Returns the Figure.
    """
    import matplotlib.pyplot as plt

    walk = _check_walk(walk)
    total = len(walk.steps)
    upto = total if upto is None else check_int("upto", upto, 1, total)
    names = [row.name for row in walk.steps[0].rows]
    scores = [[step.rows[i].score for step in walk.steps] for i in range(len(names))]
    top = max(max(line) for line in scores) * 1.05
    fig, (history, parts) = plt.subplots(1, 2, figsize=figsize,
                                         gridspec_kw={"width_ratios": [3, 1]})
    x = range(1, upto + 1)
    for i, name in enumerate(names):
        colour = CHILD_COLOURS[i % len(CHILD_COLOURS)]
        history.plot(x, scores[i][:upto], "-", color=colour, label=name, linewidth=1.6)
        chosen = [k + 1 for k in range(upto) if walk.steps[k].chosen == i]
        history.plot(chosen, [scores[i][k - 1] for k in chosen], "o", color=colour,
                     markersize=5)
    history.set_xlim(0.5, total + 0.5)
    history.set_ylim(0.8, top)
    history.set_xlabel("step (the parent's visits N = 9 + step)")
    history.set_ylabel("UCB1 score: mean + bonus")
    history.set_title("Each child's score; a dot where it was chosen", fontsize=10)
    history.legend(title="child", loc="upper right", fontsize=8)
    history.grid(alpha=0.3)
    step = walk.steps[upto - 1]
    for i, row in enumerate(step.rows):
        colour = CHILD_COLOURS[i % len(CHILD_COLOURS)]
        edge = "black" if i == step.chosen else colour
        parts.bar(i, row.mean, color=colour, edgecolor=edge, linewidth=2 if i == step.chosen
                  else 0.5)
        parts.bar(i, row.bonus, bottom=row.mean, color=colour, alpha=0.35, edgecolor=edge,
                  linewidth=2 if i == step.chosen else 0.5)
    parts.set_xticks(range(len(names)), names)
    parts.set_ylim(0, top)
    parts.set_title(f"step {upto}: mean (dark) + bonus", fontsize=10)
    parts.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def score_history_frames(walk: UCB1Walk, every: int = 2) -> tuple[list, list, list]:
    """``(figures, steps, captions)`` for a frame player: the history at steps 1, 1 + every, ...

    The last step is always included; at most 60 frames. Each caption names the step, the
    chosen child and what its playout paid.
    """
    walk = _check_walk(walk)
    every = check_int("every", every, 1, 100_000)
    total = len(walk.steps)
    steps = sorted(set(range(1, total + 1, every)) | {total})
    if len(steps) > 60:
        raise ValueError(f"every must leave at most 60 frames, got {len(steps)} with "
                         f"every={every} over {total} steps.")
    figures, captions = [], []
    for k in steps:
        figures.append(plot_score_history(walk, upto=k))
        step = walk.steps[k - 1]
        outcome = "won" if walk.results[k - 1] == 1.0 else "lost"
        captions.append(f"step {k}: N = {step.parent_visits}, chosen {step.rows[step.chosen].name}"
                        f" (score {step.rows[step.chosen].score:.3f}), whose playout {outcome}")
    return figures, steps, captions
