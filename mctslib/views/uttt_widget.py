"""Play Ultimate Tic-Tac-Toe against the bot in JupyterLab, and see where its search went.

The last section of the chapter "Ultimate Tic-Tac-Toe: tuning a real bot".
Three layers, so that everything but the buttons is tested without a browser:

- pure functions: one bot reply with its root statistics (:func:`uttt_bot_reply`),
  a table of it (:func:`uttt_reply_text`), a static picture of it
  (:func:`uttt_reply_figure`: the board with the visit shares, and the bars);
- :class:`UTTTMatch`: one game between the reader and a bot (whose turn it is,
  what a click does, undo, new game, what the status line says);
- :class:`UTTTWidget`: the ipywidgets plumbing: 81 cell buttons, the status
  line, the bars of the bot's last search (a PNG, so the published book shows
  it from the stored widget state), undo, new game, the reader's side and the
  bot's thinking budget.

The bot
-------
A *bot factory* builds the bot; it is called with keywords
``factory(iterations=..., ms=..., seed=...)``, exactly one of ``iterations``
(a whole number) and ``ms`` (milliseconds per reply) not None, and ``seed`` a
numpy Generator that the match threads through every bot it builds (so the
same seed, budget and clicks give the same games). The bot it returns needs
``choose(state) -> move`` and ``root_stats()`` after a search: a list of
objects with ``move``, ``visits`` and ``mean`` (as
:meth:`mctslib.search.uct.UCTSearch.root_stats`) or of tuples
``(move, visits, mean, ...)`` (as :meth:`mctslib.bots.uttt.UTTTBot.root_stats`).
The match builds a new bot only when the budget changes. A factory may carry a
``description`` attribute; the widget names the bot with it.

- ``bot=None``: :func:`uct_bot_factory`, the readable :class:`~mctslib.search.uct.UCTSearch`
  (about 2,000 iterations per second on this game in pure Python);
- ``bot="uct:c=0.5,solver=on"`` (a SPEC string) or a
  :class:`mctslib.bots.uttt.BotSpec`: :func:`spec_bot_factory`, the numba bot with
  those options, its budget replaced by the widget's;
- any other callable: your own factory.
"""


from __future__ import annotations

import html

import ipywidgets as widgets

from ..games.uttt import UltimateTicTacToe, from_board_cell, to_board_cell
from .bot_match import BotMatchWidget
from .plotting import WIDGET_BARS_PIXELS
from .uttt_board import (
    HIGHLIGHT_COLOUR,
    HIGHLIGHT_EDGE,
    MARK_COLOURS,
    SCORING_NAMES,
    WON_COLOURS,
)
from .uttt_match import UTTT_SEED, UTTT_THINK_MS, UTTTMatch, _draw_bars, _side

__all__ = ["UTTTWidget"]


# ---------------------------------------------------------------------------- the widget

_CELL = "2.3em"
_EMPTY_TEXT = "\u00a0"  # a no-break space keeps an empty button's height in every browser


def _board_border(status: str, playable: bool) -> str:
    """A small board's frame: dashed gold if playable, the winner's colour, grey if drawn."""
    if playable:
        return f"3px dashed {HIGHLIGHT_EDGE}"
    if status in MARK_COLOURS:
        return f"3px solid {MARK_COLOURS[status]}"
    return "3px solid #9a9a9a" if status == "drawn" else "3px solid transparent"


# A disabled button is drawn half transparent by the widget theme; on the board that would
# fade every mark, so the board's cells stay opaque (an enabled cell is yellow anyway).
_BOARD_STYLE = "<style>.uttt-board button:disabled { opacity: 1 !important; }</style>"


