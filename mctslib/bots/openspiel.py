"""OpenSpiel's C++ MCTS as a player on our Ultimate Tic-Tac-Toe positions.

The chapter "Ultimate Tic-Tac-Toe: tuning a real bot" measures our bot
against an independent, well-known implementation: ``pyspiel.MCTSBot`` with a
``RandomRolloutEvaluator`` from DeepMind's OpenSpiel (PyPI ``open-spiel``,
2.0.1 or later). :class:`OpenSpielMCTSPlayer` has the arena's player interface
(``choose(state) -> move``) and translates between the two implementations:

* OpenSpiel's state has a move history and ours has none, so the player keeps
  an OpenSpiel state in sync by comparing cells: the one mark that appeared
  since its last move is the opponent's reply, replayed there. A position it
  has not followed (a new game, an opening) is rebuilt from a move order that
  reaches it (:func:`move_history`).
* In OpenSpiel a free-choice turn is two actions by the same player (board
  0..8, then cell 0..8) and a forced turn one (cell). The player therefore
  asks the bot twice on a free choice, as OpenSpiel's own game loop does:
  one search picks the board, a second search from that board picks the
  cell, each with half the move's budget.

OpenSpiel scores a game that closes every board without a line as a draw, so
this player plays for our ``"openspiel"`` scoring whatever the scoring of the
positions it is shown. Compare it with our bot under ``"openspiel"`` scoring.

Budgets: a number of simulations per move (reproducible) or a wall time per
move on OpenSpiel's own clock. For an equal-time comparison with a
simulation count, :func:`calibrate_simulations` finds the count that gives a
target time per move on a set of positions, :func:`calibrate_against` takes
the target from our bot's measured time per move, and
:func:`calibrate_in_games` equalises both bots' mean time per move in games
between them (a fixed count buys OpenSpiel less time as a game goes on,
while a bot on a clock spends its budget on every move). Each reports the
measured times.

Why one module of about 590 lines: keeping OpenSpiel's state in sync with ours
(the history search), guarding its search and calibrating its budget against
our bot all need the same private translation between the two games, and
nothing else uses it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pyspiel

from .._checks import check_int, check_real
from ..games.uttt import UltimateTicTacToe, from_board_cell, to_board_cell
from ..play.arena import play_match
from ..rng import make_rng
from .uttt import opponent_reply

__all__ = [
    "Calibration",
    "OpenSpielMCTS",
    "OpenSpielMCTSPlayer",
    "calibrate_against",
    "calibrate_in_games",
    "calibrate_simulations",
    "calibration_positions",
    "move_history",
    "seconds_per_move",
    "spiel_actions",
    "spiel_state",
]

GAME_NAME = "ultimate_tic_tac_toe"
#: OpenSpiel's own default in its MCTS example. Its rewards are -1 / 0 / 1, twice as
#: wide as our 0 / 0.5 / 1, so uct_c = 2 there explores like c = 1 on our scale.
DEFAULT_UCT_C = 2.0
#: OpenSpiel's example default; a 100 ms search uses a few megabytes of it.
DEFAULT_MAX_MEMORY_MB = 1000
_SEED_LIMIT = 2**31 - 1  # pyspiel takes seeds as C ints
#: pyspiel takes counts as C ints: a larger one is a TypeError from its bindings.
_C_INT_MAX = 2**31 - 1
#: Random rollouts per leaf: each is a whole game, so a million already take seconds a leaf.
MAX_ROLLOUTS = 1_000_000
#: A time per move (or a calibration target) of at most a day, in seconds.
MAX_SECONDS = 86_400.0
#: Calibration positions and rounds: enough to measure, few enough to finish.
MAX_POSITIONS = 10_000
MAX_ROUNDS = 100


def _game():
    # load_game caches the game object, so every player shares one.
    return pyspiel.load_game(GAME_NAME)


# ---------------------------------------------------------------- moves and actions


def spiel_actions(state: UltimateTicTacToe, move: int) -> tuple[int, ...]:
    """OpenSpiel's actions for our ``move`` in ``state``: ``(board, cell)`` on a free choice, else ``(cell,)``.

    Raises ValueError, with the game's sentence, if ``move`` is not legal in ``state``.
    """
    _check_position(state)
    state.play(move)  # the game's own check and sentence; the position is thrown away
    board, cell = to_board_cell(move)
    return (board, cell) if state.free_choice else (cell,)


def _check_position(state, name: str = "state") -> None:
    if not isinstance(state, UltimateTicTacToe):
        raise ValueError(f"{name} must be an UltimateTicTacToe position, got "
                         f"{type(state).__name__}.")


def move_history(state: UltimateTicTacToe, max_positions: int = 20_000) -> tuple[int, ...]:
    """A move order that reaches ``state`` from the empty board (ours has no history).

    Works backwards: the last move was a mark of the player who did not move
    next, in the cell that names the board now forced (or, on a free choice,
    a cell whose board is closed); removing it must give a position from
    which that move leads back to ``state``. Two things keep the search
    short: dead ends are remembered, and a position is dropped at once when
    its marks cannot be ordered at all (:func:`_sends_are_answered`).
    Positions from the first 20 plies take a few milliseconds; a few
    late-game positions need more than ``max_positions`` steps back, and then
    this raises ValueError, as it does for a position no legal order reaches.
    """
    _check_position(state)
    max_positions = check_int("max_positions", max_positions, 1)
    moves = _BackwardSearch(max_positions).moves_to(state)
    if moves is None:
        raise ValueError("no order of legal moves from the empty board reaches this position: "
                         "it has the right mark counts but cannot arise in play.")
    return tuple(moves)


class _BackwardSearch:
    """Depth-first search from a position back to the empty board, with a step budget."""

    def __init__(self, max_positions: int):
        self.max_positions = max_positions
        self.visited = 0
        self.dead_ends: set = set()

    def moves_to(self, state: UltimateTicTacToe) -> list[int] | None:
        if not any(state.x) and not any(state.o):
            return [] if state.forced_board is None else None  # play starts with a free choice
        if state in self.dead_ends:
            return None
        self.visited += 1
        if self.visited > self.max_positions:
            raise ValueError(f"no move order reaching this position was found within "
                             f"max_positions={self.max_positions} steps back; a player that "
                             "follows a game from its start never needs this search.")
        for previous, move in _predecessors(state):
            if _sends_are_answered(previous):
                moves = self.moves_to(previous)
                if moves is not None:
                    return [*moves, move]
        self.dead_ends.add(state)
        return None


def _sends_are_answered(state: UltimateTicTacToe) -> bool:
    """A quick necessary condition for ``state`` to be reachable at all.

    A move into cell ``b`` (of any board) sends the opponent to board ``b``;
    while ``b`` is open the opponent must answer there. So in a board that
    is still open, each player has at least as many marks as the opponent
    has sent them there, not counting the send still waiting for its answer
    (the last move, which names the forced board); extra marks come from
    free choices. Without this test the backward search wanders into move
    orders that fail only dozens of plies further back.
    """
    marks = (state.x, state.o)
    last_mover = 1 - state.player_to_move
    for board in range(9):
        if state.closed_mask >> board & 1:
            continue
        for player in (0, 1):
            sends = sum(marks[1 - player][other] >> board & 1 for other in range(9))
            if board == state.forced_board and last_mover == 1 - player:
                sends -= 1
            if marks[player][board].bit_count() < sends:
                return False
    return True


def _predecessors(state: UltimateTicTacToe):
    """Every ``(previous position, move)`` with ``previous.play(move) == state``."""
    mover = 1 - state.player_to_move
    marks = (state.x, state.o)[mover]
    for board in range(9):
        for cell in range(9):
            if not marks[board] >> cell & 1 or not _could_be_last(state, cell):
                continue
            lifted = list(marks)
            lifted[board] &= ~(1 << cell)
            x, o = (lifted, state.o) if mover == 0 else (state.x, lifted)
            move = from_board_cell(board, cell)
            for forced in (board, None):
                try:
                    previous = UltimateTicTacToe(x, o, forced, state.scoring)
                    leads_back = previous.play(move) == state
                except ValueError:
                    continue  # not a position, or the move was not legal there
                if leads_back:
                    yield previous, move


def _could_be_last(state: UltimateTicTacToe, cell: int) -> bool:
    # The last move's cell names the forced board, unless that board is closed
    # (then the player to move has a free choice) or the game has ended.
    if state.is_terminal():
        return True
    if state.forced_board is not None:
        return cell == state.forced_board
    return bool(state.closed_mask >> cell & 1)


def spiel_state(state: UltimateTicTacToe):
    """The OpenSpiel state of our ``state``, rebuilt from :func:`move_history`.

    Raises ValueError unless ``state`` is an :class:`UltimateTicTacToe` position.
    """
    _check_position(state)
    spiel = _game().new_initial_state()
    ours = UltimateTicTacToe(scoring=state.scoring)
    for move in move_history(state):
        for action in spiel_actions(ours, move):
            spiel.apply_action(action)
        ours = ours.play(move)
    return spiel


# ------------------------------------------------------------------------- player


class OpenSpielMCTSPlayer:
    """``pyspiel.MCTSBot`` with random rollouts, choosing moves on :class:`UltimateTicTacToe`.

    Parameters
    ----------
    simulations : int or None
        Simulations per move (2 to 2**31 - 1, a C int): OpenSpiel's
        ``max_simulations``. Give this (reproducible: the same seed gives the
        same moves) or ``seconds``.
    seconds : float or None
        Wall time per move (> 0, at most a day), on OpenSpiel's own clock
        (``max_wall_clock_time``, checked between simulations).
    uct_c : float
        OpenSpiel's exploration constant (>= 0) on its -1 / 0 / 1 reward
        scale; the default 2.0 is OpenSpiel's example default.
    rollouts : int
        Random rollouts per evaluated leaf (``RandomRolloutEvaluator(n_rollouts)``),
        1 to :data:`MAX_ROLLOUTS`.
    solve : bool
        OpenSpiel's MCTS-Solver: proven results back up and decide the move.
    max_memory_mb : int
        OpenSpiel's tree memory limit per search (1 to 2**31 - 1, a C int).
    seed : int, SeedSequence, Generator or None
        Source of the C++ seeds (tree shuffling, rollouts).

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot". A free-choice turn
    is two OpenSpiel decisions, board then cell, each a search of its own
    with half the move's budget, so that every move costs the same budget.
    OpenSpiel ends a search early when its root is solved or has a single
    child. OpenSpiel's scoring calls every game that closes all boards
    without a line a draw: this player plays for that scoring whatever the
    positions' own scoring. On a clock, a search that runs out before
    OpenSpiel expands the root (fewer than two simulations: a very short
    budget, or a busy machine) is redone with two simulations
    (:attr:`fallbacks` counts them): OpenSpiel's own ``step`` would crash there.
    """

    def __init__(self, simulations: int | None = 1000, uct_c: float = DEFAULT_UCT_C,
                 rollouts: int = 1, solve: bool = True,
                 max_memory_mb: int = DEFAULT_MAX_MEMORY_MB, seed=None,
                 seconds: float | None = None):
        self.simulations, self.seconds = _check_budget(simulations, seconds)
        self.uct_c = check_real("uct_c", uct_c, 0.0)
        self.rollouts = check_int("rollouts", rollouts, 1, MAX_ROLLOUTS)
        self.max_memory_mb = check_int("max_memory_mb", max_memory_mb, 1, _C_INT_MAX)
        if not isinstance(solve, (bool, np.bool_)):
            raise ValueError(f"solve must be True or False, got {solve!r}.")
        self.solve = bool(solve)
        rollout_seed, *bot_seeds = (int(s) for s in make_rng(seed).integers(_SEED_LIMIT, size=3))
        evaluator = pyspiel.RandomRolloutEvaluator(self.rollouts, rollout_seed)
        # Searches per move -> a bot with that share of the budget.
        self._bots = {steps: self._make_bot(evaluator, steps, bot_seed)
                      for steps, bot_seed in zip((1, 2), bot_seeds, strict=True)}
        self._evaluator, self._fallback_seed, self._fallback = evaluator, bot_seeds[0], None
        self.fallbacks = 0  # clock searches that ran out before expanding the root
        self._ours: UltimateTicTacToe | None = None  # our position that ...
        self._spiel = None  # ... this OpenSpiel state mirrors
        self.searches = 0  # OpenSpiel searches run so far (two per free-choice turn)

    def _make_bot(self, evaluator, steps: int, seed: int):
        if self.seconds is None:
            # With 1 simulation OpenSpiel samples its prior instead of searching: keep 2.
            simulations, wall = max(2, self.simulations // steps), -1.0
        else:
            simulations, wall = _MAX_SIMULATIONS, self.seconds / steps
        return pyspiel.MCTSBot(_game(), evaluator, self.uct_c, simulations, self.max_memory_mb,
                               self.solve, seed, False, max_wall_clock_time=wall)

    def choose(self, state: UltimateTicTacToe) -> int:
        """Our move (``9 * row + col``) for OpenSpiel's bot in ``state``."""
        if not isinstance(state, UltimateTicTacToe):
            raise ValueError(f"state must be an UltimateTicTacToe position, got "
                             f"{type(state).__name__}.")
        if state.is_terminal():
            raise ValueError("cannot choose a move in a finished game.")
        self._follow(state)
        if state.free_choice:
            board = self._step(self._bots[2])
            cell = self._step(self._bots[2])
        else:
            board, cell = state.forced_board, self._step(self._bots[1])
        move = from_board_cell(board, cell)
        self._ours = state.play(move)
        return move

    @property
    def spiel(self):
        """The OpenSpiel state this player mirrors: the position after its last move (or None)."""
        return self._spiel

    def _step(self, bot) -> int:
        """One OpenSpiel search from the mirrored state; the action is applied there too."""
        action = bot.step(self._spiel) if self.seconds is None else self._timed_search(bot)
        self._spiel.apply_action(action)
        self.searches += 1
        return int(action)

    def _timed_search(self, bot) -> int:
        """What ``bot.step`` does (search, then the most visited child), safe on a short clock.

        OpenSpiel expands the root on its second simulation; a clock that runs
        out before (a budget of a millisecond, or a busy machine) leaves a root
        without children, and ``step`` then crashes the process (a segmentation
        fault in ``BestChild``). Here such a search is redone with two
        simulations and no clock, and counted in :attr:`fallbacks`.
        """
        root = bot.mcts_search(self._spiel)
        if root.explore_count < 2:
            if self._fallback is None:
                self._fallback = pyspiel.MCTSBot(_game(), self._evaluator, self.uct_c, 2,
                                                 self.max_memory_mb, self.solve,
                                                 self._fallback_seed, False)
            root = self._fallback.mcts_search(self._spiel)
            self.fallbacks += 1
        return root.best_child().action

    def _follow(self, state: UltimateTicTacToe) -> None:
        """Bring the mirrored OpenSpiel state to ``state``: replay one reply, or rebuild."""
        if self._ours is not None and state != self._ours:
            reply = opponent_reply(self._ours, state)
            if reply is not None:
                for action in spiel_actions(self._ours, reply):
                    self._spiel.apply_action(action)
                self._ours = state
        if self._ours is None or state != self._ours:
            self._spiel, self._ours = spiel_state(state), state


