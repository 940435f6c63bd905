"""Benchmark: the CauseNet pipeline (load → merged graph → chain labels → chain statistics) at scale.

The script writes a synthetic CauseNet-shaped JSON Lines file of CauseNet's
size (11,609,890 relations over about 12.2 million concepts) and its first
1M and 3M lines, then measures, each in a fresh subprocess so that peak
memory (``ru_maxrss``) is that of one pipeline alone:

ours
    :func:`causalgraph.datasets.causenet.load_causenet` (interning, dedup
    with provenance counts), :func:`graph_positions` (paper's ``path`` rule)
    and :func:`graph_chain_stats` (per weakly connected component, cycles on
    the condensation);
networkx (the baseline of issue 28)
    the same file read line by line with ``json.loads``, a ``networkx.DiGraph``
    built from the pairs, labelled by the paper's rule (middle = has in- and
    out-edges other than one 2-cycle partner; start = no in-edge and a
    successor with an out-edge; end = no out-edge and a predecessor with an
    in-edge).  It gives labels only (networkx has no chain count); its
    labels are checked against ours (counts per position).

The synthetic graph: each endpoint of a relation is a fresh concept with
probability ``--p-new`` (most CauseNet concepts occur once), otherwise a
concept drawn from a Zipf law (exponent ``--zipf``) over ``--hubs`` popular
concepts, so degrees are heavy-tailed and the popular concepts form large
cycles.  Each line carries 1 to 4 sources of CauseNet's four types, the
sentence ones with a short sentence, and a ``support`` count.

With ``--release-like --relations N [--json]`` the file is instead the
CauseNet-Full stand-in of N relations
(:mod:`causalgraph.datasets.causenet_standin`: the release's schema and
published proportions, multi-stream bz2), written once to ``--dir`` (default
``$CAUSALGRAPH_CACHE/causenet-standin``) and reused; one subprocess measures
the pipeline on it (``wall_s``: load + merge + labels + chain statistics,
``peak_gb``: its peak memory; ``peak_all_gb``: the process's at the end, index
and queries included), the file decompressed alone by the loader's decompressor
(``decompress_s``), the seek index (``index_s``) and the time to return every
source of ``--provenance-samples`` edges drawn under the seed
(``provenance_p50_ms``, ``provenance_p95_ms``), of every edge of 12-node
subgraphs (``subgraph_provenance_p50_ms``, ``…_p95_ms``) and the time of a
stratified sample of ``--strata-samples`` subgraphs over all four strata
(``stratify_s``, and ``stratified_digest``: a digest of the rows drawn, which a
second run under another ``PYTHONHASHSEED`` must repeat); the last line printed is that JSON object.  With ``--naive`` a
second process then reads the same file the naive way (Python's ``bz2``, one
``json.loads`` a line, the pairs merged in a dict; no labels or chains) and
adds ``naive_s``, ``naive_peak_gb`` and ``naive_over_wall``.  Each phase
prints a line on stderr as it ends.

Run (several GB of disk in --dir, removed afterwards unless --keep)::

    python benchmarks/bench_causenet.py                       # 1M, 3M, 11.6M; baseline at 1M, 3M
    python benchmarks/bench_causenet.py --sizes 100000 --baseline-sizes 100000   # a quick look
    python benchmarks/bench_causenet.py --sizes 1000000 --baseline-sizes 1000000 --repeat 3   # the 1M check
    python benchmarks/bench_causenet.py --release-like --relations 20000 --json   # the stand-in
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

CAUSENET_RELATIONS = 11_609_890
TYPES = ("wikipedia_sentence", "clueweb12_sentence", "wikipedia_list", "wikipedia_infobox")
#: The baselines ``--baselines`` names, as the table calls them.
BASELINE_NAMES = {"networkx": "networkx (json.loads per line)", "networkx_lean": "lean networkx (pyarrow reader)"}


def generate(path: Path, n: int, *, p_new: float, hubs: int, zipf: float, seed: int, prefixes=()) -> dict:
    """Write ``n`` CauseNet-shaped lines to ``path`` (and the first ``k`` lines of it for each prefix)."""
    rng = np.random.Generator(np.random.PCG64(seed))
    outs = {k: open(path.with_name(f"{path.stem}-{k}.jsonl"), "w") for k in prefixes if k < n}
    main = open(path, "w")
    next_id = hubs
    chunk = 500_000
    written = 0
    ranks = np.arange(1, hubs + 1, dtype=np.float64)
    weights = ranks ** -zipf
    weights /= weights.sum()
    while written < n:
        m = min(chunk, n - written)
        ends = np.empty(2 * m, dtype=np.int64)
        fresh = rng.random(2 * m) < p_new
        k = int(fresh.sum())
        ends[fresh] = np.arange(next_id, next_id + k)
        next_id += k
        ends[~fresh] = rng.choice(hubs, size=2 * m - k, p=weights)
        n_src = rng.integers(1, 5, size=m)
        types = rng.integers(0, 4, size=int(n_src.sum()))
        support = rng.geometric(0.5, size=m)
        lines = []
        t = 0
        for i in range(m):
            c, e = int(ends[2 * i]), int(ends[2 * i + 1])
            srcs = []
            for _ in range(int(n_src[i])):
                ty = TYPES[types[t]]
                t += 1
                if ty.endswith("sentence"):
                    srcs.append('{"type": "%s", "payload": {"sentence": {"surface": "term %d causes term %d."}}}'
                                % (ty, c, e))
                else:
                    srcs.append('{"type": "%s", "payload": {"infobox_argument": "causes"}}' % ty)
            lines.append('{"causal_relation": {"cause": {"concept": "term_%d"}, "effect": {"concept": "term_%d"}}, '
                         '"support": %d, "sources": [%s]}\n' % (c, e, support[i], ", ".join(srcs)))
        text = "".join(lines)
        main.write(text)
        for k, f in outs.items():
            if written < k:
                f.write("".join(lines[: k - written]))
        written += m
    main.close()
    for f in outs.values():
        f.close()
    return {"lines": n, "bytes": path.stat().st_size}


# -- workers (one per subprocess) ---------------------------------------------------------------------

def worker_ours(path: str) -> dict:
    from causalgraph.datasets.causenet import load_causenet
    from causalgraph.metrics.graph_chains import graph_chain_stats, graph_positions

    t0 = time.perf_counter()
    g = load_causenet(path)
    t1 = time.perf_counter()
    codes = graph_positions(g)
    t2 = time.perf_counter()
    st = graph_chain_stats(g)
    t3 = time.perf_counter()
    counts = np.bincount(codes, minlength=4).tolist()
    return {"load_merge": t1 - t0, "labels": t2 - t1, "stats": t3 - t2, "total": t3 - t0,
            "engine": g.report.get("engine"), "relations": g.report.get("relations"), "nodes": g.n_nodes,
            "edges": g.n_edges, "components": st.n_components, "depth": st.total.depth,
            "breadth": st.total.breadth, "chains_digits": len(str(st.total.n_chains)), "acyclic": st.total.acyclic,
            "cyclic_nodes": int(st.cyclic_nodes.sum()), "positions": counts}


def worker_networkx(path: str) -> dict:
    import networkx as nx

    t0 = time.perf_counter()
    pairs = []
    with open(path, "rb") as f:
        for raw in f:
            if raw.strip():
                cr = json.loads(raw)["causal_relation"]
                pairs.append((cr["cause"]["concept"].replace("_", " "), cr["effect"]["concept"].replace("_", " ")))
    t1 = time.perf_counter()
    g = nx.DiGraph()
    g.add_edges_from(pairs)
    g.remove_edges_from(list(nx.selfloop_edges(g)))
    t2 = time.perf_counter()
    counts = _nx_positions(g)
    t3 = time.perf_counter()
    return {"read_pairs": t1 - t0, "graph": t2 - t1, "labels": t3 - t2, "total": t3 - t0,
            "nodes": g.number_of_nodes(), "positions": counts}


def _nx_positions(g) -> list[int]:
    """Counts of the paper's ``path`` positions (start, middle, end, none) of a networkx DiGraph, in Python."""
    succ, pred = g.succ, g.pred
    counts = [0, 0, 0, 0]  # start, middle, end, none
    for v in g:
        s, p = succ[v], pred[v]
        if s and p:
            counts[1 if (len(s) > 1 or len(p) > 1 or next(iter(s)) != next(iter(p))) else 3] += 1
        elif s:
            counts[0 if any(succ[u] for u in s) else 3] += 1
        elif p:
            counts[2 if any(pred[u] for u in p) else 3] += 1
        else:
            counts[3] += 1
    return counts


