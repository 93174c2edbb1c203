"""The K-worker model's staggered schedule and root scheme (chapter 7b, "Parallel search").

The staggered schedule keeps K - 1 playouts in flight at every descent (real threads that have
drifted apart); the root scheme is K separate trees. Both have a readable form and a numba one,
and each must reduce to sequential UCT with one worker.
"""

import numpy as np
import pytest

from mctslib.bots.parallel import ParallelSpec
from mctslib.bots.virtual_loss import VirtualLossSpec
from mctslib.experiments.parallel import model as exp
from mctslib.fast import uttt as fu
from mctslib.fast import uttt_virtual_loss as vl
from mctslib.fast.xorshift import new_rng
from mctslib.games.tictactoe import TicTacToe
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.search.parallel import KINDS, ParallelUCTSearch
from mctslib.search.uct import UCTSearch
from mctslib.search.uttt_playouts import policy_playout
from mctslib.xorshift import XorShift64


def python_tree(node):
    return (node.move, node.visits, node.wins, [python_tree(child) for child in node.children])


def numba_tree(pool, index=0, move=None):
    return (move, int(pool.visits[index]), float(pool.wins[index]),
            [numba_tree(pool, child, int(pool.move[child])) for child in pool.children(index)])


def kernel(state, iterations, workers, virtual_loss, kind="loss", seed=5, wins=False,
           staggered=True):
    pool, work = vl.new_search(workers, 81 * iterations + 2)
    rng = new_rng(seed)
    done = vl.search(fu.to_array(state), iterations, workers, virtual_loss, KINDS[kind], 0.5,
                     wins, fu.scoring_code(state.scoring), rng, pool.used, *pool.arrays(),
                     *work.arrays(), staggered)
    assert done == iterations
    assert not work.in_flight.any()  # every virtual loss was taken off again
    return pool, rng


def wins_playout(state, source):
    return policy_playout(state, source, "wins")


POSITION = UltimateTicTacToe().play(40)


@pytest.mark.parametrize("workers, virtual_loss, kind, wins, iterations", [
    (2, 1, "loss", False, 300),
    (3, 1, "draw", True, 301),
    (8, 0, "loss", False, 300),
    (8, 3, "loss", True, 250),
    (64, 1, "loss", False, 300),
    (400, 1, "loss", False, 300),  # more workers than iterations: all in flight, then all land
])
def test_the_staggered_kernel_grows_the_readable_tree(workers, virtual_loss, kind, wins,
                                                      iterations):
    readable = ParallelUCTSearch(0.5, iterations, workers, virtual_loss, kind, XorShift64(5),
                                 playout=wins_playout if wins else None, schedule="staggered")
    root = readable.search(POSITION)
    pool, rng = kernel(POSITION, iterations, workers, virtual_loss, kind, wins=wins)
    assert numba_tree(pool) == python_tree(root)
    assert int(rng[0]) == readable.source.state  # the same draws, in the same order
    assert root.visits == iterations and not any(readable.in_flight.values())


def test_one_staggered_worker_is_sequential_uct():
    for state, c, seed in ((TicTacToe(), 1.4, 3), (UltimateTicTacToe().play(10), 0.5, 8)):
        sequential = UCTSearch(c, iterations=400, seed=XorShift64(seed)).search(state)
        model = ParallelUCTSearch(c, 400, 1, 2, seed=XorShift64(seed), schedule="staggered")
        assert python_tree(model.search(state)) == python_tree(sequential)
    pool, _ = kernel(POSITION, 500, 1, 2, seed=11)
    lockstep, _ = kernel(POSITION, 500, 1, 2, seed=11, staggered=False)
    assert numba_tree(pool) == numba_tree(lockstep)


class _Missed(ParallelUCTSearch):
    """Counts, at each descent, the playouts in flight (the ones this worker cannot see)."""

    def depart(self, root, state):
        self.missed.append(self.in_flight.get(root, 0))
        return super().depart(root, state)


