"""Benchmark: the graph viewer and the corpus report against baselines run in the same process.

Measured on every causal ClimateCause statement (best of ``--repeat``):

* ``graph_html`` (our page: escaped data, inlined vis-network, legend,
  relation table) against pyvis' stock ``Network.generate_html()`` with
  ``cdn_resources="in_line"`` for the same nodes and edges;
* ``viewer_data`` (nodes, edges, chain positions) against ``compile_graph``;
* ``write_report`` on the whole corpus (all graph pages, on disk) against
  computing what it shows in memory: ``complexity_table`` +
  ``readability_table`` + ``chain_table`` for both rules + ``graph_html``
  for every causal statement (textstat memoises scores per text, so both
  sides read cached readability after the warm-up);
* ``graph_html`` on a synthetic graph at the viewer's limit
  (``MAX_VIEW_NODES`` events, two edges per event) against the same pyvis
  baseline.

Figures are ratios ours / baseline.  Run::

    CAUSALGRAPH_DATA=../shared/data python benchmarks/bench_viz.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    import causalgraph as cg
    from causalgraph.metrics.chains import RULES, chain_table
    from causalgraph.model import Relation, Statement
    from causalgraph.html.graph_page import MAX_VIEW_NODES, graph_html, to_pyvis, viewer_data

    corpus = cg.load_climatecause()
    causal = [s for s in corpus if s.causal and s.relations]
    graphs = [cg.compile_graph(s) for s in causal]
    datas = [viewer_data(g) for g in graphs]
    graph_html(graphs[0])  # warm the cached library files and imports

    def stock_pages(ds):
        for d in ds:
            to_pyvis(d).generate_html()

    rows = []
    ours = best(lambda: [graph_html(g) for g in graphs], args.repeat)
    base = best(lambda: stock_pages(datas), args.repeat)
    rows.append((f"graph_html, {len(graphs)} statements vs pyvis generate_html", ours, base))
    ours = best(lambda: [viewer_data(g) for g in graphs], args.repeat)
    base = best(lambda: [cg.compile_graph(s) for s in causal], args.repeat)
    rows.append(("viewer_data vs compile_graph", ours, base))

    def tables():
        cg.complexity_table(corpus)
        cg.readability_table(corpus)
        for r in RULES:
            chain_table(corpus, r)
        for g in graphs:
            graph_html(g)

    tables()
    with tempfile.TemporaryDirectory() as tmp:
        ours = best(lambda: cg.write_report(corpus, Path(tmp) / "r", max_graphs=None), args.repeat)
    base = best(tables, args.repeat)
    rows.append((f"write_report ({len(graphs)} graph pages) vs its tables and pages in memory", ours, base))

    rng = random.Random(7)
    n = MAX_VIEW_NODES
    rels = tuple(Relation(f"e{i}", f"e{rng.randrange(i + 1, n)}") for i in range(n - 1) for _ in range(2))
    big = cg.compile_graph(Statement("synthetic", "synthetic", True, rels))
    big_data = viewer_data(big)
    ours = best(lambda: graph_html(big), 1)
    base = best(lambda: to_pyvis(big_data).generate_html(), 1)
    rows.append((f"graph_html, synthetic {len(big.nodes)} events / {len(big.edges)} edges vs pyvis", ours, base))

    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'ours':>9}  {'baseline':>9}  {'ratio':>6}")
    for name, o, b in rows:
        print(f"{name:<{width}}  {o:9.4f}  {b:9.4f}  {o / b:6.2f}")


if __name__ == "__main__":
    main()
