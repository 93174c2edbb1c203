"""See the tree grow: step through UCT's four phases on a real tree (UCT chapter).

Two layers, so that everything but the buttons is tested without a browser:

- :class:`ExplorerSession`: a tree being grown by a recording search
  (:class:`~mctslib.views.tree_layout.RecordingUCTSearch` by default), one phase or
  one iteration or N iterations at a time, the node the reader picked, and the
  picture and texts of the current state (drawing in :mod:`mctslib.views.tree_layout`);
- :class:`TreeExplorer`: the ipywidgets around it: **one iteration** (the four phases
  shown in turn, each with its caption and the four-phase diagram of
  :mod:`mctslib.views.tree_frames` with that phase lit), **next phase**, **run N**,
  **reset**, a box for UCB1's constant c, a menu of starting positions, sliders for the
  depth shown and the folding threshold, the table of the selection (why the search
  went where it went: every sibling's mean, bonus and score at each step down, the pick
  highlighted), and the statistics and position of the node the reader clicks (or
  picks from the list).

Clicks on the tree reach the kernel without a custom widget: the SVG sits in an HTML
widget whose ``onclick`` writes the clicked node's name into a hidden Text widget, which
ipywidgets syncs as if the reader had typed it. The published book shows
:func:`~mctslib.views.tree_layout.static_steps` instead (no kernel there).

Any search the explorer grows needs ``begin(state)``, ``step()`` (a generator of
:class:`~mctslib.views.tree_layout.IterationRecord` after each phase),
``iterate(root, state)``, ``iterations_done`` and ``selection`` (with a
``bonus(child, parent)`` method for the statistics); its nodes need ``children``,
``move``, ``visits``, ``wins`` and ``parent``.
"""

from __future__ import annotations

import html
import math
import re
import time
from collections.abc import Callable
from dataclasses import replace

import ipywidgets as widgets

from .._checks import check_choice, check_int, check_real
from ..games.base import GameState, check_game_state
from ..games.subtraction import SubtractionGame
from ..games.tictactoe import TicTacToe
from ..search.uct import EXPANSIONS, MAX_ITERATIONS
from .tree_frames import four_phases_data_uri, selection_html
from .tree_layout import (
    PHASES,
    TREE_SEED,
    DrawnTree,
    Highlight,
    RecordingUCTSearch,
    check_recording_search,
    find_node,
    move_labeller,
    node_id,
    node_stats,
    path_from_root,
    phase_highlight,
    position_html,
    render_svg,
    state_of,
    tree_to_dot,
)

#: The most iterations one press of "run N" may ask for (pure Python: about 10 s).
MAX_RUN = 100_000
#: The deepest level the depth slider offers.
MAX_DEPTH_SHOWN = 12
#: Seconds each phase stays on screen when "one iteration" plays the four in turn.
PHASE_SECONDS = 0.7
#: The largest exploration constant the c box takes.
MAX_C = 10.0

ARROW = " \u2192 "
_START_CAPTION = "A tree of one node, the root. Press one iteration to watch the four phases."


