"""Gumbel MuZero search: planning that improves the policy with few simulations (chapter 7).

The chapter "PUCT and Gumbel: search with a learned prior" (chapter 7) compares this search with PUCT
at 2 to 32 simulations. It is the search of Danihelka, Guez, Schrittwieser and Silver,
"Policy improvement by planning with Gumbel" (ICLR 2022), written for any game of the
:class:`~mctslib.games.GameState` protocol and an evaluator ``evaluator(state) -> (priors,
value)`` (priors a dict {legal move: probability}, value in [-1, 1] for the player to
move). It reproduces DeepMind's ``mctx.gumbel_muzero_policy`` step for step: the test
suite checks equal root visit counts and equal actions over many tic-tac-toe positions.

Every node keeps its moves, their *logits* ``log(prior)``, the evaluator's value of the
position (the *raw value*), its visit count and the running mean of the values backed up
into it, all for the player to move there. The value of a move ``a`` at a node is
``q(a) = -value(child)``: the child's value belongs to the opponent. A finished game is
worth its result for the player to move (+1, 0, -1) and is never expanded.

**Completed Q values** (mctx's ``qtransform_completed_by_mix_value``, the paper's
appendix D). An unvisited move gets the *mixed value*
``(raw + N * sum_b p(b) q(b) / sum_b p(b)) / (N + 1)`` (the sums over visited moves,
``p = softmax(logits)`` floored at the smallest normal float, ``N`` the sum of the
children's visits). With ``rescale_values`` the completed values are mapped to [0, 1] by
``(q - min) / max(max - min, epsilon)``; then
``sigma(q) = (maxvisit_init + max visits) * value_scale * q``.

**One simulation** descends from the root to a move not yet tried, evaluates the position
it leads to, and backs the value up (negated at every level, running means as mctx
keeps them). The descent chooses:

1. at the **root**, by *sequential halving with Gumbel*: before the search, draw one
   Gumbel variable ``g(a)`` per legal move (times ``gumbel_scale``). Let
   ``k = min(max_considered_actions, number of legal moves)``. :func:`considered_visits`
   gives, for simulation ``i``, the visit count ``c_i`` an eligible move must have; among
   the moves with exactly ``c_i`` visits, take the first maximum of
   ``max(-1e9, g(a) + logit(a) - max logit + sigma(q(a)))``. The first ``k`` simulations
   thus try the ``k`` moves of largest ``g + logit`` (the Gumbel-top-k trick: a sample
   without replacement from the prior), and later rounds keep the better half;
2. **inside** the tree, deterministically: the first maximum of
   ``pi'(a) - n(a) / (1 + N)``, where ``pi' = softmax(logits + sigma(q))`` is the
   *improved policy* and ``n(a)`` the visits of move ``a``, so the visit frequencies
   follow ``pi'`` (the paper's section 5).

**The answer**: among the most visited root moves, the first maximum of the root score
above (``g + logit + sigma(q)``), and the improved policy ``softmax(logits + sigma(q))``
at the root, the policy target a learner trains on.

Two choices follow mctx exactly so that the test can demand equality. mctx stores every
node as arrays over a fixed set of ``num_actions`` actions; an illegal action is an
unvisited action there, completed with the mixed value, so it takes part in the min and
max of the rescaling. Give ``num_actions`` (9 for tic-tac-toe) to do the same; the
default ``None`` rescales over the legal moves only. Ties go to the first move in
``state.legal_moves()`` order (mctx: the lowest action index).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass

from .._checks import check_bool, check_int, check_real, is_sequence, shown
from ..games.base import GameState, check_game_state
from ..rng import make_rng
from .puct import evaluate_checked

#: The largest simulation budget per search. Each simulation adds one node, and the
#: readable search runs about 6,000 simulations per second on tic-tac-toe (5,600 to 8,000
#: measured, one core): a million already take about three minutes.
MAX_SIMULATIONS = 1_000_000
#: The largest ``max_considered_actions``: more than any game of the book has moves.
MAX_CONSIDERED = 1_000_000
#: mctx's floor under every root score (``score_considered``'s ``low_logit``), so that a
#: move with prior 0 (logit -inf) can still be chosen when it is the only eligible one.
LOW_LOGIT = -1e9
#: The smallest positive normal float (numpy's ``finfo(float64).tiny``): mctx floors the
#: prior probabilities at it in the mixed value so that a visited move of prior 0 keeps
#: its Q value finite.
TINY = sys.float_info.min


def considered_visits(max_considered: int, simulations: int) -> tuple[int, ...]:
    """The visit count a root move must have to be eligible at each simulation.

    Sequential halving (Karnin, Koren and Somekh 2013) as mctx's ``seq_halving`` lays it
    out: with ``k = max_considered`` moves and ``log2max = ceil(log2 k)`` rounds, each
    phase gives every considered move ``max(1, simulations // (log2max * k_phase))`` more
    visits, then keeps ``max(2, k_phase // 2)`` moves. The entry for simulation ``i`` is
    the visit count the move visited at ``i`` has before it, so choosing among the moves
    with exactly that count visits the moves round by round. With ``k = 1`` the single
    move takes every simulation (``0, 1, 2, ...``). The sequence is cut at
    ``simulations`` entries, so a budget that is not a power of two ends inside a phase.

    Parameters
    ----------
    max_considered : int
        The number of moves considered at the root, from 1 to :data:`MAX_CONSIDERED`.
    simulations : int
        The budget, from 1 to :data:`MAX_SIMULATIONS`.
    """
    k = check_int("max_considered", max_considered, 1, MAX_CONSIDERED)
    n = check_int("simulations", simulations, 1, MAX_SIMULATIONS)
    return _considered_visits(k, n)


def _considered_visits(k: int, n: int) -> tuple[int, ...]:
    if k <= 1:
        return tuple(range(n))
    # ceil(log2 k) on integers: (k - 1).bit_length() equals math.ceil(math.log2(k)) for
    # every k >= 2, without asking a float logarithm to land exactly on whole numbers.
    log2max = (k - 1).bit_length()
    sequence: list[int] = []
    visits = [0] * k
    considered = k
    while len(sequence) < n:
        # mctx writes int(n / (log2max * considered)); floor division is the same for
        # positive ints of this size and avoids the float.
        extra = max(1, n // (log2max * considered))
        for _ in range(extra):
            sequence.extend(visits[:considered])
            for i in range(considered):
                visits[i] += 1
        considered = max(2, considered // 2)
    return tuple(sequence[:n])


def softmax(logits) -> list[float]:
    """``exp(x - max x) / sum exp(x - max x)`` in the order jax.nn.softmax computes it.

    The sum is :func:`math.fsum` (exactly rounded), so the result does not depend on an
    order of summation we do not own.
    """
    top = max(logits)
    weights = [math.exp(x - top) for x in logits]
    total = math.fsum(weights)
    return [w / total for w in weights]


def mixed_value(raw_value: float, qvalues, visits, probs) -> float:
    """The value that completes the Q value of an unvisited move (the paper's appendix D).

    ``(raw_value + N * weighted_q) / (N + 1)`` with ``N = sum(visits)`` and
    ``weighted_q`` the prior-weighted mean of the visited moves' Q values, the priors
    floored at :data:`TINY` and renormalised over the visited moves. With no visit it is
    the raw value. Lists are aligned move by move; the arithmetic keeps mctx's order.
    """
    total_visits = sum(visits)
    floored = [max(TINY, p) for p in probs]
    visited_mass = math.fsum(p for p, n in zip(floored, visits) if n > 0)
    weighted_q = math.fsum(p * q / visited_mass
                           for p, q, n in zip(floored, qvalues, visits) if n > 0)
    return (raw_value + total_visits * weighted_q) / (total_visits + 1)


@dataclass(frozen=True)
class CompletedQ:
    """mctx's ``qtransform_completed_by_mix_value``: a node's ``sigma(completed Q)``.

    Parameters
    ----------
    value_scale : float
        ``c_scale`` of the paper, ``>= 0`` (mctx: 0.1).
    maxvisit_init : float
        ``c_visit`` of the paper, ``>= 0`` (mctx: 50).
    rescale_values : bool
        Map the completed values to [0, 1] by their min and max first (mctx: True).
    use_mixed_value : bool
        Complete with the mixed value (True, mctx's default) or with the raw value.
    epsilon : float
        The smallest denominator of the rescaling, ``> 0`` (mctx: 1e-8).
    num_actions : int or None
        The size of a fixed action space whose illegal actions count as unvisited moves
        in the min and max of the rescaling, as in mctx's arrays; None (the default): the
        legal moves only. Must be at least the number of legal moves of every node.
    """

    value_scale: float = 0.1
    maxvisit_init: float = 50.0
    rescale_values: bool = True
    use_mixed_value: bool = True
    epsilon: float = 1e-8
    num_actions: int | None = None

    def __post_init__(self):
        check_real("value_scale", self.value_scale, 0.0)
        check_real("maxvisit_init", self.maxvisit_init, 0.0)
        check_bool("rescale_values", self.rescale_values)
        check_bool("use_mixed_value", self.use_mixed_value)
        epsilon = check_real("epsilon", self.epsilon, 0.0)
        if epsilon == 0.0:
            raise ValueError("epsilon must be a number > 0 (the smallest denominator of the "
                             "rescaling), got 0.0.")
        if self.num_actions is not None:
            check_int("num_actions", self.num_actions, 1)

    def __call__(self, node: GumbelNode) -> list[float]:
        """``sigma(completed q)`` for each move of ``node``, in the node's move order."""
        if not isinstance(node, GumbelNode) or node.terminal:
            raise ValueError(f"node must be an expanded GumbelNode of a position still on, got "
                             f"{shown(node)}.")
        visits = node.child_visits()
        qvalues = node.qvalues()
        if self.use_mixed_value:
            value = mixed_value(node.raw_value, qvalues, visits, softmax(node.logits))
        else:
            value = node.raw_value
        completed = [q if n > 0 else value for q, n in zip(qvalues, visits)]
        if self.rescale_values:
            low, high = min(completed), max(completed)
            if self.num_actions is not None:
                if len(completed) > self.num_actions:
                    raise ValueError(f"num_actions must be at least the number of legal "
                                     f"moves, got {self.num_actions} for a node with "
                                     f"{len(completed)} moves.")
                if len(completed) < self.num_actions:
                    # The illegal actions of a fixed action space are unvisited actions
                    # completed with ``value``: they widen the range like any other.
                    low, high = min(low, value), max(high, value)
            completed = [(q - low) / max(high - low, self.epsilon) for q in completed]
        # mctx multiplies (maxvisit_init + maxvisit) * value_scale first, then the values.
        scale = (self.maxvisit_init + max(visits)) * self.value_scale
        return [scale * q for q in completed]


class GumbelNode:
    """One position of a Gumbel search tree, its values for the player to move there.

    ``moves`` and ``logits`` list the legal moves and ``log(prior)``; ``children[i]`` is
    the node after ``moves[i]``, or None while that move is untried. ``visits`` counts the
    evaluation that created the node plus every simulation through it; ``value`` is the
    running mean of the values backed up into it (starting with ``raw_value``). A finished
    game (``terminal``) has no moves and keeps its exact result as its value.
    """

    __slots__ = ("children", "logits", "moves", "raw_value", "terminal", "value", "visits")

    def __init__(self, moves, logits, raw_value: float, terminal: bool = False):
        self.moves = list(moves)
        self.logits = list(logits)
        self.children: list[GumbelNode | None] = [None] * len(self.moves)
        self.raw_value = raw_value
        self.value = raw_value
        self.visits = 1
        self.terminal = terminal

    def child_visits(self) -> list[int]:
        """Visits of each move (0 for an untried one), in move order."""
        return [0 if child is None else child.visits for child in self.children]

    def qvalues(self) -> list[float]:
        """``-value(child)`` for each tried move, 0.0 for an untried one (mctx's default)."""
        return [0.0 if child is None else -child.value for child in self.children]


@dataclass(frozen=True)
class GumbelResult:
    """What one search answers.

    ``action`` is the chosen move; ``visits`` and ``policy`` map every legal root move to
    its visit count and its improved-policy probability ``softmax(logits + sigma(q))``;
    ``gumbel`` is the (scaled) noise the root used; ``root`` is the tree.
    """

    action: Hashable
    visits: dict
    policy: dict
    gumbel: dict
    root: GumbelNode


class GumbelMuZeroSearch:
    """Gumbel MuZero search with an evaluator, one tree per call of :meth:`search`.

    Parameters
    ----------
    evaluator : callable
        ``evaluator(state) -> (priors, value)`` for a position still on: priors a dict
        {legal move: probability} summing to 1, value in [-1, 1] for the player to move
        (checked by :func:`mctslib.search.puct.check_evaluation` at every call).
    simulations : int
        Simulations (evaluations) per search, from 1 to :data:`MAX_SIMULATIONS`.
    max_considered_actions : int
        ``m``, the most root moves sampled by Gumbel-top-k, from 1 to
        :data:`MAX_CONSIDERED` (mctx: 16).
    gumbel_scale : float
        Factor on the Gumbel noise, ``>= 0``; 0 makes the search deterministic (mctx's
        advice for evaluation in perfect-information games).
    qtransform : CompletedQ or None
        The completed-Q transform; ``CompletedQ()`` (mctx's defaults) if None.
    seed : int, numpy Generator or None
        Where the Gumbel noise comes from (:func:`mctslib.rng.make_rng`); the search keeps
        its generator, so successive searches draw fresh noise.
    """

    def __init__(self, evaluator: Callable, simulations: int = 32,
                 max_considered_actions: int = 16, gumbel_scale: float = 1.0,
                 qtransform: CompletedQ | None = None, seed=None):
        if not callable(evaluator):
            raise ValueError(f"evaluator must be a function state -> (priors, value), such as "
                             f"uniform_evaluator, got {shown(evaluator)}.")
        self.evaluator = evaluator
        self.simulations = check_int("simulations", simulations, 1, MAX_SIMULATIONS)
        self.max_considered_actions = check_int("max_considered_actions",
                                                max_considered_actions, 1, MAX_CONSIDERED)
        self.gumbel_scale = check_real("gumbel_scale", gumbel_scale, 0.0)
        if qtransform is None:
            qtransform = CompletedQ()
        if not isinstance(qtransform, CompletedQ):
            raise ValueError(f"qtransform must be a CompletedQ or None, got {shown(qtransform)}.")
        self.qtransform = qtransform
        self.rng = make_rng(seed)

    def choose(self, state: GameState) -> Hashable:
        """Search ``state`` and answer the chosen move."""
        return self.search(state).action

    def search(self, state: GameState, gumbel=None) -> GumbelResult:
        """Run the simulations from ``state``; answer the move, visits and improved policy.

        ``gumbel`` replaces the search's own standard Gumbel draws (one per legal move: a
        sequence in ``state.legal_moves()`` order or a dict keyed by move); like the own
        draws it is multiplied by ``gumbel_scale``. A test passes mctx's draws this way.
        """
        check_game_state(state)
        if state.is_terminal():
            raise ValueError("cannot search a finished game: there is no move to choose.")
        root = self._expand(state, None)
        noise = self._root_gumbel(root.moves, gumbel)
        schedule = _considered_visits(min(self.max_considered_actions, len(root.moves)),
                                      self.simulations)
        for _ in range(self.simulations):
            self._simulate(root, state, noise, schedule)
        sigma = self.qtransform(root)
        visits = root.child_visits()
        action = root.moves[_best_considered(root, noise, sigma, visits, max(visits))]
        policy = softmax([logit + s for logit, s in zip(root.logits, sigma)])
        return GumbelResult(action=action, visits=dict(zip(root.moves, visits)),
                            policy=dict(zip(root.moves, policy)),
                            gumbel=dict(zip(root.moves, noise)), root=root)

    def _root_gumbel(self, moves: list, gumbel) -> list[float]:
        if gumbel is None:
            draws = [float(g) for g in self.rng.gumbel(size=len(moves))]
        elif isinstance(gumbel, Mapping):
            if set(gumbel) != set(moves):
                raise ValueError(f"gumbel must have one value per legal move "
                                 f"({', '.join(map(repr, moves))}), got keys "
                                 f"{shown(list(gumbel))}.")
            draws = [gumbel[move] for move in moves]
        elif is_sequence(gumbel) and len(gumbel) == len(moves):
            draws = list(gumbel)
        else:
            raise ValueError(f"gumbel must be None, a dict keyed by the {len(moves)} legal "
                             f"moves or a sequence of {len(moves)} numbers, got "
                             f"{shown(gumbel)}.")
        draws = [check_real("gumbel (each value)", g) for g in draws]
        return [self.gumbel_scale * g for g in draws]

    def _expand(self, state: GameState, mover: int | None) -> GumbelNode:
        """A new node for ``state``, evaluated (or scored, if the game is over)."""
        if state.is_terminal():
            # The result for the mover, on the +1/0/-1 scale; the node's player is the other.
            return GumbelNode((), (), -(2.0 * state.result(mover) - 1.0), terminal=True)
        moves = list(state.legal_moves())
        priors, value = evaluate_checked(self.evaluator, state, moves)
        logits = [math.log(priors[move]) if priors[move] > 0 else -math.inf for move in moves]
        return GumbelNode(moves, logits, value)

    def _simulate(self, root: GumbelNode, state: GameState, noise: list[float],
                  schedule: tuple[int, ...]) -> None:
        """One simulation: descend, expand one move (or reach a finished game), back up."""
        path = [root]
        node = root
        index = self._root_choice(root, noise, schedule)
        while True:
            mover = state.player_to_move
            state = state.play(node.moves[index])
            child = node.children[index]
            if child is None:
                child = node.children[index] = self._expand(state, mover)
                path.append(child)
                break
            path.append(child)
            if child.terminal:
                child.visits += 1  # visited again; its value is exact and stays
                break
            node = child
            index = self._interior_choice(node)
        _backup(path)

    def _root_choice(self, root: GumbelNode, noise: list[float],
                     schedule: tuple[int, ...]) -> int:
        visits = root.child_visits()
        return _best_considered(root, noise, self.qtransform(root), visits,
                                schedule[sum(visits)])

    def _interior_choice(self, node: GumbelNode) -> int:
        """The first maximum of ``pi'(a) - n(a) / (1 + N)``: visits follow the improved policy."""
        sigma = self.qtransform(node)
        improved = softmax([logit + s for logit, s in zip(node.logits, sigma)])
        visits = node.child_visits()
        total = 1 + sum(visits)
        scores = [p - n / total for p, n in zip(improved, visits)]
        return scores.index(max(scores))


def _best_considered(root: GumbelNode, noise: list[float], sigma: list[float],
                     visits: list[int], considered: int) -> int:
    """Among moves with ``considered`` visits, the first max of ``g + logit - top + sigma``."""
    top = max(root.logits)
    best, best_score = None, -math.inf
    for i, (g, logit, s, n) in enumerate(zip(noise, root.logits, sigma, visits)):
        if n != considered:
            continue
        score = max(LOW_LOGIT, g + (logit - top) + s)
        if score > best_score:
            best, best_score = i, score
    if best is None:  # cannot happen: the schedule always leaves an eligible move
        raise AssertionError(f"no root move has {considered} visits: {visits}")
    return best


def _backup(path: list[GumbelNode]) -> None:
    """Back the leaf's value up the path, negated at each level, as running means.

    ``(value * count + leaf) / (count + 1)``: mctx's update, kept so that equal inputs
    give bit-for-bit equal values (a sum divided by the count rounds differently).
    """
    value = path[-1].value
    for node in reversed(path[:-1]):
        value = -value
        node.value = (node.value * node.visits + value) / (node.visits + 1)
        node.visits += 1
