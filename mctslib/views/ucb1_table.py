"""The UCB1 table of chapter 3: a reader edits a node's children and watches the rule choose.

Built in two layers, like every widget of the book, so that the teaching
logic can be tested without a browser:

- pure functions turn numbers into table rows, sentences, plain text and HTML;
- a thin ``ipywidgets`` class reads its inputs, calls those functions on every
  change and shows the result.

The widgets are live in JupyterLab. The published book draws them from the
widget state stored when the notebook was executed, so there they show their
default state and editing changes nothing (no Python kernel is running). No
label holds LaTeX: the book's static widget renderer cannot typeset it.

Chapter 3 ("One selection step, by hand") uses :class:`UCB1TableWidget` and
:func:`ucb1_result_text` (its static text). Both take the parent's visits N
either way the book's UCT produces it (``parent_visits="sum"`` at the root,
``"sum_plus_one"`` at every other node with children) or as a given number.
The other widgets have modules of their own: :mod:`mctslib.views.sum15`,
:mod:`mctslib.views.uttt_widget`.
"""


from __future__ import annotations

import html
import math
import operator
import string
from collections.abc import Sequence

import ipywidgets as widgets

from .._checks import MAX_EXACT_COUNT, check_real
from ..learners.ucb1 import SQRT2, UCB1Step, check_parent_visits, ucb1_step
from ..search.minimax import check_budget

#: One child as the selection step sees it: (name, wins, visits).
ChildEntry = tuple[str, float, int]

#: The most decimals shown: a float holds about 17 significant digits.
MAX_DIGITS = 17

#: The root of chapter 3, visited N = 10 times: A won 4 of 6 visits, B 1 of 3, C 0 of 1.
CHAPTER3_CHILDREN: tuple[ChildEntry, ...] = (("A", 4.0, 6), ("B", 1.0, 3), ("C", 0.0, 1))

#: The widget's choices for N: (label, option of :func:`ucb1_step`; "given" reads a number).
PARENT_VISITS_CHOICES = (
    ("sum of the children's visits (the root)", "sum"),
    ("sum + 1 (any other node with children)", "sum_plus_one"),
    ("a number I type", "given"),
)

#: Which nodes each choice describes, shown inside the widget.
PARENT_VISITS_NOTE = (
    "Which N? In the book's UCT (chapter 4) the root is expanded on its first visit, so "
    "every visit of it went on into one child: N is the sum of the children's visits. "
    "Every other node with children was expanded on its second visit: its first visit "
    "ended in a playout before it had children, so its N is that sum plus one. UCT takes "
    "ln N of the node's own visits, whichever holds.")

_COLUMNS = ("child", "wins", "visits", "mean", "bonus", "score")
# A translucent highlight reads in light and dark themes alike.
_CHOSEN_STYLE = "background: rgba(255, 190, 0, 0.35); font-weight: bold;"
_ERROR_STYLE = "border-left: 4px solid #c0392b; padding: 0.4em 0.8em; margin: 0.3em 0;"


# ---------------------------------------------------------------------------
# Pure logic: numbers in, rows / sentences / text / HTML out (no widgets here).
# ---------------------------------------------------------------------------

def _number(value: float, digits: int) -> str:
    if math.isnan(value):
        return "-"  # the mean of a child that was never visited is undefined
    if math.isinf(value):
        return "inf"
    return f"{value:.{digits}f}"


def _check_step(step) -> None:
    if not isinstance(step, UCB1Step):
        raise ValueError(f"step must be a UCB1Step (from mctslib.learners.ucb1.ucb1_step), got "
                         f"{type(step).__name__}.")


def _check_digits(digits) -> int:
    return check_budget("digits", digits, 0, MAX_DIGITS)


def ucb1_table_rows(step: UCB1Step, digits: int = 3) -> list[tuple[str, ...]]:
    """Cells of the result table: child, wins, visits, mean, bonus, score.

    Means, bonuses and scores are rounded to ``digits`` decimals (0 to
    :data:`MAX_DIGITS`); an unvisited child shows ``-`` as its mean and
    ``inf`` as its bonus and score. Chapter 3 ("One selection step, by hand").
    """
    _check_step(step)
    digits = _check_digits(digits)
    return [
        (row.name, f"{row.wins:g}", str(row.visits), _number(row.mean, digits),
         _number(row.bonus, digits), _number(row.score, digits))
        for row in step.rows
    ]


