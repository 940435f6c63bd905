"""Alignment precision and recall per rule on the hand-labelled event pairs (tests/data/alignment/).

Prints, per labelled source and for all together, one row per rule (and the threshold sweeps of the
token and embedding rules): pairs aligned, correct, precision, recall, F1, and what the rule's own
step added.  The figures are in docs/graphs.md#choosing-the-default.  Run::

    python benchmarks/alignment_validation.py [--no-embedding]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from causalgraph.alignment.events import EMBEDDING_THRESHOLD, TOKEN_THRESHOLD
from causalgraph.alignment.validation import alignment_scores, load_labelled

LABELLED = Path(__file__).resolve().parents[1] / "tests" / "data" / "alignment" / "labelled_events.jsonl"


def row(name: str, r: dict, step: str) -> str:
    s = r["steps"].get(step, {"aligned": 0, "correct": 0})
    p = "n/a" if r["precision"] is None else f"{r['precision']:.3f}"
    return (f"| {name} | {r['aligned']} | {r['correct']} | {p} | {r['recall']:.3f} | {r['f1']:.3f} | "
            f"{s['aligned']} ({s['correct']} right) |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--labelled", default=str(LABELLED))
    ap.add_argument("--no-embedding", action="store_true")
    args = ap.parse_args()
    lab = load_labelled(args.labelled)
    emb = None
    if not args.no_embedding:
        from causalgraph.extraction.embed import load_embedder

        emb = load_embedder()
    sources = sorted({s.source for s in lab})
    for src in [*sources, None]:
        todo = [s for s in lab if src is None or s.source == src]
        print(f"\n{src or 'all sources'}: {len(todo)} statements, {sum(len(s.pairs) for s in todo)} true pairs, "
              f"{sum(len(s.predicted) for s in todo)} predicted and {sum(len(s.gold) for s in todo)} gold events\n")
        print("| rule | aligned | correct | precision | recall | F1 | its own step |")
        print("|---|---|---|---|---|---|---|")
        for rule in ("exact", "normalized"):
            print(row(rule, alignment_scores(todo, rule), rule))
        for t in (0.3, 0.4, 0.5, 0.6, 0.7):
            name = f"token ≥ {t:g}" + (" (default)" if t == TOKEN_THRESHOLD else "")
            print(row(name, alignment_scores(todo, "token", token_threshold=t), "token"))
        if emb is not None:
            for t in (0.5, 0.6, 0.7, 0.8):
                name = f"embedding ≥ {t:g}" + (" (default)" if t == EMBEDDING_THRESHOLD else "")
                print(row(name, alignment_scores(todo, "embedding", embedding_threshold=t, embedder=emb),
                          "embedding"))


if __name__ == "__main__":
    main()
