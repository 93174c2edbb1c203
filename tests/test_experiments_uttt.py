"""The Ultimate Tic-Tac-Toe chapter's experiments at tiny budgets, their files and their command."""

import json
import math
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

from mctslib import __version__
from mctslib.experiments import uttt
from mctslib.experiments.uttt import (
    EXPERIMENTS,
    Comparison,
    ExperimentResult,
    load_experiment,
    results,
    statistics,
    tuning,
)
from mctslib.play.sprt import sprt
from mctslib.play.stats import games_for_width, score_interval

TINY = {"games": 2, "jobs": 1}


def check_well_formed(result: ExperimentResult, name: str, comparisons: int):
    assert result.name == name and result.mctslib_version == __version__
    assert len(result.comparisons) == comparisons
    assert result.seconds > 0 and result.scoring in ("codingame", "openspiel")
    for key in ("seed", "jobs", "seeding", "score"):
        assert key in result.parameters
    for index, c in enumerate(result.comparisons):
        assert c.wins + c.draws + c.losses == c.games == len(c.results)
        assert c.low <= c.score <= c.high
        assert c.seed == [result.parameters["seed"], index]
        assert c.a.startswith("uct:") and c.mean_plies > 0
    # The JSON round trip gives the same object back.
    assert ExperimentResult(**_as_kwargs(result)) == result


def _as_kwargs(result):
    data = json.loads(result.to_json())
    data["comparisons"] = [Comparison(**c) for c in data["comparisons"]]
    return data


def test_budget_experiment_records_every_parameter():
    result = uttt.budget_experiment((20, 200), reference=50, games=2, games_by_budget={200: 4})
    check_well_formed(result, "budget", 2)
    assert [c.games for c in result.comparisons] == [2, 4]
    assert result.parameters["reference"] == 50 and result.parameters["budgets"] == [20, 200]
    assert "iters=200" in result.comparison("iters=200").a and "iters=50" in result.comparisons[0].b
    assert result.reproducible and result.budget == "custom"
    points = result.summary["points"]
    assert [p["iterations"] for p in points] == [20, 200]
    for point in points:  # Elo from the score, by hand
        s = point["score"]
        expected = None if s in (0.0, 1.0) else 400 * math.log10(s / (1 - s))
        assert point["elo"] == (expected if expected is None else pytest.approx(expected))


def test_iteration_budgets_repeat_exactly():
    first = uttt.win_taking_experiment(60, **TINY)
    second = uttt.win_taking_experiment(60, **TINY)
    assert first.comparisons[0].results == second.comparisons[0].results
    assert "wins=on" in first.comparisons[0].a and "wins=off" in first.comparisons[0].b


def test_exploration_experiment_sweeps_both_scales():
    result = uttt.exploration_experiment((0.25, 1.0), iterations=60, **TINY)
    check_well_formed(result, "exploration", 4)
    assert [c.label for c in result.comparisons] == [
        "c=0.25,scale=01", "c=1,scale=01", "c=0.25,scale=pm1", "c=1,scale=pm1"]
    assert all("c=0.5,scale=01" in c.b for c in result.comparisons)
    assert "scale=pm1" in result.comparisons[3].a
    assert {"01", "pm1", "ratio_pm1_to_01"} <= result.summary.keys()
    assert result.parameters["player_reported_c"]


def _point(c, score, low, high):
    return Comparison(f"c={c}", c, "uct:", "uct:", [0, 0], "A", 100, 0, 0, 0, score,
                      [low, high], [0, 0], 40.0, "", 1.0)


