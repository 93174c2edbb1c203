"""The tree explorer in JupyterLab, as a reader uses it: Run All, three iterations, one click.

A throw-away notebook (written to a temporary folder, never the repository) shows
``TreeExplorer`` on the empty tic-tac-toe board with a short pause between phases. The
test opens it in JupyterLab in headless Chromium, runs every cell and presses
"one iteration" three times. A MutationObserver in the page records every caption the
reader sees. After each press it checks that:

- the four phase captions of that iteration appeared, in order (selection, expansion,
  simulation, backpropagation);
- the tree drawn has one node more (from the empty board each of the first nine
  iterations visits one new root child, and unvisited children are folded), and exactly
  one node is marked as the one the playout started from.

Then it clicks a node of the SVG and reads its statistics in the side panel. Using the
widget must log no console error, and no request may leave 127.0.0.1.

The widget's contract (mctslib.views.tree_explorer.TreeExplorer): button
``tree-explorer-one``; HTML ``tree-explorer-caption``, ``tree-explorer-tree`` (SVG tree
nodes ``g.tree-node`` with ids ``tn-<name>``, the new one also ``g.tree-new``),
``tree-explorer-details`` and ``tree-explorer-status``.
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
                             "TreeExplorer(seed=2026, phase_seconds=0.4)")
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

    # A click on the first root child (an SVG node) shows its statistics at the side.
    page.locator(".tree-explorer-svg g#tn-n_0").click()
    wait_for(page, "() => document.querySelector('.tree-explorer-details').innerText"
                   ".includes('parent visits')", 10_000, "clicking a node showed no statistics")
    details = page.locator(".tree-explorer-details").inner_text()
    assert re.search(r"parent visits\s+3", details), f"unexpected statistics: {details!r}"
    assert not errors, "using the explorer logged console errors:\n" + "\n".join(errors)
    finish_page(page, network, screenshot_dir / "jupyterlab-tree-explorer.png", ".tree-explorer")
