"""Benchmark: causal complexity scoring on synthetic corpora and adversarial graphs.

Three measurements, each reported as ratios measured in this same process
(absolute seconds depend on the machine):

0. Negative rings of 1,000 and 4,000 nodes, the shape where the bounded walk
   does the most work per path (n walks of n nodes): the time to finish or
   to ``CycleLimitExceeded`` with the default ``cycle_limit``, against the
   DP on the same ring cut open;
1. ``complexity_table`` on synthetic corpora of growing size (default 1k, 10k
   and 100k statements, about 12 relations each): time per statement and the
   growth factor against the smallest size (linear scaling reads 10x per 10x).
2. Layered negative DAGs (``width`` nodes per layer, every node joined to
   every node of the next layer, ``width ** depth`` paths from the source):
   the dynamic-programming count against a naive path-enumeration baseline,
   run only while the baseline stays under ``--baseline-budget`` paths.

Usage::

    python benchmarks/bench_complexity.py                 # full run
    python benchmarks/bench_complexity.py --sizes 1000,10000 --depths 8,12,16
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time

from causalgraph.errors import CycleLimitExceeded
from causalgraph.metrics.complexity import complexity, complexity_table
from causalgraph.metrics.paths import count_maximal_paths
from causalgraph.model import Correlation, Polarity, Relation, Statement


def synthetic_corpus(n_statements: int, *, relations: int = 12, vocabulary: int = 16, seed: int = 7):
    """Statements whose relations are drawn from a shared pool (keeps memory flat at 100k)."""
    rng = random.Random(seed)
    events = [f"event {i}" for i in range(vocabulary)]
    over = [f"overarching {i}" for i in range(4)]
    pool = []
    for i in range(4000):
        c, e = rng.sample(events, 2)
        neg_c = rng.random() < 0.2
        neg_p = rng.random() < 0.1
        kind = rng.random()
        kw = {}
        if kind < 0.1:
            kw = {"combined": True, "cause_belongs_to": rng.choice(over)}
        elif kind < 0.25:
            kw = {"combined": False, "nested": False, "effect_belongs_to": rng.choice(over)}
        elif kind < 0.35:
            kw = {"nested": True, "effect_belongs_to": rng.choice(over)}
        pool.append(Relation(
            c, e,
            correlation=Correlation.NEGATIVE if neg_c else Correlation.POSITIVE,
            polarity=Polarity.NEGATIVE if neg_p else Polarity.POSITIVE,
            trigger=f"t{i}", **kw,
        ))
    stmts = []
    for i in range(n_statements):
        k = max(1, int(rng.expovariate(1 / relations)))
        rels = tuple(rng.choice(pool) for _ in range(k))
        stmts.append(Statement(f"s{i}", f"Synthetic statement number {i} with some words.", True, rels))
    return stmts


def layered_edges(width: int, depth: int):
    """A source, then ``depth`` layers of ``width`` nodes, complete between neighbouring layers."""
    edges = [("s", (1, a)) for a in range(width)]
    for j in range(1, depth):
        edges += [((j, a), (j + 1, b)) for a in range(width) for b in range(width)]
    return edges


def naive_simple_count(edges, min_nodes: int = 3) -> int:
    """Baseline for graphs that may have cycles: enumerate maximal simple paths from every node."""
    succ: dict = {}
    nodes: dict = {}
    for u, v in edges:
        nodes.setdefault(u, None)
        nodes.setdefault(v, None)
        if u != v and v not in succ.setdefault(u, []):
            succ[u].append(v)
    count = 0
    for start in nodes:
        stack = [(start, (start,))]
        while stack:
            v, path = stack.pop()
            nxt = [w for w in succ.get(v, ()) if w not in path]
            if not nxt:
                count += len(path) >= min_nodes
            for w in nxt:
                stack.append((w, path + (w,)))
    return count


def naive_count(edges, min_nodes: int = 3) -> int:
    """Baseline: enumerate every maximal path from every node (exponential)."""
    succ: dict = {}
    nodes: dict = {}
    for u, v in edges:
        nodes.setdefault(u, None)
        nodes.setdefault(v, None)
        succ.setdefault(u, []).append(v)
    count = 0
    for start in nodes:
        stack = [(start, 1)]
        while stack:
            v, length = stack.pop()
            nxt = succ.get(v)
            if not nxt:
                count += length >= min_nodes
                continue
            for w in nxt:
                stack.append((w, length + 1))
    return count


def _time(fn, repeat: int = 3):
    best = float("inf")
    out = None
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def _negative_edge_lists(corpus):
    out = []
    for s in corpus:
        seen: dict = {}
        for r in s.relations:
            if r.correlation is Correlation.NEGATIVE:
                seen.setdefault((r.cause, r.effect), None)
        out.append(list(seen))
    return out


def bench_corpora(sizes):
    print("## complexity_table on synthetic corpora")
    print("(paths: negative-path counting alone over every statement, DP vs naive simple-path enumeration)")
    print(f"{'statements':>10} {'relations':>10} {'seconds':>9} {'us/stmt':>8} {'growth':>7} {'size x':>7} "
          f"{'paths DP s':>10} {'naive s':>8} {'naive/DP':>8}")
    base = None
    for n in sizes:
        corpus = synthetic_corpus(n)
        n_rel = sum(len(s.relations) for s in corpus)
        repeat = 1 if n >= 100_000 else 3
        secs, table = _time(lambda: complexity_table(corpus), repeat=repeat)
        assert len(table) == n
        neg = _negative_edge_lists(corpus)
        dp_secs, dp = _time(lambda: sum(count_maximal_paths(e) for e in neg), repeat=repeat)
        nv_secs, nv = _time(lambda: sum(naive_simple_count(e) for e in neg), repeat=repeat)
        assert dp == nv, (n, dp, nv)
        if base is None:
            base = (n, secs)
        print(f"{n:>10,} {n_rel:>10,} {secs:>9.3f} {1e6 * secs / n:>8.1f} "
              f"{secs / base[1]:>7.1f} {n / base[0]:>7.0f} {dp_secs:>10.3f} {nv_secs:>8.3f} {nv_secs / dp_secs:>8.2f}")
    print()


def bench_adversarial(width, depths, budget):
    print(f"## layered negative DAGs, width {width}: dynamic programming vs naive enumeration")
    print(f"{'depth':>5} {'source paths':>12} {'DP ms':>9} {'naive ms':>10} {'naive/DP':>9} {'C^corr ms':>10}")
    for d in depths:
        edges = layered_edges(width, d)
        dp_secs, dp = _time(lambda: count_maximal_paths(edges))
        rels = tuple(Relation(str(u), str(v), correlation=Correlation.NEGATIVE) for u, v in edges)
        c_secs, c = _time(lambda: complexity(rels))
        assert c.corr == len(edges) + dp
        if width ** d <= budget:
            nv_secs, nv = _time(lambda: naive_count(edges), repeat=1)
            assert nv == dp, (d, nv, dp)
            naive = f"{1e3 * nv_secs:>10.1f} {nv_secs / dp_secs:>9.0f}"
        else:
            naive = f"{'skipped':>10} {'-':>9}"
        print(f"{d:>5} {f'{width}^{d}':>12} {1e3 * dp_secs:>9.2f} {naive} {1e3 * c_secs:>10.2f}")
    print()


def bench_rings(sizes):
    """Negative rings: the one shape that walks, against the DP on the same ring cut open (a path)."""
    print("## negative rings (n negative edges closing a cycle) with the default cycle_limit")
    print("(path: the same edges without the closing one, counted by the DP; ratio = ring / path)")
    print(f"{'nodes':>6} {'path ms':>9} {'ring ms':>9} {'ring/path':>10}  outcome")
    for n in sizes:
        path = tuple(Relation(f"e{i}", f"e{i + 1}", correlation=Correlation.NEGATIVE) for i in range(n - 1))
        ring = path + (Relation(f"e{n - 1}", "e0", correlation=Correlation.NEGATIVE),)
        p_secs, p = _time(lambda: complexity(path))
        assert p.corr == (n - 1) + (n - 2)  # edges + one maximal walk from every node but the last two
        try:
            r_secs, r = _time(lambda: complexity(ring), repeat=1)
            assert r.corr == 2 * n  # n edges + one walk around the ring from every node
            outcome = f"C^corr = {r.corr:,}"
        except CycleLimitExceeded as exc:
            r_secs = None
            t0 = time.perf_counter()
            try:
                complexity(ring)
            except CycleLimitExceeded:
                r_secs = time.perf_counter() - t0
            outcome = f"CycleLimitExceeded ({str(exc).split(' (starting')[0].split('passed ')[1]})"
        print(f"{n:>6,} {1e3 * p_secs:>9.2f} {1e3 * r_secs:>9.1f} {r_secs / p_secs:>10,.0f}  {outcome}")
    print()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000,100000", help="corpus sizes (comma-separated)")
    ap.add_argument("--width", type=int, default=2, help="nodes per layer of the adversarial DAG")
    ap.add_argument("--depths", default="8,12,16,20,40,200", help="layer counts of the adversarial DAG")
    ap.add_argument("--baseline-budget", type=int, default=2**20,
                    help="run the naive baseline only up to this many source paths")
    ap.add_argument("--rings", default="1000,4000", help="sizes of the negative rings")
    args = ap.parse_args(argv)
    print(f"python {sys.version.split()[0]}")
    bench_rings([int(x) for x in args.rings.split(",") if x])
    bench_corpora([int(x) for x in args.sizes.split(",") if x])
    bench_adversarial(args.width, [int(x) for x in args.depths.split(",") if x], args.baseline_budget)
    return 0


if __name__ == "__main__":
    sys.exit(main())
