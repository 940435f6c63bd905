"""An interactive, offline graph viewer for one statement (pyvis / vis-network).

:func:`to_pyvis` turns a compiled graph into a :class:`pyvis.network.Network`
whose nodes are events and whose edges are

* causal edges, coloured by correlation (positive / negative / conflicting)
  and dashed when the relation type is negative (*prevents*);
* belongs-to edges (common cause/effect and elaboration of examples) and
  nesting edges, dotted and drawn to the overarching event.

:func:`graph_html` renders it as one self-contained HTML page: the statement
text with its triggers highlighted above the graph, check boxes that toggle the
belongs-to and nesting edges, a legend and a relation table.  The vis-network
JavaScript and CSS that pyvis ships are inlined, so the page fetches nothing:
it works from ``file://`` without a network.

Everything that comes from data is escaped.  Text placed in HTML goes through
:func:`html.escape`; the node and edge data travel as JSON inside a
``<script type="application/json">`` block with ``<``, ``>`` and ``&``
written as ``\\u003c`` …, so a ``</script>`` inside an event cannot end the
block, and tooltips are plain text (vis-network 9 never parses a string title
as HTML).  pyvis' own page template is not used because it loads Bootstrap
from a CDN.
"""

from __future__ import annotations

import html
import json
import os
import re
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from ..errors import ConfigError
from ..graph import CausalEdge, CausalGraph, _event, as_graph as _as_graph
from ..model import Statement
from .kit import content_security_policy, require, script_json, vis_tags
from .._core.outputs import NO_BROWSER, open_page, output_file, safe_name
from .._core.wording import plural
from ..metrics.chains import chain_labels

__all__ = [
    "MAX_VIEW_NODES",
    "POSITION_COLORS",
    "CORRELATION_COLORS",
    "OVERLAY_STYLES",
    "NETWORK_OPTIONS",
    "ViewerData",
    "viewer_data",
    "to_pyvis",
    "highlight_triggers",
    "graph_html",
    "write_graph_html",
    "show",
    "safe_filename",
]

# Colour-blind-safe (ColorBrewer Dark2) chain positions; "none" is neutral grey.
POSITION_COLORS = {"start": "#1b9e77", "middle": "#7570b3", "end": "#d95f02", "none": "#b0b0b0"}
OVERARCHING_COLOR = "#f2e6c9"
CORRELATION_COLORS = {"positive": "#1f77b4", "negative": "#d62728", "conflicting": "#9467bd", "": "#7f7f7f"}
# Dash patterns (vis-network: [dash, gap]); negative relation type = dashed.
POLARITY_DASHES = {"negative": [10, 6], "conflicting": [14, 4, 3, 4]}
OVERLAY_STYLES = {
    "common": {"color": "#8c564b", "label": "common cause/effect (belongs to)"},
    "elaboration": {"color": "#17becf", "label": "elaboration of examples (belongs to)"},
    "nesting": {"color": "#e377c2", "label": "nested in"},
}
DOTTED = [2, 5]
#: Largest graph the viewer draws.  Statement graphs have tens of events (ClimateCause: at most 43);
#: beyond a few thousand the browser layout stalls, and pyvis checks each edge's end points in O(nodes).
MAX_VIEW_NODES = 2000

@dataclass(frozen=True)
class ViewerData:
    """What the viewer draws: vis-network node and edge records plus page notes.

    ``nodes`` and ``edges`` are plain dicts in the shape vis-network reads
    (``id``, ``label``, ``title``, ``from``, ``to`` …) with one extra key,
    ``kind``: ``"event"`` or ``"overarching"`` for nodes, ``"causal"``,
    ``"common"``, ``"elaboration"`` or ``"nesting"`` for edges.
    """

    statement_id: Optional[str]
    text: Optional[str]
    nodes: tuple[dict, ...]
    edges: tuple[dict, ...]
    positions: dict
    notes: tuple[str, ...]

    def count(self, kind: str) -> int:
        """Number of edges of one kind (or nodes, for ``"event"``/``"overarching"``)."""
        if kind in ("event", "overarching"):
            return sum(1 for n in self.nodes if n["kind"] == kind)
        return sum(1 for e in self.edges if e["kind"] == kind)


