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

from .errors import ConfigError
from .merged import MergedGraph, concat_ranges
from .outputs import output_file

__all__ = ["Subgraph", "check_sampling", "sample_subgraphs", "subgraph_rows", "write_relations", "check_relations_path", "RELATION_COLUMNS",
           "MAX_SUBGRAPH_NODES"]

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
    >>> from causalgraph.merged import merge_pairs
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
        if n_random > candidates.size:
            raise ConfigError(f"asked for {n_random:,} random centres, but only {candidates.size:,} concepts "
                              "of the graph have an edge to another concept")
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


def subgraph_rows(graph: MergedGraph, subgraphs: Sequence[Subgraph]) -> list[dict]:
    """The subgraphs as rows of the relations format, one per edge of the induced subgraph.

    Self-loops are edges of the big graph among the chosen concepts, so they are rows too (and
    entries of ``context``), as docs/data.md says; the tasks and chains ignore them.

    Examples
    --------
    >>> from causalgraph.merged import merge_pairs
    >>> g = merge_pairs([("a", "b"), ("b", "c")])
    >>> subs, _ = sample_subgraphs(g, around=[0], hops=2, max_nodes=5)
    >>> [(r["cause"], r["effect"], r["text"]) for r in subgraph_rows(g, subs)]
    [('a', 'b', 'a causes b. b causes c.'), ('b', 'c', 'a causes b. b causes c.')]
    """
    rows: list[dict] = []
    for sg in subgraphs:
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
        context = json.dumps({"source": graph.source or graph.name, "centre": names[sg.centre], "hops": sg.hops,
                              "truncated": sg.truncated, "edges": prov}, ensure_ascii=False, separators=(",", ":"))
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
