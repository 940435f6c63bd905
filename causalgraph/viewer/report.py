"""A corpus report: one HTML page, the CSV tables beside it, a graph page per statement, and run pages.

:func:`write_report` scores a corpus and writes into a folder

``index.html``
    corpus statistics, the complexity table (sortable by clicking a column
    header), histograms of the five complexity metrics and of C(s)
    (matplotlib, embedded as PNG data), readability in the layout of the
    ClimateCause paper's Table 17, chain-label counts, and a link to each
    causal statement's graph page.  Nothing is fetched: styles, script and
    figures are inside the page.
``*.csv``
    the tables behind the page, at full precision;
``graphs/<id>.html``
    the offline viewer of :mod:`causalgraph.html.graph_page` for each causal statement;
``assets/``
    the vis-network script and style, written once and shared by every
    graph page (inlined, they made each page 0.7 MB: 43 MB for ClimateCause's
    63 pages; shared, the whole report is about 3 MB);
``runs/<name>.html``
    with ``runs=``, the run page of :mod:`causalgraph.viewer` for each run
    (``causalgraph report --runs RUN …``), so one folder holds the corpus
    report and the results of a study.  The page's runs section lists them,
    and for every variant scored by log-likelihood (``--method loglik``) it
    gives acc, acc_norm, ECE, adaptive ECE and Brier score and draws a
    reliability diagram (matplotlib, embedded as PNG data).

Nothing is fetched from the network: the pages' Content-Security-Policy
allows only their own scripts (by sha256) and the files in ``assets/``.

For the released ClimateCause spreadsheet (recognised by its sha256) the
figures the paper reports are printed beside ours (marked "paper"); they are
reference values only and never enter a computation.
"""

from __future__ import annotations

import base64
import html
import io
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..errors import ConfigError
from .._core.outputs import output_dir
from .._core.wording import plural
from ..html.kit import SORTABLE_TABLES_JS, content_security_policy, require, write_vis_assets
from ..html.graph_page import safe_filename, write_graph_html
from ..model import Corpus
from ..metrics.complexity import C_S_COLUMN, complexity_metrics, complexity_table, composite_columns, composite_note
from .._version import __version__
from ..datasets.describe import describe
from ..graph import compile_graph
from ..metrics.analysis import complexity_summary
from ..metrics.chains import RULES, chain_stats, chain_table
from ..metrics.readability import READABILITY_METRICS, readability_summary, readability_table
from ..datasets import DATASETS
from .page import load_views, run_page_html
from .runs import dataset_of, unique_names, check_difficulty_feature
from ..runlog.store import load_run
from ..bench.calibration import reliability_figure

__all__ = ["Report", "write_report", "DEFAULT_MAX_GRAPHS", "PAPER_TABLE17", "PAPER_CHAIN_COUNTS"]

#: Graph pages share one copy of vis-network (``assets/``) and weigh a few kilobytes each: all are
#: written by default (``max_graphs`` still bounds them when given).
DEFAULT_MAX_GRAPHS = None

#: ClimateCause paper, Table 17, ClimateCause rows: metric → (median, mean, std, min, max).
PAPER_TABLE17 = {
    "FRE": (26.95, 20.72, 30.39, -67.15, 93.26),
    "FKG": (16.06, 16.20, 6.05, 1.80, 30.27),
    "CLI": (15.97, 16.03, 5.01, 1.71, 25.72),
    "ARI": (18.76, 18.36, 6.97, 2.20, 34.84),
    "DCRS": (13.21, 13.17, 1.34, 9.92, 15.62),
}
#: ClimateCause paper §6.1: chain positions of the events of the causal statements.
PAPER_CHAIN_COUNTS = {"start": 32, "middle": 48, "end": 35, "none": 397}
#: ClimateCause paper §5.2.1–5.2.2 figures shown beside ours.
_PAPER_COMPLEXITY = {
    "statements with C(s) > 0": "43 (57.33%)",
    "max C(s)": "1.821",
    "complex in exactly 1 / 2 metrics": "27 / 10",
    "complex in all 5 metrics": "0",
    "Pearson r(tokens, C(s)), C(s) > 0": "n = 43, r = .590, p < 0.01",
    "ranges com / ex / nest / corr / pol": "[0,12] / [0,16] / [0,20.93] / [0,70] / [0,40]",
}



