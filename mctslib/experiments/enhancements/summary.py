"""The results table of the chapter "Enhancements that matter": every stored match in one place.

The chapter prints one table of its measured matches, and each section's verdict points to
a row of it. :func:`results_table` builds the rows from the stored files under ``data/``
(each row names the file it reads), so the table and the data cannot drift apart, and
:func:`format_results` prints it. A row's score is A's, with the 95% interval that treats
each pair of games sharing an opening as one observation
(:func:`mctslib.play.stats.pair_score_interval`); its speed column, where there is one, is
A's iterations per CPU-second over B's, from the stored benchmark named in
:data:`SPEED_SOURCES` (``None``: not measured, or not a speed question).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from ...play.arena import MatchResult, letters
from ...play.elo_sprt import pair_outcomes
from ...play.stats import pair_score_interval
from . import alphabeta, rave, transpositions

ROOT = Path(__file__).resolve().parents[3]
#: The stored benchmarks the speed column reads.
SPEED_SOURCES = {"rave": "benchmarks/results/rave_speed.json",
                 "transpositions": "benchmarks/results/transposition_speed.txt",
                 "playouts": "benchmarks/results/uttt_playouts.txt"}


@dataclass(frozen=True)
class MatchRow:
    """One row of the results table: a match, A against B."""

    section: str
    what: str
    setting: str
    source: str
    results: str
    speed: float | None = None

    @property
    def counts(self) -> tuple[int, int, int]:
        """A's wins, draws and losses."""
        return tuple(self.results.count(letter) for letter in "WDL")

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def score(self) -> tuple[float, float, float]:
        """A's score and its 95% interval, pairs of games as observations."""
        return pair_score_interval(pair_outcomes(self.results))

    def line(self) -> str:
        """The row as printed: what, setting, games, W-D-L, score [interval], speed."""
        score, low, high = self.score
        speed = "" if self.speed is None else f"{self.speed:5.2f}"
        wdl = "-".join(str(n) for n in self.counts)
        return (f"{self.what:<31} {self.setting:<25} {self.games:>5} {wdl:>11}  "
                f"{score:.3f} [{low:.3f}, {high:.3f}]  {speed}")


#: Stored matches that were lengthened after a look at the score: the table reads only the
#: games of their first run, whose size was fixed before it started (data/rave/README.md).
FIRST_RUN = {"rave vs uct": 200, "rave c=0.25 vs uct": 200}
#: Matches planned before they run (each README declares the size) but not stored yet. The
#: chapter's table gains their rows once the files exist.
PLANNED: tuple[str, ...] = ()

HEADER = (f" # {'A against B':<31} {'game, budget a move':<25} {'games':>5} {'W-D-L':>11}  "
          f"score of A [95%]  speed A/B (empty board)")


def _rave_rows(name: str) -> dict:
    return {row["label"]: row["results"] for row in rave.load_experiment(name).comparisons}


def speed_ratios(kind: str) -> dict:
    """Speed ratios from the stored benchmarks (A's iterations per CPU-second over B's)."""
    path = ROOT / SPEED_SOURCES[kind]
    if kind == "rave":
        table = json.loads(path.read_text())["iterations_per_second"]
        hex_ = table["hex 7x7 empty"]
        uttt = table["uttt empty"]
        return {"hex rave": hex_["rave"] / hex_["uct"], "hex grave": hex_["grave"] / hex_["uct"],
                "uttt rave": uttt["rave in the bot"] / uttt["bot (uttt_uct)"],
                "uttt rave prior": uttt["rave + prior in the bot"] / uttt["bot (uttt_uct)"]}
    if kind == "transpositions":
        ratios = {}
        for line in path.read_text().splitlines():
            found = re.match(r"\s*(\S+)\s+(.+?)\s+(\d+) it \|.*DAG/tree ([\d.]+)$", line)
            if found:
                game, where, iterations, ratio = found.groups()
                ratios[game, where, int(iterations)] = float(ratio)
        return ratios
    lines = path.read_text().splitlines()  # the policies' rows from the empty board
    ratios = {}
    for line in lines[lines.index("empty board:") + 1:]:
        if not line.strip():
            break
        ratios[line.split(";")[0].strip()] = float(line.rsplit(":", 1)[1])
    return ratios


_speed = speed_ratios  # the tests' name


