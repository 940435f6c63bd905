"""Every benchmark task, in one list: name → :class:`Task` (items, parser, scorer, default data).

Tasks come in families, one module each, and each module's ``tasks()``
returns the :class:`Task` records it declares:

* :mod:`causalgraph.tasks.climatecause` — the ClimateCause paper's tasks
  (CorrI, CorrI+RC, CCR membership and position, with and without ECI) and
  multi-hop CorrI, one per task of the prompt catalog;
* :mod:`causalgraph.tasks.pubmedcausal` — PubMedCausal extraction and
  detection (App. E);
* :mod:`causalgraph.tasks.annotation` — the annotator (statement →
  ClimateCause-style relations).

The families are loaded on first use (so ``import causalgraph`` stays
light), then :func:`register_task` adds any other task — a study's own, or a
toy task in a test — and the runner, ``bench report``, ``stats`` and the
viewer handle it like the built-in ones.  Adding a family is one module with a
``tasks()`` function plus one line in ``_FAMILIES``.  An installed distribution
adds a task through the entry-point group ``causalgraph.tasks`` (name: the
task's name, value: ``"module:attr"`` of its :class:`Task` record, or of a
function returning it); the list is a :class:`causalgraph._core.registry.Registry`.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from typing import Any, Callable

from ..errors import ConfigError
from .._core.registry import ENTRY_POINT_GROUPS, Registry, load_target, record_name
from ..taskkit.item import Item
from .base import Task
from .kinds import KINDS, AnswerKind, Binary, Custom, EventSet, GraphFirst, ItemView, Multiclass, Pairs, Signs

__all__ = ["Task", "AnswerKind", "Binary", "Multiclass", "EventSet", "Pairs", "Custom", "Signs", "GraphFirst",
           "ItemView", "KINDS", "register_task", "get_task", "list_tasks", "usable_tasks", "builtin_tasks",
           "find_task",
           "legacy_item_view", "TASKS"]

#: The modules that declare built-in tasks, loaded on first use.
_FAMILIES = ("causalgraph.tasks.climatecause", "causalgraph.tasks.pubmedcausal", "causalgraph.tasks.annotation",
             "causalgraph.tasks.structure", "causalgraph.tasks.identification", "causalgraph.tasks.net_effect")

_BUILTIN: list[str] = []


def _load_families(registry: Registry) -> None:
    names = []
    for family in _FAMILIES:
        for task in importlib.import_module(family).tasks():
            # A task registered while the families load (by a family's own import) keeps its place.
            if task.name not in registry.names():
                registry.register(task.name, task)
            names.append(task.name)
    _BUILTIN[:] = names


def _check_task(name: str, obj) -> Task:
    # A plugin may point at the record or at a function that builds it (so its import stays cheap).
    task = obj if isinstance(obj, Task) or not callable(obj) else obj()
    if not isinstance(task, Task):
        raise ConfigError(f"task {name!r}: expected a Task record (or a function returning one); found "
                          f"{type(task).__name__}")
    if task.name != name:
        raise ConfigError(f"task {name!r}: the Task record is named {task.name!r}; the registered name must be "
                          "the task's own")
    if TASKS.origin(name, read=False) is not None:
        # A plugin's functions are checked where they answer, so that a wrong value is refused naming
        # the plugin (and leaves it out of `bench tasks`), never passed on to the runner.
        task = dataclasses.replace(task, build_items=_Checked(name, task.build_items, "build_items", _items),
                                   list_variants=_Checked(name, task.list_variants, "list_variants", _variants))
    return task


def _items(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and all(isinstance(it, Item) for it in value)


def _variants(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and all(isinstance(v, str) and v for v in value)


_EXPECTED = {"build_items": "a list of Item records", "list_variants": "a list of variant ids (non-empty strings)"}


class _Checked:
    """A plugin task's function whose return value (and any exception) is refused naming the plugin."""

    __slots__ = ("name", "function", "what", "ok")

    def __init__(self, name: str, function: Callable, what: str, ok: Callable[[Any], bool]) -> None:
        self.name, self.function, self.what, self.ok = name, function, what, ok

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        value = TASKS.call(self.name, self.what, self.function, *args, **kwargs)
        if not self.ok(value):
            raise TASKS.refuse(self.name, self.what, value, _EXPECTED[self.what])
        return value


