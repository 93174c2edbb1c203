"""How each decision's gain changes with the budget, from every stored result (issue 14).

The chapter "Ultimate Tic-Tac-Toe: tuning a real bot" first made its decisions
at 1,000 iterations per move (``data/uttt``, budget ``"full"``), then
re-measured them at 20,000 (``data/uttt/realistic``) and 100,000
(``data/uttt/deep``). :func:`gains_by_budget` gathers, for each on/off
decision, every stored comparison with its budget, for one figure;
:func:`exploration_by_budget` does the same for values of c against the
reference c = 0.5.
"""


from __future__ import annotations

import math

import numpy as np

from ..._checks import check_choice, check_real, is_sequence
from .registry import budget_directory
from .results import experiment_path, load_experiment

#: The budgets of the stored results, cheapest first (see :data:`.registry.BUDGETS`).
STORED_BUDGETS = ("full", "realistic", "deep")

#: On/off decisions: the option named in a comparison's label ("OPTION=on vs off, ...").
DECISIONS = ("solver", "wins", "playout_wins", "tree_wins", "reuse")


def gains_by_budget(data_dir=None, timed: bool = True) -> dict[str, list[dict]]:
    """Every stored on/off comparison, grouped by decision, cheapest budget first.

    Parameters
    ----------
    data_dir : path, optional
        The folder holding the full results and the ``realistic``, ``deep``
        and ``playing`` subfolders (default: the repository's ``data/uttt``).
    timed : bool
        Include the matches played on the clock (tree reuse at 10, 50 and
        100 ms, which do not repeat and did not store their iterations);
        False keeps only iteration budgets, among them tree reuse at equal
        new iterations (``playing/reuse_decision.json``, budget ``"playing"``).

    Returns
    -------
    dict
        ``{decision: [point, ...]}`` for each of :data:`DECISIONS` with at
        least one stored point, and ``"centre"`` (the centre opening against
        the bot's own searched first move) when stored. A point is a dict:
        ``budget`` (the registry budget: ``"full"``, ``"realistic"``,
        ``"deep"``, ``"playing"``), ``unit`` (``"iters"`` or ``"ms"``), ``value`` (iterations
        or ms per move), ``games``, ``score``, ``interval_95``,
        ``reproducible`` and ``label``. Points are sorted by unit, then value.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", "Decisions at the budget a bot plays with".
    """
    if not isinstance(timed, (bool, np.bool_)):
        raise ValueError(f"timed must be True or False, got {timed!r:.40}.")
    gains: dict[str, list[dict]] = {}
    for budget in (*STORED_BUDGETS, "playing"):
        directory = budget_directory(budget, data_dir)
        for name in ("solver", "win_taking", "reuse", "centre", "reuse_decision"):
            if not experiment_path(name, directory).is_file():
                continue
            result = load_experiment(name, directory)
            for c in result.comparisons:
                decision = _decision(c.label, result)
                if decision is None:
                    continue
                unit = "ms" if "ms=" in c.label else "iters"
                if unit == "ms" and not timed:
                    continue
                value = c.value if isinstance(c.value, (int, float)) else (
                    result.parameters.get("iterations"))
                gains.setdefault(decision, []).append({
                    "budget": budget, "unit": unit, "value": value, "games": c.games,
                    "score": c.score, "interval_95": list(c.interval_95),
                    "reproducible": result.reproducible, "label": c.label})
    for points in gains.values():
        points.sort(key=lambda p: (p["unit"], p["value"]))
    return gains


def exploration_by_budget(cs=(0.3, 0.7), scale: str = "01", data_dir=None) -> dict[float, list]:
    """Every stored score of c against the reference c = 0.5, by c, cheapest budget first.

    Parameters
    ----------
    cs : sequence of float
        The values of c to gather (each > 0), as stored in the comparisons'
        ``value`` (``0.414214`` for sqrt 2 - 1).
    scale : {"01", "pm1"}
        The reward scale the c belongs to.
    data_dir : path, optional
        As for :func:`gains_by_budget`.

    Returns
    -------
    dict
        ``{c: [point, ...]}`` in the order of ``cs``, one point per stored
        ``exploration`` result that holds this c and scale (none: an empty
        list). A point is a dict as in :func:`gains_by_budget` (``budget``,
        ``unit`` = ``"iters"``, ``value`` = iterations per move, ``games``,
        ``score``, ``interval_95``, ``reproducible``, ``label``).

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", "Decisions at the budget a bot plays with".
    """
    if not is_sequence(cs) or len(cs) == 0:
        raise ValueError(f"cs must be a non-empty sequence of numbers > 0, got {cs!r:.80}.")
    wanted = [check_real("each of cs", c, 1e-9) for c in cs]
    check_choice("scale", scale, ("01", "pm1"))
    found: dict[float, list] = {c: [] for c in wanted}
    for budget in STORED_BUDGETS:
        path = experiment_path("exploration", budget_directory(budget, data_dir))
        if not path.is_file():
            continue
        result = load_experiment("exploration", path.parent)
        for comparison in result.comparisons:
            if not comparison.label.endswith(f"scale={scale}"):
                continue
            for c in wanted:
                if math.isclose(comparison.value, c, rel_tol=1e-5):
                    found[c].append({
                        "budget": budget, "unit": "iters",
                        "value": result.parameters["iterations"], "games": comparison.games,
                        "score": comparison.score, "interval_95": list(comparison.interval_95),
                        "reproducible": result.reproducible, "label": comparison.label})
    for points in found.values():
        points.sort(key=lambda p: p["value"])
    return found


def _decision(label: str, result) -> str | None:
    if "=on vs off" in label:
        option = label.split("=on vs off")[0]
        return option if option in DECISIONS else None
    if result.name == "centre" and result.parameters.get("against") == "searched":
        return "centre"
    return None


__all__ = ["DECISIONS", "STORED_BUDGETS", "exploration_by_budget", "gains_by_budget"]
