"""Notebook widgets: small tables and controls a reader edits to watch a rule react.

Every widget here is built in two layers, so that the teaching logic can be
tested without a browser:

- pure functions turn numbers into table rows, sentences, plain text and HTML;
- a thin ``ipywidgets`` class reads its inputs, calls those functions on every
  change and shows the result.

The widgets are live in JupyterLab. The published book draws them from the
widget state stored when the notebook was executed, so there they show their
default state and editing changes nothing (no Python kernel is running). No
label holds LaTeX: the book's static widget renderer cannot typeset it.

Chapter 3 ("One selection step, by hand") uses :class:`UCB1TableWidget`; the UCT
chapter uses :class:`Sum15Widget` (play "pick numbers summing to 15" against the
search) and :func:`sum15_reply_figure` (its static picture).
"""

from __future__ import annotations

import html
import math
import operator
import string
from collections.abc import Sequence
from dataclasses import dataclass

import ipywidgets as widgets

from ._checks import check_int, check_real
from .games.sum15 import TRIPLES, SumToFifteen, numbers_of
from .plotting import WIDGET_BARS_PIXELS, draw_root_bars, widget_bars_png
from .rng import GeneratorSource
from .selection import SQRT2, UCB1Step, ucb1_step
from .uct import ChildStats, UCTSearch

#: One child as the selection step sees it: (name, wins, visits).
ChildEntry = tuple[str, float, int]

#: The root of chapter 3, visited N = 10 times: A won 4 of 6 visits, B 1 of 3, C 0 of 1.
CHAPTER3_CHILDREN: tuple[ChildEntry, ...] = (("A", 4.0, 6), ("B", 1.0, 3), ("C", 0.0, 1))

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


def ucb1_table_rows(step: UCB1Step, digits: int = 3) -> list[tuple[str, ...]]:
    """Cells of the result table: child, wins, visits, mean, bonus, score.

    Means, bonuses and scores are rounded to ``digits`` decimals; an unvisited
    child shows ``-`` as its mean and ``inf`` as its bonus and score.
    Chapter 3 ("One selection step, by hand").
    """
    return [
        (row.name, f"{row.wins:g}", str(row.visits), _number(row.mean, digits),
         _number(row.bonus, digits), _number(row.score, digits))
        for row in step.rows
    ]


def parent_visits_sentence(step: UCB1Step, digits: int = 3) -> str:
    """Say where N comes from, e.g. ``N = 6 + 3 + 1 = 10 (...)``, with ln N and c.

    Chapter 3: every visit of the parent after its expansion went through one
    of its children, so N is the sum of the children's visits.
    """
    terms = " + ".join(str(row.visits) for row in step.rows)
    total = f"{terms} = {step.parent_visits}" if len(step.rows) > 1 else terms
    sentence = f"N = {total} (the parent's visits are the sum of its children's visits)"
    if step.parent_visits > 0:  # ln 0 is undefined; with N = 0 no score is needed anyway
        sentence += f"; ln N = {_number(math.log(step.parent_visits), digits)}"
    return sentence + f"; c = {_number(step.c, digits)}."


def choice_sentence(step: UCB1Step, digits: int = 3) -> str:
    """One sentence naming the chosen child and why, starting ``chosen: <name>``.

    The reason is one of: never visited (tried before any comparison), a tie
    (the first child in table order wins), or the highest score (with the
    runner-up and the margin). Chapter 3 ("One selection step, by hand").
    """
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


def _error_sentence(error: ValueError) -> str:
    return f"Cannot score this table: {error} Correct the entry and the table updates."


def ucb1_result_text(children: Sequence[ChildEntry], c: float = SQRT2, digits: int = 3) -> str:
    """The UCB1 table widget's result as plain text (what the book prints statically).

    Parameters
    ----------
    children : sequence of (name, wins, visits)
        As for :func:`mctslib.selection.ucb1_step`.
    c : float
        Exploration constant, ``>= 0``.
    digits : int
        Decimals shown for means, bonuses and scores.

    Returns
    -------
    str
        The N sentence, the table and the choice sentence; for numbers that
        cannot be scored (wins > visits, negative values, no children), one
        sentence saying what is wrong instead of a traceback.
        Chapter 3 ("One selection step, by hand").
    """
    digits = check_int("digits", digits, 0)
    try:
        step = ucb1_step(children, c)
    except ValueError as error:
        return _error_sentence(error)
    widths = (6, 6, 8, 8, 8, 8)
    lines = [parent_visits_sentence(step, digits)]
    for cells in [_COLUMNS, *ucb1_table_rows(step, digits)]:
        first, *rest = cells
        lines.append(f"{first:<{widths[0]}}" + "".join(
            f"{cell:>{width}}" for cell, width in zip(rest, widths[1:], strict=True)))
    lines.append(choice_sentence(step, digits))
    return "\n".join(lines)


