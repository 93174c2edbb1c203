"""The tree explorer without a browser: the drawing, the phase records, the widget's logic.

- the DOT source of a small tree built by hand: which nodes are drawn, their sizes and
  colours, the most visited path, folding into "+k more", the depth limit, marked nodes;
- the records of UCT's phases on the subtraction game with a fixed seed, and that the
  recording search grows exactly UCTSearch's tree for the same seed;
- the widget's buttons, clicks and sliders driven from Python;
- static pictures for the book, and bad inputs refused with a sentence.
"""

from __future__ import annotations

import math
import re

import pytest

from mctslib.games import SubtractionGame, SumToFifteen, TicTacToe
from mctslib.search.uct import Node, UCB1Rule, UCTSearch
from mctslib.views.tree_explorer import (
    MIN_SCALE,
    ExplorerSession,
    TreeExplorer,
    fitted_svg,
    recording_uct_factory,
)
from mctslib.views.tree_layout import (
    PHASES,
    Highlight,
    RecordingUCTSearch,
    find_node,
    mean_colour,
    node_id,
    node_stats,
    phase_highlight,
    position_html,
    principal_variation,
    render_svg,
    state_of,
    static_steps,
    tree_to_dot,
)

# ------------------------------------------------------------------- reading DOT source back

_STATEMENT = re.compile(r"^\s*(\w+)(?: -> (\w+))? \[(.*)\]$", re.DOTALL)
_ATTRIBUTE = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)')


def parse_dot(source: str) -> tuple[dict, dict]:
    """Node and edge statements of DOT text: {name: attrs}, {(tail, head): attrs}."""
    nodes, edges = {}, {}
    # Statements end at a newline outside quotes; labels hold escaped newlines only.
    for line in source.splitlines():
        match = _STATEMENT.match(line)
        if not match or match.group(1) in ("graph", "node", "edge"):
            continue
        attrs = {key: value.strip('"') for key, value in _ATTRIBUTE.findall(match.group(3))}
        if match.group(2):
            edges[match.group(1), match.group(2)] = attrs
        else:
            nodes[match.group(1)] = attrs
    return nodes, edges


def grow(parent: Node, move, visits: int, wins: float) -> Node:
    child = Node(move, 0 if parent.mover in (None, 1) else 1, parent)
    child.visits, child.wins = visits, wins
    parent.children.append(child)
    return child


@pytest.fixture
def small_tree() -> Node:
    """root (10 visits) -> a (6, mean .75) -> a0 (4, mean .5), a1 (1); b (3, mean 0); c (1); d (0)."""
    root = Node(None, None, None)
    root.visits, root.wins = 10, 4.0
    a = grow(root, 0, 6, 4.5)
    grow(root, 1, 3, 0.0)
    grow(root, 2, 1, 0.5)
    grow(root, 3, 0, 0.0)
    grow(a, 4, 4, 2.0)
    grow(a, 5, 1, 1.0)
    return root


def tree_nodes(nodes: dict) -> dict:
    return {name: attrs for name, attrs in nodes.items() if "tree-node" in attrs.get("class", "")}


def test_small_tree_nodes_sizes_colours_and_folds(small_tree):
    drawn = tree_to_dot(small_tree, min_visits=2)
    nodes, edges = parse_dot(drawn.source)
    drawn_nodes = tree_nodes(nodes)
    assert set(drawn_nodes) == {"n", "n_0", "n_1", "n_0_0"}, "wrong node set for min_visits=2"
    assert set(drawn.nodes) == set(drawn_nodes) and drawn.total == 7 and drawn.folded == 3
    # Size: 0.32 + 0.68 * sqrt(visits / root visits) inches, so the root is the biggest.
    for name, visits in (("n", 10), ("n_0", 6), ("n_1", 3), ("n_0_0", 4)):
        expected = 0.32 + 0.68 * math.sqrt(visits / 10)
        assert float(drawn_nodes[name]["width"]) == pytest.approx(expected, abs=0.006), name
        assert drawn_nodes[name]["label"] == str(visits), f"{name} is labelled by its visits"
    # Colour: mean of the move for its mover, on the diverging map (RdBu anchors).
    assert drawn_nodes["n_0"]["fillcolor"] == mean_colour(0.75) == "#67a9cf"
    assert drawn_nodes["n_1"]["fillcolor"] == mean_colour(0.0) == "#b2182b"
    assert drawn_nodes["n_0_0"]["fillcolor"] == mean_colour(0.5) == "#f7f7f7"
    # Folded: c and d under the root, a1 under a; one box per parent.
    assert nodes["n_more"]["label"] == "+2 more" and nodes["n_0_more"]["label"] == "+1 more"
    assert ("n", "n_more") in edges and ("n_0", "n_0_more") in edges
    # The most visited path root -> a -> a0 is highlighted, the other edges are not.
    pv_edges = {pair for pair, attrs in edges.items() if "tree-pv" in attrs.get("class", "")}
    assert pv_edges == {("n", "n_0"), ("n_0", "n_0_0")}
    assert edges["n", "n_0"]["label"].strip() == "0", "the move is written on its edge"
    assert "legend" in nodes, "the colour legend is drawn"