def _metric_labels(table=None) -> dict[str, str]:
    """Table column → printed name of every registered metric (the paper's five, then any added), and C(s).

    Read when a report is written, not at import, so that a metric registered later is shown too.
    """
    labels = {**{f"c_{m.name}": m.symbol for m in complexity_metrics()}, C_S_COLUMN: "C(s)"}
    # Only the columns the table has: a plugin's metric that failed on a statement is left out of it.
    return labels if table is None else {c: s for c, s in labels.items() if c in table.columns}

_ARROWS = {True: "↑", False: "↓"}


@dataclass(frozen=True)
class Report:
    """What :func:`write_report` wrote."""

    directory: Path
    index: Path
    tables: dict = field(default_factory=dict)   # table name → CSV path
    graphs: dict = field(default_factory=dict)   # statement id → graph page
    skipped_graphs: tuple = ()                   # causal statement ids over the max_graphs limit
    runs: dict = field(default_factory=dict)     # run name → run page
    assets: dict = field(default_factory=dict)   # "js"/"css" → the shared vis-network files


# -- small HTML helpers -----------------------------------------------------------

def _e(v) -> str:
    return html.escape("" if v is None else str(v), quote=True)


def _num(v, digits: int = 4) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int) or (isinstance(v, float) and v.is_integer() and abs(v) < 1e15):
        return str(int(v))
    return f"{v:.{digits}f}"


