"""Bots for Ultimate Tic-Tac-Toe, described by a one-line SPEC (chapter "Ultimate Tic-Tac-Toe").

The chapter "Ultimate Tic-Tac-Toe: tuning a real bot" measures, with games,
each change that CodinGame players report: the exploration constant, the
reward scale, playouts that take a win, a solver, tree reuse, the centre
opening, and the time per move. A *SPEC* names a bot and those options, so an
experiment, the arena and the command line all build bots the same way::

    uct                                      # every option at its default
    uct:c=0.5,scale=01,iters=2000,wins=on,solver=on,reuse=on,centre=on,capacity=1000000
    uct:ms=100,first_ms=1000,c=0.5,solver=on
    uct:iters=20000,first_iters=200000,playout_wins=on,tree_wins=off
    uct:iters=20000,wins=on,playout=safe,expand=2,draw=0.4
    random                                   # a uniformly random legal move

The syntax is ``NAME`` or ``NAME:KEY=VALUE,KEY=VALUE,...`` (spaces ignored,
each key at most once). Keys of ``uct`` (``random`` takes none):

==============  ===============================================  ============
key             meaning                                          default
==============  ===============================================  ============
``c``           exploration constant of UCB1, a number >= 0      1.4142 (√2)
``scale``       rewards ``01`` (1 / 0.5 / 0) or ``pm1`` (1/0/-1)  ``01``
``iters``       iterations per move, 1 to 100,000,000            (time budget)
``first_iters`` iterations for the bot's first move (with iters) ``iters``
``ms``          milliseconds per move after the first, > 0       100
``first_ms``    milliseconds for the bot's first move, > 0       10 × ms
``margin_ms``   stop this long before a time budget ends, >= 0   0
``wins``        take an immediate win (playouts, tree), on/off   ``off``
``playout_wins`` take an immediate win in playouts, on/off       ``wins``
``tree_wins``   a position with an immediate win gets that one   ``wins``
                child in the tree, on/off
``solver``      MCTS-Solver, ``on`` or ``off``                   ``off``
``reuse``       keep the subtree between moves, ``on``/``off``   ``off``
``centre``      as X, open in the centre (row 4, col 4)          ``off``
``stop``        end a search once its answer cannot change        ``off``
``playout``     playout policy: ``random``, ``wins``, ``safe``,   as ``wins``
                ``capture`` or ``greedy``
``expand``      give a leaf its children after k visits, 1-10000  1
``draw``        a drawn playout's worth to the bot, 0 to 1        0.5
``cutoff``      stop a playout after N moves and evaluate, 0-81   0 (off)
``cutoff_scale`` evaluation points per unit of log-odds, > 0     100
``capacity``    nodes in the pool, 82 to 2,000,000,000           2000000
==============  ===============================================  ============

The bot author's toolbox (chapter "How a Legend bot gets its strength") adds
``fpu``, ``bounds``, ``tree_safe``, ``mast``, ``ponder``, ``extend`` and
``close``, all off by default and printed only when set: see
:mod:`mctslib.bots.uttt_toolbox`. A SPEC with any of them on builds a
:class:`ToolboxBot`; every other SPEC builds the bot it always built.

``playout`` (chapter "Enhancements and failure modes",
:mod:`mctslib.fast.uttt_playouts`) names what the playouts do: ``random`` and
``wins`` are the playouts of ``playout_wins=off`` and ``on``, so a SPEC that
gives them must agree with the win-taking keys (``wins=on,playout=wins`` is
``wins=on``; ``playout=wins`` alone is an error that says to give
``playout_wins=on``). ``safe`` also avoids a move after which the opponent wins
the game at once, ``capture`` then prefers a move that wins a small board,
``greedy`` always the lowest such move; those three take an immediate win
themselves, so they need the playouts' win-taking on (``wins=on`` or
``playout_wins=on``). ``expand=k`` gives a leaf its children once it has been
visited k times (1, the default, is the second visit).
``draw=d`` values a drawn playout d for the bot and 1 - d for its opponent: below
0.5 a *contempt* for draws, for a bot that should play on for a win (under
OpenSpiel's scoring, where a game closing every board without a line is a draw).
``cutoff=N`` (chapter "Enhancements and failure modes", early playout
termination, Lorentz 2015) stops each playout after N moves; a game still on
is scored by the alpha-beta baseline's evaluation ``v`` for the player who made
the last move in the tree, as the win probability ``1 / (1 + exp(-v / s))``
with ``s`` = ``cutoff_scale`` (0: playouts to the end, as before; see
:func:`mctslib.fast.uttt_uct.search_kernel`).
All five are printed only when not at their defaults.

``wins`` is shorthand for ``playout_wins`` and ``tree_wins`` together, so a SPEC
gives either ``wins`` or the other two (one or both; the one left out is off),
never a mix. A spec whose two are equal reads and prints as ``wins=on`` or
``wins=off``; only a split one prints ``playout_wins=...,tree_wins=...``.
``first_iters`` is to ``iters`` what ``first_ms`` is to ``ms`` (CodinGame's
first turn is ten times longer): it needs ``iters``, and is printed only when it
differs from it. The first move is the bot's first call to ``choose``: with
``centre=on`` the bot plays X's first move without searching, so ``first_iters``
and ``first_ms`` then go unused (as O it searches its first move with them).

``margin_ms`` (time budgets only, smaller than ``ms`` and ``first_ms``) ends
the search that much before the budget: a search overruns its deadline a
little (the last chunk of iterations, choosing the answer; measured by
``benchmarks/time_management.py``). ``stop=on`` ends a search once the most
visited root child cannot be overtaken by the iterations left (counted for
``iters``; estimated from the measured rate for a time budget), so it answers
what the whole search would have answered (exactly so for ``iters`` without the
solver: a proof the skipped iterations would have found is not waited for),
sooner. Both are printed only when set (``margin_ms`` not 0, ``stop=on``).

Times are at most a day (86,400,000 ms). The pool must hold at least the root
and its children (82 nodes: a free choice has 81 moves); it costs
:data:`BYTES_PER_NODE` bytes a node, which :class:`UTTTBot` checks against the
memory available before allocating it (:func:`check_pool_memory`).

Give ``iters`` (reproducible: the book's experiments) or ``ms``/``first_ms``
(CodinGame's 1,000 ms first turn and 100 ms after), not both; with neither the
budget is the time one. Every mistake is a ValueError whose sentence lists the
allowed keys and values. ``str(spec)`` spells every option out (the later
keys only when set) with numbers written exactly (shortest round-trip form), so
``parse_spec(str(spec)) == spec``. :func:`parse_spec` turns the text into a
:class:`BotSpec`, a frozen dataclass that pickles, so it is the factory
:func:`mctslib.play.arena.play_match` calls in its worker processes:
``spec(seed=generator)`` builds a fresh player.

The bot itself, :class:`UTTTBot`, keeps the numba search
(:mod:`mctslib.fast.uttt_uct`) and answers the robust child (most visits),
or a proven win at once; with the solver it never plays a proven loss while
another move exists.

Why one module of about 1,000 lines: the SPEC (:class:`BotSpec`, :func:`parse_spec`)
and the bot it builds (:class:`UTTTBot`) change together, option by option
(each option is a field, a parse rule with its bounds, and a branch of the
bot); split, every new option would touch two files that must agree.
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import asdict, dataclass

import numpy as np

from .._checks import check_int, check_real
from ..fast import uttt as engine
from ..fast import uttt_uct as fast_uct
from ..fast.uttt_playouts import POLICIES as PLAYOUTS
from ..fast.uttt_playouts import policy_code as playout_code
from ..games.uttt import UltimateTicTacToe, from_board_cell
from ..play.arena import RandomPlayer
from ..play.openings import distinct_random_positions
from ..rng import make_rng
from ..xorshift import XorShift64
from ._spec import (  # noqa: F401 (DEFAULT_MS, FIRST_MOVE_FACTOR: public API)
    DEFAULT_MS,
    FIRST_MOVE_FACTOR,
    MAX_MS,
    budget_text,
    exact,
    number,
    on_off,
    read_options,
    split_spec,
    time_budget,
)
from .uttt_toolbox import (
    TOOLBOX_DEFAULTS,
    TOOLBOX_HELP,
    TOOLBOX_SENTENCE,
    ToolboxMixin,
    check_toolbox,
    toolbox_text,
    uses_toolbox,
)

__all__ = ["BEST_BOT_OPTIONS", "BYTES_PER_NODE", "CENTRE", "MAX_CAPACITY", "MAX_CUTOFF", "MAX_EXPAND", "MAX_ITERATIONS", "MAX_MS",
           "MAX_OPENINGS", "MAX_OPENING_PLIES", "MIN_CAPACITY", "PLAYOUTS", "SPEC_HELP",
           "SPEC_SYNTAX",
           "BotSpec", "SearchInfo", "ToolboxBot", "UTTTBot", "available_memory", "check_pool_memory",
           "distinct_openings", "opponent_reply", "parse_spec", "random_openings", "warm_up"]

#: The centre cell of the centre board, row 4, col 4: the opening most strong bots play as X.
CENTRE = 40
#: The book's best bot, without a budget (add ``iters=`` or ``ms=``): chapter 5's tuned options
#: with first-play urgency 1.2 and anti-decisive moves in the tree, the combination that beat
#: chapter 5's bot at the playing budget in the declared sequential test of chapter "How a
#: Legend bot gets its strength" (``data/uttt/legend/README.md``, ``combination``).
BEST_BOT_OPTIONS = "c=0.5,wins=on,solver=on,reuse=on,centre=on,fpu=1.2,tree_safe=on"
_KINDS = ("uct", "random")
#: Iterations per move: a hundred million is over a minute of search at the bot's speed;
#: more would only look like a hang (and a root's visit count is a 32-bit integer).
MAX_ITERATIONS = 100_000_000
#: The root and its children must fit: a free choice has 81 moves.
MIN_CAPACITY = 82
#: The pool's node indices are 32-bit integers.
MAX_CAPACITY = 2_000_000_000
#: Bytes per node of :class:`mctslib.fast.uttt_uct.NodePool` (move, first child, child
#: count, visits and the re-rooting scratch: 4 bytes each; wins 8; proven 1).
BYTES_PER_NODE = 29
#: ``expand``: at most this many visits before a leaf gets its children.
MAX_EXPAND = 10_000
#: ``cutoff``: a game has at most 81 moves, so a longer cut-off is none.
MAX_CUTOFF = 81
#: A root's visits live in an int32: a search stops before they would wrap around.
_VISITS_LIMIT = 2**31 - 1
#: With ``stop=on`` and an iteration budget, the fewest iterations run between two checks.
_STOP_CHUNK = 64

#: The SPEC syntax as the command line's --help prints it.
SPEC_SYNTAX = """\
SPEC syntax: NAME or NAME:KEY=VALUE,KEY=VALUE,... (spaces ignored, each key once).
NAME is 'uct' (the numba MCTS bot), 'random' (a uniformly random legal move, no keys)
or 'alphabeta' (the alpha-beta baseline: keys in mctslib.bots.uttt_alphabeta).
Keys of uct:
  c=NUMBER          exploration constant of UCB1, >= 0 (default 1.4142, sqrt 2)
  scale=01|pm1      rewards 1/0.5/0 or 1/0/-1 for win/draw/loss (default 01)
  iters=N           iterations per move, a whole number from 1 to 100,000,000
                    (reproducible)
  first_iters=N     iterations for the bot's first move, 1 to 100,000,000, with
                    iters only (default iters; CodinGame's first turn is 10 x)
  ms=NUMBER         milliseconds per move after the bot's first, > 0 and at most
                    86,400,000, a day (default 100)
  first_ms=NUMBER   milliseconds for the bot's first move, > 0 and at most a day
                    (default 10 x ms)
  margin_ms=NUMBER  end a time budget's search this many ms early, >= 0 and below
                    ms and first_ms (default 0)
  wins=on|off       take an immediate game win, in playouts and in the tree
                    (default off): short for playout_wins and tree_wins together
  playout_wins=on|off
                    playouts take an immediate game win (default off)
  tree_wins=on|off  a position with an immediate game win gets that one child in
                    the tree (default off); give wins or these two, not both
  solver=on|off     MCTS-Solver: prove wins and losses, never play a proven loss
                    while another move exists (default off)
  reuse=on|off      keep the subtree between moves (default off)
  centre=on|off     as X, open in the centre of the centre board, row 4 col 4
                    (default off)
  stop=on|off       end a search once the most visited move cannot be overtaken
                    in the iterations (or time) left (default off)
  playout=NAME      playout policy: random, wins, safe (also avoid a move after
                    which the opponent wins at once), capture (safe, preferring a
                    move that wins a small board) or greedy (capture, always the
                    lowest such move); safe/capture/greedy need playout wins on
                    (default: wins if playout wins are on, else random)
  expand=K          give a leaf its children once visited K times, a whole number
                    from 1 to 10,000 (default 1)
  draw=NUMBER       a drawn playout's worth to the bot, 0 to 1 (its opponent gets
                    1 - NUMBER); below 0.5 plays on for a win (default 0.5)
  cutoff=N          stop each playout after N moves and score the position by the
                    alpha-beta evaluation, a whole number from 0 (off) to 81
                    (default 0)
  cutoff_scale=NUMBER
                    evaluation points per unit of log-odds of the cut-off's win
                    probability 1/(1+exp(-eval/NUMBER)), > 0 (default 100)
  capacity=N        nodes in the pool, a whole number from 82 (the root and its
                    81 children) to 2,000,000,000, 29 bytes each, within the
                    memory available (default 2000000)
