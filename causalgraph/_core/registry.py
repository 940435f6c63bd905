"""One registry kind for every extension point: tasks, backends, encodings, complexity metrics, reducers, graph file
formats and scoring metrics.

A :class:`Registry` maps names to values of one kind.  Every registry of causalgraph is one of
these, so they all follow the same rules:

* a value may be given as a lazy ``"module:attr"`` target, imported on first use (so that
  ``import causalgraph`` never loads openai, torch or a plugin's dependencies);
* a taken name is refused unless ``replace=True`` is passed, so nothing is overwritten silently;
* an unknown name raises :class:`~causalgraph.errors.ConfigError` in one line that lists what is
  registered and names the closest match ("did you mean");
* the registry also reads the entry points of its group (``causalgraph.tasks``,
  ``causalgraph.backends``, ``causalgraph.encodings``, ``causalgraph.metrics`` (complexity metrics),
  ``causalgraph.reducers``, ``causalgraph.formats``, ``causalgraph.scoring_metrics``) from the
  installed distributions: once, on first use (never
  while the command line's parser is built), sorted by entry-point name then distribution,
  so the order never depends on how the environment lists them;
* a plugin can only break itself.  A name causalgraph (or code run before the plugins are read)
  already holds stays theirs: the plugin is reported once, as a note naming its distribution, and
  ignored.  A plugin that fails to load (a missing module, an import that raises, a value of the
  wrong type) is left out of listings (:meth:`Registry.usable`) with a note, and gives a one-line
  error naming its distribution and entry point when its name is asked for; two plugins claiming
  one name give that error for the name.  :func:`plugin_rows` lists every installed extension and
  its status (``causalgraph plugins``).

This module sits at the bottom of the layers: it imports nothing of causalgraph but
:mod:`causalgraph.errors`.  The value check of each kind (a :class:`~causalgraph.tasks.Task`
record, an :class:`~causalgraph.encodings.Encoding` …) is handed in as ``coerce``.
"""

from __future__ import annotations

import difflib
import importlib
import logging
import re
import threading
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Callable, Generic, Iterator, Optional, Sequence, TypeVar

from ..errors import CausalGraphError, ConfigError

__all__ = ["Registry", "PluginRow", "plugin_rows", "did_you_mean", "load_target", "is_target", "record_name",
           "short_repr", "ENTRY_POINT_GROUPS"]

T = TypeVar("T")

#: The entry-point group each plugin kind is read from, by registry kind.
ENTRY_POINT_GROUPS = {"task": "causalgraph.tasks", "provider": "causalgraph.backends",
                      "encoding": "causalgraph.encodings", "metric": "causalgraph.metrics",
                      "reducer": "causalgraph.reducers", "format": "causalgraph.formats",
                      "scoring metric": "causalgraph.scoring_metrics"}

_log = logging.getLogger("causalgraph._core.registry")
# Notes already given in this process: a plugin is reported once, however often its registry is listed.
_SAID: set[str] = set()
_SAID_LOCK = threading.Lock()
# Every registry made, by entry-point group, so that plugin_rows() can ask each about its plugins.
_BY_GROUP: dict[str, "Registry"] = {}


def _note(message: str) -> None:
    """Log ``message`` as a warning once per process (the command line prints it on stderr)."""
    with _SAID_LOCK:
        if message in _SAID:
            return
        _SAID.add(message)
    _log.warning("note: %s", message)

# module.path:attr.path, as entry points write their targets.
_TARGET = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*")


