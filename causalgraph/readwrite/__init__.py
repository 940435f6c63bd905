"""Files in and out, one home per file format (as networkx's ``readwrite/``).

Each graph format is one module holding its writer and its reader side by side, with the one escaping
rule of that format: :mod:`.graphml`, :mod:`.gml`, :mod:`.dot`, :mod:`.dagitty`, :mod:`.node_link`
(networkx node-link JSON) and :mod:`.edgelist`; the converters to other libraries' objects are
:mod:`.pgmpy_dag` (a ``pgmpy`` ``DAG``) and :mod:`.dowhy_graph` (the GML DoWhy's ``CausalModel`` takes);
plain texts, one per line, a CSV column or a JSONL key, are :mod:`.texts`.  The corpus files
(ClimateCause, PubMedCausal, relations files) are read by :mod:`causalgraph.datasets`, which builds
statements from the graphs read here (:func:`causalgraph.datasets.load_graph_files`).

Every writer keeps the edge labels where the format has attributes: ``correlation`` and ``polarity``
(the relation type), each ``positive``, ``negative`` or ``conflicting`` (a pair annotated with both
signs), left out for an edge without the label (PubMedCausal).  Formats that mean a DAG — a pgmpy
``DAG``, dagitty's ``dag``, DoWhy's graph — refuse a graph with a cycle, naming one (docs/graphs.md).

Examples
--------
>>> from causalgraph.graph import compile_graph
>>> from causalgraph.model import Relation
>>> print(graph_text(compile_graph([Relation("a", "b")]), "dagitty"), end="")
dag {
  "a"
  "b"
  "a" -> "b"
}
>>> get_format("edgelist").read.__name__, get_format("edgelist").suffix
('read_edgelist', '.tsv')

A format of your own is a :class:`GraphFormat` record registered with :func:`register_format` (or a
plugin's entry point in the group ``causalgraph.formats``): ``export-graphs --format NAME`` writes it,
and ``--data FILE`` reads a file of its suffix when no built-in format claims that suffix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

from .._core.registry import ENTRY_POINT_GROUPS, Registry, record_name, short_repr
from ..errors import ConfigError
from ._digraph import check_dag, edge_labels, find_cycle, to_digraph
from .dagitty import dagitty_text, read_dagitty, to_dagitty
from .dot import read_dot, to_dot
from .dowhy_graph import to_dowhy
from .edgelist import read_edgelist, to_edgelist
from .gml import read_gml, to_gml
from .graphml import read_graphml, to_graphml
from .node_link import read_node_link, to_node_link
from .pgmpy_dag import to_pgmpy

__all__ = ["GraphFormat", "FORMATS", "register_format", "unregister_format", "get_format", "format_names",
           "reader_for", "GRAPH_FORMATS", "SUFFIXES", "READERS", "graph_text", "edge_labels",
           "to_digraph", "find_cycle", "check_dag", "to_gml", "read_gml", "to_graphml", "read_graphml", "to_dot",
           "read_dot", "to_dagitty", "read_dagitty", "to_node_link", "read_node_link", "to_edgelist", "read_edgelist",
           "to_pgmpy", "to_dowhy"]


@dataclass(frozen=True)
class GraphFormat:
    """One graph file format: what ``export-graphs --format`` writes and ``--data`` reads.

    Attributes
    ----------
    name
        ``export-graphs --format`` name: lower-case letters, digits, ``_`` and ``-``.
    suffix
        The file suffix written (``".graphml"``), and read when no built-in format claims it.
    write
        ``write(graph) -> str``: the graph (its ``nodes`` and ``edges``: a compiled
        :class:`~causalgraph.graph.CausalGraph`) as the file's text; ``None`` for a read-only format.
    read
        ``read(path) -> networkx.DiGraph`` (or ``MultiDiGraph``): the file's graph, node names as
        written, edge labels (``correlation``, ``relation_type``/``polarity``) as edge attributes;
        ``None`` for a write-only format.
    dag
        Whether the format means a DAG: :func:`graph_text` refuses a graph with a cycle, naming it
        (so ``export-graphs`` refuses before it writes any file), before the writer is called.
    description
        The format as messages and listings name it (``"dagitty's dag"``); ``graph format '<name>'``
        when empty.
    """

    name: str
    suffix: str
    write: Optional[Callable[[Any], str]] = None
    read: Optional[Callable[[Path], Any]] = None
    dag: bool = False
    description: str = ""


_NAME = re.compile(r"[a-z][a-z0-9_-]*")
_SUFFIX = re.compile(r"\.[a-z0-9]+")


def _check_format(name: str, fmt: Any) -> GraphFormat:
    if not isinstance(fmt, GraphFormat):
        raise ConfigError(f"graph format {name!r}: found {short_repr(fmt)} ({type(fmt).__name__}); expected a "
                          "GraphFormat record")
    if fmt.name != name:
        raise ConfigError(f"graph format {name!r}: the GraphFormat record is named {fmt.name!r}; the registered "
                          "name must be the format's own")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ConfigError(f"graph format name {name!r}: expected lower-case letters, digits, '_' and '-', "
                          "starting with a letter")
    if not isinstance(fmt.suffix, str) or not _SUFFIX.fullmatch(fmt.suffix):
        raise ConfigError(f"graph format {name!r}: suffix {fmt.suffix!r}; expected '.' and lower-case letters or "
                          "digits ('.graphml')")
    if fmt.write is None and fmt.read is None:
        raise ConfigError(f"graph format {name!r}: neither a writer nor a reader; expected at least one")
    for what, fn in (("writer", fmt.write), ("reader", fmt.read)):
        if fn is not None and not callable(fn):
            raise ConfigError(f"graph format {name!r}: its {what} {short_repr(fn)} is not callable (None: no "
                              f"{what})")
    return fmt


_BUILTIN = (
    GraphFormat("graphml", ".graphml", to_graphml, read_graphml, description="GraphML (networkx, yEd, Gephi)"),
    GraphFormat("gml", ".gml", to_gml, read_gml, description="GML (networkx, DoWhy)"),
    GraphFormat("dot", ".dot", to_dot, read_dot, description="Graphviz DOT"),
    GraphFormat("dagitty", ".dagitty", dagitty_text, read_dagitty, dag=True, description="dagitty's dag"),
    GraphFormat("json", ".json", to_node_link, read_node_link, description="networkx node-link JSON"),
    GraphFormat("edgelist", ".tsv", to_edgelist, read_edgelist, description="a tab-separated edge list"),
)


def _builtins(registry: Registry) -> None:
    for fmt in _BUILTIN:
        registry.register(fmt.name, fmt, builtin=True)


#: Every graph file format by name: the six built-ins, those registered with :func:`register_format`,
#: then plugins of the entry-point group ``causalgraph.formats``.
FORMATS: Registry[GraphFormat] = Registry("graph format", group=ENTRY_POINT_GROUPS["format"], coerce=_check_format,
                                          builtins=_builtins)

#: ``export-graphs --format`` choices of causalgraph itself (help texts list these; plugins are read on use).
GRAPH_FORMATS = tuple(f.name for f in _BUILTIN)
#: File suffix of each built-in format.
SUFFIXES = {f.name: f.suffix for f in _BUILTIN}
#: The built-in reader of each file suffix (``.gv`` is DOT too): ``reader(path)`` → a networkx directed graph.
READERS = {**{f.suffix: f.read for f in _BUILTIN}, ".gv": read_dot}


def register_format(fmt: "GraphFormat | str", *, replace: bool = False, name: Optional[str] = None) -> "GraphFormat | str":
    """Add a graph file format (``replace=True`` to replace one of the same name); returns it.

    ``fmt`` is a :class:`GraphFormat`, or the lazy ``"module:attr"`` target of one (then ``name``
    says its name).  The built-in suffixes stay the built-ins': a format of ``.graphml`` is written by
    ``export-graphs --format NAME`` but ``--data x.graphml`` still reads GraphML.

    Examples
    --------
    >>> from causalgraph.graph import compile_graph
    >>> from causalgraph.model import Relation
    >>> arrows = GraphFormat("arrows", ".arrows", lambda g: "".join(f"{e.cause} -> {e.effect}\\n" for e in g.edges))
    >>> register_format(arrows).name, graph_text(compile_graph([Relation("a", "b")]), "arrows")
    ('arrows', 'a -> b\\n')
    >>> unregister_format("arrows")
    """
    return FORMATS.register(record_name(fmt, GraphFormat, name, "register_format"), fmt, replace=replace)


def unregister_format(name: str) -> None:
    """Remove a format registered with :func:`register_format`; the built-ins stay."""
    if name in GRAPH_FORMATS:
        raise ConfigError(f"graph format {name!r} is built in and cannot be removed")
    FORMATS.unregister(name)


def get_format(name: str) -> GraphFormat:
    """The format of that name (a one-line error listing the formats, with a "did you mean", for another)."""
    return FORMATS.get(name)


def format_names(*, plugins: bool = True) -> tuple[str, ...]:
    """Every usable format's name, built-ins first; ``plugins=False`` reads no entry point (help texts)."""
    return FORMATS.names(plugins=False) if not plugins else tuple(FORMATS.usable())


