"""Tuning experiments 1-3 of the Ultimate Tic-Tac-Toe chapter: budget, exploration constant, options.

Each plays versions of our bot against each other through :mod:`.results`
and returns an :class:`~mctslib.experiments.uttt.results.ExperimentResult`:
``budget_experiment`` (strength against iterations per move),
``exploration_experiment`` (the constant c under both reward scales), and the
on/off options ``win_taking_experiment``, ``solver_experiment``,
``reuse_experiment`` and ``centre_experiment``.

Why one module of about 580 lines: these are the chapter's tuning decisions, each a short
function on the same comparison machinery (:func:`_on_off`, the shared openings and seeds);
the statistics and the OpenSpiel match, which have their own machinery, have their own
modules.
"""


from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

import numpy as np

from ... import fixed_order
from ..._checks import check_int
from ...bots.uttt import CENTRE, MAX_ITERATIONS
from ...games.uttt import UltimateTicTacToe
from ...play.arena import MAX_GAMES
from ...search.minimax import check_budget
from .results import (
    BASE_OPTIONS,
    DEFAULT_SCORING,
    OPENINGS_STREAM,
    PLAYER_REPORTED_C,
    TIME_NOTE,
    Comparison,
    ExperimentResult,
    _bot,
    _common,
    _finish,
    _iterations,
    _machine,
    _milliseconds,
    _numbers,
    _openings,
    _parameters,
    _sequence,
    _without_budget,
)

# ----------------------------------------------------------------------------- 1. budget


def budget_experiment(budgets: Sequence[int] = (250, 1000, 4000), reference: int = 1000,
                      games: int = 10, *, options=BASE_OPTIONS, seed: int = 1,
                      scoring: str = DEFAULT_SCORING, opening_plies: int = 2,
                      games_by_budget: dict | None = None, jobs: int = 1, executor=None,
                      callback: Callable | None = None) -> ExperimentResult:
    """Strength against iterations per move: each budget plays the same bot at ``reference``.

    Parameters
    ----------
    budgets : sequence of int
        Iterations per move of bot A, one comparison each.
    reference : int
        Iterations per move of bot B, the fixed opponent.
    games : int
        Games per comparison (pairs of games from the same opening).
    options : str or BotSpec
        Everything but the budget, the same for both bots (default: plain
        UCT, c = 0.5 on rewards 1/0.5/0).
    games_by_budget : dict, optional
        ``{budget: games}`` to play fewer (or more) games at some budgets.
    seed, scoring, opening_plies, jobs, executor, callback
        As in every experiment here: the seed of the matches and openings,
        the scoring, the plies of random opening, worker processes or an
        executor for :func:`~mctslib.play.arena.play_match`, and a function called
        with each :class:`Comparison` as it finishes.

    Returns
    -------
    ExperimentResult
        Summary: each budget's score, interval and the Elo difference that
        score would mean (``400 log10(s / (1 - s))``; None at 0 or 1).

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", "Speed first".
    """
    start = time.perf_counter()
    games, runner = _common("budget", games, seed, scoring, jobs, executor, callback)
    budgets = _numbers("budgets", budgets, 1)
    reference = check_budget("reference (iterations per move)", reference, 1, MAX_ITERATIONS)
    if games_by_budget is not None and not isinstance(games_by_budget, Mapping):
        raise ValueError(f"games_by_budget must be a dict {{budget: games}} or None, got "
                         f"{type(games_by_budget).__name__}.")
    games_by_budget = {check_int("a budget of games_by_budget", b, 1):
                       check_budget("games in games_by_budget", n, 2, MAX_GAMES)
                       for b, n in (games_by_budget or {}).items()}
    plain = _bot(options)
    opponent = _iterations(plain, reference)
    starts = _openings(max([games, *games_by_budget.values()]), opening_plies, seed, scoring)
    for budget in budgets:
        runner.match(f"iters={budget}", budget, _iterations(plain, budget), opponent, starts,
                     games_by_budget.get(budget, games))
    summary = {"reference": reference, "points": [
        {"iterations": c.value, "games": c.games, "score": c.score, "interval_95": c.interval_95,
         "elo": _elo(c.score), "elo_interval_95": [_elo(c.low), _elo(c.high)]}
        for c in runner.played]}
    return _finish(runner, start, title="score against iterations per move, vs a fixed budget",
                   scoring=scoring, reproducible=True, summary=summary, notes=[TIME_NOTE],
                   parameters=_parameters(runner, budgets=budgets, reference=reference,
                                          games=games,
                                          games_by_budget={str(budget): count for budget, count
                                                           in games_by_budget.items()},
                                          options=_without_budget(plain),
                                          opening_plies=opening_plies,
                                          openings=len(starts)))


