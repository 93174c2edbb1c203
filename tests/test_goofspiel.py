"""Goofspiel's rules and the exact solver (backward induction, best responses, distance).

Hand-derived values come from the 1-, 2- and 3-card games; the 3-card game is
also checked against OpenSpiel's own goofspiel (its rules, its returns and its
NashConv) through OpenSpiel's turn-based view of simultaneous games.
"""

from __future__ import annotations

import numpy as np
import pytest

from mctslib.games.goofspiel import Goofspiel
from mctslib.games.matrix_games import weighted_rock_paper_scissors
from mctslib.games.simultaneous_base import SimultaneousState
from mctslib.search.backward_induction import (
    TableProfile,
    all_states,
    best_response,
    equilibrium_with_exploration,
    exploit,
    profile_exploitability,
    profile_value,
    solve_game,
    stage_game,
    uniform_profile,
)
from mctslib.search.zero_sum import exploitability as matrix_exploitability
from mctslib.search.zero_sum import solve_zero_sum

# --------------------------------------------------------------------------- rules


def test_start_of_the_game():
    game = Goofspiel(4)
    assert game.round == 0
    assert game.prize() == 4  # highest prize first
    assert [game.prize(r) for r in range(4)] == [4, 3, 2, 1]
    assert game.legal_actions(0) == game.legal_actions(1) == (1, 2, 3, 4)
    assert game.points() == (0, 0)
    assert not game.is_terminal()
    assert game.total_points() == 10


def test_higher_bid_takes_the_prize_and_cards_are_spent():
    start = Goofspiel(3)
    after = start.play((3, 2))
    assert start.bids == ()  # states are immutable
    assert after.points() == (3, 0)
    assert after.hand(0) == (1, 2) and after.hand(1) == (1, 3)
    assert after.prize() == 2


def test_equal_bids_discard_the_prize():
    after = Goofspiel(3).play((2, 2))
    assert after.points() == (0, 0)
    assert after.prize() == 2


def test_a_whole_game_by_hand():
    # Prize 3: 3 beats 2 (P0 +3); prize 2: 3 beats 2 (P1 +2); prize 1: 1 ties 1.
    final = Goofspiel(3).play((3, 2)).play((2, 3)).play((1, 1))
    assert final.is_terminal()
    assert final.legal_actions(0) == final.legal_actions(1) == ()
    assert final.points() == (3, 2)
    assert final.payoff() == 1.0
    assert final.payoff_range == (-6.0, 6.0)
    assert final.reward(0) == pytest.approx(7 / 12)  # (1 + 6) / 12
    assert final.reward(1) == pytest.approx(5 / 12)
    win_loss = Goofspiel(3, "win_loss").play((3, 2)).play((2, 3)).play((1, 1))
    assert win_loss.payoff() == 1.0
    assert win_loss.reward(0) == 1.0 and win_loss.reward(1) == 0.0


def test_a_drawn_game_pays_half_under_win_loss():
    final = Goofspiel(2, "win_loss").play((2, 2)).play((1, 1))
    assert final.payoff() == 0.0
    assert final.reward(0) == final.reward(1) == 0.5


def test_states_are_values():
    a = Goofspiel(3).play((3, 1))
    b = Goofspiel(3).play((3, 1))
    assert a == b and hash(a) == hash(b)
    assert a != Goofspiel(3).play((1, 3))
    assert "P0 3 | P1 1" in str(a) and "points 3-0" in str(a)


@pytest.mark.parametrize("joint", [(4, 1), (1,), (1, 1, 1), "11", (True, 1), (2, 2.5)])
def test_illegal_joint_actions_are_refused_with_a_sentence(joint):
    with pytest.raises(ValueError, match="illegal here"):
        Goofspiel(3).play(joint)


def test_a_spent_card_cannot_be_bid_again():
    with pytest.raises(ValueError, match="player 0 may play 1, 2"):
        Goofspiel(3).play((3, 3)).play((3, 1))


