"""Annotate ClimateCause statements with a model and measure how far its C(s) lands from gold.

Run:  CAUSALGRAPH_DATA=../shared/data python examples/evaluate_annotation.py [PROVIDER/MODEL] [LIMIT]
      (default mock/oracle, which answers the gold annotation: every figure is 1 or 0 error;
       llamacpp/smollm2 5 runs the bundled 135M model on five statements, a few minutes on a CPU)
CLI:  causalgraph annotate --data climatecause --model llamacpp/smollm2 --model-option n_ctx=8192 --limit 5 \
          --out runs/annotate-smollm2
      causalgraph evaluate-annotation runs/annotate-smollm2 [--per-statement] [--format json]
"""

import sys
import tempfile
from pathlib import Path

import causalgraph as cg
from causalgraph.apps import annotate_corpus

model = sys.argv[1] if len(sys.argv) > 1 else "mock/oracle"
limit = int(sys.argv[2]) if len(sys.argv) > 2 else 10
options = {"n_ctx": 8192} if model.startswith("llamacpp/") else {}

out = Path(tempfile.mkdtemp()) / "annotate-run"
res = annotate_corpus(cg.load_climatecause(), model, out=out, limit=limit, model_options=options,
                      max_tokens=1024 if model.startswith("llamacpp/") else None)
print(f"run {res.path}: {res.requests_sent} requests, "
      f"{res.metrics.parse_failures} unreadable answers of {res.metrics.items}")

report = cg.evaluate_annotation(out)
for row in report.rows():
    value = "n/a" if row["value"] is None else f"{row['value']:.4f}"
    print(f"  {row['measure']:<32} {value:>8}  {'' if row['n'] is None else 'n=' + str(row['n'])}")
