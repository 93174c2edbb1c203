"""Chapters 1-3's new pieces: the fifty-step UCB1 walk and the figures and frames drawn from it."""

import math

import matplotlib

matplotlib.use("Agg")
import pytest

from mctslib.experiments.bandits.measurements import load_best_move, load_c_sweep
from mctslib.learners.ucb1 import SQRT2, ucb1_step, ucb1_walk
from mctslib.views.bandit_figures import plot_best_move, plot_c_sweep, regret_curve_frames
from mctslib.views.choice_chances import choice_chance_frames, plot_choice_chances
from mctslib.views.ucb1_steps import plot_score_history, score_history_frames

START = [("A", 4, 6), ("B", 1, 3), ("C", 0, 1)]


def test_the_walk_replays_ucb1_step_with_each_result_added():
    walk = ucb1_walk(START, (0.667, 0.333, 0.1), 50, 40)
    table = [list(child) for child in START]
    for step, result in zip(walk.steps, walk.results):
        expected = ucb1_step([tuple(row) for row in table], SQRT2)
        assert step == expected
        table[step.chosen][1] += result
        table[step.chosen][2] += 1
    assert walk.final == tuple(tuple(row) for row in table)
    assert sum(visits for _, _, visits in walk.final) == 10 + 50


def test_the_chapter_walk_starts_like_the_hand_steps():
    walk = ucb1_walk(START, (0.667, 0.333, 0.1), 50, 40)
    assert walk.chosen_names[:3] == ["C", "B", "A"] and walk.results[:2] == (0.0, 0.0)
    third = walk.steps[2]  # A 4/6, B 1/4, C 0/2, N = 12: A ahead of C by 0.0004
    assert [row.visits for row in third.rows] == [6, 4, 2] and third.parent_visits == 12
    assert math.isclose(third.rows[0].score - third.rows[2].score, 0.0004, abs_tol=5e-5)


def test_a_child_that_always_wins_or_never_wins_is_scored_as_such():
    always = ucb1_walk([("A", 1, 1), ("B", 0, 1)], (1.0, 0.0), 30, 1)
    for step, result in zip(always.steps, always.results):
        assert result == (1.0 if step.chosen == 0 else 0.0)


@pytest.mark.parametrize(("args", "words"), [
    ((START, (0.5, 0.5), 10, 1), "win_chances must hold one chance per child"),
    ((START, (0.5, 0.5, 1.5), 10, 1), "win_chances[2] must be a number in [0, 1]"),
    ((START, (0.5, 0.5, 0.5), 0, 1), "steps must be a whole number from 1"),
    (([("A", 3, 2)], (0.5,), 5, 1), "wins of child A must be a number in [0, 2]"),
])
def test_the_walk_refuses_bad_input_with_a_sentence(args, words):
    with pytest.raises(ValueError) as error:
        ucb1_walk(*args)
    assert words in str(error.value)


def test_score_history_frames_follow_the_steps():
    walk = ucb1_walk(START, (0.667, 0.333, 0.1), 50, 40)
    frames, steps, captions = score_history_frames(walk)
    assert steps == [1, 2, 3, 4, 5, 6, 14, 22, 30, 38, 46, 50]
    assert all(frame[:8] == b"\x89PNG\r\n\x1a\n" for frame in frames)
    assert len(set(frames)) == len(frames), "every frame shows something different"
    assert captions[2] == "step 3: N = 12, chosen A (score 1.577), whose playout lost"
    figure = plot_score_history(walk, upto=3)
    history, parts = figure.axes
    assert [len(line.get_xdata()) for line in history.lines[::2]] == [3, 3, 3]
    assert parts.get_title() == "step 3: mean + bonus"
    with pytest.raises(ValueError, match="steps must hold 2 to 60"):
        score_history_frames(walk, steps=[1])
    with pytest.raises(ValueError, match="walk must be a UCB1Walk"):
        plot_score_history(START)


def test_choice_chance_frames_colour_the_trap_and_caption_its_chance():
    moves, trap, winning = (0, 2, 3, 4, 7, 8), 4, (0, 8)
    chances = [[0.6, 0.2, 0.1, 0.05, 0.03, 0.02], [0.1, 0.0, 0.0, 0.85, 0.0, 0.05]]
    figures, captions = choice_chance_frames(moves, chances, [1, 1000], trap, winning)
    assert captions == ["1 playout per move: the trap 0.050, a winning move 0.620",
                        "1,000 playouts per move: the trap 0.850, a winning move 0.150"]
    assert [figure.axes[0].get_title() for figure in figures] == [
        "1 playout per move: the trap 0.050", "1,000 playouts per move: the trap 0.850"]
    bars = plot_choice_chances(moves, chances[1], 1000, trap, winning).axes[0].patches
    colours = [bar.get_facecolor()[:3] for bar in bars]
    assert colours[3] != colours[0] and colours[0] == colours[5] and colours[1] == colours[2]
    with pytest.raises(ValueError, match="one number per move"):
        plot_choice_chances(moves, [0.5], 1, trap, winning)


def test_the_stored_measurements_draw():
    sweep, best = load_c_sweep(), load_best_move()
    figure = plot_c_sweep(sweep)
    assert len(figure.axes[0].containers) == len(sweep.horizons)  # one errorbar per horizon
    frames, labels, captions = regret_curve_frames(sweep)
    assert labels == ["0.177", "0.25", "0.354", "0.5", "0.707", "1", "1.41"]
    assert captions[3].startswith("c = 0.5: after 100,000 pulls mean regret 69.6")
    assert {(frame.axes[0].get_yscale(), frame.axes[0].get_ylim()[0]) for frame in frames} == {
        ("log", 1.0)}  # a log axis from 1: no symmetric-log bend in the curves
    shaded = [patch.get_x() for patch in figure.axes[0].patches]  # axvspan's rectangle
    assert shaded and min(shaded) > 1 / SQRT2  # c = 1/sqrt(2) itself has no guarantee
    assert len(plot_best_move(best).axes[0].containers) == len(best.c_values)
    with pytest.raises(ValueError, match="sweep must be a CSweep"):
        plot_c_sweep(best)
