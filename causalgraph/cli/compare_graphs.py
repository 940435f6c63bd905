"""``causalgraph compare-graphs GOLD PRED``: SHD, SID and the AIDs of predicted graphs against gold ones."""

from __future__ import annotations

import sys

from ._common import add_format_option, emit_table
from ..datasets import load_corpus
from ..metrics.graph_scores import SCORE_COLUMNS, compare_corpora

__all__ = ["register", "run"]


def register(sub) -> None:
    p = sub.add_parser(
        "compare-graphs", help="score predicted causal graphs against gold ones (SHD, SID, parent/ancestor/oset AID)",
        description="Compare the graphs of PRED with those of GOLD, statement by statement (same id; two single "
                    "graphs are paired whatever their ids): structural Hamming distance, structural intervention "
                    "distance and the adjustment identification distances of gadjid (docs/graphs.md#scores). "
                    "GOLD and PRED are anything --data reads: graph files or folders of them, relations files, "
                    "corpus names.")
    p.add_argument("gold", metavar="GOLD", help="the gold graphs (a graph file, a folder, a relations file, a corpus)")
    p.add_argument("pred", metavar="PRED", help="the predicted graphs, read the same way")
    add_format_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    gold, pred = load_corpus(args.gold), load_corpus(args.pred)
    rows, notes = compare_corpora(gold, pred)
    for note in notes:
        print(f"causalgraph compare-graphs: note: {note}", file=sys.stderr)
    emit_table(rows, args.format, columns=["statement_id", "pred_id", *SCORE_COLUMNS])
    return 0