def ucb1_result_html(children: Sequence[ChildEntry], c: float = SQRT2, digits: int = 3) -> str:
    """The UCB1 table widget's result as HTML: the same content as :func:`ucb1_result_text`.

    The chosen child's row is highlighted; bad numbers give a highlighted
    message instead of a table. Chapter 3 ("One selection step, by hand").
    """
    digits = check_int("digits", digits, 0)
    try:
        step = ucb1_step(children, c)
    except ValueError as error:
        message = html.escape(_error_sentence(error))
        return f'<div class="ucb1-error" style="{_ERROR_STYLE}">{message}</div>'
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


# ---------------------------------------------------------------------------
# Widget plumbing: inputs -> pure functions -> HTML.
# ---------------------------------------------------------------------------

_NAME_WIDTH, _INPUT_WIDTH = "4em", "8em"


class UCB1TableWidget(widgets.VBox):
    """An editable table of children whose UCB1 scores and choice update on every edit.

    One row per child (its name, wins and visits), an input for the
    exploration constant ``c``, buttons to add a never-visited child or remove
    the last one, and a result table (mean, bonus, score, the chosen child
    highlighted and a sentence saying why). The parent's visits N are the sum
    of the children's visits. Numbers that cannot be scored show a message
    inside the widget, never a traceback. Chapter 3 ("One selection step, by hand").

    Parameters
    ----------
    rows : sequence of (name, wins, visits)
        The starting table (default: chapter 3's root, A 4/6, B 1/3, C 0/1).
    c : float
        Starting exploration constant (default ``sqrt(2)``, the UCB1 paper's).
    digits : int
        Decimals shown for means, bonuses and scores.

    Notes
    -----
    CSS classes for browser tests: ``ucb1-wins-<i>`` and ``ucb1-visits-<i>`` on
    row ``i``'s inputs (from 0), ``ucb1-name-<i>`` on its name, ``ucb1-c`` on
    the constant, ``ucb1-add`` / ``ucb1-remove`` on the buttons and
    ``ucb1-result`` on the result, whose text contains ``chosen: <name>``.
    """

    def __init__(self, rows: Sequence[ChildEntry] = CHAPTER3_CHILDREN, c: float = SQRT2,
                 digits: int = 3):
        self._digits = check_int("digits", digits, 0)
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
        super().__init__(children=[
            widgets.HTML("Edit wins and visits; N, the parent's visits, is the sum of the "
                         "visits. The table below updates on every change."),
            _table_header(), self._rows_box, self.c_input,
            widgets.HBox([self.add_button, self.remove_button]), self.result,
        ])
        self.add_class("ucb1-table")
        for entry in rows:
            name, wins, visits = _entry(entry)
            self._append_row(name, wins, visits)
        self.refresh()

    def values(self) -> list[ChildEntry]:
        """The table as (name, wins, visits) entries, read from the inputs."""
        return [(label.value, wins.value, visits.value) for label, wins, visits
                in zip(self.name_labels, self.wins_inputs, self.visits_inputs, strict=True)]

    def refresh(self, change=None) -> None:
        """Recompute the result from the inputs (called on every edit)."""
        self.result.value = ucb1_result_html(self.values(), self.c_input.value, self._digits)
        self.remove_button.disabled = len(self.name_labels) <= 1

    def add_child(self, name: str | None = None, wins: float = 0.0, visits: int = 0) -> None:
        """Append a child (by default the next free letter, never visited) and rescore."""
        self._append_row(_next_name(self.name_labels) if name is None else str(name),
                         wins, visits)
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


# ===========================================================================
# The UCT chapter: play "pick numbers summing to 15" against the search.
# ===========================================================================
#
# Three layers again: pure functions (one bot reply, winning triples, texts), a
# match object that holds a game and applies the rules of the widget (whose turn,
# what a click does, what the status says), and the ipywidgets plumbing on top.