def results_table() -> list[MatchRow]:
    """Every match the chapter's verdicts rest on, in the chapter's order (see the module).

    Only matches whose size was fixed before they started. Where a stored file holds a match
    that was lengthened after a look, the row reads its first games only, the size its first
    run was declared with (``FIRST_RUN``). Matches planned in the data READMEs but not yet
    stored (:data:`PLANNED`) are not rows: add them here once their files exist.
    """
    hex_ = _rave_rows("hex_10k")
    hex_cpu = _rave_rows("hex_equal_cpu_idle")
    uttt_rave = _rave_rows("uttt_20k")
    speed = speed_ratios("rave")
    rows = [MatchRow("RAVE", "RAVE vs UCT (c = 0.4)", "Hex 7x7, 10,000", "data/rave/hex_10k.json",
                     hex_["rave vs uct"], speed["hex rave"]),
            MatchRow("RAVE", "GRAVE vs UCT (c = 0.4)", "Hex 7x7, 10,000",
                     "data/rave/hex_10k.json", hex_["grave vs uct"], speed["hex grave"]),
            # Equal CPU time: UCT gets the iterations it runs in the time the other needs for
            # 10,000 (rave.HEX_EQUAL_CPU, from the stored speed benchmark), so no speed column.
            *(MatchRow("RAVE", f"{kind.upper()} vs UCT, equal CPU",
                       f"Hex 7x7, 10,000 / {iterations:,}", "data/rave/hex_equal_cpu_idle.json",
                       hex_cpu[f"{kind} vs uct {iterations}"])
              for kind, iterations in rave.HEX_EQUAL_CPU.items()),
            MatchRow("RAVE", "MC-RAVE (c = 0) vs UCT", "UTTT, 20,000", "data/rave/uttt_20k.json",
                     uttt_rave["rave vs uct"][:FIRST_RUN["rave vs uct"]]),
            MatchRow("RAVE", "RAVE (c = 0.25) vs UCT", "UTTT, 20,000", "data/rave/uttt_20k.json",
                     uttt_rave["rave c=0.25 vs uct"][:FIRST_RUN["rave c=0.25 vs uct"]])]
    # RAVE inside chapter 5's bot at its playing budget: the confirmation of the grid's best
    # cell without and with the heuristic prior (rave.grid_winners picked them).
    bot_rave = _rave_rows("uttt_bot_confirm")
    for prior, (c, bias) in sorted(rave.stored_grid_winners().items()):
        rows.append(MatchRow("RAVE", "RAVE + prior in the bot vs bot" if prior else
                             "RAVE in the bot vs bot", "UTTT, 100,000",
                             "data/rave/uttt_bot_confirm.json",
                             bot_rave[rave.grid_label(c, bias, prior)],
                             speed["uttt rave prior" if prior else "uttt rave"]))
    # The follow-ups: the prior without AMAF tables (its speed is not benchmarked), and RAVE with
    # the prior at the CPU time of the bot's 100,000 iterations (so no speed column).
    [alone] = _rave_rows("uttt_bot_prior_only").values()
    [equal_cpu] = _rave_rows("uttt_bot_equal_cpu_idle").values()
    rows += [MatchRow("RAVE", "prior alone in the bot vs bot", "UTTT, 100,000",
                      "data/rave/uttt_bot_prior_only.json", alone),
             MatchRow("RAVE", "RAVE + prior vs bot, equal CPU",
                      f"UTTT, {rave.BOT_EQUAL_CPU_ITERATIONS:,} / {rave.BOT_ITERATIONS:,}",
                      "data/rave/uttt_bot_equal_cpu_idle.json", equal_cpu)]
    tt = speed_ratios("transpositions")
    data = ROOT / "data" / "transpositions"
    c4 = transpositions.load_part(transpositions.part_path("connect_four", "10000it", 0, data))
    confirm = transpositions.load_match("connect_four", "10000it", data, "_confirm")
    uttt = transpositions.load_part(transpositions.part_path("uttt", "20000it", 0, data))
    uttt_100k = transpositions.load_part(  # the replay at a size fixed in advance
        transpositions.part_path("uttt", "100000it", 4, data, "_fixed"))
    rows += [MatchRow("transpositions", "graph vs tree", "Connect Four, 10,000",
                      "data/transpositions/connect_four_10000it_part0.json", c4.results,
                      tt["connect_four", "empty", 10_000]),
             MatchRow("transpositions", "graph vs tree, fresh openings", "Connect Four, 10,000",
                      "data/transpositions/connect_four_10000it_confirm_part*.json",
                      confirm["results"], tt["connect_four", "empty", 10_000]),
             MatchRow("transpositions", "graph vs tree", "UTTT, 20,000",
                      "data/transpositions/uttt_20000it_part0.json", uttt.results,
                      tt["uttt", "empty", 20_000]),
             MatchRow("transpositions", "graph vs tree", "UTTT, 100,000",
                      "data/transpositions/uttt_100000it_fixed_part4.json", uttt_100k.results,
                      tt["uttt", "empty", 100_000])]
    rollouts = {row["label"]: row["results"] for row in json.loads(
        (ROOT / "data/uttt/enhancements/rollouts.json").read_text())["comparisons"]}
    playouts = speed_ratios("playouts")
    for policy in ("safe", "capture", "greedy"):
        rows.append(MatchRow("rollouts", f"{policy} playouts vs wins", "UTTT, 20,000",
                             "data/uttt/enhancements/rollouts.json",
                             rollouts[f"playout={policy} vs wins, iters=20000"],
                             playouts[policy]))
    for name, what in (("stop_20k_noreuse", "early stop vs none, no reuse"),
                       ("stop_20k", "early stop vs none, reuse")):
        match, _ = MatchResult.load(ROOT / f"data/uttt/enhancements/{name}.json")
        rows.append(MatchRow("stopping", what, "UTTT, 20,000",
                             f"data/uttt/enhancements/{name}.json", letters(match.records)))
    # MCTS at plain UCT's 100 ms count (127k), then at the bot's own (75k).
    for iterations in ("127k", "75k"):
        source = f"data/uttt/alphabeta/nodes790k_vs_iters{iterations}_codingame.json"
        rows.append(MatchRow("alpha-beta", "alpha-beta vs MCTS bot",
                             f"UTTT, 790k nodes / {iterations}", source,
                             alphabeta.load_match(ROOT / source).results))
    return rows


