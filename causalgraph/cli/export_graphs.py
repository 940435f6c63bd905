"""``causalgraph export-graphs DIR``: each statement's causal graph as a file a causal-inference tool reads."""

from __future__ import annotations

import sys

from ..readwrite import GRAPH_FORMATS

from ._common import add_data_option, add_list_option, add_split_option, path_arg
from ..datasets import load_corpus
from ..interop.graph_export import export_graphs

__all__ = ["register", "run"]


def register(sub) -> None:
    p = sub.add_parser(
        "export-graphs", help="write each statement's causal graph as GraphML, GML, DOT, dagitty, JSON or an edge list",
        description="Write the causal graph of every statement with relations (or of --statement ID …, or one "
                    "--merged graph) into DIR, one file per statement named by its id, in a format networkx, "
                    "Graphviz, dagitty, pgmpy or DoWhy reads. Edge labels (correlation, polarity) are kept as "
                    "attributes where the format has them; dagitty refuses a graph with a cycle, naming it "
                    "(docs/graphs.md).")
    p.add_argument("dir", metavar="DIR", type=path_arg, help="folder to write into (created when missing)")
    # No choices=: a plugin's format is read when the command runs, never while the parser is built.
    p.add_argument("--format", metavar="FORMAT", default="graphml",
                   help=f"graph file format: {', '.join(GRAPH_FORMATS)} or a registered format (default: graphml)")
    add_list_option(p, "--statement", nargs="+", metavar="ID", help="only these statements")
    p.add_argument("--merged", action="store_true",
                   help="write one graph (merged.<suffix>) of every chosen statement's relations")
    p.add_argument("--overwrite", action="store_true", help="replace files already in DIR")
    add_data_option(p)
    add_split_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    corpus = load_corpus(args.data, split=args.split)
    res = export_graphs(corpus, args.dir, args.format, statements=args.statement, merged=args.merged,
                        overwrite=args.overwrite)
    skipped = f"; {len(res.skipped)} statements without relations have no graph" if res.skipped else ""
    print(f"wrote {len(res.files)} {args.format} file{'s' if len(res.files) != 1 else ''} to {args.dir}{skipped}",
          file=sys.stderr)
    for f in res.files:
        print(f)
    return 0
