"""Progress bars only where a person watches (mctslib.progress).

A command whose stderr is a log file, a pipe or a CI job draws no bar (no carriage
returns), and its final lines are the same as a run in a terminal; in a terminal the bar is
drawn; in a Jupyter kernel, whose stderr is not a terminal either, the bar is a widget; and
``MCTSLIB_PROGRESS=0`` turns every bar off (how notebooks are executed and checked by nbval).
"""

from __future__ import annotations

import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
#: A match long enough to update its bar, short enough for a test (random players).
MATCH = [sys.executable, "-m", "mctslib", "match", "uttt", "--a", "random", "--b", "random",
         "--games", "40", "--seed", "3", "--jobs", "1"]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _environment() -> dict:
    """This environment without ``MCTSLIB_PROGRESS`` (the test runner sets it to 0)."""
    return {key: value for key, value in os.environ.items() if key != "MCTSLIB_PROGRESS"}


def _report(stdout: str) -> list[str]:
    """The command's final lines, less the measured seconds per move (they vary)."""
    return [line for line in stdout.splitlines() if not line.startswith("seconds per move:")]


def _run_with_stderr_on_a_terminal() -> tuple[str, bytes]:
    """Run MATCH with stderr on a pseudo-terminal (as in a person's shell): (stdout, stderr)."""
    controller, terminal = pty.openpty()
    # A new pseudo-terminal has 0 rows, where tqdm draws nothing: give it a shell's 24 x 100.
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    try:
        process = subprocess.Popen(MATCH, cwd=ROOT, env=_environment(), stdout=subprocess.PIPE,
                                   stderr=terminal, stdin=subprocess.DEVNULL, text=True)
    finally:
        os.close(terminal)  # the child holds its own copy
    seen = b""
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # EIO on Linux once the child has closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    os.close(controller)
    stdout = process.stdout.read()
    assert process.wait(timeout=120) == 0, (stdout, seen)
    return stdout, seen


def test_a_command_writing_to_a_pipe_draws_no_bar_and_prints_the_same_lines():
    piped = subprocess.run(MATCH, cwd=ROOT, env=_environment(), capture_output=True, text=True,
                           timeout=120, check=True)
    assert "\r" not in piped.stderr and "\r" not in piped.stdout
    assert piped.stderr == ""
    in_terminal, terminal_bytes = _run_with_stderr_on_a_terminal()
    # The control: a person at a terminal does see the bar (carriage returns and its label).
    assert b"\r" in terminal_bytes and b"games" in terminal_bytes
    report = _report(piped.stdout)
    assert report == _report(in_terminal) and len(report) == 6 and "1 worker process" in report[0]
    assert report[3].startswith("40 games (A moved first in 20): A won ")


def test_a_notebook_shows_the_bar_as_a_widget_unless_progress_is_off():
    """In a Jupyter kernel stderr is no terminal, but a person watches: tqdm.auto draws a widget."""
    cell = ("import os\n"
            "from tqdm.notebook import tqdm_notebook\n"
            "from mctslib.progress import progress_bar\n"
            "os.environ.pop('MCTSLIB_PROGRESS', None)\n"
            "with progress_bar(3, 'shown') as bar:\n"
            "    bar.update(3)\n"
            "    print(isinstance(bar, tqdm_notebook), bar.disable)\n")
    quiet = ("os.environ['MCTSLIB_PROGRESS'] = '0'\n"
             "with progress_bar(3, 'hidden') as bar:\n"
             "    bar.update(3)\n"
             "    print(bar.disable)\n")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell),
                                               nbformat.v4.new_code_cell(quiet)])
    NotebookClient(notebook, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(ROOT)}}).execute()
    shown, hidden = (cell.outputs for cell in notebook.cells)
    assert any(WIDGET_VIEW in output.get("data", {}) for output in shown), shown
    assert [o.text for o in shown if o.output_type == "stream"] == ["True False\n"]
    assert [o.get("text") for o in hidden] == ["True\n"], hidden
