"""Align a model's events to gold events before scoring its graph (`compare-graphs --align`).

1. Aligns a handful of events by hand-checkable rules: exact, normalised, token overlap (one-to-one, Hungarian),
   with a merge reported.
2. Scores the graphs DeepSeek-R1-Distill-Qwen-32B extracted from 33 PubMedCausal test rows (the authors' released
   predictions, tests/data/alignment/) against gold, by exact names and after token alignment, pooled over the rows
   with 95 % bootstrap intervals, and writes the alignment to a CSV file as `--alignment FILE` does.
"""

import tempfile
from pathlib import Path

from causalgraph.alignment.events import align_events, write_alignment
from causalgraph.alignment.scores import compare_aligned
from causalgraph.extraction.producer import corpus_from_extraction
from causalgraph.model import Corpus

al = align_events(["Warming.", "global warming", "rise of the sea level", "droughts"],
                  ["warming", "sea level rise", "drought"], rule="token")
for m in al.matches + al.merges:
    print(f"{m.predicted!r:28} -> {m.gold!r:18} {m.rule:12} {m.score:.3f}")
print("unaligned:", al.unaligned_predicted, "missing:", al.missing_gold)

PRED = Path(__file__).resolve().parents[1] / "tests" / "data" / "alignment" / "deepseek_fewshot_33.json"
pred = corpus_from_extraction(str(PRED), merge="normalized")
gold_all = corpus_from_extraction("pubmedcausal:test", merge="normalized")
ids = {s.id for s in pred}
gold = Corpus(gold_all.name, [s for s in gold_all if s.id in ids], source=gold_all.source)
for rule in ("exact", "token"):
    cmp = compare_aligned(gold, pred, rule=rule)
    pooled = {d["measure"]: d for d in cmp.pooled()}
    f1, shd = pooled["edge_f1"], pooled["shd"]
    print(f"--align {rule:5}: edge F1 {f1['value']:.3f} [{f1['ci_low']:.3f}, {f1['ci_high']:.3f}], "
          f"mean SHD {shd['value']:.2f} over {shd['n']} rows")
with tempfile.TemporaryDirectory() as tmp:
    out = Path(tmp) / "alignment.csv"
    write_alignment(cmp.alignment_rows(), str(out))
    lines = out.read_text(encoding="utf-8").splitlines()
    print(f"{len(lines) - 1} alignment rows; first: {lines[1]}")
