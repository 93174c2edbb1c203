"""Exact answers for small simultaneous-move games: value, equilibrium, distance from it.

A simultaneous-move game such as Goofspiel is a tree of states in which,
at each state, both players choose at once. Once the values of all the
children of a state are known, the state itself is a *matrix game*: rows are
player 0's actions, columns player 1's, and each entry is the value of the
child that pair of actions leads to. Solving that matrix game exactly
(:func:`mctslib.search.zero_sum.solve_zero_sum`, one linear programme) gives the
state's value and both players' equilibrium mixes there. Doing it from the
last round back to the first is **backward induction**; the mixes found
form an equilibrium of the whole game (a subgame-perfect one).

The same recursion measures any *behaviour strategy profile* (a mix for each
player at each state):

- :func:`profile_value`: player 0's expected payoff when both follow it;
- :func:`best_response`: the most a player can get against the other's
  mixes, choosing its best action at every state from the last round back;
- :func:`profile_exploitability` (also named :func:`nash_conv`): the two
  best-response payoffs added up (each in its own player's terms), i.e. how
  much the two players together could gain by deviating: **NashConv**. It is
  0 exactly at an equilibrium. OpenSpiel's ``exploitability`` is NashConv
  divided by the number of players, half of it here
  (:func:`openspiel_exploitability`);
- :func:`exploit`: what one player's learned strategy loses against a best
  response, compared with the equilibrium value, and where the loss happens.

**Chance nodes** (Goofspiel with ``prize_order="random"``: a state whose
``is_chance()`` is true, with ``chance_outcomes()`` and ``apply_chance()``)
are handled exactly: a chance node is worth the probability-weighted sum of
its outcomes' values, in every function here (solution, profile value, best
response); no player acts there, so a profile has no mix for it.

Values are in the game's payoff units, for player 0 unless said otherwise.
Every expected value is summed by :mod:`mctslib.fixed_order` (never by BLAS),
so the distances the chapter stores are the same on every machine.
Every state of the game is visited, so this is for small games only (4-card
Goofspiel: 1,313 states, well under a second). Chapter "When both players
move at once (simultaneous moves)"; the SM-MCTS and Smitsimax experiments
use it to score what the searches learned.

Why one module of about 560 lines: solving a game, measuring a profile and
exploiting one player all walk the same children-first order over the same
stage tables, and check the same inputs; the chapter reads them together.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .._checks import check_int, check_real
from ..fixed_order import dot, matrix_times_vector, vector_matrix_vector, vector_times_matrix
from ..games.matrix_games import MatrixGame, check_strategy
from ..games.simultaneous_base import PLAYERS, SimultaneousState, check_player
from .zero_sum import solve_zero_sum

__all__ = [
    "BestResponse",
    "Exploit",
    "GameSolution",
    "TableProfile",
    "WeakSpot",
    "all_states",
    "best_response",
    "chance_children",
    "equilibrium_with_exploration",
    "exploit",
    "is_chance",
    "nash_conv",
    "openspiel_exploitability",
    "profile_exploitability",
    "profile_value",
    "solve_game",
    "stage_game",
    "uniform_profile",
]

#: A behaviour strategy profile: ``profile(state, player)`` is the mix (one
#: probability per action, in the order of ``state.legal_actions(player)``)
#: that ``player`` plays at ``state``.
Profile = Callable[[SimultaneousState, int], Sequence[float]]

#: The most states one exact computation visits. 4-card Goofspiel has 1,313 and
#: 5-card 32,826; 6-card (about 1.2 million, one linear programme each) would
#: take hours, so a game that large is refused with a sentence instead.
MAX_STATES = 100_000


def _check_state(name: str, state) -> None:
    if not isinstance(state, SimultaneousState):
        raise ValueError(
            f"{name} must be a simultaneous-move game state (a SimultaneousState such as "
            f"Goofspiel), got {type(state).__name__}."
        )


def _check_live_state(name: str, state, what: str) -> None:
    _check_state(name, state)
    if state.is_terminal():
        raise ValueError(f"{what} needs a state where the game is still on; this one is over.")


def too_many_states(what: str) -> ValueError:
    """The sentence for a game too large for the exact computations (see :data:`MAX_STATES`)."""
    return ValueError(
        f"{what} visits every state of the game, and this one has more than {MAX_STATES:,}; "
        f"exact answers are for small games such as Goofspiel with up to 5 cards "
        f"(32,826 states)."
    )


def _check_profile(profile) -> None:
    if not callable(profile):
        raise ValueError(f"profile must be a function profile(state, player) -> mix (such as "
                         f"uniform_profile or a TableProfile), got {type(profile).__name__}.")


def is_chance(state) -> bool:
    """True if ``state`` is a chance node (its ``is_chance()`` says so; games without one never are)."""
    method = getattr(state, "is_chance", None)
    return method is not None and bool(method())


def chance_children(state) -> list[tuple[SimultaneousState, float]]:
    """``(child, probability)`` for every outcome of the chance node ``state``, in outcome order."""
    return [(state.apply_chance(outcome), probability)
            for outcome, probability in state.chance_outcomes()]


def _chance_value(state, values: dict) -> float:
    # The probability-weighted sum of the outcomes' values, in an order we own (fixed_order.dot).
    children = chance_children(state)
    return dot([probability for _, probability in children], [values[child] for child, _ in children])


def _joint_actions(state: SimultaneousState):
    """Every pair (action of player 0, action of player 1) at ``state``, row by row."""
    return [(a0, a1) for a0 in state.legal_actions(0) for a1 in state.legal_actions(1)]


def all_states(root: SimultaneousState) -> list[SimultaneousState]:
    """All states reachable from ``root``, each once, every state before all its children.

    ``root`` comes first. Reversed, the list puts every state after all its
    children: the order backward induction needs (also when two histories
    lead to the same state). More than :data:`MAX_STATES` states raise ValueError.
    """
    _check_state("root", root)
    return list(reversed(_children_first(root, "all_states")))


def _children_first(root: SimultaneousState, what: str) -> list[SimultaneousState]:
    # Depth-first post-order: a state is listed once all its children are.
    order: list[SimultaneousState] = []
    started: set = set()
    stack = [(root, False)]
    while stack:
        state, children_done = stack.pop()
        if children_done:
            order.append(state)
            continue
        if state in started:
            continue
        started.add(state)
        if len(started) > MAX_STATES:
            raise too_many_states(what)
        stack.append((state, True))
        if state.is_terminal():
            continue
        if is_chance(state):
            children = [child for child, _ in reversed(chance_children(state))]
        else:
            children = [state.play(joint) for joint in reversed(_joint_actions(state))]
        stack.extend((child, False) for child in children if child not in started)
    return order


# --------------------------------------------------------------------------- profiles


def uniform_profile(state: SimultaneousState, player: int) -> np.ndarray:
    """The profile that plays every legal action equally often, everywhere.

    ``state`` must be a state where the game is still on (a finished game has
    no action to mix over); ``player`` is 0 or 1.
    """
    _check_live_state("state", state, "uniform_profile")
    return _uniform(state, check_player(player))


def _uniform(state: SimultaneousState, player: int) -> np.ndarray:
    count = len(state.legal_actions(player))
    return np.full(count, 1.0 / count)


class TableProfile:
    """A profile stored as a table ``{state: (mix of player 0, mix of player 1)}``.

    States missing from the table get the uniform mix: that is what a search
    "knows" about a state it never visited. Used to turn a search tree into a
    profile whose exact distance from equilibrium can be measured.
    """

    __slots__ = ("table",)

    def __init__(self, table: dict[Hashable, tuple[Sequence[float], Sequence[float]]]):
        if not isinstance(table, Mapping):
            raise ValueError(f"table must be a dict {{state: (mix of player 0, mix of player 1)}}, "
                             f"got {type(table).__name__}.")
        for state, mixes in table.items():
            if isinstance(mixes, (str, bytes)) or not hasattr(mixes, "__len__") or len(mixes) != 2:
                raise ValueError(f"table must map each state to a pair (mix of player 0, mix of "
                                 f"player 1); {state} maps to {mixes!r}.")
        self.table = dict(table)

    def __call__(self, state: SimultaneousState, player: int) -> np.ndarray:
        _check_state("state", state)
        player = check_player(player)
        mixes = self.table.get(state)
        if mixes is None:
            return uniform_profile(state, player)
        try:
            mix = np.asarray(mixes[player], dtype=float)
        except (TypeError, ValueError, KeyError, IndexError):
            mix = None
        # None becomes a NaN array without complaint: refuse anything but finite numbers.
        if mix is None or mix.ndim != 1 or not np.all(np.isfinite(mix)):
            raise ValueError(f"the table's mix for player {player} at {state} must be a sequence "
                             f"of probabilities, got {mixes!r} for both players.")
        return mix


def _mix(profile: Profile, state: SimultaneousState, player: int) -> np.ndarray:
    """The profile's mix at a state, checked: one probability per legal action, summing to 1."""
    size = len(state.legal_actions(player))
    name = f"the profile's mix for player {player} at {state}"
    return check_strategy(name, profile(state, player), size)


