"""What the numba tree kernels do alike to their node pools.

The UCT kernels (:mod:`mctslib.fast.uttt_uct`, and :mod:`mctslib.fast.hex_uct`
with its verbatim copy :mod:`mctslib.fast.uttt_rave`) and the PUCT kernel
(:mod:`mctslib.fast.uttt_puct`, value sums for wins) keep a tree as flat
arrays, a node's children next to each other; they expand a node the same way.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def add_children(node, count, n, moves, move, first_child, child_count, visits, wins, extra,
                 extra_value):
    """Make nodes ``count .. count + n - 1`` the fresh children of ``node``, one per ``moves[k]``.

    Each new node gets its move, no children, no visits and no wins; ``extra``
    is the kernel's own per-node array (the RAVE kernels' AMAF table index, the
    solver's proof of :mod:`mctslib.fast.uttt_uct`, PUCT's prior, which its
    kernel then sets), set to ``extra_value``.
    The caller checks that the children fit in the pool. Inlined
    (``inline="always"``): a call would pass seven arrays on every expansion
    (see :func:`mctslib.fast.uttt_uct._expand`).
    """
    first_child[node] = count
    child_count[node] = n
    for k in range(n):
        child = count + k
        move[child] = moves[k]
        first_child[child] = 0
        child_count[child] = 0
        visits[child] = 0
        wins[child] = 0.0
        extra[child] = extra_value
