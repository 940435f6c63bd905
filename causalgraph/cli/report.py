"""``causalgraph report``: the corpus report (HTML page, CSV tables, one graph page per statement, run pages)."""

from __future__ import annotations

from ..datasets import load_corpus
from ._common import add_data_option, add_list_option, add_rule_option, add_split_option
from ..viewer.report import DEFAULT_MAX_GRAPHS, write_report

__all__ = ["register", "run"]


def _max_graphs(value: str):
    import argparse

    if value == "all":
        return None
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number >= 0 or 'all', got {value!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0 or 'all', got {value!r}")
    return n


def register(sub) -> None:
    p = sub.add_parser(
        "report", help="write the corpus report: statistics, complexity, readability, chains, graphs",
        description="Write a self-contained HTML report of a corpus (statistics, sortable complexity table, "
                    "distributions of the complexity metrics and C(s), readability as in the paper's "
                    "Table 17, chain-label counts) with its CSV tables and an offline graph page per "
                    "causal statement, and print the path of index.html.")
    add_data_option(p)
    add_split_option(p)
    p.add_argument("-o", "--output", metavar="DIR", default="report", help="output folder (default: report)")
    add_rule_option(p, help="chain rule for the graph colours and chain_labels.csv (default: path)")
    p.add_argument("--max-graphs", type=_max_graphs, default=DEFAULT_MAX_GRAPHS, metavar="N|all",
                   help="write graph pages for at most N causal statements (default: all; the pages share "
                        "one copy of the graph library and weigh a few kB each)")
    # Folder names may hold commas: taken whole, several after one flag or the flag repeated.
    add_list_option(p, "--runs", nargs="+", split=False, default=[], metavar="RUN",
                    help="run directories to add a run page for (runs/<name>.html, as `bench view` writes), "
                         "linked from the report")
    p.add_argument("--difficulty-feature", metavar="F", default=None,
                   help="feature of the run pages' difficulty plots: accuracy by decile of F with the fitted "
                        "logistic curve and its band (default c_norm, C(s); any numeric feature of "
                        "`stats difficulty`)")
    p.set_defaults(func=run)


def run(args) -> int:
    rep = write_report(load_corpus(args.data, split=args.split), args.output, rule=args.rule,
                       max_graphs=args.max_graphs, runs=args.runs, difficulty_feature=args.difficulty_feature)
    print(rep.index)
    return 0
