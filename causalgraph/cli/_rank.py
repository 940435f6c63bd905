"""The ranking table that ``stats compare --rank`` and ``bench report --rank AXIS`` print alike
(docs/statistics.md#tie-groups-and-rank-intervals)."""

from __future__ import annotations

import sys
from typing import Any, Sequence

from ._common import emit_json, emit_table
from ..stats.ranking import RANK_COLUMNS

__all__ = ["UNDEFINED", "RANKED_VALUES", "ranking_notes", "ranking_footer", "emit_ranking"]

#: How a table shows an undefined score, interval, group or rank (never an empty cell or 0).
UNDEFINED = "—"
#: The columns that are undefined for an arm without a score.
RANKED_VALUES = ("score", "ci_low", "ci_high", "group", "rank", "rank_low", "rank_high")


def ranking_notes(rows: Sequence[dict]) -> list[str]:
    """``TASK ARM: why`` for each arm whose score or rank is undefined.

    Examples
    --------
    >>> ranking_notes([{"task": "t", "arm": "m", "note": "no answered item: no score, no rank"}, {"note": None}])
    ['t m: no answered item: no score, no rank']
    """
    return [f"{r['task']} {r['arm']}: {r['note']}" for r in rows if isinstance(r.get("note"), str)]


def ranking_footer(alpha: float, n_boot: int, test: str) -> str:
    """The line under the table saying what its columns are.

    Examples
    --------
    >>> ranking_footer(0.05, 1000, "mcnemar").startswith("score with a 95% CR2 t interval")
    True
    """
    level = f"{100 * (1 - alpha):g}%"
    return (f"score with a {level} CR2 t interval over statements; group: arms sharing a letter are not "
            f"separated by {'McNemar exact' if test == 'mcnemar' else 'the clustered accuracy test'} after "
            f"Holm over all pairs (alpha {alpha:g}); rank 1 = best, rank_low..rank_high: {level} interval of "
            f"the rank over {n_boot} statement resamples")


def emit_ranking(prog: str, table: Any, fmt: str, *, alpha: float, n_boot: int, test: str,
                 json_out: bool = True) -> list[dict]:
    """Print :func:`causalgraph.stats.ranking.rank_runs`' table: notes on stderr, then the table.

    ``table`` format shows an undefined value as ``—``; ``json_out=False`` leaves the JSON to the
    caller (``bench report`` nests it in its own object).  Returns the rows.
    """
    rows = table.to_dict(orient="records")
    for note in ranking_notes(rows):
        print(f"causalgraph {prog}: note: {note}", file=sys.stderr)
    if fmt == "json":
        if json_out:
            emit_json(rows)
        return rows
    shown = rows
    if fmt == "table":  # an undefined score or rank is shown as such, never as an empty cell or 0
        shown = [{**r, **{k: UNDEFINED for k in RANKED_VALUES if r.get(k) is None or r.get(k) != r.get(k)}}
                 for r in rows]
    emit_table(shown, fmt, columns=[c for c in RANK_COLUMNS if c != "note"])
    if fmt == "table" and len(rows):
        print(f"\n{ranking_footer(alpha, n_boot, test)}")
    return rows