def short_repr(value: Any, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters: how a message quotes a plugin's wrong value.

    A long list would make a one-line message a page.

    Examples
    --------
    >>> short_repr("seven"), len(short_repr(list(range(100))))
    ("'seven'", 80)
    """
    shown = repr(value)
    return shown if len(shown) <= limit else shown[:limit - 3] + "..."


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


def _dist_name_version(ep: Any) -> tuple[str, str]:
    dist = getattr(ep, "dist", None)
    if dist is None:
        return "?", ""
    return str(dist.name), str(getattr(dist, "version", None) or "")


def _distribution(ep: Any) -> str:
    name, version = _dist_name_version(ep)
    return f"{name} {version}" if version else name


# Control characters (an escape sequence in an entry point's target) shown as their \x codes:
# the messages naming a plugin go to a terminal.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _origin(ep: Any, group: Optional[str]) -> str:
    """How every message names an entry point: its name, target, distribution and group, one printable line."""
    target = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(ep.value))
    return f"entry point {ep.name!r} ({target}) of distribution {_distribution(ep)!r} in group {group!r}"


@dataclass(frozen=True)
class PluginRow:
    """One installed extension, as ``causalgraph plugins`` lists it.

    ``status`` is ``ok`` (it loads and is used), ``failed`` (it cannot be used; ``detail`` says
    why), ``shadowed`` (its name is causalgraph's own or another's, which keeps it; ``detail``
    names the holder) or ``unknown group`` (no registry reads it).
    """

    distribution: str
    version: str
    group: str
    name: str
    target: str
    status: str
    detail: str = ""

    def as_dict(self) -> dict:
        return {"distribution": self.distribution, "version": self.version, "group": self.group,
                "name": self.name, "target": self.target, "status": self.status, "detail": self.detail}


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
        # The names causalgraph itself registers (the builtins callback, or register(builtin=True)):
        # what help texts list, so that a parser never reads an entry point.
        self._builtin: list[str] = []
        # name -> why a plugin could not take it (two plugins claiming it): raised when the name is used.
        self._conflicts: dict[str, str] = {}
        # name -> why a plugin cannot be used (it failed to load, or gave a value of the wrong type).
        self._failed: dict[str, str] = {}
        # The entry points read, with what became of each: for plugin_rows().
        self._seen: list[tuple[Any, str, str]] = []      # (entry point, status, detail)
        self._lock = threading.RLock()
        self._builtins_done = False
        self._ready = False     # built-ins loaded and entry points read
        self._loading = False
        if group:
            _BY_GROUP[group] = self

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
            origin = _origin(ep, self.group)
            held = self._entries.get(ep.name)
            if held is not None:
                # A built-in (or code's) name stays what it is: the plugin is ignored, and said so once.
                owner = "causalgraph's own" if ep.name in self._builtin else "registered by code run before it"
                why = f"{self.kind} {ep.name!r} is {owner}"
                _note(f"plugin {origin} is ignored: {why}")
                self._seen.append((ep, "shadowed", why))
                continue
            other = self._plugins.get(ep.name)
            if other is not None:
                if ep.name not in self._conflicts:
                    self._conflicts[ep.name] = (f"{origin}: {self.kind} {ep.name!r} is already registered by "
                                                f"{other.origin}; rename one of them")
                self._seen.append((ep, "failed", f"{self.kind} {ep.name!r} is also claimed by {other.origin}"))
                continue
            self._plugins[ep.name] = _Entry(ep.value, origin)
            self._seen.append((ep, "", ""))

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
        except SystemExit as exc:
            # A plugin module that calls sys.exit() on import would end the whole command (exit code
            # its own, nothing printed): it only breaks itself, like any other import failure.
            if entry.origin is None:
                raise
            raise ConfigError(f"{entry.origin} failed to load: it called sys.exit({exc.code!r}) on import") from None
        try:
            return self._coerce(name, obj)
        except ConfigError as exc:
            if entry.origin is None:
                raise
            raise ConfigError(f"{entry.origin}: {exc}") from None
        except Exception as exc:  # a plugin's factory that raises when it is called
            if entry.origin is None:
                raise
            raise ConfigError(f"{entry.origin} failed to load: {type(exc).__name__}: {exc}") from exc
        except SystemExit as exc:
            if entry.origin is None:
                raise
            raise ConfigError(f"{entry.origin} failed to load: it called sys.exit({exc.code!r})") from None

    # -- the mapping ------------------------------------------------------------------------

    def _entry(self, name: str) -> Optional[_Entry]:
        return self._entries.get(name) or self._plugins.get(name)

    def register(self, name: str, target: Any, *, replace: bool = False, builtin: bool = False) -> Any:
        """Hold ``target`` (a value, or a lazy ``"module:attr"`` string) under ``name``; returns what is held.

        ``builtin=True`` marks one of causalgraph's own values (those the ``builtins`` callback
        registers are marked anyway): help texts list only these.

        Raises
        ------
        ConfigError
            For a taken name without ``replace=True``, or a value ``coerce`` refuses.
        """
        # Registering reads no entry point, so that built-ins registered at import time stay cheap;
        # a plugin claiming a name taken here is ignored, with a note, when the entry points are read.
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
            self._failed.pop(name, None)
            self._plugins.pop(name, None)
            self._entries[name] = _Entry(value, None)
            if (builtin or self._loading) and name not in self._builtin:
                self._builtin.append(name)
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
            self._failed.pop(name, None)
            if name in self._builtin:
                self._builtin.remove(name)

    def get(self, name: str) -> T:
        """The value of ``name``, importing a lazy target or plugin on first use.

        Raises
        ------
        ConfigError
            For an unknown name (one line, naming what is registered and the closest match),
            or a plugin that fails to load, gave a value of the wrong type or shares its name
            with another plugin.
        """
        self._ensure()
        if not isinstance(name, str):
            raise ConfigError(self.unknown(name))
        with self._lock:
            if name in self._conflicts:
                raise ConfigError(self._conflicts[name])
            if name in self._failed:
                raise ConfigError(self._failed[name])
            if name in self._values:
                return self._values[name]
            entry = self._entry(name)
            if entry is None:
                raise ConfigError(self.unknown(name))
            try:
                value = self._resolve(name, entry)
            except ConfigError as exc:
                if entry.origin is not None:
                    self._failed[name] = " ".join(str(exc).split())
                raise
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

    def origin(self, name: str, *, read: bool = True) -> Optional[str]:
        """Which plugin registered ``name`` (its entry point and distribution), ``None`` for causalgraph or code.

        With ``read=False`` no entry point is read (``None`` while the plugins are unread): for
        checks that run while the built-ins register themselves.
        """
        if read:
            self._ensure()
        entry = self._entry(name)
        return entry.origin if entry is not None else None

    def describe(self, name: str) -> str:
        """``name`` as messages name it: ``metric 'x'``, and the plugin's entry point and distribution for a plugin.

        Examples
        --------
        >>> Registry("thing").describe("x")
        "thing 'x'"
        """
        origin = self.origin(name) if isinstance(name, str) else None
        return f"{self.kind} {name!r}" + (f" ({origin})" if origin else "")

    def fail(self, name: str, why: str) -> ConfigError:
        """Mark plugin ``name`` unusable for ``why`` (one line, naming it) and return the error to raise.

        For a value a plugin gives at use time (a metric function returning text): from then on the
        plugin is left out of :meth:`usable`, with a note, and asking for it by name raises this
        error.  A built-in is never marked (its error is a bug to raise, not a plugin to leave out).
        """
        msg = " ".join(why.split())
        with self._lock:
            if self.origin(name) is not None:
                self._failed[name] = msg
                self._values.pop(name, None)
        return ConfigError(msg)

    def refuse(self, name: str, what: str, value: Any, expected: str, *, given: str = "") -> ConfigError:
        """:meth:`fail` for a value of the wrong type: ``<kind 'name' (its plugin)>: its <what> returned …``.

        The one message of every kind (a task's ``build_items``, a provider's factory, an encoder, a
        metric, a reducer's estimator): the value (its repr cut at 80 characters) and its type,
        ``given`` (what it was called with, ``" for n=3"``), then what was ``expected``.

        Examples
        --------
        >>> things = Registry("thing")
        >>> str(things.refuse("x", "function", "seven", "a number", given=" for n=3"))
        "thing 'x': its function returned 'seven' (str) for n=3; expected a number"
        """
        return self.fail(name, f"{self.describe(name)}: its {what} returned {short_repr(value)} "
                               f"({type(value).__name__}){given}; expected {expected}")

    def call(self, name: str, what: str, function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        """``function(*args, **kwargs)``, a function of ``name``'s value; a plugin's that raises or exits is failed.

        The one guard of every kind around a plugin's code run at use time (a task's ``build_items``,
        a provider's factory, an encoder, a reducer's estimator): an exception, or ``sys.exit()``,
        becomes :meth:`broke`'s one line naming the plugin, never a traceback or the end of the
        command.  causalgraph's own errors pass as they are (already one line: a variant a task
        lacks …), and so does anything a built-in or code's value raises.

        Examples
        --------
        >>> Registry("thing").call("x", "function", divmod, 7, 2)
        (3, 1)
        """
        try:
            return function(*args, **kwargs)
        except CausalGraphError:
            raise
        except (Exception, SystemExit) as exc:
            if self.origin(name) is None:
                raise
            raise self.broke(name, what, exc) from exc

    def broke(self, name: str, what: str, exc: BaseException) -> ConfigError:
        """:meth:`fail` for a plugin's function that raised: ``<kind 'name' (its plugin)>: its <what> raised …``.

        Examples
        --------
        >>> str(Registry("thing").broke("x", "function", ValueError("no")))
        "thing 'x': its function raised ValueError: no"
        """
        # sys.exit(3) is SystemExit: 3; an exception its name and message.
        return self.fail(name, f"{self.describe(name)}: its {what} raised {type(exc).__name__}: {exc}")

    def names(self, *, plugins: bool = True) -> tuple[str, ...]:
        """Every registered name, in registration order (built-ins, then code, then plugins sorted).

        With ``plugins=False``, the names of causalgraph and of code only, and no entry point is
        read: what help texts list, so that building the command line's parser never touches a plugin.
        """
        if not plugins:
            self._ensure(plugins=False)
            return tuple(self._entries)
        self._ensure()
        return (*self._entries, *self._plugins)

    def usable(self) -> dict[str, T]:
        """Every value that can be used, by name, in :meth:`names` order; plugins that cannot are left out.

        A plugin that fails to load, gives a value of the wrong type or shares its name with another
        plugin is skipped with a note (once per process) pointing at ``causalgraph plugins``; a
        built-in that fails raises.
        """
        out: dict[str, T] = {}
        for n in self.names():
            try:
                out[n] = self.get(n)
            except ConfigError as exc:
                if n in self._entries:
                    raise
                _note(f"{' '.join(str(exc).split())}; left out (see `causalgraph plugins`)")
        return out

    def values(self) -> tuple[T, ...]:
        """Every usable value, in :meth:`names` order (lazy targets and plugins are imported; see :meth:`usable`)."""
        return tuple(self.usable().values())

    def loaded(self) -> dict[str, T]:
        """The values already resolved, by name, in registration order (nothing is imported, no entry point read)."""
        self._ensure(plugins=False)
        return {n: self._values[n] for n in (*self._entries, *self._plugins) if n in self._values}

    def plugins(self) -> list[PluginRow]:
        """Every entry point of this registry's group, with its status; each usable one is imported to tell."""
        self._ensure()
        rows = []
        for ep, status, detail in list(self._seen):
            if not status:
                try:
                    self.get(ep.name)
                    status = "ok"
                except ConfigError as exc:
                    status, detail = "failed", " ".join(str(exc).split())
                else:
                    if ep.name in self._failed:
                        status, detail = "failed", self._failed[ep.name]
            dist, version = _dist_name_version(ep)
            rows.append(PluginRow(dist, version, str(self.group), ep.name, ep.value, status,
                                  self._short(ep, detail)))
        return rows

    def _short(self, ep: Any, detail: str) -> str:
        # The row names the plugin already: its detail keeps only why ("ModuleNotFoundError: …").
        for where in (f"{self.kind} {ep.name!r} (", ""):
            origin = f"{where}{_origin(ep, self.group)}{')' if where else ''}"
            if detail.startswith(origin):
                detail = detail[len(origin):].lstrip(":").strip()
                return detail[len("failed to load:"):].strip() if detail.startswith("failed to load:") else detail
        return detail

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