# --------------------------------------------------------------------------- exact solution


def stage_game(state: SimultaneousState, child_values: dict) -> MatrixGame:
    """The matrix game at ``state``: entry ``[i, j]`` is the value of the child after ``(i, j)``.

    Parameters
    ----------
    state : SimultaneousState
        A state where the game is still on.
    child_values : dict
        Player 0's value of every child of ``state`` (keyed by the child state).

    Returns
    -------
    MatrixGame
        Rows are player 0's legal actions, columns player 1's, in order.

    Raises
    ------
    ValueError
        If the game is over at ``state``, or ``child_values`` misses a child
        (the sentence names it) or holds something that is not a finite number.
    """
    _check_live_state("state", state, "stage_game")
    if is_chance(state):
        raise ValueError(f"stage_game needs a state where the players bid; {state} is a chance "
                         f"node (its value is the probability-weighted sum of its outcomes).")
    if not isinstance(child_values, Mapping):
        raise ValueError(f"child_values must be a dict {{child state: value}}, got "
                         f"{type(child_values).__name__}.")
    actions0, actions1 = state.legal_actions(0), state.legal_actions(1)
    return MatrixGame(_stage_table(state, child_values), [str(a) for a in actions0],
                      [str(a) for a in actions1], str(state))


def _stage_table(state: SimultaneousState, child_values: dict) -> np.ndarray:
    # The solver's inner step: the handlers cost nothing until a value is missing or bad.
    try:
        return np.array([[child_values[state.play((a0, a1))] for a1 in state.legal_actions(1)]
                         for a0 in state.legal_actions(0)], dtype=float)
    except KeyError as missing:
        raise ValueError(f"child_values has no value for the child {missing.args[0]} of "
                         f"{state}: give player 0's value of every child.") from None
    except (TypeError, ValueError):
        raise ValueError(f"child_values must hold a number for every child of {state}.") from None