def test_optimum_and_parabola_by_hand():
    # Scores on an exact parabola in log2 c with its top at c = 0.5.
    cs = [0.125, 0.25, 0.5, 1.0, 2.0]
    points = [_point(c, 0.6 - 0.1 * (math.log2(c) + 1) ** 2, 0, 1) for c in cs]
    assert tuning._vertex(points, 2) == pytest.approx(0.5)
    close = tuning._optimum([_point(0.2, 0.40, 0.30, 0.50), _point(0.5, 0.60, 0.52, 0.68),
                           _point(1.0, 0.45, 0.35, 0.55)])
    assert close["best_c"] == 0.5 and close["close_to_best"] == [0.5, 1.0]


def test_on_off_experiments_name_the_option():
    for function, option in ((uttt.solver_experiment, "solver"),
                             (uttt.win_taking_experiment, "wins")):
        result = function((40, 80), **TINY)
        check_well_formed(result, result.name, 2)
        assert f"{option}=on" in result.comparisons[1].a and "iters=80" in result.comparisons[1].a
        assert result.parameters["budget_unit"] == "iters"


def test_reuse_is_on_the_clock_and_says_so():
    result = uttt.reuse_experiment(2.0, **TINY)
    check_well_formed(result, "reuse", 1)
    assert not result.reproducible and result.notes
    assert "reuse=on" in result.comparisons[0].a and "ms=2,first_ms=2" in result.comparisons[0].a
    assert "load_average_1min" in result.parameters["machine_after"]


def test_x_perspective_by_hand():
    # A is X when a_moved_first; X's result is A's, or 1 minus A's when B is X.
    records = [SimpleNamespace(a_moved_first=True, result_for_a=1.0),
               SimpleNamespace(a_moved_first=False, result_for_a=1.0),
               SimpleNamespace(a_moved_first=False, result_for_a=0.5)]
    assert [results._result_for(r, "X") for r in records] == [1.0, 0.0, 0.5]
    assert [results._result_for(r, "A") for r in records] == [1.0, 1.0, 0.5]


def test_centre_experiment_counts_x():
    result = uttt.centre_experiment(iterations=60, games=4)
    check_well_formed(result, "centre", 2)
    assert [c.perspective for c in result.comparisons] == ["X", "X"]
    assert result.comparisons[0].a == result.comparisons[0].b  # one bot on both sides
    summary = result.summary
    assert summary["difference"] == pytest.approx(
        summary["x_score_centre"] - summary["x_score_random_first"])


def test_difference_interval_by_hand():
    # "WL": mean 0.5, sample variance 0.5; "LL": mean 0, variance 0. Error sqrt(0.5/2).
    difference, low, high = tuning._difference("WL", "LL")
    assert difference == 0.5
    assert (low, high) == pytest.approx((0.5 - 1.96 * 0.5, 0.5 + 1.96 * 0.5))


def test_games_needed_experiment():
    result = uttt.games_needed_experiment(games=12, pairs=((0.6, 0.7), (0.4, 0.5)),
                                          iterations=50, width_games=(10, 100))
    check_well_formed(result, "games_needed", 2)
    summary = result.summary
    assert summary["width_vs_games"][0]["interval_95"] == list(score_interval(5, 0, 5)[1:])
    assert summary["games_for_width"][1] == {"width": 0.1, "games": games_for_width(0.1)}
    assert list(summary["pairs"]) == ["c=0.6 vs c=0.7", "c=0.4 vs c=0.5"]
    for match in result.comparisons:
        pair = summary["pairs"][match.label]
        assert [r["games"] for r in pair["running"]] == [10, 12]
        assert pair["running"][-1]["score"] == match.score
        assert pair["sprt"]["decision"] == sprt(match.results).decision
        assert pair["decided_at_end"] == match.excludes_half()


def test_checkpoints():
    assert statistics._checkpoints(400) == [10, 20, 50, 100, 200, 300, 400]
    assert statistics._checkpoints(12) == [10, 12]


