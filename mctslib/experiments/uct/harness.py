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

Both engines drive the games from Python, one search per move, so the result
also keeps every game the search lost, with its random state before each of
its moves (:class:`LostGame`): chapter "Test a search before you trust it"
replays the losing search with the readable engine and looks into its tree.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..._checks import check_choice, check_int, check_real
from ...games.tictactoe import TicTacToe
from ...progress import progress_bar
from ...search.minimax import reachable_states, winning_moves
from ...search.uct import UCTSearch
from ...xorshift import XorShift64

SEARCH_SEED, OPPONENT_SEED = 2026, 7
ENGINES = ("python", "numba")
#: Iterations per move: beyond a hundred million the search only rebuilds the whole
#: game tree (549,946 nodes) more slowly; the numba engine's arrays stop growing there.
MAX_ITERATIONS = 100_000_000
#: Games per seat: a million take the numba engine about twenty minutes.
MAX_GAMES = 1_000_000


@dataclass(frozen=True)
class LostGame:
    """One game of the harness that the search lost, enough to replay it move by move.

    ``search_states[k]`` is the state of the search's xorshift64 generator just
    before it chose ``moves[k]``, or None when the random opponent made that
    move; :meth:`search_before` rebuilds the search at that point, so its tree
    can be grown again and inspected (the readable engine makes the same tree
    as the numba one from the same state).
    """

    search_player: int  # 0: the search played X; 1: it played O
    game: int  # index of the game among the seat's games, from 0
    moves: tuple[int, ...]
    search_states: tuple[int | None, ...]

    def positions(self) -> list[TicTacToe]:
        """The position before each move, then the final position (``len(moves) + 1`` boards)."""
        states = [TicTacToe()]
        for move in self.moves:
            states.append(states[-1].play(move))
        return states

    def search_plies(self) -> list[int]:
        """The indices in ``moves`` of the search's own moves."""
        return [ply for ply, state in enumerate(self.search_states) if state is not None]

    def search_before(self, ply: int, iterations: int, exploration: float = 1.0) -> UCTSearch:
        """A readable :class:`UCTSearch` whose generator is where the harness's was before ``ply``.

        ``search_before(ply, ...).search(positions()[ply])`` grows the tree the
        harness grew for that move and chooses ``moves[ply]``. ``ply`` must be one
        of :meth:`search_plies`; ``iterations`` and ``exploration`` are the
        harness's.
        """
        plies = self.search_plies()
        if ply not in plies:
            raise ValueError(f"ply must be one of the search's moves {plies}, got {ply!r}.")
        source = XorShift64(1)
        source.state = self.search_states[ply]  # the exact state: the seed's "| 1" would alter it
        return UCTSearch(exploration, iterations, seed=source)


@dataclass(frozen=True)
class HarnessResult:
    """Wins, draws and losses of the search in each seat, and the single-winning-move count."""

    as_x: tuple[int, int, int]
    as_o: tuple[int, int, int]
    single_win_positions: int
    found: int
    #: The positions where the search missed the winning move: (state, winning move, chosen).
    misses: tuple[tuple[TicTacToe, int, int], ...] = ()
    #: The games the search lost, as X first, then as O, each in game order.
    lost_games: tuple[LostGame, ...] = ()

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

    Returns
    -------
    HarnessResult
        The three published lines (:meth:`HarnessResult.lines`), the missed
        positions and the lost games (chapters "Grow a tree" and "Test a search
        before you trust it").
    """
    iterations = check_int("iterations", iterations, 1, MAX_ITERATIONS)
    exploration = check_real("exploration", exploration, 0.0)
    games = check_int("games", games, 0, MAX_GAMES)
    check_choice("engine", engine, ENGINES)
    runner = _NumbaRunner if engine == "numba" else _PythonRunner
    return runner(iterations, exploration).run(games)


class _Runner:
    """The harness's loop; an engine supplies ``choose(state)`` and ``search_state()``."""

    def __init__(self):
        self.opponent = XorShift64(OPPONENT_SEED)

    def choose(self, state: TicTacToe) -> int:
        raise NotImplementedError

    def search_state(self) -> int:
        raise NotImplementedError

    def run(self, games: int) -> HarnessResult:
        lost: list[LostGame] = []
        as_x = self.play(games, 0, lost)
        as_o = self.play(games, 1, lost)
        positions = single_winning_move_positions()
        misses = []
        with progress_bar(len(positions), "positions") as bar:
            for state, winning in positions:
                chosen = self.choose(state)
                if chosen != winning:
                    misses.append((state, winning, chosen))
                bar.update(1)
        return HarnessResult(as_x, as_o, len(positions), len(positions) - len(misses),
                             tuple(misses), tuple(lost))

    def play(self, games: int, search_player: int, lost: list) -> tuple[int, int, int]:
        tally = [0, 0, 0]  # wins, draws, losses of the search
        with progress_bar(games, f"games as {'XO'[search_player]}") as bar:
            for game in range(games):
                state = TicTacToe()
                moves, states = [], []
                while not state.is_terminal():
                    if state.player_to_move == search_player:
                        states.append(self.search_state())
                        move = self.choose(state)
                    else:
                        states.append(None)
                        legal = state.legal_moves()  # free cells ascending, as the C++ and Rust
                        move = legal[self.opponent.below(len(legal))]
                    moves.append(move)
                    state = state.play(move)
                outcome = {1.0: 0, 0.5: 1, 0.0: 2}[state.result(search_player)]
                tally[outcome] += 1
                if outcome == 2:
                    lost.append(LostGame(search_player, game, tuple(moves), tuple(states)))
                bar.update(1)
        return tuple(tally)


class _PythonRunner(_Runner):
    def __init__(self, iterations: int, exploration: float):
        super().__init__()
        self.search = UCTSearch(exploration, iterations, seed=XorShift64(SEARCH_SEED))

    def choose(self, state: TicTacToe) -> int:
        return self.search.choose(state)

    def search_state(self) -> int:
        return self.search.source.state


class _NumbaRunner(_Runner):
    # One compiled search per move, driven from here: the kernel's own game loop
    # (fast.tictactoe_uct.play_games) gives the same tallies but cannot say which
    # games were lost. Measured on 2 shared cores: the Python loop adds about 0.35 s
    # per 2,000 games (2.3 s instead of 2.0 s at 500 iterations, the same tallies).
    def __init__(self, iterations: int, exploration: float):
        from ...fast.tictactoe_uct import FastTicTacToeUCT

        super().__init__()
        self.search = FastTicTacToeUCT(iterations, exploration, SEARCH_SEED)

    def choose(self, state: TicTacToe) -> int:
        return self.search.choose(state.x, state.o)

    def search_state(self) -> int:
        return int(self.search.rng[0])
