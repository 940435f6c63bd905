"""``causalgraph sample-subgraphs``: small neighbourhood subgraphs of CauseNet, written as statements."""

from __future__ import annotations

import sys

from ..errors import ConfigError
from ..wording import plural
from ._common import add_data_option, add_list_option
from ..datasets.causenet import causenet_path, find_concept, load_causenet
from ..subgraphs import check_relations_path, check_sampling, sample_subgraphs, subgraph_rows, write_relations

__all__ = ["register", "SAMPLING_FLAGS"]

#: check_sampling's parameters → this command's flags, so that its errors name what the user typed.
SAMPLING_FLAGS = {"hops": "--hops", "max_nodes": "--max-nodes", "n_random": "--random", "seed": "--seed",
                  "around": "--around"}


def register(sub) -> None:
    p = sub.add_parser(
        "sample-subgraphs", help="write size-bounded neighbourhood subgraphs of a CauseNet graph as statements",
        description="Cut a CauseNet graph into small statements: the concepts within --hops steps of each centre "
                    "(edges followed either way, at most --max-nodes concepts, every edge among them), written "
                    "as a relations file (text, cause, effect, statement_id, context; docs/data.md) that --data "
                    "reads for every statement-level command: CCR and structure items, metrics, the viewer. The "
                    "text is the edges' provenance sentences with --keep-sentences, else the relations written out; "
                    "context holds each statement's provenance as JSON.")
    add_data_option(p, help_extra="; here a CauseNet file: causenet:PATH")
    centre = p.add_mutually_exclusive_group(required=True)
    add_list_option(centre, "--around", nargs="+", metavar="CONCEPT",
                    help="centre concepts (underscores or spaces alike)")
    centre.add_argument("--random", type=int, metavar="N", help="N random centres among concepts with an edge")
    p.add_argument("--hops", type=int, default=2, metavar="K", help="largest distance from the centre (default 2)")
    p.add_argument("--max-nodes", type=int, default=12, metavar="M",
                   help="most concepts per subgraph (default 12); a hop that does not fit is drawn at random")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the random draws (default 0)")
    p.add_argument("--keep-sentences", action="store_true",
                   help="use the relations' provenance sentences as statement text")
    p.add_argument("--min-sources", type=int, default=0, metavar="N",
                   help="keep only relations with at least N provenance sources (default: all)")
    p.add_argument("--lenient", action="store_true",
                   help="skip malformed lines, listing each on stderr, instead of stopping at the first")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="relations file to write (.csv, .tsv, .jsonl)")
    p.set_defaults(func=run)


def run(args) -> int:
    path = causenet_path(args.data)
    if path is None:
        raise ConfigError(f"--data {args.data!r}: sample-subgraphs reads a CauseNet JSON Lines file "
                          "(--data causenet:PATH)")
    if args.min_sources < 0:
        raise ConfigError(f"--min-sources must be 0 or more, got {args.min_sources}")
    check_sampling(hops=args.hops, max_nodes=args.max_nodes, n_random=args.random or 0, seed=args.seed,
                   n_around=len(args.around or []), names=SAMPLING_FLAGS)
    out = check_relations_path(args.output)
    g = load_causenet(path, keep_sentences=args.keep_sentences, min_sources=args.min_sources,
                      strict=not args.lenient)
    for problem in g.problems:
        print(f"causalgraph sample-subgraphs: skipped: {problem.message}", file=sys.stderr)
    around = [find_concept(g, c) for c in (args.around or [])]
    subs, counts = sample_subgraphs(g, around=around, n_random=args.random or 0, hops=args.hops,
                                    max_nodes=args.max_nodes, seed=args.seed, id_prefix="causenet")
    rows = subgraph_rows(g, subs)
    write_relations(rows, out)
    n_statements = len({r["statement_id"] for r in rows})
    dup = f", {plural(counts['duplicates'], 'duplicate subgraph')} dropped" if counts["duplicates"] else ""
    print(f"wrote {plural(n_statements, 'statement')}, {plural(len(rows), 'relation')} to {out}{dup}", file=sys.stderr)
    return 0