_MAX_SIMULATIONS = 2**31 - 1  # "no limit" for a clock budget (a C int)


def _check_budget(simulations, seconds) -> tuple[int | None, float | None]:
    if (simulations is None) == (seconds is None):
        raise ValueError("give exactly one budget: simulations (per move, >= 2) or seconds "
                         "(per move, > 0); pass simulations=None with seconds.")
    if seconds is None:
        return check_int("simulations", simulations, 2, _MAX_SIMULATIONS), None
    return None, _positive_seconds("seconds", seconds)


def _positive_seconds(name: str, value) -> float:
    seconds = check_real(name, value, 0.0, MAX_SECONDS)
    if seconds == 0.0:
        raise ValueError(f"{name} must be greater than 0.")
    return seconds


@dataclass(frozen=True)
class OpenSpielMCTS:
    """A picklable factory of :class:`OpenSpielMCTSPlayer` for :func:`mctslib.play.arena.play_match`.

    ``OpenSpielMCTS(simulations=5000)(seed=generator)`` builds a player;
    ``OpenSpielMCTS(simulations=None, seconds=0.1)`` one on OpenSpiel's
    clock. The fields are the player's parameters.
    """

    simulations: int | None = 1000
    uct_c: float = DEFAULT_UCT_C
    rollouts: int = 1
    solve: bool = True
    max_memory_mb: int = DEFAULT_MAX_MEMORY_MB
    seconds: float | None = None

    def __post_init__(self):
        _check_budget(self.simulations, self.seconds)
        check_real("uct_c", self.uct_c, 0.0)
        check_int("rollouts", self.rollouts, 1, MAX_ROLLOUTS)
        check_int("max_memory_mb", self.max_memory_mb, 1, _C_INT_MAX)
        if not isinstance(self.solve, (bool, np.bool_)):
            raise ValueError(f"solve must be True or False, got {self.solve!r}.")

    def __call__(self, seed=None) -> OpenSpielMCTSPlayer:
        return OpenSpielMCTSPlayer(self.simulations, self.uct_c, self.rollouts, self.solve,
                                   self.max_memory_mb, seed, self.seconds)

    def describe(self) -> str:
        budget = (f"{self.simulations:,} simulations per move" if self.seconds is None
                  else f"{1000 * self.seconds:g} ms per move on its own clock")
        return (f"OpenSpiel MCTSBot (C++): {budget} (halved for each of the two searches of a "
                f"free choice), uct_c {self.uct_c:g}, {self.rollouts} random rollout(s) per "
                f"leaf, solver {'on' if self.solve else 'off'}")


