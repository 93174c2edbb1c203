"""A search tree drawn by Graphviz, and UCT's four phases recorded one by one (UCT chapter).

The pure half of the tree explorer (:mod:`mctslib.views.tree_explorer` adds the buttons):

- :class:`RecordingUCTSearch` is :class:`~mctslib.search.uct.UCTSearch` with each
  iteration cut into its four phases (:meth:`~RecordingUCTSearch.iterate_in_phases`
  pauses after each and says what it did in an :class:`IterationRecord`); it grows the
  same tree as UCTSearch for the same seed, draw for draw;
- :func:`tree_to_dot` writes a tree as Graphviz source: node size by visits, colour by
  the mean reward of the move into the node (for the player who chose it at the parent),
  the move on each edge, the most visited path in bold, rarely visited children folded
  into "+k more"; :func:`phase_highlight` says what a phase marks on it;
- :func:`render_svg` lays it out with Graphviz ``dot`` (the layout is Graphviz's, not ours);
- :func:`static_steps` draws the first iterations phase by phase, for the published book
  (no kernel needed to see the tree grow).

The drawing reads only the node fields ``children``, ``move``, ``visits``, ``wins`` and
``parent`` (``mover`` if present), so PUCT and RAVE trees later need only provide those.

Why one module of this size: the recording search, the DOT writer and the phase highlights
share one vocabulary (an :class:`IterationRecord` names the nodes that the highlights light
and the captions describe), and every change to what a phase records changes all three
together; split apart, each would import the others' private helpers.
"""

from __future__ import annotations

import base64
import html
import math
import re
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

import graphviz

from .._checks import check_bool, check_choice, check_int, check_real
from ..games.base import GameState, check_game_state
from ..games.subtraction import SubtractionGame
from ..games.sum15 import MAGIC_SQUARE, SumToFifteen
from ..games.tictactoe import TicTacToe
from ..search.uct import MAX_ITERATIONS, Node, UCB1Rule, UCTSearch

#: The four phases of one UCT iteration, in the order they run.
PHASES = ("selection", "expansion", "simulation", "backpropagation")
#: Seed of the book's pictures and of the explorer unless told otherwise.
TREE_SEED = 2026
#: The most nodes a picture draws: Graphviz takes about a second for a thousand.
MAX_DRAWN = 2_000

# Colours that read on light and dark pages (each picture has a white background).
_LIT = "#16a085"       # the selection path and the backed-up nodes (teal)
_NEW = "#8e44ad"       # the node the playout starts from (purple)
_PV = "#d35400"        # the most visited path (dark orange)
_PICKED = "#000000"    # the node whose statistics the explorer shows
_EDGE = "#7f8c8d"
_ROOT_FILL = "#d5d8dc"
# ColorBrewer's RdBu anchors: 0 (a loss for the chooser) red, 0.5 near white, 1 (a win) blue.
_DIVERGING = ((0.0, (178, 24, 43)), (0.25, (239, 138, 98)), (0.5, (247, 247, 247)),
              (0.75, (103, 169, 207)), (1.0, (33, 102, 172)))


# ===========================================================================
# Recording the four phases
# ===========================================================================


@dataclass
class IterationRecord:
    """What one UCT iteration did, filled in phase by phase.

    Attributes
    ----------
    number : int
        1 for the first iteration of the tree.
    phase : str
        The last phase done (one of :data:`PHASES`).
    path : tuple of Node
        Selection: the nodes from the root down to the selected leaf.
    choices : tuple of SelectionStep
        Selection: at each node of the path above the leaf, every child as UCB1 saw it
        and the one it picked (empty when the iteration was run without pictures).
    added : tuple of Node
        Expansion: the children it created below the leaf (empty if none).
    start : Node
        Where the playout began: the leaf, or the child of it the expansion stepped into.
    first_visit : bool
        True when ``start`` had no visit before this iteration.
    playout : tuple
        Simulation: the random moves that finished the game (empty if ``start`` is over).
    final : GameState
        The finished game the playout reached.
    reward : float
        The result for the player who moved into ``start`` (1 win, 0.5 draw, 0 loss).
    backups : tuple of (Node, float)
        Backpropagation: each node from ``start`` up to the root with the reward it
        gained, for the player who moved into it (it alternates: 1 - reward a level up).
    """

    number: int
    phase: str = ""
    path: tuple = ()
    choices: tuple = ()
    added: tuple = ()
    start: Node | None = None
    first_visit: bool = False
    playout: tuple = ()
    final: GameState | None = None
    reward: float | None = None
    backups: tuple = ()


