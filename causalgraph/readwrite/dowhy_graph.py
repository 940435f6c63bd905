"""The graph DoWhy's ``CausalModel(data, treatment, outcome, graph=...)`` takes: the GML of a DAG."""

from __future__ import annotations

from ._digraph import check_dag
from .gml import to_gml

__all__ = ["to_dowhy"]


def to_dowhy(graph) -> str:
    """The graph as DoWhy's ``CausalModel(data, treatment, outcome, graph=...)`` takes it: GML of a DAG.

    DoWhy parses a GML string with networkx and needs a DAG whose node names are the columns of
    its data, so the events are the node labels and a cycle is refused, naming it.

    Examples
    --------
    >>> from causalgraph.graph import compile_graph
    >>> from causalgraph.model import Relation
    >>> to_dowhy(compile_graph([Relation("a", "b")])).splitlines()[:2]
    ['graph [', '  directed 1']
    """
    check_dag(graph, "DoWhy's CausalModel")
    return to_gml(graph)
