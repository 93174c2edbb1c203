"""Playing Ultimate Tic-Tac-Toe against the bot (mctslib.views.uttt_widget), without a browser.

The match logic is driven through ``UTTTMatch``; the widget through what its buttons call
(``click``, ``undo``, ``new_game``) and its controls' values, reading back the cell
buttons, the status line and the PNG of the bars. Budgets are small iteration counts with
fixed seeds, so every game here is reproducible. Positions are written as grids and the
expected legal cells and sentences worked out by hand.
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from mctslib.games.uttt import UltimateTicTacToe
from mctslib.rng import make_rng
from mctslib.search.uct import ChildStats, UCTSearch
from mctslib.views.uttt_board import HIGHLIGHT_COLOUR, MARK_COLOURS
from mctslib.views.uttt_match import (
    UTTTMatch,
    root_child_stats,
    spec_bot_factory,
    uct_bot_factory,
    uttt_bot_reply,
    uttt_reply_figure,
    uttt_reply_text,
)
from mctslib.views.uttt_widget import UTTTWidget

FAST = 60  # iterations per reply where the bot's strength does not matter
CENTRE = 40  # row 4, col 4: the centre cell of the centre board

# X has won boards 0 and 1 (row 0, cols 0-5) and holds row 0, cols 6-7 of board 2: row 0,
# col 8 would win board 2 and the line of boards. O (7 marks to X's 8, so O moves; no line
# anywhere) is sent to board 5, where row 3, col 8 is cell 2 and would send X to board 2.
NEAR_END = UltimateTicTacToe.from_grid("""
    X X X | X X X | X X .
    . . . | . . . | O . .
    . . . | . . . | . . .
    ------+-------+------
    O . O | O . . | . . .
    . . . | . . . | . . .
    . . . | . . . | . . .
    ------+-------+------
    . . . | O . O | . . .
    . . . | . . . | O . .
    . . . | . . . | . . .
