"""Matches on a real Dask cluster (mctslib.play.cluster, play_match, ``match uttt --scheduler``).

One LocalCluster for the whole module: a scheduler and two worker processes on
127.0.0.1, one thread each, as ``dask scheduler`` and ``dask worker --nthreads 1``
would run on real machines. Every game played there must equal, record for
record, the same game played in this process (iteration budgets), even when a
worker dies in the middle of the match. So must every game played by a process
pool on this machine, whichever way its workers start (mctslib.play.cluster
forks no process that runs JAX or numba's parallel threads).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from distributed import Client, LocalCluster

from mctslib.bots.uttt import BYTES_PER_NODE, parse_spec, random_openings
from mctslib.cli import match as cli_match
from mctslib.cli.main import main
from mctslib.games import TicTacToe
from mctslib.play import arena, cluster
from mctslib.play.arena import RandomPlayer, play_match
from mctslib.play.cluster import check_scheduler_address, connect, open_executor
from mctslib.search.uct import UCTSearch

# A scheduler always serves HTTP (health checks), on port 8787 if free: a second cluster, or
# anything else on the machine holding 8787, moves it elsewhere with this warning.
pytestmark = pytest.mark.filterwarnings("ignore:Port 8787 is already in use")

A, B = "uct:c=0.5,iters=200", "uct:c=0.5,iters=100"
GAMES, SEED, OPENINGS = 8, 5, 4
#: Generous: two busy cores, and numba compiles its kernels in each new worker process.
WAIT = 120
#: Each worker's memory limit (a game of the bots above needs about 120 MB).
WORKER_MEMORY = 2 * 2**30


def openings():
    """What ``match uttt --openings 4 --seed 5`` plays from."""
    stream = np.random.SeedSequence(SEED, spawn_key=(cli_match.OPENINGS_STREAM,))
    return random_openings(OPENINGS, 2, stream, "codingame")


def match(executor=None, make_a=None):
    return play_match(make_a or parse_spec(A), parse_spec(B), openings(), GAMES, seed=SEED,
                      executor=executor)


@pytest.fixture(scope="module")
def local_cluster():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None, memory_limit=WORKER_MEMORY,
                      silence_logs=logging.ERROR) as running:
        yield running


@pytest.fixture
def client(local_cluster):
    """A client of the module's cluster once both workers are up (a killed one restarts)."""
    with Client(local_cluster, set_as_default=False) as connected:
        connected.wait_for_workers(2, timeout=WAIT)
        yield connected


@pytest.fixture(scope="module")
def local_records():
    return match().records


class CountingBar:
    """Stands in for the progress bar: counts the games reported done."""

    def __init__(self):
        self.done = 0

    def __call__(self, total, description, unit="it"):
        self.total = total
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        return False

    def update(self, count):
        self.done += count


# ------------------------------------------------------------- the same games everywhere


def test_a_match_through_the_scheduler_address_equals_the_local_run(
        local_cluster, client, local_records, monkeypatch):
    bar = CountingBar()
    monkeypatch.setattr(arena, "progress_bar", bar)
    with open_executor(local_cluster.scheduler_address) as executor:
        result = match(executor)
    assert result.records == local_records, "a game on the cluster differs from the local game"
    assert len(result.records) == GAMES and {r.index for r in result.records} == set(range(GAMES))
    assert (bar.total, bar.done) == (GAMES, GAMES), "the bar did not count every game once"


def test_a_client_passed_as_executor_plays_the_same_games(client, local_records):
    assert match(client).records == local_records
    with open_executor(client) as executor:  # the caller's client stays open afterwards
        assert match(executor).records == local_records
    assert client.status == "running"


