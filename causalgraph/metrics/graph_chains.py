"""Chain labels and chain statistics of a large merged graph, in time linear in its edges.

The same rules as :mod:`causalgraph.metrics.chains`, computed on the arrays
of a :class:`~causalgraph.graph.merged.MergedGraph` with numpy and scipy instead of
Python loops, so that a graph of ten million relations is labelled and
counted in seconds:

* **labels** — ``start`` / ``middle`` / ``end`` / ``none`` by the ``path``
  rule (the paper's) or the ``shortest-distance`` rule, exactly as
  :func:`~causalgraph.metrics.chains.chain_labels` gives them on every graph,
  cyclic or not: both rules read only degrees and neighbours (self-loops
  ignored, a 2-cycle alone is no chain);
* **statistics per weakly connected component** — nodes, edges, depth
  (longest path in edges), breadth (largest out-degree) and number of chains
  (paths of at least three nodes), counted by dynamic programming over a
  topological order, never by listing paths.

The cycle rule
--------------
A path through a directed cycle can go round it in many ways, and counting
simple paths is #P-hard in general; :func:`~causalgraph.metrics.chains.chain_stats`
therefore searches cycles with a step limit and raises
:class:`~causalgraph.errors.CycleLimitExceeded` beyond it.  Here depth and
chains are defined on the **condensation**: every strongly connected
component (a set of events that all reach one another) is contracted into a
single event, and depth and chains are those of the resulting DAG
(parallel edges between two components count once, edges inside one are
dropped).  On a DAG every component is a single event, so the figures are
exactly those of ``chain_stats``; on a cyclic graph a cycle counts as one
event of a chain (``a → b ⇄ c → d`` has depth 2 and one chain, ``a → {b, c} → d``),
and the result is always defined, in linear time, with no limit to hit.
``acyclic`` and ``cyclic_nodes`` say where the rule applied.  Breadth and
node counts are those of the graph itself.

Chain counts grow exponentially with depth: they are kept in int64 while
they fit and switch to exact Python integers (numpy object arrays) as soon
as a sum could reach 2**62, so they never overflow.

The topological order is taken level by level (all events whose successors
are done, at once), so the Python overhead is per level: a graph as deep as
it is large (a single path of a million events) takes seconds, not
milliseconds, but stays linear.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ConfigError
from ..graph.merged import MergedGraph, concat_ranges, merge_pairs
from .chains import RULES, ChainStats, Position
from ..graph import as_graph, is_graph_source

__all__ = ["POSITIONS", "GraphChainStats", "as_merged", "graph_positions", "graph_chain_labels",
           "graph_chain_stats"]

#: Position of each code returned by :func:`graph_positions` (0 start, 1 middle, 2 end, 3 none).
POSITIONS = (Position.START, Position.MIDDLE, Position.END, Position.NONE)
_START, _MIDDLE, _END, _NONE = 0, 1, 2, 3
_BIG = float(2 ** 62)
# Pairs looked at per step of the shortest-distance check (bounds its memory).
_PAIR_CHUNK = 1 << 22


def as_merged(graph) -> MergedGraph:
    """A :class:`MergedGraph` as it is; pairs, a CausalGraph or a networkx graph merged.

    Examples
    --------
    >>> as_merged([("a", "b")]).n_edges
    1
    """
    if isinstance(graph, MergedGraph):
        return graph

    if is_graph_source(graph):
        g = as_graph(graph)
        return merge_pairs(g.pairs, g.nodes)
    if hasattr(graph, "succ") and hasattr(graph, "pred") and hasattr(graph, "edges"):
        return merge_pairs(list(graph.edges()), list(graph.nodes))
    return merge_pairs(graph)


def _simple_edges(g: MergedGraph) -> tuple[int, np.ndarray, np.ndarray]:
    """Node count and the edges without self-loops (edges are already unique)."""
    keep = g.src != g.dst
    return g.n_nodes, g.src[keep], g.dst[keep]


def _check_rule(rule: str) -> None:
    if rule not in RULES:
        raise ConfigError(f"unknown chain rule {rule!r}; expected one of {', '.join(RULES)}")


def _csr(n: int, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(pointer, neighbours) of ``a → b`` grouped by ``a``."""
    order = np.argsort(a, kind="stable")
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(a, minlength=n), out=ptr[1:])
    return ptr, b[order]


