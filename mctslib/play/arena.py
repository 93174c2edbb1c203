"""Matches between players, with the first move alternating (UCT chapter onward).

A *player* is anything with ``choose(state) -> move``: a :class:`~mctslib.search.uct.UCTSearch`,
a :class:`RandomPlayer`, a bot from :mod:`mctslib.bots.uttt`. A match takes *factories*,
``make(seed=...) -> player``, and builds fresh players for every game, each with its own
random stream spawned from the match seed: a game's result does not depend on the games
played before it, so games can run in any order, in parallel, on any executor, and the
match still gives the same result for the same seed.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from .._checks import check_int, shown
from ..games.base import GameState, check_game_state
from ..progress import progress_bar
from ..rng import GeneratorSource, make_rng
from .cluster import as_executor, process_pool
from .stats import score_interval

#: Games in one match: each is a task held in memory until the match ends.
MAX_GAMES = 10_000_000


class RandomPlayer:
    """Plays a uniformly random legal move."""

    def __init__(self, seed=None):
        self.source = GeneratorSource(seed)

    def choose(self, state: GameState):
        check_game_state(state)
        moves = state.legal_moves()
        if not moves:
            raise ValueError("cannot choose a move in a finished game: there is none.")
        return moves[self.source.below(len(moves))]


@dataclass(frozen=True)
class GameRecord:
    """One game of a match: who moved first, the result for A, and the time each side used."""

    index: int
    a_moved_first: bool
    result_for_a: float
    moves: int
    seconds_a: float = field(compare=False)
    seconds_b: float = field(compare=False)
    moves_a: int = field(compare=False)
    moves_b: int = field(compare=False)


#: A's result in a game as a letter: win, draw, loss (``GameRecord.result_for_a`` 1, 0.5, 0).
RESULT_LETTERS = {1.0: "W", 0.5: "D", 0.0: "L"}


def letters(records) -> str:
    """A's result in each game as one letter, W, D or L, in the order of ``records``.

    ``records`` are :class:`GameRecord` objects, e.g. ``MatchResult.records``
    (game order: games ``2k`` and ``2k + 1`` share an opening, the string that
    :func:`mctslib.play.elo_sprt.pair_outcomes` and the stored experiments
    take). Raises ValueError if ``records`` is not a sequence of game records,
    or one holds a result for A other than 1, 0.5 or 0.

    >>> letters([GameRecord(0, True, 1.0, 9, 0.0, 0.0, 5, 4),
    ...          GameRecord(1, False, 0.5, 9, 0.0, 0.0, 4, 5)])
    'WD'
    """
    if isinstance(records, (str, bytes)) or not isinstance(records, Iterable):
        raise ValueError(f"records must be a sequence of GameRecord (e.g. MatchResult.records), "
                         f"got {type(records).__name__}.")
    found = []
    for index, record in enumerate(records):
        if not isinstance(record, GameRecord):
            raise ValueError(f"records[{index}] must be a GameRecord, got "
                             f"{type(record).__name__}.")
        result = record.result_for_a
        try:  # a truth value is not a result (True == 1.0 would otherwise read as a win)
            letter = None if isinstance(result, bool) else RESULT_LETTERS.get(result)
        except TypeError:  # unhashable: not a number
            letter = None
        if letter is None:
            raise ValueError(f"records[{index}].result_for_a must be 1, 0.5 or 0 (A's result), "
                             f"got {result!r:.40}.")
        found.append(letter)
    return "".join(found)


@dataclass(frozen=True)
class MatchResult:
    """Games from A's point of view, with a 95% Wilson interval for A's score."""

    wins: int
    draws: int
    losses: int
    records: tuple[GameRecord, ...] = field(default=(), repr=False)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return score_interval(self.wins, self.draws, self.losses)[0]

    @property
    def interval(self) -> tuple[float, float]:
        return score_interval(self.wins, self.draws, self.losses)[1:]

    def seconds_per_move(self) -> tuple[float, float]:
        """Measured thinking time per move of A and of B (0 when not recorded)."""
        def mean(seconds, moves):
            return seconds / moves if moves else 0.0

        return (mean(sum(r.seconds_a for r in self.records), sum(r.moves_a for r in self.records)),
                mean(sum(r.seconds_b for r in self.records), sum(r.moves_b for r in self.records)))

    def __str__(self) -> str:
        low, high = self.interval
        return (f"{self.games} games: {self.wins} wins, {self.draws} draws, {self.losses} losses; "
                f"score {self.score:.3f}, 95% interval [{low:.3f}, {high:.3f}]")

    def save(self, path, **parameters) -> None:
        """Write the result and every parameter that made it to a JSON file.

        Written all at once: to a temporary file in the same folder, then renamed
        over ``path``, so a failure (a full disk, a folder removed meanwhile)
        never leaves half a file, nor destroys an earlier one. Raises ValueError
        unless ``path`` names a file in an existing folder, OSError (naming
        ``path``) if the file cannot be written.
        """
        path = _match_file(path, for_reading=False)
        from .._version import __version__

        low, high = self.interval
        data = {
            "mctslib_version": __version__,
            "parameters": parameters,
            "wins": self.wins, "draws": self.draws, "losses": self.losses,
            "games": self.games, "score": self.score, "interval_95": [low, high],
            "seconds_per_move": list(self.seconds_per_move()),
            "records": [asdict(record) for record in self.records],
        }
        try:
            _write_atomically(path, json.dumps(data, indent=1) + "\n")
        except OSError as error:  # its own may name the temporary file, not the user's
            raise _naming(error, path) from None

    @classmethod
    def load(cls, path) -> tuple[MatchResult, dict]:
        """Read a saved match: ``(result, parameters)``.

        Raises ValueError if ``path`` names no file (an empty path, a folder, a
        file that does not exist) or a file that is not a match saved by
        :meth:`save`, OSError (naming ``path``) if the file cannot be read.
        """
        path = _match_file(path, for_reading=True)
        try:
            text = path.read_text()
        except OSError as error:
            raise _naming(error, path) from None
        try:
            data = json.loads(text)
            records = tuple(GameRecord(**record) for record in data["records"])
            return cls(data["wins"], data["draws"], data["losses"], records), data["parameters"]
        except (ValueError, KeyError, TypeError) as error:  # JSONDecodeError is a ValueError
            raise ValueError(f"{path} is not a match saved by MatchResult.save "
                             f"({type(error).__name__}: {error}).") from None


def _match_file(path, for_reading: bool) -> Path:
    """``path`` as a Path, or ValueError with a sentence unless it can name a match's file."""
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if not isinstance(path, str):
        raise ValueError(f"path must be a file name (a str or a pathlib.Path), got {shown(path)}.")
    if not path:
        raise ValueError("path must name a file, got an empty path.")
    if "\0" in path:
        raise ValueError(f"path must be a file name without a NUL character, got {shown(path)}.")
    try:  # a name longer than the system allows makes these raise rather than answer False
        is_folder = path.endswith(("/", os.sep)) or Path(path).is_dir()
        exists, folder_exists = Path(path).exists(), Path(path).parent.is_dir()
    except OSError as error:
        raise ValueError(f"path must be a file name this system accepts ({error.strerror}), "
                         f"got {shown(path)}.") from None
    if is_folder:
        raise ValueError(f"path must name a file, not a folder, got {shown(path)}.")
    if for_reading and not exists:
        raise ValueError(f"path must name a saved match: there is no file {shown(path)}.")
    if not for_reading and not folder_exists:
        raise ValueError(f"path must be in an existing folder: {shown(str(Path(path).parent))} "
                         f"is not one (create it first), got {shown(path)}.")
    return Path(path)


