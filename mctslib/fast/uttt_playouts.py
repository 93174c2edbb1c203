"""Heuristic playout policies for Ultimate Tic-Tac-Toe in numba (chapter "Enhancements and failure modes").

The bot's playouts (:mod:`mctslib.fast.uttt_uct`) were uniformly random, or
random except that an immediate game win is taken (``wins``). This module adds
policies that know a little more about the game, in the spirit of the
"decisive and anti-decisive moves" of Teytaud and Teytaud (2010): take a move
that wins the game at once, and do not play a move after which the opponent
wins the game at once, when another move exists. Each policy is a number
(:data:`POLICIES` gives the names, the SPEC key ``playout=`` of
:mod:`mctslib.bots.uttt` picks one):

============  =============================================================
``random``    a uniformly random legal move (``legal moves[below(count)]``)
``wins``      the lowest move that wins the game at once if there is one,
              else random (today's win-taking playouts, same draws)
``safe``      as ``wins``; otherwise, when the opponent could win the game
              at once after some move of ours (:func:`danger`), a random
              move among those after which it cannot (all moves if none)
``capture``   as ``safe``, then, among the moves kept, a random one that
              wins a small board if there is one
``greedy``    as ``capture`` but always the lowest such move: deterministic
              whenever a small board can be won, deliberately too greedy
============  =============================================================

The checks are cheap in most positions: a game win needs two won boards in
a line (one table look-up says there is none), and so does an opponent's
reply that wins. The readable twin, :mod:`mctslib.search.uttt_playouts`,
makes the same moves with the same xorshift64 draws (the tests compare them
playout by playout). Nothing here allocates: the callers pass a move buffer
(81 int64) and a scratch state (:data:`~mctslib.fast.uttt.STATE_SIZE`
int64), so the compiled search can run without numba's runtime.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import popcount
from .uttt import (
    _LINE,
    CLOSED,
    COMPLETES,
    FORCED,
    FREE,
    FREE_COUNT,
    FULL,
    HAS_LINE,
    MOVE_OF,
    ONGOING,
    OUTCOME,
    PLAYER,
    SELECT,
    STATE_SIZE,
    WON,
    _after_move,
    _board_cell,
    _kth_move,
    _line_win,
    _store_fields,
    _wins_at_once,
    legal_moves,
    play,
    playout,
    random_move,
    winner,
    winning_moves,
)
from .xorshift import below, scale_below, xorshift_step

#: Policy codes, in the order of :data:`POLICIES`.
RANDOM, WINS, SAFE, CAPTURE, GREEDY = 0, 1, 2, 3, 4
#: The policies' names (a policy's code is its index).
POLICIES = ("random", "wins", "safe", "capture", "greedy")


def policy_code(name: str) -> int:
    """The code of the policy called ``name`` (one of :data:`POLICIES`)."""
    if name not in POLICIES:
        raise ValueError(f"playout must be one of {', '.join(POLICIES)}, got {name!r}.")
    return POLICIES.index(name)


@njit(cache=True)
def has_winning_move(s, scoring):
    """Whether the player to move can win the game at once (``winning_moves(...) > 0``, no list)."""
    if s[OUTCOME] != ONGOING:
        return False
    open_boards = FULL & ~s[CLOSED]
    boards = (1 << s[FORCED]) if s[FORCED] >= 0 else open_boards
    if popcount(open_boards) > 1:
        boards &= np.int64(COMPLETES[s[WON + s[PLAYER]]])
    if boards == 0:
        return False
    for board in range(9):
        if (boards >> board) & 1:
            free = s[FREE + board]
            for cell in range(9):
                if (free >> cell) & 1 and _wins_at_once(s, board, cell, scoring):
                    return True
    return False


@njit(cache=True)
def danger(s):
    """Whether some move of the player to move might let the opponent win the game at once.

    True when the opponent has two won boards in a line whose third board is
    still open, or when two boards or fewer are open (a move may close one,
    and closing the last can end the game on the board count). A cheap,
    generous test: the moves are then checked one by one.
    """
    open_boards = FULL & ~s[CLOSED]
    theirs = s[WON + 1 - s[PLAYER]]
    return (np.int64(COMPLETES[theirs]) & open_boards) != 0 or popcount(open_boards) <= 2


@njit(cache=True)
def wins_small_board(s, move):
    """Whether ``move`` completes a line of the mover's marks in its small board."""
    board, cell = _board_cell(move)
    return (np.int64(COMPLETES[s[9 * s[PLAYER] + board]]) >> cell) & 1 == 1


