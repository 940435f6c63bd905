"""Graph files as a corpus: GraphML, GML, DOT or networkx node-link JSON, one statement per file.

Every directed edge of a file becomes a :class:`~causalgraph.model.Relation`
(cause → effect, in the file's edge order), with the edge attributes
``correlation`` and ``relation_type`` (or ``polarity``, as causalgraph's own
exports write it) read when present.  A file has no statement text: its
statement's ``text`` is empty, ``meta["statement_text"]`` is ``None`` and the
corpus :attr:`~causalgraph.model.Corpus.lacks` ``"text"``, so that tasks
asking about the text are refused and items say in their meta that there was
none.  docs/data.md#graph-files documents the choices.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Optional

from .._core.wording import describe_found
from ..errors import ConfigError, SchemaError
from ..model import Corpus, Relation, Statement, is_blank, unprintable_char
from ..readwrite import READERS, reader_for
from ..readwrite.edgelist import EDGELIST_COLUMNS
from . import labels as L
from .fetch import sha256_file

__all__ = ["GRAPH_SUFFIXES", "MAX_GRAPH_EDGES", "load_graph_files", "read_graph_file", "is_node_link_json",
           "is_edge_list", "graph_files_in"]

#: File types read as graphs (``.json`` only when it holds a node-link object, ``.tsv`` only when it is an
#: ``export-graphs --format edgelist`` table: :func:`is_edge_list`).
GRAPH_SUFFIXES = (".graphml", ".gml", ".dot", ".gv", ".json", ".dagitty", ".tsv")
# The columns an edge list may have (EDGELIST_COLUMNS, and polarity as the label reader takes it).
_EDGE_LIST_COLUMNS = {*EDGELIST_COLUMNS, "polarity"}
#: Most edges one graph file may have: a bound on the work of every graph-level task.
MAX_GRAPH_EDGES = 100_000
logger = logging.getLogger(__name__)
# What every graph file lacks (the corpus columns of the relations format).
_ALWAYS_LACKING = ("text", "explicitness", "cause_belongs_to", "effect_belongs_to", "nested", "combined")
_LABELS = (("correlation", ("correlation",), L.parse_correlation, "correlation"),
           ("relation_type", ("relation_type", "polarity"), L.parse_polarity, "polarity"))


def is_node_link_json(path: Path) -> bool:
    """Whether a ``.json`` file holds a networkx node-link object (``nodes`` and ``links`` or ``edges``).

    Only a file that starts with ``{`` is parsed, so a corpus list (PubMedCausal) is not read twice.
    """
    try:
        with open(path, encoding="utf-8-sig") as fh:
            head = fh.read(1)
            while head and head.isspace():
                head = fh.read(1)
            if head != "{":
                return False
            data = json.loads(head + fh.read())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return False
    return isinstance(data, dict) and "nodes" in data and ("links" in data or "edges" in data)


def is_edge_list(path: Path) -> bool:
    """Whether a ``.tsv`` file is an edge list: a header ``cause``, ``effect`` then only label columns.

    A table with a ``text`` column (or any other relations column) is a relations file, read as one.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "e.tsv").write_text("cause\\teffect\\tcorrelation\\na\\tb\\tnegative\\n", encoding="utf-8")
    >>> _ = (d / "r.tsv").write_text("text\\tcause\\teffect\\nA b.\\tA\\tb\\n", encoding="utf-8")
    >>> is_edge_list(d / "e.tsv"), is_edge_list(d / "r.tsv")
    (True, False)
    """
    if path.suffix.lower() != ".tsv":
        return False
    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            header = fh.readline().rstrip("\r\n").split("\t")
    except (OSError, UnicodeDecodeError):
        return False
    return header[:2] == ["cause", "effect"] and set(header) <= _EDGE_LIST_COLUMNS


def _is_graph_file(p: Path) -> bool:
    suffix = p.suffix.lower()
    if suffix == ".json":
        return is_node_link_json(p)
    if suffix == ".tsv":
        return is_edge_list(p)
    return suffix in GRAPH_SUFFIXES


def graph_files_in(folder: Path) -> list[Path]:
    """The graph files of a folder, sorted by name (``.json`` only when node-link, ``.tsv`` when an edge list)."""
    return [p for p in sorted(folder.iterdir()) if p.is_file() and _is_graph_file(p)]


def read_graph_file(path: str | Path, notes: Optional[list] = None):
    """The file's graph as a networkx ``DiGraph``/``MultiDiGraph``, node names as strings.

    Nodes are named by their ``label`` attribute when every node has a
    distinct one, else by their id; where some node has no label (or two
    share one) the ids are used and a note in ``notes`` says so, as it does
    for a GML file without labels (GML ids are numbers) and for node-link
    ids that are numbers.

    Parameters
    ----------
    path
        A ``.graphml``, ``.gml``, ``.dot``/``.gv``, ``.dagitty``, node-link ``.json`` or
        edge-list ``.tsv`` file.
    notes
        A list the notes are appended to (``None``: not kept).

    Raises
    ------
    SchemaError
        The file cannot be read as its type, its graph is undirected, a
        node's label is not text, or (node-link) two ids name one event,
        an id is declared twice or a link names an undeclared node.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    notes = [] if notes is None else notes
    try:
        # the format's own reader (causalgraph.readwrite): a built-in's, else a registered format's
        reader = READERS.get(suffix) if suffix in GRAPH_SUFFIXES else reader_for(suffix)
        if reader is None:
            raise SchemaError(f"{p}: unsupported graph file type {suffix!r}; expected one of "
                              f"{', '.join(GRAPH_SUFFIXES)} or a registered graph format's")
        g = reader(p)
    except (SchemaError, ConfigError):
        raise
    except Exception as exc:  # networkx, lxml and pydot raise many kinds for a damaged file
        detail = " ".join(str(exc).split()) or type(exc).__name__
        raise SchemaError(f"{p}: cannot read as {suffix[1:].upper()} ({type(exc).__name__}: {detail})") from None
    if not g.is_directed():
        raise SchemaError(f"{p}: the graph is undirected; expected a directed graph (a causal graph's edges "
                          "point from cause to effect)")
    return _name_nodes(p, g, suffix, notes)