class RecordingUCTSearch(UCTSearch):
    """UCT that can stop after each phase of an iteration and say what it did (UCT chapter).

    Takes the parameters of :class:`~mctslib.search.uct.UCTSearch` and runs the same
    selection, expansion and backpropagation methods; the simulation draws the same
    random moves as UCTSearch's playout, so for the same seed both grow the same tree
    (tests/test_tree_explorer.py checks visits and wins node for node). ``search()``
    works as usual; :meth:`begin` and :meth:`iterate_in_phases` let a widget draw the
    tree between phases. ``last`` is the record of the latest iteration.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.state: GameState | None = None
        self.iterations_done = 0
        self.last: IterationRecord | None = None

    def begin(self, state: GameState) -> Node:
        """Plant a fresh tree (a root alone) for ``state``; iterations then grow it."""
        check_game_state(state)
        if state.is_terminal():
            raise ValueError("cannot search a finished game: there is no move to choose.")
        self.state, self.root = state, Node(None, None, None)
        self.iterations_done, self.last = 0, None
        return self.root

    def search(self, state: GameState) -> Node:
        self.iterations_done, self.last = 0, None
        return super().search(state)

    def iterate(self, root: Node, state: GameState) -> None:
        """One whole iteration (what ``search()`` calls), recorded in ``last``.

        The selection's table of scores is not kept (``record.choices`` stays empty):
        runs of many iterations draw no pictures and need not pay for it.
        """
        for _ in self.iterate_in_phases(root, state, choices=False):
            pass

    def step(self) -> Iterator[IterationRecord]:
        """:meth:`iterate_in_phases` on the tree planted by :meth:`begin`."""
        if self.root is None or self.state is None:
            raise ValueError("no tree yet: call begin(state) first.")
        return self.iterate_in_phases(self.root, self.state)

    def iterate_in_phases(self, root: Node, state: GameState,
                          choices: bool = True) -> Iterator[IterationRecord]:
        """One iteration that pauses after each phase, yielding the record filled so far.

        The tree is in its true state at each pause: after "selection" nothing has
        changed yet, after "expansion" the new children exist but have no visits,
        after "simulation" the playout is known but not yet backed up. With
        ``choices`` the record keeps, for each step of the descent, every sibling's
        visits, mean, bonus and score as the selection rule saw them (:func:`selection_steps`).
        """
        record = self.last = IterationRecord(self.iterations_done + 1)
        leaf, leaf_state = self.select(root, state)
        record.path, record.phase = path_from_root(leaf), "selection"
        if choices:
            record.choices = selection_steps(record.path, self.selection)
        yield record

        before = len(leaf.children)
        start, start_state = self.expand(leaf, leaf_state, root)
        record.added = tuple(leaf.children[before:]) if start is not leaf else ()
        record.start, record.first_visit = start, start.visits == 0
        record.phase = "expansion"
        yield record

        # UCTSearch's playout (mctslib.search.flat._playout) with its moves kept: the same
        # draws from the same source, so the tree stays the one UCTSearch grows.
        moves, final = [], start_state
        legal = final.legal_moves()
        while legal:
            move = legal[self.source.below(len(legal))]
            moves.append(move)
            final = final.play(move)
            legal = final.legal_moves()
        record.playout, record.final = tuple(moves), final
        record.reward = final.result(start.mover)
        record.phase = "simulation"
        yield record

        backups, node, reward = [], start, record.reward
        while node is not None:
            backups.append((node, reward))
            node, reward = node.parent, 1.0 - reward
        self.backpropagate(start, record.reward)
        record.backups, record.phase = tuple(backups), "backpropagation"
        self.iterations_done += 1
        yield record


def path_from_root(node) -> tuple:
    """The nodes from the root of ``node``'s tree down to ``node`` (both included)."""
    path = []
    while node is not None:
        path.append(node)
        node = node.parent
    return tuple(reversed(path))


@dataclass(frozen=True)
class SiblingScore:
    """One child as the selection rule saw it: visits, mean, bonus and score at that moment.

    ``mean`` is nan and ``bonus`` and ``score`` are infinite for a child never visited
    (UCB1 takes the first such child at once); ``bonus`` and ``score`` are nan when the
    rule has no ``bonus(child, parent)`` method.
    """

    node: Node
    visits: int
    wins: float
    mean: float
    bonus: float
    score: float


@dataclass(frozen=True)
class SelectionStep:
    """One step down during selection: the node, all its children scored, and the pick.

    ``parent_visits`` is N in the bonus c * sqrt(ln N / n); ``chosen`` is the child the
    search went into. ``untried`` says why: True when it had no visit yet (taken at
    once, before any score is compared), False when its score was the first highest.
    """

    parent: Node
    parent_visits: int
    rows: tuple
    chosen: Node

    @property
    def untried(self) -> bool:
        return next(row.visits for row in self.rows if row.node is self.chosen) == 0


def selection_steps(path: Sequence, rule=None) -> tuple:
    """Every descent of a selection path, each child scored as ``rule`` scores it (UCT chapter).

    Call it right after the selection phase, before anything is backed up: the rows keep
    the visits and wins of that moment. ``rule`` needs ``bonus(child, parent)``
    (:class:`~mctslib.search.uct.UCB1Rule`); without it bonuses and scores are nan.
    """
    bonus_of = getattr(rule, "bonus", None)
    steps = []
    for parent, chosen in pairwise(path):
        rows = []
        for child in parent.children:
            if not child.visits:
                rows.append(SiblingScore(child, 0, 0.0, math.nan, math.inf, math.inf))
                continue
            mean = child.wins / child.visits
            bonus = bonus_of(child, parent) if callable(bonus_of) else math.nan
            rows.append(SiblingScore(child, child.visits, child.wins, mean, bonus, mean + bonus))
        steps.append(SelectionStep(parent, parent.visits, tuple(rows), chosen))
    return tuple(steps)