def test_openspiel_experiment_on_the_clock():
    result = uttt.openspiel_experiment(ms=3.0, games=2)
    check_well_formed(result, "openspiel", 1)
    assert result.scoring == "openspiel" and not result.reproducible
    assert "3 ms per move on its own clock" in result.comparisons[0].b
    assert "ms=3,first_ms=3" in result.comparisons[0].a and "solver=on" in result.comparisons[0].a
    assert result.parameters["openspiel_budget"] == "clock"
    assert result.parameters["simulations"] is None and result.summary["calibration"] is None


def test_openspiel_experiment_fixed_and_calibrated():
    fixed = uttt.openspiel_experiment(ms=3.0, games=2, simulations=20)
    assert "20 simulations" in fixed.comparisons[0].b
    assert fixed.parameters["openspiel_budget"] == "simulations"
    calibrated = uttt.openspiel_experiment(ms=2.0, games=2, openspiel_budget="calibrated",
                                           calibration_positions=2)
    calibration = calibrated.summary["calibration"]
    assert calibration["simulations"] == calibrated.parameters["simulations"] >= 2
    assert calibration["target_seconds"] > 0


def test_save_and_load(tmp_path):
    result = uttt.run_experiment("budget", "quick")
    assert result.budget == "quick"
    path = result.save(uttt.experiment_path("budget", tmp_path))
    assert load_experiment("budget", tmp_path) == result
    assert path.name == "budget.json"


def test_stored_full_results_load():
    for name in uttt.FULL:
        result = load_experiment(name)
        assert result.name == name and result.budget == "full"
        assert result.comparisons and all(c.games >= 40 for c in result.comparisons)
        for key, value in uttt.FULL[name].items():  # made with the budgets FULL states
            assert result.parameters[key] == json.loads(json.dumps(value)), (name, key)


