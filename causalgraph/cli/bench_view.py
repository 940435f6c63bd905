"""``causalgraph bench view RUN [RUN …]``: one offline HTML page to read a run's answers, or compare runs."""

from __future__ import annotations
from .._core.outputs import NO_BROWSER, open_page
from ..stats.difficulty import STATEMENT_FEATURES
from ..viewer import write_run_page
from ..alignment.events import ALIGN_RULES, DEFAULT_RULE
from ..stats.compare import AXES
from ..viewer.ranking import RANK_AXIS
from ._common import add_scoring_metric_option

__all__ = ["register", "run"]


def register(sub) -> None:
    """Add ``view`` to the ``bench`` subcommands."""
    p = sub.add_parser(
        "view", help="write an offline HTML page to read a run's answers item by item (or compare runs)",
        description="Write one self-contained, offline HTML page for one or more run directories: a summary per "
                    "variant, every item with filters, search and sorting, each item's prompt, response, parse "
                    "rule and causal graph; with two or more runs over the same items, the flipped items, "
                    "McNemar per variant and the agreement per statement (the first run is the baseline). "
                    "Prints the page's path.")
    p.add_argument("runs", nargs="+", metavar="RUN", help="run directories (the first is the baseline)")
    p.add_argument("-o", "--output", metavar="PAGE.html", default=None,
                   help="where to write the page (default: RUN/view.html for one run, compare.html for several)")
    p.add_argument("--open", action="store_true", help="open the page in the default web browser")
    p.add_argument("--title", default=None, help="page heading (default: the run names)")
    p.add_argument("--data", metavar="NAME|PATH", default=None,
                   help="corpus for graphs, C(s) and prompts (default: the one each run's manifest names)")
    p.add_argument("--difficulty-feature", metavar="F", default=None,
                   help="feature of each variant's difficulty plot: accuracy by decile of F with the fitted "
                        "logistic curve and its band (default c_norm, C(s); a numeric statement feature of "
                        f"`stats difficulty`: {', '.join(STATEMENT_FEATURES)})")
    p.add_argument("--align", choices=list(ALIGN_RULES), default=DEFAULT_RULE,
                   help="extraction and annotation runs: how each item's overlay graph aligns predicted events to "
                        "gold ones before drawing them (the rules of compare-graphs --align; default "
                        f"{DEFAULT_RULE}; docs/viewer.md#overlay)")
    p.add_argument("--rank", metavar="AXIS", choices=[*AXES, "none"], default=RANK_AXIS,
                   help="several runs: rank their arms along AXIS as `stats compare --by AXIS --rank` does (score "
                        "with its interval, tie groups after Holm as a compact letter display, rank interval); "
                        f"{', '.join(AXES)} or none (default {RANK_AXIS})")
    add_scoring_metric_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    import sys

    path = write_run_page(args.runs, args.output, title=args.title, data=args.data,
                          difficulty_feature=args.difficulty_feature, align=args.align,
                          rank=None if args.rank == "none" else args.rank, scoring_metrics=args.scoring_metric)
    print(path)
    if args.open and not open_page(path):
        print(f"causalgraph bench: note: --open: {NO_BROWSER.format(path=path.resolve())}", file=sys.stderr)
    return 0
