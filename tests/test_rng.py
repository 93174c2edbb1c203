"""The one seed helper: reproducible, validating, never global."""

import numpy as np
import pytest

from mctslib.rng import make_rng, spawn_rngs


def test_same_seed_same_numbers():
    assert np.array_equal(make_rng(42).random(5), make_rng(42).random(5))


def test_different_seeds_differ():
    assert not np.array_equal(make_rng(1).random(5), make_rng(2).random(5))


def test_generator_is_passed_through_unchanged():
    rng = np.random.default_rng(3)
    assert make_rng(rng) is rng


def test_numpy_integer_seed_accepted():
    assert np.array_equal(make_rng(np.int64(5)).random(3), make_rng(5).random(3))


def test_global_state_is_untouched():
    np.random.seed(0)
    expected = np.random.random()
    np.random.seed(0)
    make_rng(9).random(100)
    spawn_rngs(9, 3)[0].random(100)
    assert np.random.random() == expected


@pytest.mark.parametrize("bad", [-1, 1.5, "7", True])
def test_bad_seed_raises_a_sentence(bad):
    with pytest.raises(ValueError, match="seed must be"):
        make_rng(bad)


def test_spawned_streams_are_reproducible_and_independent():
    first = [g.random(4) for g in spawn_rngs(11, 3)]
    again = [g.random(4) for g in spawn_rngs(11, 3)]
    for a, b in zip(first, again):
        assert np.array_equal(a, b)
    assert not np.array_equal(first[0], first[1])


def test_spawn_validates_seed():
    with pytest.raises(ValueError, match="seed must be"):
        spawn_rngs(-3, 2)