#: The exploration constant of the sum-to-15 bot: the UCT chapter's harness uses c = 1.
SUM15_EXPLORATION = 1.0
#: Iterations per bot reply unless the reader moves the budget slider.
SUM15_ITERATIONS = 2_000
SUM15_SEED = 2026
_HUMAN_COLOUR, _BOT_COLOUR = "#2471a3", "#c0392b"  # blue and red read on light and dark pages


@dataclass(frozen=True)
class BotReply:
    """One decision of the sum-to-15 bot: the number it picked and its root statistics.

    ``stats`` holds one :class:`~mctslib.uct.ChildStats` per candidate number,
    sorted by number; ``mean`` is the bot's average result through that
    number (win 1, draw 0.5, loss 0). UCT chapter.
    """

    move: int
    iterations: int
    exploration: float
    stats: tuple[ChildStats, ...]

    def title(self) -> str:
        """A one-line figure title: what was searched and what was picked."""
        return (f"The bot's search: {self.iterations:,} iterations, c = {self.exploration:g}; "
                f"it picks {self.move}")


def sum15_bot_reply(state: SumToFifteen, iterations: int = SUM15_ITERATIONS, seed=SUM15_SEED,
                    exploration: float = SUM15_EXPLORATION) -> BotReply:
    """Search a sum-to-15 position with UCT and return the bot's pick and its statistics.

    Parameters
    ----------
    state : SumToFifteen
        A position where the game is still on; the bot is the player to move.
    iterations : int
        UCT iterations (>= 1).
    seed : int, numpy Generator, GeneratorSource or None
        The random source; pass one :class:`~mctslib.rng.GeneratorSource` to
        several calls to continue one stream (the widget does).
    exploration : float
        UCB1's constant c (>= 0).

    Returns
    -------
    BotReply
        The most visited number and every candidate's visits and mean result.
        UCT chapter ("pick numbers summing to 15").
    """
    if not isinstance(state, SumToFifteen):
        raise ValueError(f"state must be a SumToFifteen position, got {type(state).__name__}.")
    search = UCTSearch(exploration, iterations=check_int("iterations", iterations, 1), seed=seed)
    move = search.choose(state)
    stats = tuple(sorted(search.root_stats(), key=lambda child: child.move))
    return BotReply(move, search.iterations, search.selection.c, stats)


def sum15_reply_text(reply: BotReply) -> str:
    """The bot's reply as a table: number, visits, share of the budget, mean result.

    What the chapter prints next to the static figure. UCT chapter.
    """
    lines = [reply.title(), "number  visits   share  mean result for the bot"]
    for child in reply.stats:
        mean = "-" if child.visits == 0 else f"{child.mean:.3f}"
        mark = "  <- picked" if child.move == reply.move else ""
        lines.append(f"{child.move:>6}  {child.visits:>6}  {child.visits / reply.iterations:>6.1%}"
                     f"  {mean:>6}{mark}")
    return "\n".join(lines)


def _draw_reply(ax, reply: BotReply) -> None:
    draw_root_bars(ax, reply.stats, chosen=reply.move, title=reply.title(),
                   move_label="number the bot could pick", mover="the bot")


def sum15_reply_figure(state: SumToFifteen | None = None, iterations: int = SUM15_ITERATIONS,
                       seed=SUM15_SEED, exploration: float = SUM15_EXPLORATION,
                       figsize=(7.0, 3.6)):
    """A pyplot figure of one bot reply (end the cell with ``plt.show()``).

    The same bars the widget shows after each reply: visits per candidate
    number, the picked one highlighted, its mean result written on top.
    The default position is the empty board (the bot moves first).
    UCT chapter ("pick numbers summing to 15").

    Returns
    -------
    (matplotlib.figure.Figure, BotReply)
        The figure and the reply it draws, so that a cell can print the numbers too.
    """
    import matplotlib.pyplot as plt  # pyplot only here: the widget draws off-screen

    reply = sum15_bot_reply(SumToFifteen() if state is None else state, iterations, seed,
                            exploration)
    fig, ax = plt.subplots(figsize=figsize, layout="constrained")
    _draw_reply(ax, reply)
    return fig, reply


def winning_triples(mask: int) -> list[tuple[int, int, int]]:
    """The triples summing to 15 held in a mask of numbers, ascending (UCT chapter)."""
    return [tuple(numbers_of(triple)) for triple in TRIPLES if mask & triple == triple]


def _sum_sentence(mask: int) -> str:
    return " and ".join(" + ".join(map(str, triple)) + " = 15" for triple in winning_triples(mask))


