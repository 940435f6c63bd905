"""Which loader reads a ``--data`` path: detection by file type and content, in one small function.

``detect_file`` answers for a file, ``detect_folder`` for a folder; :func:`causalgraph.datasets.load_corpus`
calls them.  The two released corpora are read exactly as before the relations and graph formats
existed: a file is read as relations only when its header holds ``text``, ``cause`` and ``effect`` and
no ClimateCause ``Causal?`` column (which every ClimateCause file has), and a ``.json`` file as a graph
only when it is a node-link object (a PubMedCausal file is a list).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from ..errors import SchemaError
from .climatecause import CLIMATECAUSE_SUFFIXES
from ..readwrite import reader_for
from .graphfiles import GRAPH_SUFFIXES, graph_files_in, is_edge_list, is_node_link_json
from .relations import RELATIONS_SUFFIXES, is_relations_file

__all__ = ["Kind", "FILE_FORMATS", "READ_SUFFIXES", "detect_file", "detect_folder"]

Kind = Literal["climatecause", "pubmedcausal", "relations", "graph"]

#: What ``--data FILE`` reads: each format and its file types (docs/data.md).  The messages that
#: refuse a file type list these, so they never fall behind the loaders.
FILE_FORMATS: dict[str, tuple[str, ...]] = {
    "ClimateCause": CLIMATECAUSE_SUFFIXES,
    "relations": RELATIONS_SUFFIXES,
    "PubMedCausal": (".json", ".jsonl"),
    "graph": GRAPH_SUFFIXES,
}
# What a suffix shared by two formats is, where the graph reader takes it.
_SUFFIX_NOTES = {("graph", ".json"): ".json (node-link)", ("graph", ".tsv"): ".tsv (an edge list)"}
#: Every file type ``--data`` reads, in the order of :data:`FILE_FORMATS`.
READ_SUFFIXES: tuple[str, ...] = tuple(dict.fromkeys(x for sfx in FILE_FORMATS.values() for x in sfx))


def detect_file(p: Path) -> Kind:
    """The loader of one file.

    Examples
    --------
    >>> from causalgraph.datasets.relations import example_relations_path
    >>> detect_file(example_relations_path()), detect_file(Path("asia.gml"))
    ('relations', 'graph')
    >>> detect_file(Path("x.dagitty")), detect_file(Path("x.tsv"))
    ('graph', 'climatecause')
    >>> detect_file(Path("x.pdf"))
    Traceback (most recent call last):
    ...
    causalgraph.errors.SchemaError: x.pdf: unsupported file type '.pdf'; --data reads ClimateCause: .xlsx, .xlsm, .csv, .tsv, .txt; relations: .csv, .tsv, .jsonl, .parquet; PubMedCausal: .json, .jsonl; graph: .graphml, .gml, .dot, .gv, .json (node-link), .dagitty, .tsv (an edge list)
    """
    suffix = p.suffix.lower()
    if suffix not in READ_SUFFIXES and suffix and reader_for(suffix) is not None:
        return "graph"  # a registered graph format's file (plugins are read only for a suffix no loader knows)
    if suffix not in READ_SUFFIXES:
        what = "; ".join(f"{name}: {', '.join(_SUFFIX_NOTES.get((name, x), x) for x in sfx)}"
                         for name, sfx in FILE_FORMATS.items())
        kind = f"unsupported file type {suffix!r}" if suffix else "no file type (suffix)"
        raise SchemaError(f"{p}: {kind}; --data reads {what}")
    if suffix == ".json":
        return "graph" if is_node_link_json(p) else "pubmedcausal"
    if suffix == ".tsv" and is_edge_list(p):
        return "graph"  # an export-graphs edge list: cause, effect and label columns, no text
    if suffix in GRAPH_SUFFIXES and suffix != ".tsv":
        return "graph"
    if suffix == ".jsonl":
        return "relations" if is_relations_file(p) else "pubmedcausal"
    if suffix in (".csv", ".tsv", ".parquet") and is_relations_file(p):
        return "relations"
    return "climatecause"


def detect_folder(p: Path) -> Kind:
    """The loader of a folder: its ClimateCause or relations spreadsheet, PubMedCausal JSON, or graph files.

    The spreadsheet a ClimateCause folder is read from (the first ``.xlsx``, else the first ``.csv``)
    decides between ClimateCause and relations; a folder with no spreadsheet whose ``.json`` files
    are node-link graphs, or that holds ``.graphml``/``.gml``/``.dot`` files, is a folder of graphs.
    """
    sheets = sorted(p.glob("*.xlsx")) + sorted(p.glob("*.csv"))
    if sheets:
        return "relations" if sheets[0].suffix.lower() == ".csv" and is_relations_file(sheets[0]) else "climatecause"
    jsons = sorted(p.glob("*.json"))
    if jsons and not all(is_node_link_json(j) for j in jsons):
        return "pubmedcausal"
    if graph_files_in(p):
        return "graph"
    return "pubmedcausal" if jsons else "climatecause"
