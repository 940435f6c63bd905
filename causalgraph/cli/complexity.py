"""``causalgraph complexity``: the five causal complexity metrics and C(s) per statement."""

from __future__ import annotations

import sys

from ..datasets import load_corpus
from ..errors import ConfigError
from ..metrics.analysis import complexity_summary, cooccurrence
from ..metrics.complexity import (CONFLICT_RULES, PAPER_METRICS, complexity_table, composite_columns, composite_metrics,
                                  composite_note, normalize_weights)
from ..metrics.paths import DEFAULT_CYCLE_LIMIT
from ._common import (add_data_option, add_format_option, add_list_option, add_split_option, emit_json, emit_table,
                      positive_int)

__all__ = ["register"]


def register(sub) -> None:
    p = sub.add_parser(
        "complexity",
        help="score causal complexity (C^com, C^ex, C^nest, C^corr, C^pol, C(s)) per statement",
        description="Score every statement of a corpus with the five causal complexity metrics of the "
                    "ClimateCause paper (eqs. 1-5), their plain sum, the normalised total C(s) (eqs. 6-7), "
                    "density (sum per word) and word count.",
    )
    add_data_option(p)
    add_split_option(p)
    add_format_option(p)
    add_list_option(p, "--metrics", metavar="M,M,...", default=None,
                    help=f"the metrics c_raw and C(s) sum (default: the paper's {','.join(PAPER_METRICS)}); name "
                         "others (a plugin's, `causalgraph plugins`) to make another composite, e.g. "
                         f"{','.join(PAPER_METRICS)},events. A metric not named is an extra column, never a term")
    p.add_argument("--weights", metavar="W,W,W,W,W", default=None,
                   help="weights of the metrics in C(s), in the order of --metrics (default: 1 each; "
                        f"for {','.join(PAPER_METRICS)}, five numbers)")
    p.add_argument("--conflicts", choices=list(CONFLICT_RULES), default="both",
                   help="how to read a pair annotated with both signs (default: both; see docs/metrics.md)")
    p.add_argument("--cycle-limit", type=positive_int, default=DEFAULT_CYCLE_LIMIT, metavar="N",
                   help=f"most search steps (edges looked at) when counting paths through a cycle of negative edges "
                        f"(default: {DEFAULT_CYCLE_LIMIT:,})")
    p.add_argument("--summary", action="store_true",
                   help="print the corpus figures of the paper (ranges, share complex, max C(s), "
                        "statements complex in k metrics, co-occurrence, Pearson r) instead of the rows")
    p.set_defaults(func=run)


def run(args) -> int:
    # the flag's values joined back, so that a message quotes them as they were typed
    given = ",".join(args.metrics) if args.metrics is not None else None
    metrics = composite_metrics(given, what="--metrics")  # validate before loading anything
    weights = normalize_weights(args.weights, metrics)
    corpus = load_corpus(args.data, split=args.split)
    table = complexity_table(corpus, weights, metrics=metrics, conflicts=args.conflicts, cycle_limit=args.cycle_limit)
    if not args.summary:
        for note in table.attrs.get("notes", ()):
            print(f"causalgraph complexity: note: {note}", file=sys.stderr)
        composite = table.attrs["composite"]
        if args.format == "table":
            emit_table(table, args.format)
            # What c_raw and C(s) are made of, under the rows (CSV and JSON carry it in two columns).
            print(composite_note(composite))
        else:
            emit_table(table.assign(**composite_columns(composite)), args.format)
        return 0
    if table.attrs.get("notes"):
        # The paper's figures count statements complex in each metric: a missing metric would count as 0.
        missing = [c for c in table.columns if c.startswith("c_") and c not in ("c_raw", "c_norm")
                   and table[c].isna().all()]
        raise ConfigError(f"--summary describes all five metrics, and {corpus.source} lacks the labels of "
                          f"{', '.join(missing)} (docs/data.md); print the rows instead (without --summary)")
    summary = complexity_summary(table)
    co = cooccurrence(table)
    if args.format == "json":
        emit_json({**summary.as_dict(), "cooccurrence": {m: co.loc[m].to_dict() for m in co.index},
                   "composite": {k: list(v) for k, v in table.attrs["composite"].items()}})
        return 0
    lc = summary.length_correlation
    rows = [
        {"figure": "statements", "value": summary.n_statements},
        {"figure": "statements with C(s) > 0", "value": summary.n_complex},
        # Rounded as the paper prints them (the table's four decimals would claim digits the figures lack).
        {"figure": "percent with C(s) > 0", "value": f"{summary.percent_complex:.2f}"},
        {"figure": "max C(s)", "value": f"{summary.max_c_norm:.3f}"},
        {"figure": "C(s) made of", "value": "{c_metrics} (weights {c_weights})".format(**composite_columns(table.attrs["composite"]))},
    ]
    for m, (lo, hi) in summary.ranges.items():
        rows.append({"figure": f"range C^{m}", "value": f"[{lo:g}, {hi:g}]"})
    for k, v in summary.complex_in.items():
        rows.append({"figure": f"complex in {k} metric{'' if k == 1 else 's'}", "value": v})
    if lc is not None:
        rows.append({"figure": "Pearson r (n_tokens, C(s) > 0)", "value": f"r={lc.r:.3f} p={lc.p:.2g} n={lc.n}"})
    # The matrix is symmetric and its diagonal is each metric alone: the table shows the diagonal as counts and
    # each unordered pair of two metrics once (the paper's lower triangle); --format json keeps the whole matrix.
    names = list(co.index)
    for a in names:
        rows.append({"figure": f"statements with C^{a} > 0", "value": int(co.loc[a, a])})
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            rows.append({"figure": f"co-occurrence {a} & {b}", "value": int(co.loc[a, b])})
    emit_table(rows, args.format, columns=["figure", "value"])
    return 0
