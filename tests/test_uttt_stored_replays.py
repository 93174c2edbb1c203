"""Chapter 5's stored matches repeat: the first games of each, played again, give the stored results.

Every match of the chapter gives game ``i`` its own streams spawned from the match seed, and the
openings come from their own stream, so the first games of a short run are exactly the first
games of the stored run, for every stored experiment (``data/uttt``, ``realistic/``,
``playing/``). The 100,000-iteration matches are replayed one game each, the slow ones not at
all (``deep/``, and OpenSpiel with ten times its time); the timed matches cannot repeat.
"""

from __future__ import annotations

import numpy as np
import pytest

from mctslib.experiments.uttt import (
    DATA_DIR,
    budget_experiment,
    centre_experiment,
    doubling_experiment,
    exploration_experiment,
    games_needed_experiment,
    load_experiment,
    openspiel_experiment,
    solver_experiment,
    win_taking_experiment,
)
from mctslib.experiments.uttt.results import _openings
from mctslib.play.arena import letters, play_match

REALISTIC, PLAYING = DATA_DIR / "realistic", DATA_DIR / "playing"
GAMES = 4

REPLAYS = [  # (experiment, folder, a short run from its stored parameters)
    ("budget", None, lambda p: budget_experiment(budgets=(250, 500), reference=p["reference"],
                                                 games=GAMES, seed=p["seed"])),
    ("exploration", None, lambda p: exploration_experiment(
        cs=(0.1, 0.2), scales=("01",), iterations=p["iterations"], games=GAMES, seed=p["seed"])),
    ("win_taking", None, lambda p: win_taking_experiment(iterations=p["iterations"],
                                                         games=GAMES, seed=p["seed"])),
    ("solver", None, lambda p: solver_experiment(iterations=p["iterations"], games=GAMES,
                                                 seed=p["seed"])),
    ("centre", None, lambda p: centre_experiment(iterations=p["iterations"], games=GAMES,
                                                 seed=p["seed"])),
    ("games_needed", None, lambda p: games_needed_experiment(
        games=GAMES, pairs=p["pairs"], iterations=p["iterations"], seed=p["seed"])),
    ("doubling", REALISTIC, lambda p: doubling_experiment(budgets=(500, 1000), games=GAMES,
                                                          seed=p["seed"])),
    ("solver", REALISTIC, lambda p: solver_experiment(iterations=p["iterations"], games=2,
                                                      seed=p["seed"])),
    ("openspiel", REALISTIC, lambda p: openspiel_experiment(
        iterations=p["iterations"], uct_c=p["uct_c"], versions=p["versions"], games=2,
        seed=p["seed"])),
]


@pytest.mark.parametrize("name, folder, rerun", REPLAYS,
                         ids=[f"{n}-{'full' if f is None else f.name}" for n, f, _ in REPLAYS])
def test_the_first_games_of_a_stored_match_replay(name, folder, rerun):
    stored = load_experiment(name, folder)
    for small in rerun(stored.parameters).comparisons:
        big = stored.comparison(small.label).results
        assert big.startswith(small.results), f"{name}, {small.label}: the games differ"


def first_game(stored, comparison, a, b):
    """Game 0 of one stored comparison, played again with its seed and first opening."""
    key = comparison.seed[1]
    starts = _openings(2, stored.parameters["opening_plies"], stored.parameters["seed"],
                       stored.scoring)
    match = play_match(a, b, starts, 1, seed=np.random.SeedSequence(comparison.seed[0],
                                                                     spawn_key=(key,)))
    return letters(match.records)


#: The decisions declared in data/uttt/README.md; each is replayed once its result is stored.
PLAYING_REPLAYS = {"c_decision", "reuse_decision", "openspiel_sweep", "openspiel_equal_time"}


def test_the_first_game_of_each_stored_decision_at_the_playing_budget_replays():
    from mctslib.bots.openspiel import OpenSpielMCTS
    from mctslib.bots.uttt import parse_spec

    stored_names = {path.stem for path in PLAYING.glob("*.json")}
    assert stored_names <= PLAYING_REPLAYS | {"openspiel_ten_times"}, "an undeclared stored run"
    for name in sorted(stored_names & PLAYING_REPLAYS):
        stored = load_experiment(name, PLAYING)
        comparison = stored.comparisons[0]
        parameters = stored.parameters
        if name == "openspiel_sweep":
            a = OpenSpielMCTS(parameters["simulations"], uct_c=comparison.value)
            b = OpenSpielMCTS(parameters["simulations"], uct_c=parameters["reference_uct_c"])
        elif name == "openspiel_equal_time":
            a = parse_spec(comparison.a)
            b = OpenSpielMCTS(parameters["simulations"], uct_c=comparison.value)
        else:
            a, b = parse_spec(comparison.a), parse_spec(comparison.b)
        assert first_game(stored, comparison, a, b) == comparison.results[0], name

