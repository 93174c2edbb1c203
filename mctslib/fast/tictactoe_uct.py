"""The UCT tic-tac-toe harness in numba: the twin of :class:`mctslib.search.uct.UCTSearch`.

Same board masks, same xorshift64 stream, same order of operations as the
readable UCT with an :class:`~mctslib.xorshift.XorShift64`, so both print the
same harness numbers (UCT chapter). The tree is a set of flat arrays allocated
once per searcher: children of a node sit next to each other, a node stores
the index of its first child and their count.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._checks import check_int, check_real
from ..games.tictactoe import LINES
from .xorshift import below, new_rng, shuffle_prefix, xorshift_next  # noqa: F401 (re-exported for tests)

_LINES = np.array(LINES, dtype=np.int64)
ONGOING, X_WINS, O_WINS, DRAW = -1, 0, 1, 2
#: Nodes of tic-tac-toe's whole game tree, the root included (every move order): a search
#: expands each node at most once, so no tree, however many iterations, has more.
GAME_TREE_NODES = 549_946
#: Iterations per search: far beyond the point where the whole tree is built.
MAX_ITERATIONS = 100_000_000


@njit(cache=True)
def popcount(mask):
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@njit(cache=True)
def status(x, o):
    """X_WINS, O_WINS (X's lines checked first), DRAW on a full board, else ONGOING."""
    for line in _LINES:
        if x & line == line:
            return X_WINS
    for line in _LINES:
        if o & line == line:
            return O_WINS
    if x | o == 0x1FF:
        return DRAW
    return ONGOING


@njit(cache=True)
def random_cell(x, o, rng):
    """The below(free count)-th free cell in ascending order (drop the lowest bit k times)."""
    free = 0x1FF & ~(x | o)
    for _ in range(below(rng, popcount(free))):
        free &= free - 1
    cell = 0
    while not (free >> cell) & 1:
        cell += 1
    return cell


@njit(cache=True)
def play(x, o, cell):
    """Put the mark of the player to move (from the mark count) on ``cell``."""
    if popcount(x | o) % 2 == 0:
        return x | (1 << cell), o
    return x, o | (1 << cell)


@njit(cache=True)
def search(x, o, iterations, c, rng, move, first_child, child_count, visits, wins):
    """Run ``iterations`` UCT iterations from (x, o) and return the most visited move."""
    count = 1  # node 0 is the root
    first_child[0] = 0
    child_count[0] = 0
    visits[0] = 0
    wins[0] = 0.0
    path = np.empty(11, dtype=np.int64)
    cells = np.empty(9, dtype=np.int64)
    for _ in range(iterations):
        node, bx, bo, depth = 0, x, o, 1
        path[0] = 0
        while child_count[node] > 0:  # selection
            log_parent = math.log(visits[node])
            best, best_score = -1, -math.inf
            for child in range(first_child[node], first_child[node] + child_count[node]):
                if visits[child] == 0:
                    best = child
                    break
                score = wins[child] / visits[child] + c * math.sqrt(log_parent / visits[child])
                if score > best_score:
                    best, best_score = child, score
            node = best
            bx, bo = play(bx, bo, move[node])
            path[depth] = node
            depth += 1
        if status(bx, bo) == ONGOING and (visits[node] > 0 or node == 0):  # expansion
            free = 0x1FF & ~(bx | bo)
            n = 0
            for cell in range(9):
                if (free >> cell) & 1:
                    cells[n] = cell
                    n += 1
            shuffle_prefix(cells, n, rng)
            first_child[node] = count
            child_count[node] = n
            for k in range(n):
                move[count + k] = cells[k]
                child_count[count + k] = 0
                visits[count + k] = 0
                wins[count + k] = 0.0
            node = count
            count += n
            bx, bo = play(bx, bo, move[node])
            path[depth] = node
            depth += 1
        mover = (popcount(bx | bo) + 1) % 2  # who made the last move on the path
        result = status(bx, bo)
        while result == ONGOING:  # simulation
            bx, bo = play(bx, bo, random_cell(bx, bo, rng))
            result = status(bx, bo)
        reward = 0.5 if result == DRAW else (1.0 if result == mover else 0.0)
        for d in range(depth - 1, -1, -1):  # backpropagation
            visits[path[d]] += 1
            wins[path[d]] += reward
            reward = 1.0 - reward
    best = first_child[0]
    for child in range(first_child[0] + 1, first_child[0] + child_count[0]):
        if visits[child] > visits[best]:
            best = child
    return move[best]


@njit(cache=True)
def play_games(games, search_plays_x, iterations, c, search_rng, opponent_rng,
               move, first_child, child_count, visits, wins):
    """Games against the uniformly random opponent; returns (wins, draws, losses) of the search."""
    won = drawn = lost = 0
    search_player = 0 if search_plays_x else 1
    for _ in range(games):
        x, o = 0, 0
        result = ONGOING
        while result == ONGOING:
            if popcount(x | o) % 2 == search_player:
                cell = search(x, o, iterations, c, search_rng, move, first_child, child_count,
                              visits, wins)
            else:
                cell = random_cell(x, o, opponent_rng)
            x, o = play(x, o, cell)
            result = status(x, o)
        if result == DRAW:
            drawn += 1
        elif result == search_player:
            won += 1
        else:
            lost += 1
    return won, drawn, lost


class FastTicTacToeUCT:
    """A numba UCT searcher for tic-tac-toe with its xorshift state and node arrays.

    The arrays are sized once for ``iterations`` (each iteration adds at most
    nine nodes, and no tree has more than :data:`GAME_TREE_NODES`: about 22 MB
    at most) and reused by every search; the xorshift state continues across
    searches, as in the reference harness. ``iterations`` is 1 to
    :data:`MAX_ITERATIONS`, ``exploration`` a finite number >= 0.
    """

    def __init__(self, iterations: int, exploration: float, seed: int):
        self.iterations = check_int("iterations", iterations, 1, MAX_ITERATIONS)
        self.exploration = check_real("exploration", exploration, 0.0)
        self.rng = new_rng(seed)
        capacity = min(9 * self.iterations + 1, GAME_TREE_NODES)
        self.move = np.zeros(capacity, dtype=np.int64)
        self.first_child = np.zeros(capacity, dtype=np.int64)
        self.child_count = np.zeros(capacity, dtype=np.int64)
        self.visits = np.zeros(capacity, dtype=np.int64)
        self.wins = np.zeros(capacity, dtype=np.float64)

    def _arrays(self):
        return self.move, self.first_child, self.child_count, self.visits, self.wins

    def choose(self, x: int, o: int) -> int:
        """The most visited move after a fresh search of position (x, o)."""
        return int(search(x, o, self.iterations, self.exploration, self.rng, *self._arrays()))

    def play_games(self, games: int, search_plays_x: bool, opponent_rng: np.ndarray):
        """``games`` games against the random opponent whose state is ``opponent_rng[0]``."""
        games = check_int("games", games, 0, 2**62)  # compiled code counts in int64
        return play_games(games, search_plays_x, self.iterations, self.exploration, self.rng,
                          opponent_rng, *self._arrays())
