"""A causal graph in the formats causal-inference tools read: GML, GraphML, DOT, dagitty, node-link JSON,
an edge list, a pgmpy ``DAG`` and the graph DoWhy's ``CausalModel`` takes (docs/graphs.md).

Every writer keeps the edge labels where the format has attributes: ``correlation`` and
``polarity`` (the relation type), each ``positive``, ``negative`` or ``conflicting`` (a pair annotated
with both signs), left out for an edge without the label (PubMedCausal).  Formats that mean a DAG —
a pgmpy ``DAG``, dagitty's ``dag``, DoWhy's graph — refuse a graph with a cycle, naming one.
:func:`causalgraph.datasets.load_graph_files` reads the GML, GraphML, DOT and JSON files back.

This module reads a graph only through its ``nodes`` and ``edges`` (so :mod:`causalgraph.graph`
can offer these writers as methods without an import cycle).
"""

from __future__ import annotations

import csv
import io
import json
from typing import Optional

from ..errors import ConfigError, SchemaError

__all__ = ["GRAPH_FORMATS", "DAG_FORMATS", "SUFFIXES", "edge_labels", "to_digraph", "find_cycle", "check_dag",
           "to_gml", "to_graphml", "to_dot", "to_dagitty", "to_node_link", "to_edgelist", "to_pgmpy", "to_dowhy",
           "graph_text"]

#: ``export-graphs --format`` choices.
GRAPH_FORMATS = ("graphml", "gml", "dot", "dagitty", "json", "edgelist")
#: The formats (of :data:`GRAPH_FORMATS`) that require a DAG.
DAG_FORMATS = ("dagitty",)
#: File suffix of each format.
SUFFIXES = {"graphml": ".graphml", "gml": ".gml", "dot": ".dot", "dagitty": ".dagitty", "json": ".json",
            "edgelist": ".tsv"}


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


def to_gml(graph) -> str:
    """GML text (``networkx.generate_gml``): nodes labelled by event, edge labels as attributes.

    DoWhy recommends GML for its ``CausalModel(graph=...)``; ``networkx.parse_gml`` reads it back.

    Examples
    --------
    >>> import networkx as nx
    >>> from causalgraph.graph import compile_graph
    >>> from causalgraph.model import Relation
    >>> list(nx.parse_gml(to_gml(compile_graph([Relation("CO2", "warming")]))).edges)
    [('CO2', 'warming')]
    """
    import networkx as nx

    return "\n".join(nx.generate_gml(to_digraph(graph))) + "\n"


def to_graphml(graph) -> str:
    """GraphML text (``networkx.generate_graphml``): node ids are the events."""
    import networkx as nx

    return "\n".join(nx.generate_graphml(to_digraph(graph))) + "\n"


def _quote(name: str) -> str:
    # DOT and dagitty quoted ids: a backslash or a quote inside is escaped, a line break written as \n.
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "\\r").replace("\n", "\\n") + '"'


def to_dot(graph) -> str:
    """Graphviz DOT text: ``digraph { "a" -> "b" [correlation="negative"]; }``, every id quoted.

    Examples
    --------
    >>> from causalgraph.graph import compile_graph
    >>> from causalgraph.model import Relation
    >>> print(to_dot(compile_graph([Relation("a", "b")])), end="")
    digraph {
      "a";
      "b";
      "a" -> "b";
    }
    """
    lines = ["digraph {"]
    lines += [f"  {_quote(n)};" for n in graph.nodes]
    for e in graph.edges:
        labels = edge_labels(e)
        attrs = (" [" + ", ".join(f"{k}={_quote(v)}" for k, v in labels.items()) + "]") if labels else ""
        lines.append(f"  {_quote(e.cause)} -> {_quote(e.effect)}{attrs};")
    return "\n".join(lines) + "\n}\n"


def to_dagitty(graph) -> str:
    """dagitty model text: ``dag { "a" -> "b" }``; a graph with a cycle is refused, naming it.

    dagitty's syntax follows DOT's, with quoted variable ids; it has no edge attributes, so the
    labels are not written (use GML or GraphML to keep them).

    Examples
    --------
    >>> from causalgraph.graph import compile_graph
    >>> from causalgraph.model import Relation
    >>> print(to_dagitty(compile_graph([Relation("smoking", "tar"), Relation("tar", "cancer")])), end="")
    dag {
      "smoking"
      "tar"
      "cancer"
      "smoking" -> "tar"
      "tar" -> "cancer"
    }
    """
    check_dag(graph, "dagitty's dag")
    lines = ["dag {"] + [f"  {_quote(n)}" for n in graph.nodes]
    lines += [f"  {_quote(e.cause)} -> {_quote(e.effect)}" for e in graph.edges]
    return "\n".join(lines) + "\n}\n"


def to_node_link(graph) -> str:
    """networkx node-link JSON (``node_link_data(..., edges="links")``, read by every networkx 2.x/3.x)."""
    import networkx as nx

    return json.dumps(nx.node_link_data(to_digraph(graph), edges="links"), ensure_ascii=False, indent=1) + "\n"


def to_edgelist(graph) -> str:
    """A tab-separated edge list with a header: ``cause``, ``effect``, ``correlation``, ``relation_type``.

    Fields holding a tab, a quote or a line break are quoted as CSV does.

    Examples
    --------
    >>> from causalgraph.graph import compile_graph
    >>> from causalgraph.model import Relation
    >>> to_edgelist(compile_graph([Relation("a", "b"), Relation("line\\rbreak", "c")])).split("\\n")[1:3]
    ['a\\tb\\t\\t', '"line\\rbreak"\\t"c"\\t""\\t""']
    """
    buf = io.StringIO()
    w = csv.writer(buf, delimiter="\t", lineterminator="\n")
    # With "\n" as line end the csv module leaves a lone "\r" unquoted, and every reader then
    # breaks the row there; a row holding one is written with every field quoted.
    quoted = csv.writer(buf, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_ALL)
    w.writerow(["cause", "effect", "correlation", "relation_type"])
    for e in graph.edges:
        labels = edge_labels(e)
        row = [e.cause, e.effect, labels.get("correlation", ""), labels.get("polarity", "")]
        (quoted if any("\r" in x for x in row) else w).writerow(row)
    return buf.getvalue()


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


_WRITERS = {"graphml": to_graphml, "gml": to_gml, "dot": to_dot, "dagitty": to_dagitty, "json": to_node_link,
            "edgelist": to_edgelist}


def graph_text(graph, fmt: str) -> str:
    """The graph in one of :data:`GRAPH_FORMATS`."""
    if fmt not in _WRITERS:
        raise ConfigError(f"unknown graph format {fmt!r}; expected one of {', '.join(GRAPH_FORMATS)}")
    return _WRITERS[fmt](graph)