# -------------------------------------------------------------------- calibration


def calibration_positions(count: int = 24, max_ply: int = 40, seed=0,
                          scoring: str = "openspiel") -> list[UltimateTicTacToe]:
    """``count`` positions from seeded random games, spread evenly over plies ``0..max_ply``.

    The opening and middle game, where searches run their full budget (late
    positions are often solved early by OpenSpiel's solver and would flatter
    its speed). Position ``i`` is the ``i * max_ply // count``-th position of
    a random game, or the last one before the end if the game is shorter.
    """
    count = check_int("count", count, 1, MAX_POSITIONS)
    max_ply = check_int("max_ply", max_ply, 0, 80)  # a game lasts at most 81 plies
    rng = make_rng(seed)
    positions = []
    for index in range(count):
        state = UltimateTicTacToe(scoring=scoring)
        for _ in range(index * max_ply // count):
            moves = state.legal_moves()
            following = state.play(moves[int(rng.integers(len(moves)))])
            if following.is_terminal():
                break
            state = following
        positions.append(state)
    return positions


def seconds_per_move(player, positions: Sequence[UltimateTicTacToe]) -> float:
    """Mean wall time of ``player.choose`` over ``positions`` (seconds)."""
    if not callable(getattr(player, "choose", None)):
        raise ValueError(f"player must have a choose(state) method, got "
                         f"{type(player).__name__}.")
    if isinstance(positions, (str, bytes)) or not isinstance(positions, Sequence):
        raise ValueError(f"positions must be a list of UltimateTicTacToe positions, got "
                         f"{type(positions).__name__}.")
    if not positions:
        raise ValueError("positions must hold at least one position to time.")
    for index, state in enumerate(positions):
        _check_position(state, f"positions[{index}]")
    start = time.perf_counter()
    for state in positions:
        player.choose(state)
    return (time.perf_counter() - start) / len(positions)


@dataclass(frozen=True)
class Calibration:
    """OpenSpiel's simulation count for a target time per move, with the measured times.

    ``ours_seconds`` is our bot's measured time per move when the target came
    from it, else None. The times were measured over ``positions`` positions
    or, for :func:`calibrate_in_games`, over every move of ``games`` games.
    """

    target_seconds: float
    simulations: int
    openspiel_seconds: float
    ours_seconds: float | None = None
    positions: int = 0
    games: int = 0

    def __str__(self) -> str:
        ours = ("" if self.ours_seconds is None
                else f"our bot {1000 * self.ours_seconds:.1f} ms per move, ")
        where = f"{self.games} games" if self.games else f"{self.positions} positions"
        return (f"{ours}OpenSpiel MCTSBot {1000 * self.openspiel_seconds:.1f} ms per move at "
                f"{self.simulations:,} simulations (target {1000 * self.target_seconds:.1f} ms, "
                f"measured over {where})")


def calibrate_simulations(target_seconds: float, positions=None, probe: int = 1000,
                          rounds: int = 2, seed=0, uct_c: float = DEFAULT_UCT_C,
                          solve: bool = True) -> Calibration:
    """The ``max_simulations`` that gives OpenSpiel's MCTSBot ``target_seconds`` per move here.

    Times the bot at ``probe`` simulations on ``positions`` (default:
    :func:`calibration_positions`), scales the count to the target, then
    re-times and rescales ``rounds`` times (a search's cost per simulation
    grows a little with its tree). The answer is only valid on this machine
    under its present load: report the measured time next to the results.
    """
    target_seconds = _positive_seconds("target_seconds", target_seconds)
    probe = check_int("probe", probe, 2, _MAX_SIMULATIONS)
    rounds = check_int("rounds", rounds, 0, MAX_ROUNDS)
    positions = calibration_positions() if positions is None else list(positions)
    rng = make_rng(seed)
    simulations, measured = probe, None
    for _ in range(rounds + 1):
        player = OpenSpielMCTSPlayer(simulations, uct_c=uct_c, solve=solve, seed=rng)
        measured = seconds_per_move(player, positions)
        simulations = _rescaled(simulations, target_seconds, measured)
    player = OpenSpielMCTSPlayer(simulations, uct_c=uct_c, solve=solve, seed=rng)
    measured = seconds_per_move(player, positions)
    return Calibration(target_seconds, simulations, measured, None, len(positions))


def calibrate_against(make_ours: Callable, positions=None, seed=0, **options) -> Calibration:
    """Measure our bot's time per move, then calibrate OpenSpiel's bot to the same time.

    ``make_ours(seed=...)`` builds our player (an arena factory); its mean
    time per move over ``positions`` becomes the target of
    :func:`calibrate_simulations` (``options`` go there). Our bot is timed
    again at the end, so both times come from the same minute of the machine.
    """
    if not callable(make_ours):
        raise ValueError(f"make_ours must be a factory, callable as make_ours(seed=...), got "
                         f"{type(make_ours).__name__}.")
    positions = calibration_positions() if positions is None else list(positions)
    rng = make_rng(seed)
    seconds_per_move(make_ours(seed=rng), positions[:2])  # warm-up: numba compile or cache load
    ours = seconds_per_move(make_ours(seed=rng), positions)
    calibration = calibrate_simulations(ours, positions, seed=rng, **options)
    ours_again = seconds_per_move(make_ours(seed=rng), positions)
    return Calibration(ours, calibration.simulations, calibration.openspiel_seconds,
                       (ours + ours_again) / 2, len(positions))


def calibrate_in_games(make_ours: Callable, simulations: int | None = None, games: int = 2,
                       rounds: int = 3, seed=0, scoring: str = "openspiel",
                       **options) -> Calibration:
    """Equalise both bots' mean time per move in games between them.

    A fixed simulation count buys OpenSpiel's bot less and less time as a
    game goes on (its rollouts get shorter), while a bot on a clock spends
    its budget on every move; a count calibrated on positions therefore
    leaves OpenSpiel with less time per move over whole games. This plays
    ``games`` games (sides alternating) between ``make_ours`` and OpenSpiel's
    bot, ``rounds`` times, rescaling the count after each round but the last
    so that OpenSpiel's mean time per move matches ours. It starts from
    ``simulations`` (default: :func:`calibrate_against` on 8 positions).
    ``options`` go to :class:`OpenSpielMCTS` (``uct_c``, ``solve``, ...).

    Returns the count of the last round, with both bots' mean time per move
    measured in its games.
    """
    games = check_int("games", games, 1, MAX_POSITIONS)
    rounds = check_int("rounds", rounds, 1, MAX_ROUNDS)
    streams = _seed_sequence(seed).spawn(rounds + 1)
    if simulations is None:
        positions = calibration_positions(count=8, seed=streams[-1])
        start = calibrate_against(make_ours, positions, seed=streams[-1], rounds=1,
                                  **{k: v for k, v in options.items() if k in ("uct_c", "solve")})
        simulations = start.simulations
    simulations = check_int("simulations", simulations, 2)
    for round_index in range(rounds):
        result = play_match(make_ours, OpenSpielMCTS(simulations, **options),
                            UltimateTicTacToe(scoring=scoring), games,
                            seed=streams[round_index], description="calibration games")
        ours, theirs = result.seconds_per_move()
        if round_index < rounds - 1:
            simulations = _rescaled(simulations, ours, theirs)
    return Calibration(ours, simulations, theirs, ours, 0, games)


def _rescaled(simulations: int, target: float, measured: float) -> int:
    """``simulations`` scaled by ``target / measured``, kept within OpenSpiel's 2 to 2**31 - 1."""
    if measured <= 0.0:  # a clock too coarse to see the search: keep the count
        return simulations
    return max(2, min(_MAX_SIMULATIONS, round(simulations * target / measured)))


def _seed_sequence(seed) -> np.random.SeedSequence:
    """A SeedSequence for :func:`mctslib.play.arena.play_match` (which takes no Generator)."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(int(seed.integers(2**63)))
    make_rng(seed)  # the usual checks and message
    return np.random.SeedSequence(seed)