@pytest.mark.parametrize("workers", [2, 5, 8])
def test_a_staggered_worker_misses_k_minus_1_playouts_a_lockstep_one_j_minus_1(workers):
    seen = {}
    for schedule in ("lockstep", "staggered"):
        search = _Missed(0.5, 10 * workers, workers, 1, seed=XorShift64(1), schedule=schedule)
        search.missed = []
        search.search(TicTacToe())
        seen[schedule] = search.missed
    assert seen["lockstep"] == list(range(workers)) * 10
    assert seen["staggered"] == list(range(workers - 1)) + [workers - 1] * (9 * workers + 1)


def test_the_staggered_schedule_spreads_workers_as_the_lockstep_one_does():
    # Fresh root: with virtual loss the first K descents take K different children.
    root = ParallelUCTSearch(0.5, 8, 8, 1, seed=XorShift64(2), schedule="staggered").search(
        UltimateTicTacToe())
    assert sorted(c.visits for c in root.children)[-8:] == [1] * 8


def test_the_root_scheme_plays_the_threaded_root_bots_moves_and_visits():
    state = UltimateTicTacToe().play(40)
    for workers in (1, 2, 4):
        model = VirtualLossSpec(workers=workers, virtual_loss=0, iterations=300 * workers,
                                scheme="root")(seed=7)
        threads = ParallelSpec(mode="root", workers=workers, iterations=300, c=0.5)(seed=7)
        try:
            for _ in range(4):
                move = model.choose(state)
                assert move == threads.choose(state)
                assert sum(model.root_totals.values()) == threads.last.root_visits
                state = state.play(move)
        finally:
            threads.close()


def test_the_root_scheme_shares_out_the_iterations_and_one_tree_is_the_plain_bot():
    bot = VirtualLossSpec(workers=3, virtual_loss=0, iterations=1000, scheme="root")(seed=1)
    assert bot.search(POSITION) == 1000  # 334 + 333 + 333
    assert sum(bot.root_totals.values()) == 1000
    one = VirtualLossSpec(workers=1, virtual_loss=0, iterations=700, scheme="root")(seed=4)
    plain = VirtualLossSpec(workers=1, virtual_loss=0, iterations=700)(seed=4)
    state = UltimateTicTacToe()
    for _ in range(5):
        move = one.choose(state)
        assert move == plain.choose(state)
        state = state.play(move)


@pytest.mark.parametrize("options, message", [
    ({"scheme": "forest"}, "scheme must be one of"),
    ({"scheme": "root", "virtual_loss": 1, "workers": 2}, "no virtual loss"),
    ({"scheme": "root", "virtual_loss": 0, "workers": 8, "iterations": 4}, "at most iterations"),
    ({"schedule": "sometimes"}, "schedule must be one of"),
])
def test_bad_scheme_options_are_refused_with_a_sentence(options, message):
    with pytest.raises(ValueError, match=message):
        VirtualLossSpec(**options)
    with pytest.raises(ValueError, match="schedule"):
        ParallelUCTSearch(0.5, 10, 2, 1, schedule="random")


def test_a_root_bot_refuses_a_single_xorshift_stream():
    with pytest.raises(ValueError, match="K streams"):
        VirtualLossSpec(workers=2, virtual_loss=0, iterations=100, scheme="root")(
            seed=XorShift64(3))


def test_staggered_and_root_parts_replay_and_have_their_own_files(tmp_path):
    for options in ({"schedule": "staggered"}, {"scheme": "root", "virtual_loss": 0}):
        first = exp.play_part(workers=4, iterations=200, games=4, part=0,
                              **{"virtual_loss": 1, **options})
        again = exp.play_part(workers=4, iterations=200, games=2, part=0,
                              **{"virtual_loss": 1, **options})
        assert again.results == first.results[:2]
        assert first.a["label"] in ("K=4 vl=1 staggered", "K=4 root")
    assert exp.part_path(8, 1, 10_000, 1, schedule="staggered").name == (
        "uttt_10000it_k8_vl1_staggered_part1.json")
    assert exp.part_path(8, 0, 10_000, 0, scheme="root").name == "uttt_10000it_k8_root_part0.json"
    written = exp.sweep([1, 2], [1], 200, 2, 0, data=tmp_path, schedule="staggered",
                        report=lambda line: None)
    assert [path.name for path in written] == ["uttt_200it_k2_vl1_staggered_part0.json"]
    match = exp.load_match(2, 1, 200, data=tmp_path, schedule="staggered")
    assert match["games"] == 2 and np.isclose(match["score"], match["score"])