def test_min_visits_zero_draws_every_child_and_depth_cuts(small_tree):
    nodes, _ = parse_dot(tree_to_dot(small_tree, min_visits=0).source)
    assert set(tree_nodes(nodes)) == {"n", "n_0", "n_1", "n_2", "n_3", "n_0_0", "n_0_1"}
    assert tree_nodes(nodes)["n_3"]["fillcolor"] == "white", "an unvisited node has no mean"
    nodes, _ = parse_dot(tree_to_dot(small_tree, depth=1, min_visits=0).source)
    assert set(tree_nodes(nodes)) == {"n", "n_0", "n_1", "n_2", "n_3"}
    assert "tree-cut" in nodes["n_0"]["class"] and nodes["n_0"]["peripheries"] == "2", \
        "a node whose children are below the depth shown gets a double ring"


def test_marked_nodes_are_drawn_whatever_the_threshold(small_tree):
    d = small_tree.children[3]   # unvisited: folded by min_visits=1 unless marked
    a1 = small_tree.children[0].children[1]
    mark = Highlight(lit=(small_tree, d), new=d, notes=((a1, "+1"),))
    nodes, edges = parse_dot(tree_to_dot(small_tree, depth=1, min_visits=2, highlight=mark).source)
    assert {"n_3", "n_0_1"} <= set(tree_nodes(nodes))
    assert "tree-new" in nodes["n_3"]["class"] and "tree-lit" in edges["n", "n_3"]["class"]
    assert nodes["n_0_1"]["label"] == "1\\n+1", "a backed-up node shows its reward"


def test_svg_has_one_group_per_tree_node(small_tree):
    svg = render_svg(tree_to_dot(small_tree, min_visits=2))
    assert svg.startswith("<svg")
    ids = re.findall(r'<g id="tn-(n[\d_]*)" class="node tree-node', svg)
    assert sorted(ids) == sorted(["n", "n_0", "n_1", "n_0_0"])


def test_node_names_round_trip(small_tree):
    for node in (small_tree, small_tree.children[2], small_tree.children[0].children[1]):
        assert find_node(small_tree, node_id(node)) is node
    assert node_id(small_tree.children[0].children[1]) == "n_0_1"
    assert principal_variation(small_tree) == (small_tree, small_tree.children[0],
                                               small_tree.children[0].children[0])


def test_mean_colour_runs_red_white_blue():
    assert (mean_colour(0), mean_colour(0.5), mean_colour(1)) == ("#b2182b", "#f7f7f7", "#2166ac")
    reds = [int(mean_colour(m / 10)[1:3], 16) for m in range(11)]
    assert reds[5] > reds[10] and reds[5] > reds[0], "the middle is the lightest"


# ------------------------------------------------------------------------- the phase records


def test_phase_records_on_the_subtraction_game():
    search = RecordingUCTSearch(1.0, iterations=10, seed=2026)
    root = search.begin(SubtractionGame(7))
    records = [(record.phase, record.number) for record in search.step()]
    assert records == [(phase, 1) for phase in PHASES], "one record after each phase, in order"
    first = search.last
    assert first.path == (root,), "the first selection stops at the root"
    assert [n.move for n in first.added] == [2, 1, 3], "all three takes, shuffled by the seed"
    assert first.start is root.children[0] and first.first_visit
    assert first.playout == (1, 2, 1, 1) and first.reward == 1.0
    # 7 - 2 - 1 - 2 - 1 - 1 = 0: the first player took the last stone and wins.
    assert first.final == SubtractionGame(0, 1)
    assert [(n.move, r) for n, r in first.backups] == [(2, 1.0), (None, 0.0)]

    for _ in search.step():
        pass
    second = search.last
    assert [n.move for n in second.path] == [None, 1], "UCB1 tries the unvisited take 1 next"
    assert second.added == () and second.start is root.children[1] and second.first_visit
    assert second.playout == (2, 1, 2, 1) and second.reward == 1.0
    assert [(c.move, c.visits, c.wins) for c in root.children] == [(2, 1, 1.0), (1, 1, 1.0),
                                                                   (3, 0, 0.0)]


