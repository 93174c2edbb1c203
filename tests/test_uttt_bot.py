"""The UTTT bot: numba UCT with options (mctslib.fast.uttt_uct) and its Python face (mctslib.bots.uttt).

Positions are hand-built with ``from_grid``; each verdict the solver must reach is also
checked here by an independent exhaustive look-ahead on the readable rules.
"""

import pickle
import time
from collections import Counter

import numpy as np
import pytest

from mctslib.bots.uttt import CENTRE, BotSpec, UTTTBot, opponent_reply, parse_spec, random_openings
from mctslib.fast import uttt as engine
from mctslib.fast import uttt_uct as fast_uct
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.play.arena import RandomPlayer, play_game, play_match
from mctslib.search.uct import UCTSearch, robust_child
from mctslib.xorshift import XorShift64, derive_seeds

SEP = "------+-------+------"


def grid(*rows):
    """Nine rows of a grid; bands separated like UltimateTicTacToe.grid() prints them."""
    assert len(rows) == 9
    return "\n".join([*rows[0:3], SEP, *rows[3:6], SEP, *rows[6:9]])


# X won boards 0 and 1; X must play in board 2, where cell 2 (move 8) wins the top row.
IMMEDIATE_WIN = grid(
    "X X X | X X X | X X .",
    ". . . | . . . | . . .",
    ". . . | . . . | . . .",
    ". . . | . . . | . . .",
    ". . . | . . . | . . .",
    "O O . | O O . | O O .",
    "O O . | . . . | . . .",
    ". . . | . . . | . . .",
    ". . . | . . . | . . .",
)

# O won boards 0 and 1 and needs cell 2 of board 2 (row 0, col 8). X must play in board 4,
# whose empty cells are 0 (sends O to board 0: closed, so O chooses freely) and 2 (sends O to
# board 2): either way O completes the top row. Every X move loses in two plies.
ALL_MOVES_LOSE = grid(
    "O O O | O O O | O O .",
    ". . . | . . . | . . .",
    ". . . | . . . | . . .",
    "X . . | . X . | X . .",
    ". . . | O X O | . . .",
    ". . . | X O X | . . .",
    "X . . | X . . | X . .",
    ". X . | . . . | . . .",
    ". . . | . . . | . X .",
)

# As ALL_MOVES_LOSE, but board 4 also has cell 6 (row 5, col 3) empty: that move (48) does not
# lose at once (it loses later), the other two (moves 30 and 32) lose in two plies.
TWO_QUICK_LOSSES = grid(
    "O O O | O O O | O O .",
    ". . . | . . . | . . .",
    ". . . | . . . | . . .",
    "X . . | . X . | X . .",
    ". . . | O X O | . . .",
    ". X . | . O X | . X .",
    ". . . | X . . | X . .",
    ". O . | . . . | . . .",
    ". . . | . X . | X X .",
)

# X won boards 0 and 1 and holds cells 0, 1 of board 2. X must play in board 4 (empty) and has
# no immediate win; board 5 has one empty cell, cell 2. X's move to cell 5 of board 4 (row 4,
# col 5 = move 41) sends O to board 5, O's only move there sends X to board 2, X wins: a win
# in three plies.
WIN_IN_THREE = grid(
    "X X X | X X X | X X .",
    ". . . | . . . | O . .",
    ". . . | . . . | . . O",
    "O . . | . . . | X O .",
    ". O . | . . . | O O X",
    ". . . | . . . | X X O",
    "O . . | . O . | . . .",
    ". . O | . . . | . . .",
    ". . . | O . . | . . .",
)


def position(text, forced_board):
    return UltimateTicTacToe.from_grid(text, forced_board=forced_board)


def random_positions(plies_list, seed=1):
    """Positions after a few uniformly random moves (seeded), one per entry of plies_list."""
    rng = np.random.default_rng(seed)
    positions = []
    for plies in plies_list:
        state = UltimateTicTacToe()
        for _ in range(plies):
            moves = state.legal_moves()
            state = state.play(moves[rng.integers(len(moves))])
        positions.append(state)
    return positions


def python_tree(node):
    return (node.move, node.visits, node.wins, [python_tree(child) for child in node.children])


def numba_tree(pool, index=0, move=None, wins=lambda w, v: w):
    return (move, int(pool.visits[index]), wins(float(pool.wins[index]), int(pool.visits[index])),
            [numba_tree(pool, child, int(pool.move[child]), wins) for child in pool.children(index)])


def loses_at_once(state, move):
    """After ``move`` the opponent can win the game in one move (readable rules)."""
    after = state.play(move)
    return not after.is_terminal() and bool(after.winning_moves())


def forces_win_in_three(state, move):
    """After ``move``, every reply leaves the mover an immediate win (readable rules)."""
    after = state.play(move)
    if after.is_terminal():
        return after.winner() == state.player_to_move
    return all(after.play(reply).winning_moves() for reply in after.legal_moves())


def wins_by_force(state, player, plies):
    """Can ``player`` force a win within ``plies`` plies? (plain exhaustive search)"""
    if state.is_terminal():
        return state.winner() == player
    if plies == 0:
        return False
    outcomes = (wins_by_force(state.play(move), player, plies - 1) for move in state.legal_moves())
    return any(outcomes) if state.player_to_move == player else all(outcomes)