def format_results(rows: list[MatchRow] | None = None) -> str:
    """The results table as text, one numbered line a match under :data:`HEADER`."""
    rows = results_table() if rows is None else rows
    return "\n".join([HEADER] + [f"{number:>2} {row.line()}"
                                  for number, row in enumerate(rows, start=1)])


def markdown_results(rows: list[MatchRow] | None = None) -> str:
    """The results table as a Markdown table (rows numbered from 1, as the chapter cites them).

    Columns: A against B, the game and budget a move, games, A's wins-draws-losses, A's score,
    its 95% interval (pairs of games as observations) and the speed ratio ("-": none), measured
    from the empty board (the benchmarks' other positions are in their files).
    """
    rows = results_table() if rows is None else rows
    lines = [("| # | A against B | game, budget a move | games | W-D-L | score of A "
              "| 95% interval | speed A/B |"),
             "|---:|---|---|---:|---:|---:|---|---:|"]
    for number, row in enumerate(rows, start=1):
        score, low, high = row.score
        speed = "-" if row.speed is None else f"{row.speed:.2f}"
        wdl = "-".join(f"{n:,}" for n in row.counts)
        lines.append(f"| {number} | {row.what} | {row.setting} | {row.games:,} | {wdl} | "
                     f"{score:.3f} | {low:.3f} to {high:.3f} | {speed} |")
    return "\n".join(lines)


def html_results(rows: list[MatchRow] | None = None) -> str:
    """The Markdown table of :func:`markdown_results` as an HTML table, for a notebook's output.

    A notebook output in Markdown is drawn as CommonMark in the book (no tables), so the chapter
    shows this instead; the cells hold the same text as the Markdown table's.
    """
    from html import escape

    lines = markdown_results(rows).splitlines()
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    body = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]
    right = {0, 3, 4, 5, 7}  # numbers line up on the right

    def row_html(cells, tag):
        wrap = {1, 2} if tag == "td" else set(range(len(cells)))  # headers may wrap
        return "<tr>" + "".join(
            f'<{tag} style="text-align:{"right" if i in right else "left"}'
            f'{"" if i in wrap else "; white-space:nowrap"}">{escape(cell)}</{tag}>'
            for i, cell in enumerate(cells)) + "</tr>"

    body_html = "\n".join(row_html(cells, "td") for cells in body)
    return ('<table class="table mctsbook-results" style="font-size:0.9em">\n<thead>'
            + row_html(header, "th") + f"</thead>\n<tbody>\n{body_html}\n</tbody>\n</table>")

