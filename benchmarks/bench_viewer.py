"""Benchmark: the run page at the paper's scale, and the corpus report with shared assets.

Builds ``mock/oracle`` runs of the full plan (the six ClimateCause tasks,
every variant: 34,164 items), unless ``--runs`` names run folders, then
measures, against baselines taken in the same process or browser:

* building the page (``write_run_page`` over all runs) against reading the
  runs and writing their records as one plain JSON file (``load_run`` +
  ``json.dumps``), the least any page of the data must do;
* the page's size against that plain JSON of the records and their rebuilt
  prompts (what a page embedding the data as it is would carry);
* time to first render in headless Chromium (navigation start to the first
  rows on screen, ``cgRunView.readyAt``) against a static page holding one
  ``<tr>`` per item with the same columns (the naive way to show a table);
* filtering (variant, outcome check box) and a first full-text search
  (which inflates every response chunk) on all items, timed in the page;
* opening an item (inflating its chunks, drawing its graph);
* the corpus report (all 63 graph pages) with shared assets against the same
  pages with vis-network inlined.

Run::

    CAUSALGRAPH_DATA=../shared/data python benchmarks/bench_viewer.py [--runs DIR …] [--out DIR]
"""

from __future__ import annotations

import argparse
import html
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import load_average, min_median_max, run_records  # noqa: E402

TASKS = ("corri", "corri-rc", "ccr-member", "ccr-position", "ccr-eci-member", "ccr-eci-position")
ROOT = Path(__file__).resolve().parents[1]


def build_runs(out: Path) -> list[Path]:
    import causalgraph as cg

    paths = []
    for t in TASKS:
        res = cg.run_benchmark(t, "all", "mock/oracle", out=out / t, cache=False)
        paths.append(res.path)
    return paths


def naive_page(runs, path: Path) -> Path:
    """One server-rendered <tr> per item (the baseline of time to first render)."""
    rows = []
    for p in runs:
        for r in run_records(p):
            cells = [r["variant"], r["item_id"], (r.get("meta") or {}).get("statement_id"), r.get("gold"),
                     r.get("label"), r.get("rule")]
            rows.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in cells) + "</tr>")
    path.write_text("<!DOCTYPE html><html><head><meta charset='utf-8'></head><body><table><tbody>" + "".join(rows)
                    + "</tbody></table><script>window.readyAt = performance.now();"
                      "document.body.setAttribute('data-ready', '1');</script></body></html>", encoding="utf-8")
    return path


def browser_figures(page: Path, baseline: Path, repeat: int) -> dict:
    sys.path.insert(0, str(ROOT / "tests" / "browser"))
    from chromium import Chromium

    b = Chromium(Path(tempfile.mkdtemp(prefix="cg-chromium-")))
    out: dict = {"first_render_ms": [], "naive_first_render_ms": []}
    try:
        for _ in range(repeat):
            load = b.open(page, ready="data-ready", timeout=120)
            assert load.errors == [] and load.external == [], (load.errors, load.external)
            out["first_render_ms"].append(b.js("return window.cgRunView.readyAt"))
            b.open(baseline, ready="data-ready", timeout=120)
            out["naive_first_render_ms"].append(b.js("return window.readyAt"))
        b.open(page, ready="data-ready", timeout=120)
        out["items"] = b.js("return window.cgRunView.visibleCount()")
        out["variant_filter_ms"] = b.js("""var t = performance.now(); window.cgRunView.setFilter('variant', 'CoT_1');
            var n = window.cgRunView.visibleCount(); var ms = performance.now() - t;
            window.cgRunView.setFilter('variant', null); return [ms, n];""")
        out["state_filter_ms"] = b.js("""var box = document.querySelector('#f-states input[data-state=correct]');
            var t = performance.now(); box.click(); var ms = performance.now() - t; var n = window.cgRunView.visibleCount();
            box.click(); return [ms, n];""")
        t0 = time.perf_counter()
        b.js("var s = document.getElementById('search'); s.value = 'irreversible'; s.dispatchEvent(new Event('input'));")
        while b.js("return document.body.getAttribute('data-searching')") or \
                b.js("return document.getElementById('count').textContent").endswith("…)"):
            time.sleep(0.01)
        time.sleep(0.2)
        out["first_search_s"] = time.perf_counter() - t0
        out["search_hits"] = b.js("return window.cgRunView.visibleCount()")
        b.js("var s = document.getElementById('search'); s.value = ''; s.dispatchEvent(new Event('input'));")
        time.sleep(0.3)
        t0 = time.perf_counter()
        b.js("window.cgRunView.show(30000)")
        while not b.js("return document.body.getAttribute('data-detail')"):
            time.sleep(0.01)
        out["open_item_s"] = time.perf_counter() - t0
    finally:
        b.quit()
    return out


