"""Benchmark: what repeated sampling costs beyond the samples themselves.

Two runs with the same number of lines, answered by ``mock/noisy`` at
temperature 1 (so the work per request is the same):

* baseline: ``--items × --epochs`` distinct items, one epoch;
* epochs: ``--items`` items, ``--epochs`` epochs each.

For each: the run itself (filling a fresh response cache), reading it back
(``load_run``: the epoch run also groups samples and picks each item's
majority answer) and scoring it (``compute_metrics``; for the epoch run with
each reducer, agreement across epochs included).  Figures are seconds and the
ratio of the epoch run to the baseline; ideal is 1 (epochs add no work per
line).  Run::

    python benchmarks/bench_epochs.py              # 874 items x 10 epochs = 8,740 lines
    python benchmarks/bench_epochs.py --quick
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from causalgraph.bench import Item
from causalgraph.bench.runner import run_benchmark
from causalgraph.bench.scoring import compute_metrics
from causalgraph.runlog.store import load_run
from causalgraph.tasks import Task, register_task

TASK = "bench-epochs"
register_task(Task(name=TASK, labels=("yes", "no"), positive="yes", build_items=lambda c, v: [],
                   list_variants=lambda: ["v"], answer_words=lambda v: {"yes": "Yes", "no": "No"}), replace=True)


def items(n: int) -> list[Item]:
    return [Item(id=f"{TASK}/v/{i:06d}", task=TASK, variant="v", prompt=f"Is {i} even? Answer Yes or No.",
                 gold="yes" if i % 2 == 0 else "no", meta={"statement_id": f"s{i // 7}"}) for i in range(n)]


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--items", type=int, default=874)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--quick", action="store_true", help="100 items x 5 epochs")
    args = ap.parse_args()
    n, e = (100, 5) if args.quick else (args.items, args.epochs)
    tmp = tempfile.mkdtemp(prefix="cg-bench-epochs-")
    os.environ["CAUSALGRAPH_CACHE"] = os.path.join(tmp, "cache")
    opts = dict(temperature=1.0, concurrency=64, model_options={"flip": 0.3})

    rows = []
    t_base, _ = timed(lambda: run_benchmark(TASK, ["v"], "mock/noisy", items=items(n * e), out=f"{tmp}/base", **opts))
    t_ep, _ = timed(lambda: run_benchmark(TASK, ["v"], "mock/noisy", items=items(n), out=f"{tmp}/ep", epochs=e,
                                          **opts))
    rows.append(("bench run (fills the cache)", t_base, t_ep))
    t_base, base = timed(lambda: load_run(f"{tmp}/base"))
    t_ep, ep = timed(lambda: load_run(f"{tmp}/ep"))
    rows.append(("load_run", t_base, t_ep))
    t_base, _ = timed(lambda: compute_metrics(base))
    for reducer in ("majority", "mean", "pass@k", "pass^k"):
        t_ep, _ = timed(lambda: compute_metrics(ep, reducer=reducer))
        rows.append((f"compute_metrics, {reducer}", t_base, t_ep))

    print(f"{n * e:,} lines: baseline {n * e:,} items x 1 epoch; epochs {n:,} items x {e} epochs\n")
    print("| step | baseline s | epochs s | ratio |")
    print("| --- | ---: | ---: | ---: |")
    for name, b, x in rows:
        print(f"| {name} | {b:.2f} | {x:.2f} | {x / b:.2f} |")


if __name__ == "__main__":
    main()
