"""A chain with a decoy at every link: UCT's worst case (chapter "Test a search before you trust it").

Coquelin and Munos (2007) show that UCT can need an enormous number of
iterations on a tree shaped like this one. Player 0 walks down a chain of
``depth`` decisions. At decision ``d`` (1 to ``depth``) it may

- **leave** (move :data:`LEAVE`): the game ends with reward ``(depth - d) / depth``,
  a little less at every link; or
- **go deeper** (move :data:`DEEPER`): on to decision ``d + 1``; going deeper at
  the last decision ends the game with reward 1, the best there is.

The optimal plan is to go deeper every time (reward 1), but leaving at once
pays ``(depth - 1) / depth``, and every sample that leaves at a later link
pays less: to early samples, going deeper looks worse than the decoy.

The chain is a one-player problem. The library's searches are written for two
players who alternate (UCT flips the reward at every level), so player 1 gets
a single move, :data:`PASS`, after each of player 0's moves that does not end
the game. It changes nothing; it only keeps the alternation. The game is
zero-sum: player 1 scores ``1 - reward``. Unlike the other games, a finished
chain is *scored*, not won or lost: :meth:`ChainGame.result` returns the reward
itself, a number between 0 and 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._checks import check_int, shown
from .base import GameState, check_player, whole_number

#: Player 1's only move.
PASS = 0
#: Player 0's moves: end the game here, or go on to the next decision.
LEAVE, DEEPER = 1, 2
#: The longest chain: minimax and the searches walk it position by position, and a
#: chain this long is already far beyond what UCT can search (that is the point).
MAX_DEPTH = 1000


@dataclass(frozen=True, slots=True)
class ChainGame(GameState):
    """A position on the chain. ``ChainGame(depth)`` is the start: decision 1, player 0 to move.

    Parameters
    ----------
    depth : int
        Number of decisions, 1 to :data:`MAX_DEPTH`.
    decisions : int
        Decisions player 0 has made so far (0 at the start, at most ``depth``).
    mover : int
        0 (player 0 decides) or 1 (player 1 must pass).
    left : bool
        True once player 0 has left the chain (the game is then over).
    """

    depth: int
    decisions: int = 0
    mover: int = 0
    left: bool = False

    def __post_init__(self):
        depth = check_int("depth", self.depth, 1, MAX_DEPTH)
        decisions = check_int("decisions", self.decisions, 0, depth)
        mover = whole_number(self.mover)
        if mover not in (0, 1):
            raise ValueError(f"mover must be 0 or 1, got {shown(self.mover)}.")
        if not isinstance(self.left, bool):
            raise ValueError(f"left must be True or False, got {shown(self.left)}.")
        if self.left and decisions == 0:
            raise ValueError("left=True needs at least one decision: player 0 leaves by deciding.")
        # Numpy integers become plain ints, so equal positions hash alike.
        for name, value in (("depth", depth), ("decisions", decisions), ("mover", mover)):
            object.__setattr__(self, name, value)

    @property
    def player_to_move(self) -> int:
        return self.mover

    def legal_moves(self) -> tuple[int, ...]:
        if self.is_terminal():
            return ()
        return (PASS,) if self.mover == 1 else (LEAVE, DEEPER)

    def play(self, move) -> ChainGame:
        choice = whole_number(move)  # numpy integers too; 1.0 and True are not moves
        if choice is None or choice not in self.legal_moves():
            raise self.illegal_move_error(move)
        if choice == PASS:
            return ChainGame(self.depth, self.decisions, 0, False)
        return ChainGame(self.depth, self.decisions + 1, 1, choice == LEAVE)

    def is_terminal(self) -> bool:
        return self.left or self.decisions == self.depth

    def reward(self) -> float:
        """Player 0's reward in a finished game: ``(depth - d) / depth`` for leaving at decision d, else 1."""
        if not self.is_terminal():
            raise ValueError("reward() is defined only for a finished game; this one is still on.")
        return (self.depth - self.decisions) / self.depth if self.left else 1.0

    def result(self, player: int) -> float:
        """Score of the finished game for ``player``: the reward for 0, one minus it for 1."""
        player = check_player(player)
        reward = self.reward()
        return reward if player == 0 else 1.0 - reward

    def winner(self) -> int | None:
        """0 if player 0 reached the end of the chain (reward 1), 1 if it left with 0, else None."""
        if not self.is_terminal():
            return None
        reward = self.reward()
        return 0 if reward == 1.0 else 1 if reward == 0.0 else None

    def __str__(self) -> str:
        if self.is_terminal():
            return f"chain of depth {self.depth}: over, reward {self.reward():.3f}"
        who = "player 0 decides" if self.mover == 0 else "player 1 passes"
        return f"chain of depth {self.depth}: decision {self.decisions + 1}, {who}"


__all__ = ["DEEPER", "LEAVE", "MAX_DEPTH", "PASS", "ChainGame"]
