"""The speed ladder: from a first compiled UCT for Ultimate Tic-Tac-Toe to the bot's, one step at a time.

Chapter "How a Legend bot gets its strength". Every rung is the same
algorithm as the readable :class:`mctslib.search.uct.UCTSearch` on
:class:`~mctslib.games.uttt.UltimateTicTacToe` (plain UCT, random playouts,
children on a node's second visit, shuffled by Fisher-Yates, the first
strictly highest UCB1 score), with the same xorshift64 draws, so every rung
grows the same tree for the same seed (the tests compare them node for node):
only the speed differs. Each rung changes one thing of the rung before:

1. :func:`grid_search`: compiled, written the obvious way: a position is a
   grid of 81 cells plus a status per small board; a line is found by
   looking at the three cells of each of the 8 lines; every move makes a
   new position (as an immutable object would); the legal moves are a new
   list each time; a node's children live in an array allocated when the
   node is expanded (numba's nearest thing to ``new Node``), reached through
   a list of such arrays.
2. :func:`bitboard_search`: the position as bitboards: a 9-bit mask of each
   player's marks in each small board (and masks of the open cells, the won
   and the closed boards); a line is ``marks & line == line`` for each of
   the 8 line masks.
3. :func:`table_search`: 512-entry tables answer in one look-up what the
   loops computed: ``HAS_LINE[mask]`` (is this mask a win?), ``COMPLETES[mask]``
   (which empty cells would win it?) and ``SELECT[mask, k]`` (the k-th free
   cell: a random move without a list). These are the engine's own
   functions, :mod:`mctslib.fast.uttt`.
4. :func:`copy_once_search`: one copy of the root per iteration, into a
   scratch array, then every move of the path and the playout in place
   (instead of a new position per move). :func:`make_unmake_search` is the
   other way to avoid the copies: play the path on the root itself and undo
   it after the iteration (measured beside it).
5. :func:`pool_search`: the tree as a *node pool*: flat arrays (move, first
   child, child count, visits, wins) allocated once, a node's children next
   to each other, instead of an array per node reached through a list.
6. :func:`no_alloc_search`: nothing allocated inside the loop: the list of
   legal moves written into one buffer, the path into another.
7. The bot's own kernel, :func:`mctslib.fast.uttt_uct.search_kernel` (the
   playout keeps the position's fields in registers, the scores of a node's
   children are computed eight at a time, logarithms come from a table):
   the last rung, measured by ``benchmarks/speed_ladder.py`` beside these.

Each ``*_search(root, iterations, c, rng)`` takes a state array of its
representation (:func:`grid_position` for rung 1, :func:`mctslib.fast.uttt.to_array`
for the others) and returns ``(moves, visits)`` of the root's children in tree
order; ``rng`` is the xorshift64 state (a one-element uint64 array), advanced.
CodinGame scoring.

Why one module: the ladder is read top to bottom, each rung beside the one it
changes, and the rungs share their search loops (rungs 1 to 4 pass their own
game functions to one object-tree loop, :func:`object_tree_search`, the
make/unmake side step has its own, rungs 5 and 6 share
:func:`pool_tree_search`), so a rung is a few lines here and a diff against
its neighbour. Split by rung, every file would import the loops
and the rules of the rungs before it, and the one change a rung makes would
no longer be visible next to what it replaces. :data:`RUNGS` lists them for
the tests and ``benchmarks/speed_ladder.py``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numba.typed import List

from . import uttt as engine
from .xorshift import below

# ----------------------------------------------------------------------------- rung 1: a grid

#: Grid layout: cells 0..80 (0 empty, 1 X, 2 O, row by row), then a status per board
#: (0 open, 1 won by X, 2 won by O, 3 full), the forced board (-1: free), player, outcome.
G_STATUS, G_FORCED, G_PLAYER, G_OUTCOME = 81, 90, 91, 92
GRID_SIZE = 93
#: The 8 lines of a 3x3 board as local cells 0..8 (row by row).
LINES = np.array([[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8],
                  [2, 4, 6]], dtype=np.int64)


def grid_position(state) -> np.ndarray:
    """The rung-1 grid of a readable position (CodinGame scoring)."""
    s = np.zeros(GRID_SIZE, dtype=np.int64)
    for move in range(81):
        board, cell = 3 * (move // 27) + move % 9 // 3, 3 * (move // 9 % 3) + move % 3
        for player, masks in enumerate((state.x, state.o)):
            if masks[board] >> cell & 1:
                s[move] = player + 1
    for board in range(9):
        status = state.board_status(board)
        s[G_STATUS + board] = {"open": 0, "X": 1, "O": 2, "drawn": 3}[status]
    s[G_FORCED] = -1 if state.forced_board is None else state.forced_board
    s[G_PLAYER] = state.player_to_move
    ending = state.ending()
    s[G_OUTCOME] = -1 if ending is None else (2 if ending != "line" else state.winner())
    return s


@njit(cache=True)
def _cell_of(board, local):
    """The grid index of cell ``local`` of small board ``board``."""
    return 9 * (3 * (board // 3) + local // 3) + 3 * (board % 3) + local % 3


@njit(cache=True)
def _board_has_line(s, board, mark):
    for line in range(8):
        if (s[_cell_of(board, LINES[line, 0])] == mark and s[_cell_of(board, LINES[line, 1])] == mark
                and s[_cell_of(board, LINES[line, 2])] == mark):
            return True
    return False


@njit(cache=True)
def _big_has_line(s, mark):
    for line in range(8):
        if (s[G_STATUS + LINES[line, 0]] == mark and s[G_STATUS + LINES[line, 1]] == mark
                and s[G_STATUS + LINES[line, 2]] == mark):
            return True
    return False


@njit(cache=True)
def grid_play(s, move):
    """Play ``move`` on a copy of the grid ``s``; return the copy (``s`` is unchanged)."""
    s = s.copy()
    player, mark = s[G_PLAYER], s[G_PLAYER] + 1
    row, col = move // 9, move % 9
    board, cell = 3 * (row // 3) + col // 3, 3 * (row % 3) + col % 3
    s[move] = mark
    if _board_has_line(s, board, mark):
        s[G_STATUS + board] = mark
    else:
        full = True
        for local in range(9):
            full = full and s[_cell_of(board, local)] != 0
        if full:
            s[G_STATUS + board] = 3
    open_boards = 0
    for b in range(9):
        open_boards += s[G_STATUS + b] == 0
    if s[G_STATUS + board] == mark and _big_has_line(s, mark):
        s[G_OUTCOME] = player
    elif open_boards == 0:
        s[G_OUTCOME] = 2
    s[G_FORCED] = cell if s[G_OUTCOME] == -1 and s[G_STATUS + cell] == 0 else -1
    s[G_PLAYER] = 1 - player
    return s


@njit(cache=True)
def grid_legal(s):
    """A new array of the legal moves, ascending (empty once the game is over).

    A forced turn reads the nine cells of its board (in cell order, which is
    move order within a board); a free choice reads the whole grid.
    """
    moves = np.empty(81, dtype=np.int64)
    n = 0
    if s[G_OUTCOME] != -1:
        return moves[:0]
    forced = s[G_FORCED]
    if forced >= 0:
        for local in range(9):
            move = _cell_of(forced, local)
            if s[move] == 0:
                moves[n] = move
                n += 1
        return moves[:n]
    for move in range(81):
        if s[move] == 0 and s[G_STATUS + 3 * (move // 27) + move % 9 // 3] == 0:
            moves[n] = move
            n += 1
    return moves[:n]


@njit(cache=True)
def grid_result(s, player):
    """1, 0.5 or 0 for ``player`` in a finished game (CodinGame scoring)."""
    outcome = s[G_OUTCOME]
    if outcome == 2:
        won = np.zeros(3, dtype=np.int64)
        for b in range(9):
            won[s[G_STATUS + b] % 3] += 1
        outcome = 0 if won[1] > won[2] else 1 if won[2] > won[1] else -1
    if outcome < 0:
        return 0.5
    return 1.0 if outcome == player else 0.0


@njit(cache=True)
def grid_random_move(s, rng):
    """``legal moves[below(count)]``, from a new list."""
    moves = grid_legal(s)
    return moves[below(rng, len(moves))]


@njit(cache=True)
def grid_over(s):
    return s[G_OUTCOME] != -1


@njit(cache=True)
def grid_player(s):
    return s[G_PLAYER]


# ----------------------------------------------------------------------------- rung 2: bitboards

#: The 8 lines of a 3x3 board as 9-bit masks (bit = 3 * row + col).
LINE_MASKS = np.array([0x007, 0x038, 0x1C0, 0x049, 0x092, 0x124, 0x111, 0x054], dtype=np.int64)
FREE, WON, CLOSED, FORCED, PLAYER, OUTCOME = (engine.FREE, engine.WON, engine.CLOSED,
                                              engine.FORCED, engine.PLAYER, engine.OUTCOME)


@njit(cache=True)
def has_line(marks):
    """Does a 9-bit mask hold a line? Eight mask tests."""
    for line in LINE_MASKS:
        if marks & line == line:
            return True
    return False


@njit(cache=True)
def bitboard_play(s, move):
    """Play ``move`` on a copy of the bitboards ``s``; return the copy."""
    s = s.copy()
    player = s[PLAYER]
    row, col = move // 9, move % 9
    board, cell = 3 * (row // 3) + col // 3, 3 * (row % 3) + col % 3
    s[9 * player + board] |= 1 << cell
    s[FREE + board] &= ~(1 << cell)
    if has_line(s[9 * player + board]):
        s[WON + player] |= 1 << board
        s[FREE + board] = 0
    if s[FREE + board] == 0:
        s[CLOSED] |= 1 << board
    if has_line(s[WON + player]):
        s[OUTCOME] = player
    elif s[CLOSED] == 0x1FF:
        s[OUTCOME] = engine.ALL_CLOSED
    s[FORCED] = -1 if s[OUTCOME] != -1 or (s[CLOSED] >> cell) & 1 else cell
    s[PLAYER] = 1 - player
    return s


@njit(cache=True)
def bitboard_legal(s):
    """A new array of the legal moves, ascending: the set bits of the free-cell masks.

    A forced turn reads one mask (cell order is move order within a board); a
    free choice goes row by row through the grid, so that moves come out ascending.
    """
    moves = np.empty(81, dtype=np.int64)
    n = 0
    if s[OUTCOME] != -1:
        return moves[:0]
    forced = s[FORCED]
    if forced >= 0:
        free = s[FREE + forced]
        for cell in range(9):
            if (free >> cell) & 1:
                moves[n] = _cell_of(forced, cell)
                n += 1
        return moves[:n]
    for move in range(81):
        row, col = move // 9, move % 9
        if (s[FREE + 3 * (row // 3) + col // 3] >> (3 * (row % 3) + col % 3)) & 1:
            moves[n] = move
            n += 1
    return moves[:n]


@njit(cache=True)
def bitboard_result(s, player):
    """1, 0.5 or 0 for ``player`` in a finished game (CodinGame scoring)."""
    return engine.result(s, player, engine.CODINGAME)


@njit(cache=True)
def bitboard_random_move(s, rng):
    """``legal moves[below(count)]``, from a new list."""
    moves = bitboard_legal(s)
    return moves[below(rng, len(moves))]


@njit(cache=True)
def bitboard_over(s):
    return s[OUTCOME] != -1


@njit(cache=True)
def bitboard_player(s):
    return s[PLAYER]


# ----------------------------------------------------------------------------- rung 3: tables


@njit(cache=True)
def table_play(s, move):
    """The engine's move (table look-ups) on a copy of ``s``; return the copy."""
    s = s.copy()
    engine.play(s, move)
    return s