# ------------------------------------------------------------ twin of the readable UCT


def test_plain_bot_builds_the_same_trees_as_the_readable_uct():
    positions = [UltimateTicTacToe(), *random_positions([5, 20, 40])]
    readable = UCTSearch(0.7, iterations=300, seed=XorShift64(99))
    bot = UTTTBot("uct:c=0.7,iters=300", seed=XorShift64(99))
    for state in positions:
        root = readable.search(state)
        move = bot.choose(state)
        assert numba_tree(bot.pool) == python_tree(root)
        assert move == robust_child(root).move
    assert int(bot.rng[0]) == readable.source.state  # the same number of draws, in order


def test_openspiel_scoring_changes_rewards_the_same_way_in_both():
    # Late in a game many playouts close every board: the scoring matters there.
    state = random_positions([45], seed=3)[0].with_scoring("openspiel")
    readable = UCTSearch(1.0, iterations=200, seed=XorShift64(5))
    bot = UTTTBot("uct:c=1.0,iters=200", seed=XorShift64(5))
    assert bot.choose(state) == readable.choose(state)
    assert numba_tree(bot.pool) == python_tree(readable.root)


# ------------------------------------------------------------------------ options


def test_pm1_rewards_are_01_rewards_with_half_the_exploration():
    # UCB1 with rewards 2r - 1 and constant c ranks children exactly as rewards r with c / 2:
    # the same tree, with wins mapped to 2 * wins - visits.
    for state in random_positions([0, 12]):
        pm1 = UTTTBot("uct:c=1.0,scale=pm1,iters=400", seed=3)
        half = UTTTBot("uct:c=0.5,scale=01,iters=400", seed=3)
        assert pm1.choose(state) == half.choose(state)
        assert numba_tree(pm1.pool) == numba_tree(half.pool, wins=lambda w, v: 2 * w - v)
        same_c = UTTTBot("uct:c=1.0,scale=01,iters=400", seed=3)
        same_c.choose(state)
        assert numba_tree(same_c.pool) != numba_tree(half.pool)  # so the scale does matter


def test_fast_win_taking_playout_plays_like_the_plain_one():
    buf = np.zeros(81, dtype=np.int64)
    starts = [UltimateTicTacToe(), position(IMMEDIATE_WIN, 2), *random_positions([30, 50])]
    for scoring in (engine.CODINGAME, engine.OPENSPIEL):
        fast_rng, plain_rng = engine.new_rng(8), engine.new_rng(8)
        for game in range(2000):
            start = starts[game % len(starts)]
            fast, plain = engine.to_array(start), engine.to_array(start)
            fast_uct.win_taking_playout(fast, fast_rng, scoring, buf)
            fast_uct.win_taking_playout_reference(plain, plain_rng, scoring, buf)
            assert (fast == plain).all()
        assert fast_rng[0] == plain_rng[0]


def test_win_taking_playouts_always_take_the_win_random_ones_do_not():
    state = engine.to_array(position(IMMEDIATE_WIN, 2))  # X wins at once with move 8 (of 7)
    x_wins, o_wins, draws, _ = fast_uct.playout_tally(state, 2000, engine.new_rng(1), 0, True)
    assert (x_wins, o_wins, draws) == (2000, 0, 0)
    x_wins, o_wins, draws, _ = fast_uct.playout_tally(state, 2000, engine.new_rng(1), 0, False)
    assert o_wins > 0 and x_wins < 2000


def test_win_taking_playouts_are_shorter_and_drawn_less_from_the_empty_board():
    start, n = engine.to_array(UltimateTicTacToe()), 20000
    plain = fast_uct.playout_tally(start, n, engine.new_rng(2), engine.CODINGAME, False)
    taking = fast_uct.playout_tally(start, n, engine.new_rng(2), engine.CODINGAME, True)
    assert plain[:3].sum() == taking[:3].sum() == n
    # Draw rates: binomial standard errors are below 0.002 here; demand a gap of many of them.
    draws_plain, draws_taking = plain[2] / n, taking[2] / n
    assert draws_plain - draws_taking > 10 * np.sqrt(draws_plain * (1 - draws_plain) / n)
    assert taking[3] / n < plain[3] / n - 2  # games end at least two moves sooner on average


def test_win_taking_changes_the_search():
    state = random_positions([30])[0]
    trees = []
    for wins in ("off", "on"):
        bot = UTTTBot(f"uct:c=0.7,iters=2000,wins={wins}", seed=4)
        bot.choose(state)
        trees.append(numba_tree(bot.pool))
    assert trees[0] != trees[1]


def expanded_positions(pool, state, index=0):
    """(position, children's moves) of every node of the tree that has children."""
    moves = [int(pool.move[child]) for child in pool.children(index)]
    if moves:
        yield state, moves
    for child, move in zip(pool.children(index), moves):
        yield from expanded_positions(pool, state.play(move), child)


