"""Plan a comparison before the run, then tell the arms apart after it (issue 37).

1. ``stats power`` from assumed numbers: power, minimum detectable effect and statements needed for
   McNemar's exact test and the statement-clustered test; where the clustered test's analytic figures are
   withheld (few discordant items a statement: its misfit above 0.025), the simulation gives them.
2. Three mock runs of all 512 ``ccr-member`` A_5 items, 63 statements (the oracle, ``mock/noisy`` wrong
   with probability 0.3, and a constant "No"): the same figures from a pilot pair, then ``stats compare
   --rank``: each arm's F1 with its interval, tie groups after Holm, and rank intervals over
   statements; the same table on the ``bench view`` comparison page (and ``bench report --rank model``).
   With fewer statements the intervals are not given (rank intervals below 30, score intervals below 40:
   they undercover there, docs/statistics.md) and the note says so; the scores, ranks and groups stay.

3. ``bench plan --power``: the same figures for a planned run's own items and statements.

Run: ``python examples/power_and_ranks.py`` (needs the ClimateCause corpus: CAUSALGRAPH_DATA).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from causalgraph.bench.runner import run_benchmark
from causalgraph.bench.plan import plan_run
from causalgraph.stats.power import Design, pilot_pair, plan_power, power_table
from causalgraph.stats.ranking import rank_runs

# 1. Before any run: 874 items over 63 statements, the arms disagree on 20 % of items, B better by 5 points.
def shown(value, spec):  # an undefined figure is "—", never a number
    return "—" if value is None or value != value else format(value, spec)


sizes = [874 // 63 + (1 if i < 874 % 63 else 0) for i in range(63)]
design = Design(sizes, p_b=0.075, p_c=0.125, icc=0.1)
for mode in ("analytic", "simulation"):
    for row in power_table(design, mode=mode, n_sim=2000):
        print(f"{row['test']:9s} {mode:10s} power {shown(row['power'], '.3f')}  MDE {shown(row['mde'], '.3f')}  "
              f"statements needed {shown(row['statements_needed'], 'd')} ({shown(row['items_needed'], 'd')} items)"
              + (f"  ({row['note']})" if row["note"] else ""))

with tempfile.TemporaryDirectory() as tmp:
    runs = []
    for name, model, opts in (("oracle", "mock/oracle", {}), ("noisy30", "mock/noisy", {"flip": 0.3}),
                              ("no", "mock/constant", {"text": "No"})):
        res = run_benchmark("ccr-member", ["A_5"], model, out=str(Path(tmp) / name), temperature=1.0,
                            model_options=opts, cache_path=str(Path(tmp) / "cache.sqlite"))
        runs.append(res.path)
    # 2a. A pilot pair measures discordance and the intra-statement correlation.
    pilot = pilot_pair(runs[1], runs[0])
    print(f"\npilot: discordance {pilot.discordance:.3f}, delta {pilot.delta:+.3f}, icc {pilot.icc:.3f}")
    for row in power_table(pilot.scaled(63)):
        print(f"{row['test']:9s} with 63 such statements: power {shown(row['power'], '.3f')}, "
              f"MDE {shown(row['mde'], '.3f')}")
    # 2b. Which arms are separable?
    table = rank_runs(runs, by="model", n_boot=500)
    print()
    print(table[["arm", "score", "ci_low", "ci_high", "group", "rank", "rank_low", "rank_high"]].to_string(index=False))
    # 2c. The same table, from the same function, on the comparison page of `bench view RUN RUN RUN` (and after
    #     the scores of `bench report RUN RUN RUN --rank model`), with stats compare --rank's 1,000 resamples.
    from causalgraph.viewer import load_views, write_run_page

    views, comparison = load_views(runs)
    page = write_run_page(runs, Path(tmp) / "compare.html", views=(views, comparison))
    print(f"\n{page.name}: ranking by {comparison['ranking']['by']}")
    for r in comparison["ranking"]["rows"]:
        print(f"  {r['arm']:14s} F1 {shown(r['score'], '.3f')} [{shown(r['ci_low'], '.3f')}, "
              f"{shown(r['ci_high'], '.3f')}]  group {r['group'] or '—':3s} rank {shown(r['rank'], 'g')} "
              f"[{shown(r['rank_low'], 'g')}, {shown(r['rank_high'], 'g')}]" + (f"  ({r['note']})" if r["note"] else ""))

# 3. The planned run's own statements (ccr-member A_5: 512 items in 63 statements of 2 to 43 items), with the
# pilot's discordance and correlation: what `causalgraph bench plan --power --pilot A,B` prints.
plan = plan_run(["ccr-member"], "openai/gpt-5.1-2025-11-13", variants=["A_5"], statement_sizes=True)
print()
for row in plan_power(plan, pilot):
    print(f"{row['task']} {row['variant']} {row['test']:9s} items {row['items']}, statements {row['statements']}: "
          f"power {shown(row['power'], '.3f')}, MDE {shown(row['mde'], '.3f')}")
