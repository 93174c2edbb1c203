"""Chapter 5's decisions at the playing budget: matches played pair by pair, the sequential test
that stops them, resuming, the OpenSpiel sweep and count matches, and the registry's ``playing``
budget (mctslib.experiments.uttt.playing)."""

from __future__ import annotations

import inspect
import json

import numpy as np
import pytest

from mctslib.experiments.uttt import EXPERIMENTS, load_experiment, registry
from mctslib.experiments.uttt.benchmark_files import equal_time_counts
from mctslib.experiments.uttt.gains import gains_by_budget
from mctslib.experiments.uttt.playing import (
    c_decision_experiment,
    openspiel_counts_experiment,
    openspiel_sweep_experiment,
    play_pairs,
    reuse_decision_experiment,
)
from mctslib.experiments.uttt.results import BEST_OPTIONS, _bot, _iterations, _openings
from mctslib.play.arena import letters, play_match


def bots(iterations=100):
    plain = _iterations(_bot(BEST_OPTIONS), iterations)
    return _bot(plain, c=0.6), _bot(plain, c=0.5)


def test_pairs_are_the_games_of_one_long_match():
    a, b = bots()
    starts = _openings(8, 2, 21, "codingame")
    seed = np.random.SeedSequence(21, spawn_key=(0,))
    whole = play_match(a, b, starts, 8, seed=seed)
    assert play_pairs(a, b, starts, 8, seed).records == whole.records
    first_half = play_pairs(a, b, starts, 4, seed)
    assert play_pairs(a, b, starts, 8, seed, done=first_half.records).records == whole.records


def test_a_stop_rule_ends_the_match_after_the_pair_that_meets_it():
    a, b = bots()
    starts = _openings(8, 2, 21, "codingame")
    seen = []
    match = play_pairs(a, b, starts, 8, np.random.SeedSequence(3),
                       stop=lambda results: len(results) >= 4,
                       on_pair=lambda pair, records: seen.append(pair))
    assert match.games == 4 and seen == [0, 1]


@pytest.mark.parametrize("games, done, words", [(7, (), "even"), (4, "x" * 6, "whole pairs")])
def test_bad_pairs_are_sentences(games, done, words):
    a, b = bots()
    with pytest.raises(ValueError, match=words):
        play_pairs(a, b, _openings(8, 2, 1, "codingame"), games, np.random.SeedSequence(1),
                   done=list(done))


def test_the_sequential_test_stops_a_lopsided_match_and_keeps_the_reference():
    result = c_decision_experiment(challengers=(0.01,), iterations=200, max_games=200)
    test = result.summary["tests"][0]
    assert test["decision"] == "H0" and test["games"] < 200 and test["games"] % 2 == 0
    assert not test["capped"] and result.summary["chosen_c"] == 0.5
    assert len(test["llr"]) == test["pairs"] and test["llr"][-1] <= test["bounds"][0]
    assert result.comparisons[0].games == test["games"]


def test_a_match_stopped_at_the_cap_is_undecided_and_changes_nothing():
    result = c_decision_experiment(challengers=(0.6,), iterations=100, max_games=4)
    test = result.summary["tests"][0]
    assert test["decision"] is None and test["capped"] and result.summary["chosen_c"] == 0.5


def test_a_resumed_run_plays_the_same_games(tmp_path):
    progress = tmp_path / "c_decision.pairs.jsonl"
    fresh = c_decision_experiment(challengers=(0.6,), iterations=100, max_games=8)
    c_decision_experiment(challengers=(0.6,), iterations=100, max_games=4, progress=progress)
    assert len(progress.read_text().splitlines()) == 2  # two pairs recorded
    resumed = c_decision_experiment(challengers=(0.6,), iterations=100, max_games=8,
                                    progress=progress)
    assert resumed.comparisons[0].results == fresh.comparisons[0].results
    entries = [json.loads(line) for line in progress.read_text().splitlines()]
    assert [entry["pair"] for entry in entries] == [0, 1, 2, 3]


