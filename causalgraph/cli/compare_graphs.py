"""``causalgraph compare-graphs GOLD PRED``: SHD, SID and the AIDs of predicted graphs against gold ones."""

from __future__ import annotations

import sys

from ._align import (POOLED_COLUMNS, add_align_options, align_settings, alignment_note, undefined_notes,
                     write_alignment)
from ._common import add_format_option, emit_table
from ..alignment.scores import EDGE_COLUMNS, compare_aligned
from ..datasets import load_corpus
from ..metrics.graph_scores import SCORE_COLUMNS

__all__ = ["register", "run"]

def register(sub) -> None:
    p = sub.add_parser(
        "compare-graphs", help="score predicted causal graphs against gold ones (SHD, SID, parent/ancestor/oset AID)",
        description="Compare the graphs of PRED with those of GOLD, statement by statement (same id; two single "
                    "graphs are paired whatever their ids): structural Hamming distance, structural intervention "
                    "distance and the adjustment identification distances of gadjid (docs/graphs.md#scores), "
                    "after aligning predicted events to gold ones (--align). "
                    "GOLD and PRED are anything --data reads: graph files or folders of them, relations files, "
                    "corpus names.")
    p.add_argument("gold", metavar="GOLD", help="the gold graphs (a graph file, a folder, a relations file, a corpus)")
    p.add_argument("pred", metavar="PRED", help="the predicted graphs, read the same way")
    add_align_options(p)
    add_format_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    settings = align_settings(args)
    gold, pred = load_corpus(args.gold), load_corpus(args.pred)
    cmp = compare_aligned(gold, pred, **settings)
    for note in cmp.notes:
        print(f"causalgraph compare-graphs: note: {note}", file=sys.stderr)
    if cmp.rule != "exact":
        print(f"causalgraph compare-graphs: note: {alignment_note(cmp)}", file=sys.stderr)
    if args.alignment:
        write_alignment(cmp.alignment_rows(), args.alignment)
    if args.pooled:
        pooled = cmp.pooled()
        for note in undefined_notes(pooled):
            print(f"causalgraph compare-graphs: note: {note}", file=sys.stderr)
        emit_table(pooled, args.format, columns=POOLED_COLUMNS)
        return 0
    cols = ["statement_id", "pred_id", *SCORE_COLUMNS, *(EDGE_COLUMNS if args.edge_scores else ())]
    emit_table(cmp.rows, args.format, columns=cols)
    return 0
