"""Inline display in Jupyter: a graph, a loaded run and an extraction evaluation show their page.

``CausalGraph._repr_html_``, ``Run._repr_html_`` and
``ExtractionReport._repr_html_`` call these functions (through
:data:`causalgraph._core.display.HTML_DISPLAY`, which names them).  Each returns the
offline page (the graph viewer, the run page, or a page of the evaluation's
tables) inside a sandboxed ``<iframe srcdoc>``
(:func:`causalgraph.html.kit.iframe_html`): the page's scripts run — a notebook
does not run scripts placed in plain output HTML — in an opaque origin that
cannot reach the notebook, and its Content-Security-Policy keeps every
request inside the page.  When the page cannot be built (pyvis missing, a
graph over the viewer's size limit) they return ``None`` and Jupyter shows
the plain ``repr``.
"""

from __future__ import annotations

import html
from typing import Any, Optional

from ..errors import CausalGraphError
from ..html.kit import SORTABLE_TABLES_JS, content_security_policy, iframe_html
from ..html.graph_page import graph_html
from .page import run_page_html

__all__ = ["graph_repr_html", "run_repr_html", "extraction_report_html", "extraction_repr_html"]


def graph_repr_html(graph: Any) -> Optional[str]:
    """The graph viewer page of a :class:`~causalgraph.graph.CausalGraph` in an iframe (``None`` if it cannot be drawn).

    Examples
    --------
    >>> from causalgraph.model import Relation, Statement
    >>> from causalgraph.graph import compile_graph
    >>> graph_repr_html(compile_graph(Statement("s1", "A raises B.", True, (Relation("a", "b"),))))[:31]
    '<iframe sandbox="allow-scripts"'
    """
    try:
        return iframe_html(graph_html(graph, height="520px"), height="760px",
                           title=f"causal graph {graph.statement_id or ''}".strip())
    except CausalGraphError:
        return None


def run_repr_html(run: Any) -> Optional[str]:
    """The run page (:func:`causalgraph.viewer.run_page_html`) of a loaded run in an iframe."""
    try:
        return iframe_html(run_page_html([run]), height="900px", title=f"run {getattr(run, 'path', '')}")
    except CausalGraphError:
        return None


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:.8em 1.2em;color:#222;font-size:14px}
h1{font-size:1.2em;margin:0 0 .3em}h2{font-size:1.05em;margin:1.1em 0 .3em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:.9em;margin:.3em 0}
td,th{border:1px solid #ddd;padding:.2em .5em;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}
th{background:#f3f3f3;cursor:pointer;user-select:none}
th.asc::after{content:" ▲"}th.desc::after{content:" ▼"}
.muted{color:#666;font-size:.9em}
.bar{display:inline-block;height:.8em;background:#4c72b0;vertical-align:-.05em}
"""

def _cell(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        return f"<td>{html.escape('' if v is None else str(v))}</td>"
    if isinstance(v, (int, float)):
        shown = str(v) if isinstance(v, int) else f"{v:.4f}"
        return f'<td class="num" data-sort="{v}">{shown}</td>'
    return f"<td>{html.escape(str(v))}</td>"


def _table(headers, rows, table_id: str) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(_cell(v) for v in row) + "</tr>" for row in rows)
    return f'<table class="sortable" id="{table_id}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def extraction_report_html(report: Any) -> str:
    """A self-contained page of an :class:`~causalgraph.extraction.evaluate.ExtractionReport`.

    Summary counts, the metrics (with the rule each measure uses), the
    per-label scores and the error buckets with their examples; tables sort
    on a header click.  The CSP allows the page's one script by its hash.

    Examples
    --------
    >>> page = extraction_report_html(evaluate_extraction(run, "test"))   # doctest: +SKIP
    """
    s = report.summary
    parts = [f"<h1>Extraction evaluation ({html.escape(report.mode)} mode)</h1>",
             f'<p class="muted">{html.escape(str(s.get("source", "")))} against {html.escape(str(s.get("gold_source", "")))}'
             + (f"; embedder {html.escape(report.embedder)}" if report.embedder else "") + "</p>"]
    keys = ("gold_rows", "predicted_rows", "rows_without_prediction", "null_predictions", "predicted_pairs",
            "gold_pairs", "exact_hits_predicted", "exact_gold_pairs_found")
    parts.append("<h2>Summary</h2>" + _table(["quantity", "value"], [(k.replace("_", " "), s.get(k)) for k in keys
                                                                     if k in s], "summary"))
    rules = s.get("parse_rules") or {}
    if rules:
        parts.append(_table(["parse rule", "rows"], list(rules.items()), "rules"))
    parts.append("<h2>Metrics</h2>" + _table(
        ["measure", "part", "precision", "recall", "F1", "rule"],
        [(m["measure"], m["part"], m["precision"], m["recall"], m["f1"], m.get("rule", "")) for m in report.metrics],
        "metrics"))
    parts.append("<h2>Labels of exactly matched pairs</h2>" + _table(
        ["label", "class", "precision", "recall", "F1", "support"],
        [(r["label"], r["class"], r["precision"], r["recall"], r["f1"], r["support"]) for r in report.labels], "labels"))
    counts = report.buckets.get("counts", {})
    top = max(counts.values(), default=0) or 1
    rows = "".join(
        f'<tr><td>{html.escape(b)}</td><td class="num" data-sort="{n}">{n}</td>'
        f'<td><span class="bar" style="width:{12 * n / top:.2f}em"></span></td>'
        f"<td>{html.escape('; '.join(str(e.get('predicted') or e.get('gold')) for e in report.buckets.get('examples', {}).get(b, [])))}</td></tr>"
        for b, n in counts.items())
    parts.append("<h2>Error buckets</h2>"
                 f'<table class="sortable" id="buckets"><thead><tr><th>bucket</th><th>pairs</th><th></th>'
                 f"<th>examples</th></tr></thead><tbody>{rows}</tbody></table>"
                 f'<p class="muted">{report.buckets.get("gold_unaligned", 0)} gold pair(s) of predicted rows were '
                 "aligned to no prediction.</p>")
    if report.notes:
        parts.append("<ul>" + "".join(f"<li>{html.escape(n)}</li>" for n in report.notes) + "</ul>")
    csp = content_security_policy([SORTABLE_TABLES_JS])
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\n"
            f"<title>Extraction evaluation</title><style>{_CSS}</style></head><body>\n"
            + "\n".join(parts) + f"\n<script>{SORTABLE_TABLES_JS}</script>\n</body></html>\n")


def extraction_repr_html(report: Any) -> Optional[str]:
    """:func:`extraction_report_html` in an iframe."""
    return iframe_html(extraction_report_html(report), height="720px", title="extraction evaluation")

