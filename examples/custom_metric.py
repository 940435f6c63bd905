"""A complexity metric of your own: one function of the graph, one registration line.

Here C^depth, the length of the longest causal chain, joins the paper's five: the complexity record
and the table (column c_depth) take it up.  C(s) and c_raw stay the paper's five until a composite
names it (metrics=...), and the table records which metrics and weights made its C(s).

Run:  CAUSALGRAPH_DATA=../shared/data python examples/custom_metric.py
"""

import causalgraph as cg
from causalgraph.metrics.chains import chain_stats
from causalgraph.extend import ComplexityMetric, register_metric
from causalgraph.metrics.complexity import PAPER_METRICS, complexity_table, composite_note, metric_names


def chain_depth(graph, options):
    """Edges on the longest causal chain of the statement's graph (0 without relations)."""
    return chain_stats(graph, cycle_limit=options.cycle_limit).depth if graph.edges else 0


register_metric(ComplexityMetric("depth", chain_depth, "length of the longest causal chain (edges)"))
print("metrics:", ", ".join(metric_names()))

corpus = cg.load_climatecause()
print("cc-046:", cg.complexity(corpus["cc-046"]))

paper = complexity_table(corpus)   # c_depth is a column; C(s) is the paper's
print(composite_note(paper.attrs["composite"]))
# Asked for by name, C^depth becomes a sixth term (six weights, one per metric named).
table = complexity_table(corpus, metrics=(*PAPER_METRICS, "depth"))
print(composite_note(table.attrs["composite"]))
top = table.sort_values("c_norm", ascending=False).head(5)
print(top[["statement_id", "c_corr", "c_pol", "c_depth", "c_raw", "c_norm"]].to_string(index=False))
print(f"max C(s): {table.c_norm.max():.3f} with depth, {paper.c_norm.max():.3f} without (paper: 1.821)")
