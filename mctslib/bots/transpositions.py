"""Arena players for the transposition experiments: UCT on a tree or on a DAG (numba).

Chapter "Enhancements that matter". :class:`DagSpec` is a frozen description
of a player, called like a factory ``spec(seed=generator)`` by
:func:`mctslib.play.arena.play_match` to build a fresh :class:`DagBot` for
each game (as :class:`mctslib.bots.uttt.BotSpec`). The bot plays Connect Four
(:class:`~mctslib.games.connect_four.ConnectFour`) or Ultimate Tic-Tac-Toe
(:class:`~mctslib.games.uttt.UltimateTicTacToe`) with
:mod:`mctslib.fast.dag_uct` / :mod:`mctslib.fast.uttt_dag`: each move it
empties its pool, searches from the position, and plays the root move with
the most edge visits (the first in graph order on ties). ``table=False``
runs the same kernel as a plain tree, so tree and DAG differ in the
transposition table alone.

Budgets: ``iterations`` per move (reproducible game for game), or ``ms``
milliseconds per move on the clock (iterations run in chunks of
:data:`CHUNK`; the clock is read between chunks).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from .._checks import check_bool, check_choice, check_int, check_real
from ..fast import connect_four as fast_c4
from ..fast import dag_uct, uttt_dag
from ..fast import uttt as fast_uttt
from ..fast.xorshift import new_rng
from ..games.connect_four import ConnectFour
from ..games.uttt import SCORINGS, UltimateTicTacToe
from ..rng import make_rng

#: The games the bots play.
GAMES = ("connect_four", "uttt")
#: The most iterations per move.
MAX_ITERATIONS = 10_000_000
#: The most milliseconds per move (a minute).
MAX_MS = 60_000.0
#: The largest pool, in nodes (about 100 bytes a node with its edges; within the kernels'
#: 32-bit indices, :data:`mctslib.fast.dag_uct.MAX_CAPACITY`).
MAX_CAPACITY = 20_000_000
#: Nodes per iteration the default pool allows: Connect Four adds at most 7 nodes per
#: iteration, so 7 never fills; UTTT adds up to 81 but about 2.3 on average (measured by
#: the memory experiment); :attr:`DagBot.full_searches` counts searches that filled the pool.
NODES_PER_ITERATION = {"connect_four": 7, "uttt": 16}
#: Pool size for a time budget.
TIMED_CAPACITY = 4_000_000
#: Iterations between two readings of the clock with a time budget.
CHUNK = 256


@dataclass(frozen=True)
class DagSpec:
    """A tree or DAG UCT player; call it with ``seed=...`` for a fresh :class:`DagBot`.

    Attributes
    ----------
    game : {"connect_four", "uttt"}
    table : bool
        True: transposition table (a DAG); False: a plain tree.
    rule : {"uct1", "uct2", "uct3", "naive"}
        The update rule (:mod:`mctslib.search.transpositions`); "uct2" by default.
    c : float
        Exploration constant, 0 to 100.
    iterations : int or None
        Iterations per move (1 to :data:`MAX_ITERATIONS`), or None with ``ms``.
    ms : float or None
        Milliseconds per move (above 0, at most :data:`MAX_MS`), or None with ``iterations``.
    capacity : int or None
        Nodes in the pool (100 to :data:`MAX_CAPACITY`); None: enough for the
        budget (:data:`NODES_PER_ITERATION` per iteration, or :data:`TIMED_CAPACITY`).
    scoring : {"codingame", "openspiel"}
        UTTT's scoring of a game that ends with every board closed (ignored for Connect Four).
    """

    game: str = "connect_four"
    table: bool = True
    rule: str = "uct2"
    c: float = math.sqrt(2.0)
    iterations: int | None = 10_000
    ms: float | None = None
    capacity: int | None = None
    scoring: str = "codingame"

    def __post_init__(self):
        set_ = lambda name, value: object.__setattr__(self, name, value)
        set_("game", check_choice("game", self.game, GAMES))
        set_("table", check_bool("table", self.table))
        set_("rule", check_choice("rule", self.rule, dag_uct.RULES))
        set_("c", check_real("c (the exploration constant)", self.c, 0.0, 100.0))
        if (self.iterations is None) == (self.ms is None):
            raise ValueError("give exactly one budget: iterations (per move) or ms (milliseconds "
                             f"per move); got iterations={self.iterations!r}, ms={self.ms!r}.")
        if self.iterations is not None:
            set_("iterations", check_int("iterations (per move)", self.iterations, 1,
                                         MAX_ITERATIONS))
        else:
            ms = check_real("ms (milliseconds per move)", self.ms, 0.0, MAX_MS)
            if ms == 0.0:
                raise ValueError(f"ms (milliseconds per move) must be above 0 and at most "
                                 f"{MAX_MS:g}, got 0.")
            set_("ms", ms)
        if self.capacity is not None:
            set_("capacity", check_int("capacity (nodes in the pool)", self.capacity, 100,
                                       MAX_CAPACITY))
        set_("scoring", check_choice("scoring", self.scoring, SCORINGS))

    @property
    def nodes(self) -> int:
        """The pool's capacity in nodes."""
        if self.capacity is not None:
            return self.capacity
        if self.iterations is None:
            return TIMED_CAPACITY
        return min(MAX_CAPACITY, NODES_PER_ITERATION[self.game] * self.iterations + 100)

    def __call__(self, seed=None) -> DagBot:
        """A fresh player whose xorshift64 stream is drawn from ``seed`` (what the arena calls)."""
        return DagBot(self, seed)

    def describe(self) -> str:
        """One line: game, tree or DAG, rule, c and budget."""
        budget = (f"{self.iterations} iterations" if self.iterations is not None
                  else f"{self.ms:g} ms")
        kind = f"DAG ({self.rule})" if self.table else "tree"
        return f"{self.game} UCT {kind}, c = {self.c:g}, {budget} a move"