def parent_visits_sentence(step: UCB1Step, digits: int = 3) -> str:
    """Say where N comes from, e.g. ``N = 6 + 3 + 1 = 10 (...)``, with ln N and c.

    The reason follows ``step.parent_rule``: the sum of the children's visits
    (the root of the book's UCT), one more (every other node with children:
    its first visit ended in a playout before it had children), or a given N
    next to the children's sum. Chapter 3 ("One selection step, by hand").
    """
    _check_step(step)
    digits = _check_digits(digits)
    terms = " + ".join(str(row.visits) for row in step.rows)
    below = sum(row.visits for row in step.rows)
    if step.parent_rule == "sum_plus_one":
        sentence = (f"N = {terms} + 1 = {step.parent_visits} (one more than the children's "
                    f"visits, as at every node with children in the book's UCT except the root: its "
                    f"first visit ended in a playout before it had children)")
    elif step.parent_rule == "given":
        added = f"{terms} = {below}" if len(step.rows) > 1 else terms
        sentence = f"N = {step.parent_visits} (given; the children's visits add up to {added})"
    else:
        total = f"{terms} = {step.parent_visits}" if len(step.rows) > 1 else terms
        sentence = (f"N = {total} (the sum of the children's visits, as at the root of the "
                    f"book's UCT: every visit of it went on into one child)")
    if step.parent_visits > 0:  # ln 0 is undefined; with N = 0 no score is needed anyway
        sentence += f"; ln N = {_number(math.log(step.parent_visits), digits)}"
    return sentence + f"; c = {_number(step.c, digits)}."


def choice_sentence(step: UCB1Step, digits: int = 3) -> str:
    """One sentence naming the chosen child and why, starting ``chosen: <name>``.

    The reason is one of: never visited (tried before any comparison), a tie
    (the first child in table order wins), or the highest score (with the
    runner-up and the margin). Chapter 3 ("One selection step, by hand").
    """
    _check_step(step)
    digits = _check_digits(digits)
    chosen = step.rows[step.chosen]
    if chosen.visits == 0:
        return (f"chosen: {chosen.name}, because it has never been visited: an unvisited "
                f"child is tried before any scores are compared (the first one in table "
                f"order, if there are several).")
    score = _number(chosen.score, digits)
    others = [row for index, row in enumerate(step.rows) if index != step.chosen]
    tied = [row.name for row in others if row.score == chosen.score]
    if tied:
        return (f"chosen: {chosen.name}, because its score {score} is the highest, tied with "
                f"{', '.join(tied)}; on a tie the first child in table order wins.")
    if not others:
        return f"chosen: {chosen.name}, because it is the only child (score {score})."
    runner_up = max(others, key=lambda row: row.score)
    margin = chosen.score - runner_up.score
    # A margin too small to show at `digits` decimals is printed in scientific notation,
    # so the reader never sees "ahead by 0.000" for two scores that merely look equal.
    shown = f"{margin:.{digits}f}" if margin >= 0.5 * 10.0**-digits else f"{margin:.1e}"
    return (f"chosen: {chosen.name}, because its score {score} is the highest, ahead of "
            f"{runner_up.name} ({_number(runner_up.score, digits)}) by {shown}.")


def _error_sentence(error: Exception) -> str:
    return f"Cannot score this table: {_reason(error)} Correct the entry and the table updates."


def _reason(error: Exception) -> str:
    """What was wrong, as a sentence: a ValueError says it; anything else is described here."""
    if isinstance(error, ValueError):
        return str(error)
    if isinstance(error, OverflowError):
        return ("a number is too large to score: wins and visits must be at most 2**53 "
                "(9,007,199,254,740,992).")
    return f"the entries must be (name, wins, visits) with numbers for wins and visits ({error})."


def _scored(children, c, parent_visits):
    """``ucb1_step(children, c, parent_visits)``, or the error that stopped it.

    The widget's inputs come from a reader typing: whatever they hold, the
    answer is a table or a sentence, never a traceback.
    """
    try:
        return ucb1_step(children, c, parent_visits=parent_visits), None
    except (ValueError, TypeError, ArithmeticError) as error:
        return None, error


