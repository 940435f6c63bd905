"""The net effect of one event on another over every causal path, with signs (issue 39).

CorrI asks for the correlation of one annotated relation and ``corri-multihop`` for the composed
sign of one chain whose edges share one label.  ``net-effect`` asks, for an ordered pair of events
joined by at least one directed causal path, what an increase of the first does to the second
when every path is followed:

* a **causal path** follows relations of positive relation type (the paper's *causes*, §4.1.4); a
  relation of negative relation type (*prevents*: "the existence of the cause prevents the existence
  of the effect") passes no change on and cuts the path, as the issue asks;
* each path's sign is the product of its edges' correlations (§4.1.5: positive, the effect moves
  with the cause; negative, against it);
* gold ``increase`` when every path is positive, ``decrease`` when every path is negative,
  ``mixed`` when paths of both signs exist.

A pair is asked only when every one of its paths can be signed: a path through a pair annotated
with both correlations (or none), or with both relation types (or none), could read either way,
so every pair reaching the other through such an edge is left out (1 pair of ClimateCause
relations disagrees on the correlation, 2 on the relation type).

Counting: on an acyclic graph the signed paths from each event are counted by dynamic
programming over a topological order (``pos(w) += pos(v)`` along a positive edge, ``neg`` and
``pos`` trade along a negative one), in O(V · E) per event and never enumerated, so a ladder of
60 diamonds is counted exactly.  A graph with a directed cycle is searched depth-first over simple
paths, one step per edge looked at, as the chain metrics do; more than ``cycle_limit`` steps (default
1,000,000) raise :class:`~causalgraph.errors.CycleLimitExceeded`.  ClimateCause has no cycle.

Variants: ``A_1`` (answer only) and ``A_2`` (reasoning, then ``<Answer>``) show the graph of the
statement's causes with each edge's correlation (``encode(..., signs=True)``), in every encoding
(``SN_1``, ``MX_1``, ``DOT_2`` …), every event-name scheme (``A_1.letters``) and every graph edit
(``A_1.reverse``, ``A_1.shuffle``, ``A_1.flip-signs``, ``A_1.flip-signs:2``); relations of negative
relation type are not in that graph.  ``T_1`` and ``T_2`` give the statement text only: the model
reads the relations, their types and signs from the text, so they take neither other names nor
graph edits.

Item ids: ``net-effect/<variant>/<statement>/e<i>-e<j>`` (0-based indices in the real graph's node
order, so an edited item pairs with its real version).  ``meta`` holds ``statement_id``, ``cause``,
``effect``, ``path_signs`` (``{"positive": n, "negative": m}``, the number of paths of each sign),
and the difficulty features ``hops`` (shortest path), ``hops_max``, ``n_paths``, ``negative_edges``
(negative edges on some path) and ``conflicting`` (paths of both signs); a pair joined by one path
also has ``path``, its events (real names), which ``stats consistency --signs`` composes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Optional

from ..encodings import check_order, prompt_graph
from ..errors import ConfigError, CycleLimitExceeded
from ..graph import CausalGraph, compile_graph
from ..graph.edits import edit_graph, join_edit, resolve_edit, split_edit
from ..metrics.paths import DEFAULT_CYCLE_LIMIT
from ..model import Polarity, as_statements
from ..graph.naming import event_names as _event_names, join_variant, rename_graph, split_variant
from ..prompts import (ENCODING_PREFIXES, PromptVariant, catalog_variants, encoded_ids_hint, encoding_variant_id,
                       find_variant, with_encoding)
from ..taskkit.item import Item, item_id
from .base import Task
from .kinds import Multiclass, Signs
from .continuations import answer_continuations

__all__ = ["TASK", "LABELS", "NetEffect", "edge_sign", "causal_subgraph", "net_effects", "net_effect_label",
           "list_net_effect_variants", "items", "tasks"]

TASK = "net-effect"
#: Canonical gold labels.
LABELS = ("increase", "decrease", "mixed")
_CATALOG = "net_effect"
# The text-only variants' prompt id prefix (not an encoding prefix: their prompts hold no graph).
_TEXT_PREFIX = "T"


@dataclass(frozen=True)
class NetEffect:
    """The causal paths from one event to another, counted by sign.

    Attributes
    ----------
    positive, negative
        Paths whose correlations compose to positive, to negative.
    ambiguous
        Paths through an edge without one sign or one relation type (the pair is then not asked).
    hops_min, hops_max
        Edges on the shortest and the longest path.
    negative_edges
        Distinct negative edges that lie on some path.
    """

    positive: int
    negative: int
    ambiguous: int
    hops_min: int
    hops_max: int
    negative_edges: int

    @property
    def n_paths(self) -> int:
        return self.positive + self.negative + self.ambiguous

    @property
    def label(self) -> Optional[str]:
        """``increase``, ``decrease`` or ``mixed``; ``None`` when a path cannot be signed."""
        return net_effect_label(self.positive, self.negative, self.ambiguous)


def net_effect_label(positive: int, negative: int, ambiguous: int = 0) -> Optional[str]:
    """The gold of a pair from its path counts (``None``: no path, or a path without one sign).

    Examples
    --------
    >>> net_effect_label(2, 0), net_effect_label(0, 1), net_effect_label(1, 1), net_effect_label(1, 0, 1)
    ('increase', 'decrease', 'mixed', None)
    """
    if ambiguous or not (positive or negative):
        return None
    if positive and negative:
        return "mixed"
    return "increase" if positive else "decrease"


def edge_sign(edge) -> Optional[int]:
    """``+1``/``-1`` for a causal edge of one correlation, ``0`` for one that cannot be signed, ``None`` when it is cut.

    Cut: the pair's relations have negative relation type (prevents).  Unsignable: they disagree on
    (or all lack) the relation type or the correlation.  As everywhere a pair's labels are read
    (:class:`~causalgraph.graph.CausalEdge`), a relation without a label beside labelled ones of the
    same pair is not counted.

    Examples
    --------
    >>> from causalgraph.model import Relation, Correlation, Polarity
    >>> g = compile_graph([Relation("a", "b", polarity=Polarity.POSITIVE, correlation=Correlation.NEGATIVE),
    ...                    Relation("b", "c", polarity=Polarity.NEGATIVE, correlation=Correlation.NEGATIVE)])
    >>> edge_sign(g.edge("a", "b")), edge_sign(g.edge("b", "c"))
    (-1, None)
    """
    if edge.polarity is Polarity.NEGATIVE and not edge.conflicting_polarity:
        return None
    if edge.polarity is not Polarity.POSITIVE or edge.conflicting_polarity:
        return 0
    if edge.correlation is None or edge.conflicting_correlation:
        return 0
    return edge.correlation.sign


def causal_subgraph(graph: CausalGraph) -> Optional[CausalGraph]:
    """The graph without the relations that are cut (negative relation type); ``None`` when none is left.

    Examples
    --------
    >>> from causalgraph.model import Relation, Polarity
    >>> g = compile_graph([Relation("a", "b", polarity=Polarity.POSITIVE),
    ...                    Relation("b", "c", polarity=Polarity.NEGATIVE)])
    >>> causal_subgraph(g).pairs
    [('a', 'b')]
    """
    keep = [r for e in graph.edges if edge_sign(e) is not None for r in e.relations]
    if not keep:
        return None
    return replace(compile_graph(keep), statement_id=graph.statement_id)


def _signed_adjacency(graph: CausalGraph) -> tuple[list[str], dict[str, list[tuple[str, int]]]]:
    nodes = list(graph.nodes)
    succ: dict[str, list[tuple[str, int]]] = {n: [] for n in nodes}
    for e in graph.edges:
        s = edge_sign(e)
        if s is not None and e.cause != e.effect:  # a self-loop never lies on a simple path
            succ[e.cause].append((e.effect, s))
    return nodes, succ


def _topological(nodes: list[str], succ: dict) -> Optional[list[str]]:
    """Kahn's order of the nodes, or ``None`` when a directed cycle remains."""
    indeg = {n: 0 for n in nodes}
    for v in nodes:
        for w, _ in succ[v]:
            indeg[w] += 1
    todo = [n for n in nodes if indeg[n] == 0]
    out: list[str] = []
    while todo:
        v = todo.pop()
        out.append(v)
        for w, _ in succ[v]:
            indeg[w] -= 1
            if indeg[w] == 0:
                todo.append(w)
    return out if len(out) == len(nodes) else None


