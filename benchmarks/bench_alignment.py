"""Benchmark: aligning a 1,000-event predicted graph to a 1,000-event gold graph.

The gold events are the first 1,000 distinct events of the PubMedCausal test split (spans as
written); the predicted events are the same spans rewritten as a model might (deterministically:
kept, re-cased with an article, a word dropped, words rotated, a word added), so every rule of
the cascade has work to do.  Measures, min / median / max of ``--repeat`` runs and the
load average, one process:

* ``token_f1_matrix`` (1,000 × 1,000) against the pairwise ``token_f1`` loop it replaces (its
  equality is checked first; the loop is timed on 200 × 200 and scaled);
* ``align_events`` with ``--align normalized``, ``token`` and ``embedding``; for ``embedding``
  the encoder is loaded once and the spans encoded once before timing (the alignment after the
  model is loaded), and the encoding of the 2,000 spans is timed separately.

Run::

    CAUSALGRAPH_DATA=../shared/data python benchmarks/bench_alignment.py [--no-embedding]
"""

from __future__ import annotations

import argparse
import random
import time

from _common import best, load_average, min_median_max, rewrite_event, spread
from causalgraph import load_pubmedcausal
from causalgraph.alignment.events import align_events, token_f1_matrix
from causalgraph.extraction.spans import token_f1


def events(n: int) -> tuple[list[str], list[str]]:
    gold: dict[str, None] = {}
    for s in load_pubmedcausal(split="test"):
        for r in s.relations:
            for x in (r.cause, r.effect):
                gold.setdefault(x, None)
    g = list(gold)[:n]
    rng = random.Random(1000)
    pred: dict[str, None] = {}
    for x in g:
        pred.setdefault(rewrite_event(x, rng), None)
    return list(pred), g


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--events", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-embedding", action="store_true", help="skip the embedding rule (no encoder installed)")
    args = ap.parse_args()
    pred, gold = events(args.events)
    print(f"{len(pred)} predicted events, {len(gold)} gold events")
    sub_p, sub_g = pred[:200], gold[:200]
    loop = [[token_f1(a, b) for b in sub_g] for a in sub_p]
    assert token_f1_matrix(sub_p, sub_g).tolist() == loop, "token_f1_matrix differs from token_f1"
    # The pairwise loop is timed on 200 x 200 and scaled to the full matrix (it takes minutes).
    t_loop = best(lambda: [[token_f1(a, b) for b in sub_g] for a in sub_p], 1) * len(pred) * len(gold) / 200 ** 2
    print(f"load average {load_average()}; min / median / max of {args.repeat} runs", flush=True)
    t_mat = spread(lambda: token_f1_matrix(pred, gold), args.repeat)
    print(f"token F1 matrix {len(pred)}x{len(gold)}: {min_median_max(t_mat, 3)} s (pairwise token_f1 loop, scaled from 200x200: "
          f"{t_loop:.1f} s; ratio of the medians {t_mat[1] / t_loop:.4f})")
    for rule in ("normalized", "token"):
        t = spread(lambda: align_events(pred, gold, rule=rule), args.repeat)
        c = align_events(pred, gold, rule=rule).counts()
        print(f"align_events --align {rule}: {min_median_max(t, 3)} s; {c}")
    if not args.no_embedding:
        from causalgraph.extraction.embed import load_embedder

        t0 = time.perf_counter()
        emb = load_embedder()
        t_load = time.perf_counter() - t0
        t0 = time.perf_counter()
        emb.encode(list(dict.fromkeys(pred + gold)))
        t_enc = time.perf_counter() - t0
        t = spread(lambda: align_events(pred, gold, rule="embedding", embedder=emb), args.repeat)
        c = align_events(pred, gold, rule="embedding", embedder=emb).counts()
        print(f"encoder load {t_load:.2f} s; encoding {len(set(pred + gold))} spans {t_enc:.2f} s")
        print(f"align_events --align embedding (spans encoded): {min_median_max(t, 3)} s; {c}")
    print(f"load average {load_average()}")


if __name__ == "__main__":
    main()
