"""Goofspiel with a random prize order: chance nodes in the game, the exact solver and SM-MCTS.

The exact values are checked against an independent computation: OpenSpiel's
own goofspiel (``points_order="random"``) walked state by state, each stage
game solved here by its own linear programme, chance nodes averaged.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linprog

from mctslib.experiments.simultaneous.random_order import (
    RandomOrderResult,
    equilibrium_census,
    random_order_experiment,
    widest_equilibrium_mix,
)
from mctslib.experiments.simultaneous.tuning import TuningResult
from mctslib.games.goofspiel import Goofspiel
from mctslib.search.backward_induction import (
    all_states,
    best_response,
    exploit,
    is_chance,
    nash_conv,
    profile_value,
    solve_game,
    stage_game,
    uniform_profile,
)
from mctslib.search.smitsimax import Smitsimax
from mctslib.search.smmcts import SMMCTS, random_joint_playout

# --------------------------------------------------------------------------- the game


@pytest.fixture(scope="module")
def random_four():
    start = Goofspiel(4, prize_order="random")
    return start, solve_game(start)  # about 10-20 s: shared by the tests of this module


def test_random_order_draws_then_bids():
    start = Goofspiel(3, prize_order="random")
    assert start.is_chance() and start.legal_actions(0) == () and not start.is_terminal()
    assert start.chance_outcomes() == ((1, 1 / 3), (2, 1 / 3), (3, 1 / 3))
    with pytest.raises(ValueError, match="chance node"):
        start.play((1, 1))
    state = start.apply_chance(2)
    assert not state.is_chance() and state.prize() == 2 and state.legal_actions(1) == (1, 2, 3)
    state = state.play((3, 1))  # player 0 takes the 2
    assert state.is_chance() and [o for o, _ in state.chance_outcomes()] == [1, 3]
    with pytest.raises(ValueError, match="prizes left"):
        state.apply_chance(2)
    state = state.apply_chance(3).play((1, 2)).apply_chance(1).play((2, 3))
    assert state.is_terminal() and state.points() == (2, 4) and state.payoff() == -2.0
    with pytest.raises(ValueError, match="prize_order"):
        Goofspiel(3, prize_order="shuffled")
    with pytest.raises(ValueError, match="prizes"):
        Goofspiel(3, prizes=(3,))  # the descending game draws nothing


def test_descending_order_is_unchanged():
    state = Goofspiel(4)
    assert not state.is_chance() and state.prizes == () and state == Goofspiel(4, "points", ())
    state = state.play((4, 3)).play((1, 4))
    assert state.points() == (4, 3) and state.prize() == 2
    assert str(state) == ("Goofspiel(4 cards) round 2: bids P0 4 1 | P1 3 4 | points 4-3 | "
                          "prize 2 up")
    assert len(all_states(Goofspiel(4))) == 1313
    census = equilibrium_census(solve_game(Goofspiel(4)))
    assert (census["decisions"], census["pure"], census["choosing"], census["blocked"],
            census["blocked_pure"]) == (737, 687, 161, 111, 103)


# --------------------------------------------------------------------------- exact solver


def _solve_matrix(table) -> float:
    """The value of a zero-sum matrix game for the row player (an LP written here, not ours)."""
    table = np.asarray(table, dtype=float)
    rows, columns = table.shape
    # maximise v subject to x^T A_j >= v for every column j, sum x = 1, x >= 0
    cost = np.r_[np.zeros(rows), -1.0]
    upper = np.c_[-table.T, np.ones(columns)]
    result = linprog(cost, A_ub=upper, b_ub=np.zeros(columns), A_eq=[np.r_[np.ones(rows), 0.0]],
                     b_eq=[1.0], bounds=[(0, None)] * rows + [(None, None)], method="highs")
    return -result.fun


def _forced(ours):
    """Our state after the moves OpenSpiel plays by itself (last prize, last round)."""
    while not ours.is_terminal():
        ours = (ours.apply_chance(ours.chance_outcomes()[0][0]) if ours.is_chance()
                else ours.play((ours.legal_actions(0)[0], ours.legal_actions(1)[0])))
    return ours


def _walk(ours, theirs, values, checked):
    """OpenSpiel's value of ``theirs`` (half our points), checking ours at every decision state."""
    if theirs.is_terminal():
        final = _forced(ours)
        assert final.payoff() == 2 * theirs.returns()[0], f"payoff differs at {final}"
        return theirs.returns()[0]
    if theirs.is_chance_node():
        assert ours.is_chance(), f"OpenSpiel draws a prize at {ours}, we do not"
        return sum(p * _walk(ours.apply_chance(outcome + 1), theirs.child(outcome), values,
                             checked) for outcome, p in theirs.chance_outcomes())
    table = []
    for a0 in theirs.legal_actions(0):
        row = []
        for a1 in theirs.legal_actions(1):
            child = theirs.clone()
            child.apply_actions([a0, a1])
            row.append(_walk(ours.play((a0 + 1, a1 + 1)), child, values, checked))
        table.append(row)
    value = _solve_matrix(table)
    assert values[ours] == pytest.approx(2 * value, abs=1e-7), f"value differs at {ours}"
    checked.append(ours)
    return value


