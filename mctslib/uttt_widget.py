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
:meth:`mctslib.uct.UCTSearch.root_stats`) or of tuples
``(move, visits, mean, ...)`` (as :meth:`mctslib.bots.UTTTBot.root_stats`).
The match builds a new bot only when the budget changes. A factory may carry a
``description`` attribute; the widget names the bot with it.

- ``bot=None``: :func:`uct_bot_factory`, the readable :class:`~mctslib.uct.UCTSearch`
  (about 2,000 iterations per second on this game in pure Python);
- ``bot="uct:c=0.5,solver=on"`` (a SPEC string) or a
  :class:`mctslib.bots.BotSpec`: :func:`spec_bot_factory`, the numba bot with
  those options, its budget replaced by the widget's;
- any other callable: your own factory.
"""

from __future__ import annotations

import dataclasses
import html
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import ipywidgets as widgets

from ._checks import check_int, check_real
from .games.uttt import SCORINGS, UltimateTicTacToe, from_board_cell, to_board_cell
from .plotting import WIDGET_BARS_PIXELS, draw_root_bars, widget_bars_png
from .rng import make_rng
from .uct import ChildStats, UCTSearch
from .uttt_board import (
    HIGHLIGHT_COLOUR,
    HIGHLIGHT_EDGE,
    MARK_COLOURS,
    SCORING_NAMES,
    WON_COLOURS,
    draw_uttt,
)
from .widgets import BotMatchTurns, BotMatchWidget

__all__ = [
    "UTTT_EXPLORATION",
    "UTTT_SEED",
    "UTTT_THINK_MS",
    "UTTTMatch",
    "UTTTReply",
    "UTTTWidget",
    "root_child_stats",
    "spec_bot_factory",
    "uct_bot_factory",
    "uttt_bot_reply",
    "uttt_reply_figure",
    "uttt_reply_text",
]

#: UCB1's constant for the default bot: the value Di_Masta reports for rewards 1 / 0.5 / 0
#: (a starting point; the chapter measures its own optimum).
UTTT_EXPLORATION = 0.5
#: Milliseconds per bot reply unless the reader moves the slider (CodinGame's 100 ms a move).
UTTT_THINK_MS = 100
UTTT_SEED = 2026
#: The bars show at most this many candidate moves (the most visited): 81 bars are unreadable.
BARS_TOP = 12

BotFactory = Callable[..., object]


# ---------------------------------------------------------------------------- bots


def uct_bot_factory(exploration: float = UTTT_EXPLORATION) -> BotFactory:
    """A factory of readable :class:`~mctslib.uct.UCTSearch` bots with UCB1 constant ``exploration``.

    The returned ``factory(iterations=None, ms=None, seed=None)`` builds a
    search with an iteration budget or a time budget (``ms`` milliseconds).
    """
    exploration = check_real("exploration (the constant c)", exploration, 0.0)

    def factory(iterations=None, ms=None, seed=None) -> UCTSearch:
        seconds = None if ms is None else ms / 1000.0
        return UCTSearch(exploration, iterations=iterations, seconds=seconds, seed=seed)

    factory.description = f"UCT with c = {exploration:g}, in readable Python"
    return factory


def spec_bot_factory(spec) -> BotFactory:
    """A factory of numba bots (:class:`mctslib.bots.UTTTBot`) from a SPEC or ``BotSpec``.

    The widget's budget replaces the SPEC's (``iters``, ``ms``; the first
    move gets the same ``ms`` as the others: the reader waits the same time
    every move). Everything else (``c``, ``scale``, ``wins``, ``solver``,
    ``reuse``, ``centre``, ``capacity``) is kept.
    """
    from .bots import parse_spec  # numba is loaded only when a numba bot is asked for

    spec = parse_spec(spec)
    if spec.kind != "uct":
        raise ValueError(f"the widget needs a searching bot (a 'uct' SPEC), got {spec.kind!r}.")

    def factory(iterations=None, ms=None, seed=None):
        budget = dataclasses.replace(spec, iterations=iterations, ms=ms, first_ms=ms)
        return budget(seed=seed)

    factory.description = f"the numba bot {spec}"
    return factory


def _factory(bot) -> BotFactory:
    if bot is None:
        return uct_bot_factory()
    bots = sys.modules.get("mctslib.bots")  # a BotSpec exists only if that module is loaded
    if isinstance(bot, str) or (bots is not None and isinstance(bot, bots.BotSpec)):
        return spec_bot_factory(bot)
    if callable(bot):
        return bot
    raise ValueError("bot must be None (the readable UCT bot), a SPEC string such as "
                     "'uct:c=0.5', a BotSpec, or a factory called as factory(iterations=..., "
                     f"ms=..., seed=...); got {type(bot).__name__}.")


def _reward_scale(bot) -> str:
    spec = getattr(bot, "spec", None)
    return getattr(spec, "scale", "01")


def root_child_stats(bot) -> tuple[ChildStats, ...]:
    """The bot's root children after its last search, as ChildStats sorted by move.

    Accepts objects with ``move``/``visits``/``mean`` or tuples
    ``(move, visits, mean, ...)``. Means are put on the scale win 1, draw
    0.5, loss 0 for the bot (a bot whose ``spec.scale`` is ``"pm1"`` reports
    1 / 0 / -1, which is rescaled).
    """
    stats = bot.root_stats()
    rescale = _reward_scale(bot) == "pm1"
    children = []
    for child in stats:
        if hasattr(child, "move"):
            move, visits, mean = child.move, child.visits, child.mean
            bonus = getattr(child, "bonus", math.nan)
        else:
            move, visits, mean = child[0], child[1], child[2]
            bonus = math.nan
        mean = float(mean)
        if rescale and not math.isnan(mean):
            mean = (mean + 1.0) / 2.0
        children.append(ChildStats(int(move), int(visits), mean, bonus))
    return tuple(sorted(children, key=lambda child: child.move))


def _cell_name(move: int) -> str:
    row, col = divmod(move, 9)
    return f"row {row}, col {col}"


@dataclass(frozen=True)
class UTTTReply:
    """One decision of the bot: its move, its root statistics, and the time it took.

    ``stats`` holds one :class:`~mctslib.uct.ChildStats` per legal move,
    sorted by move; ``mean`` is the bot's average result through that move
    (win 1, draw 0.5, loss 0). Chapter "Ultimate Tic-Tac-Toe".
    """

    move: int
    stats: tuple[ChildStats, ...]
    seconds: float

    @property
    def visits(self) -> int:
        """Visits of all root children together (the iterations, without tree reuse)."""
        return sum(child.visits for child in self.stats)

    def share(self, move: int) -> float:
        """The fraction of the root visits that went to ``move``."""
        total = self.visits
        visits = next((child.visits for child in self.stats if child.move == move), 0)
        return visits / total if total else 0.0

    def title(self) -> str:
        """A one-line figure title: what the bot played and how sure its search was."""
        return (f"The bot played {_cell_name(self.move)}: {self.share(self.move):.0%} of "
                f"{self.visits:,} visits")


def uttt_bot_reply(state: UltimateTicTacToe, bot) -> UTTTReply:
    """Ask ``bot`` for its move in ``state`` and collect its root statistics.

    ``bot`` is a built bot (``choose`` and ``root_stats``), e.g.
    ``uct_bot_factory()(iterations=2000, seed=1)``. Raises ValueError if the
    game is over or the bot answers an illegal move. Chapter "Ultimate Tic-Tac-Toe".
    """
    if not isinstance(state, UltimateTicTacToe):
        raise ValueError(f"state must be an UltimateTicTacToe position, got "
                         f"{type(state).__name__}.")
    if state.is_terminal():
        raise ValueError("the game is over: the bot has no move to choose.")
    start = time.perf_counter()
    move = int(bot.choose(state))
    seconds = time.perf_counter() - start
    if move not in state.legal_moves():
        raise ValueError(f"the bot answered move {move}, which is not legal here; legal "
                         f"moves: {list(state.legal_moves())}.")
    return UTTTReply(move, root_child_stats(bot), seconds)


def uttt_reply_text(reply: UTTTReply, top: int = BARS_TOP) -> str:
    """The reply as a table of its ``top`` most visited moves (ties: lower move first).

    Columns: move, row and col, visits, share of the root visits, mean result
    for the bot; the played move is marked. What the chapter prints next to
    the static figure.
    """
    top = check_int("top (moves listed)", top, 1)
    listed = min(top, len(reply.stats))
    lines = [f"{reply.title()} ({len(reply.stats)} legal moves, the {listed} most visited listed)",
             "move  row col  visits   share  mean result for the bot"]
    for child in _most_visited(reply.stats, top):
        row, col = divmod(child.move, 9)
        mean = "-" if child.visits == 0 else f"{child.mean:.3f}"
        mark = "  <- played" if child.move == reply.move else ""
        lines.append(f"{child.move:>4}  {row:>3} {col:>3}  {child.visits:>6}  "
                     f"{reply.share(child.move):>6.1%}  {mean:>6}{mark}")
    return "\n".join(lines)


def _most_visited(stats, top: int) -> list[ChildStats]:
    return sorted(stats, key=lambda child: (-child.visits, child.move))[:top]


def _draw_bars(ax, reply: UTTTReply) -> None:
    # Ticks read "row,col" (single digits, so sorting the strings keeps row-major order).
    shown = [dataclasses.replace(child, move=f"{child.move // 9},{child.move % 9}")
             for child in _most_visited(reply.stats, BARS_TOP)]
    chosen = f"{reply.move // 9},{reply.move % 9}"
    hidden = len(reply.stats) - len(shown)
    label = "cell the bot could play (row,col)" + (
        f"; the {len(shown)} most visited of {len(reply.stats)}" if hidden else "")
    draw_root_bars(ax, shown, chosen=chosen, title=reply.title(), move_label=label,
                   mover="the bot")


def uttt_reply_figure(state: UltimateTicTacToe | None = None, iterations: int = 2000,
                      seed=UTTT_SEED, bot=None, figsize=(11.0, 4.8)):
    """A pyplot figure of one reply: the board with the visit shares, and the bars.

    The static picture the chapter shows before the widget (the book cannot
    run the widget). The default position is the empty board after X opened
    in the centre (row 4, col 4), the bot playing O. ``bot`` is a factory as
    in :class:`UTTTMatch` (None: the readable UCT bot). End the cell with
    ``plt.show()``. Chapter "Ultimate Tic-Tac-Toe".

    Returns
    -------
    (matplotlib.figure.Figure, UTTTReply)
    """
    import matplotlib.pyplot as plt  # pyplot only here: the widget draws off-screen

    state = UltimateTicTacToe().play(40) if state is None else state
    factory = _factory(bot)
    reply = uttt_bot_reply(state, factory(iterations=check_int("iterations", iterations, 1),
                                          ms=None, seed=make_rng(seed)))
    fig, (board, bars) = plt.subplots(1, 2, figsize=figsize, layout="constrained",
                                      facecolor="white", width_ratios=(1, 1.25))
    draw_uttt(board, state, visits=reply.stats, last_move=None,
              title=f"{'XO'[state.player_to_move]} (the bot) to move: share of its visits")
    _draw_bars(bars, reply)
    return fig, reply


# ---------------------------------------------------------------------------- the match


def _start_position(start, scoring: str) -> UltimateTicTacToe:
    if start is None:
        return UltimateTicTacToe(scoring=scoring)
    if not isinstance(start, UltimateTicTacToe):
        raise ValueError(f"start must be an UltimateTicTacToe position or None, got "
                         f"{type(start).__name__}.")
    if start.is_terminal():
        raise ValueError("start must be a position where the game is still on; this one is "
                         "over.")
    return start.with_scoring(scoring)


def _side(name: str, value) -> int:
    if value not in ("X", "O"):
        raise ValueError(f"{name} must be 'X' (moves first) or 'O', got {value!r}.")
    return "XO".index(value)


class UTTTMatch(BotMatchTurns):
    """A game of Ultimate Tic-Tac-Toe between the reader and a bot, without any widget.

    It knows whose turn it is, what a click on a cell does, how undo and a
    new game work and what the status line says; :class:`UTTTWidget` only
    shows it. The bot's random numbers come from one numpy Generator seeded
    once, so the same seed, budget and clicks give the same games.
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot".

    Parameters
    ----------
    bot : None, SPEC string, BotSpec or callable
        Builds the bot (see the module docstring); None is the readable UCT.
    human_side : {"X", "O"}
        The reader's mark; X moves first, so with "O" the bot opens.
    think_ms : float
        The bot's time per reply in milliseconds (> 0), unless ``iterations``.
    iterations : int or None
        An iteration budget per reply instead of a time budget (reproducible).
    seed : int, numpy Generator or None
        Seed of the bot's random stream.
    scoring : {"codingame", "openspiel"}
        How a game that ends with every board closed and no line is scored.
    start : UltimateTicTacToe or None
        The position every game starts from (None: the empty board), e.g.
        the chapter's example position; undo goes back no further.
    """

    def __init__(self, bot=None, human_side: str = "X", think_ms: float = UTTT_THINK_MS,
                 iterations: int | None = None, seed=UTTT_SEED, scoring: str = "codingame",
                 start: UltimateTicTacToe | None = None):
        if scoring not in SCORINGS:
            raise ValueError(f"scoring must be one of {SCORINGS}, got {scoring!r}.")
        self.scoring = scoring
        self.start = _start_position(start, scoring)
        self.factory = _factory(bot)
        self.rng = make_rng(seed)
        self._bot, self._bot_budget = None, None
        self.set_budget(think_ms=think_ms, iterations=iterations)
        self.new_game(human_side)

    # -- the budget -------------------------------------------------------------------
    def set_budget(self, think_ms: float | None = None, iterations: int | None = None) -> None:
        """Milliseconds or iterations per reply (give one; ``iterations`` wins if both)."""
        if iterations is not None:
            self.iterations, self.think_ms = check_int("iterations", iterations, 1), None
            return
        think_ms = check_real("think_ms (milliseconds per reply)", think_ms, 0.0)
        if think_ms <= 0:
            raise ValueError(f"think_ms (milliseconds per reply) must be > 0, got {think_ms}.")
        self.iterations, self.think_ms = None, think_ms

    @property
    def bot_description(self) -> str:
        """What the bot is, for the widget's text (a factory's ``description`` attribute)."""
        return getattr(self.factory, "description", "your own bot")

    def budget_text(self) -> str:
        """The budget in words, e.g. ``"100 ms"`` or ``"2,000 iterations"``."""
        if self.iterations is not None:
            return f"{self.iterations:,} iterations"
        return f"{self.think_ms:g} ms"

    def bot(self):
        """The bot for the current budget (built again only when the budget changed)."""
        budget = (self.iterations, self.think_ms)
        if self._bot is None or self._bot_budget != budget:
            self._bot = self.factory(iterations=self.iterations, ms=self.think_ms, seed=self.rng)
            self._bot_budget = budget
        return self._bot

    # -- the game ---------------------------------------------------------------------
    def new_game(self, human_side: str | None = None) -> None:
        """Start again from the start position (``human_side`` None keeps the reader's mark).

        If the bot opens, its move is left to :meth:`bot_reply`, so that a
        widget can say "thinking" before the search runs.
        """
        if human_side is not None:
            self.human = _side("human_side", human_side)
        self.history = [self.start]
        self.moves: list[int] = []
        self.replies: list[UTTTReply | None] = [None]
        bot_side = "XO"[1 - self.human]
        self.status = (f"The bot ({bot_side}) moves first; you play {self.human_side}."
                       if self.bot_to_move else
                       f"You play {self.human_side} and move first: {self._where_to_play()}")

    @property
    def state(self) -> UltimateTicTacToe:
        return self.history[-1]

    @property
    def human_side(self) -> str:
        return "XO"[self.human]

    @property
    def last_reply(self) -> UTTTReply | None:
        """The bot's reply that made the current position, if its move was the last one."""
        return self.replies[-1]

    @property
    def last_move(self) -> int | None:
        return self.moves[-1] if self.moves else None

    def clickable(self) -> tuple[int, ...]:
        """The cells a click plays now: the legal moves on the reader's turn, else none."""
        if self.is_over or self.bot_to_move:
            return ()
        return self.state.legal_moves()

    # -- actions ----------------------------------------------------------------------
    def click(self, move: int) -> bool:
        """The reader plays ``move`` (``9 * row + col``); returns True if it was played.

        A click after the end, during the bot's turn or on an illegal cell
        changes nothing but the status line, which says why.
        """
        move = check_int("move (9 * row + col)", move, 0)
        if move > 80:
            raise ValueError(f"move (9 * row + col) must be a whole number from 0 to 80, "
                             f"got {move}.")
        if self._refuse_click():
            return False
        reason = self._illegal_reason(move)
        if reason:
            self.status = f"{reason} Please {self._where_to_play()}"
            return False
        self._push(move, None)
        self.status = (f"You played {_cell_name(move)}. {self.result_sentence()}" if self.is_over
                       else f"You played {_cell_name(move)}. The bot is thinking "
                            f"({self.budget_text()})...")
        return True

    def bot_reply(self) -> UTTTReply | None:
        """Let the bot search and move, if it is its turn; returns its reply (else None)."""
        if not self.bot_to_move:
            return None
        reply = uttt_bot_reply(self.state, self.bot())
        self._push(reply.move, reply)
        played = (f"The bot played {_cell_name(reply.move)} ({reply.share(reply.move):.0%} of "
                  f"its {reply.visits:,} visits, {reply.seconds:.2f} s).")
        self.status = (f"{played} {self.result_sentence()}" if self.is_over
                       else f"{played} Your turn: {self._where_to_play()}")
        return reply

    def undo(self) -> bool:
        """Take back the reader's last move and the bot's reply to it; True if done."""
        if self.bot_to_move:
            self.status = "Wait: it is the bot's turn; undo after its reply."
            return False
        # The last earlier position where it was the reader's turn.
        back = next((i for i in range(len(self.history) - 2, -1, -1)
                     if self.history[i].player_to_move == self.human), None)
        if back is None:
            self.status = ("Nothing to take back yet: you have not moved. Your turn: "
                           + self._where_to_play())
            return False
        taken, replied = self.moves[back], len(self.moves) - back > 1
        del self.history[back + 1:], self.replies[back + 1:], self.moves[back:]
        self.status = (f"Took back your move at {_cell_name(taken)}"
                       f"{' and the bot' + chr(39) + 's reply' if replied else ''}. "
                       f"Your turn: {self._where_to_play()}")
        return True

    def _push(self, move: int, reply: UTTTReply | None) -> None:
        self.history.append(self.state.play(move))
        self.moves.append(move)
        self.replies.append(reply)

    # -- sentences ----------------------------------------------------------------------
    def _illegal_reason(self, move: int) -> str | None:
        state = self.state
        if move in state.legal_moves():
            return None
        row, col = divmod(move, 9)
        board, _ = to_board_cell(move)
        if state.cell(row, col) != ".":
            return f"Row {row}, col {col} is taken."
        if state.board_status(board) != "open":
            return f"Board {board} (the one holding row {row}, col {col}) is closed."
        return f"Row {row}, col {col} is in board {board}, but you were sent to board " \
               f"{state.forced_board}."

    def _where_to_play(self) -> str:
        state = self.state
        if state.free_choice:
            return "play any highlighted cell (a free choice: every open board is allowed)."
        top, left = 3 * (state.forced_board // 3), 3 * (state.forced_board % 3)
        return (f"play in board {state.forced_board} (rows {top}-{top + 2}, cols "
                f"{left}-{left + 2}), highlighted.")

    def result_sentence(self) -> str:
        """Who won and how, naming the scoring when it decided (empty while the game is on)."""
        state = self.state
        if not state.is_terminal():
            return ""
        winner = state.winner()
        who = "Draw" if winner is None else "You win" if winner == self.human else "The bot wins"
        if state.ending() == "line":
            return f"{who}: three won boards in a line."
        mine, bots = state.won_boards(self.human), state.won_boards(1 - self.human)
        counts = (f"every board is closed without a line; you won {mine} boards, the bot "
                  f"{bots}")
        name = SCORING_NAMES[self.scoring]
        if self.scoring == "openspiel":
            return f"{who}: {counts}, and under {name} scoring that is always a draw."
        rule = "more boards won wins" if winner is not None else "equal counts draw"
        return f"{who}: {counts} ({name} scoring: {rule})."


# ---------------------------------------------------------------------------- the widget

_CELL = "2.3em"
_EMPTY_TEXT = "\u00a0"  # a no-break space keeps an empty button's height in every browser


def _bars_png(reply: UTTTReply | None, note: str) -> bytes:
    """The bars of a reply (or a note in their place) as PNG bytes, drawn off-screen."""
    draw = None if reply is None else (lambda ax: _draw_bars(ax, reply))
    return widget_bars_png(draw, note)


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

_NO_REPLY_NOTE = ("After each reply of the bot, its search shows here:\n"
                  "visits per candidate cell, its mean result on top.")


class UTTTWidget(BotMatchWidget, widgets.VBox):
    """Play Ultimate Tic-Tac-Toe against the bot and watch where its search went.

    The board is 81 buttons in nine small 3x3 grids; the cells the reader may
    play are highlighted (yellow) and the only ones enabled; X is blue and O
    vermillion, and the empty cells of a won board take the winner's pale
    colour. Below: the status line, the bars of the bot's last search (visits
    per candidate cell, the mean result for the bot on top; the most visited
    12), 'new game', 'undo' (the reader's last move and the bot's reply), the
    reader's mark (X moves first; with O the bot opens) and the bot's budget
    per reply (a slider of milliseconds, or of iterations when ``iterations``
    is given). Chapter "Ultimate Tic-Tac-Toe: tuning a real bot".

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

    def __init__(self, bot=None, side: str = "X", think_ms: int = UTTT_THINK_MS,
                 iterations: int | None = None, seed=UTTT_SEED, scoring: str = "codingame",
                 start: UltimateTicTacToe | None = None, min_ms: int = 10, max_ms: int = 3000,
                 min_iterations: int = 10, max_iterations: int = 20_000):
        slider = self._budget_slider(think_ms, iterations, min_ms, max_ms, min_iterations,
                                     max_iterations)
        self.match = UTTTMatch(bot, side, think_ms, iterations, seed, scoring, start)
        self.cells = {move: self._cell_button(move) for move in range(81)}
        self.small_boards = [self._small_board(board) for board in range(9)]
        self.board = widgets.GridBox(self.small_boards, layout=widgets.Layout(
            grid_template_columns="repeat(3, max-content)", grid_gap="5px", width="max-content"))
        self.board.add_class("uttt-board")
        self.status = widgets.HTML(layout=widgets.Layout(min_height="3em"))
        self.status.add_class("uttt-status")
        self.bars = widgets.Image(format="png", layout=widgets.Layout(
            width="100%", height="auto"))
        self.bars.add_class("uttt-bars")
        self.think = slider
        self.think.add_class("uttt-think")
        self.think.observe(self._budget_changed, names="value")
        first = " (first)" if self.match.start == UltimateTicTacToe(scoring=scoring) else ""
        self.side = widgets.ToggleButtons(options=[(f"X{first}", "X"), ("O", "O")], value=side,
                                          style={"button_width": "6em"})
        self.side.add_class("uttt-side")
        self.side.observe(lambda change: self.new_game(), names="value")
        self.new_button = widgets.Button(description="new game", icon="refresh")
        self.new_button.add_class("uttt-new")
        self.new_button.on_click(lambda _: self.new_game())
        self.undo_button = widgets.Button(description="undo", icon="undo")
        self.undo_button.add_class("uttt-undo")
        self.undo_button.on_click(lambda _: self.undo())
        scoring_name = SCORING_NAMES[scoring]
        # The bars sit right of the board when the page is wide enough, else below it.
        bars_box = widgets.Box([self.bars], layout=widgets.Layout(
            flex="1 1 420px", max_width=f"{WIDGET_BARS_PIXELS[0]}px", margin="0 0 0 0.8em"))
        super().__init__(children=[
            widgets.HTML(
                "Click a highlighted cell to play. The cell you pick inside its small board "
                "sends the bot to the matching board of the big grid. Three won boards in a "
                f"line win; if every board closes first, {scoring_name} scoring decides"
                + (" (more boards won wins)." if scoring == "codingame" else " (a draw).")
                + f" The bot: {html.escape(self.match.bot_description)}."),
            widgets.HTML(_BOARD_STYLE),
            self.status,
            widgets.HBox([self.board, bars_box],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start")),
            widgets.HBox([self.new_button, self.undo_button,
                          widgets.HTML("&nbsp;" * 4 + "you play:&nbsp;"), self.side]),
            self.think,
        ])
        self.add_class("uttt-widget")
        self.new_game_toggle = self.side  # a new game starts with the reader's mark
        self._play_bot_if_its_turn()

    # -- what the buttons do (click and new_game: BotMatchWidget) --------------------------
    def undo(self) -> None:
        """Take back the reader's last move and the bot's reply."""
        self.match.undo()
        self.refresh()

    # -- showing the match -----------------------------------------------------------------
    def refresh(self) -> None:
        """Show the match: cells, status and (if the reply changed) the bars."""
        match = self.match
        self._show_reply_bars(lambda reply: _bars_png(reply, _NO_REPLY_NOTE))
        state, clickable = match.state, set(match.clickable())
        playable = set(state.playable_boards()) if clickable else set()
        statuses = state.board_statuses()
        for board, box in enumerate(self.small_boards):
            box.layout.border = _board_border(statuses[board], board in playable)
        for move, button in self.cells.items():
            self._show_cell(button, move, state, statuses, move in clickable)
        self.undo_button.disabled = len(match.moves) == 0
        self.status.value = f"<b>{html.escape(match.status)}</b>"

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
    @staticmethod
    def _budget_slider(think_ms, iterations, min_ms, max_ms, min_iterations, max_iterations):
        if iterations is not None:
            low = check_int("min_iterations", min_iterations, 1)
            high = check_int("max_iterations", max_iterations, low)
            value, name, step = check_int("iterations", iterations, 1), "iterations", 10
            description = "bot's iterations per reply"
        else:
            low = check_int("min_ms", min_ms, 1)
            high = check_int("max_ms", max_ms, low)
            value, name, step = check_int("think_ms", think_ms, 1), "think_ms", 10
            description = "bot's think time per reply (ms)"
        if not low <= value <= high:
            raise ValueError(f"{name} must be between {low} and {high} (the slider's range), "
                             f"got {value}.")
        return widgets.IntSlider(value=value, min=low, max=high, step=step,
                                 description=description, style={"description_width": "initial"},
                                 layout=widgets.Layout(width="34em"))

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
