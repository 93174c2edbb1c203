"""The re-run check (``scripts/nbval_reruns.py``), run by a real pytest + nbval on small notebooks.

Every chapter is checked by that plugin in ``scripts/test.sh``'s nbval run: each cell run twice
in a row, then the quick cells again after the whole chapter. These tests make sure that it
fails where a learner re-running cells would see something else, names the cell, and passes
notebooks that print the same (including outputs stored as several stream pieces, which nbval
merges in place).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parent.parent


def stored_notebook(path: Path, *sources: str) -> None:
    """A notebook of these code cells with the outputs of one fresh run stored, as nbval wants."""
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    NotebookClient(notebook, timeout=60, kernel_name="python3").execute()
    nbformat.write(notebook, path)


def run_checked(folder: Path, notebook: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, "-m", "pytest", notebook, "--nbval", "--nbval-current-env",
         "-p", "no:cacheprovider", "-p", "scripts.nbval_reruns", "-q", "--color=no"],
        cwd=folder, env=env, capture_output=True, text=True, timeout=300, check=False)


def test_a_cell_whose_output_grows_fails_when_re_run_at_once(tmp_path):
    stored_notebook(tmp_path / "growing.ipynb",
                    "seen = []", "seen.append(1)\nprint(len(seen))", "print('after')")
    done = run_checked(tmp_path, "growing.ipynb")
    assert done.returncode != 0
    assert "growing.ipynb::Cell 1" in done.stdout
    assert "Re-run at once, the cell prints something else" in done.stdout
    assert "1 failed, 2 passed" in done.stdout


def test_a_cell_that_reads_a_later_binding_fails_the_second_pass(tmp_path):
    stored_notebook(tmp_path / "rebound.ipynb",
                    "print(sum(range(BUDGET)) if 'BUDGET' in dir() else 0)", "BUDGET = 20")
    done = run_checked(tmp_path, "rebound.ipynb")
    assert done.returncode != 0
    assert "rebound.ipynb::Cell 1" in done.stdout  # reported at the chapter's last cell
    assert "second pass over its quick cells" in done.stdout
    assert "Cell 0:" in done.stdout


def test_a_later_setting_that_changes_what_an_earlier_cell_prints_is_caught(tmp_path):
    stored_notebook(tmp_path / "setting.ipynb",
                    "import numpy as np\nprint(np.array([1 / 3]))",
                    "np.set_printoptions(precision=2)")
    done = run_checked(tmp_path, "setting.ipynb")
    assert done.returncode != 0
    assert "second pass over its quick cells" in done.stdout


def test_a_notebook_that_prints_the_same_passes(tmp_path):
    # BUDGET is rebound later, but the second pass rebinds it before cell 1 runs again; cell 2's
    # output is stored as several stream pieces (a flush between prints).
    stored_notebook(tmp_path / "steady.ipynb",
                    "BUDGET = 10",
                    "print(sum(range(BUDGET)))",
                    "import sys, time\nprint('a')\nsys.stdout.flush()\ntime.sleep(0.3)\n"
                    "print('b')",
                    "BUDGET = 20")
    stored = nbformat.read(tmp_path / "steady.ipynb", as_version=4)
    assert len(stored.cells[2].outputs) == 2, "the test needs a cell stored in two pieces"
    done = run_checked(tmp_path, "steady.ipynb")
    assert done.returncode == 0, done.stdout
    assert "4 passed" in done.stdout