@njit(cache=True)
def table_legal(s):
    """The engine's legal moves (table look-ups), into a new array."""
    moves = np.empty(81, dtype=np.int64)
    return moves[:engine.legal_moves(s, moves)]


# ----------------------------------------------------------------------------- search skeletons


@njit(cache=True)
def _ucb1_child(children, visits, wins, parent_visits, c):
    """The first unvisited child, else the first strictly highest UCB1 score."""
    log_parent = math.log(parent_visits)
    best, best_score = children[0], -math.inf
    for child in children:
        if visits[child] == 0:
            return child
        score = wins[child] / visits[child] + c * math.sqrt(log_parent / visits[child])
        if score > best_score:
            best, best_score = child, score
    return best


@njit(cache=True)
def _shuffle(moves, rng):
    for i in range(len(moves) - 1, 0, -1):
        j = below(rng, i + 1)
        moves[i], moves[j] = moves[j], moves[i]


@njit  # compiled once per set of functions passed; not cached (see grid_search)
def object_tree_search(root, iterations, c, rng, legal, play, random_move, result, over, player,
                       copy_once):
    """UCT with a node's children in an array of their own, allocated when it is expanded.

    ``legal(s)`` returns a new array of moves; ``play(s, move)`` returns the
    position after ``move``: a new one (rungs 1-3, ``copy_once`` False) or
    ``s`` changed in place (rung 4: the root copied into a scratch array once
    per iteration). A random playout plays ``random_move(s, rng)`` (the move
    ``legal(s)[below(count)]``) until the game ends.
    """
    children = List()  # one array of child indices per node
    children.append(np.empty(0, dtype=np.int64))
    move = List()
    move.append(-1)
    visits = List()
    visits.append(0)
    wins = List()
    wins.append(0.0)
    path = np.empty(82, dtype=np.int64)
    scratch = np.empty_like(root)
    for _ in range(iterations):
        s = root
        if copy_once:
            scratch[:] = root
            s = scratch
        node, depth = 0, 1
        path[0] = 0
        while len(children[node]) > 0:  # selection
            node = _ucb1_child(children[node], visits, wins, visits[node], c)
            s = play(s, move[node])
            path[depth] = node
            depth += 1
        if not over(s) and (visits[node] > 0 or node == 0):  # expansion
            moves = legal(s)
            _shuffle(moves, rng)
            kids = np.empty(len(moves), dtype=np.int64)
            for k in range(len(moves)):
                kids[k] = len(move)
                children.append(np.empty(0, dtype=np.int64))
                move.append(moves[k])
                visits.append(0)
                wins.append(0.0)
            children[node] = kids
            node = kids[0]
            s = play(s, move[node])
            path[depth] = node
            depth += 1
        mover = 1 - player(s)
        while not over(s):  # simulation
            s = play(s, random_move(s, rng))
        reward = result(s, mover)
        for d in range(depth - 1, -1, -1):  # backpropagation
            visits[path[d]] += 1
            wins[path[d]] += reward
            reward = 1.0 - reward
    kids = children[0]
    out_moves, out_visits = np.empty(len(kids), np.int64), np.empty(len(kids), np.int64)
    for k in range(len(kids)):
        out_moves[k], out_visits[k] = move[kids[k]], visits[kids[k]]
    return out_moves, out_visits