def principal_variation(root) -> tuple:
    """The most visited path: from the root, the most visited child (first on ties), on down.

    Stops at a node without visited children. Any tree whose nodes have ``children``
    and ``visits`` will do.
    """
    path, node = [root], root
    while node.children:
        best = node.children[0]
        for child in node.children[1:]:
            if child.visits > best.visits:
                best = child
        if best.visits == 0:
            break
        path.append(best)
        node = best
    return tuple(path)


# ===========================================================================
# Node names, labels, positions
# ===========================================================================


def node_id(node) -> str:
    """A name that stays the node's as the tree grows: ``n`` then its child index path.

    ``n`` is the root, ``n_3`` its fourth child, ``n_3_0`` that child's first child.
    Children are only ever appended (or created all at once), so indices never move.
    """
    indices = []
    while node.parent is not None:
        indices.append(node.parent.children.index(node))
        node = node.parent
    return "n" + "".join(f"_{i}" for i in reversed(indices))


def find_node(root, name: str):
    """The node of ``root``'s tree that :func:`node_id` names ``name``."""
    if not isinstance(name, str) or not name.startswith("n"):
        raise ValueError(f"name must be a node name such as 'n' or 'n_3_0', got {name!r}.")
    node = root
    for part in name[1:].split("_")[1:]:
        if not part.isdigit() or int(part) >= len(node.children):
            raise ValueError(f"no node {name!r} in this tree.")
        node = node.children[int(part)]
    return node


def state_of(root_state: GameState, node) -> GameState:
    """The position ``node`` stands for: the root's position with the path's moves played."""
    state = root_state
    for step in path_from_root(node)[1:]:
        state = state.play(step.move)
    return state


def move_labeller(state: GameState) -> Callable[[object], str]:
    """How edges name moves in a game: ``X4`` (X in cell 4), ``-2`` (take 2), else ``str``."""
    if isinstance(state, TicTacToe):
        return lambda node: f"{'XO'[getattr(node, 'mover', 0) or 0]}{node.move}"
    if isinstance(state, SubtractionGame):
        return lambda node: f"-{node.move}"
    return lambda node: str(node.move)


def player_name(state: GameState, player: int) -> str:
    """``X``/``O`` in tic-tac-toe, else "the first player" / "the second player"."""
    if isinstance(state, TicTacToe):
        return "XO"[player]
    return ("the first player", "the second player")[player]


def outcome_text(final: GameState) -> str:
    """'X wins', 'the second player wins' or 'a draw', for a finished game."""
    winner = final.winner()
    return "a draw" if winner is None else f"{player_name(final, winner)} wins"


def mean_colour(mean: float) -> str:
    """The diverging colour of a mean reward in [0, 1]: red (0), near white (0.5), blue (1)."""
    mean = min(1.0, max(0.0, mean))
    for (low, a), (high, b) in pairwise(_DIVERGING):
        if mean <= high:
            t = (mean - low) / (high - low)
            return "#" + "".join(f"{round(x + t * (y - x)):02x}" for x, y in zip(a, b))
    raise AssertionError("unreachable: mean was clamped to [0, 1]")


def _reward_text(reward: float) -> str:
    return {1.0: "+1", 0.5: "+\u00bd", 0.0: "+0"}.get(reward, f"+{reward:g}")


# ===========================================================================
# What a phase marks, and the DOT source
# ===========================================================================


@dataclass(frozen=True)
class Highlight:
    """What a picture marks on the tree besides sizes, colours and the most visited path.

    ``lit``: nodes whose edges from the parent are lit (the selection path, or the
    backed-up path); ``new``: the node marked new (where the playout starts);
    ``notes``: a short text under a node's visit count (``+1``, ``+0``, ``+1/2``);
    ``picked``: the node whose statistics are shown; ``caption``: the picture's caption.
    Marked nodes are always drawn, whatever the depth and the folding threshold.
    """

    lit: tuple = ()
    new: object = None
    notes: tuple = ()   # pairs (node, text)
    picked: object = None
    caption: str = ""

    def kept(self) -> set[int]:
        """ids of the nodes that must be drawn (and their ancestors)."""
        nodes = list(self.lit) + [node for node, _ in self.notes]
        nodes += [n for n in (self.new, self.picked) if n is not None]
        return {id(a) for n in nodes for a in path_from_root(n)}


