"""networkx node-link JSON: written by ``node_link_data(..., edges="links")`` (read by every networkx
2.x/3.x), read back after checking what ``node_link_graph`` would silently merge or invent.
"""

from __future__ import annotations

import json
from pathlib import Path

from .._core.wording import describe_found
from ..errors import SchemaError
from ._digraph import to_digraph

__all__ = ["to_node_link", "read_node_link"]


def to_node_link(graph) -> str:
    """networkx node-link JSON (``node_link_data(..., edges="links")``, read by every networkx 2.x/3.x)."""
    import networkx as nx

    return json.dumps(nx.node_link_data(to_digraph(graph), edges="links"), ensure_ascii=False, indent=1) + "\n"


def read_node_link(path: "str | Path"):
    """A node-link JSON file as a graph, after checking what networkx would silently merge or invent.

    ``networkx.node_link_graph`` adds a node for a link end that no node declares, merges a node
    declared twice, and keeps ``1`` and ``"1"`` apart until their names become text, when they
    are one event; each of these is refused here.  An id is text or an integer.
    """
    import networkx as nx

    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError) as exc:
        raise SchemaError(f"{p}: cannot read as UTF-8 text ({exc})") from None
    except json.JSONDecodeError as exc:
        raise SchemaError(f"{p}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    if not (isinstance(data, dict) and "nodes" in data and ("links" in data or "edges" in data)):
        raise SchemaError(f"{p}: found JSON without 'nodes' and 'links' (or 'edges'); expected a networkx "
                          "node-link graph (networkx.node_link_data)")
    key = "links" if "links" in data else "edges"
    nodes, links = data["nodes"], data[key]
    for what, value in (("nodes", nodes), (key, links)):
        if not isinstance(value, list):
            raise SchemaError(f"{p}: {what!r}: found {describe_found(value)}; expected a list of objects")
    declared: dict = {}  # (type, id) → position, so that 1 and "1" are told apart
    as_text: dict[str, object] = {}
    for i, node in enumerate(nodes, start=1):
        if not isinstance(node, dict) or "id" not in node:
            raise SchemaError(f"{p}: node {i}: found {describe_found(node)}; expected an object with an 'id'")
        nid = node["id"]
        if not (isinstance(nid, str) or type(nid) is int):
            raise SchemaError(f"{p}: node {i}, field 'id': found {describe_found(nid)}; expected text or an "
                              "integer")
        if (type(nid), nid) in declared:
            first = declared[type(nid), nid]
            raise SchemaError(f"{p}: node {i}: id {nid!r} is declared again (first at node {first}); expected "
                              "each node once")
        other = as_text.get(str(nid))
        if other is not None:
            first = declared[type(other), other]
            raise SchemaError(f"{p}: node {i}: id {nid!r} and the id {other!r} of node {first} are the same event "
                              f"name {str(nid)!r}; expected distinct ids")
        declared[type(nid), nid] = i
        as_text[str(nid)] = nid
    for j, link in enumerate(links, start=1):
        if not isinstance(link, dict):
            raise SchemaError(f"{p}: link {j} of {key!r}: found {describe_found(link)}; expected an object "
                              "with 'source' and 'target'")
        for end in ("source", "target"):
            if end not in link:
                raise SchemaError(f"{p}: link {j} of {key!r}: no {end!r}; expected a link with 'source' and 'target'")
            v = link[end]
            if not (isinstance(v, str) or type(v) is int) or (type(v), v) not in declared:
                raise SchemaError(f"{p}: link {j} of {key!r}, field {end!r}: found {describe_found(v)}, which "
                                  "no node declares; expected the id of a node in 'nodes'")
    return nx.node_link_graph(data, edges=key)
