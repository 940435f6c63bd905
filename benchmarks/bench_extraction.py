"""Benchmark: PubMedCausal span evaluation and tuple parsing against bare baselines in the same process.

Measures, on the real test split (1,973 rows, 3,199 pairs) scored against a
prediction set of the same size (every gold span with its last token dropped,
so no score is trivially 1):

* ``evaluate_extraction`` in paper mode (token, exact, labels, buckets)
  against the baseline: a bare loop that computes the same paper-mode token
  pair F1 with ``collections.Counter`` and nothing else;
* hungarian mode against paper mode;
* ``parse_tuples`` on answers in the paper's tuple format against
  ``json.loads`` of the same tuples written as JSON;
* ``corpus_from_extraction`` (normalized merging) + ``chain_statistics``
  against ``compile_graph`` alone over the same rows;
* with ``--cosine``: loading the packaged encoder (all-MiniLM-L6-v2), the
  first ``evaluate_extraction(..., cosine=True)`` (which encodes every
  distinct span once, in batches), and then, the spans encoded, the cosine
  evaluation against paper mode without it.

Figures are ratios our time / baseline time, timed alternately (min / median / max of
``--repeat`` rounds), with the load average before and after.  Run::

    CAUSALGRAPH_DATA=../shared/data python benchmarks/bench_extraction.py [--cosine]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

from causalgraph import compile_graph, load_pubmedcausal
from causalgraph.extraction import (chain_statistics, corpus_from_extraction, evaluate_extraction, parse_tuples,
                                    predictions_from_corpus)
from causalgraph.extraction.tuples import ExtractedPair
from causalgraph.extraction.predictions import PredictionSet, RowPrediction
from causalgraph.extraction.spans import span_tokens

from _common import load_average, min_median_max, side_by_side


def bare_pair_f1(pred: PredictionSet, gold: PredictionSet) -> float:
    """Paper-mode token pair F1 with nothing but Counter (the baseline)."""
    def f1(a, b):
        ta, tb = span_tokens(a), span_tokens(b)
        if not ta or not tb:
            return float(not ta and not tb)
        return 2 * sum((Counter(ta) & Counter(tb)).values()) / (len(ta) + len(tb))

    ps = rs = 0.0
    npred = ngold = 0
    for sn, g in gold.rows.items():
        p = pred.rows.get(sn)
        pp = p.pairs if p else ()
        s = [[(f1(a.cause, b.cause) + f1(a.effect, b.effect)) / 2 for b in g.pairs] for a in pp]
        ps += sum(max(row) for row in s) if g.pairs else 0.0
        rs += sum(max(s[i][j] for i in range(len(pp))) for j in range(len(g.pairs))) if pp else 0.0
        npred += len(pp)
        ngold += len(g.pairs)
    prec, rec = ps / npred, rs / ngold
    return 2 * prec * rec / (prec + rec)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--cosine", action="store_true",
                    help="also time the cosine measure: the encoder's load, the first encoding, the evaluation after")
    args = ap.parse_args(argv)
    corpus = load_pubmedcausal(split="test")
    gold = predictions_from_corpus(corpus)

    def cut(s):
        t = s.split()
        return " ".join(t[:-1]) if len(t) > 1 else s

    pred = PredictionSet({sn: RowPrediction(sn, r.sentence, tuple(ExtractedPair(cut(p.cause), cut(p.effect))
                                                                     for p in r.pairs))
                          for sn, r in gold.rows.items()}, "bench", "rows")
    ours = evaluate_extraction(pred, gold).metric("token", "pair")["f1"]
    base = bare_pair_f1(pred, gold)
    assert abs(ours - base) < 1e-12, (ours, base)

    n = args.repeat
    print(f"load average {load_average()}", flush=True)
    r_eval = side_by_side(lambda: evaluate_extraction(pred, gold), lambda: bare_pair_f1(pred, gold), n)
    r_hung = side_by_side(lambda: evaluate_extraction(pred, gold, mode="hungarian"),
                          lambda: evaluate_extraction(pred, gold), n)

    answers = ["\n".join(f"Tuple {i}: {{Cause: {p.cause}, Effect: {p.effect}, Causality_Type: Explicit, "
                         f"Sententiality: Intra-sentential}}" for i, p in enumerate(r.pairs, 1))
               for r in gold.rows.values()]
    as_json = [json.dumps([{"cause": p.cause, "effect": p.effect, "causality_type": "Explicit",
                            "sententiality": "Intra"} for p in r.pairs]) for r in gold.rows.values()]
    r_parse = side_by_side(lambda: [parse_tuples(a) for a in answers], lambda: [json.loads(a) for a in as_json], n)

    def graphs():
        chain_statistics(corpus_from_extraction(corpus, merge="normalized"))

    r_graph = side_by_side(graphs, lambda: [compile_graph(s) for s in corpus], n)

    print(f"token pair F1 (ours = bare) {ours:.4f}; {len(gold)} rows, {gold.n_pairs} pairs; {n} alternating rounds, "
          "min / median / max")
    print("| measure | ours (s) | baseline (s) | ratio |")
    print("|---|---|---|---|")
    for name, r in (
        ("`evaluate_extraction` paper mode (token, exact, labels, buckets) vs bare Counter loop (token pair F1 only)",
         r_eval),
        ("hungarian mode vs paper mode", r_hung),
        ("`parse_tuples` on 1,973 answers in the paper's tuple format vs `json.loads` of the same tuples as JSON",
         r_parse),
        ("`corpus_from_extraction` (normalized) + `chain_statistics` vs `compile_graph` of every row",
         r_graph),
    ):
        print(f"| {name} | {min_median_max(r['ours'], 3)} | {min_median_max(r['baseline'], 3)} | {min_median_max(r['ratio'], 2)} |")
    if args.cosine:
        cosine_figures(pred, gold, n)
    print(f"load average {load_average()}")
    return 0


def cosine_figures(pred, gold, n: int) -> None:
    """The cosine measure's cost: the encoder's load and first encoding once, then its evaluation warm."""
    import time

    from causalgraph.extraction.embed import load_embedder

    t0 = time.perf_counter()
    emb = load_embedder()
    t_load = time.perf_counter() - t0
    spans = {s for ps in (pred, gold) for r in ps.rows.values() for p in r.pairs for s in (p.cause, p.effect)}
    t0 = time.perf_counter()
    first = evaluate_extraction(pred, gold, cosine=True, embedder=emb)
    t_first = time.perf_counter() - t0
    f1 = first.metric("cosine", "pair")["f1"]
    r = side_by_side(lambda: evaluate_extraction(pred, gold, cosine=True, embedder=emb),
                     lambda: evaluate_extraction(pred, gold), n)
    print(f"encoder load {t_load:.2f} s; first cosine evaluation (encodes {len(spans):,} distinct spans) "
          f"{t_first:.2f} s; cosine pair F1 {f1:.4f}")
    print(f"| `evaluate_extraction --cosine`, spans encoded, vs paper mode without it | "
          f"{min_median_max(r['ours'], 3)} | {min_median_max(r['baseline'], 3)} | {min_median_max(r['ratio'], 2)} |")



if __name__ == "__main__":
    raise SystemExit(main())
