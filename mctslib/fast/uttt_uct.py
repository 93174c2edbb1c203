"""UCT for Ultimate Tic-Tac-Toe in numba: the search inside the chapter's bot.

The chapter "Ultimate Tic-Tac-Toe: tuning a real bot" measures what players
who climbed CodinGame's leaderboard report changing; this module is the fast
search those measurements run on, and :class:`mctslib.bots.uttt.UTTTBot` is its
Python face (budgets, tree reuse, the answer).

With every option off it is the twin of the readable
:class:`mctslib.search.uct.UCTSearch` on :class:`~mctslib.games.uttt.UltimateTicTacToe`
with an :class:`~mctslib.xorshift.XorShift64`: the same selection (first
unvisited child, else the first strictly highest UCB1 score, same floating-point
order), the same expansion (all children at once, on a node's second visit or
at the root, moves ascending then shuffled by Fisher-Yates with ``below(i + 1)``),
the same random playouts (:func:`mctslib.fast.uttt.random_playout`) and the same
backup, so both build the same tree; the tests compare them node by node.

The tree is a *node pool*: flat arrays allocated once (:class:`NodePool`), the
layout numba likes. A node's children sit next to each other; the node stores
the index of the first and their count. Node 0 is the root. When the pool is
full the search stops expanding but keeps iterating (a leaf then gets a playout
without children): it never allocates inside the loop and never crashes.

Options (arguments of :func:`search`):

* ``c`` and ``pm1``: the exploration constant, and rewards 1 / 0 / -1 instead
  of 1 / 0.5 / 0 (UCB1's mean is then taken over the scaled rewards, which
  halves the weight of the exploration term relative to the spread of means);
* ``playout``: the playout policy, a code of :mod:`mctslib.fast.uttt_playouts`:
  0 random; 1 *win-taking playouts* (the side to move takes an immediate game
  win when it has one, :func:`mctslib.fast.uttt.winning_moves`); 2-4 the
  heuristic policies of the chapter "Enhancements and failure modes" (also
  avoid a move after which the opponent wins at once, prefer a small-board
  win). ``False`` and ``True`` still mean random and win-taking;
* ``tree_wins``: the same rule in the tree (jacek's one-move win check at
  expansion): a position with such a win gets one child, the lowest winning
  move. The bot's ``wins=on`` turns both on; the two are separate so that the
  chapter can measure each;
* ``solver_on``: *MCTS-Solver* (Winands, Bjornsson and Saito 2008): a node
  whose position is over is proven; a node is a proven win for the player who
  moves there if its position is lost for the player to move in it (every move
  from it is a proven loss), and a proven loss if one move from it is a proven
  win. Proofs travel up the path after each iteration; selection skips proven
  losses, so no playout is spent below a proven node, and the search stops as
  soon as the root is proven;
* ``draw``: what a drawn playout is worth to the player at the root (0.5 as
  before; the opponent gets ``1 - draw``): a contempt for draws;
* ``expand``: a leaf gets its children once it has been visited ``expand``
  times (1: on its second visit, as before; the root always at once). Larger
  values spend a few playouts on a leaf before growing it: a smaller tree for
  the same iterations (chapter "Enhancements and failure modes", memory);
* ``cutoff`` and ``cutoff_scale``: *early playout termination* (Lorentz,
  "Early playout termination in MCTS", ACG 2015): a playout stops after
  ``cutoff`` moves (0: never, as before) and a position still on is scored by
  the alpha-beta baseline's hand-written evaluation, turned into a win
  probability by a logistic, ``1 / (1 + exp(-eval / cutoff_scale))`` for the
  player who made the last move on the path (see :func:`search_kernel`).

``proven[node]`` is from the point of view of the player who made the move into
``node`` (like ``wins[node]``): :data:`WIN`, :data:`LOSS` or :data:`UNKNOWN`.
A proven draw is not tracked (a finished drawn game stays an ordinary leaf).

Speed, measured on the book's 2-core machine by ``benchmarks/uttt_speed.py``
(medians of 7 interleaved runs, plain UCT, c = 1): about 1.4 M iterations/s in
a search of 20,000 iterations from the empty board and 1.8 M/s from a position
20 plies in, 13.9 and 12.5 times the simulations per second of OpenSpiel's C++
``MCTSBot`` measured alongside; about 131,000 iterations in a 100 ms turn from
the empty board (c = 0.5), 12.9 times OpenSpiel's simulations in its own 100 ms.
Win-taking playouts and the solver cost little (their playouts are shorter). The
readable reference runs about 4,800 (empty board) to 6,900 iterations/s.

Why one module of about 540 lines: the options are branches of one compiled
loop (:func:`search_kernel`) that must stay allocation-free and inlined, and the
pool, the descent and the tree reuse (:func:`reroot`) share its node layout.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .bits import popcount
from .node_pool import add_children
from .uttt import (
    ONGOING,
    OUTCOME,
    PLAYER,
    STATE_SIZE,
    legal_moves,
    play,
    playout,
    random_move,
    random_playout,
    result,
    winner,
    winning_moves,
)
from .uttt_alphabeta import DEFAULT_WEIGHTS, evaluate
from .uttt_playouts import RANDOM, WINS, policy_move, policy_playout
from .xorshift import shuffle_prefix

UNKNOWN, WIN, LOSS = 0, 1, -1
#: The evaluation a cut-off playout ends with: the alpha-beta baseline's hand-written one
#: (:func:`mctslib.fast.uttt_alphabeta.evaluate`, readable twin
#: :mod:`mctslib.search.uttt_evaluation`) with its default weights.
CUTOFF_WEIGHTS = np.array(DEFAULT_WEIGHTS, dtype=np.int64)
#: The default ``cutoff_scale``: evaluation points per unit of log-odds (see :func:`search_kernel`).
DEFAULT_CUTOFF_SCALE = 100.0
#: LOG_OF[n] = math.log(n) for the visit counts of most nodes: a table look-up instead of a
#: call to the C library at every step of the descent (the same values: Python's math.log
#: and compiled code call the same C function; a larger count is computed).
LOG_OF = np.array([-math.inf] + [math.log(n) for n in range(1, 1 << 14)])
#: Children are scored LANES at a time (one vector instruction each step); the last block
#: reads past the last child, into padding at the end of the pool's arrays.
LANES = 8
#: Length of the scores work array: the most children (81 moves) rounded up to whole blocks.
SCORES_SIZE = -(-81 // LANES) * LANES
#: The deepest path: the root plus one node per move of the longest game (81 cells).
MAX_PATH = 82


class NodePool:
    """The tree's arrays, allocated once; ``count`` nodes are in use (node 0 is the root).

    Parameters
    ----------
    capacity : int
        How many nodes the pool holds (>= 2). A node costs 29 bytes
        (:data:`mctslib.bots.uttt.BYTES_PER_NODE`; the tests add up the arrays)
        (``numpy.zeros`` asks the operating system for zeroed pages, so
        memory is only touched as the tree grows). ``visits`` and ``wins``
        have :data:`LANES` entries more, padding for the vector loop of
        :func:`_select`.
    """

    def __init__(self, capacity: int):
        self.capacity = int(capacity)
        self.move = np.zeros(self.capacity, dtype=np.int32)
        self.first_child = np.zeros(self.capacity, dtype=np.int32)
        self.child_count = np.zeros(self.capacity, dtype=np.int32)
        self.visits = np.zeros(self.capacity + LANES, dtype=np.int32)
        self.wins = np.zeros(self.capacity + LANES, dtype=np.float64)
        self.proven = np.zeros(self.capacity, dtype=np.int8)
        # Scratch for re-rooting (new index of each kept node); never read between calls.
        self.new_index = np.zeros(self.capacity, dtype=np.int32)
        self.used = np.zeros(1, dtype=np.int64)  # [count], an array so compiled code updates it
        self.reset()

    @property
    def count(self) -> int:
        """Nodes in use."""
        return int(self.used[0])

    def reset(self) -> None:
        """Empty the tree: a lone root with no visits."""
        self.used[0] = 1
        self.move[0] = -1
        self.first_child[0] = self.child_count[0] = self.visits[0] = 0
        self.wins[0] = 0.0
        self.proven[0] = UNKNOWN

    def arrays(self) -> tuple:
        """The node arrays in the order :func:`search` and :func:`reroot` take them."""
        return (self.move, self.first_child, self.child_count, self.visits, self.wins,
                self.proven)

    def children(self, node: int = 0) -> range:
        """Indices of ``node``'s children (empty for a leaf)."""
        first = int(self.first_child[node])
        return range(first, first + int(self.child_count[node]))


