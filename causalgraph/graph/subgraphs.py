"""Size-bounded neighbourhood subgraphs of a large merged graph, written as statements.

A graph of millions of concepts is too large for a prompt, a viewer or a
per-statement metric; :func:`sample_subgraphs` cuts it into small pieces
that every statement-level tool reads: the concepts within ``hops`` steps
of a centre (following edges either way), at most ``max_nodes`` of them,
with every edge of the big graph among them (the induced subgraph).

* Centres are the concepts named (``around``) or ``n_random`` distinct
  concepts drawn uniformly, with the seed, from those with at least one
  edge to another concept.
* The neighbourhood grows one hop at a time; when a whole hop does not fit
  under ``max_nodes``, the places left are drawn at random (seeded) among
  that hop's concepts and the subgraph is marked ``truncated``.
* A subgraph equal to an earlier one (same concepts) is dropped, so no two
  statements share a graph; the number dropped is reported.

:func:`subgraph_rows` writes them in the minimal relations format (columns
``text``, ``cause``, ``effect``, ``statement_id``, ``context``; docs/data.md):
one row per edge; the statement's text is the first kept provenance
sentence of each edge (``keep_sentences``), or, for an edge without one,
the relation written out as ``"<cause> causes <effect>."``; ``context``
holds the statement's provenance as JSON (centre, hops, and per edge the
relations, sources, source types and support merged into it).
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Optional, Sequence

import numpy as np

from ..errors import ConfigError
from .merged import MergedGraph, concat_ranges
from .._core.outputs import output_file

__all__ = ["Subgraph", "check_sampling", "sample_subgraphs", "subgraph_rows", "write_relations", "check_relations_path", "RELATION_COLUMNS",
           "MAX_SUBGRAPH_NODES", "STRATA", "subgraph_strata", "stratify_subgraphs", "context_sources"]

#: Columns written by :func:`write_relations` (the relations format of docs/data.md).
RELATION_COLUMNS = ("text", "cause", "effect", "statement_id", "context")
#: Largest ``max_nodes`` accepted: a statement graph beyond it is no longer something to prompt or view.
MAX_SUBGRAPH_NODES = 10_000


@dataclass(frozen=True)
class Subgraph:
    """One sampled neighbourhood.

    Attributes
    ----------
    statement_id
        ``<id_prefix>-0001`` … in sampling order (:func:`sample_subgraphs`).
    centre
        Node id of the centre.
    nodes
        Node ids, the centre first, then hop by hop.
    edges
        Indices of the big graph's edges among ``nodes`` (ascending; self-loops included).
    hops
        Hops actually taken (fewer than asked when the neighbourhood ran out).
    truncated
        Whether ``max_nodes`` cut a hop short.
    """

    statement_id: str
    centre: int
    nodes: np.ndarray
    edges: np.ndarray
    hops: int
    truncated: bool


class _Adjacency:
    """Out-edges and undirected neighbours of every node, as CSR arrays (built once)."""

    def __init__(self, g: MergedGraph):
        n = g.n_nodes
        self.out_ptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(g.src, minlength=n), out=self.out_ptr[1:])
        self.out_edge = np.argsort(g.src, kind="stable")
        loops = g.src == g.dst
        a = np.concatenate([g.src[~loops], g.dst[~loops]])
        b = np.concatenate([g.dst[~loops], g.src[~loops]])
        order = np.argsort(a, kind="stable")
        self.nb_ptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(a, minlength=n), out=self.nb_ptr[1:])
        self.nb = b[order]

    def degree(self) -> np.ndarray:
        return np.diff(self.nb_ptr)

    def neighbours(self, nodes: np.ndarray) -> np.ndarray:
        return self.nb[concat_ranges(self.nb_ptr[nodes], self.nb_ptr[nodes + 1] - self.nb_ptr[nodes])]

    def out_edges(self, nodes: np.ndarray) -> np.ndarray:
        return self.out_edge[concat_ranges(self.out_ptr[nodes], self.out_ptr[nodes + 1] - self.out_ptr[nodes])]


def _check_int(name: str, value, low: int, high: Optional[int] = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        rng = f">= {low}" if high is None else f"from {low} to {high:,}"
        raise ConfigError(f"{name} must be an integer {rng}, got {value!r}")


def _check_centres(n: int, candidates: int) -> None:
    """Refuse ``n`` random centres among fewer ``candidates`` (concepts with an edge to another)."""
    if n > candidates:
        raise ConfigError(f"asked for {n:,} random centres, but only {candidates:,} concepts of the graph have an "
                          "edge to another concept")


def _first_seen(values: np.ndarray) -> np.ndarray:
    """Distinct values in order of first occurrence."""
    if values.size == 0:
        return values
    _, idx = np.unique(values, return_index=True)
    return values[np.sort(idx)]


def check_sampling(*, hops: int, max_nodes: int, n_random: int, seed: int, n_around: int,
                   names: Optional[Mapping[str, str]] = None) -> None:
    """The sampling options checked, so that a command refuses them before reading a large graph.

    ``names`` maps a parameter (``hops``, ``max_nodes``, ``n_random``,
    ``seed``, ``around``) to what the caller's user typed (``--max-nodes``):
    a command's errors then name its flags, not this function's parameters.

    Examples
    --------
    >>> check_sampling(hops=2, max_nodes=12, n_random=0, seed=0, n_around=1)
    >>> check_sampling(hops=0, max_nodes=12, n_random=0, seed=0, n_around=1, names={"hops": "--hops"})
    Traceback (most recent call last):
    ...
    causalgraph.errors.ConfigError: --hops must be an integer >= 1, got 0
    """
    def name(param: str) -> str:
        return (names or {}).get(param, param)

    _check_int(name("hops"), hops, 1)
    _check_int(name("max_nodes"), max_nodes, 2, MAX_SUBGRAPH_NODES)
    _check_int(name("n_random"), n_random, 0)
    _check_int(name("seed"), seed, 0)
    if not n_around and not n_random:
        raise ConfigError(f"name the centres ({name('around')}) or ask for random ones ({name('n_random')} N, "
                          "N > 0)")


def sample_subgraphs(graph: MergedGraph, *, around: Sequence[int] = (), n_random: int = 0, hops: int = 2,
                     max_nodes: int = 12, seed: int = 0, id_prefix: str = "subgraph") -> tuple[list[Subgraph], dict]:
    """Neighbourhood subgraphs around given or random centres.

    Parameters
    ----------
    graph
        The merged graph.
    around
        Node ids of the centres (see :func:`causalgraph.datasets.causenet.find_concept`).
    n_random
        Number of random centres, drawn after ``around``'s.
    hops
        Largest distance from the centre, in edges followed either way (>= 1).
    max_nodes
        Most concepts in one subgraph (2 to :data:`MAX_SUBGRAPH_NODES`).
    seed
        Seed of the random centres and of the draw that cuts a hop to size.
    id_prefix
        The subgraphs' statement ids are ``<id_prefix>-0001``, … in sampling
        order (``sample-subgraphs``, which reads CauseNet, writes ``causenet-0001`` …).

    Returns
    -------
    (list of Subgraph, dict)
        The subgraphs, and counts: ``asked``, ``written``, ``duplicates`` dropped.

    Examples
    --------
    >>> from causalgraph.graph.merged import merge_pairs
    >>> g = merge_pairs([("a", "b"), ("b", "c"), ("c", "d"), ("x", "b")])
    >>> subs, counts = sample_subgraphs(g, around=[0], hops=2, max_nodes=10)
    >>> [g.name_of(i) for i in subs[0].nodes], subs[0].edges.tolist(), subs[0].truncated
    (['a', 'b', 'c', 'x'], [0, 1, 3], False)
    """
    check_sampling(hops=hops, max_nodes=max_nodes, n_random=n_random, seed=seed, n_around=len(around))
    for c in around:
        if not 0 <= int(c) < graph.n_nodes:
            raise ConfigError(f"centre {c!r} is not a node id of a graph of {graph.n_nodes:,} nodes")
    rng = np.random.Generator(np.random.PCG64(seed))
    adj = _Adjacency(graph)
    centres = [int(c) for c in around]
    if n_random:
        candidates = np.flatnonzero(adj.degree() > 0)
        _check_centres(n_random, candidates.size)
        centres += np.sort(rng.choice(candidates, size=n_random, replace=False)).tolist()
    seen: set = set()
    out: list[Subgraph] = []
    duplicates = 0
    for centre in centres:
        nodes = [np.array([centre], dtype=np.int64)]
        visited = np.array([centre], dtype=np.int64)
        frontier = nodes[0]
        taken = 0
        truncated = False
        for _ in range(hops):
            nxt = _first_seen(adj.neighbours(frontier))
            nxt = nxt[~np.isin(nxt, visited)]
            if nxt.size == 0:
                break
            room = max_nodes - visited.size
            if nxt.size > room:
                truncated = True
                if room == 0:
                    break
                nxt = nxt[np.sort(rng.choice(nxt.size, size=room, replace=False))]
            taken += 1
            nodes.append(nxt)
            visited = np.concatenate([visited, nxt])
            frontier = nxt
            if truncated:
                break
        members = np.concatenate(nodes)
        key = tuple(np.sort(members).tolist())
        if key in seen:
            duplicates += 1
            continue
        seen.add(key)
        cand = adj.out_edges(members)
        edges = np.sort(cand[np.isin(graph.dst[cand], members)])
        out.append(Subgraph("", centre, members, edges, taken, truncated))
    width = max(4, len(str(len(out))))
    out = [Subgraph(f"{id_prefix}-{i:0{width}d}", s.centre, s.nodes, s.edges, s.hops, s.truncated)
           for i, s in enumerate(out, start=1)]
    return out, {"asked": len(centres), "written": len(out), "duplicates": duplicates}


def _relation_text(cause: str, effect: str) -> str:
    return f"{cause} causes {effect}."


def subgraph_rows(graph: MergedGraph, subgraphs: Sequence[Subgraph],
                  strata: Optional[Sequence[dict]] = None) -> list[dict]:
    """The subgraphs as rows of the relations format, one per edge of the induced subgraph.

    Self-loops are edges of the big graph among the chosen concepts, so they are rows too (and
    entries of ``context``), as docs/data.md says; the tasks and chains ignore them.  ``strata``
    (one dict per subgraph, :func:`stratify_subgraphs`) goes into each context as ``strata``.

    Examples
    --------
    >>> from causalgraph.graph.merged import merge_pairs
    >>> g = merge_pairs([("a", "b"), ("b", "c")])
    >>> subs, _ = sample_subgraphs(g, around=[0], hops=2, max_nodes=5)
    >>> [(r["cause"], r["effect"], r["text"]) for r in subgraph_rows(g, subs)]
    [('a', 'b', 'a causes b. b causes c.'), ('b', 'c', 'a causes b. b causes c.')]
    """
    rows: list[dict] = []
    if strata is not None and len(strata) != len(subgraphs):
        raise ConfigError(f"{len(strata)} strata for {len(subgraphs)} subgraphs")
    for k, sg in enumerate(subgraphs):
        edges = [int(e) for e in sg.edges]
        if not edges:
            continue  # a centre without any edge (possible only when named)
        names = {int(i): graph.name_of(i) for i in sg.nodes}
        texts: list[str] = []
        prov: list[dict] = []
        for e in edges:
            c, f = names[int(graph.src[e])], names[int(graph.dst[e])]
            sents = graph.edge_sentences(e)
            text = sents[0].strip() if sents and sents[0].strip() else _relation_text(c, f)
            if text not in texts:
                texts.append(text)
            prov.append({"cause": c, "effect": f, **graph.edge_provenance(e)})
        ctx = {"source": graph.source or graph.name, "centre": names[sg.centre], "hops": sg.hops,
               "truncated": sg.truncated, "edges": prov}
        if strata is not None:
            ctx["strata"] = dict(strata[k])
        context = json.dumps(ctx, ensure_ascii=False, separators=(",", ":"))
        text = " ".join(texts)
        for e, p in zip(edges, prov):
            rows.append({"text": text, "cause": p["cause"], "effect": p["effect"], "statement_id": sg.statement_id,
                         "context": context})
    return rows


def check_relations_path(path) -> Path:
    """``path`` as a writable relations file (``.csv``, ``.tsv`` or ``.jsonl``), checked before any work.

    Examples
    --------
    >>> check_relations_path("out.parquet")
    Traceback (most recent call last):
    ...
    causalgraph.errors.ConfigError: out.parquet: write the relations as .csv, .tsv or .jsonl (found '.parquet')
    """
    suffix = Path(path).suffix.lower()
    if suffix not in (".csv", ".tsv", ".jsonl"):
        raise ConfigError(f"{path}: write the relations as .csv, .tsv or .jsonl (found {suffix or 'no suffix'!r})")
    return output_file(path, "relations file")


def write_relations(rows: Sequence[dict], path) -> Path:
    """Write relations-format rows as CSV (``.csv``), TSV (``.tsv``) or JSON Lines (``.jsonl``).

    Examples
    --------
    >>> import tempfile, os
    >>> p = write_relations([{"text": "a causes b.", "cause": "a", "effect": "b", "statement_id": "s1",
    ...                       "context": "{}"}], os.path.join(tempfile.mkdtemp(), "rel.csv"))
    >>> p.read_text().splitlines()[0]
    'text,cause,effect,statement_id,context'
    """
    p = check_relations_path(path)
    suffix = p.suffix.lower()
    with open(p, "w", encoding="utf-8", newline="") as f:
        if suffix == ".jsonl":
            for r in rows:
                f.write(json.dumps({c: r[c] for c in RELATION_COLUMNS}, ensure_ascii=False) + "\n")
        else:
            w = csv.writer(f, delimiter="," if suffix == ".csv" else "\t", lineterminator="\n")
            w.writerow(RELATION_COLUMNS)
            for r in rows:
                w.writerow([r[c] for c in RELATION_COLUMNS])
    return p


# -- stratified sampling ----------------------------------------------------------------------------

#: What ``stratify_subgraphs`` can stratify by (``sample-subgraphs --stratify``).
STRATA = ("support", "source-type", "size", "depth")


def _depth(graph: MergedGraph, sg: Subgraph) -> int:
    """Longest path, in edges, of the subgraph's condensation (its cycles contracted; self-loops ignored)."""
    nodes = [int(i) for i in sg.nodes]
    pos = {v: k for k, v in enumerate(nodes)}
    succ: list[list[int]] = [[] for _ in nodes]
    for e in sg.edges.tolist():
        a, b = pos[int(graph.src[e])], pos[int(graph.dst[e])]
        if a != b:
            succ[a].append(b)
    n = len(nodes)
    # strongly connected components, Kosaraju (iterative): first pass orders by finish time
    order: list[int] = []
    seen = [False] * n
    for s in range(n):
        if seen[s]:
            continue
        seen[s] = True
        stack = [(s, 0)]
        while stack:
            v, i = stack.pop()
            if i < len(succ[v]):
                stack.append((v, i + 1))
                w = succ[v][i]
                if not seen[w]:
                    seen[w] = True
                    stack.append((w, 0))
            else:
                order.append(v)
    pred: list[list[int]] = [[] for _ in nodes]
    for v in range(n):
        for w in succ[v]:
            pred[w].append(v)
    comp = [-1] * n
    k = 0
    for s in reversed(order):
        if comp[s] >= 0:
            continue
        comp[s] = k
        stack2 = [s]
        while stack2:
            v = stack2.pop()
            for w in pred[v]:
                if comp[w] < 0:
                    comp[w] = k
                    stack2.append(w)
        k += 1
    # components come out in topological order of the condensation (sources first): one DP pass
    csucc: list[set] = [set() for _ in range(k)]
    for v in range(n):
        for w in succ[v]:
            if comp[v] != comp[w]:
                csucc[comp[v]].add(comp[w])
    longest = [0] * k
    for c in reversed(range(k)):
        longest[c] = max((1 + longest[d] for d in csucc[c]), default=0)
    return max(longest, default=0)