def _dag_effects(nodes, succ, order) -> dict[tuple[str, str], NetEffect]:
    pred: dict[str, list[tuple[str, int]]] = {n: [] for n in nodes}
    for v in nodes:
        for w, s in succ[v]:
            pred[w].append((v, s))
    rank = {n: i for i, n in enumerate(order)}
    # ancestors-or-self of every event, for the edges that lie on some path (a DAG's paths are simple)
    anc: dict[str, set[str]] = {}
    for v in order:
        a = {v}
        for u, _ in pred[v]:
            a |= anc[u]
        anc[v] = a
    out: dict[tuple[str, str], NetEffect] = {}
    for a in nodes:
        pos = {a: 1}
        neg: dict[str, int] = {}
        amb: dict[str, int] = {}
        lo = {a: 0}
        hi = {a: 0}
        reached = [a]
        for v in order[rank[a]:]:
            if v not in lo:
                continue
            for w, s in succ[v]:
                p, n, m = pos.get(v, 0), neg.get(v, 0), amb.get(v, 0)
                if w not in lo:
                    reached.append(w)
                    lo[w], hi[w] = lo[v] + 1, hi[v] + 1
                else:
                    lo[w], hi[w] = min(lo[w], lo[v] + 1), max(hi[w], hi[v] + 1)
                if s == 0:
                    amb[w] = amb.get(w, 0) + p + n + m
                    continue
                amb[w] = amb.get(w, 0) + m
                if s > 0:
                    pos[w], neg[w] = pos.get(w, 0) + p, neg.get(w, 0) + n
                else:
                    pos[w], neg[w] = pos.get(w, 0) + n, neg.get(w, 0) + p
        desc = set(reached)
        negative = [(v, w) for v in desc for w, s in succ[v] if s < 0]
        for b in reached[1:]:
            out[(a, b)] = NetEffect(pos.get(b, 0), neg.get(b, 0), amb.get(b, 0), lo[b], hi[b],
                                    sum(1 for v, w in negative if w in anc[b]))
    return out


