"""Turn-taking shared by the play-against-the-bot widgets (sum-to-15 and Ultimate Tic-Tac-Toe).

:class:`BotMatchTurns` is the model: whose turn it is, refusing a click out
of turn, playing the reader's move and the bot's reply and saying so in the
status line. :class:`BotMatchWidget` is the widget both games share: the
status line, the PNG of the bot's root statistics (so that the published book
shows the last reply from the stored widget state), 'new game', the toggle a
new game starts with, the budget slider, and what a click and a reply redraw.
The UCT chapter and the Ultimate Tic-Tac-Toe chapter build on them
(:mod:`mctslib.views.sum15`, :mod:`mctslib.views.uttt_widget`); each game
adds only its rules, its sentences and its board of buttons.
"""

from __future__ import annotations

import html
from collections.abc import Callable

import ipywidgets as widgets

from .._checks import check_int
from .plotting import widget_bars_png


class BotMatchTurns:
    """Whose turn it is in a match between the reader and the bot, and what a move does.

    Mixed into :class:`mctslib.views.sum15.Sum15Match` (UCT chapter) and
    :class:`mctslib.views.uttt_match.UTTTMatch` (Ultimate Tic-Tac-Toe chapter),
    which have ``state`` (the position), ``human`` (the reader's player
    number) and ``status``, and say what is particular to their game:

    - ``_why_not(choice)``: the status line for a click on an illegal choice (None if legal);
    - ``_play(move, reply)``: play a move, the reader's (``reply`` None) or the bot's;
    - ``_search()``: the bot's reply in the current position (it has a ``move``);
    - ``_you_did(choice)``: the reader's move in words, e.g. ``"picked 5"``;
    - ``_reply_sentence(reply)``: the bot's move in words, a whole sentence;
    - ``_your_turn()``: what the status says when it is the reader's turn again;
    - ``budget_text()`` and ``result_sentence()``.
    """

    @property
    def is_over(self) -> bool:
        return self.state.is_terminal()

    @property
    def bot_to_move(self) -> bool:
        return not self.is_over and self.state.player_to_move != self.human

    def bot_reply(self):
        """Let the bot search and move, if it is its turn; returns its reply (else None)."""
        if not self.bot_to_move:
            return None
        reply = self._search()
        self._play(reply.move, reply)
        self._announce(self._reply_sentence(reply), self._your_turn)
        return reply

    def _take_click(self, choice) -> bool:
        """The reader's click on ``choice`` (already checked to be on the board).

        Plays it and returns True, or, after the end, during the bot's turn or
        on an illegal choice, changes nothing but the status line, which says why.
        """
        if self._refuse_click():
            return False
        why_not = self._why_not(choice)
        if why_not:
            self.status = why_not
            return False
        self._play(choice, None)
        self._announce(f"You {self._you_did(choice)}.",
                       lambda: f"The bot is thinking ({self.budget_text()})...")
        return True

    def _refuse_click(self) -> bool:
        """If the reader may not move now (game over, or the bot's turn), say why and return True."""
        if self.is_over:
            self.status = f"The game is over. {self.result_sentence()} Press 'new game'."
            return True
        if self.bot_to_move:
            self.status = "Wait: it is the bot's turn; its reply comes in a moment."
            return True
        return False

    def _announce(self, done: str, next_step: Callable[[], str]) -> None:
        """The status after a move: what was done, then the result or what comes next.

        ``next_step`` is called only while the game is on: after the end there is
        no next step to describe (no board the reader is sent to, for one).
        """
        self.status = f"{done} {self.result_sentence() if self.is_over else next_step()}"