@pytest.mark.parametrize("text, forced, plies", [(ALL_MOVES_LOSE, 4, 0), (None, None, 40)])
def test_win_taking_gives_a_position_with_a_win_one_child_in_the_tree(text, forced, plies):
    # jacek's one-move win check at expansion: where the player to move can win at once, the
    # tree holds only the lowest winning move; everywhere else, every legal move.
    state = position(text, forced) if text else random_positions([plies], seed=3)[0]
    for wins in ("on", "off"):
        bot = UTTTBot(f"uct:c=0.7,iters=3000,wins={wins}", seed=5)
        bot.choose(state)
        single = 0
        for node_state, moves in expanded_positions(bot.pool, state):
            winning = node_state.winning_moves()
            if wins == "on" and winning:
                assert moves == [winning[0]]
                single += 1
            else:
                assert sorted(moves) == sorted(node_state.legal_moves())
        assert (single > 0) == (wins == "on")


def test_win_taking_plays_an_immediate_win_without_the_solver():
    state = position(IMMEDIATE_WIN, 2)
    bot = UTTTBot("uct:iters=200,wins=on", seed=1)
    assert bot.choose(state) == 8
    assert [move for move, *_ in bot.root_stats()] == [8]


def test_centre_opening_as_x_only():
    bot = UTTTBot("uct:iters=50,centre=on", seed=1)
    assert bot.choose(UltimateTicTacToe()) == CENTRE
    assert bot.last.how == "centre" and bot.last.iterations == 0
    after_x = UltimateTicTacToe().play(0)  # as O the option does nothing: it searches
    bot.choose(after_x)
    assert bot.last.how == "search" and bot.last.iterations == 50
    plain = UTTTBot("uct:iters=50", seed=1)
    plain.choose(UltimateTicTacToe())
    assert plain.last.iterations == 50


# ------------------------------------------------------------------------- solver


def test_solver_plays_an_immediate_win_and_stops_searching():
    state = position(IMMEDIATE_WIN, 2)
    assert state.winning_moves() == (8,)
    bot = UTTTBot("uct:iters=100000,solver=on", seed=2)
    assert bot.choose(state) == 8
    assert bot.last.how == "proven win" and bot.last.verdict == "win"
    # Proven as soon as move 8 is tried: at most one visit per child of the root.
    assert bot.last.iterations <= len(state.legal_moves())


def test_solver_proves_a_position_where_every_move_loses():
    state = position(ALL_MOVES_LOSE, 4)
    assert state.legal_moves() == (30, 32)
    assert all(loses_at_once(state, move) for move in state.legal_moves())
    bot = UTTTBot("uct:iters=100000,solver=on", seed=3)
    assert bot.choose(state) in (30, 32)
    assert bot.last.verdict == "loss" and bot.last.iterations < 1000
    assert [proven for *_, proven in bot.root_stats()] == [fast_uct.LOSS] * 2


def test_solver_finds_a_win_in_three_plies():
    state = position(WIN_IN_THREE, 4)
    assert state.winning_moves() == ()  # no win in one ply
    forcing = {move for move in state.legal_moves() if forces_win_in_three(state, move)}
    assert forcing == {41}
    for seed in derive_seeds(5, 5):  # distinct streams (0 and 1 are one stream)
        bot = UTTTBot("uct:iters=100000,solver=on", seed=seed)
        assert bot.choose(state) == 41
        assert bot.last.how == "proven win" and bot.last.iterations < 2000


def test_a_proven_win_is_kept_and_played_at_once_with_reuse():
    state = position(WIN_IN_THREE, 4)
    bot = UTTTBot("uct:iters=100000,solver=on,reuse=on", seed=1)
    assert bot.choose(state) == 41
    after = state.play(41)
    (reply,) = after.legal_moves()  # O's one move, into board 5
    winning = after.play(reply)
    assert bot.choose(winning) in winning.winning_moves()
    assert bot.last.iterations == 0 and bot.last.how == "proven win"
    assert bot.last.reused_nodes > 0


def test_solver_never_plays_a_proven_loss_while_another_move_exists():
    state = position(TWO_QUICK_LOSSES, 4)
    assert state.legal_moves() == (30, 32, 48)
    quick = {move for move in state.legal_moves() if loses_at_once(state, move)}
    assert quick == {30, 32}
    solver_choices, plain_choices, both_proven = Counter(), Counter(), Counter()
    for seed in derive_seeds(30, 30):  # distinct streams (0 and 1 are one stream)
        for iterations in (100, 400):
            bot = UTTTBot(f"uct:iters={iterations},solver=on", seed=seed)
            move = bot.choose(state)
            stats = {m: proven for m, _, _, proven in bot.root_stats()}
            assert stats[move] != fast_uct.LOSS or set(stats.values()) == {fast_uct.LOSS}
            both_proven[iterations] += stats[30] == stats[32] == fast_uct.LOSS
            solver_choices[move] += 1
            plain_choices[UTTTBot(f"uct:iters={iterations}", seed=seed).choose(state)] += 1
    assert set(solver_choices) == {48}
    assert both_proven[400] == 30 and both_proven[100] >= 25  # the proofs come early
    # Measurable: plain UCT walks into a two-ply loss in many of these searches.
    assert plain_choices[30] + plain_choices[32] >= 10