class ExplorerSession:
    """A tree grown one phase, one iteration or N iterations at a time (UCT chapter).

    Parameters
    ----------
    state : GameState
        The root position (the game must still be on).
    search_factory : callable() -> search
        Makes a fresh recording search (called at start and at every reset), such as
        ``lambda: RecordingUCTSearch(1.0, seed=3)``.
    depth : int or None
        Levels drawn below the root (None: all).
    min_visits : int
        Children with fewer visits are folded into "+k more".
    """

    def __init__(self, state: GameState, search_factory: Callable, depth: int | None = 3,
                 min_visits: int = 1):
        self.state = check_game_state(state)
        if state.is_terminal():
            raise ValueError("state must be a game still on: a finished game has no tree to grow.")
        if not callable(search_factory):
            raise ValueError(f"search_factory must be a function that makes a fresh search "
                             f"(such as lambda: RecordingUCTSearch(seed=1)), got "
                             f"{type(search_factory).__name__}.")
        self.factory = search_factory
        self.depth = None if depth is None else check_int("depth", depth, 1)
        self.min_visits = check_int("min_visits", min_visits, 0)
        self.label = move_labeller(state)
        self.reset()

    def restart(self, state: GameState | None = None, search_factory: Callable | None = None
                ) -> None:
        """Start again from the root alone, from a new position or with a new search factory."""
        if state is not None:
            check_game_state(state)
            if state.is_terminal():
                raise ValueError("state must be a game still on: a finished game has no tree "
                                 "to grow.")
            self.state, self.label = state, move_labeller(state)
        if search_factory is not None:
            if not callable(search_factory):
                raise ValueError(f"search_factory must be a function that makes a fresh "
                                 f"search, got {type(search_factory).__name__}.")
            self.factory = search_factory
        self.reset()

    def reset(self) -> None:
        """A fresh search from the factory: the tree is the root alone again."""
        search = check_recording_search(self.factory(), "search_factory()")
        self.search = search
        self.root = search.begin(self.state)
        self.pending = None      # the generator of an iteration stopped between phases
        self.phase = None        # the last phase shown, None after reset or run
        self.mark = Highlight(caption=_START_CAPTION)
        self.record = None       # the record of the iteration shown, None after reset or run
        self.picked = self.root

    @property
    def iterations(self) -> int:
        """Iterations finished so far."""
        return self.search.iterations_done

    def next_phase(self) -> Highlight:
        """Run the next phase (starting an iteration if none is under way); what it marks."""
        if self.pending is None:
            self.pending = self.search.step()
        record = next(self.pending)
        if record.phase == PHASES[-1]:
            self.pending.close()
            self.pending = None
        self.phase, self.record = record.phase, record
        self.mark = phase_highlight(record, self.state, self.label)
        return self.mark

    def phases_left(self) -> int:
        """Phases still to run to finish the current iteration (4 when none is under way)."""
        if self.pending is None:
            return len(PHASES)
        return len(PHASES) - 1 - PHASES.index(self.phase)

    def run(self, iterations: int) -> None:
        """Finish the iteration under way, then run ``iterations`` more without pictures."""
        iterations = check_int("iterations", iterations, 1, MAX_RUN)
        while self.pending is not None:
            self.next_phase()
        for _ in range(iterations):
            self.search.iterate(self.root, self.state)
        self.phase, self.record = None, None
        self.mark = Highlight(caption=f"Ran {iterations:,} iteration{'s' if iterations > 1 else ''}"
                                      f" ({self.iterations:,} in all). Orange: the most visited "
                                      "path, the move UCT would play first.")

    def pick(self, name: str) -> None:
        """Show the statistics of the node named ``name`` (see :func:`tree_layout.node_id`)."""
        self.picked = find_node(self.root, name)

    def drawing(self) -> DrawnTree:
        """The DOT source of the current picture (the caption is shown apart)."""
        return tree_to_dot(self.root, depth=self.depth, min_visits=self.min_visits,
                           highlight=replace(self.mark, picked=self.picked),
                           labeller=self.label, legend=True, caption="")

    def picture(self) -> tuple[str, DrawnTree]:
        """The current picture as SVG text, and what it draws."""
        drawn = self.drawing()
        return render_svg(drawn), drawn

    def selection_html(self) -> str:
        """Why the iteration shown went where it went: the selection's tables (else empty)."""
        choices = getattr(self.record, "choices", ())
        if self.record is None:
            return ""
        if not choices:
            return ("<div style='font-size:12px'><b>Selection</b>: the root has no children "
                    "yet, so there is nothing to choose.</div>")
        return ("<div style='font-size:12px'><b>Why this path</b> (each step down: every "
                "child's visits n, mean Q for the player choosing there, bonus "
                "c\u00b7\u221a(ln N / n) and score Q + bonus; highlighted: the pick)"
                f"{selection_html(choices, self.label)}</div>")

    def details_html(self) -> str:
        """Statistics and position of the picked node."""
        stats = node_stats(self.picked, getattr(self.search, "selection", None), self.label)
        position = position_html(state_of(self.state, self.picked))
        return (f"<div style='font-size:13px'><b>Node picked</b> (click a node)"
                f"{stats.html()}<div style='margin-top:6px'>{position}</div></div>")

    def node_choices(self, drawn: DrawnTree) -> list[tuple[str, str]]:
        """(text, name) of every tree node a picture draws, for the node list."""
        choices = []
        for name, node in drawn.nodes.items():
            moves = [self.label(n) for n in path_from_root(node)[1:]]
            path = ARROW.join(moves) or "root"
            choices.append((f"{path} ({node.visits})", name))
        return choices


def recording_uct_factory(exploration: float = math.sqrt(2.0), seed=TREE_SEED,
                          expansion: str = "all") -> Callable[[], RecordingUCTSearch]:
    """A factory of fresh :class:`RecordingUCTSearch` with these parameters and this seed.

    An int seed (or None) gives the same tree after every reset; a Generator or an
    XorShift64 would continue one stream across resets, so only ints and None are taken.
    """
    exploration = check_real("exploration", exploration, 0.0)
    expansion = check_choice("expansion", expansion, EXPANSIONS)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ValueError(f"seed must be a whole number >= 0 or None (each reset starts the same "
                         f"stream again), got {seed!r}.")
    return lambda: RecordingUCTSearch(exploration, iterations=MAX_ITERATIONS, seed=seed,
                                      expansion=expansion)


