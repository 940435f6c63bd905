"""Typed causal graphs compiled from a statement's relations.

A :class:`CausalGraph` has

* **causal edges**: one per (cause, effect) pair, carrying every relation
  that annotates the pair.  A pair annotated with both signs keeps both and
  is flagged ``conflicting``; nothing is resolved by chance.
* **belongs-to views**: ``common`` (relations with Combined = Yes) and
  ``elaboration`` (Combined = No and not nested), each a set of
  event → overarching-event edges taken from Cause–Belongs_to and
  Effect–Belongs_to;
* **nesting**: relations with Nested = Yes grouped by their nesting event
  (Effect–Belongs_to).

Nodes and edges are ordered by first appearance in the data, so every
output is independent of ``PYTHONHASHSEED``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator, Literal, Optional, Sequence

from ..errors import ConfigError, SchemaError
from ..model import Correlation, Polarity, Relation, Statement, is_blank
from .._core.display import html_for as _html_for
from ..readwrite import to_gml, to_dagitty, to_pgmpy, to_dowhy

__all__ = ["CausalEdge", "BelongsEdge", "CausalGraph", "compile_graph", "as_graph", "is_graph_source", "NODE_FORMS"]

NODE_FORMS = ("no_quantifier", "np")
NodeForm = Literal["no_quantifier", "np"]


def _distinct(values: Iterable) -> tuple:
    out: dict = {}
    for v in values:
        if v is not None:
            out.setdefault(v, None)
    return tuple(out)


@dataclass(frozen=True)
class CausalEdge:
    """A cause → effect pair and every relation that annotates it (data order)."""

    cause: str
    effect: str
    relations: tuple[Relation, ...]

    @property
    def correlations(self) -> tuple[Correlation, ...]:
        """Distinct correlation labels, in order of first appearance."""
        return _distinct(r.correlation for r in self.relations)

    @property
    def polarities(self) -> tuple[Polarity, ...]:
        """Distinct relation-type labels, in order of first appearance."""
        return _distinct(r.polarity for r in self.relations)

    @property
    def correlation(self) -> Optional[Correlation]:
        """The correlation label when the relations agree, else ``None``."""
        c = self.correlations
        return c[0] if len(c) == 1 else None

    @property
    def polarity(self) -> Optional[Polarity]:
        """The relation-type label when the relations agree, else ``None``."""
        p = self.polarities
        return p[0] if len(p) == 1 else None

    @property
    def conflicting_correlation(self) -> bool:
        return len(self.correlations) > 1

    @property
    def conflicting_polarity(self) -> bool:
        return len(self.polarities) > 1

    @property
    def conflicting(self) -> bool:
        """True when the pair is annotated with both signs of either label."""
        return self.conflicting_correlation or self.conflicting_polarity

    def attributes(self) -> dict:
        """Scalar edge attributes (safe for GraphML): labels, flags, triggers."""

        def lab(single, many):
            if single is not None:
                return single.value
            return "conflicting" if many else ""

        rels = self.relations
        return {
            "correlation": lab(self.correlation, self.conflicting_correlation),
            "polarity": lab(self.polarity, self.conflicting_polarity),
            "conflicting": self.conflicting,
            "n_relations": len(rels),
            "trigger": "; ".join(_distinct(r.trigger for r in rels)),
            "explicitness": "; ".join(e.value for e in _distinct(r.explicitness for r in rels)),
            "confidence": "; ".join(_distinct(r.confidence for r in rels)),
            "cause_context": "; ".join(_distinct(r.cause_context for r in rels)),
            "effect_context": "; ".join(_distinct(r.effect_context for r in rels)),
        }


@dataclass(frozen=True)
class BelongsEdge:
    """event → overarching event, from a Cause– or Effect–Belongs_to annotation."""

    event: str
    overarching: str
    role: Literal["cause", "effect"]
    relations: tuple[Relation, ...]


@dataclass(frozen=True)
class CausalGraph:
    """The compiled graph of one statement.  Build it with :func:`compile_graph`."""

    statement_id: Optional[str]
    text: Optional[str]
    node_form: str
    nodes: tuple[str, ...]
    edges: tuple[CausalEdge, ...]
    common: tuple[BelongsEdge, ...] = ()
    elaboration: tuple[BelongsEdge, ...] = ()
    nesting: dict = field(default_factory=dict)  # nesting event → tuple of distinct relations
    _index: dict = field(default_factory=dict, repr=False, compare=False)

    # -- navigation ---------------------------------------------------------
    def __len__(self) -> int:
        return len(self.nodes)

    def __iter__(self) -> Iterator[str]:
        return iter(self.nodes)

    def __contains__(self, node: object) -> bool:
        return node in self._index.get("pos", {})

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """(cause, effect) of every causal edge, in data order."""
        return [(e.cause, e.effect) for e in self.edges]

    def edge(self, cause: str, effect: str) -> CausalEdge:
        """The edge for a pair; ``KeyError`` when absent."""
        return self._index["edge"][(cause, effect)]

    def successors(self, node: str) -> list[str]:
        """Effects of ``node`` in edge order."""
        return list(self._index["succ"].get(node, ()))

    def predecessors(self, node: str) -> list[str]:
        """Causes of ``node`` in edge order."""
        return list(self._index["pred"].get(node, ()))

    def out_degree(self, node: str) -> int:
        return len(self._index["succ"].get(node, ()))

    def in_degree(self, node: str) -> int:
        return len(self._index["pred"].get(node, ()))

    def _repr_html_(self):
        """Jupyter: the interactive graph page in a sandboxed iframe (:mod:`causalgraph.viewer.notebook`, via :mod:`causalgraph._core.display`)."""
        return _html_for("graph", self)

    @property
    def conflicting_edges(self) -> list[CausalEdge]:
        return [e for e in self.edges if e.conflicting]

    def belongs_edges(self, view: Literal["common", "elaboration"]) -> tuple[BelongsEdge, ...]:
        if view == "common":
            return self.common
        if view == "elaboration":
            return self.elaboration
        raise ConfigError(f"unknown belongs-to view {view!r}; expected 'common' or 'elaboration'")

    # -- conversions --------------------------------------------------------
    def to_networkx(self, view: Literal["causal", "common", "elaboration"] = "causal"):
        """A ``networkx.DiGraph`` of the causal edges (or of a belongs-to view).

        Causal edges carry scalar attributes (``correlation``, ``polarity``,
        ``conflicting``, ``n_relations``, ``trigger`` …); labels that
        disagree read ``"conflicting"``.

        Examples
        --------
        >>> from causalgraph.model import Relation, Statement
        >>> s = Statement("s1", "A causes B.", True, (Relation("a", "b"),))
        >>> list(compile_graph(s).to_networkx().edges)
        [('a', 'b')]
        """
        import networkx as nx

        g = nx.DiGraph(statement_id=self.statement_id or "", view=view)
        if view == "causal":
            for n in self.nodes:
                g.add_node(n)
            for e in self.edges:
                g.add_edge(e.cause, e.effect, **e.attributes())
            return g
        for b in self.belongs_edges(view):
            g.add_edge(b.event, b.overarching, role=b.role, n_relations=len(b.relations))
        return g

    def to_gml(self) -> str:
        """GML text of the causal edges, labels as edge attributes (:func:`causalgraph.readwrite.gml.to_gml`)."""
        return to_gml(self)

    def to_dagitty(self) -> str:
        """dagitty ``dag { … }`` text; a cycle is refused, naming it (:func:`causalgraph.readwrite.dagitty.to_dagitty`)."""
        return to_dagitty(self)

    def to_pgmpy(self):
        """A ``pgmpy.base.DAG``; a cycle is refused, naming it (:func:`causalgraph.readwrite.pgmpy_dag.to_pgmpy`)."""
        return to_pgmpy(self)

    def to_dowhy(self) -> str:
        """The GML DoWhy's ``CausalModel(graph=...)`` takes (:func:`causalgraph.readwrite.dowhy_graph.to_dowhy`)."""
        return to_dowhy(self)

    def to_rustworkx(self):
        """A ``rustworkx.PyDiGraph``: node payloads are events, edge payloads attribute dicts.

        Node indices follow :attr:`nodes` (index i is ``nodes[i]``).
        """
        import rustworkx as rx

        g = rx.PyDiGraph(multigraph=False)
        idx = {n: g.add_node(n) for n in self.nodes}
        for e in self.edges:
            g.add_edge(idx[e.cause], idx[e.effect], {"cause": e.cause, "effect": e.effect, **e.attributes()})
        return g


