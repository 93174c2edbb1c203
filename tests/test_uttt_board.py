"""Pictures of Ultimate Tic-Tac-Toe positions (mctslib.views.uttt_board), checked through their artists.

Every artist that carries meaning has a gid (``uttt-won-<board>``, ``uttt-playable-<board>``,
...), so the tests read back what was drawn: which boards are shaded and in which colour,
which cells hold marks, dots or visit shares. The positions are written as grids and their
won, drawn and playable boards worked out by hand.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure

from mctslib.games.uttt import UltimateTicTacToe
from mctslib.rng import make_rng
from mctslib.search.uct import ChildStats
from mctslib.views.uttt_board import (
    DRAWN_COLOUR,
    HIGHLIGHT_COLOUR,
    MARK_COLOURS,
    WON_COLOURS,
    draw_uttt,
    position_title,
    uttt_figure,
    visit_counts,
)

# Board 0 full without a line (drawn), board 4 won by X (row 3), board 8 won by O (row 6).
# X has 9 marks and O 8, so O moves, with a free choice (no forced board given).
SHADED = UltimateTicTacToe.from_grid("""
    X O X | . . . | . . .
    X O O | . . . | . . .
    O X X | . . . | . . .
    ------+-------+------
    . . . | X X X | . . .
    . . . | O . . | . . .
    . . . | . . . | . . .
    ------+-------+------
    . . . | . . . | O O O
    . . . | . . . | X . .
    . . . | . . . | . . .
""")
# X holds the whole top row: boards 0, 1 and 2 won, a line of boards. O's eight marks make
# no line in any board.
X_WON = UltimateTicTacToe.from_grid("""
    X X X | X X X | X X X
    . . . | . . . | . . .
    . . . | . . . | . . .
    ------+-------+------
    . . . | . . . | . . .
    O . O | O . O | O . O
    . . . | . . . | . . .
    ------+-------+------
    . . . | . . . | . . .
    O . O | . . . | . . .
    . . . | . . . | . . .