class BotMatchTurns:
    """Whose turn it is in a match between the reader and the bot.

    Mixed into :class:`Sum15Match` (UCT chapter) and
    :class:`mctslib.uttt_widget.UTTTMatch` (Ultimate Tic-Tac-Toe chapter),
    which have ``state`` (the position), ``human`` (the reader's player
    number), ``status`` and ``result_sentence()``.
    """

    @property
    def is_over(self) -> bool:
        return self.state.is_terminal()

    @property
    def bot_to_move(self) -> bool:
        return not self.is_over and self.state.player_to_move != self.human

    def _refuse_click(self) -> bool:
        """If the reader may not move now (game over, or the bot's turn), say why and return True."""
        if self.is_over:
            self.status = f"The game is over. {self.result_sentence()} Press 'new game'."
            return True
        if self.bot_to_move:
            self.status = "Wait: it is the bot's turn; its reply comes in a moment."
            return True
        return False


class Sum15Match(BotMatchTurns):
    """The sum-to-15 game between a reader and the UCT bot, without any widget.

    It knows whose turn it is, what a click on a number does and what the
    status line says; :class:`Sum15Widget` only shows it. The bot's random
    numbers come from one stream seeded once, so a new game continues that
    stream and the same seed and the same clicks give the same games.
    UCT chapter ("pick numbers summing to 15").

    Parameters
    ----------
    iterations : int
        UCT iterations per bot reply (>= 1); may be changed between replies.
    seed : int or None
        Seed of the bot's random stream.
    exploration : float
        UCB1's constant c (>= 0).
    bot_starts : bool
        Whether the bot picks first in the first game.
    """

    def __init__(self, iterations: int = SUM15_ITERATIONS, seed=SUM15_SEED,
                 exploration: float = SUM15_EXPLORATION, bot_starts: bool = False):
        self.iterations = iterations
        self.exploration = check_real("exploration (the constant c)", exploration, 0.0)
        self.source = GeneratorSource(seed)
        self.new_game(bot_starts)

    @property
    def iterations(self) -> int:
        return self._iterations

    @iterations.setter
    def iterations(self, value: int) -> None:
        self._iterations = check_int("iterations", value, 1)

    def new_game(self, bot_starts: bool | None = None) -> None:
        """Start again from no numbers taken (``bot_starts`` None keeps the last choice).

        The bot's first pick, if it starts, is left to :meth:`bot_reply`, so
        that a widget can say "thinking" before the search runs.
        """
        if bot_starts is not None:
            self.bot_starts = bool(bot_starts)
        self.state = SumToFifteen()
        self.human = 1 if self.bot_starts else 0  # player index: 0 picks first
        self.last_reply: BotReply | None = None
        self.status = ("The bot picks first." if self.bot_starts else
                       "Your turn: pick a number. Hold three that sum to 15 to win.")

    # -- what the reader and the bot hold ---------------------------------------------
    def _mask(self, player: int) -> int:
        return self.state.first if player == 0 else self.state.second

    @property
    def human_numbers(self) -> list[int]:
        return numbers_of(self._mask(self.human))

    @property
    def bot_numbers(self) -> list[int]:
        return numbers_of(self._mask(1 - self.human))

    def is_free(self, number: int) -> bool:
        return number in self.state.legal_moves()

    # -- actions -----------------------------------------------------------------------
    def click(self, number: int) -> bool:
        """The reader picks ``number``; returns True if it was played.

        A click after the end, during the bot's turn or on a taken number
        changes nothing but the status line, which says why.
        """
        number = check_int("number", number, 1)
        if number > 9:
            raise ValueError(f"number must be a whole number from 1 to 9, got {number}.")
        if self._refuse_click():
            return False
        if not self.is_free(number):
            self.status = f"{number} is already taken: pick a free number."
            return False
        self.state = self.state.play(number)
        self.status = (f"You picked {number}. {self.result_sentence()}" if self.is_over else
                       f"You picked {number}. The bot is thinking "
                       f"({self.iterations:,} iterations)...")
        return True

    def bot_reply(self) -> BotReply | None:
        """Let the bot search and pick, if it is its turn; returns its reply (else None)."""
        if not self.bot_to_move:
            return None
        reply = sum15_bot_reply(self.state, self.iterations, self.source, self.exploration)
        self.state = self.state.play(reply.move)
        self.last_reply = reply
        share = next(c.visits for c in reply.stats if c.move == reply.move) / reply.iterations
        picked = (f"The bot picked {reply.move} (the most visited number: {share:.0%} of its "
                  f"{reply.iterations:,} iterations).")
        self.status = (f"{picked} {self.result_sentence()}" if self.is_over
                       else f"{picked} Your turn.")
        return reply

    def result_sentence(self) -> str:
        winner = self.state.winner()
        if winner is None:
            return "Draw: all nine numbers are taken and nobody holds three that sum to 15."
        who = "You win" if winner == self.human else "The bot wins"
        return f"{who}: {_sum_sentence(self._mask(winner))}."


