"""Learning to play one simultaneous move: two bandits, one per player, at one node.

The simultaneous-moves chapter ("When both players move at once") lets two
learners play a zero-sum matrix game (:mod:`mctslib.games.matrix_games`) against
each other for many rounds, exactly what happens at a single node of a
decoupled simultaneous-move search (DUCT, SM-MCTS). Each player has its own
rule and learns only from its own outcome: it sees which move it played and
what that round paid it, never the other player's move or statistics.

Three rules:

- :class:`UCB1Player`: decoupled UCB1. Each player runs UCB1 (Auer et al.
  2002) on its own moves, with rewards rescaled to ``[0, 1]``.
- :class:`RegretMatchingPlayer`: regret matching (Hart and Mas-Colell 2000,
  unconditional form) with 10% uniform exploration and importance-weighted
  estimates of the moves it did not play, as in the version that Lisy,
  Kovarik, Lanctot and Bosansky (2013) analyse for SM-MCTS.
- :class:`Exp3Player`: Exp3 (Auer, Cesa-Bianchi, Freund and Schapire 2002),
  exponential weights on importance-weighted reward estimates with uniform
  exploration: the other standard Hannan-consistent rule. It runs on the
  readable engine only (``engine="python"``).

:func:`play_rounds` plays them against each other, and :func:`make_match`
does the same on the readable loop or on the numba kernels
(:class:`FastOneNodeMatch`); :func:`mctslib.experiments.simultaneous.one_node.run_one_node`
measures, at log-spaced checkpoints, how far the pair of average strategies
is from equilibrium.

Rewards
    Both rules see the table rescaled to ``[0, 1]`` from its range, as a
    search node sees results between a loss (0) and a win (1): the row player
    gets ``(A[i, j] - min A) / (max A - min A)`` and the column player
    ``(max A - A[i, j]) / (max A - min A)`` (the column player's payoff is
    ``-A``, rescaled the same way). A constant table gives both 0.5. Rescaling
    changes no equilibrium; UCB1 needs it because its exploration bonus is
    calibrated for rewards in ``[0, 1]``, and regret matching uses the same
    scale (see :class:`RegretMatchingPlayer` for why it matters there too).

Outcomes
    With ``outcomes="payoff"`` (the default) a round pays exactly those
    rescaled payoffs. With ``outcomes="win_loss"`` a round ends like a
    playout: the row player wins (reward 1, the column player 0) with
    probability equal to its rescaled payoff, else loses (0, the column player
    1). Average rewards are the same; only the noise differs. The noise
    matters to decoupled UCB1: with exact payoffs in a symmetric game such as
    rock-paper-scissors, two UCB1 players whose statistics mirror each other
    choose the same move round after round, every round is a tie, and they
    can stay locked in step forever.

Randomness
    One xorshift64 stream per run, its starting state drawn from the seed by
    :func:`~mctslib.rng.make_rng`. Every round draws two uniform numbers, the
    row player's first, as ``(next() >> 11) * 2**-53`` (exact in floating
    point), and with win/loss outcomes a third one that decides the result.
    Regret matching uses its number to sample its mix; UCB1 uses it only to
    break exact ties between its best-scoring moves (without it, decoupled
    UCB1 on a fixed table would be fully deterministic and every seed would
    give the same run; with exact payoffs, ties happen almost only in the
    first rounds, so different seeds often follow the same few paths). The
    numba twin (:mod:`mctslib.fast.simultaneous`) draws the same numbers in
    the same order and does the same floating-point operations in the same
    order, so both engines give identical runs; the tests check it.

Strategies
    A player's *average strategy* is how often it played each move (its
    visit counts divided by the rounds, exploration included), what a search
    node would report. Its *current strategy* is the mix it would play in the
    next round: regret matching's mix with exploration, or for UCB1 the
    best-scoring move (shared equally among exact ties).

Why one module of about 800 lines: the three players, the loop that plays them and
its numba-backed twin (:class:`FastOneNodeMatch`) share the stream, the
rescaled rewards and the round checks, and must change together to stay
identical round for round. Exp3 has no numba twin (its softmax calls ``exp``,
whose last bit we would have to check between numba and the C library);
the readable engine plays it.
"""


from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from .._checks import (
    MAX_EXACT_COUNT,
    check_bool,
    check_choice,
    check_int,
    check_real,
    is_sequence,
    shown,
)
from ..games.matrix_games import MatrixGame, check_game
from ..rng import make_rng
from ..xorshift import XorShift64
from .ucb1 import SQRT2, _score

LEARNERS = ("ucb1", "regret_matching")