def ucb1_result_text(children: Sequence[ChildEntry], c: float = SQRT2, digits: int = 3,
                     parent_visits: str | int = "sum") -> str:
    """The UCB1 table widget's result as plain text (what the book prints statically).

    Parameters
    ----------
    children : sequence of (name, wins, visits)
        As for :func:`mctslib.learners.ucb1.ucb1_step`.
    c : float
        Exploration constant, ``>= 0``.
    digits : int
        Decimals shown for means, bonuses and scores.
    parent_visits : {"sum", "sum_plus_one"} or int
        The parent's visits N, as for :func:`mctslib.learners.ucb1.ucb1_step`:
        ``"sum"`` (default) holds at the root of the book's UCT,
        ``"sum_plus_one"`` at every other node with children.

    Returns
    -------
    str
        The N sentence, the table and the choice sentence; for numbers that
        cannot be scored (wins > visits, negative values, no children, a given
        N below the children's visits), one sentence saying what is wrong
        instead of a traceback.
        Chapter 3 ("One selection step, by hand").

    Raises
    ------
    ValueError
        For ``digits`` out of range or a ``parent_visits`` that is none of the
        three forms (mistakes in the call, not in the table's numbers).
    """
    digits = _check_digits(digits)
    parent_visits = check_parent_visits(parent_visits)
    step, error = _scored(children, c, parent_visits)
    if error is not None:
        return _error_sentence(error)
    widths = (6, 6, 8, 8, 8, 8)
    lines = [parent_visits_sentence(step, digits)]
    for cells in [_COLUMNS, *ucb1_table_rows(step, digits)]:
        first, *rest = cells
        lines.append(f"{first:<{widths[0]}}" + "".join(
            f"{cell:>{width}}" for cell, width in zip(rest, widths[1:], strict=True)))
    lines.append(choice_sentence(step, digits))
    return "\n".join(lines)


def ucb1_result_html(children: Sequence[ChildEntry], c: float = SQRT2, digits: int = 3,
                     parent_visits: str | int = "sum") -> str:
    """The UCB1 table widget's result as HTML: the same content as :func:`ucb1_result_text`.

    The chosen child's row is highlighted; bad numbers give a highlighted
    message instead of a table. Chapter 3 ("One selection step, by hand").
    """
    digits = _check_digits(digits)
    parent_visits = check_parent_visits(parent_visits)
    step, error = _scored(children, c, parent_visits)
    if error is not None:
        return _error_html(error)
    header = "".join(f'<th style="padding: 0 0.8em;">{name}</th>' for name in _COLUMNS)
    body = []
    for index, cells in enumerate(ucb1_table_rows(step, digits)):
        style = f' class="ucb1-chosen" style="{_CHOSEN_STYLE}"' if index == step.chosen else ""
        # Names align left, numbers right, so that decimals line up down a column.
        tds = "".join(
            f'<td style="padding: 0 0.8em; text-align: {"left" if column == 0 else "right"};">'
            f"{html.escape(cell)}</td>" for column, cell in enumerate(cells))
        body.append(f"<tr{style}>{tds}</tr>")
    return (
        f"<p>{html.escape(parent_visits_sentence(step, digits))}<br>"
        "score = mean + bonus, where bonus = c * sqrt(ln N / visits)</p>"
        f'<table style="border-collapse: collapse; margin: 0.3em 0;"><thead><tr>{header}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
        f"<p><b>{html.escape(choice_sentence(step, digits))}</b></p>"
    )


def _error_html(error: Exception) -> str:
    message = html.escape(_error_sentence(error))
    return f'<div class="ucb1-error" style="{_ERROR_STYLE}">{message}</div>'


# ---------------------------------------------------------------------------
# Widget plumbing: inputs -> pure functions -> HTML.
# ---------------------------------------------------------------------------

_NAME_WIDTH, _INPUT_WIDTH = "4em", "8em"