def phase_highlight(record: IterationRecord, state: GameState | None = None,
                    labeller: Callable | None = None) -> Highlight:
    """What the picture of ``record.phase`` marks, and its caption (UCT chapter).

    ``state`` (the root's position) names the players and moves in the caption.
    """
    if not isinstance(record, IterationRecord) or record.phase not in PHASES:
        raise ValueError(f"record must be an IterationRecord after one of the phases "
                         f"{', '.join(PHASES)}, got {type(record).__name__}.")
    label = labeller or (move_labeller(state) if state is not None else (lambda n: str(n.move)))
    head = f"Iteration {record.number} \u00b7 {PHASES.index(record.phase) + 1}/4 {record.phase}: "
    if record.phase == "selection":
        moves = [label(node) for node in record.path[1:]]
        text = ("the root has no children yet, so selection stops at the root."
                if not moves else
                f"from the root, UCB1 picks {', '.join(moves)} down to a leaf (lit).")
        return Highlight(lit=record.path, caption=head + text)
    start = record.start
    if record.phase == "expansion":
        leaf = record.path[-1]
        if record.added:
            text = (f"the leaf had been visited (or is the root), so {len(record.added)} "
                    f"child{'ren' if len(record.added) > 1 else ''} {'were' if len(record.added) > 1 else 'was'} "
                    f"added; the search steps into {label(start)} (marked new).")
        elif record.first_visit:
            text = ("the leaf has no visit yet, so it is not expanded: its first playout "
                    "starts here (marked new).")
        elif not leaf.children and start is leaf:
            text = "the leaf is a finished game (or at the depth limit): nothing to add."
        else:
            text = "nothing to add."
        return Highlight(lit=record.path, new=start, caption=head + text)
    if record.phase == "simulation":
        final = outcome_text(record.final)
        if record.playout:
            names = ", ".join(map(str, record.playout))
            text = (f"{len(record.playout)} random move{'s' if len(record.playout) > 1 else ''} "
                    f"({names}) finish the game: {final}. None of them enters the tree.")
        else:
            text = f"the game is already over here: {final}."
        return Highlight(lit=record.path + ((start,) if start is not record.path[-1] else ()),
                         new=start, caption=head + text)
    # The root has no mover: its count of "wins" is for nobody, so it gets no note.
    notes = tuple((node, _reward_text(reward)) for node, reward in record.backups
                  if node.parent is not None)
    text = (f"the result ({outcome_text(record.final)}) goes up the path: each node gains a "
            "visit and the reward of the player who moved into it (+1 win, +\u00bd draw, "
            "+0 loss).")
    return Highlight(lit=tuple(node for node, _ in reversed(record.backups)), new=start,
                     notes=notes, caption=head + text)


@dataclass(frozen=True)
class DrawnTree:
    """A tree ready for Graphviz: its DOT source and the nodes it draws, by name."""

    source: str
    nodes: dict = field(default_factory=dict)   # name -> Node, tree nodes only
    folded: int = 0                               # children hidden in "+k more" boxes
    total: int = 0                                # nodes in the whole tree


def tree_to_dot(root, *, depth: int | None = None, min_visits: int = 1,
                highlight: Highlight | None = None, labeller: Callable | None = None,
                legend: bool = True, caption: str | None = None,
                max_drawn: int = MAX_DRAWN) -> DrawnTree:
    """Write a search tree as Graphviz DOT source (UCT chapter's tree explorer).

    Parameters
    ----------
    root : Node
        The root of a tree whose nodes have ``children``, ``move``, ``visits``,
        ``wins`` and ``parent`` (``mover`` too for tic-tac-toe labels).
    depth : int or None
        Levels drawn below the root (None: all). A node at the limit that has
        children gets a double ring.
    min_visits : int
        Children with fewer visits are folded into one "+k more" box per parent
        (0 draws every child, unvisited ones too). Marked nodes are always drawn.
    highlight : Highlight or None
        What a phase marks (see :func:`phase_highlight`).
    labeller : callable(node) -> str, optional
        The text of each edge; ``str(node.move)`` by default.
    legend : bool
        Add the colour legend as a box beside the root.
    caption : str or None
        A title drawn above the tree (default: the highlight's caption, if any).
    max_drawn : int
        The most nodes to draw (a bigger tree raises ValueError naming depth and min_visits).

    Node size grows with visits (area about proportional), fill colour is the node's mean
    reward for the player who chose its move at the parent (:func:`mean_colour`), and the
    most visited path (:func:`principal_variation`) is drawn in bold orange.
    """
    if not all(hasattr(root, name) for name in ("children", "visits", "wins", "parent")):
        raise ValueError(f"root must be a node of a search tree (with children, visits, wins "
                         f"and parent), got {type(root).__name__}.")
    depth = None if depth is None else check_int("depth", depth, 1)
    min_visits = check_int("min_visits", min_visits, 0)
    legend = check_bool("legend", legend)
    max_drawn = check_int("max_drawn", max_drawn, 1)
    if highlight is not None and not isinstance(highlight, Highlight):
        raise ValueError(f"highlight must be a Highlight (see phase_highlight) or None, got "
                         f"{type(highlight).__name__}.")
    if labeller is not None and not callable(labeller):
        raise ValueError(f"labeller must be a function node -> text or None, got "
                         f"{type(labeller).__name__}.")
    highlight = highlight or Highlight()
    label = labeller or (lambda node: str(node.move))
    caption = highlight.caption if caption is None else caption
    if not isinstance(caption, str):
        raise ValueError(f"caption must be text or None, got {type(caption).__name__}.")

    kept = highlight.kept()
    lit = {id(n) for n in highlight.lit}
    notes = {id(node): text for node, text in highlight.notes}
    pv = {id(n) for n in principal_variation(root)}
    top = max(root.visits, 1)

    graph = _Dot({
        "rankdir": "TB", "ordering": "out", "bgcolor": "white", "nodesep": "0.12",
        "ranksep": "0.35", "fontname": "Helvetica", "fontsize": "11", "margin": "0.1",
        **({"label": _wrap(caption), "labelloc": "t", "labeljust": "l"} if caption else {}),
    }, node={"fontname": "Helvetica", "fontsize": "9", "style": "filled", "shape": "circle",
             "fixedsize": "shape", "penwidth": "1", "color": "#555555"},
        edge={"fontname": "Helvetica", "fontsize": "9", "color": _EDGE, "arrowsize": "0.5",
              "fontcolor": "#333333"})
    drawn: dict[str, object] = {}
    folded = 0
    # Breadth first, so that a picture too big to draw is refused before dot runs.
    queue, name_of = deque([root]), {id(root): "n"}
    while queue:
        node = queue.popleft()
        name = name_of[id(node)]
        level = name.count("_")
        drawn[name] = node
        if len(drawn) > max_drawn:
            raise ValueError(f"the picture would draw more than {max_drawn:,} nodes: show fewer "
                             "levels (depth) or fold more (raise min_visits).")
        below_limit = depth is not None and level >= depth
        hidden, cut = [], False
        for index, child in enumerate(node.children):
            if id(child) not in kept:
                if below_limit:
                    cut = True
                    continue
                if child.visits < min_visits:
                    hidden.append(child)
                    continue
            child_name = f"{name}_{index}"
            name_of[id(child)] = child_name
            queue.append(child)
            on_pv, on_lit = id(child) in pv and id(node) in pv, id(child) in lit
            graph.edge(name, child_name, label=" " + _plain(label(child)),
                       **_edge_style(on_pv, on_lit))
        _add_node(graph, name, node, top, highlight, lit, notes, pv, cut)
        if hidden:
            folded += len(hidden)
            visits = sum(child.visits for child in hidden)
            graph.node(f"{name}_more", label=f"+{len(hidden)} more", shape="box",
                       style="dashed,rounded", fixedsize="false", fillcolor="white",
                       fontcolor="#555555", id=f"fold-{name}", **{"class": "tree-fold"},
                       tooltip=(f"{len(hidden)} children with fewer than {min_visits} "
                                f"visit{'s' if min_visits != 1 else ''} ({visits} visits "
                                "in all)"))
            graph.edge(name, f"{name}_more", style="dashed", color="#aaaaaa")
    if legend:
        graph.node("legend", label=_legend_label(), shape="plaintext", style="",
                   fixedsize="false", id="tree-legend")
    return DrawnTree(graph.text(), drawn, folded, _count(root))


