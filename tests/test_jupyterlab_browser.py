"""Chapter 3 in JupyterLab, as a learner runs it: open, Run All, edit the UCB1 table.

JupyterLab serves a temporary copy of ``notebooks/`` on 127.0.0.1. The test clears the
stored outputs (Edit menu), runs every cell (Run menu), waits for the kernel to finish and
checks that no cell raised. Then it edits the UCB1 table widget and checks that the chosen
child changes as the hand computation says:

- default table: A 4 wins of 6 visits, B 1 of 3, C 0 of 1, so N = 10, and c = sqrt(2):
  A = 4/6 + sqrt(2 ln 10 / 6) = 1.543, B = 1/3 + sqrt(2 ln 10 / 3) = 1.572,
  C = 0 + sqrt(2 ln 10 / 1) = 2.146, so UCB1 descends into C;
- C tried and lost again (0 of 2, N = 11): A = 1.561, B = 1.598, C = 1.549, so B.

The widget's contract (mctslib's UCB1 table): inputs with classes ``ucb1-wins-<i>``,
``ucb1-visits-<i>`` and ``ucb1-c`` (ipywidgets puts the class on the widget's outer div,
the <input> is inside), and an HTML output ``ucb1-result`` whose text says ``chosen: <NAME>``.
"""

from __future__ import annotations

import math

import pytest
from browser import REPO, assert_stayed_local, jupyterlab, open_and_run_all, wait_for
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser

NOTEBOOK = "03_ucb1_by_hand.ipynb"
RUN_TIMEOUT_MS = 120_000


def ucb1_choice(wins, visits, c):
    """The child UCB1 descends into: highest mean + c * sqrt(ln N / n) (first on ties)."""
    total = sum(visits)
    scores = [w / n + c * math.sqrt(math.log(total) / n) for w, n in zip(wins, visits)]
    return "ABC"[scores.index(max(scores))]


def test_hand_computation_behind_the_expected_choices():
    """The two expectations below, recomputed from the formula (not from mctslib)."""
    assert ucb1_choice([4, 1, 0], [6, 3, 1], math.sqrt(2)) == "C"
    assert ucb1_choice([4, 1, 0], [6, 3, 2], math.sqrt(2)) == "B"


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab on a copy of notebooks/; stopped (kernels too) whatever the test does."""
    notebooks = REPO / "notebooks"
    if not (notebooks / NOTEBOOK).is_file():
        pytest.fail(f"{notebooks / NOTEBOOK} does not exist")
    with jupyterlab(notebooks, tmp_path_factory.mktemp("jupyterlab")) as server:
        yield server


def widget_input(page, css_class: str):
    """The <input> of the widget with ``css_class`` (the class sits on its outer div)."""
    return page.locator(f".{css_class} input, input.{css_class}").first


def test_run_all_then_edit_the_ucb1_table(lab, lab_browser, screenshot_dir):
    context, network = lab_browser
    # Cleared first: the stored outputs must not count.
    page = open_and_run_all(context, lab, NOTEBOOK, RUN_TIMEOUT_MS, clear_outputs=True)

    has_table = "() => document.querySelector('.ucb1-result') !== null"
    wait_for(page, has_table, 15_000, "no UCB1 table (an element with class ucb1-result)")
    result = page.locator(".ucb1-result").first
    result.scroll_into_view_if_needed()
    assert "chosen: C" in result.inner_text(), f"default table says {result.inner_text()!r}"
    assert [widget_input(page, f"ucb1-wins-{i}").input_value() for i in range(3)] == ["4", "1", "0"]
    assert [widget_input(page, f"ucb1-visits-{i}").input_value() for i in range(3)] == [
        "6",
        "3",
        "1",
    ]
    assert float(widget_input(page, "ucb1-c").input_value()) == pytest.approx(
        math.sqrt(2), abs=1e-3
    )

    visits_c = widget_input(page, "ucb1-visits-2")
    visits_c.fill("2")
    visits_c.press("Enter")  # IntText sends its value on Enter (or when it loses focus)
    try:
        page.wait_for_function(
            "() => document.querySelector('.ucb1-result').innerText.includes('chosen: B')",
            timeout=15_000,
        )
    except PlaywrightTimeout:
        pass  # the assertion below says what the table shows
    shot = screenshot_dir / "jupyterlab-03_ucb1_by_hand.png"
    page.screenshot(path=str(shot))
    print(f"\nscreenshot of JupyterLab: {shot}")
    assert "chosen: B" in result.inner_text(), (
        f"after setting C's visits to 2 the table says {result.inner_text()!r}"
    )

    assert_stayed_local(network)
    page.close()
