"""Shared pieces of the command line: ``--data``, ``--format`` and table output."""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import re
import sys
from typing import Any, Iterable, Optional, Sequence
from ..prompts import CATALOGS
from ..metrics.chains import RULES
from ..graph.edits import GRAPH_EDITS, is_edit
from ..errors import ConfigError
from ..llm.registry import parse_model_options
from ..scoring.scoring_metrics import scoring_metric_names

__all__ = ["add_data_option", "add_scoring_metric_option", "add_prompts_option", "add_graph_edit_option", "add_split_option", "add_rule_option",
           "add_format_option", "find_statement", "emit_table", "emit_rows", "emit_json", "to_jsonable", "format_float",
           "TABLE_FLOATS", "MultiValue", "add_list_option", "positive_int",
           "nonnegative_int", "path_arg", "add_power_design_options"]

FORMATS = ("table", "csv", "json")


class MultiValue(argparse.Action):
    """A flag that takes several values: the flag repeated, a comma-separated list, or both, alike.

    ``--statement cc-007 --statement cc-047``, ``--statement cc-007,cc-047``
    and (with ``nargs="+"``) ``--statement cc-007 cc-047`` all give
    ``["cc-007", "cc-047"]``: repeating the flag adds to the list, where
    argparse's plain store would silently keep the last value only.  Each
    value is stripped, checked against ``item_choices`` and converted by
    ``item_type``; an empty value (``--task corri,``) is refused in one line.
    ``split=False`` is for values that may hold a comma themselves (free
    text, file paths, ``KEY=VALUE`` options with JSON): those are taken
    whole, one per flag.  The result is ``None`` (or the default) when the
    flag is not given.

    Examples
    --------
    >>> import argparse
    >>> p = argparse.ArgumentParser()
    >>> _ = p.add_argument("--task", action=MultiValue)
    >>> p.parse_args(["--task", "corri", "--task", "ccr-member, parents"]).task
    ['corri', 'ccr-member', 'parents']
    >>> p.parse_args([]).task is None
    True
    """

    def __init__(self, option_strings, dest, nargs=None, *, split: bool = True, item_type=None,
                 item_choices: Optional[Sequence[str]] = None, **kwargs):
        if nargs not in (None, "+"):
            raise ValueError(f"MultiValue {'/'.join(option_strings)}: nargs must be None or '+', not {nargs!r}")
        if kwargs.get("choices") is not None or kwargs.get("type") is not None:
            # argparse would check a whole comma list against them; the items are checked here instead.
            raise ValueError(f"MultiValue {'/'.join(option_strings)}: pass item_choices / item_type, not "
                             "choices / type")
        self.split = split
        self.item_type = item_type
        self.item_choices = tuple(item_choices) if item_choices is not None else None
        super().__init__(option_strings, dest, nargs=nargs, **kwargs)

    def values_of(self, token: str) -> list:
        """The values one command-line token holds, checked and converted (``argparse.ArgumentError`` if bad)."""
        parts = [p.strip() for p in token.split(",")] if self.split else [token]
        out = []
        for part in parts:
            if self.split and not part:
                what = self.metavar or self.dest
                raise argparse.ArgumentError(self, f"{token!r}: an empty value; expected {what}" if not token.strip()
                                             else f"{token!r}: an empty value in the comma-separated list; "
                                                  "expected values separated by single commas")
            if self.item_choices is not None and part not in self.item_choices:
                raise argparse.ArgumentError(self, f"invalid choice: {part!r} (choose from "
                                                   f"{', '.join(self.item_choices)})")
            if self.item_type is not None:
                try:
                    part = self.item_type(part)
                except (argparse.ArgumentTypeError, TypeError, ValueError) as exc:
                    raise argparse.ArgumentError(self, str(exc)) from None
            out.append(part)
        return out

    def __call__(self, parser, namespace, values, option_string=None):
        tokens = values if isinstance(values, list) else [values]
        current = getattr(namespace, self.dest, None)
        # The default (None, or a list the parser was given) is never extended in place.
        items = list(current) if isinstance(current, list) and current is not self.default else []
        for token in tokens:
            items.extend(self.values_of(token))
        setattr(namespace, self.dest, items)