def test_when_every_move_is_proven_lost_the_bot_still_answers_the_most_visited():
    state = position(TWO_QUICK_LOSSES, 4)
    # Move 48 loses too, only later: O forces a win within five more plies.
    assert not wins_by_force(state.play(48), 1, 3) and wins_by_force(state.play(48), 1, 5)
    bot = UTTTBot("uct:iters=200000,solver=on", seed=1)
    move = bot.choose(state)
    stats = bot.root_stats()
    assert bot.last.verdict == "loss" and bot.last.iterations < 200000
    assert all(proven == fast_uct.LOSS for *_, proven in stats)
    assert move == max(stats, key=lambda s: s[1])[0]


# ---------------------------------------------------------------- pool and budgets


def test_a_full_pool_stops_growing_but_the_bot_still_answers():
    bot = UTTTBot("uct:iters=3000,capacity=150", seed=5)
    move = bot.choose(UltimateTicTacToe())
    assert move in range(81)
    assert bot.last.iterations == 3000 and bot.pool.count <= 150
    assert int(bot.pool.visits[0]) == 3000


def test_a_pool_too_small_for_the_root_children_is_refused_when_the_spec_is_parsed():
    # A free choice has 81 moves: the root and its children need 82 nodes in any position.
    with pytest.raises(ValueError, match=r"capacity \(nodes in the pool\) must be a whole "
                                         r"number from 82 to 2,000,000,000, got 81\."):
        parse_spec("uct:iters=100,capacity=81")
    bot = UTTTBot("uct:iters=100,capacity=82", seed=5)
    assert bot.choose(UltimateTicTacToe()) in range(81)


def test_the_smallest_pool_with_reuse_answers_every_move():
    # With 82 nodes the root's children always fit; the kept subtrees fill the pool.
    bot = UTTTBot("uct:iters=60,capacity=82,reuse=on,solver=on", seed=2)
    opponent = RandomPlayer(3)
    state, answered = UltimateTicTacToe().play(CENTRE), 0
    while not state.is_terminal():
        if state.player_to_move == 1:
            move = bot.choose(state)
            answered += 1
            assert bot.pool.count <= 82
        else:
            move = opponent.choose(state)
        state = state.play(move)
    assert answered > 5


def test_time_budget_first_move_and_later_moves():
    bot = UTTTBot("uct:ms=25,first_ms=80", seed=1)
    state = UltimateTicTacToe()
    durations = []
    for _ in range(3):
        start = time.perf_counter()
        move = bot.choose(state)
        durations.append(time.perf_counter() - start)
        state = state.play(move)
        state = state.play(state.legal_moves()[0])
    assert 0.080 <= durations[0] < 0.080 + 0.060  # generous: the machine may be shared
    assert all(0.025 <= d < 0.025 + 0.060 for d in durations[1:])
    assert bot.last.iterations > 100


def test_time_budget_counts_from_the_given_clock_start():
    bot = UTTTBot("uct:ms=50,first_ms=50", seed=1)
    start = time.perf_counter() - 0.040  # 40 of the 50 ms already spent elsewhere
    bot.choose(UltimateTicTacToe(), clock_start=start)
    assert bot.last.seconds < 0.050 + 0.050
    late = time.perf_counter() - 1.0  # budget long gone: one small chunk, still an answer
    assert bot.choose(UltimateTicTacToe(), clock_start=late) in range(81)
    assert 1 <= bot.last.iterations <= 64


def test_same_seed_same_game_with_every_option_on():
    spec = "uct:c=0.5,iters=300,wins=on,solver=on,reuse=on,centre=on"

    def game(seed_x, seed_o):
        players = [UTTTBot(spec, seed=seed_x), UTTTBot(spec, seed=seed_o)]
        state, moves = UltimateTicTacToe(), []
        while not state.is_terminal():
            move = players[state.player_to_move].choose(state)
            moves.append(move)
            state = state.play(move)
        return moves

    first = game(1, 2)
    assert first == game(1, 2)
    assert first != game(3, 4)


def test_arena_matches_are_reproducible_with_bot_specs():
    spec_a, spec_b = parse_spec("uct:iters=150,solver=on,reuse=on"), parse_spec("uct:iters=150")
    one = play_match(spec_a, spec_b, UltimateTicTacToe(), 4, seed=11)
    two = play_match(spec_a, spec_b, UltimateTicTacToe(), 4, seed=11)
    assert one.records == two.records and one.games == 4


# -------------------------------------------------------------------------- reuse


def test_reroot_keeps_exactly_the_subtree():
    bot = UTTTBot("uct:iters=3000", seed=6)
    state = UltimateTicTacToe()
    bot.choose(state)
    pool = bot.pool
    child = max(pool.children(0), key=lambda i: pool.visits[i])
    grandchild = max(pool.children(child), key=lambda i: pool.visits[i])
    before = numba_tree(pool, grandchild)
    size = fast_uct.reroot(grandchild, pool.used, *pool.arrays(), pool.new_index)
    after = numba_tree(pool, 0)
    assert after[1:] == before[1:]  # same visits, wins and children all the way down

    def count(tree):
        return 1 + sum(count(sub) for sub in tree[3])

    assert size == pool.count == count(before)


