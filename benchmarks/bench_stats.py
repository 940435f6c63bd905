"""Benchmark: the statistics over runs against the bare library calls they wrap.

Builds, in a temporary folder, two synthetic runs in the runner's format
(``--variants`` prompt variants × ``--items`` items each, default 9 × 512 as
in the paper's CCR+ECI+RC runs, with random position/membership answers and
random statement scores), then measures in the same process:

* ``mcnemar_runs`` (read both runs, pair variants and items, collapse
  positions, McNemar + Bonferroni) against the baseline: the already-paired
  label vectors given straight to ``statsmodels``' McNemar, per variant;
* ``kruskal_runs`` (read the run, look up each statement's score, Kruskal-
  Wallis + ε² + Dunn/Holm) against the baseline: ``scipy.stats.kruskal`` and
  ``scikit_posthocs.posthoc_dunn`` on the already-grouped arrays;
* ``dunn`` alone against ``scikit_posthocs.posthoc_dunn`` (z and both p-value
  columns against the adjusted p-values only).

Figures are ratios our time / baseline time (the price of reading runs and
of the bookkeeping), timed alternately round by round (min / median / max of
``--repeat`` rounds), with the load average before and after.  Run::

    python benchmarks/bench_stats.py
    python benchmarks/bench_stats.py --items 5000 --repeat 3
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from pathlib import Path

from _common import load_average, min_median_max, side_by_side

POSITIONS = ("start", "middle", "end", "none")


def _write(path: Path, task: str, variants: list[str], n: int, labels, rng: random.Random) -> None:
    """A run as the runner writes it: manifest and every line a whole :class:`RunRecord` (its keys in the
    written order), so that reading takes the path a real run takes."""
    from causalgraph.runlog.record import RunRecord

    path.mkdir(parents=True)
    (path / "manifest.json").write_text(json.dumps({"task": task, "variants": variants, "model": "bench"}))
    with open(path / "responses.jsonl", "w") as fh:
        for v in variants:
            for i in range(n):
                lab = rng.choice(labels)
                rec = RunRecord(task=task, variant=v, item_id=f"{task}/{v}/s{i // 8:04d}/e{i:05d}", gold=lab,
                                meta={"statement_id": f"s{i // 8:04d}"}, prompt_sha256="0" * 64,
                                request_key="1" * 64, response=f"<Answer>{lab}</Answer>", label=lab, rule="tag",
                                usage={"prompt_tokens": 250, "completion_tokens": 4}, cost_usd=0.0001,
                                latency_s=0.5, finish_reason="stop", source="api", attempts=1)
                fh.write(json.dumps(rec.to_dict()) + "\n")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=512)
    ap.add_argument("--variants", type=int, default=9)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    import numpy as np
    import scikit_posthocs as sp
    from scipy import stats as ss
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    from causalgraph.runlog.store import load_run
    from causalgraph.stats import dunn, kruskal_runs, mcnemar_runs
    from causalgraph.tasks.climatecause import collapse_position

    rng = random.Random(args.seed)
    variants = [f"V_{i}" for i in range(args.variants)]
    tmp = Path(tempfile.mkdtemp(prefix="bench-stats-"))
    _write(tmp / "member", "ccr-eci-member", variants, args.items, ("yes", "no"), rng)
    _write(tmp / "position", "ccr-eci-position", variants, args.items, POSITIONS, rng)
    scores = {f"s{i:04d}": rng.random() for i in range(args.items // 8 + 1)}

    # Baseline inputs, prepared outside the timing: paired vectors and grouped arrays.
    ma, pa = load_run(tmp / "member"), load_run(tmp / "position")
    tables = []
    grouped = []
    for v in variants:
        a = [r.label for r in ma.records(v)]
        b = [collapse_position(r.label) for r in pa.records(v)]
        t = [[sum(1 for x, y in zip(a, b) if (x, y) == (p, q)) for q in ("no", "yes")] for p in ("no", "yes")]
        tables.append(t)
        recs = pa.records(v)
        vals = np.array([scores[r.meta["statement_id"]] for r in recs])
        labs = np.array([r.label for r in recs])
        grouped.append((vals, labs))

    def base_mcnemar():
        for t in tables:
            sm_mcnemar(t, exact=False, correction=True)

    import pandas as pd

    frames = [pd.DataFrame({"v": vals, "g": [POSITIONS.index(x) for x in labs]}) for vals, labs in grouped]

    def base_kruskal():
        for (vals, labs), frame in zip(grouped, frames):
            ss.kruskal(*[vals[labs == g] for g in POSITIONS])
            sp.posthoc_dunn(frame, val_col="v", group_col="g", p_adjust="holm")

    vals, labs = grouped[0]
    n = args.repeat
    print(f"load average {load_average()}", flush=True)
    rows = [
        ("load_run of both runs vs json.loads of every line",
         side_by_side(lambda: (load_run(tmp / "member"), load_run(tmp / "position")),
                      lambda: [json.loads(x) for f in ("member", "position")
                               for x in (tmp / f / "responses.jsonl").read_text().splitlines()], n)),
        ("mcnemar_runs vs statsmodels mcnemar on paired tables",
         side_by_side(lambda: mcnemar_runs(tmp / "member", tmp / "position"), base_mcnemar, n)),
        ("kruskal_runs vs scipy kruskal + posthoc_dunn on grouped arrays",
         side_by_side(lambda: kruskal_runs(tmp / "position", scores), base_kruskal, n)),
        ("dunn vs scikit_posthocs.posthoc_dunn (holm)",
         side_by_side(lambda: dunn(vals, labs),
                      lambda: sp.posthoc_dunn(frames[0], val_col="v", group_col="g", p_adjust="holm"), n)),
    ]
    print(f"{args.variants} variants x {args.items} items, {n} alternating rounds: min / median / max")
    print(f"{'measure':<64} {'ours s':>26} {'baseline s':>26} {'ratio':>20}")
    for name, r in rows:
        print(f"{name:<64} {min_median_max(r['ours'], 4):>26} {min_median_max(r['baseline'], 4):>26} {min_median_max(r['ratio'], 2):>20}")
    print(f"load average {load_average()}")


if __name__ == "__main__":
    main()
