"""SM-MCTS: the two selection rules by hand, the tree's bookkeeping, determinism, convergence."""

from __future__ import annotations

import numpy as np
import pytest

from mctslib.experiments.simultaneous.smmcts import ConvergenceResult, convergence_experiment, main
from mctslib.games.goofspiel import Goofspiel
from mctslib.learners.simultaneous import RegretMatchingPlayer, UCB1Player
from mctslib.rng import make_rng
from mctslib.search.backward_induction import profile_exploitability, uniform_profile
from mctslib.search.smmcts import SMMCTS, random_joint_playout

# --------------------------------------------------------------------------- the rules


def test_every_node_runs_the_chapters_one_node_learners():
    for selection, kind in (("duct", UCB1Player), ("rm", RegretMatchingPlayer)):
        search = SMMCTS(Goofspiel(3), selection, c=0.7, exploration=0.2, seed=0).run(50)
        for node in search.nodes():
            if not node.state.is_terminal():
                assert all(isinstance(rule, kind) for rule in node.rules)
        rule = search.root.rules[0]
        assert (rule.c == 0.7) if selection == "duct" else (rule.exploration == 0.2)
        # A node's final strategy is how often each action was chosen there.
        counts = np.asarray(rule.counts, dtype=float)
        np.testing.assert_allclose(search.root_strategies()[0], counts / counts.sum())


def test_random_playout_ends_the_game():
    final = random_joint_playout(Goofspiel(4), make_rng(1))
    assert final.is_terminal()
    assert sorted(pair[0] for pair in final.bids) == [1, 2, 3, 4]


# --------------------------------------------------------------------------- the tree


@pytest.mark.parametrize("selection", ["duct", "rm"])
@pytest.mark.parametrize("backup", ["mean", "sample"])
def test_visits_add_up(selection, backup):
    search = SMMCTS(Goofspiel(3), selection, backup=backup, seed=7).run(500)
    assert search.iterations == 500
    assert search.root.visits == 500
    for node in search.nodes():
        if node.state.is_terminal() or node.visits == 0:
            continue
        below = sum(child.visits for child in node.children.values())
        # Every visit went on to a child, except the one that created the node.
        assert node.visits == below + (0 if node is search.root else 1)
        assert 0.0 <= node.mean <= 1.0
        assert sum(node.rules[0].counts) == sum(node.rules[1].counts) == below


@pytest.mark.parametrize("backup", ["mean", "sample"])
def test_root_rules_learn_the_childrens_results(backup):
    # In 2-card Goofspiel the last round is forced, so every child of the root
    # has one exact result: each root rule's total for an action must be the
    # sum, over the children it led to, of visits times that result.
    search = SMMCTS(Goofspiel(2), "duct", backup=backup, seed=0).run(200)
    root = search.root
    expected = [np.zeros(2), np.zeros(2)]
    for (i, j), child in root.children.items():
        state = child.state
        exact = state.play((state.hand(0)[0], state.hand(1)[0])).reward(0)
        expected[0][i] += child.visits * exact
        expected[1][j] += child.visits * (1.0 - exact)
    np.testing.assert_allclose(root.rules[0].reward_sums, expected[0])
    np.testing.assert_allclose(root.rules[1].reward_sums, expected[1])


def test_mean_and_sample_backups_grow_different_trees():
    def root_mix(backup):
        return SMMCTS(Goofspiel(3), "rm", backup=backup, seed=5).run(400).root_strategies()[0]

    assert not np.allclose(root_mix("mean"), root_mix("sample"))


def test_same_seed_same_tree_and_different_seed_different_tree():
    def summary(seed):
        search = SMMCTS(Goofspiel(3), "rm", seed=seed).run(300)
        return [tuple(m) for m in search.root_strategies()], search.exploitability()

    assert summary(11) == summary(11)
    assert summary(11) != summary(12)


def test_profile_is_uniform_where_the_tree_has_no_data():
    search = SMMCTS(Goofspiel(4), "duct", seed=0).run(1)
    profile = search.profile()
    unvisited = Goofspiel(4).play((1, 2)).play((2, 1))
    np.testing.assert_allclose(profile(unvisited, 0), uniform_profile(unvisited, 0))
    for mix in search.root_strategies():
        assert mix.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("selection", ["duct", "rm"])
