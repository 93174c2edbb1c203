"""Seeds of repeated independent runs must give distinct xorshift64 streams (chapters 4 and 4b).

``XorShift64`` starts at ``seed | 1``, so the seeds 2k and 2k + 1 run the same
stream: a thousand searches seeded 0 to 999 are five hundred searches counted
twice. The runs take their seeds from :func:`mctslib.xorshift.derive_seeds`;
these tests fail if two seeds of such a list collide in ``seed | 1``, if the
helper stops refusing a collision, or if a chapter 4 notebook goes back to
seeding an xorshift engine with ``range(...)``.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from mctslib import xorshift
from mctslib.experiments.uct import running_example as rx
from mctslib.experiments.uct.convergence_atlas import load_convergence_atlas
from mctslib.experiments.uct.running_example import load_running_example
from mctslib.fast.tictactoe_uct import FastTicTacToeUCT
from mctslib.games import TicTacToe
from mctslib.xorshift import XorShift64, derive_seeds

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
CHAPTER_4 = ("04_uct.ipynb", "04b_testing_a_search.ipynb")
#: What builds an xorshift64 stream from a seed (directly or inside a numba engine).
XORSHIFT_SEEDED = re.compile(r"XorShift64\(|new_rng\(|FastTicTacToeUCT\(|uct_answers\(|"
                             r"flat_mc_answers\(|seed_states\(")
RANGE_SEEDS = re.compile(r"for\s+seed\s+in\s+range\(|seeds?\s*=\s*range\(", re.IGNORECASE)
DERIVE_CALL = re.compile(r"derive_seeds\(\s*([0-9_]+)\s*,\s*([0-9_]+)\s*\)")


def start_states_distinct(seeds) -> bool:
    return len({seed | 1 for seed in seeds}) == len(seeds) == len(
        {XorShift64(seed).state for seed in seeds})


def chapter_code_cells():
    for name in CHAPTER_4:
        notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
        for index, cell in enumerate(notebook.cells):
            if cell.cell_type == "code":
                yield name, index, cell.source


def test_consecutive_seeds_share_a_stream():
    """The hazard itself: 2k and 2k + 1 start the same stream and grow the same tree."""
    for k in (0, 1, 500):
        assert XorShift64(2 * k).state == XorShift64(2 * k + 1).state
    after = TicTacToe().play(2)
    assert FastTicTacToeUCT(300, 1.0, 6).choose(after.x, after.o) == \
        FastTicTacToeUCT(300, 1.0, 7).choose(after.x, after.o)
    assert not start_states_distinct(range(1000))


@pytest.mark.parametrize("root_seed, count", [(2026, 1000), (2026, 2000), (4242, 16), (0, 5000)])
def test_derived_seeds_have_distinct_start_states(root_seed, count):
    assert start_states_distinct(derive_seeds(root_seed, count))


def test_stored_runs_use_distinct_start_states():
    for stored in (load_running_example(), load_convergence_atlas()):
        seeds = stored.seeds()
        assert seeds == derive_seeds(stored.root_seed, stored.seed_count)
        assert start_states_distinct(seeds)


def test_a_collision_is_refused(monkeypatch):
    """Two outputs that differ only in the lowest bit would be one stream: a ValueError."""
    outputs = iter([10, 11, 12])

    def colliding_step(value):
        return value + 1, next(outputs)

    monkeypatch.setattr(xorshift, "_splitmix64", colliding_step)
    with pytest.raises(ValueError, match="same xorshift64 start state"):
        derive_seeds(7, 3)


def test_running_example_re_exports_the_one_helper():
    assert rx.derive_seeds is derive_seeds


def test_chapter_4_seeds_xorshift_runs_from_derive_seeds():
    """No chapter 4 cell seeds an xorshift engine from range(); its derived lists are distinct."""
    derived_calls = 0
    for name, index, source in chapter_code_cells():
        if XORSHIFT_SEEDED.search(source):
            assert not RANGE_SEEDS.search(source), (
                f"{name} cell {index} seeds an xorshift64 run from range(...): seeds 2k and "
                f"2k + 1 give the same stream; use mctslib.xorshift.derive_seeds")
        for root_seed, count in DERIVE_CALL.findall(source):
            derived_calls += 1
            assert start_states_distinct(derive_seeds(int(root_seed), int(count))), (name, index)
    assert derived_calls >= 1, "chapter 4b's thousand searches no longer use derive_seeds"
