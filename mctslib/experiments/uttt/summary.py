"""The chapter's results table: every match it cites, read from the stored results.

Chapter "Ultimate Tic-Tac-Toe: tuning a real bot" keeps its measured numbers in one
table, which :func:`results_table` builds from the files in ``data/uttt`` (see
``data/uttt/README.md``) and :func:`format_results_table` prints; the prose names a
row instead of repeating its interval. Each row is one stored comparison: its games,
wins, draws and losses for the first bot named, the score with its 95% Wilson interval,
the same on the Elo scale, and, for the matches stopped by the sequential test, its
decision.
"""


from __future__ import annotations

import math
from dataclasses import dataclass

from ...play.stats import elo_from_score
from .registry import budget_directory
from .results import load_experiment

#: (section, what, budget shown, registry budget, experiment, comparison label or prefix)
ROWS = (
    ("speed", "each budget vs half of it", "1,000 / 500", "realistic", "doubling",
     "iters=1000 vs 500"),
    ("speed", "each budget vs half of it", "32,000 / 16,000", "realistic", "doubling",
     "iters=32000 vs 16000"),
    ("c", "c = 0.3 vs 0.5", "1,000", "full", "exploration", "c=0.3,scale=01"),
    ("c", "c = 0.3 vs 0.5", "20,000", "realistic", "exploration", "c=0.3,scale=01"),
    ("c", "c = 0.3 vs 0.5", "100,000", "deep", "exploration", "c=0.3,scale=01"),
    ("c", "c = 0.7 vs 0.5", "1,000", "full", "exploration", "c=0.7,scale=01"),
    ("c", "c = 0.7 vs 0.5", "20,000", "realistic", "exploration", "c=0.7,scale=01"),
    ("c", "c = 0.7 vs 0.5", "100,000", "deep", "exploration", "c=0.7,scale=01"),
    ("c", "c = 1 vs 0.5", "1,000", "full", "exploration", "c=1,scale=01"),
    ("c", "c = 1 vs 0.5", "20,000", "realistic", "exploration", "c=1,scale=01"),
    ("c", "c = 0.6 vs 0.7", "1,000", "full", "games_needed", "c=0.6 vs c=0.7"),
    ("c", "c = 0.4 vs 0.5", "1,000", "full", "games_needed", "c=0.4 vs c=0.5"),
    ("wins", "win-taking, both halves", "1,000", "full", "win_taking", "wins=on"),
    ("wins", "win-taking, playouts only", "20,000", "realistic", "win_taking", "playout_wins"),
    ("wins", "win-taking, tree only", "20,000", "realistic", "win_taking", "tree_wins"),
    ("wins", "win-taking, both halves", "100,000", "deep", "win_taking", "wins=on"),
    ("wins", "win-taking, playouts only", "100,000", "deep", "win_taking", "playout_wins"),
    ("wins", "win-taking, tree only", "100,000", "deep", "win_taking", "tree_wins"),
    ("solver", "MCTS-Solver on vs off", "1,000", "full", "solver", "solver"),
    ("solver", "MCTS-Solver on vs off", "20,000", "realistic", "solver", "solver"),
    ("solver", "MCTS-Solver on vs off", "100,000", "deep", "solver", "solver"),
    ("reuse", "tree reuse on vs off*", "100,000", "playing", "reuse_decision", "reuse"),
    ("opening", "X's score, centre opening", "1,000", "full", "centre", "centre"),
    ("opening", "X's score, random first move", "1,000", "full", "centre", "random"),
    ("opening", "centre vs own searched first move", "20,000", "realistic", "centre",
     "centre vs searched"),
    ("decide", "c = 0.6 vs 0.5 (the bot)*", "100,000", "playing", "c_decision", "c=0.6"),
    ("decide", "c = 0.4 vs 0.5 (the bot)*", "100,000", "playing", "c_decision", "c=0.4"),
    ("openspiel", "matched bot vs OpenSpiel uct_c 1", "2,000 / 2,000", "realistic",
     "openspiel", "matched"),
    ("openspiel", "our bot vs OpenSpiel uct_c 1", "2,000 / 2,000", "realistic", "openspiel",
     "best"),
)
#: Rows of OpenSpiel's sweep and of the count matches, whose labels depend on the tuned uct_c.
OPENSPIEL_ROWS = (
    ("openspiel_sweep", "OpenSpiel uct_c {value:g} vs 2", "13,000 / 13,000"),
    ("openspiel_equal_time", "our bot vs OpenSpiel uct_c {value:g}, equal time",
     "130,000 / 13,000"),
    ("openspiel_ten_times", "our bot vs OpenSpiel uct_c {value:g}, 10x its time",
     "130,000 / 130,000"),
)


