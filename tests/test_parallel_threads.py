"""Real parallel UCT on threads (chapter 7): mctslib.fast.uttt_parallel and mctslib.bots.parallel.

One worker is the sequential search, node for node, in every mode; root and
leaf parallelism are deterministic; tree parallelism with two threads builds a
well-formed tree (every child list complete and legal) whatever the threads'
interleaving, with few updates lost; bad input gets ValueError sentences.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from mctslib.bots.parallel import MAX_WORKERS, ParallelBot, ParallelSpec
from mctslib.bots.uttt import BotSpec, UTTTBot
from mctslib.fast import uttt as engine
from mctslib.fast import uttt_parallel as fast
from mctslib.fast.uttt_uct import NodePool
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.play.arena import play_match

POSITION = UltimateTicTacToe.from_moves((40, 30, 10))
STATE = engine.to_array(POSITION)
SEED_STATE = int(engine.new_rng(5)[0])


def sequential_tree(iterations, c, wins_on, capacity=40_000):
    pool, worker = NodePool(capacity), fast.Worker(SEED_STATE)
    ran = fast.root_worker_search(STATE, iterations, c, wins_on, 0, pool, worker)
    assert ran == iterations
    return pool, worker


def same_nodes(pool, other, count):
    return all(np.array_equal(a[:count], b[:count]) for a, b in zip(pool.arrays(), other.arrays()))


@pytest.mark.parametrize("wins_on", [False, True])
@pytest.mark.parametrize("virtual_loss", [0, 1, 3])
def test_tree_kernel_with_one_thread_is_the_sequential_kernel(wins_on, virtual_loss):
    reference, ref_worker = sequential_tree(2_000, 0.7, wins_on)
    tree, worker = fast.SharedTree(40_000, 1), fast.Worker(SEED_STATE)
    tree.reset([worker])
    ran = fast.tree_search(STATE, 2_000, 0.7, virtual_loss, wins_on, 0, worker.rng, worker.region,
                           tree.capacity, *tree.pool.arrays(), worker.scratch, worker.path,
                           worker.buf, worker.scores, worker.copy)
    assert ran == 2_000
    assert tree.nodes([worker]) == reference.count
    assert same_nodes(tree.pool, reference, reference.count)
    assert worker.rng[0] == ref_worker.rng[0]
    assert fast.tree_drift(tree, ran) == 0


@pytest.mark.parametrize("wins_on", [False, True])
def test_leaf_kernel_with_one_playout_is_the_sequential_kernel(wins_on):
    # few iterations: a parallel region per iteration is slow on a busy machine
    reference, ref_worker = sequential_tree(300, 0.7, wins_on)
    pool, worker, rngs = NodePool(40_000), fast.Worker(0), fast.new_rngs([SEED_STATE])
    ran = fast.leaf_search(STATE, 300, 1, 0.7, wins_on, 0, rngs, pool.used, *pool.arrays(),
                           worker.scratch, worker.path, worker.buf, worker.scores,
                           np.zeros((1, engine.STATE_SIZE), np.int64), np.zeros((1, 81), np.int64),
                           np.zeros(1))
    assert ran == 300 and pool.count == reference.count
    assert same_nodes(pool, reference, reference.count)
    assert rngs[0, 0] == ref_worker.rng[0]


def leaf_tree(playouts, seed_states):
    pool, worker, rngs = NodePool(20_000), fast.Worker(0), fast.new_rngs(seed_states)
    fast.leaf_search(STATE, 200, playouts, 1.0, False, 0, rngs, pool.used, *pool.arrays(),
                     worker.scratch, worker.path, worker.buf, worker.scores,
                     np.zeros((playouts, engine.STATE_SIZE), np.int64),
                     np.zeros((playouts, 81), np.int64), np.zeros(playouts))
    return pool


def test_leaf_kernel_is_deterministic_and_counts_every_playout():
    states = [SEED_STATE + 2 * k for k in range(3)]
    first, second = leaf_tree(3, states), leaf_tree(3, states)
    assert first.count == second.count and same_nodes(first, second, first.count)
    assert first.visits[0] == 3 * 200
    children = list(first.children(0))
    assert sum(int(first.visits[c]) for c in children) == 3 * 200
    # the root's children's wins are whole playouts' rewards: multiples of 0.5, at most visits
    for c in children:
        assert 0.0 <= first.wins[c] <= first.visits[c] and (2 * first.wins[c]).is_integer()


def test_root_mode_with_one_worker_is_the_uttt_bot():
    for wins in (False, True):
        bot = UTTTBot(BotSpec(c=0.7, iterations=3_000, wins=wins), seed=11)
        move = bot.choose(POSITION)
        ours = ParallelSpec(mode="root", workers=1, iterations=3_000, c=0.7, wins=wins)(seed=11)
        assert ours.choose(POSITION) == move
        pool = ours.pools[0]
        assert [(int(pool.move[i]), int(pool.visits[i])) for i in pool.children(0)] == [
            (m, v) for m, v, _, _ in bot.root_stats()]
        assert ours.last.nodes == bot.last.nodes


def test_every_mode_with_one_worker_plays_the_same_move_and_tree_size():
    infos = []
    for mode in ("root", "tree", "leaf"):
        bot = ParallelSpec(mode=mode, workers=1, iterations=2_000, c=0.5)(seed=4)
        move = bot.choose(POSITION)
        infos.append((move, bot.last.nodes, bot.last.root_visits))
    assert infos[0] == infos[1] == infos[2]
    assert infos[0][2] == 2_000


def test_root_mode_is_deterministic_and_sums_the_trees():
    spec = ParallelSpec(mode="root", workers=3, iterations=1_500, c=0.7)
    a, b = spec(seed=8), spec(seed=8)
    assert a.choose(POSITION) == b.choose(POSITION)
    assert a.last.per_worker == (1_500,) * 3 and a.last.root_visits == 4_500
    for pa, pb in zip(a.pools, b.pools):
        assert same_nodes(pa, pb, pa.count)
    # the workers' streams differ, so their trees do
    assert not same_nodes(a.pools[0], a.pools[1], min(a.pools[0].count, a.pools[1].count))
    totals = {}
    for pool in a.pools:
        for child in pool.children(0):
            totals[int(pool.move[child])] = totals.get(int(pool.move[child]), 0) + int(
                pool.visits[child])
    assert totals[a.last.move] == max(totals.values())


def check_well_formed(tree, workers):
    """Every reachable node's children lie in one region, are complete, and are legal moves."""
    pool = tree.pool
    stack = [(0, STATE.copy())]
    seen = 0
    buf = np.zeros(81, dtype=np.int64)
    while stack:
        node, s = stack.pop()
        seen += 1
        n = int(pool.child_count[node])
        if n == 0:
            continue
        first = int(pool.first_child[node])
        region = [k for k in range(len(workers)) if tree.bounds[k] <= first < tree.bounds[k + 1]]
        assert len(region) == 1 and first + n <= int(workers[region[0]].region[0])
        legal = set(buf[:engine.legal_moves(s, buf)].tolist())
        moves = [int(pool.move[c]) for c in range(first, first + n)]
        assert len(set(moves)) == n and set(moves) <= legal
        for child in range(first, first + n):
            t = s.copy()
            engine.play(t, int(pool.move[child]))
            stack.append((child, t))
    return seen


