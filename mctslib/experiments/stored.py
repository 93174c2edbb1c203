"""Results stored as JSON: one way to write a result dataclass and read it back.

The simultaneous-moves experiments (chapter "When both players move at once")
keep each run in ``data/simultaneous/NAME.json`` as the fields of a dataclass.
"""

from __future__ import annotations

import json
import os
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


def gather_parts(paths, first_part: Path, load, hint: str) -> tuple[list, list]:
    """``(paths, parts)`` of one match stored in parts, sorted by part number.

    ``paths`` None: every file named like ``first_part`` (the part-0 file) with
    another part number, in its folder; else the given files, each read by
    ``load``. ValueError if none is found (``hint`` says where the commands
    are), or if ``paths`` is not a list.
    """
    if paths is None:
        pattern = first_part.name.replace("_part0.json", "_part*.json")
        paths = sorted(first_part.parent.glob(pattern))
        if not paths:
            raise ValueError(f"no stored part matches {pattern} in {first_part.parent}; {hint}")
    elif isinstance(paths, (str, bytes, os.PathLike)) or not hasattr(paths, "__iter__"):
        raise ValueError(f"paths must be a list of files or None, got {paths!r:.80}.")
    parts = sorted((load(path) for path in paths), key=lambda p: p.part)
    if not parts:
        raise ValueError("paths must name at least one stored part, got an empty list.")
    return paths, parts


def write_and_report(result, out: Path) -> None:
    """The end of a command: store ``result`` (its ``to_json()``) in ``out`` and print it.

    Prints ``result.format()``, the seconds each part took and where it was written.
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(result.to_json() + "\n")
    print(result.format())
    print("seconds:", ", ".join(f"{k} {v:.0f}" for k, v in result.seconds.items()))
    print(f"written to {out}")
