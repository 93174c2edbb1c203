"""One-node simultaneous learners: hand-checked rules, reference == numba, the experiment and its command."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mctslib import __version__
from mctslib.experiments.simultaneous.one_node import (
    load_one_node_experiment,
    log_checkpoints,
    main,
    one_node_experiment,
    run_one_node,
)
from mctslib.games.matrix_games import MatrixGame, rock_paper_scissors, weighted_rock_paper_scissors
from mctslib.learners.simultaneous import (
    LEARNERS,
    OUTCOMES,
    FastOneNodeMatch,
    RegretMatchingPlayer,
    UCB1Player,
    empirical_strategy,
    make_players,
    next_uniform,
    play_rounds,
    regret_matching_strategy,
    rescaled_rewards,
    sample_move,
    stream_for_seed,
)

GAME = weighted_rock_paper_scissors()
FLOOR = 2 / 15  # hand-derived in tests/test_matrix_games.py


# --------------------------------------------------------------------------- the rules by hand


def test_rewards_are_rescaled_from_the_table_range():
    row, column = rescaled_rewards(GAME)  # payoffs run from -3 to 3
    np.testing.assert_allclose(row, (GAME.payoffs + 3) / 6)
    np.testing.assert_allclose(column, (3 - GAME.payoffs) / 6)
    assert row[2, 1] == 1.0 and column[1, 2] == 1.0  # scissors over paper is the top win
    row, column = rescaled_rewards(MatrixGame([[4, 4], [4, 4]]))
    assert row.tolist() == column.tolist() == [[0.5, 0.5], [0.5, 0.5]]


def test_regret_matching_strategy_by_hand():
    # Positive regrets 2 and 1 -> (2/3, 0, 1/3), then 90% of that plus 10% uniform.
    mix = regret_matching_strategy([2.0, -1.0, 1.0], 0.1)
    assert mix == pytest.approx([0.9 * 2 / 3 + 0.1 / 3, 0.1 / 3, 0.9 / 3 + 0.1 / 3])
    # No positive regret: uniform.
    assert regret_matching_strategy([0.0, -1.0, -5.0], 0.1) == pytest.approx([1 / 3] * 3)


def test_regret_matching_update_is_importance_weighted():
    player = RegretMatchingPlayer(3, exploration=0.1)
    move = player.choose(0.0)  # uniform mix at the start: the first slice holds 0.0
    assert move == 0
    player.update(move, 0.6)
    # Estimate of the played move: 0.6 / (1/3) = 1.8, minus what was scored (0.6);
    # the other moves' estimates are 0, so each loses 0.6.
    assert player.regrets == pytest.approx([1.2, -0.6, -0.6])
    assert player.counts == [1, 0, 0]
    assert player.strategy() == pytest.approx([0.9 + 0.1 / 3, 0.1 / 3, 0.1 / 3])


def test_sampling_uses_slices_in_move_order():
    mix = [0.5, 0.25, 0.25]
    assert [sample_move(mix, u) for u in (0.0, 0.49, 0.5, 0.74, 0.75, 0.999)] == [0, 0, 1, 1, 2, 2]


def test_ucb1_tries_every_move_first_and_breaks_ties_with_the_uniform():
    player = UCB1Player(3)
    assert player.strategy() == pytest.approx([1 / 3] * 3)
    assert player.choose(0.5) == 1  # three tied moves, 0.5 * 3 -> the second
    player.update(1, 1.0)
    assert player.best_moves() == [0, 2]
    assert player.choose(0.99) == 2
    player.update(2, 0.0)
    assert player.choose(0.99) == 0  # the last unplayed move, whatever the uniform
    player.update(0, 0.5)
    # All played once: mean + sqrt(2 ln 3 / 1); move 1 has the best mean.
    assert player.best_moves() == [1]
    assert player.strategy() == [0.0, 1.0, 0.0]
    assert player.average_strategy() == pytest.approx([1 / 3] * 3)


def test_empirical_strategy():
    assert empirical_strategy([3, 1, 0]) == [0.75, 0.25, 0.0]
    assert empirical_strategy([0, 0]) == [0.5, 0.5]


def test_streams_are_reproducible_and_seeds_differ():
    draws = [[next_uniform(stream_for_seed(seed)) for _ in range(1)] for seed in (0, 1, 0)]
    assert draws[0] == draws[2] != draws[1]
    stream = stream_for_seed(5)
    values = [next_uniform(stream) for _ in range(2000)]
    assert 0.0 <= min(values) and max(values) < 1.0
    assert abs(np.mean(values) - 0.5) < 0.03


def test_log_checkpoints():
    points = log_checkpoints(10_000_000)
    assert points[0] == 1000 and points[-1] == 10_000_000 and len(points) == 41
    assert np.all(np.diff(points) > 0)
    assert 10_000 in points and 1_000_000 in points
    assert log_checkpoints(500).tolist() == [500]
    assert log_checkpoints(3000, first=1000, per_decade=1).tolist() == [1000, 3000]


# --------------------------------------------------------------------------- reference == numba


@pytest.mark.parametrize("outcomes", OUTCOMES)
@pytest.mark.parametrize("learner", LEARNERS)
def test_numba_twin_keeps_identical_statistics(learner, outcomes):
    rewards = rescaled_rewards(GAME)
    for seed in (0, 1, 2, 3):
        python_row, python_column = make_players(GAME, learner)
        python_stream = stream_for_seed(seed)
        play_rounds(python_row, python_column, rewards[0].tolist(), rewards[1].tolist(), 2000,
                    python_stream, win_loss=outcomes == "win_loss")
        fast_row, fast_column = make_players(GAME, learner)
        match = FastOneNodeMatch(GAME, fast_row, fast_column, stream_for_seed(seed),
                                 outcomes == "win_loss")
        match.play(700)  # in two pieces: a run resumes exactly where it stopped
        match.play(1300)
        fast_row, fast_column = match.players()
        for python_player, fast_player in ((python_row, fast_row), (python_column, fast_column)):
            assert python_player.counts == fast_player.counts
            if learner == "ucb1":
                assert python_player.reward_sums == fast_player.reward_sums
            else:
                assert python_player.regrets == fast_player.regrets
        assert python_stream.state == match.stream.state


@pytest.mark.parametrize("learner", LEARNERS)
def test_runs_are_identical_on_both_engines(learner):
    for seed in (7, 8):
        runs = [run_one_node(GAME, learner, 2000, seed, engine=engine,
                             checkpoints=[1, 3, 10, 100, 1000, 2000])
                for engine in ("python", "numba")]
        for field in ("average_distance", "current_distance", "row_average", "column_current"):
            np.testing.assert_array_equal(getattr(runs[0], field), getattr(runs[1], field))


# --------------------------------------------------------------------------- behaviour


def test_regret_matching_gets_below_the_exploration_floor():
    finals = [run_one_node(GAME, "regret_matching", 300_000, seed).final_distance
              for seed in range(5)]
    early = [run_one_node(GAME, "regret_matching", 1000, seed).final_distance for seed in range(5)]
    assert np.median(finals) < FLOOR < np.median(early)


def test_a_run_records_its_checkpoints_and_calls_back():
    seen = []
    run = run_one_node(rock_paper_scissors(), "ucb1", 5000, 3, checkpoints=[10, 5000],
                       callback=lambda *values: seen.append(values))
    assert run.checkpoints.tolist() == [10, 5000]
    assert [values[0] for values in seen] == [10, 5000]
    assert seen[-1][1] == run.final_distance
    assert run.row_average.sum() == pytest.approx(1.0)
    assert (run.learner, run.outcomes, run.engine, run.seed) == ("ucb1", "payoff", "numba", 3)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"learner": "hedge"}, "learner must be one of"),
        ({"learner": "exp3"}, "Exp3 has no numba twin"),
        ({"engine": "c++"}, "engine must be one of"),
        ({"outcomes": "draws"}, "outcomes must be one of"),
        ({"rounds": 0}, "rounds must be a whole number >= 1"),
        ({"exploration": 0.0}, "exploration must be a number in (0, 1]"),
        ({"exploration": 2.0}, "exploration must be a number in"),
        ({"c": -1.0}, "c (the exploration constant)"),
        ({"checkpoints": [10, 5]}, "checkpoints must be increasing"),
        ({"checkpoints": [10, 5000]}, "checkpoints must be increasing"),
    ],
)
def test_bad_run_parameters_raise_a_sentence(kwargs, words):
    arguments = {"learner": "regret_matching", "rounds": 100, "seed": 0} | kwargs
    with pytest.raises(ValueError) as error:
        run_one_node(GAME, **arguments)
    assert words in str(error.value)


# --------------------------------------------------------------------------- the experiment


def test_small_experiment_round_trips_through_json(tmp_path):
    experiment = one_node_experiment(3000, seeds=(0, 1), per_decade=2)
    assert len(experiment.runs) == 2 * 2 * 2
    assert experiment.exploration_floor == pytest.approx(FLOOR)
    assert experiment.equilibrium["row_strategy"] == pytest.approx([1 / 2, 1 / 6, 1 / 3])
    assert experiment.mctslib_version == __version__
    checkpoints, curves = experiment.curves("ucb1", "win_loss")
    assert checkpoints.tolist() == [1000, 3000] and curves.shape == (2, 2)
    path = tmp_path / "one_node.json"
    path.write_text(experiment.to_json())
    assert load_one_node_experiment(path) == experiment
    assert "floor of 10% uniform exploration: 0.1333" in experiment.summary()


def test_command_writes_the_file_with_its_parameters(tmp_path, capsys):
    out = tmp_path / "sub" / "run.json"
    code = main(["--out", str(out), "--rounds", "2000", "--seeds", "4", "--learners", "ucb1",
                 "--outcomes", "payoff"])
    assert code == 0
    data = json.loads(out.read_text())
    assert data["parameters"]["rounds"] == 2000 and data["parameters"]["seeds"] == [4]
    assert data["parameters"]["game"]["payoffs"] == GAME.payoffs.tolist()
    assert data["seconds"] > 0
    assert "1 runs in" in capsys.readouterr().out


def test_command_rejects_bad_seeds_with_a_message(tmp_path, capsys):
    code = main(["--out", str(tmp_path / "x.json"), "--rounds", "100", "--seeds", "1", "1"])
    assert code == 2
    assert "seeds must be distinct" in capsys.readouterr().err
    assert not (tmp_path / "x.json").exists()