def _cyclic_effects(nodes, succ, cycle_limit: int) -> dict[tuple[str, str], NetEffect]:
    """Every simple path from every event, depth first, at most ``cycle_limit`` steps in all."""
    steps = 0
    acc: dict[tuple[str, str], list] = {}
    for a in nodes:
        # stack of (event, index of the next successor, sign so far (0: unsignable)); path edges alongside
        stack: list[list] = [[a, 0, 1]]
        on_path = {a}
        edges: list[tuple[str, str, int]] = []
        while stack:
            top = stack[-1]
            v, i, sign = top
            if i >= len(succ[v]):
                stack.pop()
                on_path.discard(v)
                if edges:
                    edges.pop()
                continue
            top[1] = i + 1
            steps += 1
            if steps > cycle_limit:
                raise CycleLimitExceeded(f"net effects: more than cycle_limit={cycle_limit} search steps through the "
                                         f"cycles of this graph; raise cycle_limit to count its paths")
            w, s = succ[v][i]
            if w in on_path:
                continue
            signed = sign * s
            stack.append([w, 0, signed])
            on_path.add(w)
            edges.append((v, w, s))
            r = acc.setdefault((a, w), [0, 0, 0, len(edges), len(edges), set()])
            r[0 if signed > 0 else 1 if signed < 0 else 2] += 1
            r[3], r[4] = min(r[3], len(edges)), max(r[4], len(edges))
            r[5].update((x, y) for x, y, z in edges if z < 0)
            steps += len(edges)  # the union above costs one step per edge of the path
    return {k: NetEffect(p, n, m, lo, hi, len(neg)) for k, (p, n, m, lo, hi, neg) in acc.items()}