def test_reuse_keeps_the_subtree_after_our_move_and_the_reply():
    bot = UTTTBot("uct:iters=2000,reuse=on", seed=7)
    state = UltimateTicTacToe()
    ours = bot.choose(state)
    pool = bot.pool
    our_node = next(i for i in pool.children(0) if pool.move[i] == ours)
    reply_node = max(pool.children(our_node), key=lambda i: pool.visits[i])
    reply, kept_visits = int(pool.move[reply_node]), int(pool.visits[reply_node])
    bot.choose(state.play(ours).play(reply))
    assert bot.last.reused_nodes > 1
    assert bot.last.root_visits == kept_visits + 2000
    # A position the bot never saw (not our move plus one reply) starts a fresh tree.
    other = UltimateTicTacToe().play(0)
    bot.choose(other)
    assert bot.last.reused_nodes == 0 and bot.last.root_visits == 2000


def test_opponent_reply():
    before = UltimateTicTacToe().play(CENTRE)
    assert opponent_reply(before, before.play(30)) == 30
    assert opponent_reply(before, before) is None
    assert opponent_reply(before, before.play(30).play(10)) is None
    assert opponent_reply(UltimateTicTacToe(), UltimateTicTacToe().play(5)) == 5


# --------------------------------------------------------------------------- SPECs


def test_spec_defaults_and_round_trip():
    spec = parse_spec("uct")
    assert spec == BotSpec()
    assert spec.c == pytest.approx(2 ** 0.5) and spec.ms == 100 and spec.first_ms == 1000
    assert spec.iterations is None and not (spec.wins or spec.solver or spec.reuse or spec.centre)
    full = parse_spec(" uct: c=0.5, scale=pm1, iters=2000, wins=on, solver=on, reuse=on, "
                      "centre=on, capacity=1000000 ")
    assert (full.c, full.scale, full.iterations, full.capacity) == (0.5, "pm1", 2000, 1000000)
    assert full.wins and full.solver and full.reuse and full.centre
    assert full.ms is None and full.first_ms is None
    for spec in (full, parse_spec("uct:ms=50"), parse_spec("uct:ms=80,first_ms=900"),
                 parse_spec("random")):
        assert parse_spec(str(spec)) == spec
        assert pickle.loads(pickle.dumps(spec)) == spec
    assert parse_spec("uct:ms=50").first_ms == 500  # ten times ms, like CodinGame's 1000 / 100


def test_spec_builds_players():
    generator = np.random.default_rng(0)
    assert isinstance(parse_spec("random")(seed=generator), RandomPlayer)
    bot = parse_spec("uct:iters=20")(seed=generator)
    assert isinstance(bot, UTTTBot)
    final = play_game([bot, parse_spec("random")(seed=1)], UltimateTicTacToe())
    assert final.is_terminal()


def test_seeds_give_reproducible_streams():
    state = random_positions([10])[0]
    assert UTTTBot("uct:iters=200", seed=5).choose(state) == \
        UTTTBot("uct:iters=200", seed=np.random.default_rng(5)).choose(state)
    a, b = UTTTBot("uct:iters=10", seed=5), UTTTBot("uct:iters=10", seed=6)
    assert a.rng[0] != b.rng[0]


@pytest.mark.parametrize("text, words", [
    ("", "non-empty"),
    ("mcts", "unknown bot 'mcts'"),
    ("uct:foo=1", "unknown option 'foo=1'"),
    ("uct:c", "unknown option 'c'"),
    ("uct:c=-1", r"c \(the exploration constant\) must be a number in \[0, inf\)"),
    ("uct:c=abc", "c must be a number"),
    ("uct:c=nan", "c .*number in"),
    ("uct:c=inf", "c .*number in"),
    ("uct:scale=2", "scale must be 01"),
    ("uct:iters=0", "iters .*from 1 to 100,000,000, got 0"),
    ("uct:iters=-5", "iters .*from 1 to 100,000,000, got -5"),
    ("uct:iters=2.5", "iters must be a whole number"),
    ("uct:ms=-1", (r"ms \(milliseconds\) must be a finite number > 0 and at most 86,400,000 "
                  r"\(a day\), got -1.0")),
    ("uct:ms=0", r"ms \(milliseconds\) must be a finite number > 0 .*, got 0.0"),
    ("uct:first_ms=-10", "first_ms .*> 0"),
    ("uct:iters=100,ms=50", "not both"),
    ("uct:wins=yes", "wins must be on or off"),
    ("uct:playout_wins=1", "playout_wins must be on or off"),
    ("uct:tree_wins=", "tree_wins must be on or off"),
    ("uct:wins=on,playout_wins=off", "give wins, or playout_wins and tree_wins, not both"),
    ("uct:tree_wins=on,wins=off", "give wins, or playout_wins and tree_wins, not both"),
    ("uct:first_iters=5000", "first_iters .*needs iters"),
    ("uct:ms=50,first_iters=500", "first_iters .*needs iters"),
    ("uct:iters=100,first_iters=0", "first_iters .*from 1 to 100,000,000, got 0"),
    ("uct:iters=100,first_iters=1.5", "first_iters must be a whole number"),
    ("uct:iters=100,first_iters=100000001", "first_iters .*got 100000001"),
    ("uct:iters=100,margin_ms=1", "margin_ms applies to a time budget"),
    ("uct:ms=50,margin_ms=50", r"margin_ms .*below ms and first_ms \(here 50\), got 50.0"),
    ("uct:ms=50,first_ms=20,margin_ms=30", r"below ms and first_ms \(here 20\)"),
    ("uct:margin_ms=-1", "margin_ms .*>= 0"),
    ("uct:margin_ms=nan", "margin_ms .*>= 0"),
    ("uct:margin_ms=x", "margin_ms must be a number"),
    ("uct:stop=1", "stop must be on or off"),
    ("uct:capacity=1", "capacity .*from 82 to 2,000,000,000, got 1"),
    ("uct:c=1,c=2", "twice"),
    ("random:c=1", "random bot takes no options"),
])
def test_bad_specs_are_value_errors_with_a_sentence(text, words):
    with pytest.raises(ValueError, match=words):
        parse_spec(text)


