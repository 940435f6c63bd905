"""``multinode``: ``X causes A, B.`` per cause, joined by single spaces (variant prefix ``MN``).

With signs, ``X causes A (positive correlation), B (negative correlation).``.  No decoder: events
holding ``", "`` cannot be told apart.

Examples
--------
>>> from causalgraph.encodings import encode
>>> encode([("a", "b"), ("c", "a"), ("a", "d")], "multinode")
'a causes b, d. c causes a.'
"""

from __future__ import annotations

from .base import Edge, Encoding

__all__ = ["ENCODING"]


def _encode(nodes: list[str], edges: list[Edge], signs: bool) -> str:
    grouped: dict[str, list[str]] = {}
    for c, e, s in edges:
        grouped.setdefault(c, []).append(f"{e} ({s} correlation)" if signs else e)
    return " ".join(f"{c} causes {', '.join(effects)}." for c, effects in grouped.items())


ENCODING = Encoding("multinode", _encode, prefix="MN", rank=50)