@njit(cache=True, error_model="numpy", inline="always")  # see below
def _select(node, c, solver_on, first_child, child_count, visits, wins, proven, scores):
    """UCB1 over ``node``'s children, skipping proven losses when the solver is on.

    The first unvisited child, else the first strictly highest
    ``wins / visits + c * sqrt(ln(parent visits) / visits)`` (the readable
    :class:`~mctslib.search.uct.UCB1Rule`, operation for operation, so the same
    numbers come out).

    Written for speed, with the same answer as the readable loop: selection
    always takes the first unvisited child, so the visited children are
    always a prefix of the list; if the last child has been visited, all
    have, and the scores are computed in a loop of their own without early
    exit, which the compiler turns into vector instructions. The loop runs
    over whole blocks of :data:`LANES` children (the pool's arrays are
    padded for the last block; the extra scores are never read), because
    the compiler's vector loop only starts at eight elements, and most
    nodes have nine children or fewer. Vector division and square root
    round exactly like their one-number versions, so the scores are the
    same. ``ln`` comes from a table (:data:`LOG_OF`) for most nodes.

    Inlined into :func:`search` (``inline="always"``): as a call, its nine
    arrays were passed as some forty words on the stack at every step down
    the tree. The padded lanes divide by zero, hence ``error_model="numpy"``
    (no exception, and no check per division) here and in the caller.
    Measured on the book's machine, inlining, padded blocks and the table
    took a search from the middle-game position of ``benchmarks/uttt_speed.py``
    from 1.35 M to 1.6 M iterations/s.
    """
    first, count = first_child[node], child_count[node]
    if visits[first + count - 1] == 0:
        for child in range(first, first + count):
            if visits[child] == 0:  # a proven child was visited, so this one is not proven
                return child
    parent_visits = visits[node]
    log_parent = (LOG_OF[parent_visits] if parent_visits < LOG_OF.shape[0]
                  else math.log(parent_visits))
    # Unsigned indices: numba then skips its check for negative indices, which would
    # otherwise keep the compiler from loading the children as one vector.
    base = np.uint64(first)
    for k in range(np.uint64((count + LANES - 1) & -LANES)):
        scores[k] = (wins[base + k] / visits[base + k]
                     + c * math.sqrt(log_parent / visits[base + k]))
    if solver_on:  # a proven loss is never chosen
        for k in range(count):
            if proven[first + k] == LOSS:
                scores[k] = -math.inf
    # The first strictly highest score, found as two searches, over the even and the odd
    # children, then the better of the two (the lower index on a tie): two short chains of
    # dependent comparisons instead of one long one, on the path of every step down.
    even, even_score = 0, scores[0]
    odd, odd_score = 1, -math.inf  # no odd child yet (and none at all if count is 1)
    for k in range(1, count, 2):
        if scores[k] > odd_score:
            odd, odd_score = k, scores[k]
    for k in range(2, count, 2):
        if scores[k] > even_score:
            even, even_score = k, scores[k]
    best = odd if odd_score > even_score or (odd_score == even_score and odd < even) else even
    # If every child is a proven loss, this is child 0: only a proven node has every
    # child lost, and the search never enters one.
    return first + best