def _table(headers, rows, *, cls: str = "", raw_cells: bool = False, table_id: str = "") -> str:
    """rows: lists of (display, sort value) or plain values; everything escaped unless raw_cells."""
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    body = []
    for row in rows:
        cells = []
        for cell in row:
            shown, key = cell if isinstance(cell, tuple) else (cell, None)
            text = shown if raw_cells and isinstance(cell, tuple) else _e(shown)
            attr = f' data-sort="{_e(key)}"' if key is not None else ""
            cells.append(f"<td{attr}>{text}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    ident = f' id="{table_id}"' if table_id else ""
    return f'<table class="{cls}"{ident}><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


# -- figures ----------------------------------------------------------------------

def _histograms(table) -> str:
    """Histograms of the five metrics and of C(s) as a base64 PNG ``<img>`` (no pyplot state touched)."""
    FigureCanvasAgg = require("matplotlib.backends.backend_agg").FigureCanvasAgg
    Figure = require("matplotlib.figure").Figure

    labels = _metric_labels(table)
    cols = list(labels)
    rows = -(-len(cols) // 3)  # three histograms a row: the paper's five and C(s) fill two
    fig = Figure(figsize=(12, 3.2 * rows), dpi=100)
    FigureCanvasAgg(fig)
    axes = fig.subplots(rows, 3)
    for ax in list(axes.flat)[len(cols):]:
        ax.set_axis_off()  # a row not filled by metrics
    for ax, col in zip(axes.flat, cols):
        values = [float(v) for v in table[col]]
        positive = sum(1 for v in values if v > 0)
        if all(math.isnan(v) for v in values):
            # A metric the corpus has no labels for (a relations or graph file): missing, not 0.
            ax.set_title(f"{labels[col]}  (missing: the corpus lacks its labels)", fontsize=10)
            continue
        ax.hist(values, bins=20, color="#4c72b0" if col != "c_norm" else "#dd8452", edgecolor="white")
        ax.set_title(f"{labels[col]}  ({positive} of {len(values)} statements > 0)", fontsize=10)
        ax.set_xlabel("score")
        ax.set_ylabel("statements")
    fig.tight_layout()
    buf = io.BytesIO()
    # No timestamp or version in the PNG: the same corpus gives the same bytes.
    fig.savefig(buf, format="png", metadata={"Software": None})
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    named = ", ".join(labels[c] for c in cols[:-1]) + " and " + labels[cols[-1]]
    return (f'<img id="hist" alt="Histograms of {_e(named)}" '
            f'src="data:image/png;base64,{data}" style="max-width:100%">')


# -- the report ---------------------------------------------------------------------

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em 2.5em;color:#222;max-width:90em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.8em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:.88em;margin:.6em 0}
td,th{border:1px solid #ddd;padding:.25em .6em;text-align:left;vertical-align:top}
td[data-sort]{text-align:right;font-variant-numeric:tabular-nums}
table.sortable th{cursor:pointer;background:#f3f3f3;user-select:none}
table.sortable th.asc::after{content:" ▲"}table.sortable th.desc::after{content:" ▼"}
.text{font-size:.95em;color:#333}
.muted{color:#666;font-size:.9em}nav a{margin-right:1em}
"""

def _unique_names(ids) -> dict:
    out: dict = {}
    used: set = set()
    for sid in ids:
        stem = safe_filename(sid)
        name, k = stem, 2
        while name.lower() in used:
            name, k = f"{stem}-{k}", k + 1
        used.add(name.lower())
        out[sid] = name
    return out


def write_report(corpus: Corpus, out_dir: str | os.PathLike = "report", *, rule: str = "path",
                 max_graphs: Optional[int] = DEFAULT_MAX_GRAPHS, runs=(),
                 difficulty_feature: Optional[str] = None) -> Report:
    """Write the corpus report (``index.html``, CSV tables, graph pages) into ``out_dir``.

    Parameters
    ----------
    corpus
        A loaded :class:`~causalgraph.model.Corpus`.
    out_dir
        Folder to write into (created; files of the same name are replaced).
    rule
        Chain rule for the chain counts and node colours: ``"path"`` (the
        paper's definition) or ``"shortest-distance"``; both rules are
        counted in the chain table, this one colours the graphs.
    max_graphs
        Write graph pages for at most this many causal statements (in corpus
        order); ``None`` (default) for all.  The page lists the statements left out.
    runs
        Run directories (or loaded runs) to write run pages for, into
        ``runs/`` (:func:`causalgraph.viewer.write_run_page`), linked from
        the page.  Their graphs come from ``corpus`` when it is the corpus a
        run was made on (same sha256), else from the run's own.
    difficulty_feature
        The feature of the run pages' difficulty plots (observed accuracy by
        decile, the fitted curve and its band; default C(s), ``c_norm``).

    Returns
    -------
    Report
        Paths of everything written.

    Examples
    --------
    >>> import causalgraph as cg
    >>> rep = write_report(cg.load_climatecause(), "report")   # doctest: +SKIP
    >>> rep.index                                             # doctest: +SKIP
    PosixPath('report/index.html')
    """
    import pandas as pd

    if rule not in RULES:
        raise ConfigError(f"unknown chain rule {rule!r}; expected one of {', '.join(RULES)}")
    if max_graphs is not None and max_graphs < 0:
        raise ConfigError(f"max_graphs must be >= 0 or None, got {max_graphs}")
    if len(corpus) == 0:
        raise ConfigError(f"corpus {corpus.name!r} has no statement; nothing to report")
    if runs and difficulty_feature is not None:
        check_difficulty_feature(difficulty_feature)
    # Checked before the tables are computed, so a bad -o fails at once.
    out = output_dir(out_dir, "report folder")
    # The paper's figures describe the released spreadsheet only: show them for that exact file.
    paper = corpus.sha256 is not None and corpus.sha256 == DATASETS["climatecause"]["full"].sha256

    # -- compute -----------------------------------------------------------------
    info = describe(corpus)
    ctab = complexity_table(corpus)
    csum = complexity_summary(ctab)
    rtab = readability_table(corpus)
    rsum = readability_summary(rtab)
    chains = {r: pd.DataFrame(chain_table(corpus, r)) for r in RULES}
    causal = [s for s in corpus.statements if s.causal and s.relations]
    graphs = {s.id: compile_graph(s) for s in causal}
    stats = {sid: chain_stats(g) for sid, g in graphs.items()}

    # -- CSV tables -------------------------------------------------------------------
    tables: dict[str, Path] = {}

    def csv(name: str, frame) -> None:
        path = out / f"{name}.csv"
        frame.to_csv(path, index=False, lineterminator="\n")
        tables[name] = path

    overview = [
        ("statements", info["statements"]), ("causal statements", info["causal_statements"]),
        ("relations", info["relations"]), ("unique relations", info["unique_relations"]),
        ("events (graph nodes, summed over statements)", sum(len(g.nodes) for g in graphs.values())),
        ("causal edges (summed over statements)", sum(len(g.edges) for g in graphs.values())),
        ("causal chains (paths of >= 3 events, summed)", sum(s.n_chains for s in stats.values())),
        ("longest chain (edges)", max((s.depth for s in stats.values()), default=0)),
        ("label problems (normalised / unknown / empty)",
         f'{info["labels_normalised"]} / {info["labels_unknown"]} / {info["labels_empty"]}'),
        ("load problems", info["problems"]),
    ]
    csv("corpus", pd.DataFrame(overview, columns=["quantity", "value"]))
    label_rows = [(name, value, count) for name, counts in info["labels"].items() for value, count in counts.items()]
    csv("labels", pd.DataFrame(label_rows, columns=["label", "value", "relations"]))
    # Each row says which metrics and weights made its c_raw and C(s) (a plugin's metric never does unasked).
    csv("complexity", ctab.assign(**composite_columns(ctab.attrs["composite"])))
    csv("readability", rtab)
    csv("readability_table17", rsum.reset_index())
    positions = ("start", "middle", "end", "none")
    count_rows = []
    for r in RULES:
        frame = chains[r]
        got = frame["position"].value_counts().to_dict() if len(frame) else {}
        count_rows.append({"rule": r, **{p: int(got.get(p, 0)) for p in positions},
                           "members": int(sum(got.get(p, 0) for p in positions[:3])), "events": len(frame)})
    csv("chain_counts", pd.DataFrame(count_rows))
    csv("chain_labels", chains[rule])

    # -- graph pages --------------------------------------------------------------------
    names = _unique_names([s.id for s in causal])
    limit = len(causal) if max_graphs is None else max_graphs
    pages: dict[str, Path] = {}
    assets = write_vis_assets(out / "assets") if causal[:limit] or runs else {}
    for s in causal[:limit]:
        pages[s.id] = write_graph_html(graphs[s.id], out / "graphs" / f"{names[s.id]}.html",
                                       rule=rule, back_link="../index.html", assets="../assets")
    skipped = tuple(s.id for s in causal[limit:])
    run_pages, run_rows = _run_pages(runs, corpus, out, difficulty_feature)

    # -- page -------------------------------------------------------------------------------
    parts: list[str] = []
    add = parts.append
    add(f"<h1>causalgraph report: {_e(corpus.name)}</h1>")
    add(f'<p class="muted">source {_e(info["source"])}<br>sha256 {_e(info["sha256"])}<br>'
        f"causalgraph {_e(__version__)}; chain rule for graph colours: {_e(rule)}"
        + ("<br>This is the released ClimateCause spreadsheet: the paper's figures are shown beside ours."
           if paper else "") + "</p>")
    add('<nav><a href="#corpus">Corpus</a><a href="#complexity">Complexity</a>'
        '<a href="#distributions">Distributions</a><a href="#readability">Readability</a>'
        '<a href="#chains">Chains</a><a href="#statements">Statements</a>'
        + ('<a href="#runs">Runs</a>' if run_pages else "") + '</nav>')

    add('<h2 id="corpus">Corpus statistics</h2>')
    add(_table(["quantity", "value"], [(k, (v, v) if isinstance(v, int) else v) for k, v in overview],
               table_id="corpus-table"))
    add(_table(["label", "value", "relations"], [(a, b, (c, c)) for a, b, c in label_rows], table_id="label-table"))
    add('<p class="muted">CSV: <a href="corpus.csv">corpus.csv</a>, <a href="labels.csv">labels.csv</a></p>')

    add('<h2 id="complexity">Semantic complexity of reported causality</h2>')
    for note in ctab.attrs.get("notes", ()):
        add(f'<p class="note">note: {_e(note)}</p>')
    lc = csum.length_correlation
    ranges = csum.ranges
    ours = {
        "statements with C(s) > 0": f"{csum.n_complex} ({csum.percent_complex:.2f}%)",
        "max C(s)": f"{csum.max_c_norm:.3f}",
        "complex in exactly 1 / 2 metrics": f'{csum.complex_in.get(1, 0)} / {csum.complex_in.get(2, 0)}',
        "complex in all 5 metrics": str(csum.complex_in.get(5, 0)),
        "Pearson r(tokens, C(s)), C(s) > 0": (f"n = {lc.n}, r = {lc.r:.3f}, p = {lc.p:.2g}" if lc else
                                              "fewer than 3 statements with C(s) > 0"),
        "ranges com / ex / nest / corr / pol": " / ".join(
            f"[{_num(lo, 2)},{_num(hi, 2)}]" for lo, hi in (ranges[m] for m in ("com", "ex", "nest", "corr", "pol"))),
    }
    heads = ["figure", "this corpus"] + (["paper (ClimateCause §5.2)"] if paper else [])
    add(_table(heads, [[k, v] + ([_PAPER_COMPLEXITY[k]] if paper else []) for k, v in ours.items()],
               table_id="complexity-summary"))
    add('<p class="muted">Click a column header to sort; click again to reverse. '
        'CSV: <a href="complexity.csv">complexity.csv</a></p>')
    crow = []
    metric_cols = [c for c in _metric_labels(ctab) if c != "c_norm"]
    for rec in ctab.to_dict(orient="records"):
        sid = rec["statement_id"]
        link = (f'<a href="graphs/{_e(names[sid])}.html">{_e(sid)}</a>' if sid in pages else _e(sid))
        crow.append([(link, None)] + [(_num(rec[c]), rec[c]) for c in
                                      (*metric_cols, "c_raw", "c_norm", "n_tokens")]
                    + [(_num(rec["density"]), "" if math.isnan(rec["density"]) else rec["density"])]
                    + [(f'<span class="text">{_e(rec["statement"])}</span>', None)])
    add(_table(["statement", *(_metric_labels(ctab)[c] for c in metric_cols), "sum", "C(s)", "tokens", "density",
                "text"], crow, cls="sortable", raw_cells=True, table_id="complexity-table"))
    # Under the table it describes, in its words: what "sum" and C(s) add up, and which columns
    # (a plugin's metric) are shown beside them without being a term.
    composite = ctab.attrs["composite"]
    apart = [_metric_labels(ctab)[c] for c in metric_cols if c[len("c_"):] not in composite["metrics"]]
    add(f'<p class="muted" id="composite">The sum column is c_raw; {_e(composite_note(composite))}'
        + (f'; {_e(", ".join(apart))} {"is a column" if len(apart) == 1 else "are columns"} of '
           f'{"its" if len(apart) == 1 else "their"} own, in neither' if apart else "") + ".</p>")

    add('<h2 id="distributions">Distributions</h2>')
    add(_histograms(ctab))

    add('<h2 id="readability">Readability (layout of the paper\'s Table 17)</h2>')
    rrows = []
    for metric, row in rsum.iterrows():
        arrow = _ARROWS[bool(row["higher_is_more_readable"])]
        vals = [row[c] for c in ("median", "mean", "std", "min", "max")]
        rrows.append([f"{metric} ({arrow})"] + [(f"{v:.2f}", v) for v in vals])
        if paper:
            rrows.append([f"{metric} ({arrow}), paper"] + [(f"{v:.2f}", v) for v in PAPER_TABLE17[metric]])
    add(_table(["metric", "median", "mean", "std", "min", "max"], rrows, table_id="readability-table"))
    add(f'<p class="muted">↑: higher is more readable; ↓: lower is more readable. Standard deviation with '
        f'ddof = 0. Per-statement scores: <a href="readability.csv">readability.csv</a>; '
        f'summary: <a href="readability_table17.csv">readability_table17.csv</a>. '
        f'Metrics: {", ".join(_e(v[0]) for v in READABILITY_METRICS.values())}.</p>')

    add('<h2 id="chains">Causal chain labels</h2>')
    chead = ["rule", "start", "middle", "end", "none", "members", "events"]
    crows = [[r["rule"]] + [(r[k], r[k]) for k in chead[1:]] for r in count_rows]
    if paper:
        pc = PAPER_CHAIN_COUNTS
        members, events = pc["start"] + pc["middle"] + pc["end"], sum(pc.values())
        crows.append(["paper (§6.1)"] + [(pc[p], pc[p]) for p in positions] + [(members, members), (events, events)])
    add(_table(chead, crows, table_id="chain-counts"))
    add('<p class="muted">Events of the causal statements\' graphs. "path" is the paper\'s definition (a chain '
        'is a directed path of at least three events); "shortest-distance" is the rule behind the authors\' '
        f'released benchmark files. CSV: <a href="chain_counts.csv">chain_counts.csv</a>, '
        f'<a href="chain_labels.csv">chain_labels.csv</a> (rule {_e(rule)}).</p>')

    add('<h2 id="statements">Statement graphs</h2>')
    add(f"<p>{len(pages)} graph page(s) for {len(causal)} causal statement(s); "
        f"{len(corpus) - len(causal)} statement(s) without causality have no graph.</p>")
    if skipped:
        add(f'<p class="muted" id="skipped">Not written (limit max_graphs = {limit}): {len(skipped)} statement(s): '
            f'{_e(", ".join(skipped))}</p>')
    add('<ul id="graph-links">' + "".join(
        f'<li><a href="graphs/{_e(names[sid])}.html">{_e(sid)}</a> '
        f'<span class="muted">{plural(len(graphs[sid].nodes), "event")}, '
        f'{plural(sum(len(e.relations) for e in graphs[sid].edges), "relation")}, '
        f'{plural(len(graphs[sid].edges), "distinct edge")}</span></li>'
        for sid in pages) + "</ul>")

    if run_pages:
        add('<h2 id="runs">Runs</h2>')
        add('<p class="muted">One page per run: every item with its prompt, response, parse rule and graph '
            '(causalgraph bench view).</p>')
        add(_table(["run", "task", "model", "items", "errors", "parse failures", "F1 (mean over variants)"],
                   [[(f'<a href="runs/{_e(row["file"])}">{_e(row["name"])}</a>', None), row["task"], row["model"],
                     (row["items"], row["items"]), (row["errors"], row["errors"]),
                     (row["parse_failures"], row["parse_failures"]),
                     (_num(row["f1"]), row["f1"]) if row["f1"] is not None else ""] for row in run_rows],
                   raw_cells=True, table_id="run-links"))
        scored = [(row, v) for row in run_rows for v in row["loglik"]]
        if scored:
            add(_reliability_section(scored))

    page = (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        # The sorter is allowed by its hash, like every script of ours: no 'unsafe-inline' for scripts.
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{content_security_policy([SORTABLE_TABLES_JS])}\">\n"
        f"<title>causalgraph report: {_e(corpus.name)}</title>\n<style>{_CSS}</style>\n</head><body>\n"
        + "\n".join(parts)
        + f"\n<script>{SORTABLE_TABLES_JS}</script>\n</body></html>\n"
    )
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    return Report(out, index, tables, pages, skipped, run_pages, assets)


def _run_pages(runs, corpus: Corpus, out: Path, difficulty_feature: Optional[str] = None) -> tuple[dict, list[dict]]:
    """Write a run page per run into ``out/runs`` (sharing ``out/assets``); (name → page, table rows)."""
    if not runs:
        return {}, []

    pages: dict[str, Path] = {}
    rows: list[dict] = []

    loaded = [r if hasattr(r, "responses") else load_run(r) for r in runs]
    names = unique_names([getattr(r, "path", None) for r in loaded])
    stems = _unique_names(names)
    for run, name in zip(loaded, names):
        ds = dataset_of(run.manifest)
        # The report's corpus serves the run's graphs when it is the very data the run was made on.
        same = corpus.sha256 is not None and ds.get("sha256") == corpus.sha256
        views = load_views([run], data=corpus if same else None, names=[name], difficulty_feature=difficulty_feature)
        path = out / "runs" / f"{stems[name]}.html"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(run_page_html([run], views=views, assets="../assets",
                                      title=f"Run {name}"), encoding="utf-8")
        pages[name] = path
        view = views[0][0]
        f1s = [s["f1"] for s in view.summary if isinstance(s.get("f1"), (int, float))]
        rows.append({"name": name, "file": path.name, "task": view.task_name, "model": view.model,
                     "items": view.totals["items"], "errors": view.totals["errors"],
                     "parse_failures": view.totals["parse_failures"],
                     "f1": sum(f1s) / len(f1s) if f1s else None,
                     # variants scored by log-likelihood, with their calibration
                     # (a choice-logprobs variant none of whose items was read keeps its row: undefined figures)
                     "loglik": [v for v in view.summary
                                if (v.get("method") == "loglik" and v.get("reliability"))
                                or v.get("method") == "choice-logprobs"]})
    return pages, rows


def _reliability_section(scored: list[tuple[dict, dict]]) -> str:
    """The calibration table and a reliability diagram (base64 PNG) per run variant scored by log-likelihood."""
    def shown(x):  # a figure with no value (acc_norm of choice-logprobs, nothing read or answered) is undefined
        return (_num(x) if x is not None else "undefined", x)

    rows, images = [], []
    for n, (run, v) in enumerate(scored):
        scored_n = v.get("calibrated") or 0  # (None when every request failed: none scored)
        rows.append([run["name"], v["variant"], (scored_n, scored_n),
                     shown(v["acc"]), shown(v["acc_norm"]), shown(v["ece"]), shown(v["ece_adaptive"]),
                     shown(v["brier"]), v.get("method", "loglik"),
                     shown(v["reached"]) if v.get("method") == "choice-logprobs" else ("", None)])
        if not v.get("reliability"):
            continue  # nothing read: no diagram
        cal = {"reliability": v["reliability"], "ece": v["ece"], "ece_adaptive": v["ece_adaptive"],
               "brier": v["brier"], "n": v["calibrated"]}
        fig = reliability_figure(cal, title=f"{run['name']} · {run['task']} {v['variant']} · {run['model']}")
        buf = io.BytesIO()
        fig.savefig(buf, format="png", metadata={"Software": None})  # the same run gives the same bytes
        data = base64.b64encode(buf.getvalue()).decode("ascii")
        images.append(f'<img class="reliability" id="reliability-{n}" alt="Reliability diagram of '
                      f'{_e(run["name"])} {_e(v["variant"])}" src="data:image/png;base64,{data}" '
                      'style="max-width:32%">')
    return ('<h3 id="calibration">Calibration of the runs scored by log-likelihood</h3>'
            + _table(["run", "variant", "items scored", "acc", "acc_norm", "ECE (15 bins)", "adaptive ECE", "Brier",
                      "method", "reached"],
                     rows, table_id="run-calibration")
            + '<p class="muted">Confidence: the probability of the predicted label (acc), normalised over the '
              'choices. Each diagram: accuracy against confidence in 15 equal-width bins, the items per bin '
              'below; the diagonal is perfect calibration. choice-logprobs: read from a chat model\'s '
              'generated-token log-probabilities at the answer position; reached is the share of items read '
              'there (calibration is over those: undefined when none was), acc counts every item (the others '
              'parsed).</p>'
            + '<div id="reliability-diagrams">' + "".join(images) + "</div>")
