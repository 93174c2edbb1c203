"""The K-worker model with virtual loss (chapter 7): the readable search, its numba twin on UTTT,
the bot and the experiment helpers; K = 1 is sequential UCT, tree for tree."""

import math

import numpy as np
import pytest

from mctslib.bots.virtual_loss import VirtualLossBot, VirtualLossSpec
from mctslib.experiments.parallel import model as exp
from mctslib.fast import uttt as fu
from mctslib.fast import uttt_uct
from mctslib.fast import uttt_virtual_loss as vl
from mctslib.fast.xorshift import new_rng
from mctslib.games.tictactoe import TicTacToe
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.search.parallel import KINDS, ParallelUCTSearch
from mctslib.search.uct import UCTSearch, robust_child
from mctslib.search.uttt_playouts import policy_playout
from mctslib.xorshift import XorShift64


def python_tree(node):
    return (node.move, node.visits, node.wins, [python_tree(child) for child in node.children])


def numba_tree(pool, index=0, move=None):
    return (move, int(pool.visits[index]), float(pool.wins[index]),
            [numba_tree(pool, child, int(pool.move[child])) for child in pool.children(index)])


def fast_search(state, iterations, workers, virtual_loss, kind="loss", seed=5, c=0.5,
                wins=False):
    pool, work = vl.new_search(workers, 81 * iterations + 2)
    rng = new_rng(seed)
    done = vl.search(fu.to_array(state), iterations, workers, virtual_loss, KINDS[kind], c, wins,
                     fu.scoring_code(state.scoring), rng, pool.used, *pool.arrays(),
                     *work.arrays())
    assert done == iterations
    assert not work.in_flight.any()  # every virtual loss was removed
    return pool, rng


def wins_playout(state, source):
    return policy_playout(state, source, "wins")


POSITION = UltimateTicTacToe().play(40)

CASES = [  # workers, virtual loss, kind, win-taking playouts, iterations
    (1, 0, "loss", False, 300),
    (1, 3, "draw", True, 250),
    (2, 0, "loss", False, 300),
    (3, 1, "loss", False, 301),   # a last round of one worker
    (8, 3, "draw", False, 300),
    (8, 0, "loss", True, 300),
    (64, 1, "loss", False, 300),
    (64, 3, "loss", True, 200),
]


@pytest.mark.parametrize("workers, virtual_loss, kind, wins, iterations", CASES)
def test_the_kernel_grows_the_readable_tree(workers, virtual_loss, kind, wins, iterations):
    readable = ParallelUCTSearch(0.5, iterations, workers, virtual_loss, kind, XorShift64(5),
                                 playout=wins_playout if wins else None)
    root = readable.search(POSITION)
    pool, rng = fast_search(POSITION, iterations, workers, virtual_loss, kind, 5, wins=wins)
    assert numba_tree(pool) == python_tree(root)
    assert int(rng[0]) == readable.source.state  # the same draws, in the same order
    assert root.visits == iterations and not any(readable.in_flight.values())


def test_the_kernel_grows_the_readable_tree_from_the_empty_board_under_openspiel_scoring():
    state = UltimateTicTacToe(scoring="openspiel")
    for workers, virtual_loss in ((4, 0), (16, 1)):
        readable = ParallelUCTSearch(1.0, 200, workers, virtual_loss, seed=XorShift64(9))
        pool, _ = fast_search(state, 200, workers, virtual_loss, seed=9, c=1.0)
        assert numba_tree(pool) == python_tree(readable.search(state))


@pytest.mark.parametrize("virtual_loss", [0, 1, 5])
def test_one_worker_is_sequential_uct_on_any_game(virtual_loss):
    for state, c, seed in ((TicTacToe(), 1.4, 3), (UltimateTicTacToe().play(10), 0.5, 8)):
        sequential = UCTSearch(c, iterations=400, seed=XorShift64(seed))
        model = ParallelUCTSearch(c, 400, 1, virtual_loss, seed=XorShift64(seed))
        assert python_tree(model.search(state)) == python_tree(sequential.search(state))
        assert model.source.state == sequential.source.state
        assert model.choose(state) == robust_child(sequential.search(state)).move


def test_one_worker_kernel_is_the_sequential_uct_kernel():
    state = UltimateTicTacToe().play(4).play(13)
    for wins in (False, True):
        pool, rng = fast_search(state, 500, 1, 2, seed=11, wins=wins)
        plain = uttt_uct.NodePool(81 * 500 + 2)
        plain_rng = new_rng(11)
        uttt_uct.search(fu.to_array(state), 500, 0.5, False, wins, False, False, 0, plain_rng,
                        plain.used, *plain.arrays(), np.zeros(fu.STATE_SIZE, np.int64),
                        np.zeros(uttt_uct.MAX_PATH, np.int64), np.zeros(81, np.int64),
                        np.zeros(uttt_uct.SCORES_SIZE))
        assert numba_tree(pool) == numba_tree(plain)
        assert int(rng[0]) == int(plain_rng[0])


def test_without_virtual_loss_workers_pile_onto_one_line_and_with_it_they_spread():
    # First round from a fresh root: blind workers all play out from the first child; with
    # virtual loss each worker takes a child no one is on yet.
    state = UltimateTicTacToe()
    blind = ParallelUCTSearch(0.5, 8, 8, 0, seed=XorShift64(2)).search(state)
    assert [c.visits for c in blind.children].count(8) == 1
    assert sum(c.visits > 0 for c in blind.children) == 1
    spread = ParallelUCTSearch(0.5, 8, 8, 1, seed=XorShift64(2)).search(state)
    assert [c.visits for c in spread.children[:8]] == [1] * 8
    # A leaf in flight is not expanded by a second worker: blind workers add no grandchildren.
    assert all(not c.children for c in blind.children)


