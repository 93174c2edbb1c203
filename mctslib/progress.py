"""Progress bars for long runs (tqdm.auto: a widget in JupyterLab, text in a terminal).

Progress bars are for people watching a run. When notebooks are executed to
store their outputs, or checked by nbval, the environment variable
``MCTSLIB_PROGRESS=0`` turns them off so that the stored outputs hold only
what the book teaches (a bar's timings differ on every run).
"""

from __future__ import annotations

import os

from tqdm.auto import tqdm


def progress_enabled() -> bool:
    """False when ``MCTSLIB_PROGRESS`` is set to ``0`` (book builds, nbval, CI)."""
    return os.environ.get("MCTSLIB_PROGRESS", "1") != "0"


def progress_bar(total: int, description: str, unit: str = "it"):
    """A tqdm.auto bar (or a silent stand-in when progress is turned off).

    Use it as a context manager and call ``update(n)`` as work completes.
    """
    return tqdm(total=total, desc=description, unit=unit, disable=not progress_enabled(),
                leave=False)
