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

from .._checks import MAX_EXACT_COUNT, check_choice, check_int, check_real, is_sequence, shown
from ..rng import make_rng

#: The exploration constant of the UCB1 paper, written as ``c * sqrt(ln N / n)``.
SQRT2 = math.sqrt(2.0)

#: The ways :func:`ucb1_step` can take the parent's visits ``N`` from its children's
#: (an explicit whole number is the third way). In the book's UCT (chapter 4) the root
#: is expanded on its first visit, so every visit of it went on into one child:
#: ``"sum"``. Every other node with children was expanded on its second visit, its
#: first visit having ended in a playout before it had children: ``"sum_plus_one"``.
PARENT_VISITS_RULES = ("sum", "sum_plus_one")


def check_parent_visits(parent_visits) -> str | int:
    """Return the ``parent_visits`` option of :func:`ucb1_step`, or raise ValueError.

    Allowed: ``"sum"``, ``"sum_plus_one"`` or a whole number from 0 to 2**53.
    Whether a whole number is large enough depends on the children (it must
    be at least their visits added up); :func:`ucb1_step` checks that.
    Chapter 3 ("One selection step, by hand").
    """
    try:
        if isinstance(parent_visits, str):
            return check_choice("parent_visits", parent_visits, PARENT_VISITS_RULES)
        return check_int("parent_visits", parent_visits, 0, MAX_EXACT_COUNT)
    except ValueError:
        # One sentence naming all three forms, whichever form the mistake took.
        raise ValueError(
            f"parent_visits must be 'sum' (N = the children's visits added up, as at the root "
            f"of the book's UCT), 'sum_plus_one' (one more, as at every other node with "
            f"children) or a whole number from 0 to 2**53, got {shown(parent_visits)}.") from None


def ucb1_bonus(parent_visits: int, visits: int, c: float = SQRT2) -> float:
    """Exploration bonus ``c * sqrt(ln(parent_visits) / visits)``; infinite when unvisited.

    Parameters
    ----------
    parent_visits : int
        The parent's visits ``N``, a whole number up to 2**53 (larger counts are
        not exact as floats); at least 1, and at least ``visits``, once the child
        has been visited (``ln N`` is then taken; a child's visits are visits
        of its parent).
    visits : int
        The child's visits ``n``, a whole number from 0 to 2**53; 0 gives infinity.
    c : float
        Exploration constant, a finite number ``>= 0``.

    Raises
    ------
    ValueError
        With a sentence naming the argument outside that domain.
    """
    visits, parent_visits, c = _check_counts(visits, parent_visits, c)
    if visits == 0:
        return math.inf
    return _bonus(parent_visits, visits, c)


def ucb1_score(wins: float, visits: int, parent_visits: int, c: float = SQRT2) -> float:
    """UCB1 score of one child: mean reward plus bonus; infinite when unvisited.

    ``wins`` is the child's total reward, rewards being in ``[0, 1]``: a number
    from 0 to ``visits``. The other arguments are those of :func:`ucb1_bonus`.
    """
    visits, parent_visits, c = _check_counts(visits, parent_visits, c)
    wins = check_real("wins", wins, 0.0, float(visits))
    if visits == 0:
        return math.inf
    return _score(wins, visits, parent_visits, c)


def _check_counts(visits, parent_visits, c) -> tuple[int, int, float]:
    visits = check_int("visits", visits, 0, MAX_EXACT_COUNT)
    parent_visits = check_int("parent_visits", parent_visits, 0, MAX_EXACT_COUNT)
    c = check_real("c (the exploration constant)", c, 0.0)
    if visits > 0 and parent_visits == 0:
        raise ValueError("parent_visits must be at least 1 once the child has been visited "
                         "(the bonus takes ln(parent_visits), and ln 0 is undefined), got 0.")
    if visits > 0 and parent_visits < visits:
        raise ValueError(f"parent_visits must be at least visits ({visits}) once the child has "
                         f"been visited: every visit of a child is a visit of its parent; got "
                         f"{parent_visits}.")
    return visits, parent_visits, c


def _bonus(parent_visits: int, visits: int, c: float) -> float:
    # Unchecked, for callers that checked their counts once: the arithmetic of the book.
    return c * math.sqrt(math.log(parent_visits) / visits)


def _score(wins: float, visits: int, parent_visits: int, c: float) -> float:
    # Unchecked (visits >= 1): the decoupled UCB1 player scores every move every round.
    return wins / visits + c * math.sqrt(math.log(parent_visits) / visits)


