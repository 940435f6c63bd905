"""One registry kind for every extension point: tasks, backends, encodings, metrics and reducers.

A :class:`Registry` maps names to values of one kind.  Every registry of causalgraph is one of
these, so they all follow the same rules:

* a value may be given as a lazy ``"module:attr"`` target, imported on first use (so that
  ``import causalgraph`` never loads openai, torch or a plugin's dependencies);
* a taken name is refused unless ``replace=True`` is passed, so nothing is overwritten silently;
* an unknown name raises :class:`~causalgraph.errors.ConfigError` in one line that lists what is
  registered and names the closest match ("did you mean");
* the registry also reads the entry points of its group (``causalgraph.tasks``,
  ``causalgraph.backends``, ``causalgraph.encodings``, ``causalgraph.metrics``) from the
  installed distributions: once, on first use, sorted by entry-point name then distribution,
  so the order never depends on how the environment lists them.  A plugin that fails to load,
  or claims a taken name (the first one registered keeps it), gives a one-line error naming its distribution and entry point when
  that name is used, and leaves the rest of the registry working.

This module sits at the bottom of the layers: it imports nothing of causalgraph but
:mod:`causalgraph.errors`.  The value check of each kind (a :class:`~causalgraph.tasks.Task`
record, an :class:`~causalgraph.encodings.Encoding` …) is handed in as ``coerce``.
"""

from __future__ import annotations

import difflib
import importlib
import re
import threading
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Callable, Generic, Iterator, Optional, Sequence, TypeVar

from .errors import ConfigError

__all__ = ["Registry", "did_you_mean", "load_target", "is_target", "record_name", "ENTRY_POINT_GROUPS"]

T = TypeVar("T")

#: The entry-point group each plugin kind is read from, by registry kind.
ENTRY_POINT_GROUPS = {"task": "causalgraph.tasks", "provider": "causalgraph.backends",
                      "encoding": "causalgraph.encodings", "metric": "causalgraph.metrics"}

# module.path:attr.path, as entry points write their targets.
_TARGET = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")


