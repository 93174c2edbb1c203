"""PUCT: tree search guided by a prior and a value (chapter 7, "PUCT and Gumbel").

UCT (the UCT chapter) needs only the rules and a fast random playout. PUCT
(AlphaGo Zero, Silver et al. 2017; AlphaZero, Silver et al. 2018; MuZero,
Schrittwieser et al. 2020) replaces the playout with an *evaluator*: a
function of a position that returns a probability for each legal move (the
prior) and an estimate of the game's value for the player to move. One
iteration (a *simulation*) of :class:`PUCTSearch`:

1. **selection**: from the root, while the node is expanded, descend into the
   child with the highest ``Q(s, a) + U(s, a)``, where

   ``U(s, a) = c(s) * P(s, a) * sqrt(N(s)) / (1 + n(s, a))``,

   ``P`` the prior of the move, ``n(s, a)`` the child's visits and ``N(s)``
   the node's visits. ``N(s)`` counts the node's own expansion as a visit, so
   ``N(s) = 1 + sum_b n(s, b)`` (mctx's count; AlphaGo Zero writes
   ``sum_b n(s, b)``, which differs by one). ``c(s)`` is the constant
   ``c_puct`` (AlphaGo Zero), or AlphaZero's schedule, which MuZero kept
   (``pb_c_base`` given) ``c(s) = c_puct + log((N(s) + pb_c_base + 1) / pb_c_base)``, exactly
   mctx's ``muzero_action_selection`` (where ``c_puct`` is called
   ``pb_c_init``). The prior's bonus decays like ``1 / n``, UCB1's like
   ``sqrt(ln N / n)``;
2. **expansion and evaluation**: the first time the descent steps into a
   child it stops there. A position still on is evaluated once (one call of
   the evaluator) and gets one child per legal move, carrying the move's
   prior, with no visits. A finished position is never evaluated: it is worth
   the game's result for the player to move there (+1 win, 0 draw, -1 loss),
   every time the descent reaches it;
3. **backup**: every node on the path gains a visit and the value, whose sign
   flips at each ply (two-player zero-sum): each node sums values for the
   player to move at it, and a move is worth to the player who chooses it
   minus the value of the position it leads to.

``Q(s, a)`` is the child's mean value for the player who chooses it. Two
ways to score it (``q_transform``):

- ``"plain"`` (AlphaZero): ``Q`` as is, in [-1, 1]; an unvisited child
  scores ``first_play_value`` (0 by default), or, with ``fpu_reduction``
  given, Leela Zero's *first-play-urgency reduction*: the node's own
  evaluation ``v(s)`` (for the player choosing there) minus
  ``fpu_reduction * sqrt(sum of the priors of the visited children)``, so an
  untried move counts as a little worse than the position, and the more of
  the prior's mass has been tried, the worse (Leela Zero works on [0, 1] and
  skips the reduction at a root with noise; here it applies at every node);
- ``"parent_and_siblings"``: mctx's ``qtransform_by_parent_and_siblings``.
  With ``V`` the node's own mean value, ``lo`` and ``hi`` the minimum and
  maximum of ``V`` and the Q of the visited children, a visited child scores
  ``(Q - lo) / max(hi - lo, epsilon)`` and an unvisited one 0 (as if its Q
  were ``lo``).

Root noise (AlphaZero): with ``dirichlet_alpha`` given, the root priors become
``(1 - dirichlet_fraction) * P + dirichlet_fraction * eta``, ``eta`` drawn from
a Dirichlet(alpha, ..., alpha) over the legal moves with the search's own
seeded generator. (mctx draws the noise over all actions and renormalises
after masking the illegal ones.)

Ties: the first highest score in the order of the legal moves wins. mctx
adds ``1e-7`` times a uniform random number to each score instead; with
priors drawn at random exact ties do not happen, and the test against mctx
(``tests/test_puct_mctx.py``) finds the same root visits position for position.

The answer is the most visited root move (the first in move order among
equals); :meth:`PUCTSearch.visit_counts` gives all root visits.
:func:`visit_policy` turns root visits into the policy a self-play game
samples its move from: ``n(a)^(1/temperature)`` normalised (AlphaGo Zero:
temperature 1 for the first 30 moves, then close to 0, the most visited move).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass

import numpy as np

from .._checks import check_choice, check_int, check_real, shown
from ..games.base import GameState, check_game_state
from ..rng import make_rng
from .uct import check_budgets, grow

#: The two ways to score Q (see the module docstring).
Q_TRANSFORMS = ("plain", "parent_and_siblings")
#: The settings of ``mctx.muzero_policy`` (its defaults), as keywords of :class:`PUCTSearch`.
MCTX_OPTIONS = {"c_puct": 1.25, "pb_c_base": 19652.0, "q_transform": "parent_and_siblings",
                "epsilon": 1e-8}
#: How far from 1 the priors may sum (float rounding of a network's softmax).
PRIOR_TOLERANCE = 1e-6


def check_evaluation(priors, value, legal_moves) -> tuple[dict, float]:
    """Return ``(priors, value)`` as a dict of floats and a float, or raise ValueError.

    ``priors`` must be a mapping with every move of ``legal_moves`` and no
    other key, each probability a finite number >= 0, summing to 1 within
    :data:`PRIOR_TOLERANCE`; ``value`` a number in [-1, 1].
    """
    if not isinstance(priors, Mapping):
        raise ValueError(f"priors must be a dict {{legal move: probability}}, got "
                         f"{shown(priors)}.")
    moves = list(legal_moves)
    missing = [move for move in moves if move not in priors]
    if missing:
        raise ValueError(f"priors must give every legal move a probability; missing "
                         f"{shown(missing)} in {shown(priors)}.")
    if len(priors) != len(moves):
        extra = [move for move in priors if move not in set(moves)]
        raise ValueError(f"priors must give probabilities to the legal moves only; "
                         f"{shown(extra)} are not legal (legal: {shown(moves)}).")
    checked = {move: check_real(f"priors[{move!r}]", priors[move], 0.0) for move in moves}
    total = math.fsum(checked.values())
    if abs(total - 1.0) > PRIOR_TOLERANCE:
        raise ValueError(f"priors must sum to 1 over the legal moves (within "
                         f"{PRIOR_TOLERANCE:g}), got a sum of {total!r} for {shown(priors)}.")
    return checked, check_real("value", value, -1.0, 1.0)


def evaluate_checked(evaluator: Callable, state: GameState, legal_moves) -> tuple[dict, float]:
    """``evaluator(state)`` unpacked and checked by :func:`check_evaluation`: ``(priors, value)``.

    Raises ValueError with a sentence if the answer is not a pair, or a pair
    :func:`check_evaluation` refuses. Shared by PUCT and Gumbel MuZero.
    """
    answer = evaluator(state)
    try:
        priors, value = answer
    except (TypeError, ValueError):
        raise ValueError(f"the evaluator must return a pair (priors, value), got "
                         f"{shown(answer)}.") from None
    return check_evaluation(priors, value, legal_moves)


def uniform_evaluator(state: GameState) -> tuple[dict, float]:
    """The evaluator that knows nothing: the same prior for every legal move, value 0."""
    moves = state.legal_moves()
    if not moves:
        raise ValueError("state must be a position still on: a finished game is not evaluated.")
    return {move: 1.0 / len(moves) for move in moves}, 0.0


def random_evaluator(seed: int) -> Callable[[GameState], tuple[dict, float]]:
    """An evaluator whose priors and value are fixed random functions of ``(seed, state)``.

    A stand-in for a network in tests and in the chapter: the same position
    always gets the same answer, on every machine and run. The generator is
    seeded from ``seed`` and a SHA-256 digest of ``repr(state)`` (the games of
    mctslib print every field; Python's ``hash()`` is salted per process and
    would not do). Priors are uniform draws in [0.05, 1) normalised, so every
    legal move keeps some weight and exact ties do not happen; the value is
    uniform in [-1, 1).
    """
    seed = check_int("seed", seed, 0)

    def evaluate(state: GameState) -> tuple[dict, float]:
        moves = state.legal_moves()
        if not moves:
            raise ValueError("state must be a position still on: a finished game is not "
                             "evaluated.")
        digest = hashlib.sha256(repr(state).encode()).digest()
        rng = np.random.default_rng([seed, int.from_bytes(digest[:16], "little")])
        weights = [float(w) for w in rng.uniform(0.05, 1.0, len(moves))]
        total = math.fsum(weights)
        return ({move: w / total for move, w in zip(moves, weights)},
                float(rng.uniform(-1.0, 1.0)))

    return evaluate


class Node:
    """One position in the tree.

    ``prior`` is the probability of ``move`` in the parent's evaluation (after
    root noise at the root's children). ``visits`` and ``value_sum`` count the
    values backed up through the node, *for the player to move at it*; its
    own evaluation is the first. ``outcome`` is the value of a finished
    position for the player to move there (None while the game is on, or
    before the first visit).
    """

    __slots__ = ("children", "evaluation", "move", "outcome", "parent", "prior", "value_sum",
                 "visits")

    def __init__(self, move: Hashable | None, prior: float, parent: Node | None):
        self.move = move
        self.prior = prior
        self.parent = parent
        self.children: list[Node] = []
        self.outcome: float | None = None
        self.evaluation: float | None = None  # the evaluator's value, once expanded
        self.visits = 0
        self.value_sum = 0.0

    @property
    def mean(self) -> float:
        """Mean value for the player to move at this node (nan before the first visit)."""
        return self.value_sum / self.visits if self.visits else math.nan

    @property
    def q(self) -> float:
        """The move's mean value for the player who chose it: minus :attr:`mean`."""
        return -self.mean


