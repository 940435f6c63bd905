"""Benchmark: chain labelling and chain counting on large graphs vs a per-node BFS baseline.

Two graph families, each up to ``--max-edges`` edges (default 1,000,000):

merged
    every ClimateCause statement graph merged into one graph (an event named
    in several statements is one node), copied with renamed events until the
    edge budget is reached (shallow components, as in the corpus);
layered
    a random sparse DAG whose edges run from node ``i`` to one of the next
    ``--window`` nodes (deep: long chains, astronomically many paths).

Measured, in the same process:

* ``chain_labels(rule="shortest-distance")`` against the baseline the
  authors' rule suggests: a breadth-first search from every node, forwards
  and backwards, giving every node's shortest distances, from which the
  labels are read.  Both must
  give identical labels where the baseline is run in full.  Where a full
  per-node BFS would take too long, it runs from ``--sample`` random
  nodes and its time is scaled by ``V / sample`` (marked ``extrapolated``).
* ``chain_labels(rule="path")``, timed alone.
* ``chain_stats`` (dynamic programming) against counting chains by
  enumerating the simple paths from every node (the merged family only:
  on the layered family enumeration is hopeless, which is the point).

Figures are ratios baseline time / our time, each the best of 3 runs up to
100,000 edges (one run above).  Run::

    CAUSALGRAPH_DATA=../shared/data python benchmarks/bench_chains.py
    python benchmarks/bench_chains.py --max-edges 100000 --quick
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import deque

from causalgraph import chain_labels, chain_stats, compile_graph
from causalgraph.datasets import load_corpus
from causalgraph.errors import DataNotFound
from causalgraph.metrics.chains import Position


def merged_graph(corpus, n_edges: int) -> list[tuple[str, str]]:
    graphs = [compile_graph(s).pairs for s in corpus.statements if s.causal and s.relations]
    pairs: list[tuple[str, str]] = []
    copy = 0
    while len(pairs) < n_edges:
        for g in graphs:
            pairs.extend((f"{c}#{copy}", f"{e}#{copy}") for c, e in g)
            if len(pairs) >= n_edges:
                break
        copy += 1
    return pairs[:n_edges]


def layered_graph(n_edges: int, window: int, out_degree: int, seed: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    n_nodes = n_edges // out_degree + window + 1
    pairs: list[tuple[int, int]] = []
    seen = set()
    i = 0
    while len(pairs) < n_edges:
        j = i + rng.randint(1, window)
        if j < n_nodes and (i, j) not in seen:
            seen.add((i, j))
            pairs.append((i, j))
        i = (i + 1) % (n_nodes - window - 1)
    return pairs


def _adjacency(pairs):
    succ: dict = {}
    pred: dict = {}
    nodes: dict = {}
    seen = set()
    for c, e in pairs:
        nodes.setdefault(c, None)
        nodes.setdefault(e, None)
        if c != e and (c, e) not in seen:
            seen.add((c, e))
            succ.setdefault(c, []).append(e)
            pred.setdefault(e, []).append(c)
    return list(nodes), succ, pred


def _max_distance(v, adj) -> int:
    dist = {v: 0}
    queue = deque([v])
    far = 0
    while queue:
        x = queue.popleft()
        for y in adj.get(x, ()):
            if y not in dist:
                dist[y] = dist[x] + 1
                far = max(far, dist[y])
                queue.append(y)
    return far


def baseline_labels(nodes, succ, pred, which) -> dict:
    """The naive method: a BFS from every node, forwards and backwards, then labels.

    This is what computing shortest-path lengths from every event (e.g.
    networkx's ``all_pairs_shortest_path_length``) amounts to; it costs
    O(V * E) on graphs whose nodes reach much of the graph.
    """
    out = {}
    for v in which:
        far_out = _max_distance(v, succ)
        far_in = _max_distance(v, pred)
        p, s = pred.get(v, ()), succ.get(v, ())
        if p and s:
            out[v] = Position.MIDDLE if (len(p) > 1 or len(s) > 1 or p[0] != s[0]) else Position.NONE
        elif s:
            out[v] = Position.START if far_out >= 2 else Position.NONE
        elif p:
            out[v] = Position.END if far_in >= 2 else Position.NONE
        else:
            out[v] = Position.NONE
    return out


def baseline_count(nodes, succ) -> int:
    """Chains counted by enumerating simple paths from every node (iterative DFS)."""
    count = 0
    for root in nodes:
        stack = [(root, iter(succ.get(root, ())), 0)]
        on_path = {root}
        while stack:
            v, it, depth = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                on_path.discard(v)
                continue
            if nxt in on_path:
                continue
            if depth + 1 >= 2:
                count += 1
            on_path.add(nxt)
            stack.append((nxt, iter(succ.get(nxt, ())), depth + 1))
    return count


def timed(fn, *args, repeat: int = 1, **kw):
    """Result and best wall time of ``repeat`` runs (the machine is shared; the minimum is the least noisy)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn(*args, **kw)
        best = min(best, time.perf_counter() - t)
    return out, best


def run_case(name, pairs, sample, full_bfs_limit, count_baseline, rng):
    # Both sides start from the same list of pairs: building adjacency lists is part of each time.
    rep = 3 if len(pairs) <= 100_000 else 1
    (nodes, succ, pred), t_adj = timed(_adjacency, pairs, repeat=rep)
    ours_sd, t_sd = timed(chain_labels, pairs, "shortest-distance", repeat=rep)
    _, t_path = timed(chain_labels, pairs, "path", repeat=rep)
    stats, t_stats = timed(chain_stats, pairs, repeat=rep)
    if len(pairs) <= full_bfs_limit:
        base, t_base = timed(baseline_labels, nodes, succ, pred, nodes, repeat=rep)
        t_base += t_adj
        assert base == ours_sd, "labels differ from the per-node BFS baseline"
        mode = "full"
    else:
        which = rng.sample(nodes, min(sample, len(nodes)))
        base, t_part = timed(baseline_labels, nodes, succ, pred, which)
        assert all(base[v] == ours_sd[v] for v in which), "labels differ from the per-node BFS baseline"
        t_base = t_adj + t_part * len(nodes) / len(which)
        mode = f"extrapolated from {len(which)} nodes"
    row = {"graph": name, "edges": len(pairs), "nodes": len(nodes), "chains": stats.n_chains,
           "depth": stats.depth, "t_path_s": t_path, "t_shortest_s": t_sd, "t_bfs_s": t_base,
           "label_ratio": t_base / t_sd, "bfs_mode": mode, "t_count_s": t_stats}
    if count_baseline:
        n, t_enum = timed(baseline_count, nodes, succ, repeat=rep)
        assert n == stats.n_chains, "chain count differs from enumeration"
        row.update(t_enum_s=t_enum + t_adj, count_ratio=(t_enum + t_adj) / t_stats)
    return row


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-edges", type=int, default=1_000_000)
    ap.add_argument("--window", type=int, default=20, help="layered DAG: edge span")
    ap.add_argument("--sample", type=int, default=300, help="nodes for an extrapolated BFS baseline")
    ap.add_argument("--full-bfs-limit", type=int, default=20_000,
                    help="run the per-node BFS baseline in full up to this many edges")
    ap.add_argument("--quick", action="store_true", help="only the smallest and the largest size")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    try:
        corpus = load_corpus(None)
    except DataNotFound:
        # No ClimateCause here: say so, since the merged graphs (and figures) then differ.
        corpus = load_corpus("sample")
    print(f"merged graphs built from {corpus.name} ({len(corpus)} statements, {corpus.source})"
          + ("" if corpus.name == "climatecause" else "; docs/performance.md used ClimateCause (set CAUSALGRAPH_DATA)"),
          flush=True)
    sizes = [s for s in (10_000, 100_000, 1_000_000) if s <= args.max_edges] or [args.max_edges]
    if args.quick:
        sizes = sorted({sizes[0], sizes[-1]})
    rows = []
    for n in sizes:
        rows.append(run_case("merged", merged_graph(corpus, n), args.sample, args.full_bfs_limit, True, rng))
        print(_fmt(rows[-1]), flush=True)
        rows.append(run_case("layered", layered_graph(n, args.window, 4, args.seed), args.sample,
                             args.full_bfs_limit, False, rng))
        print(_fmt(rows[-1]), flush=True)
    return 0


def _fmt(r) -> str:
    s = (f"{r['graph']:<8} E={r['edges']:>9,} V={r['nodes']:>9,} depth={r['depth']:>6} "
         f"chains={_short(r['chains'])}  path {r['t_path_s']:.3f}s  shortest {r['t_shortest_s']:.3f}s  "
         f"BFS {r['t_bfs_s']:.2f}s ({r['bfs_mode']})  label ratio {r['label_ratio']:.1f}x  "
         f"count {r['t_count_s']:.3f}s")
    if "count_ratio" in r:
        s += f"  enum {r['t_enum_s']:.2f}s  count ratio {r['count_ratio']:.1f}x"
    return s


def _short(n: int) -> str:
    if n < 10 ** 12:
        return str(n)
    # str() of a number with more than 4300 digits is refused; work from the bit length instead.
    exp = int(n.bit_length() * math.log10(2))
    while 10 ** exp > n:
        exp -= 1
    return f"{n // 10 ** (exp - 2) / 100:.2f}e{exp}"


if __name__ == "__main__":
    sys.exit(main())
