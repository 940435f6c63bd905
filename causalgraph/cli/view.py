"""``causalgraph view``: write (and optionally open) the interactive graph of one statement."""

from __future__ import annotations

import sys
from pathlib import Path

from ..datasets import load_corpus
from ..graph import NODE_FORMS, compile_graph
from .._core.outputs import NO_BROWSER, open_page
from ._common import add_data_option, add_rule_option, find_statement
from ..html.graph_page import safe_filename, show

__all__ = ["register", "run"]


def register(sub) -> None:
    p = sub.add_parser(
        "view", help="write one statement's causal graph as an offline interactive HTML page",
        description="Write one statement's causal graph as a self-contained, offline HTML page "
                    "(pyvis / vis-network, nothing fetched from the network) and print its path.")
    p.add_argument("--statement", required=True, metavar="ID", help="statement id, e.g. cc-007")
    add_data_option(p)
    p.add_argument("-o", "--output", metavar="FILE.html", default=None,
                   help="where to write the page (default: <statement id>.html in the current folder)")
    p.add_argument("--open", action="store_true", help="open the page in the default web browser")
    add_rule_option(p, help="chain rule for the node colours (default: path, the paper's definition)")
    p.add_argument("--node-form", choices=list(NODE_FORMS), default="no_quantifier",
                   help="event form used as nodes (default: no_quantifier)")
    p.set_defaults(func=run)


def run(args) -> int:
    statement = find_statement(load_corpus(args.data), args.statement)
    out = Path(args.output) if args.output else Path(f"{safe_filename(statement.id)}.html")
    graph = compile_graph(statement, node=args.node_form)
    path = show(graph, out, open_browser=False, rule=args.rule)
    print(path)
    if args.open and not open_page(path):
        print(f"causalgraph view: note: --open: {NO_BROWSER.format(path=path)}", file=sys.stderr)
    return 0