def doubling_experiment(budgets: Sequence[int] = (500, 1000, 2000), games: int = 10, *,
                        options=BASE_OPTIONS, seed: int = 9, scoring: str = DEFAULT_SCORING,
                        opening_plies: int = 2, games_by_budget: dict | None = None,
                        jobs: int = 1, executor=None,
                        callback: Callable | None = None) -> ExperimentResult:
    """Elo per doubling: each budget against the same bot at half of it.

    The standard way to show diminishing returns of search: if doubling the
    iterations per move is worth less and less, the Elo of ``N`` against
    ``N // 2`` falls as ``N`` grows. Every point plays the same openings.

    Parameters
    ----------
    budgets : sequence of int
        Iterations per move of bot A (each >= 2); bot B gets ``budget // 2``.
    games : int
        Games per point (pairs of games from the same opening).
    games_by_budget : dict, optional
        ``{budget: games}`` to play fewer (or more) games at some budgets.
    options, seed, scoring, opening_plies, jobs, executor, callback
        As in :func:`budget_experiment`.

    Returns
    -------
    ExperimentResult
        Summary ``points``: each budget, its half, the score, the 95% Wilson
        interval and the Elo difference with the interval's ends turned into
        Elo (``400 log10(s / (1 - s))``; None at a score of 0 or 1).

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", "Speed first" (Elo per doubling).
    """
    start = time.perf_counter()
    games, runner = _common("doubling", games, seed, scoring, jobs, executor, callback)
    budgets = _numbers("budgets", budgets, 2)
    games_by_budget = _games_by_budget(games_by_budget)
    plain = _bot(options)
    starts = _openings(max([games, *games_by_budget.values()]), opening_plies, seed, scoring)
    for budget in budgets:
        runner.match(f"iters={budget} vs {budget // 2}", budget, _iterations(plain, budget),
                     _iterations(plain, budget // 2), starts, games_by_budget.get(budget, games))
    summary = {"points": [
        {"iterations": c.value, "half": c.value // 2, "games": c.games, "score": c.score,
         "interval_95": c.interval_95, "elo": _elo(c.score),
         "elo_interval_95": [_elo(c.low), _elo(c.high)]} for c in runner.played]}
    return _finish(runner, start, title="Elo per doubling: each budget vs half of it",
                   scoring=scoring, reproducible=True, summary=summary, notes=[
                       TIME_NOTE,
                       ("Games come in pairs from the same opening (sides swapped): game 2k and "
                       "2k + 1 of results share opening k, so they are not independent.")],
                   parameters=_parameters(runner, budgets=budgets, games=games,
                                          games_by_budget={str(budget): count for budget, count
                                                           in games_by_budget.items()},
                                          options=_without_budget(plain),
                                          opening_plies=opening_plies,
                                          openings=len(starts)))


def _games_by_budget(games_by_budget) -> dict:
    if games_by_budget is not None and not isinstance(games_by_budget, Mapping):
        raise ValueError(f"games_by_budget must be a dict {{budget: games}} or None, got "
                         f"{type(games_by_budget).__name__}.")
    return {check_int("a budget of games_by_budget", b, 1):
            check_budget("games in games_by_budget", n, 2, MAX_GAMES)
            for b, n in (games_by_budget or {}).items()}


def _elo(score: float) -> float | None:
    """The Elo difference a score means; None for 0 or 1 (infinite)."""
    if not 0.0 < score < 1.0:
        return None
    return 400.0 * math.log10(score / (1.0 - score))


# ----------------------------------------------------------------------------- 2. c


def exploration_experiment(cs: Sequence[float] = (0.2, 0.5, 1.0),
                           scales: Sequence[str] = ("01", "pm1"), iterations: int = 500,
                           games: int = 10, *, reference_c: float = 0.5,
                           reference_scale: str = "01", options=BASE_OPTIONS, seed: int = 2,
                           scoring: str = DEFAULT_SCORING, opening_plies: int = 2,
                           jobs: int = 1, executor=None,
                           callback: Callable | None = None) -> ExperimentResult:
    """A sweep of the exploration constant c under both reward scales, against one reference.

    Every bot ``(c, scale)`` plays the same opponent, c = ``reference_c`` on
    ``reference_scale``, at the same iterations per move. ``cs`` is a sequence
    of values used on every scale of ``scales``, or a dict ``{scale: cs}``
    giving each scale its own values (``scales`` is then ignored). On rewards 1/0/-1 a
    mean's spread is twice that on 1/0.5/0, so the same balance of exploring
    and exploiting needs twice the c: the optimum should move by a factor
    of about 2 (c on 1/0/-1 explores like c/2 on 1/0.5/0).

    Returns
    -------
    ExperimentResult
        Summary per scale: the best c measured with its score and interval,
        the values of c whose interval reaches the best one's lower bound (not
        separated from it at this many games), and the vertex of a parabola
        fitted to score against log2 c over the best point and up to two
        neighbours each side, the values of c whose interval lies wholly
        above (``better_than_reference``) or below 0.5; and the ratio of the
        two scales' optima.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", "The exploration constant".
    """
    start = time.perf_counter()
    games, runner = _common("exploration", games, seed, scoring, jobs, executor, callback)
    if isinstance(cs, Mapping):  # {scale: cs}: its own values of c on each scale
        scales = list(cs)
    else:
        scales = [scales] if isinstance(scales, str) else _sequence("scales", scales)
    if not scales or any(not isinstance(scale, str) or scale not in ("01", "pm1")
                         for scale in scales):
        raise ValueError(f"scales must be one or both of '01' and 'pm1' (the keys of cs when it "
                         f"is a dict), got {scales}.")
    cs_of = {scale: sorted(set(_numbers("cs", cs[scale] if isinstance(cs, Mapping) else cs,
                                        0.0, kind=float, maximum=math.inf)))
             for scale in scales}
    iterations = check_budget("iterations (per move)", iterations, 1, MAX_ITERATIONS)
    plain = _iterations(_bot(options), iterations)
    reference = _bot(plain, c=reference_c, scale=reference_scale)
    starts = _openings(games, opening_plies, seed, scoring)
    for scale in scales:
        for c in cs_of[scale]:
            runner.match(f"c={c:g},scale={scale}", c, _bot(plain, c=c, scale=scale), reference,
                         starts, games)
    summary = {scale: _optimum([p for p in runner.played if p.label.endswith(f"scale={scale}")])
               for scale in scales}
    if set(scales) == {"01", "pm1"}:
        summary["ratio_pm1_to_01"] = {
            "best_measured": summary["pm1"]["best_c"] / summary["01"]["best_c"],
            "parabola_vertex": _ratio(summary["pm1"]["parabola_vertex_c"],
                                      summary["01"]["parabola_vertex_c"])}
    summary["rule"] = ("close_to_best: c whose interval's upper end reaches the best point's "
                       "lower end (not separated from it at this many games; a loose rule)")
    notes = [("On rewards 1/0/-1 a node's mean is 2m - 1 where m is its mean on 1/0.5/0, so "
              "UCB1 with c on 1/0/-1 ranks children exactly as c/2 does on 1/0.5/0 (up to "
              "rounding): the two curves are one curve with c scaled by 2, measured on "
              "different games. c=1 on pm1 is therefore the reference bot itself, and so is "
              "c=0.5 on 01: both should score about 0.5."), TIME_NOTE]
    return _finish(runner, start, title="exploration constant c under both reward scales",
                   scoring=scoring, reproducible=True, summary=summary, notes=notes,
                   parameters=_parameters(runner, cs=cs_of[scales[0]] if len(set(
                                              map(tuple, cs_of.values()))) == 1 else cs_of,
                                          scales=scales, iterations=iterations,
                                          games=games, reference=str(reference),
                                          options=str(plain), opening_plies=opening_plies,
                                          player_reported_c=PLAYER_REPORTED_C,
                                          openings=len(starts)))


def _optimum(points: list[Comparison]) -> dict:
    best = max(points, key=lambda p: p.score)
    close = [p.value for p in points if p.high >= best.low]
    return {"best_c": best.value, "best_score": best.score, "best_interval_95": best.interval_95,
            "close_to_best": close, "parabola_vertex_c": _vertex(points, points.index(best)),
            "better_than_reference": [p.value for p in points if p.low > 0.5],
            "worse_than_reference": [p.value for p in points if p.high < 0.5]}


def _vertex(points: list[Comparison], best: int) -> float | None:
    """Top of a parabola through score against log2 c near the best point (None if not a top)."""
    near = points[max(0, best - 2): best + 3]
    if len(near) < 3 or any(p.value <= 0 for p in near):
        return None
    x = [math.log2(p.value) for p in near]
    curvature, slope = _parabola(x, [p.score for p in near])
    if curvature >= 0:
        return None
    top = float(-slope / (2 * curvature))
    return 2.0 ** top if min(x) <= top <= max(x) else None


def _parabola(x: list[float], y: list[float]) -> tuple[Fraction, Fraction]:
    """Curvature and slope of the least-squares parabola through the points, exactly.

    The normal equations are solved in rational arithmetic (Cramer's rule on
    the 3x3 system), so the stored vertex does not depend on the LAPACK and
    BLAS kernels that ``numpy.polyfit`` would call.
    """
    xs, ys = [Fraction(v) for v in x], [Fraction(v) for v in y]
    power = [sum(v ** k for v in xs) for k in range(5)]  # sum of x^k, k = 0..4
    moment = [sum(v ** k * w for v, w in zip(xs, ys)) for k in range(3)]
    matrix = [[power[4], power[3], power[2]], [power[3], power[2], power[1]],
              [power[2], power[1], power[0]]]
    right = [moment[2], moment[1], moment[0]]

    def determinant(m):
        return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))

    def with_right_in(column):  # Cramer's rule: the right-hand side replaces one column
        return [[right[i] if j == column else matrix[i][j] for j in range(3)] for i in range(3)]

    whole = determinant(matrix)
    return determinant(with_right_in(0)) / whole, determinant(with_right_in(1)) / whole


