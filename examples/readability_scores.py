"""Classic readability of ClimateCause statements (the paper's App. E, Table 17), offline.

Run:  CAUSALGRAPH_DATA=../shared/data python examples/readability_scores.py
CLI:  causalgraph readability --summary
"""

import causalgraph as cg

# Any text: Flesch Reading Ease, Flesch-Kincaid Grade, ARI, Coleman-Liau, Dale-Chall.
print(cg.readability("Human-caused climate change is already affecting many weather and climate extremes."))

# A corpus: one row per statement, then the summary laid out like Table 17.
corpus = cg.load_climatecause()
table = cg.readability_table(corpus)
print(table.sort_values("fre").head(3)[["statement_id", "fre", "fkg", "dcrs"]].to_string(index=False))
print(cg.readability_summary(table).round(2))

# Classic readability against causal complexity, statement by statement.
both = table.merge(cg.complexity_table(corpus)[["statement_id", "c_norm"]], on="statement_id")
print("Spearman rho(FRE, C(s)):", round(both["fre"].corr(both["c_norm"], method="spearman"), 3))
