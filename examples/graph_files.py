"""Graph files as a corpus: the Asia network (bnlearn) as GML, chain positions on it, and a folder of graphs.

Loads the Asia network's published structure, builds ccr-position items on it (no statement text: the
items say so in their meta, and a task that needs the text is refused), and reads a folder holding a
GraphML and a node-link JSON graph with correlation labels on their edges.
"""

import json
import tempfile
from pathlib import Path

import networkx as nx

from causalgraph.datasets import load_corpus
from causalgraph.errors import ConfigError
from causalgraph.metrics.complexity import complexity_table
from causalgraph.tasks import get_task

ASIA = """graph [ directed 1
  node [ id 0 label "asia" ]  node [ id 1 label "tub" ]  node [ id 2 label "smoke" ]  node [ id 3 label "lung" ]
  node [ id 4 label "bronc" ]  node [ id 5 label "either" ]  node [ id 6 label "xray" ]  node [ id 7 label "dysp" ]
  edge [ source 0 target 1 ]  edge [ source 2 target 3 ]  edge [ source 2 target 4 ]  edge [ source 1 target 5 ]
  edge [ source 3 target 5 ]  edge [ source 5 target 6 ]  edge [ source 5 target 7 ]  edge [ source 4 target 7 ]
]"""

with tempfile.TemporaryDirectory() as tmp:
    asia = Path(tmp) / "asia.gml"
    asia.write_text(ASIA, encoding="utf-8")
    items = get_task("ccr-position").items(load_corpus(asia), "A_5")
    print({it.meta["event"]: it.gold for it in items})
    print("meta says:", {k: items[0].meta[k] for k in ("statement_id", "statement_text")})
    try:
        get_task("corri").items(load_corpus(asia), "0_1")
    except ConfigError as exc:
        print("refused:", exc)

    folder = Path(tmp) / "graphs"
    folder.mkdir()
    g = nx.DiGraph()
    g.add_edge("emissions", "warming", correlation="positive")
    g.add_edge("warming", "sea ice", correlation="negative")
    g.add_edge("sea ice", "albedo", correlation="positive")
    nx.write_graphml(g, folder / "arctic.graphml")
    h = nx.DiGraph([("rain", "runoff"), ("runoff", "floods")])
    nx.set_edge_attributes(h, "positive", "correlation")
    (folder / "floods.json").write_text(json.dumps(nx.node_link_data(h, edges="links")), encoding="utf-8")
    corpus = load_corpus(folder)
    print(complexity_table(corpus)[["statement_id", "c_corr", "c_pol"]].to_string(index=False))