@njit(cache=True, inline="always")  # like _select: a call would pass ten arrays
def _expand(node, s, count, capacity, rng, tree_wins, scoring, move, first_child, child_count,
            visits, wins, proven, buf):
    """Add one child per legal move of ``s`` (shuffled) below ``node``; return the new count.

    With ``tree_wins``, a position where the player to move wins at once gets
    one child, its lowest winning move: the rule of win-taking playouts, applied
    in the tree (jacek's 1-ply win check at expansion). Returns ``count``
    unchanged when the children do not fit: a full pool stops growing.
    """
    if tree_wins and winning_moves(s, scoring, buf) > 0:
        n = 1  # buf[0], the lowest winning move
    else:
        n = legal_moves(s, buf)
    if count + n > capacity:
        return count
    shuffle_prefix(buf, n, rng)
    add_children(node, count, n, buf, move, first_child, child_count, visits, wins, proven,
                 UNKNOWN)
    return count + n


@njit(cache=True, error_model="numpy", inline="always")  # inlines _select; like it, no call
def _descend(root_state, s, path, c, solver_on, expand, count, capacity, rng, tree_wins, scoring,
             move, first_child, child_count, visits, wins, proven, buf, scores):
    """Selection and expansion of one iteration from ``root_state``: ``(node, depth, count)``.

    Copies ``root_state`` into ``s``, descends by :func:`_select` while the
    node has children, and expands the leaf reached if its game is on and it
    has ``expand`` visits (the root at once), stepping into its first child.
    ``path[:depth]`` holds the nodes from the root to ``node``, ``s`` its
    position; ``count`` is the pool's new node count. Shared by
    :func:`search_kernel` and :func:`mctslib.fast.uttt_parallel.leaf_search`.
    """
    for i in range(STATE_SIZE):  # a plain loop: `s[:] =` checks shapes per element
        s[i] = root_state[i]
    node, depth = 0, 1
    path[0] = 0
    while child_count[node] > 0:  # selection
        node = _select(node, c, solver_on, first_child, child_count, visits, wins, proven,
                       scores)
        play(s, move[node])
        path[depth] = node
        depth += 1
    if s[OUTCOME] == ONGOING and (visits[node] >= expand or node == 0):  # expansion
        grown = _expand(node, s, count, capacity, rng, tree_wins, scoring, move, first_child,
                        child_count, visits, wins, proven, buf)
        if grown > count:
            node = count
            count = grown
            play(s, move[node])
            path[depth] = node
            depth += 1
    return node, depth, count