# ------------------------------------------------------------------------------- the widget

# The click handler: the name of the clicked node (its SVG id without "tn-") goes into the
# explorer's hidden Text widget, and an input event makes ipywidgets send it to the kernel.
_ON_CLICK = ("var g=event.target.closest('g.node');"
             "if(!g||!g.id||g.id.indexOf('tn-')!==0)return;"
             "var box=this.closest('.tree-explorer');"
             "var input=box&&box.querySelector('.tree-explorer-pick input');"
             "if(!input)return;input.value=g.id.slice(3);"
             "input.dispatchEvent(new Event('input',{bubbles:true}));")
# After each redraw a wide tree scrolls so that the action stays in view: the node marked new,
# else the deepest lit node, else the picked one, else the root. HTML widgets run no
# <script>, but an image runs its onload handler once it is in the page (a 1x1 transparent GIF,
# which loads, so the published book shows no broken image).
_PIXEL = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"
_FOLLOW = (f"<img src='{_PIXEL}' alt='' style='display:none' onload=\""
           "var c=this.parentNode;if(c.scrollWidth<=c.clientWidth&&c.scrollHeight<=c.clientHeight)"
           "return;var lit=c.querySelectorAll('g.node.tree-lit');"
           "var t=c.querySelector('g.tree-new')||lit[lit.length-1]||"
           "c.querySelector('g.tree-picked')||c.querySelector('g.tree-node');if(!t)return;"
           "var a=c.getBoundingClientRect(),b=t.getBoundingClientRect();"
           "c.scrollLeft+=b.left+b.width/2-a.left-a.width/2;"
           "c.scrollTop+=b.top+b.height/2-a.top-a.height/2;\">")
_TREE_STYLE = "<style>.tree-explorer-svg g.tree-node{cursor:pointer}</style>"
#: A wide tree is shrunk to fit the page, but never below this scale (smaller text would
#: not be readable): beyond it the reader scrolls sideways.
MIN_SCALE = 0.75


def fitted_svg(svg: str) -> tuple[str, bool]:
    """``svg`` sized to fit its box, shrunk at most to :data:`MIN_SCALE`; True if it may scroll.

    dot gives the picture's size in points (``width="812pt"``); CSS ``clamp`` then picks
    the box's width between the smallest readable width and the natural width.
    """
    match = re.match(r'<svg width="([\d.]+)pt"', svg)
    if match is None:
        return svg, False
    natural = float(match.group(1)) * 4 / 3  # points to CSS pixels
    style = (f'style="width:clamp({MIN_SCALE * natural:.0f}px,100%,{natural:.0f}px);'
             f'height:auto" ')
    return svg.replace("<svg ", f"<svg {style}", 1), natural * MIN_SCALE > 600


