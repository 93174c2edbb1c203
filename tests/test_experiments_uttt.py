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
    for name in EXPERIMENTS:
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
