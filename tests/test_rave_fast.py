"""The numba UCT / RAVE / GRAVE searches (mctslib.fast.hex_uct, mctslib.fast.uttt_rave) build
the readable RAVESearch's tree and AMAF tables for the same seed; the bots, the experiment
helpers (beta curves, the AMAF bias) and their input checks. Chapter "Enhancements that matter"."""

import inspect
import math
from itertools import pairwise

import pytest

from mctslib.bots.rave import RAVEBot, RAVESpec
from mctslib.experiments.enhancements import rave as exp
from mctslib.fast import hex as fh
from mctslib.fast import hex_uct, uttt_rave
from mctslib.fast import uttt as fu
from mctslib.fast.xorshift import new_rng
from mctslib.games.hex import Hex
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.search.rave import RAVESearch
from mctslib.search.uct import UCTSearch
from mctslib.xorshift import XorShift64


def fast_root(state, iterations, seed, use_amaf=True, c=0.0, schedule="mse", bias=0.1,
              equivalence=1000.0, ref=-1):
    if isinstance(state, Hex):
        s, kernel, moves, scoring = fh.to_array(state), hex_uct.search, state.size ** 2, 0
    else:
        s, kernel, moves = fu.to_array(state), uttt_rave.search, 81
        scoring = fu.scoring_code(state.scoring)
    pool = hex_uct.RAVEPool(1 + moves * iterations, iterations + 2 if use_amaf else 0, moves)
    work = hex_uct.work_arrays(s.shape[0], moves)
    sched = hex_uct.MSE if schedule == "mse" else hex_uct.HAND
    done = kernel(s, iterations, c, use_amaf, sched, bias, equivalence, ref, scoring, moves,
                  new_rng(seed), pool.used, *pool.arrays(), *work)
    assert done == iterations
    player = state.player_to_move
    return [(int(pool.move[i]), int(pool.visits[i]), float(pool.wins[i]))
            + (pool.amaf(0, player, int(pool.move[i])) if use_amaf else ())
            for i in pool.children(0)], pool


def readable_root(search, state, with_amaf=True):
    root = search.search(state)
    rows = []
    for child in root.children:
        row = (child.move, child.visits, child.wins)
        if with_amaf:
            stats = search.amaf.get(root, {}).get((state.player_to_move, child.move))
            row += (stats.visits, stats.wins) if stats else (0, 0.0)
        rows.append(row)
    return rows


HEX_CASES = [
    (Hex(4), 300, 7, {}),
    (Hex(4), 400, 2, {"exploration": 0.3, "bias": 0.3}),
    (Hex(5), 500, 3, {"rave": "grave", "ref": 10}),
    (Hex(5), 400, 5, {"schedule": "hand", "equivalence": 100.0, "exploration": 0.2}),
    (Hex.from_moves([12, 6], 5), 400, 11, {"rave": "grave", "ref": 0, "exploration": 0.1}),
]


@pytest.mark.parametrize("state, iterations, seed, options", HEX_CASES)
def test_hex_rave_and_grave_grow_the_readable_tree_and_amaf_tables(state, iterations, seed,
                                                                  options):
    readable = RAVESearch(iterations=iterations, seed=XorShift64(seed), **options)
    expected = readable_root(readable, state)
    got, pool = fast_root(state, iterations, seed, True, options.get("exploration", 0.0),
                          options.get("schedule", "mse"), options.get("bias") or 0.1,
                          options.get("equivalence") or 1000.0,
                          options.get("ref", 50) if options.get("rave") == "grave" else -1)
    assert got == expected
    # Deeper than the root: the node count and a grandchild table agree too.
    assert pool.used[1] == len(readable.amaf)


@pytest.mark.parametrize("size, seed, c", [(4, 1, 1.0), (5, 4, 0.4)])
def test_without_amaf_the_kernel_is_the_readable_uct(size, seed, c):
    expected = readable_root(UCTSearch(c, iterations=500, seed=XorShift64(seed)), Hex(size),
                             with_amaf=False)
    assert fast_root(Hex(size), 500, seed, False, c)[0] == expected
    # RAVE with beta always 0 (hand schedule, k = 0) is UCT too, draw for draw.
    with_tables = fast_root(Hex(size), 500, seed, True, c, "hand", 0.1, 0.0)[0]
    assert [row[:3] for row in with_tables] == expected


