"""Copy or undo? What a tree descent costs on Ultimate Tic-Tac-Toe (chapter "Enhancements").

    python benchmarks/copy_vs_undo.py [--quick] [--repeats 7]

Every MCTS iteration starts from the root position, plays the moves of the tree path, then a
playout. The position the iteration changes must be restored for the next one. Three ways:

* **copy into a scratch array**: ``scratch[:] = root`` (34 int64), then play the path in
  place (:mod:`mctslib.fast.uttt` and the chapter-5 bot do this);
* **allocate a copy**: ``root.copy()`` each iteration (a new array: the "allocation in the
  search loop" pitfall), then play the path in place;
* **a new array at every move**: ``state = state.copy()`` before each move of the path
  (what an immutable position does, without the interpreter: allocation per move, isolated);
* **make / unmake**: play the path on the root itself, saving the eight entries a move
  changes, and restore them in reverse order (``make`` and ``unmake`` below; the library's
  engine has no undo, so it is written here).

The readable :class:`~mctslib.games.uttt.UltimateTicTacToe` has no undo either: it is
immutable, so each ``play`` builds a new position (a copy by construction); its row is the
same path played that way. For scale, the last rows time a random playout from the end of
the path (numba, into a scratch copy; and readable).

The path is 8 moves from a fixed middle-game position (20 plies of seeded random play). Each
measurement is a timed loop, repeated ``--repeats`` times, interleaved with the other rows
(``--quick``: loops ten times shorter and 5 repetitions, for the chapter's live cell). Prints
nanoseconds per path (per playout for the last rows), the best repetition (the least
disturbed by other processes, the usual choice for micro-benchmarks) and the median; checks that every method reaches the same position and that
unmake restores the root exactly, and prints the load average before and after: on a busy
machine, compare the rows with each other, never with another run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np
from numba import njit

from mctslib.fast import uttt as engine
from mctslib.games.uttt import UltimateTicTacToe
from mctslib.search.flat import random_playout
from mctslib.xorshift import XorShift64

FREE, WON, CLOSED, FREE_COUNT, FORCED, PLAYER, OUTCOME = (
    engine.FREE, engine.WON, engine.CLOSED, engine.FREE_COUNT, engine.FORCED, engine.PLAYER,
    engine.OUTCOME)
#: Entries of the undo record: the index of the marks entry, then eight saved values.
UNDO_SIZE = 9
PATH_LENGTH = 8
OPENING_PLIES, OPENING_SEED = 20, 2026


@njit(cache=True)
def make(s, move, undo):
    """Play ``move`` in place, saving in ``undo`` (9 int64) what :func:`unmake` needs."""
    player = s[PLAYER]
    board = engine.BOARD_OF[move]
    marks_index = 9 * player + board
    undo[0] = marks_index
    undo[1] = s[marks_index]
    undo[2] = s[FREE + board]
    undo[3] = s[WON + player]
    undo[4] = s[CLOSED]
    undo[5] = s[FREE_COUNT]
    undo[6] = s[FORCED]
    undo[7] = s[PLAYER]
    undo[8] = s[OUTCOME]
    engine.play(s, move)


@njit(cache=True)
def unmake(s, move, undo):
    """Undo :func:`make` of ``move``: restore the eight entries it saved."""
    player = undo[7]
    board = engine.BOARD_OF[move]
    s[undo[0]] = undo[1]
    s[FREE + board] = undo[2]
    s[WON + player] = undo[3]
    s[CLOSED] = undo[4]
    s[FREE_COUNT] = undo[5]
    s[FORCED] = undo[6]
    s[PLAYER] = undo[7]
    s[OUTCOME] = undo[8]


@njit(cache=True)
def copy_into_scratch(root, scratch, path, loops):
    check = 0
    for _ in range(loops):
        scratch[:] = root
        for move in path:
            engine.play(scratch, move)
        check += scratch[FORCED]
    return check


@njit(cache=True)
def allocate_copy(root, path, loops):
    check = 0
    for _ in range(loops):
        state = root.copy()
        for move in path:
            engine.play(state, move)
        check += state[FORCED]
    return check


@njit(cache=True)
def allocate_per_move(root, path, loops):
    check = 0
    for _ in range(loops):
        state = root
        for move in path:
            state = state.copy()  # a new array before every move, like an immutable position
            engine.play(state, move)
        check += state[FORCED]
    return check


@njit(cache=True)
def make_unmake(root, path, undo, loops):
    check = 0
    depth = len(path)
    for _ in range(loops):
        for i in range(depth):
            make(root, path[i], undo[i])
        check += root[FORCED]
        for i in range(depth - 1, -1, -1):
            unmake(root, path[i], undo[i])
    return check


@njit(cache=True)
def playouts_from(start, scratch, rng, loops):
    check = 0
    for _ in range(loops):
        scratch[:] = start
        check += engine.random_playout(scratch, rng)
    return check


def readable_path(root, path, loops):
    for _ in range(loops):
        state = root
        for move in path:
            state = state.play(move)
    return state


def readable_playouts(start, loops, seed=1):
    source = XorShift64(seed)
    for _ in range(loops):
        random_playout(start, source)


def fixed_position():
    """The middle-game root (20 seeded random plies), the next 8 moves, and where they end."""
    source, state, moves_played = XorShift64(OPENING_SEED), UltimateTicTacToe(), []
    for ply in range(OPENING_PLIES + PATH_LENGTH):
        if ply == OPENING_PLIES:
            root = state
        moves = state.legal_moves()
        moves_played.append(moves[source.below(len(moves))])
        state = state.play(moves_played[-1])
    return root, np.array(moves_played[OPENING_PLIES:], dtype=np.int64), state


def check_methods(root_array, path, end):
    scratch = np.zeros_like(root_array)
    copy_into_scratch(root_array, scratch, path, 1)
    assert engine.from_array(scratch) == end, "copy-and-play reaches another position"
    assert allocate_per_move(root_array, path, 1) == scratch[FORCED], \
        "allocating per move reaches another position"
    undo = np.zeros((len(path), UNDO_SIZE), dtype=np.int64)
    original = root_array.copy()
    for i, move in enumerate(path):
        make(root_array, move, undo[i])
    assert engine.from_array(root_array) == end, "make reaches another position"
    for i in range(len(path) - 1, -1, -1):
        unmake(root_array, path[i], undo[i])
    assert np.array_equal(root_array, original), "unmake does not restore the root"


def timed(work, loops):
    start = time.perf_counter()
    work(loops)
    return (time.perf_counter() - start) / loops * 1e9  # nanoseconds per call


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short loops (the chapter's cell)")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    scale = 1 if args.quick else 10  # --quick: about 10 ms per timed loop
    repeats = 5 if args.quick else args.repeats

    root, path, end = fixed_position()
    root_array = engine.to_array(root)
    end_array = engine.to_array(end)
    check_methods(root_array, path, end)
    scratch = np.zeros_like(root_array)
    undo = np.zeros((len(path), UNDO_SIZE), dtype=np.int64)
    rng = engine.new_rng(1)
    rows = {
        "numba: copy into scratch, play 8": lambda n: copy_into_scratch(root_array, scratch,
                                                                        path, n),
        "numba: allocate a copy, play 8": lambda n: allocate_copy(root_array, path, n),
        "numba: new array every move": lambda n: allocate_per_move(root_array, path, n),
        "numba: make 8, unmake 8": lambda n: make_unmake(root_array, path, undo, n),
        "readable: play 8 (new objects)": lambda n: readable_path(root, list(path), n),
        "numba: one random playout": lambda n: playouts_from(end_array, scratch, rng, n),
        "readable: one random playout": lambda n: readable_playouts(end, n),
    }
    loops_of = dict(zip(rows, (200_000 * scale, 200_000 * scale, 100_000 * scale,
                               100_000 * scale, 300 * scale, 20_000 * scale, 20 * scale)))
    for name, work in rows.items():  # compile and warm up
        work(max(1, loops_of[name] // 100))
    load_before = os.getloadavg()
    samples = {name: [] for name in rows}
    for _ in range(repeats):  # interleaved: the machine's noise hits every row alike
        for name, work in rows.items():
            samples[name].append(timed(work, loops_of[name]))
    load_after = os.getloadavg()
    best = {name: min(values) for name, values in samples.items()}
    print(f"{'method (8-move path)':<32} {'ns, best':>10} {'median':>10}")
    for name, values in samples.items():
        print(f"{name:<32} {best[name]:>10,.0f} {statistics.median(values):>10,.0f}")
    copy_ns = best["numba: copy into scratch, play 8"]
    print(f"best make/unmake / best copy-into-scratch: "
          f"{best['numba: make 8, unmake 8'] / copy_ns:.2f}")
    print(f"best allocate / best copy-into-scratch: "
          f"{best['numba: allocate a copy, play 8'] / copy_ns:.2f}")
    print(f"best new array every move / best copy-into-scratch: "
          f"{best['numba: new array every move'] / copy_ns:.2f}")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f}"
          f" ({os.cpu_count()} cores)")
    if max(load_before[0], load_after[0]) > 0.5:
        print("a busy machine: compare the rows, do not read them as speeds")
    print("checked: every method reaches the same position")


if __name__ == "__main__":
    main()