@dataclass(frozen=True)
class GameSolution:
    """The exact solution of a simultaneous-move game found by backward induction.

    Attributes
    ----------
    root : SimultaneousState
    values : dict
        Player 0's equilibrium value of every reachable state (terminal ones too).
    strategies : dict
        ``{state: (mix of player 0, mix of player 1)}`` for every non-terminal state.

    A solution is itself a profile: ``solution(state, player)`` is the
    equilibrium mix, so ``profile_exploitability(root, solution)`` is 0 (up to the
    linear-programming solver's rounding, about 1e-9).
    """

    root: SimultaneousState
    values: dict
    strategies: dict

    @property
    def value(self) -> float:
        """Player 0's value of the whole game (the root)."""
        return self.values[self.root]

    def __call__(self, state: SimultaneousState, player: int) -> np.ndarray:
        _check_state("state", state)
        player = check_player(player)
        mixes = self.strategies.get(state)
        if mixes is None:
            raise ValueError(f"state must be a state of the solved game where the game is still "
                             f"on; the solution has no mix at {state}.")
        return mixes[player]


def solve_game(root: SimultaneousState) -> GameSolution:
    """Solve a small two-player zero-sum simultaneous-move game exactly.

    Parameters
    ----------
    root : SimultaneousState
        The state to solve from (usually the start of the game).

    Returns
    -------
    GameSolution
        Values and equilibrium mixes of every reachable state.

    Notes
    -----
    States are solved children first (backward induction): a terminal state
    is worth its payoff, any other state the value of its :func:`stage_game`,
    solved by linear programming. When a stage game has several equilibria
    the solver returns one of them; the value is unique. A state where each
    player has a single action needs no programme (its value is its only
    child's). Chapter "When both players move at once".
    """
    _check_state("root", root)
    values: dict = {}
    strategies: dict = {}
    for state in _children_first(root, "solve_game"):
        if state.is_terminal():
            values[state] = state.payoff()
            continue
        if is_chance(state):
            values[state] = _chance_value(state, values)
            continue
        game = stage_game(state, values)
        if game.shape == (1, 1):
            values[state] = float(game.payoffs[0, 0])
            strategies[state] = (np.ones(1), np.ones(1))
            continue
        equilibrium = solve_zero_sum(game)
        values[state] = equilibrium.value
        strategies[state] = (equilibrium.row_strategy, equilibrium.column_strategy)
    return GameSolution(root, values, strategies)