def _ratio(top, bottom):
    return None if top is None or bottom is None else top / bottom


# ----------------------------------------------------------------------------- 3. options


def _on_off(name, option, given, games, options, seed, scoring, opening_plies, jobs, executor,
            callback, title, by_time=False, variants=None) -> ExperimentResult:
    """Bot A has ``option`` on, bot B off, everything else equal, one comparison per budget.

    ``given`` is the budget as the caller gave it (iterations, or ms if
    ``by_time``): one number or a sequence, recorded as given. ``variants``
    (default: ``option`` alone) lists ``(label, fields of A, fields of B)``,
    one comparison per variant and budget, variant by variant.
    """
    start = time.perf_counter()
    games, runner = _common(name, games, seed, scoring, jobs, executor, callback)
    argument = "ms" if by_time else "iterations"
    budgets = _numbers(argument, given, 0.0 if by_time else 1, kind=float if by_time else int)
    budget_of = _milliseconds if by_time else _iterations
    unit = "ms" if by_time else "iters"
    plain = _bot(options)
    starts = _openings(games, opening_plies, seed, scoring)
    machine_before = _machine()
    variants = variants or [(option, {option: True}, {option: False})]
    for label, on, off in variants:
        for budget in budgets:
            runner.match(f"{label}=on vs off, {unit}={budget:g}", budget,
                         budget_of(_bot(plain, **on), budget),
                         budget_of(_bot(plain, **off), budget), starts, games)
    if by_time:
        notes = [("Both bots stop on the clock, so the result depends on the machine and its "
                  "load and does not repeat exactly with the same seed; games ran in parallel "
                  "worker processes (jobs), which share the cores with each other and anything "
                  "else running.")]
    else:
        notes = [("Equal iterations per move: an option that makes each iteration slower gets "
                  "that time for free; compare the measured ms per move.")]
    notes.append(TIME_NOTE)
    summary = {"points": [{unit: c.value, "games": c.games, "score": c.score,
                           "interval_95": c.interval_95, "distinguishable": c.excludes_half()}
                          for c in runner.played]}
    if len(variants) > 1:
        for point, comparison in zip(summary["points"], runner.played):
            point["option"] = comparison.label.split("=on vs off")[0]
    single = isinstance(given, (int, float, np.integer, np.floating))
    parameters = _parameters(runner, option=option if len(variants) == 1 and variants[0][0] ==
                             option else [label for label, _, _ in variants], budget_unit=unit,
                             games=games, **{argument: budgets[0] if single else budgets},
                             options=_without_budget(plain), opening_plies=opening_plies,
                             openings=len(starts))
    if by_time:
        parameters["machine_before"], parameters["machine_after"] = machine_before, _machine()
    return _finish(runner, start, title=title, scoring=scoring, reproducible=not by_time,
                   summary=summary, notes=notes, parameters=parameters)


