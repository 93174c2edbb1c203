"""Arena bots on a tree or a DAG, the stored transposition matches and memory, widening data."""

import dataclasses
import json

import numpy as np
import pytest

from mctslib.bots.transpositions import DagBot, DagSpec
from mctslib.experiments.enhancements import transpositions as tx
from mctslib.experiments.enhancements import widening as wx
from mctslib.games.connect_four import ConnectFour
from mctslib.games.continuous import ContinuousBanditTree
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.play.arena import play_match

# --- bots -------------------------------------------------------------------------------------

def test_bot_plays_legal_moves_and_is_reproducible():
    for game, state in (("connect_four", ConnectFour.from_moves([3])),
                        ("uttt", UltimateTicTacToe.from_moves([40]))):
        for table in (False, True):
            spec = DagSpec(game=game, table=table, iterations=300)
            moves = {spec(seed=np.random.default_rng(4)).choose(state) for _ in range(2)}
            assert len(moves) == 1 and moves.pop() in state.legal_moves()


def test_bot_records_its_search():
    bot = DagSpec(iterations=2000)(seed=np.random.default_rng(1))
    bot.choose(ConnectFour())
    assert bot.last_iterations == 2000 and bot.last_transpositions > 0
    assert bot.last_edges > bot.last_nodes - 1  # a DAG: more edges than a tree's
    assert bot.full_searches == 0


def test_bot_with_a_time_budget_runs_whole_chunks():
    bot = DagSpec(iterations=None, ms=5.0)(seed=np.random.default_rng(1))
    bot.choose(ConnectFour())
    assert bot.last_iterations > 0 and bot.last_iterations % 256 == 0


