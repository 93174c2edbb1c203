"""The bot author's toolbox (chapter "How a Legend bot gets its strength").

The numba kernel (mctslib.fast.uttt_toolbox) against the chapter-5 kernel with every option
off, and against the readable twin (mctslib.search.uttt_toolbox) option by option, node for
node; the bounds' proofs against an exhaustive search; the SPEC keys; time management.
"""

import random
from functools import cache

import numpy as np
import pytest

from mctslib.bots.uttt import CENTRE, ToolboxBot, UTTTBot, parse_spec
from mctslib.fast import uttt as engine
from mctslib.fast import uttt_toolbox as kernel
from mctslib.fast import uttt_uct as fast_uct
from mctslib.fast.uttt_playouts import policy_code
from mctslib.games.tictactoe import TicTacToe
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.search.uttt_toolbox import ToolboxSearch, best_bounded_child, bounds_from_children
from mctslib.xorshift import XorShift64


def random_position(plies, seed=1, scoring="codingame"):
    """The position after ``plies`` seeded random moves (the game still on)."""
    rnd, state = random.Random(seed), UltimateTicTacToe(scoring=scoring)
    for _ in range(plies):
        state = state.play(rnd.choice(state.legal_moves()))
    assert not state.is_terminal()
    return state


POSITIONS = [UltimateTicTacToe(), random_position(30), random_position(50, 2)]

#: Eight plies before the end of a seeded random game, OpenSpiel scoring: a draw with best play
#: (checked below by exhaustive search), nine moves to choose from.
DRAWN_MOVES = (49, 75, 54, 10, 50, 78, 65, 52, 68, 42, 47, 62, 16, 31, 4, 14, 44, 53, 80, 71, 34,
               12, 28, 23, 60, 18, 64, 41, 33, 2, 25, 59, 17, 51, 56, 24, 73, 67, 48, 72, 55, 22,
               3, 7, 21, 46, 5, 26, 70)


@cache
def game_value(state):
    """2 win, 1 draw, 0 loss for the player to move, by plain exhaustive search."""
    if state.is_terminal():
        return round(2 * state.result(state.player_to_move))
    return max(2 - game_value(state.play(move)) for move in state.legal_moves())


def readable_tree(node):
    return (node.move, node.visits, node.wins, node.lower, node.upper,
            [readable_tree(child) for child in node.children])


def bot_tree(bot, index=0, move=None):
    pool = bot.pool
    return (move, int(pool.visits[index]), float(pool.wins[index]), int(bot.lower[index]),
            int(bot.upper[index]),
            [bot_tree(bot, child, int(pool.move[child])) for child in pool.children(index)])


def plain_tree(pool, index=0, move=None):
    return (move, int(pool.visits[index]), float(pool.wins[index]), int(pool.proven[index]),
            [plain_tree(pool, child, int(pool.move[child])) for child in pool.children(index)])


# ------------------------------------------------------------ every option off


@pytest.mark.parametrize("c, pm1, playout, tree_wins, solver, expand, draw", [
    (0.7, False, "random", False, False, 1, 0.5),
    (0.5, False, "wins", True, True, 1, 0.5),
    (1.2, True, "wins", False, True, 2, 0.3),
    (0.5, False, "safe", True, False, 1, 0.5),
])
def test_with_every_option_off_the_kernel_grows_the_chapter_5_tree(c, pm1, playout, tree_wins,
                                                                     solver, expand, draw):
    for state in POSITIONS:
        trees = []
        for which in ("uct", "toolbox"):
            pool = fast_uct.NodePool(50_000)
            rng = engine.new_rng(11)
            work = [np.zeros(engine.STATE_SIZE, np.int64), np.zeros(fast_uct.MAX_PATH, np.int64),
                    np.zeros(81, np.int64)]
            common = (engine.to_array(state), 600, c, pm1, policy_code(playout), tree_wins, solver,
                      engine.CODINGAME, rng, pool.used, *pool.arrays())
            if which == "uct":
                fast_uct.search(*common, *work, np.zeros(fast_uct.SCORES_SIZE), expand,
                                np.zeros(engine.STATE_SIZE, np.int64), draw)
            else:
                kernel.toolbox_kernel(
                    *common, *work, np.zeros(fast_uct.SCORES_SIZE),
                    np.zeros(engine.STATE_SIZE, np.int64), expand, draw, -1.0,
                    False, np.zeros(50_000, np.int8), np.full(50_000, 2, np.int8), False, -1,
                    np.zeros((2, 81)), np.zeros((2, 81), np.int64), np.zeros(81, np.int64))
            trees.append((plain_tree(pool), int(rng[0])))
        assert trees[0] == trees[1]