class BotMatchWidget(widgets.VBox):
    """The widget that the two play-against-the-bot widgets share.

    Subclassed by :class:`mctslib.views.sum15.Sum15Widget` (UCT chapter) and
    :class:`mctslib.views.uttt_widget.UTTTWidget` (Ultimate Tic-Tac-Toe
    chapter). It builds the status line, the bars of the bot's last reply and
    'new game', wires the match to the buttons, and redraws after a click and
    after the bot's reply. A subclass builds its board of buttons, its
    budget slider (:meth:`_budget_slider`) and the toggle a new game starts
    with (:meth:`_new_game_toggle`), then calls this ``__init__``; it provides
    ``_children()`` (every part in its place), ``_show_board()`` (the board's
    part of :meth:`refresh`), ``_budget_changed(change)`` (what the slider
    sets), ``draw_reply(ax, reply)`` and ``no_reply_note`` (the bars, and what
    shows in their place before the first reply).

    Parameters
    ----------
    match : BotMatchTurns
        The game (``click``, ``new_game``, ``bot_reply``, ``last_reply``, ``status``).
    css : str
        The prefix of the CSS classes browser tests find the parts by: ``<css>-status``,
        ``<css>-bars``, ``<css>-new``, and ``<css>-widget`` on the whole.
    new_icon : str
        The icon of 'new game' (none by default).
    status_layout, bars_layout : dict
        Layout of the status line and of the bars' image.
    """

    no_reply_note = ""

    def __init__(self, match: BotMatchTurns, css: str, new_icon: str = "",
                 status_layout: dict | None = None, bars_layout: dict | None = None):
        if type(self) is BotMatchWidget:
            raise ValueError("BotMatchWidget is the base of the game widgets: make a "
                             "Sum15Widget or a UTTTWidget.")
        if not isinstance(match, BotMatchTurns):
            raise ValueError(f"match must be a Sum15Match or a UTTTMatch, got "
                             f"{type(match).__name__}.")
        for name, value in (("css", css), ("new_icon", new_icon)):
            if not isinstance(value, str):
                raise ValueError(f"{name} must be a string, got {type(value).__name__}.")
        self.match = match
        self.status = widgets.HTML(layout=widgets.Layout(**(status_layout or {})))
        self.status.add_class(f"{css}-status")
        self.bars = widgets.Image(format="png", layout=widgets.Layout(**(bars_layout or {})))
        self.bars.add_class(f"{css}-bars")
        self.new_button = widgets.Button(description="new game", icon=new_icon)
        self.new_button.add_class(f"{css}-new")
        self.new_button.on_click(lambda _: self.new_game())
        super().__init__(children=self._children())
        self.add_class(f"{css}-widget")
        self._play_bot_if_its_turn()

    # -- parts a subclass builds before __init__ ------------------------------------------
    def _new_game_toggle(self, css: str, options: list, value) -> widgets.ToggleButtons:
        """The toggle a new game starts with (who starts, the reader's mark); a change starts one."""
        self.new_game_toggle = widgets.ToggleButtons(options=options, value=value,
                                                     style={"button_width": "6em"})
        self.new_game_toggle.add_class(css)
        self.new_game_toggle.observe(lambda change: self.new_game(), names="value")
        return self.new_game_toggle

    def _budget_slider(self, css: str, names: tuple[str, str, str], value: int, low: int,
                       high: int, step: int, description: str) -> widgets.IntSlider:
        """The slider of the bot's budget per reply; ``value`` must lie in ``[low, high]``.

        ``names`` are the parameters that gave ``value``, ``low`` and ``high``, for
        the error sentences. A change calls the subclass's ``_budget_changed``.
        """
        name, low_name, high_name = names
        low = check_int(low_name, low, 1)
        high = check_int(high_name, high, low)
        value = check_int(name, value, 1)
        if not low <= value <= high:
            raise ValueError(f"{name} must be between {low_name} ({low}) and {high_name} "
                             f"({high}), got {value}.")
        slider = widgets.IntSlider(value=value, min=low, max=high, step=step,
                                   description=description,
                                   style={"description_width": "initial"},
                                   layout=widgets.Layout(width="34em"))
        slider.add_class(css)
        slider.observe(self._budget_changed, names="value")
        return slider

    # -- what the buttons do ---------------------------------------------------------------
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

    # -- showing the match -------------------------------------------------------------------
    def refresh(self) -> None:
        """Show the match: the bars (if the reply changed), the board, then the status."""
        # The bars first: the picture takes longest, and the status should not announce a
        # reply before its bars are there.
        reply = self.match.last_reply
        if reply is not getattr(self, "_shown_reply", _NOTHING_SHOWN):
            draw = None if reply is None else (lambda ax: self.draw_reply(ax, reply))
            self.bars.value = widget_bars_png(draw, self.no_reply_note)
            self._shown_reply = reply
        self._show_board()
        self.status.value = f"<b>{html.escape(self.match.status)}</b>"


_NOTHING_SHOWN = object()  # what refresh compares the last reply with before the first picture
