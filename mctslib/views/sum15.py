"""Play "pick numbers summing to 15" against UCT: the UCT chapter's widget and its picture.

:func:`sum15_bot_reply` runs the search and keeps its root statistics,
:func:`sum15_reply_text` and :func:`sum15_reply_figure` show them (the static
picture the published book carries), :class:`Sum15Match` is one game between
the reader and the bot, and :class:`Sum15Widget` the buttons around it.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

import ipywidgets as widgets

from .._checks import check_bool, check_int, check_real
from ..games.sum15 import TRIPLES, SumToFifteen, numbers_of
from ..rng import GeneratorSource
from ..search.minimax import check_budget
from ..search.uct import MAX_ITERATIONS, ChildStats, UCTSearch
from .bot_match import BotMatchTurns, BotMatchWidget
from .plotting import WIDGET_BARS_PIXELS, check_figsize, draw_root_bars

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
_ALL_NUMBERS = sum(1 << n for n in range(1, 10))  # the mask holding every number 1..9
_HUMAN_COLOUR, _BOT_COLOUR = "#2471a3", "#c0392b"  # blue and red read on light and dark pages


@dataclass(frozen=True)
class BotReply:
    """One decision of the sum-to-15 bot: the number it picked and its root statistics.

    ``stats`` holds one :class:`~mctslib.search.uct.ChildStats` per candidate number,
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
    _check_reply(reply)
    lines = [reply.title(), "number  visits   share  mean result for the bot"]
    for child in reply.stats:
        mean = "-" if child.visits == 0 else f"{child.mean:.3f}"
        mark = "  <- picked" if child.move == reply.move else ""
        lines.append(f"{child.move:>6}  {child.visits:>6}  {child.visits / reply.iterations:>6.1%}"
                     f"  {mean:>6}{mark}")
    return "\n".join(lines)


def _check_reply(reply) -> None:
    if not isinstance(reply, BotReply):
        raise ValueError(f"reply must be a BotReply (from sum15_bot_reply), got "
                         f"{type(reply).__name__}.")


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

    figsize = check_figsize(figsize)
    reply = sum15_bot_reply(SumToFifteen() if state is None else state, iterations, seed,
                            exploration)
    fig, ax = plt.subplots(figsize=figsize, layout="constrained")
    _draw_reply(ax, reply)
    return fig, reply


def winning_triples(mask: int) -> list[tuple[int, int, int]]:
    """The triples summing to 15 held in a mask of numbers, ascending (UCT chapter).

    ``mask`` has bit ``n`` set for each number ``n`` held (1 to 9), as
    :class:`~mctslib.games.sum15.SumToFifteen` stores a hand.
    """
    mask = check_int("mask (numbers held, as bits 1 to 9)", mask, 0, _ALL_NUMBERS)
    if mask & ~_ALL_NUMBERS:
        raise ValueError(f"mask (numbers held, as bits 1 to 9) must not set bit 0, got {mask}.")
    return [tuple(numbers_of(triple)) for triple in TRIPLES if mask & triple == triple]


def _sum_sentence(mask: int) -> str:
    return " and ".join(" + ".join(map(str, triple)) + " = 15" for triple in winning_triples(mask))


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
        # Checked here: new_game(None) keeps the last choice, and a first game has none.
        self.bot_starts = check_bool("bot_starts", bot_starts)
        self.source = GeneratorSource(seed)
        self.new_game(bot_starts)

    @property
    def iterations(self) -> int:
        return self._iterations

    @iterations.setter
    def iterations(self, value: int) -> None:
        self._iterations = check_budget("iterations", value, 1, MAX_ITERATIONS)

    def new_game(self, bot_starts: bool | None = None) -> None:
        """Start again from no numbers taken (``bot_starts`` None keeps the last choice).

        The bot's first pick, if it starts, is left to :meth:`bot_reply`, so
        that a widget can say "thinking" before the search runs.
        """
        if bot_starts is not None:
            self.bot_starts = check_bool("bot_starts", bot_starts)
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

    def budget_text(self) -> str:
        """The budget in words, e.g. ``"2,000 iterations"``."""
        return f"{self.iterations:,} iterations"

    # -- actions (the rest of click and bot_reply: BotMatchTurns) -----------------------
    def click(self, number: int) -> bool:
        """The reader picks ``number``; returns True if it was played.

        A click after the end, during the bot's turn or on a taken number
        changes nothing but the status line, which says why.
        """
        number = check_int("number", number, 1)
        if number > 9:
            raise ValueError(f"number must be a whole number from 1 to 9, got {number}.")
        return self._take_click(number)

    def _why_not(self, number: int) -> str | None:
        return None if self.is_free(number) else f"{number} is already taken: pick a free number."

    def _play(self, number: int, reply: BotReply | None) -> None:
        self.state = self.state.play(number)
        if reply is not None:  # the reader's pick keeps the bars of the bot's last reply
            self.last_reply = reply

    def _search(self) -> BotReply:
        return sum15_bot_reply(self.state, self.iterations, self.source, self.exploration)

    def _you_did(self, number: int) -> str:
        return f"picked {number}"

    def _reply_sentence(self, reply: BotReply) -> str:
        share = next(c.visits for c in reply.stats if c.move == reply.move) / reply.iterations
        return (f"The bot picked {reply.move} (the most visited number: {share:.0%} of its "
                f"{reply.iterations:,} iterations).")

    def _your_turn(self) -> str:
        return "Your turn."

    def result_sentence(self) -> str:
        winner = self.state.winner()
        if winner is None:
            return "Draw: all nine numbers are taken and nobody holds three that sum to 15."
        who = "You win" if winner == self.human else "The bot wins"
        return f"{who}: {_sum_sentence(self._mask(winner))}."


