"""Chapter "How a Legend bot gets its strength": its experiments, stored results and shown code.

The experiments of mctslib.experiments.uttt.legend at tiny budgets (same seed, same games;
the first games of a match do not depend on its length), and the code the chapter shows in
Markdown, which must be the library's code verbatim.
"""

import inspect
import re
import textwrap
from pathlib import Path

import nbformat
import pytest

from mctslib.experiments.uttt import legend
from mctslib.experiments.uttt.enhancements import TUNED_OPTIONS

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "06b_legend_bot.ipynb"


def test_today_is_chapter_5s_tuned_bot_and_variants_replace_keys():
    assert legend.TODAY == TUNED_OPTIONS
    spec = legend.variant(f"{TUNED_OPTIONS},iters=100", "bounds=on,fpu=1.2")
    assert spec.bounds and not spec.solver and spec.fpu == 1.2 and spec.iterations == 100
    assert legend.variant(f"{TUNED_OPTIONS},iters=100", "solver=on,c=0.7").c == 0.7
    with pytest.raises(ValueError):
        legend.variant(TUNED_OPTIONS, "bounds=on,solver=on")


def test_a_screen_repeats_and_its_first_games_do_not_depend_on_its_length():
    variants = {"tree_safe": ("tree_safe=on", 0.9)}
    short = legend.screen_experiment(variants, 200, 2, seed=3)
    long = legend.screen_experiment(variants, 200, 4, seed=3)
    assert long.comparisons[0].results[:2] == short.comparisons[0].results
    assert "tree_safe=on" in short.comparisons[0].a and "iters=180" in short.comparisons[0].a
    assert "iters=200" in short.comparisons[0].b


def test_a_grid_picks_the_best_value_per_key():
    result = legend.grid_experiment([("fpu", 0.8), ("fpu", 1.2)], 200, 2, seed=4)
    scores = {c.value: c.score for c in result.comparisons}
    best = result.summary["best"]["fpu"]
    assert best["score"] == max(scores.values())


def test_a_decision_stops_by_the_test_or_at_the_cap():
    result = legend.decision_experiment("c=0.5,iters=1", TUNED_OPTIONS, 150, 150, 4, seed=5,
                                        openings=0)
    test = result.summary["tests"][0]
    assert result.comparisons[0].games == 4 or test["decision"] is not None
    assert result.parameters["openings"] == 0


def test_a_timed_decision_puts_both_bots_on_the_clock_and_says_it_cannot_repeat():
    result = legend.decision_experiment("c=0.5", TUNED_OPTIONS, None, None, 2, seed=5, ms=3)
    a, b = (result.comparisons[0].a, result.comparisons[0].b)
    assert "ms=3" in a and "ms=3" in b and "iters=" not in a + b
    assert not result.reproducible and result.comparisons[0].games == 2
    for counts, ms, words in [((100, None), None, "both iteration counts"),
                              ((100, 100), 3, "no counts"), ((None, None), None, "ms")]:
        with pytest.raises(ValueError, match=words):
            legend.decision_experiment("c=0.5", TUNED_OPTIONS, *counts, 2, ms=ms)
    with pytest.raises(ValueError, match="first_factor"):
        legend.decision_experiment("c=0.5", TUNED_OPTIONS, None, None, 2, ms=3, first_factor=10)


def test_the_default_bots_are_the_combination_the_declared_test_accepted():
    from mctslib.bots.uttt import parse_spec
    from mctslib.cli.codingame import CODINGAME_SPEC
    from mctslib.cli.play import PLAY_SPEC
    from mctslib.experiments.uttt.results import _without_budget

    stored = legend.load("combination")
    assert stored.summary["tests"][0]["decision"] == "H1"
    accepted = _without_budget(parse_spec(stored.comparisons[0].a))
    assert _without_budget(parse_spec(stored.comparisons[0].b)) != accepted
    for spec in (CODINGAME_SPEC, PLAY_SPEC):
        assert _without_budget(parse_spec(spec)) == accepted


def _shown_code(notebook):
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            yield from re.findall(r"```python\n(.*?)```", cell.source, flags=re.DOTALL)


@pytest.mark.skipif(not NOTEBOOK.exists(), reason="the chapter is being written")
def test_code_the_chapter_shows_is_the_librarys_code():
    from mctslib.fast import uttt as engine
    from mctslib.fast import uttt_ladder, uttt_toolbox
    from mctslib.search import uttt_toolbox as readable

    sources = "\n".join(inspect.getsource(module) for module in
                        (engine, uttt_ladder, uttt_toolbox, readable))
    blocks = list(_shown_code(nbformat.read(NOTEBOOK, as_version=4)))
    assert blocks
    for block in blocks:  # dedented: a block inside a Markdown list item is indented
        for line in textwrap.dedent(block).strip("\n").splitlines():
            if line.strip() and not line.strip().startswith("#"):
                assert line.rstrip() in sources, f"shown but not in the library: {line!r}"


# ------------------------------------------------------------ the stored runs the chapter reads


def test_the_speed_ladder_is_read_rung_by_rung_in_the_ladders_order():
    import json

    stored = json.loads((legend.BENCHMARK_RESULTS / "speed_ladder.json").read_text())
    rates = legend.speed_ladder()
    assert [rung for rung in rates if rung in stored["ladder"]] == stored["ladder"]
    assert set(rates) - set(stored["ladder"]) == {"make/unmake"}  # the side step
    for rung, positions in rates.items():
        assert set(positions) == {"empty board", "mid-game"}
        for position, rate in positions.items():
            assert rate == stored["rates_per_cpu_second"][f"{rung} | {position}"] > 0


