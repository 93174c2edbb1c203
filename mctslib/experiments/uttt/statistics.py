"""How many games a decision needs (experiment 4 of the Ultimate Tic-Tac-Toe chapter).

Interval widths against games by formula, and close settings of c played out
with their running intervals and a sequential probability ratio test
(:mod:`mctslib.play.sprt`).
"""


from __future__ import annotations

import time
from collections.abc import Sequence

from ..._checks import check_real
from ...bots.uttt import MAX_ITERATIONS
from ...play.arena import MAX_GAMES
from ...play.sprt import SPRT
from ...play.stats import games_for_width, score_interval
from ...search.minimax import check_budget
from .results import (
    BASE_OPTIONS,
    DEFAULT_SCORING,
    ExperimentResult,
    _bot,
    _common,
    _finish,
    _iterations,
    _openings,
    _parameters,
    _sequence,
)

# ----------------------------------------------------------------------------- 4. games


#: Games at which the chapter reads the interval width.
WIDTH_GAMES = (10, 20, 50, 100, 200, 400, 1000, 2000, 5000, 10000)
#: Interval widths whose games the chapter lists.
WIDTHS = (0.2, 0.1, 0.05, 0.02)


def games_needed_experiment(games: int = 20, pairs: Sequence[Sequence[float]] = ((0.6, 0.7),),
                            iterations: int = 500, *, options=BASE_OPTIONS,
                            sprt_p0: float = 0.45, sprt_p1: float = 0.55,
                            sprt_alpha: float = 0.05, sprt_beta: float = 0.05,
                            width_games: Sequence[int] = WIDTH_GAMES,
                            widths: Sequence[float] = WIDTHS, seed: int = 7,
                            scoring: str = DEFAULT_SCORING, opening_plies: int = 2, jobs: int = 1,
                            executor=None, callback=None) -> ExperimentResult:
    """How many games a decision needs: widths by formula, and close settings played out.

    Computed (no games): the 95% Wilson interval's width at a score of 0.5
    after each number of ``width_games``, and the games
    :func:`~mctslib.play.stats.games_for_width` gives for each of ``widths``.
    Played: for each pair ``(c_a, c_b)`` of ``pairs`` (default the brief's
    0.6 vs 0.7), ``games`` games of c = c_a against c = c_b, with the
    interval after 10, 20, 50, 100 games and every 100 after, and Wald's
    sequential test (:mod:`mctslib.play.sprt`) run on the same games in order,
    reporting when (if) it stops.

    Returns
    -------
    ExperimentResult
        Summary: ``width_vs_games``, ``games_for_width``, and under
        ``pairs`` for each comparison's label its ``running`` intervals,
        ``decided_at_end`` (the final interval leaves out 0.5) and ``sprt``.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", "How many games a decision needs".
    """
    start = time.perf_counter()
    games, runner = _common("games_needed", games, seed, scoring, jobs, executor, callback)
    iterations = check_budget("iterations (per move)", iterations, 1, MAX_ITERATIONS)
    pairs = _pairs(pairs)
    test = SPRT(sprt_p0, sprt_p1, sprt_alpha, sprt_beta)
    # The computed part is checked before any game is played, so a mistake costs no wait.
    width_games, widths = _sequence("width_games", width_games), _sequence("widths", widths)
    width_vs_games = [_width_at_half(check_budget("each of width_games", n, 2, MAX_GAMES))
                      for n in width_games]
    games_for_widths = [{"width": w, "games": games_for_width(w)} for w in widths]
    plain = _iterations(_bot(options), iterations)
    starts = _openings(games, opening_plies, seed, scoring)
    played = {}
    for c_a, c_b in pairs:
        match = runner.match(f"c={c_a:g} vs c={c_b:g}", c_a, _bot(plain, c=c_a),
                             _bot(plain, c=c_b), starts, games)
        played[match.label] = {
            "running": [_running(match.results, n) for n in _checkpoints(games)],
            "decided_at_end": match.excludes_half(),
            "sprt": test.run(match.results).as_dict(),
        }
    summary = {"width_vs_games": width_vs_games, "games_for_width": games_for_widths,
               "pairs": played}
    return _finish(runner, start, title="how many games a decision needs", scoring=scoring,
                   reproducible=True, summary=summary, notes=[],
                   parameters=_parameters(runner, games=games, pairs=[list(p) for p in pairs],
                                          iterations=iterations, options=str(plain),
                                          sprt={"p0": test.p0, "p1": test.p1,
                                                "alpha": test.alpha, "beta": test.beta},
                                          width_games=list(width_games), widths=list(widths),
                                          opening_plies=opening_plies, openings=len(starts)))


def _pairs(pairs) -> list[tuple[float, float]]:
    checked = []
    for pair in _sequence("pairs", pairs):
        if isinstance(pair, (str, bytes)) or not hasattr(pair, "__len__") or len(pair) != 2:
            raise ValueError(f"pairs must hold pairs (c_a, c_b) of exploration constants, "
                             f"got {pair!r}.")
        checked.append(tuple(check_real("each c of pairs", c, 0.0) for c in pair))
    if not checked:
        raise ValueError("pairs must hold at least one pair (c_a, c_b).")
    return checked


def _width_at_half(games: int) -> dict:
    """The 95% Wilson interval when half the games are won and half lost."""
    wins = games // 2
    _, low, high = score_interval(wins, games - 2 * wins, wins)
    return {"games": games, "interval_95": [low, high], "width": high - low}


def _checkpoints(games: int) -> list[int]:
    marks = [n for n in (10, 20, 50) if n < games] + list(range(100, games, 100))
    return [*marks, games]


def _running(results: str, games: int) -> dict:
    played = results[:games]
    score, low, high = score_interval(played.count("W"), played.count("D"), played.count("L"))
    return {"games": games, "score": score, "interval_95": [low, high],
            "excludes_half": high < 0.5 or low > 0.5}
