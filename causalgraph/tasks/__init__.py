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
``tasks()`` function plus one line in ``_FAMILIES``.
"""

from __future__ import annotations

import importlib
import threading

from ..errors import ConfigError
from .base import KINDS, ItemView, Task

__all__ = ["Task", "ItemView", "KINDS", "register_task", "get_task", "list_tasks", "builtin_tasks", "find_task",
           "legacy_item_view"]

#: The modules that declare built-in tasks, loaded on first use.
_FAMILIES = ("causalgraph.tasks.climatecause", "causalgraph.tasks.pubmedcausal", "causalgraph.tasks.annotation",
             "causalgraph.tasks.structure", "causalgraph.tasks.identification")

_TASKS: dict[str, Task] = {}
_BUILTIN: list[str] = []
_loaded = False
_lock = threading.RLock()


def _load() -> None:
    global _loaded
    if _loaded:
        return
    with _lock:
        if _loaded:
            return
        for name in _FAMILIES:
            for task in importlib.import_module(name).tasks():
                # A task registered by the user before the first lookup keeps its place.
                _TASKS.setdefault(task.name, task)
                _BUILTIN.append(task.name)
        _loaded = True


def register_task(task: Task, *, replace: bool = False) -> Task:
    """Add a task to the list (``replace=True`` to override one of the same name).

    Examples
    --------
    >>> from causalgraph.bench import Item
    >>> task = Task(name="demo-yesno", labels=("yes", "no"), positive="yes",
    ...             build_items=lambda corpus, variant: [Item("d1", "demo-yesno", variant, "Yes?", "yes")],
    ...             list_variants=lambda: ["v1"])
    >>> register_task(task, replace=True).name
    'demo-yesno'
    """
    _load()
    if task.name in _TASKS and not replace:
        raise ConfigError(f"task {task.name!r} is already registered (pass replace=True to override it)")
    _TASKS[task.name] = task
    return task


def list_tasks() -> list[str]:
    """Names of every task, sorted.

    Examples
    --------
    >>> "ccr-member" in list_tasks() and "pubmedcausal-extract" in list_tasks()
    True
    """
    _load()
    return sorted(_TASKS)


def builtin_tasks() -> list[str]:
    """Names of the tasks causalgraph itself declares (its families), sorted; no task registered later.

    Examples
    --------
    >>> "corri" in builtin_tasks()
    True
    """
    _load()
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
    _load()
    try:
        return _TASKS[name]
    except KeyError:
        raise ConfigError(f"unknown task {name!r}; expected one of {', '.join(list_tasks())}") from None


def find_task(name) -> "Task | None":
    """The registered :class:`Task` called ``name``, or ``None`` (a run of a task no longer registered).

    Examples
    --------
    >>> find_task("corri").kind, find_task("no-such-task")
    ('binary', None)
    """
    _load()
    return _TASKS.get(str(name)) if name is not None else None


def legacy_item_view(records) -> "ItemView | None":
    """The item view of the records of a task that is not registered here, read from their shape.

    Only for old run folders whose task is gone: a registered task says its
    :attr:`Task.item_view` itself.  Records holding the gold pairs in
    ``meta["pairs"]`` are shown as extraction items; records whose answer or
    gold is an annotation (JSON with ``relations``) as annotation items.

    Examples
    --------
    >>> legacy_item_view([{"meta": {"pairs": [{"cause": "a", "effect": "b"}]}, "label": None}]).name
    'extraction'
    >>> legacy_item_view([{"meta": {}, "gold": "yes", "label": "no"}]) is None
    True
    """
    import json

    from .annotation import ANNOTATION_VIEW
    from .pubmedcausal import EXTRACTION_VIEW

    for r in records:
        meta = r.get("meta") or {}
        if isinstance(meta.get("pairs"), list) and (r.get("label") is None or isinstance(r.get("label"), list)):
            return EXTRACTION_VIEW
        label = r.get("label")
        if isinstance(label, dict) and "relations" in label:
            return ANNOTATION_VIEW
        gold = r.get("gold")
        if isinstance(gold, str) and gold.lstrip().startswith("{"):
            try:
                obj = json.loads(gold)
            except ValueError:
                continue
            if isinstance(obj, dict) and "relations" in obj:
                return ANNOTATION_VIEW
    return None