def test_distance_shrinks_with_more_iterations(selection):
    # Measured on 3-card Goofspiel, seeds 0-2: 1.5-4.8 after 100 iterations, and
    # 0.41-0.65 (rm) or 1.53-1.54 (duct) after 10,000; the margin below is wide.
    for seed in (0, 1, 2):
        search = SMMCTS(Goofspiel(3), selection, seed=seed)
        tiny = search.run(100).exploitability()
        large = search.run(9_900).exploitability()
        assert search.iterations == 10_000
        assert large < 0.8 * tiny
    assert large < profile_exploitability(Goofspiel(3), uniform_profile)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"selection": "ucb"}, "selection must be one of duct, rm"),
        ({"backup": "max"}, "backup must be one of mean, sample"),
        ({"c": -1.0}, "c \\(UCB1's exploration constant\\) must be a number in"),
        ({"exploration": 1.5}, "exploration must be a number in \\[0, 1\\]"),
        ({"selection": "rm", "exploration": 0.0}, "exploration must be a number in \\(0, 1\\]"),
    ],
)
def test_bad_parameters_are_refused_with_a_sentence(kwargs, message):
    with pytest.raises(ValueError, match=message):
        SMMCTS(Goofspiel(3), **kwargs)


def test_bad_roots_and_budgets_are_refused():
    with pytest.raises(ValueError, match="root must be a simultaneous-move game state"):
        SMMCTS("goofspiel")
    with pytest.raises(ValueError, match="game is still on; this one is over"):
        SMMCTS(Goofspiel(1).play((1, 1)))
    with pytest.raises(ValueError, match="iterations must be a whole number >= 1"):
        SMMCTS(Goofspiel(2), seed=0).run(0)


# --------------------------------------------------------------------------- the experiment


def test_convergence_experiment_small_budget_and_json_round_trip():
    result = convergence_experiment(cards=3, checkpoints=(50, 200), seeds=(0, 1),
                                    methods=("duct", "rm"))
    assert result.game_value == pytest.approx(0.0, abs=1e-9)
    assert result.uniform_distance == pytest.approx(8 / 3)
    assert result.blind_floor == pytest.approx(0.0, abs=1e-7)
    assert 0.0 < result.exploration_floor < result.uniform_distance
    for method in ("duct", "rm"):
        distances = np.asarray(result.distances[method])
        assert distances.shape == (2, 2)
        assert np.all(distances >= -1e-9)
    again = ConvergenceResult.from_json(result.to_json())
    assert again.distances == result.distances
    assert "iterations" in result.format() and "200" in result.format()


def test_convergence_is_reproducible():
    def run():
        return convergence_experiment(cards=2, checkpoints=(20, 40), seeds=(3,),
                                      methods=("rm", "smitsimax"))

    assert run().distances == run().distances


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"checkpoints": (100, 100)}, "checkpoints must be increasing"),
        ({"checkpoints": ()}, "checkpoints must be increasing"),
        ({"checkpoints": (0, 10)}, "each checkpoint must be a whole number >= 1"),
        ({"seeds": ()}, "seeds must hold at least one seed"),
        ({"seeds": (-1,)}, "each seed must be a whole number >= 0"),
        ({"methods": ("uct",)}, "methods must be chosen from duct, rm, smitsimax"),
        ({"cards": 0}, "cards must be a whole number from 1 to 13"),
    ],
)
def test_bad_experiments_are_refused_with_a_sentence(kwargs, message):
    with pytest.raises(ValueError, match=message):
        convergence_experiment(**{"cards": 2, "checkpoints": (10, 20), "seeds": (0,), **kwargs})


def test_command_line_writes_the_json_and_refuses_bad_input(tmp_path, capsys):
    out = tmp_path / "run.json"
    main(["--out", str(out), "--cards", "2", "--checkpoints", "10", "20", "--seeds", "0",
          "--methods", "duct"])
    stored = ConvergenceResult.load(out)
    assert stored.checkpoints == [10, 20] and stored.methods == ["duct"]
    assert "median distance" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--out", str(out), "--cards", "0"])
    assert "cards must be a whole number from 1 to 13" in capsys.readouterr().err
