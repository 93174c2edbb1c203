"""Where a match's games run: this process, worker processes, or a Dask cluster (UTTT chapter).

A match is a list of independent games (:func:`~mctslib.play.arena.play_match`
gives each its own random streams), so any ``concurrent.futures.Executor`` can
play them. :func:`open_executor` opens the right one for a command line or an
experiment: none (play here), a process pool on this machine, or the executor of
a `Dask distributed <https://distributed.dask.org>`_ cluster, given the address
of its scheduler (``tcp://HOST:PORT``) or a ``dask.distributed.Client``.

Dask is imported only when a scheduler is given, so ``import mctslib`` stays
fast and a machine without Dask can still play matches locally. Every process pool of
mctslib is made by :func:`process_pool`, which never forks a process that holds
threads a fork would break (JAX's, numba's OpenMP team). On a cluster,
Dask re-runs the games of a worker that dies (up to its ``allowed-failures``
setting, 3 by default, for the same game); each game carries its own seeds, so
a re-run plays the same moves and the result stays the same game for game.
"""

from __future__ import annotations

import multiprocessing
import re
import sys
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager

from .._checks import check_int, check_real
from .._version import __version__

__all__ = ["SCHEDULER_TIMEOUT", "as_executor", "check_scheduler_address", "connect",
           "is_dask_client", "open_executor", "pool_start_method", "process_pool"]

#: Seconds to wait for a scheduler to answer, and then for its first worker.
SCHEDULER_TIMEOUT = 10.0
#: tcp://HOST:PORT with HOST a name, an IPv4 address or an [IPv6] address in brackets.
_ADDRESS = re.compile(r"tcp://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?P<port>[0-9]{1,5})")
_EXAMPLE = "tcp://HOST:PORT, e.g. tcp://192.168.1.10:8786 (what `dask scheduler` prints)"


def pool_start_method() -> str:
    """How :func:`process_pool` starts its workers: ``"fork"``, ``"forkserver"`` or ``"spawn"``.

    Python's default (or the method the program set with
    ``multiprocessing.set_start_method``), except that a fork is replaced by
    ``"forkserver"`` once this process runs threads that a fork breaks: a child
    gets a copy of their locks but not the threads that would release them.
    Two such are known here: JAX, once imported (its runtime is multithreaded:
    a fork can deadlock, and JAX warns), and numba's parallel threading layer,
    once a ``prange`` kernel has run (leaf parallelism,
    :mod:`mctslib.bots.parallel`: GNU OpenMP kills a forked child outright).
    """
    # Why not forkserver always: it is safe everywhere but dearer, and a factory defined in a
    # notebook cell cannot reach its workers (they do not share the kernel's __main__).
    # Measured on the book's 2-core machine (benchmarks/pool_start.py), from making a pool of
    # 2 workers to 2 short UTTT games played (the parent already warm), interleaved: fork 0.02 s
    # (the workers inherit the loaded modules and compiled kernels), forkserver 0.9-1.5 s,
    # spawn 1.0-3.8 s on a quiet machine; medians 0.12 s, 5.5 s and 8.4 s under a load of 8
    # from other jobs. A new worker imports mctslib (numpy, numba) and loads numba's cached
    # kernels; forkserver starts one clean interpreter and forks it, spawn starts one per
    # worker. A second per pool is nothing against a match of minutes, but nothing is gained
    # by paying it where a fork is safe: so fork where it is safe, never where it is not.
    chosen = (multiprocessing.get_start_method(allow_none=True)
              or multiprocessing.get_all_start_methods()[0])  # the first is the platform's default
    if chosen == "fork" and (_jax_loaded() or _numba_threads_running()):
        chosen = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    return chosen


def _jax_loaded() -> bool:
    return "jax" in sys.modules


def _numba_threads_running() -> bool:
    numba = sys.modules.get("numba")
    if numba is None:
        return False
    try:
        numba.threading_layer()  # the layer's name once its threads started
    except ValueError:  # "Threading layer is not initialized": no parallel kernel has run
        return False
    return True


def process_pool(jobs: int) -> ProcessPoolExecutor:
    """A ``ProcessPoolExecutor`` of ``jobs`` workers started by :func:`pool_start_method`.

    Every pool of the library (matches, experiments) is made here, so none
    forks a process that a fork would break. Results do not depend on the
    method: each task carries its own seeds. The caller shuts the pool down.
    """
    jobs = check_int("jobs", jobs, 1, 1024)
    context = multiprocessing.get_context(pool_start_method())
    return ProcessPoolExecutor(max_workers=jobs, mp_context=context)


def check_scheduler_address(address) -> str:
    """Return ``address`` if it is a Dask scheduler address ``tcp://HOST:PORT``.

    Raises ValueError with a sentence saying what is wrong otherwise (the
    command line's ``--scheduler`` and :func:`open_executor` use it).
    """
    if not isinstance(address, str):
        raise ValueError(f"the scheduler must be an address {_EXAMPLE}, or a "
                         f"dask.distributed.Client, got {type(address).__name__}.")
    shown = address if len(address) <= 80 else address[:77] + "..."
    match = _ADDRESS.fullmatch(address)
    if match is None:
        raise ValueError(f"the scheduler address must be {_EXAMPLE}; got {shown!r}.")
    port = int(match["port"])
    if not 1 <= port <= 65535:
        raise ValueError(f"the scheduler's port must be 1 to 65535, got {port} in {shown!r}.")
    return address