@dataclass(frozen=True)
class UCB1Row:
    """One child's line in a hand-traced UCB1 step (chapter 3).

    An unvisited child has no average: its ``mean`` is NaN (printed ``nan``)
    and its ``bonus`` and ``score`` are infinite.
    """

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
    #: Where ``parent_visits`` came from: ``"sum"`` or ``"sum_plus_one"`` of the
    #: children's visits, or ``"given"`` (a whole number passed to :func:`ucb1_step`).
    parent_rule: str = "sum"

    def format(self, digits: int = 3) -> str:
        """A plain-text table with ``digits`` decimals, 0 to 17 (what chapter 3 prints)."""
        digits = check_int("digits", digits, 0, 17)  # a float holds 17 significant digits

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
    children: Sequence[tuple[str, float, int]], c: float = SQRT2,
    parent_visits: str | int = "sum",
) -> UCB1Step:
    """Score every child with UCB1 and pick one, exactly as UCT's selection does.

    Parameters
    ----------
    children : sequence of (name, wins, visits)
        The children in the order the node stores them. Wins may be
        fractional (a draw counts 0.5) and lie in ``[0, visits]``.
    c : float
        Exploration constant, ``>= 0`` (``sqrt(2)`` is the UCB1 paper's).
    parent_visits : {"sum", "sum_plus_one"} or int
        The parent's visits ``N`` inside ``ln N``. ``"sum"`` (default): the
        children's visits added up, which holds at the root of the book's UCT
        (expanded on its first visit, so every visit of it went on into one
        child). ``"sum_plus_one"``: one more, which holds at every other node
        with children (expanded on its second visit; the first ended in a
        playout). A whole number: ``N`` itself, at least the children's visits
        added up (every visit of a child is a visit of its parent).

    Returns
    -------
    UCB1Step
        The rows, ``N`` and where it came from (``parent_rule``), and the choice.

    Raises
    ------
    ValueError
        With a sentence, for a bad child, a negative ``c``, a ``parent_visits``
        that is none of the three forms, or a whole number below the
        children's visits added up.

    Notes
    -----
    Ties are broken the same way every time: children are scanned in order,
    an unvisited child is taken at once, and a later child replaces the
    current best only if its score is strictly greater. So among equal scores
    the first child wins. Chapter 3 ("One selection step, by hand").
    """
    c = check_real("c (the exploration constant)", c, 0.0)
    if not is_sequence(children):
        raise ValueError(f"children must be a list of (name, wins, visits) entries, "
                         f"got {shown(children)}.")
    if len(children) == 0:
        raise ValueError("children must contain at least one (name, wins, visits) entry.")
    checked = []
    for index, child in enumerate(children):
        if not is_sequence(child) or len(child) != 3:
            raise ValueError(f"children[{index}] must be a (name, wins, visits) entry, "
                             f"got {shown(child)}.")
        name, wins, visits = child
        visits = check_int(f"visits of child {name}", visits, 0, MAX_EXACT_COUNT)
        wins = check_real(f"wins of child {name}", wins, 0.0, float(visits))
        checked.append((str(name), wins, visits))
    option = check_parent_visits(parent_visits)
    below = sum(visits for _, _, visits in checked)
    if below > MAX_EXACT_COUNT:
        raise ValueError(f"the children's visits must add up to at most 2**53 (the parent's "
                         f"visits, exact as a float), got {below}.")
    if isinstance(option, int):
        parent_rule, parent_visits = "given", option
        if parent_visits < below:
            raise ValueError(f"parent_visits must be at least the children's visits added up "
                             f"({below}): every visit of a child is a visit of its parent; got "
                             f"{parent_visits}.")
    else:
        parent_rule, parent_visits = option, below + (1 if option == "sum_plus_one" else 0)
        if parent_visits > MAX_EXACT_COUNT:
            raise ValueError(f"parent_visits 'sum_plus_one' gives N = {parent_visits}, more than "
                             f"2**53 (the largest count exact as a float).")
    rows = []
    for name, wins, visits in checked:
        if visits == 0:
            rows.append(UCB1Row(name, wins, visits, math.nan, math.inf, math.inf))
            continue
        bonus = _bonus(parent_visits, visits, c)
        rows.append(UCB1Row(name, wins, visits, wins / visits, bonus, wins / visits + bonus))
    chosen, reason = _choose(rows)
    return UCB1Step(tuple(rows), parent_visits, c, chosen, reason, parent_rule)


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


@dataclass(frozen=True)
class UCB1Walk:
    """Several UCB1 steps in a row from one table (chapter 3's fifty steps).

    ``steps[k]`` is the table scored before choice ``k + 1``; ``results[k]`` is what the
    chosen child's playout paid (1 a win, 0 a loss); ``final`` holds the children's
    ``(name, wins, visits)`` after the last step.
    """

    steps: tuple[UCB1Step, ...]
    results: tuple[float, ...]
    final: tuple[tuple[str, float, int], ...]

    @property
    def chosen_names(self) -> list[str]:
        """The name of the child chosen at every step."""
        return [step.rows[step.chosen].name for step in self.steps]


def ucb1_walk(children: Sequence[tuple[str, float, int]], win_chances: Sequence[float],
              steps: int, seed, c: float = SQRT2) -> UCB1Walk:
    """Take ``steps`` UCB1 steps from ``children``, each chosen child winning with its chance.

    Parameters
    ----------
    children : sequence of (name, wins, visits)
        The starting table, as for :func:`ucb1_step` (``N`` is the sum of the visits, as at
        the root of the book's UCT).
    win_chances : sequence of float
        For each child, the chance in ``[0, 1]`` that a playout through it wins (unknown to
        the rule, which sees only the results).
    steps : int
        How many steps, 1 to 100,000.
    seed : int, SeedSequence, Generator or None
        One uniform number per step comes from ``make_rng(seed)``: a win if it is below the
        chosen child's chance.
    c : float
        The exploration constant (default ``sqrt(2)``).

    Returns
    -------
    UCB1Walk
        Every step's table, every result and the final table. Chapter 3.
    """
    steps = check_int("steps", steps, 1, 100_000)
    if not is_sequence(win_chances) or not is_sequence(children) or len(win_chances) != len(
            children):
        raise ValueError(f"win_chances must hold one chance per child ({shown(children)}), "
                         f"got {shown(win_chances)}.")
    chances = [check_real(f"win_chances[{i}]", p, 0.0, 1.0) for i, p in enumerate(win_chances)]
    table = [list(child) for child in children]
    ucb1_step(children, c)  # checks the table and c with the usual sentences
    uniforms = make_rng(seed).random(steps)
    tables, results = [], []
    for uniform in uniforms:
        step = ucb1_step([tuple(row) for row in table], c)
        won = float(uniform < chances[step.chosen])
        table[step.chosen][1] += won
        table[step.chosen][2] += 1
        tables.append(step)
        results.append(won)
    return UCB1Walk(tuple(tables), tuple(results), tuple(tuple(row) for row in table))
