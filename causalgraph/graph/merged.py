"""A large merged causal graph as interned ids and compact arrays.

:class:`MergedGraph` holds one causal graph of millions of relations — the
CauseNet graph, a corpus-scale extraction — without one Python object per
relation or per node: every concept is interned once to an integer id (ids
follow first appearance, cause before effect, so they do not depend on
``PYTHONHASHSEED``), and the deduplicated edges are numpy arrays with the
number of input relations merged into each.  Provenance (number of sources,
sources per type, the ``support`` field, optionally the sentences) is kept
per edge in arrays of the same length.

:func:`merge_pairs` compiles plain ``(cause, effect)`` pairs into one; the
CauseNet loader (:func:`causalgraph.datasets.causenet.load_causenet`)
builds one from a file.  Chain labels and statistics on it are in
:mod:`causalgraph.metrics.graph_chains`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

import numpy as np

from ..errors import ConfigError

__all__ = ["MergedGraph", "merge_pairs", "merge_ids", "concat_ranges"]


@dataclass
class MergedGraph:
    """One causal graph, deduplicated, as arrays over interned concept ids.

    Attributes
    ----------
    names
        Concept of each node id (a list of ``str``, or a pyarrow string array
        when the CauseNet loader read the file with pyarrow; index it with
        :meth:`name`).
    src, dst
        Cause and effect id of each deduplicated edge (int64), in order of
        first appearance.  Self-loops are kept (they are provenance); the
        chain functions ignore them, as :mod:`causalgraph.metrics.chains` does.
    relations
        Number of input relations (file lines, pairs) merged into each edge.
    sources
        Number of provenance sources over the merged relations (0 where the
        input has none).
    source_types, type_counts
        The source types in first-appearance order and, per edge, how many
        sources of each type (shape ``(n_edges, len(source_types))``).
    support
        Sum of the relations' ``support`` fields, or ``None`` when the input
        has none.
    sentence_offsets, sentences
        With ``keep_sentences``: the provenance sentences of edge ``e`` are
        ``sentences[sentence_offsets[e]:sentence_offsets[e + 1]]`` (read them
        with :meth:`edge_sentences`); otherwise ``None``.
    name, source
        A label for the graph and the file it came from.
    problems
        What a lenient load skipped (:class:`causalgraph.model.Problem`).
    report
        Loader counts: ``lines``, ``relations``, ``filtered`` …
    """

    names: Sequence[str]
    src: np.ndarray
    dst: np.ndarray
    relations: np.ndarray
    sources: np.ndarray
    source_types: tuple[str, ...] = ()
    type_counts: Optional[np.ndarray] = None
    support: Optional[np.ndarray] = None
    sentence_offsets: Optional[np.ndarray] = None
    sentences: Optional[Sequence[str]] = None
    name: str = "merged"
    source: Optional[str] = None
    problems: list = field(default_factory=list)
    report: dict = field(default_factory=dict)

    @property
    def n_nodes(self) -> int:
        return len(self.names)

    @property
    def n_edges(self) -> int:
        return int(self.src.shape[0])

    def name_of(self, i: int) -> str:
        """The concept of node ``i``."""
        v = self.names[int(i)]
        return v.as_py() if hasattr(v, "as_py") else v

    def names_list(self) -> list[str]:
        """Every concept as a Python list (one string object per node)."""
        return self.names if isinstance(self.names, list) else self.names.to_pylist()

    def edge_sentences(self, e: int) -> list[str]:
        """The provenance sentences kept for edge ``e`` (empty without ``keep_sentences``)."""
        if self.sentence_offsets is None:
            return []
        a, b = int(self.sentence_offsets[e]), int(self.sentence_offsets[e + 1])
        part = self.sentences[a:b]
        return list(part) if isinstance(part, list) else part.to_pylist()

    def edge_provenance(self, e: int) -> dict:
        """Provenance counts of edge ``e``: relations, sources, sources per type, support."""
        out = {"relations": int(self.relations[e]), "sources": int(self.sources[e])}
        if self.type_counts is not None and self.source_types:
            out["source_types"] = {t: int(c) for t, c in zip(self.source_types, self.type_counts[e]) if c}
        if self.support is not None:
            out["support"] = int(self.support[e])
        return out

    def pairs(self) -> list[tuple[str, str]]:
        """The deduplicated edges as ``(cause, effect)`` strings (one tuple per edge; for small graphs)."""
        names = self.names_list()
        return [(names[a], names[b]) for a, b in zip(self.src.tolist(), self.dst.tolist())]


def _first_appearance_dedup(src: np.ndarray, dst: np.ndarray, n: int):
    """Unique edges in order of first appearance, and each input edge's index among them."""
    m = src.shape[0]
    if m == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    key = src.astype(np.int64) * max(n, 1) + dst.astype(np.int64)
    uniq, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    # np.unique sorts by key; re-rank the unique edges by where each first appears.
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.shape[0])
    edge_of = rank[inverse.reshape(-1)]
    u = uniq[order]
    return u // max(n, 1), u % max(n, 1), edge_of


