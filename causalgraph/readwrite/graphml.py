"""GraphML: written by networkx's ``generate_graphml`` (node ids are the events), read by ``read_graphml``."""

from __future__ import annotations

from pathlib import Path

from ._digraph import to_digraph

__all__ = ["to_graphml", "read_graphml"]


def to_graphml(graph) -> str:
    """GraphML text (``networkx.generate_graphml``): node ids are the events."""
    import networkx as nx

    return "\n".join(nx.generate_graphml(to_digraph(graph))) + "\n"


def read_graphml(path: "str | Path"):
    """A GraphML file as a networkx graph (node ids are the event names).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from causalgraph.graph import compile_graph
    >>> from causalgraph.model import Relation
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "g.graphml"
    >>> _ = f.write_text(to_graphml(compile_graph([Relation("a <b>", "c & d")])), encoding="utf-8")
    >>> list(read_graphml(f).edges)
    [('a <b>', 'c & d')]
    """
    import networkx as nx

    return nx.read_graphml(Path(path))
