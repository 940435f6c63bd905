"""The offline graph viewer, without a browser: data, colours, escaping, offline page, CLI."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

# Test helpers shared with the browser tests live in tests/browser (not a package).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
import hostile  # noqa: E402

from causalgraph import compile_graph
from causalgraph.cli import main
from causalgraph.errors import ConfigError
from causalgraph.model import Correlation, Polarity, Relation, Statement
from causalgraph.html.graph_page import (
    CORRELATION_COLORS,
    OVERLAY_STYLES,
    POSITION_COLORS,
    graph_html,
    highlight_triggers,
    safe_filename,
    show,
    to_pyvis,
    viewer_data,
    write_graph_html,
)

P, N = Correlation.POSITIVE, Correlation.NEGATIVE
CAUSES, PREVENTS = Polarity.POSITIVE, Polarity.NEGATIVE


def _chain() -> Statement:
    # a → b → c (a chain: start, middle, end) and d → c (d is a source whose effect has no effect: none).
    return Statement("t1", "A raises B, which lowers C; D prevents C.", True, (
        Relation("a", "b", trigger="raises", correlation=P, polarity=CAUSES),
        Relation("b", "c", trigger="lowers", correlation=N, polarity=CAUSES),
        Relation("d", "c", trigger="prevents", correlation=N, polarity=PREVENTS),
    ))


def _payload(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="cg-data">(.*?)</script>', page, re.S)
    return json.loads(m.group(1))


# -- triggers ------------------------------------------------------------------

def test_highlight_triggers_marks_every_occurrence_case_insensitively():
    out, missing = highlight_triggers("Rain causes floods. Causes differ.", ["causes"])
    assert out == ('Rain <mark class="trigger">causes</mark> floods. '
                   '<mark class="trigger">Causes</mark> differ.')
    assert missing == []


def test_highlight_triggers_prefers_the_longer_of_overlapping_triggers():
    out, _ = highlight_triggers("X leads to Y.", ["leads", "leads to"])
    assert out == 'X <mark class="trigger">leads to</mark> Y.'


def test_highlight_triggers_needs_word_boundaries_and_reports_missing_triggers():
    out, missing = highlight_triggers("Warming rewarms.", ["warms", "has affected"])
    assert out == "Warming rewarms."
    assert missing == ["warms", "has affected"]


def test_highlight_triggers_escapes_text_and_triggers():
    out, _ = highlight_triggers("a <b> & c", ["<b>"])
    assert out == 'a <mark class="trigger">&lt;b&gt;</mark> &amp; c'


# -- viewer data ----------------------------------------------------------------

def test_viewer_data_colours_nodes_by_chain_position_and_sizes_them_by_degree():
    d = viewer_data(_chain())
    by_event = {n["event"]: n for n in d.nodes}
    # Positions worked out by hand from the paper's definition (a path of >= 3 nodes).
    assert {e: n["position"] for e, n in by_event.items()} == {"a": "start", "b": "middle", "c": "end", "d": "none"}
    assert by_event["a"]["color"] == POSITION_COLORS["start"]
    assert by_event["d"]["color"] == POSITION_COLORS["none"]
    # degrees: a 1, b 2, c 2, d 1
    assert [by_event[e]["size"] for e in "abcd"] == [15, 20, 20, 15]


def test_viewer_data_colours_edges_by_correlation_and_dashes_negative_relation_types():
    d = viewer_data(_chain())
    edges = {(d.nodes[e["from"]]["event"], d.nodes[e["to"]]["event"]): e for e in d.edges}
    assert edges[("a", "b")]["color"]["color"] == CORRELATION_COLORS["positive"]
    assert edges[("b", "c")]["color"]["color"] == CORRELATION_COLORS["negative"]
    assert edges[("a", "b")]["dashes"] is False and edges[("b", "c")]["dashes"] is False
    assert edges[("d", "c")]["dashes"] == [10, 6]
    assert "trigger: prevents" in edges[("d", "c")]["title"]
    assert "relation type: negative (prevents)" in edges[("d", "c")]["title"]


def test_viewer_data_marks_conflicting_labels():
    s = Statement("t", "x", True, (Relation("a", "b", correlation=P), Relation("a", "b", correlation=N)))
    (edge,) = viewer_data(s).edges
    assert edge["correlation"] == "conflicting"
    assert edge["color"]["color"] == CORRELATION_COLORS["conflicting"]


def test_viewer_data_draws_belongs_to_and_nesting_as_dotted_edges_to_the_overarching_event():
    s = Statement("t", "x", True, (
        Relation("a", "b", combined=True, cause_belongs_to="A+C"),
        Relation("c", "b", combined=True, cause_belongs_to="A+C"),
        Relation("e", "f", combined=False, nested=False, effect_belongs_to="b"),
        Relation("g", "h", nested=True, effect_belongs_to="N"),
        Relation("g", "i", nested=True, effect_belongs_to="N"),
    ))
    d = viewer_data(s)
    name = {n["id"]: n["event"] for n in d.nodes}
    got = [(e["kind"], name[e["from"]], name[e["to"]]) for e in d.edges if e["kind"] != "causal"]
    assert got == [("common", "a", "A+C"), ("common", "c", "A+C"),
                   ("elaboration", "f", "b"),
                   ("nesting", "g", "N"), ("nesting", "h", "N"), ("nesting", "i", "N")]
    # "b" is a causal event already; A+C and N are added once each, as boxes.
    assert [(n["event"], n["kind"]) for n in d.nodes if n["kind"] == "overarching"] == [("A+C", "overarching"),
                                                                                        ("N", "overarching")]
    for e in d.edges:
        if e["kind"] != "causal":
            assert e["dashes"] == [2, 5]
            assert e["color"]["color"] == OVERLAY_STYLES[e["kind"]]["color"]
    nest_g = next(e for e in d.edges if e["kind"] == "nesting" and name[e["from"]] == "g")
    assert "nested relation: g → h" in nest_g["title"] and "nested relation: g → i" in nest_g["title"]


def test_viewer_data_counts_match_the_compiled_graph_on_cc_047(climatecause):
    g = compile_graph(climatecause["cc-047"])
    d = viewer_data(g)
    assert d.count("event") == len(g.nodes) == 15
    assert d.count("causal") == len(g.edges)
    assert d.count("common") == len(g.common) and d.count("elaboration") == len(g.elaboration)
    over = {b.overarching for b in g.common + g.elaboration} | set(g.nesting)
    assert d.count("overarching") == len(over - set(g.nodes))


def test_viewer_data_rejects_missing_positions():
    with pytest.raises(ConfigError, match="no chain position given for event 'c'"):
        viewer_data(_chain(), positions={"a": "start", "b": "middle", "d": "none"})


def test_viewer_data_refuses_graphs_over_the_node_limit(monkeypatch):
    import causalgraph.html.graph_page as viz

    monkeypatch.setattr(viz, "MAX_VIEW_NODES", 3)
    with pytest.raises(ConfigError, match="statement t1: its graph has 4 events; the viewer draws at most "
                                          "MAX_VIEW_NODES = 3"):
        viewer_data(_chain())


def test_to_pyvis_without_pyvis_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyvis.network", None)
    with pytest.raises(ConfigError, match=r"pyvis.network is needed .* pip install 'causalgraph\[viz\]'"):
        to_pyvis(_chain())


def test_to_pyvis_builds_a_directed_network_with_every_node_and_edge():
    net = to_pyvis(_chain())
    assert net.directed is True
    assert (net.num_nodes(), net.num_edges()) == (4, 3)
    assert [e["arrows"] for e in net.edges] == ["to", "to", "to"]


# -- the page -------------------------------------------------------------------

def test_graph_html_inlines_all_scripts_and_styles():
    page = graph_html(_chain())
    assert not re.search(r"<(script|link|img|iframe)[^>]*\s(src|href)\s*=", page, re.I)
    assert "cdnjs" not in page and "jsdelivr" not in page and "sourceMappingURL" not in page
    assert "vis-network" in page and "new vis.Network" in page
    assert '<mark class="trigger">raises</mark>' in page


def test_graph_html_escapes_hostile_data_in_html_and_embedded_json():
    from causalgraph.html.kit import _vis_assets

    js, css = _vis_assets()
    full = graph_html(hostile.hostile_statement())
    # Leave the inlined library out: its own code builds "<script>" strings.
    page = full.replace(js, "").replace(css, "")
    assert len(page) < len(full) - len(js)
    # The only tags are the page's own: three scripts, no img/svg/b/i from the data.
    assert len(re.findall(r"<script\b", page)) == 3
    assert len(re.findall(r"</script", page)) == 3
    for tag in ("<img", "<svg", "<b ", "<i>", "<!--"):
        assert tag not in page
    assert "&lt;script&gt;window.__pwned = &quot;text&quot;&lt;/script&gt;" in page
    data = _payload(page)
    labels = {n["event"] for n in data["nodes"]}
    assert {hostile.CAUSE, hostile.EFFECT, hostile.OVER, hostile.NEST} <= labels
    assert "\u2028" not in page.split('id="cg-data">')[1].split("</script>")[0]


@pytest.mark.slow
def test_graph_html_is_identical_whatever_the_hash_seed():
    code = ("import sys; from causalgraph.html.graph_page import graph_html; sys.path.insert(0, 'tests/browser'); "
            "from hostile import hostile_statement; sys.stdout.write(graph_html(hostile_statement()))")
    root = Path(__file__).resolve().parents[2]
    seed = "1" if os.environ.get("PYTHONHASHSEED") == "2" else "2"
    child = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout
    assert child == graph_html(hostile.hostile_statement()).encode("utf-8")


def test_graph_html_of_a_statement_without_causality_says_so():
    page = graph_html(Statement("n1", "Nothing follows from this.", False))
    assert "<li>This statement has no annotated causal relation: there is no graph to draw.</li>" in page
    assert _payload(page)["nodes"] == [] and _payload(page)["edges"] == []


def test_write_graph_html_rejects_a_non_html_file_name(tmp_path):
    with pytest.raises(ConfigError, match=r"graph\.txt: the viewer writes HTML"):
        write_graph_html(_chain(), tmp_path / "graph.txt")


def test_show_writes_the_page_without_opening_a_browser(tmp_path):
    p = show(_chain(), tmp_path / "sub" / "t1.html", open_browser=False)
    assert p.is_file() and p.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_show_opens_the_written_page_in_the_browser(tmp_path, monkeypatch):
    import webbrowser

    opened = []
    monkeypatch.setattr(webbrowser, "open", lambda uri: opened.append(uri) or True)
    p = show(_chain(), tmp_path / "t1.html")
    assert opened == [p.as_uri()] and p.is_absolute()


def test_safe_filename_keeps_ids_and_neutralises_paths():
    assert safe_filename("cc-007") == "cc-007"
    assert safe_filename("../../etc/passwd") == "_.._etc_passwd"
    assert safe_filename("...") == "_"


# -- CLI --------------------------------------------------------------------------

def test_view_cli_writes_the_statement_page(tmp_path, climatecause_path, climatecause, capsys):
    out = tmp_path / "g.html"
    assert main(["view", "--statement", "cc-007", "--data", str(climatecause_path), "-o", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out.resolve())
    page = out.read_text(encoding="utf-8")
    assert "<h1>Statement cc-007</h1>" in page
    assert len(_payload(page)["edges"]) == len(compile_graph(climatecause["cc-007"]).edges) == 4


def test_view_cli_unknown_statement_is_one_line_error_with_exit_2(climatecause_path, capsys):
    assert main(["view", "--statement", "cc-999", "--data", str(climatecause_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "no such statement in corpus 'climatecause' (75 statements, ids cc-001 … cc-075)" in err


# -- shared assets, CSP, iframes ---------------------------------------------------------

def test_graph_html_with_assets_links_the_shared_files_instead_of_inlining_them():
    from causalgraph.html.kit import vis_assets

    js, css = vis_assets()
    page = graph_html(_chain(), assets="../assets/")
    assert js not in page and css not in page and len(page) < 60_000
    assert re.findall(r'<(?:script|link)[^>]*(?:src|href)="([^"]*)"', page) == \
        ["../assets/vis-network.css", "../assets/vis-network.min.js"]
    csp = re.search(r'Content-Security-Policy" content="([^"]*)"', page).group(1)
    assert csp.startswith("default-src 'none'; script-src 'self' 'sha256-")
    # Inlined, the same page allows exactly its two inline scripts by hash and nothing from 'self'.
    inline = graph_html(_chain())
    csp = re.search(r'Content-Security-Policy" content="([^"]*)"', inline).group(1)
    assert "'self'" not in csp and csp.count("'sha256-") == 2 and "script-src 'unsafe-inline'" not in csp


def test_iframe_html_escapes_the_page_into_srcdoc():
    import html as _html

    from causalgraph.html.kit import iframe_html

    page = graph_html(hostile.hostile_statement())
    frame = iframe_html(page, height='1px" onload="x')
    assert frame.startswith('<iframe sandbox="allow-scripts" style="width:100%;height:1px&quot; onload=&quot;x;')
    src = re.search(r'srcdoc="([^"]*)"></iframe>$', frame).group(1)
    assert _html.unescape(src) == page


def test_causal_graph_shows_itself_in_jupyter_as_a_sandboxed_page():
    g = compile_graph(_chain())
    out = g._repr_html_()
    assert out.startswith('<iframe sandbox="allow-scripts" ') and "vis-network" in out
