"""RAVE inside the UTTT bot's search, with an optional heuristic prior (chapter "Enhancements that matter").

The chapter's first RAVE kernel for Ultimate Tic-Tac-Toe,
:mod:`mctslib.fast.uttt_rave`, is a verbatim copy of the Hex kernel: it records
every playout move one call at a time, and even with its AMAF tables off it
runs at about half the speed of the bot's own search,
:mod:`mctslib.fast.uttt_uct`. A match between the two on the clock would
measure that engineering gap as much as RAVE. This kernel puts RAVE into the
bot's search instead, so that RAVE and the bot differ in what RAVE adds and in
nothing else:

* the bot's descent and expansion (``tree_wins``: a position with an immediate
  game win gets that one child), its inlined playout
  (:func:`mctslib.fast.uttt.playout`, random or win-taking, the same draws),
  its backup and MCTS-Solver (:func:`mctslib.fast.uttt_uct._backup`);
* the AMAF update reads the playout's moves from the position itself: a cell
  is played at most once in a game, so the cells of player ``p`` that were
  empty at the leaf and are marked at the end are exactly ``p``'s playout
  moves (``final[9p + b] & ~leaf[9p + b]``). The fast playout need not record
  anything, and the tables get the same counts as a recorded playout's;
* selection scores a child by Gelly and Silver's minimum-MSE blend (the
  readable :class:`mctslib.search.rave.RAVERule`, ``rave`` variant) plus UCB1's
  exploration term.

Tested: with the AMAF tables and the prior off it builds the bot's tree node
for node (``tests/test_rave_uct_fast.py``); with random playouts, no win-taking
in the tree and the solver off it builds the readable ``RAVESearch``'s tree and
AMAF tables for the same seed.

**The heuristic prior** (Gelly and Silver 2007, "prior knowledge"; used with
RAVE in their 2011 paper): a child starts with ``prior_visits`` virtual visits
at a value :func:`move_prior` gives its move, a rule of thumb about small
boards fixed before any match (no tuning)::

    0.5 + 0.2 [the move wins its small board]
        - 0.2 [the opponent then has a free choice, or can win the board
               it is sent to at once]

The virtual visits count in the child's mean, in its exploration term and in
``beta``'s ``n``, not in the parent's visits, and never in the answer (the bot
plays the most visited child by real visits). With ``prior_visits = 0`` every
child starts unvisited, and unvisited children are tried first as in UCT.

AMAF tables: a node gets one the first time a simulation passes through it,
for each (player, cell) a count of simulations and a sum of doubled rewards
(whole numbers, so sums of 0, 0.5 and 1 are exact), stored side by side
(``counts[2 * k]`` and ``counts[2 * k + 1]``) so that one credit touches one cache
line: the update writes about (tree depth x playout length) entries an
iteration, the cost of RAVE. :class:`AMAFTables` holds them beside a
:class:`mctslib.fast.uttt_uct.NodePool`.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._checks import check_int
from .uttt import (
    CLOSED,
    COMPLETES,
    FREE,
    FULL,
    MOVE_OF,
    ONGOING,
    OUTCOME,
    PLAYER,
    SELECT,
    STATE_SIZE,
    _board_cell,
    play,
    playout,
    result,
)
from .uttt_uct import LOG_OF, LOSS, UNKNOWN, _backup, _expand, _prove_leaf

#: Distinct moves (cells) of Ultimate Tic-Tac-Toe: a table has 2 * MOVES entries.
MOVES = 81
#: The prior's neutral value and its step (see :func:`move_prior`).
PRIOR_NEUTRAL, PRIOR_STEP = 0.5, 0.2


class AMAFTables:
    """The AMAF tables and per-node prior values beside a UTTT bot's node pool.

    Parameters
    ----------
    capacity : int
        Nodes of the pool they sit beside (>= 2): ``table[node]`` is the index
        of the node's AMAF table (-1: none yet), ``prior[node]`` the prior value
        of the move into it.
    tables : int
        AMAF tables held (>= 1); a search needs at most one per iteration plus
        the root's. A full table pool stops new tables, never the search.
    """

    def __init__(self, capacity: int, tables: int):
        self.capacity = check_int("capacity (nodes in the pool)", capacity, 2, 2_000_000_000)
        self.tables = check_int("tables (AMAF tables)", tables, 1, 50_000_000)
        # Zeroed pages are not touched until used: every node's entry is set when the
        # kernel creates the node, the root's by reset().
        self.table = np.zeros(self.capacity, dtype=np.int32)
        self.prior = np.zeros(self.capacity, dtype=np.float64)
        self.counts = np.zeros(self.tables * 4 * MOVES, dtype=np.int32)  # (count, reward) pairs
        self.used = np.zeros(1, dtype=np.int64)  # tables in use
        self.reset()

    def reset(self) -> None:
        """No tables: the root (node 0) has none, and no prior."""
        self.used[0] = 0
        self.table[0] = -1
        self.prior[0] = PRIOR_NEUTRAL

    def arrays(self) -> tuple:
        """The arrays in the order :func:`rave_uct_kernel` takes them (after ``used``)."""
        return self.table, self.prior, self.counts

    def amaf(self, node: int, player: int, move: int) -> tuple[int, float]:
        """``(visits, wins)`` of ``player``'s ``move`` in ``node``'s table ((0, 0.0) if none)."""
        t = int(self.table[node])
        if t < 0:
            return 0, 0.0
        off = 2 * ((2 * t + player) * MOVES + move)
        return int(self.counts[off]), 0.5 * int(self.counts[off + 1])


@njit(cache=True)
def move_prior(s, move):
    """The heuristic prior's value of the legal ``move`` for the player to move in ``s``.

    ``0.5``, plus ``0.2`` if the move wins its small board, minus ``0.2`` if
    the opponent then gets a free choice (the board it is sent to is closed)
    or can win that board at once (the readable rule is in the module's
    docstring; the tests compare the two on random positions).
    """
    p = s[PLAYER]
    board, cell = _board_cell(move)
    free = s[FREE + board]
    wins_board = (np.int64(COMPLETES[s[9 * p + board] & FULL]) >> cell) & 1
    closes = wins_board == 1 or free == (1 << cell)
    if (s[CLOSED] >> cell) & 1 or (cell == board and closes):
        hands_over = True  # the opponent chooses anywhere
    else:
        target_free = s[FREE + cell]
        if cell == board:
            target_free &= ~(1 << cell)
        hands_over = (np.int64(COMPLETES[s[9 * (1 - p) + cell] & FULL]) & target_free) != 0
    value = PRIOR_NEUTRAL + PRIOR_STEP * wins_board
    return value - PRIOR_STEP if hands_over else value


@njit(cache=True, inline="always")
def _select_rave(node, player, c, bias, use_amaf, prior_visits, solver_on, first_child,
                 child_count, move, visits, wins, proven, table, prior, amaf):
    """The first strictly highest blended score among ``node``'s children.

    ``(1 - beta) Q + beta Q_amaf + c sqrt(ln N / n)``, with ``Q`` and ``n``
    counting the prior's virtual visits. A child with ``n = 0`` (no visits,
    no prior) is scored as the readable ``RAVERule`` scores it: first (an
    infinite score) if ``c > 0`` or it has no AMAF statistics, else by its
    AMAF mean. Proven losses are skipped with the solver on. Without AMAF
    and prior these are UCB1's scores in the bot's floating-point order.
    """
    first, count = first_child[node], child_count[node]
    parent_visits = visits[node]
    log_parent = (LOG_OF[parent_visits] if parent_visits < LOG_OF.shape[0]
                  else math.log(parent_visits))
    t = table[node] if use_amaf else -1
    base = (2 * t + player) * MOVES
    best, best_score = first, -math.inf
    for child in range(first, first + count):
        if solver_on and proven[child] == LOSS:
            continue
        n = visits[child] + prior_visits
        av, aw = 0, 0.0
        if t >= 0:
            off = 2 * (base + move[child])
            av = amaf[off]
            aw = 0.5 * amaf[off + 1]
        beta = 0.0
        if av > 0:
            beta = av / (n + av + 4.0 * bias * bias * n * av)
        if n == 0:
            score = math.inf if (c > 0.0 or beta == 0.0) else aw / av
        else:
            value = (wins[child] + prior_visits * prior[child]) / n
            if beta > 0.0:
                value = (1.0 - beta) * value + beta * (aw / av)
            score = value + c * math.sqrt(log_parent / n)
        if score > best_score:
            best, best_score = child, score
    return best


@njit(cache=True, inline="always")
def _credit(base, m, reward2, amaf):
    off = 2 * (base + m)
    amaf[off] += 1
    amaf[off + 1] += reward2


@njit(cache=True, error_model="numpy", inline="always")
def _descend_rave(root_state, scratch, path, count, capacity, rng, c, bias, use_amaf,
                  prior_visits, tree_wins, solver_on, scoring, move, first_child, child_count,
                  visits, wins, proven, table, prior, amaf, buf):
    """Selection by :func:`_select_rave`, then the bot's expansion: ``(node, depth, count)``.

    ``scratch`` ends as the leaf's position and ``path[:depth]`` holds the nodes from the
    root to it; new children get no AMAF table and, with a prior, their move's value.
    """
    for i in range(STATE_SIZE):
        scratch[i] = root_state[i]
    node, depth = 0, 1
    path[0] = 0
    while child_count[node] > 0:  # selection
        node = _select_rave(node, scratch[PLAYER], c, bias, use_amaf, prior_visits, solver_on,
                            first_child, child_count, move, visits, wins, proven, table, prior,
                            amaf)
        play(scratch, move[node])
        path[depth] = node
        depth += 1
    if scratch[OUTCOME] == ONGOING and (visits[node] >= 1 or node == 0):  # expansion
        grown = _expand(node, scratch, count, capacity, rng, tree_wins, scoring, move,
                        first_child, child_count, visits, wins, proven, buf)
        for child in range(count, grown):  # no table yet; the prior of each new move
            table[child] = -1
            prior[child] = (move_prior(scratch, move[child]) if prior_visits > 0.0
                            else PRIOR_NEUTRAL)
        if grown > count:
            node, count = count, grown
            play(scratch, move[node])
            path[depth] = node
            depth += 1
    return node, depth, count


@njit(cache=True, inline="always")
def _amaf_update(s, leaf_marks, played, path, depth, root_player, scoring, move, table, amaf,
                 tables):
    """Credit every node of ``path[:depth]`` with the moves made after it; return the tables used.

    The playout's moves are the cells marked in ``s`` (the finished game) that were empty at
    the leaf (``leaf_marks``), listed into ``played``, X's first. Each node is credited,
    once per (player, move), with the playout's moves and the tree moves below it, every one
    with the reward of the player who made it (doubled: 2, 1 or 0). A node without a table
    gets the next free one (none when the tables are full: that node is skipped); a leaf
    after which nothing was played gets none, as in the readable search.
    """
    capacity = amaf.shape[0] // (4 * MOVES)
    r0 = np.int32(2.0 * result(s, 0, scoring))
    r1 = np.int32(2.0 * result(s, 1, scoring))
    x_moves = length = 0  # played[:x_moves]: X's playout moves, then O's up to length
    for p in range(2):
        for b in range(9):
            bits = s[9 * p + b] & ~leaf_marks[9 * p + b]
            while bits != 0:
                played[length] = MOVE_OF[b, SELECT[bits & FULL, 0]]
                length += 1
                bits &= bits - 1
        if p == 0:
            x_moves = length
    for d in range(depth - 1, -1, -1):
        if length == 0 and d == depth - 1:
            continue
        t = table[path[d]]
        if t < 0 and tables < capacity:  # its first simulation: a fresh table
            t, tables = tables, tables + 1
            table[path[d]] = t
            amaf[4 * MOVES * t:4 * MOVES * (t + 1)] = 0
        if t < 0:
            continue
        x_base, o_base = 2 * t * MOVES, (2 * t + 1) * MOVES
        for k in range(length):
            if k < x_moves:
                _credit(x_base, played[k], r0, amaf)
            else:
                _credit(o_base, played[k], r1, amaf)
        for e in range(d + 1, depth):  # the rest of the tree path; players alternate
            if root_player ^ ((e - 1) & 1) == 0:
                _credit(x_base, move[path[e]], r0, amaf)
            else:
                _credit(o_base, move[path[e]], r1, amaf)
    return tables


@njit(cache=True, error_model="numpy")
def rave_uct_kernel(root_state, iterations, c, bias, use_amaf, prior_visits, playout_wins,
                    tree_wins, solver_on, scoring, rng, used, tables_used, move, first_child,
                    child_count, visits, wins, proven, table, prior, amaf, scratch, path, buf,
                    leaf_marks, played):
    """Run up to ``iterations`` iterations of RAVE (or UCT) from ``root_state``; return how many ran.

    Parameters
    ----------
    root_state : int64 array
        The root position (left unchanged, not finished).
    iterations : int
        Iterations to run; fewer only when the solver proves the root.
    c, bias : float
        Exploration constant (>= 0) and the RAVE bias ``b`` of the minimum-MSE
        schedule, ``beta = n~ / (n + n~ + 4 b^2 n n~)``.
    use_amaf : bool
        Keep and blend AMAF tables (off: UCT, the bot's search).
    prior_visits : float
        Virtual visits of the heuristic prior (0: no prior).
    playout_wins, tree_wins, solver_on : bool
        Win-taking playouts, a one-move win check at expansion, MCTS-Solver
        (the bot's ``wins=on`` is the first two).
    scoring : int
        CODINGAME or OPENSPIEL.
    rng : uint64 array of 1
        The xorshift64 state, advanced in place.
    used, tables_used : int64 arrays of 1
        Nodes and AMAF tables in use, updated in place (the tree continues
        across calls).
    move ... proven
        The arrays of a :class:`mctslib.fast.uttt_uct.NodePool`.
    table, prior, amaf
        The arrays of an :class:`AMAFTables` for the same pool.
    scratch, path, buf, leaf_marks, played
        Work arrays: a state, ``MAX_PATH`` node indices, 81 moves (int64), 18
        marks (int64) and 81 moves (int64).
    """
    capacity = move.shape[0]
    count, tables = used[0], tables_used[0]
    root_player = root_state[PLAYER]
    done = 0
    while done < iterations:
        if solver_on and proven[0] != UNKNOWN:
            break  # the root is proven
        node, depth, count = _descend_rave(
            root_state, scratch, path, count, capacity, rng, c, bias, use_amaf, prior_visits,
            tree_wins, solver_on, scoring, move, first_child, child_count, visits, wins, proven,
            table, prior, amaf, buf)
        mover = 1 - scratch[PLAYER]  # who made the last move on the path
        if solver_on and scratch[OUTCOME] != ONGOING:
            _prove_leaf(node, scratch, scoring, proven)
        if use_amaf:
            for i in range(18):
                leaf_marks[i] = scratch[i]
        playout(scratch, rng, playout_wins, scoring, buf)  # simulation
        reward = result(scratch, mover, scoring)
        if use_amaf:  # every move after a node, credited to the player who made it
            tables = _amaf_update(scratch, leaf_marks, played, path, depth, root_player, scoring,
                                  move, table, amaf, tables)
        _backup(path, depth, reward, False, solver_on, first_child, child_count, visits, wins,
                proven)
        done += 1
    used[0], tables_used[0] = count, tables
    return done