def net_effects(graph: CausalGraph, *, cycle_limit: int = DEFAULT_CYCLE_LIMIT) -> dict[tuple[str, str], NetEffect]:
    """``(cause, effect) → NetEffect`` for every ordered pair of distinct events joined by a causal path.

    Relations of negative relation type cut paths (:func:`edge_sign`); pairs come in node order of
    the cause, then in the order the effects are reached.

    Raises
    ------
    CycleLimitExceeded
        On a cyclic graph whose simple paths take more than ``cycle_limit`` search steps.

    Examples
    --------
    >>> from causalgraph.model import Relation, Correlation, Polarity
    >>> P, N, C = Correlation.POSITIVE, Correlation.NEGATIVE, Polarity.POSITIVE
    >>> g = compile_graph([Relation("a", "b", polarity=C, correlation=P), Relation("b", "d", polarity=C, correlation=P),
    ...                    Relation("a", "c", polarity=C, correlation=N), Relation("c", "d", polarity=C, correlation=P)])
    >>> e = net_effects(g)[("a", "d")]
    >>> (e.positive, e.negative, e.label, e.hops_min, e.negative_edges)
    (1, 1, 'mixed', 2, 1)
    """
    if isinstance(cycle_limit, bool) or not isinstance(cycle_limit, int) or cycle_limit < 1:
        raise ConfigError(f"cycle_limit must be a positive integer, got {cycle_limit!r}")
    nodes, succ = _signed_adjacency(graph)
    order = _topological(nodes, succ)
    found = _dag_effects(nodes, succ, order) if order is not None else _cyclic_effects(nodes, succ, cycle_limit)
    rank = {n: i for i, n in enumerate(nodes)}
    return dict(sorted(found.items(), key=lambda kv: (rank[kv[0][0]], rank[kv[0][1]])))


def _only_path(graph: CausalGraph, effects: dict, a: str, b: str) -> Optional[list[str]]:
    """The events of the one causal path from ``a`` to ``b`` (a pair with ``n_paths == 1``), or ``None``."""
    path = [a]
    while path[-1] != b:
        v = path[-1]
        step = [w for w in graph.successors(v) if w not in path and edge_sign(graph.edge(v, w)) is not None
                and (w == b or (w, b) in effects)]
        if len(step) != 1:  # only where a cycle makes a successor reach b solely back through the path
            return None
        path.append(step[0])
    return path


# -- variants -------------------------------------------------------------------------------------------

def _stored(name: str) -> tuple[PromptVariant, ...]:
    # Two files, since the graph and the text variants fill different placeholders; both are net-effect's.
    return tuple(replace(v, task=TASK) for v in catalog_variants(_CATALOG, name))


def list_net_effect_variants() -> list[PromptVariant]:
    """Every variant: the graph templates in each encoding (``A_1``, ``A_2``, ``SN_1`` …), then ``T_1``, ``T_2``.

    Examples
    --------
    >>> [v.id for v in list_net_effect_variants()][:3], [v.id for v in list_net_effect_variants()][-2:]
    (['A_1', 'A_2', 'SN_1'], ['T_1', 'T_2'])
    """
    graph = _stored("net-effect")
    return [with_encoding(v, enc) for enc in ENCODING_PREFIXES for v in graph] + list(_stored("net-effect-text"))


def _variant(variant_id: str) -> PromptVariant:
    return find_variant(list_net_effect_variants(), variant_id, TASK,
                        encoded_ids_hint()[:-1] + ", the signed graph), or T_1, T_2 (the statement text only), "
                        "optionally followed by .integer, .letters or .nonsense and a graph edit (.reverse, .shuffle, "
                        ".flip-signs, .flip-signs:k)")


def _is_text(v: PromptVariant) -> bool:
    return "graph" not in v.placeholders


# -- items ----------------------------------------------------------------------------------------------

