"""The UTTT bot with the bot author's toolbox (chapter "How a Legend bot gets its strength").

Seven SPEC keys of :mod:`mctslib.bots.uttt`, all off by default, so that
every SPEC without them builds the bot it always built:

==============  ==================================================  ==========
key             meaning                                             default
==============  ==================================================  ==========
``fpu``         first-play urgency: an unvisited child's score,     off
                0 to 10 (off: every child is tried once first)
``bounds``      score-bounded MCTS: proves wins, losses and draws,  ``off``
                skips moves that cannot beat a sibling's proven
                value (replaces ``solver``)
``tree_safe``   anti-decisive moves in the tree: a new node leaves  ``off``
                out the moves after which the opponent wins at
                once (needs ``tree_wins``, the decisive rule)
``mast``        MAST playouts: the chance of a uniformly random     off
                move, 0 to 1; otherwise the move with the best
                average result so far in this search
``ponder``      as X with ``centre=on`` and ``reuse=on``, spend the  ``off``
                first turn's budget on the position after the centre
``extend``      a move whose two most visited root moves are close  0
                may use up to this share of its budget more, 0 to 1
``close``       "close": the second has at least this share of the  0.8
                first's visits, above 0 and at most 1
==============  ==================================================  ==========

A SPEC with any of them on builds a :class:`mctslib.bots.uttt.ToolboxBot`,
the :class:`~mctslib.bots.uttt.UTTTBot` (with :class:`ToolboxMixin`) whose search is
:func:`mctslib.fast.uttt_toolbox.toolbox_kernel`, and whose time management
adds ``ponder`` and ``extend`` to the bot's ``stop``: with ``stop=on`` an
extension also ends as soon as the most visited move cannot be overtaken in
what is left of it. :func:`check_toolbox` is the part of :class:`~mctslib.bots.uttt.BotSpec`'s
checks that concerns these keys, :func:`toolbox_text` their part of
``str(spec)``.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from .._checks import check_real
from ..fast import uttt as engine
from ..fast import uttt_toolbox as kernel
from ..fast import uttt_uct as fast_uct
from ..games.uttt import UltimateTicTacToe
from ..search.uttt_toolbox import mast_threshold
from ._spec import exact

__all__ = ["MAX_FPU", "TOOLBOX_DEFAULTS", "TOOLBOX_HELP", "TOOLBOX_SENTENCE", "ToolboxMixin",
           "check_toolbox", "toolbox_text", "uses_toolbox", "warm_up"]

#: X's opening, the centre of the centre board (:data:`mctslib.bots.uttt.CENTRE`).
CENTRE = 40
#: A root's visits are an int32 (:mod:`mctslib.bots.uttt` stops a search before they wrap).
_VISITS_LIMIT = 2**31 - 1


#: The largest first-play urgency: far above any UCB1 score of c <= 2 after a few visits.
MAX_FPU = 10.0
#: The toolbox's fields and their defaults (a default is off).
TOOLBOX_DEFAULTS = {"fpu": None, "bounds": False, "tree_safe": False, "mast": None,
                    "ponder": False, "extend": 0.0, "close": 0.8}
#: The toolbox keys' part of the sentence every SPEC error ends with.
TOOLBOX_SENTENCE = ("fpu (a number from 0 to 10), bounds, tree_safe and ponder (on or off), mast "
                    "and extend (numbers from 0 to 1), close (a number above 0 and at most 1)")
#: The keys as the command line's --help lists them.
TOOLBOX_HELP = """\
  fpu=NUMBER        first-play urgency: the score of an unvisited child, 0 to 10
                    (default off: every child is tried once first)
  bounds=on|off     score-bounded MCTS: prove wins, losses and draws and skip moves
                    that cannot beat a sibling's proven value; not with solver
                    (default off)
  tree_safe=on|off  anti-decisive moves in the tree: leave out moves after which
                    the opponent wins at once; needs tree wins (default off)
  mast=NUMBER       MAST playouts: the chance of a random move, 0 to 1; otherwise
                    the move with the best average so far (default off)
  ponder=on|off     as X with centre=on and reuse=on, spend the first turn's budget
                    searching the position after the centre (default off)
  extend=NUMBER     up to this share of a move's budget more when its two most
                    visited moves are close, 0 to 1 (default 0)
  close=NUMBER      close means the second has at least this share of the first's
                    visits, above 0 and at most 1 (default 0.8)"""


def uses_toolbox(spec) -> bool:
    """Whether ``spec`` turns on any toolbox key (then the bot is a
    :class:`mctslib.bots.uttt.ToolboxBot`)."""
    return (spec.fpu is not None or spec.bounds or spec.tree_safe or spec.mast is not None
            or spec.ponder or spec.extend > 0.0)


def check_toolbox(spec) -> dict:
    """The toolbox fields of ``spec`` checked and normalised: ``{field: value}``.

    Raises ValueError with a sentence naming the key, the value and what is
    allowed, also for a key that contradicts another (``bounds`` with
    ``solver``, ``tree_safe`` without tree wins, ``mast`` with a heuristic
    playout policy, any toolbox key with ``cutoff``, ``ponder`` without
    ``centre`` and ``reuse``).
    """
    values = {}
    if spec.fpu is not None:
        values["fpu"] = _checked("fpu (first-play urgency: an unvisited child's score)", spec.fpu,
                                 0.0, MAX_FPU, "from 0 to 10")
    for name in ("bounds", "tree_safe", "ponder"):
        value = getattr(spec, name)
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(f"{name} must be True or False (on or off in a SPEC), got {value!r}.")
        values[name] = bool(value)
    if spec.mast is not None:
        values["mast"] = _checked("mast (the chance of a random playout move)", spec.mast, 0.0,
                                  1.0, "from 0 to 1")
    values["extend"] = _checked("extend (the share of a move's budget added when its best two "
                                "moves are close)", spec.extend, 0.0, 1.0, "from 0 to 1")
    close = _checked("close (the second most visited move's share of the first's visits)",
                     spec.close, 0.0, 1.0, "above 0 and at most 1")
    if close == 0.0:
        raise ValueError(f"close (the second most visited move's share of the first's visits) "
                         f"must be a number above 0 and at most 1, got {spec.close!r}.")
    values["close"] = close
    if values["bounds"] and spec.solver:
        raise ValueError("bounds=on is a solver itself (it proves draws too): give bounds or "
                         "solver, not both.")
    if values["tree_safe"] and not spec.tree_takes_wins:
        raise ValueError("tree_safe=on needs the decisive rule in the tree (wins=on or "
                         "tree_wins=on), so that a winning move is never left out.")
    if spec.mast is not None and spec.playout_policy not in ("random", "wins"):
        raise ValueError(f"mast replaces the random playout move: give it with playout random "
                         f"or wins, not {spec.playout_policy}.")
    if spec.cutoff and (spec.fpu is not None or values["bounds"] or values["tree_safe"]
                        or spec.mast is not None):
        raise ValueError("fpu, bounds, tree_safe and mast have no cut-off playouts: give "
                         "cutoff=0 with them.")
    if values["ponder"] and not (spec.centre and spec.reuse):
        raise ValueError("ponder=on searches after the centre opening and keeps the tree: it "
                         "needs centre=on and reuse=on.")
    return values


def _checked(name: str, value, low: float, high: float, allowed: str) -> float:
    try:
        return check_real(name, value, low, high)
    except ValueError:
        raise ValueError(f"{name} must be a number {allowed}, got {value!r}.") from None


def toolbox_text(spec) -> str:
    """The toolbox keys set in ``spec``, as SPEC options (empty if none): ``,fpu=0.8,bounds=on``."""
    text = ""
    if spec.fpu is not None:
        text += f",fpu={exact(spec.fpu)}"
    for name in ("bounds", "tree_safe"):
        if getattr(spec, name):
            text += f",{name}=on"
    if spec.mast is not None:
        text += f",mast={exact(spec.mast)}"
    if spec.ponder:
        text += ",ponder=on"
    if spec.extend:
        text += f",extend={exact(spec.extend)}"
    if spec.close != TOOLBOX_DEFAULTS["close"]:
        text += f",close={exact(spec.close)}"
    return text


_warmed_up = False


def warm_up() -> None:
    """Load (or compile) the toolbox kernel once per process, outside any move's clock."""
    global _warmed_up
    if _warmed_up:
        return
    pool = fast_uct.NodePool(400)
    lower, upper = np.zeros(400, np.int8), np.full(400, kernel.WON_GAME, np.int8)
    state = engine.to_array(UltimateTicTacToe().play(CENTRE))
    kernel.toolbox_kernel(state, 50, 1.0, False, 1, True, False, 0, engine.new_rng(1),
                          pool.used, *pool.arrays(), np.zeros(engine.STATE_SIZE, np.int64),
                          np.zeros(fast_uct.MAX_PATH, np.int64), np.zeros(81, np.int64),
                          np.zeros(fast_uct.SCORES_SIZE), np.zeros(engine.STATE_SIZE, np.int64),
                          1, 0.5, 0.5, True, lower, upper,
                          True, 1 << 31, np.zeros((2, 81)), np.zeros((2, 81), np.int64),
                          np.zeros(81, np.int64))
    kernel.move_bounds(1, 2, pool.new_index, lower, upper)
    _warmed_up = True


