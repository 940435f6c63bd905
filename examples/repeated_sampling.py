"""Repeated sampling: ask every item several times, then reduce the answers (majority, mean, pass@k, pass^k).

``mock/noisy`` stands in for a model sampling at a temperature above 0: it
answers the gold label, except that with probability ``flip`` (here 0.3) a
sample is wrong, drawn anew for every epoch and the same on every rerun.
With a real model, pass ``--model openai/… --temperature default`` (or
``llamacpp/…`` with ``--temperature 0.8``) instead.

    python examples/repeated_sampling.py [OUT_DIR]

The same from the command line:

    causalgraph bench run --task ccr-member --variant A_5 --model mock/noisy --temperature 0.8 --epochs 5
    causalgraph bench report runs/ccr-member__mock-noisy__A_5 --reducer pass@k
    causalgraph stats agreement runs/ccr-member__mock-noisy__A_5
"""

import sys
import tempfile

import causalgraph as cg
from causalgraph.bench.scoring import compute_metrics
from causalgraph.stats.epochs import agreement_runs

out = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="cg-epochs-")

# Chain membership, one variant, the first 60 events, five samples each (300 requests, cached).
res = cg.run_benchmark("ccr-member", "A_5", "mock/noisy", limit=60, temperature=0.8, epochs=5,
                       model_options={"flip": 0.3}, out=f"{out}/member-x5")
run = cg.load_run(res.path)
print(f"{res.path}: {len(run.samples)} samples of {len(run.responses)} items, {res.requests_sent} requests sent")

# One line per reducer: how a study would report the same 300 answers.
for reducer in ("majority", "mean", "pass@1", "pass@k", "pass^k"):
    v = compute_metrics(run, reducer=reducer).variants["A_5"]
    if "pass" in v:
        lo, hi = v["pass_ci95"]
        print(f"{reducer:>8}: {v['pass']:.4f}  95% CI [{lo:.4f}, {hi:.4f}]")
    else:
        spread = f" ± {v['epoch_sd']['f1']:.4f} over epochs" if "epoch_sd" in v else ""
        print(f"{reducer:>8}: F1 {v['f1']:.4f}{spread}")

# Agreement across the five epochs: share of items answered identically, Fleiss' kappa.
print(agreement_runs([run])[["variant", "items", "complete", "identical", "fleiss_kappa"]].to_string(index=False))

# Asking for more epochs later asks only the new ones; everything else comes from the run folder.
more = cg.run_benchmark("ccr-member", "A_5", "mock/noisy", limit=60, temperature=0.8, epochs=7,
                        model_options={"flip": 0.3}, out=f"{out}/member-x5")
print(f"7 epochs: {more.requests_sent} new requests, {more.skipped} samples already answered")