def _bucket(value: int, edges: Sequence[int]) -> str:
    """``value``'s bucket among the lower bounds ``edges`` (``"1"``, ``"2-4"``, ``"5+"`` …)."""
    for k, lo in enumerate(edges):
        hi = edges[k + 1] - 1 if k + 1 < len(edges) else None
        if hi is None:
            return f"{lo}+"
        if value <= hi:
            return str(lo) if lo == hi else f"{lo}-{hi}"
    return str(value)


def subgraph_strata(graph: MergedGraph, sg: Subgraph) -> dict:
    """The stratum of a subgraph on each of :data:`STRATA`.

    ``support``: the fewest sources of any of its edges (a statement is as well
    attested as its weakest relation), bucketed ``1``, ``2-4``, ``5+`` (``0``
    for edges without sources); ``source-type``: the type with the most
    sources over its edges (ties: the graph's first type), ``none`` without
    types; ``size``: its concepts, bucketed ``2-4``, ``5-8``, ``9+``;
    ``depth``: the longest path of its condensation in edges, ``0``, ``1``,
    ``2``, ``3+``.

    Examples
    --------
    >>> from causalgraph.graph.merged import merge_pairs
    >>> g = merge_pairs([("a", "b"), ("b", "c"), ("c", "b")])
    >>> subs, _ = sample_subgraphs(g, around=[0], hops=2, max_nodes=5)
    >>> subgraph_strata(g, subs[0])
    {'support': '0', 'source-type': 'none', 'size': '2-4', 'depth': '1'}
    """
    edges = sg.edges
    if edges.size:
        low = int(graph.sources[edges].min())
    else:
        low = 0
    support = "0" if low == 0 else _bucket(low, (1, 2, 5))
    if graph.type_counts is not None and graph.source_types and edges.size:
        per = graph.type_counts[edges].sum(axis=0)
        stype = graph.source_types[int(np.argmax(per))] if per.max() > 0 else "none"
    else:
        stype = "none"
    return {"support": support, "source-type": stype, "size": _bucket(int(sg.nodes.size), (2, 5, 9)),
            "depth": _bucket(_depth(graph, sg), (0, 1, 2, 3))}