class UCB1TableWidget(widgets.VBox):
    """An editable table of children whose UCB1 scores and choice update on every edit.

    One row per child (its name, wins and visits), an input for the
    exploration constant ``c``, a choice of how the parent's visits N are
    counted (with a note saying which nodes each choice describes), buttons
    to add a never-visited child or remove the last one, and a result table
    (mean, bonus, score, the chosen child highlighted and a sentence saying
    why). Numbers that cannot be scored show a message inside the widget,
    never a traceback. Chapter 3 ("One selection step, by hand").

    Parameters
    ----------
    rows : sequence of (name, wins, visits)
        The starting table (default: chapter 3's root, A 4/6, B 1/3, C 0/1).
    c : float
        Starting exploration constant (default ``sqrt(2)``, the UCB1 paper's).
    digits : int
        Decimals shown for means, bonuses and scores.
    parent_visits : {"sum", "sum_plus_one"} or int
        How N starts: the sum of the children's visits (default; the root of
        the book's UCT), one more (every other node with children), or a
        given whole number. Read and set it later through the
        :attr:`parent_visits` property.

    Notes
    -----
    CSS classes for browser tests: ``ucb1-wins-<i>`` and ``ucb1-visits-<i>`` on
    row ``i``'s inputs (from 0), ``ucb1-name-<i>`` on its name, ``ucb1-c`` on
    the constant, ``ucb1-n-rule`` on the choice of N and ``ucb1-n`` on the
    typed N, ``ucb1-add`` / ``ucb1-remove`` on the buttons and ``ucb1-result``
    on the result, whose text contains ``chosen: <name>``.
    """

    def __init__(self, rows: Sequence[ChildEntry] = CHAPTER3_CHILDREN, c: float = SQRT2,
                 digits: int = 3, parent_visits: str | int = "sum"):
        self._digits = _check_digits(digits)
        parent_visits = check_parent_visits(parent_visits)
        if isinstance(rows, (str, bytes)) or not hasattr(rows, "__iter__"):
            raise ValueError(f"rows must be a sequence of (name, wins, visits), got "
                             f"{type(rows).__name__}.")
        rows = [_entry(entry) for entry in rows]  # checked before any widget is made
        given = isinstance(parent_visits, int)
        self.n_rule_input = widgets.Dropdown(
            options=PARENT_VISITS_CHOICES, value="given" if given else parent_visits,
            description="parent's visits N", style={"description_width": "initial"},
            layout=widgets.Layout(width="30em"))
        self.n_rule_input.add_class("ucb1-n-rule")
        # The typed N starts at the table's sum, so choosing "a number I type" changes nothing
        # until the reader edits it (clipped: a starting table may hold unscorable counts).
        total = sum(visits for _, _, visits in rows)
        self.n_input = widgets.IntText(
            value=parent_visits if given else max(0, min(total, MAX_EXACT_COUNT)),
            description="N", disabled=not given, continuous_update=True,
            layout=widgets.Layout(width="12em"))
        self.n_input.add_class("ucb1-n")
        for control in (self.n_rule_input, self.n_input):
            control.observe(self.refresh, names="value")
        self.name_labels: list[widgets.Label] = []
        self.wins_inputs: list[widgets.FloatText] = []
        self.visits_inputs: list[widgets.IntText] = []
        self._rows_box = widgets.VBox()
        self.c_input = widgets.FloatText(
            value=check_real("c", c), step=0.1, continuous_update=True,
            description="exploration constant c", style={"description_width": "initial"},
            layout=widgets.Layout(width="26em"))
        self.c_input.add_class("ucb1-c")
        self.c_input.observe(self.refresh, names="value")
        self.add_button = widgets.Button(description="add a child")
        self.add_button.add_class("ucb1-add")
        self.add_button.on_click(lambda _: self.add_child())
        self.remove_button = widgets.Button(description="remove last child")
        self.remove_button.add_class("ucb1-remove")
        self.remove_button.on_click(lambda _: self.remove_child())
        self.result = widgets.HTML()
        self.result.add_class("ucb1-result")
        self.note = widgets.HTML(f"<small>{html.escape(PARENT_VISITS_NOTE)}</small>")
        super().__init__(children=[
            widgets.HTML("Edit wins and visits, the constant c and how N (the parent's "
                         "visits) is counted. The table below updates on every change."),
            _table_header(), self._rows_box, self.c_input,
            widgets.HBox([self.n_rule_input, self.n_input]), self.note,
            widgets.HBox([self.add_button, self.remove_button]), self.result,
        ])
        self.add_class("ucb1-table")
        for name, wins, visits in rows:
            self._append_row(name, wins, visits)
        self.refresh()

    def values(self) -> list[ChildEntry]:
        """The table as (name, wins, visits) entries, read from the inputs."""
        return [(label.value, wins.value, visits.value) for label, wins, visits
                in zip(self.name_labels, self.wins_inputs, self.visits_inputs, strict=True)]

    @property
    def parent_visits(self) -> str | int:
        """How N is counted now: ``"sum"``, ``"sum_plus_one"`` or the typed whole number.

        Setting it (the same three forms, checked) moves the controls as a
        reader's click would, and the table updates.
        """
        rule = self.n_rule_input.value
        return self.n_input.value if rule == "given" else rule

    @parent_visits.setter
    def parent_visits(self, value: str | int) -> None:
        value = check_parent_visits(value)
        if isinstance(value, int):
            self.n_input.value = value
            self.n_rule_input.value = "given"
        else:
            self.n_rule_input.value = value

    def refresh(self, change=None) -> None:
        """Recompute the result from the inputs (called on every edit)."""
        self.n_input.disabled = self.n_rule_input.value != "given"
        self.remove_button.disabled = len(self.name_labels) <= 1
        try:  # a typed N may be negative: the reader sees a sentence, not a traceback
            parent_visits = check_parent_visits(self.parent_visits)
        except ValueError as error:
            self.result.value = _error_html(error)
            return
        self.result.value = ucb1_result_html(self.values(), self.c_input.value, self._digits,
                                             parent_visits)

    def add_child(self, name: str | None = None, wins: float = 0.0, visits: int = 0) -> None:
        """Append a child (by default the next free letter, never visited) and rescore."""
        name = _next_name(self.name_labels) if name is None else name
        self._append_row(*_entry((name, wins, visits)))
        self.refresh()

    def remove_child(self) -> None:
        """Remove the last child and rescore (the last remaining child stays)."""
        if len(self.name_labels) <= 1:
            return
        removed = (self.name_labels.pop(), self.wins_inputs.pop(), self.visits_inputs.pop())
        self._rows_box.children = self._rows_box.children[:-1]
        for widget in removed:
            widget.close()  # free the front-end models, not only the Python objects
        self.refresh()

    def _append_row(self, name: str, wins: float, visits: int) -> None:
        index = len(self.name_labels)
        label = widgets.Label(name, layout=widgets.Layout(width=_NAME_WIDTH))
        label.add_class(f"ucb1-name-{index}")
        # Wins step by 0.5 because a draw counts half a win.
        wins_input = widgets.FloatText(value=wins, step=0.5, continuous_update=True,
                                       layout=widgets.Layout(width=_INPUT_WIDTH))
        wins_input.add_class(f"ucb1-wins-{index}")
        visits_input = widgets.IntText(value=visits, step=1, continuous_update=True,
                                       layout=widgets.Layout(width=_INPUT_WIDTH))
        visits_input.add_class(f"ucb1-visits-{index}")
        for control in (wins_input, visits_input):
            control.observe(self.refresh, names="value")
        self.name_labels.append(label)
        self.wins_inputs.append(wins_input)
        self.visits_inputs.append(visits_input)
        self._rows_box.children = (*self._rows_box.children,
                                   widgets.HBox([label, wins_input, visits_input]))


def _table_header() -> widgets.HBox:
    return widgets.HBox([
        widgets.HTML("<b>child</b>", layout=widgets.Layout(width=_NAME_WIDTH)),
        widgets.HTML("<b>wins</b>", layout=widgets.Layout(width=_INPUT_WIDTH)),
        widgets.HTML("<b>visits</b>", layout=widgets.Layout(width=_INPUT_WIDTH)),
    ])


def _entry(entry) -> ChildEntry:
    """Check one starting row's shape and types; its values are judged by ucb1_step later."""
    try:
        name, wins, visits = entry
    except (TypeError, ValueError):
        raise ValueError(f"each row must be (name, wins, visits), got {entry!r}.") from None
    wins = check_real(f"wins of child {name}", wins)
    try:
        visits = operator.index(visits)  # any whole number; negative ones show a message
    except TypeError:
        raise ValueError(f"visits of child {name} must be a whole number, got {visits!r}.") from None
    return str(name), wins, visits


def _next_name(labels: Sequence[widgets.Label]) -> str:
    used = {label.value for label in labels}
    for letter in string.ascii_uppercase:
        if letter not in used:
            return letter
    return f"child {len(labels) + 1}"
