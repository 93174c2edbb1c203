"""Statistics of matches: scores, their confidence intervals, power and Elo.

Every comparison between two bots in the book is reported as games played,
score and a 95% interval (UCT chapter onward): :func:`score_interval`, the
Wilson interval on the per-game score with a draw counting as half a win.
Chapter "Ultimate Tic-Tac-Toe: tuning a real bot" adds how many games a
decision needs (:func:`games_for_width`, and the power of a match:
:func:`power_of`, :func:`games_for_power`), spreads measured from draws or
from game pairs that share an opening (:func:`game_spread`,
:func:`pair_spread`, :func:`pair_score_interval`) and the logistic Elo scale
(:func:`score_from_elo`, :func:`elo_from_score`, :func:`elo_interval`).
Chapter "Enhancements that matter" compares two versions of a bot that
played the same games (same openings, same seeds) pair by pair:
:func:`pair_difference_interval`; two matches that share nothing game by game
are compared with :func:`independent_difference_interval`.

Why one module of about 530 lines: intervals, power and Elo are the one vocabulary of
"reading a match" (chapter 5): power is computed from the same spreads the intervals use,
and Elo intervals are score intervals mapped through the same logistic curve.
"""

from __future__ import annotations

import math
from statistics import NormalDist

from .._checks import MAX_EXACT_COUNT, check_choice, check_int, check_real, is_sequence, shown
from .sprt import _letter


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

    The games must be independent. Two games from the same opening with the
    sides swapped (how the arena orders games ``2k`` and ``2k + 1``) are not:
    for them :func:`pair_score_interval` counts each pair as one observation.
    The interval leaves out a score ``s`` exactly when
    ``|score - s| > z * sqrt(s * (1 - s) / games)``; :func:`power_of` uses this.
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


# --- Power: how many games a decision needs -------------------------------------------
#
# Chapter "Ultimate Tic-Tac-Toe: tuning a real bot", section "How many games a decision
# needs". The interval-width rule above answers "how narrow will the interval be?"; the
# question a tuner asks is "if A is really better by this much, how likely is my match to
# show it?". That chance is the *power* of the match.

#: How an interval measures the spread of one game's result (see :func:`power_of`).
INTERVALS = ("wilson", "measured")


def power_of(games: int, difference: float, confidence: float = 0.95, score: float = 0.5,
             sd_per_game: float | None = None, interval: str = "wilson") -> float:
    """The chance that a match of ``games`` games shows a real difference (normal approximation).

    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot". A's true score is
    ``score + difference``; after the match we compute the interval at
    ``confidence`` and call the match *decisive* when the interval leaves out
    ``score`` (0.5: "the two bots are equal"). This is a two-sided test at level
    ``1 - confidence``; its power is the probability returned here.

    Which interval:

    * ``"wilson"`` (default) is :func:`score_interval`: the Wilson interval on
      the per-game score, a draw counting as half a win. It leaves out ``score``
      exactly when ``|mean - score| > z * sqrt(score * (1 - score) / games)``
      (it is the set of scores that this test does not reject), so its
      threshold takes the spread of a win-or-loss game (0.5 at an even score)
      whatever the draws.
    * ``"measured"`` is a normal interval ``mean +/- z * sd / sqrt(games)``
      whose spread ``sd`` was measured from the games: from the draws, or from
      game pairs that share an opening (:func:`pair_score_interval`). Its
      threshold uses ``sd_per_game``, which is then required.

    Where the observed mean falls is spread by ``sd_per_game``, the true
    standard deviation of one game's result (1, 0.5 or 0). ``None`` means
    ``sqrt(p * (1 - p))`` with ``p = score + difference``: games without draws,
    the largest spread a game with that score can have, so the power returned
    is then a lower bound for matches with draws.

    Games must be independent: two games played from the same opening with the
    sides swapped are not (a lopsided opening wins one and loses the other), so
    count such a pair as one observation and use ``"measured"`` with the
    spread from :func:`pair_spread`.

    Parameters
    ----------
    games : int
        Games in the match (at least 1).
    difference : float
        The true score minus ``score`` (either sign; 0 gives the false-alarm
        rate ``1 - confidence``).
    confidence : float
        Of the interval, strictly between 0 and 1 (default 0.95).
    score : float
        The score the interval must leave out, strictly between 0 and 1.
    sd_per_game : float or None
        The true standard deviation of one game's result, in (0, 0.5].
    interval : {"wilson", "measured"}
        Which interval decides (see above).

    Returns
    -------
    float
        The probability that the interval leaves out ``score``.

    Examples
    --------
    A true 0.55 against 0.5: the 385 games of the width rule show it about half
    the time, 783 games four times in five.

    >>> round(power_of(385, 0.05), 3), round(power_of(783, 0.05), 3)
    (0.501, 0.8)
    """
    games = check_int("games", games, 1, MAX_EXACT_COUNT)
    null_spread, true_spread, difference = _spreads(difference, score, sd_per_game, interval)
    z = _z(confidence)
    root = math.sqrt(games)
    normal = NormalDist()
    # The mean lands above score + z * null_spread / root, or below score - the same.
    return (normal.cdf((difference * root - z * null_spread) / true_spread)
            + normal.cdf((-difference * root - z * null_spread) / true_spread))


