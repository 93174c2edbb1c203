"""The selection recorded step by step, the four-phase diagram and the recorded search (UCT chapter).

What the chapter's frames and the explorer's selection table show must be what UCB1 did:
every sibling scored as the rule scores it, the pick the child the search went into, an
unvisited child taken before any comparison.
"""

from __future__ import annotations

import math
import re

import pytest
from matplotlib.figure import Figure

from mctslib.games import SubtractionGame, TicTacToe
from mctslib.search.uct import UCB1Rule, UCTSearch
from mctslib.views.tree_explorer import TreeExplorer
from mctslib.views.tree_frames import (
    MAX_RECORDED,
    four_phases_data_uri,
    four_phases_figure,
    record_search,
    recorded_frames,
    selection_html,
    selection_text,
)
from mctslib.views.tree_layout import PHASES, RecordingUCTSearch, selection_steps


def stepped(state, seed: int, iterations: int):
    """The record of the last of ``iterations`` iterations stepped phase by phase."""
    search = RecordingUCTSearch(1.0, iterations=10_000, seed=seed)
    search.begin(state)
    for _ in range(iterations):
        for record in search.step():
            pass
    return record


def tree_signature(node):
    return (node.move, node.visits, node.wins, tuple(tree_signature(c) for c in node.children))


@pytest.mark.parametrize("state", [SubtractionGame(9), TicTacToe()], ids=["subtraction", "tictactoe"])
def test_every_step_of_the_selection_is_ucb1s(state):
    c = 1.0
    rule = UCB1Rule(c)
    search = RecordingUCTSearch(c, iterations=10_000, seed=5)
    root = search.begin(state)
    compared = 0
    for _ in range(60):
        for record in search.step():
            if record.phase == "selection":
                assert len(record.choices) == len(record.path) - 1
                for step, (parent, child) in zip(record.choices, zip(record.path, record.path[1:])):
                    assert step.parent is parent and step.chosen is child
                    assert [row.node for row in step.rows] == parent.children
                    assert rule(parent) is child, "the recorded pick is not UCB1's"
                    unvisited = [row for row in step.rows if row.visits == 0]
                    if step.untried:
                        assert step.chosen is unvisited[0].node, "the first unvisited goes first"
                        continue
                    assert not unvisited
                    best = max(row.score for row in step.rows)
                    chosen = next(row for row in step.rows if row.node is child)
                    assert chosen.score == pytest.approx(best, abs=1e-12)
                    for row in step.rows:
                        assert row.bonus == pytest.approx(
                            c * math.sqrt(math.log(parent.visits) / row.visits))
                        assert row.mean == row.wins / row.visits
                    compared += 1
    assert compared > 20, "too few real comparisons to test"
    reference = UCTSearch(c, iterations=60, seed=5).search(state)
    assert tree_signature(root) == tree_signature(reference)


def test_runs_without_pictures_keep_no_tables():
    search = RecordingUCTSearch(1.0, iterations=10_000, seed=1)
    root = search.begin(SubtractionGame(7))
    for _ in range(5):
        search.iterate(root, SubtractionGame(7))
    assert search.last.choices == (), "iterate() (run N, search()) should not pay for tables"
    for record in search.step():
        pass
    assert record.choices, "a step through the phases keeps the tables"


def test_rows_are_a_snapshot_of_the_moment_of_choice():
    step = stepped(SubtractionGame(6), seed=3, iterations=8).choices[0]
    assert step.parent_visits == 7 and sum(row.visits for row in step.rows) == 7
    assert step.parent.visits == 8, "the tree moved on, the rows did not"


def test_selection_without_a_bonus_method():
    search = RecordingUCTSearch(1.0, iterations=100, seed=2)
    root = search.begin(SubtractionGame(5))
    for _ in range(6):
        search.iterate(root, SubtractionGame(5))
    steps = selection_steps((root, root.children[0]), rule=lambda node: node.children[0])
    assert all(math.isnan(row.bonus) for row in steps[0].rows if row.visits)


