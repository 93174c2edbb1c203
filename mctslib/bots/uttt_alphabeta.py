"""Alpha-beta bot for Ultimate Tic-Tac-Toe and its SPEC (chapter "Enhancements and failure modes").

A classical opponent for the MCTS bot of :mod:`mctslib.bots.uttt`: negamax
alpha-beta with iterative deepening, killer and history move ordering and the
hand-written evaluation of :mod:`mctslib.search.uttt_evaluation`, at native
speed (:mod:`mctslib.fast.uttt_alphabeta`). A SPEC names it and its budget,
in the syntax of the MCTS bot's SPEC::

    alphabeta                                  # ms=100, first_ms=1000, depth=81
    alphabeta:ms=100,first_ms=100
    alphabeta:nodes=200000,depth=81            # a node budget: reproducible games
    alphabeta:ms=100,depth=6,order=off
    alphabeta:ms=100,eval=25/60/4/3/20         # the evaluation's five weights

==============  ==================================================  ==========
key             meaning                                             default
==============  ==================================================  ==========
``ms``          milliseconds per move after the first, > 0          100
``first_ms``    milliseconds for the bot's first move, > 0          10 × ms
``margin_ms``   stop this long before a time budget ends, >= 0      0
``nodes``       node budget per move, 1 to 10,000,000,000           (time)
``depth``       deepest iteration, 1 to 81                          81
``order``       killer/history move ordering, ``on`` or ``off``     ``on``
``eval``        the evaluation's weights ``W/B/S/C/F``: won board,  25/60/4/3/20
                big-board threat, small-board threat, centre cell,
                free choice; whole numbers from -1000 to 1000
==============  ==================================================  ==========

Give ``nodes`` (the same games on any machine, whatever its load) or
``ms``/``first_ms``, not both. Times are at most a day (86,400,000 ms). An
iteration that would run past the budget is abandoned and the bot plays the
best move of the last complete one (depth 1 always completes, so there is
always a legal move; under a time budget the bot answers within about a
millisecond of it on a quiet machine: ``benchmarks/alphabeta_speed.py``
measures the overrun). A proven win is played as soon as it is found, and a
search that proves every line stops early.

:func:`parse_alphabeta_spec` reads the text into an :class:`AlphaBetaSpec`
(frozen, pickles, ``str(spec)`` reads back to an equal spec), which
:func:`mctslib.play.arena.play_match` can call as a factory:
``spec(seed=generator)`` builds a fresh :class:`AlphaBetaBot` (the bot is
deterministic: the seed is accepted and unused).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .._checks import check_int, check_real
from ..fast import uttt as engine
from ..fast import uttt_alphabeta as fast_ab
from ..games.uttt import UltimateTicTacToe
from ..search.uttt_evaluation import DEFAULT_WEIGHTS, check_weights
from ._spec import budget_text, number, on_off, read_options, split_spec, time_budget

__all__ = ["ALPHABETA_SPEC_HELP", "MAX_DEPTH", "MAX_NODES", "AlphaBetaBot", "AlphaBetaInfo",
           "AlphaBetaSpec", "parse_alphabeta_spec", "warm_up"]

#: The deepest iteration: a game has at most 81 moves.
MAX_DEPTH = 81
#: A node budget of ten billion is over twenty minutes a move: beyond that a typo.
MAX_NODES = 10_000_000_000

#: The sentence every SPEC error ends with.
ALPHABETA_SPEC_HELP = (
    "Allowed: 'alphabeta' then ':KEY=VALUE,...' with keys ms and first_ms (numbers > 0 and at "
    "most 86,400,000, a day), margin_ms (a number >= 0 below ms and first_ms), nodes (a whole "
    "number from 1 to 10,000,000,000; not with ms, first_ms or margin_ms), depth (a whole number "
    "from 1 to 81), order (on or off) and eval (five whole numbers from -1000 to 1000 "
    "joined by '/', e.g. 25/60/4/3/20)."
)


@dataclass(frozen=True)
class AlphaBetaSpec:
    """The alpha-beta bot and its budget; call it with ``seed=...`` to build a fresh player.

    Attributes
    ----------
    ms, first_ms : float or None
        Milliseconds per move after the first, and for the first (> 0, at most a
        day); None with ``nodes``. Default 100 and 10 × ``ms``.
    nodes : int or None
        Node budget per move (1 to :data:`MAX_NODES`); None means a time budget.
    depth : int
        Deepest iteration, 1 to :data:`MAX_DEPTH`.
    order : bool
        Killer and history move ordering (previous best move first).
    margin_ms : float
        With a time budget, stop this many milliseconds early (>= 0, below
        ``ms`` and ``first_ms``); 0 with ``nodes``.
    weights : tuple of 5 ints
        The evaluation's weights (:mod:`mctslib.search.uttt_evaluation`).
    """

    ms: float | None = None
    first_ms: float | None = None
    nodes: int | None = None
    depth: int = MAX_DEPTH
    order: bool = True
    margin_ms: float = 0.0
    weights: tuple = DEFAULT_WEIGHTS

    def __post_init__(self):
        self._set("weights", check_weights(self.weights))
        self._set("depth", check_int("depth (plies of the deepest iteration)", self.depth, 1,
                                     MAX_DEPTH))
        if not isinstance(self.order, (bool, np.bool_)):
            raise ValueError(f"order must be True or False (on or off in a SPEC), "
                             f"got {self.order!r}.")
        self._set("order", bool(self.order))
        if self.nodes is not None:
            if self.ms is not None or self.first_ms is not None or self.margin_ms != 0:
                raise ValueError("give a budget in nodes or in milliseconds (ms, first_ms, "
                                 "margin_ms), not both.")
            self._set("nodes", check_int("nodes (node budget per move)", self.nodes, 1,
                                         MAX_NODES))
            return
        for name, value in zip(("ms", "first_ms", "margin_ms"),
                               time_budget(self.ms, self.first_ms, self.margin_ms)):
            self._set(name, value)

    def _set(self, name, value):
        object.__setattr__(self, name, value)  # frozen: normalise in place once, here

    @staticmethod
    def parse(text: str) -> AlphaBetaSpec:
        """Same as :func:`parse_alphabeta_spec`."""
        return parse_alphabeta_spec(text)

    def __call__(self, seed=None) -> AlphaBetaBot:
        """A fresh player (what the arena calls, once per game); ``seed`` is unused."""
        return AlphaBetaBot(self, seed)

    def __str__(self) -> str:
        if self.nodes is not None:
            budget = f"nodes={self.nodes}"
        else:
            budget = budget_text(self.ms, self.first_ms, self.margin_ms)
        order = "" if self.order else ",order=off"
        weights = ("" if self.weights == DEFAULT_WEIGHTS
                   else ",eval=" + "/".join(str(w) for w in self.weights))
        return f"alphabeta:{budget},depth={self.depth}{order}{weights}"


_KEYS = {"ms": "ms", "first_ms": "first_ms", "margin_ms": "margin_ms", "nodes": "nodes",
         "depth": "depth", "order": "order", "eval": "weights"}
_WHOLE_KEYS = ("nodes", "depth")


def parse_alphabeta_spec(text: str) -> AlphaBetaSpec:
    """Read a SPEC such as ``alphabeta:ms=100,first_ms=100,depth=81`` (see the module docstring).

    Raises ValueError with a sentence naming what was wrong and listing the
    allowed keys and values.
    """
    if isinstance(text, AlphaBetaSpec):
        return text
    name, options = split_spec(text, ALPHABETA_SPEC_HELP)
    if name != "alphabeta":
        raise ValueError(f"unknown bot {name!r} in SPEC {text!r}: this reader takes the "
                         f"alphabeta bot. " + ALPHABETA_SPEC_HELP)
    values = read_options(text, options, _KEYS, _parse_value, ALPHABETA_SPEC_HELP)
    try:
        return AlphaBetaSpec(**values)
    except ValueError as error:
        raise ValueError(f"bad SPEC {text!r}: {error}") from None


def _parse_value(key: str, value: str, text: str):
    if key == "eval":
        try:
            return tuple(int(part) for part in value.split("/"))
        except ValueError:
            raise ValueError(f"eval must be five whole numbers joined by '/', e.g. 25/60/4/3/20, "
                             f"got {value!r} in SPEC {text!r}.") from None
    if key == "order":
        return on_off(key, value, text)
    return number(key, value, text, _WHOLE_KEYS, ALPHABETA_SPEC_HELP)


# ------------------------------------------------------------------------ the bot


@dataclass(frozen=True)
class AlphaBetaInfo:
    """What the last :meth:`AlphaBetaBot.choose` did.

    ``value`` is the search value of ``move`` for the side to move (evaluation
    points, or about ±1,000,000 for a proven win or loss: see
    :mod:`mctslib.search.alphabeta`); ``depth`` the last depth completed;
    ``nodes`` the positions visited; ``verdict`` ``"win"``, ``"loss"`` or None.
    """

    move: int
    value: int
    depth: int
    nodes: int
    seconds: float
    verdict: str | None


class AlphaBetaBot:
    """Iterative-deepening alpha-beta for Ultimate Tic-Tac-Toe at native speed.

    Parameters
    ----------
    spec : AlphaBetaSpec or str, optional
        The budget and options (a SPEC string is parsed); defaults if omitted.
    seed : anything, optional
        Accepted for the arena's factory protocol and unused: the search is deterministic.

    Notes
    -----
    The bot's *first move* (its first call to ``choose``) gets ``first_ms``.
    The scoring of a finished game is the state's (CodinGame's or OpenSpiel's).
    """

    def __init__(self, spec: AlphaBetaSpec | str | None = None, seed=None):
        self.spec = AlphaBetaSpec() if spec is None else parse_alphabeta_spec(spec)
        self._workspace = fast_ab.new_workspace()
        self._weights = fast_ab.weights_array(self.spec.weights)
        self._out = np.zeros(4, dtype=np.int64)
        self.moves_chosen = 0
        self.last: AlphaBetaInfo | None = None
        warm_up()

    def choose(self, state: UltimateTicTacToe, clock_start: float | None = None) -> int:
        """The bot's move in ``state`` (an int ``9 * row + col``).

        ``clock_start`` is the ``time.perf_counter()`` reading from which a
        time budget counts (default: now).
        """
        start = (time.perf_counter() if clock_start is None
                 else check_real("clock_start (a time.perf_counter() reading)", clock_start))
        if not isinstance(state, UltimateTicTacToe):
            raise ValueError(f"the alpha-beta bot plays UltimateTicTacToe positions, got "
                             f"{type(state).__name__}.")
        if state.is_terminal():
            raise ValueError("cannot search a finished game: there is no move to choose.")
        spec = self.spec
        seconds = None
        if spec.nodes is None:
            budget_ms = (spec.first_ms if self.moves_chosen == 0 else spec.ms) - spec.margin_ms
            seconds = start + budget_ms / 1000.0 - time.perf_counter()
        nodes = fast_ab.NO_NODE_LIMIT if spec.nodes is None else spec.nodes
        move = int(fast_ab.timed_search(engine.to_array(state), spec.depth, nodes, seconds,
                                        engine.scoring_code(state.scoring), spec.order,
                                        self._weights, self._workspace, self._out))
        value, depth, visited = (int(v) for v in self._out[1:4])
        verdict = None
        if abs(value) >= fast_ab.PROVEN:
            verdict = "win" if value > 0 else "loss"
        self.last = AlphaBetaInfo(move, value, depth, visited, time.perf_counter() - start,
                                  verdict)
        self.moves_chosen += 1
        return move


_warmed_up = False


def warm_up() -> None:
    """Load (or compile) the compiled search once per process, outside any move's clock."""
    global _warmed_up
    if _warmed_up:
        return
    out = np.zeros(4, dtype=np.int64)
    fast_ab.search(engine.to_array(UltimateTicTacToe().play(40)), 2, fast_ab.NO_NODE_LIMIT,
                   fast_ab.NO_DEADLINE, 0, True, fast_ab.weights_array(),
                   *fast_ab.new_workspace(), out)
    _warmed_up = True
