"""RAVE and GRAVE: UCT that also credits moves played later (chapter "Enhancements that matter").

A playout tells more than the value of its first move. In Hex, a cell that
wins when taken now usually also wins when taken three moves later, so every
cell a player took during a won simulation earned a little credit. *All moves
as first* (AMAF) keeps that credit, and *rapid action value estimation*
(RAVE; Gelly and Silver 2007, 2011) blends it into the tree's values:

* **AMAF statistics.** Each node keeps, for every move, the number of
  simulations through the node in which the player to move at the node
  played that move at any later point (the move out of the node, the rest of
  the tree path, or the playout) and that player's total reward in them.
  Convention: only the *first* time a move is played in the rest of the
  simulation counts, and it counts for the player who played it then. If the
  opponent took the move first, the node's player gets no credit for it, even
  if the move comes round again later; each move counts at most once per
  simulation. In games where a move can be played only once (Hex, tic-tac-toe,
  Ultimate tic-tac-toe: a move is a cell) the convention changes nothing; in
  games where moves repeat (the columns of Connect Four, the takes of the
  subtraction game) it decides which player is credited. A node keeps both
  players' credit (keyed ``(player, move)``): RAVE reads only the player to
  move, GRAVE may read an ancestor where the other player was to move.
* **Blended value.** A child is scored by
  ``(1 - beta) * Q + beta * AMAF + c * sqrt(ln N / n)``, with ``Q`` its mean,
  ``AMAF`` the AMAF mean of its move, ``n`` its visits, ``N`` the parent's.
  ``beta`` starts at 1 (nothing but AMAF) and falls to 0 as real visits grow,
  so AMAF's bias (a move's value does depend on when it is played) is
  blended out. Two schedules (Gelly and Silver 2011):

  - ``"mse"`` (default), the minimum mean-squared-error schedule that the
    2011 paper derives and found stronger than the hand-selected one:
    ``beta = n_amaf / (n + n_amaf + 4 b^2 n n_amaf)``, where ``b`` is the RAVE
    bias (how far AMAF values sit from the real ones; tuned per game);
    :func:`mse_beta`.
  - ``"hand"``, the hand-selected schedule with an equivalence parameter
    ``k``: ``beta = sqrt(k / (3 N + k))``, ``N`` the visits of the node that
    chooses (so ``beta = 1/2`` after ``k`` visits); :func:`hand_beta`.

* **GRAVE** (Cazenave 2015) reads the AMAF statistics of the closest node on
  the path (the choosing node or an ancestor) with more than ``ref``
  visits, instead of the node's own: deep in the tree a node has few
  simulations, and an ancestor's AMAF values are better informed.
  ``ref=0`` is RAVE. Cazenave's ``bias`` constant is ``4 b^2`` here.

The exploration term ``c`` is a parameter, 0 by default: Gelly and Silver
(2011) found MC-RAVE, without exploration, stronger than UCT-RAVE in MoGo,
and Cazenave's GRAVE has none either. The price: a move that neither its AMAF
mean nor its first visits favour may never be tried again, so RAVE with
``c = 0`` can miss a single winning move that UCT finds (tic-tac-toe shows
it; ``tests/test_rave.py``); a small ``c`` removes that. With ``c > 0`` an unvisited child has an
infinite bonus and is tried first, as in UCT; with ``c = 0`` an unvisited
child is scored by its AMAF mean alone (as if ``beta = 1``, which the
``"mse"`` formula gives by itself at ``n = 0``), and one with no AMAF
statistics yet, or under a schedule that gives AMAF no weight, is tried
first. With ``schedule="hand", equivalence=0`` (``beta`` always 0) the search
is plain UCT, draw for draw: the AMAF bookkeeping takes no random numbers, so
the tree equals :class:`~mctslib.search.uct.UCTSearch`'s for the same seed.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass

from .._checks import check_choice, check_int, check_real
from ..games.base import GameState, check_player
from .uct import MAX_ITERATIONS, ChildStats, Node, UCTSearch

#: The beta schedules: minimum MSE (default) and hand-selected (Gelly and Silver 2011).
SCHEDULES = ("mse", "hand")
#: Which AMAF table a node reads: its own (RAVE) or a well-visited ancestor's (GRAVE).
VARIANTS = ("rave", "grave")
#: Defaults, starting points to tune per game (the chapter does): the RAVE bias b of
#: the "mse" schedule, the equivalence k of the "hand" schedule, GRAVE's ref.
DEFAULT_BIAS, DEFAULT_EQUIVALENCE, DEFAULT_REF = 0.1, 1000.0, 50


class AMAFStats:
    """AMAF counts of one move for one player at one node: simulations and reward."""

    __slots__ = ("visits", "wins")

    def __init__(self):
        self.visits = 0
        self.wins = 0.0

    @property
    def mean(self) -> float:
        """Average reward of the simulations that credited the move (nan if none)."""
        return self.wins / self.visits if self.visits else math.nan

    def __repr__(self) -> str:
        return f"AMAFStats(visits={self.visits}, wins={self.wins})"


def mse_beta(visits: int, amaf_visits: int, bias: float) -> float:
    """The minimum-MSE weight of AMAF: ``n_amaf / (n + n_amaf + 4 b^2 n n_amaf)``.

    Gelly and Silver (2011), "minimum MSE schedule": ``visits`` is the
    child's real visits ``n``, ``amaf_visits`` its AMAF count ``n_amaf``,
    ``bias`` the RAVE bias ``b`` in [0, 1]. 1 with no real visits, falling
    towards 0 as they grow (like ``1 / (4 b^2 n)`` once ``n`` is large);
    0 when there are no AMAF statistics. Chapter "Enhancements that matter".
    """
    visits = check_int("visits", visits, 0)
    amaf_visits = check_int("amaf_visits", amaf_visits, 0)
    return _mse_beta(visits, amaf_visits, check_real("bias (b)", bias, 0.0, 1.0))


def _mse_beta(visits: int, amaf_visits: int, bias: float) -> float:
    if amaf_visits == 0:
        return 0.0  # nothing to blend in
    return amaf_visits / (visits + amaf_visits + 4.0 * bias * bias * visits * amaf_visits)


def hand_beta(parent_visits: int, equivalence: float) -> float:
    """The hand-selected weight of AMAF: ``sqrt(k / (3 N + k))``.

    Gelly and Silver (2011), "hand-selected schedule": ``parent_visits`` is
    ``N``, the visits of the node that chooses; ``equivalence`` is ``k >= 0``,
    the visits at which real and AMAF values weigh the same (``beta = 1/2``).
    1 at ``N = 0``, falling like ``sqrt(k / 3N)``; always 0 when ``k = 0``
    (RAVE switched off). Chapter "Enhancements that matter".
    """
    parent_visits = check_int("parent_visits", parent_visits, 0)
    return _hand_beta(parent_visits, check_real("equivalence (k)", equivalence, 0.0))


def _hand_beta(parent_visits: int, equivalence: float) -> float:
    if equivalence == 0.0:
        return 0.0
    return math.sqrt(equivalence / (3.0 * parent_visits + equivalence))


_NO_STATS: dict = {}


class RAVERule:
    """Selection by the blended value; the ``selection`` of a :class:`RAVESearch`.

    ``tables`` maps each node to its AMAF table ``{(player, move): AMAFStats}``
    (the search fills it); ``ref`` is None for RAVE (the node's own table)
    or GRAVE's threshold. The first strictly highest score wins, in tree order.
    """

    def __init__(self, tables: dict, exploration: float = 0.0, schedule: str = "mse",
                 bias: float = DEFAULT_BIAS, equivalence: float = DEFAULT_EQUIVALENCE,
                 ref: int | None = None):
        if not isinstance(tables, dict):
            raise ValueError(f"tables must be a dict node -> AMAF table, got "
                             f"{type(tables).__name__}.")
        self.tables = tables
        self.c = check_real("exploration (the constant c)", exploration, 0.0)
        self.schedule = check_choice("schedule", schedule, SCHEDULES)
        self.bias = check_real("bias (b)", bias, 0.0, 1.0)
        self.equivalence = check_real("equivalence (k)", equivalence, 0.0)
        self.ref = None if ref is None else check_int("ref", ref, 0, MAX_ITERATIONS)

    def reference(self, node: Node) -> Node:
        """Whose AMAF table ``node`` reads: itself (RAVE), or for GRAVE the closest of
        itself and its ancestors with more than ``ref`` visits (the root if none has)."""
        return self._reference(_node("node", node))

    def _reference(self, node: Node) -> Node:
        if self.ref is None:
            return node
        while node.visits <= self.ref and node.parent is not None:
            node = node.parent
        return node

    def beta(self, child: Node, parent: Node, amaf_visits: int) -> float:
        """The weight of AMAF in ``child``'s value under this rule's schedule, given the
        AMAF count ``amaf_visits`` of its move (0 when there is no AMAF count)."""
        _node("child", child), _node("parent", parent)
        return self._beta(child, parent, check_int("amaf_visits", amaf_visits, 0))

    def _beta(self, child: Node, parent: Node, amaf_visits: int) -> float:
        if self.schedule == "mse":
            return _mse_beta(child.visits, amaf_visits, self.bias)
        return _hand_beta(parent.visits, self.equivalence) if amaf_visits else 0.0

    def amaf(self, child: Node, parent: Node) -> AMAFStats | None:
        """The AMAF statistics the rule reads for the move into ``child`` (None if none)."""
        _node("child", child)
        table = self.tables.get(self._reference(_node("parent", parent)), _NO_STATS)
        return table.get((child.mover, child.move))

    def value(self, child: Node, parent: Node) -> float:
        """The score selection compares: blended value plus exploration; inf = try first."""
        amaf = self.amaf(child, parent)
        if child.parent is not parent or not parent.visits:
            raise ValueError("child must be a child of parent, and parent must have been "
                             "visited, to be scored.")
        return self._score(child, parent, amaf, math.log(parent.visits))

    def _score(self, child: Node, parent: Node, amaf: AMAFStats | None,
               log_parent: float) -> float:
        amaf_visits = 0 if amaf is None else amaf.visits
        n = child.visits
        if n == 0:
            # No mean of its own: UCB1's infinite bonus when c > 0; else AMAF stands in
            # alone, if the schedule gives it any weight and there is any.
            if self.c > 0.0 or self._beta(child, parent, amaf_visits) == 0.0:
                return math.inf
            return amaf.wins / amaf_visits
        beta = self._beta(child, parent, amaf_visits)
        value = child.wins / n
        if beta > 0.0:  # with beta = 0 the score is UCB1's, operation for operation
            value = (1.0 - beta) * value + beta * (amaf.wins / amaf_visits)
        return value + self.c * math.sqrt(log_parent / n)

    def __call__(self, node: Node) -> Node:
        try:
            # Every child was made by the player to move at the node: its table is read.
            table = self.tables.get(self._reference(node), _NO_STATS)
            log_parent = math.log(node.visits)
            best, best_score = None, -math.inf
            for child in node.children:
                score = self._score(child, node, table.get((child.mover, child.move)),
                                    log_parent)
                if score > best_score:
                    best, best_score = child, score
        except (AttributeError, TypeError, ValueError):
            best = None
        if best is None:
            raise _unscorable(node)
        return best


def _node(name: str, node) -> Node:
    if not isinstance(node, Node):
        raise ValueError(f"{name} must be a Node of a search tree, got {type(node).__name__}.")
    return node


def _unscorable(node) -> ValueError:
    if not isinstance(node, Node):
        return ValueError(f"node must be a Node of a search tree, got {type(node).__name__}.")
    return ValueError(f"the RAVE rule needs a node with children and at least one visit, got "
                      f"{len(node.children)} children and {node.visits} visits.")


@dataclass(frozen=True)
class RAVEChildStats(ChildStats):
    """A root child as RAVE sees it: ChildStats plus the AMAF side and the blend."""

    amaf_visits: int
    amaf_mean: float
    beta: float
    value: float


class RAVESearch(UCTSearch):
    """UCT with AMAF statistics blended into selection: RAVE, or GRAVE with ``rave="grave"``.

    Selection, expansion (all children, shuffled), the random playout and
    backpropagation are :class:`~mctslib.search.uct.UCTSearch`'s, with the
    same random draws; RAVE adds the AMAF update after each simulation and
    scores children with :class:`RAVERule`. The answer is the most visited
    root child.

    Parameters
    ----------
    exploration : float
        ``c >= 0`` of the exploration term ``c * sqrt(ln N / n)``; 0 by default
        (MC-RAVE, Gelly and Silver 2011; GRAVE, Cazenave 2015).
    schedule : {"mse", "hand"}
        How ``beta`` falls: minimum MSE (default, with ``bias``) or
        hand-selected (with ``equivalence``); see the module docstring.
    bias : float or None
        The RAVE bias ``b`` in [0, 1] of the ``"mse"`` schedule
        (:data:`DEFAULT_BIAS` if None). Only with ``schedule="mse"``.
    equivalence : float or None
        ``k >= 0`` of the ``"hand"`` schedule (:data:`DEFAULT_EQUIVALENCE` if
        None); 0 switches RAVE off (plain UCT). Only with ``schedule="hand"``.
    iterations, seconds, seed
        The budget and the random source, as for :class:`UCTSearch`.
    rave : {"rave", "grave"}
        Read the choosing node's own AMAF table, or GRAVE's reference node's.
    ref : int or None
        GRAVE's threshold: the closest node on the path with more than ``ref``
        visits lends its table (:data:`DEFAULT_REF` if None; 0 is RAVE). Only
        with ``rave="grave"``.
    """

    def __init__(self, exploration: float = 0.0, schedule: str = "mse",
                 bias: float | None = None, equivalence: float | None = None,
                 iterations: int | None = 1000, seconds: float | None = None, seed=None,
                 rave: str = "rave", ref: int | None = None):
        schedule = check_choice("schedule", schedule, SCHEDULES)
        if schedule == "mse" and equivalence is not None:
            raise ValueError("equivalence (k) belongs to schedule='hand'; the 'mse' schedule "
                             "takes bias (b).")
        if schedule == "hand" and bias is not None:
            raise ValueError("bias (b) belongs to schedule='mse'; the 'hand' schedule takes "
                             "equivalence (k).")
        self.rave = check_choice("rave", rave, VARIANTS)
        if rave == "rave" and ref is not None:
            raise ValueError("ref is GRAVE's threshold: give it with rave='grave' only.")
        if rave == "grave" and ref is None:
            ref = DEFAULT_REF
        #: node -> {(player, move): AMAFStats}; filled by :meth:`update_amaf`, new each search.
        self.amaf: dict[Node, dict[tuple[int, Hashable], AMAFStats]] = {}
        rule = RAVERule(self.amaf, exploration, schedule,
                        DEFAULT_BIAS if bias is None else bias,
                        DEFAULT_EQUIVALENCE if equivalence is None else equivalence, ref)
        super().__init__(exploration, iterations, seconds, seed, selection=rule)

    def search(self, state: GameState) -> Node:
        """Grow a fresh tree (and fresh AMAF tables) from ``state``; return its root."""
        self.amaf.clear()
        return super().search(state)

    def iterate(self, root: Node, state: GameState) -> None:
        """One iteration: UCT's four phases, then the AMAF update along the path."""
        node, state = self.select(root, state)
        node, state = self.expand(node, state, root)
        playout: list[tuple[int, Hashable]] = []
        final = _recorded_playout(state, self.source, playout)
        self.backpropagate(node, final.result(node.mover))
        self.update_amaf(node, playout, final)

    def update_amaf(self, leaf: Node, playout: list, final: GameState) -> None:
        """Credit every node from ``leaf`` up to the root with the moves played after it.

        ``playout`` lists the ``(player, move)`` pairs played from ``leaf`` on;
        ``final`` is the finished game. Walking up, the move into each node is
        the earliest of the moves after its parent, so one dictionary (move ->
        player who played it first) serves every node: each distinct move is
        credited once, to its first player, with that player's reward.
        """
        _node("leaf", leaf)
        if not isinstance(final, GameState) or not final.is_terminal():
            what = "a game still on" if isinstance(final, GameState) else type(final).__name__
            raise ValueError(f"final must be the finished game of the simulation, got {what}.")
        rewards = (final.result(0), final.result(1))
        first_player: dict[Hashable, int] = {}
        try:
            for player, move in reversed(playout):
                if player != 0 and player != 1:
                    raise ValueError
                first_player[move] = player  # an earlier play overwrites a later one
        except (TypeError, ValueError):
            raise ValueError("playout must be a list of (player, move) pairs, as iterate() "
                             "records them.") from None
        node = leaf
        while node is not None:
            if first_player:
                table = self.amaf.setdefault(node, {})
                for move, player in first_player.items():
                    stats = table.get((player, move))
                    if stats is None:
                        stats = table[(player, move)] = AMAFStats()
                    stats.visits += 1
                    stats.wins += rewards[player]
            if node.parent is not None:
                first_player[node.move] = node.mover
            node = node.parent

    def amaf_of(self, node: Node, player: int) -> dict[Hashable, AMAFStats]:
        """``player``'s AMAF statistics at ``node``: move -> AMAFStats (a new dict)."""
        _node("node", node)
        player = check_player(player)
        table = self.amaf.get(node, _NO_STATS)
        return {move: stats for (who, move), stats in table.items() if who == player}

    def root_stats(self) -> list[RAVEChildStats]:
        """Each root child of the last search: visits, mean, bonus, AMAF, beta, value."""
        root = self.root
        if root is None:
            raise ValueError("no search has run yet: call search() or choose() first.")
        rule = self.selection
        rows = []
        for child in root.children:
            amaf = rule.amaf(child, root)
            amaf_visits = 0 if amaf is None else amaf.visits
            bonus = (rule.c * math.sqrt(math.log(root.visits) / child.visits) if child.visits
                     else math.inf)
            rows.append(RAVEChildStats(child.move, child.visits, child.mean, bonus, amaf_visits,
                                       math.nan if amaf is None else amaf.mean,
                                       rule.beta(child, root, amaf_visits),
                                       rule.value(child, root)))
        return rows


def _recorded_playout(state: GameState, source, played: list) -> GameState:
    """UCT's random playout, draw for draw, also noting each ``(player, move)`` in ``played``."""
    moves = state.legal_moves()
    while moves:
        move = moves[source.below(len(moves))]
        played.append((state.player_to_move, move))
        state = state.play(move)
        moves = state.legal_moves()
    return state


__all__ = ["AMAFStats", "RAVEChildStats", "RAVERule", "RAVESearch", "hand_beta", "mse_beta"]
