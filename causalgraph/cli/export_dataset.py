"""``causalgraph export-dataset DIR``: every task's items as a Hugging Face ``datasets`` folder."""

from __future__ import annotations

import sys

from .._core.wording import plural
from ._common import (add_data_option, add_format_option, add_graph_edit_option, add_list_option, add_prompts_option,
                      emit_table, path_arg)
from ..interop.export import export_dataset

__all__ = ["register", "run"]


def register(sub) -> None:
    p = sub.add_parser(
        "export-dataset", help="write every task's items (all variants) as a Hugging Face datasets folder",
        description="Write the items of every task (or of --task T …), every prompt variant, as Parquet files and a "
                    "README.md dataset card with one configuration per task and the corpora's licences, so that "
                    "datasets.load_dataset(DIR, name=TASK) loads them without causalgraph.")
    p.add_argument("dir", metavar="DIR", type=path_arg, help="folder to write (new or empty, or pass --overwrite)")
    add_list_option(p, "--task", metavar="TASK", help="tasks to export (default: every task of `causalgraph bench "
                                                     "tasks`)")
    add_data_option(p, help_extra="; used for every exported task (default: each task's own corpus)")
    add_prompts_option(p, help_extra="; tasks without that catalog keep their own prompts")
    p.add_argument("--overwrite", action="store_true", help="write into a non-empty folder, replacing its files")
    add_graph_edit_option(p)
    p.add_argument("--no-progress", action="store_true",
                   help="no progress on stderr (default: a bar on a terminal, else a line every 10 seconds)")
    add_format_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    tasks = args.task  # None: every task; an empty --task is refused by the parser, never read as "every task"
    res = export_dataset(args.dir, tasks, data=args.data, overwrite=args.overwrite, prompts=args.prompts,
                         graph_edit=args.graph_edit, progress=False if args.no_progress else "auto")
    total = sum(c["items"] for c in res.configs.values())
    print(f"wrote {plural(len(res.configs), 'configuration')} ({plural(total, 'item')}) to {res.path}; load one with "
          f"datasets.load_dataset({str(res.path)!r}, name=TASK, split='test')", file=sys.stderr)
    rows = [{"config": name, "items": c["items"], "variants": len(c["variants"]), "file": c["file"],
             "corpus": (c.get("corpus") or {}).get("name")} for name, c in res.configs.items()]
    emit_table(rows, args.format, columns=["config", "items", "variants", "file", "corpus"])
    return 0