def test_uttt_rave_and_grave_grow_the_readable_tree_and_amaf_tables():
    state = UltimateTicTacToe().play(40)
    for seed, options in ((1, {}), (2, {"rave": "grave", "ref": 5, "exploration": 0.3}),
                          (3, {"schedule": "hand", "equivalence": 50.0})):
        readable = RAVESearch(iterations=200, seed=XorShift64(seed), **options)
        got = fast_root(state, 200, seed, True, options.get("exploration", 0.0),
                        options.get("schedule", "mse"), 0.1,
                        options.get("equivalence") or 1000.0,
                        options.get("ref", -1))[0]
        assert got == readable_root(readable, state)
    openspiel = UltimateTicTacToe(scoring="openspiel").play(40)
    uct = readable_root(UCTSearch(0.5, iterations=200, seed=XorShift64(6)), openspiel, False)
    assert fast_root(openspiel, 200, 6, False, 0.5)[0] == uct


def test_the_uttt_kernel_is_a_verbatim_copy_of_the_hex_kernel():
    def kernel(module):
        source = inspect.getsource(module)
        return source[source.index("# ---- the kernel"):]

    assert kernel(uttt_rave) == kernel(hex_uct)


def test_a_full_table_pool_stops_new_tables_and_the_search_still_runs():
    small = hex_uct.RAVEPool(2000, 5, 25)
    work = hex_uct.work_arrays(fh.state_size(5), 25)
    s = fh.new_state(5)
    assert hex_uct.search(s, 300, 0.0, True, hex_uct.MSE, 0.1, 0.0, -1, 0, 25, new_rng(1),
                          small.used, *small.arrays(), *work) == 300
    assert small.used[1] == 5 and small.used[0] <= 2000
    assert sum(small.visits[i] for i in small.children(0)) == 300


def test_bad_pool_sizes_are_refused_with_a_sentence():
    with pytest.raises(ValueError, match="capacity \\(nodes in the pool\\) must be"):
        hex_uct.RAVEPool(1, 0, 49)
    with pytest.raises(ValueError, match="tables \\(AMAF tables in the pool\\) must be"):
        hex_uct.RAVEPool(100, -1, 49)
    with pytest.raises(ValueError, match="moves \\(distinct moves of the game\\) must be"):
        hex_uct.RAVEPool(100, 0, 0)


def test_bots_play_hex_and_uttt_with_both_budgets():
    hex_bot = RAVESpec("hex", "grave", iterations=300)(seed=1)
    move = hex_bot.choose(Hex(5))
    assert move in Hex(5).legal_moves() and hex_bot.iterations_done == 300
    assert sum(v for _, v, _ in hex_bot.root_stats()) == 300
    timed = RAVESpec("uttt", "rave", iterations=None, ms=5.0)(seed=2)
    assert timed.choose(UltimateTicTacToe()) in range(81) and timed.iterations_done >= 256
    # The same seed gives the same move; the bot matches the readable search's answer.
    state = Hex.from_moves([6], 4)
    bot = RAVEBot(RAVESpec("hex", "rave", c=0.2, iterations=400), XorShift64(5))
    readable = RAVESearch(0.2, iterations=400, seed=XorShift64(5))
    assert bot.choose(state) == readable.choose(state)


@pytest.mark.parametrize("options, message", [
    ({"game": "go"}, "game must be one of"),
    ({"kind": "mcts"}, "kind must be one of"),
    ({"c": -1.0}, "c \\(the exploration constant\\) must be"),
    ({"bias": 2.0}, "bias \\(b\\) must be"),
    ({"equivalence": -5.0}, "equivalence \\(k\\) must be"),
    ({"ref": -1}, "ref must be"),
    ({"iterations": 0}, "iterations must be"),
    ({"iterations": None}, "exactly one budget"),
    ({"iterations": None, "ms": 0.0}, "ms \\(milliseconds per move\\) must be above 0"),
    ({"capacity": 10}, "capacity \\(nodes in the pool\\) must be"),
])
def test_bad_bot_options_are_refused_with_a_sentence(options, message):
    with pytest.raises(ValueError, match=message):
        RAVESpec(**options)


