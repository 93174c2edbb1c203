"""The tree explorer in JupyterLab, as a reader uses it: Run All, iterations, a click, c, a game.

A throw-away notebook (written to a temporary folder, never the repository) shows
``TreeExplorer`` as the UCT chapter does (7 stones of the subtraction game first, c = 1)
with a short pause between phases. The test opens it in JupyterLab in headless Chromium,
runs every cell and presses "one iteration" three times. A MutationObserver in the page
records every caption the reader sees. After each press it checks that:

- the four phase captions of that iteration appeared, in order (selection, expansion,
  simulation, backpropagation);
- the tree drawn has one node more (each of the first three iterations visits one new root
  child, and unvisited children are folded), and exactly one node is marked as the one the
  playout started from.

Then "next phase" shows the fourth iteration's selection: the table of the root's three
children with the pick highlighted (the first real UCB1 comparison). A click on a node of
the SVG shows its statistics in the side panel. Typing another c starts a fresh tree, and
the game menu switches to tic-tac-toe. Using the widget must log no console error, and no
request may leave 127.0.0.1.

The widget's contract (mctslib.views.tree_explorer.TreeExplorer): buttons
``tree-explorer-one`` and ``tree-explorer-phase``; HTML ``tree-explorer-caption``,
``tree-explorer-tree`` (SVG tree nodes ``g.tree-node`` with ids ``tn-<name>``, the new one
also ``g.tree-new``), ``tree-explorer-selection``, ``tree-explorer-details`` and
``tree-explorer-status``; the box ``tree-explorer-c`` and the menu ``tree-explorer-game``.
"""

from __future__ import annotations

import re

import pytest
from browser import code_notebook, finish_page, jupyterlab_on, open_and_run_all, wait_for

pytestmark = pytest.mark.browser

NOTEBOOK = "tree_explorer.ipynb"
PRESSES = 3
RUN_TIMEOUT_MS = 60_000
ITERATION_TIMEOUT_MS = 20_000
PHASES = ("selection", "expansion", "simulation", "backpropagation")

# Records every caption text shown (the widget replaces the caption's HTML at each phase).
WATCH_CAPTIONS_JS = """() => {
  window.__captions = [];
  const caption = document.querySelector('.tree-explorer-caption');
  const record = () => {
    const text = caption.innerText.trim();
    if (window.__captions[window.__captions.length - 1] !== text) window.__captions.push(text);
  };
  new MutationObserver(record).observe(caption, {childList: true, subtree: true,
                                                 characterData: true});
}"""


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on a folder holding only the explorer notebook; always stopped."""
    notebook = code_notebook("from mctslib.views.tree_explorer import TreeExplorer\n\n"
                             "TreeExplorer(seed=2026, exploration=1.0, phase_seconds=0.4)")
    with jupyterlab_on({NOTEBOOK: notebook}, tmp_path_factory, "tree-explorer") as server:
        yield server


def iterations_done(page) -> int:
    return int(re.match(r"([\d,]+) iterations", page.locator(".tree-explorer-status")
                        .inner_text()).group(1).replace(",", ""))


def test_three_iterations_show_four_phases_each_and_grow_the_tree(lab, lab_browser,
                                                                   screenshot_dir):
    context, network = lab_browser
    page = open_and_run_all(context, lab, NOTEBOOK, RUN_TIMEOUT_MS)
    wait_for(page, "() => document.querySelector('.tree-explorer-svg svg') !== null", 20_000,
             "no tree explorer on the page (a .tree-explorer-svg holding an <svg>)")
    page.locator(".tree-explorer").scroll_into_view_if_needed()
    page.evaluate(WATCH_CAPTIONS_JS)
    errors: list[str] = []  # what the explorer's use logs as console errors (should be none)
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    tree_nodes = page.locator(".tree-explorer-svg g.tree-node")
    assert tree_nodes.count() == 1 and iterations_done(page) == 0, "the tree did not start as a root"

    for press in range(1, PRESSES + 1):
        seen_before = page.evaluate("() => window.__captions.length")
        page.locator("button.tree-explorer-one").click()
        # Done when the status counts the iteration and the button is enabled again.
        wait_for(page, f"""() => document.querySelector('.tree-explorer-status').innerText
                             .startsWith('{press} iterations')
                           && !document.querySelector('button.tree-explorer-one').disabled""",
                 ITERATION_TIMEOUT_MS, f"iteration {press} did not finish")
        captions = page.evaluate("() => window.__captions")[seen_before:]
        phases = [re.search(rf"Iteration {press} · \d/4 (\w+)", text) for text in captions]
        shown = [match.group(1) for match in phases if match]
        assert shown == list(PHASES), (f"press {press}: the captions were {captions}, not the "
                                       "four phases in turn")
        assert tree_nodes.count() == 1 + press, f"press {press}: {tree_nodes.count()} nodes drawn"
        new = page.locator(".tree-explorer-svg g.tree-new")
        assert new.count() == 1, "exactly one node is marked as the playout's start"
        print(f"\npress {press}: {tree_nodes.count()} nodes; captions: {shown}")

    # The fourth selection is the first real comparison: one table, the pick highlighted.
    page.locator("button.tree-explorer-phase").click()
    wait_for(page, "() => document.querySelector('.tree-explorer-caption').innerText"
                   ".includes('Iteration 4 · 1/4 selection')"
                   " && document.querySelector('.tree-explorer-selection table') !== null",
             ITERATION_TIMEOUT_MS, "the fourth selection showed no table")
    selection = page.locator(".tree-explorer-selection")
    assert "picks -2, the highest score" in selection.inner_text(), selection.inner_text()
    assert selection.locator("tr[style*='font-weight:bold']").count() == 1
    assert selection.locator("tr").count() == 4, "a header and the root's three children"

    # A click on the first root child (an SVG node) shows its statistics at the side.
    page.locator(".tree-explorer-svg g#tn-n_0").click()
    wait_for(page, "() => document.querySelector('.tree-explorer-details').innerText"
                   ".includes('parent visits')", 10_000, "clicking a node showed no statistics")
    details = page.locator(".tree-explorer-details").inner_text()
    assert re.search(r"parent visits\s+3", details), f"unexpected statistics: {details!r}"

    # Another c starts a fresh tree; the menu switches the game.
    box = page.locator(".tree-explorer-c input")
    box.fill("2")
    box.press("Enter")
    wait_for(page, "() => document.querySelector('.tree-explorer-status').innerText"
                   ".startsWith('0 iterations')", 10_000, "a new c did not start a fresh tree")
    page.locator(".tree-explorer-game select").select_option(label="tic-tac-toe")
    page.locator("button.tree-explorer-one").click()
    wait_for(page, "() => document.querySelector('.tree-explorer-status').innerText"
                   ".startsWith('1 iterations')", ITERATION_TIMEOUT_MS, "no iteration on tic-tac-toe")
    assert tree_nodes.count() == 2 and "X" in page.locator(".tree-explorer-tree").inner_text()
    assert not errors, "using the explorer logged console errors:\n" + "\n".join(errors)
    finish_page(page, network, screenshot_dir / "jupyterlab-tree-explorer.png", ".tree-explorer")
