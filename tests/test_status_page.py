"""The Status page: the pytest plugin that records nbval results, and the page made from them.

- the plugin (scripts/nbval_status.py), run by a real pytest + nbval on a one-cell notebook in
  a temporary folder, records the notebook's cells, time and result, and merges runs;
- the page (scripts/status_page.py) lists every chapter of ``_toc.yml`` with its time and
  result, the mctslib version, and when and where the run was; without a record it says
  that no run was recorded (a fresh clone builds without one).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))
import status_page
from nbval_status import write_status


def one_cell_notebook(path: Path, printed: str, stored: str) -> None:
    notebook = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell(f"print({printed!r})", execution_count=1)
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=stored + "\n")]
    notebook.cells = [cell]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}  # fmt: skip
    nbformat.write(notebook, path)


def run_nbval(folder: Path, record: Path, *notebooks: str, workers: int = 0) -> int:
    env = dict(os.environ, MCTSBOOK_STATUS_JSON=str(record), PYTHONPATH=str(REPO))
    xdist = ["-n", str(workers), "--dist", "loadfile"] if workers else []
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *notebooks, "--nbval", "--nbval-current-env",
         "-p", "no:cacheprovider", "-p", "scripts.nbval_status", "-q", *xdist],
        cwd=folder, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    return done.returncode


def test_the_plugin_records_each_notebook_and_merges_runs(tmp_path):
    one_cell_notebook(tmp_path / "good.ipynb", "same", "same")
    one_cell_notebook(tmp_path / "bad.ipynb", "printed", "stored")
    record = tmp_path / "status" / "nbval.json"

    assert run_nbval(tmp_path, record, "good.ipynb", "bad.ipynb") != 0  # bad.ipynb differs
    first = json.loads(record.read_text())["notebooks"]
    assert first["good.ipynb"]["result"] == "passed"
    assert (first["good.ipynb"]["passed"], first["good.ipynb"]["failed"]) == (1, 0)
    assert first["bad.ipynb"]["result"] == "failed"
    assert first["bad.ipynb"]["failed"] == 1
    assert first["good.ipynb"]["seconds"] > 0
    assert first["good.ipynb"]["mctslib"] not in ("", "not installed")

    # A later run of one notebook replaces its entry and keeps the other one's.
    one_cell_notebook(tmp_path / "bad.ipynb", "fixed", "fixed")
    assert run_nbval(tmp_path, record, "bad.ipynb") == 0
    second = json.loads(record.read_text())["notebooks"]
    assert second["bad.ipynb"]["result"] == "passed"
    assert second["good.ipynb"] == first["good.ipynb"]


def test_the_record_is_whole_when_two_xdist_workers_share_the_notebooks(tmp_path):
    # scripts/test.sh runs two workers: the controller, which sees every report, writes the
    # record, and the workers' partial views must not overwrite it.
    for name in ("one", "two", "three"):
        one_cell_notebook(tmp_path / f"{name}.ipynb", name, name)
    record = tmp_path / "nbval.json"
    assert run_nbval(tmp_path, record, "one.ipynb", "two.ipynb", "three.ipynb", workers=2) == 0
    notebooks = json.loads(record.read_text())["notebooks"]
    assert sorted(notebooks) == ["one.ipynb", "three.ipynb", "two.ipynb"]
    assert all(entry["passed"] == 1 and entry["result"] == "passed"
               for entry in notebooks.values())


def test_a_run_without_notebooks_leaves_the_record_alone(tmp_path):
    record = tmp_path / "nbval.json"
    (tmp_path / "test_nothing.py").write_text("def test_ok():\n    pass\n")
    assert run_nbval(tmp_path, record, "test_nothing.py") == 0
    assert not record.exists()


@pytest.fixture
def chapters():
    return status_page.toc_notebooks()


def test_the_page_lists_every_chapter_with_time_result_version_and_place(tmp_path, chapters):
    assert chapters, "_toc.yml lists no notebook"
    first, rest = chapters[0], chapters[1:]
    record = write_status(
        {first: {"passed": 7, "failed": 0, "skipped": 1, "seconds": 12.34}},
        tmp_path / "nbval.json",
    )
    page = status_page.render(record, chapters)
    row = next(line for line in page.splitlines() if f"`{Path(first).name}`" in line)
    assert "| 7 |" in row and "12.3 s" in row and "passed" in row
    for path in rest:
        assert f"`{Path(path).name}`" in page, f"{path} is missing from the page"
    entry = record["notebooks"][first]
    assert f"**mctslib version:** {entry['mctslib']}" in page
    assert (
        entry["commit"] in page and entry["system"] in page and f"Python {entry['python']}" in page
    )
    assert status_page.chapter_title(first) in row
    assert "/work/" not in page and "/tmp/" not in page  # no paths of the machine


def test_a_failed_chapter_says_so(tmp_path, chapters):
    record = write_status(
        {chapters[0]: {"passed": 3, "failed": 2, "skipped": 0, "seconds": 1.0}},
        tmp_path / "nbval.json",
    )
    row = next(
        line
        for line in status_page.render(record, chapters).splitlines()
        if f"`{Path(chapters[0]).name}`" in line
    )
    assert "failed" in row and "| 5 |" in row


def test_without_a_record_the_page_says_none_was_made(tmp_path, chapters):
    page = status_page.render(None, chapters)
    assert page.startswith("# Status")
    assert "No test run has been recorded" in page
    out = tmp_path / "status.md"
    status_page.main(["--status", str(tmp_path / "missing.json"), "--out", str(out)])
    assert out.read_text(encoding="utf-8") == page