def test_a_bot_refuses_the_wrong_game_and_finished_games():
    with pytest.raises(ValueError, match="plays Hex"):
        RAVESpec("hex")(seed=1).choose(UltimateTicTacToe())
    with pytest.raises(ValueError, match="Ultimate Tic-Tac-Toe"):
        RAVESpec("uttt")(seed=1).choose(Hex(3))
    with pytest.raises(ValueError, match="finished game"):
        RAVESpec("hex", iterations=10)(seed=1).choose(Hex.from_moves([0, 1, 2], 2))
    with pytest.raises(ValueError, match="spec must be"):
        RAVEBot("rave")


def test_beta_curves_fall_from_one_and_more_bias_falls_faster():
    curves = exp.beta_curves([1, 10, 100, 1000], biases=(0.05, 0.5), equivalences=(100.0,))
    low, high, hand = (curves.curves[k] for k in ("mse b=0.05", "mse b=0.5", "hand k=100"))
    assert all(a > b for a, b in pairwise(low)) and all(a > b for a, b in pairwise(hand))
    assert all(h < low_ for h, low_ in zip(high[1:], low[1:]))
    assert hand[2] == pytest.approx(math.sqrt(100 / 400))
    with pytest.raises(ValueError, match="visits must be"):
        exp.beta_curves([0])
    with pytest.raises(ValueError, match="bias \\(b\\) must be"):
        exp.beta_curves(biases=(1.5,))
    with pytest.raises(ValueError, match="amaf_per_visit must be"):
        exp.beta_curves(amaf_per_visit=0.5)


def test_amaf_bias_blends_from_amaf_to_the_real_mean():
    result = exp.amaf_bias(Hex(4), checkpoints=(50, 2000), reference_iterations=500)
    assert len(result.moves) == 16 and sorted(result.moves) == list(range(16))
    first, last = result.beta, result.blended
    for i in range(16):  # beta falls as a move gains visits
        if result.visits[0][i] > 0:
            assert result.beta[-1][i] < result.beta[0][i]
    for i in range(16):
        n, mean, amaf, beta = (result.visits[-1][i], result.mean[-1][i], result.amaf[-1][i],
                               result.beta[-1][i])
        if n:
            assert last[-1][i] == pytest.approx((1 - beta) * mean + beta * amaf)
    assert all(0.0 <= v <= 1.0 for v in result.reference) and first
    with pytest.raises(ValueError, match="ascending"):
        exp.amaf_bias(Hex(4), checkpoints=(100, 50))
    with pytest.raises(ValueError, match="Hex position"):
        exp.amaf_bias(UltimateTicTacToe())


def test_openings_and_experiment_names_are_checked():
    openings = exp.hex_openings(5, 2, 7, seed=3)
    assert len(set(openings)) == 5 and all(o.stone_count(0) == 1 for o in openings)
    assert openings == exp.hex_openings(5, 2, 7, seed=3)
    with pytest.raises(ValueError, match="count \\(openings\\) must be"):
        exp.hex_openings(0)
    with pytest.raises(ValueError, match="name \\(experiment\\) must be one of"):
        exp.run_experiment("chess")
    with pytest.raises(ValueError, match="only \\(a comparison label\\) must be one of"):
        exp.run_experiment("hex_10k", only="nothing")


def test_a_comparison_replays_game_for_game(tmp_path):
    stored = exp.run_experiment("hex_quick", games=4, directory=tmp_path)
    assert len(stored.comparisons) == 2 and len(stored.comparisons[0]["results"]) == 4
    again, replayed = exp.replay("hex_quick", "grave vs uct", 3, directory=tmp_path)
    assert again == replayed