#: Every one-node learner, Exp3 included (readable engine only: Exp3 has no numba twin).
ONE_NODE_LEARNERS = (*LEARNERS, "exp3")
OUTCOMES = ("payoff", "win_loss")
ENGINES = ("python", "numba")

#: Regret matching's share of uniformly random play in the simultaneous-moves chapter (10%).
DEFAULT_EXPLORATION = 0.1

#: The most rounds one call of play_rounds or FastOneNodeMatch.play plays: about a
#: minute with numba, an hour or more in Python; the chapter's runs have 10,000,000.
MAX_ROUNDS = 1_000_000_000

#: The most moves a one-node player may have (its statistics are lists of that length).
MAX_MOVES = 1_000_000

_TWO_TO_MINUS_53 = 1.0 / 9007199254740992.0  # 2**-53


# --------------------------------------------------------------------------- shared pieces


def rescaled_rewards(game: MatrixGame) -> tuple[np.ndarray, np.ndarray]:
    """The row player's and the column player's rewards in ``[0, 1]`` for every pair of moves.

    Row: ``(A - min) / (max - min)``; column: ``(max - A) / (max - min)``; both
    0.5 everywhere if the table is constant. Both engines read these arrays.
    """
    if not isinstance(game, MatrixGame):
        raise ValueError(f"game must be a MatrixGame, got {type(game).__name__}.")
    low, high = game.payoff_range
    if high == low:
        half = np.full(game.shape, 0.5)
        return half, half.copy()
    spread = high - low
    return (game.payoffs - low) / spread, (high - game.payoffs) / spread


def stream_for_seed(seed) -> XorShift64:
    """The run's xorshift64 stream; its starting state is drawn from ``seed`` by ``make_rng``.

    Going through numpy's seeding (rather than using the seed as the state)
    gives unrelated streams for nearby seeds: xorshift64 seeded 0 and 1, or
    2 and 3, would be the very same stream.
    """
    state = make_rng(seed).integers(0, 2**64, dtype=np.uint64)
    return XorShift64(int(state))


def next_uniform(stream: XorShift64) -> float:
    """A uniform number in ``[0, 1)`` from the top 53 bits of the next xorshift64 output."""
    return _next_uniform(_check_stream(stream))


def _next_uniform(stream: XorShift64) -> float:
    # Unchecked: play_rounds checks its stream once, then draws two or three numbers a round.
    return (stream.next() >> 11) * _TWO_TO_MINUS_53


def _check_stream(stream) -> XorShift64:
    if not isinstance(stream, XorShift64):
        raise ValueError(f"stream must be an XorShift64 (see stream_for_seed), "
                         f"got {type(stream).__name__}.")
    return stream


def sample_move(mix: Sequence[float], uniform: float) -> int:
    """The move whose slice of ``[0, 1)`` contains ``uniform`` (slices in move order).

    Sums the probabilities left to right and returns the first move whose
    running total exceeds ``uniform``; the last move if rounding leaves the
    total just under ``uniform``. ``mix`` is a mix (one probability per move,
    at least one move, summing to 1) and ``uniform`` a number in ``[0, 1)``.
    """
    mix = _check_mix("mix", mix)
    return _sample_move(mix, check_uniform(uniform))


def check_uniform(uniform) -> float:
    """Return ``uniform`` as a float, or raise ValueError unless it is a number in ``[0, 1)``."""
    if type(uniform) is float and 0.0 <= uniform < 1.0:  # the common case, kept cheap
        return uniform
    try:
        number = check_real("uniform", uniform, 0.0, 1.0)
    except ValueError:
        number = 1.0  # refused below, with the half-open interval in the sentence
    if number == 1.0:
        raise ValueError(f"uniform must be a number in [0, 1) (1 excluded), got {shown(uniform)}.")
    return number


def _check_mix(name: str, mix) -> list[float]:
    if not is_sequence(mix) or not len(mix):
        raise ValueError(f"{name} must be a non-empty sequence of probabilities (one per move), "
                         f"got {shown(mix)}.")
    values = [check_real(f"{name}[{move}]", p, 0.0, 1.0) for move, p in enumerate(mix)]
    total = math.fsum(values)
    if abs(total - 1.0) > 1e-6:
        raise ValueError(f"{name} must sum to 1 (within 1e-06), got {shown(total)}.")
    return list(mix)


def _sample_move(mix: Sequence[float], uniform: float) -> int:
    # Unchecked: regret matching samples its mix every round.
    cumulative = 0.0
    last = len(mix) - 1
    for move in range(last):
        cumulative += mix[move]
        if uniform < cumulative:
            return move
    return last


