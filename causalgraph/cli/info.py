"""``causalgraph info``: what a corpus holds."""

from __future__ import annotations

from ..datasets import load_corpus
from ..datasets.describe import describe
from ..errors import ConfigError
from ._common import add_data_option, add_format_option, add_split_option, emit_json, emit_table

__all__ = ["register", "info_rows"]

# The counts a corpus may have, in the order the table lists them (before and after the label counts).
_COUNTS = ("statements", "causal_statements", "relations", "unique_relations", "rows", "pairs")
_CHECKS = ("labels_normalised", "labels_unknown", "labels_empty", "blank_rows", "problems")


def register(sub) -> None:
    p = sub.add_parser("info", help="count statements, relations and label values of a corpus",
                       description="Count statements, relations and every label value of a corpus. The table "
                                   "lists one figure a line; csv has the columns field, label, value (label: the "
                                   "label value a count is of); json is the description as one object.")
    add_data_option(p)
    add_split_option(p)
    add_format_option(p)
    p.add_argument("--json", action="store_true", help="the same as --format json")
    p.set_defaults(func=run)


def info_rows(info: dict) -> list[dict]:
    """The description of :func:`~causalgraph.datasets.describe.describe` as rows ``field, label, value``.

    Examples
    --------
    >>> info_rows({"dataset": "d", "statements": 2, "labels": {"correlation": {"positive": 3}}, "problems": 0})
    ... # doctest: +NORMALIZE_WHITESPACE
    [{'field': 'dataset', 'label': None, 'value': 'd'}, {'field': 'statements', 'label': None, 'value': 2},
     {'field': 'correlation', 'label': 'positive', 'value': 3}, {'field': 'problems', 'label': None, 'value': 0}]
    """
    rows = [{"field": key, "label": None, "value": info[key]}
            for key in ("dataset", "source", "sha256", *_COUNTS) if key in info]
    for name, counts in (info.get("labels") or {}).items():
        rows += [{"field": name, "label": k, "value": v} for k, v in counts.items()]
    rows += [{"field": key, "label": None, "value": info[key]} for key in _CHECKS if key in info]
    return rows


def run(args) -> int:
    if args.json and args.format not in ("table", "json"):
        raise ConfigError(f"--json and --format {args.format} ask for two formats; pass one")
    fmt = "json" if args.json else args.format
    info = describe(load_corpus(args.data, split=args.split))
    if fmt == "json":
        emit_json(info)
        return 0
    if fmt == "csv":
        emit_table(info_rows(info), "csv", columns=["field", "label", "value"])
        return 0
    print(f"dataset            {info['dataset']}")
    print(f"source             {info['source']}")
    print(f"sha256             {info['sha256']}")
    for key in _COUNTS:
        if key in info:
            print(f"{key:<18} {info[key]}")
    for name, counts in info["labels"].items():
        print(f"{name:<18} " + ", ".join(f"{k}={v}" for k, v in counts.items()))
    for key in _CHECKS:
        if key in info:
            print(f"{key:<18} {info[key]}")
    return 0
