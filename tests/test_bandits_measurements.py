"""Chapter 2's stored measurements (data/bandits/): they re-run, and the bandit stands for the search."""

import json
import math

import pytest

from mctslib.experiments.bandits.measurements import (
    C_SWEEP_PATH,
    best_move_arms,
    check_best_move,
    check_c_sweep,
    load_best_move,
    load_c_sweep,
    main,
)
from mctslib.games import TicTacToe
from mctslib.learners.ucb1 import SQRT2
from mctslib.search.flat import flat_monte_carlo
from mctslib.search.flat_ucb import flat_ucb

STORED_SWEEP = load_c_sweep()
STORED_BEST = load_best_move()


def test_the_stored_c_sweep_reruns_at_its_shortest_horizon():
    check_c_sweep(STORED_SWEEP)


def test_the_stored_best_move_counts_rerun_at_the_smallest_budget():
    check_best_move(STORED_BEST)


def test_the_opening_has_the_centre_as_its_best_move():
    moves, arms, best = best_move_arms("XO./.../...")
    assert moves == (2, 3, 4, 5, 6, 7, 8) and moves[best] == 4
    assert STORED_BEST.best_move == 4
    assert [round(m, 4) for m in arms.means] == [0.6194, 0.7083, 0.8583, 0.6611, 0.7833,
                                                 0.7333, 0.7361]


def within(share, stored, seeds, stored_seeds):
    # The two shares differ by less than 4.5 standard errors of their difference.
    error = math.sqrt(stored * (1 - stored) * (1 / seeds + 1 / stored_seeds))
    return abs(share - stored) < 4.5 * max(error, 1e-9)


@pytest.mark.parametrize("c_index", [0, 1])
def test_flat_ucb_with_real_playouts_plays_the_centre_as_often_as_the_bandit(c_index):
    # A playout after a move is a draw from that move's outcome chances, so flat UCB on the
    # position and UCB1 on the stored arms choose alike in distribution.
    position, budget, seeds = TicTacToe.from_string("XO./.../..."), STORED_BEST.budgets[2], 300
    c = STORED_BEST.c_values[c_index]
    share = sum(flat_ucb(position, budget, seed, c=c).best_move == 4 for seed in range(seeds)) / seeds
    stored = STORED_BEST.flat_ucb_share(c_index)[2]
    assert within(share, stored, seeds, STORED_BEST.runs), (share, stored)


def test_flat_monte_carlo_with_real_playouts_plays_the_centre_at_its_exact_chance():
    position, seeds = TicTacToe.from_string("XO./.../..."), 300
    per_move = STORED_BEST.budgets[2] // 7
    share = sum(flat_monte_carlo(position, per_move, seed).best_move == 4
                for seed in range(seeds)) / seeds
    assert within(share, STORED_BEST.flat_mc[2], seeds, 10**9)


def test_the_stored_files_say_what_they_hold():
    assert STORED_SWEEP.horizons == [1_000, 10_000, 100_000]
    assert STORED_SWEEP.runs == 1_000 and len(STORED_SWEEP.c_values) == 7
    assert abs(STORED_SWEEP.c_values[-1] - SQRT2) < 1e-12
    assert len(STORED_SWEEP.curve_mean) == 7 and STORED_SWEEP.curve_pulls[-1] == 100_000
    assert STORED_BEST.runs == 4_000 and STORED_BEST.budgets[0] == 28


def test_a_file_that_still_calls_the_wrong_arm_count_stuck_reads_the_same(tmp_path):
    stored = json.loads(C_SWEEP_PATH.read_text())
    for rows in stored["tails"].values():
        for row in rows:
            row["stuck"] = row.pop("wrong_arm")
    (tmp_path / "old.json").write_text(json.dumps(stored))
    assert load_c_sweep(tmp_path / "old.json") == STORED_SWEEP
    assert [row["wrong_arm"] for row in STORED_SWEEP.tails["1000"]] == [288, 104, 23, 3, 0, 2, 2]
    assert "runs on a wrong arm" in STORED_SWEEP.format().splitlines()[0]


def test_a_missing_file_gets_a_sentence(tmp_path):
    with pytest.raises(ValueError, match="python -m mctslib.experiments.bandits.measurements"):
        load_c_sweep(tmp_path / "nothing.json")
    (tmp_path / "broken.json").write_text("{")
    with pytest.raises(ValueError, match="is not JSON"):
        load_best_move(tmp_path / "broken.json")


def test_the_command_refuses_an_unknown_measurement():
    with pytest.raises(SystemExit):
        main(["--only", "everything"])