def test_the_command_prints_the_same_result_as_a_local_run(local_cluster, client, tmp_path,
                                                           capsys, monkeypatch):
    monkeypatch.setenv("MCTSLIB_PROGRESS", "0")
    argv = ["match", "uttt", "--a", A, "--b", B, "--games", str(GAMES), "--seed", str(SEED),
            "--openings", str(OPENINGS)]
    address = local_cluster.scheduler_address
    assert main([*argv, "--jobs", "1", "--out", str(tmp_path / "local.json")]) == 0
    local = capsys.readouterr().out.splitlines()
    assert main([*argv, "--scheduler", address, "--out", str(tmp_path / "dask.json")]) == 0
    remote = capsys.readouterr().out.splitlines()
    assert local[0].endswith("from 4 random openings of 2 plies, 1 worker process")
    assert remote[0].endswith(f"on the Dask cluster at {address} (2 workers, 2 threads at "
                              "the start)")
    # Everything but where it ran, the measured seconds and the file name is the same.
    assert local[1:6] == remote[1:6] and remote[6].startswith("seconds per move: A ")
    saved = [json.loads((tmp_path / name).read_text()) for name in ("local.json", "dask.json")]
    assert games_of(saved[0]) == games_of(saved[1])
    assert saved[1]["parameters"]["scheduler"] == address
    assert "scheduler" not in saved[0]["parameters"]


def games_of(data):
    return [{key: value for key, value in record.items() if not key.startswith("seconds")}
            for record in data["records"]]


# --------------------------------------------------------------------- clear sentences


@pytest.mark.parametrize("address, words", [
    ("localhost:8786", "must be tcp://HOST:PORT"),
    ("tcp://localhost", "must be tcp://HOST:PORT"),
    ("http://localhost:8786", "must be tcp://HOST:PORT"),
    ("tcp://localhost:8786/x", "must be tcp://HOST:PORT"),
    ("tcp://localhost:0", "port must be 1 to 65535, got 0"),
    ("tcp://localhost:70000", "port must be 1 to 65535, got 70000"),
])
def test_a_malformed_address_is_refused_with_a_sentence(address, words, capsys):
    with pytest.raises(ValueError, match=words):
        check_scheduler_address(address)
    with pytest.raises(SystemExit) as stop:
        main(["match", "uttt", "--a", A, "--b", B, "--scheduler", address])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "argument --scheduler: the scheduler" in err and "Traceback" not in err


@pytest.mark.parametrize("address", ["tcp://[::1]:8786", "tcp://node-3.cluster.lan:8786",
                                     "tcp://10.0.0.7:65535"])
def test_good_addresses_pass(address):
    assert check_scheduler_address(address) == address


def test_no_scheduler_at_the_address_is_a_sentence_after_the_timeout(capsys, monkeypatch):
    with socket.socket() as closed:  # bound, never listening: every connection is refused
        closed.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{closed.getsockname()[1]}"
        with pytest.raises(ConnectionError, match="could not reach the Dask scheduler at "
                                                  f"{address} within 1 s"):
            connect(address, timeout=1)
        monkeypatch.setattr(cli_match, "SCHEDULER_WAIT", 1.0)
        assert main(["match", "uttt", "--a", A, "--b", B, "--scheduler", address]) == 1
    err = capsys.readouterr().err
    assert "error: could not reach the Dask scheduler" in err and "Traceback" not in err


def test_a_scheduler_without_workers_is_a_sentence():
    with (LocalCluster(n_workers=0, processes=False, protocol="tcp://", host="127.0.0.1",
                       dashboard_address=None, silence_logs=logging.ERROR) as empty,
          pytest.raises(ConnectionError, match="has no worker after 3 s: start some with")):
        connect(empty.scheduler_address, timeout=3)


def test_workers_with_another_mctslib_are_refused(local_cluster, client, monkeypatch):
    monkeypatch.setattr(cluster, "__version__", "0.0.0-other")
    with pytest.raises(ConnectionError, match="install the same mctslib on every worker"):
        connect(local_cluster.scheduler_address, timeout=WAIT)


def test_node_pools_beyond_a_workers_memory_limit_are_refused(local_cluster, client, capsys):
    # Each pool is 0.6 of a worker's limit (this machine's memory is not checked for a
    # --scheduler match); a worker's game holds both: 1.2 of its limit.
    big = f"uct:iters=100,capacity={int(0.6 * WORKER_MEMORY / BYTES_PER_NODE)}"
    assert main(["match", "uttt", "--a", big, "--b", big, "--scheduler",
                 local_cluster.scheduler_address]) == 2
    err = capsys.readouterr().err
    assert "need 2.40 GiB on the Dask worker tcp://127.0.0.1:" in err
    assert "its memory limit is 2.00 GiB" in err