def is_dask_client(obj) -> bool:
    """True for a ``dask.distributed.Client`` (told apart without importing Dask)."""
    return (not isinstance(obj, Executor) and callable(getattr(obj, "get_executor", None))
            and any(kind.__name__ == "Client" and kind.__module__.split(".")[0] == "distributed"
                    for kind in type(obj).__mro__))


def as_executor(executor):
    """``executor`` itself, or the executor of a ``dask.distributed.Client``.

    Each task gets a key of its own (``pure=False``): Dask does not hash the
    game to name it, and two equal tasks are still two games.
    """
    if is_dask_client(executor):
        return executor.get_executor(pure=False)
    return executor


def connect(address: str, timeout: float = SCHEDULER_TIMEOUT):
    """A ``dask.distributed.Client`` connected to the scheduler at ``address``.

    Waits up to ``timeout`` seconds for the scheduler, then up to ``timeout``
    seconds for at least one worker, and checks that every worker runs the same
    mctslib version as this process (a game must be played by the same code
    everywhere). Raises ValueError for a malformed address, ConnectionError
    with a sentence if the scheduler cannot be reached, has no worker, or a
    worker runs another mctslib (or none). The caller closes the client.
    """
    check_scheduler_address(address)
    timeout = check_real("timeout (seconds)", timeout, 0.1, 3600.0)
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("playing on a Dask cluster needs dask[distributed] in this "
                         "environment: pip install 'dask[distributed]'.") from None
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError) as error:
        # Dask retries a refused connection or an unknown host until the timeout, and then
        # says only that it timed out; anything else it says is worth passing on.
        said = _one_line(error)
        why = "" if said.startswith("Timed out") else f" ({said})"
        raise ConnectionError(f"could not reach the Dask scheduler at {address} within "
                              f"{timeout:g} s{why}: is `dask scheduler` running on that host "
                              "and port, and can this machine reach it?") from None
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError):
            raise ConnectionError(f"the Dask scheduler at {address} has no worker after "
                                  f"{timeout:g} s: start some with `dask worker {address} "
                                  "--nthreads 1`.") from None
        _check_worker_versions(client, address)
    except BaseException:
        client.close()
        raise
    return client


def _check_worker_versions(client, address: str) -> None:
    try:
        versions = client.run(_mctslib_version, on_error="return")
    except Exception as error:  # noqa: BLE001 - whatever a worker without mctslib raises
        raise ConnectionError(f"could not ask the Dask workers of {address} for their mctslib "
                              f"version ({_one_line(error)}): install the same mctslib on every "
                              "worker.") from None
    for worker, version in sorted(versions.items()):
        if version != __version__:
            found = (f"mctslib {version}" if isinstance(version, str)
                     else f"no usable mctslib ({_one_line(version)})")
            raise ConnectionError(f"the Dask worker {worker} of {address} has {found}, this "
                                  f"process mctslib {__version__}: install the same mctslib on "
                                  "every worker, so that every game is played by the same code.")


def _mctslib_version() -> str:
    """Run on each worker by :func:`connect` (a top-level function: workers import it)."""
    from .._version import __version__ as version

    return version


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 160 else text[:157] + "..."


@contextmanager
def open_executor(scheduler=None, jobs: int = 1, timeout: float = SCHEDULER_TIMEOUT):
    """Open where a match's games run, and close what was opened when the block ends.

    Parameters
    ----------
    scheduler : None, str or dask.distributed.Client
        None plays on this machine; an address ``tcp://HOST:PORT`` connects to
        that Dask scheduler (see :func:`connect`) and yields its executor; a
        ``Client`` yields its executor (the client stays open: it is the caller's).
    jobs : int
        Without a scheduler: 1 yields None (play in this process), more yields a
        ``ProcessPoolExecutor`` with that many processes. With a scheduler it
        must be 1 (the cluster's workers decide how many games run at once).
        The pool is made by :func:`process_pool`.
    timeout : float
        Seconds to wait for the scheduler, then for its first worker.

    Yields
    ------
    concurrent.futures.Executor or None
        Pass it as ``executor=`` to :func:`~mctslib.play.arena.play_match`.
        Games still running when the block ends by an exception are cancelled.
    """
    jobs = check_int("jobs", jobs, 1, 1024)
    if scheduler is None:
        if jobs == 1:
            yield None
            return
        pool = process_pool(jobs)
        try:
            yield pool
        finally:
            pool.shutdown(cancel_futures=True)
        return
    if jobs != 1:
        raise ValueError(f"jobs must be 1 with a Dask scheduler (its workers decide how many "
                         f"games run at once), got {jobs}.")
    if is_dask_client(scheduler):
        client, own_client = scheduler, False
    else:
        client, own_client = connect(scheduler, timeout), True
    executor = as_executor(client)
    try:
        yield executor
    finally:
        try:
            executor.shutdown(wait=False)  # cancels only what is left: an interrupted match
        finally:
            if own_client:
                client.close()