def equilibrium_with_exploration(solution: GameSolution, exploration: float = 0.1) -> TableProfile:
    """The equilibrium blended with uniform play at every state.

    Each player plays ``(1 - exploration) * equilibrium mix + exploration *
    uniform`` everywhere. Its distance from equilibrium is the floor that a
    search keeping this much uniform exploration in its final mixes cannot go
    below (regret matching with exploration; the tree version of
    :func:`mctslib.search.zero_sum.exploration_floor`).
    """
    if not isinstance(solution, GameSolution):
        raise ValueError(f"solution must be a GameSolution (from solve_game), got "
                         f"{type(solution).__name__}.")
    exploration = check_real("exploration", exploration, 0.0, 1.0)
    table = {}
    for state, mixes in solution.strategies.items():
        table[state] = tuple((1.0 - exploration) * np.asarray(mix) + exploration / len(mix)
                             for mix in mixes)
    return TableProfile(table)


# --------------------------------------------------------------------------- measuring profiles


def profile_value(root: SimultaneousState, profile: Profile) -> float:
    """Player 0's expected payoff when both players follow ``profile`` from ``root``."""
    _check_state("root", root)
    _check_profile(profile)
    values: dict = {}
    for state in _children_first(root, "profile_value"):
        if state.is_terminal():
            values[state] = state.payoff()
            continue
        if is_chance(state):
            values[state] = _chance_value(state, values)
            continue
        table = _stage_table(state, values)
        values[state] = vector_matrix_vector(_mix(profile, state, 0), table, _mix(profile, state, 1))
    return values[root]


@dataclass(frozen=True)
class BestResponse:
    """A best response of ``player`` to the other player's mixes.

    Attributes
    ----------
    player : int
        The responding player.
    value : float
        The responder's own expected payoff at the root (player 1's payoff is
        minus player 0's).
    actions : dict
        ``{state: action}``: the responder's best action at every
        non-terminal state that is not a chance node (the first one in ``legal_actions`` order on ties).
    values : dict
        The responder's payoff at every state when it responds best from
        there on.
    """

    player: int
    value: float
    actions: dict
    values: dict


def best_response(root: SimultaneousState, profile: Profile, player: int) -> BestResponse:
    """``player``'s best reply to the other player's mixes in ``profile`` (its own are ignored).

    Because both players see every earlier action, the best reply can be
    chosen state by state from the last round back: at each state the
    responder takes the action whose expected value, against the other
    player's mix there, is highest. Chapter "When both players move at once".
    """
    _check_state("root", root)
    _check_profile(profile)
    player = check_player(player)
    sign = 1.0 if player == 0 else -1.0  # the responder's payoff is sign * player 0's
    values: dict = {}
    actions: dict = {}
    for state in _children_first(root, "best_response"):
        if state.is_terminal():
            values[state] = sign * state.payoff()
            continue
        if is_chance(state):  # nobody chooses: the outcomes' values, weighted
            values[state] = _chance_value(state, values)
            continue
        table = _stage_table(state, values)  # already in the responder's terms
        if player == 0:
            action_values = matrix_times_vector(table, _mix(profile, state, 1))
        else:
            action_values = vector_times_matrix(_mix(profile, state, 0), table)
        best = int(np.argmax(action_values))
        actions[state] = state.legal_actions(player)[best]
        values[state] = float(action_values[best])
    return BestResponse(player, values[root], actions, values)


def profile_exploitability(root: SimultaneousState, profile: Profile) -> float:
    """Distance of a behaviour profile from equilibrium (NashConv), in the game's payoff units.

    Parameters
    ----------
    root : SimultaneousState
    profile : callable(state, player) -> mix
        A mix for each player at each state (see :class:`TableProfile`,
        :func:`uniform_profile`, :class:`GameSolution`).

    Returns
    -------
    float
        Player 0's best-response payoff against player 1's mixes plus player
        1's best-response payoff against player 0's mixes. In a zero-sum game
        this equals the sum of what each player gains by switching to its best
        response, the same quantity as
        :func:`mctslib.search.zero_sum.exploitability` for a one-state game. It
        is 0 exactly at an equilibrium and positive otherwise.
    """
    return sum(best_response(root, profile, player).value for player in PLAYERS)


def nash_conv(root: SimultaneousState, profile: Profile) -> float:
    """NashConv of ``profile``: the two players' best-response gains added up, in payoff units.

    The same number as :func:`profile_exploitability` (the chapter's "distance
    from equilibrium"), under the name game-theory papers and OpenSpiel use.
    OpenSpiel's ``exploitability`` is *half* of it for two players
    (:func:`openspiel_exploitability`). Chapter "When both players move at once".
    """
    return profile_exploitability(root, profile)


