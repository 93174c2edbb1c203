"""Players for the arena: UCT, RAVE and GRAVE on Hex and Ultimate Tic-Tac-Toe (numba).

The chapter "Enhancements that matter" plays RAVE and GRAVE against plain UCT
with :func:`mctslib.play.arena.play_match`. A :class:`RAVESpec` is the factory
the arena wants: a frozen dataclass (it pickles, so matches can run in worker
processes) that builds a fresh :class:`RAVEBot` for every game with
``spec(seed=generator)``. The bot searches with the kernels of
:mod:`mctslib.fast.hex_uct` (Hex) or :mod:`mctslib.fast.uttt_rave` (Ultimate
Tic-Tac-Toe), a fresh tree every move, and answers the most visited root
move (the first in tree order on ties).

With ``kind="uct"`` the same kernel runs without AMAF tables: plain UCT, the
baseline of the equal-iteration matches (UCT and RAVE then differ only in
what RAVE adds). For Ultimate Tic-Tac-Toe at equal time the baseline is the
chapter's faster UCT, :class:`mctslib.bots.uttt.BotSpec` (see
:mod:`mctslib.experiments.enhancements.rave`).

:class:`RAVEUCTSpec` builds a :class:`RAVEUCTBot`: chapter 5's UTTT bot
(:class:`mctslib.bots.uttt.UTTTBot`, a SPEC such as
``uct:c=0.3,wins=on,solver=on,iters=50000``) whose search is
:func:`mctslib.fast.uttt_rave_uct.rave_uct_kernel`, the bot's own search with
RAVE's AMAF tables and an optional heuristic prior added. With ``amaf=False``
and ``prior_visits=0`` it is the UTTT bot move for move (tested), so a match
between the two measures what RAVE adds, at the bot's speed.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass

import numpy as np

from .._checks import check_choice, check_int, check_real
from ..fast import hex as fast_hex
from ..fast import hex_uct, uttt_rave, uttt_rave_uct
from ..fast import uttt as fast_uttt
from ..fast.xorshift import new_rng
from ..games.hex import Hex
from ..games.uttt import UltimateTicTacToe
from ..rng import make_rng
from ..search.rave import DEFAULT_BIAS, DEFAULT_EQUIVALENCE, DEFAULT_REF, SCHEDULES
from ..xorshift import XorShift64
from .uttt import _VISITS_LIMIT, BotSpec, UTTTBot, parse_spec

GAMES = ("hex", "uttt")
KINDS = ("uct", "rave", "grave")
#: Largest iteration budget per move (the pools are sized from it).
MAX_ITERATIONS = 2_000_000
#: Largest time budget per move, in milliseconds (a minute).
MAX_MS = 60_000.0
#: Iterations between two looks at the clock in a timed search.
CHUNK = 256


@dataclass(frozen=True)
class RAVESpec:
    """A UCT, RAVE or GRAVE player and its options; ``spec(seed=...)`` builds one.

    Attributes
    ----------
    game : {"hex", "uttt"}
        Hex (sizes 2 to 11) or Ultimate Tic-Tac-Toe.
    kind : {"uct", "rave", "grave"}
        Plain UCT, RAVE (the node's own AMAF table) or GRAVE (the table of the
        closest node on the path with more than ``ref`` visits).
    c : float
        Exploration constant (>= 0, at most 10).
    schedule : {"mse", "hand"}
        The beta schedule (see :mod:`mctslib.search.rave`); RAVE and GRAVE only.
    bias : float
        The RAVE bias ``b`` of the ``"mse"`` schedule, in [0, 1].
    equivalence : float
        ``k`` of the ``"hand"`` schedule, 0 to 10**9.
    ref : int
        GRAVE's threshold, 0 to 10**7 (ignored by the other kinds).
    iterations : int or None
        Iterations per move, 1 to :data:`MAX_ITERATIONS`; None with ``ms``.
    ms : float or None
        Milliseconds per move (> 0, at most :data:`MAX_MS`); None with ``iterations``.
    capacity : int
        Nodes in the pool, 1,000 to 50,000,000 (a full pool stops the tree
        growing; a timed RAVE search also stops when its AMAF tables, one per
        node visited, reach ``capacity // 16``).
    """

    game: str = "hex"
    kind: str = "rave"
    c: float = 0.0
    schedule: str = "mse"
    bias: float = DEFAULT_BIAS
    equivalence: float = DEFAULT_EQUIVALENCE
    ref: int = DEFAULT_REF
    iterations: int | None = 10_000
    ms: float | None = None
    capacity: int = 4_000_000

    def __post_init__(self):
        check_choice("game", self.game, GAMES)
        check_choice("kind", self.kind, KINDS)
        object.__setattr__(self, "c", check_real("c (the exploration constant)", self.c,
                                                 0.0, 10.0))
        check_choice("schedule", self.schedule, SCHEDULES)
        object.__setattr__(self, "bias", check_real("bias (b)", self.bias, 0.0, 1.0))
        object.__setattr__(self, "equivalence", check_real("equivalence (k)",
                                                           self.equivalence, 0.0, 1e9))
        object.__setattr__(self, "ref", check_int("ref", self.ref, 0, 10_000_000))
        if (self.iterations is None) == (self.ms is None):
            raise ValueError("give exactly one budget: iterations or ms.")
        if self.iterations is not None:
            object.__setattr__(self, "iterations", check_int(
                "iterations", self.iterations, 1, MAX_ITERATIONS))
        else:
            ms = check_real("ms (milliseconds per move)", self.ms, 0.0, MAX_MS)
            if ms <= 0.0:
                raise ValueError(f"ms (milliseconds per move) must be above 0, got {ms}.")
            object.__setattr__(self, "ms", ms)
        object.__setattr__(self, "capacity", check_int("capacity (nodes in the pool)",
                                                       self.capacity, 1_000, 50_000_000))

    def __call__(self, seed=None) -> RAVEBot:
        """A fresh player seeded by ``seed`` (what the arena calls, once per game)."""
        return RAVEBot(self, seed)

    def as_dict(self) -> dict:
        """The fields, for stored results."""
        return asdict(self)

    def __str__(self) -> str:
        budget = f"{self.iterations} it" if self.iterations is not None else f"{self.ms:g} ms"
        if self.kind == "uct":
            return f"{self.game} uct c={self.c:g} {budget}"
        blend = (f"b={self.bias:g}" if self.schedule == "mse" else f"k={self.equivalence:g}")
        extra = f" ref={self.ref}" if self.kind == "grave" else ""
        return f"{self.game} {self.kind} c={self.c:g} {blend}{extra} {budget}"


def _xorshift_state(seed) -> np.ndarray:
    if isinstance(seed, XorShift64):
        return np.array([seed.state], dtype=np.uint64)
    return new_rng(int(make_rng(seed).integers(1, 2**63)))


class RAVEBot:
    """A player: ``choose(state)`` searches a fresh tree and answers the most visited move.

    Parameters
    ----------
    spec : RAVESpec
    seed : int, numpy Generator, XorShift64 or None
        An :class:`~mctslib.xorshift.XorShift64` is used as it is (the
        readable search with the same generator builds the same tree);
        anything else seeds one through :func:`mctslib.rng.make_rng`.
    """

    def __init__(self, spec: RAVESpec, seed=None):
        if not isinstance(spec, RAVESpec):
            raise ValueError(f"spec must be a RAVESpec, got {type(spec).__name__}.")
        self.spec = spec
        self.rng = _xorshift_state(seed)
        self.pool = None
        self.iterations_done = 0  # of the last search

    def _prepare(self, state) -> tuple:
        spec = self.spec
        if spec.game == "hex":
            if not isinstance(state, Hex):
                raise ValueError(f"this bot plays Hex, got {type(state).__name__}.")
            array, kernel, scoring = fast_hex.to_array(state), hex_uct.search, 0
            moves = state.size * state.size
        else:
            if not isinstance(state, UltimateTicTacToe):
                raise ValueError(f"this bot plays Ultimate Tic-Tac-Toe, got "
                                 f"{type(state).__name__}.")
            array, kernel = fast_uttt.to_array(state), uttt_rave.search
            scoring, moves = fast_uttt.scoring_code(state.scoring), uttt_rave.MOVES
        if state.is_terminal():
            raise ValueError("cannot choose a move in a finished game: there is none.")
        amaf = spec.kind != "uct"
        if spec.iterations is not None:
            capacity = min(spec.capacity, 1 + moves * spec.iterations)
            tables = spec.iterations + 2 if amaf else 0
        else:
            capacity, tables = spec.capacity, (spec.capacity // 16 if amaf else 0)
        if (self.pool is None or self.pool.moves != moves or self.pool.capacity != capacity
                or self.pool.tables != tables):
            self.pool = hex_uct.RAVEPool(capacity, tables, moves)
            self.work = hex_uct.work_arrays(array.shape[0], moves)
        self.pool.reset()
        return array, kernel, scoring, moves, amaf

    def choose(self, state):
        """Search ``state`` within the budget; the most visited root move (first on ties)."""
        array, kernel, scoring, moves, amaf = self._prepare(state)
        spec, pool = self.spec, self.pool
        schedule = hex_uct.MSE if spec.schedule == "mse" else hex_uct.HAND
        ref = spec.ref if spec.kind == "grave" else -1
        args = (spec.c, amaf, schedule, spec.bias, spec.equivalence, ref, scoring, moves,
                self.rng, pool.used, *pool.arrays(), *self.work)
        if spec.iterations is not None:
            self.iterations_done = kernel(array, spec.iterations, *args)
        else:
            deadline = time.perf_counter() + spec.ms / 1000.0
            done = kernel(array, CHUNK, *args)
            room = pool.tables - CHUNK if amaf else math.inf
            while (time.perf_counter() < deadline and pool.used[0] + moves * CHUNK
                   <= pool.capacity and pool.used[1] < room):
                done += kernel(array, CHUNK, *args)
            self.iterations_done = done
        children = pool.children(0)
        visits = pool.visits[children.start:children.stop]
        return int(pool.move[children.start + int(np.argmax(visits))])

    def root_stats(self) -> list[tuple[int, int, float]]:
        """``(move, visits, mean)`` of each root child of the last search, in tree order."""
        if self.pool is None:
            raise ValueError("no search has run yet: call choose() first.")
        return [(int(self.pool.move[i]), int(self.pool.visits[i]),
                 float(self.pool.wins[i]) / int(self.pool.visits[i]) if self.pool.visits[i]
                 else math.nan) for i in self.pool.children(0)]


# ------------------------------------------------------------------ RAVE in the UTTT bot


#: What the RAVE kernel implements of a UTTT bot SPEC; anything else is refused.
_RAVE_UCT_OPTIONS = {"scale": "01", "reuse": False, "expand": 1, "cutoff": 0, "draw": 0.5}


@dataclass(frozen=True)
class RAVEUCTSpec:
    """Chapter 5's UTTT bot with RAVE and a heuristic prior; ``spec(seed=...)`` builds one.

    Attributes
    ----------
    spec : str
        The bot's SPEC (:func:`mctslib.bots.uttt.parse_spec`): ``c``, the budget,
        ``wins`` / ``playout_wins`` / ``tree_wins``, ``solver``, ``centre``,
        ``stop`` and ``capacity`` as for the bot; random or win-taking playouts;
        ``reuse`` off (the AMAF tables are not kept between moves), the default
        ``scale``, ``expand``, ``draw`` and no ``cutoff``.
    amaf : bool
        Keep and blend AMAF tables (False: the bot's own search).
    bias : float
        The RAVE bias ``b`` of the minimum-MSE schedule, in [0, 1].
    prior_visits : float
        Virtual visits of the heuristic prior
        (:func:`mctslib.fast.uttt_rave_uct.move_prior`), 0 to 10,000 (0: none).
    """

    spec: str = "uct:c=0.5,wins=on,solver=on,iters=50000"
    amaf: bool = True
    bias: float = DEFAULT_BIAS
    prior_visits: float = 0.0

    def __post_init__(self):
        bot = self.bot_spec
        if bot.kind != "uct":
            raise ValueError(f"spec must be a uct SPEC, got {self.spec!r}.")
        for name, needed in _RAVE_UCT_OPTIONS.items():
            if getattr(bot, name) != needed:
                raise ValueError(f"spec: RAVE in the bot's search has {name} {needed!r} only, "
                                 f"got {getattr(bot, name)!r} in {self.spec!r}.")
        if bot.playout_policy not in ("random", "wins"):
            raise ValueError(f"spec: RAVE in the bot's search has random or win-taking "
                             f"playouts only, got playout={bot.playout_policy!r}.")
        if not isinstance(self.amaf, bool):
            raise ValueError(f"amaf must be True or False, got {self.amaf!r}.")
        object.__setattr__(self, "spec", str(bot))
        object.__setattr__(self, "bias", check_real("bias (b)", self.bias, 0.0, 1.0))
        object.__setattr__(self, "prior_visits", check_real(
            "prior_visits (virtual visits of the prior)", self.prior_visits, 0.0, 10_000.0))

    @property
    def bot_spec(self) -> BotSpec:
        """The bot's options, parsed."""
        return parse_spec(self.spec)

    def __call__(self, seed=None) -> RAVEUCTBot:
        """A fresh player seeded by ``seed`` (what the arena calls, once per game)."""
        return RAVEUCTBot(self, seed)

    def as_dict(self) -> dict:
        """The fields, for stored results."""
        return asdict(self)

    def __str__(self) -> str:
        rave = f"rave b={self.bias:g}" if self.amaf else "no amaf"
        prior = f" prior={self.prior_visits:g}" if self.prior_visits else ""
        return f"{self.spec} [{rave}{prior}]"


class RAVEUCTBot(UTTTBot):
    """The UTTT bot searching with :func:`mctslib.fast.uttt_rave_uct.rave_uct_kernel`.

    Parameters
    ----------
    spec : RAVEUCTSpec
    seed
        As :class:`mctslib.bots.uttt.UTTTBot`.

    Notes
    -----
    The AMAF tables are allocated once, beside the node pool: one per
    iteration of the largest iteration budget (plus one), or ``capacity //
    16`` for a time budget (a full table pool stops new tables, not the
    search). ``amaf_tables.amaf(node, player, move)`` reads them after a move.
    """

    def __init__(self, spec: RAVEUCTSpec, seed=None):
        if not isinstance(spec, RAVEUCTSpec):
            raise ValueError(f"spec must be a RAVEUCTSpec, got {type(spec).__name__}.")
        self.rave = spec
        super().__init__(spec.bot_spec, seed=seed)
        bot = self.spec
        if bot.iterations is not None:
            tables = max(bot.iterations, bot.first_iterations or 0) + 2
        else:
            tables = bot.capacity // 16
        self.amaf_tables = uttt_rave_uct.AMAFTables(bot.capacity, min(tables, bot.capacity))
        self._leaf, self._played = np.zeros(18, dtype=np.int64), np.zeros(81, dtype=np.int64)

    def _search(self, root_state, scoring: int, start: float) -> int:
        self.amaf_tables.reset()  # the pool was just reset: a fresh tree every move
        return super()._search(root_state, scoring, start)

    def _run(self, root_state, scoring, iterations: int) -> int:
        bot, rave = self.spec, self.rave
        iterations = min(iterations, _VISITS_LIMIT - int(self.pool.visits[0]))
        return int(uttt_rave_uct.rave_uct_kernel(
            root_state, iterations, bot.c, rave.bias, rave.amaf, rave.prior_visits,
            bot.playouts_take_wins, bot.tree_takes_wins, bot.solver, scoring, self.rng,
            self.pool.used, self.amaf_tables.used, *self.pool.arrays(),
            *self.amaf_tables.arrays(), self._scratch, self._path, self._buf, self._leaf,
            self._played))


__all__ = ["GAMES", "KINDS", "RAVEBot", "RAVESpec", "RAVEUCTBot", "RAVEUCTSpec"]
