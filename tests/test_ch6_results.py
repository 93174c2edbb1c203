"""Chapter 6's results table holds only matches whose size was fixed before they started.

The table (``mctslib.experiments.enhancements.summary``) is what the chapter's verdicts cite by
row number. A match lengthened after a look is read at its first run's size only, a planned match
that is not stored is not a row, and the Markdown table the chapter shows says the same as the
rows. Chapter "Enhancements that matter".
"""

from mctslib.experiments.enhancements import rave, summary


def test_lengthened_matches_are_read_at_their_first_runs_size():
    rows = {row.what: row for row in summary.results_table()}
    stored = {row["label"]: row["results"] for row in rave.load_experiment("uttt_20k").comparisons}
    assert len(stored["rave c=0.25 vs uct"]) == 400, "the stored file holds the lengthened match"
    row = rows["RAVE (c = 0.25) vs UCT"]
    assert row.games == summary.FIRST_RUN["rave c=0.25 vs uct"] == 200
    assert row.results == stored["rave c=0.25 vs uct"][:200]
    assert rows["MC-RAVE (c = 0) vs UCT"].results == stored["rave vs uct"]


def test_no_row_reads_a_planned_file_or_a_history_file():
    sources = [row.source for row in summary.results_table()]
    for planned in summary.PLANNED:
        assert planned not in sources
    history = ("hex_time", "uttt_time", "100ms", "100000it_part", "ms1000", "50000it",
               "hex_equal_cpu.json", "uttt_bot_equal_cpu.json")
    assert not [source for source in sources if any(name in source for name in history)]
    assert all(row.games in (200, 400, 1600) for row in summary.results_table())


def test_the_markdown_table_says_what_the_rows_hold():
    rows = summary.results_table()
    lines = summary.markdown_results(rows).splitlines()
    assert len(lines) == len(rows) + 2 and lines[0].startswith("| # | A against B")
    for number, (row, line) in enumerate(zip(rows, lines[2:]), start=1):
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        score, low, high = row.score
        assert cells[0] == str(number) and cells[1] == row.what
        assert cells[4] == "-".join(f"{n:,}" for n in row.counts)
        assert cells[5] == f"{score:.3f}" and cells[6] == f"{low:.3f} to {high:.3f}"
        assert cells[7] == ("-" if row.speed is None else f"{row.speed:.2f}")


def test_the_html_table_holds_the_markdown_tables_cells():
    rows = summary.results_table()
    html = summary.html_results(rows)
    assert html.count("<tr>") == len(rows) + 1 and html.count("<th ") == 8
    for row in rows:
        _, low, high = row.score
        assert f">{row.what}<" in html
        assert f">{low:.3f} to {high:.3f}<" in html


def test_rave_in_the_bot_rows_confirm_the_grids_winners_at_the_declared_sizes():
    grid = rave.load_experiment("uttt_bot_grid")
    assert len(grid.comparisons) == 12
    assert all(len(row["results"]) == rave.GRID_GAMES for row in grid.comparisons)
    winners = rave.grid_winners(grid)
    confirm = {row["label"]: row["results"]
               for row in rave.load_experiment("uttt_bot_confirm").comparisons}
    assert set(confirm) == {rave.grid_label(c, b, prior) for prior, (c, b) in winners.items()}
    rows = [row for row in summary.results_table()
            if row.source == "data/rave/uttt_bot_confirm.json"]
    assert sorted(row.results for row in rows) == sorted(confirm.values())
    assert all(row.games == rave.CONFIRM_GAMES for row in rows)


def test_the_follow_ups_play_the_prior_winner_at_the_declared_budgets():
    speeds = summary._speed("rave")
    equal = rave.BOT_EQUAL_CPU_ITERATIONS
    assert abs(equal - rave.BOT_ITERATIONS * speeds["uttt rave prior"]) < 100  # to the hundred
    c, bias, prior = rave._prior_winner()
    [alone] = rave._plans("uttt_bot_prior_only", None)
    assert not alone.a.amaf and alone.a.prior_visits == prior and alone.a.bot_spec.c == c
    assert alone.a.bot_spec.iterations == alone.b.iterations == rave.BOT_ITERATIONS
    [timed] = rave._plans("uttt_bot_equal_cpu_idle", None)
    assert timed.a.amaf and (timed.a.bias, timed.a.prior_visits) == (bias, prior)
    assert (timed.a.bot_spec.iterations, timed.b.iterations) == (equal, rave.BOT_ITERATIONS)
    rows = {row.source: row for row in summary.results_table()}
    for name, plan in (("uttt_bot_prior_only", alone), ("uttt_bot_equal_cpu_idle", timed)):
        [stored] = rave.load_experiment(name).comparisons
        assert stored["label"] == plan.label and len(stored["results"]) == plan.games == 200
        assert rows[f"data/rave/{name}.json"].results == stored["results"]
