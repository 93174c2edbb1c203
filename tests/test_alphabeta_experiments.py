"""The alpha-beta vs MCTS match: reproducible with node/iteration budgets, parts, turning points."""

from __future__ import annotations

import pytest

from mctslib.experiments.enhancements.alphabeta import (
    DATA_DIR,
    AlphaBetaMatch,
    alphabeta_spec_for,
    alphabeta_wins,
    compare_weights,
    eval_probability,
    load_match,
    main,
    mcts_spec_for,
    merge_parts,
    play_alphabeta_match,
    positions,
    rerun,
    same_games,
    turning_point,
)
from mctslib.fast.uttt_alphabeta import WIN_SCORE

AB, MCTS = "alphabeta:nodes=3000,depth=81", "uct:c=0.5,iters=300,wins=on,solver=on,capacity=20000"


@pytest.fixture(scope="module")
def match() -> AlphaBetaMatch:
    return play_alphabeta_match(4, scoring="openspiel", seed=3, alphabeta=AB, mcts=MCTS)


def test_match_is_reproducible_and_replays(match):
    again = play_alphabeta_match(4, scoring="openspiel", seed=3, alphabeta=AB, mcts=MCTS,
                                 first_game=2)
    assert [r["moves"] for r in again.records] == [r["moves"] for r in match.records[2:]]
    assert match.wins + match.draws + match.losses == 4 and len(match.results) == 4
    assert match.overrun_ms == {}  # no time budgets: nothing to overrun
    for record in match.records:
        states = positions(record, "openspiel")
        assert states[-1].is_terminal()
        assert states[-1].result(0 if record["alphabeta_first"] else 1) == record["result"]
        assert len(record["values"]) == len(record["moves"]) == len(record["work"])


def test_rerun_repeats_stored_games(match):
    again = rerun(match, 1, 2)
    assert same_games(match, again) and len(again.records) == 2
    with pytest.raises(ValueError, match="match must be an AlphaBetaMatch"):
        rerun("data.json")


def test_parts_merge_to_the_whole(match, tmp_path):
    halves = [play_alphabeta_match(4, scoring="openspiel", seed=3, alphabeta=AB, mcts=MCTS,
                                   first_game=a, last_game=b) for a, b in ((0, 1), (2, 3))]
    paths = []
    for number, half in enumerate(halves):
        path = tmp_path / f"part{number}.json"
        path.write_text(half.to_json())
        paths.append(path)
    merged = merge_parts(paths)
    def games(result):  # everything but the thinking times
        return [{k: v for k, v in r.items() if k != "seconds"} for r in result.records]
    assert games(merged) == games(match) and merged.results == match.results
    assert load_match(paths[0]) == halves[0]
    with pytest.raises(ValueError, match="overlap"):
        merge_parts([paths[0], paths[0]])


def test_turning_point_and_wins(match):
    for record in match.records:
        point = turning_point(record, "openspiel", depth=3)
        if point is not None:
            assert point.state.player_to_move != (0 if record["alphabeta_first"] else 1)
            assert point.mcts_move in point.state.legal_moves()
            assert point.alphabeta_move in point.state.legal_moves()
            assert point.gap == pytest.approx(point.mcts_value - point.alphabeta_value)
    assert all(r["result"] == 1.0 for r in alphabeta_wins(match))


def test_command_line_writes_json(tmp_path, capsys):
    out = tmp_path / "m.json"
    assert main(["--games", "2", "--alphabeta", AB, "--mcts", MCTS, "--out", str(out)]) == 0
    assert load_match(out).games == 2
    assert "written to" in capsys.readouterr().out


def test_helpers_and_checks():
    assert eval_probability(WIN_SCORE - 3) == 1.0 and eval_probability(-(WIN_SCORE - 3)) == 0.0
    assert eval_probability(0) == 0.5
    assert mcts_spec_for(100) == ("uct:c=0.5,scale=01,ms=100,first_ms=100,wins=on,solver=on,"
                                  "reuse=on")
    assert alphabeta_spec_for(1000) == "alphabeta:ms=1000,first_ms=1000"
    with pytest.raises(ValueError, match="games must be a whole number"):
        play_alphabeta_match(0)
    with pytest.raises(ValueError, match="scoring must be one of"):
        play_alphabeta_match(2, scoring="chess")
    with pytest.raises(ValueError, match="first_game must be a whole number from 0 to 1"):
        play_alphabeta_match(2, first_game=5)
    with pytest.raises(ValueError, match="ms \\(milliseconds per move\\)"):
        mcts_spec_for(0)
    with pytest.raises(ValueError, match="does not hold a match"):
        load_match(__file__)


def test_compare_weights_is_reproducible():
    first = compare_weights((25, 60, 8, 3, 20), nodes=300, games=2, seed=4)
    again = compare_weights((25, 60, 8, 3, 20), nodes=300, games=2, seed=4)
    assert first.games == 2 and first.records == again.records
    with pytest.raises(ValueError, match="weights must be five whole numbers"):
        compare_weights((1, 2), nodes=300, games=2)


def test_turning_point_skips_moves_searched_after_a_proof():
    # Game 234 of the stored counted match: at ply 35 MCTS ran 1,004 of its 127,000 iterations
    # (its root was proven lost) and logged 0.813, the leftover mean of a lost move.
    stored = load_match(DATA_DIR / "nodes790k_vs_iters127k_codingame.json")
    record = next(r for r in stored.records if r["index"] == 234)
    every_move = turning_point(record, stored.scoring)
    assert every_move.ply == 35 and record["work"][35] < 127_000
    searched = turning_point(record, stored.scoring, iterations=127_000)
    assert searched is not None and searched.ply != 35
    assert record["work"][searched.ply] >= 127_000
    assert searched.gap <= every_move.gap
    with pytest.raises(ValueError, match="iterations"):
        turning_point(record, stored.scoring, iterations=0)


def test_records_are_checked():
    with pytest.raises(ValueError, match="record must be one game of a stored match"):
        positions({"moves": []})
    with pytest.raises(ValueError, match="record must be one game"):
        turning_point("game 3")