def test_no_play_and_no_reward_at_the_wrong_time():
    final = Goofspiel(1).play((1, 1))
    with pytest.raises(ValueError, match="game is over"):
        final.play((1, 1))
    with pytest.raises(ValueError, match="still on"):
        Goofspiel(2).payoff()
    with pytest.raises(ValueError, match="still on"):
        Goofspiel(2).reward(0)
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        final.reward(2)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"cards": 0}, "cards must be a whole number from 1 to 13"),
        ({"cards": 14}, "cards must be a whole number from 1 to 13"),
        ({"cards": 2.0}, "cards must be a whole number"),
        ({"scoring": "total"}, "scoring must be one of points, win_loss"),
        ({"bids": ((1, 1), (1, 2))}, "no card bid twice"),
        ({"bids": ((4, 1),)}, "pairs of cards 1..3"),
        ({"bids": [(1, 1)]}, "bids must be pairs"),
    ],
)
def test_bad_parameters_are_refused_with_a_sentence(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Goofspiel(**{"cards": 3, **kwargs})


def test_bad_round_and_player_are_refused():
    with pytest.raises(ValueError, match="round_index must be from 0 to 2"):
        Goofspiel(3).prize(3)
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        Goofspiel(3).hand(-1)


def test_the_tree_sizes():
    # 1 + 9 + 9*4 + 36*1 states for 3 cards; 1 + 16 + 16*9 + 144*4 + 576 for 4.
    assert len(all_states(Goofspiel(3))) == 82
    assert len(all_states(Goofspiel(4))) == 1313


# --------------------------------------------------------------------------- exact values by hand


def test_one_card_is_a_forced_draw():
    solution = solve_game(Goofspiel(1))
    assert solution.value == 0.0
    assert profile_exploitability(Goofspiel(1), uniform_profile) == 0.0


def test_two_cards_by_hand():
    # Bids on prize 2 (rows P0, columns P1; the last round is forced):
    # 1 v 1 and 2 v 2 tie twice (0); 1 v 2 gives P1 2 and P0 1 (-1); 2 v 1 gives +1.
    root = Goofspiel(2)
    solution = solve_game(root)
    assert stage_game(root, solution.values).payoffs.tolist() == [[0.0, -1.0], [1.0, 0.0]]
    assert solution.value == pytest.approx(0.0, abs=1e-12)
    # Bidding 2 is dominant for both players.
    np.testing.assert_allclose(solution(root, 0), [0.0, 1.0], atol=1e-9)
    np.testing.assert_allclose(solution(root, 1), [0.0, 1.0], atol=1e-9)
    # Against uniform bids, bidding 2 earns 1/2 for each player: distance 1/2 + 1/2.
    assert profile_exploitability(root, uniform_profile) == pytest.approx(1.0)
    # Both always bid their lowest card: each could gain 1 by bidding 2.
    def lowest(state, player):
        return np.eye(len(state.legal_actions(player)))[0]
    assert profile_exploitability(root, lowest) == pytest.approx(2.0)


def test_a_three_card_position_with_a_mixed_equilibrium():
    # After P0 bid 3 and P1 bid 1 (P0 leads 3-0), P0 holds 1, 2 and P1 holds 2, 3.
    # Point differences (rows P0 bids 1, 2; columns P1 bids 2, 3): [[0, 1], [2, 0]]
    # (e.g. 1 v 3 loses prize 2, then 2 v 2 ties: 3-2). Mixing so the other is
    # indifferent: P0 (2/3, 1/3), P1 (1/3, 2/3), value 2/3.
    root = Goofspiel(3)
    state = root.play((3, 1))
    solution = solve_game(root)
    assert stage_game(state, solution.values).payoffs.tolist() == [[0.0, 1.0], [2.0, 0.0]]
    assert solution.values[state] == pytest.approx(2 / 3)
    np.testing.assert_allclose(solution(state, 0), [2 / 3, 1 / 3], atol=1e-9)
    np.testing.assert_allclose(solution(state, 1), [1 / 3, 2 / 3], atol=1e-9)
    # Under win/loss the table is [[0, 1], [1, 0]]: half and half, value 1/2.
    win_loss = solve_game(Goofspiel(3, "win_loss"))
    assert win_loss.values[Goofspiel(3, "win_loss").play((3, 1))] == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("cards", "scoring"),
    [(2, "points"), (2, "win_loss"), (3, "points"), (3, "win_loss"), (4, "points")],
)
def test_symmetric_game_has_value_zero_and_the_solution_is_an_equilibrium(cards, scoring):
    # The rules treat both players alike, so the value is 0 (the LP does not know that).
    root = Goofspiel(cards, scoring)
    solution = solve_game(root)
    assert solution.value == pytest.approx(0.0, abs=1e-9)
    assert profile_exploitability(root, solution) == pytest.approx(0.0, abs=1e-8)
    assert profile_value(root, solution) == pytest.approx(solution.value, abs=1e-9)
    assert profile_exploitability(root, uniform_profile) > 0.5