def _event(r: Relation, role: str, node: str) -> Optional[str]:
    if node == "np":
        np_ = r.cause_np if role == "cause" else r.effect_np
        # A blank noun phrase is a missing one: fall back to the no-quantifier form, as for None.
        if np_ is not None and not is_blank(np_):
            return np_
    return r.cause if role == "cause" else r.effect


def _check_events(relations: Sequence[Relation], sid: Optional[str], node: str) -> None:
    """Raise SchemaError for a relation whose cause, effect or belongs-to event is blank.

    A blank event would become a node that prints as nothing: encoders write
    it as an empty name, and decoding that text gives a different graph
    without a word.
    """
    for i, r in enumerate(relations, start=1):
        values = [("cause", _event(r, "cause", node)), ("effect", _event(r, "effect", node)),
                  ("cause_belongs_to", r.cause_belongs_to), ("effect_belongs_to", r.effect_belongs_to)]
        for role, value in values:
            optional = role.endswith("belongs_to")
            if optional and value is None:
                continue
            if isinstance(value, str) and not is_blank(value):
                continue
            where = f"statement {sid}, " if sid is not None else ""
            src = ""
            if r.source_file is not None:
                src = f" from {r.source_file}" + (f" row {r.source_row}" if r.source_row is not None else "")
            found = (f"found {value!r}" if value is None or isinstance(value, str)
                     else f"found a {type(value).__name__} ({value!r})")
            expected = ("an event name (text that shows something) or None" if optional
                        else "an event name (text that shows something)")
            raise SchemaError(f"{where}relation {i} ({r.cause!r} -> {r.effect!r}{src}), {role}: {found}; "
                              f"expected {expected}")


