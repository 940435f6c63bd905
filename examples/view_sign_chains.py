"""Mark the sign chains a model answers inconsistently, on the run page.

A noisy mock model (40 % of its answers flipped; no data folder, no model, no
network) answers CorrI 0_1 (the sign of each relation) and corri-multihop 0_1
(the composed sign of each chain) over the packaged sample corpus.  The page
of both runs gains a *Sign chains* section: per chain, the edge answers, their
composition, the endpoint answer and whether they agree, the inconsistent
chains marked.  The same from the command line::

    causalgraph bench view runs/corri runs/corri-multihop -o chains.html --open

    python examples/view_sign_chains.py [OUT_DIR]
"""

import sys
import tempfile
from pathlib import Path

import causalgraph as cg
from causalgraph.viewer import build_payload, load_views, write_run_page

out = Path(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="cg-chains-"))
noisy = {"model_options": {"flip": 0.4}, "temperature": 1.0, "data": "sample", "cache": False}
edges = cg.run_benchmark("corri", "0_1", "mock/noisy", out=out / "corri", **noisy)
chains = cg.run_benchmark("corri-multihop", "0_1", "mock/noisy", out=out / "corri-multihop", **noisy)

page = write_run_page([edges.path, chains.path], out / "chains.html")
print(f"page: {page}")

# What the section shows, as data (the same counts as `causalgraph stats consistency --signs`).
signs = {1: "+", -1: "-", None: "undefined"}
payload = build_payload(*load_views([edges.path, chains.path]))
for row in payload["consistency"]["table"]:
    print(f"{row['edge_source']} -> {row['endpoint_source']}: {row['consistent']} of {row['answered']} chains compose")
for c in payload["consistency"]["chains"]:
    mark = {False: "INCONSISTENT", True: "consistent", None: "not answered"}[c["consistent"]]
    print(f"  {mark:12}  {' -> '.join(c['path'])}: edges {' '.join(signs.get(s, s) for s in c['edges'])}, "
          f"composed {signs.get(c['composed'])}, endpoint {signs.get(c['endpoint'], c['endpoint'])}")
