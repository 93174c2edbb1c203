"""Chapter 1's picture of flat Monte Carlo in a trap: how often it plays each move, by budget.

:func:`plot_choice_chances` draws, for one budget, the exact chance that flat Monte Carlo
plays each legal move (:func:`mctslib.search.flat.choice_probabilities`), the trap in red,
the winning moves in blue; :func:`choice_chance_frames` draws it at every budget of a list,
for :func:`mctslib.views.frames.frame_player`. Chapter 1 ("Judge a position by playing it
out").
"""

from __future__ import annotations

import math
from collections.abc import Sequence

TRAP_COLOUR = "tab:red"
WINNING_COLOUR = "tab:blue"
OTHER_COLOUR = "tab:gray"


def _per_move(playouts: int) -> str:
    """'1 playout per move', '1,000 playouts per move'."""
    return f"{playouts:,} playout{'' if playouts == 1 else 's'} per move"


def _colours(moves, trap_move, winning_moves) -> list[str]:
    return [TRAP_COLOUR if move == trap_move else WINNING_COLOUR if move in winning_moves
            else OTHER_COLOUR for move in moves]


def plot_choice_chances(moves: Sequence, chances: Sequence[float], playouts: int, trap_move,
                        winning_moves: Sequence, figsize=(5.5, 3.2)):
    """A bar per move: the chance that flat Monte Carlo plays it with ``playouts`` per move.

    The trap move is red, the winning moves blue, the others grey; the title gives the
    budget and the chance of the trap. Returns the Figure.
    """
    import matplotlib.pyplot as plt

    moves, chances = list(moves), [float(chance) for chance in chances]
    if len(moves) != len(chances) or not moves:
        raise ValueError(f"chances must give one number per move ({len(moves)}), got "
                         f"{len(chances)}.")
    fig, ax = plt.subplots(figsize=figsize)
    ax.bar(range(len(moves)), chances, color=_colours(moves, trap_move, winning_moves))
    labels = [f"{move}\n" + ("trap" if move == trap_move else "wins" if move in winning_moves
                             else "loses") for move in moves]
    ax.set_xticks(range(len(moves)), labels)
    ax.set_ylim(0, 1)
    ax.set_xlabel("O's move (what perfect play makes of it)")
    ax.set_ylabel("chance flat MC plays it")
    trap_chance = chances[moves.index(trap_move)]
    ax.set_title(f"{_per_move(playouts)}: the trap {trap_chance:.3f}", fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def choice_chance_frames(moves: Sequence, chances_by_budget: Sequence[Sequence[float]],
                         budgets: Sequence[int], trap_move, winning_moves: Sequence):
    """``(figures, captions)``: :func:`plot_choice_chances` at every budget, for a frame player."""
    if len(chances_by_budget) != len(budgets):
        raise ValueError(f"chances_by_budget must hold one list per budget ({len(budgets)}), "
                         f"got {len(chances_by_budget)}.")
    import matplotlib.pyplot as plt

    figures, captions = [], []
    for budget, chances in zip(budgets, chances_by_budget):
        figure = plot_choice_chances(moves, chances, budget, trap_move, winning_moves)
        plt.close(figure)  # out of pyplot's list (it can still be drawn): no pile of open figures
        figures.append(figure)
        winning = math.fsum(chance for move, chance in zip(moves, chances)
                            if move in winning_moves)
        trap = chances[list(moves).index(trap_move)]
        captions.append(f"{_per_move(budget)}: the trap {trap:.3f}, "
                        f"a winning move {winning:.3f}")
    return figures, captions