def games_for_power(difference: float, power: float = 0.8, confidence: float = 0.95,
                    score: float = 0.5, sd_per_game: float | None = None,
                    interval: str = "wilson") -> int:
    """The fewest games for which :func:`power_of` reaches ``power`` (normal approximation).

    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot". The parameters are those
    of :func:`power_of`; ``power`` is strictly between 0 and 1 and
    ``difference`` must not be 0.

    Roughly ``((z * s0 + z_power * s1) / difference) ** 2`` games, where ``z``
    is 1.96 for 95% confidence, ``z_power`` is 0.84 for 80% power, ``s0`` the
    spread the interval assumes and ``s1`` the true spread. Against the width
    rule of :func:`games_for_width` (which is this formula with ``z_power = 0``,
    a power of one half), 80% power costs about twice the games.

    Examples
    --------
    Five points (0.55 against 0.5) with 80% power, then one point:

    >>> games_for_power(0.05), games_for_power(0.01)
    (783, 19620)

    The textbook rounding, with the 0.5 worst case for both spreads, gives 785:

    >>> games_for_power(0.05, sd_per_game=0.5, interval="measured")
    785
    """
    power = check_real("power", power, 0.0, 1.0)
    if not 0.0 < power < 1.0:
        raise ValueError(f"power must be strictly between 0 and 1, got {power}.")
    null_spread, true_spread, difference = _spreads(difference, score, sd_per_game, interval)
    if difference == 0.0:
        raise ValueError("difference must not be 0: no number of games shows a difference "
                         "that is not there.")
    z = _z(confidence)
    z_power = NormalDist().inv_cdf(power)
    # The closed form drops the chance of landing on the wrong side, so it is enough games;
    # the smallest enough is then found by bisection (power grows with the games).
    estimate = ((z * null_spread + max(z_power, 0.0) * true_spread) / abs(difference)) ** 2
    if not estimate < MAX_EXACT_COUNT:
        raise ValueError(f"difference must be large enough that at most 2**53 games are "
                         f"needed, got {shown(difference)}.")
    high = max(1, math.ceil(estimate))
    while power_of(high, difference, confidence, score, sd_per_game, interval) < power:
        if high >= MAX_EXACT_COUNT:
            raise ValueError(f"difference must be large enough that at most 2**53 games are "
                             f"needed, got {shown(difference)}.")
        high = min(2 * high, MAX_EXACT_COUNT)
    low = 0  # power_of(low) < power, or low is 0 (no games)
    while high - low > 1:
        middle = (low + high) // 2
        if power_of(middle, difference, confidence, score, sd_per_game, interval) >= power:
            high = middle
        else:
            low = middle
    return high


def _spreads(difference, score, sd_per_game, interval) -> tuple[float, float, float]:
    """(spread the interval assumes, true spread, difference) after checking them."""
    interval = check_choice("interval", interval, INTERVALS)
    score = check_real("score", score, 0.0, 1.0)
    if score in (0.0, 1.0):
        raise ValueError(f"score must be strictly between 0 and 1, got {shown(score)}: no "
                         "interval can leave out a score of 0 or 1 when the truth is beyond it.")
    difference = check_real("difference", difference, -1.0, 1.0)
    truth = score + difference
    if not 0.0 < truth < 1.0:
        raise ValueError(f"score + difference (the true score) must be strictly between 0 and "
                         f"1, got {shown(score)} + {shown(difference)}.")
    if sd_per_game is not None:
        sd_per_game = check_real("sd_per_game", sd_per_game, 0.0, 0.5)
        if sd_per_game == 0.0:
            raise ValueError("sd_per_game must be greater than 0: games whose result never "
                             "varies need no statistics.")
    elif interval == "measured":
        raise ValueError('interval="measured" needs sd_per_game, the spread that interval '
                         "was built from.")
    true_spread = math.sqrt(truth * (1.0 - truth)) if sd_per_game is None else sd_per_game
    null_spread = math.sqrt(score * (1.0 - score)) if interval == "wilson" else sd_per_game
    return null_spread, true_spread, difference


