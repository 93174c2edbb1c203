"""Regret curves of bandit experiments (chapter 2), drawn on any matplotlib figure.

Used by :class:`mctslib.views.plotting.LivePlot` while :func:`mctslib.learners.bandits.run_experiment`
runs, and for the chapter's static figures.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._checks import check_bool, check_real
from ..learners.bandits import BanditResult

# ------------------------------------------------------------------------ figures


def draw_regret(fig, results: Sequence[BanditResult], log_x: bool = False,
                ymax: float | None = None, colors: Sequence[str] | None = None,
                bands: Sequence[bool] | None = None) -> None:
    """Draw cumulative regret curves: one mean line and one shaded band per policy.

    Works as the ``draw`` function of :class:`mctslib.views.plotting.LivePlot`
    (``LivePlot(draw_regret)``) and on any matplotlib figure; the x axis spans
    all the pulls asked for, so live frames do not rescale as they grow.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        An empty figure; one axes is added to it.
    results : sequence of BanditResult
    log_x : bool
        Logarithmic pulls axis (logarithmic regret growth becomes a straight line).
    ymax : float, optional
        Upper limit of the regret axis, to keep a small curve readable next to
        a huge one; whatever is cut off should be quoted in the text.
    colors : sequence of str, optional
        One matplotlib colour per result (default: the colour cycle), so a
        policy can keep its colour across figures.
    bands : sequence of bool, optional
        Whether to shade each result's percentile band (default: every one), so a
        policy whose band would cover the chart can show its mean line alone.

    Chapter 2.
    """
    if not callable(getattr(fig, "add_subplot", None)):
        raise ValueError(f"fig must be a matplotlib Figure, got {type(fig).__name__}.")
    if isinstance(results, (str, bytes)) or not hasattr(results, "__iter__"):
        raise ValueError(f"results must be a sequence of BanditResult, got "
                         f"{type(results).__name__}.")
    results = list(results)
    for result in results:
        if not isinstance(result, BanditResult):
            raise ValueError(f"results must hold BanditResult objects (from run_experiment), got "
                             f"{type(result).__name__}.")
    if ymax is not None:
        ymax = check_real("ymax (the top of the regret axis)", ymax, 0.0)
        if ymax == 0:
            raise ValueError("ymax (the top of the regret axis) must be > 0, got 0.")
    if colors is not None:
        if isinstance(colors, (str, bytes)) or not hasattr(colors, "__len__"):
            raise ValueError(f"colors must be a sequence of colours, one per result, got "
                             f"{colors!r:.80}.")
        if len(colors) < len(results):
            raise ValueError(f"colors must give one colour per result ({len(results)}), got "
                             f"{len(colors)}.")
    if bands is None:
        bands = [True] * len(results)
    elif isinstance(bands, (str, bytes)) or not hasattr(bands, "__len__") or \
            len(bands) != len(results):
        raise ValueError(f"bands must give one True or False per result ({len(results)}), got "
                         f"{bands!r:.80}.")
    bands = [check_bool(f"bands[{index}]", band) for index, band in enumerate(bands)]
    log_x = check_bool("log_x", log_x)
    ax = fig.add_subplot(1, 1, 1)
    for index, result in enumerate(results):
        color = None if colors is None else colors[index]
        (line,) = ax.plot(result.pulls, result.mean_regret, label=result.label, color=color)
        if bands[index]:
            ax.fill_between(result.pulls, result.regret_low, result.regret_high,
                            color=line.get_color(), alpha=0.2, linewidth=0)
    if results:
        low, high = results[0].band_percentiles
        ax.set_xlim(1 if log_x else 0, results[0].total_pulls)
        ax.set_title(f"{results[0].runs} runs: mean (line) and "
                     f"{low:g}th-{high:g}th percentile (band)", fontsize=10)
    if log_x:
        ax.set_xscale("log")
    ax.set_ylim(0, ymax)
    ax.set_xlabel("pulls")
    ax.set_ylabel("cumulative regret (expected wins lost)")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left")