def worker_networkx_lean(path: str) -> dict:
    """The lean networkx baseline: the pairs read by the JSON reader causalgraph's loader uses (pyarrow, the
    two concept fields only, every core), then a ``networkx.DiGraph`` built from them and labelled by the same
    rule. It isolates what networkx costs from what reading JSON line by line in Python costs."""
    import networkx as nx
    import pyarrow as pa
    import pyarrow.json as pj

    concept = pa.struct([("concept", pa.string())])
    schema = pa.schema([("causal_relation", pa.struct([("cause", concept), ("effect", concept)]))])
    t0 = time.perf_counter()
    table = pj.read_json(path, read_options=pj.ReadOptions(block_size=16 << 20),
                         parse_options=pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore"))
    rel = table.column("causal_relation").combine_chunks()
    causes = rel.field("cause").field("concept").to_pylist()
    effects = rel.field("effect").field("concept").to_pylist()
    t1 = time.perf_counter()
    g = nx.DiGraph()
    g.add_edges_from(zip(causes, effects))
    g.remove_edges_from(list(nx.selfloop_edges(g)))
    t2 = time.perf_counter()
    counts = _nx_positions(g)
    t3 = time.perf_counter()
    return {"read_pairs": t1 - t0, "graph": t2 - t1, "labels": t3 - t2, "total": t3 - t0,
            "nodes": g.number_of_nodes(), "positions": counts}


def worker_release(path: str, samples: int, seed: int, strata_n: int = 1000, threads: int = 0) -> dict:
    """The pipeline, the decompression alone, the seek index and provenance queries on one stand-in file
    (``threads``: the loader's decompression threads; 0, its default: every core)."""
    from causalgraph.datasets.causenet import _open_binary, _parallel_bz2, load_causenet
    from causalgraph.datasets.causenet_sources import build_index
    from causalgraph.metrics.graph_chains import graph_chain_stats, graph_positions

    threads = threads or os.cpu_count() or 1
    t0 = time.perf_counter()
    g = load_causenet(path, threads=threads)
    graph_positions(g)
    graph_chain_stats(g)
    wall = time.perf_counter() - t0
    # the pipeline's peak, read before the index, the queries and the sampling add their own (VmHWM only grows)
    peak_gb = peak_rss_mb() / 1024
    _progress("pipeline", wall, edges=g.n_edges, concepts=g.n_nodes, peak_gb=round(peak_gb, 3))
    engine = g.report.get("engine")
    parallel = _parallel_bz2(Path(path), threads) if engine == "arrow" else None
    decompressor = (f"indexed_bzip2 ({threads} threads)" if parallel is not None else
                    "arrow bz2 (1 thread)" if engine == "arrow" else "python bz2 (1 thread)")
    t0 = time.perf_counter()
    if parallel is not None:  # the loader's own decompressor: indexed_bzip2 on `threads` threads
        with parallel:
            while parallel.read(16 << 20):
                pass
    elif engine == "arrow":  # the loader's own decompressor: Arrow's compressed stream
        import pyarrow as pa

        with pa.OSFile(path, "rb") as raw, pa.CompressedInputStream(raw, "bz2") as z:
            while z.read(16 << 20):
                pass
    else:
        stream, _ = _open_binary(Path(path))
        with stream:
            while stream.read(16 << 20):
                pass
    decompress = time.perf_counter() - t0
    _progress("decompress", decompress)
    t0 = time.perf_counter()
    idx = build_index(path)
    index_s = time.perf_counter() - t0
    _progress("index", index_s)
    rng = np.random.Generator(np.random.PCG64(seed))
    picks = rng.choice(g.n_edges, size=min(samples, g.n_edges), replace=False) if g.n_edges else []
    names = g.names_list()
    times, n_sources = [], 0
    for e in picks:
        idx._recent.clear()  # a cold query: no stream kept from the one before
        t0 = time.perf_counter()
        n_sources += len(idx.sources(names[int(g.src[e])], names[int(g.dst[e])]))
        times.append((time.perf_counter() - t0) * 1e3)
    q = np.percentile(times, [50, 95]).tolist() if times else [float("nan")] * 2
    _progress("provenance", sum(times) / 1e3, p50_ms=q[0], p95_ms=q[1], edges=len(times))
    # every source of a 12-node subgraph's edges (one index, streams decompressed once per subgraph)
    from causalgraph.datasets.causenet_sources import attach_sources
    from causalgraph.graph.subgraphs import sample_subgraphs, stratify_subgraphs, subgraph_rows

    subs, _ = sample_subgraphs(g, n_random=min(max(1, samples // 10), g.n_nodes), hops=2, max_nodes=12, seed=seed)
    sub_times = []
    for sg in subs:
        idx._recent.clear()  # each subgraph cold; its own edges share the streams they have in common
        t0 = time.perf_counter()
        attach_sources(subgraph_rows(g, [sg]), idx, max_per_edge=10**9)
        sub_times.append((time.perf_counter() - t0) * 1e3)
    qs = np.percentile(sub_times, [50, 95]).tolist() if sub_times else [float("nan")] * 2
    _progress("subgraph provenance", sum(sub_times) / 1e3, p50_ms=qs[0], p95_ms=qs[1], subgraphs=len(sub_times))
    # stratified sampling of --strata-samples subgraphs over all four strata
    # at most one subgraph per concept with an edge to another (more are refused); a small stand-in has fewer
    loops = g.src == g.dst
    strata_n = min(strata_n, int(np.unique(np.concatenate([g.src[~loops], g.dst[~loops]])).size))
    t0 = time.perf_counter()
    strat, _, counts = stratify_subgraphs(g, strata_n, ["support", "source-type", "size", "depth"], hops=2,
                                          max_nodes=12, seed=seed)
    stratify_s = time.perf_counter() - t0
    # what was drawn, as one digest: two runs under different PYTHONHASHSEED values must print the same one
    import hashlib

    rows = subgraph_rows(g, strat)
    digest = hashlib.sha256(json.dumps(rows, sort_keys=True, default=str).encode()).hexdigest()[:16]
    _progress("stratify", stratify_s, subgraphs=len(strat), digest=digest)
    return {"subgraph_provenance_p50_ms": qs[0], "subgraph_provenance_p95_ms": qs[1],
            "subgraphs_timed": len(sub_times), "stratify_s": stratify_s, "stratified": len(strat),
            "stratified_digest": digest,
            "strata": len(counts["per_stratum"]), "relations": g.report.get("relations"), "concepts": g.n_nodes,
            "edges": g.n_edges, "engine": engine, "decompressor": decompressor, "threads": threads,
            "peak_gb": peak_gb,
            "streams": idx.n_streams, "wall_s": wall, "decompress_s": decompress, "index_s": index_s,
            "provenance_samples": len(times), "provenance_sources": n_sources,
            "provenance_p50_ms": q[0], "provenance_p95_ms": q[1]}


def _progress(phase: str, seconds: float, **extra) -> None:
    """One line on stderr as each phase of a long measurement ends (the full-size run takes most of an hour)."""
    print(json.dumps({"phase": phase, "s": round(seconds, 2), "load": os.getloadavg()[0], **extra}),
          file=sys.stderr, flush=True)


def worker_naive(path: str) -> dict:
    """The naive baseline: Python's ``bz2`` (one stream after another, one thread) and ``json.loads`` line by line,
    the (cause, effect) pairs merged in a dict with their counts.  No labels, no chain statistics: what it does is
    a part of what the pipeline does, so the ratio flatters the baseline."""
    import bz2

    t0 = time.perf_counter()
    pairs: dict = {}
    lines = 0
    with bz2.open(path, "rb") as f:
        for raw in f:
            obj = json.loads(raw)
            rel = obj["causal_relation"]
            key = (rel["cause"]["concept"], rel["effect"]["concept"])
            pairs[key] = pairs.get(key, 0) + 1
            lines += 1
    return {"naive_s": time.perf_counter() - t0, "naive_lines": lines, "naive_edges": len(pairs),
            "naive_peak_gb": peak_rss_mb() / 1024}


def _in_process(code: str, what: str):
    """Run ``code`` in a fresh Python process and return the JSON object of its last stdout line; stderr (the
    phases as they end, or the error) passes through.  ``None``, after one line on stderr, if it failed."""
    out = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    if out.returncode:
        print(f"{what} failed (exit {out.returncode}; its error is above)", file=sys.stderr)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def release_like(args) -> int:
    """``--release-like``: write (or reuse) the stand-in of ``--relations`` relations and measure it."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from causalgraph.datasets.causenet_standin import write_standin
    from causalgraph.datasets.fetch import cache_dir

    folder = Path(args.dir) if args.dir else cache_dir() / "causenet-standin"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"causenet-standin-{args.relations}-seed{args.seed}.jsonl.bz2"
    if path.is_file():
        print(f"reusing {path}", file=sys.stderr, flush=True)
    else:
        t0 = time.perf_counter()
        info = write_standin(path, args.relations, seed=args.seed, workers=args.workers)
        print(f"wrote {path}: {info.relations:,} relations, {info.streams:,} streams, "
              f"{info.uncompressed_bytes / 1e6:.1f} MB → {info.compressed_bytes / 1e6:.1f} MB bz2 in "
              f"{time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    load_before = os.getloadavg()
    code = ("import json, sys; sys.path.insert(0, %r); import bench_causenet as b; "
            "r = b.worker_release(%r, %d, %d, %d, %d); r['peak_all_gb'] = b.peak_rss_mb() / 1024; print(json.dumps(r))"
            ) % (str(Path(__file__).parent), str(path), args.provenance_samples, args.seed, args.strata_samples,
                 args.threads)
    r = _in_process(code, "the measuring process")
    if r is None:
        return 2
    r.update({"file": str(path), "compressed_bytes": path.stat().st_size, "load_before": load_before,
              "load_after": os.getloadavg(), "wall_over_decompress": r["wall_s"] / r["decompress_s"]})
    if args.naive:  # side by side: the same file, right after, in a process of its own
        print(json.dumps(r), file=sys.stderr, flush=True)  # the measurement so far, kept if the baseline is stopped
        code = ("import json, sys; sys.path.insert(0, %r); import bench_causenet as b; "
                "print(json.dumps(b.worker_naive(%r)))") % (str(Path(__file__).parent), str(path))
        naive = _in_process(code, "the naive baseline")
        if naive is None:
            return 2
        r.update(naive)
        r["naive_over_wall"] = r["naive_s"] / r["wall_s"]
        r["naive_edges_equal"] = r["naive_edges"] == r["edges"]  # both merged the same (cause, effect) pairs
        r["load_after_naive"] = os.getloadavg()
    if not args.json:
        for k, v in r.items():
            print(f"{k:>22}: {v}")
    print(json.dumps(r))
    return 0


def peak_rss_mb() -> float:
    """This process's peak resident memory (VmHWM: unlike ru_maxrss, not inherited across fork and exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_worker(kind: str, path: Path) -> dict:
    code = ("import json, sys; sys.path.insert(0, %r); import bench_causenet as b; "
            "r = b.worker_%s(%r); r['peak_rss_mb'] = b.peak_rss_mb(); "
            "print(json.dumps(r))") % (str(Path(__file__).parent), kind, str(path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default=f"1000000,3000000,{CAUSENET_RELATIONS}")
    ap.add_argument("--baseline-sizes", default="1000000,3000000")
    ap.add_argument("--baselines", default="networkx,networkx_lean",
                    help="which baselines run at --baseline-sizes: networkx (json.loads line by line, the issue 28 "
                         "baseline), networkx_lean (the same pyarrow reader as ours, then networkx); comma-separated")
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs of each pipeline per size, alternating (min / median / max printed)")
    ap.add_argument("--p-new", type=float, default=0.517)
    ap.add_argument("--hubs", type=int, default=400_000)
    ap.add_argument("--zipf", type=float, default=1.05)
    ap.add_argument("--seed", type=int, default=28)
    ap.add_argument("--dir", default=None, help="where the synthetic files go (default: a temporary folder)")
    ap.add_argument("--keep", action="store_true", help="keep the synthetic files")
    ap.add_argument("--reuse", action="store_true",
                    help="use the files already in --dir (same sizes and options) instead of writing them again")
    ap.add_argument("--release-like", action="store_true",
                    help="measure the CauseNet-Full stand-in of --relations relations (written once, reused)")
    ap.add_argument("--relations", type=int, default=100_000, help="--release-like: relations of the stand-in")
    ap.add_argument("--provenance-samples", type=int, default=200,
                    help="--release-like: edges whose sources are read back (default 200)")
    ap.add_argument("--json", action="store_true", help="--release-like: print only the JSON line")
    ap.add_argument("--strata-samples", type=int, default=1000,
                    help="--release-like: subgraphs drawn by the timed stratified sampling (default 1000)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                    help="--release-like: processes writing the stand-in (default: every core; same bytes)")
    ap.add_argument("--naive", action="store_true",
                    help="--release-like: then time the naive baseline on the same file (Python's bz2 and json.loads "
                         "line by line, pairs merged in a dict): naive_s, naive_peak_gb, naive_over_wall")
    ap.add_argument("--threads", type=int, default=0,
                    help="--release-like: the loader's bz2 decompression threads (default 0: every core; 1: one "
                         "thread, the decompressor before indexed_bzip2)")
    args = ap.parse_args(argv)
    if args.release_like:
        if args.relations < 1:
            ap.error(f"--relations must be 1 or more, got {args.relations}")
        return release_like(args)
    sizes = sorted(int(s) for s in args.sizes.split(",") if s)
    base = {int(s) for s in args.baseline_sizes.split(",") if s}
    baselines = [b for b in args.baselines.split(",") if b]
    unknown = sorted(set(baselines) - set(BASELINE_NAMES))
    if unknown:
        ap.error(f"--baselines: unknown {', '.join(unknown)}; expected networkx, networkx_lean")
    if args.repeat < 1:
        ap.error(f"--repeat must be 1 or more, got {args.repeat}")
    folder = Path(args.dir or tempfile.mkdtemp(prefix="bench-causenet-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        big = max(sizes)
        path = folder / "causenet-synthetic.jsonl"
        t0 = time.perf_counter()
        wanted = [path] + [folder / f"{path.stem}-{n}.jsonl" for n in sizes if n < big]
        if args.reuse and all(p.is_file() for p in wanted):
            print(f"reusing the files in {folder}", flush=True)
        else:
            info = generate(path, big, p_new=args.p_new, hubs=args.hubs, zipf=args.zipf, seed=args.seed,
                            prefixes=[s for s in sizes if s < big])
            print(f"generated {info['lines']:,} lines, {info['bytes'] / 1e9:.2f} GB in "
                  f"{time.perf_counter() - t0:.0f} s", flush=True)
        print(f"load average at start: {os.getloadavg()}", flush=True)
        rows = []
        for n in sizes:
            f = path if n == big else folder / f"{path.stem}-{n}.jsonl"
            kinds = ["ours"] + ([b for b in baselines] if n in base else [])
            runs: dict[str, list[dict]] = {k: [] for k in kinds}
            loads = []
            for rep in range(args.repeat):  # alternating: ours, then each baseline, then ours again …
                for kind in kinds:
                    r = run_worker(kind, f)
                    r["load"] = os.getloadavg()[0]
                    loads.append(r["load"])
                    runs[kind].append(r)
                    print(json.dumps({"relations": n, "kind": kind, "repeat": rep, **r}), flush=True)
            ours = runs["ours"][0]
            for kind in kinds[1:]:
                equal = all(r["positions"] == ours["positions"] for r in runs[kind])
                print(json.dumps({"relations": n, "kind": kind, "labels_equal": equal}), flush=True)
            rows.append({"relations": n, "runs": runs, "load": (min(loads), max(loads))})
        print()

        def mmm(values, fmt="{:.1f}"):
            v = sorted(values)
            return "/".join(fmt.format(x) for x in (v[0], v[len(v) // 2], v[-1]))

        print(f"min / median / max over {args.repeat} alternating runs each; ratios pair by pair (baseline ÷ ours)")
        print("| relations | concepts | edges | ours total s | ours peak GB | baseline | baseline total s | "
              "baseline peak GB | baseline / ours | load average |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            o = r["runs"]["ours"]
            head = (f"| {r['relations']:,} | {o[0]['nodes']:,} | {o[0]['edges']:,} | {mmm([x['total'] for x in o])} | "
                    f"{mmm([x['peak_rss_mb'] / 1024 for x in o], '{:.2f}')} |")
            others = [k for k in r["runs"] if k != "ours"]
            if not others:
                print(f"{head} – | – | – | – | {r['load'][0]:.1f}–{r['load'][1]:.1f} |")
            for k in others:
                b = r["runs"][k]
                ratios = [x["total"] / y["total"] for x, y in zip(b, o)]
                print(f"{head} {BASELINE_NAMES[k]} | {mmm([x['total'] for x in b])} | "
                      f"{mmm([x['peak_rss_mb'] / 1024 for x in b], '{:.2f}')} | {mmm(ratios, '{:.2f}')} | "
                      f"{r['load'][0]:.1f}–{r['load'][1]:.1f} |")
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