# --- Spreads measured from the games ---------------------------------------------------

def game_spread(wins: int, draws: int, losses: int) -> float:
    """The standard deviation of one game's result (1, 0.5, 0), measured from a match.

    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot". The sample standard
    deviation (``n - 1`` in the denominator) of the ``wins + draws + losses``
    results, each added exactly (:func:`math.fsum`). Draws make it smaller than
    the 0.5 of a win-or-loss game at an even score: with a 40% draw rate at an
    even score it is about 0.39, and a match then needs about 40% fewer games
    for the same power (``sd_per_game`` of :func:`games_for_power`).
    """
    wins, draws, losses = (check_int(name, value, 0, MAX_EXACT_COUNT) for name, value in
                           (("wins", wins), ("draws", draws), ("losses", losses)))
    return _count_spread((losses, draws, wins), (0.0, 0.5, 1.0))


def pair_spread(pair_counts) -> float:
    """The per-game spread that game pairs sharing an opening show (for ``sd_per_game``).

    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot". ``pair_counts`` are the
    five counts of pairs that scored 0, 0.5, 1, 1.5 and 2 points for A (the
    pentanomial counts of :func:`mctslib.play.elo_sprt.pair_outcomes`). Each
    pair's per-game score (its points over 2) varies with sample standard
    deviation ``s``; a pair is two games, so ``sqrt(2) * s`` is the spread one
    game would need for independent games to be as informative. It equals the
    spread of a single game when the two games of a pair are independent, and
    is smaller when lopsided openings win one game and lose the other.
    """
    counts = _pair_counts(pair_counts)
    return math.sqrt(2.0) * _count_spread(counts, (0.0, 0.25, 0.5, 0.75, 1.0))


def pair_score_interval(pair_counts, confidence: float = 0.95) -> tuple[float, float, float]:
    """Score and normal interval from game pairs that share an opening: ``(score, low, high)``.

    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot". When game ``2k`` and
    game ``2k + 1`` start from the same opening with the sides swapped (as the
    arena orders them), the two results are not independent, and the Wilson
    interval of :func:`score_interval` treats them as if they were. Here each
    pair is one observation: its per-game score (0, 0.25, 0.5, 0.75 or 1);
    the interval is their mean plus or minus ``z`` sample standard deviations
    of that mean (normal approximation, clipped to [0, 1]). The score is the
    same as the per-game score of the games; the interval is narrower when the
    openings are lopsided (the pair cancels the opening's bias), and about the
    same when they are not.

    ``pair_counts`` are the five pentanomial counts (pairs scoring 0, 0.5, 1,
    1.5, 2 points for A), at least two pairs.
    """
    counts = _pair_counts(pair_counts)
    pairs = sum(counts)
    z = _z(confidence)
    values = (0.0, 0.25, 0.5, 0.75, 1.0)
    score = math.fsum(count * value for count, value in zip(counts, values)) / pairs
    half_width = z * _count_spread(counts, values) / math.sqrt(pairs)
    return score, max(0.0, score - half_width), min(1.0, score + half_width)


#: Points of a loss, draw and win, doubled (whole numbers: a pair's sum is exact).
_HALF_POINTS = {"L": 0, "D": 1, "W": 2}