def test_jobs_and_a_scheduler_do_not_go_together(capsys):
    assert main(["match", "uttt", "--a", A, "--b", B, "--jobs", "2",
                 "--scheduler", "tcp://127.0.0.1:8786"]) == 2
    assert "--jobs 2 and --scheduler do not go together" in capsys.readouterr().err
    with (pytest.raises(ValueError, match="jobs must be 1 with a Dask scheduler"),
          open_executor("tcp://127.0.0.1:8786", jobs=2)):
        pass


def test_open_executor_without_a_scheduler():
    with open_executor() as executor:
        assert executor is None
    with open_executor(jobs=2) as executor:
        assert executor.submit(abs, -3).result() == 3
    with (pytest.raises(ValueError, match="the scheduler must be an address"),
          open_executor(8786)):
        pass


# ---------------------------------------------------- process pools on this machine


def test_a_pool_never_forks_once_jax_or_numba_threads_are_loaded(monkeypatch):
    if multiprocessing.get_start_method(allow_none=True) not in (None, "fork") or \
            multiprocessing.get_all_start_methods()[0] != "fork":
        pytest.fail("these tests expect Linux, where Python's default start method is fork")
    monkeypatch.delitem(sys.modules, "jax", raising=False)
    monkeypatch.setattr(cluster, "_numba_threads_running", lambda: False)
    assert cluster.pool_start_method() == "fork"
    monkeypatch.setattr(cluster, "_numba_threads_running", lambda: True)
    assert cluster.pool_start_method() == "forkserver"
    monkeypatch.setattr(cluster, "_numba_threads_running", lambda: False)
    monkeypatch.setitem(sys.modules, "jax", types.ModuleType("jax"))
    assert cluster.pool_start_method() == "forkserver"
    with cluster.process_pool(2) as pool:
        assert pool._mp_context.get_start_method() == "forkserver"
        assert pool.submit(abs, -3).result() == 3


#: A pure-Python match for the pools (no numba kernels to load in every new worker).
_TICTACTOE = ("import functools\n"
              "from mctslib.games import TicTacToe\n"
              "from mctslib.play.arena import RandomPlayer, play_match\n"
              "from mctslib.search.uct import UCTSearch\n"
              "def tictactoe(jobs):\n"
              "    return play_match(functools.partial(UCTSearch, exploration=1.0, iterations=40),\n"
              "                      RandomPlayer, TicTacToe(), games=8, seed=12, jobs=jobs).records\n")


def _tictactoe(jobs: int):
    """The match of ``_TICTACTOE`` (which the subprocesses below play), played here."""
    return play_match(functools.partial(UCTSearch, exploration=1.0, iterations=40),
                      RandomPlayer, TicTacToe(), games=8, seed=12, jobs=jobs).records


def test_numba_threads_are_seen_only_once_a_parallel_kernel_ran():
    code = ("from numba import njit, prange\n"
            "from mctslib.play import cluster\n"
            "@njit(parallel=True)\n"
            "def total(n):\n"
            "    s = 0\n"
            "    for i in prange(n):\n"
            "        s += i\n"
            "    return s\n"
            "before = cluster._numba_threads_running(), cluster.pool_start_method()\n"
            "assert total(1000) == 499500\n"
            "print(*before, cluster._numba_threads_running(), cluster.pool_start_method())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=WAIT, check=True)
    assert done.stdout.split() == ["False", "fork", "True", "forkserver"]


@pytest.mark.parametrize("method", ["chosen", "forkserver"])
def test_a_pool_plays_the_same_games_whatever_its_start_method(method, monkeypatch):
    # "chosen": the method this process would use (fork, unless an earlier test of this
    # worker loaded JAX or ran numba's threads: forcing a fork then is what must not happen).
    if method != "chosen":
        monkeypatch.setattr(cluster, "pool_start_method", lambda: method)
    assert _tictactoe(jobs=2) == _tictactoe(jobs=1)


def test_a_match_after_jax_ran_forks_nothing_and_plays_the_same_games():
    """JAX warns at a fork once its runtime runs (and the fork may deadlock): none is made."""
    code = (_TICTACTOE
            + "import jax.numpy as jnp\n"
            "from mctslib.play.cluster import pool_start_method\n"
            "assert float(jnp.ones(3).sum()) == 3.0  # JAX's runtime and its threads are up\n"
            "assert tictactoe(jobs=2) == tictactoe(jobs=1)\n"
            "print(pool_start_method())\n")
    done = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", code],
                          capture_output=True, text=True, timeout=4 * WAIT, check=False)
    assert done.returncode == 0, done.stderr
    assert "os.fork()" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert done.stdout == "forkserver\n"


