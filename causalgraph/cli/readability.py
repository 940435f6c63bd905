"""``causalgraph readability``: classic readability formulas per statement (paper App. E), or per text of a file."""

from __future__ import annotations

import sys

from ..datasets import load_corpus
from ..errors import ConfigError
from ..metrics.readability import READABILITY_METRICS, readability_summary, readability_table
from ._common import add_data_option, add_format_option, add_split_option, emit_table
from ..readwrite.texts import read_texts

__all__ = ["register"]


def register(sub) -> None:
    p = sub.add_parser(
        "readability",
        help="score Flesch Reading Ease, Flesch-Kincaid, ARI, Coleman-Liau and Dale-Chall per statement",
        description="Score every statement with five classic readability formulas (textstat, offline CMU "
                    "dictionary); --summary prints median, mean, std, min and max per metric as the "
                    "ClimateCause paper's Table 17. --file scores the texts of any file instead: one per line "
                    "of a text file, or the --column of a .csv or .jsonl file (rows as the file numbers them).",
    )
    add_data_option(p)
    add_split_option(p)
    p.add_argument("--file", metavar="FILE", default=None,
                   help="score the texts of FILE instead of a corpus: one text per line (blank lines skipped), or "
                        "a column of a .csv (header row) or .jsonl file")
    p.add_argument("--column", metavar="COL", default=None,
                   help="the CSV column or JSONL key holding the texts (default: text)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr (--file)")
    add_format_option(p)
    p.add_argument("--summary", action="store_true",
                   help="print median, mean, std (population), min and max per metric instead of the rows")
    p.set_defaults(func=run)


def run(args) -> int:
    if args.file is not None:
        if args.data is not None or args.split is not None:
            raise ConfigError("--file scores the texts of a file; --data and --split choose a corpus instead: "
                              "give one or the other")

        texts = read_texts(args.file, args.column)
        table = readability_table(texts, progress=not args.no_progress and sys.stderr.isatty()).reset_index()
        columns = ["row", "text", *READABILITY_METRICS]
    else:
        if args.column is not None:
            raise ConfigError("--column names the column of a --file; a corpus has its statements already")
        table = readability_table(load_corpus(args.data, split=args.split))
        columns = ["statement_id", "statement", *READABILITY_METRICS]
    if args.summary:
        summary = readability_summary(table).reset_index()
        emit_table(summary, args.format,
                   columns=["metric", "median", "mean", "std", "min", "max", "higher_is_more_readable"])
        return 0
    emit_table(table, args.format, columns=columns)
    return 0
