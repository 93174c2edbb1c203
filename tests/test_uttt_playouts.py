"""UTTT playout policies (mctslib.fast.uttt_playouts, mctslib.search.uttt_playouts), expand=k,
the pool when it runs out, and the SPEC keys playout= and expand= (chapter "Enhancements and
failure modes")."""

import itertools

import numpy as np
import pytest

from mctslib.bots.uttt import (
    BYTES_PER_NODE,
    PLAYOUTS,
    UTTTBot,
    parse_spec,
    random_openings,
)
from mctslib.fast import uttt as engine
from mctslib.fast import uttt_playouts as fast
from mctslib.fast import uttt_uct as fast_uct
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.search import uttt_playouts as readable
from mctslib.xorshift import XorShift64


def work():
    return np.zeros(81, np.int64), np.zeros(engine.STATE_SIZE, np.int64)


def starts(count, scoring="codingame"):
    """Openings of 1 to 24 plies: early, middle and late positions."""
    return [random_openings(1, 1 + (3 * k) % 24, 100 + k, scoring)[0] for k in range(count)]


@pytest.mark.parametrize("scoring", ["codingame", "openspiel"])
@pytest.mark.parametrize("policy", PLAYOUTS)
def test_fast_and_readable_policies_play_the_same_games(policy, scoring):
    code = fast.policy_code(policy)
    for k, state in enumerate(starts(25, scoring)):
        s, rng = engine.to_array(state), engine.new_rng(k + 1)
        fast.policy_playout(s, rng, code, engine.scoring_code(scoring), *work())
        stream = XorShift64(k + 1)
        end = readable.policy_playout(state, stream, policy)
        assert engine.from_array(s, scoring) == end
        assert stream.state == int(rng[0])


@pytest.mark.parametrize("policy", PLAYOUTS)
def test_the_fast_loop_makes_the_moves_of_the_plain_loop(policy):
    code = fast.policy_code(policy)
    for scoring in (engine.CODINGAME, engine.OPENSPIEL):
        for k, state in enumerate(starts(60)):
            a = engine.to_array(state)
            b, ra = a.copy(), engine.new_rng(7 * k + 3)
            rb = ra.copy()
            fast.policy_playout(a, ra, code, scoring, *work())
            fast.policy_playout_reference(b, rb, code, scoring, *work())
            assert (a == b).all() and ra[0] == rb[0]


def test_wins_policy_is_todays_win_taking_playout():
    for k, state in enumerate(starts(20)):
        a = engine.to_array(state)
        b, ra = a.copy(), engine.new_rng(k + 11)
        rb = ra.copy()
        fast.policy_playout_reference(a, ra, fast.WINS, engine.CODINGAME, *work())
        fast_uct.win_taking_playout(b, rb, engine.CODINGAME, np.zeros(81, np.int64))
        assert (a == b).all() and ra[0] == rb[0]


def test_safe_moves_leave_no_immediate_win_when_they_can():
    """Along safe playouts: every move is decisive, or leaves the opponent no game win if
    some move does (checked by brute force on the readable rules)."""
    checked = 0
    for k, state in enumerate(starts(30)):
        stream = XorShift64(k + 1)
        while not state.is_terminal():
            move = readable.policy_move(state, XorShift64(stream.state), "safe")
            readable.policy_move(state, stream, "safe")
            after = state.play(move)
            if after.winner() != state.player_to_move:
                safe = [m for m in state.legal_moves() if not state.play(m).winning_moves()]
                if safe:
                    assert move in safe
                    checked += len(state.legal_moves()) > len(safe)
            state = after
    assert checked > 20  # the rule did drop moves, many times


def test_greedy_takes_the_lowest_small_board_win_and_capture_some_small_board_win():
    # Search the openings for positions where the player to move can win a small board.
    found = 0
    for k, state in enumerate(starts(200)):
        if readable.danger(state) or state.winning_moves():
            continue
        captures = [m for m in state.legal_moves() if readable.wins_small_board(state, m)]
        if not captures:
            continue
        found += 1
        assert readable.policy_move(state, XorShift64(k + 1), "greedy") == captures[0]
        assert readable.policy_move(state, XorShift64(k + 1), "capture") in captures
        s = engine.to_array(state)
        assert fast.policy_move(s, engine.new_rng(k + 1), fast.GREEDY, 0, *work()) == captures[0]
    assert found >= 5


def test_policies_differ_in_what_they_do():
    """The share of games ending in a line grows from random to safe playouts (measured)."""
    s = engine.to_array(UltimateTicTacToe())
    draws = {p: fast.policy_tally(s, 3000, engine.new_rng(5), fast.policy_code(p), 1)[2]
             for p in PLAYOUTS}  # OpenSpiel scoring: an all-closed game is a draw
    assert draws["wins"] < draws["random"]
    assert len(set(draws.values())) == len(PLAYOUTS)