@pytest.mark.parametrize("kwargs, words", [
    ({"game": "chess"}, "game must be one of"),
    ({"rule": "uct4"}, "rule must be one of"),
    ({"c": -1.0}, "c (the exploration constant)"),
    ({"iterations": 0}, "iterations (per move)"),
    ({"iterations": None}, "give exactly one budget"),
    ({"iterations": 10, "ms": 5.0}, "give exactly one budget"),
    ({"iterations": None, "ms": 0.0}, "ms (milliseconds per move) must be above 0"),
    ({"capacity": 5}, "capacity (nodes in the pool)"),
    ({"table": "yes"}, "table"),
    ({"scoring": "fifa"}, "scoring must be one of"),
])
def test_spec_checks_say_what_is_wrong(kwargs, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        DagSpec(**kwargs)


def test_bot_refuses_another_game_and_a_finished_one():
    bot = DagSpec(iterations=10)(seed=np.random.default_rng(1))
    with pytest.raises(ValueError, match="ConnectFour position"):
        bot.choose(UltimateTicTacToe())
    with pytest.raises(ValueError, match="finished game"):
        bot.choose(ConnectFour.from_moves([0, 1, 0, 1, 0, 1, 0]))
    with pytest.raises(ValueError, match="spec must be a DagSpec"):
        DagBot("uct", 1)


def test_bots_play_a_match_in_the_arena():
    a, b = DagSpec(iterations=200), DagSpec(iterations=200, table=False)
    result = play_match(a, b, ConnectFour(), 4, seed=3)
    assert result.games == 4


# --- stored matches ---------------------------------------------------------------------------

def test_connect_four_openings_are_distinct_and_reproducible():
    first = tx.connect_four_openings(30, 4, 7)
    assert len(set(first)) == 30 and first == tx.connect_four_openings(30, 4, 7)
    assert all(sum(s.disc_count(p) for p in (0, 1)) <= 4 for s in first)
    with pytest.raises(ValueError, match="plies"):
        tx.connect_four_openings(3, 9)


def test_a_part_replays_game_for_game_and_parts_combine(tmp_path):
    small = tx.play_part("connect_four", 100, games=4, part=0, seed=5)
    again = tx.play_part("connect_four", 100, games=2, part=0, seed=5)
    assert again.results == small.results[:2]  # the notebook's check of a stored match
    path = tx.part_path("connect_four", "100it", 0, tmp_path)
    path.write_text(small.to_json())
    loaded = tx.load_part(path)
    assert loaded == small
    other = tx.play_part("connect_four", 100, games=2, part=1, seed=5)
    total = tx.combine([loaded, other])
    assert total["games"] == 6 and total["parts"] == [0, 1]
    assert total["wins"] == small.wins + other.wins
    # Every game's letter, parts in the order of their numbers whatever order they come in.
    assert total["results"] == small.results + other.results
    assert tx.combine([other, loaded]) == total
    assert [total["results"].count(x) for x in "WDL"] == [total[k] for k in
                                                          ("wins", "draws", "losses")]
    (tmp_path / "x").mkdir()
    tx.part_path("connect_four", "100it", 1, tmp_path / "x").write_text(other.to_json())
    tx.part_path("connect_four", "100it", 0, tmp_path / "x").write_text(small.to_json())
    assert tx.load_match("connect_four", "100it", tmp_path / "x") == total
    with pytest.raises(ValueError, match="no stored part"):
        tx.load_match("uttt", "100it", tmp_path / "x")
    with pytest.raises(ValueError, match="parts repeat"):
        tx.combine([small, small])
    with pytest.raises(ValueError, match="not of the same match"):
        tx.combine([small, tx.play_part("connect_four", 50, games=2, part=2, seed=5)])
    cut = dataclasses.replace(other, part=3, results=other.results[:1])  # a letter lost
    with pytest.raises(ValueError, match="results hold 5 letters for 6 games"):
        tx.combine([small, cut])
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(ValueError, match="does not hold a MatchPart"):
        tx.load_part(tmp_path / "bad.json")


def test_a_parts_letters_are_the_arenas_records():
    part = tx.play_part("connect_four", 60, games=6, part=0, seed=3)
    c = tx.DEFAULT_C["connect_four"]
    a = DagSpec(game="connect_four", table=True, rule="uct2", c=c, iterations=60)
    b = DagSpec(game="connect_four", table=False, rule="uct2", c=c, iterations=60)
    match = play_match(a, b, tx.openings("connect_four", 3, 4, 3, 0), 6,
                       seed=np.random.SeedSequence(3, spawn_key=(0,)))
    assert part.results == "".join({1.0: "W", 0.5: "D", 0.0: "L"}[r.result_for_a]
                                   for r in match.records)
    assert (part.wins, part.draws, part.losses) == (match.wins, match.draws, match.losses)


def test_play_part_checks():
    with pytest.raises(ValueError, match="games"):
        tx.play_part(games=1)
    with pytest.raises(ValueError, match="part"):
        tx.play_part(part=-1)
    with pytest.raises(ValueError, match="give exactly one budget"):
        tx.play_part(iterations=None, games=2)


def test_memory_experiment_counts_shared_nodes():
    result = tx.memory_experiment("connect_four", 3000, plies=(0, 8), per_ply=2)
    assert len(result.rows) == 4
    for row in result.rows:
        assert row["dag_nodes"] < row["tree_nodes"] and row["transpositions"] > 0
        assert row["tree_nodes"] - 1 <= row["dag_edges"]
    assert 0 < result.summary["node_ratio"] < 1
    json.loads(result.to_json())


# --- widening ---------------------------------------------------------------------------------

def test_regret_experiment_points():
    result = wx.regret_experiment((50, 200), (5,), seeds=3, seed=1)
    assert [p["method"] for p in result.points] == ["widening"] * 2 + ["grid 5"] * 2
    grid = result.points[3]
    # A grid's line can do no better than its floor.
    assert grid["line_regret"] >= grid["grid_floor"] - 1e-12
    for p in result.points:
        low, high = p["regret_interval_95"]
        assert low <= p["regret"] <= high
    # Fixed peak: every run's grid has the same floor, the default problem's.
    fixed = wx.regret_experiment((50,), (5,), seeds=3, seed=1, random_peak=False)
    assert fixed.points[1]["grid_floor"] == 1.0 - ContinuousBanditTree().grid_optimum(5)
    assert grid["grid_floor"] != fixed.points[1]["grid_floor"]  # random peaks: another mean
    with pytest.raises(ValueError, match="random_peak"):
        wx.regret_experiment((50,), (5,), seeds=3, random_peak="yes")
    with pytest.raises(ValueError, match="budgets"):
        wx.regret_experiment((), (5,))
    with pytest.raises(ValueError, match="seeds"):
        wx.regret_experiment((10,), (5,), seeds=1)


def test_children_follow_the_widening_limit():
    result = wx.children_over_time(300, ((1.0, 0.5), (0.5, 0.75)))
    for curve in result.curves:
        assert curve["children"] == curve["limit"]  # k * alpha <= 1: one child per step
    with pytest.raises(ValueError, match="pair"):
        wx.children_over_time(10, ((1.0,),))