class ToolboxMixin:
    """The toolbox's steps of a bot's move, mixed into :class:`mctslib.bots.uttt.ToolboxBot`.

    ``ToolboxBot(ToolboxMixin, UTTTBot)`` is defined in :mod:`mctslib.bots.uttt`
    (so that a :class:`~mctslib.bots.uttt.BotSpec` builds it without this module
    importing that one); each method here overrides one step of
    :class:`~mctslib.bots.uttt.UTTTBot` and calls it through ``super()``.
    Besides the pool the bot keeps the nodes' score bounds (``lower``,
    ``upper``: int8, one a node) and the MAST table (``mast_sum``,
    ``mast_count``: shape (2, 81), emptied at each move's search).
    """

    def __init__(self, spec, seed=None):
        super().__init__(spec, seed)
        spec = self.spec
        self.lower = np.zeros(self.pool.capacity, dtype=np.int8)
        self.upper = np.full(self.pool.capacity, kernel.WON_GAME, dtype=np.int8)
        self.mast_sum = np.zeros((2, 81))
        self.mast_count = np.zeros((2, 81), dtype=np.int64)
        self._trail = np.zeros(81, dtype=np.int64)
        self._fpu = -1.0 if spec.fpu is None else float(spec.fpu)
        self._mast = -1 if spec.mast is None else mast_threshold(spec.mast)
        self._pondering = False
        warm_up()

    # --- the player protocol -------------------------------------------------

    def choose(self, state: UltimateTicTacToe, clock_start: float | None = None) -> int:
        """As :meth:`UTTTBot.choose`; with ``ponder=on`` X's centre opening is searched past.

        The tree is grown from the empty board with the centre as the root's
        only child, for the first move's budget, and kept: after the
        opponent's reply, tree reuse finds that subtree as it finds any other.
        """
        spec = self.spec
        if not (spec.ponder and isinstance(state, UltimateTicTacToe)
                and state == UltimateTicTacToe(scoring=state.scoring)):
            return super().choose(state, clock_start)
        now = time.perf_counter()
        start = now if clock_start is None else check_real(
            "clock_start (a time.perf_counter() reading, from 0 up to now)", clock_start, 0.0, now)
        self._only_child(CENTRE)
        self._pondering = True  # one child: nothing to decide, so no early stop
        try:
            iterations = self._search(engine.to_array(state), engine.scoring_code(state.scoring),
                                      start)
        finally:
            self._pondering = False
        return self._finish(CENTRE, start, iterations, 0, "centre, pondered", state=state)

    def _only_child(self, move: int) -> None:
        """A fresh tree whose root has one child, ``move`` (the root stays unexpanded otherwise)."""
        pool = self.pool
        pool.reset()
        pool.first_child[0], pool.child_count[0] = 1, 1
        pool.move[1], pool.first_child[1], pool.child_count[1] = move, 0, 0
        pool.visits[1], pool.wins[1], pool.proven[1] = 0, 0.0, fast_uct.UNKNOWN
        pool.used[0] = 2
        self.lower[:2], self.upper[:2] = kernel.LOST, kernel.WON_GAME

    # --- steps of choose ---------------------------------------------------------

    def _search(self, root_state, scoring, start) -> int:
        if self.pool.count == 1:  # a fresh root: nothing known
            self.lower[0], self.upper[0] = kernel.LOST, kernel.WON_GAME
        self.mast_sum[:] = 0.0
        self.mast_count[:] = 0
        done = super()._search(root_state, scoring, start)
        if self.spec.extend > 0.0 and not self._pondering and not self._root_solved():
            done += self._extension(root_state, scoring, start)
        return done
    def _extension(self, root_state, scoring, start) -> int:
        """More search while the two most visited moves are close, up to ``extend`` of the budget.

        Chunks of iterations (about a millisecond each on a time budget); after
        each, the extension ends if the two are no longer close, if the root is
        solved, or, with ``stop=on``, if what is left of it cannot change the
        most visited move.
        """
        spec = self.spec
        first = self.moves_chosen == 0
        if spec.iterations is not None:
            budget = (spec.first_iterations if first and spec.first_iterations is not None
                      else spec.iterations)
            left, deadline = int(spec.extend * budget), None
        else:
            budget_ms = (spec.first_ms if first else spec.ms) - spec.margin_ms
            deadline = start + budget_ms * (1.0 + spec.extend) / 1000.0
            left = None
        done, chunk = 0, 256
        while self._close():
            if deadline is not None:
                before = time.perf_counter()
                seconds_left = deadline - before
                if seconds_left <= 0.0:
                    break
            elif left <= 0:
                break
            step = chunk if left is None else min(chunk, left)
            if spec.stop and self._decided(step if left is None else left):
                break
            ran = self._run(root_state, scoring, step)
            done += ran
            if ran < step:
                break  # the root is solved
            if left is not None:
                left -= ran
            else:  # the next chunk from the time left now, not before this chunk ran
                now = time.perf_counter()
                rate = ran / max(now - before, 1e-6)
                chunk = max(16, int(rate * min(deadline - now, 0.001)))
        return done

    def _close(self) -> bool:
        best, second = self._lead()
        return best > 0 and second >= 0 and second >= self.spec.close * best

    def _run(self, root_state, scoring, iterations: int) -> int:
        spec = self.spec
        iterations = min(iterations, _VISITS_LIMIT - int(self.pool.visits[0]))
        return int(kernel.toolbox_kernel(
            root_state, iterations, spec.c, spec.scale == "pm1", self._playout,
            spec.tree_takes_wins, spec.solver, scoring, self.rng, self.pool.used,
            *self.pool.arrays(), self._scratch, self._path, self._buf, self._scores, self._copy,
            spec.expand,
            spec.draw, self._fpu, spec.bounds, self.lower, self.upper, spec.tree_safe,
            self._mast, self.mast_sum, self.mast_count, self._trail))

    def _root_solved(self) -> bool:
        return ((self.spec.bounds and self.lower[0] == self.upper[0])
                or (self.spec.solver and self.pool.proven[0] != fast_uct.UNKNOWN))

    def _candidates(self) -> np.ndarray:
        """The root's children the bounds leave in play (all of them without the bounds)."""
        pool = self.pool
        children = np.arange(pool.first_child[0], pool.first_child[0] + pool.child_count[0])
        if not self.spec.bounds or len(children) == 0:
            return children
        lower, upper = self.lower[children], self.upper[children]
        guaranteed = lower.max()
        return children[(upper > guaranteed) | (lower == guaranteed)]

    def _lead(self) -> tuple[int, int]:
        if not self.spec.bounds:
            return super()._lead()
        visits = np.sort(self.pool.visits[self._candidates()].astype(np.int64))
        if len(visits) == 0:
            return -1, -1
        return int(visits[-1]), (int(visits[-2]) if len(visits) > 1 else -1)

    def _decided(self, left: int, best: int | None = None, second: int | None = None) -> bool:
        return not self._pondering and super()._decided(left, best, second)

    def _best_move(self) -> tuple[int, str]:
        if not self.spec.bounds:
            return super()._best_move()
        pool = self.pool
        children = self._candidates()
        won = children[self.lower[children] == kernel.WON_GAME]
        if len(won):
            return int(pool.move[won[0]]), "proven win"
        visits = pool.visits[children]
        return int(pool.move[children[np.argmax(visits)]]), "search"  # first on ties

    def _finish(self, move, start, iterations, reused, how, state) -> int:
        answer = super()._finish(move, start, iterations, reused, how, state)
        if state is not None and self.spec.bounds:
            verdict = None
            if self.lower[0] == self.upper[0]:  # solved; the root's bounds are the opponent's
                verdict = ("win", "draw", "loss")[int(self.lower[0])]
            self.last = dataclasses.replace(self.last, verdict=verdict)
        return answer

    def _rerooted(self, new_root: int, old_count: int) -> None:
        kernel.move_bounds(new_root, old_count, self.pool.new_index, self.lower, self.upper)
