"""RAVE and GRAVE (chapter "Enhancements that matter"): AMAF bookkeeping traced by hand,
the beta schedules, equality with UCT when RAVE is off, GRAVE's reference node, tactics
on tic-tac-toe, Hex and Connect Four, and bad input."""

import math
import re

import pytest

from mctslib.experiments.enhancements import rave as rave_experiments
from mctslib.experiments.uct.harness import single_winning_move_positions
from mctslib.games import ConnectFour, Hex, SubtractionGame, TicTacToe
from mctslib.play.arena import play_match
from mctslib.rng import GeneratorSource
from mctslib.search.rave import AMAFStats, RAVERule, RAVESearch, hand_beta, mse_beta
from mctslib.search.uct import Node, UCTSearch
from mctslib.xorshift import XorShift64


class Scripted(GeneratorSource):
    """A random source that answers the draws it is given, so an iteration can be traced."""

    def __init__(self, draws):
        self.draws = list(draws)

    def below(self, count):
        draw = self.draws.pop(0)
        assert draw < count, f"scripted draw {draw} is not below {count}"
        return draw


def table(search, node):
    """A node's AMAF table as plain tuples: {(player, move): (visits, wins)}."""
    return {key: (s.visits, s.wins) for key, s in search.amaf.get(node, {}).items()}


def shape(node):
    return (node.move, node.mover, node.visits, node.wins, [shape(c) for c in node.children])


def amaf_shape(search, node):
    rows = [sorted((k, s.visits, s.wins) for k, s in search.amaf.get(node, {}).items())]
    return rows + [amaf_shape(search, c) for c in node.children]


def walk(node):
    yield node
    for child in node.children:
        yield from walk(child)


# ------------------------------------------------------------------ AMAF by hand


def test_two_iterations_traced_by_hand_on_the_subtraction_game():
    # Pile 6, player 0 to move; moves are takes 1, 2, 3, and the same take comes back often,
    # which is what the "first occurrence, by the player who made it" convention is about.
    # Iteration 1 draws: shuffle [1, 2, 3] with below(3) = 2, below(2) = 1 (order unchanged),
    # so the tree move is: player 0 takes 1 (pile 5). Playout: below(3) = 1, player 1 takes 2
    # (pile 3); below(3) = 1, player 0 takes 2 (pile 1); below(1) = 0, player 1 takes the
    # last stone and wins.
    search = RAVESearch(seed=Scripted([2, 1, 1, 1, 0, 2, 0]))
    root, state = Node(None, None, None), SubtractionGame(6)
    search.iterate(root, state)
    take1 = root.children[0]
    assert [c.move for c in root.children] == [1, 2, 3] and take1.move == 1
    # Root: take 1 was first played by player 0 (the tree move; lost, reward 0), take 2 by
    # player 1 (won, reward 1). Player 0's later take 2 and player 1's later take 1 are
    # repeats: credited to nobody.
    assert table(search, root) == {(0, 1): (1, 0.0), (1, 2): (1, 1.0)}
    # Below the tree move, player 1 is to move and played both 2 and 1 first: both won.
    assert table(search, take1) == {(1, 2): (1, 1.0), (1, 1): (1, 1.0)}
    assert {m: (s.visits, s.wins) for m, s in search.amaf_of(take1, 0).items()} == {}

    # Iteration 2: selection tries "take 2", unvisited and without AMAF statistics for
    # player 0; never visited before, so no expansion. Playout: below(3) = 2, player 1
    # takes 3 (pile 1); below(1) = 0, player 0 takes 1 and wins.
    search.iterate(root, state)
    take2 = root.children[1]
    assert (take2.visits, take2.wins) == (1, 1.0) and not take2.children
    # At the root only these change: player 0's take 2 (won) and player 1's take 3 (lost)
    # appear, and player 0's take 1 gains a simulation in which it came later, not first.
    # Player 1's take 2 is untouched: this time player 0 played 2 first.
    assert table(search, root) == {(0, 1): (2, 1.0), (1, 2): (1, 1.0), (0, 2): (1, 1.0),
                                   (1, 3): (1, 0.0)}
    assert table(search, take1) == {(1, 2): (1, 1.0), (1, 1): (1, 1.0)}
    assert table(search, take2) == {(1, 3): (1, 0.0), (0, 1): (1, 1.0)}
    # Scores now (c = 0, "mse", b = 0.1): take 1 blends its mean 0 with AMAF mean 1/2 over 2
    # simulations; take 2 blends 1 with 1; take 3 has nothing yet and is tried first.
    rule = search.selection
    beta1 = 2 / (1 + 2 + 4 * 0.1**2 * 1 * 2)
    assert rule.beta(take1, root, 2) == beta1
    assert [rule.value(c, root) for c in root.children] == pytest.approx([beta1 * 0.5, 1.0,
                                                                           math.inf])
    assert search.selection(root) is root.children[2]


