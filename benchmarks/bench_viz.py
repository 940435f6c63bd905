"""Benchmark: the graph viewer and the corpus report against baselines run in the same process.

Measured on every causal ClimateCause statement (ours and the baseline alternately, min / median /
max of ``--repeat`` rounds, with the load average):

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
from pathlib import Path

from _common import load_average, min_median_max, side_by_side


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

    n_rounds = args.repeat
    print(f"load average {load_average()}; {n_rounds} alternating rounds, min / median / max", flush=True)
    rows = []
    rows.append((f"graph_html, {len(graphs)} statements vs pyvis generate_html",
                 side_by_side(lambda: [graph_html(g) for g in graphs], lambda: stock_pages(datas), n_rounds)))
    rows.append(("viewer_data vs compile_graph",
                 side_by_side(lambda: [viewer_data(g) for g in graphs], lambda: [cg.compile_graph(s) for s in causal],
                              n_rounds)))

    def tables():
        cg.complexity_table(corpus)
        cg.readability_table(corpus)
        for r in RULES:
            chain_table(corpus, r)
        for g in graphs:
            graph_html(g)

    tables()
    with tempfile.TemporaryDirectory() as tmp:
        rows.append((f"write_report ({len(graphs)} graph pages) vs its tables and pages in memory",
                     side_by_side(lambda: cg.write_report(corpus, Path(tmp) / "r", max_graphs=None), tables,
                                  n_rounds)))

    rng = random.Random(7)
    n = MAX_VIEW_NODES
    rels = tuple(Relation(f"e{i}", f"e{rng.randrange(i + 1, n)}") for i in range(n - 1) for _ in range(2))
    big = cg.compile_graph(Statement("synthetic", "synthetic", True, rels))
    big_data = viewer_data(big)
    rows.append((f"graph_html, synthetic {len(big.nodes)} events / {len(big.edges)} edges vs pyvis",
                 side_by_side(lambda: graph_html(big), lambda: to_pyvis(big_data).generate_html(), n_rounds)))

    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'ours s':>24}  {'baseline s':>24}  {'ratio':>20}")
    for name, r in rows:
        print(f"{name:<{width}}  {min_median_max(r['ours'], 4):>24}  {min_median_max(r['baseline'], 4):>24}  {min_median_max(r['ratio'], 2):>20}")
    print(f"load average {load_average()}")


if __name__ == "__main__":
    main()