@pytest.mark.parametrize("call, words", [
    (lambda: uttt.run_experiment("nope"), "unknown experiment"),
    (lambda: uttt.run_experiment("budget", "huge"), "budget must be"),
    (lambda: uttt.budget_experiment(games=1), "games"),
    (lambda: uttt.budget_experiment((0,)), "budgets"),
    (lambda: uttt.exploration_experiment(scales=("01", "x")), "scales"),
    (lambda: uttt.exploration_experiment(cs=(0.0,)), "cs"),
    (lambda: uttt.reuse_experiment(-1.0), "ms"),
    (lambda: uttt.budget_experiment(scoring="chess"), "scoring"),
    (lambda: load_experiment("budget", "/nonexistent"), "no stored result"),
    (lambda: uttt.games_needed_experiment(pairs=((0.6,),)), "pairs"),
    (lambda: uttt.openspiel_experiment(openspiel_budget="fast"), "openspiel_budget"),
])
def test_bad_input_is_a_sentence(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def test_command_quick_only(tmp_path, capsys):
    assert uttt.main(["--quick", "--only", "centre", "solver", "--jobs", "1",
                      "--out-dir", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["centre.json", "solver.json"]
    assert load_experiment("centre", tmp_path).budget == "quick"
    assert "2 experiments in" in capsys.readouterr().out


def test_command_runs_as_a_module(tmp_path):
    done = subprocess.run([sys.executable, "-m", "mctslib.experiments.uttt", "--quick",
                           "--only", "games_needed", "--jobs", "1"],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path, check=False,
                          env={**os.environ, "MCTSLIB_PROGRESS": "0"})
    assert done.returncode == 0, done.stderr
    assert "c=0.6 vs c=0.7" in done.stdout and not any(tmp_path.iterdir())


# ----------------------------------------------------------------------------- issue 14: realistic budgets


def test_doubling_experiment_plays_each_budget_against_its_half():
    result = uttt.doubling_experiment((40, 120), games=2, games_by_budget={120: 4})
    check_well_formed(result, "doubling", 2)
    assert [c.label for c in result.comparisons] == ["iters=40 vs 20", "iters=120 vs 60"]
    assert [c.games for c in result.comparisons] == [2, 4]
    for comparison, point in zip(result.comparisons, result.summary["points"]):
        assert f"iters={point['iterations']}," in comparison.a
        assert f"iters={point['half']}," in comparison.b and point["half"] * 2 == point["iterations"]
        assert point["elo_interval_95"][0] == tuning._elo(comparison.low)
    assert result.reproducible and any("load artefact" in note for note in result.notes)
    again = uttt.doubling_experiment((40, 120), games=2, games_by_budget={120: 4})
    assert [c.results for c in again.comparisons] == [c.results for c in result.comparisons]


def test_exploration_experiment_takes_cs_per_scale():
    result = uttt.exploration_experiment({"01": (0.3, 1.0), "pm1": (1.0,)}, iterations=40,
                                         **TINY)
    check_well_formed(result, "exploration", 3)
    assert [c.label for c in result.comparisons] == ["c=0.3,scale=01", "c=1,scale=01",
                                                     "c=1,scale=pm1"]
    assert result.parameters["cs"] == {"01": [0.3, 1.0], "pm1": [1.0]}
    assert result.parameters["scales"] == ["01", "pm1"]
    for scale in ("01", "pm1"):
        summary = result.summary[scale]
        points = [c for c in result.comparisons if c.label.endswith(scale)]
        assert summary["better_than_reference"] == [c.value for c in points if c.low > 0.5]
        assert summary["worse_than_reference"] == [c.value for c in points if c.high < 0.5]


def test_win_taking_split_into_playouts_and_tree():
    result = uttt.win_taking_experiment(60, where=("playouts", "tree"), **TINY)
    check_well_formed(result, "win_taking", 2)
    playouts, tree = result.comparisons
    assert "playout_wins=on,tree_wins=off" in playouts.a
    assert "playout_wins=off,tree_wins=on" in tree.a
    assert all("wins=off" in c.b and "playout_wins" not in c.b for c in result.comparisons)
    assert result.parameters["option"] == ["playout_wins", "tree_wins"]
    assert [p["option"] for p in result.summary["points"]] == ["playout_wins", "tree_wins"]
    # The default still plays "both" under its old label, so the stored full run repeats.
    both = uttt.win_taking_experiment(60, **TINY)
    assert both.comparisons[0].label == "wins=on vs off, iters=60"
    assert both.parameters["option"] == "wins"
    with pytest.raises(ValueError, match="where"):
        uttt.win_taking_experiment(60, where=("rollouts",), **TINY)


def test_centre_against_the_searched_first_move():
    result = uttt.centre_experiment(iterations=40, games=4, against="searched",
                                    first_iterations=400, first_move_samples=3)
    check_well_formed(result, "centre", 1)
    match = result.comparisons[0]
    assert "centre=on" in match.a and "centre=off" in match.b
    assert "first_iters=400" in match.a and "first_iters=400" in match.b
    summary = result.summary
    # By hand: A is X in even games (X's result = A's), B in odd ones (X's = 1 - A's).
    value = {"W": 1.0, "D": 0.5, "L": 0.0}
    even = [value[r] for r in match.results[0::2]]
    odd = [1.0 - value[r] for r in match.results[1::2]]
    assert summary["x_score_centre"] == sum(even) / len(even)
    assert summary["x_score_searched_first"] == sum(odd) / len(odd)
    assert summary["difference"] == pytest.approx(
        summary["x_score_centre"] - summary["x_score_searched_first"])
    assert sum(summary["searched_first_moves"].values()) == 3
    with pytest.raises(ValueError, match="against"):
        uttt.centre_experiment(iterations=40, games=2, against="nearby")
    with pytest.raises(ValueError, match="searched"):
        uttt.centre_experiment(iterations=40, games=2, first_iterations=400)


def test_openspiel_at_equal_simulations_repeats_exactly():
    first = uttt.openspiel_experiment(iterations=30, games=2, uct_c=1.0,
                                      versions=("best", "matched"))
    check_well_formed(first, "openspiel", 2)
    assert first.reproducible
    assert [c.value for c in first.comparisons] == ["best", "matched"]
    assert all("30 simulations" in c.b and "uct_c 1," in c.b for c in first.comparisons)
    assert "iters=30" in first.comparisons[0].a and "wins=on" in first.comparisons[0].a
    assert "wins=off,solver=on,reuse=off" in first.comparisons[1].a
    assert first.summary["exploration_match"]["our_c_equivalent"] == 0.5
    assert first.parameters["centre_acts"] is False
    assert any("centre=on option never acts" in note for note in first.notes)
    second = uttt.openspiel_experiment(iterations=30, games=2, uct_c=1.0,
                                       versions=("best", "matched"))
    assert [c.results for c in second.comparisons] == [c.results for c in first.comparisons]
    with pytest.raises(ValueError, match="versions"):
        uttt.openspiel_experiment(iterations=30, games=2, versions=("fastest",))


def test_every_budget_names_real_arguments():
    import inspect

    for table in uttt.BUDGETS.values():
        for name, arguments in table.items():
            inspect.signature(EXPERIMENTS[name]).bind(**arguments)  # TypeError if a key is wrong
    assert set(uttt.REALISTIC) <= set(EXPERIMENTS) and set(uttt.DEEP) <= set(EXPERIMENTS)
    assert uttt.registry.budget_directory("full") == uttt.DATA_DIR
    assert uttt.registry.budget_directory("realistic") == uttt.DATA_DIR / "realistic"
    with pytest.raises(ValueError, match="has no experiment"):
        uttt.run_experiment("budget", "deep")


def test_stored_realistic_and_deep_results_load():
    for budget, table in (("realistic", uttt.REALISTIC), ("deep", uttt.DEEP)):
        directory = uttt.registry.budget_directory(budget)
        for name in table:
            if not uttt.experiment_path(name, directory).is_file():
                continue  # not run yet: data/uttt/README.md lists what was
            result = load_experiment(name, directory)
            assert result.name == name and result.budget == budget
            for key, value in table[name].items():
                stored = result.parameters.get(key)
                if key == "versions" or key == "where":
                    continue  # recorded differently (the comparisons name them)
                assert stored == json.loads(json.dumps(value)), (budget, name, key)


def test_command_budget_and_quick_disagree(capsys):
    assert uttt.main(["--quick", "--budget", "realistic", "--only", "solver"]) == 2
    assert "disagree" in capsys.readouterr().err
    assert uttt.main(["--budget", "deep", "--only", "budget"]) == 2
    assert "has no experiment budget" in capsys.readouterr().err


def test_command_quick_budget_runs_the_new_experiment(tmp_path, capsys):
    assert uttt.main(["--budget", "quick", "--only", "doubling", "--jobs", "1",
                      "--out-dir", str(tmp_path)]) == 0
    assert load_experiment("doubling", tmp_path).budget == "quick"


def test_partial_results_are_kept_comparison_by_comparison(tmp_path, capsys):
    result = uttt.doubling_experiment((20, 40), games=2)
    partial = uttt.registry.partial_path("doubling", tmp_path)
    assert partial.name == "doubling.partial.jsonl"
    report = uttt.registry._reporter(partial)
    for comparison in result.comparisons:
        report(comparison)
    lines = partial.read_text().splitlines()
    assert [Comparison(**json.loads(line)) for line in lines] == result.comparisons
    assert "iters=40 vs 20" in capsys.readouterr().out


def test_pair_analysis_reads_games_as_pairs_from_one_opening():
    from mctslib.play.elo_sprt import pair_outcomes

    stored = load_experiment("games_needed")
    rows = uttt.pair_analysis(stored)
    assert [row["label"] for row in rows] == [c.label for c in stored.comparisons]
    for row, c in zip(rows, stored.comparisons):
        assert sum(row["pairs"]) == c.games // 2
        assert row["pairs"] == list(pair_outcomes(c.results))
        # pair score = points of A over the two games: counts back to the per-game score
        points = sum(k * 0.5 * n for k, n in enumerate(row["pairs"]))
        assert points / c.games == pytest.approx(c.score)
        assert row["elo_interval_95"][0] < row["elo"] < row["elo_interval_95"][1]
    # H2's measured check: c=0.6 vs 0.7 is decided for +20 Elo after 350 games (175 pairs).
    assert rows[0]["sprt"]["decision"] == "H1" and rows[0]["sprt"]["games"] == 350
    assert rows[1]["sprt"]["decision"] is None
    # X's results (same bot on both sides) are not A-vs-B pairs.
    centre = uttt.pair_analysis(uttt.centre_experiment(iterations=30, games=4))
    assert all(row["pairs"] is None and row["sprt"] is None for row in centre)
    with pytest.raises(ValueError, match="ExperimentResult"):
        uttt.pair_analysis("games_needed")


def test_gains_by_budget_gathers_each_decision(tmp_path):
    uttt.solver_experiment(40, **TINY).save(uttt.experiment_path("solver", tmp_path))
    realistic = uttt.budget_directory("realistic", tmp_path)
    uttt.solver_experiment((20, 60), **TINY).save(uttt.experiment_path("solver", realistic))
    uttt.win_taking_experiment(30, where=("playouts", "tree"), **TINY).save(
        uttt.experiment_path("win_taking", realistic))
    uttt.centre_experiment(iterations=20, games=2, against="searched",
                           first_iterations=40).save(uttt.experiment_path("centre", realistic))
    gains = uttt.gains_by_budget(tmp_path)
    assert sorted(gains) == ["centre", "playout_wins", "solver", "tree_wins"]
    assert [(p["budget"], p["value"]) for p in gains["solver"]] == [
        ("realistic", 20), ("full", 40), ("realistic", 60)]
    assert gains["centre"][0]["value"] == 20 and gains["tree_wins"][0]["games"] == 2


def test_command_on_a_dask_scheduler_plays_the_same_games(tmp_path, capsys):
    import logging

    distributed = pytest.importorskip("distributed")
    local, remote = tmp_path / "local", tmp_path / "remote"
    assert uttt.main(["--budget", "quick", "--only", "doubling", "--jobs", "1",
                      "--out-dir", str(local)]) == 0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None,
                                  silence_logs=logging.ERROR) as cluster:
        assert uttt.main(["--budget", "quick", "--only", "doubling", "--scheduler",
                          cluster.scheduler_address, "--out-dir", str(remote)]) == 0
    assert f"scheduler {cluster.scheduler_address}" in capsys.readouterr().out
    games = [[c.results for c in load_experiment("doubling", d).comparisons]
             for d in (local, remote)]
    assert games[0] == games[1]


def test_exploration_by_budget_gathers_each_c(tmp_path):
    from mctslib.experiments.uttt.gains import exploration_by_budget

    uttt.exploration_experiment({"01": (0.3, 0.7), "pm1": (1.0,)}, iterations=30, **TINY).save(
        uttt.experiment_path("exploration", tmp_path))
    deep = uttt.budget_directory("deep", tmp_path)
    uttt.exploration_experiment({"01": (0.7,)}, iterations=50, **TINY).save(
        uttt.experiment_path("exploration", deep))
    found = exploration_by_budget((0.7, 0.3, 2.0), data_dir=tmp_path)
    assert list(found) == [0.7, 0.3, 2.0]
    assert [(p["budget"], p["value"]) for p in found[0.7]] == [("full", 30), ("deep", 50)]
    assert [p["label"] for p in found[0.3]] == ["c=0.3,scale=01"] and found[2.0] == []
    stored = load_experiment("exploration", deep).comparison("c=0.7,scale=01")
    assert found[0.7][1]["score"] == stored.score and found[0.7][1]["games"] == 2
    assert [p["label"] for p in exploration_by_budget((1.0,), "pm1", tmp_path)[1.0]] == [
        "c=1,scale=pm1"]
    with pytest.raises(ValueError, match="scale"):
        exploration_by_budget((0.3,), "pm2", tmp_path)
    with pytest.raises(ValueError, match="cs"):
        exploration_by_budget(0.3, data_dir=tmp_path)


def test_stored_benchmark_reads_a_file_or_says_which_command_writes_it(tmp_path):
    from mctslib.experiments.uttt.benchmark_files import stored_benchmark

    (tmp_path / "time_management.txt").write_text("overrun 0.14 ms\n", encoding="utf-8")
    assert stored_benchmark("time_management", tmp_path) == "overrun 0.14 ms\n"
    with pytest.raises(FileNotFoundError, match="benchmarks/uttt_speed.py --per-move"):
        stored_benchmark("uttt_speed_per_move", tmp_path)
    with pytest.raises(ValueError, match="name must be one of"):
        stored_benchmark("speed", tmp_path)


def test_score_difference_subtracts_two_matches_with_their_own_spreads():
    gap, low, high = statistics.score_difference("WWWL", "WLLL")
    assert gap == pytest.approx(0.5)
    # each mean's variance is 0.25 / 4 (sample variance 1/4 of four 0/1 results over 4 games)
    assert high - gap == pytest.approx(1.959964 * math.sqrt(2 * 0.25 / 4), rel=1e-6)
    assert gap - low == pytest.approx(high - gap)
    assert statistics.score_difference("WDLW", "WDLW")[0] == 0.0
    with pytest.raises(ValueError, match="W, D and L"):
        statistics.score_difference("WX", "WL")
    with pytest.raises(ValueError, match="confidence"):
        statistics.score_difference("WL", "WL", confidence=1.0)


def test_score_difference_reads_stored_comparisons():
    solver_full = load_experiment("solver").comparisons[0]
    solver_20k = load_experiment("solver", uttt.DATA_DIR / "realistic").comparisons[0]
    gap, low, high = statistics.score_difference(solver_20k, solver_full)
    assert (f"{gap:+.3f}", f"{low:+.3f}", f"{high:+.3f}") == ("-0.073", "-0.136", "-0.009")


def test_detectable_difference_inverts_the_planning_formula():
    from mctslib.play.stats import games_for_power

    assert [round(statistics.detectable_difference(n), 3) for n in (200, 300, 400)] == [
        0.099, 0.081, 0.070]
    d = statistics.detectable_difference(785)
    assert games_for_power(d, sd_per_game=0.5, interval="measured") in (784, 785, 786)
    assert statistics.detectable_difference(400, sd_per_game=0.25) == pytest.approx(
        statistics.detectable_difference(400) / 2)
    with pytest.raises(ValueError, match="power"):
        statistics.detectable_difference(200, power=1.0)
    with pytest.raises(ValueError, match="sd_per_game"):
        statistics.detectable_difference(200, sd_per_game=0.0)


def test_benchmark_row_finds_one_row_by_its_first_field(tmp_path):
    from mctslib.experiments.uttt.benchmark_files import benchmark_row

    (tmp_path / "uttt_speed_per_move.txt").write_text(
        "# header\n  bot  moves  median\n  uct:a  10  1.50\n  uct:b  12  2.25\n  uct:b2  1  9\n",
        encoding="utf-8")
    assert benchmark_row("uttt_speed_per_move", "uct:b", tmp_path) == ["uct:b", "12", "2.25"]
    with pytest.raises(ValueError, match="0 rows"):
        benchmark_row("uttt_speed_per_move", "uct:c", tmp_path)
    with pytest.raises(ValueError, match="non-empty"):
        benchmark_row("uttt_speed_per_move", " ", tmp_path)
