"""The bot author's toolbox, written to be read (chapter "How a Legend bot gets its strength").

The readable twin of :mod:`mctslib.fast.uttt_toolbox`: chapter 4's UCT
(:class:`~mctslib.search.uct.UCTSearch`) with the four options a strong UTTT
bot adds, each of which can be turned on alone:

* ``fpu``, *first-play urgency* (Gelly, Wang, Munos and Teytaud 2006): an
  unvisited child scores ``fpu`` in the comparison instead of being tried
  first;
* ``bounds``, *score-bounded MCTS* (Cazenave and Saffidine 2010): each node
  keeps a pessimistic and an optimistic bound (0 loss, 1 draw, 2 win, for the
  player who moved into it); a node's bounds follow from its children's,
  selection skips a child that cannot beat what a sibling guarantees, and
  the search stops when the root's bounds meet, which proves draws as well as
  wins and losses;
* ``tree_wins`` and ``tree_safe``, *decisive and anti-decisive moves in the
  tree* (Teytaud and Teytaud 2010): a position with a winning move gets that
  one child; otherwise the moves after which the opponent wins at once are
  left out (unless every move is such a move);
* ``mast_epsilon``, *MAST* (Finnsson and Björnsson 2008) with
  epsilon-greedy moves: every move of every simulation updates the average
  result of its (player, move) pair; a playout move is uniformly random with
  chance epsilon and otherwise the move with the best average.

With the same :class:`~mctslib.xorshift.XorShift64` seed the numba kernel
builds the same tree, node for node (the tests compare them). ``fpu`` and
``bounds`` work on any :class:`~mctslib.games.GameState`; the other options
need Ultimate Tic-Tac-Toe's ``winning_moves()``.
"""

from __future__ import annotations

import math

from .._checks import check_real
from ..games.base import GameState, check_game_state
from .flat import _playout
from .uct import Node, UCTSearch, _shuffled, robust_child
from .uttt_playouts import policy_playout

__all__ = [
    "DRAWN",
    "LOST",
    "WON",
    "ToolboxNode",
    "ToolboxSearch",
    "bounds_from_children",
    "loses_at_once",
]

#: Bounds are game values for the player who moved into a node.
LOST, DRAWN, WON = 0, 1, 2


class ToolboxNode(Node):
    """A UCT node with score bounds: ``lower`` and ``upper``, 0 to 2, for the node's mover."""

    __slots__ = ("lower", "upper")

    def __init__(self, move, mover, parent):
        super().__init__(move, mover, parent)
        self.lower, self.upper = LOST, WON  # nothing known yet

    @property
    def solved(self) -> bool:
        """The bounds have met: the game's value from here is known."""
        return self.lower == self.upper


def bounds_from_children(node: ToolboxNode) -> tuple[int, int]:
    """The bounds the children imply: the mover gets the worst the opponent's replies leave."""
    return (min(WON - child.upper for child in node.children),
            min(WON - child.lower for child in node.children))


def loses_at_once(state, move) -> bool:
    """After ``move`` the opponent can win the game with its next move."""
    after = state.play(move)
    return not after.is_terminal() and bool(after.winning_moves())