class _Dot:
    """DOT text written directly: half the time of graphviz.Digraph's quoting (measured
    on a 400-node picture: 17 ms against 33 ms; dot's layout then takes about 110 ms).

    Every value is quoted (``"`` escaped) except HTML-like labels ``<...>``; texts that come
    from outside (moves) pass through :func:`_plain` first, so that a backslash in them is
    not read as a DOT escape. Names are the library's own (``n_3_0``, ``legend``).
    """

    def __init__(self, graph: dict, node: dict, edge: dict):
        self.lines = ["digraph tree {", f"\tgraph [{_attrs(graph)}]", f"\tnode [{_attrs(node)}]",
                      f"\tedge [{_attrs(edge)}]"]

    def node(self, name: str, **attrs) -> None:
        self.lines.append(f"\t{name} [{_attrs(attrs)}]")

    def edge(self, tail: str, head: str, **attrs) -> None:
        self.lines.append(f"\t{tail} -> {head} [{_attrs(attrs)}]")

    def text(self) -> str:
        return "\n".join(self.lines) + "\n}\n"


def _attrs(attrs: dict) -> str:
    return " ".join(f"{key}={_quoted(value)}" for key, value in attrs.items())


def _quoted(value: str) -> str:
    if value.startswith("<") and value.endswith(">"):
        return value
    return '"' + value.replace('"', '\\"') + '"'


def _plain(text: str) -> str:
    """Outside text made safe for a DOT string: no backslash escapes, no line breaks."""
    return str(text).replace("\\", "\\\\").replace("\n", " ")


def _add_node(graph, name, node, top, highlight, lit, notes, pv, cut):
    size = 0.32 + 0.68 * math.sqrt(node.visits / top)
    classes = ["tree-node"]
    attrs = {"width": f"{size:.2f}", "id": f"tn-{name}"}
    if node.parent is None:
        attrs["fillcolor"] = _ROOT_FILL
    elif node.visits:
        mean = node.wins / node.visits
        attrs["fillcolor"] = mean_colour(mean)
        if abs(mean - 0.5) > 0.3:
            attrs["fontcolor"] = "white"
    else:
        attrs.update(fillcolor="white", style="filled,dashed")
    text = str(node.visits)
    if id(node) in notes:
        text += "\\n" + notes[id(node)]
        classes.append("tree-noted")
    attrs["label"] = text
    if id(node) in pv:
        attrs.update(color=_PV, penwidth="2.5")
        classes.append("tree-pv")
    if id(node) in lit:
        attrs.update(color=_LIT, penwidth="3.5")
        classes.append("tree-lit")
    if node is highlight.new:
        attrs.update(color=_NEW, penwidth="4", xlabel="new", fontcolor=attrs.get("fontcolor", "black"))
        classes.append("tree-new")
    if node is highlight.picked:
        attrs["peripheries"] = "2"
        attrs["color"] = _PICKED
        classes.append("tree-picked")
    elif cut:
        attrs["peripheries"] = "2"
        classes.append("tree-cut")
    if node.parent is None:  # no move leads to the root: its wins count for nobody
        attrs["tooltip"] = f"the root: visits {node.visits}"
    else:
        mean = "no visits yet" if not node.visits else f"mean {node.wins / node.visits:.3f}"
        attrs["tooltip"] = f"visits {node.visits}, wins {node.wins:g}, {mean}"
    attrs["class"] = " ".join(classes)
    graph.node(name, **attrs)