def test_distance_is_the_sum_of_both_best_responses_and_never_negative():
    root = Goofspiel(3)
    rng = np.random.default_rng(5)
    table = {s: (rng.dirichlet(np.ones(len(s.legal_actions(0)))),
                 rng.dirichlet(np.ones(len(s.legal_actions(1)))))
             for s in all_states(root) if not s.is_terminal()}
    profile = TableProfile(table)
    value = profile_value(root, profile)
    gain0 = best_response(root, profile, 0).value - value
    gain1 = best_response(root, profile, 1).value + value
    assert gain0 >= 0 and gain1 >= 0
    assert profile_exploitability(root, profile) == pytest.approx(gain0 + gain1)


def test_exploration_blend_costs_distance():
    root = Goofspiel(3)
    solution = solve_game(root)
    exact = equilibrium_with_exploration(solution, 0.0)
    assert profile_exploitability(root, exact) == pytest.approx(0.0, abs=1e-8)
    floor = profile_exploitability(root, equilibrium_with_exploration(solution, 0.1))
    assert 0.0 < floor < profile_exploitability(root, equilibrium_with_exploration(solution, 0.5))
    with pytest.raises(ValueError, match="exploration must be a number in"):
        equilibrium_with_exploration(solution, 1.5)


def test_exploit_reports_the_loss_against_a_best_response():
    root = Goofspiel(3)
    result = exploit(root, uniform_profile, victim=1, top=2)
    assert result.game_value == 0.0
    assert result.victim_payoff == pytest.approx(-best_response(root, uniform_profile, 0).value)
    assert result.loss > 0
    assert len(result.weak_spots) == 2
    for spot in result.weak_spots:
        assert 0 < spot.reach <= 1 and spot.state.round >= 1
    at_equilibrium = exploit(root, solve_game(root), victim=0)
    assert at_equilibrium.loss == pytest.approx(0.0, abs=1e-8)


def test_bad_profiles_and_roots_are_refused():
    root = Goofspiel(2)
    with pytest.raises(ValueError, match="must have one probability per move"):
        profile_exploitability(root, lambda state, player: [1.0])
    with pytest.raises(ValueError, match="must sum to 1"):
        profile_exploitability(root, lambda state, player: [0.7] * len(state.legal_actions(player)))
    with pytest.raises(ValueError, match="root must be a simultaneous-move game state"):
        solve_game("start")
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        best_response(root, uniform_profile, 2)


# --------------------------------------------------------------------------- a one-state game