def report_figures(tmp: Path) -> dict:
    from causalgraph.datasets import load_corpus
    from causalgraph.graph import compile_graph
    from causalgraph.viewer.report import write_report
    from causalgraph.html.graph_page import graph_html

    corpus = load_corpus("climatecause")
    t0 = time.perf_counter()
    rep = write_report(corpus, tmp / "report")
    t_shared = time.perf_counter() - t0
    shared = sum(p.stat().st_size for p in rep.directory.rglob("*") if p.is_file())
    pages_shared = sum(p.stat().st_size for p in rep.graphs.values())
    t0 = time.perf_counter()
    inline = sum(len(graph_html(compile_graph(corpus[sid]), back_link="../index.html").encode("utf-8"))
                 for sid in rep.graphs)
    t_inline = time.perf_counter() - t0
    rest = shared - pages_shared - sum(p.stat().st_size for p in rep.assets.values())
    return {"graph_pages": len(rep.graphs), "report_bytes": shared, "report_bytes_inlined": rest + inline,
            "write_report_s": t_shared, "inline_pages_in_memory_s": t_inline}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", nargs="+", help="run folders (default: build mock/oracle runs of the full plan)")
    ap.add_argument("--out", help="folder for the runs and pages (default: a temporary folder)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    from causalgraph.viewer import load_views, run_page_html

    tmp = Path(args.out or tempfile.mkdtemp(prefix="cg-bench-viewer-"))
    tmp.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    runs = [Path(p) for p in args.runs] if args.runs else build_runs(tmp / "runs")
    t_runs = time.perf_counter() - t0

    builds, plain = [], []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        page = run_page_html(runs)
        builds.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        data = json.dumps([run_records(p) for p in runs], ensure_ascii=False)
        plain.append(time.perf_counter() - t0)
    page_path = tmp / "all-runs.html"
    page_path.write_text(page, encoding="utf-8")
    views, _ = load_views(runs)
    prompts = json.dumps([p for v in views for p in v.prompts], ensure_ascii=False)
    naive = naive_page(runs, tmp / "naive.html")
    fig = {
        "runs": len(runs), "items": sum(len(v.records) for v in views), "build_runs_s": t_runs,
        "page_bytes": len(page.encode("utf-8")), "records_json_bytes": len(data.encode("utf-8")),
        "records_and_prompts_json_bytes": len(data.encode("utf-8")) + len(prompts.encode("utf-8")),
        "naive_page_bytes": naive.stat().st_size,
        "page_build_s": builds, "read_and_dump_s": plain, "load_average_before": load_average(),
    }
    fig.update(browser_figures(page_path, naive, args.repeat))
    fig.update(report_figures(tmp))
    print(json.dumps(fig, indent=1))
    fig["load_average_after"] = load_average()
    fr, nfr = statistics.median(fig["first_render_ms"]), statistics.median(fig["naive_first_render_ms"])
    bs, ps = statistics.median(fig["page_build_s"]), statistics.median(fig["read_and_dump_s"])
    mb = 1e6
    print(f"min / median / max of {args.repeat} rounds (alternating); ratios from the medians; load average "
          f"{fig['load_average_before']} before, {fig['load_average_after']} after")
    print(f"""
| measure | ours | baseline | ratio |
|---|---|---|---|
| page for {fig['items']:,} items vs their records + prompts as plain JSON | {fig['page_bytes'] / mb:.1f} MB | {fig['records_and_prompts_json_bytes'] / mb:.1f} MB | {fig['page_bytes'] / fig['records_and_prompts_json_bytes']:.3f} |
| building the page vs reading the runs and dumping their records | {min_median_max(fig['page_build_s'], 1)} s | {min_median_max(fig['read_and_dump_s'], 1)} s | {bs / ps:.1f} |
| time to first render vs a static page of one <tr> per item ({fig['naive_page_bytes'] / mb:.1f} MB) | {min_median_max(fig['first_render_ms'], 0)} ms | {min_median_max(fig['naive_first_render_ms'], 0)} ms | {fr / nfr:.2f} |
| variant filter on all items | {fig['variant_filter_ms'][0]:.1f} ms ({fig['variant_filter_ms'][1]:,} rows) | | |
| outcome check box on all items | {fig['state_filter_ms'][0]:.1f} ms | | |
| first search (inflates every response) | {fig['first_search_s']:.2f} s ({fig['search_hits']:,} rows) | | |
| opening an item (chunks + graph) | {fig['open_item_s']:.2f} s | | |
| corpus report, {fig['graph_pages']} graph pages, shared vs inlined vis-network | {fig['report_bytes'] / mb:.1f} MB | {fig['report_bytes_inlined'] / mb:.1f} MB | {fig['report_bytes'] / fig['report_bytes_inlined']:.3f} |""")


if __name__ == "__main__":
    main()
