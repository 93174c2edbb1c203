"""Chapter 8's additions: Exp3, standard DUCT's sample backup, final-move rules, NashConv names,
the tuning and match experiments, the turn-taking tree and the multi-agent game."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mctslib.experiments.simultaneous.extras import (
    multi_agent_experiment,
    sequential_experiment,
    tree_size_sweep,
)
from mctslib.experiments.simultaneous.matches import Bot, MatchResult, match, play_game, tuned_bot
from mctslib.experiments.simultaneous.one_node import run_one_node
from mctslib.experiments.simultaneous.tuning import (
    TuningResult,
    compare_at_best,
    make_search,
    merge_results,
    tuning_experiment,
)
from mctslib.games.goofspiel import Goofspiel
from mctslib.games.matrix_games import rock_paper_scissors
from mctslib.games.multi_goofspiel import MultiGoofspiel
from mctslib.learners.simultaneous import Exp3Player, exp3_strategy, make_players
from mctslib.search.backward_induction import (
    nash_conv,
    openspiel_exploitability,
    profile_exploitability,
    uniform_profile,
)
from mctslib.search.smitsimax import Smitsimax
from mctslib.search.smmcts import SMMCTS, JointDUCT, SequentialUCT, final_mix, pick_final

# --------------------------------------------------------------------------- Exp3


def test_exp3_strategy_by_hand():
    # Scores 0 and 10, gamma 0.2, eta 0.1: softmax weights 1 and e, then 10% uniform each.
    mix = exp3_strategy([0.0, 10.0], 0.2, 0.1)
    soft = 1.0 / (1.0 + math.e)
    assert mix == pytest.approx([0.8 * soft + 0.1, 0.8 * (1 - soft) + 0.1])
    # The default learning rate is gamma / moves (Auer et al.).
    assert exp3_strategy([0.0, 10.0], 0.2) == pytest.approx(exp3_strategy([0.0, 10.0], 0.2, 0.1))
    # Huge scores do not overflow: the top score is subtracted first.
    assert exp3_strategy([1e6, 0.0, 0.0], 0.3) == pytest.approx([0.8, 0.1, 0.1])


def test_exp3_update_is_importance_weighted_on_the_played_move_only():
    player = Exp3Player(3, exploration=0.3)
    move = player.choose(0.5)
    probability = player.strategy()[move]
    player.update(move, 0.6)
    assert player.scores[move] == pytest.approx(0.6 / probability)
    assert [s for m, s in enumerate(player.scores) if m != move] == [0.0, 0.0]
    assert player.counts[move] == 1
    with pytest.raises(ValueError, match="update\\(\\) must follow choose"):
        player.update(move, 0.5)


def test_exp3_at_one_node_approaches_the_equilibrium_and_refuses_numba():
    game = rock_paper_scissors()
    run = run_one_node(game, "exp3", 20_000, 3, exploration=0.05, engine="python",
                       checkpoints=[1000, 20_000])
    assert run.average_distance[-1] < run.average_distance[0]
    assert run.average_distance[-1] < 0.1
    assert isinstance(make_players(game, "exp3")[0], Exp3Player)
    with pytest.raises(ValueError, match="Exp3 has no numba twin"):
        run_one_node(game, "exp3", 100, 0)


def test_exp3_refuses_bad_parameters():
    with pytest.raises(ValueError, match="exploration must be a number in \\(0, 1\\]"):
        Exp3Player(3, exploration=0.0)
    with pytest.raises(ValueError, match="learning_rate must be a number > 0"):
        Exp3Player(3, learning_rate=0.0)


# --------------------------------------------------------------------------- SM-MCTS additions


def test_sample_backup_feeds_each_root_rule_the_iterations_own_results():
    # With the sample backup, player 0's root rule has learnt exactly the rewards
    # that went through the root (player 1's rule one minus each): standard DUCT.
    search = SMMCTS(Goofspiel(4), "duct", c=0.1, backup="sample", seed=5).run(3000)
    rule0, rule1 = search.root.rules
    assert math.fsum(rule0.reward_sums) == pytest.approx(search.root.total, abs=1e-9)
    assert math.fsum(rule1.reward_sums) == pytest.approx(3000 - search.root.total, abs=1e-9)
    # The mean backup feeds the children's means instead: a different total.
    mean_search = SMMCTS(Goofspiel(4), "duct", c=0.1, backup="mean", seed=5).run(3000)
    assert math.fsum(mean_search.root.rules[0].reward_sums) != pytest.approx(
        mean_search.root.total, abs=1e-6)


@pytest.mark.parametrize("backup", ["mean", "sample"])
def test_exp3_nodes_and_visits(backup):
    search = SMMCTS(Goofspiel(3), "exp3", exploration=0.2, backup=backup, seed=2).run(400)
    assert all(isinstance(rule, Exp3Player) for rule in search.root.rules)
    assert sum(search.root.rules[0].counts) == 400
    early = search.exploitability()
    # Exp3's learning rate gamma / n is slow: by 4,000 iterations it is well below uniform.
    late = search.run(3600).exploitability()
    assert 0.0 <= late < early and late < nash_conv(Goofspiel(3), uniform_profile) / 2


def test_final_move_rules():
    assert final_mix([3, 5, 5], "max") == [0.0, 0.5, 0.5]
    assert final_mix([1, 3], "mix") == [0.25, 0.75]
    assert pick_final([3, 5, 5], "max") == 1  # the first of the most chosen
    assert pick_final([1, 3], "mix", 0.2) == 0 and pick_final([1, 3], "mix", 0.3) == 1
    search = SMMCTS(Goofspiel(4), "rm", exploration=0.1, seed=0).run(2000)
    counts = search.root.rules[0].counts
    assert search.root_move(0, "max") == search.root.actions[0][int(np.argmax(counts))]
    pure = search.profile("max")
    for mixes in pure.table.values():
        for mix in mixes:  # a "max" mix is pure unless the counts tie exactly
            assert max(mix) >= 0.5
    with pytest.raises(ValueError, match="final must be one of mix, max"):
        search.profile("best")


def test_nash_conv_names():
    root = Goofspiel(3)
    assert nash_conv(root, uniform_profile) == profile_exploitability(root, uniform_profile)
    assert openspiel_exploitability(root, uniform_profile) == nash_conv(root, uniform_profile) / 2


# --------------------------------------------------------------------------- experiments


def test_tuning_picks_the_lowest_median_and_round_trips(tmp_path):
    result = tuning_experiment(3, [50, 200], [0, 1, 2], [7], ["duct", "exp3"],
                               c_grid=[0.1, 1.6], exploration_grid=[0.1, 0.4])
    for method in ("duct", "exp3"):
        medians = result.tuning_medians(method)
        for k in range(2):
            best = min(range(2), key=lambda i: (medians[i][k], i))
            assert result.best[method][k] == result.grids[method][best]
        assert len(result.compare[method]["mix"]) == 1
    path = tmp_path / "t.json"
    path.write_text(result.to_json())
    again = TuningResult.load(path)
    assert again.best == result.best and again.tuning == result.tuning
    assert tuned_bot(again, "duct", 1000).value == result.best["duct"][1]
    # Two runs of different methods merge into one; the comparison can be redone alone.
    other = tuning_experiment(3, [50, 200], [0, 1, 2], [7], ["smitsimax"], c_grid=[0.1, 0.4])
    merged = merge_results([result, other])
    assert merged.methods == ["duct", "exp3", "smitsimax"]
    assert merged.tuning["smitsimax"] == other.tuning["smitsimax"]
    with pytest.raises(ValueError, match="different methods"):
        merge_results([result, result])
    redone = compare_at_best(TuningResult.load(path), [7])
    assert redone.compare == result.compare  # same seed, same best values: same searches
    # A search at a checkpoint is the same however far it is grown later.
    search = make_search("duct", 0.1, Goofspiel(3), 0).run(50)
    assert result.tuning["duct"]["mix"][0][0][0] == search.exploitability()


def test_matches_swap_seats_and_replay_game_for_game():
    first, second = Bot("duct", 0.1), Bot("rm", 0.2, "max")
    result = match(first, second, 60, 3, seed=4, cards=3)
    assert result.games == 6
    replay = play_game(second, first, 60, 4, 1, 3)  # pair 1, first bot as player 1
    assert result.differences[3] == -replay.payoff()
    wins, ties, losses = result.counts()
    assert wins + ties + losses == 6
    score, low, high = result.score()
    assert low <= score <= high
    assert MatchResult(**result.__dict__).points() == result.points()
    with pytest.raises(ValueError, match="method must be one of"):
        Bot("uct", 0.1)


def test_stored_matches_load_back(tmp_path):
    import json
    from dataclasses import asdict

    from mctslib.experiments.simultaneous.matches import load_matches

    result = MatchResult("a", "b", 10, 4, 0, [2.0, -1.0, 0.0, 0.0])
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"matches": [asdict(result)]}))
    (loaded,) = load_matches(path)
    assert loaded.counts() == (1, 2, 1) and loaded.score()[0] == 0.5
    with pytest.raises(ValueError, match="does not hold matches"):
        load_matches(tmp_path / "missing.json")


# --------------------------------------------------------------------------- more than two agents


def test_multi_goofspiel_rules():
    state = MultiGoofspiel(3, 4).play((4, 4, 3)).play((3, 1, 2)).play((1, 2, 4)).play((2, 3, 1))
    # Round 1: 4 and 4 tie for the top bid, the prize 4 is discarded.
    assert state.points() == (3, 1, 2)
    assert state.reward(0) == pytest.approx(0.3)
    with pytest.raises(ValueError, match="illegal"):
        MultiGoofspiel(3, 4).play((4, 4))
    with pytest.raises(ValueError, match="illegal"):
        MultiGoofspiel(3, 4).play((4, 4, 3)).play((4, 1, 2))


def test_smitsimax_and_joint_duct_on_three_agents():
    root = MultiGoofspiel(3, 4)
    smitsimax = Smitsimax(root, c=0.4, seed=1).run(3000)
    joint = JointDUCT(root, c=0.4, seed=1).run(3000)
    sizes = smitsimax.tree_sizes()
    assert len(sizes) == 3 and all(size <= 1 + 4 + 12 + 24 for size in sizes)
    assert all(sum(r.bandit.counts) == 3000 for r in smitsimax.roots)
    assert all(sum(rule.counts) == 3000 for rule in joint.root.rules)
    assert joint.tree_size() > sum(sizes)  # one child per joint action grows wider
    with pytest.raises(ValueError, match="two-player"):
        smitsimax.profile()


def test_multi_agent_experiment_small():
    result = multi_agent_experiment(3, 3, [30, 60], [0], 0.4, 20, 4)
    assert len(result["sizes"]["smitsimax"][0]) == 2
    for table in result["matches"].values():
        for record in table.values():
            assert record["low"] <= record["mean"] <= record["high"]
    (sweep,) = tree_size_sweep([(4, 2)], [1.0], [50], [0])
    # 4 agents with 2 cards: each Smitsimax tree has 1 + 2 nodes; the joint tree up to 1 + 16.
    assert sweep["smitsimax_per_agent"] == [[[3, 3, 3, 3]]]
    assert 12 < sweep["joint_duct"][0][0] <= 17


# --------------------------------------------------------------------------- turn-taking tree


def test_sequential_tree_lets_player_one_see_the_bid():
    search = SequentialUCT(Goofspiel(3), c=0.4, seed=0).run(2000)
    answers = [child for child in search.root.children if child is not None]
    assert all(child.pending is not None for child in answers)
    # Every root visit went on to player 1's answer, except the one that created each answer node.
    assert sum(sum(a.rule.counts) for a in answers) == sum(search.root.rule.counts) - len(answers)
    assert search.exploitability() >= 0.0
    result = sequential_experiment(3, [100, 300], [0], 0.4)
    assert result["uniform"] == nash_conv(Goofspiel(3), uniform_profile)


def test_tuning_command_line_runs_merges_and_recompares(tmp_path, capsys):
    from mctslib.experiments.simultaneous.tuning import main

    common = ["--cards", "2", "--budgets", "20", "40", "--tuning-seeds", "0", "--compare-seeds", "3"]
    main([*common, "--methods", "duct", "--c-grid", "0.1", "--out", str(tmp_path / "a.json")])
    main([*common, "--methods", "rm", "--exploration-grid", "0.2", "--out", str(tmp_path / "b.json")])
    main(["--merge", str(tmp_path / "a.json"), str(tmp_path / "b.json"),
          "--out", str(tmp_path / "ab.json")])
    merged = TuningResult.load(tmp_path / "ab.json")
    assert merged.methods == ["duct", "rm"] and merged.best == {"duct": [0.1, 0.1], "rm": [0.2, 0.2]}
    main(["--recompare", str(tmp_path / "ab.json"), "--compare-seeds", "3",
          "--out", str(tmp_path / "again.json")])
    assert TuningResult.load(tmp_path / "again.json").compare == merged.compare
    assert "written to" in capsys.readouterr().out


# --------------------------------------------------------------------------- pooled matches


def test_pool_matches_joins_runs_by_match_and_refuses_shared_seeds():
    from mctslib.experiments.simultaneous.matches import PooledMatch, pair_counts, pool_matches

    assert pair_counts([1.0, -1.0, 0.0, 0.0, 2.0, 3.0, -1.0, 0.0]) == [0, 1, 2, 0, 1]
    with pytest.raises(ValueError, match="pairs"):
        pair_counts([1.0, 2.0, 3.0])
    seed0 = [MatchResult("a(1,mix)", "b(1,mix)", 10, 4, 0, [1.0, -1.0, 2.0, 1.0]),
             MatchResult("a(1,mix)", "b(1,mix)", 20, 4, 0, [1.0, 1.0])]
    seed1 = [MatchResult("a(1,mix)", "b(1,mix)", 10, 4, 1, [0.0, -3.0])]
    pooled = pool_matches(seed0, seed1, iterations=10)
    assert len(pooled) == 1 and isinstance(pooled[0], PooledMatch)
    match_10 = pooled[0]
    assert match_10.seeds == (0, 1) and match_10.pairs_per_seed == (2, 1) and match_10.pairs == 3
    assert match_10.pair_counts() == [0, 1, 1, 0, 1]  # pairs score 1, 2 and 0.5 points
    score, low, high = match_10.score()
    assert score == pytest.approx((0.5 + 1.0 + 0.25) / 3) and low < score < high
    centre, p_low, p_high = match_10.points()
    assert centre == pytest.approx((0.0 + 1.5 - 1.5) / 3) and p_low < centre < p_high
    with pytest.raises(ValueError, match="share a seed"):
        pool_matches(seed0, seed0, iterations=10)
    with pytest.raises(ValueError, match="expected one"):
        pool_matches(seed0, seed1)  # the 20-iteration match is missing from seed 1
    with pytest.raises(ValueError, match="at least two"):
        pool_matches(seed0)
