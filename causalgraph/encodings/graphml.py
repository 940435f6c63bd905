"""``graphml``: a GraphML document (variant prefix ``ML``, one of the ClimateCause paper's encodings).

Byte for byte what networkx's ElementTree writer (``networkx.write_graphml_xml``) writes for a
``DiGraph`` holding the nodes and edges (XML-escaped, indented by two spaces, ending with a
newline), written by causalgraph itself so that the bytes never depend on whether lxml is
installed and so that data order can be kept: GraphML's one writer and escaping rule,
:func:`causalgraph.readwrite.graphml.graphml_document`, which the GraphML files share.  With
signs, an edge attribute ``correlation``.  Prompts go on with ``". "`` after it
(``"</graphml>\\n. "``).  The decoder keeps the document's node order and reads signs from the
``correlation`` edge attribute whenever present.

Examples
--------
>>> from causalgraph.encodings import decode, encode
>>> text = encode([("a", "b")], "graphml")
>>> print(text[text.index("  <graph"):], end="")
  <graph edgedefault="directed">
    <node id="a" />
    <node id="b" />
    <edge source="a" target="b" />
  </graph>
</graphml>
>>> decode(text, "graphml").pairs
[('a', 'b')]
"""

from __future__ import annotations

from typing import Optional, Sequence

from ..errors import ParseError
from ..readwrite.graphml import graphml_document
from .base import Edge, Encoding

__all__ = ["ENCODING"]


def _graphml(nodes: list[str], edges: list[Edge], signs: bool) -> str:
    # Written by causalgraph's one GraphML writer rather than networkx's: networkx always groups edges
    # by cause (no data order) and writes lxml's slightly different bytes whenever lxml is installed.
    return graphml_document(nodes, [(c, e, {"correlation": s} if signs else {}) for c, e, s in edges],
                            declaration=True)


_GRAPHML_NS = "{http://graphml.graphdrawing.org/xmlns}"


def _decode_graphml(text: str) -> tuple[list[str], list[Edge]]:
    """Nodes and edges in document order (networkx's reader would regroup edges by cause)."""
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise ParseError(f"not valid GraphML: {exc}") from None
    ns = _GRAPHML_NS if root.tag.startswith(_GRAPHML_NS) else ""
    if root.tag != f"{ns}graphml":
        raise ParseError(f"not valid GraphML: the root element is <{root.tag}>, expected <graphml>")
    graph = root.find(f"{ns}graph")
    if graph is None:
        raise ParseError("not valid GraphML: no <graph> element")
    if graph.get("edgedefault") != "directed":
        raise ParseError(f"GraphML graph is undirected (edgedefault={graph.get('edgedefault')!r}); "
                         f"expected edgedefault=\"directed\"")
    corr_keys = {k.get("id") for k in root.iter(f"{ns}key")
                 if k.get("attr.name") == "correlation" and k.get("for") in ("edge", "all")}
    nodes: dict[str, None] = {}
    for n in graph.findall(f"{ns}node"):
        if n.get("id") is None:
            raise ParseError("not valid GraphML: a <node> has no id")
        nodes.setdefault(n.get("id"), None)
    edges: list[Edge] = []
    for e in graph.findall(f"{ns}edge"):
        c, t = e.get("source"), e.get("target")
        if c is None or t is None:
            raise ParseError("not valid GraphML: an <edge> lacks its source or target")
        if e.get("directed") == "false":
            raise ParseError(f"GraphML edge ({c!r}, {t!r}) is undirected; a causal graph has directed edges")
        sign = next(((d.text or "") for d in e.findall(f"{ns}data") if d.get("key") in corr_keys), "unknown")
        nodes.setdefault(c, None)
        nodes.setdefault(t, None)
        edges.append((c, t, sign))
    return list(nodes), edges



def _decode(text: str, *, signs: bool = False, nodes: Optional[Sequence[str]] = None):
    return _decode_graphml(text)


ENCODING = Encoding("graphml", _graphml, prefix="ML", decoder=_decode, punctuation=("", "."), rank=30,
                    title="GraphML")
