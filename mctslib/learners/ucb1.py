"""Selection rules: how a node (or a bandit) picks which child (arm) to try next.

UCB1 (Auer, Cesa-Bianchi and Fischer 2002) scores a child by its mean reward
plus an exploration bonus ``c * sqrt(ln N / n)``. With ``c = sqrt(2)`` this is
the paper's ``sqrt(2 ln N / n)``. Chapter 2 (bandits) uses it on arms, chapter
3 traces one step by hand, and the UCT chapter applies it at every node.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .._checks import check_int, check_real

#: The exploration constant of the UCB1 paper, written as ``c * sqrt(ln N / n)``.
SQRT2 = math.sqrt(2.0)


def ucb1_bonus(parent_visits: int, visits: int, c: float = SQRT2) -> float:
    """Exploration bonus ``c * sqrt(ln(parent_visits) / visits)``; infinite when unvisited."""
    if visits == 0:
        return math.inf
    return c * math.sqrt(math.log(parent_visits) / visits)


def ucb1_score(wins: float, visits: int, parent_visits: int, c: float = SQRT2) -> float:
    """UCB1 score of one child: mean reward plus bonus; infinite when unvisited."""
    if visits == 0:
        return math.inf
    return wins / visits + ucb1_bonus(parent_visits, visits, c)


@dataclass(frozen=True)
class UCB1Row:
    """One child's line in a hand-traced UCB1 step (chapter 3)."""

    name: str
    wins: float
    visits: int
    mean: float
    bonus: float
    score: float


@dataclass(frozen=True)
class UCB1Step:
    """A whole selection step: every child's row, the parent's visits and the choice."""

    rows: tuple[UCB1Row, ...]
    parent_visits: int
    c: float
    chosen: int
    reason: str

    def format(self, digits: int = 3) -> str:
        """A plain-text table with ``digits`` decimals (what chapter 3 prints)."""
        def number(value: float) -> str:
            return "inf" if math.isinf(value) else f"{value:.{digits}f}"

        log_n = number(math.log(self.parent_visits)) if self.parent_visits > 0 else "undefined"
        header = f"N = {self.parent_visits}, ln N = {log_n}, c = {number(self.c)}"
        lines = [header, f"{'child':<6}{'wins':>6}{'visits':>8}{'mean':>8}{'bonus':>8}{'score':>8}"]
        for row in self.rows:
            lines.append(
                f"{row.name:<6}{row.wins:>6g}{row.visits:>8d}{number(row.mean):>8}"
                f"{number(row.bonus):>8}{number(row.score):>8}"
            )
        lines.append(f"chosen: {self.rows[self.chosen].name} ({self.reason})")
        return "\n".join(lines)


def ucb1_step(
    children: Sequence[tuple[str, float, int]], c: float = SQRT2
) -> UCB1Step:
    """Score every child with UCB1 and pick one, exactly as UCT's selection does.

    Parameters
    ----------
    children : sequence of (name, wins, visits)
        The children in the order the node stores them. Wins may be
        fractional (a draw counts 0.5) and lie in ``[0, visits]``.
    c : float
        Exploration constant, ``>= 0`` (``sqrt(2)`` is the UCB1 paper's).

    Returns
    -------
    UCB1Step
        The parent's visit count is the sum of the children's visits (every
        visit of the parent after its expansion went to one child).

    Notes
    -----
    Ties are broken the same way every time: children are scanned in order,
    an unvisited child is taken at once, and a later child replaces the
    current best only if its score is strictly greater. So among equal scores
    the first child wins. Chapter 3 ("One selection step, by hand").
    """
    c = check_real("c (the exploration constant)", c, 0.0)
    if len(children) == 0:
        raise ValueError("children must contain at least one (name, wins, visits) entry.")
    checked = []
    for name, wins, visits in children:
        visits = check_int(f"visits of child {name}", visits, 0)
        wins = check_real(f"wins of child {name}", wins, 0.0, float(visits))
        checked.append((str(name), wins, visits))
    parent_visits = sum(visits for _, _, visits in checked)
    rows = []
    for name, wins, visits in checked:
        if visits == 0:
            rows.append(UCB1Row(name, wins, visits, math.nan, math.inf, math.inf))
            continue
        bonus = ucb1_bonus(parent_visits, visits, c)
        rows.append(UCB1Row(name, wins, visits, wins / visits, bonus, wins / visits + bonus))
    chosen, reason = _choose(rows)
    return UCB1Step(tuple(rows), parent_visits, c, chosen, reason)


def _choose(rows: Sequence[UCB1Row]) -> tuple[int, str]:
    for index, row in enumerate(rows):
        if row.visits == 0:
            return index, "never visited, so it is tried before any comparison"
    best = 0
    for index in range(1, len(rows)):
        if rows[index].score > rows[best].score:  # strict: the first of equal scores stays
            best = index
    tied = [row.name for row in rows if row.score == rows[best].score]
    if len(tied) > 1:
        return best, f"highest score, tied with {', '.join(tied[1:])}; the first in order wins ties"
    return best, "highest score"