@njit  # not cached: it passes functions, which numba's cache cannot store
def grid_search(root, iterations, c, rng):
    """Rung 1: a grid of cells, a new position every move, an array of children per node."""
    return object_tree_search(root, iterations, c, rng, grid_legal, grid_play, grid_random_move,
                              grid_result, grid_over, grid_player, False)


@njit  # not cached: it passes functions, which numba's cache cannot store
def bitboard_search(root, iterations, c, rng):
    """Rung 2: bitboards, lines by mask tests; otherwise rung 1."""
    return object_tree_search(root, iterations, c, rng, bitboard_legal, bitboard_play,
                              bitboard_random_move, bitboard_result, bitboard_over,
                              bitboard_player, False)


@njit  # not cached: it passes functions, which numba's cache cannot store
def table_search(root, iterations, c, rng):
    """Rung 3: the engine's table look-ups; otherwise rung 2."""
    return object_tree_search(root, iterations, c, rng, table_legal, table_play,
                              engine.random_move, bitboard_result, bitboard_over,
                              bitboard_player, False)


@njit(cache=True)
def _play_in_place(s, move):
    engine.play(s, move)
    return s


@njit  # not cached: it passes functions, which numba's cache cannot store
def copy_once_search(root, iterations, c, rng):
    """Rung 4: one copy of the root per iteration, every move in place; otherwise rung 3."""
    return object_tree_search(root, iterations, c, rng, table_legal, _play_in_place,
                              engine.random_move, bitboard_result, bitboard_over,
                              bitboard_player, True)