def plugin_rows() -> list[PluginRow]:
    """Every installed extension of causalgraph: distribution, version, group, name, target and status.

    Asks the registry of each group of :data:`ENTRY_POINT_GROUPS` made so far (a registry is made
    when the module of its kind is imported: the caller imports them, as ``causalgraph plugins``
    does, since this module sits below them) and lists the entry points of any other group whose
    name starts with ``causalgraph.`` with status ``unknown group``.  Sorted by group, name,
    distribution.

    Examples
    --------
    >>> [r for r in plugin_rows() if r.distribution == "causalgraph"]
    []
    """
    rows: list[PluginRow] = []
    for group in ENTRY_POINT_GROUPS.values():
        registry = _BY_GROUP.get(group)
        if registry is not None:
            rows += registry.plugins()
    known = set(ENTRY_POINT_GROUPS.values())
    seen = set()
    for dist in metadata.distributions():
        for ep in dist.entry_points:
            key = (str(dist.name), ep.group, ep.name, ep.value)
            if ep.group.startswith("causalgraph.") and ep.group not in known and key not in seen:
                seen.add(key)
                rows.append(PluginRow(str(dist.name), str(dist.version or ""), ep.group, ep.name, ep.value,
                                      "unknown group", f"no registry reads {ep.group!r}; groups: "
                                      f"{', '.join(sorted(known))}"))
    return sorted(rows, key=lambda r: (r.group, r.name, r.distribution, r.version, r.target))