def openspiel_exploitability(root: SimultaneousState, profile: Profile) -> float:
    """OpenSpiel's ``exploitability``: NashConv divided by the number of players (two).

    In a two-player zero-sum game it is the average of the two best-response
    gains, i.e. how much a best-responding opponent wins on average over the
    game value. Quote it with its name: it is half of :func:`nash_conv`.
    """
    return nash_conv(root, profile) / len(PLAYERS)


# --------------------------------------------------------------------------- exploiting one player


@dataclass(frozen=True)
class WeakSpot:
    """A state where a best response makes the victim lose, and how likely play gets there.

    Values are the victim's payoffs in the game's units.
    """

    state: SimultaneousState
    reach: float
    equilibrium_value: float
    payoff: float

    @property
    def loss(self) -> float:
        """How far below its equilibrium value the victim ends up from this state."""
        return self.equilibrium_value - self.payoff


@dataclass(frozen=True)
class Exploit:
    """What one player's strategy loses against a best response, and where.

    Attributes
    ----------
    victim : int
        The exploited player.
    game_value : float
        The victim's equilibrium payoff: what it could guarantee.
    victim_payoff : float
        The victim's expected payoff when the other player best-responds.
    response : BestResponse
        The exploiting player's best response.
    weak_spots : list of WeakSpot
        States after the first round (the root's loss is :attr:`loss` itself)
        that play reaches when the victim follows its mixes and the exploiter
        its best response, largest ``reach * loss`` first.
    """

    victim: int
    game_value: float
    victim_payoff: float
    response: BestResponse
    weak_spots: list

    @property
    def loss(self) -> float:
        """``game_value - victim_payoff`` (>= 0, up to solver rounding)."""
        return self.game_value - self.victim_payoff


def exploit(root: SimultaneousState, profile: Profile, victim: int = 0, top: int = 3,
            solution: GameSolution | None = None) -> Exploit:
    """Best-respond to ``victim``'s mixes in ``profile`` and measure the victim's loss.

    Parameters
    ----------
    root : SimultaneousState
    profile : callable(state, player) -> mix
        Only the victim's mixes matter.
    victim : int
        The player (0 or 1) whose strategy is exploited.
    top : int
        How many weak spots to list (``>= 0``).
    solution : GameSolution, optional
        The exact solution of ``root``, if already computed.

    Notes
    -----
    Used in the simultaneous-moves chapter on Smitsimax, whose strategy
    cannot depend on what the opponent played earlier.
    """
    _check_state("root", root)
    _check_profile(profile)
    victim = check_player(victim)
    top = check_int("top", top, 0)
    if solution is None:
        solution = solve_game(root)
    elif not isinstance(solution, GameSolution) or solution.root != root:
        raise ValueError("solution must be the GameSolution of this root (solve_game(root)), "
                         f"got {_solution_of(solution)}.")
    sign = 1.0 if victim == 0 else -1.0  # the victim's payoff is sign * player 0's
    response = best_response(root, profile, 1 - victim)
    spots = []
    for state, reach in _reach_probabilities(root, profile, victim, response).items():
        if state == root or state.is_terminal() or is_chance(state):
            continue
        spots.append(WeakSpot(state, reach, sign * solution.values[state], -response.values[state]))
    spots.sort(key=lambda spot: spot.reach * spot.loss, reverse=True)
    # Adding 0.0 turns a -0.0 (the sign flip of a zero value) into 0.0 for printing.
    return Exploit(victim, sign * solution.value + 0.0, -response.value + 0.0, response,
                   spots[:top])


def _solution_of(solution) -> str:
    if isinstance(solution, GameSolution):
        return f"the solution of {solution.root}"
    return type(solution).__name__


def _reach_probabilities(root, profile, victim: int, response: BestResponse) -> dict:
    """Probability of reaching each state when the victim mixes and the responder best-responds."""
    reach = {root: 1.0}
    for state in all_states(root):  # parents before children
        probability = reach.get(state, 0.0)
        if probability == 0.0 or state.is_terminal():
            continue
        if is_chance(state):
            for child, p in chance_children(state):
                reach[child] = reach.get(child, 0.0) + probability * p
            continue
        mix = _mix(profile, state, victim)
        answer = response.actions[state]
        for action, p in zip(state.legal_actions(victim), mix):
            if p > 0.0:
                joint = (action, answer) if victim == 0 else (answer, action)
                child = state.play(joint)
                reach[child] = reach.get(child, 0.0) + probability * p
    return reach