def empirical_strategy(counts: Sequence[int]) -> list[float]:
    """How often each move was played, as a mix: ``counts / total`` (uniform if nothing was played).

    This is the learners' *average strategy*: what a search node reports from
    its visit counts. ``counts`` holds at least one whole number ``>= 0``.
    """
    if not is_sequence(counts) or not len(counts):
        raise ValueError(f"counts must be a non-empty sequence of whole numbers >= 0 (one per "
                         f"move), got {shown(counts)}.")
    for move, count in enumerate(counts):
        check_int(f"counts[{move}]", count, 0)
    total = 0
    for count in counts:
        total += count
    if total == 0:
        return [1.0 / len(counts)] * len(counts)
    return [count / total for count in counts]


def without_exploration(weights: Sequence[float], exploration: float) -> list[float]:
    """An average strategy with its share of uniform exploration taken out, as a mix.

    A learner that plays ``(1 - gamma) * own + gamma * uniform`` every round
    spends about ``gamma / n`` of its rounds on each of its ``n`` moves at
    random. Removing them keeps ``max(0, w_i - gamma / n * sum(w))`` of each
    move's weight and normalises: the counts correction of Lanctot, Lisý and
    Winands (2013) and Tak, Lanctot and Winands (2014), the same as Kovařík and
    Lisý's ``(mean - gamma * uniform) / (1 - gamma)`` clipped at 0. ``weights``
    are visit counts or a mix (the result is the same); at least one must be
    positive. Sums go through :func:`math.fsum` (the same bits on every machine).
    Simultaneous-moves chapter, "A whole game" page.
    """
    if not is_sequence(weights) or not len(weights):
        raise ValueError(f"weights must be a non-empty sequence of numbers >= 0 (visit counts or "
                         f"a mix, one per move), got {shown(weights)}.")
    values = [check_real(f"weights[{move}]", weight, 0.0) for move, weight in enumerate(weights)]
    exploration = check_exploration(exploration)
    total = math.fsum(values)
    if total <= 0.0:
        raise ValueError("weights must hold at least one positive number (a move played).")
    share = exploration * total / len(values)
    kept = [max(0.0, value - share) for value in values]
    kept_total = math.fsum(kept)
    if kept_total <= 0.0:  # every move at or below the exploration share: nothing but noise
        return [value / total for value in values]
    return [value / kept_total for value in kept]


# --------------------------------------------------------------------------- regret matching


def regret_matching_strategy(regrets: Sequence[float], exploration: float) -> list[float]:
    """The mix regret matching plays: positive regrets normalised, mixed with uniform exploration.

    ``mix[i] = (1 - exploration) * base[i] + exploration / n`` where
    ``base[i] = max(regret[i], 0) / sum of positive regrets``, or ``1 / n`` for
    every move when no regret is positive (Hart and Mas-Colell's rule).
    ``regrets`` holds at least one finite number; ``exploration`` is in ``(0, 1]``.
    """
    if not is_sequence(regrets) or not len(regrets):
        raise ValueError(f"regrets must be a non-empty sequence of numbers (one per move), "
                         f"got {shown(regrets)}.")
    for move, regret in enumerate(regrets):
        check_real(f"regrets[{move}]", regret)
    return _regret_matching_strategy(regrets, check_exploration(exploration))


def _regret_matching_strategy(regrets: Sequence[float], exploration: float) -> list[float]:
    # Unchecked: the player computes its mix every round from regrets it keeps itself.
    n = len(regrets)
    total = 0.0
    for regret in regrets:  # left to right, as the numba twin does
        if regret > 0.0:
            total += regret
    mix = []
    for regret in regrets:
        if total > 0.0:
            base = max(0.0, regret) / total
        else:
            base = 1.0 / n
        mix.append((1.0 - exploration) * base + exploration / n)
    return mix


def check_exploration(exploration) -> float:
    """Return regret matching's exploration as a float, or raise ValueError unless it is in (0, 1]."""
    exploration = check_real("exploration", exploration, 0.0, 1.0)
    if exploration == 0.0:
        raise ValueError(
            "exploration must be a number in (0, 1]: importance weighting divides by the "
            "probability of the move played, which exploration keeps above 0; got 0."
        )
    return exploration