def _name_nodes(p: Path, g, suffix: str, notes: list):
    """Relabel the nodes by their labels when every node has a distinct one; else keep the ids, with a note."""
    import networkx as nx

    labels = {n: g.nodes[n].get("label") for n in g.nodes}
    for n, lab in labels.items():
        if lab is not None and not isinstance(lab, str):
            raise SchemaError(f"{p}: node {n!r}, attribute 'label': found {describe_found(lab)}; expected the "
                              "event name as text")
    named = [n for n, lab in labels.items() if lab is not None and not is_blank(lab)]
    if g.number_of_nodes() and len(named) == g.number_of_nodes() and len(set(labels.values())) == len(labels):
        return nx.relabel_nodes(g, labels)
    if named or suffix == ".gml":
        if len(named) < g.number_of_nodes():
            bare = [n for n in g.nodes if n not in named]
            why = (f"{len(bare)} of {g.number_of_nodes()} nodes have no label (first: id {bare[0]!r})" if named
                   else "no node has a label")
        else:
            seen: dict = {}
            first = next((seen[lab], n) for n, lab in labels.items() if seen.setdefault(lab, n) != n)
            why = f"nodes {first[0]!r} and {first[1]!r} share the label {labels[first[0]]!r}"
        notes.append(f"{p}: {why}; the node ids were used as event names")
    numbers = [n for n in g.nodes if not isinstance(n, str)]
    if numbers and suffix == ".json" and not named:
        notes.append(f"{p}: {len(numbers)} node id(s) are numbers (first: {numbers[0]!r}); read as text")
    return nx.relabel_nodes(g, {n: str(n) for n in numbers})


def _edge_label(p: Path, u: str, v: str, attrs: dict, keys, parser, accepted: str) -> tuple[bool, list]:
    """(found, labels) of one edge: ``conflicting`` (causalgraph's own exports) reads as both signs."""
    for k in keys:
        if k in attrs and not L.is_empty(attrs[k]):
            raw = attrs[k]
            if not isinstance(raw, str):
                # GraphML keys and GML/JSON values are typed: a number or a boolean is no label
                raise SchemaError(f"{p}: edge {u!r} -> {v!r}, attribute {k!r}: found {describe_found(raw)}; "
                                  f"expected text: {L.ACCEPTED[accepted]} (or conflicting)")
            if raw.strip().lower() == "conflicting":
                return True, [parser("positive"), parser("negative")]
            val = parser(raw)
            if val is None:
                raise SchemaError(f"{p}: edge {u!r} -> {v!r}, attribute {k!r}: found {raw!r}; expected "
                                  f"{L.ACCEPTED[accepted]} (or conflicting)")
            return True, [val]
    return False, []


