"""Chapter 3's picture of UCB1 over many steps: every child's score, step by step.

:func:`plot_score_history` draws the scores of a :class:`~mctslib.learners.ucb1.UCB1Walk`
(the table of chapter 3 followed for fifty steps): one line per child, a dot where the child
was chosen, and, beside it, the chosen step's scores split into mean and bonus.
:func:`score_history_frames` draws it at several steps for
:func:`mctslib.views.frames.frame_player`, so a reader of the published book can step
through the walk without a kernel. Chapter 3 ("One selection step, by hand").
"""

from __future__ import annotations

import io

from .._checks import check_int
from ..learners.ucb1 import UCB1Walk

#: One colour per child, in table order (A, B, C, then more).
CHILD_COLOURS = ("tab:blue", "tab:orange", "tab:green", "tab:purple", "tab:brown")
#: Frames are drawn smaller than the chapter's figure: many of them go into the page.
FRAME_FIGSIZE = (8.5, 3.4)
FRAME_DPI_STEPS = 72


def _check_walk(walk) -> UCB1Walk:
    if not isinstance(walk, UCB1Walk):
        raise ValueError(f"walk must be a UCB1Walk (from mctslib.learners.ucb1.ucb1_walk), got "
                         f"{type(walk).__name__}.")
    return walk


class _ScoreHistory:
    """The figure and its artists, so that frames only move data (drawing is the slow part)."""

    def __init__(self, walk: UCB1Walk, figsize):
        import matplotlib.pyplot as plt

        self.walk = walk
        self.names = [row.name for row in walk.steps[0].rows]
        self.scores = [[step.rows[i].score for step in walk.steps] for i in range(len(self.names))]
        total = len(walk.steps)
        top = max(max(line) for line in self.scores) * 1.05
        self.fig, (history, parts) = plt.subplots(1, 2, figsize=figsize,
                                                  gridspec_kw={"width_ratios": [3, 1]})
        self.lines, self.dots, self.means, self.bonuses = [], [], [], []
        for i, name in enumerate(self.names):
            colour = CHILD_COLOURS[i % len(CHILD_COLOURS)]
            self.lines.append(history.plot([], [], "-", color=colour, label=name,
                                           linewidth=1.6)[0])
            self.dots.append(history.plot([], [], "o", color=colour, markersize=5)[0])
            self.means.append(parts.bar(i, 0.0, color=colour)[0])
            self.bonuses.append(parts.bar(i, 0.0, color=colour, alpha=0.35)[0])
        history.set_xlim(0.5, total + 0.5)
        history.set_ylim(0.8, top)
        history.set_xlabel("step (the parent's visits N = 9 + step)")
        history.set_ylabel("UCB1 score: mean + bonus")
        history.set_title("Each child's score; a dot where it was chosen", fontsize=10)
        history.legend(title="child", loc="upper right", fontsize=8)
        history.grid(alpha=0.3)
        parts.set_xticks(range(len(self.names)), self.names)
        parts.set_ylim(0, top)
        parts.grid(axis="y", alpha=0.3)
        self.parts = parts
        # A fixed layout rather than tight_layout: frames line up, and drawing them is cheaper.
        self.fig.subplots_adjust(left=0.07, right=0.99, bottom=0.13, top=0.92, wspace=0.18)

    def show(self, upto: int) -> None:
        """Move every artist to step ``upto``."""
        x = list(range(1, upto + 1))
        step = self.walk.steps[upto - 1]
        for i in range(len(self.names)):
            self.lines[i].set_data(x, self.scores[i][:upto])
            chosen = [k for k in x if self.walk.steps[k - 1].chosen == i]
            self.dots[i].set_data(chosen, [self.scores[i][k - 1] for k in chosen])
            row = step.rows[i]
            edge, width = ("black", 2.0) if i == step.chosen else ("none", 0.0)
            self.means[i].set_height(row.mean)
            self.bonuses[i].set_y(row.mean)
            self.bonuses[i].set_height(row.bonus)
            for bar in (self.means[i], self.bonuses[i]):
                bar.set_edgecolor(edge)
                bar.set_linewidth(width)
        self.parts.set_title(f"step {upto}: mean + bonus", fontsize=10)


def plot_score_history(walk: UCB1Walk, upto: int | None = None, figsize=(9.5, 3.8)):
    """The scores of every child at every step of ``walk`` up to step ``upto`` (default: all).

    Left: score against step, one line per child, a dot at each step where it was chosen.
    Right: the scores at step ``upto`` as bars split into mean (solid) and bonus (light), the
    chosen child outlined. Axes are fixed by the whole walk, so figures drawn at different
    steps line up. Returns the Figure.
    """
    walk = _check_walk(walk)
    total = len(walk.steps)
    upto = total if upto is None else check_int("upto", upto, 1, total)
    history = _ScoreHistory(walk, figsize)
    history.show(upto)
    return history.fig


def score_history_frames(walk: UCB1Walk, steps=None) -> tuple[list, list, list]:
    """``(frames, steps, captions)`` for a frame player: the history at each of ``steps``.

    ``steps`` (default: 1 to 6, then every eighth step and the last) are step numbers from 1
    to the walk's length, 2 to 60 of them. Each frame is PNG bytes, drawn here at
    :data:`FRAME_DPI_STEPS` dots per inch from one figure whose artists move from step to
    step (drawn once, small: a dozen frames stay quick to make and light to store). Each
    caption names the step, the chosen child and what its playout paid.
    """
    import matplotlib.pyplot as plt

    walk = _check_walk(walk)
    total = len(walk.steps)
    if steps is None:
        steps = sorted(set(range(1, min(6, total) + 1)) | set(range(6, total + 1, 8)) | {total})
    steps = [check_int("steps[i]", k, 1, total) for k in steps]
    if not 2 <= len(steps) <= 60:
        raise ValueError(f"steps must hold 2 to 60 step numbers, got {len(steps)}.")
    history = _ScoreHistory(walk, FRAME_FIGSIZE)
    frames, captions = [], []
    for k in steps:
        history.show(k)
        buffer = io.BytesIO()
        history.fig.savefig(buffer, format="png", dpi=FRAME_DPI_STEPS, facecolor="white")
        frames.append(buffer.getvalue())
        step = walk.steps[k - 1]
        outcome = "won" if walk.results[k - 1] == 1.0 else "lost"
        captions.append(f"step {k}: N = {step.parent_visits}, chosen {step.rows[step.chosen].name}"
                        f" (score {step.rows[step.chosen].score:.3f}), whose playout {outcome}")
    plt.close(history.fig)
    return frames, steps, captions