_NO_REPLY_NOTE = ("After each reply of the bot, its search shows here:\n"
                  "one bar per candidate number (visits), its mean result on top.")


def _png(reply: BotReply | None) -> bytes:
    """The bars of a reply as PNG bytes (:func:`mctslib.plotting.widget_bars_png`)."""
    draw = None if reply is None else (lambda ax: _draw_reply(ax, reply))
    return widget_bars_png(draw, _NO_REPLY_NOTE)


def _holding_html(who: str, numbers: Sequence[int], colour: str) -> str:
    shown = ", ".join(map(str, numbers)) if numbers else "nothing yet"
    return (f'<span style="color: {colour}; font-weight: bold;">{who}</span> '
            f'{html.escape(shown)}')


class BotMatchWidget:
    """The turn-taking that the two play-against-the-bot widgets share.

    Mixed into :class:`Sum15Widget` (UCT chapter) and
    :class:`mctslib.uttt_widget.UTTTWidget` (Ultimate Tic-Tac-Toe chapter).
    The widget has ``match`` (with ``click``, ``new_game``, ``bot_reply``
    and ``last_reply``), ``bars`` (an image), ``new_game_toggle`` (the
    toggle whose value a new game starts with) and its own ``refresh``,
    which calls :meth:`_show_reply_bars`.
    """

    def click(self, choice) -> None:
        """What a click on the board does: the reader's move, then the bot's reply."""
        if self.match.click(choice):
            self._play_bot_if_its_turn()
        else:
            self.refresh()

    def new_game(self) -> None:
        """Start a new game with the setting the toggle shows."""
        self.match.new_game(self.new_game_toggle.value)
        self._play_bot_if_its_turn()

    def _play_bot_if_its_turn(self) -> None:
        self.refresh()  # shows "thinking" and disables the board before the search runs
        if self.match.bot_reply() is not None:
            self.refresh()

    def _show_reply_bars(self, draw) -> None:
        """Draw the bars of the bot's last reply with ``draw(reply)``, if it changed.

        Called first in ``refresh``: the picture takes longest, and the status
        should not announce a reply before its bars are there.
        """
        reply = self.match.last_reply
        if reply is not getattr(self, "_shown_reply", _NOTHING_SHOWN):
            self.bars.value = draw(reply)
            self._shown_reply = reply


_NOTHING_SHOWN = object()  # what _show_reply_bars compares with before the first picture