def _chain_positions(graph: CausalGraph, rule: str = "path") -> dict[str, str]:
    """Chain position (start/middle/end/none) of every causal node."""
    return {node: pos.value for node, pos in chain_labels(graph, rule).items()}


def _lines(pairs: Sequence[tuple[str, object]]) -> str:
    # Plain-text tooltip: one "name: value" per line, empty values left out.
    return "\n".join(f"{k}: {v}" if k else str(v) for k, v in pairs if v not in (None, ""))


def _wrap(label: str, width: int = 26) -> str:
    return textwrap.fill(label, width=width, break_long_words=False, break_on_hyphens=False) or label


def _causal_edge_record(e: CausalEdge) -> dict:
    a = e.attributes()
    corr, pol = a["correlation"], a["polarity"]
    record = {
        "kind": "causal",
        "color": {"color": CORRELATION_COLORS.get(corr, CORRELATION_COLORS[""]), "inherit": False},
        "dashes": POLARITY_DASHES.get(pol, False),
        "width": 2 + min(len(e.relations), 6) * 0.5,
        "arrows": "to",
        "correlation": corr,
        "polarity": pol,
        "title": _lines([
            ("", f"{e.cause} → {e.effect}"),
            ("correlation", corr),
            ("relation type", {"positive": "positive (causes)", "negative": "negative (prevents)"}.get(pol, pol)),
            ("trigger", a["trigger"]),
            ("explicitness", a["explicitness"]),
            ("confidence", a["confidence"]),
            ("cause context", a["cause_context"]),
            ("effect context", a["effect_context"]),
            ("relations", a["n_relations"]),
        ]),
    }
    return record


def viewer_data(obj: CausalGraph | Statement, *, positions: Optional[dict] = None,
                rule: str = "path") -> ViewerData:
    """The nodes and edges the viewer draws for a graph or statement.

    Parameters
    ----------
    obj
        A :class:`~causalgraph.graph.CausalGraph` or a
        :class:`~causalgraph.model.Statement` (compiled with default options).
    positions
        Chain position of each causal node (``start``/``middle``/``end``/
        ``none``); by default computed with :func:`causalgraph.chain_labels`.
    rule
        Chain rule passed to :func:`causalgraph.chain_labels` (``"path"`` or
        ``"shortest-distance"``) when ``positions`` is not given.

    Returns
    -------
    ViewerData
        Causal nodes first (data order), then overarching events that are not
        causal nodes; causal edges first, then common, elaboration and
        nesting edges.

    Examples
    --------
    >>> from causalgraph.model import Relation, Statement
    >>> s = Statement("s1", "A raises B.", True, (Relation("a", "b"),))
    >>> d = viewer_data(s, positions={"a": "none", "b": "none"})
    >>> [n["label"] for n in d.nodes], [(e["from"], e["to"]) for e in d.edges]
    (['a', 'b'], [(0, 1)])
    """
    graph = _as_graph(obj)
    if len(graph.nodes) > MAX_VIEW_NODES:
        raise ConfigError(f"statement {graph.statement_id}: its graph has {len(graph.nodes)} events; the viewer "
                          f"draws at most MAX_VIEW_NODES = {MAX_VIEW_NODES}")
    if positions is None:
        positions = _chain_positions(graph, rule)
    missing = [n for n in graph.nodes if n not in positions]
    if missing:
        raise ConfigError(f"no chain position given for event {missing[0]!r}; "
                          "expected one of start, middle, end, none for every node")
    ids: dict[str, int] = {}
    nodes: list[dict] = []
    for n in graph.nodes:
        ids[n] = len(nodes)
        pos = positions[n]
        indeg, outdeg = graph.in_degree(n), graph.out_degree(n)
        nodes.append({
            "id": ids[n], "kind": "event", "label": _wrap(n), "event": n,
            "position": pos,
            "color": POSITION_COLORS.get(pos, POSITION_COLORS["none"]),
            "size": 10 + 5 * (indeg + outdeg),
            "title": _lines([("", n), ("chain position", pos), ("causes (in-degree)", indeg),
                             ("effects (out-degree)", outdeg)]),
        })

    def overarching(name: str) -> int:
        if name not in ids:
            ids[name] = len(nodes)
            nodes.append({
                "id": ids[name], "kind": "overarching", "label": _wrap(name), "event": name,
                "position": "", "shape": "box", "color": OVERARCHING_COLOR,
                "title": _lines([("", name), ("", "overarching event (not itself a cause or effect)")]),
            })
        return ids[name]

    edges = [dict(_causal_edge_record(e), **{"from": ids[e.cause], "to": ids[e.effect]}) for e in graph.edges]
    notes: list[str] = []
    for view in ("common", "elaboration"):
        style = OVERLAY_STYLES[view]
        for b in graph.belongs_edges(view):
            edges.append({
                "from": ids[b.event], "to": overarching(b.overarching), "kind": view,
                "color": {"color": style["color"], "inherit": False}, "dashes": DOTTED, "width": 1.5,
                "arrows": "to",
                "title": _lines([("", f"{b.event} belongs to {b.overarching}"), ("structure", style["label"]),
                                 ("annotated as", f"{b.role} belongs to"), ("relations", len(b.relations))]),
            })
    style = OVERLAY_STYLES["nesting"]
    for nest, rels in graph.nesting.items():
        if nest is None:
            notes.append(f"{len(rels)} nested relation(s) have no nesting event (Effect–Belongs_to is empty); "
                         "they are drawn as causal edges only.")
            continue
        seen: dict[str, list[str]] = {}
        for r in rels:
            c, e = _event(r, "cause", graph.node_form), _event(r, "effect", graph.node_form)
            for ev in (c, e):
                seen.setdefault(ev, [])
                pair = f"{c} → {e}"
                if pair not in seen[ev]:
                    seen[ev].append(pair)
        target = overarching(nest)
        for ev, pairs in seen.items():
            if ev == nest:
                # An event nested in itself would be a self-loop; the relation list says it.
                notes.append(f"{ev!r} is both a nesting event and part of a relation nested in it.")
                continue
            edges.append({
                "from": ids[ev], "to": target, "kind": "nesting",
                "color": {"color": style["color"], "inherit": False}, "dashes": DOTTED, "width": 1.5,
                "arrows": "to",
                "title": _lines([("", f"{ev} is part of a relation nested in {nest}")]
                                + [("nested relation", p) for p in pairs]),
            })
    return ViewerData(graph.statement_id, graph.text, tuple(nodes), tuple(edges),
                      {n: positions[n] for n in graph.nodes}, tuple(notes))