def test_the_tree_stays_as_it_is_between_phases():
    search = RecordingUCTSearch(1.0, iterations=10, seed=1)
    root = search.begin(SubtractionGame(9))
    steps = search.step()
    next(steps)
    assert root.children == [] and root.visits == 0, "selection changes nothing"
    next(steps)
    assert len(root.children) == 3 and all(c.visits == 0 for c in root.children)
    record = next(steps)
    assert root.visits == 0, "simulation backs nothing up"
    state = state_of(SubtractionGame(9), record.start)
    for move in record.playout:
        state = state.play(move)
    assert state.is_terminal() and state.result(record.start.mover) == record.reward
    next(steps)
    assert root.visits == 1 and record.start.visits == 1 and search.iterations_done == 1


def tree_signature(node):
    return (node.move, node.visits, node.wins, tuple(tree_signature(c) for c in node.children))


@pytest.mark.parametrize("state", [TicTacToe(), SubtractionGame(10), SumToFifteen()],
                         ids=["tictactoe", "subtraction", "sum15"])
@pytest.mark.parametrize("expansion", ["all", "one"])
def test_explorer_grows_uctsearchs_tree(state, expansion):
    session = ExplorerSession(state, recording_uct_factory(1.0, 11, expansion), depth=None)
    for _ in range(6):          # one iteration and a half, phase by phase ...
        session.next_phase()
    session.run(150)            # ... then the rest at once (it finishes the one under way)
    assert session.iterations == 152
    reference = UCTSearch(1.0, iterations=152, seed=11, expansion=expansion).search(state)
    assert tree_signature(session.root) == tree_signature(reference), \
        "the explorer's tree differs from UCTSearch's for the same seed"
    recorded = RecordingUCTSearch(1.0, iterations=152, seed=11, expansion=expansion).search(state)
    assert tree_signature(recorded) == tree_signature(reference)


def test_captions_name_each_phase():
    search = RecordingUCTSearch(iterations=10, seed=2026)
    search.begin(TicTacToe())
    captions = [phase_highlight(r, TicTacToe()).caption for r in search.step()]
    assert [c.split(": ")[0] for c in captions] == [
        f"Iteration 1 \u00b7 {i}/4 {p}" for i, p in enumerate(PHASES, 1)]
    assert "9 children were added" in captions[1] and "X wins" in captions[2]


def test_node_stats_match_ucb1(small_tree):
    rule = UCB1Rule(1.5)
    a = small_tree.children[0]
    stats = node_stats(a, rule)
    assert stats.bonus == rule.bonus(a, small_tree) and stats.score == 0.75 + stats.bonus
    assert stats.visits == 6 and stats.wins == 4.5 and stats.parent_visits == 10
    assert math.isinf(node_stats(small_tree.children[3], rule).score)
    assert math.isnan(node_stats(small_tree, rule).bonus) and "UCB1" not in node_stats(
        small_tree, rule).html()


def test_positions_are_drawn():
    board = position_html(TicTacToe.from_string("X../.O./..X"))
    assert board.count(">X</text>") == 2 and board.count(">O</text>") == 1 and "O to move" in board
    square = position_html(SumToFifteen().play(5))
    assert "#2166ac'>5</text>" in square, "the first player's 5 is blue"
    assert "7 stones" in position_html(SubtractionGame(7))


# ------------------------------------------------------------------------------- the widget


def test_widget_buttons_clicks_and_sliders():
    explorer = TreeExplorer(phase_seconds=0)
    for expected in (1, 2, 3):
        explorer.one.click()
        assert explorer.session.iterations == expected
        assert f"Iteration {expected} \u00b7 4/4 backpropagation" in explorer.caption.value
        assert explorer.tree.value.count('class="node tree-node') == 1 + expected
        assert len(re.findall(r'class="node [^"]*tree-new', explorer.tree.value)) == 1, \
            "one node is marked new"
    explorer.phase_button.click()
    assert "Iteration 4 \u00b7 1/4 selection" in explorer.caption.value
    explorer.one.click()      # finishes iteration 4 rather than starting a fifth
    assert explorer.session.iterations == 4 and "4/4" in explorer.caption.value
    explorer.pick_box.value = "n_0"   # what a click on the SVG node tn-n_0 sends
    assert explorer.session.picked is explorer.session.root.children[0]
    assert explorer.pick_box.value == "" and "parent visits" in explorer.details.value
    assert explorer.node_list.value == "n_0"
    explorer.run_count.value = 50
    assert explorer.run_button.description == "run 50"
    explorer.run_button.click()
    assert explorer.session.iterations == 54
    explorer.depth.value = 1
    assert max(name.count("_") for name in explorer.session.drawing().nodes) == 1
    explorer.reset_button.click()
    assert explorer.session.iterations == 0 and explorer.session.root.children == []
    assert explorer.tree.value.count('class="node tree-node') == 1