#: Where win-taking acts (:func:`win_taking_experiment`): the option turned on in bot A (bot B
#: has all win-taking off).
WIN_TAKING = {
    "both": ("wins", {"wins": True}),
    "playouts": ("playout_wins", {"wins": False, "playout_wins": True, "tree_wins": False}),
    "tree": ("tree_wins", {"wins": False, "playout_wins": False, "tree_wins": True}),
}


def win_taking_experiment(iterations=1000, games: int = 10, *, options=BASE_OPTIONS,
                          where: Sequence[str] = ("both",), seed: int = 3,
                          scoring: str = DEFAULT_SCORING, opening_plies: int = 2,
                          jobs: int = 1, executor=None, callback=None) -> ExperimentResult:
    """Taking an immediate win against not taking it, in playouts, in the tree, or both.

    ``iterations`` (an int or a sequence: one comparison each) is the budget
    of both bots. ``where`` lists one comparison per entry: ``"both"``
    (``wins=on``: in playouts and in the tree, the default), ``"playouts"``
    (``playout_wins=on,tree_wins=off``) or ``"tree"``
    (``playout_wins=off,tree_wins=on``), each against the bot with all
    win-taking off. Other parameters as in :func:`budget_experiment`.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", win-taking playouts.
    """
    where = [where] if isinstance(where, str) else _sequence("where", where)
    if not where or any(not isinstance(w, str) or w not in WIN_TAKING for w in where):
        raise ValueError(f"where must be one or more of {', '.join(WIN_TAKING)}, got {where}.")
    variants = [(WIN_TAKING[w][0], WIN_TAKING[w][1], {"wins": False}) for w in where]
    return _on_off("win_taking", "wins", iterations, games, options, seed, scoring,
                   opening_plies, jobs, executor, callback,
                   "win-taking playouts on vs off at equal iterations" if where == ["both"]
                   else f"win-taking ({', '.join(where)}) on vs off at equal iterations",
                   variants=variants)