class UTTTWidget(BotMatchWidget):
    """Play Ultimate Tic-Tac-Toe against the bot and watch where its search went.

    The board is 81 buttons in nine small 3x3 grids; the cells the reader may
    play are highlighted (yellow) and the only ones enabled; X is blue and O
    vermillion, and the empty cells of a won board take the winner's pale
    colour. Below: the status line, the bars of the bot's last search (visits
    per candidate cell, the mean result for the bot on top; the most visited
    12), 'new game', 'undo' (the reader's last move and the bot's reply), the
    reader's mark (X moves first; with O the bot opens) and the bot's budget
    per reply (a slider of milliseconds, or of iterations when ``iterations``
    is given). The status line, the bars, the buttons' wiring and the
    redrawing come from :class:`~mctslib.views.bot_match.BotMatchWidget`.
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot".

    Parameters
    ----------
    bot : None, SPEC string, BotSpec or callable
        Builds the bot (see the module docstring); None: readable UCT, c = 0.5.
    side : {"X", "O"}
        The reader's mark in the first game.
    think_ms : int
        Starting milliseconds per reply, within ``[min_ms, max_ms]``.
    iterations : int or None
        An iteration budget instead (reproducible; tests use it); the slider
        then sets iterations, within ``[min_iterations, max_iterations]``.
    seed : int
        Seed of the bot's random stream.
    scoring : {"codingame", "openspiel"}
        How a game that ends with every board closed is scored (CodinGame:
        more boards won wins).
    start : UltimateTicTacToe or None
        The position every game starts from (None: the empty board).
    min_ms, max_ms, min_iterations, max_iterations : int
        The budget slider's range (milliseconds, or iterations with ``iterations``).

    Notes
    -----
    The bot replies inside the click's callback: the cells are disabled and
    the status says "thinking" before the search starts, so the browser
    sends no clicks meanwhile. The chart is an ``ipywidgets.Image`` holding
    PNG bytes, so the published book shows it from the stored widget state.
    CSS classes for browser tests: ``uttt-cell-<move>`` on each cell button
    (move = 9 * row + col), ``uttt-status``, ``uttt-bars`` (the Image),
    ``uttt-new``, ``uttt-undo``, ``uttt-side`` and ``uttt-think``;
    ``uttt-widget`` on the whole and ``uttt-board`` on the grid.
    """

    no_reply_note = ("After each reply of the bot, its search shows here:\n"
                     "visits per candidate cell, its mean result on top.")
    draw_reply = staticmethod(_draw_bars)

    def __init__(self, bot=None, side: str = "X", think_ms: int = UTTT_THINK_MS,
                 iterations: int | None = None, seed=UTTT_SEED, scoring: str = "codingame",
                 start: UltimateTicTacToe | None = None, min_ms: int = 10, max_ms: int = 3000,
                 min_iterations: int = 10, max_iterations: int = 20_000):
        _side("side", side)  # before any part is built: the toggle below needs a valid mark
        if iterations is not None:
            self.think = self._budget_slider(
                "uttt-think", ("iterations", "min_iterations", "max_iterations"), iterations,
                min_iterations, max_iterations, step=10, description="bot's iterations per reply")
        else:
            self.think = self._budget_slider(
                "uttt-think", ("think_ms", "min_ms", "max_ms"), think_ms, min_ms, max_ms,
                step=10, description="bot's think time per reply (ms)")
        match = UTTTMatch(bot, side, think_ms, iterations, seed, scoring, start)
        self.cells = {move: self._cell_button(move) for move in range(81)}
        self.small_boards = [self._small_board(board) for board in range(9)]
        self.board = widgets.GridBox(self.small_boards, layout=widgets.Layout(
            grid_template_columns="repeat(3, max-content)", grid_gap="5px", width="max-content"))
        self.board.add_class("uttt-board")
        self.undo_button = widgets.Button(description="undo", icon="undo")
        self.undo_button.add_class("uttt-undo")
        self.undo_button.on_click(lambda _: self.undo())
        first = " (first)" if match.start == UltimateTicTacToe(scoring=scoring) else ""
        self.side = self._new_game_toggle("uttt-side", [(f"X{first}", "X"), ("O", "O")], side)
        super().__init__(match, "uttt", new_icon="refresh", status_layout={"min_height": "3em"},
                         bars_layout={"width": "100%", "height": "auto"})

    def _children(self) -> list[widgets.Widget]:
        scoring = self.match.scoring
        # The bars sit right of the board when the page is wide enough, else below it.
        bars_box = widgets.Box([self.bars], layout=widgets.Layout(
            flex="1 1 420px", max_width=f"{WIDGET_BARS_PIXELS[0]}px", margin="0 0 0 0.8em"))
        return [
            widgets.HTML(
                "Click a highlighted cell to play. The cell you pick inside its small board "
                "sends the bot to the matching board of the big grid. Three won boards in a "
                f"line win; if every board closes first, {SCORING_NAMES[scoring]} scoring decides"
                + (" (more boards won wins)." if scoring == "codingame" else " (a draw).")
                + f" The bot: {html.escape(self.match.bot_description)}."),
            widgets.HTML(_BOARD_STYLE),
            self.status,
            widgets.HBox([self.board, bars_box],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start")),
            widgets.HBox([self.new_button, self.undo_button,
                          widgets.HTML("&nbsp;" * 4 + "you play:&nbsp;"), self.side]),
            self.think,
        ]

    # -- what the buttons do (click and new_game: BotMatchWidget) --------------------------
    def undo(self) -> None:
        """Take back the reader's last move and the bot's reply."""
        self.match.undo()
        self.refresh()

    # -- showing the match (the bars and the status: BotMatchWidget.refresh) -------------------
    def _show_board(self) -> None:
        """The cells and the frames of the small boards, and whether undo is possible."""
        match = self.match
        state, clickable = match.state, set(match.clickable())
        playable = set(state.playable_boards()) if clickable else set()
        statuses = state.board_statuses()
        for board, box in enumerate(self.small_boards):
            box.layout.border = _board_border(statuses[board], board in playable)
        for move, button in self.cells.items():
            self._show_cell(button, move, state, statuses, move in clickable)
        self.undo_button.disabled = len(match.moves) == 0

    def _show_cell(self, button, move, state, statuses, clickable: bool) -> None:
        row, col = divmod(move, 9)
        mark = state.cell(row, col)
        board, _ = to_board_cell(move)
        if mark != ".":
            colour, text = MARK_COLOURS[mark], "white"
        elif clickable:
            colour, text = HIGHLIGHT_COLOUR, None
        elif statuses[board] in WON_COLOURS:
            colour, text = WON_COLOURS[statuses[board]], None
        else:
            colour, text = None, None  # the theme's own button colour
        # Explicit colours (not button_style), so the board looks the same in every theme.
        button.description = _EMPTY_TEXT if mark == "." else mark
        button.style.button_color = colour
        button.style.text_color = text
        # The last move is underlined and framed: shape as well as colour.
        last = move == self.match.last_move
        button.style.text_decoration = "underline" if last else None
        button.layout.border = "2px solid black" if last else None
        button.disabled = not clickable

    def _budget_changed(self, change) -> None:
        if self.match.iterations is not None:
            self.match.set_budget(iterations=change["new"])
        else:
            self.match.set_budget(think_ms=change["new"])

    # -- building the parts -----------------------------------------------------------------
    def _cell_button(self, move: int) -> widgets.Button:
        row, col = divmod(move, 9)
        button = widgets.Button(description=_EMPTY_TEXT, tooltip=f"row {row}, col {col}",
                                layout=widgets.Layout(width=_CELL, height=_CELL, padding="0",
                                                      margin="0"))
        button.style.font_weight = "bold"
        button.add_class(f"uttt-cell-{move}")
        button.on_click(lambda _: self.click(move))
        return button

    def _small_board(self, board: int) -> widgets.GridBox:
        buttons = [self.cells[from_board_cell(board, cell)] for cell in range(9)]
        return widgets.GridBox(buttons, layout=widgets.Layout(
            grid_template_columns=f"repeat(3, {_CELL})", grid_gap="2px", padding="2px",
            border="3px solid transparent"))