def add_list_option(parser, *flags: str, split: bool = True, help: str = "", **kwargs) -> argparse.Action:
    """A multi-valued flag (:class:`MultiValue`), its help saying how to give several values.

    ``kwargs`` go to ``add_argument`` (``metavar``, ``required``, ``default``,
    ``nargs="+"``, ``item_type``, ``item_choices``).
    """
    how = "repeat the flag or separate values by commas" if split else "repeat the flag for several"
    return parser.add_argument(*flags, action=MultiValue, split=split, help=f"{help} ({how})" if help else how,
                               **kwargs)


def add_scoring_metric_option(parser) -> None:
    """``--scoring-metric NAME``: registered scoring metrics of runs to add (none by default).

    The help lists causalgraph's own (the parser reads no plugin); a plugin's name is taken too
    and checked when the command runs.
    """
    own = ", ".join(scoring_metric_names(plugins=False))
    add_list_option(parser, "--scoring-metric", metavar="NAME", default=[],
                    help=f"add a scoring metric of runs with its statement-bootstrap interval: {own}, or a plugin's "
                         "(`causalgraph plugins`); binary and multiclass tasks; none by default "
                         "(docs/benchmarks.md#scoring-metrics)")


def add_data_option(parser, *, help_extra: str = "", by_task: bool = False) -> None:
    """``--data NAME|PATH``: a dataset name, a file or a folder.

    ``by_task``: the command reads the dataset of its ``--task`` when none is given (``Task.data_source``).
    """
    default = ("the task's own: climatecause for the ClimateCause tasks, pubmedcausal:test for PubMedCausal's; "
               "required for a task that names none" if by_task else "climatecause")
    parser.add_argument(
        "--data", metavar="NAME|PATH", default=None,
        help="dataset name (climatecause, pubmedcausal[:train|:test]), a corpus file, or a folder "
             f"(default: {default})" + help_extra,
    )


def add_prompts_option(parser, *, help_extra: str = "") -> None:
    """``--prompts authors|tables``: the prompt catalog of the ClimateCause paper tasks (docs/prompts.md)."""
    parser.add_argument(
        "--prompts", choices=list(CATALOGS), default=None,
        help="prompt catalog of the ClimateCause paper tasks: authors (default; the text the authors sent) or "
             "tables (Tables 23-29 as printed); tasks with one set of prompts take none" + help_extra,
    )


def add_split_option(parser) -> None:
    """``--split train|test`` for PubMedCausal (``None`` lets the loader choose ``test``)."""
    parser.add_argument("--split", choices=["train", "test"], default=None,
                        help="PubMedCausal split (default: test)")


def add_rule_option(parser, help: str) -> None:
    """``--rule path|shortest-distance``: the chain rule of :mod:`causalgraph.metrics.chains`."""
    parser.add_argument("--rule", choices=list(RULES), default="path", help=help)


def _graph_edit(text: str) -> str:
    # argparse turns the ValueError into its one-line "invalid value" error, exit 2.
    if not is_edit(text):
        raise argparse.ArgumentTypeError(f"unknown graph edit {text!r}; expected one of {', '.join(GRAPH_EDITS)}, "
                                         "or flip-signs:k (k = 1, 2, …)")
    return text


def add_graph_edit_option(parser) -> None:
    """``--graph-edit real|reverse|shuffle|flip-signs[:k]``: the counterfactual graph of :mod:`causalgraph.graph.edits`."""
    parser.add_argument("--graph-edit", type=_graph_edit, default=None, metavar="|".join(GRAPH_EDITS) + "[:k]",
                        help="show each statement's graph as annotated (real, the default), with every edge "
                             "reversed, with its events shuffled over its nodes (CCR graph variants and structure "
                             "tasks), or with the correlation of every edge, or of k edges drawn by a seed, "
                             "flipped (flip-signs, flip-signs:k: prompts that state signs, corri-multihop and "
                             "net-effect); golds are recomputed from the edited graph and the variant id gets .<edit>")