@pytest.mark.parametrize("cards", [3, 4])
def test_values_match_openspiel_random_order(cards, random_four):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("goofspiel", {"num_cards": cards, "points_order": "random",
                                           "imp_info": False,
                                           "returns_type": "point_difference"})
    start, solution = random_four if cards == 4 else (Goofspiel(3, prize_order="random"),
                                                      solve_game(Goofspiel(3, prize_order="random")))
    checked = []
    if cards == 4:  # every state of round 0 and 1 (OpenSpiel's whole tree takes too long here)
        theirs = game.new_initial_state()
        value = 0.0
        for outcome, p in theirs.chance_outcomes():
            first = theirs.child(outcome)
            ours = start.apply_chance(outcome + 1)
            table = []
            for a0 in first.legal_actions(0):
                row = []
                for a1 in first.legal_actions(1):
                    child = first.clone()
                    child.apply_actions([a0, a1])
                    row.append(_walk(ours.play((a0 + 1, a1 + 1)), child, solution.values,
                                     checked))
                table.append(row)
            assert solution.values[ours] == pytest.approx(2 * _solve_matrix(table), abs=1e-7)
            value += p * _solve_matrix(table)
    else:
        value = _walk(start, game.new_initial_state(), solution.values, checked)
    assert solution.value == pytest.approx(2 * value, abs=1e-9)
    assert len(checked) > 10
    # A state with a real asymmetry is not worth 0: the check is not trivially about zeros.
    assert any(abs(solution.values[s]) > 0.5 for s in checked)


def test_chance_node_is_the_weighted_sum_and_equilibrium_has_no_nash_conv():
    start = Goofspiel(3, prize_order="random")
    solution = solve_game(start)
    for state in all_states(start):
        if not state.is_terminal() and is_chance(state):
            weighted = sum(p * solution.values[state.apply_chance(o)]
                           for o, p in state.chance_outcomes())
            assert solution.values[state] == pytest.approx(weighted, abs=1e-12)
    assert nash_conv(start, solution) == pytest.approx(0.0, abs=1e-8)
    assert profile_value(start, solution) == pytest.approx(solution.value, abs=1e-9)
    # Uniform play is exploitable, and each best response gains.
    assert nash_conv(start, uniform_profile) > 1.0
    assert best_response(start, uniform_profile, 0).value > 0.0
    attack = exploit(start, uniform_profile, victim=0, solution=solution)
    assert attack.loss > 0 and all(not is_chance(s.state) for s in attack.weak_spots)
    with pytest.raises(ValueError, match="chance node"):
        stage_game(start, solution.values)


def test_random_order_needs_mixing_on_the_main_line(random_four):
    census = equilibrium_census(solve_game(Goofspiel(3, prize_order="random")))
    assert census["chance"] > 0 and census["decisions"] == 273
    # The fixed-order first round has a saddle point (both bid 4); with 4 cards and the prize
    # 2 or 3 drawn first, the first round's equilibrium mixes.
    start, solution = random_four
    for prize, pure in ((1, True), (2, False), (3, False), (4, True)):
        first = solution.strategies[start.apply_chance(prize)]
        assert (max(max(mix) for mix in first) > 1 - 1e-9) == pure, f"prize {prize} first"
    table = stage_game(start.apply_chance(2), solution.values)
    assert widest_equilibrium_mix(table.payoffs, 0.0, 0) > 0.0


# --------------------------------------------------------------------------- searches


