"""The viewer and the report in headless Chromium: offline, no console error, right counts, inert data.

Screenshots are kept under ``test-artifacts/viz/`` (git-ignored).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import hostile  # tests/browser/ (on sys.path through tests/conftest.py)
from chromium import leaves_local

from causalgraph import compile_graph
from causalgraph.graph import _event
from causalgraph.viewer.report import write_report
from causalgraph.html.graph_page import write_graph_html

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "viz"


def _expected_counts(g) -> tuple[int, int]:
    """Nodes and edges the page should draw, counted from the graph's own fields."""
    overarching = {b.overarching for b in g.common + g.elaboration}
    nest_edges = 0
    for nest, rels in g.nesting.items():
        overarching.add(nest)
        events = {_event(r, role, g.node_form) for r in rels for role in ("cause", "effect")}
        nest_edges += len(events - {nest})
    nodes = len(g.nodes) + len(overarching - set(g.nodes))
    edges = len(g.edges) + len(g.common) + len(g.elaboration) + nest_edges
    return nodes, edges


def _set_overlays(chromium, checked: bool) -> None:
    chromium.js("""
        document.querySelectorAll('#controls input[data-kind]').forEach(function (b) {
          if (!b.disabled && b.checked !== arguments[0]) { b.click(); }
        });""".replace("arguments[0]", "true" if checked else "false"))


def test_leaves_local_tells_local_from_remote_requests():
    assert not leaves_local("file:///tmp/a.html")
    assert not leaves_local("data:image/png;base64,AAAA")
    assert not leaves_local("http://127.0.0.1:8000/x.js")
    assert leaves_local("https://cdnjs.cloudflare.com/ajax/libs/vis-network/9.1.2/dist/vis-network.min.js")
    assert leaves_local("http://localhost.evil.example/x")


@pytest.mark.parametrize("sid", ["cc-047", "cc-007"])
def test_graph_page_renders_the_graph_offline_without_console_errors(chromium, climatecause, tmp_path, sid):
    g = compile_graph(climatecause[sid])
    page = write_graph_html(g, tmp_path / f"{sid}.html")
    load = chromium.open(page)
    chromium.screenshot(ARTIFACTS / f"{sid}.png")
    assert load.errors == []
    assert load.external == []
    assert load.failed == []
    assert load.requests == [page.resolve().as_uri()]
    n_nodes, n_edges = _expected_counts(g)
    assert chromium.js("return window.cgViewer.rendered()") == {"nodes": n_nodes, "edges": n_edges}
    # With the belongs-to and nesting overlays switched off, exactly the causal graph remains.
    _set_overlays(chromium, False)
    assert chromium.js("return window.cgViewer.rendered()") == {"nodes": len(g.nodes), "edges": len(g.edges)}
    _set_overlays(chromium, True)
    assert chromium.js("return window.cgViewer.rendered()") == {"nodes": n_nodes, "edges": n_edges}
    assert chromium.collect(load.url).errors == []


def test_graph_page_of_a_statement_without_causality_loads_cleanly(chromium, climatecause, tmp_path):
    st = climatecause["cc-002"]
    assert not st.causal
    load = chromium.open(write_graph_html(st, tmp_path / "cc-002.html"))
    assert load.errors == [] and load.external == []
    assert chromium.js("return window.cgViewer.rendered()") == {"nodes": 0, "edges": 0}


def test_graph_page_draws_all_overlay_kinds_on_cc_047(chromium, climatecause, tmp_path):
    g = compile_graph(climatecause["cc-047"])
    assert g.common and g.nesting  # the statement exercises the overlays
    chromium.open(write_graph_html(g, tmp_path / "cc-047.html"))
    kinds = chromium.js("return window.cgViewer.edgeView.get().map(function (e) { return e.kind; })")
    assert kinds.count("causal") == len(g.edges)
    assert kinds.count("common") == len(g.common)
    assert kinds.count("elaboration") == len(g.elaboration)
    chromium.js("document.querySelector('#controls input[data-kind=common]').click()")
    kinds = chromium.js("return window.cgViewer.edgeView.get().map(function (e) { return e.kind; })")
    assert "common" not in kinds and kinds.count("causal") == len(g.edges)