def test_policy_names_are_checked():
    with pytest.raises(ValueError, match="playout must be one of random, wins, safe"):
        fast.policy_code("clever")
    with pytest.raises(ValueError, match="playout must be one of"):
        readable.policy_move(UltimateTicTacToe(), XorShift64(1), "clever")


# ------------------------------------------------------------------------- SPEC keys


def test_playout_and_expand_round_trip_and_print_only_when_set():
    plain = parse_spec("uct:iters=100,wins=on")
    assert "playout" not in str(plain) and "expand" not in str(plain)
    assert "playout" not in plain.as_dict() and "expand" not in plain.as_dict()
    assert plain.playout_policy == "wins" and parse_spec("uct").playout_policy == "random"
    for text in ("uct:iters=100,wins=on,playout=safe,expand=8",
                 "uct:iters=100,playout_wins=on,tree_wins=off,playout=greedy",
                 "uct:ms=50,wins=on,playout=capture"):
        spec = parse_spec(text)
        assert parse_spec(str(spec)) == spec and spec.playout_policy in text
    assert parse_spec("uct:wins=on,playout=wins") == parse_spec("uct:wins=on")
    assert parse_spec("uct:playout=random") == parse_spec("uct")


@pytest.mark.parametrize("text, words", [
    ("uct:playout=clever", "playout must be one of random, wins, safe, capture, greedy"),
    ("uct:playout=safe", "playout=safe takes an immediate win itself: give it with wins=on"),
    ("uct:wins=on,playout=random", "playout=random contradicts playout_wins=on"),
    ("uct:playout=wins", "playout=wins contradicts playout_wins=off"),
    ("uct:expand=0", (r"expand \(visits before a leaf gets its children\) must be a whole "
                      r"number from 1 to 10,000, got 0")),
    ("uct:expand=10001", "from 1 to 10,000"),
    ("uct:expand=2.5", "expand must be a whole number"),
])
def test_bad_playout_and_expand_are_value_errors(text, words):
    with pytest.raises(ValueError, match=words):
        parse_spec(text)


def test_unknown_keys_list_playout_and_expand():
    with pytest.raises(ValueError) as error:
        parse_spec("uct:speed=9")
    assert "playout (random, wins, safe, capture or greedy)" in str(error.value)
    assert "expand (a whole number from 1 to 10,000)" in str(error.value)


# ------------------------------------------------------------------------- the search


def test_playout_wins_spec_searches_as_before():
    """playout=wins is wins=on: the same spec, so the same tree (the default is unchanged)."""
    state = random_openings(1, 4, 3)[0]
    a = UTTTBot("uct:iters=3000,c=0.5,wins=on", seed=4)
    b = UTTTBot("uct:iters=3000,c=0.5,wins=on,playout=wins,expand=1", seed=4)
    assert a.choose(state) == b.choose(state) and a.root_stats() == b.root_stats()


def test_each_policy_changes_the_search():
    state = random_openings(1, 6, 3)[0]
    stats = set()
    for policy in PLAYOUTS:
        wins = "off" if policy == "random" else "on"
        bot = UTTTBot(f"uct:iters=2000,c=0.5,wins={wins},playout={policy}", seed=4)
        bot.choose(state)
        stats.add(tuple(bot.root_stats()))
    assert len(stats) == len(PLAYOUTS)


def test_expand_k_grows_a_smaller_tree_and_expands_only_after_k_visits():
    state = random_openings(1, 2, 8)[0]
    nodes = {}
    for k in (1, 2, 8):
        bot = UTTTBot(f"uct:iters=4000,c=0.5,expand={k}", seed=2)
        bot.choose(state)
        pool = bot.pool
        nodes[k] = pool.count
        # A node with children other than the root was visited at least k times before
        # it got them, so at least k + 1 times in all (its expanding visit too).
        inner = [i for i in range(1, pool.count) if pool.child_count[i] > 0]
        assert inner and min(int(pool.visits[i]) for i in inner) >= k + 1
    assert nodes[1] > nodes[2] > nodes[8]


def test_pool_bytes_per_node():
    pool = fast_uct.NodePool(10_000)
    arrays = (*pool.arrays(), pool.new_index)
    measured = sum(a.nbytes for a in arrays)
    padding = fast_uct.LANES * (pool.visits.itemsize + pool.wins.itemsize)
    assert measured == 10_000 * BYTES_PER_NODE + padding


OPTION_GRID = list(itertools.product(
    ("random", "wins", "safe", "greedy"), (False, True), (1, 3), ("01", "pm1"), (False, True)))


