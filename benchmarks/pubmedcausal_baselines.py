"""Offline reference points for PubMedCausal span evaluation (recorded in docs/pubmedcausal.md).

Scores the test split against itself and against simple baselines that need
no model, in both evaluation modes, and prints one Markdown table:

* ``gold``: the gold pairs (sanity check: every score is 1);
* ``empty``: no prediction for any row (every score is 0);
* ``reversed``: every gold pair with cause and effect swapped;
* ``head-3``: every gold span cut to its first three tokens (boundary errors only);
* ``marker``: a rule-based extractor over the paper's explicit markers
  (App. E: due to, results in, leads to, causes, effect of; plus caused by,
  because of, lead to, result in): the clause before the marker is the
  cause and the clause after it the effect (reversed for "due to",
  "caused by", "because of").

Usage::

    CAUSALGRAPH_DATA=../shared/data python benchmarks/pubmedcausal_baselines.py [--cosine]
"""

from __future__ import annotations

import argparse
import re
import sys

from causalgraph.extraction.evaluate import evaluate_extraction
from causalgraph.extraction.tuples import ExtractedPair
from causalgraph.extraction.predictions import PredictionSet, RowPrediction, predictions_from_corpus
from causalgraph.datasets import load_pubmedcausal

FORWARD = ("results in", "result in", "resulted in", "leads to", "lead to", "led to", "causes", "caused",
           "effect of")
BACKWARD = ("due to", "caused by", "because of")
_MARK = re.compile(r"\b(" + "|".join(re.escape(m) for m in FORWARD + BACKWARD) + r")\b", re.I)


def _transform(gold: PredictionSet, fn) -> PredictionSet:
    return PredictionSet({sn: RowPrediction(sn, r.sentence, tuple(p for g in r.pairs if (p := fn(g)) is not None))
                          for sn, r in gold.rows.items()}, "baseline", "rows")


def marker_pairs(text: str) -> tuple[ExtractedPair, ...]:
    """One pair per sentence holding an explicit marker (the first marker of the sentence)."""
    out = []
    for sent in re.split(r"(?<=[.!?])\s+", text):
        m = _MARK.search(sent)
        if not m:
            continue
        before = sent[:m.start()].strip(" ,;:")
        after = sent[m.end():].strip(" ,;:.")
        if not before or not after:
            continue
        # "A due to B": the cause follows the marker.
        cause, effect = (after, before) if m.group(1).lower() in BACKWARD else (before, after)
        out.append(ExtractedPair(cause, effect))
    return tuple(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cosine", action="store_true", help="add the cosine columns (all-MiniLM-L6-v2)")
    ap.add_argument("--split", default="test", choices=["test", "train"])
    args = ap.parse_args(argv)
    corpus = load_pubmedcausal(split=args.split)
    gold = predictions_from_corpus(corpus)
    baselines = {
        "gold": gold,
        "empty": PredictionSet({}, "empty", "rows"),
        "reversed": _transform(gold, lambda g: ExtractedPair(g.effect, g.cause)),
        "head-3": _transform(gold, lambda g: ExtractedPair(" ".join(g.cause.split()[:3]),
                                                           " ".join(g.effect.split()[:3]))),
        "marker": PredictionSet({sn: RowPrediction(sn, r.sentence, marker_pairs(r.sentence or ""))
                                 for sn, r in gold.rows.items()}, "marker", "rows"),
    }
    embedder = None
    if args.cosine:
        from causalgraph.extraction.embed import load_embedder

        embedder = load_embedder()
    cols = ["baseline", "mode", "pred pairs", "C-F1", "E-F1", "P-F1", "Exact P-F1"]
    if args.cosine:
        cols += ["Cos C-F1", "Cos P-F1", "Cos≥0.75 F1"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for name, preds in baselines.items():
        for mode in ("paper", "hungarian"):
            rep = evaluate_extraction(preds, gold, mode=mode, cosine=args.cosine, embedder=embedder)
            vals = [name, mode, str(rep.summary["predicted_pairs"])]
            vals += [f"{rep.metric('token', p)['f1']:.4f}" for p in ("cause", "effect", "pair")]
            vals.append(f"{rep.metric('exact')['f1']:.4f}")
            if args.cosine:
                vals += [f"{rep.metric('cosine', 'cause')['f1']:.4f}", f"{rep.metric('cosine', 'pair')['f1']:.4f}",
                         f"{rep.metric('cosine>=0.75', 'pair')['f1']:.4f}"]
            print("| " + " | ".join(vals) + " |")
        if name == "marker":
            b = evaluate_extraction(preds, gold).buckets["counts"]
            print("\nmarker baseline error buckets: " + ", ".join(f"{k} {v}" for k, v in b.items()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