def test_unknown_keys_list_what_is_allowed():
    with pytest.raises(ValueError) as error:
        parse_spec("uct:speed=9")
    for key in ("c ", "scale", "iters", "first_iters", "ms", "first_ms", "margin_ms", "wins",
                "playout_wins", "tree_wins", "solver", "reuse", "centre", "stop", "capacity"):
        assert key in str(error.value)


def test_bad_positions():
    bot = UTTTBot("uct:iters=10", seed=1)
    with pytest.raises(ValueError, match="UltimateTicTacToe"):
        bot.choose("not a position")
    over = position(IMMEDIATE_WIN, 2).play(8)
    with pytest.raises(ValueError, match="finished game"):
        bot.choose(over)
    with pytest.raises(ValueError, match="random"):
        UTTTBot("random")


# ------------------------------------------------------------------------- openings


def test_random_openings():
    openings = random_openings(6, plies=2, seed=4)
    assert len(set(openings)) == 6
    assert all(sum(m.bit_count() for m in s.x + s.o) == 2 for s in openings)
    assert openings == random_openings(6, plies=2, seed=4)
    assert len(random_openings(81, plies=1, seed=0)) == 81
    with pytest.raises(ValueError, match="at most 81, the number of distinct openings of 1 pl"):
        random_openings(82, plies=1, seed=0)
    with pytest.raises(ValueError, match="plies"):
        random_openings(3, plies=0)


# ------------------------------------------- win-taking split, first-move iterations


def play_out(specs, seeds, state):
    """The moves of one game from ``state`` between two bots built from ``specs`` and ``seeds``."""
    players = [parse_spec(spec)(seed=seed) for spec, seed in zip(specs, seeds)]
    moves = []
    while not state.is_terminal():
        move = players[len(moves) % 2].choose(state)
        moves.append(move)
        state = state.play(move)
    return moves


# Recorded with the code from before playout_wins, tree_wins and first_iters existed (same
# seeds, same openings): a SPEC without the new keys must still play these games move for move.
BEFORE_THE_SPLIT = [
    ("uct:c=0.5,iters=300,wins=on", 1, [
        39, 47, 79, 68, 42, 28, 23, 62, 17, 53, 71, 33, 0, 9, 46, 57, 10, 32, 24, 63, 29, 7, 21,
        73, 76, 77, 60, 2, 6, 20, 78, 55, 4, 5, 25, 59, 15, 37, 40, 50, 61, 12, 27, 19, 41, 36,
        45, 64, 22, 18, 80]),
    ("uct:c=0.7,scale=pm1,iters=250,solver=on", 3, [
        20, 70, 32, 24, 74, 71, 51, 56, 26, 69, 27, 9, 38, 35, 15, 29, 7, 23, 72, 54, 0, 10, 41,
        52, 77, 55, 13, 30, 11, 44, 53, 8, 16, 48, 14, 42, 46, 67, 50, 68, 34, 5, 17, 43, 57, 2,
        66, 28, 3, 18, 75, 12, 37, 47, 36, 22, 21, 4]),
    ("uct:c=0.5,iters=500,wins=on,reuse=on", 4, [
        61, 22, 77, 79, 76, 66, 37, 41, 51, 72, 64, 40, 39, 36, 29, 17, 52, 57, 0, 1, 12, 27, 18,
        54, 9, 45, 65, 53, 62, 15, 48, 56, 24, 55, 4, 14, 35, 8, 25, 68, 34, 5, 26, 60, 43, 31,
        30, 75, 80, 71, 70, 78, 69]),
]


@pytest.mark.parametrize("spec, k, recorded", BEFORE_THE_SPLIT)
def test_specs_without_the_new_keys_play_the_games_recorded_before_them(spec, k, recorded):
    opening = random_openings(1, plies=2, seed=k)[0]
    assert play_out([spec, spec], [100 + k, 200 + k], opening) == recorded
    # wins=on spelled as its two halves is the same bot: the same game
    if "wins=on" in spec:
        split = spec.replace("wins=on", "playout_wins=on,tree_wins=on")
        assert play_out([split, split], [100 + k, 200 + k], opening) == recorded