def items(corpus, variant: str, *, order: str = "paper", encoding: Optional[str] = None,
          event_names: Optional[str] = None, graph_edit: Optional[str] = None,
          cycle_limit: int = DEFAULT_CYCLE_LIMIT) -> list[Item]:
    """The net-effect items of one variant.

    Parameters
    ----------
    corpus
        A corpus or statements with correlation and relation-type labels.
    variant
        ``A_1`` … (graph, any encoding prefix) or ``T_1``/``T_2`` (statement text), optionally with an
        event-name scheme and a graph edit (``A_1.letters.flip-signs:2``).
    order, encoding, event_names
        As for the structure tasks (graph variants only).
    graph_edit
        ``real`` (default), ``reverse``, ``shuffle``, ``flip-signs`` or ``flip-signs:k``
        (:mod:`causalgraph.graph.edits`); golds are computed on the edited graph (graph variants only).
    cycle_limit
        Search steps through cyclic graphs (see the module docstring).

    Examples
    --------
    >>> from causalgraph.model import Relation, Statement, Correlation, Polarity
    >>> C, P, N = Polarity.POSITIVE, Correlation.POSITIVE, Correlation.NEGATIVE
    >>> st = Statement("s1", "t", True, (Relation("a", "b", polarity=C, correlation=P),
    ...                                  Relation("b", "c", polarity=C, correlation=N)))
    >>> [(it.id, it.gold) for it in items([st], "A_1")]
    [('net-effect/A_1/s1/e000-e001', 'increase'), ('net-effect/A_1/s1/e000-e002', 'decrease'), ('net-effect/A_1/s1/e001-e002', 'decrease')]
    >>> [it.gold for it in items([st], "A_1", graph_edit="flip-signs")]
    ['decrease', 'decrease', 'increase']
    """
    check_order(order)
    rest, edit = resolve_edit(variant, graph_edit)
    base, scheme = split_variant(rest)
    if event_names is not None and scheme != "real" and event_names != scheme:
        raise ConfigError(f"variant {variant!r} names events {scheme!r} but event names {event_names!r} were asked")
    if event_names is not None:
        scheme = event_names
    v = _variant(base)
    if encoding is not None:
        if _is_text(v):
            raise ConfigError(f"task {TASK} variant {v.id}: its prompt holds the statement text and no graph, so it "
                              f"takes no encoding (graph variants: A_1, A_2 and their encodings)")
        v = _variant(encoding_variant_id(v.id, encoding, stored=[x.id for x in _stored("net-effect")]))
    if _is_text(v):
        if scheme != "real":
            raise ConfigError(f"task {TASK} variant {v.id} cannot take event names {scheme!r}: its prompt holds the "
                              f"statement text, which names the real events")
        if edit != "real":
            raise ConfigError(f"task {TASK} variant {v.id} cannot take graph edit {edit!r}: its prompt holds the "
                              f"statement text, which states the real causes and signs")
        if "text" in tuple(getattr(corpus, "lacks", ()) or ()):
            source = getattr(corpus, "source", None) or getattr(corpus, "name", "the corpus")
            raise ConfigError(f"task {TASK} variant {v.id} needs statement text, which {source} does not hold; "
                              f"use a graph variant (A_1, A_2 …)")
    vid = join_edit(join_variant(v.id, scheme), edit)
    statements = [st for st in as_statements(corpus) if st.causal and st.relations]
    if statements and not any(r.correlation is not None and r.polarity is not None
                               for st in statements for r in st.relations):
        # Every path would be unsignable: say so rather than return no items (PubMedCausal has neither label).
        source = getattr(corpus, "source", None) or getattr(corpus, "name", None) or "the corpus"
        raise ConfigError(f"task {TASK}: no relation of {source} carries both a correlation and a relation-type "
                          f"label, so no path can be signed (ClimateCause annotates both)")
    out: list[Item] = []
    for st in statements:
        real = compile_graph(st)
        edited = edit_graph(real, edit, key=st.id)
        effects = net_effects(edited.graph, cycle_limit=cycle_limit)
        if not any(e.label for e in effects.values()):
            continue
        nodes = list(real.nodes)
        index = {n: i for i, n in enumerate(nodes)}
        shown = _event_names(nodes, scheme, key=st.id)
        values: dict[str, str] = {}
        if _is_text(v):
            values["s"] = st.text
        else:
            causal = causal_subgraph(edited.graph)
            values["graph"] = prompt_graph(causal if scheme == "real" else rename_graph(causal, shown), v.encoding,
                                           order=order, signs=True)
        flipped = set(edited.flipped)
        # pairs in the real graph's node order, so that ids and order match across edits
        for (a, b), e in sorted(effects.items(), key=lambda kv: (index[kv[0][0]], index[kv[0][1]])):
            gold = e.label
            if gold is None:
                continue
            i, j = index[a], index[b]
            meta: dict[str, Any] = {
                "statement_id": st.id, "cause": shown[a], "effect": shown[b], "event_index": i, "event_j_index": j,
                "path_signs": {"positive": e.positive, "negative": e.negative},
                "hops": e.hops_min, "hops_max": e.hops_max, "n_paths": e.n_paths, "negative_edges": e.negative_edges,
                "conflicting": gold == "mixed", "event_names": scheme}
            if e.n_paths == 1:
                # The one path's events (real names, in the edited graph): what stats consistency --signs composes.
                only = _only_path(edited.graph, effects, a, b)
                if only is not None:
                    meta["path"] = only
            if not _is_text(v):
                meta.update(encoding=v.encoding, edge_order=order)
            if scheme != "real":
                meta.update(real_cause=a, real_effect=b)
            if edit != "real":
                meta["graph_edit"] = edit
                if edited.permutation:
                    meta["permutation"] = dict(edited.permutation)
                if edited.flipped:
                    meta["flipped"] = [list(p) for p in edited.graph.pairs if p in flipped]
            out.append(Item(id=item_id(TASK, vid, st.id, f"e{i:03d}-e{j:03d}"), task=TASK, variant=vid,
                            prompt=v.render(e_i=shown[a], e_j=shown[b], **values), gold=gold, meta=meta))
    return out