@dataclass(frozen=True)
class PUCTChildStats:
    """One root child: its visits, prior, Q for the player at the root, and bonus U."""

    move: Hashable
    visits: int
    prior: float
    mean: float
    bonus: float


class PUCTSearch:
    """A PUCT searcher (see the module docstring for the algorithm).

    Parameters
    ----------
    evaluator : callable(state) -> (priors, value)
        Called once per new position still on: ``priors`` a dict over the
        legal moves summing to 1, ``value`` in [-1, 1] for the player to move
        (checked by :func:`check_evaluation` at every call).
    iterations : int or None
        Simulations per search, from 1 to 10,000,000 (the root's evaluation is
        not one). Give this or ``seconds``.
    seconds : float or None
        Wall-time budget per search (not reproducible: the book uses iterations).
    c_puct : float
        The exploration constant, ``>= 0``; with ``pb_c_base`` it is AlphaZero's and MuZero's
        ``pb_c_init``, the constant part of ``c(s)``.
    pb_c_base : float or None
        None for a constant ``c(s) = c_puct``; else ``> 0``, AlphaZero's (and MuZero's) schedule.
    q_transform : {"plain", "parent_and_siblings"}
        How Q enters the score.
    first_play_value : float
        Q of an unvisited child with ``"plain"``, in [-1, 1].
    fpu_reduction : float or None
        With ``"plain"``: None for ``first_play_value``; else, in [0, 2], an
        unvisited child's Q is the node's own evaluation minus this times the
        square root of the visited children's prior mass (Leela Zero's rule;
        0.25 there on [0, 1] values, so 0.5 on these [-1, 1] ones).
    epsilon : float
        The smallest denominator of ``"parent_and_siblings"``, ``> 0``.
    dirichlet_alpha : float or None
        None: no root noise; else the Dirichlet concentration, ``> 0``
        (AlphaZero: 0.3 for chess, 0.03 for Go).
    dirichlet_fraction : float
        The noise's weight at the root, in [0, 1].
    seed : int, numpy Generator or None
        The generator of the root noise (kept across searches). Nothing else
        is random, so without noise the search is a function of the position.
    """

    def __init__(self, evaluator: Callable, iterations: int | None = 800,
                 seconds: float | None = None, c_puct: float = 1.25,
                 pb_c_base: float | None = None, q_transform: str = "plain",
                 first_play_value: float = 0.0, epsilon: float = 1e-8,
                 dirichlet_alpha: float | None = None, dirichlet_fraction: float = 0.25,
                 seed=None, fpu_reduction: float | None = None):
        if not callable(evaluator):
            raise ValueError(f"evaluator must be a function state -> (priors, value), such as "
                             f"uniform_evaluator, got {shown(evaluator)}.")
        self.evaluator = evaluator
        self.iterations, self.seconds = check_budgets(iterations, seconds)
        self.c_puct = check_real("c_puct", c_puct, 0.0)
        self.pb_c_base = None if pb_c_base is None else _positive("pb_c_base", pb_c_base)
        self.q_transform = check_choice("q_transform", q_transform, Q_TRANSFORMS)
        self.first_play_value = check_real("first_play_value", first_play_value, -1.0, 1.0)
        self.fpu_reduction = (None if fpu_reduction is None
                              else check_real("fpu_reduction", fpu_reduction, 0.0, 2.0))
        if self.fpu_reduction is not None and self.q_transform != "plain":
            raise ValueError(f"fpu_reduction applies to q_transform 'plain' (mctx's transform "
                             f"scores an unvisited child itself), got q_transform "
                             f"{self.q_transform!r}: leave fpu_reduction None.")
        self.epsilon = _positive("epsilon", epsilon)
        self.dirichlet_alpha = (None if dirichlet_alpha is None
                                else _positive("dirichlet_alpha", dirichlet_alpha))
        self.dirichlet_fraction = check_real("dirichlet_fraction", dirichlet_fraction, 0.0, 1.0)
        self.rng = make_rng(seed)
        self.root: Node | None = None

    # -- the search -------------------------------------------------------------------------

    def search(self, state: GameState) -> Node:
        """Evaluate ``state``, add root noise if asked, run the budget's simulations; the root."""
        check_game_state(state)
        if state.is_terminal():
            raise ValueError("cannot search a finished game: there is no move to choose.")
        self.root = root = Node(None, 1.0, None)
        value = self._expand(root, state)
        root.visits, root.value_sum = 1, value  # the root's evaluation is its first visit
        if self.dirichlet_alpha is not None and self.dirichlet_fraction > 0.0:
            self._add_noise(root)
        return grow(self.iterate, root, state, self.iterations, self.seconds)

    def choose(self, state: GameState) -> Hashable:
        """Search ``state`` and answer the most visited root move (first in move order on ties)."""
        root = self.search(state)
        best = root.children[0]
        for child in root.children[1:]:
            if child.visits > best.visits:
                best = child
        return best.move

    def iterate(self, root: Node, state: GameState) -> None:
        """One simulation: select down to a new or finished position, evaluate it, back up."""
        node, path = root, [root]
        while True:
            node = self.select(node)
            mover = state.player_to_move
            state = state.play(node.move)
            path.append(node)
            if node.visits == 0:  # a new position: evaluate it (or score the finished game)
                value = self._expand(node, state, mover)
                break
            if node.outcome is not None:  # a finished game, reached again
                value = node.outcome
                break
        self.backpropagate(path, value)

    def _expand(self, node: Node, state: GameState, mover: int | None = None) -> float:
        """The value of ``node``'s position for its player to move; children made if still on.

        ``mover`` is the player who made the move into ``node`` (None at the root).
        """
        if state.is_terminal():
            # The mover's result, mapped 1/0.5/0 -> 1/0/-1, is minus the value for the player
            # to move here (two players, zero sum).
            node.outcome = -(2.0 * state.result(mover) - 1.0)
            return node.outcome
        moves = state.legal_moves()
        priors, value = evaluate_checked(self.evaluator, state, moves)
        node.children = [Node(move, priors[move], node) for move in moves]
        node.evaluation = value
        return value

    def _add_noise(self, root: Node) -> None:
        noise = self.rng.dirichlet([self.dirichlet_alpha] * len(root.children))
        weight = self.dirichlet_fraction
        for child, eta in zip(root.children, noise):
            child.prior = (1.0 - weight) * child.prior + weight * float(eta)

    def backpropagate(self, path: list[Node], value: float) -> None:
        """Add a visit and the value to every node of ``path``, flipping the sign at each ply.

        ``value`` is for the player to move at the last node of the path.
        """
        for node in reversed(path):
            node.visits += 1
            node.value_sum += value
            value = -value

    # -- the selection rule -----------------------------------------------------------------

    def exploration(self, node: Node) -> float:
        """``c(s)`` at ``node``: ``c_puct``, or AlphaZero's schedule when ``pb_c_base`` is set."""
        if self.pb_c_base is None:
            return self.c_puct
        return self.c_puct + math.log((node.visits + self.pb_c_base + 1.0) / self.pb_c_base)

    def scores(self, node: Node) -> list[tuple[float, float]]:
        """``(Q term, U term)`` of every child of ``node``, in child order."""
        c = self.exploration(node)
        # mctx's order of operations: sqrt(N) * c * P / (n + 1).
        bonus = [math.sqrt(node.visits) * c * child.prior / (child.visits + 1)
                 for child in node.children]
        return list(zip(self._q_terms(node), bonus))

    def _q_terms(self, node: Node) -> list[float]:
        if self.q_transform == "plain":
            return [child.q if child.visits else self.unvisited_q(node)
                    for child in node.children]
        # mctx's qtransform_by_parent_and_siblings: min-max over the node's own value and the
        # visited children's Q; an unvisited child sits at the minimum, i.e. scores 0.
        visited = [child.q for child in node.children if child.visits]
        low = min([node.mean, *visited])
        high = max([node.mean, *visited])
        scale = max(high - low, self.epsilon)
        return [(child.q - low) / scale if child.visits else 0.0 for child in node.children]

    def unvisited_q(self, node: Node) -> float:
        """Q of an unvisited child of ``node`` under ``"plain"``: the first-play value or rule."""
        if self.fpu_reduction is None:
            return self.first_play_value
        tried = math.fsum(child.prior for child in node.children if child.visits)
        return node.evaluation - self.fpu_reduction * math.sqrt(tried)

    def select(self, node: Node) -> Node:
        """The child with the highest ``Q + U``; the first in move order among equals."""
        best, best_score = None, -math.inf
        for child, (q, u) in zip(node.children, self.scores(node)):
            if q + u > best_score:
                best, best_score = child, q + u
        return best

    # -- the answer -------------------------------------------------------------------------

    def visit_counts(self) -> dict:
        """``{move: visits}`` at the root of the last search, in move order."""
        return {child.move: child.visits for child in self._last_root().children}

    def root_stats(self) -> list[PUCTChildStats]:
        """Visits, prior, Q (for the player at the root) and U of every root child, in move order.

        U is the bonus at the root's final visit count; Q is nan for an unvisited child.
        """
        root = self._last_root()
        return [PUCTChildStats(child.move, child.visits, child.prior, child.q, u)
                for child, (_, u) in zip(root.children, self.scores(root))]

    def _last_root(self) -> Node:
        if self.root is None:
            raise ValueError("no search has run yet: call search() or choose() first.")
        return self.root


