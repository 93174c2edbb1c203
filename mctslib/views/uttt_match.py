"""One game of Ultimate Tic-Tac-Toe between a reader and a bot, without the buttons.

The model behind :class:`mctslib.views.uttt_widget.UTTTWidget` (chapter
"Ultimate Tic-Tac-Toe: tuning a real bot"), tested without a browser:

- *bot factories* (:func:`uct_bot_factory`, :func:`spec_bot_factory`; see
  :mod:`mctslib.views.uttt_widget` for the protocol) build the bot for a budget;
- one bot reply with its root statistics (:func:`uttt_bot_reply`), as a table
  (:func:`uttt_reply_text`) and as a static picture (:func:`uttt_reply_figure`:
  the board with the visit shares, and the bars);
- :class:`UTTTMatch`: whose turn it is, what a click does, undo, new game and
  what the status line says.

Why one module of about 530 lines: the bot factories, one reply and the match
that asks for it are one model behind the widget; the widget module holds
only the buttons.
"""

from __future__ import annotations

import dataclasses
import math
import operator
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from .._checks import check_int, check_real
from ..games.uttt import SCORINGS, UltimateTicTacToe, to_board_cell
from ..rng import make_rng
from ..search.minimax import check_budget
from ..search.uct import MAX_ITERATIONS, MAX_SECONDS, ChildStats, UCTSearch
from .bot_match import BotMatchTurns
from .plotting import check_figsize, draw_root_bars
from .uttt_board import SCORING_NAMES, draw_uttt