def find_statement(corpus, statement_id: str):
    """The statement ``--statement`` names, or a :class:`ConfigError` listing the corpus's id range."""
    try:
        return corpus[statement_id]
    except KeyError:
        ids = [s.id for s in corpus.statements]
        span = f"{ids[0]} … {ids[-1]}" if ids else "none"
        raise ConfigError(f"--statement {statement_id!r}: no such statement in corpus {corpus.name!r} "
                          f"({len(ids)} statements, ids {span})") from None


def add_power_design_options(parser) -> None:
    """``--delta``, ``--discordance`` and ``--icc``: the paired design that ``stats power`` and ``bench plan
    --power`` size (one definition, so the two commands read the same numbers the same way)."""
    parser.add_argument("--delta", type=float, default=None, help="accuracy difference B - A to detect (default "
                                                                  "with a pilot pair: the pilot's)")
    parser.add_argument("--discordance", type=float, default=None,
                        help="share of items the arms answer differently, one right and one wrong (no pilot: "
                             "required)")
    parser.add_argument("--icc", type=float, default=None, help="intra-statement correlation of the paired "
                                                                "difference (default: the pilot's, else 0)")


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


#: The table's float format: four decimals, as the intervals and mean ± std strings print them.
TABLE_FLOATS = ".4f"


def format_float(v: float, floatfmt: str = TABLE_FLOATS) -> str:
    """A float as a table cell: ``floatfmt`` (four decimals), scientific where that would print a non-zero as 0.

    Examples
    --------
    >>> format_float(1.0), format_float(0.5), format_float(3.1e-12), format_float(0.0)
    ('1.0000', '0.5000', '3.100e-12', '0.0000')
    """
    if floatfmt == TABLE_FLOATS and v != 0 and math.isfinite(v) and abs(v) < 5e-5:
        return format(v, ".3e")  # a p-value of 3e-12 is not 0.0000
    return format(v, floatfmt)


def _fmt_cell(v: Any, floatfmt: str) -> str:
    v = to_jsonable(v)
    if v is None:
        return ""
    if isinstance(v, float):
        return format_float(v, floatfmt)
    # A table row is one line: a newline inside a cell (a multi-line prompt) is shown, not printed.
    text = str(v).replace("\r\n", "\n").replace("\r", "\n").replace("\n", " ↵ ").replace("\t", " ")
    # The table goes to a terminal: any other control character (a bell, an escape sequence in a
    # plugin's entry-point name) is shown as its \x code, never sent to it.
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _int_like_columns(frame) -> list[str]:
    """Float columns of a DataFrame that hold only whole numbers: integer counts that a missing value made float."""
    out = []
    for c in frame.columns:
        col = frame[c]
        if col.dtype.kind == "f":
            vals = col.dropna()
            if len(vals) and bool(((vals % 1) == 0).all()) and len(vals) < len(col):
                out.append(str(c))
    return out


def emit_table(rows: Iterable[dict] | Any, fmt: str, *, columns: Optional[Sequence[str]] = None,
               floatfmt: str = TABLE_FLOATS, out=None, max_width: int = 60) -> None:
    """Print rows (dicts or a DataFrame) as an aligned table, CSV or JSON.

    CSV writes full precision (``repr`` of floats); the table prints every
    float with ``floatfmt`` (four decimals, so ``1.0000`` beside
    ``[0.9000, 1.0000]``; :func:`format_float`), integers as integers, shows a
    newline inside a cell as ``↵`` so that each row stays one line, and
    truncates long text cells to ``max_width`` characters.
    """
    out = out or sys.stdout
    if hasattr(rows, "to_dict"):
        if columns is None:
            columns = [str(c) for c in rows.columns]
        ints = _int_like_columns(rows) if fmt == "table" else []
        rows = rows.to_dict(orient="records")
        for r in rows:
            for c in ints:
                v = r.get(c)
                r[c] = None if v is None or v != v else int(v)
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