def test_a_spec_without_toolbox_keys_builds_the_chapter_5_bot():
    assert type(parse_spec("uct:c=0.5,iters=100,wins=on,solver=on")(seed=1)) is UTTTBot
    assert type(parse_spec("uct:c=0.5,iters=100,fpu=0.5")(seed=1)) is ToolboxBot


# ------------------------------------------------------------ the readable twin


@pytest.mark.parametrize("spec, options", [
    ("fpu=0.7", {"fpu": 0.7}),
    ("fpu=0", {"fpu": 0.0}),
    ("bounds=on", {"bounds": True}),
    ("wins=on,tree_safe=on", {"tree_wins": True, "tree_safe": True, "playout": "wins"}),
    ("mast=0.4", {"mast_epsilon": 0.4}),
    ("playout_wins=on,mast=0", {"mast_epsilon": 0.0, "playout": "wins"}),
    ("wins=on,fpu=1,bounds=on,tree_safe=on,mast=0.5",
     {"fpu": 1.0, "bounds": True, "tree_wins": True, "tree_safe": True, "playout": "wins",
      "mast_epsilon": 0.5}),
])
def test_each_option_grows_the_readable_tree_node_for_node(spec, options):
    bot = parse_spec(f"uct:c=0.6,iters=300,{spec}")(seed=XorShift64(3))
    readable = ToolboxSearch(0.6, iterations=300, seed=XorShift64(3), **options)
    for state in POSITIONS:
        move = bot.choose(state)
        assert move == readable.choose(state)
        assert bot_tree(bot) == readable_tree(readable.root)
    assert int(bot.rng[0]) == readable.source.state


def test_bounds_grow_the_readable_tree_where_proofs_happen():
    state = UltimateTicTacToe.from_moves(DRAWN_MOVES, scoring="openspiel")
    bot = parse_spec("uct:c=0.5,iters=6000,bounds=on")(seed=XorShift64(8))
    readable = ToolboxSearch(0.5, iterations=6000, seed=XorShift64(8), bounds=True)
    assert bot.choose(state) == readable.choose(state)
    assert bot_tree(bot) == readable_tree(readable.root)
    assert readable.root.solved and bot.last.iterations == readable.root.visits < 6000


# ------------------------------------------------------------ score bounds


def test_bounds_prove_a_draw_the_solver_cannot():
    state = UltimateTicTacToe.from_moves(DRAWN_MOVES, scoring="openspiel")
    assert game_value(state) == 1  # a draw with best play, by exhaustive search
    bounded = parse_spec("uct:c=0.5,iters=100000,bounds=on")(seed=1)
    move = bounded.choose(state)
    assert bounded.last.verdict == "draw" and bounded.last.iterations < 100_000
    assert 2 - game_value(state.play(move)) == 1  # the move keeps the draw
    solver = parse_spec("uct:c=0.5,iters=20000,solver=on")(seed=1)
    solver.choose(state)
    assert solver.last.verdict is None and solver.last.iterations == 20_000


def test_bounds_prove_wins_and_losses_like_the_solver():
    state = UltimateTicTacToe.from_moves(DRAWN_MOVES, scoring="codingame")
    value = game_value(state)
    bot = parse_spec("uct:c=0.5,iters=100000,bounds=on")(seed=2)
    bot.choose(state)
    assert bot.last.verdict == {0: "loss", 1: "draw", 2: "win"}[value]


