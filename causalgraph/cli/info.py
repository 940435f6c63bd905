"""``causalgraph info``: what a corpus holds."""

from __future__ import annotations

from ..datasets import load_corpus
from ..datasets.describe import describe
from ._common import add_data_option, add_split_option, emit_json

__all__ = ["register"]


def register(sub) -> None:
    p = sub.add_parser("info", help="count statements, relations and label values of a corpus",
                       description="Count statements, relations and every label value of a corpus.")
    add_data_option(p)
    add_split_option(p)
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.set_defaults(func=run)


def run(args) -> int:
    info = describe(load_corpus(args.data, split=args.split))
    if args.json:
        emit_json(info)
        return 0
    print(f"dataset            {info['dataset']}")
    print(f"source             {info['source']}")
    print(f"sha256             {info['sha256']}")
    for key in ("statements", "causal_statements", "relations", "unique_relations", "rows", "pairs"):
        if key in info:
            print(f"{key:<18} {info[key]}")
    for name, counts in info["labels"].items():
        print(f"{name:<18} " + ", ".join(f"{k}={v}" for k, v in counts.items()))
    for key in ("labels_normalised", "labels_unknown", "labels_empty", "blank_rows", "problems"):
        if key in info:
            print(f"{key:<18} {info[key]}")
    return 0