def to_pyvis(obj: CausalGraph | Statement | ViewerData, *, height: str = "640px"):
    """A :class:`pyvis.network.Network` of the graph (directed, offline resources).

    Use it to customise the network with pyvis' own API; :func:`graph_html`
    builds the complete page.

    Examples
    --------
    >>> from causalgraph.model import Relation, Statement
    >>> s = Statement("s1", "A raises B.", True, (Relation("a", "b"),))
    >>> net = to_pyvis(viewer_data(s, positions={"a": "none", "b": "none"}))
    >>> net.num_nodes(), net.num_edges()
    (2, 1)
    """
    Network = require("pyvis.network").Network
    data = obj if isinstance(obj, ViewerData) else viewer_data(obj)
    net = Network(height=height, width="100%", directed=True, cdn_resources="in_line")
    for n in data.nodes:
        opts = {k: v for k, v in n.items() if k not in ("id", "label")}
        opts.setdefault("shape", "dot")
        net.add_node(n["id"], label=n["label"], **opts)
    for e in data.edges:
        net.add_edge(e["from"], e["to"], **{k: v for k, v in e.items() if k not in ("from", "to")})
    net.set_options(json.dumps(NETWORK_OPTIONS))
    return net


# Fixed seed and a stabilised physics layout: the same graph always gets the same picture.
NETWORK_OPTIONS = {
    "layout": {"randomSeed": 7, "improvedLayout": True},
    "physics": {
        "solver": "forceAtlas2Based",
        "forceAtlas2Based": {"gravitationalConstant": -60, "springLength": 140, "avoidOverlap": 0.4},
        "stabilization": {"enabled": True, "iterations": 400, "fit": True},
    },
    "interaction": {"hover": True, "tooltipDelay": 120, "navigationButtons": False},
    "edges": {"smooth": {"enabled": True, "type": "dynamic"}, "arrows": {"to": {"enabled": True, "scaleFactor": 0.7}}},
    "nodes": {"font": {"size": 14, "face": "sans-serif"}, "borderWidth": 1},
}