def test_an_unvisited_child_without_amaf_statistics_is_tried_first():
    search = RAVESearch(seed=Scripted([2, 1, 0, 2]))
    root = Node(None, None, None)
    search.iterate(root, SubtractionGame(5))
    assert search.selection.value(root.children[1], root) == math.inf
    assert search.selection(root) is root.children[1]


# ------------------------------------------------------------------ beta schedules


def test_mse_beta_is_one_without_real_visits_and_falls_to_zero():
    assert mse_beta(0, 7, 0.1) == 1.0
    assert mse_beta(5, 0, 0.1) == 0.0  # no AMAF statistics: nothing to blend
    values = [mse_beta(n, 2 * n, 0.1) for n in (1, 10, 100, 1000, 100_000)]
    assert values == sorted(values, reverse=True) and values[-1] < 1e-3
    assert mse_beta(10, 20, 0.1) == 20 / (10 + 20 + 4 * 0.1 * 0.1 * 10 * 20)
    assert mse_beta(3, 4, 0.0) == 4 / 7  # b = 0: the AMAF share of all samples, never fading


def test_hand_beta_is_one_half_at_k_visits():
    assert hand_beta(0, 1000) == 1.0
    assert hand_beta(1000, 1000) == 0.5
    assert hand_beta(250, 500) == math.sqrt(500 / (3 * 250 + 500))
    values = [hand_beta(n, 1000) for n in (1, 10, 100, 10_000, 10_000_000)]
    assert values == sorted(values, reverse=True) and values[-1] < 0.02
    assert hand_beta(0, 0) == 0.0 and hand_beta(50, 0) == 0.0  # k = 0: RAVE off


def test_root_stats_report_the_blend():
    search = RAVESearch(iterations=300, seed=4)
    search.search(Hex(4))
    rows = search.root_stats()
    assert sum(r.visits for r in rows) == 300
    for row, child in zip(rows, search.root.children):
        assert row.value == search.selection.value(child, search.root)
        assert row.beta == mse_beta(row.visits, row.amaf_visits, 0.1)
        assert row.amaf_visits >= row.visits  # the move out of the root counts for AMAF too


# ------------------------------------------------------------------ RAVE off is UCT


@pytest.mark.parametrize("exploration", [0.0, 0.7, math.sqrt(2.0)])
@pytest.mark.parametrize("game", [TicTacToe(), Hex(4), ConnectFour()], ids=["ttt", "hex4", "c4"])
def test_equivalence_zero_grows_uct_tree(game, exploration):
    uct = UCTSearch(exploration, iterations=300, seed=11).search(game)
    rave = RAVESearch(exploration, schedule="hand", equivalence=0, iterations=300,
                      seed=11).search(game)
    assert shape(rave) == shape(uct), "with beta = 0 RAVE must take UCT's draws and choices"


def test_equivalence_zero_follows_the_xorshift_harness_stream():
    uct = UCTSearch(1.0, iterations=200, seed=XorShift64(2026))
    rave = RAVESearch(1.0, schedule="hand", equivalence=0, iterations=200, seed=XorShift64(2026))
    assert shape(rave.search(TicTacToe())) == shape(uct.search(TicTacToe()))
    assert rave.source.state == uct.source.state


# ------------------------------------------------------------------ GRAVE


@pytest.mark.parametrize("schedule", ["mse", "hand"])
def test_grave_with_ref_zero_is_rave(schedule):
    rave = RAVESearch(schedule=schedule, iterations=400, seed=5)
    grave = RAVESearch(schedule=schedule, iterations=400, seed=5, rave="grave", ref=0)
    a, b = rave.search(Hex(4)), grave.search(Hex(4))
    assert shape(a) == shape(b)
    assert amaf_shape(rave, a) == amaf_shape(grave, b)


def test_grave_reads_the_closest_ancestor_with_more_than_ref_visits():
    search = RAVESearch(iterations=600, seed=6, rave="grave", ref=20)
    root = search.search(Hex(4))
    path_checked = 0
    for node in walk(root):
        if not node.children:
            continue
        path = [node]
        while path[-1].parent is not None:
            path.append(path[-1].parent)
        expected = next((n for n in path if n.visits > 20), root)
        assert search.selection.reference(node) is expected
        path_checked += expected is not node
    assert path_checked > 0, "some node should borrow an ancestor's table"
    # GRAVE changes the search: the tree differs from RAVE's on the same draws.
    assert shape(root) != shape(RAVESearch(iterations=600, seed=6).search(Hex(4)))


