"""``json``: ``{event: {"causes": [effects…]}}`` for every event, in node order (variant prefix ``J``).

With signs, a parallel ``"correlations"`` list per event.  No decoder.

Examples
--------
>>> from causalgraph.encodings import encode
>>> encode([("a", "b")], "json")
'{"a": {"causes": ["b"]}, "b": {"causes": []}}'
"""

from __future__ import annotations

import json

from .base import Edge, Encoding

__all__ = ["ENCODING"]


def _encode(nodes: list[str], edges: list[Edge], signs: bool) -> str:
    obj: dict[str, dict] = {n: {"causes": []} for n in nodes}
    for c, e, s in edges:
        obj[c]["causes"].append(e)
        if signs:
            obj[c].setdefault("correlations", []).append(s)
    if signs:
        for n in nodes:
            obj[n].setdefault("correlations", [])
    return json.dumps(obj, ensure_ascii=False)


ENCODING = Encoding("json", _encode, prefix="J", rank=40)