#: Every task by name: the built-in families (loaded on first use), those registered with
#: :func:`register_task`, and plugins of the entry-point group ``causalgraph.tasks``.
TASKS: Registry[Task] = Registry("task", group=ENTRY_POINT_GROUPS["task"], coerce=_check_task,
                                 builtins=_load_families, listing=lambda: sorted(TASKS.names()))


def register_task(task: "Task | str", *, replace: bool = False, name: "str | None" = None) -> "Task | str":
    """Add a task to the list (``replace=True`` to override one of the same name).

    ``task`` is a :class:`Task`, or the lazy ``"module:attr"`` target of one (then ``name``
    says its name; it is imported when first asked for).

    Examples
    --------
    >>> from causalgraph.taskkit import Item
    >>> task = Task(name="demo-yesno", answers=Binary(labels=("yes", "no"), positive="yes"),
    ...             build_items=lambda corpus, variant: [Item("d1", "demo-yesno", variant, "Yes?", "yes")],
    ...             list_variants=lambda: ["v1"])
    >>> register_task(task, replace=True).name
    'demo-yesno'
    >>> TASKS.unregister("demo-yesno")
    """
    name = record_name(task, Task, name, "register_task")
    if isinstance(task, str):
        return TASKS.register(name, task, replace=replace)
    if task.name in TASKS and not replace:
        raise ConfigError(f"task {task.name!r} is already registered (pass replace=True to override it)")
    return TASKS.register(task.name, task, replace=True)


def usable_tasks() -> dict[str, Task]:
    """Every task that can be used, by name, sorted; a plugin task that fails to load is left out with a note.

    Examples
    --------
    >>> "corri" in usable_tasks()
    True
    """
    return dict(sorted(TASKS.usable().items()))


def list_tasks() -> list[str]:
    """Names of every task, sorted.

    Examples
    --------
    >>> "ccr-member" in list_tasks() and "pubmedcausal-extract" in list_tasks()
    True
    """
    return sorted(TASKS.names())


def builtin_tasks() -> list[str]:
    """Names of the tasks causalgraph itself declares (its families), sorted; no task registered later.

    Examples
    --------
    >>> "corri" in builtin_tasks()
    True
    """
    TASKS.names()  # loads the families
    return sorted(_BUILTIN)


def get_task(name: str) -> Task:
    """The :class:`Task` called ``name``.

    Raises
    ------
    ConfigError
        When no task of that name exists.

    Examples
    --------
    >>> get_task("corri").labels
    ('positive', 'negative')
    """
    return TASKS.get(name)


def find_task(name) -> "Task | None":
    """The registered :class:`Task` called ``name``, or ``None`` (a run of a task no longer registered).

    Examples
    --------
    >>> find_task("corri").kind, find_task("no-such-task")
    ('binary', None)
    """
    return TASKS.find(str(name)) if name is not None else None


#: The item views the guess of :func:`legacy_item_view` returns, named lazily so that the families they
#: belong to still load on first use of the task list.
_LEGACY_VIEWS = {"extraction": "causalgraph.tasks.pubmedcausal:EXTRACTION_VIEW",
                 "annotation": "causalgraph.tasks.annotation:ANNOTATION_VIEW"}


def legacy_item_view(records) -> "ItemView | None":
    """The item view of the records of a task that is not registered here, read from their shape.

    Only for old run folders whose task is gone: a registered task says its
    :attr:`Pairs.item_view` itself.  Records holding the gold pairs in
    ``meta["pairs"]`` are shown as extraction items; records whose answer or
    gold is an annotation (JSON with ``relations``) as annotation items.

    Examples
    --------
    >>> from causalgraph.runlog import RunRecord
    >>> legacy_item_view([RunRecord("old", "v", "i", meta={"pairs": [{"cause": "a", "effect": "b"}]})]).name
    'extraction'
    >>> legacy_item_view([RunRecord("old", "v", "i", gold="yes", label="no")]) is None
    True
    """
    for r in records:
        meta = r.meta or {}
        if isinstance(meta.get("pairs"), list) and (r.label is None or isinstance(r.label, list)):
            return load_target(_LEGACY_VIEWS["extraction"])
        label = r.label
        if isinstance(label, dict) and "relations" in label:
            return load_target(_LEGACY_VIEWS["annotation"])
        gold = r.gold
        if isinstance(gold, str) and gold.lstrip().startswith("{"):
            try:
                obj = json.loads(gold)
            except ValueError:
                continue
            if isinstance(obj, dict) and "relations" in obj:
                return load_target(_LEGACY_VIEWS["annotation"])
    return None
