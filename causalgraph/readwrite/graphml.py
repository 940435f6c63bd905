"""GraphML files, and the one GraphML writer the ``graphml`` prompt encoding shares.

:func:`graphml_document` writes every GraphML text causalgraph makes, files and prompts alike, with
one escaping rule (:func:`xml_attr` for ids, :func:`xml_text` for data): ElementTree's, so the
bytes are those of networkx's ElementTree writer for the same graph except that characters outside
ASCII are written as UTF-8 rather than as numeric references (the prompts the ClimateCause authors
sent hold them as text).  A name XML cannot hold is refused in one line.  :func:`read_graphml` reads
files with networkx.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Mapping, Sequence

from ..errors import ConfigError
from ..model import unprintable_char
from ._digraph import edge_labels

__all__ = ["xml_attr", "xml_text", "graphml_document", "to_graphml", "read_graphml"]

XML_DECLARATION = "<?xml version='1.0' encoding='utf-8'?>\n"

_ROOT = ('<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
         'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
         'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
         'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n')


def _checked(value: str) -> str:
    bad = unprintable_char(value)
    if bad:
        raise ConfigError(f"event {value!r} holds {bad!r} (U+{ord(bad):04X}), a character XML "
                          f"cannot hold, so it has no GraphML encoding")
    return value


def xml_attr(value: str) -> str:
    """``value`` as a GraphML (XML) attribute value: ElementTree's escaping, in its order.

    A character XML 1.0 cannot hold, even as a reference (a control character, a lone surrogate), is
    refused (:class:`~causalgraph.errors.ConfigError`, naming it).

    Examples
    --------
    >>> xml_attr('a <b> & "c"\\n')
    'a &lt;b&gt; &amp; &quot;c&quot;&#10;'
    >>> xml_attr("bell\\x07")
    Traceback (most recent call last):
    ...
    causalgraph.errors.ConfigError: event 'bell\\x07' holds '\\x07' (U+0007), a character XML cannot hold, so it has no GraphML encoding
    """
    return (_checked(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("\r", "&#13;").replace("\n", "&#10;").replace("\t", "&#09;"))


def xml_text(value: str) -> str:
    """``value`` as element text (a ``<data>`` value): ElementTree's escaping of ``&``, ``<`` and ``>``.

    Examples
    --------
    >>> xml_text("a < b & c")
    'a &lt; b &amp; c'
    """
    return _checked(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def graphml_document(nodes: Sequence[str], edges: Iterable[tuple[str, str, Mapping[str, str]]], *,
                     declaration: bool = False) -> str:
    """GraphML text of a directed graph: nodes in the order given, edges in the order given, each
    edge's labels as ``<data>`` of string keys ``d0``, ``d1`` … numbered as first met (listed newest
    first, as networkx lists them), indented by two spaces.

    Examples
    --------
    >>> print(graphml_document(["a", "b"], [("a", "b", {"correlation": "negative"})]), end="")
    <graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">
      <key id="d0" for="edge" attr.name="correlation" attr.type="string" />
      <graph edgedefault="directed">
        <node id="a" />
        <node id="b" />
        <edge source="a" target="b">
          <data key="d0">negative</data>
        </edge>
      </graph>
    </graphml>
    """
    keys: dict[str, str] = {}
    body: list[str] = []
    for n in nodes:
        body.append(f'    <node id="{xml_attr(n)}" />\n')
    for cause, effect, labels in edges:
        head = f'    <edge source="{xml_attr(cause)}" target="{xml_attr(effect)}"'
        if not labels:
            body.append(f"{head} />\n")
            continue
        body.append(f"{head}>\n")
        for name, value in labels.items():
            key = keys.setdefault(name, f"d{len(keys)}")
            body.append(f'      <data key="{key}">{xml_text(value)}</data>\n')
        body.append("    </edge>\n")
    out = [XML_DECLARATION if declaration else "", _ROOT]
    # networkx inserts each new key before the others, so the newest key comes first
    out += [f'  <key id="{key}" for="edge" attr.name="{xml_attr(name)}" attr.type="string" />\n'
            for name, key in reversed(keys.items())]
    if body:
        out += ['  <graph edgedefault="directed">\n', *body, "  </graph>\n"]
    else:
        out.append('  <graph edgedefault="directed" />\n')
    out.append("</graphml>\n")
    return "".join(out)


def to_graphml(graph) -> str:
    """GraphML text: node ids are the events, each edge's labels string data (``correlation`` …).

    Edges are listed by cause, in node order (as networkx's writer lists a ``DiGraph``'s).

    Examples
    --------
    >>> from causalgraph.graph import compile_graph
    >>> from causalgraph.model import Relation
    >>> print(to_graphml(compile_graph([Relation("ü", "b")])).splitlines()[2])
        <node id="ü" />
    """
    order = {n: i for i, n in enumerate(graph.nodes)}
    edges = sorted(graph.edges, key=lambda e: order[e.cause])  # stable: data order within a cause
    return graphml_document(graph.nodes, [(e.cause, e.effect, edge_labels(e)) for e in edges])


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
