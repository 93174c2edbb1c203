"""The chapter 3 UCB1 table: its pure logic and its widget, driven without a browser.

The widget's inputs are set from Python exactly as a browser edit would set
them (a change of ``value``), and the result HTML is read back.
"""

import re

import pytest

from mctslib.learners.ucb1 import ucb1_step
from mctslib.views.ucb1_table import (
    CHAPTER3_CHILDREN,
    UCB1TableWidget,
    choice_sentence,
    parent_visits_sentence,
    ucb1_result_html,
    ucb1_result_text,
    ucb1_table_rows,
)


def chosen_name(result_html: str) -> str:
    found = re.findall(r"chosen: (\w+)", result_html)
    assert len(found) == 1, result_html
    return found[0]


# --- pure functions ----------------------------------------------------------------------

def test_rows_round_to_three_decimals_and_mark_unvisited_children():
    rows = ucb1_table_rows(ucb1_step([*CHAPTER3_CHILDREN, ("D", 0, 0)]))
    assert rows[0] == ("A", "4", "6", "0.667", "0.876", "1.543")
    assert rows[3] == ("D", "0", "0", "-", "inf", "inf")


def test_parent_visits_sentence_adds_up_the_childrens_visits():
    sentence = parent_visits_sentence(ucb1_step(CHAPTER3_CHILDREN))
    assert sentence.startswith("N = 6 + 3 + 1 = 10 ")
    assert "ln N = 2.303" in sentence and "c = 1.414" in sentence


def test_parent_visits_sentence_skips_ln_when_nothing_was_visited():
    sentence = parent_visits_sentence(ucb1_step([("A", 0, 0), ("B", 0, 0)]))
    assert sentence.startswith("N = 0 + 0 = 0 ") and "ln N" not in sentence


def test_choice_sentences_give_the_reason():
    assert choice_sentence(ucb1_step(CHAPTER3_CHILDREN)) == (
        "chosen: C, because its score 2.146 is the highest, ahead of B (1.572) by 0.574.")
    unvisited = choice_sentence(ucb1_step([("A", 1, 1), ("B", 0, 0)]))
    assert unvisited.startswith("chosen: B, because it has never been visited")
    tie = choice_sentence(ucb1_step([("A", 1, 2), ("B", 1, 2)]))
    assert tie.startswith("chosen: A") and "tied with B" in tie and "first child" in tie


def test_a_margin_too_small_for_three_decimals_is_shown_in_scientific_notation():
    sentence = choice_sentence(ucb1_step([("A", 1, 2), ("B", 1.0000001, 2)]))
    assert sentence.startswith("chosen: B") and sentence.endswith("by 5.0e-08.")


def test_text_result_of_the_chapter_root():
    lines = ucb1_result_text(CHAPTER3_CHILDREN).splitlines()
    assert lines[1].split() == ["child", "wins", "visits", "mean", "bonus", "score"]
    assert lines[4].split() == ["C", "0", "1", "0.000", "2.146", "2.146"]
    assert lines[-1].startswith("chosen: C")


def test_bad_numbers_give_a_sentence_not_an_exception():
    text = ucb1_result_text([("A", 7, 6)])
    assert text.startswith("Cannot score this table: wins of child A must be")
    assert "chosen" not in text
    assert "exploration constant" in ucb1_result_text(CHAPTER3_CHILDREN, c=-1.0)
    assert "at least one" in ucb1_result_text([])


def test_html_highlights_exactly_the_chosen_row_and_escapes_names():
    page = ucb1_result_html([("<b>", 1, 2), ("B", 1, 3)])
    assert page.count('class="ucb1-chosen"') == 1
    chosen_row = page.split('class="ucb1-chosen"')[1].split("</tr>")[0]
    assert "&lt;b&gt;" in chosen_row and "<b>" not in chosen_row
    assert "chosen: &lt;b&gt;" in page


def test_html_has_no_latex():
    assert "$" not in ucb1_result_html(CHAPTER3_CHILDREN)


# --- the widget --------------------------------------------------------------------------

def test_widget_starts_with_the_chapter_root_and_chooses_c():
    table = UCB1TableWidget()
    assert table.values() == [("A", 4.0, 6), ("B", 1.0, 3), ("C", 0.0, 1)]
    assert chosen_name(table.result.value) == "C"
    assert "N = 6 + 3 + 1 = 10" in table.result.value


def test_editing_visits_recomputes_the_choice():
    table = UCB1TableWidget()
    table.visits_inputs[2].value = 2  # C tried and lost again: step 2 of the chapter
    assert chosen_name(table.result.value) == "B"
    assert "1.598" in table.result.value and "N = 6 + 3 + 2 = 11" in table.result.value


def test_editing_wins_and_c_recomputes_the_choice():
    table = UCB1TableWidget()
    table.c_input.value = 0.0  # no exploration: the best mean (A, 0.667) wins
    assert chosen_name(table.result.value) == "A"
    table.wins_inputs[1].value = 3.0  # B now 3 of 3
    assert chosen_name(table.result.value) == "B"


@pytest.mark.parametrize(
    ("control", "value", "message"),
    [
        ("wins", 9.0, "wins of child A must be"),
        ("wins", -1.0, "wins of child A must be"),
        ("visits", -2, "visits of child A must be"),
        ("c", -0.5, "c (the exploration constant) must be"),
    ],
)
def test_a_bad_edit_shows_a_message_and_recovers(control, value, message):
    table = UCB1TableWidget()
    inputs = {"wins": table.wins_inputs[0], "visits": table.visits_inputs[0],
              "c": table.c_input}
    good = inputs[control].value
    inputs[control].value = value  # must not raise
    assert message in table.result.value and "Cannot score" in table.result.value
    assert "chosen:" not in table.result.value
    inputs[control].value = good
    assert chosen_name(table.result.value) == "C"


def test_dom_classes_for_the_browser_test():
    table = UCB1TableWidget()
    for index in range(3):
        assert f"ucb1-wins-{index}" in table.wins_inputs[index]._dom_classes
        assert f"ucb1-visits-{index}" in table.visits_inputs[index]._dom_classes
    assert "ucb1-c" in table.c_input._dom_classes
    assert "ucb1-result" in table.result._dom_classes


def test_adding_and_removing_children():
    table = UCB1TableWidget()
    table.add_child()  # D, never visited, is tried first
    assert table.values()[-1] == ("D", 0.0, 0)
    assert "ucb1-visits-3" in table.visits_inputs[3]._dom_classes
    assert chosen_name(table.result.value) == "D"
    table.remove_child()
    assert chosen_name(table.result.value) == "C"
    table.remove_child()
    table.remove_child()
    assert len(table.values()) == 1 and table.remove_button.disabled
    table.remove_child()  # the last child stays
    assert table.values() == [("A", 4.0, 6)]


def test_widget_rejects_a_malformed_starting_row():
    with pytest.raises(ValueError, match="each row must be"):
        UCB1TableWidget(rows=[("A", 1)])
    with pytest.raises(ValueError, match="visits of child A must be a whole number"):
        UCB1TableWidget(rows=[("A", 1, 2.5)])
