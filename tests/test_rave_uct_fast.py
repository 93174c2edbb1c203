"""RAVE inside the UTTT bot's search (mctslib.fast.uttt_rave_uct, mctslib.bots.rave.RAVEUCTBot):
with its tables and prior off it is the bot, node for node; with the bot's options off it builds
the readable RAVESearch's tree and AMAF tables; the prior rule; the input checks.
Chapter "Enhancements that matter"."""

import pytest

from mctslib.bots.rave import RAVEUCTBot, RAVEUCTSpec
from mctslib.bots.uttt import UTTTBot, random_openings
from mctslib.fast import uttt as fu
from mctslib.fast import uttt_rave_uct as kernel
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.search.rave import RAVESearch
from mctslib.xorshift import XorShift64

POSITIONS = [UltimateTicTacToe(), UltimateTicTacToe().play(40)] + random_openings(3, 14, seed=5)


def tree(bot):
    """Every node of the bot's pool: (move, first child, child count, visits, wins, proven)."""
    pool = bot.pool
    return [tuple(int(a[i]) if a.dtype.kind == "i" else float(a[i]) for a in pool.arrays())
            for i in range(pool.count)]


@pytest.mark.parametrize("options", ["c=0.5,wins=on,solver=on", "c=0.7,wins=off",
                                     "c=0.3,playout_wins=on,tree_wins=off,solver=on"])
def test_without_tables_and_prior_it_is_the_bot_node_for_node(options):
    spec = f"uct:{options},iters=1500"
    for index, position in enumerate(POSITIONS):
        bot, rave = UTTTBot(spec, seed=index), RAVEUCTSpec(spec, amaf=False)(seed=index)
        assert rave.choose(position) == bot.choose(position)
        assert tree(rave) == tree(bot)
        assert rave.last.iterations == bot.last.iterations


@pytest.mark.parametrize("seed, c, bias", [(1, 0.0, 0.1), (2, 0.3, 0.05), (3, 0.5, 0.3)])
def test_with_the_bots_options_off_it_builds_the_readable_rave_tree(seed, c, bias):
    state = UltimateTicTacToe().play(40)
    readable = RAVESearch(c, bias=bias, iterations=300, seed=XorShift64(seed))
    root = readable.search(state)
    bot = RAVEUCTBot(RAVEUCTSpec(f"uct:c={c},iters=300", bias=bias), XorShift64(seed))
    bot.choose(state)
    player = state.player_to_move
    got = [(int(bot.pool.move[i]), int(bot.pool.visits[i]), float(bot.pool.wins[i]))
           + bot.amaf_tables.amaf(0, player, int(bot.pool.move[i])) for i in bot.pool.children(0)]
    expected = []
    for child in root.children:
        stats = readable.amaf.get(root, {}).get((player, child.move))
        expected.append((child.move, child.visits, child.wins)
                        + ((stats.visits, stats.wins) if stats else (0, 0.0)))
    assert got == expected
    assert bot.amaf_tables.used[0] == len(readable.amaf)  # one table per node, as readable


def readable_prior(state, move):
    """The prior's rule, written with the readable rules."""
    me = state.player_to_move
    after = state.play(move)
    value = 0.5 + (0.2 if after.won_boards(me) > state.won_boards(me) else 0.0)
    can_win = any(after.play(m).won_boards(1 - me) > after.won_boards(1 - me)
                  for m in after.legal_moves())
    return value - (0.2 if after.free_choice or can_win else 0.0)


def test_the_prior_follows_its_rule_on_random_positions():
    checked = 0
    for state in random_openings(40, 20, seed=3) + random_openings(40, 6, seed=4):
        s = fu.to_array(state)
        for move in state.legal_moves():
            after = state.play(move)
            if after.is_terminal():
                continue
            assert kernel.move_prior(s, move) == pytest.approx(readable_prior(state, move)), (
                state, move)
            checked += 1
    assert checked > 500


def test_the_prior_changes_the_search_and_the_answer_uses_real_visits():
    spec = "uct:c=0.4,wins=on,solver=on,iters=2000"
    plain = RAVEUCTSpec(spec, bias=0.1)(seed=3)
    primed = RAVEUCTSpec(spec, bias=0.1, prior_visits=20.0)(seed=3)
    state = random_openings(1, 12, seed=9)[0]
    plain.choose(state)
    move = primed.choose(state)
    assert tree(plain) != tree(primed)
    stats = primed.root_stats()
    assert sum(v for _, v, _, _ in stats) == primed.last.iterations
    best = max(stats, key=lambda row: row[1])
    assert move == best[0] or best[3] == -1


def test_timed_bots_and_full_table_pools_still_answer():
    bot = RAVEUCTSpec("uct:c=0.3,wins=on,ms=5,first_ms=5,capacity=20000")(seed=1)
    assert bot.choose(UltimateTicTacToe()) in range(81)
    assert bot.amaf_tables.used[0] <= 20000 // 16
    tables = kernel.AMAFTables(5000, 3)
    pool_bot = RAVEUCTSpec("uct:c=0.3,iters=500,capacity=5000")(seed=2)
    pool_bot.amaf_tables = tables
    assert pool_bot.choose(UltimateTicTacToe().play(40)) in range(81)
    assert tables.used[0] == 3 and pool_bot.last.iterations == 500


@pytest.mark.parametrize("options, message", [
    ({"spec": "random"}, "uct SPEC"),
    ({"spec": "uct:reuse=on,iters=10"}, "reuse"),
    ({"spec": "uct:scale=pm1,iters=10"}, "scale"),
    ({"spec": "uct:wins=on,playout=safe,iters=10"}, "random or win-taking"),
    ({"bias": 1.5}, "bias \\(b\\) must be"),
    ({"prior_visits": -1.0}, "prior_visits"),
    ({"amaf": 1}, "amaf must be True or False"),
])
def test_bad_options_are_refused_with_a_sentence(options, message):
    with pytest.raises(ValueError, match=message):
        RAVEUCTSpec(**options)
    with pytest.raises(ValueError, match="RAVEUCTSpec"):
        RAVEUCTBot("uct")
    with pytest.raises(ValueError, match="tables \\(AMAF tables\\)"):
        kernel.AMAFTables(100, 0)
    fresh = kernel.AMAFTables(10, 1)
    assert fresh.table[0] == -1 and fresh.used[0] == 0 and fresh.amaf(0, 0, 40) == (0, 0.0)
