"""Progress bars for long runs (tqdm.auto: a widget in JupyterLab, text in a terminal).

Progress bars are for people watching a run, and every bar of the library is
made here. They show where a person watches: in a terminal, and in JupyterLab
(a notebook's stderr is not a terminal, but tqdm.auto draws a widget there and
ignores that test). Where nobody watches, a command's stderr is a log file, a
pipe or a CI job: there a text bar would be a stream of carriage returns, so
none is drawn (tqdm's ``disable=None``) and the command's output is only its
final lines. When notebooks are executed to store their outputs, or checked by
nbval, the environment variable ``MCTSLIB_PROGRESS=0`` turns the bars off too,
so that the stored outputs hold only what the book teaches (a bar's timings
differ on every run).
"""

from __future__ import annotations

import os

from tqdm.auto import tqdm


def progress_enabled() -> bool:
    """False when ``MCTSLIB_PROGRESS`` is set to ``0`` (book builds, nbval, CI)."""
    return os.environ.get("MCTSLIB_PROGRESS", "1") != "0"


def progress_bar(total: int, description: str, unit: str = "it"):
    """A tqdm.auto bar, or a silent stand-in where nobody watches.

    Silent when progress is turned off (``MCTSLIB_PROGRESS=0``), and outside a
    notebook when stderr is not a terminal. Use it as a context manager and
    call ``update(n)`` as work completes.
    """
    # None: tqdm's own test, "draw only if the output is a terminal"; its notebook bar reads
    # None as "draw", which is right: a person watches a notebook.
    return tqdm(total=total, desc=description, unit=unit,
                disable=None if progress_enabled() else True, leave=False)