# ------------------------------------------------------------------ invariants, determinism


@pytest.mark.parametrize("game", [Hex(5), ConnectFour()], ids=["hex5", "c4"])
def test_amaf_counts_are_consistent(game):
    search = RAVESearch(iterations=400, seed=7)
    root = search.search(game)
    for node in walk(root):
        for stats in search.amaf.get(node, {}).values():
            # Each move counts at most once per simulation through the node.
            assert 1 <= stats.visits <= node.visits
            assert 0.0 <= stats.wins <= stats.visits
        for child in node.children:
            if child.visits:  # the move out of the node is always its own first occurrence
                assert search.amaf[node][(child.mover, child.move)].visits >= child.visits


def test_same_seed_same_tree_and_tables():
    a, b = (RAVESearch(iterations=300, seed=8, rave="grave", ref=10) for _ in range(2))
    ra, rb = a.search(Hex(5)), b.search(Hex(5))
    assert shape(ra) == shape(rb) and amaf_shape(a, ra) == amaf_shape(b, rb)
    again = a.search(Hex(5))  # a fresh tree and fresh tables, not the old ones grown
    assert again.visits == 300 and ra not in a.amaf


def test_time_budget_answers_a_legal_move():
    move = RAVESearch(seconds=0.05, iterations=None, seed=9).choose(Hex(5))
    assert move in Hex(5).legal_moves()


# ------------------------------------------------------------------ tactics


WIN_POSITIONS = single_winning_move_positions()[::20]


def test_finds_single_winning_moves_with_a_small_exploration():
    misses = [i for i, (state, win) in enumerate(WIN_POSITIONS)
              if RAVESearch(0.2, iterations=300, seed=i).choose(state) != win]
    assert misses == [], f"missed the single winning move in positions {misses}"


def test_without_exploration_rave_can_miss_a_winning_move():
    # The pitfall the module docstring names: with c = 0 a winning move whose few AMAF
    # samples look average is never tried once another child scores a hair higher.
    misses = sum(RAVESearch(0.0, iterations=300, seed=i).choose(state) != win
                 for i, (state, win) in enumerate(WIN_POSITIONS))
    assert 0 < misses <= len(WIN_POSITIONS) // 10


@pytest.mark.parametrize("rave", ["rave", "grave"])
def test_blocks_an_immediate_loss_at_tic_tac_toe(rave):
    for text, block in (("XX./O../...", 2), ("X../.X./O..", 8), ("O../XX./...", 5)):
        state = TicTacToe.from_string(text)
        for seed in range(4):
            assert RAVESearch(0.2, iterations=300, seed=seed, rave=rave).choose(state) == block


@pytest.mark.parametrize("kwargs", [{}, {"rave": "grave"}, {"schedule": "hand"}])
def test_hex_and_connect_four_wins_and_blocks(kwargs):
    hex_win = Hex.from_moves([0, 1, 5, 2, 10, 3, 15, 24], size=5)  # X's column needs cell 20
    hex_block = Hex.from_moves([0, 24, 5, 23, 10, 22, 15], size=5)  # O must take cell 20
    c4_win = ConnectFour.from_moves([0, 0, 1, 1, 2, 2])  # X completes the bottom row in col 3
    c4_block = ConnectFour.from_moves([0, 6, 1, 6, 2])  # O must stop it in col 3
    for state, move in ((hex_win, 20), (hex_block, 20), (c4_win, 3), (c4_block, 3)):
        assert RAVESearch(0.2, iterations=400, seed=1, **kwargs).choose(state) == move


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("kwargs, words", [
    ({"exploration": -0.1}, "exploration (the constant c) must be a number in [0, inf)"),
    ({"schedule": "fast"}, "schedule must be one of 'mse', 'hand'"),
    ({"bias": -0.5}, "bias (b) must be a number in [0, 1]"),
    ({"bias": 2.0}, "bias (b) must be a number in [0, 1]"),
    ({"schedule": "hand", "equivalence": -1}, "equivalence (k) must be a number in [0, inf)"),
    ({"equivalence": 100}, "equivalence (k) belongs to schedule='hand'"),
    ({"schedule": "hand", "bias": 0.1}, "bias (b) belongs to schedule='mse'"),
    ({"rave": "amaf"}, "rave must be one of 'rave', 'grave'"),
    ({"ref": 10}, "ref is GRAVE's threshold"),
    ({"rave": "grave", "ref": -1}, "ref must be a whole number from 0 to"),
    ({"rave": "grave", "ref": 2.5}, "ref must be a whole number from 0 to"),
    ({"iterations": 0}, "iterations must be a whole number >= 1"),
    ({"iterations": None}, "give exactly one budget"),
])
def test_bad_parameters_are_named(kwargs, words):
    with pytest.raises(ValueError, match=_escaped(words)):
        RAVESearch(**kwargs)