@njit(cache=True)
def reply_wins(s, board, cell, threats):
    """Whether the opponent can win the game at once after the mover plays ``cell`` of ``board``.

    ``threats`` is the opponent's mask of open boards whose win completes a
    line of its won boards. Exact when at least three boards are open and the
    move does not win the game (then only a line of boards can end the game on
    the reply, as :func:`has_winning_move` would find on the position after
    the move): the move changes only its own board, so the answer is a few
    mask tests, without copying the position.
    """
    player = s[PLAYER]
    opponent = 1 - player
    free = s[FREE + board] & ~(1 << cell)
    closes = HAS_LINE[(s[9 * player + board] | (1 << cell)) & FULL] or free == 0
    if closes:
        threats &= ~(1 << board)
    if (s[CLOSED] >> cell) & 1 or (cell == board and closes):
        boards = threats  # the opponent chooses freely
    else:
        boards = threats & (1 << cell)
    for target in range(9):
        if (boards >> target) & 1:
            cells = free if target == board else s[FREE + target]
            if np.int64(COMPLETES[s[9 * opponent + target]]) & cells:
                return True
    return False


@njit(cache=True)
def keep_safe(s, n, scoring, buf, copy):
    """Keep in ``buf[:n]`` the moves after which the opponent cannot win the game at once.

    The *anti-decisive* rule: ``buf[:n]`` holds legal moves of ``s`` (none of
    which wins the game at once); the safe ones are moved to the front, in
    their order, and their count is returned. If no move is safe, ``buf`` is
    left as it was and ``n`` is returned: every move then loses, and any will
    do. ``copy`` is a scratch state, used only when two boards or fewer are
    open (the board count may then decide the game). Shared by the
    ``safe``/``capture``/``greedy`` playouts and the tree's anti-decisive
    expansion (:mod:`mctslib.fast.uttt_toolbox`).
    """
    open_boards = FULL & ~s[CLOSED]
    few_open = popcount(open_boards) <= 2  # the board count may decide: check on a copy
    threats = np.int64(COMPLETES[s[WON + 1 - s[PLAYER]]]) & open_boards
    kept = 0
    for i in range(n):
        if few_open:
            for k in range(STATE_SIZE):
                copy[k] = s[k]
            play(copy, buf[i])
            loses = has_winning_move(copy, scoring)
        else:
            board, cell = _board_cell(buf[i])
            loses = reply_wins(s, board, cell, threats)
        if not loses:
            buf[kept] = buf[i]  # kept <= i: an entry is read before it is overwritten
            kept += 1
    return kept if kept > 0 else n


@njit(cache=True)
def policy_move(s, rng, policy, scoring, buf, copy):
    """The move ``policy`` plays in ``s`` (the game must be on); ``rng`` advances.

    ``buf`` (81 int64) and ``copy`` (a state) are work arrays. Draws: one
    ``below`` per move that is not forced by a rule (none when a game win or,
    for ``greedy``, a small-board win decides). The moves are those of the
    readable rule (:mod:`mctslib.search.uttt_playouts`); the shortcuts below
    only avoid building the list of legal moves, or copying the position,
    where the answer is known without.
    """
    if policy == RANDOM:
        return random_move(s, rng)
    if winning_moves(s, scoring, buf) > 0:
        return buf[0]
    if policy == WINS:
        return random_move(s, rng)
    return _heuristic_move(s, rng, policy, scoring, buf, copy)


@njit(cache=True)
def _heuristic_move(s, rng, policy, scoring, buf, copy):
    """:func:`policy_move` for ``safe``, ``capture`` and ``greedy`` once no move wins the game."""
    threatened = danger(s)
    forced = s[FORCED]
    if not threatened:
        if policy == SAFE:
            return random_move(s, rng)
        if forced >= 0:  # the captures of one board, in move order without a list
            cells = np.int64(COMPLETES[s[9 * s[PLAYER] + forced]]) & s[FREE + forced]
            if cells != 0:
                k = 0 if policy == GREEDY else below(rng, popcount(cells))
                return np.int64(MOVE_OF[forced, SELECT[cells & FULL, k]])
            return random_move(s, rng)
    n = legal_moves(s, buf)
    if threatened:  # keep the moves after which the opponent cannot win at once
        n = keep_safe(s, n, scoring, buf, copy)
    if policy >= CAPTURE:
        captures = 0
        for i in range(n):
            if wins_small_board(s, buf[i]):
                buf[captures] = buf[i]
                captures += 1
        if captures > 0:
            return buf[0] if policy == GREEDY else buf[below(rng, captures)]
    return buf[below(rng, n)]