def solver_experiment(iterations=1000, games: int = 10, *, options=BASE_OPTIONS, seed: int = 4,
                      scoring: str = DEFAULT_SCORING, opening_plies: int = 2, jobs: int = 1,
                      executor=None, callback=None) -> ExperimentResult:
    """MCTS-Solver on (``solver=on``) against off, at equal iterations per move.

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", MCTS-Solver.
    """
    return _on_off("solver", "solver", iterations, games, options, seed, scoring, opening_plies,
                   jobs, executor, callback, "MCTS-Solver on vs off at equal iterations")


def reuse_experiment(ms=10.0, games: int = 10, *, options=BASE_OPTIONS, seed: int = 5,
                     scoring: str = DEFAULT_SCORING, opening_plies: int = 2, jobs: int = 1,
                     executor=None, callback=None) -> ExperimentResult:
    """Tree reuse on against off at equal time per move (``ms``, the same for every move).

    Reuse only pays in time: with a fixed iteration count the kept subtree
    would simply be extra iterations. So both bots stop on the clock, and the
    result does not repeat exactly (recorded as ``reproducible: false``, with
    the machine's load before and after).

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", tree reuse.
    """
    return _on_off("reuse", "reuse", ms, games, options, seed, scoring, opening_plies, jobs,
                   executor, callback, "tree reuse on vs off at equal time per move",
                   by_time=True)