@pytest.mark.parametrize("virtual_loss", [0, 1])
def test_tree_mode_with_two_threads_builds_a_well_formed_tree(virtual_loss):
    spec = ParallelSpec(mode="tree", workers=2, virtual_loss=virtual_loss, iterations=20_000,
                        c=0.7, wins=True)
    bot = spec(seed=2)
    for _ in range(3):
        move = bot.choose(POSITION)
        info = bot.last
        assert move in POSITION.legal_moves()
        assert info.per_worker == (20_000, 20_000) and info.iterations == 40_000
        # lost updates are tolerated, but rare (measured: 0 to 2% of the root's updates)
        assert abs(info.drift) <= 0.1 * info.iterations
        assert info.drift == info.iterations - info.root_visits
        assert check_well_formed(bot.tree, bot.workers) <= info.nodes
    bot.close()


def test_time_budgets_answer_legal_moves_in_every_mode():
    for mode in ("root", "tree", "leaf"):
        bot = ParallelSpec(mode=mode, workers=2, ms=15, c=0.5)(seed=1)
        assert bot.choose(POSITION) in POSITION.legal_moves()
        assert bot.last.iterations >= 4 and bot.last.seconds < 5.0  # a first chunk ran
        bot.close()


def test_the_kernels_release_the_interpreter_lock():
    for kernel in (fast.search_nogil, fast.tree_search, fast.idle):
        assert kernel.targetoptions.get("nogil") is True


def test_a_match_between_two_and_one_worker():
    two = ParallelSpec(mode="tree", workers=2, iterations=300, c=0.5)
    one = ParallelSpec(mode="tree", workers=1, iterations=300, c=0.5)
    result = play_match(two, one, UltimateTicTacToe(), games=2, seed=3)
    assert result.games == 2


