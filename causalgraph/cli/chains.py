"""``causalgraph chains``: chain membership, position and graph statistics per event."""

from __future__ import annotations

import sys

from ..datasets import load_corpus
from ..datasets.causenet import causenet_path, load_causenet
from ..errors import ConfigError
from ..metrics.chains import CHAIN_TABLE_COLUMNS, chain_table
from ._common import add_data_option, add_format_option, add_rule_option, emit_rows, emit_table
from ..metrics.graph_chains import POSITIONS, graph_chain_stats, graph_positions

__all__ = ["register", "MERGED_NODE_COLUMNS", "MERGED_COMPONENT_COLUMNS"]

#: Columns of ``chains --data causenet:PATH``: one row per concept, its component's statistics.
MERGED_NODE_COLUMNS = ("component", "event", "membership", "position", "depth", "breadth", "n_nodes", "n_chains")
#: Columns of ``chains --data causenet:PATH --components``: one row per weakly connected component.
MERGED_COMPONENT_COLUMNS = ("component", "n_nodes", "n_edges", "depth", "breadth", "n_chains", "acyclic",
                            "cyclic_nodes", "start", "middle", "end")
_CHUNK = 100_000


def register(sub) -> None:
    p = sub.add_parser(
        "chains", help="causal-chain membership/position of every event, with depth, breadth and chain counts",
        description="One row per event of every causal statement: chain membership and position (start, middle, "
                    "end, none) and the statement graph's depth, breadth, node count and number of chains. "
                    "With --data causenet:PATH (or a CauseNet JSON Lines file, plain, gzip or bz2), the whole "
                    "CauseNet graph is merged into one graph: one row per concept with the statistics of its "
                    "weakly connected component (depth and chains on the condensation of its cycles; "
                    "docs/metrics.md), or one row per component with --components.")
    add_data_option(p, help_extra="; causenet:PATH for a CauseNet JSON Lines file")
    add_rule_option(p, help="'path' (the paper's definition, default) or 'shortest-distance' (the rule of the "
                                 "authors' released gold labels)")
    p.add_argument("--components", action="store_true",
                   help="CauseNet data: one row per weakly connected component instead of one per concept")
    p.add_argument("--min-sources", type=int, default=0, metavar="N",
                   help="CauseNet data: keep only relations with at least N provenance sources (default: all)")
    p.add_argument("--lenient", action="store_true",
                   help="CauseNet data: skip malformed lines, listing each on stderr, instead of stopping at the first")
    add_format_option(p, default="table")
    p.set_defaults(func=run)


def run(args) -> int:
    path = causenet_path(args.data)
    if path is None:
        for flag, value in (("--components", args.components), ("--min-sources", args.min_sources),
                            ("--lenient", args.lenient)):
            if value:
                raise ConfigError(f"{flag} applies to CauseNet data (--data causenet:PATH), not to {args.data!r}")
        rows = chain_table(load_corpus(args.data), rule=args.rule)
        emit_table(rows, args.format, columns=list(CHAIN_TABLE_COLUMNS))
        return 0
    run_merged(path, args)
    return 0


def run_merged(path, args) -> None:
    """Label and count the merged CauseNet graph, and print it by concept or by component."""
    import numpy as np

    if args.min_sources < 0:
        raise ConfigError(f"--min-sources must be 0 or more, got {args.min_sources}")
    g = load_causenet(path, min_sources=args.min_sources, strict=not args.lenient)
    for problem in g.problems:
        print(f"causalgraph chains: skipped: {problem.message}", file=sys.stderr)
    codes = graph_positions(g, args.rule)
    st = graph_chain_stats(g)
    k = st.n_components
    if args.components:
        counts = np.bincount(st.component * 4 + codes, minlength=4 * k).reshape(k, 4) if k else np.zeros((0, 4), int)

        def comp_chunks():
            for a in range(0, k, _CHUNK):
                b = min(k, a + _CHUNK)
                yield list(zip(range(a, b), st.n_nodes[a:b].tolist(), st.n_edges[a:b].tolist(),
                               st.depth[a:b].tolist(), st.breadth[a:b].tolist(), st.n_chains[a:b].tolist(),
                               ["yes" if c == 0 else "no" for c in st.cyclic_nodes[a:b].tolist()],
                               st.cyclic_nodes[a:b].tolist(), counts[a:b, 0].tolist(), counts[a:b, 1].tolist(),
                               counts[a:b, 2].tolist()))

        emit_rows(MERGED_COMPONENT_COLUMNS, comp_chunks, args.format)
        return
    pos = [p.value for p in POSITIONS]
    member = ["yes" if p.member else "no" for p in POSITIONS]
    n = g.n_nodes

    def node_chunks():
        for a in range(0, n, _CHUNK):
            b = min(n, a + _CHUNK)
            comp = st.component[a:b]
            names = g.names[a:b]
            names = names if isinstance(names, list) else names.to_pylist()
            cs = codes[a:b].tolist()
            yield list(zip(comp.tolist(), names, [member[c] for c in cs], [pos[c] for c in cs],
                           st.depth[comp].tolist(), st.breadth[comp].tolist(), st.n_nodes[comp].tolist(),
                           st.n_chains[comp].tolist()))

    emit_rows(MERGED_NODE_COLUMNS, node_chunks, args.format)
