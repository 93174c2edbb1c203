"""How many games a decision needs (experiment 4 of the Ultimate Tic-Tac-Toe chapter).

Interval widths against games by formula, and close settings of c played out
with their running intervals and a sequential probability ratio test
(:mod:`mctslib.play.sprt`).
"""


from __future__ import annotations

import math
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


# ----------------------------------------------------------------------------- pairs (issue 14)


def pair_analysis(result: ExperimentResult, elo0: float = 0.0, elo1: float = 20.0,
                  power: float = 0.8) -> list[dict]:
    """Each comparison of a stored result read as pairs of games from the same opening.

    Every match of these experiments plays game ``2k`` and ``2k + 1`` from the
    same start with the sides swapped (:func:`~mctslib.play.arena.play_match`),
    and stores the games in that order (``Comparison.results``), so the pairs
    can be read back: this gives, per comparison, the Wilson interval on the
    per-game score (a draw half a win) and its Elo, the pentanomial counts of
    pair scores 0, 0.5, 1, 1.5, 2 with the interval that treats a pair as one
    observation (:func:`~mctslib.play.stats.pair_score_interval`: games that
    share an opening are not independent), the per-game spread shown by
    single games and by pairs, Fishtest's sequential test on Elo hypotheses
    ``elo0`` against ``elo1`` run on the pairs in order
    (:func:`~mctslib.play.elo_sprt.elo_sprt`, pentanomial), and the games a
    difference as large as the one measured needs for ``power`` at 95%
    confidence (:func:`~mctslib.play.stats.games_for_power`).

    Returns
    -------
    list of dict
        One per comparison, in order: ``label``, ``games``, ``score``,
        ``interval_95``, ``elo`` and ``elo_interval_95`` (infinite at a score
        of 0 or 1), ``pairs`` (five counts; None when the results are X's,
        whose pairs are not A's and B's, or when the games are odd in number),
        ``pair_interval_95``, ``game_spread``, ``pair_spread``, ``sprt``
        (decision, games, pairs, final LLR, bounds; None without pairs) and
        ``games_for_power`` (None when the score is exactly 0.5, 0 or 1).

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", "How many games a decision needs".
    """
    from ...play.elo_sprt import elo_sprt, pair_outcomes  # the chapter's statistics, on demand
    from ...play.stats import (
        elo_interval,
        game_spread,
        games_for_power,
        pair_score_interval,
        pair_spread,
    )

    if not isinstance(result, ExperimentResult):
        raise ValueError(f"result must be an ExperimentResult (load_experiment gives one), got "
                         f"{type(result).__name__}.")
    check_real("power", power, 0.0, 1.0)
    rows = []
    for c in result.comparisons:
        wilson = score_interval(c.wins, c.draws, c.losses)
        paired = c.perspective == "A" and c.games % 2 == 0
        counts = list(pair_outcomes(c.results)) if paired else None
        test = elo_sprt(c.results, elo0, elo1) if paired else None
        difference = abs(c.score - 0.5)
        rows.append({
            "label": c.label, "games": c.games, "score": c.score, "interval_95": c.interval_95,
            "elo": elo_interval(wilson)[0], "elo_interval_95": list(elo_interval(wilson)[1:]),
            "pairs": counts,
            "pair_interval_95": list(pair_score_interval(counts)[1:]) if paired else None,
            "game_spread": game_spread(c.wins, c.draws, c.losses),
            "pair_spread": pair_spread(counts) if paired else None,
            "sprt": None if test is None else {
                "elo0": elo0, "elo1": elo1, "decision": test.decision, "games": test.games,
                "pairs": test.pairs, "llr": test.llr[-1] if len(test.llr) else 0.0,
                "bounds": [test.as_dict()["lower_bound"], test.as_dict()["upper_bound"]]},
            "games_for_power": (games_for_power(difference, power) if 0.0 < difference < 0.5
                                else None)})
    return rows


# ----------------------------------------------------------------------------- differences


def score_difference(first, second, confidence: float = 0.95) -> tuple[float, float, float]:
    """The first match's score minus the second's, with a normal-approximation interval.

    Each argument is a :class:`~.results.Comparison` (or anything with a
    ``results`` string of ``W``, ``D`` and ``L``, or that string itself). The
    two matches share no games, so the variance of the difference is the sum of
    the two means' variances, each from its own games' sample variance (a draw
    is half a win). Sums use :func:`math.fsum`, so the printed digits do not
    depend on a BLAS or a reduction order.

    Returns
    -------
    tuple of float
        ``(difference, low, high)``: the difference in score and its interval
        at ``confidence`` (1.96 standard errors either side at 95%).

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot": a decision's gain at
    one budget against another (the later budget minus the earlier).
    """
    from ...play.stats import _z  # the two-sided normal point at this confidence

    check_real("confidence", confidence, 0.0, 1.0)
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence}.")
    (mean1, var1), (mean2, var2) = _mean_and_variance(first), _mean_and_variance(second)
    error = _z(confidence) * math.sqrt(var1 + var2)
    gap = mean1 - mean2
    return gap, gap - error, gap + error


def _mean_and_variance(match) -> tuple[float, float]:
    """A match's mean score per game and the variance of that mean (sample variance / n)."""
    results = match if isinstance(match, str) else getattr(match, "results", None)
    if not isinstance(results, str) or len(results) < 2 or set(results) - set("WDL"):
        raise ValueError("each match must be a Comparison or a string of at least two "
                         f"results W, D and L, got {match!r:.60}.")
    values = [{"W": 1.0, "D": 0.5, "L": 0.0}[r] for r in results]
    mean = math.fsum(values) / len(values)
    spread = math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, spread / len(values)


def detectable_difference(games: int, power: float = 0.8, confidence: float = 0.95,
                          sd_per_game: float = 0.5) -> float:
    """The smallest true difference in score that ``games`` games show with ``power``.

    The planning formula inverted: a match of ``n`` games whose interval is
    read once shows a true difference ``d`` (interval leaving out 0.5) with
    probability ``power`` when ``d = (z + z_power) * sd_per_game / sqrt(n)``
    (normal approximation, one side; 1.96 + 0.84 at 95% and 80%). With the
    worst case ``sd_per_game = 0.5`` it is the inverse of
    ``games_for_power(d, sd_per_game=0.5, interval="measured")`` up to
    rounding. This is what a match *could* detect, fixed before it is played,
    unlike a power computed from the difference it measured.

    Returns
    -------
    float
        The difference in score (add 0.5 for the score; its Elo via
        :func:`~mctslib.play.stats.elo_from_score`).

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot": 200 games detect about
    0.099 (70 Elo), 400 about 0.070 (49 Elo).
    """
    from statistics import NormalDist

    from ...play.stats import _z

    games = check_budget("games", games, 1, MAX_GAMES)
    for name, value in (("power", power), ("confidence", confidence)):
        check_real(name, value, 0.0, 1.0)
        if not 0.0 < value < 1.0:
            raise ValueError(f"{name} must be strictly between 0 and 1, got {value}.")
    sd_per_game = check_real("sd_per_game", sd_per_game, 0.0, 0.5)
    if sd_per_game == 0.0:
        raise ValueError("sd_per_game must be above 0: games without spread show any difference.")
    return (_z(confidence) + NormalDist().inv_cdf(power)) * sd_per_game / math.sqrt(games)
