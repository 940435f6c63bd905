"""The OpenAI Batch API path: plan, submit, collect, report.

Without ``OPENAI_API_KEY`` it only plans: the number of requests of the
chosen task and variants and an estimate of their cost at Batch prices.
With a key it submits them (``causalgraph bench batch submit``) and, when
run again, collects what has finished (``causalgraph bench batch collect``)
and prints the report; re-running is always safe.

    python examples/batch_api.py [OUT_DIR]
"""

import os
import sys

from causalgraph.bench.batch import batch_status, collect_batch, submit_batch
from causalgraph.bench.plan import plan_run
from causalgraph.bench.config import RunConfig
from causalgraph.bench.scoring import report_rows
from causalgraph.runlog.store import load_run
from causalgraph.cli._common import emit_table

MODEL = "openai/gpt-5.1-2025-11-13"
out = sys.argv[1] if len(sys.argv) > 1 else "runs/gpt51-corri-batch"

rows = plan_run(["corri"], MODEL, variants=["0_1", "0_2", "0_3"], batch=True)
emit_table(rows, "table", columns=["task", "variant", "requests", "input_tokens_est", "output_tokens_est",
                                   "cost_usd_est"])
if not os.environ.get("OPENAI_API_KEY"):
    print("\nOPENAI_API_KEY is not set: planned only.")
    sys.exit(0)

if not os.path.exists(os.path.join(out, "batches.json")):
    # temperature=None: the provider's default, as the paper ran GPT-5.1.
    sub = submit_batch(RunConfig(task="corri", variants=["0_1", "0_2", "0_3"], model=MODEL, temperature=None,
                                 out=out))
    print(f"submitted {sub.requests} requests as {sub.batch_ids}; run this script again later to collect")
else:
    col = collect_batch(out)
    print(batch_status(out))
    if col.pending == 0:
        emit_table(report_rows(load_run(out).metrics), "table", columns=["variant", "items", "precision", "recall", "f1"])
