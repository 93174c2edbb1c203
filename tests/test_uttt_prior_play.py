"""Stored matches of the UCT bot with the network's bias against the UCT bot (chapter 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mctslib.experiments.puct import prior_play as play

STORED = Path(__file__).resolve().parent.parent / "data" / "network" / "uttt_mlp.npz"


def test_a_stored_part_repeats_letter_for_letter_and_parts_combine(tmp_path, capsys):
    common = ["match", "--iters", "60", "--bias", "8", "--bias-visits", "4",
              "--weights", str(STORED), "--data", str(tmp_path)]
    assert play.main([*common, "--games", "4", "--part", "1"]) == 0
    assert play.main([*common, "--games", "2", "--part", "0"]) == 0
    assert "written to" in capsys.readouterr().out
    name = "uttt_prior60it_bias8_k4_vs_uct60it_part1.json"
    path = play.part_path(60, 1, bias=8, bias_visits=4, data=tmp_path)
    assert path == tmp_path / name and path.exists()
    stored = play.load_part(path)
    assert stored.a["spec"] == stored.b["spec"] and "iters=60" in stored.b["spec"]
    assert stored.a["bias"] == 8 and stored.a["bias_visits"] == 4 and not stored.a["timed"]
    assert len(stored.a["weights_sha256"]) == 64
    again = play.play_part(60, 4, 1, bias=8, bias_visits=4, weights=STORED)
    assert again.results == stored.results and again.a == stored.a
    total = play.load_match(60, bias=8, bias_visits=4, data=tmp_path)
    first = play.load_part(play.part_path(60, 0, bias=8, bias_visits=4, data=tmp_path))
    assert total["parts"] == [0, 1] and total["games"] == 6
    assert total["results"] == first.results + stored.results
    # another bias is another match
    (tmp_path / "other.json").write_text(play.play_part(60, 2, 2, bias=1, bias_visits=4,
                                                        weights=STORED).to_json())
    with pytest.raises(ValueError, match="not of the same match"):
        play.load_match(paths=[path, tmp_path / "other.json"])


def test_a_timed_match_is_marked_and_measured():
    part = play.play_part(games=2, ms=5, weights=STORED)
    assert part.a["timed"] and part.b["timed"] and part.a["ms"] == part.b["ms"] == 5
    assert part.a["iterations"] is None and "first_ms=5" in part.b["spec"]
    assert any("UCT+bias" in note for note in part.notes)
    assert all(0.004 < seconds < 0.5 for seconds in part.seconds_per_move)
    assert play.part_path(ms=5).name == "uttt_prior5ms_bias8_k32_vs_uct5ms_part0.json"


def test_the_uct_bot_can_have_other_iterations(tmp_path):
    part = play.play_part(40, 2, 0, uct_iterations=90, bias=8, bias_visits=4, weights=STORED)
    assert part.a["iterations"] == 40 and "iters=40" in part.a["spec"]
    assert part.b["iterations"] == 90 and "iters=90" in part.b["spec"]
    assert part.b["label"] == "UCT 90it"
    path = play.part_path(40, 0, uct_iterations=90, bias=8, bias_visits=4, data=tmp_path)
    assert path.name == "uttt_prior40it_bias8_k4_vs_uct90it_part0.json"
    path.write_text(part.to_json())
    assert play.load_match(40, uct_iterations=90, bias=8, bias_visits=4,
                           data=tmp_path)["games"] == 2
    with pytest.raises(ValueError, match="no stored part"):  # equal iterations: another match
        play.load_match(40, bias=8, bias_visits=4, data=tmp_path)


@pytest.mark.parametrize("kwargs, words", [
    ({"uct_iterations": 0}, "uct_iterations"),
    ({"iterations": None, "ms": 10, "uct_iterations": 100}, "uct_iterations must be None"),
    ({"iterations": 100, "ms": 10}, "not both"),
    ({"iterations": 0}, "iterations"),
    ({"bias": -1}, "bias"),
    ({"bias_visits": 0}, "bias_visits"),
    ({"games": 1}, "games"),
    ({"part": 1000}, "part"),
    ({"uct_c": -0.5}, "uct_c"),
    ({"weights": "missing.npz"}, "weights"),
])
def test_bad_arguments_are_named(kwargs, words):
    arguments = {"iterations": 10, "games": 2, "weights": STORED, **kwargs}
    if "ms" in kwargs:
        arguments["iterations"] = kwargs["iterations"]
    with pytest.raises(ValueError, match=words):
        play.play_part(**arguments)


def test_bad_load_arguments_are_named(tmp_path):
    with pytest.raises(ValueError, match="no stored part matches"):
        play.load_match(5000, data=tmp_path)
    with pytest.raises(ValueError, match="tag"):
        play.load_match(5000, tag="../x")
    with pytest.raises(ValueError, match="bias_visits"):
        play.part_path(5000, bias_visits=0)
