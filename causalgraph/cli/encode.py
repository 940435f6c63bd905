"""``causalgraph encode``: one statement's causal graph as prompt text."""

from __future__ import annotations

from ..datasets import load_corpus
from ..encodings import ORDERS, encode, encoding_names, get_encoding
from ..errors import ConfigError
from ..graph import compile_graph
from ..graph.edits import SIGN_EDITS, edit_graph, parse_edit
from ._common import add_data_option, add_graph_edit_option, find_statement

__all__ = ["register"]


def register(sub) -> None:
    # The encodings listed are causalgraph's own (and code's): building the parser reads no plugin, so a
    # broken one cannot stop `causalgraph --help`; --encoding is checked against every encoding when run.
    own = encoding_names(plugins=False)
    p = sub.add_parser("encode", help=f"print a statement's causal graph in a prompt encoding ({', '.join(own)})",
                       description="Print the causal graph of one statement in a prompt encoding.")
    add_data_option(p)
    p.add_argument("--statement", required=True, metavar="ID", help="statement id, e.g. cc-007")
    p.add_argument("--encoding", default="adjacency", metavar="NAME",
                   help=f"encoding: {', '.join(own)}, or one a plugin adds (`causalgraph plugins`; "
                        "default: adjacency)")
    p.add_argument("--signs", action="store_true", help="add each edge's correlation label")
    p.add_argument("--order", choices=list(ORDERS), default="paper",
                   help="edge order: paper (default; the ClimateCause authors' networkx order, node by node) "
                        "or data (first appearance of each pair)")
    p.add_argument("--node", choices=["no_quantifier", "np"], default="no_quantifier",
                   help="event form (default: no_quantifier, as in the benchmarks)")
    add_graph_edit_option(p)
    p.set_defaults(func=run)


def run(args) -> int:
    get_encoding(args.encoding)  # an unknown (or broken plugin) encoding is one line before the corpus loads
    st = find_statement(load_corpus(args.data), args.statement)
    if not st.relations:
        raise ConfigError(f"statement {st.id} has no causal relations, so it has no causal graph to encode")
    graph = compile_graph(st, node=args.node)
    if args.graph_edit is not None:
        if parse_edit(args.graph_edit)[0] in SIGN_EDITS and not args.signs:
            raise ConfigError(f"--graph-edit {args.graph_edit} changes correlation signs only, which the text shows "
                              "with --signs; add --signs")
        # The same edit, keyed by the statement id, as the items of that statement get.
        graph = edit_graph(graph, args.graph_edit, key=st.id).graph
    text = encode(graph, args.encoding, signs=args.signs, order=args.order)
    # GraphML ends with its own newline; print no second one.
    print(text, end="" if text.endswith("\n") else "\n")
    return 0