class RegretMatchingPlayer:
    """One player's regret matching with uniform exploration (reference implementation).

    Parameters
    ----------
    moves : int
        Number of moves, at least 1.
    exploration : float
        Share ``gamma`` of uniformly random play, in ``(0, 1]`` (default 0.1).

    Attributes
    ----------
    regrets : list of float
        Cumulative estimated regret of each move.
    counts : list of int
        How many times each move was played.

    Notes
    -----
    Each round the player plays ``mix = (1 - gamma) * RM + gamma * uniform``
    (:func:`regret_matching_strategy`), samples a move ``a`` from it, and
    receives its reward ``r`` in ``[0, 1]``. It never sees what the other
    moves would have paid, so it estimates them by importance weighting:
    ``estimate[a] = r / mix[a]`` and ``estimate[i] = 0`` for every other move.
    Averaged over the player's own sampling, ``estimate[i]`` equals move
    ``i``'s expected reward against what the opponent plays, so the update

        ``regret[i] += estimate[i] - r``  for every move ``i``

    adds, on average, "what move ``i`` would have scored minus what I scored":
    Hart and Mas-Colell's unconditional regret, estimated from one outcome.
    This is the form Lisy et al. (2013) use inside SM-MCTS. Exploration keeps
    every ``mix[a] >= gamma / n``, so an estimate is at most ``n / gamma``
    times the reward and never divides by zero; that is why ``gamma`` must be
    positive.

    The scale of rewards matters: the strategy is unchanged if every reward
    is multiplied by a positive number, but adding a constant to every reward
    changes the estimates' noise (not their average). The ``[0, 1]`` scale is
    the one a search node backs up.

    A round is :meth:`choose` then :meth:`update` with the move it returned;
    an update without a choice waiting, or for another move, is refused. A
    choice never updated counts as played, without any regret learnt.

    Simultaneous-moves chapter.
    """

    def __init__(self, moves: int, exploration: float = DEFAULT_EXPLORATION):
        moves = check_int("moves", moves, 1, MAX_MOVES)
        self.exploration = check_exploration(exploration)
        self.regrets = [0.0] * moves
        self.counts = [0] * moves
        self._probability = math.nan  # probability of the move chosen this round
        self._pending = None  # the move choose() returned, until update() learns from it

    def strategy(self) -> list[float]:
        """The current strategy: the mix the player would play now, exploration included."""
        return _regret_matching_strategy(self.regrets, self.exploration)

    def average_strategy(self) -> list[float]:
        """The average strategy: how often each move was played (:func:`empirical_strategy`)."""
        return empirical_strategy(self.counts)

    def choose(self, uniform: float) -> int:
        """Sample a move from the current strategy with ``uniform``, a number in ``[0, 1)``."""
        if not (type(uniform) is float and 0.0 <= uniform < 1.0):  # inline: runs every round
            uniform = check_uniform(uniform)
        mix = _regret_matching_strategy(self.regrets, self.exploration)
        move = _sample_move(mix, uniform)
        self._probability = mix[move]
        self.counts[move] += 1
        self._pending = move
        return move

    def update(self, move: int, reward: float) -> None:
        """Learn from this round: the move just chosen earned ``reward`` (in ``[0, 1]``)."""
        _take_round(self, move, reward)
        estimate = reward / self._probability
        for other in range(len(self.regrets)):
            if other == move:
                self.regrets[other] += estimate - reward
            else:
                self.regrets[other] -= reward  # its estimate is 0


# --------------------------------------------------------------------------- Exp3


def exp3_strategy(scores: Sequence[float], exploration: float,
                  learning_rate: float | None = None) -> list[float]:
    """The mix Exp3 plays: a softmax of its reward estimates, mixed with uniform exploration.

    ``mix[i] = (1 - gamma) * exp(eta * S[i]) / sum_j exp(eta * S[j]) + gamma / n``
    with ``S`` the cumulative importance-weighted reward estimates, ``gamma``
    the exploration and ``eta`` the learning rate (default ``gamma / n``, Auer,
    Cesa-Bianchi, Freund and Schapire 2002). ``scores`` holds at least one
    finite number.
    """
    if not is_sequence(scores) or not len(scores):
        raise ValueError(f"scores must be a non-empty sequence of numbers (one per move), "
                         f"got {shown(scores)}.")
    for move, score in enumerate(scores):
        check_real(f"scores[{move}]", score)
    exploration = check_exploration(exploration)
    rate = _check_learning_rate(learning_rate, exploration, len(scores))
    return _exp3_strategy(scores, exploration, rate)


def _check_learning_rate(learning_rate, exploration: float, moves: int) -> float:
    if learning_rate is None:
        return exploration / moves
    rate = check_real("learning_rate", learning_rate, 0.0)
    if rate == 0.0:
        raise ValueError("learning_rate must be a number > 0 (or None for exploration / moves), "
                         "got 0.")
    return rate


