"""Chapter 2's figures from its stored measurements (``data/bandits``).

- :func:`plot_c_sweep`: UCB1's mean regret against the exploration constant at three
  horizons, with the threshold ``c = 1/sqrt(2)`` above which logarithmic regret is proved
  for rewards in [0, 1];
- :func:`regret_curve_frames`: the regret curve of each constant in turn, for
  :func:`mctslib.views.frames.frame_player`;
- :func:`plot_best_move`: the chance that flat Monte Carlo and flat UCB play the best move
  of chapter 1's opening, against the budget.

Chapter 2 ("Spend playouts where they pay").
"""

from __future__ import annotations

import math

from ..play.stats import score_interval

HORIZON_COLOURS = ("tab:blue", "tab:orange", "tab:green")


def _check(value, kind: str, fields: tuple[str, ...], what: str):
    # Views may not import experiments (the layers contract): the stored result is read by
    # its fields.
    if not all(hasattr(value, name) for name in fields):
        raise ValueError(f"{what} must be a {kind} (from mctslib.experiments.bandits."
                         f"measurements), got {type(value).__name__}.")
    return value


_SWEEP_FIELDS = ("horizons", "tails", "c_values", "runs", "curve_pulls", "curve_mean",
                 "curve_low", "curve_high")
_BEST_FIELDS = ("budgets", "flat_mc", "c_values", "flat_ucb_correct", "runs", "best_move",
                "position")


def plot_c_sweep(sweep, figsize=(7.5, 4.2)):
    """Mean regret (log scale) against c (log scale) after each stored horizon; returns the Figure."""
    import matplotlib.pyplot as plt

    sweep = _check(sweep, "CSweep", _SWEEP_FIELDS, "sweep")
    fig, ax = plt.subplots(figsize=figsize)
    for horizon, colour in zip(sweep.horizons, HORIZON_COLOURS):
        rows = sweep.tails[str(horizon)]
        ax.errorbar(sweep.c_values, [row["mean"] for row in rows],
                    yerr=[row["half_width"] for row in rows], fmt="o-", capsize=3,
                    color=colour, label=f"after {horizon:,} pulls")
    threshold = 1 / math.sqrt(2)
    # The guarantee holds for c strictly above 1/sqrt(2): the shading starts just right of the
    # dashed line, so the point at c = 1/sqrt(2) itself (one of the swept constants) stays out.
    ax.axvspan(threshold * 1.06, max(sweep.c_values) * 1.2, color="tab:gray", alpha=0.12)
    ax.axvline(threshold, color="tab:gray", linestyle="--")
    ax.text(threshold * 1.09, 0.04, "c > 1/√2: logarithmic\nregret proved", fontsize=8,
            color="dimgray", va="bottom", transform=ax.get_xaxis_transform())
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(sweep.c_values, [f"{c:.3g}" for c in sweep.c_values])
    ax.set_xlim(min(sweep.c_values) / 1.2, max(sweep.c_values) * 1.2)
    ax.set_xlabel("exploration constant c (rewards 1 / 0.5 / 0)")
    ax.set_ylabel("mean regret (expected wins lost)")
    ax.set_title(f"UCB1, {sweep.runs:,} runs per point (bars: 95% intervals)", fontsize=10)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8, loc="upper center")
    fig.tight_layout()
    return fig


def regret_curve_frames(sweep, figsize=(6.5, 3.8)) -> tuple[list, list, list]:
    """``(figures, c labels, captions)``: one figure per constant, its curve and band in colour
    over the others in grey (log pulls axis, log regret axis from 1 expected win lost, the same
    axes in every frame)."""
    import matplotlib.pyplot as plt

    sweep = _check(sweep, "CSweep", _SWEEP_FIELDS, "sweep")
    top = max(max(high) for high in sweep.curve_high) * 1.05
    figures, labels, captions = [], [], []
    longest = str(max(sweep.horizons))
    for k, c in enumerate(sweep.c_values):
        fig, ax = plt.subplots(figsize=figsize)
        for other, mean in enumerate(sweep.curve_mean):
            if other != k:
                ax.plot(sweep.curve_pulls, mean, color="lightgray", linewidth=1)
        ax.fill_between(sweep.curve_pulls, sweep.curve_low[k], sweep.curve_high[k],
                        color="tab:green", alpha=0.25, linewidth=0)
        ax.plot(sweep.curve_pulls, sweep.curve_mean[k], color="tab:green", linewidth=2)
        ax.set_xscale("log")
        ax.set_yscale("log")  # from 1 (a symmetric-log axis would bend every curve at its knee)
        ax.set_ylim(1, top)
        ax.set_xlim(1, sweep.curve_pulls[-1])
        ax.set_xlabel("pulls (log scale)")
        ax.set_ylabel("regret (expected wins lost)")
        ax.set_title(f"c = {c:.3g}: mean and 10th-90th percentile of {sweep.runs:,} runs "
                     "(grey: the other constants)", fontsize=9)
        ax.grid(alpha=0.3, which="both")
        fig.tight_layout()
        plt.close(fig)  # out of pyplot's list (it can still be drawn): no pile of open figures
        figures.append(fig)
        labels.append(f"{c:.3g}")
        row = sweep.tails[longest][k]
        captions.append(f"c = {c:.3g}: after {int(longest):,} pulls mean regret {row['mean']:.1f}, "
                        f"median {row['median']:.1f}, 99th percentile {row['p99']:.1f}")
    return figures, labels, captions


def plot_best_move(best, figsize=(7, 4.2)):
    """Chance of playing the best move against the budget: flat Monte Carlo (exact) and flat
    UCB (share of seeds, Wilson 95% intervals); returns the Figure."""
    import matplotlib.pyplot as plt

    best = _check(best, "BestMove", _BEST_FIELDS, "best")
    fig, ax = plt.subplots(figsize=figsize)
    ax.plot(best.budgets, best.flat_mc, "k-", marker="s", markersize=4,
            label="flat Monte Carlo (exact)")
    for k, (c, colour) in enumerate(zip(best.c_values, ("tab:green", "tab:purple"))):
        shares, lows, highs = [], [], []
        for count in best.flat_ucb_correct[k]:
            share, low, high = score_interval(count, 0, best.runs - count)
            shares.append(share)
            lows.append(share - low)
            highs.append(high - share)
        ax.errorbar(best.budgets, shares, yerr=[lows, highs], fmt="o-", capsize=2, markersize=4,
                    color=colour, label=f"flat UCB, c = {c:.3g} ({best.runs:,} seeds)")
    ax.set_xscale("log")
    ax.set_ylim(0.3, 1.01)
    ax.set_xlabel("budget (random playouts in all, log scale)")
    ax.set_ylabel(f"chance of playing move {best.best_move}")
    ax.set_title(f"{best.position}, X to move: the same budget, shared two ways", fontsize=10)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return fig