@pytest.mark.parametrize("kwargs, words", [
    ({"workers": 0}, "workers"),
    ({"workers": MAX_WORKERS + 1}, "workers"),
    ({"workers": 2.0}, "workers"),
    ({"mode": "branch"}, "mode"),
    ({"mode": "root", "virtual_loss": 2}, "virtual_loss"),
    ({"virtual_loss": -1}, "virtual_loss"),
    ({"solver": True}, "solver"),
    ({"iterations": 100, "ms": 50}, "one budget"),
    ({"iterations": 0}, "iterations"),
    ({"ms": 0}, "ms"),
    ({"ms": -5}, "ms"),
    ({"c": -1.0}, "c (the exploration constant)"),
    ({"wins": "on"}, "wins"),
    ({"capacity": 10}, "capacity"),
])
def test_bad_specs_get_sentences(kwargs, words):
    with pytest.raises(ValueError, match="must|give|applies") as error:
        ParallelSpec(**kwargs)
    assert words in str(error.value)


def test_bad_calls_get_sentences():
    bot = ParallelSpec(mode="root", workers=1, iterations=10)(seed=0)
    with pytest.raises(ValueError, match="UltimateTicTacToe"):
        bot.choose("a board")
    finished, generator = UltimateTicTacToe(), np.random.default_rng(0)
    while not finished.is_terminal():
        moves = finished.legal_moves()
        finished = finished.play(moves[int(generator.integers(len(moves)))])
    with pytest.raises(ValueError, match="finished"):
        bot.choose(finished)
    with pytest.raises(ValueError, match="ParallelSpec"):
        ParallelBot("tree", 0)
    two = ParallelSpec(mode="tree", workers=2, iterations=10)(seed=0)
    two.close()
    with pytest.raises(ValueError, match="closed"):
        two.choose(POSITION)


def test_negative_visits_are_counted_in_the_used_regions_only():
    tree, workers = fast.SharedTree(1_000, 2), [fast.Worker(1), fast.Worker(2)]
    tree.reset(workers)
    visits = tree.pool.visits
    workers[0].region[0] += 5
    workers[1].region[0] += 3
    visits[tree.bounds[0] + 4] = -1  # used, region 0
    visits[tree.bounds[1] + 2] = -2  # used, region 1
    visits[tree.bounds[1] + 3] = -1  # past region 1's used part: stale, not counted
    assert fast.tree_negative_visits(tree, workers) == 2
    assert tree.nodes(workers) == 1 + 5 + 3
    visits[0] = -1
    assert fast.tree_negative_visits(tree, workers) == 3
    assert fast.tree_drift(tree, 10) == 11


def test_the_threads_match_command_plays_and_stores():
    from mctslib.experiments.parallel.threads import ThreadsMatch, threads_match

    result = threads_match(mode="root", workers=2, ms=2.0, games=4, seed=1)
    assert isinstance(result, ThreadsMatch) and result.games == 4
    assert result.wins + result.draws + result.losses == 4 and len(result.results) == 4
    assert result.interval[0] <= result.score <= result.interval[1]
    assert ThreadsMatch(**{**json.loads(result.to_json()),
                           "interval": tuple(result.interval),
                           "pair_interval": tuple(result.pair_interval),
                           "seconds_per_move": tuple(result.seconds_per_move)}) == result
    for kwargs, words in (({"games": 5}, "even"), ({"games": 2}, "games"), ({"workers": 1}, "workers"),
                          ({"mode": "x"}, "mode")):
        with pytest.raises(ValueError, match=words):
            threads_match(**kwargs)


def test_a_stored_threads_match_reads_back(tmp_path):
    from mctslib.experiments.parallel.threads import load_match, threads_match

    result = threads_match(mode="root", workers=2, ms=2.0, games=4, seed=2)
    path = tmp_path / "match.json"
    path.write_text(result.to_json())
    loaded = load_match(path)
    assert (loaded.results, loaded.wins, loaded.score) == (result.results, result.wins,
                                                           result.score)
    assert list(loaded.pair_interval) == list(result.pair_interval)
    (tmp_path / "other.json").write_text('{"mode": "tree"}')
    with pytest.raises(ValueError, match="other.json does not hold a ThreadsMatch"):
        load_match(tmp_path / "other.json")


def test_the_speed_summary_pairs_searches():
    from mctslib.experiments.parallel.threads import paired_speed_up, search_rates

    samples = {"tree 1": [{"iterations": 100, "seconds": 0.1}, {"iterations": 300, "seconds": 0.1}],
               "tree 2": [{"iterations": 300, "seconds": 0.1}, {"iterations": 450, "seconds": 0.1}]}
    rates = search_rates(samples)
    assert rates["tree 1"] == pytest.approx([1_000, 3_000])
    # paired: 3.0 and 1.5, median 2.25; the ratio of the medians would be 1.875
    assert paired_speed_up(rates["tree 1"], rates["tree 2"]) == pytest.approx((2.25, 1.5, 3.0))
    for one, more in (([1.0], [1.0, 2.0]), ([], [])):
        with pytest.raises(ValueError, match="same searches"):
            paired_speed_up(one, more)
