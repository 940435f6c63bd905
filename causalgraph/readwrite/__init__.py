"""Files in and out, one home per file format (as networkx's ``readwrite/``).

Each graph format is one module holding its writer and its reader side by side, with the one escaping
rule of that format: :mod:`.graphml`, :mod:`.gml`, :mod:`.dot`, :mod:`.dagitty`, :mod:`.node_link`
(networkx node-link JSON) and :mod:`.edgelist`; the converters to other libraries' objects are
:mod:`.pgmpy_dag` (a ``pgmpy`` ``DAG``) and :mod:`.dowhy_graph` (the GML DoWhy's ``CausalModel`` takes);
plain texts, one per line, a CSV column or a JSONL key, are :mod:`.texts`.  The corpus files
(ClimateCause, PubMedCausal, relations files) are read by :mod:`causalgraph.datasets`, which builds
statements from the graphs read here (:func:`causalgraph.datasets.load_graph_files`).

Every writer keeps the edge labels where the format has attributes: ``correlation`` and ``polarity``
(the relation type), each ``positive``, ``negative`` or ``conflicting`` (a pair annotated with both
signs), left out for an edge without the label (PubMedCausal).  Formats that mean a DAG — a pgmpy
``DAG``, dagitty's ``dag``, DoWhy's graph — refuse a graph with a cycle, naming one (docs/graphs.md).

Examples
--------
>>> from causalgraph.graph import compile_graph
>>> from causalgraph.model import Relation
>>> print(graph_text(compile_graph([Relation("a", "b")]), "dagitty"), end="")
dag {
  "a"
  "b"
  "a" -> "b"
}
>>> READERS[".tsv"].__name__, SUFFIXES["edgelist"]
('read_edgelist', '.tsv')
"""

from __future__ import annotations

from ..errors import ConfigError
from ._digraph import check_dag, edge_labels, find_cycle, to_digraph
from .dagitty import read_dagitty, to_dagitty
from .dot import read_dot, to_dot
from .dowhy_graph import to_dowhy
from .edgelist import read_edgelist, to_edgelist
from .gml import read_gml, to_gml
from .graphml import read_graphml, to_graphml
from .node_link import read_node_link, to_node_link
from .pgmpy_dag import to_pgmpy

__all__ = ["GRAPH_FORMATS", "DAG_FORMATS", "SUFFIXES", "READERS", "graph_text", "edge_labels", "to_digraph",
           "find_cycle", "check_dag", "to_gml", "read_gml", "to_graphml", "read_graphml", "to_dot", "read_dot",
           "to_dagitty", "read_dagitty", "to_node_link", "read_node_link", "to_edgelist", "read_edgelist",
           "to_pgmpy", "to_dowhy"]

#: ``export-graphs --format`` choices.
GRAPH_FORMATS = ("graphml", "gml", "dot", "dagitty", "json", "edgelist")
#: The formats (of :data:`GRAPH_FORMATS`) that require a DAG.
DAG_FORMATS = ("dagitty",)
#: File suffix of each format.
SUFFIXES = {"graphml": ".graphml", "gml": ".gml", "dot": ".dot", "dagitty": ".dagitty", "json": ".json",
            "edgelist": ".tsv"}
#: The reader of each file suffix: ``reader(path)`` → a networkx directed graph, names as written.
READERS = {".graphml": read_graphml, ".gml": read_gml, ".dot": read_dot, ".gv": read_dot, ".json": read_node_link,
           ".dagitty": read_dagitty, ".tsv": read_edgelist}
_WRITERS = {"graphml": to_graphml, "gml": to_gml, "dot": to_dot, "dagitty": to_dagitty, "json": to_node_link,
            "edgelist": to_edgelist}


def graph_text(graph, fmt: str) -> str:
    """The graph in one of :data:`GRAPH_FORMATS`."""
    if fmt not in _WRITERS:
        raise ConfigError(f"unknown graph format {fmt!r}; expected one of {', '.join(GRAPH_FORMATS)}")
    return _WRITERS[fmt](graph)
