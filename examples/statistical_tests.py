"""McNemar, Kruskal-Wallis with ε², Dunn/Holm and the corrections on plain vectors.

Usage::

    python examples/statistical_tests.py
"""

from __future__ import annotations

from causalgraph.stats import bonferroni, dunn, holm, kruskal, mcnemar

# Two classifiers' answers on the same ten items.
a = ["yes", "yes", "yes", "no", "no", "yes", "yes", "no", "yes", "yes"]
b = ["no", "no", "yes", "no", "yes", "no", "no", "no", "no", "yes"]
for kw in ({}, {"correction": False}, {"exact": True}, {"exact": True, "midp": True}):
    r = mcnemar(a, b, **kw)
    print(f"McNemar {r.method:<15} b={r.b} c={r.c} statistic={r.statistic:.4f} p={r.p:.4f}")

# Items keyed by id: pairs by id, and an error lists ids present on one side only.
print(mcnemar({"i1": "yes", "i2": "no"}, {"i2": "no", "i1": "no"}, exact=True))

# Three groups of scores.
values = [0.0, 0.1, 0.1, 0.3, 0.4, 0.4, 0.9, 1.1, 1.3, 1.2, 0.2, 0.8]
groups = ["none", "none", "none", "start", "start", "none", "end", "end", "end", "start", "none", "end"]
k = kruskal(values, groups)
print(f"\nKruskal-Wallis H({k.df})={k.H:.4f} p={k.p:.4g} epsilon2={k.epsilon2:.4f} (k={k.k}, n={k.n})")
print(dunn(values, groups, p_adjust="holm").to_string(index=False))

p = [0.001, 0.01, 0.02, 0.04, 0.3]
print("\nBonferroni", bonferroni(p).reject, "threshold", round(bonferroni(p).threshold, 4))
print("Holm      ", holm(p).reject, [round(x, 4) for x in holm(p).p_adjusted])
