"""Graph-level scores of a predicted causal graph against a gold one: SHD, SID and the AIDs.

* **SHD** (structural Hamming distance) is computed here: the number of unordered event pairs
  whose connection differs (none, one direction, the other direction, both), so a reversed edge
  counts once, as gadjid and CausalBench count it.  It is defined for any two graphs.
* **SID** (structural intervention distance, Peters & Bühlmann 2015) and the adjustment
  identification distances of Henckel et al. (2024) — **parent AID** (the SID's generalisation),
  **ancestor AID** and **optimal-set AID** — are computed by ``gadjid`` (Rust; polynomial), for
  DAGs only: where either graph has a directed cycle they are NaN and the comparison names the
  cycle in its notes.

Both graphs are put on one set of events: the gold graph's events, then the predicted graph's
other events, so an extra predicted event counts wherever it is joined.  A statement read from a
graph file keeps the events without an edge (``meta["isolated_events"]``) as events, as gadjid and
cdt would count them.  Events match by their exact name (docs/graphs.md#scores).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional

from ..errors import ConfigError
from .._core.wording import plural
from ..graph import CausalGraph, as_graph, compile_graph
from ..readwrite import find_cycle
from ..model import Relation, Statement

__all__ = ["GraphComparison", "SCORE_COLUMNS", "MAX_SCORE_NODES", "shd", "compare_graphs", "compare_corpora", "adjacency"]

#: Most events (union of both graphs) a comparison takes; SID and the AIDs grow with its cube.
MAX_SCORE_NODES = 2_000
#: The columns of :meth:`GraphComparison.as_row`, in order.
SCORE_COLUMNS = ("n_events", "gold_edges", "pred_edges", "shd", "shd_norm", "sid", "sid_norm", "parent_aid",
                 "parent_aid_norm", "ancestor_aid", "ancestor_aid_norm", "oset_aid", "oset_aid_norm")


@dataclass(frozen=True)
class GraphComparison:
    """SHD, SID and the AIDs of one predicted graph against its gold graph.

    Counts are integers; ``*_norm`` are gadjid's normalised values (SID and AIDs: count over
    n(n−1) ordered pairs; SHD: count over n(n−1)/2 unordered pairs), NaN when there are fewer
    than two events (no pair to divide by).  The SID and AIDs are NaN when a graph has a cycle
    (``notes`` says which).  ``shared_events`` counts the events both graphs have (``None`` when
    one has none; not a column): 0 means the two were scored without a common event.
    """

    n_events: int
    gold_edges: int
    pred_edges: int
    shd: int
    shd_norm: float
    sid: float
    sid_norm: float
    parent_aid: float
    parent_aid_norm: float
    ancestor_aid: float
    ancestor_aid_norm: float
    oset_aid: float
    oset_aid_norm: float
    notes: tuple[str, ...] = field(default=())
    shared_events: Optional[int] = None

    def as_row(self) -> dict:
        """The scores as one table row (:data:`SCORE_COLUMNS`)."""
        return {c: getattr(self, c) for c in SCORE_COLUMNS}


def _pairs(g) -> set[tuple[str, str]]:
    if isinstance(g, CausalGraph):
        return {(e.cause, e.effect) for e in g.edges if e.cause != e.effect}
    return {(str(u), str(v)) for u, v in g if u != v}


def shd(gold, pred) -> int:
    """Structural Hamming distance: event pairs whose connection differs (a reversed edge counts once).

    Parameters
    ----------
    gold, pred
        :class:`~causalgraph.graph.CausalGraph`\\ s (or statements, or relations), or iterables of
        ``(cause, effect)`` pairs.  Self-loops are not part of a DAG's adjacency and are ignored.

    Examples
    --------
    >>> shd([("a", "b"), ("b", "c")], [("b", "a"), ("b", "c")])   # one reversed edge
    1
    >>> shd([("a", "b"), ("b", "c")], [])                          # two missing edges
    2
    >>> shd([("a", "b")], [("a", "b"), ("b", "a"), ("c", "a")])    # a 2-cycle differs, one extra edge
    2
    """
    a, b = _pairs(_as_graph(gold)), _pairs(_as_graph(pred))

    def state(pairs, u, v):
        return ((u, v) in pairs, (v, u) in pairs)

    keys = {frozenset(p) for p in a | b}
    return sum(1 for k in keys for u, v in [sorted(k)] if state(a, u, v) != state(b, u, v))


def _as_graph(x):
    if isinstance(x, (list, tuple, set, frozenset)) and all(isinstance(p, tuple) and len(p) == 2 for p in x):
        return list(x)
    return as_graph(x)


def _events(x, g) -> list[str]:
    """The events of ``x`` (its graph ``g``): the graph's nodes, then a graph file's events without an edge."""
    nodes = [str(n) for n in (g.nodes if isinstance(g, CausalGraph) else [n for e in g for n in e])]
    if isinstance(x, Statement):
        nodes += [str(n) for n in x.meta.get("isolated_events") or ()]
    return nodes


def adjacency(gold, pred):
    """``(events, gold matrix, pred matrix)``: int8 adjacency matrices, a 1 in row r, column c for r → c.

    The events are the gold graph's (in its order) then the predicted graph's others; a
    statement of a graph file brings its events without an edge too (``meta["isolated_events"]``).

    Examples
    --------
    >>> from causalgraph.model import Statement, Relation
    >>> st = Statement("s", "", True, (Relation("a", "b"),), meta={"isolated_events": ["c"]})
    >>> names, g, p = adjacency(st, [("b", "a")])
    >>> names, g.tolist(), p.tolist()
    (['a', 'b', 'c'], [[0, 1, 0], [0, 0, 0], [0, 0, 0]], [[0, 0, 0], [1, 0, 0], [0, 0, 0]])
    """
    import numpy as np

    g, p = _as_graph(gold), _as_graph(pred)
    events: dict[str, None] = {}
    for x, graph in ((gold, g), (pred, p)):
        for n in _events(x, graph):
            events.setdefault(n, None)
    names = list(events)
    if len(names) > MAX_SCORE_NODES:
        raise ConfigError(f"the two graphs have {len(names):,} events together; graph scores take at most "
                          f"{MAX_SCORE_NODES:,} (SID grows with the cube of the events)")
    index = {n: i for i, n in enumerate(names)}
    mats = []
    for x in (g, p):
        m = np.zeros((len(names), len(names)), dtype=np.int8)
        for u, v in _pairs(x):
            m[index[u], index[v]] = 1
        mats.append(m)
    return names, mats[0], mats[1]


def compare_graphs(gold, pred, *, name: Optional[str] = None) -> GraphComparison:
    """SHD (here), SID and the parent, ancestor and optimal-set AIDs (gadjid) of ``pred`` against ``gold``.

    Parameters
    ----------
    gold, pred
        Graphs, statements, relations, or iterables of ``(cause, effect)`` pairs.
    name
        How notes name the comparison (a statement id).

    Examples
    --------
    >>> c = compare_graphs([("a", "b"), ("b", "c")], [])   # doctest: +SKIP
    >>> c.shd, c.sid                                       # doctest: +SKIP
    (2, 3)
    """
    names, gm, pm = adjacency(gold, pred)
    n = len(names)
    count = shd(gold, pred)
    # With fewer than two events there is no pair: the counts are 0, their share is undefined.
    shd_norm = count / (n * (n - 1) / 2) if n > 1 else math.nan
    ge, pe = set(_events(gold, _as_graph(gold))), set(_events(pred, _as_graph(pred)))
    shared = len(ge & pe) if ge and pe else None
    notes = []
    cycles = []
    for label, x in (("gold", gold), ("predicted", pred)):
        g = _as_graph(x)
        if not isinstance(g, CausalGraph):
            g = compile_graph([Relation(u, v) for u, v in g]) if g else None
        cycle = find_cycle(g) if g is not None and g.edges else None
        if cycle is not None:
            cycles.append(f"the {label} graph has the cycle {' -> '.join(map(repr, cycle))}")
    scores: dict[str, float] = {}
    if cycles or n < 2:
        for k in ("sid", "parent_aid", "ancestor_aid", "oset_aid"):
            scores[k] = math.nan if cycles else 0
            scores[k + "_norm"] = math.nan
        if cycles:
            where = f"{name}: " if name else ""
            notes.append(f"{where}SID and AIDs are NaN: {'; '.join(cycles)} (they are defined for DAGs)")
    else:
        try:
            import gadjid
        except ImportError:
            raise ConfigError("SID and AIDs need gadjid (pip install 'causalgraph[causal]')") from None
        for k, fn in (("sid", gadjid.sid), ("parent_aid", gadjid.parent_aid), ("ancestor_aid", gadjid.ancestor_aid),
                      ("oset_aid", gadjid.oset_aid)):
            norm, mistakes = fn(gm, pm, edge_direction="from row to column")
            scores[k], scores[k + "_norm"] = int(mistakes), float(norm)
    return GraphComparison(n_events=n, gold_edges=int(gm.sum()), pred_edges=int(pm.sum()), shd=count,
                           shd_norm=shd_norm, notes=tuple(notes), shared_events=shared, **scores)


def compare_corpora(gold, pred, *, edgeless: bool = True) -> tuple[list[dict], list[str]]:
    """One row of scores per gold statement, paired with ``pred``'s statement of the same id.

    Two corpora of one statement each (two graph files) are paired whatever their ids.  A gold
    statement that ``pred`` lacks is scored against an empty graph, and a predicted statement that
    gold lacks is left out; the notes say which.  A gold statement without an edge is scored too
    (a prediction that adds an edge to it has SHD 1), unless ``edgeless`` is false.

    Returns
    -------
    (rows, notes)
        ``rows``: ``{"statement_id", "pred_id", *SCORE_COLUMNS}`` in gold order; ``notes``: lines
        for the reader (statements unpaired, cycles, graphs that share no event, rows whose
        normalised scores are undefined).

    Examples
    --------
    >>> from causalgraph.model import Corpus, Relation, Statement
    >>> gold = Corpus("g", [Statement("s1", "", False, (), meta={"isolated_events": ["a", "b"]})])
    >>> pred = Corpus("p", [Statement("s1", "", True, (Relation("a", "b"),))])
    >>> rows, notes = compare_corpora(gold, pred)
    >>> rows[0]["n_events"], rows[0]["gold_edges"], rows[0]["shd"], rows[0]["shd_norm"]
    (2, 0, 1, 1.0)
    """
    gold_st = [s for s in gold if edgeless or s.relations]
    pred_st = list(pred)
    notes: list[str] = []
    if len(gold_st) == 1 and len(pred_st) == 1:
        pairs = [(gold_st[0], pred_st[0])]
    else:
        by_id = {s.id: s for s in pred_st}
        pairs = [(s, by_id.get(s.id)) for s in gold_st]
        absent = [s.id for s, p in pairs if p is None]
        if absent:
            notes.append(f"{plural(len(absent), 'gold statement')} {_has(absent)} no predicted graph and "
                         f"{_is(absent)} scored against an empty one: {_ids(absent)}")
        known = {s.id for s in gold_st}
        extra = [s.id for s in pred_st if s.id not in known]
        if extra:
            notes.append(f"{plural(len(extra), 'predicted statement')} {_has(extra)} no gold graph and "
                         f"{_is(extra)} left out: {_ids(extra)}")
    rows = []
    disjoint, tiny = [], []
    for g, p in pairs:
        c = compare_graphs(g, p if p is not None else [], name=g.id)
        notes.extend(c.notes)
        if c.shared_events == 0:
            disjoint.append(g.id)
        if c.n_events < 2:
            tiny.append(g.id)
        rows.append({"statement_id": g.id, "pred_id": p.id if p is not None else None, **c.as_row()})
    if disjoint:
        shares = "shares" if len(disjoint) == 1 else "share"
        notes.append(f"{plural(len(disjoint), 'statement')} {shares} no event between gold and prediction (events "
                     f"match by exact name), so every edge of both counts as an error: {_ids(disjoint)}")
    if tiny:
        notes.append(f"{plural(len(tiny), 'statement')} {_has(tiny)} fewer than two events, so no pair: their *_norm "
                     f"scores are undefined (NaN): {_ids(tiny)}")
    return rows, notes


def _has(ids: list[str]) -> str:
    return "has" if len(ids) == 1 else "have"


def _is(ids: list[str]) -> str:
    return "is" if len(ids) == 1 else "are"


def _ids(ids: list[str]) -> str:
    return f"{', '.join(ids[:5])}{' …' if len(ids) > 5 else ''}"
