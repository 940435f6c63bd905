"""Statistics for the benchmark: McNemar, Kruskal-Wallis with ε², Dunn with Holm, corrections.

The tests work on plain vectors; :mod:`causalgraph.stats.runs` and
:mod:`causalgraph.stats.consistency` apply them to benchmark runs the way the
ClimateCause paper does (§6.3, Tables 21 and 22).  See docs/statistics.md.

Examples
--------
>>> from causalgraph.stats import mcnemar, kruskal
>>> mcnemar([1, 1, 0, 0, 1, 1], [0, 0, 0, 1, 0, 1], correction=False).b
3
>>> round(kruskal([1, 2, 3, 4, 5, 6], ["a"] * 3 + ["b"] * 3).epsilon2, 4)
0.7143
"""

from __future__ import annotations

from .consistency import ConsistencyReport, consistency
from .corrections import Correction, bonferroni, holm
from .kruskal import KruskalResult, dunn, epsilon_squared, kruskal
from .mcnemar import McNemarResult, mcnemar, paired_labels
from .pairing import pair_key
from .runs import KruskalAnalysis, kruskal_runs, mcnemar_runs, pair_variants, variant_key
from .sign_consistency import SignConsistencyReport, sign_consistency

__all__ = [
    "mcnemar",
    "McNemarResult",
    "paired_labels",
    "bonferroni",
    "holm",
    "Correction",
    "kruskal",
    "KruskalResult",
    "epsilon_squared",
    "dunn",
    "mcnemar_runs",
    "kruskal_runs",
    "KruskalAnalysis",
    "consistency",
    "ConsistencyReport",
    "sign_consistency",
    "SignConsistencyReport",
    "pair_key",
    "pair_variants",
    "variant_key",
]
