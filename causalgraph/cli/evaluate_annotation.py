"""``causalgraph evaluate-annotation``: compare an annotate run with the gold annotation it carries."""

from __future__ import annotations

import sys

from ..annotation.evaluate import MATCH_THRESHOLD, evaluate_annotation
from ._align import add_align_options, align_settings, emit_alignment_notes
from ._common import add_format_option, emit_json, emit_table
from ..errors import ConfigError

__all__ = ["register"]


def register(sub) -> None:
    p = sub.add_parser(
        "evaluate-annotation", help="score an annotate run against gold: pairs, labels, complexity agreement",
        description="Relation-pair precision/recall/F1 on the no-quantifier forms (exact and token F1 with a "
                    "one-to-one matching), accuracy of correlation, relation type and explicitness on matched "
                    "pairs, and agreement of predicted with gold complexity (Spearman rho of C(s), mean absolute "
                    "error per metric). The run must come from `causalgraph annotate --data climatecause`.")
    p.add_argument("run", metavar="RUN", help="run directory written by causalgraph annotate --data …")
    p.add_argument("--variant", default=None, help="variant to evaluate (when the run holds several)")
    p.add_argument("--reference", metavar="climatecause|paper|NAME|PATH", default="climatecause",
                   help="ranges C(s) is normalised with (default: climatecause)")
    p.add_argument("--threshold", type=float, default=MATCH_THRESHOLD, metavar="TAU",
                   help=f"token pair score at which a matched pair counts as found (default: {MATCH_THRESHOLD:g})")
    p.add_argument("--per-statement", action="store_true", help="print one row per statement instead")
    p.add_argument("--graphs", action="store_true",
                   help="also score each predicted graph against the gold one: SHD, SID, parent/ancestor/oset AID "
                        "(per statement, and their means; docs/graphs.md#scores)")
    g = p.add_argument_group("graph scores (with --graphs)")
    add_align_options(g, pooled=False)
    add_format_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    settings = align_settings(args) if args.graphs else {}
    if not args.graphs and (args.alignment or args.edge_scores):
        raise ConfigError(f"{'--alignment' if args.alignment else '--edge-scores'} needs --graphs")
    rep = evaluate_annotation(args.run, variant=args.variant, reference=args.reference, threshold=args.threshold,
                              graphs=args.graphs, align=settings.get("rule", "exact"),
                              token_threshold=args.token_threshold, embedding_threshold=args.embedding_threshold,
                              embedder=settings.get("embedder"), edge_scores=args.edge_scores,
                              alignment=bool(args.alignment))
    for note in rep.graph.get("notes", ()):
        print(f"causalgraph evaluate-annotation: note: {note}", file=sys.stderr)
    if args.graphs:
        emit_alignment_notes("evaluate-annotation", rep.graph.get("align", "exact"), rep.alignment,
                             rep.graph.get("pooled", ()), path=args.alignment)
    if args.per_statement:
        emit_table(rep.per_statement, args.format)
    elif args.format == "json":
        emit_json(rep.summary())
    else:
        emit_table(rep.rows(), args.format, columns=["measure", "value", "n"])
    return 0