def _edge_style(on_pv: bool, on_lit: bool) -> dict:
    if on_lit:
        return {"color": _LIT, "penwidth": "3.5", "class": "tree-lit"}
    if on_pv:
        return {"color": _PV, "penwidth": "3", "class": "tree-pv"}
    return {}


def _legend_label() -> str:
    cells = "".join(f'<TD BGCOLOR="{mean_colour(m)}" WIDTH="22">{m:g}</TD>'
                    for m in (0.0, 0.25, 0.5, 0.75, 1.0))
    return ('<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="2">'
            '<TR><TD COLSPAN="5">mean reward of the move,<BR/>for the player who chose it</TD></TR>'
            f"<TR>{cells}</TR>"
            f'<TR><TD COLSPAN="5" ALIGN="LEFT">size: visits<BR ALIGN="LEFT"/>'
            f'<FONT COLOR="{_PV}"><B>orange</B></FONT>: most visited path<BR ALIGN="LEFT"/>'
            f'<FONT COLOR="{_LIT}"><B>teal</B></FONT>: this iteration\'s path<BR ALIGN="LEFT"/>'
            f'<FONT COLOR="{_NEW}"><B>purple</B></FONT>: where the playout starts'
            '<BR ALIGN="LEFT"/></TD></TR></TABLE>>')


def _wrap(text: str, width: int = 70) -> str:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\\l".join(lines + [line]) + "\\l"


def _count(root) -> int:
    count, stack = 0, [root]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(node.children)
    return count


def render_svg(source: str | DrawnTree) -> str:
    """Lay out DOT source with Graphviz ``dot``; return the ``<svg>`` element as text.

    The XML prologue is dropped so that the text can sit inside HTML. Raises
    RuntimeError with the command that installs Graphviz if ``dot`` is missing.
    """
    text = _pipe(source, "svg").decode("utf-8")
    # dot writes every "-" as "&#45;"; the same character, but plain ids and classes
    # ("tn-n_0", "tree-node") are easier to search for in the text and in tests.
    # Its comments (one per node and edge) only fill the notebook: about a fifth of the text.
    text = re.sub(r"<!--.*?-->\n?", "", text[text.index("<svg"):], flags=re.DOTALL)
    return text.replace("&#45;", "-")


def render_png(source: str | DrawnTree) -> bytes:
    """The same picture as PNG bytes (slower than SVG: about 0.5 s for 200 nodes)."""
    return _pipe(source, "png")


def _pipe(source, fmt: str) -> bytes:
    if isinstance(source, DrawnTree):
        source = source.source
    if not isinstance(source, str):
        raise ValueError(f"source must be DOT text or a DrawnTree, got {type(source).__name__}.")
    try:
        return graphviz.Source(source).pipe(format=fmt, engine="dot", quiet=True)
    except graphviz.ExecutableNotFound:
        raise RuntimeError("Graphviz's dot program is not installed: run `apt-get install "
                           "graphviz` (scripts/setup.sh does it when run as root).") from None


# ===========================================================================
# Statistics of a node and the position it stands for
# ===========================================================================


@dataclass(frozen=True)
class NodeStats:
    """What the explorer shows about one node (UCT chapter).

    ``mean`` is for the player who moved into the node; ``bonus`` and ``score`` are
    UCB1's at its parent (``inf`` for an unvisited child, nan for the root).
    """

    moves: tuple
    visits: int
    wins: float
    mean: float
    bonus: float
    score: float
    parent_visits: int | None

    def html(self) -> str:
        """A small table of the statistics."""
        def number(x):
            return "\u2013" if math.isnan(x) else ("\u221e" if math.isinf(x) else f"{x:.3f}")
        rows = [("path", " \u2192 ".join(self.moves) or "root"), ("visits", f"{self.visits}"),
                ("wins", f"{self.wins:g}"), ("mean", number(self.mean))]
        if self.parent_visits is not None:
            rows += [("UCB1 bonus at parent", number(self.bonus)),
                     ("UCB1 score at parent", number(self.score)),
                     ("parent visits", f"{self.parent_visits}")]
        body = "".join(f"<tr><td style='padding:1px 8px 1px 0'>{html.escape(k)}</td>"
                       f"<td style='text-align:right'><b>{html.escape(v)}</b></td></tr>"
                       for k, v in rows)
        return f"<table class='tree-explorer-stats'>{body}</table>"


def node_stats(node, rule=None, labeller: Callable | None = None) -> NodeStats:
    """Visits, wins, mean and UCB1 bonus and score at the parent of ``node``.

    ``rule`` needs a ``bonus(child, parent)`` method (:class:`~mctslib.search.uct.UCB1Rule`
    with c = sqrt(2) by default).
    """
    if not all(hasattr(node, name) for name in ("children", "visits", "wins", "parent")):
        raise ValueError(f"node must be a node of a search tree, got {type(node).__name__}.")
    rule = rule if rule is not None else UCB1Rule()
    if not callable(getattr(rule, "bonus", None)):
        raise ValueError(f"rule must have a bonus(child, parent) method (such as UCB1Rule()), "
                         f"got {type(rule).__name__}.")
    label = labeller or (lambda n: str(n.move))
    mean = node.wins / node.visits if node.visits else math.nan
    parent = node.parent
    if parent is None:
        bonus = score = math.nan
    elif not node.visits:
        bonus = score = math.inf
    else:
        bonus = rule.bonus(node, parent)
        score = mean + bonus
    moves = tuple(label(n) for n in path_from_root(node)[1:])
    return NodeStats(moves, node.visits, node.wins, mean, bonus, score,
                     None if parent is None else parent.visits)


