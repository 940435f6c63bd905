"""Compatibility module: the encodings now live one module each in :mod:`causalgraph.encodings`.

``from causalgraph.encoders import encode, decode, prompt_graph, ENCODINGS, DECODABLE, ORDERS,
ordered_edges, check_order`` keeps working; new code imports from :mod:`causalgraph.encodings`,
which also holds :class:`~causalgraph.encodings.Encoding` and :func:`~causalgraph.encodings.register_encoding`.

Examples
--------
>>> from causalgraph.encoders import ENCODINGS, encode
>>> encode([("a", "b"), ("b", "c")])
'(a, b) (b, c)'
>>> "incident" in ENCODINGS
True
"""

from __future__ import annotations

from . import encodings as _encodings
from .encodings import ORDERS, check_order, decode, encode, ordered_edges, prompt_graph

__all__ = ["ENCODINGS", "DECODABLE", "ORDERS", "encode", "decode", "ordered_edges", "check_order", "prompt_graph"]


def __getattr__(name: str):
    # ENCODINGS and DECODABLE are read from the registry each time, as in causalgraph.encodings.
    if name in ("ENCODINGS", "DECODABLE"):
        return getattr(_encodings, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