def test_reuse_decision_compares_reuse_on_with_off_at_equal_iterations():
    result = reuse_decision_experiment(iterations=100, max_games=4)
    [comparison] = result.comparisons
    assert "reuse=on" in comparison.a and "reuse=off" in comparison.b
    assert result.parameters["test"]["elo1"] == 30.0 and result.reproducible


def test_openspiel_sweep_and_count_matches_repeat_and_summarise():
    sweep = openspiel_sweep_experiment(uct_cs=(1.0,), simulations=30, games=2)
    again = openspiel_sweep_experiment(uct_cs=(1.0,), simulations=30, games=2)
    assert sweep.comparisons[0].results == again.comparisons[0].results
    best = sweep.summary["best_uct_c"]
    assert best == (1.0 if sweep.comparisons[0].score > 0.5 else 2.0)
    counts = openspiel_counts_experiment(iterations=50, simulations=30, uct_cs=(1.0, 2.0),
                                         games=(2, 4), name="openspiel_ten_times")
    assert [c.games for c in counts.comparisons] == [2, 4]
    assert counts.name == "openspiel_ten_times" and counts.scoring == "openspiel"
    with pytest.raises(ValueError, match="name"):
        openspiel_counts_experiment(name="openspiel")
    with pytest.raises(ValueError, match="one per uct_c"):
        openspiel_counts_experiment(games=(2, 2, 2))


def test_the_playing_budget_binds_and_takes_earlier_decisions_from_stored_results(tmp_path):
    for name, arguments in registry.PLAYING.items():
        inspect.signature(EXPERIMENTS[name]).bind(**arguments)
    c_decision_experiment(challengers=(0.6,), iterations=50, max_games=2).save(
        tmp_path / "c_decision.json")
    assert registry.DECIDED_BOT.resolve(tmp_path) == BEST_OPTIONS  # 0.5 kept: the same bot
    stored = json.loads((tmp_path / "c_decision.json").read_text())
    stored["summary"]["chosen_c"] = None
    (tmp_path / "c_decision.json").write_text(json.dumps(stored))
    with pytest.raises(ValueError, match="declare the next test"):
        registry.DECIDED_BOT.resolve(tmp_path)


def test_equal_time_counts_are_read_from_the_stored_benchmark():
    counts = equal_time_counts()
    assert counts["iterations"] == registry.EQUAL_TIME_ITERATIONS
    assert counts["simulations"] == registry.EQUAL_TIME_SIMULATIONS
    assert 80 < counts["ours_ms"] < 125 and 80 < counts["openspiel_ms"] < 125
    assert counts["ten_times_openspiel_ms"] > 5 * counts["ten_times_ours_ms"]


def test_gains_without_timed_matches_hold_only_iteration_budgets():
    timed = gains_by_budget()
    untimed = gains_by_budget(timed=False)
    assert any(point["unit"] == "ms" for point in timed["reuse"])
    assert all(point["unit"] == "iters" for points in untimed.values() for point in points)
    with pytest.raises(ValueError, match="timed"):
        gains_by_budget(timed="no")


def test_letters_read_the_games_of_a_pair_match():
    a, b = bots()
    match = play_pairs(a, b, _openings(4, 2, 5, "codingame"), 4, np.random.SeedSequence(5))
    assert len(letters(match.records)) == 4
    assert load_experiment("budget").comparisons  # the stored results are where they were


def test_a_progress_line_cut_short_by_a_stopped_run_is_played_again(tmp_path):
    progress = tmp_path / "c_decision.pairs.jsonl"
    fresh = c_decision_experiment(challengers=(0.6,), iterations=100, max_games=4)
    c_decision_experiment(challengers=(0.6,), iterations=100, max_games=2, progress=progress)
    with progress.open("a") as file:
        file.write('{"label": "c=0.6 vs c=0.5 | cut sh')  # the run was stopped mid-line
    resumed = c_decision_experiment(challengers=(0.6,), iterations=100, max_games=4,
                                    progress=progress)
    assert resumed.comparisons[0].results == fresh.comparisons[0].results