def test_tables_as_html_and_text():
    record = stepped(SubtractionGame(7), seed=2026, iterations=12)
    label = lambda node: f"-{node.move}"
    text = selection_text(record.choices, label)
    assert text.splitlines()[0].startswith("  at root (N = 11): ")
    assert "-> -1 (never visited: taken at once)" in text.splitlines()[1]
    page = selection_html(record.choices, label)
    assert page.count("<table") == len(record.choices) == 2
    assert page.count("font-weight:bold'><td") == 2, "one highlighted row per table"
    assert "\u221e" in page, "an unvisited child's bonus is infinite"
    assert selection_html((), label) == ""


def test_recorded_search_is_uctsearchs_and_frames_hold_every_iteration():
    recorded = record_search(SubtractionGame(7), iterations=12, seed=2026, exploration=1.0)
    assert [r.number for r in recorded] == list(range(1, 13))
    assert recorded[0].caption.startswith("Iteration 1. Selection: root. Expansion: the root "
                                          "gets 3 children")
    assert recorded[0].selection == "", "nothing to choose at the first iteration"
    assert "at root (N = 11)" in recorded[11].text
    frames = recorded_frames(recorded, SubtractionGame(7))
    assert len(frames) == 12 and all("<svg" in f for f in frames)
    assert "the first player to move at the root" in frames[5]
    assert "max-width:100%" in recorded[3].svg, "wide trees shrink to the frame"
    # The frames draw the tree UCTSearch grows: the root's visits are the iteration count.
    assert re.search(r">12</text>", recorded[-1].svg)


def test_four_phases():
    fig = four_phases_figure("expansion")
    assert isinstance(fig, Figure)
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == [f"{k}. {p.capitalize()}" for k, p in enumerate(PHASES, 1)]
    uri = four_phases_data_uri("simulation")
    assert uri.startswith("data:image/png;base64,") and four_phases_data_uri("simulation") is uri
    assert four_phases_data_uri(None) != uri


def test_explorer_selection_table_c_box_and_game_menu():
    explorer = TreeExplorer(seed=2026, exploration=1.0, phase_seconds=0)
    assert explorer.game.options == ("subtraction game, 7 stones", "tic-tac-toe")
    assert explorer.session.state == SubtractionGame(7)
    for _ in range(4):
        explorer.one.click()
    explorer.phase_button.click()
    assert "1/4 selection" in explorer.caption.value and "data:image/png" in explorer.caption.value
    assert "Why this path" in explorer.selection.value
    assert explorer.selection.value.count("<table") == len(explorer.session.record.choices)
    explorer.c_box.value = 2.5
    assert explorer.session.iterations == 0 and explorer.session.search.selection.c == 2.5
    assert explorer.selection.value == ""
    explorer.game.value = "tic-tac-toe"
    assert explorer.session.state == TicTacToe() and explorer.session.search.selection.c == 2.5
    explorer.phase_button.click()
    explorer.phase_button.click()
    assert "9 children were added" in explorer.caption.value
    assert "nothing to choose" in explorer.selection.value
    explorer.run_button.click()
    assert explorer.selection.value == "", "after run N no single path is shown"
    custom = TreeExplorer(TicTacToe(), search=lambda: RecordingUCTSearch(1.0, seed=1))
    assert custom.c_box.disabled and custom.game.layout.display == "none"


@pytest.mark.parametrize("call, words", [
    (lambda: record_search(SubtractionGame(7), iterations=MAX_RECORDED + 1), "iterations must be"),
    (lambda: record_search("pile"), "state must be a game position"),
    (lambda: record_search(exploration=-1), "exploration"),
    (lambda: recorded_frames([]), "recorded must be a non-empty list"),
    (lambda: four_phases_figure("playout"), "active must be one of"),
    (lambda: TreeExplorer({}), "non-empty dict"),
    (lambda: TreeExplorer(exploration=11), "exploration"),
    (lambda: TreeExplorer({"over": TicTacToe.from_string("XXX/OO./...")}), "game still on"),
])
def test_bad_inputs_are_refused_with_a_sentence(call, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        call()
