"""Every source of one CauseNet edge, read back from a multi-stream bz2 file through its seek index.

CauseNet-Full itself is a download of several GB; this writes a small stand-in of its form
(causalgraph.datasets.causenet_standin) and asks for the sources of one of its edges, as

    causalgraph causenet sources CAUSE EFFECT --data causenet:PATH

does. The index is recorded while the file is loaded (load_causenet_indexed: same pass) and kept in the
causalgraph cache; without it, the first query builds it.
"""

import tempfile
from pathlib import Path

from causalgraph.datasets.causenet_sources import edge_sources, load_causenet_indexed, open_index
from causalgraph.datasets.causenet_standin import write_standin

folder = Path(tempfile.mkdtemp())
info = write_standin(folder / "standin.jsonl.bz2", 300, seed=41)
print(f"stand-in: {info.relations} relations in {info.streams} bz2 streams, "
      f"{info.uncompressed_bytes / 1e6:.1f} MB -> {info.compressed_bytes / 1e6:.2f} MB")

g = load_causenet_indexed(info.path)  # counts only: the sentences stay in the file, their places indexed
print(f"seek index {g.report['index']} while loading")
e = int(g.sources.argmax())   # the edge with the most sources
cause, effect = g.names_list()[int(g.src[e])], g.names_list()[int(g.dst[e])]
print(f"edge {cause!r} -> {effect!r}: {g.edge_provenance(e)}")

idx, how = open_index(info.path)
print(f"seek index {how}: {idx.n_streams} streams, {idx.n_edges} edges")
for s in edge_sources(info.path, cause, effect):
    print(f"  line {s.line} (stream {s.stream} at byte {s.stream_offset}): {s.type}, {s.reference}")
    if s.sentence:
        print(f"    {s.sentence[:100]}")

# Fresh statements with their sources: subgraphs spread evenly over depth and dominant source type
# (as `causalgraph sample-subgraphs --random 6 --stratify depth,source-type --sources -o s.csv`).
import json

from causalgraph.datasets.causenet_sources import attach_sources
from causalgraph.graph.subgraphs import stratify_subgraphs, subgraph_rows

subs, strata, counts = stratify_subgraphs(g, 6, ["depth", "source-type"], hops=2, max_nodes=8, seed=0,
                                          id_prefix="causenet")
print("strata taken:", counts["per_stratum"])
rows = attach_sources(subgraph_rows(g, subs, strata), idx, max_per_edge=1)
first = json.loads(rows[0]["context"])
print(f"{rows[0]['statement_id']} {first['strata']}: {len(first['edges'])} edges; its first edge's first source:")
print("  ", first["edges"][0]["sources_shown"][0]["reference"], "-", first["edges"][0]["sources_shown"][0]["type"])