def _exp3_strategy(scores: Sequence[float], exploration: float, rate: float) -> list[float]:
    # Unchecked: the player computes its mix every round. The largest score is
    # subtracted before exp so that no weight overflows (the mix is unchanged);
    # the weights are added left to right.
    top = max(scores)
    weights = [math.exp(rate * (score - top)) for score in scores]
    total = 0.0
    for weight in weights:
        total += weight
    n = len(scores)
    return [(1.0 - exploration) * weight / total + exploration / n for weight in weights]


class Exp3Player:
    """One player's Exp3 (exponential weights with exploration; reference implementation).

    Parameters
    ----------
    moves : int
        Number of moves, at least 1.
    exploration : float
        Share ``gamma`` of uniformly random play, in ``(0, 1]`` (default 0.1).
    learning_rate : float or None
        ``eta`` of the softmax; None (default) takes Auer et al.'s ``gamma / moves``.

    Attributes
    ----------
    scores : list of float
        Cumulative importance-weighted reward estimate ``S[i]`` of each move.
    counts : list of int
        How many times each move was played.

    Notes
    -----
    Exp3 (Auer, Cesa-Bianchi, Freund and Schapire 2002) is the other standard
    Hannan-consistent bandit next to regret matching: against any sequence of
    rewards its average regret goes to zero, so two Exp3 players' average
    strategies approach an equilibrium of a zero-sum game (up to the
    exploration they keep). Each round it plays :func:`exp3_strategy`,
    samples a move ``a`` and receives its reward ``r`` in ``[0, 1]``; like
    :class:`RegretMatchingPlayer` it never sees the other moves' rewards and
    adds the unbiased estimate ``r / mix[a]`` to ``S[a]`` only. Where regret
    matching plays in proportion to positive regrets, Exp3 plays a softmax of
    the estimates: a move that falls behind by ``1 / eta`` in estimated
    reward is played ``e`` times less often (before exploration). Used as a
    selection rule of SM-MCTS by Tak, Lanctot and Winands (2014) and Lisý et
    al. (2013). The average strategy (visit counts) is what a node reports.

    A round is :meth:`choose` then :meth:`update` with the move it returned.
    Simultaneous-moves chapter.
    """

    def __init__(self, moves: int, exploration: float = DEFAULT_EXPLORATION,
                 learning_rate: float | None = None):
        moves = check_int("moves", moves, 1, MAX_MOVES)
        self.exploration = check_exploration(exploration)
        self.learning_rate = _check_learning_rate(learning_rate, self.exploration, moves)
        self.scores = [0.0] * moves
        self.counts = [0] * moves
        self._probability = math.nan
        self._pending = None

    def strategy(self) -> list[float]:
        """The current strategy: the mix the player would play now, exploration included."""
        return _exp3_strategy(self.scores, self.exploration, self.learning_rate)

    def average_strategy(self) -> list[float]:
        """The average strategy: how often each move was played (:func:`empirical_strategy`)."""
        return empirical_strategy(self.counts)

    def choose(self, uniform: float) -> int:
        """Sample a move from the current strategy with ``uniform``, a number in ``[0, 1)``."""
        if not (type(uniform) is float and 0.0 <= uniform < 1.0):
            uniform = check_uniform(uniform)
        mix = _exp3_strategy(self.scores, self.exploration, self.learning_rate)
        move = _sample_move(mix, uniform)
        self._probability = mix[move]
        self.counts[move] += 1
        self._pending = move
        return move

    def update(self, move: int, reward: float) -> None:
        """Learn from this round: the move just chosen earned ``reward`` (in ``[0, 1]``)."""
        _take_round(self, move, reward)
        self.scores[move] += reward / self._probability


# --------------------------------------------------------------------------- decoupled UCB1