def _statement(p: Path, sid: str, notes: list) -> tuple[Statement, set[str]]:
    g = read_graph_file(p, notes)
    if g.number_of_edges() > MAX_GRAPH_EDGES:
        raise SchemaError(f"{p}: {g.number_of_edges():,} edges; expected at most {MAX_GRAPH_EDGES:,} per graph file")
    for n in g.nodes:
        if is_blank(n) or unprintable_char(n):
            raise SchemaError(f"{p}: node {n!r}: expected an event name that shows something, without control "
                              "characters")
    edges = list(g.edges(data=True))
    holds: dict[str, int] = {}
    rel_labels = []
    for u, v, attrs in edges:
        per = {}
        for col, keys, parser, accepted in _LABELS:
            found, vals = _edge_label(p, u, v, attrs, keys, parser, accepted)
            if found:
                holds[col] = holds.get(col, 0) + 1
            per[col] = vals
        rel_labels.append(per)
    for col, count in holds.items():
        if count != len(edges):
            bare = next(f"{u!r} -> {v!r}" for (u, v, _), per in zip(edges, rel_labels) if not per[col])
            raise SchemaError(f"{p}: edge {bare} has no {col} attribute while {count} of {len(edges)} edges have "
                              f"one; expected every edge or none to carry it")
    relations = []
    for (u, v, _), per in zip(edges, rel_labels):
        corr = per["correlation"] or [None]
        pol = per["relation_type"] or [None]
        for i in range(max(len(corr), len(pol))):
            relations.append(Relation(cause=u, effect=v, correlation=corr[min(i, len(corr) - 1)],
                                      polarity=pol[min(i, len(pol) - 1)], source_file=str(p)))
    touched = {x for u, v, _ in edges for x in (u, v)}
    meta = {"format": "graph", "file": p.name, "statement_text": None,
            "isolated_events": [n for n in g.nodes if n not in touched]}
    lacking = {col for col, *_ in _LABELS if col not in holds}
    return Statement(id=sid, text="", causal=bool(relations), relations=tuple(relations), meta=meta,
                     source_file=str(p)), lacking


def load_graph_files(path: str | Path) -> Corpus:
    """Load a graph file, or a folder of them, as a corpus: one statement per file.

    Parameters
    ----------
    path
        A ``.graphml``, ``.gml``, ``.dot``/``.gv``, ``.dagitty``, node-link
        ``.json`` or edge-list ``.tsv`` file, or a folder holding such files (read in name order).

    Returns
    -------
    Corpus
        Named ``graphs``; statement ids are the file names without their
        suffix (with it where two files share a stem).  ``lacks`` holds
        ``text`` and the labels no file carries on every edge.

    Examples
    --------
    >>> import networkx as nx, tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> nx.write_gml(nx.DiGraph([("smoking", "cancer")]), d / "tiny.gml")
    >>> c = load_graph_files(d / "tiny.gml")
    >>> c["tiny"].relations[0].cause, "text" in c.lacks
    ('smoking', True)
    """
    p = Path(path)
    if not p.exists():
        raise SchemaError(f"{p}: no such file or folder")
    files = graph_files_in(p) if p.is_dir() else [p]
    if not files:
        raise SchemaError(f"{p}: folder holds no graph file (expected {', '.join(GRAPH_SUFFIXES)}; .json as "
                          "networkx node-link data)")
    stems = [f.stem for f in files]
    statements, lacking, notes = [], set(), []
    for f in files:
        sid = f.stem if stems.count(f.stem) == 1 else f.name
        st, lack = _statement(f, sid, notes)
        statements.append(st)
        lacking |= lack
    for note in notes:
        logger.warning("note: %s", note)
    lacks = tuple(c for c in ("text", "correlation", "relation_type", *_ALWAYS_LACKING[1:])
                  if c in lacking or c in _ALWAYS_LACKING)
    return Corpus(name="graphs", statements=statements, source=str(p),
                  sha256=sha256_file(p) if p.is_file() else None, lacks=lacks,
                  report={"files": len(files), "notes": notes})
