"""Encode a statement's causal graph for a prompt, and decode it back.

Run:  CAUSALGRAPH_DATA=../shared/data python examples/encode_graph.py
(CLI:  causalgraph encode --statement cc-007 --encoding graphml)
"""

import causalgraph as cg

corpus = cg.load_climatecause()
graph = cg.compile_graph(corpus["cc-007"])

for encoding in ("adjacency", "single-node", "multinode", "json"):
    print(f"{encoding}:\n  {cg.encode(graph, encoding)}")
print("single-node with correlation signs:\n ", cg.encode(graph, "single-node", signs=True))
print("graphml:\n" + cg.encode(graph, "graphml"))

# Decoding: GraphML is unambiguous; adjacency text needs the events when they contain ", ".
back = cg.decode(cg.encode(graph, "graphml"), "graphml")
assert sorted(back.pairs) == sorted(graph.pairs)
tricky = cg.compile_graph(corpus["cc-032"])
text = cg.encode(tricky, "adjacency")
try:
    cg.decode(text, "adjacency")
except cg.ParseError as exc:
    print("without nodes:", exc)
print("with nodes:", cg.decode(text, "adjacency", nodes=tricky.nodes).pairs == tricky.pairs)
