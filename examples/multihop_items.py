"""Multi-hop correlation inference: compose the correlation signs along causal chains.

Run:  CAUSALGRAPH_DATA=../shared/data python examples/multihop_items.py
(CLI:  causalgraph items --task corri-multihop --variant 0_3)
"""

import collections

import causalgraph as cg
from causalgraph.tasks.climatecause import items
from causalgraph.tasks.climatecause import multihop_chains

corpus = cg.load_climatecause()
graph = cg.compile_graph(corpus["cc-003"])
for chain in multihop_chains(graph)[:3]:
    print(" -> ".join(chain.events), chain.correlations, "=>", chain.composed)

its = items(corpus, "corri-multihop", "0_3")
print(len(its), "items; gold", dict(collections.Counter(i.gold for i in its)),
      "; hops", dict(collections.Counter(i.meta["hops"] for i in its)))
print(its[0].prompt)
