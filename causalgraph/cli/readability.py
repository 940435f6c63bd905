"""``causalgraph readability``: classic readability formulas per statement (paper App. E)."""

from __future__ import annotations

from ..datasets import load_corpus
from ..metrics.readability import READABILITY_METRICS, readability_summary, readability_table
from ._common import add_data_option, add_format_option, add_split_option, emit_table

__all__ = ["register"]


def register(sub) -> None:
    p = sub.add_parser(
        "readability",
        help="score Flesch Reading Ease, Flesch-Kincaid, ARI, Coleman-Liau and Dale-Chall per statement",
        description="Score every statement with five classic readability formulas (textstat, offline CMU "
                    "dictionary); --summary prints median, mean, std, min and max per metric as the "
                    "ClimateCause paper's Table 17.",
    )
    add_data_option(p)
    add_split_option(p)
    add_format_option(p)
    p.add_argument("--summary", action="store_true",
                   help="print median, mean, std (population), min and max per metric instead of the rows")
    p.set_defaults(func=run)


def run(args) -> int:
    table = readability_table(load_corpus(args.data, split=args.split))
    if args.summary:
        summary = readability_summary(table).reset_index()
        emit_table(summary, args.format,
                   columns=["metric", "median", "mean", "std", "min", "max", "higher_is_more_readable"])
        return 0
    emit_table(table, args.format, columns=["statement_id", "statement", *READABILITY_METRICS])
    return 0