def stratify_subgraphs(graph: MergedGraph, n: int, by: Sequence[str], *, hops: int = 2, max_nodes: int = 12,
                       seed: int = 0, pool: Optional[int] = None,
                       id_prefix: str = "subgraph") -> tuple[list[Subgraph], list[dict], dict]:
    """``n`` random subgraphs spread evenly over the strata ``by`` (:data:`STRATA`).

    A pool of random centres (``pool``, default ``4 × n``, at most every
    concept with an edge; ``n`` above that number is refused, as
    :func:`sample_subgraphs` refuses it) is sampled as :func:`sample_subgraphs` does; each
    subgraph gets its strata (:func:`subgraph_strata`); then the subgraphs are
    taken one stratum at a time in turn (strata in sorted order, each in
    the pool's seeded order) until ``n`` are taken or the pool is used up —
    so every stratum the pool holds is represented and none holds more than
    one more subgraph than another unless it ran out. The same graph, options
    and seed give the same subgraphs whatever ``PYTHONHASHSEED``.

    Returns
    -------
    (subgraphs, strata, counts)
        The subgraphs (ids renumbered in the order taken), each one's strata,
        and counts: ``pool``, ``written``, ``duplicates`` and ``per_stratum``
        (``"support=1|size=2-4"`` → subgraphs taken).

    Examples
    --------
    >>> from causalgraph.graph.merged import merge_pairs
    >>> g = merge_pairs([("a", "b"), ("b", "c"), ("c", "d"), ("x", "y")])
    >>> subs, strata, counts = stratify_subgraphs(g, 2, ["depth"], hops=1, max_nodes=4, seed=0)
    >>> sorted(s["depth"] for s in strata)
    ['1', '2']
    """
    bad = [b for b in by if b not in STRATA]
    if bad or not by:
        raise ConfigError(f"stratify by one or more of {', '.join(STRATA)}; got {', '.join(map(repr, bad or by))}")
    _check_int("n", n, 1)
    by = list(dict.fromkeys(by))
    adj_deg = _Adjacency(graph).degree()
    candidates = int(np.count_nonzero(adj_deg > 0))
    if candidates < 1:
        raise ConfigError("no concept of the graph has an edge to another concept: nothing to sample")
    _check_centres(n, candidates)  # as sample_subgraphs: n subgraphs need n centres, not fewer written silently
    size = min(candidates, pool if pool is not None else 4 * n)
    subs, counts = sample_subgraphs(graph, n_random=size, hops=hops, max_nodes=max_nodes, seed=seed,
                                    id_prefix=id_prefix)
    # the pool in a seeded random order (sample_subgraphs returns its centres sorted)
    rng = np.random.Generator(np.random.PCG64([seed, 1]))
    subs = [subs[i] for i in rng.permutation(len(subs))]
    strata = [subgraph_strata(graph, s) for s in subs]
    groups: dict[str, list[int]] = {}
    for i, st in enumerate(strata):
        groups.setdefault("|".join(f"{b}={st[b]}" for b in by), []).append(i)
    keys = sorted(groups)
    taken: list[int] = []
    per = {k: 0 for k in keys}
    depth = 0
    while len(taken) < n:
        progressed = False
        for k in keys:
            if depth < len(groups[k]) and len(taken) < n:
                taken.append(groups[k][depth])
                per[k] += 1
                progressed = True
        if not progressed:
            break
        depth += 1
    width = max(4, len(str(len(taken))))
    out = [Subgraph(f"{id_prefix}-{j:0{width}d}", subs[i].centre, subs[i].nodes, subs[i].edges, subs[i].hops,
                    subs[i].truncated) for j, i in enumerate(taken, start=1)]
    return out, [strata[i] for i in taken], {"pool": size, "written": len(out), "duplicates": counts["duplicates"],
                                             "per_stratum": per}