def merge_ids(src, dst, names: Sequence[str], *, n_sources=None, source_types: Sequence[str] = (),
              type_line=None, type_code=None, support=None, sentence_line=None, sentences=None,
              min_sources: int = 0, name: str = "merged", source: Optional[str] = None) -> MergedGraph:
    """Merge relations already interned to ids into a :class:`MergedGraph`.

    Parameters
    ----------
    src, dst
        Cause and effect id of each input relation (one per line or pair).
    names
        Concept of each id.
    n_sources
        Sources of each relation (default 0).
    source_types, type_line, type_code
        The source type names, and for every source its relation (line) and type code.
    support
        Each relation's ``support`` value, or ``None``.
    sentence_line, sentences
        For every kept sentence its relation and its text (``keep_sentences``).
    min_sources
        Keep only edges whose merged relations have at least this many sources;
        nodes left without an edge are dropped (ids renumbered, order kept).

    Examples
    --------
    >>> g = merge_ids([0, 1, 0], [1, 2, 1], ["a", "b", "c"])
    >>> g.src.tolist(), g.dst.tolist(), g.relations.tolist()
    ([0, 1], [1, 2], [2, 1])
    """
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    n = len(names)
    m = src.shape[0]
    if isinstance(min_sources, bool) or not isinstance(min_sources, int) or min_sources < 0:
        raise ConfigError(f"min_sources must be a non-negative integer, got {min_sources!r}")
    es, ed, edge_of = _first_appearance_dedup(src, dst, n)
    n_edges = es.shape[0]
    relations = np.bincount(edge_of, minlength=n_edges).astype(np.int64)
    ns = np.zeros(m, dtype=np.int64) if n_sources is None else np.asarray(n_sources, dtype=np.int64)
    sources = np.bincount(edge_of, weights=ns, minlength=n_edges).astype(np.int64) if m else np.zeros(0, np.int64)
    n_types = len(source_types)
    type_counts = None
    if n_types:
        tl = np.asarray(type_line, dtype=np.int64)
        tc = np.asarray(type_code, dtype=np.int64)
        flat = np.bincount(edge_of[tl] * n_types + tc, minlength=n_edges * n_types)
        type_counts = flat.reshape(n_edges, n_types).astype(np.int64)
    sup = None
    if support is not None:
        sup = np.bincount(edge_of, weights=np.asarray(support, dtype=np.float64), minlength=n_edges)
        sup = np.rint(sup).astype(np.int64)
    offsets = texts = None
    if sentences is not None:
        sl = edge_of[np.asarray(sentence_line, dtype=np.int64)] if m else np.zeros(0, np.int64)
        order = np.argsort(sl, kind="stable")  # by edge, file order within an edge
        offsets = np.zeros(n_edges + 1, dtype=np.int64)
        np.cumsum(np.bincount(sl, minlength=n_edges), out=offsets[1:])
        texts = _take(sentences, order)
    g = MergedGraph(names, es, ed, relations, sources, tuple(source_types), type_counts, sup, offsets, texts,
                    name=name, source=source)
    g.report = {"relations_in": int(m), "edges": int(n_edges), "concepts": int(n)}
    if min_sources:
        g = _filter_edges(g, sources >= min_sources)
        g.report = {"relations_in": int(m), "edges_before_filter": int(n_edges), "edges": g.n_edges,
                    "concepts_before_filter": int(n), "concepts": g.n_nodes, "min_sources": min_sources}
    return g


