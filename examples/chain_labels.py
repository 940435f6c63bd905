"""Causal-chain ground truth: membership and position of every event, and graph statistics.

Run:  CAUSALGRAPH_DATA=../shared/data python examples/chain_labels.py
(CLI:  causalgraph chains --format csv)
"""

import collections

import causalgraph as cg

# A hand-made graph: a -> b -> c with a shortcut a -> c, and an unrelated pair.
pairs = [("a", "b"), ("b", "c"), ("a", "c"), ("x", "y")]
print("path rule:         ", {e: str(p) for e, p in cg.chain_labels(pairs).items()})
print("shortest-distance: ", {e: str(p) for e, p in cg.chain_labels(pairs, rule="shortest-distance").items()})
print(cg.chain_stats(pairs))

# The whole corpus: the paper's §6.1 distribution (512 events).
corpus = cg.load_climatecause()
for rule in ("path", "shortest-distance"):
    rows = cg.chain_table(corpus, rule=rule)
    print(rule, len(rows), "events:",
          dict(collections.Counter(r["membership"] for r in rows)),
          dict(collections.Counter(r["position"] for r in rows)))

graph = cg.compile_graph(corpus["cc-064"])
print("cc-064:", cg.chain_stats(graph))