def centre_experiment(iterations: int = 500, games: int = 8, *, options=BASE_OPTIONS,
                      against: str = "random", first_iterations: int | None = None,
                      first_move_samples: int = 0, seed: int = 6,
                      scoring: str = DEFAULT_SCORING, jobs: int = 1, executor=None,
                      callback=None) -> ExperimentResult:
    """The centre opening against a random first move, or against the bot's own searched one.

    ``against="random"`` (the default): the same bot plays both sides. In the
    first comparison X has played the centre cell of the centre board (row 4,
    col 4); in the second a uniformly random first move: the 81 first moves
    in a seeded random order, each played twice with the bots' seats swapped
    (``games`` a multiple of 162 covers every first move equally often). Both
    comparisons count X's results (``perspective="X"``).

    ``against="searched"``: one match from the empty board between bot A
    (``centre=on``: as X it opens in the centre without searching) and bot B
    (``centre=off``: as X it searches its first move), everything else equal.
    Both search their first move with ``first_iterations`` (default
    ``iterations``; CodinGame's first turn is ten times longer, so e.g.
    ``10 * iterations``) and every later move with ``iterations``. Game
    ``2k`` has A as X, game ``2k + 1`` B: A's score is above 0.5 when the
    centre beats what the bot finds itself. ``first_move_samples`` searches
    from the empty board, each with its own seed, record which first move
    the search picks (summary ``searched_first_moves``).

    Returns
    -------
    ExperimentResult
        Summary: both X scores, and their difference with a 95% normal
        interval from the two samples' per-game variances (for
        ``"searched"``: X's score with the centre, in A's games as X, and
        with the searched move, in B's).

    Notes
    -----
    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", the opening.
    """
    if not isinstance(against, str) or against not in ("random", "searched"):
        raise ValueError(f"against must be 'random' or 'searched', got {against!r}.")
    if against == "searched":
        return _centre_vs_searched(iterations, games, options, first_iterations,
                                   first_move_samples, seed, scoring, jobs, executor, callback)
    if first_iterations is not None or first_move_samples:
        raise ValueError("first_iterations and first_move_samples go with against='searched'.")
    start = time.perf_counter()
    games, runner = _common("centre", games, seed, scoring, jobs, executor, callback)
    iterations = check_budget("iterations (per move)", iterations, 1, MAX_ITERATIONS)
    bot = _iterations(_bot(options), iterations)
    empty = UltimateTicTacToe(scoring=scoring)
    firsts = [empty.play(move) for move in empty.legal_moves()]
    order = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(OPENINGS_STREAM,)))
    firsts = [firsts[i] for i in order.permutation(len(firsts))]
    centre = runner.match("centre", CENTRE, bot, bot, [empty.play(CENTRE)], games,
                          perspective="X")
    random_first = runner.match("random first move", "random", bot, bot, firsts, games,
                                perspective="X")
    difference, low, high = _difference(centre.results, random_first.results)
    summary = {"x_score_centre": centre.score, "x_score_random_first": random_first.score,
               "difference": difference, "difference_interval_95": [low, high],
               "difference_rule": "normal approximation, per-game variances of both samples"}
    return _finish(runner, start, title="X's score: centre opening vs a random first move",
                   scoring=scoring, reproducible=True, summary=summary, notes=[
                       "Both sides are the same bot; results are X's (the first player's)."],
                   parameters=_parameters(runner, iterations=iterations, games=games,
                                          bot=str(bot), first_moves=len(firsts)))


