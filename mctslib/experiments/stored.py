"""Results stored as JSON: one way to write a result dataclass, read it back, and add up parts.

Every experiment keeps its runs under ``data/`` as the fields of a dataclass
(:func:`dataclass_json`, :func:`load_dataclass`). A long match is stored in
*parts* (:class:`MatchPart`, one file each, its own seed) that
:func:`gather_parts` finds and :func:`combine` adds up: the transposition,
parallel-search and network matches of chapters 6 and 7 share this format.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..play.stats import score_interval


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


@dataclass(frozen=True)
class MatchPart:
    """One stored part of a match of bot A against bot B (e.g. chapter 6's DAG against tree).

    ``results`` has one letter per game in game order (W/D/L for A); games
    ``2k`` and ``2k + 1`` share opening ``k`` with the sides swapped.
    ``seconds_per_move`` is A's and B's wall time per move (not a speed: see
    ``notes``); ``nodes`` the mean nodes in use after A's and B's searches of
    the first game (a check, not the memory experiment).
    """

    game: str
    part: int
    seed: int
    games: int
    a: dict
    b: dict
    opening_plies: int
    wins: int
    draws: int
    losses: int
    score: float
    interval_95: list
    results: str
    seconds: float
    seconds_per_move: list
    load_before: list
    load_after: list
    machine: dict
    notes: list = field(default_factory=list)

    def to_json(self) -> str:
        return dataclass_json(self)

    def format(self) -> str:
        low, high = self.interval_95
        return (f"{self.game} part {self.part}: {self.a['label']} vs {self.b['label']}, "
                f"{self.games} games: {self.wins} W {self.draws} D {self.losses} L, score "
                f"{self.score:.3f} [{low:.3f}, {high:.3f}]")


def store_result(result, out: Path) -> None:
    """Write ``result.to_json()`` to ``out``, making its folder if needed."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(result.to_json() + "\n")


def write_result(result, out: Path) -> None:
    """The end of a command: :func:`store_result`, then print the result and where it went.

    Prints ``result.format()``, then its ``seconds`` (one number), the load
    average now and ``out``. Shared by the chapters' match and sweep commands.
    """
    store_result(result, out)
    print(result.format())
    print(f"seconds {result.seconds:.0f}, load {os.getloadavg()}; written to {out}")


def combine(parts) -> dict:
    """The parts of one match added up: games, W/D/L, score and 95% Wilson interval.

    ``results`` holds every game's letter (W/D/L for A), parts in the order
    of their numbers, each part's games in game order: games ``2k`` and
    ``2k + 1`` still share an opening, so the string can be scored in pairs
    (:func:`mctslib.play.elo_sprt.pair_outcomes`). Raises ValueError if the
    parts differ in their bots, game or seed, or repeat a part.
    """
    parts = list(parts)
    if not parts:
        raise ValueError("combine needs at least one part.")
    first = parts[0]
    numbers = [p.part for p in parts]
    if len(set(numbers)) != len(numbers):
        raise ValueError(f"parts repeat: {sorted(numbers)}.")
    for p in parts[1:]:
        if (p.game, p.seed, p.a, p.b, p.opening_plies) != (first.game, first.seed, first.a,
                                                            first.b, first.opening_plies):
            raise ValueError(f"part {p.part} is not of the same match as part {first.part}.")
    wins, draws, losses = (sum(getattr(p, k) for p in parts) for k in ("wins", "draws", "losses"))
    score, low, high = score_interval(wins, draws, losses)
    results = "".join(p.results for p in sorted(parts, key=lambda p: p.part))
    if len(results) != wins + draws + losses:  # a hand-edited file, or one cut short
        raise ValueError(f"the parts' results hold {len(results):,} letters for "
                         f"{wins + draws + losses:,} games.")
    return {"game": first.game, "a": first.a["label"], "b": first.b["label"],
            "parts": sorted(numbers), "games": wins + draws + losses, "wins": wins,
            "draws": draws, "losses": losses, "score": score, "interval_95": [low, high],
            "results": results}