def test_wide_pictures_shrink_only_so_far():
    svg, wide = fitted_svg('<svg width="900pt" height="90pt" viewBox="0 0 900 90">')
    assert f"clamp({MIN_SCALE * 1200:.0f}px,100%,1200px)" in svg and wide
    svg, wide = fitted_svg('<svg width="150pt" height="90pt" viewBox="0 0 150 90">')
    assert "clamp(150px,100%,200px)" in svg and not wide


def test_missing_dot_program_names_the_fix(small_tree, monkeypatch):
    import graphviz

    def no_dot(*args, **kwargs):
        raise graphviz.ExecutableNotFound(["dot"])

    monkeypatch.setattr(graphviz.Source, "pipe", no_dot)
    with pytest.raises(RuntimeError, match="apt-get install graphviz"):
        render_svg(tree_to_dot(small_tree))


def test_too_big_a_picture_is_refused_in_words(small_tree):
    with pytest.raises(ValueError, match="show fewer levels \\(depth\\) or fold more"):
        tree_to_dot(small_tree, min_visits=0, max_drawn=3)
    assert len(tree_to_dot(small_tree, min_visits=0, max_drawn=7).nodes) == 7


# ------------------------------------------------------------------------- pictures for the book


def test_static_steps_pictures_and_html():
    steps = static_steps(TicTacToe(), iterations=2, seed=2026)
    assert [(p.iteration, p.phase) for p in steps] == [(i, p) for i in (1, 2) for p in PHASES]
    assert all(p.image.startswith(b"<svg") and p.format == "svg" for p in steps)
    page = steps._repr_html_()
    assert page.count("<img ") == 8 and page.count("data:image/svg+xml;base64,") == 8
    assert "alt='Iteration 2 \u00b7 3/4 simulation" in page, "each picture has its caption as alt"
    assert "http" not in page.replace("http://www.w3.org", ""), "nothing loaded from outside"
    assert repr(steps).splitlines()[0].startswith("Iteration 1 \u00b7 1/4 selection")
    last = static_steps(TicTacToe(), iterations=2, seed=2026, phases=("backpropagation",),
                        format="png")
    assert len(last) == 2 and last[0].image.startswith(b"\x89PNG")
    again = static_steps(TicTacToe(), iterations=2, seed=2026)
    assert again.captions() == steps.captions(), "the same seed gives the same steps"


# ------------------------------------------------------------------------------- bad inputs


@pytest.mark.parametrize("call, words", [
    (lambda: tree_to_dot("root"), "root must be a node"),
    (lambda: tree_to_dot(Node(None, None, None), depth=0), "depth must be a whole number >= 1"),
    (lambda: tree_to_dot(Node(None, None, None), min_visits=-1), "min_visits"),
    (lambda: tree_to_dot(Node(None, None, None), highlight="path"), "highlight must be"),
    (lambda: static_steps(TicTacToe(), iterations=0), "iterations must be"),
    (lambda: static_steps(TicTacToe(), phases=["playout"]), "phases must be"),
    (lambda: static_steps(TicTacToe(), format="gif"), "format must be one of"),
    (lambda: static_steps("board"), "state must be a game position"),
    (lambda: TreeExplorer("board"), "state must be a game position"),
    (lambda: TreeExplorer(TicTacToe.from_string("XXX/OO./...")), "game still on"),
    (lambda: TreeExplorer(search=42), "search_factory must be a function"),
    (lambda: TreeExplorer(search=lambda: UCTSearch()), "records its phases"),
    (lambda: TreeExplorer(seed=-1), "seed must be"),
    (lambda: TreeExplorer(exploration=-1), "exploration"),
    (lambda: TreeExplorer(phase_seconds=-1), "phase_seconds"),
    (lambda: TreeExplorer(run_iterations=0), "run_iterations"),
    (lambda: TreeExplorer(depth=0), "depth"),
    (lambda: find_node(Node(None, None, None), "n_4"), "no node 'n_4'"),
    (lambda: find_node(Node(None, None, None), 4), "name must be a node name"),
    (lambda: RecordingUCTSearch().step(), "call begin(state) first"),
])
def test_bad_inputs_are_refused_with_a_sentence(call, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        call()