#: Entries an undo record keeps (:func:`make`): the marks' index and eight saved values.
UNDO_SIZE = 9


@njit(cache=True)
def make(s, move, undo):
    """Play ``move`` in place, saving in ``undo`` what :func:`unmake` needs to restore ``s``."""
    player = s[PLAYER]
    board = engine.BOARD_OF[move]
    undo[0] = 9 * player + board
    undo[1] = s[undo[0]]
    undo[2], undo[3], undo[4] = s[FREE + board], s[WON + player], s[CLOSED]
    undo[5], undo[6], undo[7], undo[8] = s[engine.FREE_COUNT], s[FORCED], player, s[OUTCOME]
    engine.play(s, move)


@njit(cache=True)
def unmake(s, move, undo):
    """Undo :func:`make` of ``move``."""
    player, board = undo[7], engine.BOARD_OF[move]
    s[undo[0]] = undo[1]
    s[FREE + board], s[WON + player], s[CLOSED] = undo[2], undo[3], undo[4]
    s[engine.FREE_COUNT], s[FORCED], s[PLAYER], s[OUTCOME] = undo[5], undo[6], undo[7], undo[8]


@njit(cache=True)
def make_unmake_search(root, iterations, c, rng):
    """Rung 4, the other way: the path made on the root and unmade after each iteration.

    The playout cannot be undone cheaply move by move (it is thrown away), so
    it still runs on a copy of the leaf's position.
    """
    root = root.copy()
    children = List()  # one array of child indices per node
    children.append(np.empty(0, dtype=np.int64))
    move = List()
    move.append(-1)
    visits = List()
    visits.append(0)
    wins = List()
    wins.append(0.0)
    path = np.empty(82, dtype=np.int64)
    undo = np.empty((82, UNDO_SIZE), dtype=np.int64)
    s = np.empty_like(root)
    for _ in range(iterations):
        node, depth = 0, 1
        path[0] = 0
        while len(children[node]) > 0:
            node = _ucb1_child(children[node], visits, wins, visits[node], c)
            make(root, move[node], undo[depth])
            path[depth] = node
            depth += 1
        if root[OUTCOME] == -1 and (visits[node] > 0 or node == 0):
            moves = table_legal(root)
            _shuffle(moves, rng)
            kids = np.empty(len(moves), dtype=np.int64)
            for k in range(len(moves)):
                kids[k] = len(move)
                children.append(np.empty(0, dtype=np.int64))
                move.append(moves[k])
                visits.append(0)
                wins.append(0.0)
            children[node] = kids
            node = kids[0]
            make(root, move[node], undo[depth])
            path[depth] = node
            depth += 1
        mover = 1 - root[PLAYER]
        s[:] = root
        while s[OUTCOME] == -1:
            engine.play(s, engine.random_move(s, rng))
        reward = engine.result(s, mover, engine.CODINGAME)
        for d in range(depth - 1, -1, -1):
            visits[path[d]] += 1
            wins[path[d]] += reward
            reward = 1.0 - reward
            if d > 0:
                unmake(root, move[path[d]], undo[d])
    kids = children[0]
    out_moves, out_visits = np.empty(len(kids), np.int64), np.empty(len(kids), np.int64)
    for k in range(len(kids)):
        out_moves[k], out_visits[k] = move[kids[k]], visits[kids[k]]
    return out_moves, out_visits


