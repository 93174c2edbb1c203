"""The UCT bot with the network's policy as a progressive bias (chapter 7).

:class:`PriorUCTBot` is :class:`mctslib.bots.uttt.UTTTBot` (same budgets, tree
reuse, centre opening, solver, choice of the answer) whose search is
:func:`mctslib.fast.uttt_prior_uct.prior_uct_kernel`: the network of
:mod:`mctslib.fast.uttt_network` is called once for a node, when the node has
``bias_visits`` visits, and its policy then adds ``bias * P / (visits + 1)`` to
each child's UCB1 score. With ``bias = 0`` it is the UTTT bot, move for move
and node for node (tested). It plays in :func:`mctslib.play.arena.play_match`
like any player.
"""

from __future__ import annotations

import numpy as np

from .._checks import check_int, check_real
from ..fast import uttt_prior_uct as kernel
from ..fast import uttt_uct as fast_uct
from ..fast.uttt_network import Weights, empty_work, load_weights
from .uttt import _VISITS_LIMIT, BotSpec, UTTTBot, parse_spec

#: What the kernel implements of a UCT SPEC; a SPEC that asks for anything else is refused.
_KERNEL_OPTIONS = {"scale": "01", "playout_policy": "wins", "expand": 1, "cutoff": 0,
                   "draw": 0.5}


class PriorUCTBot(UTTTBot):
    """The UTTT bot with the network's policy as a progressive bias (see the module).

    Parameters
    ----------
    spec : BotSpec or str
        A ``uct`` SPEC with win-taking playouts and the default scale, expansion,
        draw value and no cut-off (e.g. ``uct:c=0.5,ms=100,wins=on,solver=on``).
    weights : path or Weights
        The network: an .npz written by ``mctslib.experiments.puct.network train``,
        or its arrays (:func:`mctslib.fast.uttt_network.as_weights`).
    bias : float
        Weight of the bias term, 0 to 100 (0: the UTTT bot exactly).
    bias_visits : int
        Visits a node needs before the network is called for it, 1 to 1,000,000.
    seed
        As :class:`~mctslib.bots.uttt.UTTTBot`.
    """

    def __init__(self, spec: BotSpec | str, weights, bias: float = 1.0, bias_visits: int = 32,
                 seed=None):
        spec = parse_spec(spec)
        if spec.kind != "uct":
            raise ValueError(f"spec must be a uct SPEC, got {spec.kind!r}.")
        for name, needed in _KERNEL_OPTIONS.items():
            if getattr(spec, name) != needed:
                raise ValueError(f"spec: the biased search has {name} {needed!r} only, got "
                                 f"{getattr(spec, name)!r} in {str(spec)!r}.")
        self.bias = check_real("bias", bias, 0.0, 100.0)
        self.bias_visits = check_int("bias_visits", bias_visits, 1, 1_000_000)
        self.weights = weights if isinstance(weights, Weights) else load_weights(weights)
        self._work = empty_work(self.weights)
        super().__init__(spec, seed=seed)
        padded = self.pool.capacity + fast_uct.LANES
        self.prior = np.zeros(padded)
        self.primed = np.zeros(self.pool.capacity, dtype=np.int8)
        self.calls = np.zeros(1, dtype=np.int64)  # network calls since the bot was made
        self._moves = np.zeros(81, dtype=np.int64)
        self._probs = np.zeros(81)

    def _prepare_tree(self, state) -> int:
        kept = super()._prepare_tree(state)
        if not kept:
            self.primed[0] = 0  # choose() resets the pool: the new root has no prior
        return kept

    def _rerooted(self, new_root: int, old_count: int) -> None:
        kernel.move_node_data(new_root, old_count, self.pool.new_index, self.prior, self.primed)

    def _run(self, root_state, scoring, iterations: int) -> int:
        spec = self.spec
        iterations = min(iterations, _VISITS_LIMIT - int(self.pool.visits[0]))
        return int(kernel.prior_uct_kernel(
            root_state, iterations, spec.c, self.bias, self.bias_visits, spec.tree_takes_wins,
            spec.solver, scoring, self.rng, self.pool.used, *self.pool.arrays(), self.prior,
            self.primed, self.calls, self._scratch, self._path, self._buf, self._scores,
            self._moves, self._probs, *self.weights, *self._work))