def _naming(error: OSError, path: Path) -> OSError:
    """``error`` again, about the user's ``path`` (OSError(errno, ...) picks the same subclass)."""
    if error.errno is None or not error.strerror:
        return OSError(f"{error} (the match file {str(path)!r})")
    return OSError(error.errno, error.strerror, str(path))


def _write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file next to ``path``, then rename it over ``path``."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def play_game(players, state: GameState, clock: list | None = None) -> GameState:
    """Play one game; ``players[p]`` moves when player ``p`` is to move. Returns the final state.

    If ``clock`` is a list ``[seconds_0, seconds_1, moves_0, moves_1]``, the time
    each player spends choosing is added to it. Raises ValueError if ``state``
    is not a game position or ``players`` not two players (objects with
    ``choose(state)``).
    """
    check_game_state(state)
    _check_players(players)
    if clock is not None and (not isinstance(clock, list) or len(clock) != 4):
        raise ValueError(f"clock must be None or a list [seconds_0, seconds_1, moves_0, "
                         f"moves_1], got {clock!r:.80}.")
    while not state.is_terminal():
        mover = state.player_to_move
        start = time.perf_counter()
        move = players[mover].choose(state)
        if clock is not None:
            clock[mover] += time.perf_counter() - start
            clock[2 + mover] += 1
        state = state.play(move)
    return state


def _check_players(players) -> None:
    try:
        count = len(players)
    except TypeError:
        count = None
    if count != 2 or not all(callable(getattr(players[p], "choose", None)) for p in (0, 1)):
        raise ValueError(f"players must be two players (objects with a choose(state) method), "
                         f"one per side, got {players!r:.80}.")


@dataclass(frozen=True)
class _GameTask:
    index: int
    make_a: Callable
    make_b: Callable
    start: GameState
    a_first: bool
    seed_a: np.random.SeedSequence
    seed_b: np.random.SeedSequence


def _play_task(task: _GameTask) -> GameRecord:
    """Run one game of a match (a top-level function, so worker processes can run it)."""
    a, b = task.make_a(seed=make_rng(task.seed_a)), task.make_b(seed=make_rng(task.seed_b))
    players = (a, b) if task.a_first else (b, a)
    clock = [0.0, 0.0, 0, 0]
    final = play_game(players, task.start, clock)
    a_side = 0 if task.a_first else 1
    return GameRecord(task.index, task.a_first, final.result(a_side), clock[2] + clock[3],
                      clock[a_side], clock[1 - a_side], clock[2 + a_side], clock[3 - a_side])


