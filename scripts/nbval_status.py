"""A pytest plugin that records how each chapter fared under nbval, for the book's Status page.

``scripts/test.sh`` loads it (``-p scripts.nbval_status``). For every notebook whose cells ran
under nbval in this session it stores the cells passed, failed and skipped, the seconds nbval
spent on them (set-up, run and tear-down of every cell, so the kernel start is included) and
when the run finished, in ``_build/status/nbval.json``; notebooks not run in this session keep
their previous entry. ``scripts/status_page.py`` turns the file into ``book/status.md`` when the
book is built. The file lives under ``_build/`` (never committed): a fresh clone has none, and
its Status page says that no test run was recorded yet.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# MCTSBOOK_STATUS_JSON moves the record elsewhere (the plugin's own test writes to a temporary file).
STATUS_JSON = Path(
    os.environ.get("MCTSBOOK_STATUS_JSON") or REPO / "_build" / "status" / "nbval.json"
)
SCHEMA = 1


class NbvalStatus:
    """Collects per-notebook nbval results during a pytest session."""

    def __init__(self, output: Path = STATUS_JSON):
        self.output = output
        self.notebooks: dict[str, dict] = {}

    # pytest hook: one report per phase (setup, call, teardown) of every test item
    def pytest_runtest_logreport(self, report):
        path = report.nodeid.split("::", 1)[0]
        if not path.endswith(".ipynb"):
            return
        entry = self.notebooks.setdefault(
            path, {"passed": 0, "failed": 0, "skipped": 0, "seconds": 0.0}
        )
        entry["seconds"] += report.duration
        if report.when == "call" or report.outcome != "passed":
            # One outcome per cell: the call's, or the set-up/tear-down's if that failed.
            entry[report.outcome] += 1

    def pytest_sessionfinish(self, session, exitstatus):
        if hasattr(session.config, "workerinput"):
            return  # a pytest-xdist worker: the controller gets every report and writes the record
        if not self.notebooks:
            return  # no notebook ran: keep the last record as it is
        write_status(self.notebooks, self.output)


def _git(*args: str) -> str:
    try:
        done = subprocess.run(
            ["git", *args], cwd=REPO, capture_output=True, text=True, timeout=10, check=True
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip()


def run_context() -> dict:
    """Where and on what the tests ran: commit, mctslib version, Python, machine (no paths)."""
    try:
        mctslib_version = version("mctslib")
    except PackageNotFoundError:  # the status page says so rather than failing the tests
        mctslib_version = "not installed"
    return {
        "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "commit": _git("rev-parse", "--short", "HEAD") or "unknown",
        "uncommitted_changes": bool(_git("status", "--porcelain", "--untracked-files=no")),
        "mctslib": mctslib_version,
        "python": platform.python_version(),
        "system": f"{platform.system()} {platform.machine()}",
        "cpus": os.cpu_count() or 0,
        "ci": bool(os.environ.get("CI")),
    }


def write_status(notebooks: dict[str, dict], output: Path = STATUS_JSON) -> dict:
    """Merge this session's notebooks into ``output`` (JSON) and return the merged record."""
    record = {"schema": SCHEMA, "notebooks": {}}
    if output.is_file():
        try:
            previous = json.loads(output.read_text(encoding="utf-8"))
            if previous.get("schema") == SCHEMA:
                record = previous
        except ValueError:
            pass  # a damaged file is replaced
    context = run_context()
    for path, entry in notebooks.items():
        result = "failed" if entry["failed"] else ("passed" if entry["passed"] else "skipped")
        record["notebooks"][path] = {
            **entry,
            "seconds": round(entry["seconds"], 1),
            "result": result,
            **context,
        }
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return record


def pytest_configure(config):
    config.pluginmanager.register(NbvalStatus(), "mctsbook-nbval-status")
