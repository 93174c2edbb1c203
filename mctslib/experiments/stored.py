"""Results stored as JSON: one way to write a result dataclass and read it back.

The simultaneous-moves experiments (chapter "When both players move at once")
keep each run in ``data/simultaneous/NAME.json`` as the fields of a dataclass.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path


def dataclass_json(result) -> str:
    """The fields of the dataclass ``result`` as indented JSON (what the commands store)."""
    return json.dumps(asdict(result), indent=1)


def load_dataclass(kind: type, path, written_by: str):
    """Read a ``kind`` stored by :func:`dataclass_json` from ``path``.

    Raises ValueError with a sentence naming ``path`` and ``written_by`` (what
    writes such files) if the file cannot be read or holds something else.
    """
    try:
        return kind(**json.loads(Path(path).read_text()))
    except (OSError, TypeError, ValueError) as error:
        raise ValueError(f"{path} does not hold {written_by} ({error}).") from None


def write_and_report(result, out: Path) -> None:
    """The end of a command: store ``result`` (its ``to_json()``) in ``out`` and print it.

    Prints ``result.format()``, the seconds each part took and where it was written.
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(result.to_json() + "\n")
    print(result.format())
    print("seconds:", ", ".join(f"{k} {v:.0f}" for k, v in result.seconds.items()))
    print(f"written to {out}")