def compile_graph(statement: Statement | Sequence[Relation], node: NodeForm = "no_quantifier") -> CausalGraph:
    """Compile a statement's relations into a :class:`CausalGraph`.

    Parameters
    ----------
    statement
        A :class:`~causalgraph.model.Statement`, or a plain sequence of
        relations.  Every cause and effect (in the chosen node form) must be
        a string that shows something, and so must a belongs-to event that
        is not ``None``.
    node
        ``"no_quantifier"`` (default, the events of the metrics and
        benchmarks) or ``"np"`` (the noun-phrase forms).

    Examples
    --------
    >>> from causalgraph.model import Relation, Statement
    >>> s = Statement("s1", "A raises B, B lowers C.", True,
    ...               (Relation("a", "b"), Relation("b", "c")))
    >>> g = compile_graph(s)
    >>> g.nodes, g.pairs
    (('a', 'b', 'c'), [('a', 'b'), ('b', 'c')])

    A blank event is refused (a :class:`~causalgraph.errors.SchemaError`,
    which is a ``ValueError``):

    >>> compile_graph([Relation("a", " ")])
    Traceback (most recent call last):
    ...
    causalgraph.errors.SchemaError: relation 1 ('a' -> ' '), effect: found ' '; expected an event name (text that shows something)
    """
    if node not in NODE_FORMS:
        raise ConfigError(f"unknown node form {node!r}; expected one of {', '.join(NODE_FORMS)}")
    if isinstance(statement, Statement):
        sid, text, relations = statement.id, statement.text, statement.relations
    else:
        sid, text, relations = None, None, tuple(statement)

    relations = tuple(relations)
    _check_events(relations, sid, node)
    nodes: dict[str, None] = {}
    edge_rels: dict[tuple[str, str], list[Relation]] = {}
    common: dict[tuple[str, str, str], list[Relation]] = {}
    elaboration: dict[tuple[str, str, str], list[Relation]] = {}
    nesting: dict[Optional[str], dict] = {}

    for r in relations:
        c, e = _event(r, "cause", node), _event(r, "effect", node)
        nodes.setdefault(c, None)
        nodes.setdefault(e, None)
        edge_rels.setdefault((c, e), []).append(r)
        if r.combined is True:
            target = common
        elif r.combined is False and r.nested is not True:
            target = elaboration
        else:
            target = None
        if target is not None:
            if r.cause_belongs_to:
                target.setdefault((c, r.cause_belongs_to, "cause"), []).append(r)
            if r.effect_belongs_to:
                target.setdefault((e, r.effect_belongs_to, "effect"), []).append(r)
        if r.nested is True:
            # Identical relations (same annotation written twice) count once.
            nesting.setdefault(r.effect_belongs_to, {}).setdefault(r.key(), r)

    edges = tuple(CausalEdge(c, e, tuple(rs)) for (c, e), rs in edge_rels.items())

    def belongs(d):
        # One edge per (event, overarching) pair; the first role seen names it.
        merged: dict[tuple[str, str], tuple[str, list]] = {}
        for (ev, over, role), rs in d.items():
            if (ev, over) in merged:
                merged[(ev, over)][1].extend(rs)
            else:
                merged[(ev, over)] = (role, list(rs))
        return tuple(BelongsEdge(ev, over, role, tuple(rs)) for (ev, over), (role, rs) in merged.items())

    succ: dict[str, list[str]] = {}
    pred: dict[str, list[str]] = {}
    for ed in edges:
        succ.setdefault(ed.cause, []).append(ed.effect)
        pred.setdefault(ed.effect, []).append(ed.cause)
    index = {
        "pos": {n: i for i, n in enumerate(nodes)},
        "edge": {(ed.cause, ed.effect): ed for ed in edges},
        "succ": succ,
        "pred": pred,
    }
    return CausalGraph(
        statement_id=sid,
        text=text,
        node_form=node,
        nodes=tuple(nodes),
        edges=edges,
        common=belongs(common),
        elaboration=belongs(elaboration),
        nesting={k: tuple(v.values()) for k, v in nesting.items()},
        _index=index,
    )