def reader_for(suffix: str) -> Optional[Callable[[Path], Any]]:
    """The reader of a file suffix: a built-in's, else a registered format's (the plugins are read only then).

    Examples
    --------
    >>> reader_for(".gv").__name__, reader_for(".nope")
    ('read_dot', None)
    """
    suffix = suffix.lower()
    if suffix in READERS:
        return READERS[suffix]
    for fmt in FORMATS.usable().values():
        if fmt.read is not None and fmt.suffix == suffix:
            return _checked_reader(fmt)
    return None


def _checked_reader(fmt: GraphFormat) -> Callable[[Path], Any]:
    """A registered format's reader, whose failure or wrong value is one line naming the format."""
    def read(path: Path) -> Any:
        graph = FORMATS.call(fmt.name, "reader", fmt.read, path)
        if not (hasattr(graph, "is_directed") and hasattr(graph, "edges") and hasattr(graph, "nodes")):
            raise FORMATS.refuse(fmt.name, "reader", graph, "a networkx graph", given=f" for {path}")
        return graph
    return read


def graph_text(graph, fmt: str) -> str:
    """The graph in a registered format (:data:`GRAPH_FORMATS` and any registered since).

    A graph with a cycle is refused, naming it, for a format marked ``dag``; a plugin's writer that
    raises or returns something else than text is one line naming it.
    """
    record = get_format(fmt)
    if record.write is None:
        raise ConfigError(f"{FORMATS.describe(fmt)} has no writer; it is read only")
    if record.dag:
        check_dag(graph, record.description or f"graph format {fmt!r}")
    text = FORMATS.call(fmt, "writer", record.write, graph)
    if not isinstance(text, str):
        raise FORMATS.refuse(fmt, "writer", text, "the graph as text (str)")
    return text