def _two_step_escape(n: int, s: np.ndarray, d: np.ndarray, cand: np.ndarray, outdeg: np.ndarray) -> np.ndarray:
    """For sources ``cand``: whether some node two steps away is not also a direct successor.

    The shortest-distance rule's test.  An edge ``v → u`` with
    ``outdeg(u) > outdeg(v)`` settles it at once (pigeonhole: some
    successor of ``u`` is not among ``v``'s); the rest expand ``v → u → w``
    and look each ``(v, w)`` up among the edges, in chunks.
    """
    result = np.zeros(n, dtype=bool)
    is_cand = np.zeros(n, dtype=bool)
    is_cand[cand] = True
    sel = is_cand[s] & (outdeg[d] > 0)
    vs, us = s[sel], d[sel]
    quick = outdeg[us] > outdeg[vs]
    result[vs[quick]] = True
    rest = ~quick & ~result[vs]
    vs, us = vs[rest], us[rest]
    if vs.size == 0:
        return result
    ptr, nbr = _csr(n, s, d)
    keys = np.sort(s.astype(np.int64) * n + d)
    lens = outdeg[us]
    cum = np.cumsum(lens)
    lo = 0
    while lo < vs.size:
        base = int(cum[lo - 1]) if lo else 0
        hi = max(int(np.searchsorted(cum, base + _PAIR_CHUNK, side="right")), lo + 1)
        v, u, ln = vs[lo:hi], us[lo:hi], lens[lo:hi]
        w = nbr[concat_ranges(ptr[u], ln)]
        vv = np.repeat(v, ln)
        q = vv.astype(np.int64) * n + w
        at = np.searchsorted(keys, q)
        found = keys[np.minimum(at, keys.size - 1)] == q
        result[vv[~found]] = True
        lo = hi
    return result


def graph_positions(graph, rule: str = "path") -> np.ndarray:
    """The chain position code of every node (indices into :data:`POSITIONS`).

    Parameters
    ----------
    graph
        A :class:`~causalgraph.graph.merged.MergedGraph`, or what :func:`as_merged` takes.
    rule
        ``"path"`` (the paper's) or ``"shortest-distance"``, as in
        :func:`causalgraph.metrics.chains.chain_labels`.

    Returns
    -------
    numpy.ndarray
        int8 codes in node-id order: 0 start, 1 middle, 2 end, 3 none.

    Examples
    --------
    >>> [str(POSITIONS[c]) for c in graph_positions([("a", "b"), ("b", "c"), ("d", "c")])]
    ['start', 'middle', 'end', 'none']
    """
    _check_rule(rule)
    g = as_merged(graph)
    n, s, d = _simple_edges(g)
    outdeg = np.bincount(s, minlength=n)
    indeg = np.bincount(d, minlength=n)
    codes = np.full(n, _NONE, dtype=np.int8)
    inner = (outdeg > 0) & (indeg > 0)
    # A node whose only cause is also its only effect sits on a 2-cycle and nowhere else: no chain.
    one_succ = np.full(n, -1, dtype=np.int64)
    one_pred = np.full(n, -1, dtype=np.int64)
    one_succ[s] = d
    one_pred[d] = s
    alone = (outdeg == 1) & (indeg == 1) & (one_succ == one_pred)
    codes[inner & ~alone] = _MIDDLE
    sources = (outdeg > 0) & (indeg == 0)
    sinks = (indeg > 0) & (outdeg == 0)
    # path rule: a source starts a chain when one of its effects has an effect (symmetrically for sinks).
    starts = np.zeros(n, dtype=bool)
    starts[s[outdeg[d] > 0]] = True
    starts &= sources
    ends = np.zeros(n, dtype=bool)
    ends[d[indeg[s] > 0]] = True
    ends &= sinks
    if rule == "shortest-distance":
        starts = _two_step_escape(n, s, d, np.flatnonzero(starts), outdeg) & starts
        ends = _two_step_escape(n, d, s, np.flatnonzero(ends), indeg) & ends
    codes[starts] = _START
    codes[ends] = _END
    return codes


def graph_chain_labels(graph, rule: str = "path") -> dict:
    """event → :class:`~causalgraph.metrics.chains.Position`, in node order (one dict entry per node).

    Equal to :func:`causalgraph.metrics.chains.chain_labels` on every graph;
    for graphs of millions of nodes keep the codes of :func:`graph_positions`.

    Examples
    --------
    >>> {k: str(v) for k, v in graph_chain_labels([("a", "b"), ("b", "c"), ("a", "c")]).items()}
    {'a': 'start', 'b': 'middle', 'c': 'end'}
    """
    g = as_merged(graph)
    codes = graph_positions(g, rule)
    return dict(zip(g.names_list(), (POSITIONS[c] for c in codes.tolist())))


