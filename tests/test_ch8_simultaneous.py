"""Chapter 8 (both pages): the library parts the rewrite added, and every stored run re-made.

The chapter's pages load their numbers from ``data/simultaneous/``; the checks that a fresh run
gives exactly what is stored live here instead of in the reading flow. Each rerun is the
smallest piece of the stored run that still covers every method it names.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from mctslib.experiments.simultaneous.exploration import (
    ExplorationRemovalResult,
    exploration_removal_experiment,
)
from mctslib.experiments.simultaneous.one_node import (
    load_one_node_experiment,
    log_checkpoints,
    mix_path,
    one_node_experiment,
    run_one_node,
)
from mctslib.experiments.simultaneous.smmcts import (
    ConvergenceResult,
    convergence_experiment,
)
from mctslib.experiments.simultaneous.tuning import TuningResult, make_search
from mctslib.games.goofspiel import Goofspiel
from mctslib.games.matrix_games import weighted_rock_paper_scissors
from mctslib.learners.simultaneous import without_exploration
from mctslib.learners.ucb1 import SQRT2
from mctslib.search.backward_induction import nash_conv
from mctslib.search.smitsimax import Smitsimax
from mctslib.search.smmcts import SMMCTS, JointDUCT, SequentialUCT
from mctslib.search.zero_sum import (
    exploitability,
    exploration_floor,
    noisy_equilibrium_distance,
    solve_zero_sum,
)
from mctslib.search.zero_sum import nash_conv as matrix_nash_conv
from mctslib.views.simplex import draw_mix_paths

DATA = Path(__file__).resolve().parent.parent / "data" / "simultaneous"


# --------------------------------------------------------------------------- exploration removed


def test_without_exploration_takes_the_uniform_share_out():
    # 100 rounds, 10% exploration over 2 moves: 5 random picks each. Counts 80/20 -> 75/15.
    assert without_exploration([80, 20], 0.1) == [75 / 90, 15 / 90]
    # A mix gives the same answer as the counts it came from.
    assert without_exploration([0.8, 0.2], 0.1) == pytest.approx([75 / 90, 15 / 90], abs=1e-15)
    # A move played less often than exploration alone would play it ends at 0.
    assert without_exploration([97, 3], 0.1) == [1.0, 0.0]
    # Kovarik and Lisy's form: (mean - gamma * uniform) / (1 - gamma), when nothing is clipped.
    mean = [0.5, 0.3, 0.2]
    assert without_exploration(mean, 0.3) == pytest.approx([(p - 0.1) / 0.7 for p in mean])


@pytest.mark.parametrize("weights, exploration, message", [
    ([], 0.1, "weights must be a non-empty"),
    ([1, -1], 0.1, "weights\\[1\\]"),
    ([0, 0], 0.1, "at least one positive"),
    ([1, 2], 0.0, "exploration must be a number in \\(0, 1\\]"),
    ("ab", 0.1, "weights must be a non-empty"),
])
def test_without_exploration_names_bad_input(weights, exploration, message):
    with pytest.raises(ValueError, match=message):
        without_exploration(weights, exploration)


def test_profile_without_exploration_is_each_nodes_corrected_counts():
    root = Goofspiel(3)
    search = SMMCTS(root, "rm", exploration=0.2, seed=3).run(500)
    removed = search.profile("mix", exploration_removed=True).table
    for node in search.nodes():
        if node.rules and any(node.rules[0].counts):
            for player in (0, 1):
                assert list(removed[node.state][player]) == without_exploration(
                    node.rules[player].counts, 0.2)
    # Removing the share changes the strategy, so the distance changes too.
    assert nash_conv(root, search.profile("mix", exploration_removed=True)) != \
        nash_conv(root, search.profile("mix"))


@pytest.mark.parametrize("rule, final, flag, message", [
    ("duct", "mix", True, "'rm' or 'exp3'"),
    ("rm", "max", True, "final='mix'"),
    ("rm", "mix", 1, "exploration_removed must be True or False"),
])
def test_profile_without_exploration_refuses_what_it_cannot_mean(rule, final, flag, message):
    search = SMMCTS(Goofspiel(3), rule, seed=0).run(50)
    with pytest.raises(ValueError, match=message):
        search.profile(final, exploration_removed=flag)


def test_exploration_experiment_repeats_the_stored_regret_matching_run():
    # Its "with exploration" column is the chapter's stored convergence run, bit for bit.
    small = exploration_removal_experiment(rules=("rm",), checkpoints=(100, 1000), seeds=(0, 1))
    stored = ConvergenceResult.load(DATA / "smmcts.json")
    assert small.with_exploration["rm"] == [row[:2] for row in stored.distances["rm"][:2]]
    again = ExplorationRemovalResult(**json.loads(small.to_json()))
    assert again.medians("rm", True) == small.medians("rm", True)
    with pytest.raises(ValueError, match="checkpoints must increase"):
        exploration_removal_experiment(checkpoints=(1000, 100))
    with pytest.raises(ValueError, match="each rule"):
        exploration_removal_experiment(rules=("duct",))


def test_stored_exploration_removal_run_repeats():
    stored = ExplorationRemovalResult.load(DATA / "exploration_removed.json")
    first = stored.checkpoints[:2]
    fresh = exploration_removal_experiment(stored.cards, stored.rules, stored.exploration,
                                           stored.backup, first, stored.seeds[:1])
    for rule in stored.rules:
        assert fresh.with_exploration[rule][0] == stored.with_exploration[rule][0][:2]
        assert fresh.without_exploration[rule][0] == stored.without_exploration[rule][0][:2]
    smmcts = ConvergenceResult.load(DATA / "smmcts.json")
    shared = [smmcts.checkpoints.index(point) for point in stored.checkpoints]
    assert stored.with_exploration["rm"] == [[row[k] for k in shared]
                                             for row in smmcts.distances["rm"]]


# --------------------------------------------------------------------------- one node


def test_zero_sum_names_of_the_chapter_are_the_same_functions():
    game = weighted_rock_paper_scissors()
    equilibrium = solve_zero_sum(game)
    uniform = [1 / 3] * 3
    assert matrix_nash_conv(game, uniform, uniform) == exploitability(game, uniform, uniform)
    assert noisy_equilibrium_distance(game, 0.1, equilibrium) == \
        exploration_floor(game, 0.1, equilibrium)


def test_mix_path_is_run_one_node_with_its_mixes_kept():
    game = weighted_rock_paper_scissors()
    checkpoints = log_checkpoints(3000, first=100, per_decade=3)
    for learner in ("ucb1", "regret_matching", "exp3"):
        path = mix_path(game, learner, 3000, 7, checkpoints=checkpoints)
        run = run_one_node(game, learner, 3000, 7, outcomes="win_loss", checkpoints=checkpoints,
                           engine="python")
        assert list(path.distances) == list(run.average_distance)
        assert list(path.row_mixes[-1]) == list(run.row_average)
        assert path.checkpoints == tuple(int(p) for p in checkpoints)


def test_draw_mix_paths_draws_one_triangle_per_run_and_names_mistakes():
    game = weighted_rock_paper_scissors()
    paths = [mix_path(game, learner, 1000, 0, checkpoints=(100, 1000))
             for learner in ("ucb1", "regret_matching")]
    fig = plt.figure()
    draw_mix_paths(fig, paths, 1, solve_zero_sum(game).row_strategy, game.row_moves)
    assert len(fig.axes) == 2
    assert "1,000 rounds" in fig._suptitle.get_text()
    plt.close(fig)
    other = mix_path(game, "ucb1", 1000, 0, checkpoints=(200, 1000))
    for bad, message in (([paths[0], other], "share their checkpoints"), ([], "one to six"),
                         ([object()], "checkpoints, row_mixes")):
        fig = plt.figure()
        with pytest.raises(ValueError, match=message):
            draw_mix_paths(fig, bad, 0, [0.5, 0.25, 0.25])
        plt.close(fig)
    fig = plt.figure()
    with pytest.raises(ValueError, match="upto"):
        draw_mix_paths(fig, paths, 2, [0.5, 0.25, 0.25])
    plt.close(fig)


def test_stored_one_node_run_repeats_for_its_first_checkpoints():
    stored = load_one_node_experiment(DATA / "one_node.json")
    short = one_node_experiment(10_000, seeds=(0, 3))  # both rules, both kinds of outcome
    for run in short.runs:
        kept = stored.run(run["learner"], run["outcomes"], run["seed"])
        count = len(run["checkpoints"])
        assert run["checkpoints"] == kept["checkpoints"][:count]
        assert run["average_distance"] == kept["average_distance"][:count]


def test_hundred_seed_run_begins_with_the_five_stored_seeds():
    hundred = load_one_node_experiment(DATA / "one_node_100seeds.json")
    five = load_one_node_experiment(DATA / "one_node.json")
    assert hundred.parameters["seeds"] == list(range(100))
    for learner in ("ucb1", "regret_matching"):
        assert list(hundred.final_distances(learner, "win_loss")[:5]) == \
            list(five.final_distances(learner, "win_loss"))
    fresh = run_one_node(weighted_rock_paper_scissors(), "regret_matching", 10_000, 57,
                         outcomes="win_loss", checkpoints=(1_000, 10_000))
    kept = hundred.run("regret_matching", "win_loss", 57)
    assert list(fresh.average_distance) == kept["average_distance"][:2]


# --------------------------------------------------------------------------- a whole game


def test_stored_convergence_run_repeats_for_its_first_checkpoints():
    stored = ConvergenceResult.load(DATA / "smmcts.json")
    fresh = convergence_experiment(4, checkpoints=(100, 1_000), seeds=(0,))
    for method in fresh.methods:
        assert fresh.distances[method][0] == stored.distances[method][0][:2], method


def test_stored_tuned_comparison_repeats_at_its_smallest_budget():
    tuning = TuningResult.load(DATA / "tuning.json")
    root, seed = Goofspiel(tuning.cards), tuning.compare_seeds[0]
    for method in tuning.methods:
        search = make_search(method, tuning.best[method][0], root, seed).run(tuning.budgets[0])
        for final in ("mix", "max"):
            assert nash_conv(root, search.profile(final)) == \
                tuning.compare[method][final][0][0], (method, final)


def test_stored_million_iteration_run_repeats_its_first_checkpoint():
    long_run = TuningResult.load(DATA / "convergence_1m.json")
    root = Goofspiel(long_run.cards)
    search = make_search("exp3", long_run.grids["exp3"][0], root, long_run.tuning_seeds[0])
    search.run(long_run.budgets[0])
    assert nash_conv(root, search.profile()) == long_run.tuning["exp3"]["mix"][0][0][0]


def test_stored_extras_repeat_the_sequential_tree_and_the_three_agents():
    from mctslib.games.multi_goofspiel import MultiGoofspiel

    extras = json.loads((DATA / "extras.json").read_text())
    sequential = extras["sequential"]
    search = SequentialUCT(Goofspiel(4), c=sequential["c"], seed=sequential["seeds"][0])
    search.run(sequential["budgets"][0])
    assert nash_conv(Goofspiel(4), search.profile()) == sequential["nashconv"][0][0]
    multi = extras["multi_agent"]
    three = MultiGoofspiel(multi["players"], multi["cards"])
    budget, seed = multi["budgets"][0], multi["seeds"][0]
    assert list(Smitsimax(three, c=multi["c"], seed=seed).run(budget).tree_sizes()) == \
        multi["smitsimax_per_agent"][0][0]
    assert JointDUCT(three, c=multi["c"], seed=seed).run(budget).tree_size() == \
        multi["sizes"]["joint_duct"][0][0]
    sweep = json.loads((DATA / "multi_agent_sizes.json").read_text())["sweep"]
    case = next(r for r in sweep if r["players"] == 4 and r["c"] == 1.6)
    four = MultiGoofspiel(case["players"], case["cards"])
    assert list(Smitsimax(four, c=case["c"], seed=0).run(case["budgets"][0]).tree_sizes()) == \
        case["smitsimax_per_agent"][0][0]
    assert JointDUCT(four, c=case["c"], seed=0).run(case["budgets"][0]).tree_size() == \
        case["joint_duct"][0][0]


def test_stored_match_replays_its_first_game_pair():
    from mctslib.experiments.simultaneous.matches import load_matches, play_game, tuned_bot

    tuning = TuningResult.load(DATA / "tuning.json")
    first = load_matches(DATA / "matches.json")[0]
    bots = []
    for label in (first.first, first.second):
        method, final = label.split("(")[0], label.rstrip(")").split(",")[-1]
        bot = tuned_bot(tuning, method, first.iterations, final)
        assert bot.label == label
        bots.append(bot)
    game_args = (first.iterations, first.seed, 0, first.cards)
    pair = [play_game(bots[0], bots[1], *game_args).payoff(),
            -play_game(bots[1], bots[0], *game_args).payoff()]
    assert pair == first.differences[:2]


def test_stored_random_order_run_repeats_its_smallest_search():
    from mctslib.experiments.simultaneous.random_order import RandomOrderResult, measure_search

    stored = RandomOrderResult.load(DATA / "random_order.json")
    root = Goofspiel(4, prize_order="random")
    mix, top, _nodes = measure_search("duct", stored.values["duct"][0], root, stored.seeds[0],
                                      stored.budgets[0])
    assert (mix, top) == (stored.nash_conv["duct"]["mix"][0][0],
                          stored.nash_conv["duct"]["max"][0][0])
    assert math.isfinite(mix) and np.isclose(stored.uniform, 5.0)


def test_stored_sweep_repeats_two_of_its_settings():
    from mctslib.experiments.simultaneous.one_node import OneNodeSweep, one_node_sweep

    stored = OneNodeSweep.load(DATA / "one_node_sweep.json")
    grid = {"ucb1": ("c", (stored.sweeps["ucb1"]["values"][2],)),
            "exp3": ("exploration", (stored.sweeps["exp3"]["values"][2],))}
    fresh = one_node_sweep(stored.rounds, stored.seeds[:1], grid=grid)
    for learner in grid:
        assert fresh.sweeps[learner]["finals"][0][0] == stored.sweeps[learner]["finals"][2][0]
    assert stored.sweeps["ucb1"]["values"][3] == SQRT2


def test_stored_census_and_first_round_agree_with_the_solved_games():
    from mctslib.experiments.simultaneous.random_order import (
        FirstRoundResult,
        RandomOrderResult,
        equilibrium_census,
    )
    from mctslib.search.backward_induction import solve_game

    stored = RandomOrderResult.load(DATA / "random_order.json")
    assert equilibrium_census(solve_game(Goofspiel(4))) == stored.census["descending"]
    first = FirstRoundResult.load(DATA / "random_order_first_round.json")
    assert first.decisions == stored.census["random"]["decisions"]
    assert first.value == stored.value == 0.0
    for prize, mixes in first.mixes.items():
        assert all(math.isclose(math.fsum(mix), 1.0, abs_tol=1e-9) for mix in mixes)
        # a single bid can guarantee no more than the value, nor hold it below it
        assert first.maximin[prize] <= first.value <= first.minimax[prize]
    must_mix = [prize for prize in first.mixes if first.maximin[prize] < first.minimax[prize]]
    assert must_mix == ["2", "3"]


# --------------------------------------------------------------------------- pictures


def test_two_trees_picture_shows_every_pair_of_moves_once():
    from mctslib.views.simultaneous_trees import draw_sequential_and_simultaneous

    game = weighted_rock_paper_scissors()
    fig = plt.figure(figsize=(8.5, 4.4))
    draw_sequential_and_simultaneous(fig, game)
    sequential, simultaneous = fig.axes
    # The sequential tree: one column node per row move, each knowing that move.
    assert sorted(t.get_text() for t in sequential.texts if t.get_text().startswith("column\n")) \
        == ["column\n(saw P)", "column\n(saw R)", "column\n(saw S)"]
    # Both halves end in the nine payoffs of the table, row by row.
    table = ["0", "-2", "+1", "+2", "0", "-3", "-1", "+3", "0"]
    for ax in (sequential, simultaneous):
        leaves = sorted((t for t in ax.texts if t.get_position()[1] == 0.06
                         and t.get_position()[0] > 0), key=lambda t: t.get_position()[0])
        assert [t.get_text() for t in leaves] == table
    plt.close(fig)


@pytest.mark.parametrize("game, message", [
    ("rps", "game must be a MatrixGame"),
    (None, "at most 4 moves"),
])
def test_two_trees_picture_names_bad_input(game, message):
    from mctslib.games.matrix_games import MatrixGame
    from mctslib.views.simultaneous_trees import draw_sequential_and_simultaneous

    if game is None:
        game = MatrixGame(np.arange(25.0).reshape(5, 5))
    fig = plt.figure()
    with pytest.raises(ValueError, match=message):
        draw_sequential_and_simultaneous(fig, game)
    plt.close(fig)


def test_backups_picture_gives_the_running_means_of_its_example():
    from mctslib.views.simultaneous_trees import draw_backups

    fig = plt.figure(figsize=(8.5, 4.6))
    draw_backups(fig)
    [ax] = fig.axes
    texts = [t for t in ax.texts if t.get_text()]
    # The sample backup on the left of the path, the mean backup on its right, top to bottom.
    sample = [t.get_text() for t in sorted(texts, key=lambda t: -t.get_position()[1])
              if t.get_position()[0] < 0.3 and "gets" in t.get_text()]
    mean = [t.get_text() for t in sorted(texts, key=lambda t: -t.get_position()[1])
            if t.get_position()[0] > 0.7 and "gets" in t.get_text()]
    # Three nodes on the path have learners (root, A, B); C is the node the iteration adds.
    assert sample == ["player 0 gets 1", "player 1 gets 0"] * 3
    # After the iteration A has 10 visits and a total of 4, B 5 and 3, the new C 1 and 1:
    # the root's learners get A's mean, A's get B's, B's get C's (the sample itself).
    assert mean == ["player 0 gets 4/10 = 0.4", "player 1 gets 0.6",
                    "player 0 gets 3/5 = 0.6", "player 1 gets 0.4",
                    "player 0 gets 1/1 = 1", "player 1 gets 0"]
    assert "C, new: 1 visit, total 1" in [t.get_text() for t in texts]
    plt.close(fig)


def test_the_chapters_10k_matches_are_one_run_of_40_pairs():
    from mctslib.experiments.simultaneous.matches import load_matches

    matches = load_matches(DATA / "matches_10k_seed1.json")
    assert len(matches) == 10
    assert {(m.iterations, m.seed, len(m.differences)) for m in matches} == {(10_000, 1, 80)}