class UCB1Player:
    """One player's UCB1 over its own moves (reference implementation of decoupled UCB1).

    Parameters
    ----------
    moves : int
        Number of moves, at least 1.
    c : float
        Exploration constant of ``mean + c * sqrt(ln N / n)`` (default ``sqrt(2)``,
        the UCB1 paper's), at least 0.

    Attributes
    ----------
    counts : list of int
        How many times each move was played.
    reward_sums : list of float
        Sum of the rewards (in ``[0, 1]``) each move earned.
    rounds : int
        Rounds played so far (``N``).

    Notes
    -----
    A move never played scores infinity, so every move is tried once first.
    Scores are :func:`~mctslib.learners.ucb1.ucb1_score`. When several moves share
    the highest score exactly (always at the start, rarely later), the
    round's uniform number picks one of them, each equally likely. Decoupled
    UCB1 carries no convergence guarantee in simultaneous games (Shafiei,
    Sturtevant and Schaeffer 2009 give a game where it does not converge).

    A round is :meth:`choose` then :meth:`update` with the move it returned;
    an update without a choice waiting, or for another move, is refused. A
    choice never updated counts as a round that paid 0.
    Simultaneous-moves chapter.
    """

    def __init__(self, moves: int, c: float = SQRT2):
        moves = check_int("moves", moves, 1, MAX_MOVES)
        self.c = check_real("c (the exploration constant)", c, 0.0)
        self.counts = [0] * moves
        self.reward_sums = [0.0] * moves
        self.rounds = 0
        self._pending = None  # the move choose() returned, until update() learns from it

    def best_moves(self) -> list[int]:
        """The moves with the highest UCB1 score, in move order."""
        best, best_score = [], -math.inf
        for move, (wins, visits) in enumerate(zip(self.reward_sums, self.counts)):
            # ucb1_score's arithmetic without its checks: this runs for every move every round.
            score = math.inf if visits == 0 else _score(wins, visits, self.rounds, self.c)
            if score > best_score:
                best, best_score = [move], score
            elif score == best_score:
                best.append(move)
        return best

    def strategy(self) -> list[float]:
        """The current strategy: uniform over :meth:`best_moves` (what it would play now)."""
        best = self.best_moves()
        return [1.0 / len(best) if move in best else 0.0 for move in range(len(self.counts))]

    def average_strategy(self) -> list[float]:
        """The average strategy: how often each move was played (:func:`empirical_strategy`)."""
        return empirical_strategy(self.counts)

    def choose(self, uniform: float) -> int:
        """Play a best-scoring move; ``uniform``, a number in ``[0, 1)``, picks among exact ties."""
        if not (type(uniform) is float and 0.0 <= uniform < 1.0):  # inline: runs every round
            uniform = check_uniform(uniform)
        if self.rounds >= MAX_EXACT_COUNT:
            raise ValueError(f"this player has played {self.rounds} rounds, the most whose "
                             "logarithm and means stay exact (2**53).")
        best = self.best_moves()
        move = best[int(uniform * len(best))]
        self.counts[move] += 1
        self.rounds += 1
        self._pending = move
        return move

    def update(self, move: int, reward: float) -> None:
        """Learn from this round: the move just chosen earned ``reward`` (in ``[0, 1]``)."""
        _take_round(self, move, reward)
        self.reward_sums[move] += reward


def _take_round(player, move, reward) -> None:
    """Accept this round's ``(move, reward)`` for ``player``, or raise ValueError with a sentence.

    The move must be the one ``player.choose`` just returned and the reward a
    number in ``[0, 1]``. The usual round passes the first test alone (it runs
    every round); anything else is checked in full by :func:`_check_round`.
    """
    if not (type(move) is int and move == player._pending and type(reward) is float
            and 0.0 <= reward <= 1.0):
        _check_round(player._pending, move, reward)
    player._pending = None


def _check_round(pending, move, reward) -> None:
    """Raise ValueError unless ``update(move, reward)`` completes the round ``choose`` began."""
    if pending is None:
        raise ValueError("update() must follow choose(): call choose(uniform) first, then "
                         f"update() with the move it returned; got update({shown(move)}, {shown(reward)}) "
                         "with no choice waiting.")
    plain = type(move) is int and move == pending  # the common case, kept cheap
    if not plain and (isinstance(move, bool) or not isinstance(move, (int, np.integer))
                      or move != pending):
        raise ValueError(f"move must be the move choose() just returned ({pending}), "
                         f"got {shown(move)}.")
    if not (type(reward) is float and 0.0 <= reward <= 1.0):
        check_real("reward", reward, 0.0, 1.0)


def make_players(game: MatrixGame, learner: str, exploration: float = DEFAULT_EXPLORATION,
                 c: float = SQRT2):
    """A (row, column) pair of reference players of kind ``learner`` for ``game``.

    Both parameters are checked whichever learner is asked for, so a mistake
    never goes unnoticed just because this learner ignores it.
    """
    check_game(game)
    learner = check_choice("learner", learner, ONE_NODE_LEARNERS)
    exploration = check_exploration(exploration)
    c = check_real("c (the exploration constant)", c, 0.0)
    rows, columns = game.shape
    if learner == "ucb1":
        return UCB1Player(rows, c), UCB1Player(columns, c)
    if learner == "exp3":
        return Exp3Player(rows, exploration), Exp3Player(columns, exploration)
    return RegretMatchingPlayer(rows, exploration), RegretMatchingPlayer(columns, exploration)