@njit(cache=True)
def win_taking_playout(s, rng, scoring, buf):
    """Random moves in place until the game ends, except that an immediate win is always taken.

    Before each move the side to move looks for a move that wins the game at
    once; if it has one it plays the lowest (the game ends), otherwise it
    plays ``legal moves[below(count)]`` like
    :func:`mctslib.fast.uttt.random_playout`. Returns ``s[OUTCOME]``. Same
    moves as :func:`win_taking_playout_reference` (the tests check); the
    fast loop is :func:`mctslib.fast.uttt.playout`.
    """
    return playout(s, rng, True, scoring, buf)


@njit(cache=True)
def win_taking_playout_reference(s, rng, scoring, buf):
    """The same playout written plainly with ``play`` (the tests check both agree)."""
    while s[OUTCOME] == ONGOING:
        if winning_moves(s, scoring, buf) > 0:
            play(s, buf[0])
        else:
            play(s, random_move(s, rng))
    return s[OUTCOME]


@njit(cache=True)
def _all_children_lost(node, first_child, child_count, proven):
    first = first_child[node]
    for child in range(first, first + child_count[node]):
        if proven[child] != LOSS:
            return False
    return True


@njit(cache=True)
def _prove_leaf(node, s, scoring, proven):
    """Mark a leaf whose game is over: a win or a loss for the player who moved into it."""
    won_by = winner(s, scoring)
    if won_by >= 0:
        proven[node] = WIN if won_by == 1 - s[PLAYER] else LOSS


@njit(cache=True, inline="always")  # like _select: a call would pass seven arrays
def _backup(path, depth, reward, pm1, solver_on, first_child, child_count, visits, wins, proven):
    """Backpropagation of one iteration: ``reward`` (for the player who moved into
    ``path[depth - 1]``) added along ``path[:depth]``, each node crediting the player who
    moved into it; with the solver, a proven win makes its parent a proven loss, and a
    parent whose children are all proven losses a proven win, as far up as proofs go.
    Shared by :func:`search_kernel` and :mod:`mctslib.fast.uttt_prior_uct`.
    """
    proving = solver_on
    for d in range(depth - 1, -1, -1):
        current = path[d]
        visits[current] += 1
        wins[current] += reward
        reward = -reward if pm1 else 1.0 - reward
        if proving and d > 0:
            parent = path[d - 1]
            if proven[current] == WIN:  # the player at parent has a winning move
                proven[parent] = LOSS
            elif proven[current] == LOSS and _all_children_lost(parent, first_child,
                                                                 child_count, proven):
                proven[parent] = WIN
            else:
                proving = False