def test_a_game_from_the_empty_board_is_the_one_recorded_before_the_split():
    recorded = [
        40, 30, 20, 69, 38, 52, 68, 34, 3, 18, 55, 21, 74, 71, 43, 49, 76, 75, 63, 28, 5, 24, 72,
        73, 77, 70, 48, 54, 0, 2, 15, 45, 56, 8, 16, 32, 17, 44, 42, 46, 66, 36, 27, 10, 41, 35,
        39, 37, 64]
    specs = ["uct:c=0.5,iters=600,wins=on,solver=on,reuse=on,centre=on",
             "uct:c=0.5,iters=600,wins=on"]
    assert play_out(specs, [7, 8], UltimateTicTacToe()) == recorded
    # first_iters equal to iters is no change at all
    specs[1] += ",first_iters=600"
    assert play_out(specs, [7, 8], UltimateTicTacToe()) == recorded


def test_split_win_taking_specs_read_print_and_compare_by_what_they_do():
    both = parse_spec("uct:playout_wins=on,tree_wins=on,iters=10")
    assert both == parse_spec("uct:wins=on,iters=10") and str(both).count("wins=") == 1
    assert parse_spec("uct:playout_wins=off,tree_wins=off") == parse_spec("uct")
    playouts = parse_spec("uct:c=0.5,iters=2000,playout_wins=on")  # tree_wins left out: off
    assert (playouts.playouts_take_wins, playouts.tree_takes_wins, playouts.wins) == \
        (True, False, False)
    assert str(playouts) == ("uct:c=0.5,scale=01,iters=2000,playout_wins=on,tree_wins=off,"
                             "solver=off,reuse=off,centre=off,capacity=2000000")
    tree = parse_spec("uct:tree_wins=on,ms=80,first_ms=900")
    assert (tree.playouts_take_wins, tree.tree_takes_wins) == (False, True)
    assert "playout_wins=off,tree_wins=on" in str(tree)
    for spec in (both, playouts, tree, parse_spec("uct:iters=500,first_iters=5000,wins=on")):
        assert parse_spec(str(spec)) == spec
        assert pickle.loads(pickle.dumps(spec)) == spec
    # the printed form of a spec without the new keys is what it always was
    assert str(parse_spec("uct:c=0.5,iters=1000")) == (
        "uct:c=0.5,scale=01,iters=1000,wins=off,solver=off,reuse=off,centre=off,"
        "capacity=2000000")
    assert set(parse_spec("uct:iters=10,wins=on").as_dict()) == {
        "kind", "c", "scale", "iterations", "ms", "first_ms", "wins", "solver", "reuse",
        "centre", "capacity"}
    assert playouts.as_dict()["playout_wins"] is True and playouts.as_dict()["tree_wins"] is False


def test_split_win_taking_fields_directly_and_with_replace():
    import dataclasses

    base = BotSpec(iterations=100)
    assert dataclasses.replace(base, playout_wins=True).tree_takes_wins is False
    assert dataclasses.replace(base, playout_wins=True, tree_wins=True) == \
        dataclasses.replace(base, wins=True)
    with pytest.raises(ValueError, match="not both"):
        BotSpec(wins=True, tree_wins=False)
    with pytest.raises(ValueError, match="not both"):  # wins=True already means both
        dataclasses.replace(BotSpec(wins=True), playout_wins=False)
    with pytest.raises(ValueError, match="playout_wins must be True, False or None"):
        BotSpec(playout_wins="on")
    with pytest.raises(ValueError, match="first_iters .*needs iters"):
        BotSpec(first_iterations=10)


def test_playout_wins_alone_and_tree_wins_alone_each_change_the_search():
    state = random_positions([40], seed=3)[0]
    trees = {}
    for keys in ("wins=off", "playout_wins=on", "tree_wins=on", "wins=on"):
        bot = UTTTBot(f"uct:c=0.7,iters=3000,{keys}", seed=5)
        bot.choose(state)
        trees[keys] = numba_tree(bot.pool)
        single = sum(moves == [node_state.winning_moves()[0]]
                     for node_state, moves in expanded_positions(bot.pool, state)
                     if node_state.winning_moves())
        # only the tree rule gives a position with an immediate win that one child
        assert (single > 0) == (keys in ("tree_wins=on", "wins=on"))
    assert len({repr(tree) for tree in trees.values()}) == 4  # four different searches


def test_playout_wins_only_takes_wins_in_playouts():
    # X has an immediate win at the root: without the tree rule the root keeps every child,
    # and only the playouts below them differ from plain ones, so the statistics do.
    state = position(IMMEDIATE_WIN, 2)
    bot = UTTTBot("uct:iters=200,playout_wins=on", seed=1)
    bot.choose(state)
    assert sorted(move for move, *_ in bot.root_stats()) == sorted(state.legal_moves())
    plain = UTTTBot("uct:iters=200", seed=1)
    plain.choose(state)
    assert bot.root_stats() != plain.root_stats()