def position_html(state: GameState) -> str:
    """The position drawn small: a tic-tac-toe grid, the sum-to-15 magic square, else text.

    Boards are small inline SVGs on a white square (readable on dark pages too).
    """
    check_game_state(state)
    if isinstance(state, TicTacToe):
        marks = [c for row in str(state).split("\n") for c in row.split()]
        cells = [("" if m == "." else m, _BLUE if m == "X" else _RED) for m in marks]
        picture = _grid_svg(cells, "tic-tac-toe board")
    elif isinstance(state, SumToFifteen):
        cells = [(str(n), _BLUE if state.first >> n & 1 else _RED if state.second >> n & 1
                  else "#b0b0b0") for n in MAGIC_SQUARE]
        picture = _grid_svg(cells, "magic square: numbers held by the first (blue) and the "
                                   "second (red) player") + (
            f"<div style='font-size:11px'><span style='color:{_BLUE}'>first</span> / "
            f"<span style='color:{_RED}'>second</span> player's numbers</div>")
    else:
        picture = f"<pre style='margin:0'>{html.escape(str(state))}</pre>"
    turn = ("game over: " + outcome_text(state) if state.is_terminal()
            else f"{player_name(state, state.player_to_move)} to move")
    return (f"<div class='tree-explorer-position'>{picture}</div>"
            f"<div style='font-size:12px;margin-top:2px'>{html.escape(turn)}</div>")


_BLUE, _RED = "#2166ac", "#b2182b"