def test_bounds_prove_tic_tac_toe_a_draw():
    search = ToolboxSearch(1.0, iterations=100_000, seed=XorShift64(1), bounds=True)
    root = search.search(TicTacToe())
    assert root.solved and (root.lower, root.upper) == (1, 1)
    assert root.visits < 100_000
    assert best_bounded_child(root).lower == 1  # a move that keeps the draw


def test_bounds_stay_consistent_through_tree_reuse():
    bot = parse_spec("uct:c=0.5,iters=4000,bounds=on,wins=on,reuse=on")(seed=5)
    state = random_position(36, 4)
    for _ in range(4):
        if state.is_terminal():
            break
        move = bot.choose(state)
        pool = bot.pool
        for node in range(pool.count):
            children = list(pool.children(node))
            if children:
                low = min(2 - int(bot.upper[c]) for c in children)
                high = min(2 - int(bot.lower[c]) for c in children)
                assert (int(bot.lower[node]), int(bot.upper[node])) == (low, high)
        state = state.play(move)
        if not state.is_terminal():
            state = state.play(state.legal_moves()[0])
    assert bot.last.reused_nodes > 0


def test_bounds_from_children_is_the_worst_reply():
    search = ToolboxSearch(1.0, iterations=50, seed=XorShift64(1), bounds=True)
    root = search.search(TicTacToe())
    a, b = root.children[:2]
    for child in root.children:  # every reply of the opponent draws at least
        child.lower, child.upper = 1, 2
    a.lower, a.upper = 0, 1  # this one can do no better than a draw
    assert bounds_from_children(root) == (0, 1)  # so X cannot lose, nor win by more than a draw
    b.lower = 2  # a reply that wins for the opponent
    assert bounds_from_children(root) == (0, 0)  # a proven loss for the mover into the root


# ------------------------------------------------------------ decisive and anti-decisive


def test_tree_safe_children_never_let_the_opponent_win_at_once_when_a_safe_move_exists():
    bot = parse_spec("uct:c=0.5,iters=3000,wins=on,tree_safe=on")(seed=7)
    for seed in range(4):
        state = random_position(40, 10 + seed)
        bot.choose(state)
        moves = [int(bot.pool.move[c]) for c in bot.pool.children(0)]
        if state.winning_moves():
            assert moves == [state.winning_moves()[0]]
            continue
        safe = [m for m in state.legal_moves()
                if state.play(m).is_terminal() or not state.play(m).winning_moves()]
        assert sorted(moves) == sorted(safe or state.legal_moves())


# ------------------------------------------------------------ time management


def test_ponder_spends_the_first_budget_after_the_centre_and_keeps_the_tree():
    bot = parse_spec("uct:c=0.5,iters=500,first_iters=5000,wins=on,reuse=on,centre=on,"
                     "ponder=on")(seed=3)
    empty = UltimateTicTacToe()
    assert bot.choose(empty) == CENTRE
    assert bot.last.iterations == 5000 and bot.last.how == "centre, pondered"
    after = empty.play(CENTRE)
    reply = after.legal_moves()[0]
    bot.choose(after.play(reply))
    assert bot.last.reused_nodes > 1 and bot.last.iterations == 500
    plain = parse_spec("uct:c=0.5,iters=500,first_iters=5000,wins=on,reuse=on,centre=on")(seed=3)
    assert plain.choose(empty) == CENTRE and plain.last.iterations == 0


def test_extend_searches_longer_only_while_the_best_two_are_close():
    spec = "uct:c=0.5,iters=2000,wins=on,extend=0.5,close=0.5"
    ran = []
    for state in POSITIONS[1:] + [random_position(20, s) for s in range(6)]:
        bot = parse_spec(spec)(seed=1)
        bot.choose(state)
        ran.append(bot.last.iterations)
        base = parse_spec("uct:c=0.5,iters=2000,wins=on")(seed=1)
        base.choose(state)
        assert 2000 <= bot.last.iterations <= 3000
        if bot.last.iterations == 2000:
            best, second = base._lead()
            assert second < 0.5 * best  # not close after the base budget
    assert any(n > 2000 for n in ran)


class IterationClock:
    """A ``time`` stand-in whose clock moves only when the bot's search runs iterations.

    One microsecond an iteration: the bot's chunking and deadlines then behave as on a
    quiet machine running a million iterations a second, whatever the real load.
    """

    def __init__(self):
        self.now = 1000.0

    def perf_counter(self) -> float:
        return self.now