The bot author's toolbox (all off by default):
""" + TOOLBOX_HELP + """
Give iters/first_iters or ms/first_ms, not both; with neither, ms=100 and
first_ms=1000. The first move is the bot's first; with centre=on, X's is the
centre, unsearched.
Examples: uct:c=0.5,iters=2000,wins=on,solver=on,reuse=on,centre=on
          uct:iters=20000,first_iters=200000,playout_wins=on,tree_wins=off
          uct:ms=100,first_ms=1000,c=0.5,solver=on
          random"""

#: The sentence every SPEC error ends with.
SPEC_HELP = (
    "Allowed: NAME uct, random or alphabeta (its keys: mctslib.bots.uttt_alphabeta), then "
    "for uct ':KEY=VALUE,...' with keys "
    "c (a number >= 0), scale (01 or pm1), iters and first_iters (whole numbers from 1 to "
    "100,000,000), ms and first_ms (numbers > 0 and at most 86,400,000, a day; not with "
    "iters), margin_ms (a number >= 0 below ms and first_ms), wins (or playout_wins and "
    "tree_wins), solver, reuse, centre and stop (on or off), playout (random, wins, safe, "
    "capture or greedy), expand (a whole number from 1 to 10,000), draw (a number from 0 to "
    "1), cutoff (a whole number from 0 to 81), cutoff_scale (a number > 0 and at most "
    "1,000,000), capacity (a whole number "
    "from 82 to 2,000,000,000), " + TOOLBOX_SENTENCE + "."
)


# ------------------------------------------------------------------------ SPEC


@dataclass(frozen=True)
class BotSpec:
    """A bot and its options; call it with ``seed=...`` to build a fresh player.

    Build one with :func:`parse_spec` (``BotSpec.parse``) or directly; the
    fields are checked either way. ``str(spec)`` gives the full SPEC back
    (every option spelled out, except the keys added later, printed only when
    set: ``first_iters``, ``margin_ms``, ``stop=on``, and ``playout_wins`` /
    ``tree_wins`` when they differ), which :func:`parse_spec` reads to an equal spec.

    Attributes
    ----------
    kind : {"uct", "random"}
    c : float
        UCB1's exploration constant (>= 0).
    scale : {"01", "pm1"}
        Rewards 1 / 0.5 / 0 or 1 / 0 / -1 for win / draw / loss.
    iterations : int or None
        Iterations per move; None means a time budget.
    ms, first_ms : float or None
        Milliseconds per move after the first, and for the first (> 0, at most
        :data:`MAX_MS`, a day); None with ``iterations``. Default 100 and
        10 × ``ms`` (at most a day).
    wins, solver, reuse, centre : bool
        Win-taking (an immediate win is taken in playouts and is the only child
        of its position in the tree), MCTS-Solver, tree reuse, centre opening as X.
    capacity : int
        Nodes in the pool, :data:`MIN_CAPACITY` (the root and the 81 children of
        a free choice) to :data:`MAX_CAPACITY`.
    playout_wins, tree_wins : bool or None
        Win-taking in playouts only, in the tree only; None: as ``wins``. Given
        with ``wins=True`` they are a ValueError (``wins`` means both). Stored
        in one form: when the two come out equal, as ``wins`` with both None;
        otherwise both as bools and ``wins`` False. Read the effect from
        :attr:`playouts_take_wins` and :attr:`tree_takes_wins`.
    first_iterations : int or None
        Iterations for the bot's first move (with ``iterations`` only); None,
        or a value equal to ``iterations`` (stored as None), means ``iterations``.
    margin_ms : float
        With a time budget, the search ends this many milliseconds before it
        (>= 0, below ``ms`` and ``first_ms``); must be 0 with ``iterations``.
    stop : bool
        End a search once the most visited root child cannot be overtaken.
    playout : str or None
        The playout policy (:data:`PLAYOUTS`); None: ``"wins"`` or ``"random"``
        as :attr:`playouts_take_wins` says (a value equal to that is stored as
        None). Read the effect from :attr:`playout_policy`.
    expand : int
        A leaf gets its children once visited this many times (1 to
        :data:`MAX_EXPAND`; 1, the second visit, is the default).
    draw : float
        A drawn playout's worth to the bot (0 to 1; its opponent gets 1 - draw).
    fpu, bounds, tree_safe, mast, ponder, extend, close
        The bot author's toolbox (:mod:`mctslib.bots.uttt_toolbox`), off by default.
    """

    kind: str = "uct"
    c: float = math.sqrt(2.0)
    scale: str = "01"
    iterations: int | None = None
    ms: float | None = None
    first_ms: float | None = None
    wins: bool = False
    solver: bool = False
    reuse: bool = False
    centre: bool = False
    capacity: int = 2_000_000
    playout_wins: bool | None = None  # after capacity: earlier fields keep their positions
    tree_wins: bool | None = None
    first_iterations: int | None = None
    margin_ms: float = 0.0
    stop: bool = False
    playout: str | None = None
    expand: int = 1
    draw: float = 0.5
    cutoff: int = 0
    cutoff_scale: float = 100.0
    fpu: float | None = None  # the toolbox (mctslib.bots.uttt_toolbox), all off by default
    bounds: bool = False
    tree_safe: bool = False
    mast: float | None = None
    ponder: bool = False
    extend: float = 0.0
    close: float = 0.8

    def __post_init__(self):
        if self.kind not in _KINDS:
            raise ValueError(f"the bot name must be one of {_KINDS}, got {self.kind!r}. "
                             + SPEC_HELP)
        self._set("c", check_real("c (the exploration constant)", self.c, 0.0))
        if self.scale not in ("01", "pm1"):
            raise ValueError(f"scale must be 01 (rewards 1/0.5/0) or pm1 (1/0/-1), "
                             f"got {self.scale!r}.")
        for name in ("wins", "solver", "reuse", "centre", "stop"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise ValueError(f"{name} must be True or False (on or off in a SPEC), "
                                 f"got {getattr(self, name)!r}.")
            self._set(name, bool(getattr(self, name)))
        self._set("capacity", check_int("capacity (nodes in the pool)", self.capacity,
                                        MIN_CAPACITY, MAX_CAPACITY))
        self._check_win_taking()
        self._check_playout()
        self._set("expand", check_int("expand (visits before a leaf gets its children)",
                                      self.expand, 1, MAX_EXPAND))
        self._set("draw", check_real("draw (a drawn playout's worth to the bot)", self.draw,
                                     0.0, 1.0))
        self._set("cutoff", check_int("cutoff (playout moves before the evaluation)",
                                      self.cutoff, 0, MAX_CUTOFF))
        scale = check_real("cutoff_scale (evaluation points per unit of log-odds)",
                           self.cutoff_scale, 0.0, 1e6)
        if scale <= 0.0:
            raise ValueError(f"cutoff_scale (evaluation points per unit of log-odds) must be "
                             f"a number > 0 and at most 1,000,000, got {self.cutoff_scale!r}.")
        self._set("cutoff_scale", scale)
        self._check_budget()
        for name, value in check_toolbox(self).items():
            self._set(name, value)

    @property
    def playouts_take_wins(self) -> bool:
        """Whether playouts take an immediate game win (``wins`` or ``playout_wins``)."""
        return self.wins if self.playout_wins is None else self.playout_wins

    @property
    def tree_takes_wins(self) -> bool:
        """Whether a position with an immediate win gets that one child (``wins``, ``tree_wins``)."""
        return self.wins if self.tree_wins is None else self.tree_wins

    @property
    def playout_policy(self) -> str:
        """The playouts' policy: ``playout``, else ``"wins"`` or ``"random"``."""
        if self.playout is not None:
            return self.playout
        return "wins" if self.playouts_take_wins else "random"

    def _check_playout(self):
        if self.playout is None:
            return
        if not isinstance(self.playout, str) or self.playout not in PLAYOUTS:
            raise ValueError(f"playout must be one of {', '.join(PLAYOUTS)}, got "
                             f"{self.playout!r:.80}.")
        implied = "wins" if self.playouts_take_wins else "random"
        if self.playout == implied:
            self._set("playout", None)  # one form for one behaviour
        elif self.playout in ("random", "wins"):
            raise ValueError(f"playout={self.playout} contradicts playout_wins="
                             f"{'on' if self.playouts_take_wins else 'off'} (wins): give "
                             f"playout_wins={'on' if self.playout == 'wins' else 'off'} instead.")
        elif not self.playouts_take_wins:
            raise ValueError(f"playout={self.playout} takes an immediate win itself: give it "
                             f"with wins=on or playout_wins=on.")

    def _check_win_taking(self):
        for name in ("playout_wins", "tree_wins"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, (bool, np.bool_)):
                raise ValueError(f"{name} must be True, False or None (on or off in a SPEC), "
                                 f"got {value!r}.")
            self._set(name, None if value is None else bool(value))
        if self.wins and (self.playout_wins is not None or self.tree_wins is not None):
            raise ValueError("wins=on means playout_wins=on and tree_wins=on: give wins, or "
                             "playout_wins and tree_wins, not both.")
        playouts, tree = bool(self.playout_wins), bool(self.tree_wins)
        if self.playout_wins is None and self.tree_wins is None:
            return
        if playouts == tree:  # one form for one behaviour: equal specs play alike
            self._set("wins", playouts)
            self._set("playout_wins", None)
            self._set("tree_wins", None)
        else:
            self._set("playout_wins", playouts)
            self._set("tree_wins", tree)

    def _set(self, name, value):
        object.__setattr__(self, name, value)  # frozen: normalise in place once, here

    def _check_budget(self):
        if self.iterations is not None:
            if self.ms is not None or self.first_ms is not None:
                raise ValueError("give a budget in iterations (iters) or in milliseconds "
                                 "(ms, first_ms), not both.")
            self._set("iterations", check_int("iters (iterations per move)", self.iterations,
                                              1, MAX_ITERATIONS))
            if self.margin_ms != 0:
                raise ValueError(f"margin_ms applies to a time budget (ms, first_ms), not to "
                                 f"iters; got margin_ms={self.margin_ms!r} with iters.")
            if self.first_iterations is not None:
                first = check_int("first_iters (iterations for the first move)",
                                  self.first_iterations, 1, MAX_ITERATIONS)
                self._set("first_iterations", None if first == self.iterations else first)
            return
        if self.first_iterations is not None:
            raise ValueError("first_iters (iterations for the first move) needs iters; with a "
                             "time budget give first_ms.")
        for name, value in zip(("ms", "first_ms", "margin_ms"),
                               time_budget(self.ms, self.first_ms, self.margin_ms)):
            self._set(name, value)

    @staticmethod
    def parse(text: str) -> BotSpec:
        """Same as :func:`parse_spec`."""
        return parse_spec(text)

    def __call__(self, seed=None):
        """A fresh player seeded by ``seed`` (what the arena calls, once per game)."""
        if self.kind == "random":
            return RandomPlayer(seed)
        if uses_toolbox(self):
            return ToolboxBot(self, seed)
        return UTTTBot(self, seed)

    def __str__(self) -> str:
        if self.kind == "random":
            return "random"
        if self.iterations is None:
            budget = budget_text(self.ms, self.first_ms, self.margin_ms)
        elif self.first_iterations is None:
            budget = f"iters={self.iterations}"
        else:
            budget = f"iters={self.iterations},first_iters={self.first_iterations}"
        win_taking = (("wins",) if self.playout_wins is None
                      else ("playout_wins", "tree_wins"))  # equal ones print as before
        stop = ("stop",) if self.stop else ()  # printed only when on, as before it existed
        flags = ",".join(f"{name}={'on' if getattr(self, name) else 'off'}"
                         for name in (*win_taking, "solver", "reuse", "centre", *stop))
        if self.playout is not None:  # the later keys, only when not at their defaults
            flags += f",playout={self.playout}"
        if self.expand != 1:
            flags += f",expand={self.expand}"
        if self.draw != 0.5:
            flags += f",draw={exact(self.draw)}"
        if self.cutoff != 0:
            flags += f",cutoff={self.cutoff}"
        if self.cutoff_scale != 100.0:
            flags += f",cutoff_scale={exact(self.cutoff_scale)}"
        flags += toolbox_text(self)
        return (f"uct:c={self.c!r},scale={self.scale},{budget},{flags},"
                f"capacity={self.capacity}")

    def as_dict(self) -> dict:
        """Every field that matters, for saving with a match's results.

        ``playout_wins``, ``tree_wins``, ``first_iterations``, ``margin_ms`` and
        ``stop`` appear only when not at their defaults, so a spec without them
        saves as it did before they existed.
        """
        if self.kind == "random":
            return {"kind": "random"}
        fields = asdict(self)
        for name, default in _LATER_FIELDS.items():
            if fields[name] == default and type(fields[name]) is type(default):
                del fields[name]
        return fields