def test_the_toolbox_ratios_are_the_ratio_column_of_the_stored_run():
    ratios = legend.toolbox_ratios()
    assert list(ratios) == ["fpu=0.6", "fpu=0.9", "fpu=1.2", "bounds", "tree_safe",
                            "playout=safe", "mast=0.2", "mast=0.5", "mast=0.8"]
    text = (legend.BENCHMARK_RESULTS / "toolbox_speed.txt").read_text()
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] in ratios:
            today, tool = (float(x.replace(",", "")) for x in parts[2:4])
            assert abs(tool / today - ratios[parts[0]]) < 0.0006  # the column, not another


def test_predicted_elo_sums_the_doublings_it_covers():
    curve = [(1000, 100.0), (2000, 50.0)]
    assert legend.predicted_elo(500, 1000, curve) == 100.0
    assert legend.predicted_elo(1000, 2000, curve) == 50.0
    assert legend.predicted_elo(500, 2000, curve) == 150.0
    assert legend.predicted_elo(2000, 8000, curve) == 100.0  # beyond the last: its Elo
    assert legend.predicted_elo(2000, 500, curve) == -150.0
    with pytest.raises(ValueError, match="low and high"):
        legend.predicted_elo(0, 100, curve)


def test_the_results_table_reads_each_tools_stored_comparisons():
    rows = legend.results_table()
    ratios = legend.toolbox_ratios()
    assert [row["tool"] for row in rows] == [row[0] for row in legend.TABLE_ROWS]
    for row, (_, key, grid, screen) in zip(rows, legend.TABLE_ROWS):
        assert row["speed"] == (None if key is None else ratios[key])
        if grid is not None:
            assert row["grid"] == legend.load("tool_grid").comparison(grid)
        if screen is not None:
            stored = legend.load(screen[0])
            assert row["screen"] == stored.comparison(screen[1])
            assert row["screen"].games == stored.parameters["games"]  # finished, as declared


@pytest.mark.parametrize("name", ["screens", "screens_slow", "time_screen"])
def test_a_stored_screen_replays_its_first_games(name):
    # The first pair of each stored screen's first match, played again from its parameters.
    stored = legend.load(name)
    p = stored.parameters
    label, (extra, ratio) = next(iter(p["variants"].items()))
    again = legend.screen_experiment({label: (extra, ratio)}, p["iterations"], 2, seed=p["seed"],
                                     openings=p["openings"], first_factor=p["first_factor"])
    assert again.comparisons[0].a == stored.comparisons[0].a
    assert again.comparisons[0].results == stored.comparisons[0].results[:2]


def test_the_stored_grid_replays_its_first_games():
    stored = legend.load("tool_grid")
    key, value = stored.parameters["points"][0]
    again = legend.grid_experiment([(key, value)], stored.parameters["iterations"], 2,
                                   seed=stored.parameters["seed"])
    assert again.comparisons[0].results == stored.comparisons[0].results[:2]


def test_the_stored_combination_decision_replays_its_first_pair():
    # The counts decision repeats game for game: its first pair, played again from its file.
    from mctslib.bots.uttt import parse_spec
    from mctslib.experiments.uttt.results import _without_budget

    stored = legend.load("combination")
    c, p = stored.comparisons[0], stored.parameters
    a, b = parse_spec(c.a), parse_spec(c.b)
    again = legend.decision_experiment(_without_budget(a).removeprefix("uct:"),
                                       _without_budget(b).removeprefix("uct:"), a.iterations,
                                       b.iterations, 2, seed=p["seed"], openings=p["openings"])
    assert again.comparisons[0].a == c.a and again.comparisons[0].b == c.b
    assert again.comparisons[0].results == c.results[:2]


def test_a_decision_line_reads_a_sequential_verdict_and_a_fixed_size_run(tmp_path):
    sequential = legend.decision_experiment("c=0.5,iters=1", TUNED_OPTIONS, 150, 150, 4, seed=5,
                                            openings=0)
    sequential.save(tmp_path / "sequential.json")
    fixed = legend.decision_experiment("c=0.5,iters=1", TUNED_OPTIONS, 150, 150, 4, seed=5,
                                       openings=0, sequential=False)
    fixed.save(tmp_path / "fixed.json")
    c = fixed.comparisons[0]
    line = legend.decision_line("fixed", tmp_path)
    assert line.startswith("150 vs 150 iterations a move: fixed size, 4 games, ")
    assert f"{c.wins}-{c.draws}-{c.losses}, score {c.score:.3f}" in line
    verdict = sequential.summary["tests"][0]["decision"] or "no decision"
    assert f": {verdict} after {sequential.comparisons[0].games} games" in \
        legend.decision_line("sequential", tmp_path)
    stored = legend.decision_line("last_step")  # the chapter's fixed-size run
    assert "fixed size, 400 games" in stored and "H1" not in stored


def test_a_stored_openspiel_match_reads_back_with_consistent_counts():
    match = legend.openspiel_match("uttt_strength_best_factor1_tuned")
    assert (match["factor"], match["uct_c"], match["games"]) == (1.0, 1.4, 400)
    for scoring in ("openspiel", "codingame"):
        side = match[scoring]
        assert side["wins"] + side["draws"] + side["losses"] == match["games"]
        assert side["score"] == pytest.approx((side["wins"] + side["draws"] / 2) / match["games"])
        low, high = side["interval_95"]
        assert low < side["score"] < high
