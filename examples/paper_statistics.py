"""The ClimateCause paper's statistics (§6.3, Tables 21 and 22) over benchmark runs.

Runs four small benchmarks with the deterministic mock backends (no API key,
no model download), then:

1. McNemar per prompt variant, CorrI against CorrI+RC, Bonferroni-corrected
   (Table 21a).  The CorrI+RC "model" answers "positive" to everything, so
   every relation with a negative gold label is discordant.
2. McNemar of chain membership against chain position collapsed to
   membership (Table 21c).  The membership "model" answers "yes" to every
   event, the position one is an oracle, so every event outside a chain is
   discordant.
3. Kruskal-Wallis of C(s) across the predicted position labels, with ε² and
   Dunn/Holm (Table 22).
4. The consistency analysis of chain predictions.

Usage::

    CAUSALGRAPH_DATA=../shared/data python examples/paper_statistics.py [OUT_DIR]

The same analyses from the shell::

    causalgraph stats mcnemar OUT/corri OUT/corri-rc
    causalgraph stats kruskal OUT/ccr-eci-position --metric c_norm
    causalgraph stats consistency OUT/ccr-eci-position --member-run OUT/ccr-eci-member
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from causalgraph import complexity_table, load_climatecause
from causalgraph.bench.runner import run_benchmark
from causalgraph.stats import consistency, kruskal_runs, mcnemar_runs


def main(out: Path) -> None:
    corpus = load_climatecause()
    runs = {
        "corri": run_benchmark("corri", ["0_1", "F_1", "CoT_1"], "mock/oracle", out=out / "corri"),
        "corri-rc": run_benchmark("corri-rc", ["RC_0_1", "RC_F_1", "RC_CoT_1"], "mock/constant",
                                  model_options={"text": "positive"}, out=out / "corri-rc"),
        "member": run_benchmark("ccr-eci-member", ["0_4"], "mock/constant", model_options={"text": "yes"},
                                out=out / "ccr-eci-member"),
        "position": run_benchmark("ccr-eci-position", ["0_4"], "mock/oracle", out=out / "ccr-eci-position"),
    }
    paths = {name: r.path for name, r in runs.items()}

    print("Table 21(a): CorrI vs CorrI+RC (chi-squared with continuity correction, Bonferroni)")
    t = mcnemar_runs(paths["corri"], paths["corri-rc"])
    print(t[["variant_a", "variant_b", "n", "b", "c", "statistic", "p", "sig"]].to_string(index=False))

    print("\nTable 21(c): CCR+ECI+RC membership vs position collapsed to membership")
    t = mcnemar_runs(paths["member"], paths["position"])
    print(t[["variant_a", "variant_b", "n", "b", "c", "statistic", "p", "sig"]].to_string(index=False))

    print("\nTable 22: Kruskal-Wallis of C(s) across predicted position labels")
    c = complexity_table(corpus)
    res = kruskal_runs(paths["position"], dict(zip(c["statement_id"], c["c_norm"])), metric="c_norm")
    print(res.table[["variant", "k", "n", "H", "p", "epsilon2", "sig"]].to_string(index=False))
    print(res.dunn[["group_a", "group_b", "z", "p", "p_adj"]].to_string(index=False))

    print("\nConsistency of chain predictions")
    rep = consistency(paths["position"], member_run=paths["member"])
    print(rep.by_variant.to_string(index=False))
    print(rep.summary)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="causalgraph-stats-"))
    main(target)
