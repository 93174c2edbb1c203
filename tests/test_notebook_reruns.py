"""A learner re-runs cells: each chapter must print the same thing the second time.

nbval checks that a fresh kernel running a chapter top to bottom reproduces the stored
outputs. A learner does more: re-runs the cell they just ran, or scrolls back up and
re-runs an earlier section after the whole chapter has run. Two patterns catch the ways a
notebook breaks under that:

1. **Each cell twice in a row.** Cell k runs, then runs again at once; both runs must print
   the same. This catches state that grows across runs (a tree a cell keeps iterating, a
   list it appends to, a random generator created in an earlier cell and drawn from here).
2. **A second pass.** After the whole chapter has run, every cell runs again in order in the
   same kernel and must print what it printed in the first pass. This catches a section that
   relies on a name a later section rebinds (a budget constant, `run`, `result`).

Text outputs are compared (printed lines, the text of results, errors). Cells tagged
``nbval-ignore-output`` (timings, live widgets) are run but not compared, as under nbval.

Run one chapter by hand: ``python tests/test_notebook_reruns.py notebooks/01_flat_monte_carlo.ipynb``.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parent.parent
#: Every chapter, the longest first (three runs of each chapter; the selected chapters are run
#: two at a time, one kernel per core, so that this check costs half its length in CI).
CHAPTERS = [
    "05_uttt_tuning",
    "06_simultaneous_moves",
    "07_enhancements",
    "01_flat_monte_carlo",
    "02_bandits",
    "03_ucb1_by_hand",
    "04_uct",
    "04b_testing_a_search",
]
IGNORE_TAG = "nbval-ignore-output"


def text_of(outputs) -> str:
    """What a reader sees of a cell's outputs, as text (images by their text stand-in)."""
    parts = []
    for output in outputs:
        kind = output.get("output_type")
        if kind == "stream":
            # One print can arrive in several messages, split wherever the kernel flushed:
            # adjacent pieces of the same stream are one text.
            header = f"[{output.get('name')}]"
            if parts and parts[-1].startswith(header):
                parts[-1] += output.get("text", "")
            else:
                parts.append(header + output.get("text", ""))
        elif kind in ("execute_result", "display_data"):
            parts.append(str(output.get("data", {}).get("text/plain", "")))
        elif kind == "error":
            parts.append(f"[error]{output.get('ename')}: {output.get('evalue')}")
    return "\n".join(parts)


def rerun_differences(path: Path, timeout: int = 900) -> list[str]:
    """Run a notebook in the two re-run patterns; return one sentence per difference."""
    notebook = nbformat.read(path, as_version=4)
    os.environ["MCTSLIB_PROGRESS"] = "0"
    client = NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    code = [(index, cell) for index, cell in enumerate(notebook.cells) if cell.cell_type == "code"]
    problems: list[str] = []
    first_pass: dict[int, str] = {}

    def run(index, cell, label):
        try:
            client.execute_cell(cell, index)
        except CellExecutionError as error:  # the error itself is the difference to report
            problems.append(f"code cell {code_number[index]} failed on its {label}: "
                            f"{str(error).strip().splitlines()[-1]}")
            return None
        return text_of(cell.outputs)

    code_number = {index: number for number, (index, _) in enumerate(code)}
    with client.setup_kernel():
        for index, cell in code:
            compared = IGNORE_TAG not in cell.metadata.get("tags", [])
            once = run(index, cell, "first run")
            twice = run(index, cell, "immediate re-run")
            if once is None or twice is None:
                return problems  # later cells depend on this one: stop at the first failure
            first_pass[index] = once
            if compared and twice != once:
                problems.append(f"code cell {code_number[index]} prints something else when "
                                f"re-run at once:\n--- first run\n{once}\n--- re-run\n{twice}")
        for index, cell in code:
            again = run(index, cell, "second pass")
            if again is None:
                return problems
            if IGNORE_TAG not in cell.metadata.get("tags", []) and again != first_pass[index]:
                problems.append(f"code cell {code_number[index]} prints something else in a "
                                f"second pass after the whole chapter ran:\n--- first pass\n"
                                f"{first_pass[index]}\n--- second pass\n{again}")
    return problems


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@pytest.fixture(scope="session")
def rerun_problems(request):
    """Each selected chapter's differences, the chapters run in parallel kernels (one a core).

    A chapter's kernel runs on one core, so on CI's two cores two chapters at a time halve
    the wall time; the result of each chapter does not depend on what runs beside it (every
    output compared here is independent of timing; timed cells are ignored).
    """
    selected = [item.callspec.params["chapter"] for item in request.session.items
                # nbval's notebook cells are items too, without these attributes
                if getattr(item, "originalname", None) == "test_chapter_survives_reruns"]
    chapters = [chapter for chapter in CHAPTERS if chapter in selected]
    paths = [ROOT / "notebooks" / f"{chapter}.ipynb" for chapter in chapters]
    workers = max(1, min(2, _cores(), len(paths)))
    # spawn: a fresh interpreter per worker, not a fork of pytest's process and its threads
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        return dict(zip(chapters, pool.map(rerun_differences, paths)))


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_survives_reruns(chapter, rerun_problems):
    problems = rerun_problems[chapter]
    assert not problems, "\n\n".join(problems)


def test_rerun_check_catches_a_cell_whose_output_grows(tmp_path):
    """The check itself: a cell that appends to a list defined earlier must be reported."""
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    notebook.cells = [nbformat.v4.new_code_cell("seen = []"),
                      nbformat.v4.new_code_cell("seen.append(1)\nprint(len(seen))"),
                      nbformat.v4.new_code_cell("BUDGET = 10"),
                      nbformat.v4.new_code_cell("print(sum(range(BUDGET)))"),
                      nbformat.v4.new_code_cell("BUDGET = 20")]
    path = tmp_path / "growing.ipynb"
    nbformat.write(notebook, path)
    problems = rerun_differences(path)
    assert any("code cell 1 prints something else when re-run at once" in p for p in problems)
    assert not any("code cell 3" in p for p in problems), "BUDGET is rebound before cell 3 runs again"


def test_rerun_check_catches_a_section_that_reads_a_later_rebinding(tmp_path):
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    notebook.cells = [nbformat.v4.new_code_cell("print(sum(range(BUDGET)) if 'BUDGET' in dir() else 0)"),
                      nbformat.v4.new_code_cell("BUDGET = 20")]
    path = tmp_path / "rebound.ipynb"
    nbformat.write(notebook, path)
    problems = rerun_differences(path)
    assert len(problems) == 1 and "code cell 0 prints something else in a second pass" in problems[0]


if __name__ == "__main__":
    found = False
    for name in sys.argv[1:]:
        for problem in rerun_differences(Path(name).resolve()):
            found = True
            print(problem, end="\n\n")
    print("differences found" if found else "every cell prints the same when re-run")
    sys.exit(1 if found else 0)
