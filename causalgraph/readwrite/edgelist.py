"""Edge lists: a tab-separated table with the header ``cause``, ``effect``, ``correlation``,
``relation_type``; fields holding a tab, a quote or a line break quoted as CSV does.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from .._core.wording import describe_found
from ..errors import SchemaError
from ._digraph import edge_labels

__all__ = ["to_edgelist", "read_edgelist", "EDGELIST_COLUMNS"]

#: The header :func:`to_edgelist` writes; :func:`read_edgelist` needs the first two and reads the others
#: (``polarity`` for ``relation_type`` too) where present.
EDGELIST_COLUMNS = ("cause", "effect", "correlation", "relation_type")


def to_edgelist(graph) -> str:
    """A tab-separated edge list with a header: ``cause``, ``effect``, ``correlation``, ``relation_type``.

    Fields holding a tab, a quote or a line break are quoted as CSV does.

    Examples
    --------
    >>> from causalgraph.graph import compile_graph
    >>> from causalgraph.model import Relation
    >>> to_edgelist(compile_graph([Relation("a", "b"), Relation("line\\rbreak", "c")])).split("\\n")[1:3]
    ['a\\tb\\t\\t', '"line\\rbreak"\\t"c"\\t""\\t""']
    """
    buf = io.StringIO()
    w = csv.writer(buf, delimiter="\t", lineterminator="\n")
    # With "\n" as line end the csv module leaves a lone "\r" unquoted, and every reader then
    # breaks the row there; a row holding one is written with every field quoted.
    quoted = csv.writer(buf, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_ALL)
    w.writerow(EDGELIST_COLUMNS)
    for e in graph.edges:
        labels = edge_labels(e)
        row = [e.cause, e.effect, labels.get("correlation", ""), labels.get("polarity", "")]
        (quoted if any("\r" in x for x in row) else w).writerow(row)
    return buf.getvalue()


def read_edgelist(path: "str | Path"):
    """An edge-list file as a networkx ``MultiDiGraph``: one edge per row, its labels as edge attributes.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "e.tsv"
    >>> _ = f.write_text("cause\\teffect\\tcorrelation\\na\\tb\\tnegative\\nb\\tc\\tnegative\\n", encoding="utf-8")
    >>> [(u, v, d) for u, v, d in read_edgelist(f).edges(data=True)]
    [('a', 'b', {'correlation': 'negative'}), ('b', 'c', {'correlation': 'negative'})]
    """
    import networkx as nx

    p = Path(path)
    try:
        # bytes, not read_text: a quoted "\r" inside a field must not become a line end
        text = p.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise SchemaError(f"{p}: cannot read as UTF-8 text ({exc})") from None
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t")
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise SchemaError(f"{p}: line {reader.line_num}: cannot read as a tab-separated table ({exc})") from None
    header = rows[0] if rows else []
    if header[:2] != ["cause", "effect"]:
        raise SchemaError(f"{p}: row 1: found the header {describe_found(header)}; expected columns starting "
                          "'cause', 'effect' (then 'correlation', 'relation_type')")
    if len(set(header)) != len(header):
        raise SchemaError(f"{p}: row 1: a column is named twice in {describe_found(header)}; expected each once")
    g = nx.MultiDiGraph()
    for number, row in enumerate(rows[1:], start=2):
        if not row:
            continue  # a blank line
        if len(row) != len(header):
            raise SchemaError(f"{p}: row {number}: found {len(row)} fields; expected {len(header)}, one per column "
                              "of the header")
        fields = dict(zip(header, row))
        attrs = {k: v for k, v in fields.items() if k not in ("cause", "effect") and v != ""}
        g.add_edge(fields["cause"], fields["effect"], **attrs)
    return g
