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

from ..errors import SchemaError
from ..model import Corpus, Relation, Statement, is_blank, unprintable_char
from . import labels as L
from .fetch import sha256_file

__all__ = ["GRAPH_SUFFIXES", "MAX_GRAPH_EDGES", "load_graph_files", "read_graph_file", "is_node_link_json",
           "graph_files_in"]

#: File types read as graphs (``.json`` only when it holds a node-link object).
GRAPH_SUFFIXES = (".graphml", ".gml", ".dot", ".gv", ".json")
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


def graph_files_in(folder: Path) -> list[Path]:
    """The graph files of a folder, sorted by name (``.json`` only when node-link)."""
    out = []
    for p in sorted(folder.iterdir()):
        if p.is_file() and p.suffix.lower() in GRAPH_SUFFIXES:
            if p.suffix.lower() != ".json" or is_node_link_json(p):
                out.append(p)
    return out


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
        A ``.graphml``, ``.gml``, ``.dot``/``.gv`` or node-link ``.json`` file.
    notes
        A list the notes are appended to (``None``: not kept).

    Raises
    ------
    SchemaError
        The file cannot be read as its type, its graph is undirected, a
        node's label is not text, or (node-link) two ids name one event,
        an id is declared twice or a link names an undeclared node.
    """
    import networkx as nx

    p = Path(path)
    suffix = p.suffix.lower()
    notes = [] if notes is None else notes
    try:
        if suffix == ".graphml":
            g = nx.read_graphml(p)
        elif suffix == ".gml":
            # label=None keeps the ids as nodes and the labels as attributes: the choice is made below
            g = nx.read_gml(p, label=None)
        elif suffix in (".dot", ".gv"):
            g = _read_dot(p)
        elif suffix == ".json":
            g = _read_node_link(p, notes)
        else:
            raise SchemaError(f"{p}: unsupported graph file type {suffix!r}; expected one of "
                              f"{', '.join(GRAPH_SUFFIXES)}")
    except SchemaError:
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
            raise SchemaError(f"{p}: node {n!r}, attribute 'label': found {L.describe_found(lab)}; expected the "
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


def _read_node_link(p: Path, notes: list):
    """A node-link JSON file as a graph, after checking what networkx would silently merge or invent.

    ``networkx.node_link_graph`` adds a node for a link end that no node declares, merges a node
    declared twice, and keeps ``1`` and ``"1"`` apart until their names become text, when they
    are one event; each of these is refused here.  An id is text or an integer.
    """
    import networkx as nx

    try:
        data = json.loads(p.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError) as exc:
        raise SchemaError(f"{p}: cannot read as UTF-8 text ({exc})") from None
    except json.JSONDecodeError as exc:
        raise SchemaError(f"{p}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    if not (isinstance(data, dict) and "nodes" in data and ("links" in data or "edges" in data)):
        raise SchemaError(f"{p}: found JSON without 'nodes' and 'links' (or 'edges'); expected a networkx "
                          "node-link graph (networkx.node_link_data)")
    key = "links" if "links" in data else "edges"
    nodes, links = data["nodes"], data[key]
    for what, value in (("nodes", nodes), (key, links)):
        if not isinstance(value, list):
            raise SchemaError(f"{p}: {what!r}: found {L.describe_found(value)}; expected a list of objects")
    declared: dict = {}  # (type, id) → position, so that 1 and "1" are told apart
    as_text: dict[str, object] = {}
    for i, node in enumerate(nodes, start=1):
        if not isinstance(node, dict) or "id" not in node:
            raise SchemaError(f"{p}: node {i}: found {L.describe_found(node)}; expected an object with an 'id'")
        nid = node["id"]
        if not (isinstance(nid, str) or type(nid) is int):
            raise SchemaError(f"{p}: node {i}, field 'id': found {L.describe_found(nid)}; expected text or an "
                              "integer")
        if (type(nid), nid) in declared:
            first = declared[type(nid), nid]
            raise SchemaError(f"{p}: node {i}: id {nid!r} is declared again (first at node {first}); expected "
                              "each node once")
        other = as_text.get(str(nid))
        if other is not None:
            first = declared[type(other), other]
            raise SchemaError(f"{p}: node {i}: id {nid!r} and the id {other!r} of node {first} are the same event "
                              f"name {str(nid)!r}; expected distinct ids")
        declared[type(nid), nid] = i
        as_text[str(nid)] = nid
    for j, link in enumerate(links, start=1):
        if not isinstance(link, dict):
            raise SchemaError(f"{p}: link {j} of {key!r}: found {L.describe_found(link)}; expected an object "
                              "with 'source' and 'target'")
        for end in ("source", "target"):
            if end not in link:
                raise SchemaError(f"{p}: link {j} of {key!r}: no {end!r}; expected a link with 'source' and 'target'")
            v = link[end]
            if not (isinstance(v, str) or type(v) is int) or (type(v), v) not in declared:
                raise SchemaError(f"{p}: link {j} of {key!r}, field {end!r}: found {L.describe_found(v)}, which "
                                  "no node declares; expected the id of a node in 'nodes'")
    return nx.node_link_graph(data, edges=key)


def _dot_id(raw):
    """A DOT id as pydot returns it (raw, quotes and escapes kept) as the event name it spells.

    A quoted id loses its quotes and the escapes causalgraph's writer makes (``\\"``, ``\\\\``,
    ``\\n``, ``\\r``; any other backslash stays as written); a port (``"a":p``, ``a:p:n``) is no
    part of the name.  An unquoted or HTML id is the name as written.

    Examples
    --------
    >>> _dot_id('"say \\\\"hi\\\\""'), _dot_id('"a\\\\\\\\"'), _dot_id("node_1:port")
    ('say "hi"', 'a\\\\', 'node_1')
    """
    if not isinstance(raw, str):
        return raw
    if not raw.startswith('"'):
        # an unquoted id cannot hold ':', so what follows one is a port
        return raw.split(":", 1)[0] if not raw.startswith("<") else raw
    out, i = [], 1
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw) and raw[i + 1] in '"\\nr':
            out.append({"n": "\n", "r": "\r"}.get(raw[i + 1], raw[i + 1]))
            i += 2
            continue
        if ch == '"':
            break  # the closing quote; a port may follow
        out.append(ch)
        i += 1
    return "".join(out)


# Unquoted ``node``, ``graph`` and ``edge`` are DOT keywords (a default-attribute statement), which
# pydot lists as nodes of those names; a quoted "node" is an event.
_DOT_KEYWORDS = ("node", "graph", "edge")


def _read_dot(p: Path):
    """A DOT file as a networkx graph, walked from pydot's parse (subgraphs included, names unescaped).

    networkx's ``read_dot`` strips every leading and trailing quote character from a name
    (``"say \\"hi\\""`` reads as ``say \\"hi\\``), drops edges inside subgraphs and skips a node
    named ``node``; and pydot prints a parse error to stdout.  So the parse is made here, its
    printout kept for the message, and the graph built from pydot's raw ids.
    """
    import contextlib
    import io

    import networkx as nx

    try:
        import pydot
    except ImportError:
        raise SchemaError(f"{p}: reading DOT needs pydot (pip install pydot)") from None
    try:
        text = p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise SchemaError(f"{p}: cannot read as UTF-8 text ({exc})") from None
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        graphs = pydot.graph_from_dot_data(text)
    if not graphs:
        # pydot printed the offending line, a caret and pyparsing's message; the message is the last line
        said = [line.strip() for line in printed.getvalue().splitlines() if line.strip()]
        raise SchemaError(f"{p}: cannot read as DOT ({said[-1] if said else 'no graph in the file'})")
    if len(graphs) > 1:
        raise SchemaError(f"{p}: the file holds {len(graphs)} graphs; expected one graph per file")
    top = graphs[0]
    if top.get_type() != "digraph":
        return nx.Graph()  # refused by the caller as undirected
    g = nx.DiGraph() if top.get_strict() else nx.MultiDiGraph()

    def ends(x) -> list:
        # an edge end is an id, or a subgraph ({a b}) standing for each of its nodes
        if isinstance(x, str):
            return [_dot_id(x)]
        return [_dot_id(n) for n in x.get("nodes", {})]

    def walk(graph) -> None:
        parts = [(n.obj_dict.get("sequence", 0), 0, n) for n in graph.get_node_list()]
        parts += [(e.obj_dict.get("sequence", 0), 1, e) for e in graph.get_edge_list()]
        parts += [(s.obj_dict.get("sequence", 0), 2, s) for s in graph.get_subgraph_list()]
        for _, kind, obj in sorted(parts, key=lambda t: (t[0], t[1])):
            if kind == 0:
                if obj.get_name() not in _DOT_KEYWORDS:
                    g.add_node(_dot_id(obj.get_name()), **{k: _dot_id(v) for k, v in obj.get_attributes().items()})
            elif kind == 1:
                attrs = {k: _dot_id(v) for k, v in obj.get_attributes().items()}
                for u in ends(obj.get_source()):
                    for v in ends(obj.get_destination()):
                        g.add_edge(u, v, **attrs)
            else:
                walk(obj)

    walk(top)
    return g


def _edge_label(p: Path, u: str, v: str, attrs: dict, keys, parser, accepted: str) -> tuple[bool, list]:
    """(found, labels) of one edge: ``conflicting`` (causalgraph's own exports) reads as both signs."""
    for k in keys:
        if k in attrs and not L.is_empty(attrs[k]):
            raw = attrs[k]
            if not isinstance(raw, str):
                # GraphML keys and GML/JSON values are typed: a number or a boolean is no label
                raise SchemaError(f"{p}: edge {u!r} -> {v!r}, attribute {k!r}: found {L.describe_found(raw)}; "
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
        A ``.graphml``, ``.gml``, ``.dot``/``.gv`` or node-link ``.json``
        file, or a folder holding such files (read in name order).

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