@njit(cache=True)
def pool_tree_search(root, iterations, c, rng, move, first_child, child_count, visits, wins,
                     allocate):
    """UCT on a node pool: flat arrays allocated once, a node's children next to each other.

    The pool's arrays (:class:`NodePool`) are made once by the caller and
    reused by every search (node 0, the root, is reset here).

    ``allocate``: the path is a new array each iteration and the legal moves a
    new array at each expansion (rung 5), or both are buffers made once (rung 6).
    """
    capacity = move.shape[0]
    child_count[0], visits[0], wins[0] = 0, 0, 0.0
    count = 1
    scratch = np.empty_like(root)
    path_buffer = np.empty(82, dtype=np.int64)
    moves_buffer = np.empty(81, dtype=np.int64)
    for _ in range(iterations):
        path = np.empty(82, dtype=np.int64) if allocate else path_buffer
        scratch[:] = root
        node, depth = 0, 1
        path[0] = 0
        while child_count[node] > 0:
            node = _ucb1_range(first_child[node], child_count[node], visits, wins, visits[node],
                               c)
            engine.play(scratch, move[node])
            path[depth] = node
            depth += 1
        if scratch[OUTCOME] == -1 and (visits[node] > 0 or node == 0):
            moves = np.empty(81, dtype=np.int64) if allocate else moves_buffer
            n = engine.legal_moves(scratch, moves)
            if count + n <= capacity:
                for i in range(n - 1, 0, -1):
                    j = below(rng, i + 1)
                    moves[i], moves[j] = moves[j], moves[i]
                first_child[node], child_count[node] = count, n
                for k in range(n):
                    move[count + k] = moves[k]
                    child_count[count + k], visits[count + k], wins[count + k] = 0, 0, 0.0
                node = count
                count += n
                engine.play(scratch, move[node])
                path[depth] = node
                depth += 1
        mover = 1 - scratch[PLAYER]
        while scratch[OUTCOME] == -1:
            engine.play(scratch, engine.random_move(scratch, rng))
        reward = engine.result(scratch, mover, engine.CODINGAME)
        for d in range(depth - 1, -1, -1):
            visits[path[d]] += 1
            wins[path[d]] += reward
            reward = 1.0 - reward
    first, n = first_child[0], child_count[0]
    return move[first:first + n].copy(), visits[first:first + n].copy()