def _holding_html(who: str, numbers: Sequence[int], colour: str) -> str:
    shown = ", ".join(map(str, numbers)) if numbers else "nothing yet"
    return (f'<span style="color: {colour}; font-weight: bold;">{who}</span> '
            f'{html.escape(shown)}')


class Sum15Widget(BotMatchWidget):
    """Play "pick numbers summing to 15" against UCT and watch where its budget went.

    Nine number buttons (taken ones disabled; the reader's blue, the bot's
    red), what each side holds, a status line, the bot's budget (a slider of
    iterations per reply), who picks first, a 'new game' button, and after
    every reply of the bot a bar chart of its search: visits per candidate
    number with the mean result for the bot on top. The bot is
    :class:`~mctslib.search.uct.UCTSearch` with c = 1 (``exploration``), replying
    at once after each pick of the reader; its random numbers come from one
    stream seeded with ``seed``, continued by every new game. The status line,
    the bars, the buttons' wiring and the redrawing come from
    :class:`~mctslib.views.bot_match.BotMatchWidget`.
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

    no_reply_note = ("After each reply of the bot, its search shows here:\n"
                     "one bar per candidate number (visits), its mean result on top.")
    draw_reply = staticmethod(_draw_reply)

    def __init__(self, iterations: int = SUM15_ITERATIONS, seed=SUM15_SEED,
                 exploration: float = SUM15_EXPLORATION, bot_starts: bool = False,
                 min_iterations: int = 100, max_iterations: int = 20_000):
        self.budget = self._budget_slider(
            "sum15-budget", ("iterations", "min_iterations", "max_iterations"), iterations,
            min_iterations, max_iterations, step=100, description="bot's iterations per reply")
        match = Sum15Match(iterations, seed, exploration, bot_starts)
        self.number_buttons = {n: self._number_button(n) for n in range(1, 10)}
        self.human_label = widgets.HTML()
        self.human_label.add_class("sum15-human")
        self.bot_label = widgets.HTML()
        self.bot_label.add_class("sum15-bot")
        self.starter = self._new_game_toggle(
            "sum15-starter", [("you", False), ("the bot", True)], match.bot_starts)
        # Shown at its own pixel size (scaled up, the text would blur), narrower on a small page.
        super().__init__(match, "sum15", bars_layout={
            "width": f"{WIDGET_BARS_PIXELS[0]}px", "max_width": "100%", "height": "auto"})

    def _children(self) -> list[widgets.Widget]:
        return [
            widgets.HTML("Take turns picking numbers 1 to 9; nobody may pick a number twice. "
                         "The first to hold three numbers that sum to 15 wins."),
            widgets.HBox(list(self.number_buttons.values())),
            widgets.HBox([self.human_label, widgets.HTML("&nbsp;" * 6), self.bot_label]),
            self.status, self.bars,
            # A separate label: ToggleButtons would put its own description above the buttons.
            widgets.HBox([self.new_button, widgets.HTML("&nbsp;" * 4 + "first pick:&nbsp;"),
                          self.starter]),
            self.budget,
        ]

    def _show_board(self) -> None:
        """The buttons and what each side holds (the rest of refresh: BotMatchWidget)."""
        match = self.match
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

    def _budget_changed(self, change) -> None:
        self.match.iterations = change["new"]

    def _number_button(self, number: int) -> widgets.Button:
        button = widgets.Button(description=str(number),
                                layout=widgets.Layout(width="3.2em", height="2.6em"))
        button.add_class(f"sum15-n-{number}")
        button.on_click(lambda _: self.click(number))
        return button