@dataclass(frozen=True)
class GraphChainStats:
    """Chain statistics of a merged graph, per weakly connected component and in total.

    Components are numbered 0, 1, … in order of their first node (node ids
    follow first appearance, so the numbering is stable).  Per-component
    arrays have one entry per component.

    Attributes
    ----------
    component
        Component of each node (int64, node-id order).
    n_nodes, n_edges
        Nodes and distinct edges (self-loops not counted) of each component.
    depth
        Longest path, in edges, of each component's condensation (on a DAG:
        of the component itself).
    breadth
        Largest out-degree in each component (self-loops ignored).
    n_chains
        Paths of at least three nodes in each component's condensation:
        int64, or an object array of Python ints where counts reach 2**62.
    cyclic_nodes
        Nodes lying on a directed cycle in each component (0: the component is a DAG).
    total
        The whole graph as one :class:`~causalgraph.metrics.chains.ChainStats`
        (depth and breadth the largest, nodes and chains summed, ``acyclic``
        when no component has a cycle).
    """

    component: np.ndarray
    n_nodes: np.ndarray
    n_edges: np.ndarray
    depth: np.ndarray
    breadth: np.ndarray
    n_chains: np.ndarray
    cyclic_nodes: np.ndarray
    total: ChainStats

    @property
    def n_components(self) -> int:
        return int(self.n_nodes.shape[0])

    def rows(self) -> list[dict]:
        """One dict per component (for tables; materialises every component)."""
        return [{"component": k, "n_nodes": a, "n_edges": b, "depth": c, "breadth": e, "n_chains": f,
                 "acyclic": "yes" if h == 0 else "no", "cyclic_nodes": h}
                for k, (a, b, c, e, f, h) in enumerate(zip(
                    self.n_nodes.tolist(), self.n_edges.tolist(), self.depth.tolist(), self.breadth.tolist(),
                    self.n_chains.tolist(), self.cyclic_nodes.tolist()))]


def _components(n: int, s: np.ndarray, d: np.ndarray, connection: str) -> tuple[int, np.ndarray]:
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    if n == 0:
        return 0, np.zeros(0, dtype=np.int64)
    a = csr_matrix((np.ones(s.shape[0], dtype=np.int8), (s, d)), shape=(n, n))
    k, lab = connected_components(a, directed=True, connection=connection)
    return int(k), lab.astype(np.int64)


def _by_first_node(k: int, lab: np.ndarray) -> np.ndarray:
    """Relabel components 0..k-1 in order of their smallest node id."""
    first = np.full(k, lab.shape[0], dtype=np.int64)
    np.minimum.at(first, lab, np.arange(lab.shape[0], dtype=np.int64))
    new = np.empty(k, dtype=np.int64)
    new[np.argsort(first, kind="stable")] = np.arange(k, dtype=np.int64)
    return new[lab]


