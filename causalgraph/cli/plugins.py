"""``causalgraph plugins``: every installed extension, its distribution, version, group, name and status."""

from __future__ import annotations

import sys

# Importing each kind's module makes its registry, which plugin_rows() then asks about its plugins.
from .. import encodings as _encodings, tasks as _tasks  # noqa: F401
from ..bench import epochs as _epochs  # noqa: F401
from ..llm import registry as _providers  # noqa: F401
from ..metrics import complexity as _metrics  # noqa: F401
from .. import readwrite as _formats  # noqa: F401
from ..scoring import scoring_metrics as _scoring  # noqa: F401
from .._core.registry import ENTRY_POINT_GROUPS, plugin_rows
from ._common import add_format_option, emit_table

__all__ = ["register", "run", "COLUMNS"]

#: The columns of ``causalgraph plugins``.
COLUMNS = ["distribution", "version", "group", "name", "target", "status", "detail"]


def register(sub) -> None:
    p = sub.add_parser(
        "plugins", help="list installed plugins (tasks, backends, encodings, complexity metrics, reducers, graph formats, "
             "scoring metrics) and their status",
        description="List every installed extension of causalgraph: its distribution, version, entry-point group "
                    f"({', '.join(ENTRY_POINT_GROUPS.values())}), name, target and status: ok; failed (it cannot "
                    "be used: the detail says why, and a command asking for it by name says so in one line); "
                    "shadowed (the name is causalgraph's own, which keeps it). Each plugin is imported to tell.")
    add_format_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    rows = [r.as_dict() for r in plugin_rows()]
    if not rows:
        print("causalgraph plugins: note: no plugin is installed (no entry point in the groups "
              f"{', '.join(ENTRY_POINT_GROUPS.values())})", file=sys.stderr)
    emit_table(rows, args.format, columns=COLUMNS, max_width=120)
    return 0