def emit_rows(columns: Sequence[str], chunks, fmt: str, *, floatfmt: str = ".4g", out=None,
              max_width: int = 60) -> None:
    """:func:`emit_table`'s output for rows too many to hold as dicts, written chunk by chunk.

    ``chunks`` is a callable returning an iterable of lists of row tuples (in
    ``columns`` order); the table format calls it twice (widths, then rows).
    The bytes are those :func:`emit_table` writes for the same rows.
    """
    out = out or sys.stdout
    columns = list(columns)
    if fmt == "json":
        first = True
        for chunk in chunks():
            for row in chunk:
                body = json.dumps(to_jsonable(dict(zip(columns, row))), indent=2, ensure_ascii=False)
                out.write(("[\n  " if first else ",\n  ") + body.replace("\n", "\n  "))
                first = False
        out.write("[]\n" if first else "\n]\n")
        return
    if fmt == "csv":
        w = csv.writer(out, lineterminator="\n")
        w.writerow(columns)
        for chunk in chunks():
            w.writerows(["" if to_jsonable(v) is None else to_jsonable(v) for v in row] for row in chunk)
        return

    def cells(row):
        cs = [_fmt_cell(v, floatfmt) for v in row]
        return [c if len(c) <= max_width else c[: max_width - 1] + "…" for c in cs]

    widths = [len(str(h)) for h in columns]
    numeric = [True] * len(columns)
    for chunk in chunks():
        for row in chunk:
            for i, c in enumerate(cells(row)):
                if len(c) > widths[i]:
                    widths[i] = len(c)
                if c and numeric[i] and not _is_num(c):
                    numeric[i] = False
    line = "  ".join(str(h).rjust(w) if n else str(h).ljust(w) for h, w, n in zip(columns, widths, numeric))
    out.write(line.rstrip() + "\n")
    out.write("  ".join("-" * w for w in widths) + "\n")
    for chunk in chunks():
        out.write("".join("  ".join(c.rjust(w) if n else c.ljust(w) for c, w, n in zip(cells(row), widths, numeric))
                          .rstrip() + "\n" for row in chunk))


def _is_num(s: str) -> bool:
    try:
        float(s)
        return True
    except ValueError:
        return False


def positive_int(value: str) -> int:
    """An argparse type: an integer >= 1, refused by the flag's name (the library's check names its parameter).

    Examples
    --------
    >>> positive_int("3")
    3
    """
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {value!r}")
    return n


def nonnegative_int(value: str) -> int:
    """An argparse type: an integer >= 0 (a seed, a count of resamples that may be none).

    numpy refuses a negative seed with a ValueError that reached the user as a traceback.

    Examples
    --------
    >>> nonnegative_int("0")
    0
    """
    try:
        n = int(value)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {value!r}")
    return n


def path_arg(value: str) -> str:
    """An argparse type: a file or folder name that is not empty.

    ``Path("")`` is the current folder: ``export-graphs ''`` wrote every graph there.

    Examples
    --------
    >>> path_arg("out")
    'out'
    """
    if not value.strip():
        raise argparse.ArgumentTypeError(f"{value!r}: an empty path; expected a file or folder name")
    return value


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
    # Taken whole, one per flag: a value may be JSON holding commas.
    add_list_option(p, "--model-option", split=False, default=[], metavar="KEY=VALUE", help=option_help)
    p.add_argument("--temperature", type=temperature_arg, default=0.0, metavar="T|default",
                   help="sampling temperature, or 'default' to send none and leave it to the provider (default 0)")
    p.add_argument("--max-tokens", type=int, default=None, metavar="N", help=max_tokens_help)
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the response cache")


def model_options(args) -> dict:
    """``--model-option`` pairs (typed as the model's backend declares), ``--base-url`` where the command has it.

    A key on the command line would be written to shell histories: it comes from the environment only.
    """
    options = parse_model_options(args.model_option, args.model)
    if getattr(args, "base_url", None):
        options["base_url"] = args.base_url
    if "api_key" in options:
        raise ConfigError("pass the API key through OPENAI_API_KEY, not --model-option (options are written "
                          "to shell histories)")
    return options
