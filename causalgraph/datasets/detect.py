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

from .graphfiles import GRAPH_SUFFIXES, graph_files_in, is_node_link_json
from .relations import is_relations_file

__all__ = ["Kind", "detect_file", "detect_folder"]

Kind = Literal["climatecause", "pubmedcausal", "relations", "graph"]


def detect_file(p: Path) -> Kind:
    """The loader of one file.

    Examples
    --------
    >>> from causalgraph.datasets.relations import example_relations_path
    >>> detect_file(example_relations_path()), detect_file(Path("asia.gml"))
    ('relations', 'graph')
    """
    suffix = p.suffix.lower()
    if suffix == ".json":
        return "graph" if is_node_link_json(p) else "pubmedcausal"
    if suffix in GRAPH_SUFFIXES:
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