def _take(seq, idx: np.ndarray):
    if isinstance(seq, list):
        return [seq[i] for i in idx.tolist()]
    import pyarrow as pa

    return seq.take(pa.array(idx))


def _filter_edges(g: MergedGraph, keep: np.ndarray) -> MergedGraph:
    """The graph with only the edges where ``keep`` is true, and only the nodes they name."""
    src, dst = g.src[keep], g.dst[keep]
    used = np.zeros(g.n_nodes, dtype=bool)
    used[src] = True
    used[dst] = True
    new_id = np.cumsum(used) - 1
    kept_ids = np.flatnonzero(used)
    names = _take(g.names, kept_ids)
    offsets = texts = None
    if g.sentence_offsets is not None:
        lens = np.diff(g.sentence_offsets)[keep]
        starts = g.sentence_offsets[:-1][keep]
        offsets = np.zeros(lens.shape[0] + 1, dtype=np.int64)
        np.cumsum(lens, out=offsets[1:])
        texts = _take(g.sentences, concat_ranges(starts, lens))
    return MergedGraph(names, new_id[src], new_id[dst], g.relations[keep], g.sources[keep], g.source_types,
                       None if g.type_counts is None else g.type_counts[keep],
                       None if g.support is None else g.support[keep], offsets, texts,
                       name=g.name, source=g.source, problems=g.problems)


def concat_ranges(starts: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """Concatenation of ``range(s, s + l)`` for each start and length, vectorised.

    How a CSR row slice is gathered for many rows at once (neighbours of a
    whole frontier, sentences of the kept edges).

    Examples
    --------
    >>> concat_ranges(np.array([5, 0]), np.array([2, 3])).tolist()
    [5, 6, 0, 1, 2]
    """
    lens = np.asarray(lens, dtype=np.int64)
    total = int(lens.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    offs = np.cumsum(lens) - lens
    return np.repeat(np.asarray(starts, dtype=np.int64) - offs, lens) + np.arange(total, dtype=np.int64)


def merge_pairs(pairs: Iterable[tuple], nodes: Optional[Iterable] = None, *, name: str = "merged") -> MergedGraph:
    """Compile plain ``(cause, effect)`` pairs into a :class:`MergedGraph`, with no Relation objects.

    Concepts are interned in first-appearance order (``nodes`` first, when
    given, then cause before effect of each pair); repeated pairs merge into
    one edge whose ``relations`` count says how many times it was listed.

    Examples
    --------
    >>> g = merge_pairs([("a", "b"), ("b", "c"), ("a", "b")])
    >>> g.names, g.n_edges, g.relations.tolist()
    (['a', 'b', 'c'], 2, [2, 1])
    """
    index: dict = {}
    if nodes is not None:
        for v in nodes:
            index.setdefault(v, len(index))
    src: list[int] = []
    dst: list[int] = []
    for c, e in pairs:
        i = index.get(c)
        if i is None:
            i = index[c] = len(index)
        j = index.get(e)
        if j is None:
            j = index[e] = len(index)
        src.append(i)
        dst.append(j)
    return merge_ids(np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64), list(index), name=name)
