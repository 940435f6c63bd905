"""A complexity metric of your own: one function of the graph, one registration line.

Here C^depth, the length of the longest causal chain, joins the paper's five: the complexity record,
the table (column c_depth), C(s) and its weights take it up.

Run:  CAUSALGRAPH_DATA=../shared/data python examples/custom_metric.py
"""

import causalgraph as cg
from causalgraph.metrics.chains import chain_stats
from causalgraph.metrics.complexity import complexity_table, metric_names, register_metric


def chain_depth(graph, options):
    """Edges on the longest causal chain of the statement's graph (0 without relations)."""
    return chain_stats(graph, cycle_limit=options.cycle_limit).depth if graph.edges else 0


register_metric("depth", chain_depth, "length of the longest causal chain (edges)")
print("metrics:", ", ".join(metric_names()))

corpus = cg.load_climatecause()
print("cc-046:", cg.complexity(corpus["cc-046"]))

table = complexity_table(corpus)
top = table.sort_values("c_norm", ascending=False).head(5)
print(top[["statement_id", "c_corr", "c_pol", "c_depth", "c_raw", "c_norm"]].to_string(index=False))

# Six weights now: leave the new metric out and C(s) is the paper's again.
paper = complexity_table(corpus, weights={"depth": 0})
print(f"max C(s): {table.c_norm.max():.3f} with depth, {paper.c_norm.max():.3f} without (paper: 1.821)")
