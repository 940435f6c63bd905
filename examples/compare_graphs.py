"""Graph-level scores: SHD (causalgraph) and SID with the adjustment identification distances (gadjid).

Scores a predicted Asia network with one reversed and one missing arc against the published one, and a
whole folder of predicted graphs, as `causalgraph compare-graphs GOLD PRED` does.
"""

import tempfile
from pathlib import Path

import networkx as nx

from causalgraph.datasets import load_corpus
from causalgraph.metrics.graph_scores import compare_corpora, compare_graphs

asia = [("asia", "tub"), ("smoke", "lung"), ("smoke", "bronc"), ("tub", "either"), ("lung", "either"),
        ("either", "xray"), ("either", "dysp"), ("bronc", "dysp")]
guess = [("tub", "asia"), ("smoke", "lung"), ("smoke", "bronc"), ("tub", "either"), ("lung", "either"),
         ("either", "xray"), ("either", "dysp")]
c = compare_graphs(asia, guess)
print(f"SHD {c.shd}, SID {c.sid} ({c.sid_norm:.3f}), parent AID {c.parent_aid}, ancestor AID {c.ancestor_aid}, "
      f"oset AID {c.oset_aid}")

with tempfile.TemporaryDirectory() as tmp:
    for name, edges in (("gold", asia), ("pred", guess)):
        (Path(tmp) / name).mkdir()
        nx.write_gml(nx.DiGraph(edges), Path(tmp) / name / "asia.gml")
    rows, notes = compare_corpora(load_corpus(Path(tmp) / "gold"), load_corpus(Path(tmp) / "pred"))
    print([{k: r[k] for k in ("statement_id", "shd", "sid", "oset_aid")} for r in rows], notes)

# A gold graph file with events but no edge is scored too, its events counted as gadjid counts them:
# a prediction that adds one edge among three events has SHD 1 over 3 event pairs.
with tempfile.TemporaryDirectory() as tmp:
    empty = nx.DiGraph()
    empty.add_nodes_from(["smoke", "lung", "xray"])
    nx.write_gml(empty, Path(tmp) / "gold.gml")
    nx.write_gml(nx.DiGraph([("smoke", "lung")]), Path(tmp) / "pred.gml")
    rows, notes = compare_corpora(load_corpus(Path(tmp) / "gold.gml"), load_corpus(Path(tmp) / "pred.gml"))
    print({k: rows[0][k] for k in ("n_events", "gold_edges", "pred_edges", "shd", "shd_norm")})