def play_rounds(row_player, column_player, row_rewards, column_rewards, rounds: int,
                stream: XorShift64, win_loss: bool = False) -> None:
    """Play ``rounds`` rounds between two reference players (the core loop, plain Python).

    ``row_rewards`` and ``column_rewards`` are nested lists (or arrays) from
    :func:`rescaled_rewards`. Each player learns only its own reward. With
    ``win_loss`` a third uniform number turns the row player's rescaled payoff
    into a win (1) or a loss (0), and the column player gets the opposite.

    Raises ValueError (before any round is played) unless the players are
    :class:`UCB1Player` or :class:`RegretMatchingPlayer` objects, both tables
    have one row per row move and one column per column move with every
    entry in ``[0, 1]``, ``rounds`` is a whole number from 0 to
    :data:`MAX_ROUNDS`, ``stream`` is an
    :class:`~mctslib.xorshift.XorShift64` and ``win_loss`` is True or False.
    """
    rows, columns = _two_players(row_player, column_player)
    _check_reward_table("row_rewards", row_rewards, rows, columns)
    _check_reward_table("column_rewards", column_rewards, rows, columns)
    rounds = check_int("rounds", rounds, 0, MAX_ROUNDS)
    stream = _check_stream(stream)
    win_loss = check_bool("win_loss", win_loss)
    for _ in range(rounds):
        row_uniform = _next_uniform(stream)
        column_uniform = _next_uniform(stream)
        row_move = row_player.choose(row_uniform)
        column_move = column_player.choose(column_uniform)
        if win_loss:
            row_reward = 1.0 if _next_uniform(stream) < row_rewards[row_move][column_move] else 0.0
            column_reward = 1.0 - row_reward
        else:
            row_reward = row_rewards[row_move][column_move]
            column_reward = column_rewards[row_move][column_move]
        row_player.update(row_move, row_reward)
        column_player.update(column_move, column_reward)


def _two_players(row_player, column_player) -> tuple[int, int]:
    """The players' numbers of moves, or ValueError unless they are two distinct players."""
    shape = (_player_moves("row_player", row_player),
             _player_moves("column_player", column_player))
    if row_player is column_player:
        raise ValueError("row_player and column_player must be two different players: each "
                         "learns only from its own rounds.")
    return shape


def _player_moves(name: str, player) -> int:
    """The number of moves of a reference player, or ValueError if it is not one."""
    if not isinstance(player, (UCB1Player, RegretMatchingPlayer, Exp3Player)):
        raise ValueError(f"{name} must be a UCB1Player or a RegretMatchingPlayer (or an Exp3Player), "
                         f"got {type(player).__name__}.")
    return len(player.counts)


def _check_reward_table(name: str, table, rows: int, columns: int) -> None:
    """Raise ValueError unless ``table`` is ``rows`` x ``columns`` numbers in ``[0, 1]``."""
    try:
        array = np.asarray(table)
    except ValueError:  # ragged nested lists
        array = None
    if array is None or array.dtype.kind not in "fiu" or array.shape != (rows, columns):
        raise ValueError(f"{name} must be a {rows} x {columns} table of numbers in [0, 1] (one "
                         f"row per row move, one column per column move), got {shown(table)}.")
    if not np.all((array >= 0.0) & (array <= 1.0)):  # NaN fails both comparisons
        raise ValueError(f"{name} must hold rewards in [0, 1] (see rescaled_rewards), "
                         f"got {shown(table)}.")


def _check_match(game, row_player, column_player, stream, win_loss) -> bool:
    """Check what both engines need: the players fit the game, a stream, a flag."""
    check_game(game)
    shape = _two_players(row_player, column_player)
    if shape != game.shape:
        raise ValueError(f"the players must have one move per row and per column of the game "
                         f"{game.shape}, got {shape[0]} and {shape[1]} moves.")
    _check_stream(stream)
    return check_bool("win_loss", win_loss)


class _ReferenceMatch:
    """The readable engine: two player objects and a stream."""

    def __init__(self, game, row_player, column_player, stream, win_loss):
        row_rewards, column_rewards = rescaled_rewards(game)
        self.row_rewards, self.column_rewards = row_rewards.tolist(), column_rewards.tolist()
        self.row_player, self.column_player, self.stream = row_player, column_player, stream
        self.win_loss = win_loss

    def play(self, rounds: int) -> None:
        play_rounds(self.row_player, self.column_player, self.row_rewards, self.column_rewards,
                    rounds, self.stream, self.win_loss)

    def players(self):
        return self.row_player, self.column_player


