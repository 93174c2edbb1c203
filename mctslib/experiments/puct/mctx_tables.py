"""Tic-tac-toe as JAX tables, so that DeepMind's mctx can search it (chapter 7 and its tests).

The chapter 'PUCT and Gumbel: search with a learned prior' (7) checks the readable PUCT
(:mod:`mctslib.search.puct`) and Gumbel MuZero against ``mctx``. mctx searches
a *model*: a ``recurrent_fn(params, rng_key, action, embedding)`` that returns
the reward, the discount, the prior logits and the value after a move. Here
the model is exact: every reachable tic-tac-toe position (5,478) gets a row,
and the embedding of a node is its row number.

How to use it (the whole run happens in float64, see below)::

    from mctslib.experiments.puct.mctx_tables import tictactoe_tables, run_policy, root_visits
    import mctx
    tables = tictactoe_tables(evaluator)           # evaluator(state) -> (priors, value)
    rows = [tables.index[state] for state in positions]
    out = run_policy(mctx.muzero_policy, tables, rows, num_simulations=32,
                     dirichlet_fraction=0.0)        # any keyword goes to the policy
    visits = root_visits(out)                      # numpy int array [len(rows), 9]
    # muzero_policy only: every budget up to 100 from one compilation (~10 s of CPU each)
    out, history = run_policy_with_history(mctx.muzero_policy, tables, rows, 100,
                                           dirichlet_fraction=0.0)
    history[31]                                    # == root visits of a 32-simulation search

The encoding (``GameTables``; A = 9 actions, one per cell):

- ``next_state[s, a]``: the row after move ``a``; a terminal row, and an
  illegal move, lead back to ``s`` itself (absorbing).
- ``reward[s, a]``: for the player who moves, +1 / 0 / -1 when the move ends
  the game with a win / draw / loss for that player, else 0.
- ``discount[s, a]``: -1 for a move into a position still on (two-player
  zero-sum: the next node's value is for the opponent), 0 for a move that ends
  the game (nothing follows it) and for the absorbing moves. mctx backs up
  ``reward + discount * value``, so a move into a finished game is worth its
  result for the mover, however often it is visited, exactly as a terminal
  state "worth the result for the player to move there" in the readable code.
- ``prior_logits[s]``: ``log(prior)`` of the evaluator for the legal moves,
  :data:`ILLEGAL_LOGIT` (finite, so that sums and softmaxes stay NaN-free in
  float32 too) for the others; zeros (uniform, absorbing) at terminal rows.
- ``value[s]``: the evaluator's value for the player to move; 0 at terminal
  rows (never used: the discount into them is 0).
- ``legal[s, a]``: the legal-move mask; mctx wants ``invalid_actions = ~legal``
  at the root (:func:`make_root` gives it). Inside the tree mctx masks nothing:
  an illegal move has prior 0 and Q 0, so it loses to every legal move while
  the legal priors are not tiny (below about 1e-7 the tie-breaking noise of
  ``muzero_action_selection`` could pick it).

Float64: :func:`run_policy` runs inside ``jax.enable_x64(True)`` (a context
manager: the process-wide setting is left as it was), so the tables and the
tree are float64 and float32 rounding cannot flip a close comparison.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
import mctx
import numpy as np

from mctslib.games.tictactoe import TicTacToe

#: One action per cell.
NUM_ACTIONS = 9
#: The prior logit of an illegal move: finite (no -inf arithmetic), and exp() of it is 0.
ILLEGAL_LOGIT = -1e30


@dataclass(frozen=True)
class GameTables:
    """Every reachable position of a game as rows of numpy arrays (see the module docstring)."""

    states: tuple
    index: dict = field(repr=False)
    next_state: np.ndarray = field(repr=False)
    legal: np.ndarray = field(repr=False)
    reward: np.ndarray = field(repr=False)
    discount: np.ndarray = field(repr=False)
    prior_logits: np.ndarray = field(repr=False)
    value: np.ndarray = field(repr=False)

    @property
    def terminal(self) -> np.ndarray:
        """Boolean mask of the finished positions (no legal move)."""
        return ~self.legal.any(axis=1)


def reachable_states(start=None) -> list:
    """Every position reachable from ``start`` (the empty board by default), breadth first.

    The order is fixed (moves in the game's order), so row numbers are the same on every run.
    """
    start = TicTacToe() if start is None else start
    seen = {start}
    order = [start]
    queue = deque([start])
    while queue:
        state = queue.popleft()
        for move in state.legal_moves():
            child = state.play(move)
            if child not in seen:
                seen.add(child)
                order.append(child)
                queue.append(child)
    return order


def _result_for_mover(state, child) -> float:
    """+1 / 0 / -1 for the player who made the move ``state -> child`` (``child`` finished)."""
    return 2.0 * child.result(state.player_to_move) - 1.0


def tictactoe_tables(evaluator: Callable, start=None) -> GameTables:
    """Tables of every position reachable from ``start`` with ``evaluator``'s priors and values.

    ``evaluator(state) -> (priors, value)`` is the shared evaluator interface of
    :mod:`mctslib.search.puct` (priors a dict over the legal moves summing to 1,
    value in [-1, 1] for the player to move); it is called once per
    non-terminal position.
    """
    states = reachable_states(start)
    index = {state: row for row, state in enumerate(states)}
    count = len(states)
    next_state = np.repeat(np.arange(count, dtype=np.int32)[:, None], NUM_ACTIONS, axis=1)
    legal = np.zeros((count, NUM_ACTIONS), dtype=bool)
    reward = np.zeros((count, NUM_ACTIONS))
    discount = np.zeros((count, NUM_ACTIONS))
    prior_logits = np.zeros((count, NUM_ACTIONS))
    value = np.zeros(count)
    for row, state in enumerate(states):
        if state.is_terminal():
            continue  # absorbing: next_state = row, reward 0, discount 0, uniform logits, value 0
        priors, value[row] = evaluator(state)
        moves = state.legal_moves()
        if set(priors) != set(moves) or abs(math.fsum(priors.values()) - 1.0) > 1e-6:
            raise ValueError(f"priors must give every legal move of {state!r} a probability, "
                             f"summing to 1; got {priors!r}.")
        prior_logits[row] = ILLEGAL_LOGIT
        for move in moves:
            child = state.play(move)
            next_state[row, move] = index[child]
            legal[row, move] = True
            prior_logits[row, move] = math.log(priors[move]) if priors[move] > 0 else ILLEGAL_LOGIT
            if child.is_terminal():
                reward[row, move] = _result_for_mover(state, child)
            else:
                discount[row, move] = -1.0
    return GameTables(tuple(states), index, next_state, legal, reward, discount, prior_logits,
                      value)


def make_recurrent_fn(tables: GameTables | None = None) -> Callable:
    """mctx's ``recurrent_fn`` over the tables: the embedding is a batch of row numbers.

    With ``tables`` the arrays are built in (call it inside the precision
    context the search runs in); without, the function reads them from mctx's
    ``params`` argument, which must then be :func:`table_params` (this is how
    :func:`run_policy` calls it, so that tables of the same size, e.g. from
    another evaluator, reuse one compilation).
    """
    fixed = None if tables is None else table_params(tables)

    def recurrent_fn(params, rng_key, action, embedding):
        del rng_key  # the model is exact and deterministic
        arrays = params if fixed is None else fixed
        child = arrays["next_state"][embedding, action]
        out = mctx.RecurrentFnOutput(reward=arrays["reward"][embedding, action],
                                     discount=arrays["discount"][embedding, action],
                                     prior_logits=arrays["prior_logits"][child],
                                     value=arrays["value"][child])
        return out, child

    return recurrent_fn


def table_params(tables: GameTables) -> dict:
    """The model's arrays as JAX arrays (float64 inside ``jax.enable_x64(True)``)."""
    return {name: jnp.asarray(getattr(tables, name))
            for name in ("next_state", "reward", "discount", "prior_logits", "value")}


def make_root(tables: GameTables, rows: Sequence[int]):
    """``(mctx.RootFnOutput, invalid_actions)`` for a batch of non-terminal rows."""
    rows = np.asarray(rows, dtype=np.int32)
    if tables.terminal[rows].any():
        raise ValueError("rows must be positions still on: mctx has no move to search at a "
                         "finished one.")
    root = mctx.RootFnOutput(prior_logits=jnp.asarray(tables.prior_logits[rows]),
                             value=jnp.asarray(tables.value[rows]), embedding=jnp.asarray(rows))
    return root, jnp.asarray(~tables.legal[rows])


_COMPILED: dict = {}


def run_policy(policy: Callable, tables: GameTables, rows: Sequence[int], num_simulations: int,
               *, seed: int = 0, x64: bool = True, **policy_kwargs):
    """Run ``policy`` (``mctx.muzero_policy``, ``mctx.gumbel_muzero_policy``) on a batch of rows.

    One jitted function per (policy, num_simulations, keywords, precision),
    kept for later calls; it compiles again only for a new batch size or
    table size (compiling costs about 10 s of CPU). ``policy_kwargs`` go to the policy unchanged (e.g.
    ``dirichlet_fraction=0.0``, ``pb_c_init=1.25``,
    ``max_num_considered_actions=4``, ``gumbel_scale=1.0``); they must be
    hashable. ``seed`` makes the ``jax.random.PRNGKey`` of the whole batch.
    Returns the policy's ``PolicyOutput`` with every array as numpy (float64
    when ``x64``).
    """
    output, _ = _run(policy, tables, rows, num_simulations, seed, x64, False, policy_kwargs)
    return output


def run_policy_with_history(policy: Callable, tables: GameTables, rows: Sequence[int],
                            num_simulations: int, *, seed: int = 0, x64: bool = True,
                            **policy_kwargs):
    """:func:`run_policy`, plus the root visit counts after every simulation.

    Returns ``(output, history)`` with ``history[k - 1]`` the ``[batch, 9]``
    root visits after ``k`` simulations. The loop is mctx's own (its
    ``loop_fn`` argument, here a ``lax.scan`` that also emits the root's
    visits), so the search is unchanged. For ``mctx.muzero_policy`` the tree
    after ``k`` simulations of a longer search *is* the tree of a
    ``k``-simulation search (same keys split in the same order, and the depth
    cutoff ``max_depth = num_simulations`` cannot bind: a simulation reaches
    depth d only through d existing nodes), so one compilation serves every
    budget up to ``num_simulations``. Not so for ``gumbel_muzero_policy``,
    whose sequential halving plans with the total budget.
    """
    return _run(policy, tables, rows, num_simulations, seed, x64, True, policy_kwargs)


def _recording_loop(record: list) -> Callable:
    """A ``loop_fn`` for mctx that runs the simulations like its fori_loop and keeps root visits."""
    def loop_fn(lower, upper, body_fun, init):
        def step(carry, sim):
            carry = body_fun(sim, carry)
            return carry, carry[1].children_visits[:, 0]

        final, visits = jax.lax.scan(step, init, jnp.arange(lower, upper, dtype=jnp.int32))
        record.append(visits)
        return final

    return loop_fn


def _run(policy, tables, rows, num_simulations, seed, x64, history, policy_kwargs):
    rows = np.asarray(rows, dtype=np.int32)
    # The tables travel as mctx's params (arguments, not constants): jax.jit compiles again
    # only for new shapes, so tables of another evaluator reuse the compiled search.
    key = (policy, int(num_simulations), tuple(sorted(policy_kwargs.items())), bool(x64),
           history)
    with jax.enable_x64(bool(x64)):
        if key not in _COMPILED:
            recurrent_fn = make_recurrent_fn()

            def search(params, rng_key, root, invalid_actions):
                record: list = []
                extra = {"loop_fn": _recording_loop(record)} if history else {}
                out = policy(params=params, rng_key=rng_key, root=root,
                             recurrent_fn=recurrent_fn, num_simulations=num_simulations,
                             invalid_actions=invalid_actions, **extra, **policy_kwargs)
                return out, (record[0] if history else None)

            _COMPILED[key] = jax.jit(search)
        root, invalid_actions = make_root(tables, rows)
        out, visits = _COMPILED[key](table_params(tables), jax.random.PRNGKey(seed), root,
                                     invalid_actions)
        out = jax.tree.map(np.asarray, out)
        return out, (None if visits is None else np.asarray(visits).astype(np.int64))


def root_visits(output) -> np.ndarray:
    """The root visit counts ``[batch, 9]`` of a :func:`run_policy` result, as ints."""
    return np.asarray(output.search_tree.children_visits[:, 0]).astype(np.int64)


__all__ = ["ILLEGAL_LOGIT", "NUM_ACTIONS", "GameTables", "make_recurrent_fn", "make_root",
           "reachable_states", "root_visits", "run_policy", "run_policy_with_history",
           "table_params", "tictactoe_tables"]
