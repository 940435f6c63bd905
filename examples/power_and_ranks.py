"""Plan a comparison before the run, then tell the arms apart after it (issue 37).

1. ``stats power`` from assumed numbers: power, minimum detectable effect and statements needed for
   McNemar's exact test and the statement-clustered test.
2. Three mock runs of the same 60 ``ccr-member`` items (the oracle, ``mock/noisy`` wrong with
   probability 0.3, and a constant "No"): the same figures from a pilot pair, then ``stats compare
   --rank``: each arm's F1 with its interval, tie groups after Holm, and rank intervals over
   statements.

Run: ``python examples/power_and_ranks.py`` (needs the ClimateCause corpus: CAUSALGRAPH_DATA).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from causalgraph.bench.runner import run_benchmark
from causalgraph.stats.power import Design, pilot_pair, power_table
from causalgraph.stats.ranking import rank_runs

# 1. Before any run: 874 items over 63 statements, the arms disagree on 20 % of items, B better by 5 points.
sizes = [874 // 63 + (1 if i < 874 % 63 else 0) for i in range(63)]
design = Design(sizes, p_b=0.075, p_c=0.125, icc=0.1)
for row in power_table(design):
    print(f"{row['test']:9s} power {row['power']:.3f}  MDE {row['mde']:.3f}  "
          f"statements needed {row['statements_needed']} ({row['items_needed']} items)")

with tempfile.TemporaryDirectory() as tmp:
    runs = []
    for name, model, opts in (("oracle", "mock/oracle", {}), ("noisy30", "mock/noisy", {"flip": 0.3}),
                              ("no", "mock/constant", {"text": "No"})):
        res = run_benchmark("ccr-member", ["A_5"], model, out=str(Path(tmp) / name), limit=60, temperature=1.0,
                            model_options=opts, cache_path=str(Path(tmp) / "cache.sqlite"))
        runs.append(res.path)
    # 2a. A pilot pair measures discordance and the intra-statement correlation.
    pilot = pilot_pair(runs[1], runs[0])
    print(f"\npilot: discordance {pilot.discordance:.3f}, delta {pilot.delta:+.3f}, icc {pilot.icc:.3f}")
    for row in power_table(pilot.scaled(63)):
        print(f"{row['test']:9s} with 63 such statements: power {row['power']:.3f}, MDE {row['mde']:.3f}")
    # 2b. Which arms are separable?
    table = rank_runs(runs, by="model", n_boot=500)
    print()
    print(table[["arm", "score", "ci_low", "ci_high", "group", "rank", "rank_low", "rank_high"]].to_string(index=False))
