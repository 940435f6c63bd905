"""``causalgraph causenet``: a CauseNet file's seek index and the sources of one edge, read on demand."""

from __future__ import annotations

import sys

from ..datasets.causenet import causenet_path
from ..datasets.causenet_sources import SOURCE_COLUMNS, build_index, open_index
from ..errors import ConfigError
from .._core.wording import plural
from ._common import add_data_option, add_format_option, emit_table

__all__ = ["register", "INDEX_COLUMNS"]

#: Columns of ``causalgraph causenet index``.
INDEX_COLUMNS = ("file", "kind", "streams", "lines", "relations", "concepts", "edges", "index")


def register(sub) -> None:
    p = sub.add_parser(
        "causenet", help="CauseNet provenance on demand: the seek index of a file, every source of one edge",
        description="A CauseNet JSON Lines file (plain, gzip or bz2; a multi-stream file is read by stream) is "
                    "indexed once: for every merged edge, the compressed stream and offset of each of its lines, "
                    "stored in the causalgraph cache and keyed by the file's size and checksum. `sources` then "
                    "decompresses only the streams an edge's lines are in (docs/data.md).")
    jobs = p.add_subparsers(dest="job", metavar="JOB", required=True)
    s = jobs.add_parser("sources", help="every source of the edge CAUSE → EFFECT: type, sentence, page, line",
                        description="Every source of every line of the relation CAUSE → EFFECT (concepts with "
                                    "underscores or spaces alike), with its line and stream in the file, read "
                                    "through the seek index (built on first use, rebuilt when the file changed).")
    s.add_argument("cause", metavar="CAUSE")
    s.add_argument("effect", metavar="EFFECT")
    add_data_option(s, help_extra="; here a CauseNet file: causenet:PATH")
    s.add_argument("--no-reindex", action="store_true",
                   help="refuse a file that changed since it was indexed instead of indexing it again")
    add_format_option(s)
    s.set_defaults(func=run_sources)
    i = jobs.add_parser("index", help="(re)build the seek index of a CauseNet file and print its counts",
                        description="Read the file once and write its seek index to the cache (replacing one "
                                    "for the same content).")
    add_data_option(i, help_extra="; here a CauseNet file: causenet:PATH")
    add_format_option(i)
    i.set_defaults(func=run_index)


def _path(args, job: str):
    path = causenet_path(args.data)
    if path is None:
        raise ConfigError(f"--data {args.data!r}: causenet {job} reads a CauseNet JSON Lines file "
                          "(--data causenet:PATH)")
    return path


def run_sources(args) -> int:
    path = _path(args, "sources")
    idx, how = open_index(path, reindex=not args.no_reindex)
    if how == "rebuilt":
        print(f"causalgraph causenet: note: {path} changed since it was indexed; indexed it again", file=sys.stderr)
    elif how == "built":
        print(f"causalgraph causenet: note: indexed {path} ({plural(idx.n_streams, 'stream')}, "
              f"{plural(idx.n_edges, 'edge')}) in {idx.folder}", file=sys.stderr)
    found = idx.sources(args.cause, args.effect)
    if not found:
        lines = len(idx.places(args.cause, args.effect))
        verb = "carries" if lines == 1 else "carry"
        print(f"causalgraph causenet: note: the {plural(lines, 'line')} of {args.cause!r} → {args.effect!r} "
              f"{verb} no sources (a file without provenance, as CauseNet-Sample)", file=sys.stderr)
    emit_table([s.row() for s in found], args.format, columns=list(SOURCE_COLUMNS), max_width=80)
    return 0


def run_index(args) -> int:
    path = _path(args, "index")
    idx = build_index(path)
    m = idx.meta
    emit_table([{"file": str(path), "kind": m["kind"], "streams": m["streams"], "lines": m["lines"],
                 "relations": m["relations"], "concepts": m["concepts"], "edges": m["edges"],
                 "index": str(idx.folder)}], args.format, columns=list(INDEX_COLUMNS), max_width=120)
    return 0