@dataclass(frozen=True)
class ResultRow:
    """One row of the results table (scores and Elo are the first-named bot's)."""

    section: str
    what: str
    budget: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    low: float
    high: float
    decision: str = ""

    @property
    def elo(self) -> tuple[float, float, float]:
        """The score and its interval's ends on the Elo scale (infinite at 0 or 1)."""
        return tuple(_elo(x) for x in (self.score, self.low, self.high))


def _elo(score: float) -> float:
    if score <= 0.0 or score >= 1.0:
        return math.copysign(math.inf, score - 0.5)
    return elo_from_score(score)


def _row(section, what, budget, comparison, decision="") -> ResultRow:
    return ResultRow(section, what, budget, comparison.games, comparison.wins,
                     comparison.draws, comparison.losses, comparison.score, comparison.low,
                     comparison.high, decision)


def _decision(result, comparison) -> str:
    for test in result.summary.get("tests", []):
        if test["label"] == comparison.label:
            if test["decision"] is None:
                return "undecided at the cap" if test["capped"] else "undecided"
            return f"accepts {test['decision']} after {test['games']} games"
    return ""


def results_table(data_dir=None) -> list[ResultRow]:
    """Every row of the chapter's results table, from the stored results.

    ``data_dir`` is the folder of the full results with the ``realistic``,
    ``deep`` and ``playing`` subfolders (default: the repository's
    ``data/uttt``). Rows of the sequential matches carry the test's decision.
    Raises ValueError, naming the file, if a stored result is missing.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", "Results".
    """
    loaded: dict = {}

    def result(budget, name):
        if (budget, name) not in loaded:
            loaded[budget, name] = load_experiment(name, budget_directory(budget, data_dir))
        return loaded[budget, name]

    rows = []
    for section, what, shown, budget, name, label in ROWS:
        stored = result(budget, name)
        comparison = next((c for c in stored.comparisons if c.label.startswith(label)), None)
        if comparison is None:
            raise ValueError(f"no comparison starting {label!r} in {name} ({budget})")
        rows.append(_row(section, what, shown, comparison, _decision(stored, comparison)))
    for name, what, shown in OPENSPIEL_ROWS:
        stored = result("playing", name)
        for comparison in stored.comparisons:
            rows.append(_row("openspiel", what.format(value=comparison.value), shown,
                             comparison))
    return rows


def format_results_table(rows) -> str:
    """The rows as text: what, budget, games, W-D-L, score [95%], Elo [95%], test decision."""
    header = (f"{'':<4}{'match (first-named bot scores)':<46}{'iterations':>16}{'games':>7}"
              f"{'W-D-L':>12}  score [95%]           Elo [95%]")
    lines = [header]
    for number, row in enumerate(rows, 1):
        elo, low, high = row.elo
        lines.append(f"{number:>2}. {row.what:<46}{row.budget:>16}{row.games:>7}"
                     f"{f'{row.wins}-{row.draws}-{row.losses}':>12}  {row.score:.3f} "
                     f"[{row.low:.3f}, {row.high:.3f}]  {elo:+5.0f} [{low:+.0f}, {high:+.0f}]"
                     + (f"  {row.decision}" if row.decision else ""))
    return "\n".join(lines)