def is_graph_source(obj: object) -> bool:
    """Whether :func:`as_graph` takes ``obj``: a CausalGraph, a Statement or a list/tuple of Relations.

    Examples
    --------
    >>> is_graph_source([Relation("a", "b")]), is_graph_source([("a", "b")])
    (True, False)
    """
    if isinstance(obj, (CausalGraph, Statement)):
        return True
    return isinstance(obj, (list, tuple)) and all(isinstance(r, Relation) for r in obj)


def as_graph(obj: CausalGraph | Statement | Sequence[Relation], node: Optional[NodeForm] = None, *,
             purpose: Optional[str] = None) -> CausalGraph:
    """The causal graph of anything that has one: the one coercion the metrics and graph pages use.

    Parameters
    ----------
    obj
        A :class:`CausalGraph` (returned as it is), a
        :class:`~causalgraph.model.Statement` or a list/tuple of
        :class:`~causalgraph.model.Relation` (compiled with :func:`compile_graph`).
    node
        The node form the caller needs.  A statement or relations are
        compiled with it; a graph compiled with another form is refused.
        ``None`` (default) compiles with ``"no_quantifier"`` and takes a
        graph of either form.
    purpose
        What needs the graph, for the message that refuses a graph of the
        wrong node form (``"complexity"``).

    Raises
    ------
    ConfigError
        ``obj`` is none of the above, or a graph of another node form.

    Examples
    --------
    >>> as_graph([Relation("a", "b"), Relation("b", "c")]).pairs
    [('a', 'b'), ('b', 'c')]
    >>> as_graph(compile_graph([Relation("a", "b")], node="np"), "no_quantifier", purpose="complexity")
    Traceback (most recent call last):
    ...
    causalgraph.errors.ConfigError: complexity is defined on no-quantifier events; the graph of this statement was compiled with node='np'
    """
    if isinstance(obj, CausalGraph):
        if node is not None and obj.node_form != node:
            raise ConfigError(
                f"{purpose or 'this'} is defined on {node.replace('_', '-')} events; the graph of "
                f"{obj.statement_id or 'this statement'} was compiled with node={obj.node_form!r}"
            )
        return obj
    if is_graph_source(obj):
        return compile_graph(obj, node or "no_quantifier")
    raise ConfigError(f"expected a Statement, a CausalGraph or a sequence of Relations, got {type(obj).__name__}")