@pytest.mark.parametrize("selection", ["duct", "rm", "exp3"])
@pytest.mark.parametrize("backup", ["sample", "mean"])
def test_smmcts_samples_chance_and_is_deterministic(selection, backup):
    start = Goofspiel(3, prize_order="random")
    first = SMMCTS(start, selection, c=0.1, backup=backup, seed=4).run(600)
    second = SMMCTS(start, selection, c=0.1, backup=backup, seed=4).run(600)
    assert [(n.state, n.visits, n.total) for n in first.nodes()] == \
        [(n.state, n.visits, n.total) for n in second.nodes()]
    assert first.root.chance and set(first.root.children) == {1, 2, 3}
    # Every chance node's children are keyed by the prize drawn.
    for node in first.nodes():
        if node.chance:
            assert all(child.state.prizes[-1] == outcome for outcome, child in node.children.items())
            assert node.visits == sum(c.visits for c in node.children.values()) + \
                (0 if node is first.root else 1)
    profile = first.profile("mix")
    assert all(not is_chance(state) for state in profile.table)
    assert nash_conv(start, profile) >= -1e-12
    assert nash_conv(start, first.profile("max")) >= -1e-12
    with pytest.raises(ValueError, match="chance node"):
        first.root_strategies()


def test_smmcts_learns_on_the_random_order_game():
    start = Goofspiel(3, prize_order="random")
    uniform = nash_conv(start, uniform_profile)
    learned = [nash_conv(start, SMMCTS(start, "rm", exploration=0.2, seed=s).run(5000).profile())
               for s in range(3)]
    assert max(learned) < uniform


def test_playouts_sample_chance_and_smitsimax_refuses_it():
    final = random_joint_playout(Goofspiel(4, prize_order="random"), 3)
    assert final.is_terminal() and sorted(final.prizes) == [1, 2, 3, 4]
    assert final == random_joint_playout(Goofspiel(4, prize_order="random"), 3)
    with pytest.raises(ValueError, match="chance"):
        Smitsimax(Goofspiel(3, prize_order="random"))


def test_experiment_runs_small_and_round_trips(tmp_path):
    tunings = [TuningResult(3, [200], [0], [0], ["duct", "rm", "exp3"], {},
                            best={"duct": [0.1], "rm": [0.2], "exp3": [0.1]})]
    result = random_order_experiment(3, budgets=[200], seeds=[0, 1], tunings=tunings)
    assert result.census["random"]["decisions"] == 273
    assert result.value == pytest.approx(0.0, abs=1e-9)
    again = random_order_experiment(3, budgets=[200], seeds=[0, 1], tunings=tunings)
    assert again.nash_conv == result.nash_conv and again.nodes == result.nodes
    path = tmp_path / "random.json"
    path.write_text(result.to_json())
    assert RandomOrderResult.load(path).nash_conv == result.nash_conv
    assert len(result.medians("duct", "max")) == 1


def test_recompare_at_one_budget_keeps_the_stored_best_values():
    from mctslib.experiments.simultaneous.random_order import recompare_at_budget

    stored = TuningResult(3, [100, 300], [0], [0], ["duct", "rm"], {"duct": [0.1], "rm": [0.2]},
                          best={"duct": [0.1, 0.05], "rm": [0.2, 0.4]})
    again = recompare_at_budget(stored, 300, [5, 6])
    assert again.budgets == [300] and again.best == {"duct": [0.05], "rm": [0.4]}
    assert stored.budgets == [100, 300]  # the stored result is unchanged
    assert len(again.compare["duct"]["mix"]) == 2
    search = SMMCTS(Goofspiel(3), "duct", c=0.05, backup="sample", seed=6).run(300)
    assert again.compare["duct"]["mix"][1][0] == nash_conv(Goofspiel(3), search.profile("mix"))
    with pytest.raises(ValueError, match="stored budgets"):
        recompare_at_budget(stored, 1000, [5])


def test_stored_twenty_seed_comparison_keeps_the_grid_and_the_five_seeds():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "data" / "simultaneous"
    stored = TuningResult.load(root / "tuning.json")
    twenty = TuningResult.load(root / "tuning_10k_20seeds.json")
    k = stored.budgets.index(10_000)
    assert [r[k] for r in stored.tuning_medians("duct")] == [r[0] for r in
                                                            twenty.tuning_medians("duct")]
    for method in stored.methods:
        assert [row[k] for row in stored.compare[method]["mix"]] == \
            [row[0] for row in twenty.compare[method]["mix"][:5]]
