"""CauseNet at scale: stream a CauseNet JSON Lines file into one merged graph, label and count its chains
per weakly connected component, and cut it into small statements with provenance.

Run:  python examples/causenet_graph.py
(CLI:  causalgraph chains --data causenet:FILE [--components];
       causalgraph sample-subgraphs --data causenet:FILE --random 20 --hops 2 --max-nodes 12 -o subgraphs.csv)

The file below is written here in CauseNet's layout (a few relations of our own, not CauseNet data); point
`load_causenet` at causenet-precision.jsonl.bz2 or causenet-full.jsonl.bz2 for the real graph.
"""

import bz2
import csv
import json
from pathlib import Path

from causalgraph.datasets.causenet import find_concept, load_causenet
from causalgraph.metrics.graph_chains import POSITIONS, graph_chain_stats, graph_positions
from causalgraph.graph.subgraphs import sample_subgraphs, subgraph_rows, write_relations


def line(cause, effect, *sentences):
    sources = [{"type": "wikipedia_sentence", "payload": {"sentence": {"surface": s}}} for s in sentences]
    return json.dumps({"causal_relation": {"cause": {"concept": cause}, "effect": {"concept": effect}},
                       "sources": sources or [{"type": "wikipedia_infobox", "payload": {}}]}) + "\n"


folder = Path("causenet-example")  # in the current folder
folder.mkdir(exist_ok=True)
path = folder / "causenet-mini.jsonl.bz2"
with bz2.open(path, "wt") as f:
    f.write(line("smoking", "lung_cancer", "Smoking causes lung cancer.", "Most lung cancer is caused by smoking."))
    f.write(line("lung_cancer", "death", "Lung cancer is a leading cause of death."))
    f.write(line("asbestos", "lung_cancer", "Asbestos exposure causes lung cancer."))
    f.write(line("smoking", "lung_cancer", "Heavy smoking leads to lung cancer."))
    f.write(line("poverty", "stress"))
    f.write(line("stress", "poverty"))  # a 2-cycle: chains are counted on its condensation
    f.write(line("stress", "illness", "Chronic stress causes illness."))

g = load_causenet(path, keep_sentences=True)
print(f"{g.n_nodes} concepts, {g.n_edges} edges, engine {g.report['engine']}")
for e in range(g.n_edges):
    print(f"  {g.name_of(g.src[e])} -> {g.name_of(g.dst[e])}: {g.edge_provenance(e)}")

codes = graph_positions(g)  # the paper's rule, one code per concept
stats = graph_chain_stats(g)
print({g.name_of(i): str(POSITIONS[c]) for i, c in enumerate(codes.tolist())})
for row in stats.rows():
    print("component", row)
print("whole graph:", stats.total)

subs, counts = sample_subgraphs(g, around=[find_concept(g, "lung_cancer"), find_concept(g, "stress")], hops=1,
                                max_nodes=10, seed=0)
out = write_relations(subgraph_rows(g, subs), folder / "subgraphs.csv")
with open(out, newline="") as f:
    for r in csv.DictReader(f):
        print(r["statement_id"], r["cause"], "->", r["effect"], "|", r["text"])
print(f"wrote {counts['written']} statements to {out}; read them with --data {out.name}")