def test_first_iters_searches_the_first_move_longer():
    bot = UTTTBot("uct:iters=300,first_iters=3000", seed=1)
    state = UltimateTicTacToe()
    iterations = []
    for _ in range(3):
        state = state.play(bot.choose(state))
        iterations.append(bot.last.iterations)
        state = state.play(state.legal_moves()[0])
    assert iterations == [3000, 300, 300]
    assert "iters=300,first_iters=3000," in str(bot.spec)
    assert parse_spec("uct:iters=300,first_iters=300") == parse_spec("uct:iters=300")


def test_first_iters_with_the_centre_opening_goes_unused_as_x_and_is_used_as_o():
    # The first move is the bot's first call to choose, as with first_ms: as X with centre=on
    # it plays the centre without searching, and the first-move budget is not carried over.
    spec = "uct:iters=200,first_iters=2000,centre=on"
    as_x = UTTTBot(spec, seed=1)
    state = UltimateTicTacToe()
    assert as_x.choose(state) == CENTRE and as_x.last.iterations == 0
    state = state.play(CENTRE)
    state = state.play(state.legal_moves()[0])
    as_x.choose(state)
    assert as_x.last.iterations == 200
    as_o = UTTTBot(spec, seed=1)
    as_o.choose(UltimateTicTacToe().play(0))
    assert as_o.last.iterations == 2000


# ----------------------------------------------------------- time management: margin, stop


def test_margin_and_stop_read_print_and_save_only_when_set():
    plain = parse_spec("uct:ms=80,first_ms=900")
    assert (plain.margin_ms, plain.stop) == (0.0, False)
    assert "margin" not in str(plain) and "stop" not in str(plain)
    assert set(plain.as_dict()) == set(parse_spec("uct:iters=5").as_dict())
    spec = parse_spec("uct:ms=80,first_ms=900,margin_ms=2.5,stop=on,wins=on")
    assert str(spec) == ("uct:c=1.4142135623730951,scale=01,ms=80,first_ms=900,margin_ms=2.5,"
                         "wins=on,solver=off,reuse=off,centre=off,stop=on,capacity=2000000")
    assert parse_spec(str(spec)) == spec and pickle.loads(pickle.dumps(spec)) == spec
    assert spec.as_dict()["margin_ms"] == 2.5 and spec.as_dict()["stop"] is True
    assert parse_spec("uct:ms=80,margin_ms=0") == parse_spec("uct:ms=80")
    counted = parse_spec("uct:iters=1000,stop=on")
    assert str(counted).endswith(",stop=on,capacity=2000000") and parse_spec(str(counted)) == counted


def test_margin_moves_the_deadline_earlier():
    # 910 of the 1,000 ms already spent: with a 900 ms margin the deadline has passed, so the
    # bot runs its one first chunk (64 iterations) and answers; without one it searches on.
    late = UTTTBot("uct:ms=1000,first_ms=1000,margin_ms=900", seed=1)
    late.choose(UltimateTicTacToe(), clock_start=time.perf_counter() - 0.910)
    assert late.last.iterations == 64
    on_time = UTTTBot("uct:ms=1000,first_ms=1000", seed=1)
    on_time.choose(UltimateTicTacToe(), clock_start=time.perf_counter() - 0.910)
    assert on_time.last.iterations > 64


@pytest.mark.parametrize("options", ["c=0.5", "c=0.5,wins=on", "c=1.4,scale=pm1,tree_wins=on"])
def test_stop_answers_what_the_whole_search_answers_with_fewer_iterations(options):
    positions = random_positions([0, 2, 10, 20, 30, 40], seed=7)
    saved = 0
    for k, state in enumerate(positions):
        if state.is_terminal():
            continue
        for budget in (300, 3000):
            whole = UTTTBot(f"uct:{options},iters={budget}", seed=k)
            early = UTTTBot(f"uct:{options},iters={budget},stop=on", seed=k)
            assert early.choose(state) == whole.choose(state), (k, budget)
            assert 1 <= early.last.iterations <= budget == whole.last.iterations
            saved += budget - early.last.iterations
            best, second = early._lead()  # at the stop, the lead exceeds what was left
            assert second < 0 or best - second > budget - early.last.iterations \
                or early.last.iterations == budget
    assert saved > 0


def test_stop_with_one_candidate_ends_a_time_budget_at_once():
    # tree_wins leaves one child at a position with an immediate win: nothing can overtake it.
    state = position(IMMEDIATE_WIN, 2)
    bot = UTTTBot("uct:ms=400,first_ms=400,wins=on,stop=on", seed=1)
    start = time.perf_counter()
    assert bot.choose(state) == 8
    assert time.perf_counter() - start < 0.2 and bot.last.iterations == 64
    whole = UTTTBot("uct:ms=400,first_ms=400,wins=on", seed=1)
    assert whole.choose(state) == 8 and whole.last.iterations > 64


def test_stop_with_reuse_can_answer_from_the_kept_tree():
    spec = "uct:c=0.5,iters=2000,reuse=on,stop=on"
    bot, state = UTTTBot(spec, seed=3), UltimateTicTacToe()
    counts = []
    for _ in range(6):
        state = state.play(bot.choose(state))
        counts.append(bot.last.iterations)
        state = state.play(state.legal_moves()[0])
    assert all(0 <= count <= 2000 for count in counts) and sum(counts) < 6 * 2000