#: Fields added after results were first stored, with their defaults (see ``as_dict``).
_LATER_FIELDS = {"playout_wins": None, "tree_wins": None, "first_iterations": None,
                 "margin_ms": 0.0, "stop": False, "playout": None, "expand": 1,
                 "draw": 0.5, "cutoff": 0, "cutoff_scale": 100.0, **TOOLBOX_DEFAULTS}


_KEYS = {"c": "c", "scale": "scale", "iters": "iterations", "first_iters": "first_iterations",
         "ms": "ms", "first_ms": "first_ms", "wins": "wins", "playout_wins": "playout_wins",
         "tree_wins": "tree_wins", "solver": "solver", "reuse": "reuse", "centre": "centre",
         "capacity": "capacity", "margin_ms": "margin_ms", "stop": "stop",
         "playout": "playout", "expand": "expand", "draw": "draw",
         "cutoff": "cutoff", "cutoff_scale": "cutoff_scale", **{key: key for key in TOOLBOX_DEFAULTS}}
_ON_OFF_KEYS = ("wins", "playout_wins", "tree_wins", "solver", "reuse", "centre", "stop",
                "bounds", "tree_safe", "ponder")
_WHOLE_KEYS = ("iters", "first_iters", "capacity", "expand", "cutoff")


def parse_spec(text: str) -> BotSpec:
    """Read a SPEC such as ``uct:c=0.5,iters=2000,solver=on`` (see the module docstring).

    Raises ValueError with a sentence naming what was wrong and listing the
    allowed keys and values.
    """
    if isinstance(text, BotSpec):
        return text
    # The alpha-beta baseline (chapter 6) has its own SPEC; imported here, not at the top,
    # so that the MCTS bot does not load the alpha-beta kernels.
    from .uttt_alphabeta import AlphaBetaSpec, parse_alphabeta_spec
    if isinstance(text, AlphaBetaSpec) or (
            isinstance(text, str) and text.replace(" ", "").partition(":")[0] == "alphabeta"):
        return parse_alphabeta_spec(text)
    name, options = split_spec(text, SPEC_HELP)
    if name not in _KINDS:
        raise ValueError(f"unknown bot {name!r} in SPEC {text!r}. " + SPEC_HELP)
    items = [item for item in options.split(",") if item]
    if name == "random" and items:
        raise ValueError(f"the random bot takes no options, got {items[0]!r} in SPEC {text!r}.")
    values = read_options(text, options, _KEYS, _parse_value, SPEC_HELP)
    if "wins" in values and ("playout_wins" in values or "tree_wins" in values):
        raise ValueError(f"wins means playout_wins and tree_wins together: give wins, or "
                         f"playout_wins and tree_wins, not both, in SPEC {text!r}.")
    try:
        return BotSpec(name, **values)
    except ValueError as error:
        raise ValueError(f"bad SPEC {text!r}: {error}") from None