# ------------------------------------------------------------------ a worker dies


@dataclasses.dataclass(frozen=True)
class DiesInGame:
    """Builds ``make``'s player; in game ``game``, the first time only, its worker dies.

    It kills its own process with SIGKILL at its third move (as the kernel's
    out-of-memory killer or a pulled plug would), so the game is surely in
    progress, on a worker, after the games before it were handed out. Every
    game it builds leaves a line in ``log``, so the test sees which games ran twice.
    """

    make: Callable
    game: int
    flag: str
    log: str
    test_process: int

    def __call__(self, seed):
        index = seed.bit_generator.seed_seq.spawn_key[-1] // 2  # A's stream of game i is 2i
        with open(self.log, "a") as log:
            log.write(f"{index}\n")
        player = self.make(seed=seed)
        if index == self.game and os.getpid() != self.test_process and self._first_time():
            return _DiesAtMove(player, 3)
        return player

    def _first_time(self) -> bool:
        try:
            os.close(os.open(self.flag, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            return False
        return True


class _DiesAtMove:
    def __init__(self, player, move: int):
        self.player, self.moves_left = player, move

    def choose(self, state):
        self.moves_left -= 1
        if self.moves_left == 0:
            os.kill(os.getpid(), getattr(signal, "SIGKILL", signal.SIGTERM))
        return self.player.choose(state)


def test_a_worker_killed_mid_match_loses_no_game(client, local_records, tmp_path, monkeypatch):
    bar = CountingBar()
    monkeypatch.setattr(arena, "progress_bar", bar)
    flag, log = tmp_path / "killed", tmp_path / "games.log"
    dies = DiesInGame(parse_spec(A), 5, str(flag), str(log), os.getpid())
    workers_before = set(client.scheduler_info(n_workers=-1)["workers"])
    result = match(client, make_a=dies)
    assert flag.exists(), "no worker was killed: the test tested nothing"
    assert result.records == local_records, "a game re-run after the kill differs"
    assert (bar.total, bar.done) == (GAMES, GAMES), "a game was lost or counted twice"
    started = [int(line) for line in Path(log).read_text().split()]
    assert started.count(5) >= 2, "the game of the killed worker was not played again"
    assert set(started) == set(range(GAMES))
    # The nanny starts a fresh worker in place of the dead one (a new address).
    client.wait_for_workers(2, timeout=WAIT)
    assert set(client.scheduler_info(n_workers=-1)["workers"]) != workers_before


@dataclasses.dataclass(frozen=True)
class AlwaysDies:
    """A player factory whose worker process dies at the player's first move (never here)."""

    make: Callable
    test_process: int

    def __call__(self, seed):
        player = self.make(seed=seed)
        return player if os.getpid() == self.test_process else _DiesAtMove(player, 1)


def test_a_game_that_keeps_killing_workers_ends_the_command_with_a_sentence(
        local_cluster, client, capsys, monkeypatch):
    # Dask gives up on a game after its allowed failures (3 by default; 0 here, so
    # that one death is enough) and raises KilledWorker: the command says so.
    def set_allowed_failures(count, dask_scheduler=None):
        old, dask_scheduler.allowed_failures = dask_scheduler.allowed_failures, count
        return old

    play = arena.play_match
    monkeypatch.setattr(arena, "play_match", lambda a, *rest, **options: play(
        AlwaysDies(a, os.getpid()), *rest, **options))
    monkeypatch.setenv("MCTSLIB_PROGRESS", "0")
    allowed = client.run_on_scheduler(set_allowed_failures, 0)
    try:
        assert main(["match", "uttt", "--a", A, "--b", B, "--games", "2", "--scheduler",
                     local_cluster.scheduler_address]) == 1
    finally:
        client.run_on_scheduler(set_allowed_failures, allowed)
    err = capsys.readouterr().err
    assert "error: every Dask worker that ran one of the games died while playing it" in err
    assert "Traceback" not in err
