"""Ultimate Tic-Tac-Toe in numba: the twin of :class:`mctslib.games.uttt.UltimateTicTacToe`.

The engine of the bot of the chapter "Ultimate Tic-Tac-Toe: tuning a real
bot". A position is one int64 array of :data:`STATE_SIZE` entries (layout below) that the functions read and change
in place, so a search copies a position into a preallocated scratch array
(``scratch[:] = state``) instead of allocating. Same rules, same move
numbering (``9 * row + col``), same move order (ascending) as the readable
reference, and the same xorshift64 draws (``moves[below(n)]``), so a random
playout from the same position and seed ends in the same final position;
the tests check it game by game.

Layout of a state array ``s`` (int64):

=====================  ==========================================================
``s[9*p + b]``         9-bit mask of player ``p``'s marks in small board ``b``
                       (``p`` 0 = X, 1 = O; bit ``3*localRow + localCol``)
``s[FREE + b]``        9-bit mask of the empty cells of board ``b`` if it is open,
                       0 if it is closed (a won board takes no moves)
``s[WON + p]``         9-bit mask of the boards player ``p`` has won
``s[CLOSED]``          9-bit mask of the closed boards (won or full)
``s[FREE_COUNT]``      number of cells playable on a free choice (sum over FREE)
``s[FORCED]``          the board the player to move must play in, -1 for a free
                       choice (and once the game is over)
``s[PLAYER]``          the player to move, 0 or 1
``s[OUTCOME]``         ONGOING, X_LINE, O_LINE or ALL_CLOSED
=====================  ==========================================================

FREE, CLOSED and FREE_COUNT repeat what the marks say; keeping them up to
date in :func:`play` makes drawing a random move a few table look-ups.
The scoring of an ALL_CLOSED ending is an argument where it matters
(:data:`CODINGAME` or :data:`OPENSPIEL`, see :func:`scoring_code`).

Public API (jit-compiled unless marked Python); ``s`` is a state array, ``rng``
a one-element uint64 array, ``out`` an int64 array of at least 81 entries,
``scoring`` CODINGAME or OPENSPIEL:

* Python: ``to_array(state)``, ``from_array(s, scoring)``, ``scoring_code(name)``,
  ``new_rng(seed)`` (the state of ``XorShift64(seed)``);
* ``legal_moves(s, out) -> count``, ``is_legal(s, move)``, ``play(s, move)``
  (in place, unchecked), ``random_move(s, rng)``;
* ``random_playout(s, rng) -> outcome`` (in place; several times as fast as a
  loop of ``play(s, random_move(s, rng))``, which draws the same moves);
  ``playout(s, rng, take_wins, scoring, buf)``, the same with win-taking as an option;
* ``winner(s, scoring)`` (0, 1, or -1 for a draw or a game still on),
  ``result(s, player, scoring)`` (1 / 0.5 / 0);
* ``winning_moves(s, scoring, out) -> count``: moves that win at once, for
  win-taking playouts and a 1-ply win check at expansion;
* ``playout_counts(s, playouts, rng, scoring)``: many playouts, tallied;
* ``xorshift_next(rng)``, ``below(rng, count)``, ``new_rng(seed)``: the
  generator, from :mod:`mctslib.fast.xorshift` (the stream of ``XorShift64``).

Measured on the book's 2-core machine from the empty board: about 1.8 M
random playouts/s (the readable reference: about 4.8 k/s).

Pitfalls (see the toolchain notes): pass the generator as a uint64 array,
never as a Python int; there is no clock in compiled code, so drive time
budgets from Python in chunks of playouts; the tables below are frozen into
the on-disk cache, which is refreshed only when this file changes. numba's
cache checks only the file of the function it compiled, so the compiled
search of :mod:`mctslib.fast.uttt_uct`, which inlines the playout of this
file, keeps running the old playout after this file alone is edited: touch
``uttt_uct.py`` too (measured here: a speed-up that did not show until then).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..games.tictactoe import has_line
from ..games.uttt import SCORINGS, UltimateTicTacToe
from .bits import popcount
from .xorshift import below, new_rng, scale_below, xorshift_next, xorshift_step  # noqa: F401 (public API)

# --- layout and codes -------------------------------------------------------------
FREE, WON, CLOSED, FREE_COUNT, FORCED, PLAYER, OUTCOME = 18, 27, 29, 30, 31, 32, 33
STATE_SIZE = 34
ONGOING, X_LINE, O_LINE, ALL_CLOSED = -1, 0, 1, 2
CODINGAME, OPENSPIEL = 0, 1
_LINE = 3  # what _after_move says for "the mover completed a line"; callers store X_LINE/O_LINE
FULL = 0x1FF

# --- tables (module globals are frozen into the compiled code) --------------------
# Small integer types keep all of them together in a few kilobytes of the first-level
# cache: a random move is a chain of dependent look-ups, each one a load.
#: HAS_LINE[mask]: does a 9-bit mask hold a tic-tac-toe line (small board or big board)?
HAS_LINE = np.array([has_line(mask) for mask in range(512)], dtype=np.bool_)
#: SELECT[mask, k]: position of the k-th lowest set bit of mask (-1 past the end).
SELECT = np.full((512, 9), -1, dtype=np.int8)
for _mask in range(512):
    for _k, _bit in enumerate(bit for bit in range(9) if _mask >> bit & 1):
        SELECT[_mask, _k] = _bit
#: COMPLETES[mask]: the empty bits of a 9-bit mask that would give it a line (the cells that
#: win a small board, or the boards whose win completes a big-board line).
COMPLETES = np.array([sum(1 << bit for bit in range(9) if not mask >> bit & 1
                          and has_line(mask | 1 << bit)) for mask in range(512)], dtype=np.int16)
#: MOVE_OF[board, cell] -> global move 9*row+col; BOARD_OF / CELL_OF the other way.
MOVE_OF = np.array([[9 * (3 * (b // 3) + c // 3) + 3 * (b % 3) + c % 3 for c in range(9)]
                    for b in range(9)], dtype=np.int8)
BOARD_OF = np.array([3 * (m // 27) + m % 9 // 3 for m in range(81)], dtype=np.int8)
CELL_OF = np.array([3 * (m // 9 % 3) + m % 3 for m in range(81)], dtype=np.int8)


# --- Python-side conversions ----------------------------------------------------------


def scoring_code(scoring: str) -> int:
    """CODINGAME (0) or OPENSPIEL (1) for the scoring names of the reference."""
    if scoring not in SCORINGS:
        raise ValueError(f"scoring must be one of {SCORINGS}, got {scoring!r}.")
    return SCORINGS.index(scoring)


def to_array(state: UltimateTicTacToe) -> np.ndarray:
    """The state array of a readable position (its scoring is not stored)."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[0:9], s[9:18] = state.x, state.o
    for board in range(9):
        if not state.closed_mask >> board & 1:
            s[FREE + board] = FULL & ~(state.x[board] | state.o[board])
    s[FREE_COUNT] = sum(int(mask).bit_count() for mask in s[FREE:FREE + 9])
    s[WON], s[WON + 1] = state.won_mask(0), state.won_mask(1)
    s[CLOSED] = state.closed_mask
    s[FORCED] = -1 if state.forced_board is None else state.forced_board
    s[PLAYER] = state.player_to_move
    ending = state.ending()
    if ending is None:
        s[OUTCOME] = ONGOING
    elif ending == "line":
        s[OUTCOME] = X_LINE if HAS_LINE[state.won_mask(0)] else O_LINE
    else:
        s[OUTCOME] = ALL_CLOSED
    return s


