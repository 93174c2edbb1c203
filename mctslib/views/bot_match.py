"""Turn-taking shared by the play-against-the-bot widgets (sum-to-15 and Ultimate Tic-Tac-Toe).

:class:`BotMatchTurns` is the model: whose turn it is, refusing a click out
of turn, asking the bot for its reply. :class:`BotMatchWidget` is the widget
half both games share: the click handler, new game, the bot's reply and the
PNG of its root statistics, so that the published book shows the last reply
from the stored widget state. The UCT chapter and the Ultimate Tic-Tac-Toe
chapter build on them (:mod:`mctslib.views.sum15`, :mod:`mctslib.views.uttt_widget`).
"""

from __future__ import annotations


class BotMatchTurns:
    """Whose turn it is in a match between the reader and the bot.

    Mixed into :class:`Sum15Match` (UCT chapter) and
    :class:`mctslib.views.uttt_match.UTTTMatch` (Ultimate Tic-Tac-Toe chapter),
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


class BotMatchWidget:
    """The turn-taking that the two play-against-the-bot widgets share.

    Mixed into :class:`Sum15Widget` (UCT chapter) and
    :class:`mctslib.views.uttt_widget.UTTTWidget` (Ultimate Tic-Tac-Toe chapter).
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
