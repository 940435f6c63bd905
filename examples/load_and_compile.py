"""Load ClimateCause, look at one statement, compile its causal graph.

Run:  CAUSALGRAPH_DATA=../shared/data python examples/load_and_compile.py
(without CAUSALGRAPH_DATA the corpus is downloaded once into ~/.cache/causalgraph)
"""

import causalgraph as cg

corpus = cg.load_climatecause()
print(f"{len(corpus)} statements, {len(corpus.relations)} relations")

statement = corpus["cc-007"]
print(statement.text)

graph = cg.compile_graph(statement)
for edge in graph.edges:
    print(f"  {edge.cause!r} -> {edge.effect!r}  correlation={edge.correlation}  relation type={edge.polarity}")
print("common cause/effect structures:", [(b.event, b.overarching) for b in graph.common])
print("nesting events:", list(graph.nesting))

# the same graph for networkx users
g = graph.to_networkx()
print("networkx:", g.number_of_nodes(), "nodes,", g.number_of_edges(), "edges")

# PubMedCausal rows load into the same records
pmc = cg.load_pubmedcausal(split="test")
print(f"PubMedCausal test: {len(pmc)} rows, {len(pmc.relations)} pairs, "
      f"{pmc.report['labels_normalised']} labels normalised")
