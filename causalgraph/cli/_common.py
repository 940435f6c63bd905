"""Shared pieces of the command line: ``--data``, ``--format`` and table output."""

from __future__ import annotations

import csv
import io
import json
import math
import sys
from typing import Any, Iterable, Optional, Sequence

__all__ = ["add_data_option", "add_split_option", "add_rule_option", "add_format_option", "add_graph_edit_option",
           "find_statement",
           "emit_table", "emit_json", "to_jsonable"]

FORMATS = ("table", "csv", "json")


def add_data_option(parser, *, help_extra: str = "") -> None:
    """``--data NAME|PATH``: a dataset name, a file or a folder."""
    parser.add_argument(
        "--data", metavar="NAME|PATH", default=None,
        help="dataset name (climatecause, pubmedcausal[:train|:test]), a corpus file, or a folder "
             "(default: climatecause)" + help_extra,
    )


def add_split_option(parser) -> None:
    """``--split train|test`` for PubMedCausal (``None`` lets the loader choose ``test``)."""
    parser.add_argument("--split", choices=["train", "test"], default=None,
                        help="PubMedCausal split (default: test)")


def add_rule_option(parser, help: str) -> None:
    """``--rule path|shortest-distance``: the chain rule of :mod:`causalgraph.metrics.chains`."""
    from ..metrics.chains import RULES

    parser.add_argument("--rule", choices=list(RULES), default="path", help=help)


def add_graph_edit_option(parser) -> None:
    """``--graph-edit real|reverse|shuffle``: the counterfactual graph of :mod:`causalgraph.graph_edits`."""
    from ..graph_edits import GRAPH_EDITS

    parser.add_argument("--graph-edit", choices=list(GRAPH_EDITS), default=None,
                        help="show each statement's graph as annotated (real, the default), with every edge "
                             "reversed, or with its events shuffled over its nodes; golds are recomputed from the "
                             "edited graph and the variant id gets .<edit> (CCR graph variants and structure tasks)")


def find_statement(corpus, statement_id: str):
    """The statement ``--statement`` names, or a :class:`ConfigError` listing the corpus's id range."""
    from ..errors import ConfigError

    try:
        return corpus[statement_id]
    except KeyError:
        ids = [s.id for s in corpus.statements]
        span = f"{ids[0]} … {ids[-1]}" if ids else "none"
        raise ConfigError(f"--statement {statement_id!r}: no such statement in corpus {corpus.name!r} "
                          f"({len(ids)} statements, ids {span})") from None


def add_format_option(parser, default: str = "table", choices: Sequence[str] = FORMATS) -> None:
    """``--format table|csv|json``."""
    parser.add_argument("--format", choices=list(choices), default=default,
                        help=f"output format (default: {default})")


def to_jsonable(value: Any) -> Any:
    """Turn enums, numpy scalars, NaN and tuples into plain JSON values."""
    import enum

    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        try:
            value = value.item()
        except (ValueError, AttributeError):
            pass
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def emit_json(obj: Any, out=None) -> None:
    out = out or sys.stdout
    json.dump(to_jsonable(obj), out, indent=2, ensure_ascii=False)
    out.write("\n")


def _fmt_cell(v: Any, floatfmt: str) -> str:
    v = to_jsonable(v)
    if v is None:
        return ""
    if isinstance(v, float):
        return format(v, floatfmt)
    return str(v)


def emit_table(rows: Iterable[dict] | Any, fmt: str, *, columns: Optional[Sequence[str]] = None,
               floatfmt: str = ".4g", out=None, max_width: int = 60) -> None:
    """Print rows (dicts or a DataFrame) as an aligned table, CSV or JSON.

    CSV writes full precision (``repr`` of floats); the table rounds with
    ``floatfmt`` and truncates long text cells to ``max_width`` characters.
    """
    out = out or sys.stdout
    if hasattr(rows, "to_dict"):
        if columns is None:
            columns = [str(c) for c in rows.columns]
        rows = rows.to_dict(orient="records")
    rows = [dict(r) for r in rows]
    if columns is None:
        columns = list(rows[0].keys()) if rows else []
    if fmt == "json":
        emit_json([{c: r.get(c) for c in columns} for r in rows], out)
        return
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(columns)
        for r in rows:
            w.writerow(["" if to_jsonable(r.get(c)) is None else to_jsonable(r.get(c)) for c in columns])
        out.write(buf.getvalue())
        return
    cells = [[_fmt_cell(r.get(c), floatfmt) for c in columns] for r in rows]
    cells = [[c if len(c) <= max_width else c[: max_width - 1] + "…" for c in row] for row in cells]
    widths = [max([len(str(h))] + [len(row[i]) for row in cells]) for i, h in enumerate(columns)]
    numeric = [all(_is_num(row[i]) for row in cells if row[i]) for i in range(len(columns))]
    line = "  ".join(str(h).rjust(w) if n else str(h).ljust(w) for h, w, n in zip(columns, widths, numeric))
    out.write(line.rstrip() + "\n")
    out.write("  ".join("-" * w for w in widths) + "\n")
    for row in cells:
        out.write("  ".join(c.rjust(w) if n else c.ljust(w) for c, w, n in zip(row, widths, numeric)).rstrip() + "\n")


def _is_num(s: str) -> bool:
    try:
        float(s)
        return True
    except ValueError:
        return False


def temperature_arg(value: str):
    """``--temperature``: a number, or ``default`` (or ``none``) to send none and leave it to the provider."""
    import argparse

    if value.strip().lower() in ("default", "none"):
        return None
    try:
        return float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number or 'default', found {value!r}") from None


def add_model_args(p, *, model_help: str, option_help: str, max_tokens_help: str) -> None:
    """The options every command that asks a model shares: model, backend options, generation, cache."""
    p.add_argument("--model", required=True, metavar="PROVIDER/MODEL", help=model_help)
    p.add_argument("--model-option", action="append", default=[], metavar="KEY=VALUE", help=option_help)
    p.add_argument("--temperature", type=temperature_arg, default=0.0, metavar="T|default",
                   help="sampling temperature, or 'default' to send none and leave it to the provider (default 0)")
    p.add_argument("--max-tokens", type=int, default=None, metavar="N", help=max_tokens_help)
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the response cache")


def model_options(args) -> dict:
    """``--model-option`` pairs (typed as the model's backend declares), ``--base-url`` where the command has it.

    A key on the command line would be written to shell histories: it comes from the environment only.
    """
    from ..errors import ConfigError
    from ..llm.registry import parse_model_options

    options = parse_model_options(args.model_option, args.model)
    if getattr(args, "base_url", None):
        options["base_url"] = args.base_url
    if "api_key" in options:
        raise ConfigError("pass the API key through OPENAI_API_KEY, not --model-option (options are written "
                          "to shell histories)")
    return options
