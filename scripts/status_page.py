"""Write the book's Status page (``book/status.md``) from the last nbval run.

``scripts/build_book.sh`` runs this before every build. The numbers come from
``_build/status/nbval.json``, which ``scripts/nbval_status.py`` (a pytest plugin that
``scripts/test.sh`` loads) writes when the test command runs the chapters under nbval. Nothing
on the page is typed by hand. Without a recorded run (a fresh clone) the page says so, so the
build never depends on a test run. ``book/status.md`` is generated: do not edit or commit it.

    python scripts/status_page.py [--status FILE] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from datetime import datetime
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nbval_status import REPO, SCHEMA, STATUS_JSON

OUT = REPO / "book" / "status.md"
RESULT_WORDS = {"passed": "✅ passed", "failed": "❌ failed", "skipped": "skipped"}


def toc_notebooks(toc_file: Path = REPO / "_toc.yml") -> list[str]:
    """The chapter notebooks in reading order, as paths from the repository root."""
    toc = yaml.safe_load(toc_file.read_text(encoding="utf-8"))
    files: list[str] = []

    def walk(entries):
        for entry in entries or []:
            if "file" in entry:
                files.append(str(entry["file"]))
            walk(entry.get("sections"))

    for part in toc.get("parts") or [{"chapters": toc.get("chapters")}]:
        walk(part.get("chapters"))
    names = [re.sub(r"\.ipynb$", "", name) + ".ipynb" for name in files]
    return [name for name in names if (REPO / name).is_file()]


def chapter_title(path: str) -> str:
    """The first level-one heading of a notebook, or its file name."""
    notebook = json.loads((REPO / path).read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            for line in "".join(cell["source"]).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return Path(path).stem


def _when(iso: str) -> str:
    return datetime.fromisoformat(iso).strftime("%Y-%m-%d %H:%M UTC")


def _machine(entry: dict) -> str:
    where = "CI" if entry.get("ci") else "a local run"
    return f"{where}: {entry['system']}, {entry['cpus']} CPUs, Python {entry['python']}"


def _commit(entry: dict) -> str:
    return entry["commit"] + (" + uncommitted changes" if entry.get("uncommitted_changes") else "")


def render(status: dict | None, chapters: list[str]) -> str:
    """The Markdown of the Status page."""
    lines = [
        "# Status",
        "",
        (
            "Every chapter is re-run by the test command (`bash scripts/test.sh`) under nbval, "
            "which fails if a fresh run prints anything other than what the book shows. This "
            "page is written from the record of the last such run of each chapter "
            "(`scripts/nbval_status.py`, `scripts/status_page.py`); nobody types it."
        ),
        "",
    ]
    recorded = (status or {}).get("notebooks", {}) if (status or {}).get("schema") == SCHEMA else {}
    if not recorded:
        lines += [
            "```{note}",
            (
                "No test run has been recorded where this copy of the book was built. Run "
                "`bash scripts/test.sh`: it re-runs every chapter and rebuilds the book with "
                "the results on this page."
            ),
            "```",
            "",
        ]
        return "\n".join(lines)
    lines += [
        "| Chapter | Notebook | Cells checked | nbval time | Result | Last run |",
        "| --- | --- | ---: | ---: | --- | --- |",
    ]
    for path in chapters:
        entry = recorded.get(path)
        title = chapter_title(path)
        name = Path(path).name
        if entry is None:
            lines.append(f"| {title} | `{name}` | – | – | not run yet | – |")
            continue
        cells = entry["passed"] + entry["failed"]
        lines.append(
            f"| {title} | `{name}` | {cells} | {entry['seconds']:.1f} s | "
            f"{RESULT_WORDS[entry['result']]} | {_when(entry['finished'])} |"
        )
    runs = [recorded[path] for path in chapters if path in recorded]
    latest = max(runs, key=lambda entry: entry["finished"])
    versions = sorted({entry["mctslib"] for entry in runs})
    lines += [
        "",
        f"- **mctslib version:** {', '.join(versions)}",
        f"- **Last run:** {_when(latest['finished'])}, commit {_commit(latest)}",
        f"- **Where:** {_machine(latest)}",
        (
            f"- **Total nbval time:** {sum(entry['seconds'] for entry in runs):.0f} s "
            "(the time of each chapter includes starting its kernel and the re-runs of "
            "`scripts/nbval_reruns.py`: every cell twice, the quick ones a third time; two "
            "chapters run at a time, one a core)"
        ),
        "",
        (
            "Time is wall-clock time on the machine named above and varies with its load; "
            "the results do not."
        ),
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--status", type=Path, default=STATUS_JSON, help="nbval record (JSON)")
    parser.add_argument("--out", type=Path, default=OUT, help="Markdown page to write")
    args = parser.parse_args(argv)
    status = None
    if args.status.is_file():
        try:
            status = json.loads(args.status.read_text(encoding="utf-8"))
        except ValueError:
            print(
                f"warning: {args.status} is not valid JSON; the page says no run is recorded",
                file=sys.stderr,
            )
    text = render(status, toc_notebooks())
    if not args.out.is_file() or args.out.read_text(encoding="utf-8") != text:
        args.out.write_text(text, encoding="utf-8")  # unchanged text: no rebuild of the page
    return 0


if __name__ == "__main__":
    sys.exit(main())