class DagBot:
    """A player built by :class:`DagSpec`: ``choose(state)`` searches and answers a move.

    After each move, ``last_nodes``, ``last_edges``, ``last_transpositions``
    and ``last_iterations`` describe its search; ``full_searches`` counts the
    searches whose pool filled (they stopped growing).
    """

    def __init__(self, spec: DagSpec, seed=None):
        if not isinstance(spec, DagSpec):
            raise ValueError(f"spec must be a DagSpec, got {type(spec).__name__}.")
        self.spec = spec
        rng = new_rng(int(make_rng(seed).integers(2**63)))
        if spec.game == "connect_four":
            self.engine = dag_uct.ConnectFourDag(spec.nodes, spec.table, spec.rule, spec.c, rng)
            self._state_type, self._to_array = ConnectFour, fast_c4.to_array
        else:
            self.engine = uttt_dag.UTTTDag(spec.nodes, spec.table, spec.rule, spec.c,
                                           fast_uttt.scoring_code(spec.scoring), rng)
            self._state_type, self._to_array = UltimateTicTacToe, fast_uttt.to_array
        self.full_searches = 0
        self.last_nodes = self.last_edges = self.last_transpositions = self.last_iterations = 0

    def search(self, state) -> int:
        """Search ``state`` afresh within the budget; return the iterations run."""
        if not isinstance(state, self._state_type):
            raise ValueError(f"state must be a {self._state_type.__name__} position for this "
                             f"{self.spec.game} bot, got {type(state).__name__}.")
        if state.is_terminal():
            raise ValueError("cannot search a finished game: there is no move to choose.")
        engine, pool = self.engine, self.engine.pool
        engine.reset()
        s = self._to_array(state)
        if self.spec.iterations is not None:
            done = engine.run(s, self.spec.iterations)
        else:
            deadline = time.perf_counter() + self.spec.ms / 1000.0
            done = 0
            while True:
                done += engine.run(s, CHUNK)
                if time.perf_counter() >= deadline:
                    break
        self.last_iterations = done
        self.last_nodes, self.last_edges = pool.nodes, pool.edges
        self.last_transpositions = pool.transpositions
        if pool.nodes + 81 > pool.capacity or pool.edges + 81 > pool.edge_capacity:
            self.full_searches += 1
        return done

    def choose(self, state):
        """Search ``state`` and answer the root move with the most edge visits."""
        self.search(state)
        return self.engine.pool.best_move()


__all__ = ["CHUNK", "GAMES", "MAX_CAPACITY", "MAX_ITERATIONS", "MAX_MS", "NODES_PER_ITERATION",
           "TIMED_CAPACITY", "DagBot", "DagSpec"]
