"""The published tic-tac-toe UCT harness, reproduced exactly (UCT chapter).

A C++ and a Rust program print the same three lines because they share the
xorshift64 generator and walk the tree in the same order; this module runs the
same experiment with the readable :class:`~mctslib.search.uct.UCTSearch` (engine
``"python"``) or its numba twin (engine ``"numba"``), which print the same
lines too:

1. with 2,000 iterations per move and c = 1.0, one search seeded 2026 plays
   1,000 games as X and then 1,000 as O against a uniformly random opponent
   seeded 7;
2. the same search object (its generator continuing) is then asked for its
   move in every reachable position, still on, where exactly one move wins
   (depth-first order from the empty board, free cells ascending), and we
   count how often it finds that move.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._checks import check_choice, check_int, check_real
from ..games.tictactoe import TicTacToe
from ..progress import progress_bar
from ..search.minimax import reachable_states, winning_moves
from ..search.uct import UCTSearch
from ..xorshift import XorShift64

SEARCH_SEED, OPPONENT_SEED = 2026, 7
ENGINES = ("python", "numba")
#: Iterations per move: beyond a hundred million the search only rebuilds the whole
#: game tree (549,946 nodes) more slowly; the numba engine's arrays stop growing there.
MAX_ITERATIONS = 100_000_000
#: Games per seat: a million take the numba engine about a quarter of an hour.
MAX_GAMES = 1_000_000


@dataclass(frozen=True)
class HarnessResult:
    """Wins, draws and losses of the search in each seat, and the single-winning-move count."""

    as_x: tuple[int, int, int]
    as_o: tuple[int, int, int]
    single_win_positions: int
    found: int
    #: The positions where the search missed the winning move: (state, winning move, chosen).
    misses: tuple[tuple[TicTacToe, int, int], ...] = ()

    def lines(self) -> list[str]:
        """The three lines the published programs print."""
        return [
            f"search as X: {self.as_x[0]} wins, {self.as_x[1]} draws, {self.as_x[2]} losses",
            f"search as O: {self.as_o[0]} wins, {self.as_o[1]} draws, {self.as_o[2]} losses",
            (f"positions with exactly one winning move: {self.single_win_positions}, "
             f"found by the search: {self.found}"),
        ]


def single_winning_move_positions() -> list[tuple[TicTacToe, int]]:
    """Every reachable position still on with exactly one winning move, and that move.

    Depth-first from the empty board, free cells in ascending order, each
    position once (the harness's order).
    """
    found = []
    for state in reachable_states(TicTacToe()):
        if state.is_terminal():
            continue
        wins = winning_moves(state)
        if len(wins) == 1:
            found.append((state, wins[0]))
    return found


def run_harness(iterations: int = 2000, exploration: float = 1.0, engine: str = "numba",
                games: int = 1000) -> HarnessResult:
    """Run the whole harness; ``games`` per seat (the published one uses 1,000).

    Parameters
    ----------
    iterations : int
        UCT iterations per move, 1 to :data:`MAX_ITERATIONS`.
    exploration : float
        The constant c (a finite number >= 0).
    engine : {"python", "numba"}
        The readable reference or the numba twin; both give the same result.
    games : int
        Games per seat against the random opponent, 0 to :data:`MAX_GAMES`.
    """
    iterations = check_int("iterations", iterations, 1, MAX_ITERATIONS)
    exploration = check_real("exploration", exploration, 0.0)
    games = check_int("games", games, 0, MAX_GAMES)
    check_choice("engine", engine, ENGINES)
    runner = _NumbaRunner if engine == "numba" else _PythonRunner
    return runner(iterations, exploration).run(games)


class _PythonRunner:
    def __init__(self, iterations: int, exploration: float):
        self.search = UCTSearch(exploration, iterations, seed=XorShift64(SEARCH_SEED))
        self.opponent = XorShift64(OPPONENT_SEED)

    def run(self, games: int) -> HarnessResult:
        as_x = self.play(games, search_player=0)
        as_o = self.play(games, search_player=1)
        positions = single_winning_move_positions()
        misses = []
        with progress_bar(len(positions), "positions") as bar:
            for state, winning in positions:
                chosen = self.search.choose(state)
                if chosen != winning:
                    misses.append((state, winning, chosen))
                bar.update(1)
        return HarnessResult(as_x, as_o, len(positions), len(positions) - len(misses),
                             tuple(misses))

    def play(self, games: int, search_player: int) -> tuple[int, int, int]:
        tally = [0, 0, 0]  # wins, draws, losses of the search
        with progress_bar(games, f"games as {'XO'[search_player]}") as bar:
            for _ in range(games):
                state = TicTacToe()
                while not state.is_terminal():
                    if state.player_to_move == search_player:
                        move = self.search.choose(state)
                    else:
                        moves = state.legal_moves()
                        move = moves[self.opponent.below(len(moves))]
                    state = state.play(move)
                tally[{1.0: 0, 0.5: 1, 0.0: 2}[state.result(search_player)]] += 1
                bar.update(1)
        return tuple(tally)


class _NumbaRunner:
    def __init__(self, iterations: int, exploration: float):
        from ..fast.tictactoe_uct import FastTicTacToeUCT

        self.search = FastTicTacToeUCT(iterations, exploration, SEARCH_SEED)
        self.opponent = np.array([XorShift64(OPPONENT_SEED).state], dtype=np.uint64)

    def run(self, games: int) -> HarnessResult:
        as_x = self.search.play_games(games, True, self.opponent)
        as_o = self.search.play_games(games, False, self.opponent)
        positions = single_winning_move_positions()
        misses = []
        for state, winning in positions:
            chosen = self.search.choose(state.x, state.o)
            if chosen != winning:
                misses.append((state, winning, chosen))
        return HarnessResult(tuple(as_x), tuple(as_o), len(positions),
                             len(positions) - len(misses), tuple(misses))
