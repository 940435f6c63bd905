"""``causalgraph chains``: chain membership, position and graph statistics per event."""

from __future__ import annotations

from ..datasets import load_corpus
from ..metrics.chains import CHAIN_TABLE_COLUMNS, chain_table
from ._common import add_data_option, add_format_option, add_rule_option, emit_table

__all__ = ["register"]


def register(sub) -> None:
    p = sub.add_parser(
        "chains", help="causal-chain membership/position of every event, with depth, breadth and chain counts",
        description="One row per event of every causal statement: chain membership and position (start, middle, "
                    "end, none) and the statement graph's depth, breadth, node count and number of chains.")
    add_data_option(p)
    add_rule_option(p, help="'path' (the paper's definition, default) or 'shortest-distance' (the rule of the "
                                 "authors' released gold labels)")
    add_format_option(p, default="table")
    p.set_defaults(func=run)


def run(args) -> int:
    rows = chain_table(load_corpus(args.data), rule=args.rule)
    emit_table(rows, args.format, columns=list(CHAIN_TABLE_COLUMNS))
    return 0
