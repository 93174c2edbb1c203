"""How each decision's gain changes with the budget, from every stored result (issue 14).

The chapter "Ultimate Tic-Tac-Toe: tuning a real bot" first made its decisions
at 1,000 iterations per move (``data/uttt``, budget ``"full"``), then
re-measured them at 20,000 (``data/uttt/realistic``) and 100,000
(``data/uttt/deep``). :func:`gains_by_budget` gathers, for each on/off
decision, every stored comparison with its budget, for one figure.
"""


from __future__ import annotations

from .registry import BUDGETS, budget_directory
from .results import experiment_path, load_experiment

#: On/off decisions: the option named in a comparison's label ("OPTION=on vs off, ...").
DECISIONS = ("solver", "wins", "playout_wins", "tree_wins", "reuse")


def gains_by_budget(data_dir=None) -> dict[str, list[dict]]:
    """Every stored on/off comparison, grouped by decision, cheapest budget first.

    Parameters
    ----------
    data_dir : path, optional
        The folder holding the full results and the ``realistic`` and
        ``deep`` subfolders (default: the repository's ``data/uttt``).

    Returns
    -------
    dict
        ``{decision: [point, ...]}`` for each of :data:`DECISIONS` with at
        least one stored point, and ``"centre"`` (the centre opening against
        the bot's own searched first move) when stored. A point is a dict:
        ``budget`` (the registry budget: ``"full"``, ``"realistic"``,
        ``"deep"``), ``unit`` (``"iters"`` or ``"ms"``), ``value`` (iterations
        or ms per move), ``games``, ``score``, ``interval_95``,
        ``reproducible`` and ``label``. Points are sorted by unit, then value.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", "Decisions at the budget a bot plays with".
    """
    gains: dict[str, list[dict]] = {}
    for budget in ("full", "realistic", "deep"):
        directory = budget_directory(budget, data_dir)
        for name in BUDGETS[budget]:
            if name not in ("solver", "win_taking", "reuse", "centre") or not experiment_path(
                    name, directory).is_file():
                continue
            result = load_experiment(name, directory)
            for c in result.comparisons:
                decision = _decision(c.label, result)
                if decision is None:
                    continue
                unit = "ms" if "ms=" in c.label else "iters"
                value = c.value if isinstance(c.value, (int, float)) else (
                    result.parameters.get("iterations"))
                gains.setdefault(decision, []).append({
                    "budget": budget, "unit": unit, "value": value, "games": c.games,
                    "score": c.score, "interval_95": list(c.interval_95),
                    "reproducible": result.reproducible, "label": c.label})
    for points in gains.values():
        points.sort(key=lambda p: (p["unit"], p["value"]))
    return gains


def _decision(label: str, result) -> str | None:
    if "=on vs off" in label:
        option = label.split("=on vs off")[0]
        return option if option in DECISIONS else None
    if result.name == "centre" and result.parameters.get("against") == "searched":
        return "centre"
    return None


__all__ = ["DECISIONS", "gains_by_budget"]
