"""PubMedCausal pairs as causal graphs: node merging, chains and CCR items.

Compiles the gold pairs of the test split (or a run / predictions file given as
argument) into one causal graph per row, under each node-merging rule, shows a
row where normalising spans links two pairs into a chain, and builds CCR
position items over the rows that hold a chain.

    CAUSALGRAPH_DATA=../shared/data python examples/pubmedcausal_graphs.py [RUN_OR_FILE]
"""

import sys
from collections import Counter

import causalgraph as cg
from causalgraph.extraction import chain_statistics
from causalgraph.tasks.extraction_chains import chain_items

source = sys.argv[1] if len(sys.argv) > 1 else "pubmedcausal:test"

corpora = {m: cg.corpus_from_extraction(source, merge=m) for m in ("exact", "normalized", "fuzzy")}
for merge, corpus in corpora.items():
    print(f"{merge:>10}: {chain_statistics(corpus)}")

# A row that holds a chain only once spans are normalised.
exact, norm = corpora["exact"], corpora["normalized"]
with_chain = {s.id for s in exact if chain_statistics(cg.Corpus("x", [s]))["rows_with_chain"]}
for st in norm:
    if st.id not in with_chain and chain_statistics(cg.Corpus("x", [st]))["rows_with_chain"]:
        g = cg.compile_graph(st)
        print(f"\n{st.id}: {st.text[:160]}…")
        for cause, effect in g.pairs:
            print(f"  {cause} → {effect}")
        print("  positions:", {k: str(v) for k, v in cg.chain_labels(g).items()})
        break

items = chain_items(source, "ccr-position", "A_4", merge="normalized")
print(f"\n{len(items)} CCR position items over rows with a chain:", dict(Counter(i.gold for i in items)))
print(items[0].prompt[:300], "…")
