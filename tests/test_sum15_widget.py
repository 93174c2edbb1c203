"""The UCT chapter's sum-to-15 game against the bot: its logic and its widget, no browser.

Clicks are simulated by calling what a button's click calls; the widget's state (buttons,
labels, status, the PNG of the bars) is read back. Positions are written as the numbers
each side holds; the expected triples, draws and wins below are worked out by hand from
the magic square 2 7 6 / 9 5 1 / 4 3 8.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest

from mctslib.games.sum15 import SumToFifteen
from mctslib.search.uct import ChildStats
from mctslib.views.plotting import draw_root_bars
from mctslib.views.sum15 import (
    Sum15Match,
    Sum15Widget,
    sum15_bot_reply,
    sum15_reply_figure,
    sum15_reply_text,
    winning_triples,
)

FAST = 300  # iterations per reply where the strength of the bot does not matter


def mask(*numbers: int) -> int:
    return sum(1 << n for n in numbers)


def position(first=(), second=()) -> SumToFifteen:
    return SumToFifteen(mask(*first), mask(*second))


def enabled_numbers(widget: Sum15Widget) -> list[int]:
    return [n for n, button in widget.number_buttons.items() if not button.disabled]


# --- pure functions ----------------------------------------------------------------------

def test_winning_triples_lists_every_line_held():
    assert winning_triples(mask(1, 5, 9)) == [(1, 5, 9)]
    # 1+5+9 and 4+5+6; 1, 4, 6 and 9 make no other line (1+6+8 and 2+4+9 lack a number).
    assert winning_triples(mask(1, 4, 5, 6, 9)) == [(1, 5, 9), (4, 5, 6)]
    assert winning_triples(mask(2, 3, 6, 8, 9)) == []  # ten sums, none of them 15


def test_a_reply_is_the_most_visited_legal_number_and_spends_the_whole_budget():
    state = position(first=(5,), second=(2,))
    reply = sum15_bot_reply(state, iterations=FAST, seed=1)
    assert [child.move for child in reply.stats] == [1, 3, 4, 6, 7, 8, 9]  # free, sorted
    # Every iteration passes through exactly one root child.
    assert sum(child.visits for child in reply.stats) == FAST
    assert reply.move == max(reply.stats, key=lambda child: child.visits).move
    assert all(0.0 <= child.mean <= 1.0 for child in reply.stats)


def test_the_bot_takes_an_immediate_win():
    # The bot (second) holds 2 and 9: 4 completes 2 + 4 + 9 = 15.
    reply = sum15_bot_reply(position(first=(1, 3, 5), second=(2, 9)), iterations=2000, seed=3)
    assert reply.move == 4
    assert next(child.mean for child in reply.stats if child.move == 4) == 1.0


def test_reply_text_marks_the_picked_row():
    reply = sum15_bot_reply(SumToFifteen(), iterations=FAST, seed=5)
    text = sum15_reply_text(reply)
    picked = [line for line in text.splitlines() if line.endswith("<- picked")]
    assert len(picked) == 1 and picked[0].split()[0] == str(reply.move)
    assert f"{FAST} iterations" in text and len(text.splitlines()) == 2 + 9


def test_reply_figure_has_one_bar_per_free_number_and_highlights_the_pick():
    fig, reply = sum15_reply_figure(iterations=FAST, seed=5)
    try:
        bars = fig.axes[0].patches
        assert [bar.get_height() for bar in bars] == [c.visits for c in reply.stats]
        colours = {bar.get_facecolor() for bar in bars}
        picked = bars[reply.move - 1].get_facecolor()  # empty board: bar i is number i + 1
        assert len(colours) == 2 and sum(b.get_facecolor() == picked for b in bars) == 1
    finally:
        plt.close(fig)


def test_bars_need_at_least_one_move():
    fig, ax = plt.subplots()
    try:
        with pytest.raises(ValueError, match="stats"):
            draw_root_bars(ax, [])
        draw_root_bars(ax, [ChildStats(3, 0, float("nan"), float("inf"))])
        assert [t.get_text() for t in ax.texts] == ["-"]  # an unvisited move has no mean
    finally:
        plt.close(fig)


def test_bad_parameters_say_what_is_allowed():
    with pytest.raises(ValueError, match="iterations"):
        Sum15Match(iterations=0)
    with pytest.raises(ValueError, match="exploration"):
        Sum15Match(exploration=-1)
    with pytest.raises(ValueError, match="from 1 to 9"):
        Sum15Match(iterations=FAST).click(10)
    with pytest.raises(ValueError, match="between min_iterations"):
        Sum15Widget(iterations=50)
    with pytest.raises(ValueError, match="finished game"):
        sum15_bot_reply(position(first=(2, 6, 7), second=(1, 3)))


# --- the match: rules of the widget --------------------------------------------------------

def test_clicks_during_the_bots_turn_or_on_taken_numbers_change_nothing():
    match = Sum15Match(iterations=FAST, seed=1, bot_starts=True)
    assert match.bot_to_move
    assert not match.click(5) and "bot's turn" in match.status
    assert match.state == SumToFifteen()
    match.bot_reply()
    taken = match.bot_numbers[0]
    assert not match.click(taken) and f"{taken} is already taken" in match.status
    assert match.human_numbers == []
    assert match.bot_reply() is None  # not the bot's turn: no search, nothing played


def test_a_win_is_announced_with_the_triple_and_ends_the_game():
    match = Sum15Match(iterations=FAST, seed=1)
    match.state = position(first=(2, 7), second=(4, 8))  # the reader is first and to move
    assert match.click(6)
    assert match.is_over and match.status == "You picked 6. You win: 2 + 6 + 7 = 15."
    assert match.bot_reply() is None
    assert not match.click(1) and match.status.startswith("The game is over. You win")


def test_the_bot_wins_when_the_reader_does_not_block():
    match = Sum15Match(iterations=2000, seed=3)
    match.state = position(first=(1, 3), second=(2, 9))
    match.click(5)  # does not block 4
    match.bot_reply()
    assert match.bot_numbers == [2, 4, 9]
    assert match.status.endswith("The bot wins: 2 + 4 + 9 = 15.")


def test_the_last_free_number_can_end_in_a_draw():
    # X O X / X O O / O X X on the magic square: the reader holds 2 3 6 9 (+ 8), the bot 1 4 5 7.
    match = Sum15Match(iterations=FAST, seed=1)
    match.state = position(first=(2, 3, 6, 9), second=(1, 4, 5, 7))
    assert match.click(8) and match.is_over
    assert "Draw: all nine numbers are taken" in match.status


def test_new_games_continue_one_seeded_stream():
    def two_games(seed):
        match = Sum15Match(iterations=FAST, seed=seed, bot_starts=True)
        first = match.bot_reply()
        match.new_game()
        return first, match.bot_reply()

    first, second = two_games(11)
    assert first.stats != second.stats  # the second game did not restart the stream
    assert two_games(11) == (first, second)  # ... and the stream is reproducible
    assert two_games(12)[0].stats != first.stats


# --- the widget ---------------------------------------------------------------------------

def test_widget_starts_with_every_number_free_and_no_bars_yet():
    widget = Sum15Widget(iterations=FAST, seed=1)
    assert enabled_numbers(widget) == list(range(1, 10))
    assert "nothing yet" in widget.human_label.value and "nothing yet" in widget.bot_label.value
    assert "Your turn" in widget.status.value
    assert widget.bars.value[:8] == b"\x89PNG\r\n\x1a\n"  # the placeholder picture
    assert "sum15-n-7" in widget.number_buttons[7]._dom_classes
    for part, css in [(widget.status, "sum15-status"), (widget.human_label, "sum15-human"),
                      (widget.bot_label, "sum15-bot"), (widget.bars, "sum15-bars"),
                      (widget.new_button, "sum15-new")]:
        assert css in part._dom_classes


def test_a_click_plays_the_number_and_the_bot_replies_with_a_free_one():
    widget = Sum15Widget(iterations=FAST, seed=1)
    placeholder = widget.bars.value
    widget.click(5)
    human, bot = widget.match.human_numbers, widget.match.bot_numbers
    assert human == [5] and len(bot) == 1 and bot[0] in set(range(1, 10)) - {5}
    assert f"The bot picked {bot[0]}" in widget.status.value
    assert "You hold:</span> 5" in widget.human_label.value
    assert f"The bot holds:</span> {bot[0]}" in widget.bot_label.value
    assert enabled_numbers(widget) == [n for n in range(1, 10) if n not in (5, bot[0])]
    free = enabled_numbers(widget)[0]
    colours = {n: widget.number_buttons[n].style.button_color for n in (5, bot[0], free)}
    assert colours[5] != colours[bot[0]] and None not in (colours[5], colours[bot[0]])
    assert colours[free] is None  # a free number keeps the default look
    first_bars = widget.bars.value
    assert first_bars != placeholder
    widget.click(enabled_numbers(widget)[0])
    assert len(widget.match.bot_numbers) == 2 and widget.bars.value != first_bars


def test_every_button_is_off_while_the_bot_searches(monkeypatch):
    widget = Sum15Widget(iterations=FAST, seed=1)
    seen = []
    search = widget.match.bot_reply

    def watched_reply():
        seen.append((enabled_numbers(widget), widget.status.value))
        widget.click(1)  # a click that arrives while the bot is to move
        seen.append(widget.match.human_numbers)
        return search()

    monkeypatch.setattr(widget.match, "bot_reply", watched_reply)
    widget.click(5)
    assert seen[0][0] == [] and "thinking (300 iterations)" in seen[0][1]
    assert seen[1] == [5]  # the click during the bot's turn was ignored
    assert widget.match.human_numbers == [5] and len(widget.match.bot_numbers) == 1


def test_after_the_end_every_button_is_off_and_clicks_are_ignored():
    widget = Sum15Widget(iterations=FAST, seed=1)
    widget.match.state = position(first=(2, 7), second=(4, 8))
    widget.click(6)
    assert enabled_numbers(widget) == [] and "You win: 2 + 6 + 7 = 15" in widget.status.value
    widget.click(1)
    assert widget.match.human_numbers == [2, 6, 7] and "The game is over" in widget.status.value


def test_new_game_resets_the_board_and_the_bars():
    widget = Sum15Widget(iterations=FAST, seed=1)
    placeholder = widget.bars.value
    widget.click(5)
    widget.new_button.click()  # what a browser click runs
    assert widget.match.human_numbers == [] and widget.match.bot_numbers == []
    assert enabled_numbers(widget) == list(range(1, 10)) and widget.bars.value == placeholder


def test_bot_starts_mode_and_the_toggle():
    widget = Sum15Widget(iterations=FAST, seed=1, bot_starts=True)
    assert widget.match.human_numbers == [] and len(widget.match.bot_numbers) == 1
    assert "Your turn" in widget.status.value and len(enabled_numbers(widget)) == 8
    widget.starter.value = False  # "you" pick first: a new game starts at once
    assert widget.match.bot_numbers == [] and len(enabled_numbers(widget)) == 9
    widget.starter.value = True
    assert len(widget.match.bot_numbers) == 1 and widget.match.human_numbers == []


def test_the_budget_slider_sets_the_next_replys_iterations():
    widget = Sum15Widget(iterations=FAST, seed=1)
    widget.budget.value = 700
    widget.click(5)
    reply = widget.match.last_reply
    assert reply.iterations == 700 and sum(c.visits for c in reply.stats) == 700


def test_same_seed_same_clicks_same_games():
    def play(seed):
        widget = Sum15Widget(iterations=FAST, seed=seed)
        for _ in range(3):
            if widget.match.is_over:
                break
            widget.click(enabled_numbers(widget)[-1])
        return widget.match.state, widget.bars.value, widget.match.last_reply

    state, png, reply = play(21)
    assert play(21) == (state, png, reply)
    assert play(22)[2] != reply


def test_the_static_picture_is_the_widgets_opening_when_the_bot_starts():
    # Same seed, same first draws: the chapter's figure shows what the widget opens with.
    widget = Sum15Widget(iterations=FAST, seed=4, bot_starts=True)
    assert widget.match.last_reply == sum15_bot_reply(SumToFifteen(), iterations=FAST, seed=4)
