"""Statistics of matches: scores and their confidence intervals.

Every comparison between two bots in the book is reported as games played,
score and a 95% interval (UCT chapter onward).
"""

from __future__ import annotations

import math
from statistics import NormalDist

from .._checks import MAX_EXACT_COUNT, check_int, check_real, shown


def _z(confidence: float) -> float:
    confidence = check_real("confidence", confidence, 0.0, 1.0)
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence}.")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def score_interval(wins: int, draws: int, losses: int,
                   confidence: float = 0.95) -> tuple[float, float, float]:
    """Score (win 1, draw 0.5, loss 0) and its Wilson interval: ``(score, low, high)``.

    The Wilson score interval treats the ``n`` games as ``n`` trials whose
    success chance is the score. We use it rather than the textbook
    "score plus or minus 1.96 standard errors" because it stays inside
    [0, 1] and does not collapse to a single point after a clean sweep
    (10 wins of 10 still leaves real doubt). Draws only reduce the spread of
    a game's result, so treating each game as a win-or-loss trial makes the
    interval slightly conservative (wider) when there are draws.
    """
    wins, draws, losses = (check_int(name, value, 0, MAX_EXACT_COUNT) for name, value in
                           (("wins", wins), ("draws", draws), ("losses", losses)))
    games = wins + draws + losses
    if games == 0:
        raise ValueError("a score needs at least one game; wins + draws + losses is 0.")
    if games > MAX_EXACT_COUNT:  # beyond it wins + 0.5 * draws is rounded
        raise ValueError(f"wins + draws + losses must be at most 2**53 games (a count exact as "
                         f"a float), got {games}.")
    z = _z(confidence)
    score = (wins + 0.5 * draws) / games
    denominator = 1.0 + z * z / games
    centre = (score + z * z / (2 * games)) / denominator
    half_width = z * math.sqrt(score * (1 - score) / games + z * z / (4 * games * games)) / denominator
    return score, max(0.0, centre - half_width), min(1.0, centre + half_width)


def games_for_width(width: float, score: float = 0.5, confidence: float = 0.95) -> int:
    """Games needed for an interval of total ``width`` around ``score`` (normal approximation).

    At a score near 0.5 (two close bots) a 95% interval of width 0.1
    (plus or minus 0.05) needs about 385 games; halving the width needs four
    times as many games.

    ``width`` is in ``(0, 1]`` and ``score`` strictly between 0 and 1 (at 0 or 1
    the approximation has no spread and would claim that no game is needed).
    Raises ValueError for a width so small that the answer would exceed 2**53
    games (about 9e15): beyond that a count is no longer exact as a float, and
    no match is that long.
    """
    width = check_real("width", width, 0.0, 1.0)
    score = check_real("score", score, 0.0, 1.0)
    if width == 0.0:
        raise ValueError("width must be greater than 0: no finite number of games gives certainty.")
    if score in (0.0, 1.0):
        raise ValueError(f"score must be strictly between 0 and 1, got {shown(score)}: at 0 or 1 the "
                         "normal approximation has no spread and would claim no game is needed.")
    z = _z(confidence)
    squared = width ** 2
    games = (2 * z) ** 2 * score * (1 - score) / squared if squared > 0.0 else math.inf
    if games > MAX_EXACT_COUNT:
        raise ValueError(f"width must be large enough that at most 2**53 games are needed, "
                         f"got {shown(width)}: an interval that narrow needs more games than a "
                         "count can hold exactly.")
    return math.ceil(games)
