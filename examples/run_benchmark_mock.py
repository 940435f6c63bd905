"""Run a ClimateCause benchmark end to end with the deterministic mock backends.

No model, no network: ``mock/oracle`` answers the gold label in each prompt
variant's wording, ``mock/constant`` always answers the same text.  The run
directories show what every real run writes (manifest.json,
responses.jsonl, metrics.json); running the script twice shows resuming (0
requests the second time).

    python examples/run_benchmark_mock.py [OUT_DIR]
"""

import sys
import tempfile

import causalgraph as cg
from causalgraph.bench.scoring import report_rows
from causalgraph.cli._common import emit_table

out = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="cg-bench-")

# CorrI, three zero-shot variants (positive/negative, same/opposite, increase/decrease), 50 relations each.
oracle = cg.run_benchmark("corri", "0_1,0_2,0_3", "mock/oracle", limit=50, out=f"{out}/corri-oracle")
print(f"{oracle.path}: {oracle.requests_sent} requests, {oracle.cache_hits} cache hits, {oracle.skipped} resumed")

# CCR position with a model that always says "middle": per-class scores show what that earns.
const = cg.run_benchmark("ccr-position", ["A_4", "SN_4", "ML_4"], "mock/constant",
                         model_options={"text": "<Answer>middle</Answer>"}, limit=100, out=f"{out}/position-middle")

for res in (oracle, const):
    run = cg.load_run(res.path)
    emit_table(report_rows(run.metrics, run_name=run.model), "table",
               columns=["run", "variant", "items", "parse_fail_rate", "precision", "recall", "f1", "f1_ci95"])
    print()
per_class = const.metrics.variants["A_4"]["per_class"]
print("A_4 per class:", {k: round(v["f1"], 3) for k, v in per_class.items()})
