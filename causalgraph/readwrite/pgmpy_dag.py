"""A graph as a ``pgmpy.base.DAG`` (pgmpy is optional: ``pip install 'causalgraph[causal]'``)."""

from __future__ import annotations

from ..errors import ConfigError
from ._digraph import check_dag, edge_labels

__all__ = ["to_pgmpy"]


def to_pgmpy(graph):
    """A ``pgmpy.base.DAG`` of the graph (edge labels as edge attributes); a cycle is refused, naming it.

    Examples
    --------
    >>> from causalgraph.graph import compile_graph
    >>> from causalgraph.model import Relation
    >>> dag = to_pgmpy(compile_graph([Relation("a", "b"), Relation("c", "b")]))  # doctest: +SKIP
    >>> dag.is_dconnected("a", "c", observed=["b"])  # doctest: +SKIP
    True
    """
    check_dag(graph, "a pgmpy DAG")
    try:
        from pgmpy.base import DAG
    except ImportError:
        raise ConfigError("to_pgmpy needs pgmpy (pip install 'causalgraph[causal]')") from None
    dag = DAG()
    dag.add_nodes_from(graph.nodes)
    for e in graph.edges:
        # pgmpy's add_edge takes no attributes; the DAG is a networkx DiGraph, whose edge data holds them
        dag.add_edge(e.cause, e.effect)
        dag.edges[e.cause, e.effect].update(edge_labels(e))
    return dag
