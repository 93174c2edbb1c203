"""Run chapter notebooks top to bottom on a clean kernel and store their outputs.

    python scripts/execute_notebooks.py                 # every chapter
    python scripts/execute_notebooks.py notebooks/02_bandits.ipynb

The stored outputs are what the published book shows and what nbval compares a
fresh run against, so run this after changing a chapter or the library. Widget
state is stored too, so the static book can draw the widgets. Progress bars are
turned off (MCTSLIB_PROGRESS=0): their timings would differ on every run.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent


def execute(path: Path, timeout: int) -> float:
    notebook = nbformat.read(path, as_version=4)
    os.environ["MCTSLIB_PROGRESS"] = "0"
    client = NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        store_widget_state=True,
        record_timing=False,
    )
    start = time.perf_counter()
    client.execute()
    elapsed = time.perf_counter() - start
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
    nbformat.write(notebook, path)
    return elapsed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("notebooks", nargs="*", type=Path, help="notebooks to run (default: all chapters)")
    parser.add_argument("--timeout", type=int, default=900, help="seconds allowed per cell")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "notebooks").glob("*.ipynb"))
    for path in paths:
        seconds = execute(path.resolve(), args.timeout)
        print(f"{path}: executed in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