@pytest.mark.parametrize("policy, solver, expand, scale, reuse", OPTION_GRID)
def test_a_full_pool_still_answers_with_every_option(policy, solver, expand, scale, reuse):
    wins = "off" if policy == "random" else "on"
    text = (f"uct:iters=3000,c=0.5,scale={scale},wins={wins},playout={policy},"
            f"solver={'on' if solver else 'off'},reuse={'on' if reuse else 'off'},"
            f"expand={expand},capacity=100")
    bot = UTTTBot(text, seed=3)
    state = UltimateTicTacToe()
    for _ in range(6):  # a few moves each side, so reuse re-roots a full pool
        move = bot.choose(state)
        assert move in state.legal_moves()
        assert bot.pool.count <= 100 and bot.last.iterations >= 1
        state = state.play(move)
        if state.is_terminal():
            break
        state = state.play(state.legal_moves()[0])
        if state.is_terminal():
            break


# ------------------------------------------------------------------------- draw contempt


def test_draw_value_round_trips_and_half_is_the_old_search():
    spec = parse_spec("uct:iters=100,wins=on,draw=0.3")
    assert parse_spec(str(spec)) == spec and ",draw=0.3," in str(spec)
    assert parse_spec("uct:iters=100,draw=0.5") == parse_spec("uct:iters=100")
    assert "draw" not in parse_spec("uct:iters=100").as_dict()
    state = random_openings(1, 4, 3, "openspiel")[0]
    a = UTTTBot("uct:iters=3000,c=0.5,wins=on", seed=4)
    b = UTTTBot("uct:iters=3000,c=0.5,wins=on,draw=0.5", seed=4)
    assert a.choose(state) == b.choose(state) and a.root_stats() == b.root_stats()


def test_contempt_lowers_the_value_of_drawn_lines():
    """Late in a game under OpenSpiel's scoring many playouts are draws: valued 0.2 instead
    of 0.5, the root's mean (for the player to move) drops."""
    state = random_openings(1, 24, 6, "openspiel")[0]
    means = {}
    for draw in (0.5, 0.2):
        bot = UTTTBot(f"uct:iters=4000,c=0.5,wins=on,draw={draw}", seed=4)
        bot.choose(state)
        visits = sum(v for _, v, _, _ in bot.root_stats())
        means[draw] = sum(v * m for _, v, m, _ in bot.root_stats()) / visits
    assert means[0.2] < means[0.5] - 0.01


@pytest.mark.parametrize("text, words", [
    ("uct:draw=1.5", r"draw \(a drawn playout's worth to the bot\) must be a number in \[0, 1\]"),
    ("uct:draw=-0.1", r"must be a number in \[0, 1\], got -0.1"),
    ("uct:draw=nan", r"must be a number in \[0, 1\], got nan"),
    ("uct:draw=x", "draw must be a number"),
])
def test_bad_draw_values(text, words):
    with pytest.raises(ValueError, match=words):
        parse_spec(text)


# ------------------------------------------------------------------------- the experiment


def test_rollouts_experiment_repeats_and_parts_merge(tmp_path):
    from mctslib.experiments.uttt.enhancements import merge_into, rollouts_experiment

    both = rollouts_experiment(200, 4, policies=["safe", "greedy"])
    alone = rollouts_experiment(200, 4, policies=["greedy"])
    # a comparison's seed is its own: the same games with or without the others
    assert both.comparisons[1].results == alone.comparisons[0].results
    assert both.comparisons[1].seed == alone.comparisons[0].seed == [15, 4, 200]
    path = tmp_path / "rollouts.json"
    merge_into(rollouts_experiment(200, 4, policies=["safe"]), path)
    merged = merge_into(alone, path)
    merged = merge_into(alone, path)  # the same label again: replaced, not added
    assert [c.label for c in merged.comparisons] == [c.label for c in both.comparisons]
    assert len(merged.parameters["parts"]) == 3
    assert merged.comparisons[0].results == both.comparisons[0].results
    with pytest.raises(ValueError, match="policies must be one or more of"):
        rollouts_experiment(200, 4, policies=["clever"])
    with pytest.raises(ValueError, match="wins=on"):
        rollouts_experiment(200, 4, options="c=0.5")


def test_search_called_the_old_way_is_the_default_search():
    """Callers written before playout codes, expand, copy and draw still run the same search."""
    state = engine.to_array(random_openings(1, 3, 9)[0])
    trees = []
    for extra in ((), (1, np.zeros(engine.STATE_SIZE, np.int64), 0.5)):
        pool = fast_uct.NodePool(50_000)
        work = (np.zeros(engine.STATE_SIZE, np.int64), np.zeros(fast_uct.MAX_PATH, np.int64),
                np.zeros(81, np.int64), np.zeros(fast_uct.SCORES_SIZE, np.float64))
        ran = fast_uct.search(state, 1500, 0.5, False, True, True, False, 0, engine.new_rng(3),
                              pool.used, *pool.arrays(), *work, *extra)
        trees.append((ran, pool.count, pool.visits[:pool.count].tolist()))
    assert trees[0] == trees[1] and trees[0][0] == 1500
