"""The evaluation inside the UTTT bot's search: early playout termination, SPEC keys cutoff= and
cutoff_scale= (mctslib.fast.uttt_uct, mctslib.bots.uttt; chapter "Enhancements and failure
modes")."""

import math

import numpy as np
import pytest

from mctslib.bots.uttt import MAX_CUTOFF, UTTTBot, parse_spec, random_openings
from mctslib.fast import uttt as engine
from mctslib.fast import uttt_uct as fast_uct
from mctslib.fast.uttt_alphabeta import evaluate
from mctslib.fast.xorshift import below
from mctslib.games.uttt import UltimateTicTacToe


def run(state, iterations, seed, **options):
    """A search from ``state`` with the bot's default work arrays; (ran, pool)."""
    pool = fast_uct.NodePool(60_000)
    work = (np.zeros(engine.STATE_SIZE, np.int64), np.zeros(fast_uct.MAX_PATH, np.int64),
            np.zeros(81, np.int64), np.zeros(fast_uct.SCORES_SIZE, np.float64))
    ran = fast_uct.search(engine.to_array(state), iterations, 0.5, False,
                          options.pop("playout", 1), True, options.pop("solver", False), 0,
                          engine.new_rng(seed), pool.used, *pool.arrays(), *work, 1,
                          np.zeros(engine.STATE_SIZE, np.int64), 0.5, **options)
    return ran, pool


def tree(pool):
    return (pool.count, pool.visits[:pool.count].tolist(), pool.wins[:pool.count].tolist())


def test_cutoff_zero_is_todays_search():
    state = random_openings(1, 5, 2)[0]
    old = run(state, 2000, 7)
    for extra in ({"cutoff": 0}, {"cutoff": 0, "cutoff_scale": 3.0}):
        new = run(state, 2000, 7, **extra)
        assert new[0] == old[0] == 2000 and tree(new[1]) == tree(old[1])
    assert parse_spec("uct:iters=100,cutoff=0,cutoff_scale=100") == parse_spec("uct:iters=100")
    assert "cutoff" not in parse_spec("uct:iters=100").as_dict()


def test_cutoff_changes_the_tree_and_rewards_are_graded():
    """Cut-off playouts end in evaluations: rewards strictly between 0 and 1 appear, which
    whole-game playouts (1, 0.5 or 0 under 01 rewards) never give."""
    state = random_openings(1, 4, 3)[0]
    _, full = run(state, 1500, 5)
    _, cut = run(state, 1500, 5, cutoff=2)
    assert tree(full) != tree(cut)
    halves = np.round(2 * cut.wins[:cut.count]) / 2
    assert np.any(np.abs(cut.wins[:cut.count] - halves) > 1e-9)
    halves = np.round(2 * full.wins[:full.count]) / 2
    assert np.all(np.abs(full.wins[:full.count] - halves) < 1e-9)


def test_one_iteration_scores_the_logistic_of_the_evaluation():
    """cutoff=1, one iteration from the root: the root gets its children, one is played,
    one playout move follows and the reward is the logistic of the evaluation for the
    player who moved into the child (found again by replaying the rng's draws)."""
    state = random_openings(1, 6, 11)[0]
    scale = 37.0
    ran, pool = run(state, 1, 13, playout=0, cutoff=1, cutoff_scale=scale)
    assert ran == 1
    child = [k for k in pool.children(0) if pool.visits[k] == 1]
    assert len(child) == 1
    reward = pool.wins[child[0]]
    assert 0.0 < reward < 1.0
    # Replay: the same draws (shuffle of the root's children, one random move)
    rng = engine.new_rng(13)
    s = engine.to_array(state)
    buf = np.zeros(81, np.int64)
    n = engine.legal_moves(s, buf)
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        buf[i], buf[j] = buf[j], buf[i]
    assert buf[0] == pool.move[child[0]]
    mover = s[engine.PLAYER]
    engine.play(s, buf[0])
    engine.play(s, engine.random_move(s, rng))
    value = evaluate(s, fast_uct.CUTOFF_WEIGHTS)
    if s[engine.PLAYER] != mover:
        value = -value
    assert reward == pytest.approx(1.0 / (1.0 + math.exp(-value / scale)), abs=1e-12)
    assert pool.wins[0] == pytest.approx(1.0 - reward, abs=1e-12)


@pytest.mark.parametrize("text", [
    "uct:iters=2000,c=0.5,wins=on,cutoff=2",
    "uct:iters=2000,c=0.5,wins=on,solver=on,reuse=on,cutoff=6,cutoff_scale=50",
    "uct:iters=2000,c=0.5,scale=pm1,wins=on,playout=safe,cutoff=4,capacity=100",
    "uct:iters=2000,c=0.5,wins=off,cutoff=81,expand=3,draw=0.2",
])
def test_cutoff_bots_play_legal_games_within_the_pool(text):
    spec = parse_spec(text)
    assert parse_spec(str(spec)) == spec
    for seed, scoring in ((1, "codingame"), (2, "openspiel")):
        bot = UTTTBot(spec, seed=seed)
        state = UltimateTicTacToe(scoring=scoring)
        while not state.is_terminal():
            move = bot.choose(state)
            assert move in state.legal_moves()
            assert bot.pool.count <= spec.capacity
            state = state.play(move)
            if not state.is_terminal():
                state = state.play(state.legal_moves()[-1])


def test_cutoff_keys_round_trip_and_print_only_when_set():
    spec = parse_spec("uct:iters=100,cutoff=6,cutoff_scale=50")
    assert spec.cutoff == 6 and spec.cutoff_scale == 50.0
    assert ",cutoff=6,cutoff_scale=50," in str(spec)
    assert spec.as_dict()["cutoff"] == 6 and spec.as_dict()["cutoff_scale"] == 50.0
    assert "cutoff" not in str(parse_spec("uct:iters=100"))
    assert MAX_CUTOFF == 81


@pytest.mark.parametrize("text, words", [
    ("uct:cutoff=-1", r"cutoff \(playout moves before the evaluation\) must be"),
    ("uct:cutoff=82", r"cutoff \(playout moves before the evaluation\) must be"),
    ("uct:cutoff=2.5", "cutoff must be a whole number"),
    ("uct:cutoff_scale=0", (r"cutoff_scale \(evaluation points per unit of log-odds\) "
                            r"must be a number > 0")),
    ("uct:cutoff_scale=-3", r"cutoff_scale .* must be a number"),
    ("uct:cutoff_scale=inf", r"cutoff_scale .* must be a number"),
    ("uct:cutoff_scale=x", "cutoff_scale must be a number"),
    ("uct:cutoffs=2", "unknown option"),
])
def test_bad_cutoff_values_are_value_errors(text, words):
    with pytest.raises(ValueError, match=words):
        parse_spec(text)