def _parse_value(key: str, value: str, text: str):
    if key in _ON_OFF_KEYS:
        return on_off(key, value, text)
    if key in ("scale", "playout"):
        return value  # BotSpec checks it
    return number(key, value, text, _WHOLE_KEYS, SPEC_HELP)


# ------------------------------------------------------------------------ the bot


@dataclass(frozen=True)
class SearchInfo:
    """What the last :meth:`UTTTBot.choose` did (for logs, benchmarks and the chapter).

    ``verdict`` is the solver's verdict on the root for the player to move:
    ``"win"``, ``"loss"`` or None (unproven, or the solver is off).
    ``reused_nodes`` is how many nodes the kept subtree brought along (0 for a
    fresh tree); ``how`` says where the move came from: ``"search"``,
    ``"centre"`` or ``"proven win"``.
    """

    move: int
    iterations: int
    seconds: float
    nodes: int
    reused_nodes: int
    root_visits: int
    verdict: str | None
    how: str


class UTTTBot:
    """Monte Carlo Tree Search for Ultimate Tic-Tac-Toe at native speed, with options.

    Parameters
    ----------
    spec : BotSpec or str, optional
        The options (a SPEC string is parsed); ``uct`` defaults if omitted.
    seed : int, SeedSequence, Generator, XorShift64 or None
        An int, SeedSequence, Generator or None goes through
        :func:`mctslib.rng.make_rng` and seeds the search's xorshift64 with
        ``int(generator.integers(2**63))``; an :class:`~mctslib.xorshift.XorShift64`
        gives its current state as is (the object itself is not advanced), so
        that a test can run the same stream as :class:`mctslib.search.uct.UCTSearch`.

    Notes
    -----
    ``choose(state)`` needs an :class:`~mctslib.games.uttt.UltimateTicTacToe`
    position; the scoring it uses is the state's. The node pool is allocated
    here, once. With ``reuse`` on, the bot remembers the position it searched
    and its answer; when the next position is that answer followed by one
    opponent move, the subtree under that pair becomes the new root. In any
    other case (a new game, a position it never saw) it starts a fresh tree.
    The bot's *first move* (its first call to ``choose``) gets ``first_ms``.
    """

    def __init__(self, spec: BotSpec | str | None = None, seed=None):
        spec = BotSpec() if spec is None else parse_spec(spec)
        if spec.kind != "uct":
            raise ValueError(f"UTTTBot runs the uct bot; for {spec.kind!r} call the spec itself.")
        self.spec = spec
        self.rng = _xorshift_state(seed)
        check_pool_memory(spec.capacity)
        self.pool = fast_uct.NodePool(spec.capacity)
        self._scratch = np.zeros(engine.STATE_SIZE, dtype=np.int64)
        self._path = np.zeros(fast_uct.MAX_PATH, dtype=np.int64)
        self._buf = np.zeros(81, dtype=np.int64)
        self._scores = np.zeros(fast_uct.SCORES_SIZE, dtype=np.float64)
        self._copy = np.zeros(engine.STATE_SIZE, dtype=np.int64)
        self._playout = playout_code(spec.playout_policy)
        self._root: UltimateTicTacToe | None = None  # the position at the root of the pool
        self._answer: int | None = None
        self.moves_chosen = 0
        self.last: SearchInfo | None = None
        warm_up()  # load the compiled search now, outside any move's clock

    # --- the player protocol -------------------------------------------------

    def choose(self, state: UltimateTicTacToe, clock_start: float | None = None) -> int:
        """The bot's move in ``state`` (an int ``9 * row + col``).

        ``clock_start`` is the ``time.perf_counter()`` reading from which a
        time budget counts (default: now); the CodinGame loop passes the moment
        the turn's input arrived, so that reading it counts too. A reading is
        never negative, nor later than now: a start in the future would stretch
        the search past its budget (forever, for a start far ahead), so it is
        refused with a ValueError.
        """
        now = time.perf_counter()
        start = now if clock_start is None else check_real(
            "clock_start (a time.perf_counter() reading, from 0 up to now)", clock_start, 0.0, now)
        _check_position(state)
        if self.spec.centre and state == UltimateTicTacToe(scoring=state.scoring):
            return self._finish(CENTRE, start, 0, 0, "centre", state=None)
        reused = self._prepare_tree(state) if self.spec.reuse else 0
        if not reused:
            self.pool.reset()
        if self.pool.child_count[0] == 0:  # the first iteration must fit the root's children
            self._check_capacity(state)
        iterations = self._search(engine.to_array(state), engine.scoring_code(state.scoring),
                                  start)
        move, how = self._best_move()
        return self._finish(move, start, iterations, reused, how, state=state)

    # --- inspection ------------------------------------------------------------

    def root_stats(self) -> list[tuple[int, int, float, int]]:
        """``(move, visits, mean reward, proven)`` of each root child of the last search.

        Tree order; the mean is in the bot's reward scale, for the player to
        move at the root; ``proven`` is 1 (a proven win), -1 (a proven loss) or 0.
        """
        pool = self.pool
        return [(int(pool.move[i]), int(pool.visits[i]),
                 float(pool.wins[i] / pool.visits[i]) if pool.visits[i] else math.nan,
                 int(pool.proven[i])) for i in pool.children(0)]

    # --- steps of choose ---------------------------------------------------------

    def _search(self, root_state: np.ndarray, scoring: int, start: float) -> int:
        spec = self.spec
        first = self.moves_chosen == 0
        if spec.iterations is not None:
            iterations = (spec.first_iterations if first and spec.first_iterations is not None
                          else spec.iterations)
            if spec.stop:
                return self._run_until_decided(root_state, scoring, iterations)
            return self._run(root_state, scoring, iterations)
        budget_ms = (spec.first_ms if first else spec.ms) - spec.margin_ms
        return self._run_until(root_state, scoring, start + budget_ms / 1000.0)

    def _run(self, root_state, scoring, iterations: int) -> int:
        spec = self.spec
        # The root's visits are an int32: a search that would wrap them stops short (only
        # a tree kept and grown for billions of iterations gets there). Once per call.
        iterations = min(iterations, _VISITS_LIMIT - int(self.pool.visits[0]))
        return int(fast_uct.search(root_state, iterations, spec.c, spec.scale == "pm1",
                                   self._playout, spec.tree_takes_wins, spec.solver,
                                   scoring, self.rng, self.pool.used,
                                   *self.pool.arrays(), self._scratch, self._path, self._buf,
                                   self._scores, spec.expand, self._copy, spec.draw,
                                   spec.cutoff, spec.cutoff_scale))

    def _run_until(self, root_state, scoring, deadline: float) -> int:
        """Chunks of iterations until the deadline (there is no clock inside compiled code).

        Each chunk is sized from the measured rate to take about 1 ms, or
        the time left if less, so on a machine that is not busy the search
        ends within about a millisecond after the deadline. The first chunk
        is small because the rate is not known yet. At least one chunk runs,
        so there is always an answer. With ``stop=on`` it also ends once the
        iterations the time left allows (at the fastest rate seen in this
        search) cannot change the most visited root child.
        """
        done, chunk, fastest = 0, 64, 0.0
        while True:
            before = time.perf_counter()
            ran = self._run(root_state, scoring, chunk)
            now = time.perf_counter()
            done += ran
            left = deadline - now
            if ran < chunk or left <= 0.0:  # the solver proved the root, or time is up
                return done
            rate = ran / max(now - before, 1e-6)
            # The iterations left, from the fastest chunk so far: a chunk slowed by a busy
            # machine would make the time left look shorter and stop too soon.
            fastest = max(fastest, rate)
            if self.spec.stop and self._decided(int(fastest * left)):
                return done
            chunk = max(16, int(rate * min(left, 0.001)))

    def _run_until_decided(self, root_state, scoring, iterations: int) -> int:
        """Up to ``iterations`` iterations, ending once the robust child cannot change.

        After k more iterations the lead of the most visited child over the
        second shrinks by at most k while the iterations left shrink by k, so
        no stop is possible before half the excess of iterations left over
        that lead has run: each chunk is that long (at least
        :data:`_STOP_CHUNK`), and the checks are few (a handful per move).
        """
        done = 0
        while done < iterations:
            left = iterations - done
            best, second = self._lead()
            if self._decided(left, best, second):
                break
            chunk = min(left, max(_STOP_CHUNK, (left - (best - second)) // 2 + 1))
            ran = self._run(root_state, scoring, chunk)
            done += ran
            if ran < chunk:  # the solver proved the root (or the visit count is full)
                break
        return done

    def _lead(self) -> tuple[int, int]:
        """Visits of the most and second most visited root children the answer may be.

        Proven losses are left out with the solver on, as :meth:`_best_move` does;
        -1 stands for no such child (no second: nothing can overtake the first).
        """
        pool = self.pool
        first = int(pool.first_child[0])
        visits = pool.visits[first:first + int(pool.child_count[0])].astype(np.int64)
        if self.spec.solver:
            lost = pool.proven[first:first + len(visits)] == fast_uct.LOSS
            if not lost.all():
                visits = visits[~lost]
        if len(visits) == 0:
            return -1, -1
        if len(visits) == 1:
            return int(visits[0]), -1
        top = np.partition(visits, len(visits) - 2)[-2:]
        return int(top[1]), int(top[0])

    def _decided(self, left: int, best: int | None = None, second: int | None = None) -> bool:
        """Whether ``left`` more iterations cannot change the most visited root child.

        The first strictly most visited child stays so if the second plus every
        iteration left stays below it (ties go to the first in tree order, so
        an equal count could change the answer).
        """
        if best is None:
            best, second = self._lead()
        if best < 0:  # no children yet: nothing searched
            return False
        return second < 0 or second + left < best

    def _best_move(self) -> tuple[int, str]:
        """The proven win if there is one, else the robust child among moves not proven lost."""
        pool = self.pool
        children = np.arange(pool.first_child[0], pool.first_child[0] + pool.child_count[0])
        proven = pool.proven[children]
        if self.spec.solver and (proven == fast_uct.WIN).any():
            return int(pool.move[children[np.argmax(proven == fast_uct.WIN)]]), "proven win"
        visits = pool.visits[children].astype(np.int64)
        if self.spec.solver and not (proven == fast_uct.LOSS).all():
            visits[proven == fast_uct.LOSS] = -1  # never a proven loss while another move exists
        return int(pool.move[children[np.argmax(visits)]]), "search"  # argmax: first on ties

    def _finish(self, move, start, iterations, reused, how, state) -> int:
        verdict = None
        if state is not None and self.spec.solver:
            verdict = {fast_uct.LOSS: "win", fast_uct.WIN: "loss"}.get(int(self.pool.proven[0]))
        self.last = SearchInfo(move, iterations, time.perf_counter() - start,
                               self.pool.count if state is not None else 0, reused,
                               int(self.pool.visits[0]) if state is not None else 0, verdict, how)
        self._root, self._answer = state, move
        self.moves_chosen += 1
        return move

    def _check_capacity(self, state: UltimateTicTacToe) -> None:
        needed = 1 + len(state.legal_moves())
        if needed > self.pool.capacity:
            raise ValueError(f"capacity {self.pool.capacity} cannot hold the root and its "
                             f"{needed - 1} children: capacity must be at least {needed} here "
                             f"(82 for any position).")

    def _prepare_tree(self, state: UltimateTicTacToe) -> int:
        """Re-root the pool at ``state`` if the kept tree has it; return the nodes kept (0: none)."""
        if self._root is None or self._root.scoring != state.scoring:
            return 0
        if state == self._root:
            return self.pool.count  # asked again: keep growing the same tree
        after_ours = self._root.play(self._answer)
        reply = opponent_reply(after_ours, state)
        if reply is None:
            return 0
        pool = self.pool
        ours = fast_uct.find_child(0, self._answer, pool.first_child, pool.child_count, pool.move)
        if ours < 0:
            return 0
        node = fast_uct.find_child(ours, reply, pool.first_child, pool.child_count, pool.move)
        if node < 0:
            return 0
        old_count = pool.count
        kept = int(fast_uct.reroot(node, pool.used, *pool.arrays(), pool.new_index))
        self._rerooted(node, old_count)
        return kept

    def _rerooted(self, new_root: int, old_count: int) -> None:
        """Called after :func:`~mctslib.fast.uttt_uct.reroot` moved the kept subtree.

        A subclass with node data of its own moves it here, as ``pool.new_index``
        says (:class:`mctslib.bots.uttt_prior.PriorUCTBot`); nothing to do here.
        """


class ToolboxBot(ToolboxMixin, UTTTBot):
    """:class:`UTTTBot` with the bot author's toolbox keys on (:mod:`mctslib.bots.uttt_toolbox`).

    What a :class:`BotSpec` with ``fpu``, ``bounds``, ``tree_safe``, ``mast``,
    ``ponder`` or ``extend`` builds; same parameters as :class:`UTTTBot`.
    """


def opponent_reply(before: UltimateTicTacToe, after: UltimateTicTacToe) -> int | None:
    """The one move that turns ``before`` into ``after``, or None if there is no such move."""
    for name, state in (("before", before), ("after", after)):
        if not isinstance(state, UltimateTicTacToe):
            raise ValueError(f"{name} must be an UltimateTicTacToe position, got "
                             f"{type(state).__name__}.")
    mover = before.player_to_move
    old, new = (before.x, before.o), (after.x, after.o)
    if old[1 - mover] != new[1 - mover] or before.scoring != after.scoring:
        return None
    added = [(board, new[mover][board] & ~old[mover][board]) for board in range(9)]
    added = [(board, bits) for board, bits in added if bits]
    if len(added) != 1 or added[0][1].bit_count() != 1:
        return None
    board, bits = added[0]
    move = from_board_cell(board, bits.bit_length() - 1)
    try:
        return move if before.play(move) == after else None
    except ValueError:
        return None


def _check_position(state) -> None:
    if not isinstance(state, UltimateTicTacToe):
        raise ValueError(f"the UTTT bot plays UltimateTicTacToe positions, got "
                         f"{type(state).__name__}.")
    if state.is_terminal():
        raise ValueError("cannot search a finished game: there is no move to choose.")


def available_memory() -> int | None:
    """Bytes of memory the machine can give now without swapping, or None if unknown.

    Linux's estimate ``MemAvailable`` (/proc/meminfo: free memory plus caches it
    can drop); elsewhere the free physical pages; None where neither is known.
    """
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def check_pool_memory(capacity: int, pools: int = 1) -> int:
    """Raise ValueError unless ``pools`` node pools of ``capacity`` nodes fit in the memory available.

    Checked before a pool is allocated: numpy would raise a MemoryError from
    deep inside, or, since the operating system hands out zeroed pages lazily,
    the search would be killed halfway through a game. Returns the bytes needed.
    """
    capacity = check_int("capacity (nodes in the pool)", capacity, MIN_CAPACITY, MAX_CAPACITY)
    pools = check_int("pools", pools, 1)
    needed = pools * capacity * BYTES_PER_NODE
    available = available_memory()
    if available is not None and needed > available:
        what = "a node pool" if pools == 1 else f"{pools} node pools"
        raise ValueError(f"capacity {capacity:,} needs {_size(needed)} for {what} "
                         f"({BYTES_PER_NODE} bytes a node), but only {_size(available)} of "
                         f"memory is available: capacity must be at most "
                         f"{available // (pools * BYTES_PER_NODE):,} here.")
    return needed


def _size(size: int) -> str:
    return f"{size / 2**30:,.2f} GiB" if size >= 2**30 else f"{size / 2**20:,.1f} MiB"


def _xorshift_state(seed) -> np.ndarray:
    if isinstance(seed, XorShift64):
        return np.array([seed.state], dtype=np.uint64)
    return engine.new_rng(int(make_rng(seed).integers(2**63)))


_warmed_up = False


def warm_up() -> None:
    """Load (or compile) every compiled function the bot calls, once per process.

    numba compiles on first call, or loads from its on-disk cache (about a
    second); doing it here keeps that out of the first move's clock. A
    private pool and generator are used, so no bot's random stream moves.
    """
    global _warmed_up
    if _warmed_up:
        return
    pool = fast_uct.NodePool(400)
    state = engine.to_array(UltimateTicTacToe().play(CENTRE))
    args = (np.zeros(engine.STATE_SIZE, dtype=np.int64), np.zeros(fast_uct.MAX_PATH, np.int64),
            np.zeros(81, dtype=np.int64), np.zeros(fast_uct.SCORES_SIZE, dtype=np.float64))
    for wins in (False, True):
        fast_uct.search(state, 50, 1.0, wins, int(wins), wins, wins, 0, engine.new_rng(1),
                        pool.used, *pool.arrays(), *args, 1,
                        np.zeros(engine.STATE_SIZE, dtype=np.int64), 0.5)
    child = fast_uct.find_child(0, int(pool.move[1]), pool.first_child, pool.child_count,
                                pool.move)
    fast_uct.reroot(child, pool.used, *pool.arrays(), pool.new_index)
    _warmed_up = True


# ------------------------------------------------------------------------ openings


#: At most this many openings: each is two games, and a match of more is a typo.
MAX_OPENINGS = 10_000
#: Openings are a game's first moves; a game can end from ply 17 on, and random games
#: rarely last 80 plies, so deeper "openings" would mostly be retried without end.
MAX_OPENING_PLIES = 30
#: Distinct positions (none finished) after 1, 2, 3 and 4 plies from the empty board:
#: exact counts by enumeration (the tests repeat it). From 4 plies on there are more than
#: MAX_OPENINGS.
_DISTINCT_OPENINGS = {1: 81, 2: 720, 3: 6_336, 4: 54_828}


def distinct_openings(plies: int) -> int | None:
    """How many distinct positions ``plies`` moves from the empty board reach (exact up to 4 plies).

    None for more plies: then there are far more than :data:`MAX_OPENINGS`.
    """
    plies = check_int("plies (random moves per opening)", plies, 1, MAX_OPENING_PLIES)
    return _DISTINCT_OPENINGS.get(plies)


def random_openings(count: int, plies: int = 2, seed=None,
                    scoring: str = "codingame") -> list[UltimateTicTacToe]:
    """``count`` distinct positions reached by ``plies`` uniformly random moves from the empty board.

    A match from several openings (each played twice, sides swapped, by
    :func:`mctslib.play.arena.play_match`) tests two bots on more than one game
    tree. ``seed`` goes through :func:`mctslib.rng.make_rng`. ``count`` is 1 to
    :data:`MAX_OPENINGS` and ``plies`` 1 to :data:`MAX_OPENING_PLIES`. Raises
    ValueError at once if fewer distinct openings exist than asked
    (:func:`distinct_openings`), or if ``100 * count`` tries find fewer.
    """
    count = check_int("count (openings)", count, 1, MAX_OPENINGS)
    exist = distinct_openings(plies)
    if exist is not None and count > exist:
        raise ValueError(f"count (openings) must be at most {exist:,}, the number of distinct "
                         f"openings of {plies} pl{'y' if plies == 1 else 'ies'}, got {count:,}; ask "
                         "for fewer or use more plies.")
    return distinct_random_positions(lambda: UltimateTicTacToe(scoring=scoring), count, plies,
                                     seed)
