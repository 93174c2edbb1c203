"""An arena player for UTTT: K simulated workers on one UCT tree with virtual loss (chapter 7).

Chapter 7b, "Parallel search". :class:`VirtualLossSpec` is a
frozen description of a player, called like a factory ``spec(seed=generator)``
by :func:`mctslib.play.arena.play_match` to build a fresh
:class:`VirtualLossBot` for each game (as
:class:`mctslib.bots.transpositions.DagSpec`). Each move the bot empties its
pool, runs :func:`mctslib.fast.uttt_virtual_loss.search` from the position
(``iterations`` in all, in rounds of ``workers``) and plays the most visited
root move (the first in tree order on ties). ``workers=1`` is the plain UCT
of :mod:`mctslib.fast.uttt_uct`, so a match of K workers against 1 at the same
iterations measures the search overhead of K workers, nothing else.

``scheme="root"`` is the model's root parallelism (Chaslot, Winands and van
den Herik 2008): K independent trees, worker ``k`` running ``iterations // K``
iterations (one more for the first ``iterations % K`` workers) on its own
xorshift64 stream, one after the other on one thread; the answer is the move
with the most visits summed over the K roots (the first in worker 0's tree
order on ties). Its streams are drawn as :class:`mctslib.bots.parallel.ParallelBot`
draws its workers', so for the same seed it plays that bot's root-parallel
move without threads (a test). At equal ``iterations`` the two schemes do the
same work, which K equal-speed workers do in the same time.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._checks import check_bool, check_choice, check_int, check_real
from ..fast import uttt as fast_uttt
from ..fast import uttt_virtual_loss as engine
from ..fast.xorshift import new_rng
from ..games.uttt import SCORINGS, UltimateTicTacToe
from ..rng import make_rng
from ..search.parallel import KINDS, MAX_VIRTUAL_LOSS, SCHEDULES
from ..xorshift import XorShift64

#: The most iterations per move.
MAX_ITERATIONS = 10_000_000
#: The largest pool, in nodes (29 bytes each).
MAX_CAPACITY = 50_000_000
#: Nodes per iteration the default pool allows (UTTT adds about 2.3 on average, at most 81;
#: as :data:`mctslib.bots.transpositions.NODES_PER_ITERATION`). A full pool stops growing,
#: the search goes on; :attr:`VirtualLossBot.full_searches` counts such searches.
NODES_PER_ITERATION = 16
#: The default exploration constant (the UTTT chapter's, rewards 1 / 0.5 / 0).
DEFAULT_C = 0.5
#: One shared tree (with virtual loss) or K independent trees.
SCHEMES = ("tree", "root")


@dataclass(frozen=True)
class VirtualLossSpec:
    """A K-worker UCT player for UTTT; call it with ``seed=...`` for a fresh bot.

    Attributes
    ----------
    workers : int
        Simulated workers per round, 1 to 1,024 (1: sequential UCT).
    virtual_loss : int
        Extra visits per in-flight worker on each node of its path, 0 to 1,000,000.
    kind : {"loss", "draw"}
        Each extra visit a loss (the default) or a draw
        (:data:`mctslib.search.parallel.KINDS`).
    iterations : int
        Iterations per move in all workers together, 1 to :data:`MAX_ITERATIONS`.
    c : float
        Exploration constant, 0 to 100 (0.5: the UTTT chapter's).
    wins : bool
        Win-taking playouts (else uniformly random).
    scoring : {"codingame", "openspiel"}
        UTTT's scoring of a game that ends with every board closed.
    capacity : int or None
        Nodes in the pool (100 to :data:`MAX_CAPACITY`); None:
        :data:`NODES_PER_ITERATION` per iteration.
    schedule : {"lockstep", "staggered"}
        Tree scheme: when the workers' playouts land
        (:data:`mctslib.search.parallel.SCHEDULES`).
    scheme : {"tree", "root"}
        One shared tree, or K independent trees of ``iterations / K`` each
        (then ``virtual_loss`` must be 0 and ``schedule`` "lockstep").
    """

    workers: int = 1
    virtual_loss: int = 1
    kind: str = "loss"
    iterations: int = 10_000
    c: float = DEFAULT_C
    wins: bool = False
    scoring: str = "codingame"
    capacity: int | None = None
    schedule: str = "lockstep"
    scheme: str = "tree"

    def __post_init__(self):
        set_ = lambda name, value: object.__setattr__(self, name, value)
        set_("workers", check_int("workers", self.workers, 1, engine.MAX_WORKERS))
        set_("virtual_loss", check_int("virtual_loss (visits)", self.virtual_loss, 0,
                                       MAX_VIRTUAL_LOSS))
        set_("kind", check_choice("kind (of virtual loss)", self.kind, tuple(KINDS)))
        set_("iterations", check_int("iterations (per move)", self.iterations, 1,
                                     MAX_ITERATIONS))
        set_("c", check_real("c (the exploration constant)", self.c, 0.0, 100.0))
        set_("wins", check_bool("wins (win-taking playouts)", self.wins))
        set_("scoring", check_choice("scoring", self.scoring, SCORINGS))
        if self.capacity is not None:
            set_("capacity", check_int("capacity (nodes in the pool)", self.capacity, 100,
                                       MAX_CAPACITY))
        set_("schedule", check_choice("schedule", self.schedule, SCHEDULES))
        set_("scheme", check_choice("scheme", self.scheme, SCHEMES))
        if self.scheme == "root" and (self.virtual_loss or self.schedule != "lockstep"):
            raise ValueError(f"scheme 'root' has K separate trees, so no virtual loss and no "
                             f"schedule: give virtual_loss=0 and schedule='lockstep', got "
                             f"virtual_loss={self.virtual_loss}, schedule={self.schedule!r}.")
        if self.scheme == "root" and self.workers > self.iterations:
            raise ValueError(f"scheme 'root' needs at least one iteration per tree: workers "
                             f"must be at most iterations ({self.iterations}), got "
                             f"{self.workers}.")

    @property
    def nodes(self) -> int:
        """The pool's capacity in nodes (root scheme: of the largest of the K trees)."""
        if self.capacity is not None:
            return self.capacity
        per_tree = self.iterations if self.scheme == "tree" else -(-self.iterations // self.workers)
        return min(MAX_CAPACITY, NODES_PER_ITERATION * per_tree + 100)

    def __call__(self, seed=None) -> VirtualLossBot:
        """A fresh player whose xorshift64 stream is drawn from ``seed`` (what the arena calls)."""
        return VirtualLossBot(self, seed)

    def describe(self) -> str:
        """One line: workers, virtual loss (or root), playouts, c and budget."""
        playouts = "win-taking" if self.wins else "random"
        workers = f"{self.workers} worker{'s' * (self.workers > 1)}"
        if self.scheme == "root":
            how = f"{self.workers} separate tree{'s' * (self.workers > 1)} (root parallelism)"
        else:
            staggered = ", staggered" if self.schedule == "staggered" else ""
            how = f"{workers}, virtual {self.kind} {self.virtual_loss}{staggered}"
        return (f"UTTT UCT, {how}, {playouts} playouts, c = {self.c:g}, "
                f"{self.iterations} iterations a move")


class VirtualLossBot:
    """A player built by :class:`VirtualLossSpec`: ``choose(state)`` searches and answers a move.

    ``seed`` goes through :func:`mctslib.rng.make_rng` and seeds the xorshift64
    stream with ``int(generator.integers(2**63))``; an
    :class:`~mctslib.xorshift.XorShift64` is used as it is (its state copied), which
    gives the trees of :class:`mctslib.search.parallel.ParallelUCTSearch` with the
    same generator. ``last_nodes`` is the pool's use after the last search;
    ``full_searches`` counts the searches whose pool filled.
    """

    def __init__(self, spec: VirtualLossSpec, seed=None):
        if not isinstance(spec, VirtualLossSpec):
            raise ValueError(f"spec must be a VirtualLossSpec, got {type(spec).__name__}.")
        self.spec = spec
        if isinstance(seed, XorShift64):
            if spec.scheme == "root":
                raise ValueError("scheme 'root' draws K streams from a seed: give an int, a "
                                 "SeedSequence or a Generator, not an XorShift64.")
            self.rng = np.array([seed.state], dtype=np.uint64)
        elif spec.scheme == "root":  # K streams, drawn as ParallelBot draws its workers'
            generator = make_rng(seed)
            self.rngs = [new_rng(int(generator.integers(2**63))) for _ in range(spec.workers)]
        else:
            self.rng = new_rng(int(make_rng(seed).integers(2**63)))
        workers = 1 if spec.scheme == "root" else spec.workers
        self.pool, self.work = engine.new_search(workers, spec.nodes)
        self.scoring = fast_uttt.scoring_code(spec.scoring)
        self.full_searches = 0
        self.last_nodes = 0

    def search(self, state: UltimateTicTacToe) -> int:
        """Search ``state`` afresh; return the iterations run."""
        if not isinstance(state, UltimateTicTacToe):
            raise ValueError(f"state must be an UltimateTicTacToe position, got "
                             f"{type(state).__name__}.")
        if state.is_terminal():
            raise ValueError("cannot search a finished game: there is no move to choose.")
        spec, pool = self.spec, self.pool
        s = fast_uttt.to_array(state)
        if spec.scheme == "root":
            return self._root_search(s)
        pool.reset()
        done = engine.search(s, spec.iterations, spec.workers, spec.virtual_loss,
                             KINDS[spec.kind], spec.c, spec.wins, self.scoring, self.rng,
                             pool.used, *pool.arrays(), *self.work.arrays(),
                             spec.schedule == "staggered")
        self.last_nodes = pool.count
        if pool.count + 81 > pool.capacity:
            self.full_searches += 1
        return done

    def _root_search(self, s) -> int:
        """K trees one after the other; their root visits summed into :attr:`root_totals`."""
        spec, pool = self.spec, self.pool
        self.root_totals: dict[int, int] = {}
        self.last_nodes, done = 0, 0
        share, extra = divmod(spec.iterations, spec.workers)
        for k, rng in enumerate(self.rngs):
            pool.reset()
            done += engine.search(s, share + (k < extra), 1, 0, 0.0, spec.c, spec.wins,
                                  self.scoring, rng, pool.used, *pool.arrays(),
                                  *self.work.arrays())
            for child in pool.children(0):  # worker 0's tree order first: its ties win
                move = int(pool.move[child])
                self.root_totals[move] = self.root_totals.get(move, 0) + int(pool.visits[child])
            self.last_nodes += pool.count
            if pool.count + 81 > pool.capacity:
                self.full_searches += 1
        return done

    def choose(self, state: UltimateTicTacToe) -> int:
        """Search ``state`` and answer the most visited root move (first in tree order on ties)."""
        self.search(state)
        if self.spec.scheme == "root":
            totals = self.root_totals
            return max(totals, key=totals.get)  # max keeps the first of equals
        return engine.best_move(self.pool)

__all__ = ["DEFAULT_C", "MAX_CAPACITY", "MAX_ITERATIONS", "NODES_PER_ITERATION", "SCHEMES",
           "VirtualLossBot", "VirtualLossSpec"]