def pair_difference_interval(results_a, results_b,
                             confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean per-game score difference of two paired series and its normal interval.

    Chapter "Enhancements that matter". ``results_a`` and ``results_b`` are
    the games of two versions of a bot, A and B, against the same opponent
    on the same games: game ``i`` of both series has the same opening and
    the same seeds, and games ``2k`` and ``2k + 1`` share an opening with the
    sides swapped (as the arena orders them, see :func:`pair_score_interval`).
    Pair ``k`` gives one observation, A's per-game score on its two games
    minus B's: ``(a[2k] + a[2k + 1] - b[2k] - b[2k + 1]) / 2``, one of -1,
    -0.75, ..., 1. Returned: ``(difference, low, high)``, the mean of these
    observations plus or minus ``z`` sample standard deviations of that mean
    (normal approximation, clipped to [-1, 1]); the same interval as
    :func:`pair_score_interval`, built from differences instead of scores.
    Against a series of draws only, it is that interval shifted by -0.5 (up
    to rounding and clipping).

    Pairing removes what the two series share (a lopsided opening, a lucky
    seed), so the interval is narrower than the difference of two separate
    intervals when the versions mostly agree game by game.

    Parameters
    ----------
    results_a, results_b : sequence of "W", "D", "L" or 1, 0.5, 0
        A's and B's results, game for game, the same even number of games
        (at least four: two pairs).
    confidence : float
        Of the interval, strictly between 0 and 1 (default 0.95).

    Examples
    --------
    Pair by pair A scored 1, 0.25, 0.75, 0 and B 0.5, 0.25, 0.5, 0:

    >>> [round(x, 3) for x in pair_difference_interval("WWDLWDLL", "WLDLDDLL")]
    [0.188, -0.047, 0.422]
    """
    a = _half_points("results_a", results_a)
    b = _half_points("results_b", results_b)
    if len(a) != len(b):
        raise ValueError(f"results_a and results_b must hold the same games, got {len(a):,} "
                         f"and {len(b):,} games.")
    if len(a) % 2 or len(a) < 4:
        raise ValueError(f"results_a and results_b must hold whole pairs (games 2k and 2k + 1 "
                         f"share an opening), at least two, got {len(a):,} games.")
    z = _z(confidence)
    # A pair's difference in quarter points, -4 to 4: counted, then spread as the pairs are.
    counts = [0] * 9
    for k in range(0, len(a), 2):
        counts[a[k] + a[k + 1] - b[k] - b[k + 1] + 4] += 1
    values = tuple((quarter - 4) / 4.0 for quarter in range(9))
    pairs = len(a) // 2
    difference = math.fsum(count * value for count, value in zip(counts, values)) / pairs
    half_width = z * _count_spread(counts, values) / math.sqrt(pairs)
    return difference, max(-1.0, difference - half_width), min(1.0, difference + half_width)


def independent_difference_interval(counts_a, counts_b,
                                    confidence: float = 0.95) -> tuple[float, float, float]:
    """Score difference of two independent matches and its normal interval.

    Chapter "Enhancements that matter". ``counts_a`` and ``counts_b`` are the
    ``(wins, draws, losses)`` of two matches treated as sharing nothing game
    by game. Where the games of both matches start from the same openings,
    :func:`pair_difference_interval` is valid too and removes what the
    openings share; on the clock two runs with the same seed part ways within
    a few moves of the opening, and the two intervals come out nearly equal.
    From the empty board (no openings) there is nothing to pair. Returned:
    ``(difference, low, high)``, A's score minus B's plus or minus ``z`` times
    the spread of that difference, ``sqrt(sd_a**2 / n_a + sd_b**2 / n_b)``,
    each ``sd`` the spread of one game of its match (:func:`game_spread`, so
    draws count as the smaller spread they are). A normal approximation,
    clipped to [-1, 1]; each match needs at least two games.

    Parameters
    ----------
    counts_a, counts_b : sequence of three whole numbers
        Wins, draws and losses of A's match and of B's.
    confidence : float
        Of the interval, strictly between 0 and 1 (default 0.95).

    Examples
    --------
    >>> [round(x, 3) for x in independent_difference_interval((125, 48, 27), (103, 61, 36))]
    [0.078, 0.005, 0.15]
    """
    matches = []
    for name, counts in (("counts_a", counts_a), ("counts_b", counts_b)):
        if isinstance(counts, (str, bytes)) or not is_sequence(counts) or len(counts) != 3:
            raise ValueError(f"{name} must be three whole numbers (wins, draws, losses), got "
                             f"{shown(counts)}.")
        wins, draws, losses = (check_int(f"{name} {label}", value, 0, MAX_EXACT_COUNT)
                               for label, value in zip(("wins", "draws", "losses"), counts))
        games = wins + draws + losses
        if games < 2:
            raise ValueError(f"{name} must hold at least two games (a spread needs two), got "
                             f"{games}.")
        if games > MAX_EXACT_COUNT:
            raise ValueError(f"{name} must add up to at most 2**53 games, got {games}.")
        matches.append(((wins + 0.5 * draws) / games,
                        game_spread(wins, draws, losses) ** 2 / games))
    z = _z(confidence)
    (score_a, variance_a), (score_b, variance_b) = matches
    difference = score_a - score_b
    half_width = z * math.sqrt(variance_a + variance_b)
    return difference, max(-1.0, difference - half_width), min(1.0, difference + half_width)


def _half_points(name: str, results) -> list[int]:
    """Each game's points for A, doubled (0, 1, 2), checked; ``name`` names the parameter."""
    # A string of letters is a sequence of games; bytes (numbers) and 0-d arrays are not.
    if not (isinstance(results, str) or is_sequence(results)):
        raise ValueError(f"{name} must be a sequence of game results (W, D, L or 1, 0.5, 0), "
                         f"got {shown(results)}.")
    points = []
    for index, result in enumerate(results):
        try:
            points.append(_HALF_POINTS[_letter(result)])
        except ValueError:
            raise ValueError(f"{name}[{index}] must be a game result, W, D, L or 1, 0.5, 0, "
                             f"got {shown(result)}.") from None
    return points


def _pair_counts(pair_counts) -> tuple[int, ...]:
    if isinstance(pair_counts, (str, bytes)) or not is_sequence(pair_counts) \
            or len(pair_counts) != 5:
        raise ValueError(f"pair_counts must be five whole numbers (pairs that scored 0, 0.5, 1, "
                         f"1.5 and 2 points), got {shown(pair_counts)}.")
    names = ("pairs scoring 0", "pairs scoring 0.5", "pairs scoring 1", "pairs scoring 1.5",
             "pairs scoring 2")
    counts = tuple(check_int(name, value, 0, MAX_EXACT_COUNT)
                   for name, value in zip(names, pair_counts))
    if sum(counts) > MAX_EXACT_COUNT:
        raise ValueError("pair_counts must add up to at most 2**53 pairs.")
    return counts


def _count_spread(counts, values) -> float:
    """Sample standard deviation of ``counts[i]`` copies of ``values[i]``, in a fixed order."""
    total = sum(counts)
    if total < 2:
        raise ValueError(f"a spread needs at least two observations, got {total}.")
    mean = math.fsum(count * value for count, value in zip(counts, values)) / total
    squares = math.fsum(count * (value - mean) * (value - mean)
                        for count, value in zip(counts, values))
    return math.sqrt(squares / (total - 1))


# --- Elo: the scale chess engine testing reports differences on ------------------------

def score_from_elo(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger: ``1 / (1 + 10 ** (-elo / 400))``.

    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot". The logistic Elo model:
    +100 Elo scores 0.640, +10 Elo 0.514, 0 Elo 0.5. Very large ratings give
    exactly 0 or 1 (the float rounds).

    >>> round(score_from_elo(100), 3), round(score_from_elo(10), 4)
    (0.64, 0.5144)
    """
    elo = check_real("elo", elo)
    try:
        return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))
    except OverflowError:  # 10 ** (more than 308): the score is 0 to double precision
        return 0.0


def elo_from_score(score: float) -> float:
    """The Elo difference that gives this expected score: ``400 * log10(score / (1 - score))``.

    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot". The inverse of
    :func:`score_from_elo`; a score of 0 or 1 (a clean sweep) gives minus or
    plus infinity: no finite difference explains it.

    >>> round(elo_from_score(0.55), 1), round(elo_from_score(0.51), 1)
    (34.9, 6.9)
    """
    score = check_real("score", score, 0.0, 1.0)
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def elo_interval(interval) -> tuple[float, float, float]:
    """An interval on the score, ``(score, low, high)``, as Elo: ``(elo, low, high)``.

    Chapter "Ultimate Tic-Tac-Toe: tuning a real bot". Elo grows with the
    score, so the ends of a score interval (from :func:`score_interval` or
    :func:`pair_score_interval`) map to the ends of an Elo interval with the
    same confidence; it is not symmetric around the estimate. An end at 0 or 1
    becomes minus or plus infinity.

    >>> [round(value, 1) for value in elo_interval(score_interval(220, 0, 180))]
    [34.9, 0.7, 69.0]
    """
    if isinstance(interval, (str, bytes)) or not is_sequence(interval) or len(interval) != 3:
        raise ValueError(f"interval must be (score, low, high) as score_interval returns it, "
                         f"got {shown(interval)}.")
    score, low, high = (check_real(name, value, 0.0, 1.0) for name, value in
                        zip(("score", "low", "high"), interval))
    if not low <= score <= high:
        raise ValueError(f"interval must have low <= score <= high, got {shown(interval)}.")
    return elo_from_score(score), elo_from_score(low), elo_from_score(high)
