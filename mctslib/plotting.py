"""Figures for the book, including plots that grow while a run progresses.

:class:`LivePlot` shows one matplotlib figure and redraws it in place while a
long loop runs: in JupyterLab the reader watches curves grow; when the cell
finishes, exactly one final static figure is left in the notebook, which is
what the published book shows and what nbval sees. It relies on IPython's
``display(..., display_id=True)`` and ``handle.update(...)``; outside IPython
it only draws at the end. Used by chapter 2 (regret curves) and later chapters.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import matplotlib.pyplot as plt


def _ipython_display():
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:  # pragma: no cover - IPython comes with Jupyter
        return None
    return display if get_ipython() is not None else None


class LivePlot:
    """A figure that redraws in place at most every ``min_interval`` seconds.

    Parameters
    ----------
    draw : callable(fig, data) -> None
        Clears and redraws the figure from the latest data. The same function
        draws the live frames and the final figure, so they cannot disagree.
    figsize : tuple of float
        Figure size in inches.
    min_interval : float
        Minimum seconds between redraws while running (redrawing costs time).

    Examples
    --------
    >>> live = LivePlot(draw_regret)            # doctest: +SKIP
    >>> for chunk in run_in_chunks():           # doctest: +SKIP
    ...     live.update(chunk)
    >>> live.finish(final_data)                 # doctest: +SKIP
    """

    def __init__(self, draw: Callable, figsize=(7.0, 4.0), min_interval: float = 0.5):
        self._draw = draw
        self._min_interval = min_interval
        self._last = None  # the first update always draws
        self._handle = None
        self.fig = plt.figure(figsize=figsize)
        # The figure is shown through our display handle only, never by the
        # inline backend at the end of the cell (that would be a second copy).
        plt.close(self.fig)
        self._display = _ipython_display()

    def update(self, data) -> None:
        """Redraw with ``data`` if enough time passed since the last redraw."""
        now = time.monotonic()
        if self._last is not None and now - self._last < self._min_interval:
            return
        self._last = now
        self._render(data)

    def finish(self, data) -> None:
        """Draw the final state: this is the one figure the notebook keeps."""
        self._render(data)

    def _render(self, data) -> None:
        self.fig.clear()
        self._draw(self.fig, data)
        if self._display is None:
            return
        if self._handle is None:
            self._handle = self._display(self.fig, display_id=True)
        else:
            self._handle.update(self.fig)