def visit_policy(visits: Mapping, temperature: float = 1.0) -> dict:
    """``{move: probability}`` proportional to ``visits[move] ** (1 / temperature)``.

    The move a self-play game plays is drawn from it (AlphaGo Zero and
    AlphaZero: temperature 1 for the first 30 moves, so that games differ,
    then the most visited move). ``temperature`` 0 gives the most visited
    moves, sharing the probability equally among equals; otherwise it must be
    in (0, 100]. ``visits`` maps moves to visit counts (at least one above 0).
    """
    if not isinstance(visits, Mapping) or not visits:
        raise ValueError(f"visits must be a non-empty dict {{move: visits}}, got {shown(visits)}.")
    counts = {move: check_int(f"visits[{move!r}]", n) for move, n in visits.items()}
    if not any(counts.values()):
        raise ValueError(f"visits must have at least one move with visits, got {shown(visits)}.")
    temperature = check_real("temperature", temperature, 0.0, 100.0)
    if temperature == 0.0:
        top = max(counts.values())
        best = [move for move, n in counts.items() if n == top]
        return {move: (1.0 / len(best) if move in best else 0.0) for move in counts}
    # Powers relative to the largest count: no overflow for small temperatures.
    top = max(counts.values())
    weights = {move: (n / top) ** (1.0 / temperature) for move, n in counts.items()}
    total = math.fsum(weights.values())
    return {move: weight / total for move, weight in weights.items()}


def _positive(name: str, value) -> float:
    number = check_real(name, value)
    if number <= 0.0:
        raise ValueError(f"{name} must be a number > 0, got {shown(value)}.")
    return number


__all__ = ["MCTX_OPTIONS", "Q_TRANSFORMS", "Node", "PUCTChildStats", "PUCTSearch",
           "check_evaluation", "random_evaluator", "uniform_evaluator", "visit_policy"]
