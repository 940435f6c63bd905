"""Graphs out: every statement of the sample corpus as GML and dagitty files, read back by networkx and pgmpy.

Exports with the library call behind `causalgraph export-graphs`, reads a GML file with networkx, prints
the dagitty text, asks pgmpy's DAG a d-separation question, and shows a cycle refused by a DAG format.
"""

import tempfile

import networkx as nx

from causalgraph import compile_graph
from causalgraph.datasets import load_corpus
from causalgraph.errors import ConfigError, SchemaError
from causalgraph.interop.graph_export import export_graphs
from causalgraph.model import Relation

corpus = load_corpus("sample")
with tempfile.TemporaryDirectory() as tmp:
    res = export_graphs(corpus, tmp, "gml")
    print("wrote", [p.name for p in res.files], "skipped (no relations):", res.skipped)
    g = nx.read_gml(res.files[0])
    print("networkx reads", res.files[0].name, "->", list(g.edges(data=True))[:2])

graph = compile_graph(corpus[0])
print(graph.to_dagitty())
try:
    dag = graph.to_pgmpy()
    a, b, c = graph.nodes[:3]
    print(f"pgmpy: {a!r} and {c!r} d-connected given {b!r}?", dag.is_dconnected(a, c, observed=[b]))
except ConfigError as exc:  # pgmpy not installed: pip install 'causalgraph[causal]'
    print("pgmpy unavailable:", exc)

loop = compile_graph([Relation("heat", "drought"), Relation("drought", "fires"), Relation("fires", "heat")])
try:
    loop.to_dagitty()
except SchemaError as exc:
    print("refused:", exc)