class ToolboxSearch(UCTSearch):
    """UCT with first-play urgency, score bounds, decisive moves and MAST (see the module).

    Parameters
    ----------
    exploration, iterations, seed
        As :class:`~mctslib.search.uct.UCTSearch` (iterations only).
    fpu : float or None
        The score of an unvisited child, >= 0; None: unvisited children first.
    bounds : bool
        Score-bounded MCTS.
    tree_wins, tree_safe : bool
        Decisive moves in the tree; anti-decisive moves too (needs ``tree_wins``).
    playout : {"random", "wins"}
        Random playouts, or playouts that take an immediate win.
    mast_epsilon : float or None
        MAST with this chance (0 to 1) of a random playout move; None: off.
    """

    def __init__(self, exploration: float = math.sqrt(2.0), iterations: int = 1000, seed=None,
                 fpu: float | None = None, bounds: bool = False, tree_wins: bool = False,
                 tree_safe: bool = False, playout: str = "random",
                 mast_epsilon: float | None = None):
        super().__init__(exploration, iterations=iterations, seed=seed)
        self.c = self.selection.c
        self.fpu = None if fpu is None else check_real("fpu (first-play urgency)", fpu, 0.0)
        self.bounds, self.tree_wins, self.tree_safe = bool(bounds), bool(tree_wins), bool(tree_safe)
        if self.tree_safe and not self.tree_wins:
            raise ValueError("tree_safe needs tree_wins: a winning move must never be left out.")
        if playout not in ("random", "wins"):
            raise ValueError(f"playout must be random or wins, got {playout!r}.")
        self.playout = playout
        self.mast_threshold = None if mast_epsilon is None else mast_threshold(mast_epsilon)
        self.mast_sum = [[0.0] * 81, [0.0] * 81]
        self.mast_count = [[0] * 81, [0] * 81]

    def search(self, state: GameState) -> ToolboxNode:
        """Grow a fresh tree from ``state``; stop early once the bounds solve the root."""
        check_game_state(state)
        if state.is_terminal():
            raise ValueError("cannot search a finished game: there is no move to choose.")
        self.root = root = ToolboxNode(None, None, None)
        self.mast_sum = [[0.0] * 81, [0.0] * 81]
        self.mast_count = [[0] * 81, [0] * 81]
        for _ in range(self.iterations):
            if self.bounds and root.solved:
                break
            self.iterate(root, state)
        return root

    def choose(self, state: GameState):
        """Search ``state``; a proven win at once, else the most visited move not cut by the bounds."""
        root = self.search(state)
        if not self.bounds:
            return robust_child(root).move
        return best_bounded_child(root).move

    def iterate(self, root: ToolboxNode, state: GameState) -> None:
        node, path = root, [root]
        while node.children:  # selection
            node = self.select_child(node)
            state = state.play(node.move)
            path.append(node)
        if not state.is_terminal() and (node.visits > 0 or node is root):  # expansion
            mover = state.player_to_move
            node.children = [ToolboxNode(move, mover, node)
                             for move in _shuffled(self.child_moves(state), self.source)]
            node = node.children[0]
            state = state.play(node.move)
            path.append(node)
        if self.bounds and state.is_terminal():
            node.lower = node.upper = round(2 * state.result(node.mover))
            self.update_bounds(path)
        trail, leaf_player = [], state.player_to_move
        final = self.simulate(state, trail)
        if self.mast_threshold is not None:
            self.mast_update(path, trail, final, leaf_player)
        self.backpropagate(node, final.result(node.mover))

    def select_child(self, node: ToolboxNode) -> ToolboxNode:
        """UCB1, an urgency for unvisited children, and the bounds' cut (first strictly highest)."""
        if self.fpu is None:
            for child in node.children:
                if child.visits == 0:
                    return child
        guaranteed = max(child.lower for child in node.children) if self.bounds else -1
        log_parent = math.log(node.visits)
        best, best_score = node.children[0], -math.inf
        for child in node.children:
            if self.bounds and child.upper <= guaranteed:
                continue  # cannot beat what a sibling already guarantees
            if child.visits == 0:
                score = self.fpu
            else:
                score = child.wins / child.visits + self.c * math.sqrt(log_parent / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def child_moves(self, state) -> list:
        """The moves a new node gets children for: decisive, then anti-decisive rule."""
        if self.tree_wins and state.winning_moves():
            return [state.winning_moves()[0]]
        moves = list(state.legal_moves())
        if self.tree_safe:
            safe = [move for move in moves if not loses_at_once(state, move)]
            moves = safe or moves
        return moves

    def update_bounds(self, path: list[ToolboxNode]) -> None:
        """From the leaf's parent up: new bounds from the children, until one does not change."""
        for node in reversed(path[:-1]):
            bounds = bounds_from_children(node)
            if bounds == (node.lower, node.upper):
                return
            node.lower, node.upper = bounds

    def simulate(self, state, trail: list):
        """The playout: MAST, win-taking or random; MAST moves are appended to ``trail``."""
        if self.mast_threshold is None:
            if self.playout == "random":
                return _playout(state, self.source)
            return policy_playout(state, self.source, "wins")
        while not state.is_terminal():
            wins = state.winning_moves() if self.playout == "wins" else ()
            if wins:
                move = wins[0]
            elif self.source.next() >> 32 < self.mast_threshold:
                moves = state.legal_moves()
                move = moves[self.source.below(len(moves))]
            else:
                move = self.mast_best(state)
            trail.append(move)
            state = state.play(move)
        return state

    def mast_best(self, state) -> int:
        """The legal move with the best MAST average for the player to move (unseen: 1)."""
        player = state.player_to_move
        best, best_value = None, -1.0
        for move in state.legal_moves():
            seen = self.mast_count[player][move]
            value = self.mast_sum[player][move] / seen if seen else 1.0
            if value > best_value:
                best, best_value = move, value
        return best

    def mast_update(self, path, trail, final, leaf_player: int) -> None:
        """Credit every move of the iteration, tree path then playout, to the player who made it."""
        for node in path[1:]:
            self._credit(node.mover, node.move, final)
        player = leaf_player
        for move in trail:
            self._credit(player, move, final)
            player = 1 - player

    def _credit(self, player: int, move: int, final) -> None:
        self.mast_sum[player][move] += final.result(player)
        self.mast_count[player][move] += 1


def mast_threshold(epsilon: float) -> int:
    """The integer a draw's high 32 bits are compared with: ``round(epsilon * 2**32)``."""
    epsilon = check_real("mast (the chance of a random playout move)", epsilon, 0.0, 1.0)
    return round(epsilon * 2**32)


def best_bounded_child(root: ToolboxNode) -> ToolboxNode:
    """A proven win if there is one; else the most visited child the bounds do not rule out.

    A child is ruled out when its optimistic bound is below what the best
    child guarantees, or equal to it without guaranteeing it itself (a move
    that may lose where another surely draws). First in tree order on ties.
    """
    children = root.children
    if not children:
        raise ValueError("root has no children: grow the tree first.")
    for child in children:
        if child.lower == WON:
            return child
    guaranteed = max(child.lower for child in children)
    candidates = [child for child in children
                  if child.upper > guaranteed or child.lower == guaranteed]
    best = candidates[0]
    for child in candidates[1:]:
        if child.visits > best.visits:
            best = child
    return best