def context_sources(meta: Mapping) -> Optional[list[dict]]:
    """The sources an item carries in ``meta["context"]`` (``sample-subgraphs --sources``), edge by edge.

    Each entry is ``{"cause", "effect", "sources_total", "sources_shown"}``, the edge's
    ``sources_shown`` as written (type, sentence, reference, page id, timestamp, line); ``None`` when
    the item has no context, its context is not a JSON object, or no edge of it carries sources
    (statements sampled without ``--sources``, or from another corpus).

    Examples
    --------
    >>> ctx = {"edges": [{"cause": "rain", "effect": "flood", "sources_total": 1,
    ...                   "sources_shown": [{"type": "wikipedia_sentence", "sentence": "Rain floods."}]},
    ...                  {"cause": "flood", "effect": "damage"}]}
    >>> context_sources({"context": json.dumps(ctx)})
    [{'cause': 'rain', 'effect': 'flood', 'sources_total': 1, 'sources_shown': [{'type': 'wikipedia_sentence', 'sentence': 'Rain floods.'}]}]
    >>> context_sources({"context": "plain text"}) is None, context_sources({}) is None
    (True, True)
    """
    ctx = meta.get("context") if isinstance(meta, Mapping) else None
    if isinstance(ctx, str):
        try:
            ctx = json.loads(ctx)
        except ValueError:
            return None  # a context written by hand as text: it holds no sources
    if not isinstance(ctx, dict) or not isinstance(ctx.get("edges"), list):
        return None
    out = [{"cause": e.get("cause"), "effect": e.get("effect"), "sources_total": e.get("sources_total"),
            "sources_shown": e["sources_shown"]}
           for e in ctx["edges"] if isinstance(e, dict) and isinstance(e.get("sources_shown"), list)]
    return out or None
