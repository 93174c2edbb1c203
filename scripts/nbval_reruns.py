"""A pytest plugin: under nbval, every chapter must print the same when a learner re-runs cells.

nbval checks that a fresh kernel running a chapter top to bottom reproduces the stored outputs.
A learner does more: re-runs the cell they just ran, or scrolls back up and re-runs an earlier
section after the whole chapter has run. ``scripts/test.sh`` loads this plugin
(``-p scripts.nbval_reruns``), which adds both to nbval's own run, in nbval's kernel:

1. **Each cell twice in a row.** After a cell has run and matched its stored outputs, it runs
   again at once and must match them again (nbval's own comparison; cells tagged
   ``nbval-ignore-output`` must only run without an error). This catches state that grows across
   runs: a tree a cell keeps iterating, a list it appends to, a random generator created in an
   earlier cell and drawn from here.
2. **A second pass.** After the chapter's last cell, its quick cells (those whose first run took
   under ``SECOND_PASS_SECONDS``) run again in order and must match their stored outputs. This
   catches a cell that reads something a later section changes: a name it finds only if a later
   cell bound it, a setting such as ``np.set_printoptions``, a module-level cache. The slow
   cells are left out of this pass because they are the experiments, whose inputs are set in
   their own cells, and because they have already run twice; a quick cell that reads what a
   slow one computed sees that result again, as a learner re-running it alone would.

Both used to run as a separate test that executed every chapter three more times in kernels
of its own; in nbval's run they cost one more run of each chapter and a few seconds.
Run one chapter: ``python -m pytest notebooks/01_flat_monte_carlo.ipynb --nbval
--nbval-current-env -p scripts.nbval_reruns``.
"""

from __future__ import annotations

import copy
import time

import pytest
from nbval.plugin import IPyNbCell, NbCellError

#: A cell whose first run took less than this (seconds) is re-run in the second pass.
SECOND_PASS_SECONDS = 2.0

_NEXT_ITEM = pytest.StashKey[object]()
_STORED = pytest.StashKey[object]()


def _run_again(item) -> None:
    item.cell.outputs = copy.deepcopy(item.stash[_STORED])
    item.runtest()


def _cell_error(item, message: str, detail: str = ""):
    return NbCellError(item.cell_num, message, item.cell.source, detail)


class NbvalReruns:
    """Re-runs nbval's cells at once and, at the end of each notebook, its quick cells again."""

    def __init__(self):
        # notebook (nbval's IPyNbFile) -> [(cell item, seconds of its first run)], passed cells
        self.ran: dict[object, list[tuple[object, float]]] = {}
        self.failed: set[object] = set()

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item, nextitem):
        item.stash[_NEXT_ITEM] = nextitem  # the call phase must know if this is the last cell

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item):
        if not isinstance(item, IPyNbCell) or item.options["skip"]:
            return (yield)
        notebook = item.parent
        # nbval merges the stored stream outputs in place when it compares: keep them as stored.
        item.stash[_STORED] = copy.deepcopy(item.cell.outputs)
        start = time.perf_counter()
        try:
            result = yield
        except BaseException:
            self.failed.add(notebook)
            raise
        seconds = time.perf_counter() - start
        try:
            _run_again(item)
        except (NbCellError, RuntimeError) as error:
            self.failed.add(notebook)
            raise _cell_error(item, "Re-run at once, the cell prints something else or fails",
                              _describe(error)) from error
        self.ran.setdefault(notebook, []).append((item, seconds))
        nextitem = item.stash.get(_NEXT_ITEM, None)
        if nextitem is None or nextitem.parent is not notebook:
            self._second_pass(item, notebook)
        return result

    def _second_pass(self, last, notebook) -> None:
        cells = self.ran.pop(notebook, [])
        if notebook in self.failed:
            return  # the chapter already failed; its kernel's state proves nothing
        problems = []
        for cell, seconds in cells:
            if seconds >= SECOND_PASS_SECONDS:
                continue
            try:
                _run_again(cell)
            except (NbCellError, RuntimeError) as error:  # a difference, an error, a dead kernel
                problems.append(f"Cell {cell.cell_num}: {_describe(error)}")
        if problems:
            raise _cell_error(
                last, "After the whole chapter ran, a second pass over its quick cells printed "
                "something else (a cell reads what a later cell changes)", "\n\n".join(problems))


def _describe(error: Exception) -> str:
    """nbval's message and its comparison or traceback, as one text."""
    parts = [str(error)]
    inner = getattr(error, "inner_traceback", None)
    if inner:
        parts.append(str(inner))
    return "\n".join(parts)


def pytest_configure(config):
    config.pluginmanager.register(NbvalReruns(), "nbval-reruns")
