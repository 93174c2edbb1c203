"""Chapter 3: which N goes into UCB1's ln N, at the root and below it.

In the book's UCT the root is expanded on its first visit, so its visits are the
sum of its children's; every other node with children was expanded on its
second visit and has one visit more. ``ucb1_step``, the text and HTML of the
chapter's table and the widget take N either way (or as a given number).
"""

import html
import math
import re

import numpy as np
import pytest

from mctslib.games import SubtractionGame
from mctslib.learners.ucb1 import SQRT2, check_parent_visits, ucb1_bonus, ucb1_step
from mctslib.search.uct import UCB1Rule, UCTSearch
from mctslib.views.ucb1_table import (
    CHAPTER3_CHILDREN,
    PARENT_VISITS_NOTE,
    UCB1TableWidget,
    parent_visits_sentence,
    ucb1_result_html,
    ucb1_result_text,
)

BAD_OPTIONS = ["sum+1", "SUM", "", "root", 3.0, True, None, -1, 2**53 + 1, [10], np.float64(10)]


def chosen_name(text: str) -> str:
    found = re.findall(r"chosen: (\w+)", text)
    assert len(found) == 1, text
    return found[0]


# --- the bonus with N = sum and N = sum + 1 on the chapter's numbers -------------------------

def test_the_chapter_root_with_n_as_the_sum_and_as_the_sum_plus_one():
    at_root = ucb1_step(CHAPTER3_CHILDREN, SQRT2, parent_visits="sum")
    below_root = ucb1_step(CHAPTER3_CHILDREN, SQRT2, parent_visits="sum_plus_one")
    assert (at_root.parent_visits, at_root.parent_rule) == (10, "sum")
    assert (below_root.parent_visits, below_root.parent_rule) == (11, "sum_plus_one")
    assert [round(row.bonus, 3) for row in at_root.rows] == [0.876, 1.239, 2.146]
    assert [round(row.bonus, 3) for row in below_root.rows] == [0.894, 1.264, 2.190]
    for row_10, row_11 in zip(at_root.rows, below_root.rows, strict=True):
        assert row_10.bonus == ucb1_bonus(10, row_10.visits, SQRT2)
        assert row_11.bonus == ucb1_bonus(11, row_11.visits, SQRT2)
        # One more parent visit scales every bonus by the same factor, sqrt(ln 11 / ln 10).
        assert row_11.bonus / row_10.bonus == pytest.approx(
            math.sqrt(math.log(11) / math.log(10)), rel=1e-12)
    assert at_root.rows[at_root.chosen].name == below_root.rows[below_root.chosen].name == "C"


def test_the_default_is_the_sum_and_a_given_n_equals_the_named_rule():
    assert ucb1_step(CHAPTER3_CHILDREN) == ucb1_step(CHAPTER3_CHILDREN, parent_visits="sum")
    given = ucb1_step(CHAPTER3_CHILDREN, parent_visits=11)
    plus_one = ucb1_step(CHAPTER3_CHILDREN, parent_visits="sum_plus_one")
    assert given.rows == plus_one.rows and given.parent_rule == "given"


def test_the_option_can_change_the_choice():
    # Close scores: a larger N lifts the less visited child's bonus more in absolute terms.
    # (Chapter 3's exercise finds this table: A 1/3, B 3/5 at N = 8 or 9.)
    children = [("A", 1, 3), ("B", 3, 5)]
    at_root, below_root = (ucb1_step(children, SQRT2, parent_visits=rule)
                           for rule in ("sum", "sum_plus_one"))
    assert [round(row.score, 3) for row in at_root.rows] == [1.511, 1.512]
    assert [round(row.score, 3) for row in below_root.rows] == [1.544, 1.537]
    assert at_root.rows[at_root.chosen].name == "B"
    assert below_root.rows[below_root.chosen].name == "A"


def test_every_node_of_a_real_uct_tree_matches_its_rule():
    """The root's N is the sum; every other node with children has the sum + 1.

    The option then reproduces UCT's own choice at each node, with ln of the
    node's own visits (UCB1Rule).
    """
    tree = UCTSearch(1.0, 1000, seed=3).search(SubtractionGame(10))
    rule = UCB1Rule(1.0)
    stack, checked = [(tree, "sum")], 0
    while stack:
        node, option = stack.pop()
        if not node.children:
            continue
        children = [(str(child.move), child.wins, child.visits) for child in node.children]
        step = ucb1_step(children, c=1.0, parent_visits=option)
        assert step.parent_visits == node.visits, (option, node.visits)
        assert node.children[step.chosen] is rule(node)
        checked += 1
        stack.extend((child, "sum_plus_one") for child in node.children)
    assert checked > 20


# --- bad options are refused with one sentence ------------------------------------------------

@pytest.mark.parametrize("option", BAD_OPTIONS)
def test_bad_options_are_refused_everywhere(option):
    message = "parent_visits must be 'sum' .* 'sum_plus_one' .* or a whole number"
    for call in (lambda: check_parent_visits(option),
                 lambda: ucb1_step(CHAPTER3_CHILDREN, parent_visits=option),
                 lambda: ucb1_result_text(CHAPTER3_CHILDREN, parent_visits=option),
                 lambda: ucb1_result_html(CHAPTER3_CHILDREN, parent_visits=option),
                 lambda: UCB1TableWidget(parent_visits=option)):
        with pytest.raises(ValueError, match=message):
            call()