def _grid_svg(cells, title: str, size: int = 28) -> str:
    """A 3 x 3 grid of (text, colour) cells, row by row, as inline SVG."""
    side = 3 * size + 2
    label = html.escape(title, quote=True)
    parts = [(f"<svg xmlns='http://www.w3.org/2000/svg' width='{side}' height='{side}' "
              f"role='img' aria-label='{label}'>"),
             f"<rect x='0' y='0' width='{side}' height='{side}' fill='white'/>"]
    for index, (text, colour) in enumerate(cells):
        x, y = 1 + size * (index % 3), 1 + size * (index // 3)
        parts.append(f"<rect x='{x}' y='{y}' width='{size}' height='{size}' fill='none' "
                     f"stroke='#888'/>")
        if text:
            parts.append(f"<text x='{x + size / 2}' y='{y + size * 0.7}' text-anchor='middle' "
                         f"font-family='monospace' font-weight='bold' font-size='{size * 0.6:g}' "
                         f"fill='{colour}'>{html.escape(text)}</text>")
    return "".join(parts) + "</svg>"


# ===========================================================================
# Static pictures for the published book
# ===========================================================================


@dataclass(frozen=True)
class StepPicture:
    """One picture of :func:`static_steps`: which iteration and phase, its caption and image."""

    iteration: int
    phase: str
    caption: str
    image: bytes
    format: str   # "svg" or "png"

    def data_uri(self) -> str:
        """The image as a ``data:`` URI (nothing is loaded from anywhere)."""
        mime = "image/svg+xml" if self.format == "svg" else "image/png"
        return f"data:{mime};base64,{base64.b64encode(self.image).decode('ascii')}"


class StaticSteps(Sequence):
    """The pictures of the first iterations, phase by phase; shows itself in a notebook.

    Jupyter shows the HTML (one row of pictures per iteration, each an ``<img>`` with its
    caption as alt text, embedded as a data URI: the published book needs no kernel and
    nothing from the internet); ``str()`` and the plain-text view list the captions.
    """

    def __init__(self, pictures: Sequence[StepPicture]):
        self.pictures = tuple(pictures)

    def __getitem__(self, index):
        return self.pictures[index]

    def __len__(self) -> int:
        return len(self.pictures)

    def captions(self) -> str:
        """Every caption, one per line."""
        return "\n".join(p.caption for p in self.pictures)

    def __repr__(self) -> str:
        return self.captions()

    def _repr_html_(self) -> str:
        rows: dict[int, list[StepPicture]] = {}
        for picture in self.pictures:
            rows.setdefault(picture.iteration, []).append(picture)
        # White boxes with dark text: the pictures stay readable on a dark page too.
        figure = ("flex:0 1 auto;max-width:100%;margin:0;background:white;color:#222;"
                  "border:1px solid #ccc;border-radius:4px;padding:4px;font-size:12px")
        html_rows = []
        for row in rows.values():
            figures = "".join(
                f"<figure style='{figure}'><img src='{p.data_uri()}' "
                f"alt='{html.escape(p.caption, quote=True)}' style='max-width:100%;height:auto'>"
                f"<figcaption style='max-width:22em;color:#222;text-align:left'>"
                f"{html.escape(p.caption)}</figcaption>"
                f"</figure>" for p in row)
            html_rows.append(f"<div style='display:flex;flex-wrap:wrap;gap:6px;"
                             f"margin-bottom:8px;align-items:flex-start'>{figures}</div>")
        return f"<div class='tree-static-steps'>{legend_html()}{''.join(html_rows)}</div>"


def legend_html() -> str:
    """The pictures' legend as HTML: the colour scale and what the outlines mean."""
    swatches = "".join(
        f"<span style='display:inline-block;padding:0 6px;background:{mean_colour(m)};"
        f"color:{'white' if abs(m - 0.5) > 0.3 else '#222'}'>{m:g}</span>"
        for m in (0.0, 0.25, 0.5, 0.75, 1.0))
    return (f"<div class='tree-legend' style='background:white;color:#222;font-size:12px;"
            f"padding:4px;margin-bottom:6px;border:1px solid #ccc;border-radius:4px'>"
            f"Fill: mean reward of the move into the node, for the player who chose it "
            f"{swatches} (white dashed: no visit yet). Size: visits; the number inside is the "
            f"visit count. Outline: <b style='color:{_PV}'>orange</b> the most visited path, "
            f"<b style='color:{_LIT}'>teal</b> this iteration's path, "
            f"<b style='color:{_NEW}'>purple</b> where the playout starts. "
            f"\u201c+k more\u201d: children folded away (by default those not visited "
            f"yet).</div>")


def static_steps(state: GameState, iterations: int = 10, seed=TREE_SEED,
                 exploration: float = math.sqrt(2.0), phases: Sequence[str] = PHASES,
                 depth: int | None = None, min_visits: int = 1, expansion: str = "all",
                 format: str = "svg", legend: bool = False,
                 captions_in_pictures: bool = False) -> StaticSteps:
    """Draw the first ``iterations`` UCT iterations from ``state``, phase by phase (UCT chapter).

    The same drawing code as the explorer, so the published book shows the steps a
    reader with a kernel sees when pressing "one iteration". Each picture has its
    caption (also its alt text in the HTML view).

    Parameters
    ----------
    state : GameState
        The root position (the game must still be on).
    iterations : int
        How many iterations to draw, from 1 to 200.
    seed : int, numpy Generator, XorShift64 or None
        The search's random source (as :class:`~mctslib.search.uct.UCTSearch`).
    exploration : float
        UCB1's constant c (>= 0).
    phases : sequence of str
        Which phases get a picture (all four by default; ``("backpropagation",)`` gives
        one picture per iteration, the tree after it).
    depth, min_visits :
        As :func:`tree_to_dot`.
    expansion : {"all", "one"}
        As :class:`~mctslib.search.uct.UCTSearch`.
    format : {"svg", "png"}
        The pictures' format (SVG is smaller and faster).
    legend : bool
        Draw the colour legend in every picture (the HTML view shows one legend above
        all pictures anyway).
    captions_in_pictures : bool
        Write each caption into its picture too (for pictures used on their own); the
        HTML view puts it under the picture, where it wraps to the page.

    Returns
    -------
    StaticSteps
        Its pictures, in order; it displays itself as HTML in a notebook.
    """
    check_game_state(state)
    iterations = check_int("iterations", iterations, 1, 200)
    exploration = check_real("exploration", exploration, 0.0)
    format = check_choice("format", format, ("svg", "png"))
    captions_in_pictures = check_bool("captions_in_pictures", captions_in_pictures)
    if isinstance(phases, str) or not isinstance(phases, Sequence) or not phases or any(
            not isinstance(p, str) or p not in PHASES for p in phases):
        raise ValueError(f"phases must be a non-empty list drawn from {', '.join(PHASES)}, "
                         f"got {phases!r}.")
    search = RecordingUCTSearch(exploration, iterations=MAX_ITERATIONS, seed=seed,
                                expansion=expansion)
    root = search.begin(state)
    label = move_labeller(state)
    pictures = []
    for _ in range(iterations):
        for record in search.step():
            if record.phase not in phases:
                continue
            mark = phase_highlight(record, state, label)
            drawn = tree_to_dot(root, depth=depth, min_visits=min_visits, highlight=mark,
                                labeller=label, legend=legend,
                                caption=mark.caption if captions_in_pictures else "")
            image = render_svg(drawn).encode("utf-8") if format == "svg" else render_png(drawn)
            pictures.append(StepPicture(record.number, record.phase, mark.caption, image, format))
    return StaticSteps(pictures)


def check_recording_search(search, name: str = "search"):
    """Return ``search`` unless it lacks what the explorer calls (begin, step, selection)."""
    missing = [m for m in ("begin", "step", "iterate", "iterations_done", "selection")
               if not hasattr(search, m)]
    if missing:
        raise ValueError(f"{name} must make a search that records its phases (such as "
                         f"RecordingUCTSearch), got {type(search).__name__} without "
                         f"{', '.join(missing)}.")
    return search


__all__ = [
    "PHASES",
    "DrawnTree",
    "Highlight",
    "IterationRecord",
    "NodeStats",
    "RecordingUCTSearch",
    "SelectionStep",
    "SiblingScore",
    "StaticSteps",
    "StepPicture",
    "check_recording_search",
    "find_node",
    "legend_html",
    "mean_colour",
    "move_labeller",
    "node_id",
    "node_stats",
    "path_from_root",
    "phase_highlight",
    "position_html",
    "principal_variation",
    "render_png",
    "render_svg",
    "selection_steps",
    "state_of",
    "static_steps",
    "tree_to_dot",
]