class TreeExplorer(widgets.VBox):
    """Watch UCT grow its tree, phase by phase (UCT chapter).

    Parameters
    ----------
    state : GameState, dict of name to GameState, or None
        The root position, or several the reader chooses from in a menu (the first is
        shown first); by default 7 stones of the subtraction game and the empty
        tic-tac-toe board.
    search : callable() -> search, optional
        A factory of fresh recording searches (see the module docstring); by default
        :func:`recording_uct_factory` with ``exploration``, ``seed`` and ``expansion``.
    exploration, seed, expansion :
        The default search's parameters (ignored when ``search`` is given). The reader
        changes ``exploration`` in the box "c" (0 to :data:`MAX_C`), which starts a fresh
        tree; with ``search`` given the box is disabled.
    depth : int
        Levels drawn below the root at first (the slider changes it).
    min_visits : int
        Children with fewer visits are folded into "+k more" (the slider changes it).
    run_iterations : int
        What "run N" runs at first (1 to :data:`MAX_RUN`).
    phase_seconds : float
        How long each phase stays on screen when "one iteration" plays them (0 to 10).

    The widget's contract (tests/test_jupyterlab_tree_explorer.py): buttons
    ``tree-explorer-one``, ``-phase``, ``-run``, ``-reset``; HTML ``tree-explorer-caption``,
    ``-tree`` (the SVG; tree nodes are ``g.tree-node``, the one the playout starts from
    also ``g.tree-new``), ``-selection`` (the tables, the pick in a highlighted row),
    ``-details`` and ``-status``; the box ``tree-explorer-c`` and the menu
    ``tree-explorer-game``.
    """

    def __init__(self, state=None, search: Callable | None = None, *,
                 exploration: float = math.sqrt(2.0), seed=TREE_SEED, expansion: str = "all",
                 depth: int = 3, min_visits: int = 1, run_iterations: int = 100,
                 phase_seconds: float = PHASE_SECONDS):
        exploration = check_real("exploration", exploration, 0.0, MAX_C)
        factory = search if search is not None else recording_uct_factory(exploration, seed,
                                                                         expansion)
        self._make_search = (None if search is not None
                             else lambda c: recording_uct_factory(c, seed, expansion))
        depth = check_int("depth", depth, 1, MAX_DEPTH_SHOWN)
        run_iterations = check_int("run_iterations", run_iterations, 1, MAX_RUN)
        self.phase_seconds = check_real("phase_seconds", phase_seconds, 0.0, 10.0)
        self.positions = _positions(state)
        self.session = ExplorerSession(next(iter(self.positions.values())), factory,
                                       depth, min_visits)

        def button(text, name, tip):
            made = widgets.Button(description=text, tooltip=tip,
                                  layout=widgets.Layout(width="auto"))
            made.add_class(f"tree-explorer-{name}")
            return made

        self.one = button("one iteration", "one", "Selection, expansion, simulation and "
                          "backpropagation, shown in turn")
        self.phase_button = button("next phase", "phase", "Run one phase of the iteration")
        self.run_button = button(f"run {run_iterations}", "run", "Run N iterations at once")
        self.reset_button = button("reset", "reset", "Start again from the root alone")
        self.run_count = widgets.BoundedIntText(value=run_iterations, min=1, max=MAX_RUN,
                                                description="N", layout=widgets.Layout(width="150px"))
        self.depth = widgets.IntSlider(value=depth, min=1, max=MAX_DEPTH_SHOWN,
                                       description="depth shown", continuous_update=False,
                                       style={"description_width": "initial"})
        self.fold = widgets.IntSlider(value=self.session.min_visits, min=0, max=50,
                                      description="fold below (visits)",
                                      continuous_update=False,
                                      style={"description_width": "initial"})
        self.c_box = widgets.BoundedFloatText(value=exploration, min=0.0, max=MAX_C, step=0.1,
                                              description="c", disabled=search is not None,
                                              layout=widgets.Layout(width="130px"))
        self.game = widgets.Dropdown(options=list(self.positions), description="game",
                                     layout=widgets.Layout(
                                         width="300px",
                                         display=None if len(self.positions) > 1 else "none"))
        self.caption = widgets.HTML()
        self.selection = widgets.HTML()
        self.tree = widgets.HTML(layout=widgets.Layout(flex="1 1 auto", min_width="0"))
        self.details = widgets.HTML(layout=widgets.Layout(width="250px", flex="0 0 250px"))
        self.status = widgets.HTML()
        self.node_list = widgets.Dropdown(description="node", layout=widgets.Layout(width="320px"))
        self.pick_box = widgets.Text(layout=widgets.Layout(display="none"))
        for widget, name in ((self.caption, "caption"), (self.tree, "tree"),
                             (self.selection, "selection"), (self.c_box, "c"),
                             (self.game, "game"),
                             (self.details, "details"), (self.status, "status"),
                             (self.node_list, "node"), (self.pick_box, "pick"),
                             (self.depth, "depth"), (self.fold, "fold")):
            widget.add_class(f"tree-explorer-{name}")
        self._quiet = False

        self.one.on_click(lambda _: self._guarded(self._one_iteration))
        self.phase_button.on_click(lambda _: self._guarded(self._next_phase))
        self.run_button.on_click(lambda _: self._guarded(self._run))
        self.reset_button.on_click(lambda _: self._guarded(self._reset))
        self.run_count.observe(self._count_changed, "value")
        self.depth.observe(self._view_changed, "value")
        self.fold.observe(self._view_changed, "value")
        self.pick_box.observe(self._clicked, "value")
        self.node_list.observe(self._listed, "value")
        self.c_box.observe(self._c_changed, "value")
        self.game.observe(self._game_changed, "value")

        buttons = widgets.HBox([self.one, self.phase_button, self.run_button, self.run_count,
                                self.reset_button])
        search_row = widgets.HBox([self.c_box, self.game])  # what is searched
        sliders = widgets.HBox([self.depth, self.fold, self.node_list])  # what is drawn
        super().__init__([buttons, search_row, sliders, self.caption, self.selection,
                          widgets.HBox([self.tree, self.details]), self.status, self.pick_box])
        self.add_class("tree-explorer")
        self.redraw()

    # -- what the buttons do

    def _guarded(self, action) -> None:
        """Run a button's action with the buttons disabled (clicks meanwhile are dropped)."""
        controls = (self.one, self.phase_button, self.run_button, self.reset_button)
        for control in controls:
            control.disabled = True
        try:
            action()
        finally:
            for control in controls:
                control.disabled = False

    def _one_iteration(self) -> None:
        # Finishes an iteration under way, else plays all four phases, each for a moment.
        for left in range(self.session.phases_left(), 0, -1):
            self.session.next_phase()
            self.redraw()
            if left > 1 and self.phase_seconds:
                time.sleep(self.phase_seconds)

    def _next_phase(self) -> None:
        self.session.next_phase()
        self.redraw()

    def _run(self) -> None:
        self.session.run(self.run_count.value)
        self.redraw()

    def _reset(self) -> None:
        self.session.reset()
        self.redraw()

    def _c_changed(self, change) -> None:
        if self._make_search is not None:
            self.session.restart(search_factory=self._make_search(change["new"]))
            self.redraw()

    def _game_changed(self, change) -> None:
        self.session.restart(state=self.positions[change["new"]])
        self.redraw()

    def _count_changed(self, change) -> None:
        self.run_button.description = f"run {change['new']}"

    def _view_changed(self, _change) -> None:
        self.session.depth, self.session.min_visits = self.depth.value, self.fold.value
        self.redraw()

    def _clicked(self, change) -> None:
        if change["new"]:
            self._select(change["new"])
            self.pick_box.value = ""  # so that a second click on the same node counts too

    def _listed(self, change) -> None:
        if not self._quiet and change["new"]:
            self._select(change["new"])

    def _select(self, name: str) -> None:
        try:
            self.session.pick(name)
        except ValueError:
            return  # a stale click on a picture drawn before a reset
        self.redraw()

    # -- drawing

    def redraw(self) -> None:
        """Draw the tree, the caption, the picked node and the status line again."""
        session = self.session
        try:
            svg, drawn = session.picture()
        except ValueError as error:  # too many nodes to draw: say how to see fewer
            self.caption.value = f"<b style='color:#b2182b'>{html.escape(str(error))}</b>"
            return
        phase = session.phase or ""
        self.caption.value = (f"<div class='tree-explorer-phase-{phase or 'none'}' "
                              "style='display:flex;gap:10px;align-items:center;min-height:2.6em'>"
                              f"<img src='{four_phases_data_uri(session.phase)}' alt='' "
                              "style='width:240px;flex:0 0 240px;background:white'>"
                              f"<div>{html.escape(session.mark.caption)}</div></div>")
        self.selection.value = session.selection_html()
        svg, wide = fitted_svg(svg)
        self.tree.value = (f"{_TREE_STYLE}<div class='tree-explorer-svg' onclick=\"{_ON_CLICK}\" "
                           f"style='overflow:auto;max-height:640px;background:white'>{svg}"
                           f"{_FOLLOW}</div>")
        self.details.value = session.details_html()
        self.status.value = (f"<span style='font-size:12px'>{session.iterations:,} iterations"
                             f" \u00b7 {drawn.total:,} nodes in the tree \u00b7 {len(drawn.nodes):,}"
                             f" drawn, {drawn.folded:,} folded into \u201c+k more\u201d"
                             + (" \u00b7 a wide tree: scroll sideways, or show fewer levels or "
                                "fold more" if wide else "") + "</span>")
        self._quiet = True
        try:
            self.node_list.options = session.node_choices(drawn)
            names = list(drawn.nodes)
            picked = node_id(session.picked)
            self.node_list.value = picked if picked in names else None
        finally:
            self._quiet = False


def _positions(state) -> dict:
    """The explorer's starting positions by name: one given, several given, or the default two."""
    if state is None:
        return {"subtraction game, 7 stones": SubtractionGame(7), "tic-tac-toe": TicTacToe()}
    if isinstance(state, dict):
        if not state or not all(isinstance(name, str) for name in state):
            raise ValueError("state must be a game position or a non-empty dict of names to "
                             "positions.")
        return {name: _still_on(check_game_state(s)) for name, s in state.items()}
    return {str(state).replace("\n", " / "): _still_on(check_game_state(state))}


def _still_on(state: GameState) -> GameState:
    if state.is_terminal():
        raise ValueError("state must be a game still on: a finished game has no tree to grow.")
    return state


__all__ = ["MAX_C", "MAX_RUN", "ExplorerSession", "TreeExplorer", "fitted_svg",
           "recording_uct_factory"]