""")


def gids(ax, prefix: str) -> dict[str, object]:
    """The artists of ``ax`` whose gid starts with ``prefix``, by gid."""
    return {a.get_gid(): a for a in ax.get_children() if (a.get_gid() or "").startswith(prefix)}


def board_numbers(ax, prefix: str) -> set[int]:
    """Board numbers of gids ``<prefix><board>`` (e.g. ``uttt-won-4``)."""
    return {int(gid.removeprefix(prefix)) for gid in gids(ax, prefix)
            if gid.removeprefix(prefix).isdigit()}


def drawn(state, **options):
    fig = Figure()
    ax = fig.add_subplot()
    draw_uttt(ax, state, **options)
    return ax


def random_game(seed: int) -> list[UltimateTicTacToe]:
    """The positions of one uniformly random game, from the empty board to the end."""
    rng, states = make_rng(seed), [UltimateTicTacToe()]
    while not states[-1].is_terminal():
        moves = states[-1].legal_moves()
        states.append(states[-1].play(moves[int(rng.integers(len(moves)))]))
    return states


def test_the_hand_made_positions_are_what_the_tests_assume():
    assert SHADED.board_statuses() == ("drawn", "open", "open", "open", "X", "open", "open",
                                       "open", "O")
    assert SHADED.playable_boards() == (1, 2, 3, 5, 6, 7) and SHADED.player_to_move == 1
    assert X_WON.winner() == 0 and X_WON.ending() == "line"


def test_won_drawn_and_playable_boards_are_shaded_in_their_colours():
    ax = drawn(SHADED)
    assert board_numbers(ax, "uttt-won-") == {4, 8}
    assert board_numbers(ax, "uttt-drawn-") == {0}
    assert board_numbers(ax, "uttt-playable-") == set(SHADED.playable_boards())
    shading = gids(ax, "uttt-")
    assert shading["uttt-won-4"].get_facecolor() == to_rgba(WON_COLOURS["X"])
    assert shading["uttt-won-8"].get_facecolor() == to_rgba(WON_COLOURS["O"])
    assert shading["uttt-drawn-0"].get_facecolor() == to_rgba(DRAWN_COLOUR)
    assert shading["uttt-playable-1"].get_facecolor()[:3] == to_rgba(HIGHLIGHT_COLOUR)[:3]
    # The big faded mark: two strokes of an X on board 4, a ring for O on board 8.
    faded = [a for a in ax.get_children() if a.get_gid() == "uttt-won-mark-4"]
    assert len(faded) == 2 and all(a.get_color() == MARK_COLOURS["X"] for a in faded)
    ring = [a for a in ax.get_children() if a.get_gid() == "uttt-won-mark-8"]
    assert len(ring) == 1 and ring[0].get_edgecolor() == to_rgba(MARK_COLOURS["O"], 0.3)


def test_a_forced_board_is_the_only_one_highlighted():
    state = UltimateTicTacToe().play(40).play(30)  # centre, then O sends X to board 0
    assert state.playable_boards() == (0,)
    assert board_numbers(drawn(state), "uttt-playable-") == {0}
    assert board_numbers(drawn(UltimateTicTacToe()), "uttt-playable-") == set(range(9))
    assert board_numbers(drawn(state, highlight_playable=False), "uttt-playable-") == set()


def test_every_mark_is_drawn_in_its_colour():
    ax = drawn(SHADED)
    marks = gids(ax, "uttt-mark-")
    expected = {9 * r + c: SHADED.cell(r, c) for r in range(9) for c in range(9)
                if SHADED.cell(r, c) != "."}
    assert {int(gid.removeprefix("uttt-mark-")) for gid in marks} == set(expected)
    assert len(expected) == 17  # 9 X and 8 O
    x_strokes = [a for a in ax.get_children() if a.get_gid() == "uttt-mark-0"]
    assert len(x_strokes) == 2 and x_strokes[0].get_color() == MARK_COLOURS["X"]
    assert marks["uttt-mark-1"].get_edgecolor()[:3] == to_rgba(MARK_COLOURS["O"])[:3]


def test_legal_dots_last_move_and_extra_highlights():
    state = UltimateTicTacToe().play(40)
    ax = drawn(state, legal_dots=True, last_move=40)
    dots = {int(gid.removeprefix("uttt-legal-")) for gid in gids(ax, "uttt-legal-")}
    assert dots == set(state.legal_moves()) == {30, 31, 32, 39, 41, 48, 49, 50}
    assert "uttt-last-move" in gids(ax, "uttt-last")
    ax = drawn(state, highlight_moves=[0, 80])
    assert set(gids(ax, "uttt-legal-")) == {"uttt-legal-0", "uttt-legal-80"}


def test_visit_heat_map_tints_visited_cells_darkest_where_most_visited():
    state = UltimateTicTacToe().play(40)
    stats = [ChildStats(30, 60, 0.5, 0.1), ChildStats(31, 30, 0.4, 0.1),
             ChildStats(32, 10, 0.3, 0.1), ChildStats(39, 0, float("nan"), 0.0)]
    fig = Figure()
    ax = fig.add_subplot()
    draw_uttt(ax, state, visits=stats)
    tiles = gids(ax, "uttt-visits-")
    assert set(tiles) == {"uttt-visits-30", "uttt-visits-31", "uttt-visits-32"}  # 0 visits: none
    darkness = {gid: sum(tile.get_facecolor()[:3]) for gid, tile in tiles.items()}
    assert darkness["uttt-visits-30"] < darkness["uttt-visits-31"] < darkness["uttt-visits-32"]
    texts = sorted(t.get_text() for t in ax.texts)
    assert texts == ["10%", "30%", "60%"]  # 60, 30 and 10 of 100 visits
    assert len(fig.axes) == 2  # the board and its colour bar


def test_visit_counts_reads_mappings_stats_and_tuples():
    assert visit_counts({3: 5, 4: 0}) == {3: 5, 4: 0}
    assert visit_counts([ChildStats(7, 2, 0.5, 0.0)]) == {7: 2}
    assert visit_counts([(7, 2, 0.5, 0), (8, 1, 0.0, 1)]) == {7: 2, 8: 1}
    with pytest.raises(ValueError, match="0..80"):
        visit_counts({81: 1})
    with pytest.raises(ValueError, match=">= 0"):
        visit_counts({3: -1})


def test_finished_games_draw_without_highlights():
    ax = drawn(X_WON, legal_dots=True)
    assert board_numbers(ax, "uttt-won-") == {0, 1, 2}
    assert board_numbers(ax, "uttt-playable-") == set() and gids(ax, "uttt-legal-") == {}
    # A random game that ends with every board closed (CodinGame then counts boards won).
    states = next(game for game in map(random_game, range(100))
                  if game[-1].ending() == "all closed")
    final = states[-1]
    ax = drawn(final)
    statuses = final.board_statuses()
    assert board_numbers(ax, "uttt-won-") == {b for b in range(9) if statuses[b] in "XO"}
    assert board_numbers(ax, "uttt-drawn-") == {b for b in range(9) if statuses[b] == "drawn"}
    assert "open" not in statuses


def test_position_titles_say_who_moves_where_or_how_it_ended():
    assert position_title(UltimateTicTacToe()) == \
        "X to move anywhere open (boards won: X 0, O 0)"
    assert position_title(UltimateTicTacToe().play(40)) == \
        "O to move in board 4 (boards won: X 0, O 0)"
    assert position_title(X_WON) == "Game over: X wins (boards won: X 3, O 0; CodinGame scoring)"
    assert position_title(X_WON.with_scoring("openspiel")).endswith("OpenSpiel scoring)")


def test_uttt_figure_off_screen_and_through_pyplot():
    fig = uttt_figure(SHADED, pyplot=False)
    assert isinstance(fig, Figure) and fig.axes[0].get_title() == position_title(SHADED)
    assert fig.get_facecolor() == to_rgba("white")  # the same picture on dark pages
    assert uttt_figure(SHADED, title=None, pyplot=False).axes[0].get_title() == ""
    before = plt.get_fignums()
    fig = uttt_figure(X_WON, last_move=8)
    try:
        assert plt.get_fignums() == [*before, fig.number]
        labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
        assert labels == [str(k) for k in range(9)]
    finally:
        plt.close(fig)


def test_bad_input_is_a_sentence():
    with pytest.raises(ValueError, match="UltimateTicTacToe"):
        drawn("not a position")
    with pytest.raises(ValueError, match="highlight_moves"):
        drawn(UltimateTicTacToe(), highlight_moves=[81])
    with pytest.raises(ValueError, match="last_move"):
        drawn(UltimateTicTacToe(), last_move=-1)