__all__ = [
    "UTTT_EXPLORATION",
    "UTTT_SEED",
    "UTTT_THINK_MS",
    "UTTTMatch",
    "UTTTReply",
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
    """A factory of readable :class:`~mctslib.search.uct.UCTSearch` bots with UCB1 constant ``exploration``.

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
    """A factory of numba bots (:class:`mctslib.bots.uttt.UTTTBot`) from a SPEC or ``BotSpec``.

    The widget's budget replaces the SPEC's (``iters``, ``ms``; the first
    move gets the same ``ms`` as the others: the reader waits the same time
    every move). Everything else (``c``, ``scale``, ``wins``, ``solver``,
    ``reuse``, ``centre``, ``capacity``) is kept; the ``description`` is that
    SPEC without a budget. Chapter "Ultimate Tic-Tac-Toe: tuning a real bot".
    """
    from ..bots.uttt import parse_spec  # numba is loaded only when a numba bot is asked for

    spec = parse_spec(spec)
    if spec.kind != "uct":
        raise ValueError(f"the widget needs a searching bot (a 'uct' SPEC), got {spec.kind!r}.")

    def factory(iterations=None, ms=None, seed=None):
        budget = dataclasses.replace(spec, iterations=iterations, ms=ms, first_ms=ms,
                                     first_iterations=None, margin_ms=0.0)
        return budget(seed=seed)

    # str(spec) spells out every option but also a budget the bots never get: cut one out.
    options = str(dataclasses.replace(spec, iterations=1, ms=None, first_ms=None,
                                      first_iterations=None, margin_ms=0.0))
    factory.description = f"the numba bot {options.replace(',iters=1,', ',')}"
    return factory


def _factory(bot) -> BotFactory:
    if bot is None:
        return uct_bot_factory()
    bots = sys.modules.get("mctslib.bots.uttt")  # a BotSpec exists only if that module is loaded
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
    1 / 0 / -1, which is rescaled). Raises ValueError for a bot without
    ``root_stats`` or statistics of another shape.
    """
    _check_bot(bot, ("root_stats",))
    stats = bot.root_stats()
    rescale = _reward_scale(bot) == "pm1"
    children = []
    for child in _sequence("the bot's root_stats()", stats):
        if all(hasattr(child, name) for name in ("move", "visits", "mean")):
            move, visits, mean = child.move, child.visits, child.mean
            bonus = getattr(child, "bonus", math.nan)
        elif (not isinstance(child, (str, bytes)) and hasattr(child, "__getitem__")
              and hasattr(child, "__len__") and len(child) >= 3):
            move, visits, mean = child[0], child[1], child[2]
            bonus = math.nan
        else:
            raise ValueError(f"the bot's root_stats() must give objects with move, visits and "
                             f"mean, or tuples (move, visits, mean, ...); got {child!r:.80}.")
        try:
            move, visits, mean = operator.index(move), operator.index(visits), float(mean)
        except (TypeError, ValueError):
            raise ValueError(f"the bot's root_stats() must give whole numbers for move and visits "
                             f"and a number for mean, got {child!r:.80}.") from None
        if rescale and not math.isnan(mean):
            mean = (mean + 1.0) / 2.0
        children.append(ChildStats(int(move), int(visits), mean, bonus))
    return tuple(sorted(children, key=lambda child: child.move))


def _check_bot(bot, needs=("choose", "root_stats")) -> None:
    missing = [name for name in needs if not callable(getattr(bot, name, None))]
    if missing:
        raise ValueError(f"bot must be a built bot with choose(state) and root_stats() (e.g. "
                         f"uct_bot_factory()(iterations=2000, seed=1)); a {type(bot).__name__} "
                         f"has no {' and no '.join(missing)}.")


def _sequence(name: str, values) -> list:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise ValueError(f"{name} must be a sequence, got {type(values).__name__}.")
    return list(values)


def _cell_name(move: int) -> str:
    row, col = divmod(move, 9)
    return f"row {row}, col {col}"


@dataclass(frozen=True)
class UTTTReply:
    """One decision of the bot: its move, its root statistics, and the time it took.

    ``stats`` holds one :class:`~mctslib.search.uct.ChildStats` per legal move,
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
    _check_bot(bot)
    start = time.perf_counter()
    answer = bot.choose(state)
    seconds = time.perf_counter() - start
    try:
        move = operator.index(answer)
    except TypeError:
        raise ValueError(f"the bot answered {answer!r:.80}, which is not a move (a whole number "
                         f"9 * row + col).") from None
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
    if not isinstance(reply, UTTTReply):
        raise ValueError(f"reply must be a UTTTReply (from uttt_bot_reply), got "
                         f"{type(reply).__name__}.")
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

    figsize = check_figsize(figsize)
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
        # Checked here: new_game(None) keeps the reader's mark, and a first game has none.
        self.human = _side("human_side", human_side)
        self.new_game(human_side)

    # -- the budget -------------------------------------------------------------------
    def set_budget(self, think_ms: float | None = None, iterations: int | None = None) -> None:
        """Milliseconds or iterations per reply (give one; ``iterations`` wins if both).

        Both are checked when both are given: a mistaken ``think_ms`` is named
        even when ``iterations`` makes it unused.
        """
        if think_ms is not None or iterations is None:
            think_ms = check_real("think_ms (milliseconds per reply)", think_ms, 0.0,
                                  1000.0 * MAX_SECONDS)
            if think_ms <= 0:
                raise ValueError(f"think_ms (milliseconds per reply) must be > 0, got {think_ms}.")
        if iterations is not None:
            iterations = check_budget("iterations", iterations, 1, MAX_ITERATIONS)
            self.iterations, self.think_ms = iterations, None
            return
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

    # -- actions (the rest of click and bot_reply: BotMatchTurns) --------------------
    def click(self, move: int) -> bool:
        """The reader plays ``move`` (``9 * row + col``); returns True if it was played.

        A click after the end, during the bot's turn or on an illegal cell
        changes nothing but the status line, which says why.
        """
        move = check_int("move (9 * row + col)", move, 0)
        if move > 80:
            raise ValueError(f"move (9 * row + col) must be a whole number from 0 to 80, "
                             f"got {move}.")
        return self._take_click(move)

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

    def _play(self, move: int, reply: UTTTReply | None) -> None:
        self.history.append(self.state.play(move))
        self.moves.append(move)
        self.replies.append(reply)

    def _search(self) -> UTTTReply:
        return uttt_bot_reply(self.state, self.bot())

    # -- sentences ----------------------------------------------------------------------
    def _you_did(self, move: int) -> str:
        return f"played {_cell_name(move)}"

    def _reply_sentence(self, reply: UTTTReply) -> str:
        return (f"The bot played {_cell_name(reply.move)} ({reply.share(reply.move):.0%} of "
                f"its {reply.visits:,} visits, {reply.seconds:.2f} s).")

    def _your_turn(self) -> str:
        return f"Your turn: {self._where_to_play()}"

    def _why_not(self, move: int) -> str | None:
        state = self.state
        if move in state.legal_moves():
            return None
        row, col = divmod(move, 9)
        board, _ = to_board_cell(move)
        if state.cell(row, col) != ".":
            reason = f"Row {row}, col {col} is taken."
        elif state.board_status(board) != "open":
            reason = f"Board {board} (the one holding row {row}, col {col}) is closed."
        else:
            reason = (f"Row {row}, col {col} is in board {board}, but you were sent to board "
                      f"{state.forced_board}.")
        return f"{reason} Please {self._where_to_play()}"

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