def from_array(s: np.ndarray, scoring: str = "codingame") -> UltimateTicTacToe:
    """The readable position of a state array (the constructor re-checks it)."""
    forced = int(s[FORCED])
    return UltimateTicTacToe(tuple(int(m) for m in s[0:9]), tuple(int(m) for m in s[9:18]),
                             None if forced < 0 else forced, scoring)


# --- rules ------------------------------------------------------------------------------
# The rules live in small helpers that take the position's scalar fields as
# arguments and return their new values: play() loads and stores them in the
# array, random_playout() keeps them in local variables for the whole game.
# Boards and cells come out of the int8 tables as int8: they are widened to
# int64 at once, so that shifts and index arithmetic never wrap.


@njit(cache=True)
def _move_count(s, forced, free_count):
    """How many legal moves the player to move has (the game must be on)."""
    return popcount(s[FREE + forced]) if forced >= 0 else free_count


@njit(cache=True)
def _kth_move(s, forced, k):
    """The k-th legal move (from 0) in ascending ``9*row+col`` order.

    A forced turn takes the k-th empty cell of one board (within a board,
    cell order is move order). A free choice walks the grid row by row: a
    row's playable cells form a 9-bit mask (three bits from each of three
    boards), so a bit count and a table look-up per row find the k-th cell
    overall.
    """
    if forced >= 0:
        return np.int64(MOVE_OF[forced, SELECT[s[FREE + forced], k]])
    for row in range(9):
        first_board = FREE + 3 * (row // 3)
        shift = 3 * (row % 3)
        row_mask = (((s[first_board] >> shift) & 7)
                    | (((s[first_board + 1] >> shift) & 7) << 3)
                    | (((s[first_board + 2] >> shift) & 7) << 6))
        in_row = popcount(row_mask)
        if k < in_row:
            return 9 * row + np.int64(SELECT[row_mask, k])
        k -= in_row
    return -1  # unreachable: k is below the number of playable cells


@njit(cache=True)
def _board_cell(move):
    """Board and cell of a global move, as int64."""
    return np.int64(BOARD_OF[move]), np.int64(CELL_OF[move])


@njit(cache=True)
def _place(s, board, cell, free, player, won, free_count, closed):
    """Put ``player``'s mark on ``cell`` of ``board`` (whose free mask is ``free``).

    Updates the marks and FREE in ``s``; ``won`` is the mover's won-board
    mask. Returns its new value, the new FREE_COUNT and the new CLOSED mask.
    """
    marks = s[9 * player + board] | (1 << cell)
    s[9 * player + board] = marks
    free &= ~(1 << cell)
    free_count -= 1
    if HAS_LINE[marks]:
        free_count -= popcount(free)  # the rest of a won board is no longer playable
        free = 0
        won |= 1 << board
    s[FREE + board] = free
    if free == 0:
        closed |= 1 << board
    return won, free_count, closed


@njit(cache=True)
def _after_move(won, free_count, closed, cell):
    """OUTCOME and FORCED after a move into ``cell`` by the player whose won mask is ``won``.

    Reads only its arguments (the closed mask says whether the target board
    is open), so the next move's board is known without a trip to memory.
    """
    if HAS_LINE[won & FULL]:  # & FULL: see playout()
        return _LINE, -1
    if free_count == 0:
        return ALL_CLOSED, -1
    return ONGOING, (-1 if (closed >> cell) & 1 else cell)


@njit(cache=True, inline="always")
def _store_fields(s, player, forced, free_count, closed, outcome, mine, theirs):
    """Write the scalar fields a playout loop keeps in local variables back into ``s``.

    ``mine`` and ``theirs`` are the won-board masks of ``player`` (to move) and
    of the opponent. Inlined: as fast as the stores written out (measured).
    """
    s[PLAYER], s[FORCED], s[FREE_COUNT], s[CLOSED], s[OUTCOME] = (
        player, forced, free_count, closed, outcome)
    s[WON + player], s[WON + 1 - player] = mine, theirs


@njit(cache=True)
def legal_moves(s, out):
    """Write the legal moves in ascending order into ``out`` (>= 81 long); return their count."""
    if s[OUTCOME] != ONGOING:
        return 0
    n = _move_count(s, s[FORCED], s[FREE_COUNT])
    for k in range(n):
        out[k] = _kth_move(s, s[FORCED], k)
    return n


@njit(cache=True)
def is_legal(s, move):
    """True when ``move`` (any int) is legal for the player to move."""
    if s[OUTCOME] != ONGOING or move < 0 or move > 80:
        return False
    board, cell = _board_cell(move)
    if s[FORCED] >= 0 and board != s[FORCED]:
        return False
    return (s[FREE + board] >> cell) & 1 == 1


@njit(cache=True)
def play(s, move):
    """Play a legal ``move`` for the player to move, in place (legality is not checked)."""
    player = s[PLAYER]
    board, cell = _board_cell(move)
    won, free_count, closed = _place(s, board, cell, s[FREE + board], player, s[WON + player],
                                     s[FREE_COUNT], s[CLOSED])
    s[WON + player], s[FREE_COUNT], s[CLOSED] = won, free_count, closed
    outcome, s[FORCED] = _after_move(won, free_count, closed, cell)
    s[OUTCOME] = player if outcome == _LINE else outcome  # X_LINE is 0, O_LINE is 1
    s[PLAYER] = 1 - player


@njit(cache=True)
def random_move(s, rng):
    """``legal moves[below(count)]`` without building the list (the game must be on)."""
    forced = s[FORCED]
    return _kth_move(s, forced, below(rng, _move_count(s, forced, s[FREE_COUNT])))


@njit(cache=True, inline="always")
def playout(s, rng, take_wins, scoring, buf):
    """Play random moves in place until the game ends; return ``s[OUTCOME]``.

    The readable form is a loop of ``play(s, random_move(s, rng))``; with
    ``take_wins``, the side to move first plays its lowest move that wins
    the game at once, if it has one (``winning_moves(s, scoring, buf)``; the
    chapter's *win-taking playouts*; ``scoring`` and ``buf`` are only read
    then). This loop makes the same moves with the same draws (the tests
    check), faster:

    * the scalar fields and the generator state stay in local variables
      during the game: numba cannot tell that writing ``rng[0]`` leaves
      ``s`` unchanged, so it would reload them from memory on every move
      (about 0.6 M playouts/s that way against 1.1 M/s from the empty board);
    * the random move and the body of :func:`_place` are written out here,
      not called (as calls they cost a third and a twentieth of the speed;
      :func:`mctslib.fast.uttt_playouts.policy_playout` writes the same move
      out again: an ``inline="always"`` helper holding it, which both loops
      called, cost 5 to 7% of the random playouts), and this function is
      inlined where it is called (``inline="always"``), so that with
      ``take_wins`` a constant, as in :func:`random_playout`, the compiler
      drops the win check altogether (a further 7%);
    * while two or more boards are open, only a line of won boards can end
      the game, so the win check looks at the boards whose capture would
      complete such a line (one table look-up, usually none); with one
      board left, the fields go back to ``s`` for the full
      :func:`winning_moves` (the scoring decides that ending).

    * table indices that are 9-bit masks are written ``mask & FULL``: the
      same number, but the compiler then knows it is not negative and drops
      the code that would wrap a negative index around (2% of a search's time).

    With bit counts by instruction, small tables and the closed mask in a
    register (:func:`_after_move`): about 1.8 M random playouts/s from the
    empty board on the book's machine.
    """
    x = rng[0]
    player, forced, free_count = s[PLAYER], s[FORCED], s[FREE_COUNT]
    closed, outcome = s[CLOSED], s[OUTCOME]
    mine, theirs = s[WON + player], s[WON + 1 - player]  # won masks of mover and opponent
    while outcome == ONGOING:
        move = -1
        if take_wins:
            open_boards = FULL & ~closed
            boards = (1 << forced) if forced >= 0 else open_boards
            if popcount(open_boards) > 1:
                boards &= np.int64(COMPLETES[mine])
                if boards != 0:
                    move = _line_win(s, player, boards)
            else:
                _store_fields(s, player, forced, free_count, closed, outcome, mine, theirs)
                if winning_moves(s, scoring, buf) > 0:
                    move = buf[0]
        if move >= 0:
            board, cell = _board_cell(move)
            free = s[FREE + board]
        else:  # the move random_move() would draw
            x = xorshift_step(x)
            if forced >= 0:  # most turns: the k-th empty cell of one board
                board, free = forced, s[FREE + forced]
                cell = np.int64(SELECT[free & FULL, scale_below(x, popcount(free))])
            else:
                board, cell = _board_cell(_kth_move(s, forced, scale_below(x, free_count)))
                free = s[FREE + board]
        marks = s[9 * player + board] | (1 << cell)  # from here on, _place written out
        s[9 * player + board] = marks
        free &= ~(1 << cell)
        free_count -= 1
        if HAS_LINE[marks & FULL]:
            free_count -= popcount(free)
            free = 0
            mine |= 1 << board
        s[FREE + board] = free
        if free == 0:
            closed |= 1 << board
        outcome, forced = _after_move(mine, free_count, closed, cell)
        if outcome == _LINE:
            outcome = player
        player, mine, theirs = 1 - player, theirs, mine
    rng[0] = x
    _store_fields(s, player, forced, free_count, closed, outcome, mine, theirs)
    return outcome


@njit(cache=True)
def random_playout(s, rng):
    """Play uniformly random moves in place until the game ends; return ``s[OUTCOME]``.

    The same moves as ``play(s, random_move(s, rng))`` in a loop; see
    :func:`playout`.
    """
    return playout(s, rng, False, CODINGAME, s[:0])  # no win check: an empty move buffer


@njit(cache=True)
def _line_win(s, player, boards):
    """The lowest move that wins one of ``boards`` for ``player``, or -1.

    Every board in ``boards`` completes a line of ``player``'s won boards, so
    winning it wins the game: a cell wins a board when it completes a line
    of ``player``'s marks there (``COMPLETES``) and is free.
    """
    best = 81
    for board in range(9):
        if (boards >> board) & 1:
            cells = np.int64(COMPLETES[s[9 * player + board]]) & s[FREE + board]
            if cells != 0:
                best = min(best, np.int64(MOVE_OF[board, SELECT[cells, 0]]))
    return best if best < 81 else -1


@njit(cache=True)
def winner(s, scoring):
    """0 or 1 for a won game, -1 for a draw or a game still on."""
    outcome = s[OUTCOME]
    if outcome == X_LINE or outcome == O_LINE:
        return outcome
    if outcome == ALL_CLOSED and scoring == CODINGAME:
        count_x, count_o = popcount(s[WON]), popcount(s[WON + 1])
        if count_x > count_o:
            return 0
        if count_o > count_x:
            return 1
    return -1


@njit(cache=True)
def result(s, player, scoring):
    """Score of the finished game for ``player``: 1 win, 0.5 draw, 0 loss."""
    won_by = winner(s, scoring)
    if won_by < 0:
        return 0.5
    return 1.0 if won_by == player else 0.0


@njit(cache=True)
def _wins_at_once(s, board, cell, scoring):
    """Does the player to move win the game at once by playing ``cell`` of ``board``?"""
    player = s[PLAYER]
    marks = s[9 * player + board] | (1 << cell)
    won = s[WON + player]
    closes = (s[FREE + board] & ~(1 << cell)) == 0
    if HAS_LINE[marks]:
        won |= 1 << board
        if HAS_LINE[won]:
            return True
        closes = True
    # Otherwise the game ends only if this closes the last open board.
    if not closes or (s[CLOSED] | (1 << board)) != FULL or scoring != CODINGAME:
        return False
    return popcount(won) > popcount(s[WON + 1 - player])


@njit(cache=True)
def winning_moves(s, scoring, out):
    """Write the moves that win the game at once (ascending) into ``out``; return their count.

    Same answer as ``UltimateTicTacToe.winning_moves()``: a move wins at
    once when it completes a line of won boards, or with CODINGAME scoring
    closes the last open board while the mover has won more boards. Only
    boards that can matter are scanned (an open board whose win would
    complete a big-board line, or the last open board), so the usual "no"
    costs a few table look-ups: cheap enough for win-taking playouts.
    """
    if s[OUTCOME] != ONGOING:
        return 0
    open_boards = FULL & ~s[CLOSED]
    boards = (1 << s[FORCED]) if s[FORCED] >= 0 else open_boards
    if popcount(open_boards) > 1:
        boards &= np.int64(COMPLETES[s[WON + s[PLAYER]]])  # only a line of boards can end the game now
    if boards == 0:
        return 0  # the usual case, answered with one table look-up
    n = 0
    for move in range(81):
        board, cell = _board_cell(move)
        if ((boards >> board) & 1 != 0 and (s[FREE + board] >> cell) & 1 != 0
                and _wins_at_once(s, board, cell, scoring)):
            out[n] = move
            n += 1
    return n


@njit(cache=True)
def playout_counts(s, playouts, rng, scoring):
    """Run ``playouts`` random playouts from ``s`` (left unchanged).

    Returns an int64 array ``[X wins, O wins, draws, all-closed endings]``
    under ``scoring``. For speed measurements and the chapter's statistics.
    """
    counts = np.zeros(4, dtype=np.int64)
    scratch = np.empty_like(s)
    for _ in range(playouts):
        scratch[:] = s
        if random_playout(scratch, rng) == ALL_CLOSED:
            counts[3] += 1
        won_by = winner(scratch, scoring)
        counts[2 if won_by < 0 else won_by] += 1
    return counts
