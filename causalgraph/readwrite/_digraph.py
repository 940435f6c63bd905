"""What every graph format reads of a graph (private): its edge labels, a networkx ``DiGraph``, a cycle.

The writers read a graph only through its ``nodes`` and ``edges`` (so :mod:`causalgraph.graph` can offer
them as methods without an import cycle).
"""

from __future__ import annotations

from typing import Optional

from ..errors import SchemaError

__all__ = ["edge_labels", "to_digraph", "find_cycle", "check_dag"]


def edge_labels(edge) -> dict[str, str]:
    """The labels an edge carries: ``correlation``/``polarity`` → positive, negative or conflicting.

    Examples
    --------
    >>> from causalgraph.graph import compile_graph
    >>> from causalgraph.model import Relation, Correlation as C
    >>> edge_labels(compile_graph([Relation("a", "b", correlation=C.NEGATIVE)]).edges[0])
    {'correlation': 'negative'}
    """
    out = {}
    for name, many in (("correlation", edge.correlations), ("polarity", edge.polarities)):
        if len(many) == 1:
            out[name] = many[0].value
        elif many:
            out[name] = "conflicting"
    return out


def to_digraph(graph):
    """A networkx ``DiGraph``: the events in node order, each edge with its :func:`edge_labels`."""
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(graph.nodes)
    for e in graph.edges:
        g.add_edge(e.cause, e.effect, **edge_labels(e))
    return g


def find_cycle(graph) -> Optional[list[str]]:
    """The events of one directed cycle (first event repeated at the end), or ``None`` for a DAG.

    Examples
    --------
    >>> from causalgraph.graph import compile_graph
    >>> from causalgraph.model import Relation
    >>> find_cycle(compile_graph([Relation("a", "b"), Relation("b", "c"), Relation("c", "a")]))
    ['a', 'b', 'c', 'a']
    """
    import networkx as nx

    try:
        cycle = nx.find_cycle(to_digraph(graph))
    except nx.NetworkXNoCycle:
        return None
    return [u for u, _ in cycle] + [cycle[0][0]]


def check_dag(graph, what: str) -> None:
    """Raise :class:`~causalgraph.errors.SchemaError` naming a cycle when ``graph`` has one."""
    cycle = find_cycle(graph)
    if cycle is not None:
        sid = f"statement {graph.statement_id}: " if getattr(graph, "statement_id", None) else ""
        raise SchemaError(f"{sid}{what} needs a DAG, and the graph has the cycle {' -> '.join(map(repr, cycle))}; "
                          "expected a graph without directed cycles (use graphml, gml, dot, json or edgelist)")