def highlight_triggers(text: str, triggers: Sequence[str]) -> tuple[str, list[str]]:
    """Escape ``text`` for HTML and wrap every occurrence of a trigger in ``<mark>``.

    Matching ignores case and needs word boundaries; where two triggers
    overlap the longer one (then the earlier) wins.

    Returns
    -------
    (html, not_found)
        The escaped text with marks, and the triggers that do not occur
        verbatim (reported on the page instead of being dropped).

    Examples
    --------
    >>> highlight_triggers("A <b> leads to C.", ["leads to"])
    ('A &lt;b&gt; <mark class="trigger">leads to</mark> C.', [])
    """
    spans: list[tuple[int, int]] = []
    not_found: list[str] = []
    for t in dict.fromkeys(t.strip() for t in triggers if t and t.strip()):
        pattern = re.compile(r"(?<!\w)" + r"\s+".join(re.escape(w) for w in t.split()) + r"(?!\w)", re.IGNORECASE)
        found = [(m.start(), m.end()) for m in pattern.finditer(text)]
        if not found:
            not_found.append(t)
        spans.extend(found)
    chosen: list[tuple[int, int]] = []
    for s, e in sorted(spans, key=lambda se: (se[0], -(se[1] - se[0]))):
        if chosen and s < chosen[-1][1]:
            continue
        chosen.append((s, e))
    out, last = [], 0
    for s, e in chosen:
        out.append(html.escape(text[last:s]))
        out.append(f'<mark class="trigger">{html.escape(text[s:e])}</mark>')
        last = e
    out.append(html.escape(text[last:]))
    return "".join(out), not_found