# error_model: _select is inlined here (see its docstring). _nrt=False: numba counts the
# references to the arrays it hands to an inlined function, and its pruning pass leaves a
# pair of atomic reference-count updates per step of the descent and nine per expansion.
# The search allocates nothing, so it runs without numba's runtime (an allocation added
# here would fail to compile, not leak); measured: 1% faster in a search of 20,000
# iterations, 2% in a 100 ms turn (about 130,000 iterations), the same trees.
def search(root_state, iterations, c, pm1, playout, tree_wins, solver_on, scoring, rng,
           used, move, first_child, child_count, visits, wins, proven, scratch, path, buf, scores,
           expand=1, copy=None, draw=0.5, cutoff=0, cutoff_scale=DEFAULT_CUTOFF_SCALE):
    """Run up to ``iterations`` UCT iterations from ``root_state``; return how many ran.

    A thin Python front of the compiled :func:`search_kernel` (same arguments):
    the last five may be left out, as callers written before they existed do
    (``playout`` then given as False or True). The bot passes them all.
    """
    if copy is None:
        copy = np.zeros(STATE_SIZE, dtype=np.int64)
    return search_kernel(root_state, iterations, c, pm1, int(playout), tree_wins, solver_on,
                         scoring, rng, used, move, first_child, child_count, visits, wins,
                         proven, scratch, path, buf, scores, int(expand), copy, float(draw),
                         int(cutoff), float(cutoff_scale))


@njit(cache=True, error_model="numpy", _nrt=False)
def search_kernel(root_state, iterations, c, pm1, playout, tree_wins, solver_on, scoring, rng,
                  used, move, first_child, child_count, visits, wins, proven, scratch, path, buf,
                  scores, expand, copy, draw, cutoff, cutoff_scale):
    """Run up to ``iterations`` UCT iterations from ``root_state``; return how many ran.

    Parameters
    ----------
    root_state : int64 array
        The root position (a :mod:`mctslib.fast.uttt` state, left unchanged).
    iterations : int
        Iterations to run; fewer run only when the solver proves the root.
    c : float
        Exploration constant.
    pm1 : bool
        Rewards 1/0/-1 (else 1/0.5/0).
    playout : int or bool
        The playout policy, a code of :mod:`mctslib.fast.uttt_playouts`
        (0 random, 1 win-taking, 2 safe, 3 capture, 4 greedy); False and True
        are 0 and 1 (random and win-taking playouts, as before the policies).
    tree_wins, solver_on : bool
        A position with an immediate win gets that one child in the tree;
        MCTS-Solver.
    scoring : int
        CODINGAME or OPENSPIEL (:func:`mctslib.fast.uttt.scoring_code`).
    rng : uint64 array of 1
        The xorshift64 state, advanced in place.
    used : int64 array of 1
        ``[nodes in use]``, updated in place; the tree continues across calls.
    move, first_child, child_count, visits, wins, proven
        The node arrays of a :class:`NodePool`.
    scratch, path, buf, scores
        Work arrays: a state (int64), :data:`MAX_PATH` node indices (int64), 81
        moves (int64), 81 scores (float64).
    expand : int
        A leaf gets its children once it has been visited ``expand`` times
        (1: on its second visit, the default; the root at once). A larger
        value keeps rarely visited leaves out of the pool: fewer nodes for
        the same iterations, at the price of a few playouts from each leaf
        before its children exist.
    copy : int64 array
        A second scratch state (read by the policies ``safe``, ``capture`` and
        ``greedy`` only).
    draw : float
        What a drawn playout is worth to the player to move at the root (0.5:
        neutral, as before); the other player is credited ``1 - draw``. Below
        0.5 it is a *contempt* for draws: against a weaker opponent the bot
        plays on for a win instead of settling.
    cutoff : int
        0: playouts run to the end of the game (as before). N > 0: a playout
        stops after N moves of its policy (made one :func:`policy_move` at a
        time, so not the same random draws as the full-length loop), and a
        position still on is worth ``1 / (1 + exp(-v / cutoff_scale))`` to the
        player who made the last move on the path, where ``v`` is
        :func:`mctslib.fast.uttt_alphabeta.evaluate` (weights
        :data:`CUTOFF_WEIGHTS`) from that player's side. A game that ends
        within the N moves is scored as before (``draw`` included).
    cutoff_scale : float
        Evaluation points per unit of log-odds (> 0). A logistic rather than
        the evaluation's sign: a position a little ahead is worth a little
        more than a half, not a whole win, so the search still averages
        graded evidence, as a playout's mean does; a won centre board (100
        points) is then worth 0.73 at the default 100.
    """
    capacity = move.shape[0]
    count = used[0]
    root_player = root_state[PLAYER]
    done = 0
    while done < iterations:
        if solver_on and proven[0] != UNKNOWN:
            break  # the root is proven: nothing left to learn
        node, depth, count = _descend(root_state, scratch, path, c, solver_on, expand, count,
                                      capacity, rng, tree_wins, scoring, move, first_child,
                                      child_count, visits, wins, proven, buf, scores)
        mover = 1 - scratch[PLAYER]  # who made the last move on the path
        if solver_on and scratch[OUTCOME] != ONGOING:
            _prove_leaf(node, scratch, scoring, proven)
        if cutoff > 0:  # simulation, cut off after `cutoff` moves
            for _ in range(cutoff):
                if scratch[OUTCOME] != ONGOING:
                    break
                play(scratch, policy_move(scratch, rng, playout, scoring, buf, copy))
        elif playout == RANDOM:  # simulation
            random_playout(scratch, rng)
        elif playout == WINS:
            win_taking_playout(scratch, rng, scoring, buf)
        else:
            policy_playout(scratch, rng, playout, scoring, buf, copy)
        if scratch[OUTCOME] == ONGOING:  # only after a cut-off: the evaluation decides
            value = evaluate(scratch, CUTOFF_WEIGHTS)  # for the side to move
            if scratch[PLAYER] != mover:
                value = -value
            reward = 1.0 / (1.0 + math.exp(-value / cutoff_scale))
        else:
            reward = result(scratch, mover, scoring)
            if reward == 0.5 and draw != 0.5:  # a draw, valued with contempt
                reward = draw if mover == root_player else 1.0 - draw
        if pm1:
            reward = 2.0 * reward - 1.0
        _backup(path, depth, reward, pm1, solver_on, first_child, child_count, visits, wins,
                proven)
        done += 1
    used[0] = count
    return done


