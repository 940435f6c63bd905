"""``causalgraph compare-graphs GOLD PRED``: SHD, SID and the AIDs of predicted graphs against gold ones."""

from __future__ import annotations

from ._align import add_align_options, align_settings, emit_aligned
from ._common import add_format_option
from ..alignment.scores import compare_aligned
from ..datasets import load_corpus

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
    return emit_aligned("compare-graphs", compare_aligned(gold, pred, **settings), args)