@njit(cache=True)
def policy_playout_reference(s, rng, policy, scoring, buf, copy):
    """Play ``policy``'s moves in place until the game ends, one :func:`policy_move` at a time.

    The plain loop; :func:`policy_playout` makes the same moves faster (the tests check).
    """
    while s[OUTCOME] == ONGOING:
        play(s, policy_move(s, rng, policy, scoring, buf, copy))
    return s[OUTCOME]


@njit(cache=True)
def policy_playout(s, rng, policy, scoring, buf, copy):
    """Play ``policy``'s moves in place until the game ends; return ``s[OUTCOME]``.

    The moves of :func:`policy_playout_reference`, written like the engine's
    inlined :func:`mctslib.fast.uttt.playout`: the position's scalar fields and
    the generator stay in local variables, the win check is a table look-up,
    and a random move is drawn without a list. Only in a position where the
    opponent might win at once after some move (:func:`danger`), or where
    ``capture``/``greedy`` has a free choice, are the fields written back and
    the move chosen by :func:`policy_move`'s list-based rule. ``random`` and
    ``wins`` go to the engine's own loop.
    """
    if policy == RANDOM:
        return playout(s, rng, False, scoring, buf)
    if policy == WINS:
        return playout(s, rng, True, scoring, buf)
    x = rng[0]
    player, forced, free_count = s[PLAYER], s[FORCED], s[FREE_COUNT]
    closed, outcome = s[CLOSED], s[OUTCOME]
    mine, theirs = s[WON + player], s[WON + 1 - player]
    while outcome == ONGOING:
        move = -1
        open_boards = FULL & ~closed
        few_open = popcount(open_boards) <= 2
        boards = (1 << forced) if forced >= 0 else open_boards
        if not few_open:
            boards &= np.int64(COMPLETES[mine])
            if boards != 0:
                move = _line_win(s, player, boards)
        slow = few_open or (np.int64(COMPLETES[theirs]) & open_boards) != 0 or (
            policy != SAFE and forced < 0)
        if move < 0 and slow:  # the full rule, on the position written back
            _store_fields(s, player, forced, free_count, closed, outcome, mine, theirs)
            rng[0] = x
            move = policy_move(s, rng, policy, scoring, buf, copy)
            x = rng[0]
        if move >= 0:
            board, cell = _board_cell(move)
            free = s[FREE + board]
        elif forced < 0:  # safe, nothing to fear, a free choice: random_move's draw
            x = xorshift_step(x)
            board, cell = _board_cell(_kth_move(s, forced, scale_below(x, free_count)))
            free = s[FREE + board]
        else:
            board, free = forced, s[FREE + forced]
            cells = np.int64(COMPLETES[s[9 * player + board]]) & free if policy != SAFE else 0
            if cells != 0:  # capture or greedy: win the small board
                k = 0
                if policy != GREEDY:
                    x = xorshift_step(x)
                    k = scale_below(x, popcount(cells))
                cell = np.int64(SELECT[cells & FULL, k])
            else:  # the move random_move() would draw
                x = xorshift_step(x)
                cell = np.int64(SELECT[free & FULL, scale_below(x, popcount(free))])
        marks = s[9 * player + board] | (1 << cell)  # the engine's _place, written out
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
def playout_rate_sample(s, playouts, rng, policy, scoring):
    """Run ``playouts`` playouts of ``policy`` from ``s`` (left unchanged); return the moves played.

    What ``benchmarks/uttt_playouts.py`` times: the cost of a policy per playout.
    """
    scratch = np.empty_like(s)
    copy = np.empty_like(s)
    buf = np.empty(81, dtype=np.int64)
    moves = 0
    for _ in range(playouts):
        scratch[:] = s
        policy_playout(scratch, rng, policy, scoring, buf, copy)
        for b in range(18):
            moves += popcount(scratch[b]) - popcount(s[b])
    return moves


@njit(cache=True)
def policy_tally(s, playouts, rng, policy, scoring):
    """``[X wins, O wins, draws, moves played]`` of ``playouts`` playouts of ``policy`` from ``s``."""
    counts = np.zeros(4, dtype=np.int64)
    scratch = np.empty_like(s)
    copy = np.empty_like(s)
    buf = np.empty(81, dtype=np.int64)
    for _ in range(playouts):
        scratch[:] = s
        policy_playout(scratch, rng, policy, scoring, buf, copy)
        won_by = winner(scratch, scoring)
        counts[2 if won_by < 0 else won_by] += 1
        for b in range(18):
            counts[3] += popcount(scratch[b]) - popcount(s[b])
    return counts