def _centre_vs_searched(iterations, games, options, first_iterations, first_move_samples, seed,
                        scoring, jobs, executor, callback) -> ExperimentResult:
    start = time.perf_counter()
    games, runner = _common("centre", games, seed, scoring, jobs, executor, callback)
    iterations = check_budget("iterations (per move)", iterations, 1, MAX_ITERATIONS)
    first_iterations = iterations if first_iterations is None else check_budget(
        "first_iterations (for the first move)", first_iterations, 1, MAX_ITERATIONS)
    first_move_samples = check_int("first_move_samples", first_move_samples, 0, 10_000)
    searched = dataclasses.replace(_iterations(_bot(options, centre=False), iterations),
                                   first_iterations=first_iterations)
    centre = dataclasses.replace(searched, centre=True)
    empty = UltimateTicTacToe(scoring=scoring)
    match = runner.match("centre vs searched first move", "searched", centre, searched,
                         [empty], games)
    # Game 2k: A (centre) is X; game 2k + 1: B (searched) is X. X's results in each:
    x_centre = match.results[0::2]
    x_searched = "".join({"W": "L", "D": "D", "L": "W"}[r] for r in match.results[1::2])
    difference, low, high = _difference(x_centre, x_searched)
    picks = np.random.SeedSequence(seed, spawn_key=(OPENINGS_STREAM - 1,)).spawn(
        first_move_samples)
    counts: dict[int, int] = {}
    for stream in picks:
        move = searched(seed=np.random.default_rng(stream)).choose(empty)
        counts[int(move)] = counts.get(int(move), 0) + 1
    summary = {"score_centre_bot": match.score, "interval_95": match.interval_95,
               "x_score_centre": _mean_score(x_centre),
               "x_score_searched_first": _mean_score(x_searched),
               "difference": difference, "difference_interval_95": [low, high],
               "difference_rule": "normal approximation, per-game variances of both samples",
               "searched_first_moves": {str(m): n for m, n in sorted(counts.items())},
               "searched_first_moves_rule": (f"{first_move_samples} searches of "
                                             f"{first_iterations} iterations from the empty "
                                             "board, seeds SeedSequence(seed, spawn_key="
                                             "(2**32 - 2,)).spawn(n); moves are 9 * row + col "
                                             f"(the centre is {CENTRE})")}
    notes = [("Every game starts from the empty board: game 2k has the centre bot as X, game "
             "2k + 1 the searching bot; both are the same bot but for centre=on, which acts "
             "only on X's first move (as O both search their first move with first_iterations)."),
             TIME_NOTE]
    return _finish(runner, start,
                   title="the centre opening vs the bot's own searched first move",
                   scoring=scoring, reproducible=True, summary=summary, notes=notes,
                   parameters=_parameters(runner, against="searched", iterations=iterations,
                                          first_iterations=first_iterations, games=games,
                                          centre_bot=str(centre), searched_bot=str(searched),
                                          first_move_samples=first_move_samples))


def _mean_score(letters: str) -> float:
    return (letters.count("W") + 0.5 * letters.count("D")) / len(letters)


def _difference(first: str, second: str) -> tuple[float, float, float]:
    """Difference of two mean scores (W/D/L letters) with a 95% normal interval."""
    samples = [[{"W": 1.0, "D": 0.5, "L": 0.0}[x] for x in s] for s in (first, second)]
    # fixed_order: correctly rounded sums, so the stored interval is the same on every machine.
    difference = fixed_order.mean(samples[0]) - fixed_order.mean(samples[1])
    error = math.sqrt(sum(fixed_order.sample_variance(s) / len(s) for s in samples))
    return float(difference), float(difference - 1.96 * error), float(difference + 1.96 * error)
