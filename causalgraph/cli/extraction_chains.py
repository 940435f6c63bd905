"""``causalgraph extraction-chains``: chains in graphs of extracted (or gold) PubMedCausal pairs."""

from __future__ import annotations

from ..extraction.producer import (
    DEFAULT_THRESHOLDS, MERGE_RULES, chain_statistics, corpus_from_extraction, merged_chain_statistics
)
from ._common import add_format_option, add_rule_option, emit_table
from ..extraction.embed import load_embedder

__all__ = ["register"]


def register(sub) -> None:
    p = sub.add_parser(
        "extraction-chains", help="chain statistics of PubMedCausal pair graphs under each node-merging rule",
        description="Compile the pairs of a run, a predictions file or a PubMedCausal split (gold) into one causal "
                    "graph per row, merging spans into nodes by exact string, normalised span or fuzzy similarity, "
                    "and count the rows that hold a causal chain (a path of three distinct events).")
    p.add_argument("source", metavar="SOURCE",
                   help="run directory, predictions file, PubMedCausal file, or pubmedcausal:test / pubmedcausal:train")
    p.add_argument("--merge", choices=["all", "exact", "normalized", "fuzzy"], default="all",
                   help="node-merging rule (default: all three)")
    p.add_argument("--similarity", choices=["token", "cosine"], default="token",
                   help="fuzzy similarity: token F1 or embedding cosine (default: token)")
    p.add_argument("--threshold", type=float, default=None,
                   help=f"fuzzy threshold (default: {DEFAULT_THRESHOLDS['token']:g} for token F1, "
                        f"{DEFAULT_THRESHOLDS['cosine']:g} for cosine)")
    p.add_argument("--embedder", metavar="hf/DIR", default=None, help="encoder for cosine merging")
    add_rule_option(p, "chain rule (default: path)")
    p.add_argument("--merged", action="store_true",
                   help="merge every row's graph into one corpus-level graph (rows naming the same span share a "
                        "node) and print its nodes, edges, components, depth, breadth, chains (cycles on their "
                        "condensation) and chain positions, one row per merging rule")
    add_format_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    embedder = None
    if args.similarity == "cosine":
        embedder = load_embedder(args.embedder)
    rows = []
    for merge in (MERGE_RULES if args.merge == "all" else (args.merge,)):
        c = corpus_from_extraction(args.source, merge=merge, similarity=args.similarity, threshold=args.threshold,
                                   embedder=embedder)
        st = merged_chain_statistics(c, args.rule) if args.merged else chain_statistics(c, args.rule)
        rep = c.report
        rows.append({"merge": merge, "similarity": rep["similarity"] or "", "threshold": rep["threshold"],
                     "rows": rep["rows"], "pairs": rep["pairs"], "merged_spans": rep["merged_spans"],
                     "self_loops": rep["self_loops"], **st})
    emit_table(rows, args.format)
    return 0