def _dag_paths(c: int, cs: np.ndarray, cd: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Paths leaving each node (the empty one included) and longest path, on a DAG.

    Sinks first, level by level: every node whose successors are all done
    gets ``P(v) = 1 + Σ P(u)`` and ``L(v) = 1 + max L(u)`` in one vectorised
    step.  ``P`` is int64 until a sum could reach 2**62, then exact Python ints.
    """
    outdeg = np.bincount(cs, minlength=c)
    indeg = np.bincount(cd, minlength=c)
    sptr, succ = _csr(c, cs, cd)
    pptr, pred = _csr(c, cd, cs)
    remaining = outdeg.copy()
    paths = np.ones(c, dtype=np.int64)
    longest = np.zeros(c, dtype=np.int64)
    big = False
    frontier = np.flatnonzero(outdeg == 0)
    done = 0
    while frontier.size:
        done += frontier.size
        f = frontier[outdeg[frontier] > 0]
        if f.size:
            lens = outdeg[f]
            nb = succ[concat_ranges(sptr[f], lens)]
            seg = np.cumsum(lens) - lens
            longest[f] = np.maximum.reduceat(longest[nb], seg) + 1
            vals = paths[nb]
            if not big and float(np.add.reduceat(vals.astype(np.float64), seg).max()) + 1 >= _BIG:
                big = True
                paths = paths.astype(object)
                vals = vals.astype(object)
            paths[f] = np.add.reduceat(vals, seg) + 1
        lens = indeg[frontier]
        if not lens.any():
            break
        pr = pred[concat_ranges(pptr[frontier], lens)]
        u, cnt = np.unique(pr, return_counts=True)
        remaining[u] -= cnt
        frontier = u[remaining[u] == 0]
    if done != c:  # the condensation is a DAG by construction
        raise AssertionError(f"condensation not acyclic: {done} of {c} nodes ordered")
    return paths, longest


def _sum_by(groups: np.ndarray, values: np.ndarray, k: int) -> np.ndarray:
    """Exact per-group sums (int64 while safe, Python ints otherwise)."""
    if values.dtype != object:
        est = np.bincount(groups, weights=values.astype(np.float64), minlength=k)
        if k == 0 or float(est.max(initial=0.0)) < _BIG:
            out = np.zeros(k, dtype=np.int64)
            np.add.at(out, groups, values)
            return out
        values = values.astype(object)
    out = np.zeros(k, dtype=object)
    order = np.argsort(groups, kind="stable")
    g = groups[order]
    v = values[order]
    if g.size:
        starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
        out[g[starts]] = np.add.reduceat(v, starts)
    return out


def graph_chain_stats(graph) -> GraphChainStats:
    """Depth, breadth, nodes, edges and number of chains of every weakly connected component.

    Linear in the edges (plus the sort that deduplicates them); cycles are
    handled by the condensation rule of the module docstring, so no graph
    raises.  On a DAG, ``total`` equals
    :func:`causalgraph.metrics.chains.chain_stats` of the same graph.

    Examples
    --------
    >>> st = graph_chain_stats([("a", "b"), ("b", "c"), ("a", "c"), ("c", "d"), ("x", "y")])
    >>> st.total
    ChainStats(depth=3, breadth=2, n_nodes=6, n_chains=4, acyclic=True)
    >>> st.n_chains.tolist(), st.component.tolist()
    ([4, 0], [0, 0, 0, 0, 1, 1])
    >>> graph_chain_stats([("a", "b"), ("b", "c"), ("c", "b"), ("c", "d")]).total
    ChainStats(depth=2, breadth=2, n_nodes=4, n_chains=1, acyclic=False)
    """
    g = as_merged(graph)
    n, s, d = _simple_edges(g)
    outdeg = np.bincount(s, minlength=n)
    k, wlab = _components(n, s, d, "weak")
    comp = _by_first_node(k, wlab) if k else wlab
    c, scc = _components(n, s, d, "strong")
    size = np.bincount(scc, minlength=c)
    on_cycle = size[scc] > 1
    if c == n:
        cs, cd, scc_comp = s, d, comp  # acyclic: the condensation is the graph itself
    else:
        cs, cd = scc[s], scc[d]
        keep = cs != cd
        key = np.sort(cs[keep] * c + cd[keep])  # sort-based unique: numpy's hashed np.unique is slower here
        key = key[np.r_[True, key[1:] != key[:-1]]] if key.size else key
        cs, cd = key // c, key % c
        scc_comp = np.empty(c, dtype=np.int64)
        scc_comp[scc] = comp
    paths, longest = _dag_paths(c, cs, cd)
    c_out = np.bincount(cs, minlength=c)
    chains_from = paths - 1 - c_out  # paths of >= 2 edges leaving each (condensed) node
    n_chains = _sum_by(scc_comp, chains_from, k)
    depth = np.zeros(k, dtype=np.int64)
    np.maximum.at(depth, scc_comp, longest)
    breadth = np.zeros(k, dtype=np.int64)
    np.maximum.at(breadth, comp, outdeg)
    n_nodes = np.bincount(comp, minlength=k).astype(np.int64)
    n_edges = np.bincount(comp[s], minlength=k).astype(np.int64)
    cyclic = np.bincount(comp, weights=on_cycle.astype(np.float64), minlength=k).astype(np.int64)
    total = ChainStats(depth=int(depth.max(initial=0)), breadth=int(breadth.max(initial=0)), n_nodes=int(n),
                       n_chains=int(sum(n_chains.tolist())), acyclic=bool(c == n))
    return GraphChainStats(comp, n_nodes, n_edges, depth, breadth, n_chains, cyclic, total)