@njit(cache=True)
def find_child(node, child_move, first_child, child_count, move):
    """Index of ``node``'s child reached by ``child_move``, or -1 (also for a leaf)."""
    first = first_child[node]
    for child in range(first, first + child_count[node]):
        if move[child] == child_move:
            return child
    return -1


@njit(cache=True)
def reroot(new_root, used, move, first_child, child_count, visits, wins, proven, new_index):
    """Keep only the subtree under ``new_root``, moved to the front of the pool; return its size.

    Children are always stored after their parent, so one pass in index order
    finds the whole subtree, and giving the kept nodes new indices in the same
    order moves every node to an index no larger than its old one: copying in
    that order never overwrites a node that is still to be copied, and
    siblings stay next to each other. No allocation: ``new_index`` is the
    pool's scratch array.
    """
    count = used[0]
    for i in range(new_root, count):
        new_index[i] = -1
    new_index[new_root] = -2  # -2: in the subtree, index not yet given
    kept = 0
    for i in range(new_root, count):
        if new_index[i] == -2:
            new_index[i] = kept
            kept += 1
            first = first_child[i]
            for child in range(first, first + child_count[i]):
                new_index[child] = -2
    for i in range(new_root, count):
        target = new_index[i]
        if target < 0:
            continue
        move[target] = move[i]
        child_count[target] = child_count[i]
        first_child[target] = new_index[first_child[i]] if child_count[i] > 0 else 0
        visits[target] = visits[i]
        wins[target] = wins[i]
        proven[target] = proven[i]
    move[0] = -1
    used[0] = kept
    return kept


@njit(cache=True)
def playout_tally(s, playouts, rng, scoring, wins_on):
    """Run ``playouts`` playouts from ``s`` (left unchanged), random or win-taking.

    Returns an int64 array ``[X wins, O wins, draws, total moves played]``
    under ``scoring``: what the chapter compares to show that win-taking
    playouts change the verdicts a search learns from.
    """
    counts = np.zeros(4, dtype=np.int64)
    scratch = np.empty_like(s)
    buf = np.empty(81, dtype=np.int64)
    marks_before = 0
    for b in range(18):
        marks_before += popcount(s[b])
    for _ in range(playouts):
        scratch[:] = s
        if wins_on:
            win_taking_playout(scratch, rng, scoring, buf)
        else:
            random_playout(scratch, rng)
        won_by = winner(scratch, scoring)
        counts[2 if won_by < 0 else won_by] += 1
        for b in range(18):
            counts[3] += popcount(scratch[b])
        counts[3] -= marks_before
    return counts