@pytest.mark.parametrize("option", BAD_OPTIONS)
def test_the_widget_refuses_a_bad_option_and_keeps_its_state(option):
    table = UCB1TableWidget(parent_visits="sum_plus_one")
    before = table.result.value
    with pytest.raises(ValueError, match="parent_visits must be 'sum'"):
        table.parent_visits = option
    assert table.parent_visits == "sum_plus_one" and table.result.value == before


def test_a_given_n_below_the_childrens_visits_is_a_sentence_in_the_table():
    with pytest.raises(ValueError, match=r"at least the children's visits added up \(10\)"):
        ucb1_step(CHAPTER3_CHILDREN, parent_visits=9)
    text = ucb1_result_text(CHAPTER3_CHILDREN, parent_visits=9)
    assert text.startswith("Cannot score this table: parent_visits must be at least")
    assert "chosen" not in text


def test_sum_plus_one_beyond_the_exact_range_is_refused():
    with pytest.raises(ValueError, match="'sum_plus_one' gives N = 9007199254740993"):
        ucb1_step([("A", 0, 2**53)], parent_visits="sum_plus_one")


# --- the static text --------------------------------------------------------------------------

def test_the_text_says_which_n_and_why():
    at_root = ucb1_result_text(CHAPTER3_CHILDREN, parent_visits="sum").splitlines()
    below_root = ucb1_result_text(CHAPTER3_CHILDREN, parent_visits="sum_plus_one").splitlines()
    given = ucb1_result_text(CHAPTER3_CHILDREN, parent_visits=12).splitlines()
    assert at_root[0].startswith("N = 6 + 3 + 1 = 10 (the sum of the children's visits, as at "
                                 "the root")
    assert below_root[0].startswith("N = 6 + 3 + 1 + 1 = 11 (one more than the children's visits")
    assert "ln N = 2.398" in below_root[0]
    assert given[0].startswith("N = 12 (given; the children's visits add up to 6 + 3 + 1 = 10)")
    assert at_root[4].split() == ["C", "0", "1", "0.000", "2.146", "2.146"]
    assert below_root[4].split() == ["C", "0", "1", "0.000", "2.190", "2.190"]
    assert given[4].split() == ["C", "0", "1", "0.000", "2.229", "2.229"]


def test_the_sentence_for_one_child():
    step = ucb1_step([("A", 1, 6)], parent_visits="sum_plus_one")
    assert parent_visits_sentence(step).startswith("N = 6 + 1 = 7 (")


# --- the widget, driven as a reader would ------------------------------------------------------

def test_the_widget_shows_each_option():
    table = UCB1TableWidget()
    assert table.parent_visits == "sum" and table.n_input.disabled
    assert "N = 6 + 3 + 1 = 10" in table.result.value and chosen_name(table.result.value) == "C"
    assert table.result.value == ucb1_result_html(CHAPTER3_CHILDREN)

    table.n_rule_input.value = "sum_plus_one"  # the reader picks "sum + 1"
    assert table.parent_visits == "sum_plus_one" and table.n_input.disabled
    assert "N = 6 + 3 + 1 + 1 = 11" in table.result.value and "2.190" in table.result.value
    assert table.result.value == ucb1_result_html(CHAPTER3_CHILDREN, parent_visits="sum_plus_one")

    table.n_rule_input.value = "given"  # the typed N starts at the table's sum
    assert table.parent_visits == 10 and not table.n_input.disabled
    table.n_input.value = 12
    assert "N = 12 (given" in table.result.value and "2.229" in table.result.value
    assert table.result.value == ucb1_result_html(CHAPTER3_CHILDREN, parent_visits=12)


def test_the_widget_option_follows_edits_of_the_table():
    table = UCB1TableWidget(parent_visits="sum_plus_one")
    table.visits_inputs[2].value = 2  # step 2's numbers one level below the root: N = 12
    assert "N = 6 + 3 + 2 + 1 = 12" in table.result.value
    assert chosen_name(table.result.value) == "B"
    table.add_child()  # a never-visited child is still tried first
    assert "N = 6 + 3 + 2 + 0 + 1 = 12" in table.result.value
    assert chosen_name(table.result.value) == "D"


def test_the_widget_property_moves_the_controls():
    table = UCB1TableWidget(parent_visits=11)
    assert table.n_rule_input.value == "given" and table.n_input.value == 11
    assert table.result.value == ucb1_result_html(CHAPTER3_CHILDREN, parent_visits=11)
    table.parent_visits = "sum"
    assert table.n_rule_input.value == "sum" and table.n_input.disabled
    assert table.result.value == ucb1_result_html(CHAPTER3_CHILDREN)
    table.parent_visits = 20
    assert table.n_rule_input.value == "given" and "N = 20 (given" in table.result.value


@pytest.mark.parametrize(("typed", "words"), [(-3, "parent_visits must be 'sum'"),
                                               (5, "at least the children's visits added up")])
def test_a_bad_typed_n_shows_a_message_and_recovers(typed, words):
    table = UCB1TableWidget(parent_visits=10)
    table.n_input.value = typed  # must not raise
    shown = html.unescape(table.result.value)
    assert "Cannot score this table" in shown and words in shown
    assert "chosen:" not in table.result.value
    table.n_input.value = 10
    assert chosen_name(table.result.value) == "C"


def test_the_widget_note_says_which_nodes_each_n_holds_for():
    table = UCB1TableWidget()
    assert "root" in PARENT_VISITS_NOTE and "second visit" in PARENT_VISITS_NOTE
    assert table.note.value.endswith("</small>") and "plus one" in table.note.value
    assert "ucb1-n-rule" in table.n_rule_input._dom_classes
    assert "ucb1-n" in table.n_input._dom_classes
    assert "$" not in table.note.value  # no LaTeX in labels: the static book cannot typeset it
