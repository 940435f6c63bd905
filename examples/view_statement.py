"""Write one statement's causal graph as an offline, interactive HTML page (and open it).

Run:  CAUSALGRAPH_DATA=../shared/data python examples/view_statement.py [STATEMENT_ID] [--open]
(CLI:  causalgraph view --statement cc-047 -o cc-047.html --open)
"""

import sys
import tempfile
from pathlib import Path

import causalgraph as cg

sid = next((a for a in sys.argv[1:] if not a.startswith("--")), "cc-047")
corpus = cg.load_climatecause()
graph = cg.compile_graph(corpus[sid])

# What the page draws: events coloured by chain position, causal and belongs-to/nesting edges.
data = cg.viz.viewer_data(graph)
print(f"{sid}: {data.count('event')} events ({data.count('overarching')} extra overarching events), "
      f"{data.count('causal')} causal edges, {data.count('common')} common, "
      f"{data.count('elaboration')} elaboration, {data.count('nesting')} nesting edges")
for node in data.nodes[:5]:
    print(f"  {node['position']:<7} size {node.get('size', '-'):>3}  {node['event']}")

# The pyvis network itself, for customising with pyvis' own API.
net = cg.viz.to_pyvis(data)
print("pyvis network:", net.num_nodes(), "nodes,", net.num_edges(), "edges")

out = Path(tempfile.mkdtemp()) / f"{sid}.html"
path = cg.viz.show(graph, out, open_browser="--open" in sys.argv)
print("wrote", path, f"({path.stat().st_size / 1e6:.2f} MB, no network needed to view it)")