def _escaped(words):
    return re.escape(words)


def test_bad_arguments_of_the_helpers_are_named():
    with pytest.raises(ValueError, match="visits must be a whole number >= 0"):
        mse_beta(-1, 3, 0.1)
    with pytest.raises(ValueError, match="amaf_visits must be a whole number >= 0"):
        mse_beta(1, 2.5, 0.1)
    with pytest.raises(ValueError, match=_escaped("bias (b) must be a number in [0, 1]")):
        mse_beta(1, 2, math.nan)
    with pytest.raises(ValueError, match="parent_visits must be a whole number >= 0"):
        hand_beta(True, 10)
    with pytest.raises(ValueError, match=_escaped("equivalence (k) must be a number")):
        hand_beta(3, math.inf)
    with pytest.raises(ValueError, match="tables must be a dict"):
        RAVERule([])
    search = RAVESearch(iterations=10, seed=1)
    with pytest.raises(ValueError, match="no search has run yet"):
        search.root_stats()
    with pytest.raises(ValueError, match="cannot search a finished game"):
        search.search(SubtractionGame(0))
    with pytest.raises(ValueError, match="state must be a game position"):
        search.search("X..O.....")
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        search.amaf_of(Node(None, None, None), 2)
    with pytest.raises(ValueError, match="node must be a Node"):
        search.amaf_of("root", 0)
    with pytest.raises(ValueError, match="the RAVE rule needs a node with children"):
        search.selection(Node(None, None, None))
    with pytest.raises(ValueError, match="node must be a Node"):
        search.selection("root")
    assert repr(AMAFStats()) == "AMAFStats(visits=0, wins=0.0)" and math.isnan(AMAFStats().mean)


def test_bad_arguments_of_update_amaf_are_named():
    search = RAVESearch(iterations=10, seed=1)
    root = Node(None, None, None)
    final = SubtractionGame(0, 1)
    with pytest.raises(ValueError, match="leaf must be a Node"):
        search.update_amaf("leaf", [], final)
    with pytest.raises(ValueError, match="final must be the finished game .* a game still on"):
        search.update_amaf(root, [], SubtractionGame(3))
    with pytest.raises(ValueError, match="final must be the finished game .* got str"):
        search.update_amaf(root, [], "over")
    for playout in ([3], [(2, 1)], [(0, 1, 2)], 7):
        with pytest.raises(ValueError, match=r"playout must be a list of \(player, move\) pairs"):
            search.update_amaf(root, playout, final)
    search.update_amaf(root, [(0, 1), (1, 2)], final)  # player 0 won: it took the last stone
    assert table(search, root) == {(0, 1): (1, 1.0), (1, 2): (1, 0.0)}


def test_bad_arguments_of_the_rule_methods_are_named():
    search = RAVESearch(iterations=50, seed=2)
    root = search.search(TicTacToe())
    rule, child = search.selection, root.children[0]
    with pytest.raises(ValueError, match="node must be a Node"):
        rule.reference(None)
    with pytest.raises(ValueError, match="child must be a Node"):
        rule.beta(3, root, 1)
    with pytest.raises(ValueError, match="amaf_visits must be a whole number >= 0"):
        rule.beta(child, root, -2)
    with pytest.raises(ValueError, match="parent must be a Node"):
        rule.amaf(child, "root")
    with pytest.raises(ValueError, match="child must be a child of parent"):
        rule.value(child, child)
    assert rule.reference(child) is child  # RAVE: every node reads its own table
    assert rule.value(child, root) == search.root_stats()[0].value


def test_a_stored_comparison_has_each_games_letter_in_game_order():
    # The experiment's letters are the arena's records, one per game, W/D/L for RAVE (A).
    comparison = rave_experiments.play("hex_quick", "grave vs uct", games=4)
    game, plies, seed, _ = rave_experiments.EXPERIMENTS["hex_quick"]
    plan = rave_experiments._plans("hex_quick", "grave vs uct")[0]
    match = play_match(plan.a, plan.b, rave_experiments._openings(game, plan.games, plies, seed),
                       4, seed=seed)
    assert comparison.results == "".join({1.0: "W", 0.5: "D", 0.0: "L"}[r.result_for_a]
                                         for r in match.records)
    assert [comparison.results.count(x) for x in "WDL"] == [comparison.wins, comparison.draws,
                                                            comparison.losses]
