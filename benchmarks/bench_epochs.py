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
line), timed alternately over ``--repeat`` rounds (min / median / max, the ratio
round by round), with the load average.  Run::

    python benchmarks/bench_epochs.py              # 874 items x 10 epochs = 8,740 lines
    python benchmarks/bench_epochs.py --quick
"""

from __future__ import annotations

import argparse
import os
import tempfile

from _common import load_average, min_median_max, side_by_side

from causalgraph.bench import Item
from causalgraph.bench.runner import run_benchmark
from causalgraph.bench.scoring import compute_metrics
from causalgraph.runlog.store import load_run
from causalgraph.tasks import Binary, Task, register_task

TASK = "bench-epochs"
register_task(Task(name=TASK, build_items=lambda c, v: [],
                   answers=Binary(labels=("yes", "no"), positive="yes", answer_words=lambda v: {"yes": "Yes", "no": "No"}),
                   list_variants=lambda: ["v"], default_data="climatecause"), replace=True)


def items(n: int) -> list[Item]:
    return [Item(id=f"{TASK}/v/{i:06d}", task=TASK, variant="v", prompt=f"Is {i} even? Answer Yes or No.",
                 gold="yes" if i % 2 == 0 else "no", meta={"statement_id": f"s{i // 7}"}) for i in range(n)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--items", type=int, default=874)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3, help="alternating rounds (default 3)")
    ap.add_argument("--quick", action="store_true", help="100 items x 5 epochs")
    args = ap.parse_args()
    n, e = (100, 5) if args.quick else (args.items, args.epochs)
    tmp = tempfile.mkdtemp(prefix="cg-bench-epochs-")
    opts = dict(temperature=1.0, concurrency=64, model_options={"flip": 0.3})
    print(f"load average {load_average()}; {args.repeat} alternating rounds, min / median / max", flush=True)

    written: dict[str, list[str]] = {"base": [], "ep": []}

    def run(kind: str) -> None:
        # each run into a folder and a fresh response cache of its own; the folders are kept in order
        k = len(written[kind])
        os.environ["CAUSALGRAPH_CACHE"] = os.path.join(tmp, f"cache-{kind}-{k}")
        out = f"{tmp}/{kind}-{k}"
        if kind == "base":
            run_benchmark(TASK, ["v"], "mock/noisy", items=items(n * e), out=out, **opts)
        else:
            run_benchmark(TASK, ["v"], "mock/noisy", items=items(n), out=out, epochs=e, **opts)
        written[kind].append(out)

    # a small run of each kind first, so that neither side's first round pays the imports
    os.environ["CAUSALGRAPH_CACHE"] = os.path.join(tmp, "cache-warm")
    run_benchmark(TASK, ["v"], "mock/noisy", items=items(20), out=f"{tmp}/warm-1", **opts)
    run_benchmark(TASK, ["v"], "mock/noisy", items=items(10), out=f"{tmp}/warm-2", epochs=2, **opts)
    rows = [("bench run (fills the cache)", side_by_side(lambda: run("ep"), lambda: run("base"), args.repeat))]
    base_dir, ep_dir = written["base"][0], written["ep"][0]
    rows.append(("load_run", side_by_side(lambda: load_run(ep_dir), lambda: load_run(base_dir), args.repeat)))
    base, ep = load_run(base_dir), load_run(ep_dir)
    for reducer in ("majority", "mean", "pass@k", "pass^k"):
        rows.append((f"compute_metrics, {reducer}",
                     side_by_side(lambda: compute_metrics(ep, reducer=reducer), lambda: compute_metrics(base),
                                  args.repeat)))

    print(f"{n * e:,} lines: baseline {n * e:,} items x 1 epoch; epochs {n:,} items x {e} epochs\n")
    print("| step | baseline s | epochs s | ratio epochs / baseline |")
    print("| --- | ---: | ---: | ---: |")
    for name, r in rows:
        print(f"| {name} | {min_median_max(r['baseline'], 2)} | {min_median_max(r['ours'], 2)} | {min_median_max(r['ratio'], 2)} |")
    print(f"load average {load_average()}")


if __name__ == "__main__":
    main()
