"""GML: written by networkx's ``generate_gml`` (events as node labels, edge labels as attributes), read back
with the node ids kept and the labels as attributes, so that the statement builder chooses the names.
"""

from __future__ import annotations

from pathlib import Path

from ._digraph import to_digraph

__all__ = ["to_gml", "read_gml"]


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


def read_gml(path: "str | Path"):
    """A GML file as a networkx graph, node ids kept and labels as the ``label`` attribute.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from causalgraph.graph import compile_graph
    >>> from causalgraph.model import Relation
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "g.gml"
    >>> _ = f.write_text(to_gml(compile_graph([Relation("CO2", "warming")])), encoding="utf-8")
    >>> [read_gml(f).nodes[n]["label"] for n in read_gml(f).nodes]
    ['CO2', 'warming']
    """
    import networkx as nx

    # label=None keeps the ids as nodes and the labels as attributes: the choice is made by the reader's caller
    return nx.read_gml(Path(path), label=None)