_PAGE_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.2em 2em;color:#222}
h1{font-size:1.3em;margin:0 0 .4em}
.statement{font-size:1.05em;line-height:1.55;max-width:72em;background:#fafafa;border-left:4px solid #999;padding:.6em 1em}
mark.trigger{background:#ffe28a;padding:0 .1em;border-radius:2px}
.meta,.notes{color:#555;font-size:.9em}
#controls{margin:.6em 0}#controls label{margin-right:1.4em}
#graph{width:100%;height:HEIGHT;border:1px solid #ccc;background:#fff}
.legend span.sw{display:inline-block;width:.9em;height:.9em;border-radius:50%;margin:0 .3em 0 1em;vertical-align:-.1em}
.legend span.ln{display:inline-block;width:2.2em;height:0;margin:0 .3em 0 1em;vertical-align:.25em;border-top-width:3px}
table.rel{border-collapse:collapse;font-size:.85em;margin-top:1em}
table.rel td,table.rel th{border:1px solid #ddd;padding:.2em .5em;text-align:left;vertical-align:top}
div.vis-tooltip{white-space:pre-wrap;max-width:40em;font-family:system-ui,sans-serif;font-size:13px}
"""

_PAGE_JS = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("cg-data").textContent);
  var show = {causal: true, common: true, elaboration: true, nesting: true};
  var nodes = new vis.DataSet(data.nodes), edges = new vis.DataSet(data.edges);
  var edgeView = new vis.DataView(edges, {filter: function (e) { return show[e.kind]; }});
  // An overarching event that is no cause or effect is shown only with an edge that reaches it.
  var nodeView = new vis.DataView(nodes, {filter: function (n) {
    if (n.kind === "event") { return true; }
    return edgeView.getIds({filter: function (e) { return e.to === n.id || e.from === n.id; }}).length > 0;
  }});
  var network = new vis.Network(document.getElementById("graph"), {nodes: nodeView, edges: edgeView}, data.options);
  network.once("stabilizationIterationsDone", function () {
    network.setOptions({physics: {enabled: false}});
    document.body.setAttribute("data-stabilized", "1");
  });
  // Without nodes there is no layout to stabilise and vis-network sends no event.
  if (data.nodes.length === 0) { document.body.setAttribute("data-stabilized", "1"); }
  Array.prototype.forEach.call(document.querySelectorAll("#controls input[data-kind]"), function (box) {
    box.addEventListener("change", function () {
      show[box.getAttribute("data-kind")] = box.checked;
      edgeView.refresh();
      nodeView.refresh();
    });
  });
  window.cgViewer = {
    network: network, nodes: nodes, edges: edges, nodeView: nodeView, edgeView: edgeView,
    rendered: function () {
      return {nodes: network.body.nodeIndices.length, edges: network.body.edgeIndices.length};
    }
  };
  document.body.setAttribute("data-ready", "1");
})();
"""


def _legend() -> str:
    parts = ['<div class="legend">Nodes (chain position):']
    for pos, col in POSITION_COLORS.items():
        parts.append(f'<span class="sw" style="background:{col}"></span>{pos}')
    parts.append(f'<span class="sw" style="background:{OVERARCHING_COLOR};border-radius:0"></span>overarching event'
                 "; size grows with degree.<br>Causal edges (correlation):")
    for corr, col in CORRELATION_COLORS.items():
        parts.append(f'<span class="ln" style="border-top-style:solid;border-color:{col}"></span>{corr or "no label"}')
    parts.append('<span class="ln" style="border-top-style:dashed;border-color:#444"></span>'
                 "negative relation type (prevents)<br>Dotted edges to the overarching event:")
    for view, style in OVERLAY_STYLES.items():
        parts.append(f'<span class="ln" style="border-top-style:dotted;border-color:{style["color"]}"></span>'
                     f'{html.escape(style["label"])}')
    parts.append("</div>")
    return "".join(parts)


def _relation_table(graph: CausalGraph) -> str:
    cols = ["cause", "effect", "trigger", "correlation", "relation type", "explicitness", "confidence",
            "combined", "nested", "cause belongs to", "effect belongs to"]
    rows = []
    for e in graph.edges:
        for r in e.relations:
            vals = [e.cause, e.effect, r.trigger, r.correlation, r.polarity, r.explicitness, r.confidence,
                    r.combined, r.nested, r.cause_belongs_to, r.effect_belongs_to]
            cells = "".join(f"<td>{html.escape('' if v is None else str(v))}</td>" for v in vals)
            rows.append(f"<tr>{cells}</tr>")
    head = "".join(f"<th>{c}</th>" for c in cols)
    return (f'<details><summary>{plural(sum(len(e.relations) for e in graph.edges), "relation")}</summary>'
            f'<table class="rel"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></details>')


def graph_html(obj: CausalGraph | Statement, *, title: Optional[str] = None, height: str = "640px",
               positions: Optional[dict] = None, rule: str = "path", back_link: Optional[str] = None,
               assets: Optional[str] = None) -> str:
    """One self-contained HTML page showing a statement's causal graph.

    Parameters
    ----------
    obj
        A :class:`~causalgraph.graph.CausalGraph` or a
        :class:`~causalgraph.model.Statement`.
    title
        Page heading (default: ``Statement <id>``).
    height
        CSS height of the graph canvas.
    positions
        Chain positions per node (default: :func:`causalgraph.chain_labels`).
    rule
        Chain rule used when ``positions`` is not given.
    back_link
        Optional relative URL shown as a link back (the corpus report uses it).
    assets
        Relative URL of a folder written by :func:`write_vis_assets`: the page
        loads vis-network from there instead of inlining its 0.7 MB (the
        corpus report's pages share one copy).  Default: inline.

    Examples
    --------
    >>> from causalgraph.model import Relation, Statement
    >>> s = Statement("s1", "A raises B.", True, (Relation("a", "b", trigger="raises"),))
    >>> page = graph_html(s, positions={"a": "none", "b": "none"})
    >>> '<mark class="trigger">raises</mark>' in page and "https://cdn" not in page
    True
    """
    graph = _as_graph(obj)
    data = viewer_data(graph, positions=positions, rule=rule)
    net = to_pyvis(data, height=height)
    nodes, edges, _heading, _h, _w, options = net.get_network_data()
    payload = {"nodes": nodes, "edges": edges, "options": json.loads(options)}
    vis_head, inline = vis_tags(assets)
    sid = graph.statement_id or "graph"
    heading = title if title is not None else f"Statement {sid}"
    triggers = [r.trigger for e in graph.edges for r in e.relations if r.trigger]
    text_html, not_found = highlight_triggers(graph.text or "", triggers)
    notes = list(data.notes)
    if not graph.edges:
        notes.append("This statement has no annotated causal relation: there is no graph to draw.")
    if not_found:
        notes.append("Triggers not found verbatim in the text: " + "; ".join(not_found))
    # An edge carries every relation annotating its (cause, effect) pair, so the relation count (the table
    # below) is said beside the distinct edges drawn: "40 relations, 4 distinct causal edges".
    n_rel = sum(len(e.relations) for e in graph.edges)
    counts = (f"{plural(data.count('event'), 'event')}, {plural(n_rel, 'relation')}, "
              f"{plural(data.count('causal'), 'distinct causal edge')}, "
              f"{data.count('common')} common cause/effect, {data.count('elaboration')} elaboration and "
              f"{plural(data.count('nesting'), 'nesting edge')}")
    boxes = []
    for view, style in OVERLAY_STYLES.items():
        n = data.count(view)
        boxes.append(f'<label><input type="checkbox" data-kind="{view}" checked{" disabled" if n == 0 else ""}> '
                     f'{html.escape(style["label"])} ({n})</label>')
    back = f'<p><a href="{html.escape(back_link, quote=True)}">← back to the report</a></p>' if back_link else ""
    note_html = "".join(f"<li>{html.escape(n)}</li>" for n in notes)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{content_security_policy(inline + [_PAGE_JS], local_files=assets is not None)}\">\n"
        f"<title>{html.escape(heading)}</title>\n"
        f"{vis_head}<style>{_PAGE_CSS.replace('HEIGHT', html.escape(height))}</style>\n"
        f"</head><body>\n{back}"
        f"<h1>{html.escape(heading)}</h1>\n"
        f'<p class="statement" id="statement">{text_html}</p>\n'
        f'<p class="meta">{html.escape(counts)}</p>\n'
        + (f'<ul class="notes">{note_html}</ul>\n' if notes else "")
        + f'<div id="controls">Show: {"".join(boxes)}</div>\n'
        f'<div id="graph"></div>\n{_legend()}\n{_relation_table(graph)}\n'
        f'<script type="application/json" id="cg-data">{script_json(payload)}</script>\n'
        f"<script>{_PAGE_JS}</script>\n</body></html>\n"
    )


def safe_filename(name: str) -> str:
    """A file-name stem for a statement id: letters, digits, ``.``, ``_`` and ``-`` only.

    Examples
    --------
    >>> safe_filename("cc-007"), safe_filename("../x y")
    ('cc-007', '_x_y')
    """
    return safe_name(name)


def write_graph_html(obj: CausalGraph | Statement, path: str | os.PathLike, **kwargs) -> Path:
    """Write :func:`graph_html` to ``path`` (UTF-8) and return the path.

    Examples
    --------
    >>> write_graph_html(statement, "cc-007.html")  # doctest: +SKIP
    PosixPath('cc-007.html')
    """
    p = Path(path)
    if p.suffix.lower() not in (".html", ".htm"):
        raise ConfigError(f"{p}: the viewer writes HTML; expected a file name ending in .html")
    output_file(p, "graph page")
    p.write_text(graph_html(obj, **kwargs), encoding="utf-8")
    return p


def show(obj: CausalGraph | Statement, path: Optional[str | os.PathLike] = None, *,
         open_browser: bool = True, **kwargs) -> Path:
    """Write the viewer page and open it in the default web browser.

    Parameters
    ----------
    obj
        A :class:`~causalgraph.graph.CausalGraph` or a
        :class:`~causalgraph.model.Statement`.
    path
        Where to write the page (default: ``<tmp>/causalgraph-view/<id>.html``).
    open_browser
        ``False`` writes the page without opening it.

    Examples
    --------
    >>> import causalgraph as cg
    >>> cg.viz.show(cg.load_climatecause()["cc-007"])  # doctest: +SKIP
    """
    graph = _as_graph(obj)
    if path is None:
        path = Path(tempfile.gettempdir()) / "causalgraph-view" / f"{safe_filename(graph.statement_id or 'graph')}.html"
    p = write_graph_html(graph, path, **kwargs).resolve()
    if open_browser and not open_page(p):
        import warnings

        warnings.warn(NO_BROWSER.format(path=p), stacklevel=2)
    return p