def play_match(make_a: Callable, make_b: Callable, start: GameState | Sequence[GameState],
               games: int, seed=None, jobs: int = 1, executor: Executor | None = None,
               description: str = "games") -> MatchResult:
    """Play ``games`` games between A and B, A moving first in the even-numbered games.

    Parameters
    ----------
    make_a, make_b : callable(seed=...) -> player
        Build a player from a random generator passed as the keyword ``seed``,
        e.g. ``functools.partial(UCTSearch, exploration=1.0, iterations=500)``.
        With ``jobs > 1`` or an executor they must be picklable (a class, a
        top-level function, a ``functools.partial`` of one; not a lambda).
    start : GameState or sequence of GameState
        The starting position, or a list of openings: game ``i`` starts from
        opening ``(i // 2) % len(openings)``, so each opening is played twice
        with the sides swapped.
    games : int
        Number of games (>= 1); an even number gives both sides the first move
        equally often.
    seed : int, SeedSequence or None
        The match seed; game ``i`` gives A and B the streams ``2i`` and
        ``2i + 1`` spawned from it, whatever order games finish in.
    jobs : int
        Worker processes when no executor is given (1 plays in this process).
    executor : concurrent.futures.Executor or dask.distributed.Client, optional
        Any executor (a process pool, a Dask cluster's ``client.get_executor()``,
        or the ``Client`` itself, see :mod:`mctslib.play.cluster`); it receives
        one task per game. Results arrive as games finish, and a game lost with
        a Dask worker is re-run elsewhere with the same seeds, so the match is
        the same game for game (for iteration budgets) wherever it runs.

    Returns
    -------
    MatchResult
        Wins, draws and losses for A, and one record per game in game order.
    """
    games = check_int("games", games, 1, MAX_GAMES)
    jobs = check_int("jobs", jobs, 1, 1024)
    for name, make in (("make_a", make_a), ("make_b", make_b)):
        if not callable(make):
            raise ValueError(f"{name} must be a factory, callable as {name}(seed=...) to build "
                             f"a player, got {type(make).__name__}.")
    if isinstance(start, GameState):
        openings = [start]
    elif isinstance(start, (str, bytes)) or not isinstance(start, Iterable):
        raise ValueError(f"start must be a game position or a non-empty list of them, got "
                         f"{type(start).__name__}.")
    else:
        openings = list(start)
    if not openings:
        raise ValueError("start must be a position or a non-empty list of openings.")
    for index, opening in enumerate(openings):
        check_game_state(opening, f"start[{index}]")
        if opening.is_terminal():
            raise ValueError(f"start[{index}] is a finished game: a match needs positions "
                             "with a move to play.")
    executor = as_executor(executor)
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise ValueError(f"executor must be a concurrent.futures.Executor, a "
                         f"dask.distributed.Client or None, got {type(executor).__name__}.")
    if isinstance(seed, np.random.Generator):
        raise ValueError("seed must be an int, a SeedSequence or None for a match "
                         "(each game spawns its own streams from it).")
    if not isinstance(seed, np.random.SeedSequence):
        make_rng(seed)  # the same validation and message as everywhere else
        seed = np.random.SeedSequence(seed)
    streams = seed.spawn(2 * games)
    tasks = [_GameTask(i, make_a, make_b, openings[(i // 2) % len(openings)], i % 2 == 0,
                       streams[2 * i], streams[2 * i + 1]) for i in range(games)]
    records = _run(tasks, jobs, executor, description)
    tally = [0, 0, 0]
    for record in records:
        tally[{1.0: 0, 0.5: 1, 0.0: 2}[record.result_for_a]] += 1
    return MatchResult(*tally, records=tuple(records))


def _run(tasks, jobs: int, executor: Executor | None, description: str) -> list[GameRecord]:
    with progress_bar(len(tasks), description, unit="game") as bar:
        if executor is None and jobs == 1:
            records = []
            for task in tasks:
                records.append(_play_task(task))
                bar.update(1)
            return records
        own_pool = executor is None
        pool = process_pool(jobs) if own_pool else executor
        futures = []
        try:
            futures.extend(pool.submit(_play_task, task) for task in tasks)
            records = []
            # Each game counts when its result is here, whichever worker played it.
            for future in as_completed(futures):
                records.append(future.result())
                bar.update(1)
        finally:
            # An error or Ctrl-C: the games not started yet must not keep a pool (or
            # a cluster someone else shares) busy; cancel() leaves finished ones alone.
            for future in futures:
                future.cancel()
            if own_pool:
                pool.shutdown(cancel_futures=True)
    return sorted(records, key=lambda record: record.index)


def default_jobs() -> int:
    """All the cores this process may use (the command line's default)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1