# -- the task -------------------------------------------------------------------------------------------

def _base(variant: str) -> PromptVariant:
    return _variant(split_variant(split_edit(variant)[0])[0])


def _signed_path(record) -> Optional[tuple[str, tuple[str, ...]]]:
    """The statement and the one path (real events) a net-effect answer is the sign of; ``None`` for several paths."""
    meta = record.meta or {}
    path = meta.get("path")
    if not path or not meta.get("statement_id"):
        return None
    return str(meta["statement_id"]), tuple(path)


def _task() -> Task:
    def build(corpus, variant, **options):
        return items(corpus, variant, **options)

    def canonical(variant):
        rest, edit = split_edit(variant)
        base, scheme = split_variant(rest)
        return join_edit(join_variant(_variant(base).id, scheme), edit)

    def continuations(variant):
        v = _base(variant)
        return answer_continuations(v.template, dict(v.answer_labels), f"{TASK} variant {variant}")

    return Task(name=TASK, build_items=build, list_variants=lambda: [v.id for v in list_net_effect_variants()],
                answers=Multiclass(labels=LABELS, answer_words=lambda variant: dict(_base(variant).answer_labels),
                                   continuations=continuations,
                                   signs=Signs(path=_signed_path, labels={"increase": 1, "decrease": -1})),
                strategy=lambda variant: _base(variant).strategy, canonical_variant=canonical,
                default_data="climatecause",
                item_options=("order", "encoding", "event_names", "graph_edit", "cycle_limit"),
                requires=("correlation", "relation_type"),
                description="net effect of one event on another over every causal path (increase/decrease/mixed), "
                            "from the signed graph or the statement text")


def tasks() -> list[Task]:
    """The net-effect task.

    Examples
    --------
    >>> [t.name for t in tasks()], tasks()[0].labels
    (['net-effect'], ('increase', 'decrease', 'mixed'))
    """
    return [_task()]