@njit(cache=True)
def _ucb1_range(first, count, visits, wins, parent_visits, c):
    """:func:`_ucb1_child` over the children ``first .. first + count - 1`` (no array of them)."""
    log_parent = math.log(parent_visits)
    best, best_score = first, -math.inf
    for child in range(first, first + count):
        if visits[child] == 0:
            return child
        score = wins[child] / visits[child] + c * math.sqrt(log_parent / visits[child])
        if score > best_score:
            best, best_score = child, score
    return best


class NodePool:
    """The five flat arrays of rungs 5 and 6, allocated once (``capacity`` nodes)."""

    def __init__(self, capacity: int = 2_000_000):
        self.arrays = (np.zeros(capacity, dtype=np.int64), np.zeros(capacity, dtype=np.int64),
                       np.zeros(capacity, dtype=np.int64), np.zeros(capacity, dtype=np.int64),
                       np.zeros(capacity, dtype=np.float64))


_POOL: list = []


def _pool() -> NodePool:
    if not _POOL:
        _POOL.append(NodePool())
    return _POOL[0]


def pool_search(root, iterations, c, rng, pool: NodePool | None = None):
    """Rung 5: a node pool instead of an array of children per node; otherwise rung 4."""
    return pool_tree_search(root, iterations, c, rng, *(pool or _pool()).arrays, True)


def no_alloc_search(root, iterations, c, rng, pool: NodePool | None = None):
    """Rung 6: no allocation inside the loop; otherwise rung 5."""
    return pool_tree_search(root, iterations, c, rng, *(pool or _pool()).arrays, False)


#: The rungs in order, with the representation each takes ("grid" or "bitboards").
RUNGS = {
    "grid": (grid_search, "grid"),
    "bitboards": (bitboard_search, "bitboards"),
    "tables": (table_search, "bitboards"),
    "copy once": (copy_once_search, "bitboards"),
    "make/unmake": (make_unmake_search, "bitboards"),
    "node pool": (pool_search, "bitboards"),
    "no allocation": (no_alloc_search, "bitboards"),
}