def test_extend_on_the_clock_stays_within_the_extended_budget(monkeypatch):
    import mctslib.bots.uttt as bots
    import mctslib.bots.uttt_toolbox as toolbox

    clock = IterationClock()
    monkeypatch.setattr(bots, "time", clock)
    monkeypatch.setattr(toolbox, "time", clock)
    bot = parse_spec("uct:c=0.5,ms=10,first_ms=10,wins=on,extend=1,close=0.01")(seed=1)
    run = bot._run

    def timed_run(root_state, scoring, iterations):
        ran = run(root_state, scoring, iterations)
        clock.now += ran * 1e-6
        return ran

    monkeypatch.setattr(bot, "_run", timed_run)
    bot.choose(random_position(10))
    # 10 ms, then an extension of 100% while the best two stay close (always, at close=0.01):
    # the search ends at 20 ms, within the last chunk's 16 iterations (16 microseconds).
    assert bot.last.iterations == round(bot.last.seconds * 1e6)
    assert 0.020 <= bot.last.seconds <= 0.020 + 16e-6


# ------------------------------------------------------------ the SPEC keys


@pytest.mark.parametrize("text, words", [
    ("uct:fpu=-1", "fpu (first-play urgency"),
    ("uct:fpu=11", "from 0 to 10"),
    ("uct:fpu=nan", "from 0 to 10"),
    ("uct:mast=1.5", "mast (the chance of a random playout move) must be a number from 0 to 1"),
    ("uct:extend=2", "extend"),
    ("uct:close=0", "close"),
    ("uct:close=1.2", "above 0 and at most 1"),
    ("uct:bounds=on,solver=on", "give bounds or solver, not both"),
    ("uct:bounds=yes", "bounds must be on or off"),
    ("uct:tree_safe=on", "needs the decisive rule"),
    ("uct:wins=on,mast=0.5,playout=capture", "mast replaces"),
    ("uct:fpu=0.5,cutoff=5", "cutoff=0"),
    ("uct:ponder=on,centre=on", "needs centre=on and reuse=on"),
])
def test_bad_toolbox_keys_are_value_errors_naming_the_key(text, words):
    with pytest.raises(ValueError, match="^bad SPEC|must be") as error:
        parse_spec(text)
    assert words in str(error.value)


def test_toolbox_keys_read_print_and_save_only_when_set():
    text = ("uct:c=0.5,iters=2000,wins=on,reuse=on,centre=on,fpu=0.9,bounds=on,tree_safe=on,"
            "mast=0.5,ponder=on,extend=0.2,close=0.7")
    spec = parse_spec(text)
    assert parse_spec(str(spec)) == spec
    for key in ("fpu=0.9", "bounds=on", "tree_safe=on", "mast=0.5", "ponder=on", "extend=0.2",
                "close=0.7"):
        assert key in str(spec)
    plain = parse_spec("uct:c=0.5,iters=2000")
    for key in ("fpu", "bounds", "tree_safe", "mast", "ponder", "extend", "close"):
        assert key not in str(plain) and key not in plain.as_dict()
    assert spec.as_dict()["mast"] == 0.5


def test_ponder_searches_its_whole_budget_even_with_stop():
    bot = parse_spec("uct:c=0.5,iters=300,first_iters=3000,wins=on,reuse=on,centre=on,"
                     "ponder=on,stop=on")(seed=2)
    assert bot.choose(UltimateTicTacToe()) == CENTRE
    assert bot.last.iterations == 3000  # one child: nothing to decide, so no early stop


def test_stop_ends_an_extension_once_the_leader_is_safe():
    state = random_position(20, 3)
    long = parse_spec("uct:c=0.5,iters=2000,wins=on,extend=1,close=0.3")(seed=1)
    short = parse_spec("uct:c=0.5,iters=2000,wins=on,extend=1,close=0.3,stop=on")(seed=1)
    assert long.choose(state) == short.choose(state)
    assert short.last.iterations <= long.last.iterations