@pytest.mark.parametrize("kind", list(KINDS))
def test_in_flight_paths_carry_virtual_visits_worth_the_kind(kind):
    # When the first playout of a round starts, all K descents are done: the root carries
    # K * V virtual visits (worth KINDS[kind] each) on top of the finished ones.
    seen = []

    def spy(state, source):
        root = model.root
        seen.append((root.visits, root.wins, model.finished_visits(root)))
        return policy_playout(state, source, "random")

    model = ParallelUCTSearch(0.5, 12, 4, 3, kind, XorShift64(1), playout=spy)
    model.search(UltimateTicTacToe())
    worth = KINDS[kind]
    assert seen[0] == (12, 12 * worth, 0)  # round 1: four workers in flight, none finished
    assert seen[1][0] == 1 + 9 and seen[1][2] == 1  # one back, three still in flight
    assert seen[4][0] == 4 + 12 and seen[4][2] == 4  # round 2 starts with 4 finished
    assert model.root.visits == 12 and not any(model.in_flight.values())


def test_bot_plays_the_readable_move_and_a_match():
    spec = VirtualLossSpec(workers=8, virtual_loss=1, iterations=300)
    bot = spec(XorShift64(4))
    readable = ParallelUCTSearch(0.5, 300, 8, 1, seed=XorShift64(4))
    for state in (UltimateTicTacToe(), POSITION):
        assert bot.choose(state) == readable.choose(state)
        assert numba_tree(bot.pool) == python_tree(readable.root)
    part = exp.play_part(4, 1, 200, games=4, part=3)
    assert part.games == 4 and len(part.results) == 4 and part.a["label"] == "K=4 vl=1"
    again = exp.play_part(4, 1, 200, games=2, part=3)
    assert again.results == part.results[:2]  # game for game at an iteration budget
    assert part.machine["mctslib"]


def test_a_full_pool_stops_growing_and_the_search_goes_on():
    bot = VirtualLossSpec(workers=4, iterations=2000, capacity=200)(seed=1)
    assert bot.search(UltimateTicTacToe()) == 2000
    assert bot.last_nodes <= 200 and bot.full_searches == 1
    assert int(bot.pool.visits[0]) == 2000


@pytest.mark.parametrize("options, message", [
    ({"workers": 0}, "workers must be"),
    ({"workers": 1025}, "workers must be"),
    ({"virtual_loss": -1}, "virtual_loss (visits) must be"),
    ({"virtual_loss": 1.5}, "virtual_loss (visits) must be"),
    ({"kind": "win"}, "kind (of virtual loss) must be"),
    ({"iterations": 0}, "iterations (per move) must be"),
    ({"c": -1.0}, "c (the exploration constant) must be"),
    ({"wins": "yes"}, "wins (win-taking playouts) must be"),
    ({"capacity": 5}, "capacity (nodes in the pool) must be"),
])
def test_bad_bot_options_are_refused_with_a_sentence(options, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        VirtualLossSpec(**options)


def test_bad_search_input_is_refused_with_a_sentence():
    for kwargs, message in (({"workers": 0}, "workers"), ({"virtual_loss": -2}, "virtual_loss"),
                            ({"kind": "x"}, "kind"), ({"iterations": 0}, "iterations"),
                            ({"playout": 3}, "playout")):
        with pytest.raises(ValueError, match=message):
            ParallelUCTSearch(**kwargs)
    with pytest.raises(ValueError, match="finished game"):
        ParallelUCTSearch().search(TicTacToe().play(0).play(3).play(1).play(4).play(2))
    bot = VirtualLossSpec(iterations=10)(seed=1)
    with pytest.raises(ValueError, match="UltimateTicTacToe"):
        bot.choose(TicTacToe())
    with pytest.raises(ValueError, match="spec must be"):
        VirtualLossBot("K=8")
    with pytest.raises(ValueError, match="games"):
        exp.play_part(2, 1, 100, games=1)
    with pytest.raises(ValueError, match="per_ply"):
        exp.agreement(100, per_ply=0)


def test_agreement_is_deterministic_and_one_worker_is_the_sequential_anchor():
    kwargs = {"workers": (1, 4), "virtual_losses": (0, 2), "plies": (0, 20), "per_ply": 2,
              "seeds": 2, "reference": 3}
    first = exp.agreement(300, **kwargs)
    assert first.rows == exp.agreement(300, **kwargs).rows
    one = [r for r in first.rows if r["workers"] == 1]
    assert one[0]["reference_move"] == one[1]["reference_move"] == first.anchors["1"]
    assert one[0]["same_move_n_over_k"] == 1.0  # K = 1 at N is the sequential search at N / 1
    assert all(0.0 <= r["tv_n"] <= 1.0 for r in first.rows)
    assert not math.isclose(sum(r["tv_n"] for r in first.rows), 0.0)
    assert "reference move" in first.format()


def test_the_command_line_writes_and_reads_a_part(tmp_path, capsys):
    assert exp.main(["match", "--workers", "2", "--virtual-loss", "0", "--iterations", "100",
                     "--games", "2", "--data", str(tmp_path)]) == 0
    path = exp.part_path(2, 0, 100, 0, data=tmp_path)
    assert path.exists() and "written to" in capsys.readouterr().out
    total = exp.load_match(2, 0, 100, data=tmp_path)
    assert total["games"] == 2 and total["a"] == "K=2 vl=0"
    with pytest.raises(ValueError, match="no stored part"):
        exp.load_match(8, 0, 100, data=tmp_path)
    kept = exp.sweep((2,), (0,), 100, 2, data=tmp_path, report=lambda line: None)
    assert kept == [path]
