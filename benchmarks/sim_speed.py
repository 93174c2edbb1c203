"""Rounds per second of the one-node simultaneous learners: readable reference vs numba twin.

    python benchmarks/sim_speed.py [--repeats 5]

Two learners of the same kind play weighted rock-paper-scissors at one node
(simultaneous-moves chapter). For each learner, the reference
(:func:`mctslib.learners.simultaneous.play_rounds`) and the numba twin
(:class:`mctslib.learners.simultaneous.FastOneNodeMatch`) play from the same seed,
interleaved repetition by repetition so that the noise of a shared machine hits
both alike. Prints medians and ratios; the last line is the summary a script
can read, with the time of one full 10,000,000-round regret-matching run
(:func:`mctslib.experiments.simultaneous.one_node.run_one_node`, measurements included).
"""

from __future__ import annotations

import argparse
import statistics
import time

from mctslib.experiments.simultaneous.one_node import run_one_node
from mctslib.games.matrix_games import weighted_rock_paper_scissors
from mctslib.learners.simultaneous import (
    LEARNERS,
    FastOneNodeMatch,
    make_players,
    play_rounds,
    rescaled_rewards,
    stream_for_seed,
)

GAME = weighted_rock_paper_scissors()
REFERENCE_ROUNDS = 20_000
NUMBA_ROUNDS = 2_000_000
LONG_RUN = 10_000_000


def reference_rate(learner: str, seed: int) -> float:
    row, column = make_players(GAME, learner)
    row_rewards, column_rewards = (table.tolist() for table in rescaled_rewards(GAME))
    stream = stream_for_seed(seed)
    start = time.perf_counter()
    play_rounds(row, column, row_rewards, column_rewards, REFERENCE_ROUNDS, stream)
    return REFERENCE_ROUNDS / (time.perf_counter() - start)


def numba_rate(learner: str, seed: int) -> float:
    row, column = make_players(GAME, learner)
    match = FastOneNodeMatch(GAME, row, column, stream_for_seed(seed), win_loss=False)
    start = time.perf_counter()
    match.play(NUMBA_ROUNDS)
    return NUMBA_ROUNDS / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5, help="interleaved repetitions (default 5)")
    args = parser.parse_args()
    for learner in LEARNERS:  # compile (or load from the cache) before timing
        run_one_node(GAME, learner, 10, 0, checkpoints=[10])
    ratios = {}
    for learner in LEARNERS:
        reference, fast = [], []
        for repeat in range(args.repeats):
            reference.append(reference_rate(learner, repeat))
            fast.append(numba_rate(learner, repeat))
        ref, nb = statistics.median(reference), statistics.median(fast)
        ratios[learner] = nb / ref
        print(f"{learner:>15}: reference {ref:12,.0f} rounds/s   numba {nb:14,.0f} rounds/s   "
              f"ratio {nb / ref:6.1f}x   (numba range {min(fast):,.0f}-{max(fast):,.0f})")
    start = time.perf_counter()
    run_one_node(GAME, "regret_matching", LONG_RUN, 0)
    seconds = time.perf_counter() - start
    print(f"numba / reference: {ratios['regret_matching']:.1f}x regret matching, "
          f"{ratios['ucb1']:.1f}x UCB1; {LONG_RUN:,} regret-matching rounds in {seconds:.2f} s")


if __name__ == "__main__":
    main()
