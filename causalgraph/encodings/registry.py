"""The one registry of encodings: the built-ins (every module of this package that defines
``ENCODING``) and those registered at run time with :func:`register_encoding`.

Adding a built-in encoding is one new file ``causalgraph/encodings/<name>.py`` defining
``ENCODING = Encoding(...)``; it is found when the package is imported.  Code outside causalgraph
calls :func:`register_encoding` instead.  Either way ``encode``/``decode``/``prompt_graph``, the
variant ids (:data:`ENCODING_PREFIXES`), ``get_task("ccr-member").items(…, encoding=…)`` and the
structure tasks take it up.  An installed distribution adds one through the entry-point group
``causalgraph.encodings`` (name: the encoding's name, value: ``"module:attr"`` of its
:class:`Encoding` record); the registry is a :class:`causalgraph._core.registry.Registry`.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import sys
from collections.abc import Mapping
from typing import Any, Iterator, Optional

from ..errors import ConfigError
from .._core.registry import ENTRY_POINT_GROUPS, Registry, record_name, short_repr
from .base import Encoding

__all__ = ["register_encoding", "unregister_encoding", "get_encoding", "encoding_names", "decodable_names",
           "encoding_for_prefix", "ENCODING_PREFIXES", "ENCODINGS_REGISTRY"]

_PREFIX = re.compile(r"[A-Za-z][A-Za-z0-9]*")
# Variant ids of prompts without a graph start with these (0_1, F_2, CoT_3, RC_F_1, RC_0_2): a graph
# prefix among them would read those variants as graph variants.
_RESERVED_PREFIXES = ("F", "CoT", "RC")


def _check(name: str, encoding: Any) -> Encoding:
    """The checks of :func:`register_encoding` but the taken name: for records and plugins alike."""
    if not isinstance(encoding, Encoding):
        raise ConfigError(f"register_encoding takes an Encoding record; found {type(encoding).__name__}")
    if encoding.name != name:
        raise ConfigError(f"encoding {name!r}: the Encoding record is named {encoding.name!r}; the registered "
                          "name must be the encoding's own")
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
    if _REGISTRY.origin(name, read=False) is not None:
        # A plugin's encoder is tried on a one-edge graph when it loads, so that one that cannot write
        # text is left out of listings and variant ids (with a note), not found out in a prompt.
        try:
            probe = encoding.encoder(["a", "b"], [("a", "b", "unknown")], False)
        except Exception as exc:  # a plugin's bug stays the plugin's
            raise ConfigError(f"encoding {name!r}: its encoder raised {type(exc).__name__}: {exc} on the graph "
                              "a -> b") from exc
        if not isinstance(probe, str):
            raise ConfigError(f"encoding {name!r}: its encoder returned {short_repr(probe)} ({type(probe).__name__}) "
                              "for the graph a -> b; expected the graph as text (str)")
    # Against the encodings resolved so far: resolving every encoding in turn (as listing does)
    # compares each pair once, and never re-enters the one being resolved.
    for other in _REGISTRY.loaded().values():
        if other.prefix == prefix and other.name != name:
            raise ConfigError(f"encoding {name!r}: prefix {prefix!r} is taken by encoding {other.name!r}; "
                              f"variant ids must name one encoding")
    return encoding


#: Every encoding by name: the built-in modules, those registered with :func:`register_encoding`
#: and plugins of the entry-point group ``causalgraph.encodings``.
_REGISTRY: Registry[Encoding] = Registry("encoding", group=ENTRY_POINT_GROUPS["encoding"], coerce=_check,
                                         listing=lambda: encoding_names())
ENCODINGS_REGISTRY = _REGISTRY


def _ordered() -> list[Encoding]:
    return sorted(_REGISTRY.values(), key=lambda e: (e.rank, e.name))


def encoding_names(*, plugins: bool = True) -> tuple[str, ...]:
    """The names of the registered encodings, in listing order (by rank, then name).

    With ``plugins=False``, causalgraph's own and those registered by code only, with no entry point
    read (help texts: the command line's parser never touches a plugin).  A plugin that cannot be
    used is left out either way (see :meth:`~causalgraph._core.registry.Registry.usable`).

    Examples
    --------
    >>> encoding_names()[:3]
    ('adjacency', 'single-node', 'graphml')
    >>> encoding_names(plugins=False)
    ('adjacency', 'single-node', 'graphml', 'json', 'multinode', 'matrix', 'dot', 'incident')
    """
    if not plugins:
        own = _REGISTRY.loaded()   # built-ins are records, held as such: nothing to import
        return tuple(e.name for e in sorted((own[n] for n in _REGISTRY.names(plugins=False) if n in own),
                                            key=lambda e: (e.rank, e.name)))
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
    return _REGISTRY.get(name)


def encoding_for_prefix(prefix: str) -> Optional[str]:
    """The name of the encoding whose variant-id prefix is ``prefix`` (``MX`` → ``matrix``), or ``None``."""
    for enc in _ordered():
        if enc.prefix == prefix:
            return enc.name
    return None


def register_encoding(encoding: "Encoding | str", *, replace: bool = False,
                      name: Optional[str] = None) -> "Encoding | str":
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
    name = record_name(encoding, Encoding, name, "register_encoding")
    if isinstance(encoding, str):  # a lazy target: imported, and checked like a record, when first used
        return _REGISTRY.register(name, encoding, replace=replace)
    # The record's own checks come before the taken-name check, so a bad record says what is wrong with it.
    _check(encoding.name, encoding)
    return _REGISTRY.register(encoding.name, encoding, replace=replace)


def unregister_encoding(name: str) -> None:
    """Remove encoding ``name`` (one registered at run time, usually; tests clean up with it)."""
    _REGISTRY.unregister(name)


class _Prefixes(Mapping):
    """Encoding name → variant-id prefix, read from the registry whenever it is used."""

    def __getitem__(self, name: str) -> str:
        if name not in _REGISTRY:
            raise KeyError(name)
        return _REGISTRY.get(name).prefix

    def __iter__(self) -> Iterator[str]:
        return iter(encoding_names())

    def __len__(self) -> int:
        return len(encoding_names())  # as iterated: a plugin that cannot be used is left out of both

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
            _REGISTRY.register(enc.name, enc, builtin=True)


_load_builtins()