class Sum15Widget(BotMatchWidget, widgets.VBox):
    """Play "pick numbers summing to 15" against UCT and watch where its budget went.

    Nine number buttons (taken ones disabled; the reader's blue, the bot's
    red), what each side holds, a status line, the bot's budget (a slider of
    iterations per reply), who picks first, a 'new game' button, and after
    every reply of the bot a bar chart of its search: visits per candidate
    number with the mean result for the bot on top. The bot is
    :class:`~mctslib.uct.UCTSearch` with c = 1 (``exploration``), replying
    at once after each pick of the reader; its random numbers come from one
    stream seeded with ``seed``, continued by every new game.
    UCT chapter ("pick numbers summing to 15").

    Parameters
    ----------
    iterations : int
        Starting budget per reply, within ``[min_iterations, max_iterations]``.
    seed : int
        Seed of the bot's random stream.
    exploration : float
        UCB1's constant c.
    bot_starts : bool
        Whether the bot picks first in the first game.
    min_iterations, max_iterations : int
        The budget slider's range.

    Notes
    -----
    The chart is an ``ipywidgets.Image`` holding PNG bytes, so the published
    book shows it from the stored widget state. CSS classes for browser
    tests: ``sum15-n-<number>`` on the buttons, ``sum15-status``,
    ``sum15-human``, ``sum15-bot``, ``sum15-bars`` (the Image), ``sum15-new``,
    ``sum15-budget`` and ``sum15-starter``.
    """

    def __init__(self, iterations: int = SUM15_ITERATIONS, seed=SUM15_SEED,
                 exploration: float = SUM15_EXPLORATION, bot_starts: bool = False,
                 min_iterations: int = 100, max_iterations: int = 20_000):
        min_iterations = check_int("min_iterations", min_iterations, 1)
        max_iterations = check_int("max_iterations", max_iterations, min_iterations)
        iterations = check_int("iterations", iterations, 1)
        if not min_iterations <= iterations <= max_iterations:
            raise ValueError(f"iterations must be between min_iterations ({min_iterations}) "
                             f"and max_iterations ({max_iterations}), got {iterations}.")
        self.match = Sum15Match(iterations, seed, exploration, bot_starts)
        self.number_buttons = {n: self._number_button(n) for n in range(1, 10)}
        self.human_label = widgets.HTML()
        self.human_label.add_class("sum15-human")
        self.bot_label = widgets.HTML()
        self.bot_label.add_class("sum15-bot")
        self.status = widgets.HTML()
        self.status.add_class("sum15-status")
        # Shown at its own pixel size (scaled up, the text would blur), narrower on a small page.
        self.bars = widgets.Image(format="png", layout=widgets.Layout(
            width=f"{WIDGET_BARS_PIXELS[0]}px", max_width="100%", height="auto"))
        self.bars.add_class("sum15-bars")
        self.budget = widgets.IntSlider(
            value=iterations, min=min_iterations, max=max_iterations, step=100,
            description="bot's iterations per reply", style={"description_width": "initial"},
            layout=widgets.Layout(width="34em"))
        self.budget.add_class("sum15-budget")
        self.budget.observe(self._budget_changed, names="value")
        self.starter = widgets.ToggleButtons(
            options=[("you", False), ("the bot", True)], value=self.match.bot_starts,
            style={"button_width": "6em"})
        self.starter.add_class("sum15-starter")
        self.starter.observe(lambda change: self.new_game(), names="value")
        self.new_button = widgets.Button(description="new game")
        self.new_button.add_class("sum15-new")
        self.new_button.on_click(lambda _: self.new_game())
        super().__init__(children=[
            widgets.HTML("Take turns picking numbers 1 to 9; nobody may pick a number twice. "
                         "The first to hold three numbers that sum to 15 wins."),
            widgets.HBox(list(self.number_buttons.values())),
            widgets.HBox([self.human_label, widgets.HTML("&nbsp;" * 6), self.bot_label]),
            self.status, self.bars,
            # A separate label: ToggleButtons would put its own description above the buttons.
            widgets.HBox([self.new_button, widgets.HTML("&nbsp;" * 4 + "first pick:&nbsp;"),
                          self.starter]),
            self.budget,
        ])
        self.add_class("sum15-widget")
        self.new_game_toggle = self.starter  # a new game starts with its choice of first pick
        self._play_bot_if_its_turn()

    def refresh(self) -> None:
        """Show the match: buttons, holdings, status and (if a new reply) the bars."""
        match = self.match
        self._show_reply_bars(_png)
        humans, bots = set(match.human_numbers), set(match.bot_numbers)
        # During the bot's search and after the end every button is off, so a click the
        # browser sends meanwhile cannot queue up a pick.
        closed = match.is_over or match.bot_to_move
        for number, button in self.number_buttons.items():
            button.disabled = closed or number in humans or number in bots
            colour = (_HUMAN_COLOUR if number in humans else _BOT_COLOUR if number in bots
                      else None)
            # Explicit colours (not button_style) so buttons and labels match in every theme.
            button.style.button_color = colour
            button.style.text_color = "white" if colour else None
        self.human_label.value = _holding_html("You hold:", sorted(humans), _HUMAN_COLOUR)
        self.bot_label.value = _holding_html("The bot holds:", sorted(bots), _BOT_COLOUR)
        self.status.value = f"<b>{html.escape(match.status)}</b>"

    def _budget_changed(self, change) -> None:
        self.match.iterations = change["new"]

    def _number_button(self, number: int) -> widgets.Button:
        button = widgets.Button(description=str(number),
                                layout=widgets.Layout(width="3.2em", height="2.6em"))
        button.add_class(f"sum15-n-{number}")
        button.on_click(lambda _: self.click(number))
        return button