def did_you_mean(name: Any, known: Sequence[str]) -> str:
    """``"; did you mean 'x'?"`` for the closest of ``known`` to ``name``, or ``""`` when none is close.

    Examples
    --------
    >>> did_you_mean("graphxml", ["adjacency", "graphml"]), did_you_mean("zzz", ["adjacency"])
    ("; did you mean 'graphml'?", '')
    """
    close = difflib.get_close_matches(str(name), list(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def record_name(value: Any, record: type, name: Optional[str], caller: str) -> str:
    """The name to register ``value`` under: a ``record`` instance's own, or ``name`` for a lazy target.

    The one rule of the ``register_*`` functions that take a record or its ``"module:attr"`` target
    (``register_task``, ``register_encoding``, ``register_reducer``): a target needs ``name=`` (nothing
    is imported to read it), and a record's ``name=``, when given, must be its own.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Thing:
    ...     name: str
    >>> record_name(Thing("a"), Thing, None, "register_thing"), record_name("pkg:THING", Thing, "b", "register_thing")
    ('a', 'b')
    >>> record_name("pkg:THING", Thing, None, "register_thing")
    Traceback (most recent call last):
    ...
    causalgraph.errors.ConfigError: register_thing('pkg:THING'): a 'module:attr' target needs name= (the thing's name)
    """
    kind = record.__name__.lower()
    if isinstance(value, str):
        if not name:
            raise ConfigError(f"{caller}({value!r}): a 'module:attr' target needs name= (the {kind}'s name)")
        return name
    if not isinstance(value, record):
        raise ConfigError(f"{caller} takes a{'n' if record.__name__[0] in 'AEIOU' else ''} {record.__name__} "
                          f"record or a 'module:attr' target; found {type(value).__name__}")
    if name is not None and name != value.name:
        raise ConfigError(f"{caller}: name={name!r} differs from the {kind}'s own name {value.name!r}")
    return value.name


def is_target(value: Any) -> bool:
    """Whether ``value`` is a lazy ``"module:attr"`` target.

    Examples
    --------
    >>> is_target("causalgraph.llm.mock:MockBackend"), is_target("mock"), is_target(len)
    (True, False, False)
    """
    return isinstance(value, str) and _TARGET.fullmatch(value) is not None


def load_target(target: str) -> Any:
    """Import ``"module:attr"`` (the attribute may be dotted, ``"pkg.mod:Class.factory"``) and return it.

    Examples
    --------
    >>> load_target("causalgraph.errors:ConfigError").__name__
    'ConfigError'
    """
    if not is_target(target):
        raise ConfigError(f"target {target!r}: expected 'module:attribute'")
    module, _, attr = target.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class _Entry:
    target: Any               # the value, or a "module:attr" string not yet imported
    origin: Optional[str]     # "entry point 'x' (pkg:attr) of distribution 'd'" for a plugin, else None


def _distribution(ep: Any) -> str:
    dist = getattr(ep, "dist", None)
    if dist is None:
        return "?"
    version = getattr(dist, "version", None)
    return f"{dist.name} {version}" if version else str(dist.name)


class Registry(Generic[T]):
    """Names → values of one kind, with lazy targets, ``replace=`` and plugins from entry points.

    Parameters
    ----------
    kind
        What a value is, for messages (``"task"``, ``"encoding"`` …).
    group
        The entry-point group read for plugins (``None``: none).
    coerce
        ``coerce(name, obj) -> value``: checks (and may convert) an object before it is held,
        raising :class:`~causalgraph.errors.ConfigError` for one that cannot be used.  Lazy
        targets and plugins are checked when first resolved.
    builtins
        ``builtins(registry)``: registers the built-in values, called once on first use
        (before the plugins are read), so that the built-ins are imported only when needed.
    listing
        ``listing() -> names`` in the order messages list them (default: registration order).

    Examples
    --------
    >>> colours = Registry("colour", coerce=lambda name, obj: str(obj))
    >>> colours.register("sky", "blue")
    'blue'
    >>> colours.register("errors", "causalgraph.errors:__name__")   # lazy: imported when asked
    'causalgraph.errors:__name__'
    >>> colours.names(), colours.get("errors")
    (('sky', 'errors'), 'causalgraph.errors')
    >>> colours.register("sky", "azure")
    Traceback (most recent call last):
    ...
    causalgraph.errors.ConfigError: colour 'sky' is already registered; pass replace=True to replace it
    >>> colours.get("skye")
    Traceback (most recent call last):
    ...
    causalgraph.errors.ConfigError: unknown colour 'skye'; expected one of sky, errors; did you mean 'sky'?
    """

    def __init__(self, kind: str, *, group: Optional[str] = None,
                 coerce: Optional[Callable[[str, Any], T]] = None,
                 builtins: Optional[Callable[["Registry[T]"], None]] = None,
                 listing: Optional[Callable[[], Sequence[str]]] = None) -> None:
        self.kind = kind
        self.group = group
        self._coerce = coerce or (lambda name, obj: obj)
        self._builtins = builtins
        self._listing = listing
        # Built-ins and code registrations, in registration order; plugins apart, sorted, listed after
        # them, so that the order never depends on when the entry points were read.
        self._entries: dict[str, _Entry] = {}
        self._plugins: dict[str, _Entry] = {}
        self._values: dict[str, T] = {}
        # name -> why a plugin could not take it (a name already taken): raised when the name is used.
        self._conflicts: dict[str, str] = {}
        self._lock = threading.RLock()
        self._builtins_done = False
        self._ready = False     # built-ins loaded and entry points read
        self._loading = False

    # -- loading ----------------------------------------------------------------------------

    def _ensure(self, plugins: bool = True) -> None:
        """Load the built-ins (once), then, for ``plugins``, read the entry points (once)."""
        if self._ready:
            return
        # The lock is re-entrant: the thread loading the built-ins passes (and sees _loading) while
        # they register themselves; any other thread waits until they are all there.
        with self._lock:
            if self._ready or self._loading:
                return
            if not self._builtins_done:
                self._loading = True
                try:
                    if self._builtins is not None:
                        self._builtins(self)
                    self._builtins_done = True
                finally:
                    self._loading = False
            if plugins:
                if self.group:
                    self._read_entry_points()
                self._ready = True

    def _read_entry_points(self) -> None:
        eps = metadata.entry_points(group=self.group)
        # Sorted, so that the order (and which of two plugins claiming one name wins) never
        # depends on the order of sys.path or of the environment's metadata.
        for ep in sorted(eps, key=lambda e: (e.name, _distribution(e), e.value)):
            origin = f"entry point {ep.name!r} ({ep.value}) of distribution {_distribution(ep)!r} in group " \
                     f"{self.group!r}"
            taken = self._entries.get(ep.name) or self._plugins.get(ep.name)
            if taken is not None:
                if ep.name not in self._conflicts:
                    held = taken.origin or "causalgraph (or code run before it)"
                    self._conflicts[ep.name] = (f"{origin}: {self.kind} {ep.name!r} is already registered by "
                                                f"{held}; rename one of them")
                continue
            self._plugins[ep.name] = _Entry(ep.value, origin)

    def _resolve(self, name: str, entry: _Entry) -> T:
        target = entry.target
        try:
            obj = load_target(target) if isinstance(target, str) and (entry.origin or is_target(target)) else target
        except ConfigError:
            if entry.origin is None:
                raise
            raise ConfigError(f"{entry.origin} failed to load: its target is not 'module:attribute'") from None
        except Exception as exc:  # a plugin's import error must not escape as a traceback
            where = entry.origin or f"{self.kind} {name!r} ({target})"
            raise ConfigError(f"{where} failed to load: {type(exc).__name__}: {exc}") from exc
        try:
            return self._coerce(name, obj)
        except ConfigError as exc:
            if entry.origin is None:
                raise
            raise ConfigError(f"{entry.origin}: {exc}") from None

    # -- the mapping ------------------------------------------------------------------------

    def _entry(self, name: str) -> Optional[_Entry]:
        return self._entries.get(name) or self._plugins.get(name)

    def register(self, name: str, target: Any, *, replace: bool = False) -> Any:
        """Hold ``target`` (a value, or a lazy ``"module:attr"`` string) under ``name``; returns what is held.

        Raises
        ------
        ConfigError
            For a taken name without ``replace=True``, or a value ``coerce`` refuses.
        """
        # Registering reads no entry point, so that built-ins registered at import time stay cheap;
        # a plugin claiming a name taken here is reported when that name is used.
        self._ensure(plugins=False)
        with self._lock:
            if not isinstance(name, str) or not name:
                raise ConfigError(f"{self.kind} name {name!r}: expected a non-empty string")
            if (name in self._entries or name in self._plugins) and not replace:
                raise ConfigError(f"{self.kind} {name!r} is already registered; pass replace=True to replace it")
            lazy = is_target(target)
            value = target if lazy else self._coerce(name, target)
            self._values.pop(name, None)
            self._conflicts.pop(name, None)
            self._plugins.pop(name, None)
            self._entries[name] = _Entry(value, None)
            if not lazy:
                self._values[name] = value
            return value

    def unregister(self, name: str) -> None:
        """Remove ``name`` (an unknown name raises the did-you-mean error)."""
        self._ensure()
        with self._lock:
            if name not in self._entries and name not in self._plugins:
                raise ConfigError(self.unknown(name))
            self._entries.pop(name, None)
            self._plugins.pop(name, None)
            self._values.pop(name, None)
            self._conflicts.pop(name, None)

    def get(self, name: str) -> T:
        """The value of ``name``, importing a lazy target or plugin on first use.

        Raises
        ------
        ConfigError
            For an unknown name (one line, naming what is registered and the closest match),
            or a plugin that fails to load or claims a taken name.
        """
        self._ensure()
        if not isinstance(name, str):
            raise ConfigError(self.unknown(name))
        with self._lock:
            if name in self._conflicts:
                raise ConfigError(self._conflicts[name])
            if name in self._values:
                return self._values[name]
            entry = self._entry(name)
            if entry is None:
                raise ConfigError(self.unknown(name))
            value = self._resolve(name, entry)
            if self._entry(name) is entry:  # not replaced meanwhile (by the target's own import)
                self._values[name] = value
            return value

    def find(self, name: Any) -> Optional[T]:
        """The value of ``name``, or ``None`` when nothing is registered under it."""
        self._ensure()
        return self.get(name) if isinstance(name, str) and self._entry(name) is not None else None

    def raw(self, name: str) -> Any:
        """What is held for ``name`` without importing it: the value or its ``"module:attr"`` target."""
        self._ensure()
        entry = self._entry(name)
        if entry is None:
            raise ConfigError(self.unknown(name))
        return self._values.get(name, entry.target)

    def origin(self, name: str) -> Optional[str]:
        """Which plugin registered ``name`` (its entry point and distribution), ``None`` for causalgraph or code."""
        self._ensure()
        entry = self._entry(name)
        return entry.origin if entry is not None else None

    def names(self) -> tuple[str, ...]:
        """Every registered name, in registration order (built-ins, then code, then plugins sorted)."""
        self._ensure()
        return (*self._entries, *self._plugins)

    def values(self) -> tuple[T, ...]:
        """Every value, in :meth:`names` order (lazy targets and plugins are imported)."""
        return tuple(self.get(n) for n in self.names())

    def loaded(self) -> dict[str, T]:
        """The values already resolved, by name, in registration order (nothing is imported, no entry point read)."""
        self._ensure(plugins=False)
        return {n: self._values[n] for n in (*self._entries, *self._plugins) if n in self._values}

    def unknown(self, name: Any) -> str:
        """The one-line message for an unknown ``name``: what is registered and the closest match."""
        known = list(self._listing() if self._listing is not None else (*self._entries, *self._plugins))
        return f"unknown {self.kind} {name!r}; expected one of {', '.join(known)}{did_you_mean(name, known)}"

    def __contains__(self, name: object) -> bool:
        self._ensure()
        return isinstance(name, str) and self._entry(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    def __len__(self) -> int:
        return len(self.names())

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {len(self._entries) + len(self._plugins)} registered)"
