"""The readable PUCT gives the same root visits as DeepMind's mctx (chapter 7, issue 16).

Tic-tac-toe is encoded exactly as tables (``mctx_tables``), with a seeded random
evaluator standing in for a network (two seeds). For 106 positions (every depth from the
empty board to seven marks) and 8, 32 and 100 simulations, ``PUCTSearch`` with
mctx's settings (``MCTX_OPTIONS``: pb_c_init 1.25, pb_c_base 19652,
``qtransform_by_parent_and_siblings``, no root noise) must give the visit
counts of ``mctx.muzero_policy`` move for move. mctx runs in float64
(``jax.enable_x64`` as a context), so its rounding and ours differ by about
1e-16, far below the gaps between scores.

One compilation serves the three budgets: the tree after k simulations of
mctx's 100-simulation search is the tree of a k-simulation search
(``run_policy_with_history``); one test checks that claim directly at 8.
"""

from __future__ import annotations

import jax.numpy as jnp
import mctx
import numpy as np
import pytest

from mctslib.experiments.puct.mctx_tables import (
    ILLEGAL_LOGIT,
    NUM_ACTIONS,
    root_visits,
    run_policy,
    run_policy_with_history,
    tictactoe_tables,
)
from mctslib.search.puct import MCTX_OPTIONS, PUCTSearch, random_evaluator

BUDGETS = (8, 32, 100)
#: Two evaluators: the tables travel as mctx's params, so the second reuses the compilations.
EVALUATOR_SEEDS = (16, 2027)
#: Up to this many positions per number of marks (all of them when there are fewer).
PER_DEPTH = 16


@pytest.fixture(scope="module", params=EVALUATOR_SEEDS, ids=lambda seed: f"evaluator{seed}")
def seed(request):
    return request.param


@pytest.fixture(scope="module")
def tables(seed):
    return tictactoe_tables(random_evaluator(seed))


@pytest.fixture(scope="module")
def rows(tables):
    """Seeded random positions still on, at every number of marks from 0 to 7."""
    rng = np.random.default_rng(2026)
    chosen = []
    for marks in range(8):
        at_depth = [row for row, state in enumerate(tables.states)
                    if not state.is_terminal() and (state.x | state.o).bit_count() == marks]
        take = min(PER_DEPTH, len(at_depth))
        chosen.extend(sorted(rng.choice(at_depth, size=take, replace=False).tolist()))
    return chosen


@pytest.fixture(scope="module")
def history(tables, rows):
    """mctx's root visits after each of 100 simulations, ``[100, len(rows), 9]``."""
    _, visits = run_policy_with_history(mctx.muzero_policy, tables, rows, max(BUDGETS),
                                        dirichlet_fraction=0.0)
    return visits


def _ours(seed, tables, rows, budget, **options) -> np.ndarray:
    visits = np.zeros((len(rows), NUM_ACTIONS), dtype=np.int64)
    for i, row in enumerate(rows):
        search = PUCTSearch(random_evaluator(seed), iterations=budget, **options)
        search.search(tables.states[row])
        for move, count in search.visit_counts().items():
            visits[i, move] = count
    return visits


def _mismatches(tables, rows, ours, theirs) -> list:
    return [(str(tables.states[row]), ours[i].tolist(), theirs[i].tolist())
            for i, row in enumerate(rows) if not np.array_equal(ours[i], theirs[i])]


def test_positions_cover_every_depth(tables, rows):
    assert len(tables.states) == 5478
    assert len(rows) >= 100 and len(set(rows)) == len(rows)
    depths = {(tables.states[row].x | tables.states[row].o).bit_count() for row in rows}
    assert depths == set(range(8))


def test_same_root_visits_as_mctx_muzero_policy(seed, tables, rows, history):
    for budget in BUDGETS:
        theirs = history[budget - 1]
        assert (theirs.sum(axis=1) == budget).all()
        assert not (theirs * ~tables.legal[rows]).any()  # mctx never tried an illegal move
        ours = _ours(seed, tables, rows, budget, **MCTX_OPTIONS)
        assert _mismatches(tables, rows, ours, theirs) == [], f"{budget} simulations"


def test_recorded_visits_equal_a_shorter_search(tables, rows, history):
    """The history's row k - 1 is what a k-simulation muzero_policy answers (k = 8)."""
    short = root_visits(run_policy(mctx.muzero_policy, tables, rows, 8, dirichlet_fraction=0.0))
    assert np.array_equal(short, history[7])


def _plain_q(tree, node_index, *, first_play_value):
    """Q as is for visited children, ``first_play_value`` for the others (our "plain").

    An illegal move (prior logit ILLEGAL_LOGIT) gets -inf, as our tree has no such child.
    """
    q = jnp.where(tree.children_visits[node_index] > 0, tree.qvalues(node_index),
                  first_play_value)
    return jnp.where(tree.children_prior_logits[node_index] > ILLEGAL_LOGIT / 2, q, -jnp.inf)


def _plain_minus_half(tree, node_index):
    return _plain_q(tree, node_index, first_play_value=-0.5)


def test_plain_q_with_muzero_schedule_equals_mctx(seed, tables, rows):
    """``q_transform="plain"`` against mctx's selection with the same Q (first-play value -0.5)."""
    budget = 32
    _, history = run_policy_with_history(mctx.muzero_policy, tables, rows, budget,
                                         dirichlet_fraction=0.0, qtransform=_plain_minus_half)
    for k in (8, budget):
        ours = _ours(seed, tables, rows, k, c_puct=1.25, pb_c_base=19652.0, q_transform="plain",
                     first_play_value=-0.5)
        assert _mismatches(tables, rows, ours, history[k - 1]) == [], f"{k} simulations"