def make_match(game, row_player, column_player, stream, win_loss: bool, engine: str):
    """Two players and a stream, advanced by the readable loop or by the numba kernels.

    ``engine="python"``: :func:`play_rounds` on the player objects;
    ``engine="numba"``: :class:`FastOneNodeMatch`. Both give identical runs.
    The result has ``play(rounds)`` and ``players()``, which returns the two
    players with their statistics up to date.
    """
    engine = check_choice("engine", engine, ENGINES)
    _check_match(game, row_player, column_player, stream, win_loss)
    if engine == "python":
        return _ReferenceMatch(game, row_player, column_player, stream, win_loss)
    return FastOneNodeMatch(game, row_player, column_player, stream, win_loss)


def _parameters(player) -> tuple:
    """A player's kind and parameters (the kernels give both players the same ones)."""
    if isinstance(player, UCB1Player):
        return ("ucb1", player.c)
    return ("regret_matching", player.exploration)


class FastOneNodeMatch:
    """Two players' statistics in arrays, advanced by the numba kernels.

    Parameters
    ----------
    game : MatrixGame
    row_player, column_player : UCB1Player or RegretMatchingPlayer
        Reference players whose parameters (and starting statistics) the
        match takes; :meth:`players` writes the statistics back into them.
    stream : XorShift64
        The run's stream; its state continues in ``self.rng`` and is written
        back by :meth:`players`.
    win_loss : bool
        Rounds end in a win or a loss (True) or pay the rescaled table (False).
    """

    def __init__(self, game, row_player, column_player, stream, win_loss):
        win_loss = _check_match(game, row_player, column_player, stream, win_loss)
        if isinstance(row_player, Exp3Player) or isinstance(column_player, Exp3Player):
            raise ValueError("Exp3 has no numba twin: play Exp3Player with engine=\"python\".")
        if _parameters(row_player) != _parameters(column_player):
            raise ValueError(
                "row_player and column_player must be the same kind of learner with the same "
                f"parameters, got {_parameters(row_player)} and {_parameters(column_player)}."
            )
        row_rewards, column_rewards = rescaled_rewards(game)
        self.row_rewards = np.ascontiguousarray(row_rewards)
        self.column_rewards = np.ascontiguousarray(column_rewards)
        self.win_loss = bool(win_loss)
        self.row_player, self.column_player, self.stream = row_player, column_player, stream
        self.rng = np.array([stream.state], dtype=np.uint64)
        self.row_counts = np.array(row_player.counts, dtype=np.int64)
        self.column_counts = np.array(column_player.counts, dtype=np.int64)
        if isinstance(row_player, UCB1Player):
            self.row_values = np.array(row_player.reward_sums, dtype=np.float64)
            self.column_values = np.array(column_player.reward_sums, dtype=np.float64)
            self.rounds_played = row_player.rounds
        else:
            self.row_values = np.array(row_player.regrets, dtype=np.float64)
            self.column_values = np.array(column_player.regrets, dtype=np.float64)

    def play(self, rounds: int) -> None:
        """Advance the match by ``rounds`` rounds (a whole number ``>= 0``)."""
        from ..fast.simultaneous import regret_matching_rounds, ucb1_rounds  # numba, on demand

        played = self.rounds_played if isinstance(self.row_player, UCB1Player) else 0
        rounds = check_int("rounds", rounds, 0, min(MAX_ROUNDS, MAX_EXACT_COUNT - played))
        if isinstance(self.row_player, UCB1Player):
            ucb1_rounds(self.row_rewards, self.column_rewards, self.win_loss, rounds,
                        self.rounds_played, self.row_player.c, self.rng, self.row_counts,
                        self.row_values, self.column_counts, self.column_values)
            self.rounds_played += rounds
        else:
            regret_matching_rounds(self.row_rewards, self.column_rewards, self.win_loss, rounds,
                                   self.row_player.exploration, self.rng, self.row_values,
                                   self.column_values, self.row_counts, self.column_counts)

    def players(self):
        """The reference players, their statistics brought up to date from the arrays."""
        for player, counts, values in ((self.row_player, self.row_counts, self.row_values),
                                       (self.column_player, self.column_counts,
                                        self.column_values)):
            player.counts = counts.tolist()
            if isinstance(player, UCB1Player):
                player.reward_sums = values.tolist()
                player.rounds = self.rounds_played
            else:
                player.regrets = values.tolist()
        self.stream.state = int(self.rng[0])
        return self.row_player, self.column_player
