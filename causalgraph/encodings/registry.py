"""The one registry of encodings: the built-ins (every module of this package that defines
``ENCODING``) and those registered at run time with :func:`register_encoding`.

Adding a built-in encoding is one new file ``causalgraph/encodings/<name>.py`` defining
``ENCODING = Encoding(...)``; it is found when the package is imported.  Code outside causalgraph
calls :func:`register_encoding` instead.  Either way ``encode``/``decode``/``prompt_graph``, the
variant ids (:data:`ENCODING_PREFIXES`), ``get_task("ccr-member").items(…, encoding=…)`` and the
structure tasks take it up.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
import re
import sys
from collections.abc import Mapping
from typing import Iterator, Optional

from ..errors import ConfigError
from .base import Encoding

__all__ = ["register_encoding", "unregister_encoding", "get_encoding", "encoding_names", "decodable_names",
           "encoding_for_prefix", "ENCODING_PREFIXES", "did_you_mean"]

_REGISTRY: dict[str, Encoding] = {}
_PREFIX = re.compile(r"[A-Za-z][A-Za-z0-9]*")
# Variant ids of prompts without a graph start with these (0_1, F_2, CoT_3, RC_F_1, RC_0_2): a graph
# prefix among them would read those variants as graph variants.
_RESERVED_PREFIXES = ("F", "CoT", "RC")


def did_you_mean(name: str, known) -> str:
    """``"; did you mean 'x'?"`` for the closest of ``known`` to ``name``, or ``""`` when none is close.

    Examples
    --------
    >>> did_you_mean("graphxml", ["adjacency", "graphml"]), did_you_mean("zzz", ["adjacency"])
    ("; did you mean 'graphml'?", '')
    """
    close = difflib.get_close_matches(str(name), list(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def _ordered() -> list[Encoding]:
    return sorted(_REGISTRY.values(), key=lambda e: (e.rank, e.name))


def encoding_names() -> tuple[str, ...]:
    """The names of the registered encodings, in listing order (by rank, then name).

    Examples
    --------
    >>> encoding_names()[:3]
    ('adjacency', 'single-node', 'graphml')
    """
    return tuple(e.name for e in _ordered())


def decodable_names() -> tuple[str, ...]:
    """The names of the encodings with a decoder, in listing order.

    Examples
    --------
    >>> decodable_names()
    ('adjacency', 'single-node', 'graphml', 'matrix', 'dot', 'incident')
    """
    return tuple(e.name for e in _ordered() if e.decoder is not None)


def get_encoding(name: str) -> Encoding:
    """The registered encoding ``name``.

    Raises :class:`~causalgraph.errors.ConfigError` naming the known encodings (and the closest
    one) when there is none.

    Examples
    --------
    >>> get_encoding("matrix").prefix
    'MX'
    >>> get_encoding("graphxml")
    Traceback (most recent call last):
    ...
    causalgraph.errors.ConfigError: unknown encoding 'graphxml'; expected one of adjacency, single-node, graphml, json, multinode, matrix, dot, incident; did you mean 'graphml'?
    """
    enc = _REGISTRY.get(name) if isinstance(name, str) else None
    if enc is None:
        names = encoding_names()
        raise ConfigError(f"unknown encoding {name!r}; expected one of {', '.join(names)}{did_you_mean(name, names)}")
    return enc


def encoding_for_prefix(prefix: str) -> Optional[str]:
    """The name of the encoding whose variant-id prefix is ``prefix`` (``MX`` → ``matrix``), or ``None``."""
    for enc in _REGISTRY.values():
        if enc.prefix == prefix:
            return enc.name
    return None


def register_encoding(encoding: Encoding, *, replace: bool = False) -> Encoding:
    """Add ``encoding`` to the registry; returns it.

    Parameters
    ----------
    encoding
        The :class:`~causalgraph.encodings.Encoding` record.
    replace
        Replace an encoding registered under the same name.  Without it a taken name is
        refused, so that no encoding is overwritten silently.

    Raises
    ------
    ConfigError
        For a taken name (without ``replace``), a prefix another encoding uses, or a record
        whose name, encoder, prefix, decoder or punctuation cannot be used.

    Examples
    --------
    >>> from causalgraph.encodings import Encoding, encode
    >>> arrows = Encoding("arrows", lambda nodes, edges, signs: " ".join(f"{c} -> {e}" for c, e, _ in edges),
    ...                   prefix="AR")
    >>> _ = register_encoding(arrows)
    >>> encode([("a", "b"), ("b", "c")], "arrows")
    'a -> b b -> c'
    >>> register_encoding(arrows)
    Traceback (most recent call last):
    ...
    causalgraph.errors.ConfigError: encoding 'arrows' is already registered; pass replace=True to replace it
    >>> unregister_encoding("arrows")
    """
    if not isinstance(encoding, Encoding):
        raise ConfigError(f"register_encoding takes an Encoding record; found {type(encoding).__name__}")
    name = encoding.name
    if not isinstance(name, str) or not name.strip() or name != name.strip():
        raise ConfigError(f"encoding name {name!r}: expected a non-empty name without surrounding blanks")
    if not callable(encoding.encoder):
        raise ConfigError(f"encoding {name!r}: its encoder {encoding.encoder!r} is not callable")
    if encoding.decoder is not None and not callable(encoding.decoder):
        raise ConfigError(f"encoding {name!r}: its decoder {encoding.decoder!r} is not callable (None: no decoder)")
    prefix = encoding.prefix
    if not isinstance(prefix, str) or not _PREFIX.fullmatch(prefix) or prefix in _RESERVED_PREFIXES:
        raise ConfigError(f"encoding {name!r}: prefix {prefix!r} cannot start a variant id; expected letters and "
                          f"digits starting with a letter, not {', '.join(_RESERVED_PREFIXES)} (those start the "
                          f"ids of prompts without a graph)")
    punct = encoding.punctuation
    if not (isinstance(punct, tuple) and len(punct) == 2 and all(isinstance(p, str) for p in punct)):
        raise ConfigError(f"encoding {name!r}: punctuation {punct!r}; expected a pair of strings (before, after)")
    if name in _REGISTRY and not replace:
        raise ConfigError(f"encoding {name!r} is already registered; pass replace=True to replace it")
    other = encoding_for_prefix(prefix)
    if other is not None and other != name:
        raise ConfigError(f"encoding {name!r}: prefix {prefix!r} is taken by encoding {other!r}; variant ids "
                          f"must name one encoding")
    _REGISTRY[name] = encoding
    return encoding


def unregister_encoding(name: str) -> None:
    """Remove encoding ``name`` (one registered at run time, usually; tests clean up with it)."""
    if name not in _REGISTRY:
        get_encoding(name)
    del _REGISTRY[name]


class _Prefixes(Mapping):
    """Encoding name → variant-id prefix, read from the registry whenever it is used."""

    def __getitem__(self, name: str) -> str:
        enc = _REGISTRY.get(name)
        if enc is None:
            raise KeyError(name)
        return enc.prefix

    def __iter__(self) -> Iterator[str]:
        return iter(encoding_names())

    def __len__(self) -> int:
        return len(_REGISTRY)

    def __repr__(self) -> str:
        return repr(dict(self))


#: The variant-id prefix of each encoding, in listing order: the paper's ``A``, ``SN`` and ``ML``,
#: then causalgraph's (``MX``, ``DOT`` …) and any registered later.  A read-only, live view of
#: the registry.
ENCODING_PREFIXES: Mapping[str, str] = _Prefixes()


def _load_builtins() -> None:
    package = __name__.rpartition(".")[0]
    # The package is still being imported (its __init__ imports this module), so it is read from sys.modules.
    for info in pkgutil.iter_modules(sys.modules[package].__path__):
        if info.name.startswith("_") or info.name in ("base", "registry"):
            continue
        module = importlib.import_module(f"{package}.{info.name}")
        enc = getattr(module, "ENCODING", None)
        if isinstance(enc, Encoding):
            register_encoding(enc)


_load_builtins()