def test_hostile_statement_renders_as_text_and_never_executes(chromium, tmp_path):
    st = hostile.hostile_statement()
    page = write_graph_html(st, tmp_path / "hostile.html")
    load = chromium.open(page)
    chromium.screenshot(ARTIFACTS / "hostile.png")
    assert chromium.js("return typeof window.__pwned") == "undefined"
    assert chromium.js("return document.querySelectorAll('img, svg, b, i').length") == 0
    assert chromium.js("return document.getElementById('statement').textContent") == hostile.TEXT
    assert chromium.js("return document.querySelector('h1').textContent") == "Statement x<script>"
    labels = chromium.js("return window.cgViewer.nodes.get().map(function (n) { return n.event; })")
    assert labels == [hostile.CAUSE, hostile.EFFECT, "droughts", hostile.OVER, hostile.NEST]
    # Hover the first node: vis-network shows the title as text; its only elements are line breaks.
    chromium.js("""
        var net = window.cgViewer.network, p = net.canvasToDOM(net.getPositions([0])[0]);
        var c = document.querySelector('#graph canvas'), r = c.getBoundingClientRect();
        ['pointermove', 'mousemove'].forEach(function (t) {
          c.dispatchEvent(new MouseEvent(t, {clientX: r.left + p.x, clientY: r.top + p.y, bubbles: true}));
        });""")
    tip = None
    for _ in range(100):  # the tooltip shows after vis-network's tooltipDelay (120 ms); allow 5 s
        tip = chromium.js("""var t = document.querySelector('div.vis-tooltip');
            return t && t.style.visibility === 'visible'
                ? [t.textContent, Array.prototype.map.call(t.querySelectorAll('*'), function (e) { return e.tagName; })]
                : null;""")
        if tip:
            break
        time.sleep(0.05)
    assert tip is not None, "hovering the node showed no tooltip"
    text, tags = tip
    assert text.startswith(hostile.CAUSE) and "chain position: start" in text
    assert tags == ["BR", "BR", "BR"]
    assert chromium.js("return typeof window.__pwned") == "undefined"
    after = chromium.collect(load.url)
    assert load.errors + after.errors == []
    assert load.requests + after.requests == [page.resolve().as_uri()]


def test_report_page_loads_offline_sorts_and_links_to_graph_pages(chromium, climatecause, tmp_path):
    import pandas as pd

    rep = write_report(climatecause, tmp_path / "report", max_graphs=2)
    load = chromium.open(rep.index, ready="data-ready")
    assert load.errors == [] and load.failed == []
    assert load.external == []
    assert chromium.js("var i = document.getElementById('hist'); return [i.complete, i.naturalWidth > 0]") == [True, True]
    # Click the C(s) header twice: descending, ties in corpus order (a stable sort computed here with pandas).
    table = pd.read_csv(rep.tables["complexity"])
    expected = table.sort_values("c_norm", ascending=False, kind="stable")["statement_id"].tolist()
    col = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#complexity-table thead th'),"
                      " function (th) { return th.textContent; })").index("C(s)")
    for _ in range(2):
        chromium.js(f"document.querySelectorAll('#complexity-table thead th')[{col}].click()")
    got = chromium.js("return Array.prototype.map.call(document.querySelectorAll('#complexity-table tbody tr'),"
                      " function (tr) { return tr.cells[0].textContent; })")
    assert got == expected
    chromium.driver.set_window_size(1280, 2400)
    chromium.screenshot(ARTIFACTS / "report.png")
    chromium.driver.set_window_size(1280, 1000)
    # Follow the first graph link.
    sid = next(iter(rep.graphs))
    chromium.js(f"document.querySelector('#graph-links a[href=\"graphs/{sid}.html\"]').click()")
    deadline = time.monotonic() + 30
    while not chromium.js("return document.body && document.body.getAttribute('data-stabilized')"):
        assert time.monotonic() < deadline, "the graph page did not finish its layout"
        time.sleep(0.05)
    g = compile_graph(climatecause[sid])
    assert chromium.js("return document.querySelector('h1').textContent") == f"Statement {sid}"
    assert chromium.js("return window.cgViewer.rendered()") == dict(zip(("nodes", "edges"), _expected_counts(g)))
    after = chromium.collect(rep.index.as_uri())
    assert after.errors == [] and after.external == []
