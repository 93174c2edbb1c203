"""The stored outputs of the speed and clock benchmarks that the chapter quotes.

Speed is not measured in the experiments (two games at a time on a shared machine: their
times per move are load artefacts, issue 14). It is measured by two scripts run one bot at
a time on a quiet machine, whose printed output is stored verbatim under
``benchmarks/results``:

* ``uttt_speed_per_move``: ``python benchmarks/uttt_speed.py --per-move`` (iterations per
  second and milliseconds per move in whole games, at 1,000, 20,000 and 100,000 iterations
  and at 100 ms);
* ``time_management``: ``python benchmarks/time_management.py`` (how far a timed search
  overruns its budget, a safety margin, early stopping); ``time_management_run2``: a second
  run of it, which also lists every move over its budget with its game and move number;
* ``uttt_equal_time``: ``python benchmarks/uttt_equal_time.py`` (the counts of iterations
  and of OpenSpiel's simulations that take 100 ms of CPU a move on average, in CPU time, so
  that a busy machine changes them little; :func:`equal_time_counts` reads them);
* ``uttt_reuse_cost``: ``python benchmarks/uttt_reuse_cost.py`` (CPU time per move of the
  bot with and without tree reuse, on the same positions).

The chapter prints these files so that every speed it quotes is pinned by the tests; a
re-run of the scripts on another machine gives other numbers, and replaces the files.
"""

from __future__ import annotations

from pathlib import Path

#: Where the benchmarks' stored outputs live (the repository's ``benchmarks/results``).
BENCHMARK_RESULTS = Path(__file__).resolve().parents[3] / "benchmarks" / "results"
#: The stored outputs the chapter reads, with the command that writes each.
BENCHMARK_COMMANDS = {
    "uttt_speed_per_move": "python benchmarks/uttt_speed.py --per-move",
    "time_management": "python benchmarks/time_management.py",
    "time_management_run2": "python benchmarks/time_management.py",  # a second run, with the
    # list of moves over budget (game and move number) that the first run did not print
    "uttt_equal_time": "python benchmarks/uttt_equal_time.py --games 4",
    "uttt_reuse_cost": "python benchmarks/uttt_reuse_cost.py --games 6",
}


def stored_benchmark(name: str, directory=None) -> str:
    """The stored output of one benchmark run, as the script printed it.

    Parameters
    ----------
    name : str
        Which benchmark, a key of :data:`BENCHMARK_COMMANDS` (the file ``NAME.txt``).
    directory : path, optional
        Where the files are (default :data:`BENCHMARK_RESULTS`).

    Returns
    -------
    str
        The file's text.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot" ("Speed first" and "The clock").
    """
    if not isinstance(name, str) or name not in BENCHMARK_COMMANDS:
        raise ValueError(f"name must be one of {', '.join(map(repr, BENCHMARK_COMMANDS))}, "
                         f"got {name!r:.80}.")
    path = Path(BENCHMARK_RESULTS if directory is None else directory) / f"{name}.txt"
    if not path.is_file():
        raise FileNotFoundError(f"no stored benchmark output at {path}: run "
                                f"`{BENCHMARK_COMMANDS[name]}` on a quiet machine and store "
                                "what it prints there.")
    return path.read_text(encoding="utf-8")


def benchmark_row(name: str, first_field: str, directory=None) -> list[str]:
    """The fields of the one table row of a stored benchmark that starts with ``first_field``.

    Parameters
    ----------
    name : {"uttt_speed_per_move", "time_management"}
        Which benchmark (see :func:`stored_benchmark`).
    first_field : str
        The row's first whitespace-separated field, e.g. a bot's spec
        ``"uct:c=0.5,iters=100000"``.
    directory : path, optional
        Where the files are (default :data:`BENCHMARK_RESULTS`).

    Returns
    -------
    list of str
        The row split on whitespace, ``first_field`` first, so that a cell can
        print a number it quotes (``float(row[4].replace(",", ""))``).

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot" ("Speed first").
    """
    if not isinstance(first_field, str) or not first_field.strip():
        raise ValueError(f"first_field must be a non-empty string, got {first_field!r:.80}.")
    rows = [line.split() for line in stored_benchmark(name, directory).splitlines()
            if line.split()[:1] == [first_field]]
    if len(rows) != 1:
        raise ValueError(f"the stored {name} output has {len(rows)} rows starting with "
                         f"{first_field!r}, not one.")
    return rows[0]


def equal_time_counts(directory=None) -> dict:
    """The counts ``benchmarks/uttt_equal_time.py`` found, and the CPU times it measured.

    Returns
    -------
    dict
        ``iterations`` (our bot) and ``simulations`` (OpenSpiel's) for 100 ms of CPU a move
        on average over whole games; ``ours_ms`` and ``openspiel_ms``, the mean CPU ms per
        move measured in the check round (its counts before the final rounding);
        ``ten_times_ours_ms`` and ``ten_times_openspiel_ms``, the same with ten times
        OpenSpiel's count.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot" ("Speed first", "Against OpenSpiel").
    """
    import re

    text = stored_benchmark("uttt_equal_time", directory)

    def number(pattern: str, source: str = text) -> float:
        found = re.search(pattern, source)
        if found is None:
            raise ValueError(f"the stored uttt_equal_time output has no match for {pattern!r}.")
        return float(found.group(1).replace(",", ""))

    check = next(line for line in text.splitlines() if "round 2" in line)
    ten = next(line for line in text.splitlines() if "ten times" in line)
    mean = r"mean ([\d.]+) ms CPU"
    return {"iterations": int(number(r"ours ([\d,]+) iterations,")),
            "simulations": int(number(r"OpenSpiel ([\d,]+) simulations \(")),
            "ours_ms": number(mean, check.split("; OpenSpiel")[0]),
            "openspiel_ms": number(mean, check.split("; OpenSpiel")[1]),
            "ten_times_ours_ms": number(mean, ten.split("; OpenSpiel")[0]),
            "ten_times_openspiel_ms": number(mean, ten.split("; OpenSpiel")[1])}


__all__ = ["BENCHMARK_COMMANDS", "BENCHMARK_RESULTS", "benchmark_row", "equal_time_counts",
           "stored_benchmark"]
