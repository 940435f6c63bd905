"""``causalgraph sample-subgraphs``: small neighbourhood subgraphs of CauseNet, written as statements."""

from __future__ import annotations

import sys

from ..errors import ConfigError
from .._core.wording import plural
from ._common import add_data_option, add_list_option
from ..datasets.causenet import causenet_path, find_concept, load_causenet
from ..datasets.causenet_sources import attach_sources, index_cached, load_causenet_indexed, open_index
from ..graph.subgraphs import (STRATA, check_relations_path, check_sampling, sample_subgraphs, stratify_subgraphs,
                         subgraph_rows, write_relations)

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
    add_list_option(p, "--stratify", metavar="KEY",
                    help=f"with --random N: spread the N subgraphs evenly over strata of {', '.join(STRATA)} "
                         "(drawn from a pool of --pool random subgraphs; docs/data.md)")
    p.add_argument("--pool", type=int, default=None, metavar="M",
                   help="--stratify: random subgraphs to choose from (default 4 × N)")
    p.add_argument("--sources", action="store_true",
                   help="read every edge's sources through the file's seek index (causenet sources): sentences "
                        "and page references go into each statement's context, the first sentence of each edge "
                        "into its text")
    p.add_argument("--max-sources", type=int, default=5, metavar="K",
                   help="--sources: sources shown per edge in the context (default 5; all are counted)")
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
    by = None
    if args.stratify is not None:
        by = list(dict.fromkeys(args.stratify))
        bad = [k for k in by if k not in STRATA]
        if bad:
            raise ConfigError(f"--stratify {', '.join(map(repr, bad))}: expected one or more of {', '.join(STRATA)}")
        if not args.random:
            raise ConfigError("--stratify needs --random N (named centres are not sampled)")
    if args.pool is not None and by is None:
        raise ConfigError("--pool applies to --stratify")
    if args.pool is not None and args.pool < (args.random or 0):
        raise ConfigError(f"--pool must be at least --random ({args.random}), got {args.pool}")
    if args.max_sources < 0:
        raise ConfigError(f"--max-sources must be 0 or more, got {args.max_sources}")
    out = check_relations_path(args.output)
    # --sources: the seek index is recorded in the load's own pass unless it is cached already
    load = load_causenet_indexed if args.sources and not index_cached(path) else load_causenet
    g = load(path, keep_sentences=args.keep_sentences, min_sources=args.min_sources, strict=not args.lenient)
    for problem in g.problems:
        print(f"causalgraph sample-subgraphs: skipped: {problem.message}", file=sys.stderr)
    strata = None
    if by is not None:
        subs, strata, counts = stratify_subgraphs(g, args.random, by, hops=args.hops, max_nodes=args.max_nodes,
                                                  seed=args.seed, pool=args.pool, id_prefix="causenet")
        shown = ", ".join(f"{k}: {v}" for k, v in counts["per_stratum"].items())
        print(f"causalgraph sample-subgraphs: strata (from a pool of {counts['pool']:,}): {shown}", file=sys.stderr)
    else:
        around = [find_concept(g, c) for c in (args.around or [])]
        subs, counts = sample_subgraphs(g, around=around, n_random=args.random or 0, hops=args.hops,
                                        max_nodes=args.max_nodes, seed=args.seed, id_prefix="causenet")
    rows = subgraph_rows(g, subs, strata)
    if args.sources:
        idx, how = open_index(path)
        if how != "cached":
            print(f"causalgraph sample-subgraphs: note: indexed {path} for its sources ({how})", file=sys.stderr)
        rows = attach_sources(rows, idx, max_per_edge=args.max_sources)
    write_relations(rows, out)
    n_statements = len({r["statement_id"] for r in rows})
    dup = f", {plural(counts['duplicates'], 'duplicate subgraph')} dropped" if counts["duplicates"] else ""
    print(f"wrote {plural(n_statements, 'statement')}, {plural(len(rows), 'relation')} to {out}{dup}", file=sys.stderr)
    return 0
