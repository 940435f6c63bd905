"""``causalgraph items``: benchmark items of one task and prompt variant (or a Batch API input file)."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any, Optional, Sequence

from ..datasets import load_corpus
from ..encodings import ORDERS, encoding_names, get_encoding
from ..errors import ConfigError
from ..metrics.chains import RULES
from ..graph.naming import NAME_SCHEMES
from ..tasks import get_task
from ._common import add_data_option, add_graph_edit_option, add_prompts_option, emit_table, path_arg
from ..llm.openai_batch import request_line
from .._core.outputs import output_file
from ..interop.export import write_items_parquet

__all__ = ["register", "write_openai_batch"]


def register(sub) -> None:
    p = sub.add_parser(
        "items", help="build benchmark items (prompt, gold, meta) for a task and prompt variant",
        description="Build the benchmark items of one task and prompt variant: JSON lines by default, or an "
                    "OpenAI Batch API input file with --openai-batch.")
    add_data_option(p, by_task=True)
    p.add_argument("--task", required=True, metavar="TASK",
                   help="any task of `causalgraph bench tasks` (corri, ccr-member, pubmedcausal-extract …)")
    p.add_argument("--variant", required=True, metavar="ID",
                   help="variant id as in the paper (0_1, RC_F_2, A_5, SN_4, ML_6, CoT_5 …); "
                        "see docs/prompts.md")
    p.add_argument("--rule", choices=list(RULES), default=None,
                   help="chain rule for CCR golds (default: path; CCR tasks only)")
    p.add_argument("--order", choices=list(ORDERS), default=None,
                   help="edge order of graphs in prompts: paper (default; as the ClimateCause authors sent "
                        "them) or data (tasks whose prompts hold a graph)")
    p.add_argument("--encoding", default=None, metavar="NAME",
                   help=f"write the graph of a graph variant in this encoding: {', '.join(encoding_names(plugins=False))} "
                        "or one a plugin adds (A_5 with matrix is MX_5; see docs/prompts.md)")
    p.add_argument("--event-names", choices=list(NAME_SCHEMES), default=None,
                   help="show events under their real names (default) or as integers, letters or nonsense words "
                        "(prompts that hold the graph only; the variant id gets .<scheme>)")
    add_prompts_option(p)
    add_graph_edit_option(p)
    p.add_argument("--format", choices=["jsonl", "json", "table", "csv", "parquet"], default="jsonl",
                   help="output format (default: jsonl); parquet (binary) needs -o FILE or a redirected stdout")
    p.add_argument("-o", "--output", metavar="FILE", type=path_arg, default=None, help="write to FILE instead of stdout")
    p.add_argument("--limit", type=int, default=None, metavar="N", help="only the first N items")
    p.add_argument("--openai-batch", metavar="FILE", default=None,
                   help="write an OpenAI Batch API input file (JSONL) instead of printing items")
    p.add_argument("--model", default=None, help="model name for --openai-batch, e.g. gpt-5.1")
    p.set_defaults(func=run)


def write_openai_batch(its, path, model: str) -> int:
    """Write one Batch API request per item; returns the number written.

    Each line is ``{"custom_id": item.id, "method": "POST", "url":
    "/v1/chat/completions", "body": {"model": model, "messages": […]}}``.
    Nothing else (no key, no gold) goes into the file.
    """
    if not model:
        raise ConfigError("--openai-batch needs --model (e.g. --model gpt-5.1)")
    path = Path(path)
    if path.parent and not path.parent.exists():
        raise ConfigError(f"cannot write {path}: folder {path.parent} does not exist")

    with path.open("w", encoding="utf-8") as fh:
        for it in its:
            fh.write(json.dumps(request_line(it.id, {"model": model, "messages": it.messages()}), ensure_ascii=False))
            fh.write("\n")
    return len(its)


def run(args) -> int:
    if args.output and args.format != "parquet" and not args.openai_batch:
        with open(output_file(args.output, "--output"), "w", encoding="utf-8") as fh, contextlib.redirect_stdout(fh):
            return _run(args)
    return _run(args)


def _run(args) -> int:
    if args.limit is not None and args.limit < 0:
        raise ConfigError(f"--limit must be >= 0, got {args.limit}")
    if args.encoding is not None:
        get_encoding(args.encoding)  # one line for an unknown (or broken plugin) encoding, before any corpus
    task = get_task(args.task)
    its = task.items(load_corpus(task.data_source(args.data)), args.variant,
                     rule=args.rule, order=args.order, encoding=args.encoding,
                     event_names=args.event_names, prompts=args.prompts,
                     graph_edit=args.graph_edit)
    if args.limit is not None:
        its = its[: args.limit]
    if args.openai_batch:
        n = write_openai_batch(its, args.openai_batch, args.model)
        print(f"wrote {n} requests to {args.openai_batch}", file=sys.stderr)
        return 0
    if args.format == "parquet":
        write_parquet_output(its, args.output)
        return 0
    if args.format == "jsonl":
        for it in its:
            sys.stdout.write(json.dumps(it.to_dict(), ensure_ascii=False) + "\n")
        return 0
    if args.format == "json":
        json.dump([it.to_dict() for it in its], sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    rows = [{"id": it.id, "gold": it.gold, "statement_id": it.meta.get("statement_id"), "prompt": it.prompt}
            for it in its]
    emit_table(rows, args.format, columns=["id", "gold", "statement_id", "prompt"])
    return 0


def write_parquet_output(items: Sequence[Any], output: Optional[str]) -> int:
    """``items --format parquet``: to the file ``output``, else to stdout when it is not a terminal.

    Raises
    ------
    ConfigError
        When there is no ``output`` and stdout is a terminal (binary data
        there would only garble it).
    """
    if output:
        return write_items_parquet(items, output_file(output, "--output"))
    if sys.stdout.isatty() or getattr(sys.stdout, "buffer", None) is None:
        raise ConfigError("--format parquet writes binary data: pass -o FILE, or redirect stdout to a file")
    buf = io.BytesIO()
    n = write_items_parquet(items, buf)
    sys.stdout.flush()
    sys.stdout.buffer.write(buf.getvalue())
    sys.stdout.buffer.flush()
    return n