class OneShot(SimultaneousState):
    """A matrix game as a one-round simultaneous-move game (for cross-checks)."""

    __slots__ = ("column", "row", "table")

    def __init__(self, table, row=None, column=None):
        self.table, self.row, self.column = table, row, column

    def legal_actions(self, player):
        if self.is_terminal():
            return ()
        return tuple(range(self.table.shape[player]))

    def play(self, joint_action):
        return OneShot(self.table, *joint_action)

    def is_terminal(self):
        return self.row is not None

    def payoff(self):
        return float(self.table[self.row, self.column])

    @property
    def payoff_range(self):
        return float(self.table.min()), float(self.table.max())

    def __eq__(self, other):
        return (self.row, self.column) == (other.row, other.column)

    def __hash__(self):
        return hash((self.row, self.column))


def test_one_state_game_agrees_with_the_matrix_game_module():
    game = weighted_rock_paper_scissors()
    root = OneShot(game.payoffs)
    solution = solve_game(root)
    assert solution.value == pytest.approx(solve_zero_sum(game).value, abs=1e-9)
    np.testing.assert_allclose(solution(root, 0), [1 / 2, 1 / 6, 1 / 3], atol=1e-9)
    rng = np.random.default_rng(2)
    for _ in range(5):
        x, y = rng.dirichlet(np.ones(3)), rng.dirichlet(np.ones(3))
        profile = TableProfile({root: (x, y)})
        expected = matrix_exploitability(game, x, y)
        assert profile_exploitability(root, profile) == pytest.approx(expected)


# --------------------------------------------------------------------------- OpenSpiel


def _openspiel_policy(cards, scoring, profile):
    """OpenSpiel's goofspiel (turn-based view) with ``profile``'s mixes, walked alongside ours."""
    import pyspiel
    from open_spiel.python import policy as openspiel_policy

    returns_type = {"points": "point_difference", "win_loss": "win_loss"}[scoring]
    game = pyspiel.load_game("goofspiel", {"num_cards": cards, "points_order": "descending",
                                           "imp_info": False, "returns_type": returns_type})
    turn_based = pyspiel.convert_to_turn_based(game)
    table = openspiel_policy.TabularPolicy(turn_based)
    ours_per_leaf = []

    def walk(state, ours, pending):
        if state.is_terminal():
            while not ours.is_terminal():  # OpenSpiel plays the forced last round itself
                ours = ours.play((ours.hand(0)[0], ours.hand(1)[0]))
            ours_per_leaf.append((state.returns()[0], ours.payoff()))
            return
        player = state.current_player()
        mix = np.asarray(profile(ours, player), dtype=float)
        row = table.policy_for_key(state.information_state_string(player))
        row[:] = 0.0
        row[[card - 1 for card in ours.legal_actions(player)]] = mix
        for action in state.legal_actions():
            child = state.child(action)
            if player == 0:
                walk(child, ours, action + 1)
            else:
                walk(child, ours.play((pending, action + 1)), None)

    walk(turn_based.new_initial_state(), Goofspiel(cards, scoring), None)
    return turn_based, table, ours_per_leaf


@pytest.mark.parametrize(("scoring", "scale"), [("points", 2.0), ("win_loss", 1.0)])
def test_openspiel_agrees_on_rules_equilibrium_and_distance(scoring, scale):
    # OpenSpiel's point_difference return is (p0 - p1) / 2; ours is p0 - p1.
    import pyspiel
    from open_spiel.python import policy as openspiel_policy

    root = Goofspiel(3, scoring)
    solution = solve_game(root)
    game, table, leaves = _openspiel_policy(3, scoring, solution)
    for theirs, ours in leaves:
        assert ours == pytest.approx(scale * theirs)
    nash_conv = pyspiel.nash_conv(game, openspiel_policy.python_policy_to_pyspiel_policy(table))
    assert nash_conv == pytest.approx(0.0, abs=1e-7)
    for profile in (uniform_profile, equilibrium_with_exploration(solution, 0.3)):
        game, table, _ = _openspiel_policy(3, scoring, profile)
        theirs = pyspiel.nash_conv(game, openspiel_policy.python_policy_to_pyspiel_policy(table))
        assert profile_exploitability(root, profile) == pytest.approx(scale * theirs)
        assert theirs > 0.1
