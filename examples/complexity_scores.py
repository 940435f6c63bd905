"""Causal complexity of ClimateCause statements: the five metrics, C(s) and the paper's analyses.

Run:  CAUSALGRAPH_DATA=../shared/data python examples/complexity_scores.py
CLI:  causalgraph complexity --format csv            (one row per statement)
      causalgraph complexity --summary               (the figures of the paper's §5.2.2)
"""

import causalgraph as cg
from causalgraph.metrics.analysis import complex_in_counts
from causalgraph.model import Correlation, Relation, Statement

corpus = cg.load_climatecause()

# 1. One statement: the five metrics (paper eqs. 1-5) and their plain sum.
c = cg.complexity(corpus["cc-046"])
print("cc-046:", c, "raw =", round(c.raw, 3))

# 2. The whole corpus: C(s) is min-max normalised over the statements scored together.
table = cg.complexity_table(corpus)
top = table.sort_values("c_norm", ascending=False).head(5)
print(top[["statement_id", "c_com", "c_ex", "c_nest", "c_corr", "c_pol", "c_norm", "density"]].to_string(index=False))

# 3. Weights (eq. 7): count only the correlation metric.
only_corr = cg.complexity_table(corpus, weights={"com": 0, "ex": 0, "nest": 0, "pol": 0})
print("max C(s) with corr only:", only_corr.c_norm.max())

# 4. The paper's analyses.
s = cg.complexity_summary(table)
print(f"{s.n_complex} statements ({s.percent_complex:.2f}%) with C(s) > 0, max C(s) = {s.max_c_norm:.3f}")
print("complex in k metrics:", complex_in_counts(table).to_dict())
r = s.length_correlation
print(f"Pearson r(tokens, C(s)) = {r.r:.3f} (n = {r.n}, p = {r.p:.1g})")
print(cg.cooccurrence(table))

# 5. Your own relations: a chain of negative correlations.
mine = Statement("mine", "Warming lowers sea ice, which lowers albedo, which lowers cooling.", True, (
    Relation("warming", "sea ice", correlation=Correlation.NEGATIVE),
    Relation("sea ice", "albedo", correlation=Correlation.POSITIVE),
    Relation("albedo", "cooling", correlation=Correlation.NEGATIVE),
))
print("mine:", cg.complexity(mine))
