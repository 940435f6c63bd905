"""``causalgraph bench import-inspect LOG``: an inspect_ai eval log as a run folder."""

from __future__ import annotations

import sys

from .._core.wording import plural
from ._common import add_format_option, emit_table
from ..bench.scoring import agreement_columns, report_rows
from ..interop.inspect_log import import_inspect_log

__all__ = ["register"]

_COLUMNS = ["variant", "items", "errors", "parse_fail_rate", "precision", "recall", "f1", "f1_ci95"]


def register(sub) -> None:
    """Add ``import-inspect`` to the ``bench`` subcommands."""
    p = sub.add_parser(
        "import-inspect", help="turn an inspect_ai eval log of a causalgraph/<task> task into a run folder",
        description="Read an inspect eval log (.eval or .json) of one of causalgraph's inspect tasks and write a run "
                    "folder (manifest.json, responses.jsonl, metrics.json) that bench report, stats and view read. "
                    "Answers are parsed and scored as in bench run.")
    p.add_argument("log", metavar="LOG", help="inspect eval log file")
    p.add_argument("--out", metavar="RUN", help="run directory (default runs/<task>__<model>__<variants>); a folder "
                                                "holding the same task, model and parameters gets the items it lacks")
    p.add_argument("--epoch", type=int, metavar="N",
                   help="import only epoch N, one answer per item (default: every epoch, as a run with epochs that "
                        "`bench report --reducer` reduces)")
    add_format_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    res = import_inspect_log(args.log, args.out, epoch=args.epoch)
    print(f"run {res.path}: {plural(res.written, 'line')} imported from {args.log} "
          f"({plural(res.errors, 'failed sample')}), "
          f"{plural(res.skipped, 'sample' if res.epochs > 1 else 'item')} already there", file=sys.stderr)
    rows = [r for r in report_rows(res.metrics, run_name=str(res.path)) if not str(r["variant"]).startswith("[")]
    emit_table(rows, args.format, columns=_COLUMNS + agreement_columns(rows))
    return 0