""", forced_board=5)


def enabled_cells(widget: UTTTWidget) -> list[int]:
    return [move for move, button in widget.cells.items() if not button.disabled]


def marks_on(widget: UTTTWidget) -> dict[int, str]:
    return {move: b.description for move, b in widget.cells.items() if b.description in "XO"}


def visits_of(reply) -> list[tuple[int, int]]:
    return [(child.move, child.visits) for child in reply.stats]


def random_game(seed: int) -> list[int]:
    """The moves of one uniformly random game from the empty board."""
    rng, state, moves = make_rng(seed), UltimateTicTacToe(), []
    while not state.is_terminal():
        legal = state.legal_moves()
        moves.append(legal[int(rng.integers(len(legal)))])
        state = state.play(moves[-1])
    return moves


class FirstMoveBot:
    """A fake numba-style bot: plays the first legal move, reports tuples on the 1/0/-1 scale."""

    class spec:  # mimics the attribute of a BotSpec
        scale = "pm1"

    def choose(self, state):
        self.moves = state.legal_moves()
        return self.moves[0]

    def root_stats(self):
        # (move, visits, mean in 1/0/-1, proven): the first move a sure win, the rest losses.
        return [(move, 1, 1.0 if i == 0 else -1.0, 0) for i, move in enumerate(self.moves)]


# --- one reply ------------------------------------------------------------------------------

def test_a_reply_is_legal_and_spends_the_whole_budget():
    state = UltimateTicTacToe().play(CENTRE)  # O must play in board 4
    reply = uttt_bot_reply(state, uct_bot_factory()(iterations=FAST, seed=1))
    assert [child.move for child in reply.stats] == [30, 31, 32, 39, 41, 48, 49, 50]
    assert reply.visits == FAST  # every iteration passes through one root child
    assert reply.move == max(reply.stats, key=lambda child: child.visits).move
    assert all(0.0 <= child.mean <= 1.0 for child in reply.stats if child.visits)
    assert reply.share(reply.move) == max(c.visits for c in reply.stats) / FAST


def test_root_stats_of_tuples_on_the_plus_minus_one_scale_are_rescaled():
    bot = FirstMoveBot()
    reply = uttt_bot_reply(UltimateTicTacToe().play(CENTRE), bot)
    assert reply.move == 30
    assert [child.mean for child in reply.stats] == [1.0] + [0.0] * 7  # 1 -> win, -1 -> loss
    assert all(math.isnan(child.bonus) for child in reply.stats)
    stats = root_child_stats(type("Plain", (), {"root_stats": lambda self: [
        ChildStats(5, 3, 0.25, 0.1), ChildStats(2, 1, 0.5, 0.2)]})())
    assert [(c.move, c.mean) for c in stats] == [(2, 0.5), (5, 0.25)]  # sorted, kept as is


def test_a_reply_needs_a_game_on_and_a_legal_answer():
    with pytest.raises(ValueError, match="over"):
        uttt_bot_reply(UltimateTicTacToe.from_moves(random_game(0)), FirstMoveBot())

    class Cheat(FirstMoveBot):
        def choose(self, state):
            super().choose(state)
            return 0  # row 0, col 0 is not in board 4

    with pytest.raises(ValueError, match="not legal"):
        uttt_bot_reply(UltimateTicTacToe().play(CENTRE), Cheat())


def test_reply_text_and_figure():
    fig, reply = uttt_reply_figure(iterations=FAST, seed=3)
    try:
        board, bars = fig.axes[0], fig.axes[1]
        assert len(bars.patches) == 8  # one bar per legal move of O after the centre opening
        assert sorted(bar.get_height() for bar in bars.patches) == \
            sorted(child.visits for child in reply.stats)
        assert len(board.texts) > 0  # visit shares written on the board
    finally:
        import matplotlib.pyplot as plt
        plt.close(fig)
    text = uttt_reply_text(reply, top=3)
    lines = text.splitlines()
    assert len(lines) == 2 + 3 and f"{FAST} visits" in lines[0]
    assert sum(line.endswith("<- played") for line in lines) == 1  # the most visited is played
    assert lines[2].endswith("<- played")


def test_the_bars_show_at_most_twelve_moves():
    # From the empty board there are 81 moves; the bars keep the 12 most visited.
    fig, reply = uttt_reply_figure(UltimateTicTacToe(), iterations=200, seed=4)
    try:
        assert len(reply.stats) == 81 and len(fig.axes[1].patches) == 12
        assert "12 most visited of 81" in fig.axes[1].get_xlabel()
    finally:
        import matplotlib.pyplot as plt
        plt.close(fig)


# --- the match --------------------------------------------------------------------------------

def test_a_legal_click_plays_and_the_bot_replies_legally():
    match = UTTTMatch(iterations=FAST, seed=1)
    assert match.clickable() == tuple(range(81)) and "move first" in match.status
    assert match.click(CENTRE)
    assert match.bot_to_move and match.clickable() == () and "thinking (60 iterations)" in \
        match.status
    before = match.state
    reply = match.bot_reply()
    assert reply.move in before.legal_moves() and match.last_move == reply.move
    assert match.state == before.play(reply.move) and not match.bot_to_move
    assert match.status.startswith(f"The bot played row {reply.move // 9}, col {reply.move % 9}")
    assert match.bot_reply() is None  # not its turn


def test_illegal_clicks_change_nothing_and_say_why():
    match = UTTTMatch(iterations=FAST, seed=1)
    match.click(CENTRE)
    match.bot_reply()
    state = match.state
    forced = state.forced_board
    assert not match.click(CENTRE)
    assert match.status.startswith("Row 4, col 4 is taken.") and match.state == state
    outside = next(m for m in range(81) if m not in state.legal_moves() and
                   state.cell(m // 9, m % 9) == ".")
    assert not match.click(outside) and f"you were sent to board {forced}" in match.status
    with pytest.raises(ValueError, match="0 to 80"):
        match.click(81)


def test_clicks_on_a_closed_board_and_during_the_bots_turn():
    # NEAR_END with a free choice for O (as if sent to a closed board).
    start = UltimateTicTacToe.from_grid(NEAR_END.grid(), forced_board=None)
    match = UTTTMatch(human_side="O", iterations=FAST, seed=1, start=start)
    assert match.state.free_choice and not match.click(3)  # row 0, col 3: board 1, won by X
    assert match.status.startswith("Row 0, col 3 is taken.")
    assert not match.click(9)  # row 1, col 0: empty, in board 0 which X won
    assert match.status.startswith("Board 0 (the one holding row 1, col 0) is closed.")
    bot_first = UTTTMatch(human_side="O", iterations=FAST, seed=1)
    assert bot_first.bot_to_move and "The bot (X) moves first" in bot_first.status
    assert not bot_first.click(CENTRE) and bot_first.status.startswith("Wait: it is the bot's")
    assert not bot_first.undo() and bot_first.status.startswith("Wait")


def test_the_end_is_announced_with_the_scoring():
    # The reader (O) plays row 3, col 8 (board 5, cell 2) and so sends X to board 2, where
    # row 0, col 8 wins it and completes X's line of boards 0, 1, 2.
    match = UTTTMatch(human_side="O", iterations=400, seed=2, start=NEAR_END)
    assert match.click(35)
    reply = match.bot_reply()
    assert reply.move == 8 and match.is_over
    assert match.status.endswith("The bot wins: three won boards in a line.")
    assert not match.click(30) and match.status.startswith("The game is over.")
    assert match.clickable() == ()


def all_closed_ending() -> tuple[list[int], int]:
    """A random game ending with every board closed and a winner on board count."""
    for seed in range(200):
        moves = random_game(seed)
        final = UltimateTicTacToe.from_moves(moves)
        if final.ending() == "all closed" and final.winner() is not None:
            return moves, final.winner()
    raise AssertionError("no such game in 200 seeds")


@pytest.mark.parametrize("scoring", ["codingame", "openspiel"])
def test_an_all_closed_ending_names_the_scoring(scoring):
    moves, winner = all_closed_ending()
    start = UltimateTicTacToe.from_moves(moves[:-1])
    reader = "XO"[start.player_to_move]  # the reader makes the last move
    match = UTTTMatch(human_side=reader, iterations=FAST, seed=1, scoring=scoring, start=start)
    assert match.click(moves[-1]) and match.is_over
    final = match.state
    mine, bots = final.won_boards("XO".index(reader)), final.won_boards(1 - "XO".index(reader))
    counts = f"every board is closed without a line; you won {mine} boards, the bot {bots}"
    assert counts in match.status
    if scoring == "codingame":
        who = "You win" if winner == start.player_to_move else "The bot wins"
        assert f"{who}: {counts} (CodinGame scoring: more boards won wins)." in match.status
    else:
        assert f"Draw: {counts}, and under OpenSpiel scoring that is always a draw." in \
            match.status


def test_undo_takes_back_the_readers_move_and_the_reply():
    match = UTTTMatch(iterations=FAST, seed=5)
    assert not match.undo() and match.status.startswith("Nothing to take back yet")
    match.click(CENTRE)
    match.bot_reply()
    after_first = match.state
    second = match.clickable()[0]
    match.click(second)
    match.bot_reply()
    assert len(match.moves) == 4
    assert match.undo()
    assert match.state == after_first and len(match.moves) == 2
    assert match.status.startswith(f"Took back your move at row {second // 9}, col "
                                   f"{second % 9} and the bot's reply.")
    assert match.last_reply is not None and match.last_reply.move == match.moves[-1]
    assert match.undo() and match.state == UltimateTicTacToe() and match.last_reply is None


def test_undo_after_the_readers_winning_move_takes_back_only_that_move():
    moves, _ = all_closed_ending()
    start = UltimateTicTacToe.from_moves(moves[:-1])
    match = UTTTMatch(human_side="XO"[start.player_to_move], iterations=FAST, start=start)
    match.click(moves[-1])
    assert match.undo() and match.state == start
    assert match.status.startswith(f"Took back your move at row {moves[-1] // 9}, col "
                                   f"{moves[-1] % 9}. Your turn")


def test_new_game_and_side_o_means_the_bot_opens():
    match = UTTTMatch(iterations=FAST, seed=1)
    match.click(CENTRE)
    match.bot_reply()
    match.new_game("O")
    assert match.state == UltimateTicTacToe() and match.moves == [] and match.bot_to_move
    reply = match.bot_reply()
    assert match.state.cell(reply.move // 9, reply.move % 9) == "X"
    assert match.human_side == "O" and match.clickable() == match.state.legal_moves()
    match.new_game()
    assert match.human_side == "O" and match.bot_to_move  # the side is kept


def test_same_seed_and_clicks_same_games_and_the_budget_rebuilds_the_bot():
    def play(seed):
        match = UTTTMatch(iterations=FAST, seed=seed)
        replies = []
        for _ in range(4):
            match.click(match.clickable()[-1])
            replies.append(visits_of(match.bot_reply()))
        return match.moves, replies

    assert play(11) == play(11)
    assert play(11) != play(12)
    match = UTTTMatch(iterations=FAST, seed=1)
    bot = match.bot()
    assert match.bot() is bot and isinstance(bot, UCTSearch) and bot.iterations == FAST
    match.set_budget(iterations=2 * FAST)
    assert match.bot() is not bot and match.bot().iterations == 2 * FAST
    match.set_budget(think_ms=50)
    assert match.bot().seconds == 0.05 and match.budget_text() == "50 ms"


def test_a_time_budget_replies_within_about_that_time():
    match = UTTTMatch(think_ms=30, seed=1)
    match.click(CENTRE)
    reply = match.bot_reply()
    assert 0.03 <= reply.seconds < 1.0 and reply.visits >= 1  # generous: CI machines are busy


def test_bad_parameters_are_sentences():
    with pytest.raises(ValueError, match="human_side"):
        UTTTMatch(human_side="x")
    with pytest.raises(ValueError, match="scoring"):
        UTTTMatch(scoring="fide")
    with pytest.raises(ValueError, match="think_ms"):
        UTTTMatch(think_ms=0)
    with pytest.raises(ValueError, match="iterations"):
        UTTTMatch(iterations=0)
    with pytest.raises(ValueError, match="bot must be"):
        UTTTMatch(bot=42)
    with pytest.raises(ValueError, match="still on"):
        UTTTMatch(start=UltimateTicTacToe.from_moves(random_game(0)))
    with pytest.raises(ValueError, match=r"think_ms must be between min_ms \(10\) and max_ms "
                                         r"\(3000\), got 5000"):
        UTTTWidget(think_ms=5000)
    with pytest.raises(ValueError, match=r"iterations must be between min_iterations \(10\)"):
        UTTTWidget(iterations=5)


def test_a_bot_factory_is_called_with_the_budget_and_the_shared_generator():
    calls = []

    def factory(iterations=None, ms=None, seed=None):
        calls.append((iterations, ms, seed))
        return FirstMoveBot()

    match = UTTTMatch(bot=factory, iterations=7, seed=1)
    match.click(CENTRE)
    assert match.bot_reply().move == 30 and calls == [(7, None, match.rng)]


def test_the_numba_bot_from_a_spec():
    match = UTTTMatch(bot="uct:c=0.5,scale=pm1,solver=on", iterations=500, seed=1)
    match.click(CENTRE)
    reply = match.bot_reply()
    assert reply.move in UltimateTicTacToe().play(CENTRE).legal_moves()
    assert reply.visits == 500 and all(0.0 <= c.mean <= 1.0 for c in reply.stats if c.visits)
    again = UTTTMatch(bot="uct:c=0.5,scale=pm1,solver=on", iterations=500, seed=1)
    again.click(CENTRE)
    assert visits_of(again.bot_reply()) == visits_of(reply)


# Every option on and off somewhere, both scales, every form of budget the widget replaces
# (odd numbers, so that a budget left in the description would show), a small pool.
SPECS = [
    "uct",
    "uct:c=0.4,wins=on,solver=on,reuse=on,centre=on,capacity=5000",
    "uct:c=0,scale=pm1,iters=1234,solver=on,capacity=5000",
    "uct:c=2.5,ms=321,wins=on,reuse=on,capacity=5000",
    "uct:ms=321,first_ms=4321,centre=on,scale=pm1,capacity=5000",
    "uct:first_ms=4321,wins=off,solver=on,reuse=off,centre=on,capacity=5000",
]


@pytest.mark.parametrize("spec", SPECS)
def test_a_spec_bots_description_is_its_spec_without_the_replaced_budget(spec):
    from mctslib.bots.uttt import parse_spec

    factory = spec_bot_factory(spec)
    prefix = "the numba bot "
    assert factory.description.startswith(prefix)
    described = factory.description.removeprefix(prefix)
    for budget in ("iters", "ms=", "first_ms", "1234", "4321", "321"):
        assert budget not in described, f"{budget!r} in {factory.description!r}"
    # The rest is a SPEC which, given the widget's budget (the same ms for the first move
    # too), is the very bot the factory builds: no option claimed that it lacks, none missing.
    for iterations, ms in ((7, None), (None, 55.0)):
        bot = factory(iterations=iterations, ms=ms, seed=make_rng(1))
        assert dataclasses.replace(parse_spec(described), iterations=iterations, ms=ms,
                                   first_ms=ms) == bot.spec


def test_the_widget_names_a_spec_bot_by_its_options_not_the_specs_budget():
    widget = UTTTWidget(bot="uct:c=0.4,iters=5000,solver=on,capacity=5000", iterations=FAST)
    intro = widget.children[0].value
    assert ("The bot: the numba bot uct:c=0.4,scale=01,wins=off,solver=on,reuse=off,"
            "centre=off,capacity=5000.") in intro
    assert "5000 iterations" not in intro and "iters" not in intro


# --- the widget ---------------------------------------------------------------------------------

def test_the_widget_starts_with_every_cell_enabled_and_named_for_tests():
    widget = UTTTWidget(iterations=FAST, seed=1)
    assert enabled_cells(widget) == list(range(81)) and marks_on(widget) == {}
    assert widget.cells[0].style.button_color == HIGHLIGHT_COLOUR
    assert "uttt-cell-40" in widget.cells[40]._dom_classes
    for part, name in ((widget.status, "uttt-status"), (widget.bars, "uttt-bars"),
                       (widget.new_button, "uttt-new"), (widget.undo_button, "uttt-undo"),
                       (widget.side, "uttt-side"), (widget.think, "uttt-think")):
        assert name in part._dom_classes
    assert bytes(widget.bars.value[:4]) == b"\x89PNG" and widget.undo_button.disabled
    assert widget.think.description == "bot's iterations per reply" and widget.think.value == FAST
    intro = widget.children[0].value
    assert "CodinGame scoring decides" in intro and "UCT with c = 0.5" in intro


def test_a_click_plays_the_bot_replies_and_the_board_follows():
    widget = UTTTWidget(iterations=FAST, seed=1)
    placeholder = widget.bars.value
    widget.click(CENTRE)
    reply = widget.match.last_reply
    marks = marks_on(widget)
    assert marks == {CENTRE: "X", reply.move: "O"}
    assert widget.cells[CENTRE].style.button_color == MARK_COLOURS["X"]
    assert widget.cells[reply.move].style.text_decoration == "underline"  # the last move
    assert enabled_cells(widget) == list(widget.match.state.legal_moves())
    assert widget.bars.value != placeholder and not widget.undo_button.disabled
    assert "The bot played" in widget.status.value


def test_widget_illegal_click_undo_and_new_game():
    widget = UTTTWidget(iterations=FAST, seed=1)
    widget.click(CENTRE)
    widget.click(CENTRE)
    assert "is taken" in widget.status.value and len(marks_on(widget)) == 2
    widget.undo()
    assert marks_on(widget) == {} and enabled_cells(widget) == list(range(81))
    widget.click(0)
    widget.new_game()
    assert marks_on(widget) == {} and widget.undo_button.disabled


def test_the_side_toggle_starts_a_game_where_the_bot_opens():
    widget = UTTTWidget(iterations=FAST, seed=1)
    widget.side.value = "O"
    marks = marks_on(widget)
    assert list(marks.values()) == ["X"] and widget.match.human_side == "O"
    assert enabled_cells(widget) == list(widget.match.state.legal_moves())
    opened = UTTTWidget(side="O", iterations=FAST, seed=1)
    assert len(marks_on(opened)) == 1  # the bot opened while the widget was built


def test_the_slider_sets_the_budget():
    widget = UTTTWidget(think_ms=100, seed=1)
    assert widget.think.description == "bot's think time per reply (ms)"
    widget.think.value = 40
    assert widget.match.think_ms == 40 and widget.match.iterations is None
    counted = UTTTWidget(iterations=FAST, seed=1)
    counted.think.value = 500
    assert counted.match.iterations == 500


def test_a_game_played_to_the_end_leaves_no_cell_enabled():
    # From ten moves before the end of a random game (each reply draws a PNG: ~0.1 s).
    start = UltimateTicTacToe.from_moves(random_game(1)[:-10])
    widget = UTTTWidget(side="XO"[start.player_to_move], iterations=20, seed=3, start=start)
    clicks = 0
    while not widget.match.is_over:
        widget.click(enabled_cells(widget)[0])
        clicks += 1
    assert clicks <= 41 and enabled_cells(widget) == []
    assert any(word in widget.status.value for word in ("You win", "The bot wins", "Draw"))
